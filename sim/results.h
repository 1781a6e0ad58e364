/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One side of a comparison (fairsim --compare, --twin): the result files
 * fairsim wrote (--json, or --from-trace --json), read back whole. Only
 * the user-side tools that compare results include it (json-c's types).
 */
#ifndef SIM_RESULTS_H
#define SIM_RESULTS_H

#include <json-c/json.h>

#define SIM_MAX_RESULTS	64

struct sim_results {
	json_object *r[SIM_MAX_RESULTS];
	const char *path[SIM_MAX_RESULTS];
	int n;
};

int sim_results_load(struct sim_results *s, const char *path, const char *need,
		     const char *hint);
void sim_results_put(struct sim_results *s);

#endif

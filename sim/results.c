// SPDX-License-Identifier: GPL-2.0
/*
 * Result files read back for --compare and --twin: each must be a JSON
 * object with the per-definition figures ("by_task") and, where the
 * caller needs it, @need; anything else is refused in one line naming the
 * file and how such a file is made (@hint).
 */
#include <stdio.h>
#include "results.h"

int sim_results_load(struct sim_results *s, const char *path, const char *need,
		     const char *hint)
{
	json_object *r = json_object_from_file(path);

	if (!r || !json_object_is_type(r, json_type_object) ||
	    !json_object_object_get_ex(r, "by_task", NULL) ||
	    (need && !json_object_object_get_ex(r, need, NULL))) {
		fprintf(stderr, "fairsim: %s is not a fairsim result file (%s)\n", path, hint);
		json_object_put(r);
		return -1;
	}
	if (s->n == SIM_MAX_RESULTS) {
		fprintf(stderr, "fairsim: at most %d result files a side\n", SIM_MAX_RESULTS);
		json_object_put(r);
		return -1;
	}
	s->path[s->n] = path;
	s->r[s->n++] = r;
	return 0;
}

void sim_results_put(struct sim_results *s)
{
	for (int i = 0; i < s->n; i++)
		json_object_put(s->r[i]);
	s->n = 0;
}

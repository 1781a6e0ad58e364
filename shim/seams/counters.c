// SPDX-License-Identifier: GPL-2.0
/*
 * The tally of counted no-op seams: every SEAM_NOOP() site puts its counter
 * in one linker section, so a test can ask how often fair.c made a call
 * that the harness deliberately does nothing for.
 */
#include <linux/string.h>
#include "seam.h"

extern struct ft_seam_counter __start_fairtest_seam_counters[];
extern struct ft_seam_counter __stop_fairtest_seam_counters[];

unsigned long ft_seam_hits(const char *symbol)
{
	for (struct ft_seam_counter *c = __start_fairtest_seam_counters;
	     c < __stop_fairtest_seam_counters; c++)
		if (!strcmp(c->symbol, symbol))
			return c->hits;
	return 0;
}

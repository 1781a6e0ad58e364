// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/sched/rt.c and cpupri.c, reached only through the
 * root domains topology.c builds: the RT priority map and the RT push
 * work. No RT tasks exist in the harness, so the map is a counted no-op
 * and the push work, whose address is merely stored, must never run.
 */
#include "../ksched.h"
#include "seam.h"

int cpupri_init(struct cpupri *cp)
{
	SEAM_NOOP();
	return 0;
}

void cpupri_cleanup(struct cpupri *cp)
{
	SEAM_NOOP();
}

void rto_push_irq_work_func(struct irq_work *work)
{
	SEAM_ABORT();
}

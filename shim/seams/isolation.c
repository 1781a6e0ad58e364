// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by sched/isolation.c, time/tick-sched.c and context
 * tracking, for a CONFIG_NO_HZ_FULL build (the debian profile). No CPU is
 * a nohz_full CPU, as in Debian's kernel booted without nohz_full=: every
 * CPU does housekeeping, the full-dynticks machinery is compiled and off.
 */
#include <linux/sched/isolation.h>
#include <linux/tick.h>
#include <linux/context_tracking_state.h>
#include <linux/cpumask.h>
#include "seam.h"

#ifdef CONFIG_CPU_ISOLATION
DEFINE_STATIC_KEY_FALSE(housekeeping_overridden);

const struct cpumask *housekeeping_cpumask(enum hk_type type)
{
	return cpu_possible_mask;
}

bool housekeeping_test_cpu(int cpu, enum hk_type type)
{
	return true;
}
#endif

#ifdef CONFIG_NO_HZ_FULL
cpumask_var_t tick_nohz_full_mask;
bool tick_nohz_full_running;

void tick_nohz_dep_set_cpu(int cpu, enum tick_dep_bits bit)
{
	SEAM_NOOP();
}

void tick_nohz_dep_clear_cpu(int cpu, enum tick_dep_bits bit)
{
	SEAM_NOOP();
}

/* Asked only of a nohz_full CPU: there is none. */
bool sched_can_stop_tick(struct rq *rq)
{
	SEAM_ABORT();
}
#endif

#ifdef CONFIG_CONTEXT_TRACKING_USER
DEFINE_STATIC_KEY_FALSE(context_tracking_key);
#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual clock. One nanosecond counter for the whole machine (what
 * sched_clock_cpu() returns on every CPU), moved only by the driver, never
 * by the host's clock: the same operations give the same times every run.
 * Advancing it charges the elapsed time to each CPU that had a task
 * running (the busy time tests compare exec time against) and moves
 * jiffies at the tree's HZ.
 */
#include "driver.h"

u64 ft_clock_now(void)
{
	return ft_m.now;
}

u64 ft_now(void)
{
	return ft_m.now;
}

void ft_clock_advance_to(u64 t)
{
	if (t <= ft_m.now)
		return;
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++)
		if (cpu_rq(cpu)->curr != cpu_rq(cpu)->idle)
			ft_m.busy_ns[cpu] += t - ft_m.now;
	ft_m.now = t;
	jiffies = INITIAL_JIFFIES + div_u64(t, TICK_NSEC);
}

u64 ft_cpu_busy_ns(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus ? ft_m.busy_ns[cpu] : 0;
}

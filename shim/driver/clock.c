// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual clock. One nanosecond counter for the whole machine (what
 * sched_clock_cpu() returns on every CPU), moved only by the driver, never
 * by the host's clock: the same operations give the same times every run.
 * Advancing it charges the elapsed time to each CPU that had a task
 * running (the busy time tests compare exec time against) and moves
 * jiffies at the tree's HZ.
 *
 * The clock's failure points are what a real sched_clock does: jump ahead
 * after a paused VM and stay ahead; read behind once when a remote rq is
 * updated from a CPU whose TSC lags; stand still between reads when it is
 * a coarse (jiffies-based) clock. What the rq clock makes of each is
 * update_rq_clock()'s business, as in the kernel.
 */
#include "driver.h"

#define FT_CLOCK_JUMP_NS	(2 * NSEC_PER_SEC)
#define FT_CLOCK_BEHIND_NS	NSEC_PER_MSEC

u64 ft_clock_now(void)
{
	return ft_m.now;
}

u64 ft_now(void)
{
	return ft_m.now;
}

u64 ft_clock_peek(void)
{
	return ft_m.now + ft_m.clock_ahead;
}

/* sched_clock runs @ahead of now: every CPU's run budget end moves (loop.c). */
void ft_clock_set_ahead(u64 ahead)
{
	ft_m.clock_ahead = ahead;
	memset(ft_m.budget_known, 0, sizeof(ft_m.budget_known));
	ft_m.budget_next_known = false;
}

u64 ft_clock_read(int cpu)
{
	u64 t;

	if (ft_host_fail(FT_FP_CLOCK_JUMP))
		ft_clock_set_ahead(ft_m.clock_ahead + FT_CLOCK_JUMP_NS);
	t = ft_clock_peek();
	if (ft_host_fail(FT_FP_CLOCK_BACKWARDS))
		t = t > FT_CLOCK_BEHIND_NS ? t - FT_CLOCK_BEHIND_NS : 0;
	else if (ft_host_fail(FT_FP_CLOCK_STALL))
		t = min(t, ft_m.clock_last[cpu]);
	ft_m.clock_last[cpu] = t;
	return t;
}

void ft_clock_advance_to(u64 t)
{
	if (t <= ft_m.now)
		return;
	ft_idle_account(t);
	/* the CPUs' own structs are far apart: the switch keeps a mask */
	for (u64 busy = ft_m.busy_cpus; busy; busy &= busy - 1)
		ft_m.busy_ns[__builtin_ctzll(busy)] += t - ft_m.now;
	ft_m.now = t;
	jiffies = INITIAL_JIFFIES + div_u64(t, TICK_NSEC);
}

u64 ft_cpu_busy_ns(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus ? ft_m.busy_ns[cpu] : 0;
}

u64 ft_rq_clock(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus ? cpu_rq(cpu)->clock : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual clock. One nanosecond counter for the whole machine (what
 * sched_clock_cpu() returns on every CPU), moved only by the driver, never
 * by the host's clock: the same operations give the same times every run.
 * Each CPU's busy time (a task, not the idle task, was curr: what tests
 * compare exec time against) is charged when the CPU goes idle, and read
 * as of now; advancing the clock moves jiffies at the tree's HZ.
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
	ft_m.budget_kept = 0;
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
	ft_m.now = t;
	jiffies = INITIAL_JIFFIES + div_u64(t, TICK_NSEC);
}

void ft_cpu_set_busy(int cpu, bool busy)
{
	u64 bit = BIT_ULL(cpu);

	if (busy == !!(ft_m.busy_cpus & bit))
		return;
	if (busy) {
		ft_m.busy_since[cpu] = ft_m.now;
		ft_m.busy_cpus |= bit;
	} else {
		ft_m.busy_ns[cpu] += ft_m.now - ft_m.busy_since[cpu];
		ft_m.busy_cpus &= ~bit;
	}
}

u64 ft_cpu_busy_ns(int cpu)
{
	if (cpu < 0 || cpu >= ft_m.nr_cpus)
		return 0;
	if (ft_m.busy_cpus & BIT_ULL(cpu))
		return ft_m.busy_ns[cpu] + ft_m.now - ft_m.busy_since[cpu];
	return ft_m.busy_ns[cpu];
}

u64 ft_rq_clock(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus ? cpu_rq(cpu)->clock : 0;
}

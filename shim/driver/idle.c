// SPDX-License-Identifier: GPL-2.0
/*
 * The unreasonable-idle detector, on unless its caller will not ask
 * (ft_idle_detector_off(), until the next boot). The LB_PROMOTE series calls a
 * CPU unreasonably idle when it stays idle for t while a task that could
 * run there (allowed, runnable, not delayed) waits on another CPU, for t
 * over 2.5 ms. State only changes inside operations and time only moves in
 * ft_clock_advance_to(), so the state seen just before the clock moves
 * holds for the whole step: each step either opens, extends or closes a
 * CPU's interval, exactly, with no sampling. Closed intervals are counted
 * in the series' buckets; an open one is counted as of now when asked.
 */
#include "driver.h"

static int bucket_of(u64 len)
{
	if (len <= FT_IDLE_MIN_NS)
		return -1;
	if (len <= 3 * NSEC_PER_MSEC)
		return 0;
	return len <= 4 * NSEC_PER_MSEC ? 1 : 2;
}

static void close_interval(struct ft_idle_detector *d, int cpu, u64 end)
{
	u64 len = end - d->since[cpu];
	int b = bucket_of(len);

	if (b >= 0)
		d->count[cpu][b]++;
	d->longest[cpu] = max(d->longest[cpu], len);
	d->since[cpu] = 0;
}

/*
 * Of the @idle CPUs, those some waiting task could run on, other than the
 * one it waits on: once every idle CPU is wanted, the other tasks cannot
 * change the answer (an overloaded machine has no idle CPU to ask about).
 * Masks of up to 64 CPUs (FT_MAX_CPUS) are a cpumask's first word.
 */
static u64 wanted_cpus(u64 idle)
{
	u64 wanted = 0;

	ft_for_each_task_id(id) {
		struct task_struct *p = ft_m.tasks[id].p;

		if (!task_on_rq_queued(p) || task_current(task_rq(p), p) ||
		    p->se.sched_delayed)
			continue;
		wanted |= cpumask_bits(p->cpus_ptr)[0] & ~BIT_ULL(task_cpu(p));
		if (!(idle & ~wanted))
			break;
	}
	return wanted;
}

/*
 * The machine's state now holds until @until: open, keep or close. With
 * nothing changed since the last step, each CPU's interval is open exactly
 * when it should be, and stays so. The idle CPUs are those the switch
 * left without a task (ft_m.busy_cpus); only the CPUs whose interval
 * opens or closes are visited.
 */
void ft_idle_account(u64 until)
{
	struct ft_idle_detector *d = &ft_m.idle_det;
	u64 idle = ft_cpus_all() & ~ft_m.busy_cpus, bad;

	if (ft_m.idle_clean || ft_m.idle_det_off)
		return;
	ft_m.idle_clean = true;
	bad = idle ? idle & wanted_cpus(idle) : 0;
	ft_for_each_cpu_in(cpu, bad ^ d->open) {
		if (bad & BIT_ULL(cpu))
			d->since[cpu] = ft_m.now + 1;	/* 0 means closed */
		else
			close_interval(d, cpu, ft_m.now + 1);
	}
	d->open = bad;
}

/* off until the next boot: turned on again, it would count from a stale state */
void ft_idle_detector_off(void)
{
	ft_m.idle_det_off = true;
}

static void add_cpu_stats(int cpu, struct ft_idle_stats *out)
{
	struct ft_idle_detector *d = &ft_m.idle_det;
	u64 open = d->since[cpu] ? ft_m.now + 1 - d->since[cpu] : 0;
	int b = bucket_of(open);

	for (int i = 0; i < FT_IDLE_BUCKETS; i++)
		out->count[i] += d->count[cpu][i];
	if (b >= 0)
		out->count[b]++;
	out->longest_ns = max3(out->longest_ns, d->longest[cpu], open);
}

int ft_unreasonable_idle(int cpu, struct ft_idle_stats *out)
{
	if (!ft_m.booted || cpu < -1 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	if (ft_m.idle_det_off)
		return -ENODATA;
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < ft_m.nr_cpus; c++)
		if (cpu < 0 || c == cpu)
			add_cpu_stats(c, out);
	return 0;
}

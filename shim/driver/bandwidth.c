// SPDX-License-Identifier: GPL-2.0
/*
 * What core.c does around fair.c's CFS bandwidth control and hrtick: the
 * task-group tree walk throttling uses, the cpu.max write
 * (tg_set_cfs_bandwidth: quota, period and burst set under the
 * bandwidth lock, the pool refilled, the period timer started, each CPU's
 * queue told and unthrottled), and the per-rq hrtick timer (armed by
 * hrtick_start(), fired by the event loop through shim/seams/hrtimer.c,
 * a tick of its own on expiry, cancelled when the CPU schedules, or from
 * 7.2 kept through it and re-armed once the pick is done). The
 * validation of cpu.max against parents (__cfs_schedulable) is not
 * modelled: tests set feasible limits. With them, uclamp's two entry
 * points: no clamps are ever set.
 */
#include "driver.h"

int walk_tg_tree_from(struct task_group *from, tg_visitor down, tg_visitor up, void *data)
{
	struct task_group *child;
	int ret = down(from, data);

	if (ret)
		return ret;
	list_for_each_entry_rcu(child, &from->children, siblings) {
		ret = walk_tg_tree_from(child, down, up, data);
		if (ret)
			return ret;
	}
	return up(from, data);
}

int tg_nop(struct task_group *tg, void *data)
{
	return 0;
}

#ifdef CONFIG_CFS_BANDWIDTH
/* cpu.max's limits, as core.c states them (in us from 7.2). */
#ifdef FT_HAVE_MAX_BW_QUOTA_PERIOD_US
const u64 max_bw_quota_period_us = 1 * USEC_PER_SEC;
#define max_cfs_quota_period	(max_bw_quota_period_us * NSEC_PER_USEC)
#else
const u64 max_cfs_quota_period = 1 * NSEC_PER_SEC;
#endif
#define FT_MIN_CFS_QUOTA_PERIOD	NSEC_PER_MSEC

int ft_group_set_bandwidth(int group, u64 period_ns, u64 quota_ns, u64 burst_ns)
{
	struct task_group *tg = ft_group_of(group);
	struct cfs_bandwidth *cfs_b;
	bool enabled, was_enabled;
	int cpu;

	ft_op_begin("group_set_bandwidth", group, quota_ns);
	if (!tg || tg == &root_task_group)
		return -EINVAL;
	if (quota_ns == FT_QUOTA_INF)
		quota_ns = RUNTIME_INF;
	if (quota_ns < FT_MIN_CFS_QUOTA_PERIOD || period_ns < FT_MIN_CFS_QUOTA_PERIOD ||
	    period_ns > max_cfs_quota_period)
		return -EINVAL;
	if (quota_ns != RUNTIME_INF && burst_ns > quota_ns)
		return -EINVAL;
	cfs_b = &tg->cfs_bandwidth;
	enabled = quota_ns != RUNTIME_INF;
	was_enabled = cfs_b->quota != RUNTIME_INF;
	if (enabled && !was_enabled)
		cfs_bandwidth_usage_inc();
	ft_switch_cpu(0);
	raw_spin_lock_irq(&cfs_b->lock);
	cfs_b->period = ns_to_ktime(period_ns);
	cfs_b->quota = quota_ns;
	cfs_b->burst = burst_ns;
	cfs_b->hierarchical_quota = quota_ns;
	__refill_cfs_bandwidth_runtime(cfs_b);
	if (enabled)
		start_cfs_bandwidth(cfs_b);
	raw_spin_unlock_irq(&cfs_b->lock);

	for_each_online_cpu(cpu) {
		struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);
		struct rq *rq = cpu_rq(cpu);
		struct rq_flags rf;

		ft_switch_cpu(cpu);
		local_irq_disable();
		rq_lock(rq, &rf);
		cfs_rq->runtime_enabled = enabled;
#ifdef FT_HAVE_CFS_THROTTLE_WORK
		/* 7.x: a token positive runtime; unthrottling wants the clock updated */
		cfs_rq->runtime_remaining = 1;
		if (cfs_rq->throttled) {
			update_rq_clock(rq);
			unthrottle_cfs_rq(cfs_rq);
		}
#else
		cfs_rq->runtime_remaining = 0;
		if (cfs_rq->throttled)
			unthrottle_cfs_rq(cfs_rq);
#endif
		rq_unlock(rq, &rf);
		local_irq_enable();
	}
	if (was_enabled && !enabled)
		cfs_bandwidth_usage_dec();
	ft_resched_pending();
	return 0;
}

int ft_cfs_throttled(int cpu, int group)
{
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);

	return cfs_rq ? cfs_rq->throttled : -EINVAL;
}

int ft_group_bandwidth(int group, struct ft_bandwidth_info *info)
{
	struct task_group *tg = ft_group_of(group);
	struct cfs_bandwidth *cfs_b;

	if (!tg)
		return -EINVAL;
	cfs_b = &tg->cfs_bandwidth;
	*info = (struct ft_bandwidth_info){
		.quota = cfs_b->quota == RUNTIME_INF ? FT_QUOTA_INF : cfs_b->quota,
		.period = ktime_to_ns(cfs_b->period),
		.runtime = cfs_b->runtime,
		.nr_periods = cfs_b->nr_periods,
		.nr_throttled = cfs_b->nr_throttled,
		.period_active = cfs_b->period_active,
	};
	return 0;
}
#else
int ft_group_set_bandwidth(int group, u64 period_ns, u64 quota_ns, u64 burst_ns)
{
	return -EOPNOTSUPP;
}

int ft_cfs_throttled(int cpu, int group)
{
	return -EOPNOTSUPP;
}

int ft_group_bandwidth(int group, struct ft_bandwidth_info *info)
{
	return -EOPNOTSUPP;
}
#endif /* CONFIG_CFS_BANDWIDTH */

#ifdef CONFIG_SCHED_HRTICK
/*
 * core.c's hrtick(): a tick of the running class's own, between ticks. It
 * is an operation of its own: the one before it (a wake-up, say) must not
 * lend it its name, or a reschedule it asks for would wait the wake-up
 * preemption cost (nohz.c) where it waits the hrtick's own (0: at once).
 */
static enum hrtimer_restart ft_hrtick(struct hrtimer *timer)
{
	struct rq *rq = container_of(timer, struct rq, hrtick_timer);
	struct rq_flags rf;

	ft_op_begin1("hrtick", cpu_of(rq));
	rq_lock(rq, &rf);
	update_rq_clock(rq);
	ft_observe_tick(rq, rq->curr, 1);
	rq->curr->sched_class->task_tick(rq, rq->curr, 1);
	rq_unlock(rq, &rf);
	ft_m.hrticks[cpu_of(rq)]++;
	return HRTIMER_NORESTART;
}

/* the tree's __schedule() keeps the running slice's timer (7.2+) */
static const bool ft_hrtick_kept = IS_ENABLED(FT_HAVE_HRTICK_SCHED_DEFER);

/*
 * A timer interrupt's handler reads the clock after the expiry it was
 * programmed for, never at it. fair.c relies on that: its hrtick delay is
 * the time left to the virtual deadline rounded down, and for a weight
 * other than nice 0 the vruntime that delay buys, rounded down again, falls
 * a nanosecond short of the deadline. Fired exactly on time the hrtick
 * would find the slice unfinished, keep the deadline, and the task picked
 * again would run on to the tick with no timer. So the driver's hrtick
 * fires this long after the time core.c asked for. The guest's handler
 * reads the clock 520/528/536 ns (p1/p50/p99) after the expiry, the
 * hrtick, the tick and a sleep timer alike (Debian's 7.3.4 under QEMU
 * icount:1, the sleeper: FAIRTEST_TWIN_EVENTS=twin/events/timer-7.3.events
 * make twin ..., then twin/timer_lateness.py B real-1/trace); the driver
 * rounds that up to the microsecond, the resolution of fairsim's trace,
 * so that --from-trace of its own trace gives the run's figures exactly
 * (tests/sim/run.sh; with 528 ns they differ by the rounding). The tick
 * comes as late there, and a late interrupt runs every timer due in expiry
 * order; the model's tick stays on its grid, so a longer delay here would
 * let a tick overtake an hrtick that was due first.
 */
#define FT_HRTICK_IRQ_NS	1000

/*
 * Arm this CPU's hrtick @delay from now. From 7.2 a reschedule keeps the
 * running slice's timer, so a queued timer within 5 us of the new expiry
 * stays as it is rather than being moved by a few nanoseconds.
 */
static void ft_hrtick_set(struct rq *rq, u64 delay)
{
	struct hrtimer *timer = &rq->hrtick_timer;
	ktime_t when = ktime_add_ns(ns_to_ktime(ft_clock_now()), delay);

	rq->hrtick_time = when;
	when = ktime_add_ns(when, FT_HRTICK_IRQ_NS);
	if (ft_hrtick_kept && hrtimer_is_queued(timer) &&
	    abs(when - hrtimer_get_expires(timer)) <= 5 * NSEC_PER_USEC)
		return;
	ft_hrtimer_start_on(timer, when, cpu_of(rq));
}

void hrtick_start(struct rq *rq, u64 delay)
{
	int cpu = cpu_of(rq);

	/* slices shorter than 10 us are timed as 10 us */
	delay = max_t(u64, delay, 10 * NSEC_PER_USEC);
	ft_observe_hrtick_start(rq, delay, ft_m.hrtick_in_schedule[cpu]);
	if (ft_m.hrtick_in_schedule[cpu])
		ft_m.hrtick_pending[cpu] = delay;	/* the last request wins */
	else
		ft_hrtick_set(rq, delay);
}

void ft_hrtick_init(struct rq *rq)
{
#ifdef FT_HAVE_HRTIMER_SETUP
	hrtimer_setup(&rq->hrtick_timer, ft_hrtick, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
#else
	hrtimer_init(&rq->hrtick_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	rq->hrtick_timer.function = ft_hrtick;
#endif
}

/*
 * Our schedule() brackets its pick with these two. Trees before 7.2 drop
 * the running slice's timer on entry and their pick asks for a new one at
 * once. From 7.2 the timer survives the reschedule: requests made during
 * the pick wait in hrtick_pending[] and only the last one is armed on exit,
 * switch or not (a task picked again gets no set_next_task() and would
 * otherwise run on to the tick); a CPU left idle has nothing to time.
 */
void ft_hrtick_schedule_enter(struct rq *rq)
{
	int cpu = cpu_of(rq);

	if (ft_hrtick_kept) {
		ft_m.hrtick_in_schedule[cpu] = true;
		ft_m.hrtick_pending[cpu] = 0;
	} else if (hrtimer_active(&rq->hrtick_timer)) {
		hrtimer_cancel(&rq->hrtick_timer);
	}
}

/*
 * From 7.2 the slice's timer is armed on __schedule()'s way out, relative
 * to then, while the slice it times is accounted from the pick's clock
 * update. What lies between (the pick, the context switch, the rest of
 * __schedule()) the driver's switch does at once; on the guest it is not
 * nothing: Debian's 7.3.4 under QEMU icount arms 697-698 us for a 700 us
 * slice at the switch (2-3 us of the last one's hrtick to switch charged
 * to it), yet runs 707-710 us from switch to switch (the sleeper and the
 * weights twins; FAIRTEST_TWIN_EVENTS=twin/events/sleep-7.3.events, hrs
 * lines). ft_set_hrtick_arm() sets that time: the timer's expiry comes
 * that much later; 0 (the default): none.
 */
static u64 hrtick_arm;

void ft_set_hrtick_arm(u64 ns)
{
	hrtick_arm = ns;
}

void ft_hrtick_schedule_exit(struct rq *rq)
{
	int cpu = cpu_of(rq);
	u64 delay = ft_m.hrtick_pending[cpu];
	bool idle = rq->curr == rq->idle && !rq->nr_running;

	if (!ft_m.hrtick_in_schedule[cpu])
		return;
	ft_m.hrtick_in_schedule[cpu] = false;
	ft_m.hrtick_pending[cpu] = 0;
	if (delay)
		ft_hrtick_set(rq, delay + hrtick_arm);
	else if (idle && hrtimer_is_queued(&rq->hrtick_timer))
		hrtimer_cancel(&rq->hrtick_timer);
}
#else
void ft_hrtick_init(struct rq *rq)
{
}

void ft_hrtick_schedule_enter(struct rq *rq)
{
}

void ft_set_hrtick_arm(u64 ns)
{
}

void ft_hrtick_schedule_exit(struct rq *rq)
{
}
#endif /* CONFIG_SCHED_HRTICK */

bool ft_throttle_deferred(void)
{
#if defined(CONFIG_CFS_BANDWIDTH) && defined(FT_HAVE_CFS_THROTTLE_WORK)
	return true;
#else
	return false;
#endif
}

bool ft_hrtick_available(void)
{
	return IS_ENABLED(CONFIG_SCHED_HRTICK);
}

bool ft_hrtick_kept_by_schedule(void)
{
#if defined(CONFIG_SCHED_HRTICK) && defined(FT_HAVE_HRTICK_SCHED_DEFER)
	return true;
#else
	return false;
#endif
}

unsigned long ft_cpu_hrticks(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus ? ft_m.hrticks[cpu] : 0;
}

#ifdef CONFIG_UCLAMP_TASK
/*
 * No task or group here ever asks for a clamp: sched_uclamp_used stays
 * off and every effective clamp is the unclamped range, as core.c
 * reports it for such a task.
 */
DEFINE_STATIC_KEY_FALSE(sched_uclamp_used);

unsigned long uclamp_eff_value(struct task_struct *p, enum uclamp_id clamp_id)
{
	return clamp_id == UCLAMP_MIN ? 0 : SCHED_CAPACITY_SCALE;
}

/*
 * core.c's init_uclamp_rq(): a runqueue starts idle with the unclamped
 * range, and with sched_uclamp_used off nothing ever changes it. fair.c
 * reads it unconditionally (effective_cpu_util()'s max: left at 0, EAS's
 * every frequency estimate would be 0).
 */
void ft_uclamp_init_rq(struct rq *rq)
{
	rq->uclamp[UCLAMP_MIN].value = 0;
	rq->uclamp[UCLAMP_MAX].value = SCHED_CAPACITY_SCALE;
	rq->uclamp_flags = UCLAMP_FLAG_IDLE;
}
#endif

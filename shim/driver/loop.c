// SPDX-License-Identifier: GPL-2.0
/*
 * The tick and the discrete-event loop. Time only moves here: the loop
 * jumps the virtual clock to the next event (a CPU's tick, a sleeper's
 * timer, a running task using up its run budget), handles it, then lets
 * every CPU asked to reschedule do so, in CPU order. No host time, no
 * threads: the same calls give the same schedule, byte for byte.
 *
 * The tick's failure points are what a periodic tick really does: it is
 * lost (an overrun hrtimer runs once for several periods), runs twice with
 * no time in between, or comes late after interrupts were off for longer
 * than the running slice. A timed sleep may be cut short by a spurious
 * wake-up halfway: the task runs, finds nothing to do and sleeps again
 * until its real wake-up.
 */
#include "driver.h"

/* sched_tick() on @cpu, then the preemption point of the interrupt exit */
static void tick_once(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct rq_flags rf;

	ft_switch_cpu(cpu);
	local_irq_disable();
	rq_lock(rq, &rf);
	update_rq_clock(rq);
#ifdef FT_HAVE_RESCHED_LAZY
	if (test_tsk_thread_flag(rq->curr, TIF_NEED_RESCHED_LAZY))
		resched_curr(rq);
#endif
	ft_observe_tick(rq, rq->curr, 0);
	rq->curr->sched_class->task_tick(rq, rq->curr, 0);
	rq_unlock(rq, &rf);
	local_irq_enable();
	rq->idle_balance = idle_cpu(cpu);
	sched_balance_trigger(rq);
	ft_irq_exit(cpu);
	ft_resched_pending();
}

static u64 tick_cost, timer_cost;	/* ft_set_tick_cost(), ft_set_timer_cost() */

void ft_set_tick_cost(u64 ns)
{
	tick_cost = ns;
}

void ft_set_timer_cost(u64 ns)
{
	timer_cost = ns;
}

/*
 * An interrupt's handler (the tick's, a sleep timer's) ran on the task it
 * interrupted: that task's work (its budget of exec time) ends @cost
 * later, the handler's time charged to it as a kernel without
 * IRQ_TIME_ACCOUNTING does.
 */
static void irq_charge(int cpu, u64 cost)
{
	struct task_struct *p = cpu_rq(cpu)->curr;
	struct ft_task *t;

	if (!cost || is_idle_task(p))
		return;
	t = &ft_m.tasks[p->pid];
	if (!t->driven || t->run_until_exec >= U64_MAX - cost)
		return;
	t->run_until_exec += cost;
	ft_task_budget_changed(t);
}

int ft_tick(int cpu)
{
	ft_op_begin1("tick", cpu);
	if (!ft_m.booted || cpu < 0 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	if (ft_host_fail(FT_FP_TICK_LOST))
		return 0;
	tick_once(cpu);
	if (ft_host_fail(FT_FP_TICK_DOUBLED))
		tick_once(cpu);
	return 0;
}

int ft_schedule(int cpu)
{
	ft_op_begin1("schedule", cpu);

	if (!ft_m.booted || cpu < 0 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	ft_schedule_cpu(cpu, true);
	ft_resched_pending();
	return 0;
}

/* Interrupts were off: the tick comes after the running slice is over. */
static u64 tick_delay(int cpu)
{
	struct task_struct *curr = cpu_rq(cpu)->curr;
	u64 slice = sysctl_sched_base_slice;

	if (curr != cpu_rq(cpu)->idle)
		slice = max(slice, curr->se.slice);
	return slice + TICK_NSEC;
}

/* @p runs (not the idle task); @clock is sched_clock now, exec_start's scale. */
static inline u64 budget_end(struct task_struct *p, u64 clock)
{
	const struct ft_task *t = &ft_m.tasks[p->pid];
	u64 done;

	if (!t->run_ns && !t->driven)
		return U64_MAX;
	/* exec time as of now, without touching fair.c state */
	done = p->se.sum_exec_runtime +
	       (clock > p->se.exec_start ? clock - p->se.exec_start : 0);
	if (done >= t->run_until_exec || (t->stop_at && t->stop_at <= ft_m.now))
		return ft_m.now;
	if (t->run_until_exec - done >= U64_MAX - ft_m.now)
		return t->stop_at ?: U64_MAX;
	done = ft_m.now + t->run_until_exec - done;
	return t->stop_at ? min(done, t->stop_at) : done;
}

/*
 * Most events change one task's budget and nothing else, so each CPU's
 * budget end is kept until its rq lock is released, its task's budget is
 * set, or the clock jumps (ft_budget_changed(), ft_clock_set_ahead()).
 * Kept, it stays exact: while nothing of that changes, curr's exec time
 * grows with the clock, so the end budget_end() finds is the same at any
 * later time, until the time comes, from when on it is due at once. Not while
 * sched_clock is still behind curr's exec_start (a clock fault at boot,
 * before topology.c sets the clock ahead): exec time stands still then,
 * and the CPU's end is found again at every look.
 */
static inline u64 budget_end_find(int cpu, u64 clock)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *curr = rq->curr;

	if (curr == rq->idle) {
		ft_m.budget_kept |= BIT_ULL(cpu);
		return U64_MAX;
	}
	if (clock >= curr->se.exec_start)
		ft_m.budget_kept |= BIT_ULL(cpu);
	return budget_end(curr, clock);
}

/*
 * The CPUs' budget ends are the leaves of a min tree (a tournament: each
 * node holds the earlier of its two children), so that the earliest, and
 * the first CPU from a given one whose end has come, are found in as many
 * steps as the tree is deep, not by a scan of the CPUs: an event changes
 * one or two ends, the earliest mostly among them.
 */
void ft_loop_boot(void)
{
	unsigned int leaves = 1;

	while (leaves < (unsigned int)ft_m.nr_cpus)
		leaves <<= 1;
	ft_m.cpus_all = ft_m.nr_cpus < 64 ? BIT_ULL(ft_m.nr_cpus) - 1 : ~0ULL;
	ft_m.budget_leaves = leaves;
	for (unsigned int i = 0; i < 2 * leaves; i++)
		ft_m.budget_tree[i] = U64_MAX;	/* CPUs beyond nr_cpus: never due */
	ft_m.budget_kept = 0;
	ft_m.resched_maybe = ft_cpus_all();	/* until first looked at */
}

static inline void budget_set(int cpu, u64 at)
{
	u64 *tree = ft_m.budget_tree;
	unsigned int i = ft_m.budget_leaves + cpu;

	tree[i] = at;
	for (i >>= 1; i; i >>= 1) {
		u64 m = min(tree[2 * i], tree[2 * i + 1]);

		if (tree[i] == m)
			break;	/* and so every node above */
		tree[i] = m;
	}
}

static noinline void budget_refresh(u64 stale)
{
	u64 clock = ft_clock_peek();

	for (; stale; stale &= stale - 1) {
		int cpu = __builtin_ctzll(stale);

		budget_set(cpu, budget_end_find(cpu, clock));
	}
}

/* inline: asked at every event, it is kept almost always */
static inline void budget_keep(void)
{
	u64 stale = ~ft_m.budget_kept & ft_cpus_all();

	if (stale && !(stale & (stale - 1))) {	/* one CPU, mostly: the one just stepped */
		int cpu = __builtin_ctzll(stale);

		budget_set(cpu, budget_end_find(cpu, ft_clock_peek()));
	} else if (stale) {
		budget_refresh(stale);
	}
}

/* The earliest budget end of all CPUs, not before now. */
static inline u64 budget_next(void)
{
	budget_keep();
	return max(ft_m.budget_tree[1], ft_m.now);
}

/* As below, when the root says one is due. */
static noinline int budget_due_walk(int cpu)
{
	const u64 *tree = ft_m.budget_tree;
	unsigned int leaves = ft_m.budget_leaves, i = leaves + cpu;

	if (!cpu)
		i = 1;	/* from the first CPU: straight down from the root */
	else if (tree[i] <= ft_m.now)
		return cpu;
	else	/* up to the first right sibling whose subtree has one */
		for (;;) {
			if (!(i & 1) && tree[i + 1] <= ft_m.now) {
				i++;
				break;
			}
			i >>= 1;
			if (i <= 1)
				return ft_m.nr_cpus;
		}
	/* then down to it */
	while (i < leaves) {
		i <<= 1;
		if (tree[i] > ft_m.now)
			i++;
	}
	return i - leaves;
}

/*
 * The first CPU from @cpu on whose budget ends by now; nr_cpus if none.
 * inline: after a step, mostly none is due (the root says so).
 */
static inline int budget_due_from(int cpu)
{
	budget_keep();
	if (cpu >= ft_m.nr_cpus || ft_m.budget_tree[1] > ft_m.now)
		return ft_m.nr_cpus;
	return budget_due_walk(cpu);
}

/* Every timer goes through here, so the earliest is known without a scan. */
void ft_set_wake_at(struct ft_task *t, u64 when)
{
	if (t->wake_at && t->wake_at == ft_m.wake_next)
		ft_m.wake_known = false;
	else if (when && when < ft_m.wake_next)
		ft_m.wake_next = when;
	t->wake_at = when;
	ft_events_changed();
}

static noinline void wake_find(void)
{
	ft_m.wake_next = U64_MAX;
	ft_for_each_task_id(id)
		if (ft_m.tasks[id].wake_at)
			ft_m.wake_next = min(ft_m.wake_next, ft_m.tasks[id].wake_at);
	ft_m.wake_known = true;
}

/* inline, as the earliest tick: asked at every event, it is known almost always */
static inline u64 next_wake(void)
{
	if (!ft_m.wake_known)
		wake_find();
	return ft_m.wake_next;
}

static noinline void tick_find(void)
{
	ft_m.tick_next = U64_MAX;
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++)
		if (!ft_m.tick_stopped[cpu])
			ft_m.tick_next = min(ft_m.tick_next, ft_m.next_tick[cpu]);
	ft_m.tick_known = true;
}

static inline u64 tick_next(void)
{
	if (!ft_m.tick_known)
		tick_find();
	return ft_m.tick_next;
}

static u64 others_find(void)
{
	return min3(tick_next(), ft_next_ipi(), next_wake());
}

/* FAIRTEST_CHECKER=full: the kept earliest events, and the hrtimers' */
static noinline void others_audit(void)
{
	u64 found = others_find();

	if (found != ft_m.others_next)
		ft_fault_here("incremental checker", NULL,
			      "loop: earliest tick, timer, IPI or idle exit kept as %llu, found %llu",
			      ft_m.others_next, found);
	ft_hrtimer_audit();
}

/*
 * The earliest tick, timer, IPI, idle exit and hrtimer. All but the
 * hrtimers are kept as one until a write to what they are found from
 * (ft_events_changed()): a budget's step, most of the loop's events,
 * changes none of them. The hrtimers' earliest is kept by their seam
 * (seams/hrtimer.c). FAIRTEST_CHECKER=full finds both again at every
 * look that keeps the others, and compares.
 */
static inline u64 others_next(void)
{
	if (!ft_m.others_known) {
		ft_m.others_next = others_find();
		ft_m.others_known = true;
	} else if (ft_m.checks_full) {
		others_audit();
	}
	return ft_hrtimers_queued ? min(ft_m.others_next, ft_hrtimer_next()) : ft_m.others_next;
}

static u64 next_event(u64 end)
{
	return min3(end, budget_next(), others_next());
}

/*
 * @first: the clock has just come to this instant, so every budget that
 * ends now is stepped in the pass below, in CPU order. The engine's plans
 * (sim/engine.c) keep that order for the steps they take without a pass:
 * ft_budget_tie_cpu() says how far the pass has come.
 */
static void run_events(bool first)
{
	bool due;

	/* in CPU order; a step may make a later CPU's budget due, or an earlier one's */
	for (int cpu = budget_due_from(0); cpu < ft_m.nr_cpus; cpu = budget_due_from(cpu + 1)) {
		struct task_struct *p;
		struct ft_task *t;

		ft_m.tie_cpu = first ? cpu : FT_MAX_CPUS;
		p = cpu_rq(cpu)->curr;
		t = &ft_m.tasks[p->pid];
		if (t->driven) {
			ft_behave(p->pid);
			continue;
		}
		ft_task_sleep(p->pid);
		if (t->resume_at) {	/* back from a spurious wake-up */
			ft_set_wake_at(t, t->resume_at);
			t->resume_at = 0;
		} else if (ft_host_fail(FT_FP_WAKE_SPURIOUS)) {
			t->resume_at = ft_m.now + t->sleep_ns;
			ft_set_wake_at(t, ft_m.now + t->sleep_ns / 2);
		} else {
			ft_set_wake_at(t, ft_m.now + t->sleep_ns);
		}
	}
	ft_m.tie_cpu = FT_MAX_CPUS;
	if (others_next() > ft_m.now)
		return;	/* none of the below is due: the common case after a step */
	ft_events_changed();	/* what is handled below goes: found again after */
	/* the timers due, in task order */
	ft_for_each_task_id(id) {
		struct ft_task *t = &ft_m.tasks[id];

		if (next_wake() > ft_m.now)
			break;
		if (!t->wake_at || t->wake_at > ft_m.now)
			continue;
		/* a spurious wake-up finds no work: it sleeps once it has run */
		t->run_until_exec = t->p->se.sum_exec_runtime +
				    (t->resume_at ? 0 : t->run_ns);
		ft_task_budget_changed(t);
		/* the timer fires where its task slept, on what runs there */
		irq_charge(task_cpu(t->p), timer_cost);
		ft_m.in_timer = true;
		ft_task_wake(id);
		ft_m.in_timer = false;
	}
	ft_deliver_ipis();
	/* the hrtimers due (hrtick, bandwidth), then each CPU's interrupt exit */
	if (ft_hrtimer_next() <= ft_m.now) {
		u64 cpus = ft_hrtimer_run(ft_m.now);

		for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++)
			if (cpus & (1ULL << cpu)) {
				ft_irq_exit(cpu);
				ft_m.quiet = false;
			}
	}
	due = tick_next() <= ft_m.now;
	for (int cpu = 0; due && cpu < ft_m.nr_cpus; cpu++) {
		if (ft_m.tick_stopped[cpu] || ft_m.next_tick[cpu] > ft_m.now)
			continue;
		ft_m.tick_known = false;
		ft_events_changed();
		if (ft_host_fail(FT_FP_TICK_DELAYED)) {
			ft_m.next_tick[cpu] = ft_m.now + tick_delay(cpu);
			continue;
		}
		ft_m.next_tick[cpu] += TICK_NSEC;
		ft_tick(cpu);
		irq_charge(cpu, tick_cost);
	}
}

int ft_budget_tie_cpu(void)
{
	return ft_m.tie_cpu;
}

int ft_run_for(u64 ns)
{
	u64 end;

	if (!ft_m.booted)
		return -ENODEV;
	end = ft_m.now + ns;
	ft_m.tie_cpu = FT_MAX_CPUS;
	for (;;) {
		u64 next = next_event(end);
		bool first = next > ft_m.now;

		ft_clock_advance_to(next);
		run_events(first);
		/* a budget's next step that changed nothing needs no preemption point */
		if (!ft_m.quiet) {
			ft_resched_pending();
			ft_m.quiet = true;
		}
		if (next >= end)
			return 0;
	}
}

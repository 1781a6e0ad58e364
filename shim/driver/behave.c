// SPDX-License-Identifier: GPL-2.0
/*
 * The workload engine's two narrow doors into the driver. A driven task's
 * behaviour is decided on the user side (sim/): the event loop asks it what
 * to do whenever the task's run budget is used up, which includes the
 * moment it first runs after a wake-up, so the scheduling itself stays
 * here, in the core.c protocol. And an observer hears what core.c's
 * tracepoints would report (switch, waking, wakeup, wakeup_new, migrate),
 * for traces and latency figures. Neither changes any decision fair.c or
 * the driver makes: without them the loop behaves as before.
 */
#include "driver.h"

static ft_behaviour_fn behaviour;
static void *behaviour_ctx;
static ft_observer_fn observer;
static void *observer_ctx;
static bool observe_probes;
static bool observe_waking = true;

void ft_set_behaviour(ft_behaviour_fn fn, void *ctx)
{
	behaviour = fn;
	behaviour_ctx = ctx;
}

void ft_set_observer(ft_observer_fn fn, void *ctx)
{
	observer = fn;
	observer_ctx = ctx;
}

void ft_set_invariant_checking(bool on)
{
	ft_m.checks_off = !on;
	ft_m.checks_synced = false;	/* changes go unseen meanwhile */
}

int ft_task_set_driven(int id)
{
	struct task_struct *p = ft_task_of(id);

	if (!p || !behaviour)
		return p ? -EINVAL : -ESRCH;
	ft_m.tasks[id].driven = true;
	ft_m.tasks[id].run_until_exec = p->se.sum_exec_runtime;
	ft_task_budget_changed(&ft_m.tasks[id]);
	return 0;
}

/* Exec time as of now, including the running stretch not yet accounted. */
static inline u64 exec_now(struct task_struct *p)
{
	u64 clock = ft_clock_peek();

	if (!task_current(task_rq(p), p) || clock <= p->se.exec_start)
		return p->se.sum_exec_runtime;
	return p->se.sum_exec_runtime + clock - p->se.exec_start;
}

ft_u64 ft_task_exec_ns(int id)
{
	struct task_struct *p = ft_task_of(id);

	return p ? exec_now(p) : 0;
}

int ft_task_run_budget(int id, ft_u64 exec_ns, ft_u64 stop_at)
{
	struct task_struct *p = ft_task_of(id);
	struct ft_task *t;
	u64 done;

	if (!p)
		return -ESRCH;
	t = &ft_m.tasks[id];
	if (!t->driven || (stop_at && stop_at <= ft_m.now))
		return -EINVAL;
	done = exec_now(p);
	if (exec_ns > U64_MAX - done)
		return -ERANGE;
	t->run_until_exec = done + exec_ns;
	t->stop_at = stop_at;
	ft_task_budget_changed(t);
	return 0;
}

int ft_task_wake_at(int id, ft_u64 when)
{
	struct task_struct *p = ft_task_of(id);

	if (!p)
		return -ESRCH;
	if (READ_ONCE(p->__state) == TASK_RUNNING || when <= ft_m.now)
		return -EINVAL;
	ft_set_wake_at(&ft_m.tasks[id], when);
	return 0;
}

/* The loop found @id's budget used up: a zero budget until told otherwise. */
void ft_behave(int id)
{
	struct ft_task *t = &ft_m.tasks[id];

	t->run_until_exec = U64_MAX;
	t->stop_at = 0;
	ft_task_budget_changed(t);
	behaviour(id, behaviour_ctx);
	/* no answer: it keeps running, without a limit; asleep: ask on waking */
	if (ft_task_of(id) && READ_ONCE(t->p->__state) != TASK_RUNNING) {
		t->run_until_exec = 0;
		ft_task_budget_changed(t);
	}
}

bool ft_task_on_cpu(int id)
{
	struct task_struct *p = ft_task_of(id);

	return p && task_current(task_rq(p), p);
}

int ft_task_steady_cpu(int id, ft_u64 *exec)
{
	struct task_struct *p = ft_task_of(id);
	u64 clock = ft_clock_peek();

	if (!p || !ft_m.tasks[id].driven || !task_current(task_rq(p), p) ||
	    clock < p->se.exec_start || ft_host_faults_armed())
		return -1;
	*exec = p->se.sum_exec_runtime + clock - p->se.exec_start;	/* ft_task_exec_ns()'s */
	return task_cpu(p);
}

static int obs_prio(struct task_struct *p)
{
	return p == cpu_rq(task_cpu(p))->idle ? 120 : p->prio;
}

static int obs_pid(struct task_struct *p)
{
	return p == cpu_rq(task_cpu(p))->idle ? 0 : p->pid;
}

void ft_observe_switch(int cpu, struct task_struct *prev, struct task_struct *next,
		       bool preempt)
{
	unsigned int state = READ_ONCE(prev->__state);
	struct ft_obs o = {
		.kind = FT_OBS_SWITCH, .now = ft_m.now, .cpu = cpu,
		.pid = obs_pid(next), .prio = obs_prio(next),
		.prev_pid = obs_pid(prev), .prev_prio = obs_prio(prev),
		.prev_state = state == TASK_DEAD ? 'X' : state ? 'S' : 'R',
		.preempt = preempt && !state && prev != cpu_rq(cpu)->idle,
	};

	if (observer)
		observer(&o, observer_ctx);
}

/* What ftrace's flags field shows of the CPU that runs the wake-up. */
static char resched_letter(void)
{
	struct task_struct *curr = this_rq()->curr;

	if (test_tsk_need_resched(curr))
		return 'N';
#ifdef FT_HAVE_RESCHED_LAZY
	if (test_tsk_thread_flag(curr, TIF_NEED_RESCHED_LAZY))
		return 'l';
#endif
	return '.';
}

void ft_observe_wake(enum ft_obs_kind kind, struct task_struct *p)
{
	struct ft_obs o = {
		.kind = kind, .now = ft_m.now, .cpu = task_cpu(p),
		.pid = p->pid, .prio = p->prio, .resched = resched_letter(),
		.irq = ft_m.in_timer,
	};

	if (observer)
		observer(&o, observer_ctx);
}

/* apart: the event's fields are not gathered when nobody hears it */
void ft_observe_waking(struct task_struct *p)
{
	if (observe_waking)
		ft_observe_wake(FT_OBS_WAKING, p);
}

void ft_set_observe_probes(bool on)
{
	observe_probes = on;
}

void ft_set_observe_waking(bool on)
{
	observe_waking = on;
}

static void probe(const char *name, const char *fmt, ...)
{
	char text[512];
	va_list args;
	struct ft_obs o = { .kind = FT_OBS_PROBE, .now = ft_m.now,
			    .cpu = smp_processor_id(), .probe = name, .text = text };

	va_start(args, fmt);
	ft_host_vformat(text, sizeof(text), fmt, args);
	va_end(args);
	observer(&o, observer_ctx);
}

/*
 * wakeup_preempt()'s call into the class, as the guest's fprobe on
 * wakeup_preempt_fair() (6.12: check_preempt_wakeup_fair()) sees it: the
 * placed wakee, the running task, the root queue's sums (twin/events/).
 */
void ft_observe_wakeup_preempt(struct rq *rq, struct task_struct *p, int flags)
{
#ifdef FT_HAVE_RQ_DONOR
	struct task_struct *c = rq->donor;
#else
	struct task_struct *c = rq->curr;
#endif

	if (!observer || !observe_probes || c->sched_class != p->sched_class)
		return;
	probe("wpf", "pid=%d wf=%#x pv=%llu pl=%lld pd=%llu ps=%llu pdl=%d cpid=%d cv=%llu "
	      "cd=%llu cp=%llu cs=%llu cx=%llu zv=%llu sv=%lld sw=%llu nq=%u",
	      p->pid, flags, p->se.vruntime, p->se.vlag, p->se.deadline, p->se.slice,
#ifdef FT_HAVE_DELAYED_DEQUEUE
	      p->se.sched_delayed,
#else
	      0,
#endif
	      c->pid, c->se.vruntime, c->se.deadline,
#ifdef FT_HAVE_VPROT
	      c->se.vprot,
#else
	      0ULL,
#endif
	      c->se.slice, c->se.sum_exec_runtime,
	      (u64)rq->cfs.FT_CFS_ZERO_VRUNTIME, (s64)rq->cfs.FT_CFS_SUM_V,
	      (u64)rq->cfs.FT_CFS_SUM_W, rq->cfs.FT_CFS_NR);
}

/*
 * The hrtick's life, as twin/events/hrtick-7.3.events probes it in the
 * guest: task_tick_fair()'s entry (q=0 the tick, q=1 the hrtick) with the
 * running task's protection, and each hrtick_start() with its delay and
 * whether a __schedule() defers it (sched, 7.2+: 2 deferred, 0 not; the
 * guest's 10 is a deferral too).
 */
void ft_observe_tick(struct rq *rq, struct task_struct *c, int queued)
{
	if (!observer || !observe_probes || c->sched_class != &fair_sched_class)
		return;
	probe("tick", "pid=%d q=%d v=%llu d=%llu p=%llu nq=%u", c->pid, queued,
	      c->se.vruntime, c->se.deadline,
#ifdef FT_HAVE_VPROT
	      c->se.vprot,
#else
	      0ULL,
#endif
	      rq->cfs.FT_CFS_NR);
}

void ft_observe_hrtick_start(struct rq *rq, u64 delay, bool deferred)
{
	if (!observer || !observe_probes)
		return;
	probe("hrs", "delay=%llu sched=%u cpid=%d", delay, deferred ? 2 : 0,
#ifdef FT_HAVE_RQ_DONOR
	      rq->donor->pid
#else
	      rq->curr->pid
#endif
	      );
}

/*
 * A sleep's dequeue as twin/events/sleep-7.3.events' return probe on
 * dequeue_task_fair() sees it: the lag fair.c stored before it chose
 * (delayed, r=0, iff the task was not eligible).
 */
void ft_observe_sleep_dequeue(struct task_struct *p, int flags, bool dequeued)
{
	if (!observer || !observe_probes || p->sched_class != &fair_sched_class)
		return;
	probe("deqs", "pid=%d fl=%#x l=%lld dl=%d r=%d", p->pid, flags, p->se.vlag,
#ifdef FT_HAVE_DELAYED_DEQUEUE
	      p->se.sched_delayed,
#else
	      0,
#endif
	      dequeued);
}

void ft_observe_migrate(struct task_struct *p, int dest_cpu)
{
	struct ft_obs o = {
		.kind = FT_OBS_MIGRATE, .now = ft_m.now, .cpu = task_cpu(p),
		.pid = p->pid, .prio = p->prio,
		.orig_cpu = task_cpu(p), .dest_cpu = dest_cpu,
	};

	if (observer)
		observer(&o, observer_ctx);
}

/*
 * sched_init_smp() scales the base slice to the CPUs online (the tree's
 * rule: 1 + log2 of up to 8 CPUs); ft_boot() leaves it unscaled, which
 * suits the unit tests. A workload on N CPUs wants what N CPUs boot with.
 */
void ft_init_granularity(void)
{
	sched_init_granularity();
}

/* An affinity given as bits (the bridge's form), for sched_fork(). */
void ft_cpus_from_bits(struct cpumask *mask, u64 bits)
{
	cpumask_clear(mask);
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++)
		if (bits & (1ULL << cpu))
			cpumask_set_cpu(cpu, mask);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The one analysis behind every table fairsim prints, whoever ran the
 * workload: it reads the five scheduler events a kernel traces
 * (sched_switch, sched_waking, sched_wakeup, sched_wakeup_new,
 * sched_migrate_task), in time order, and keeps per task its run time,
 * switches, preemptions, migrations, wake-ups, wake-up latency, runnable
 * wait and request samples, and per CPU the unreasonable-idle intervals.
 * fairsim feeds it from its observer as its fake machine runs (trace.c);
 * `fairsim --from-trace` from the text of a real kernel's tracefs `trace`
 * file, or of fairsim's own (ftrace.c). Both columns of a twin are
 * therefore computed by the same lines. Only what the events show is
 * used: run time is the time between the switches in and out, a CPU is
 * idle while it runs pid 0, a task waits from its wake-up (or from being
 * switched out runnable) until it is switched in.
 */
#include <string.h>
#include "sim.h"

static int bucket_of(ft_u64 len)
{
	if (len <= FT_IDLE_MIN_NS)
		return -1;
	if (len <= 3000000ULL)
		return 0;
	return len <= 4000000ULL ? 1 : 2;
}

void sim_an_init(struct sim_an *a, int nr_cpus, bool idle_at_start,
		 struct sim_task *(*task_of)(void *ctx, int pid), void *ctx)
{
	*a = (struct sim_an){ .nr_cpus = nr_cpus, .task_of = task_of, .ctx = ctx };
	/* a real trace starts with every CPU running something we did not see */
	for (int cpu = 0; cpu < FT_MAX_CPUS; cpu++)
		a->curr[cpu] = idle_at_start ? 0 : -1;
	a->idle_cpus = idle_at_start ? ~0ULL : 0;
}

/*
 * Every change of a task's waiting or of the CPU it waits on comes here,
 * so that the idle accounting counts the waiting tasks per CPU instead of
 * looking at every task: those allowed everywhere by CPU, the others
 * (an affinity) in one count, looked at one by one only while there are.
 */
static void set_waiting(struct sim_an *a, struct sim_task *t, bool waiting, int cpu)
{
	if (t->waiting && t->rq_cpu >= 0 && t->rq_cpu < FT_MAX_CPUS) {
		if (t->allowed)
			a->pinned_waiting--;
		else if (!--a->waiting_on[t->rq_cpu])
			a->waited_cpus &= ~(1ULL << t->rq_cpu);
	}
	t->waiting = waiting;
	t->rq_cpu = cpu;
	if (waiting && cpu >= 0 && cpu < FT_MAX_CPUS) {
		if (t->allowed)
			a->pinned_waiting++;
		else if (!a->waiting_on[cpu]++)
			a->waited_cpus |= 1ULL << cpu;
	}
}

static void close_idle(struct sim_an *a, int cpu, ft_u64 end)
{
	ft_u64 len = end - a->idle_since[cpu] + 1;
	int b = bucket_of(len);

	if (b >= 0)
		a->idle[cpu].count[b]++;
	if (len > a->idle[cpu].longest_ns)
		a->idle[cpu].longest_ns = len;
	a->idle_since[cpu] = 0;
	a->open_cpus &= ~(1ULL << cpu);
}

/*
 * The LB_PROMOTE series' unreasonable idle, as shim/driver/idle.c counts
 * it inside the model: a CPU idle while a task allowed there waits
 * runnable on another CPU. The state after the last event of an instant
 * holds until the next instant: open, keep or close each CPU's interval.
 */
static void account_idle(struct sim_an *a)
{
	ft_u64 all = a->nr_cpus < 64 ? (1ULL << a->nr_cpus) - 1 : ~0ULL;
	ft_u64 idle = a->idle_cpus & all, waited = a->waited_cpus & all, wanted = 0;
	ft_u64 change;

	if (!a->dirty)
		return;
	a->dirty = false;
	/* waited on one CPU: wanted by the others; on two or more: by all */
	if (idle && waited)
		wanted = waited & (waited - 1) ? all : all & ~waited;
	for (int i = 0; idle && a->pinned_waiting && i < a->nr_tasks &&
			(idle & wanted) != idle; i++) {
		struct sim_task *t = &a->tasks[i];

		if (t->waiting && t->allowed && t->rq_cpu >= 0)
			wanted |= t->allowed & ~(1ULL << t->rq_cpu);
	}
	/* only the CPUs whose interval opens or closes */
	for (change = (idle & wanted) ^ a->open_cpus; change; change &= change - 1) {
		int cpu = __builtin_ctzll(change);

		if (idle & wanted & (1ULL << cpu)) {
			a->idle_since[cpu] = a->last + 1;	/* 0 means closed */
			a->open_cpus |= 1ULL << cpu;
		} else {
			close_idle(a, cpu, a->last);
		}
	}
}

static void ran(struct sim_an *a, struct sim_task *t, const struct ft_obs *o)
{
	ft_u64 d;
	bool waiting = t->waiting;

	t->switches++;
	t->cpu = o->cpu;
	set_waiting(a, t, false, o->cpu);
	t->on_cpu = true;
	t->on_since = o->now;
	if (waiting) {
		d = o->now - t->wait_from;
		sim_samples_add(&t->wait, d);
		t->wait_ns += d;
		if (d > t->max_delay || !t->max_delay_at) {
			t->max_delay = d;
			t->max_delay_at = t->wait_from;
		}
	}
	if (t->woken) {
		sim_samples_add(&t->wake_lat, o->now - t->wake_at);
		t->woken = false;
		if (t->woke_idle)
			sim_samples_add(&a->idle_wake, o->now - t->wake_at);
	}
}

static void left(struct sim_an *a, struct sim_task *prev, const struct ft_obs *o)
{
	if (prev->on_cpu) {
		prev->run_ns += o->now - prev->on_since;
		prev->on_cpu = false;
	}
	if (o->prev_state == 'R') {
		set_waiting(a, prev, true, o->cpu);
		prev->wait_from = o->now;
		prev->preemptions += o->preempt;
	} else if (prev->active) {
		sim_samples_add(&prev->resp, o->now - prev->woke_at);
		prev->active = false;
	}
}

void sim_an_seen(struct sim_an *a, const struct ft_obs *o, struct sim_task *t,
		 struct sim_task *prev)
{
	/*
	 * Changes nothing counted: an instant's idle accounting, which it would
	 * otherwise start, comes with the next event, from the same state.
	 */
	if (o->kind == FT_OBS_WAKING || o->kind == FT_OBS_PROBE)
		return;
	if (o->now != a->last) {
		account_idle(a);
		a->last = o->now;
	}
	a->dirty = true;
	switch (o->kind) {
	case FT_OBS_SWITCH:
		if (prev)
			left(a, prev, o);
		if (t)
			ran(a, t, o);
		if (o->cpu < 0 || o->cpu >= FT_MAX_CPUS)
			break;
		/* CPU time of tasks not reported: the real kernel's other work (prev's, mostly) */
		if (a->curr[o->cpu] > 0 &&
		    !(a->curr[o->cpu] == o->prev_pid ? prev : a->task_of(a->ctx, a->curr[o->cpu])))
			a->other_ns += o->now - a->cpu_since[o->cpu];
		a->curr[o->cpu] = o->pid;
		if (o->pid)
			a->idle_cpus &= ~(1ULL << o->cpu);
		else
			a->idle_cpus |= 1ULL << o->cpu;
		a->cpu_since[o->cpu] = o->now;
		break;
	case FT_OBS_WAKEUP:
		if (t) {
			t->wakeups++;
			t->wake_at = o->now;
			t->woke_at = o->now;
			t->active = true;
			t->woken = true;
			set_waiting(a, t, true, o->cpu);
			t->wait_from = o->now;
			/* the idle-exit cost, as the twin calibrates it */
			t->woke_idle = o->cpu >= 0 && o->cpu < FT_MAX_CPUS && !a->curr[o->cpu];
		}
		break;
	case FT_OBS_WAKEUP_NEW:
		if (t) {
			set_waiting(a, t, true, o->cpu);
			t->wait_from = o->now;
		}
		break;
	case FT_OBS_MIGRATE:
		if (t) {
			t->migrations++;
			set_waiting(a, t, t->waiting, o->dest_cpu);
		}
		break;
	case FT_OBS_WAKING:
	case FT_OBS_PROBE:
		break;	/* above */
	}
}

void sim_an_event(struct sim_an *a, const struct ft_obs *o)
{
	if (o->kind == FT_OBS_WAKING || o->kind == FT_OBS_PROBE)
		return;	/* as sim_an_seen(), before a look-up */
	sim_an_seen(a, o, o->pid ? a->task_of(a->ctx, o->pid) : NULL,
		    o->kind == FT_OBS_SWITCH && o->prev_pid ?
		    a->task_of(a->ctx, o->prev_pid) : NULL);
}

/* The run ends at @end: the running tasks' last stretch, the open intervals. */
void sim_an_end(struct sim_an *a, ft_u64 end)
{
	struct ft_idle_stats *total = &a->idle[a->nr_cpus];

	account_idle(a);
	for (int i = 0; i < a->nr_tasks; i++) {
		struct sim_task *t = &a->tasks[i];

		if (t->on_cpu && end > t->on_since)
			t->run_ns += end - t->on_since;
		t->on_cpu = false;
	}
	*total = (struct ft_idle_stats){};
	for (int cpu = 0; cpu < a->nr_cpus; cpu++) {
		if (a->curr[cpu] > 0 && !a->task_of(a->ctx, a->curr[cpu]) && end > a->cpu_since[cpu])
			a->other_ns += end - a->cpu_since[cpu];
		if (a->idle_since[cpu])
			close_idle(a, cpu, end);
		for (int b = 0; b < FT_IDLE_BUCKETS; b++)
			total->count[b] += a->idle[cpu].count[b];
		if (a->idle[cpu].longest_ns > total->longest_ns)
			total->longest_ns = a->idle[cpu].longest_ns;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The tick and the discrete-event loop. Time only moves here: the loop
 * jumps the virtual clock to the next event (a CPU's tick, a sleeper's
 * timer, a running task using up its run budget), handles it, then lets
 * every CPU asked to reschedule do so, in CPU order. No host time, no
 * threads: the same calls give the same schedule, byte for byte.
 */
#include "driver.h"

/* sched_tick() on @cpu */
int ft_tick(int cpu)
{
	struct rq *rq;
	struct rq_flags rf;

	ft_op_begin1("tick", cpu);
	if (!ft_m.booted || cpu < 0 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	rq = cpu_rq(cpu);
	ft_switch_cpu(cpu);
	local_irq_disable();
	rq_lock(rq, &rf);
	update_rq_clock(rq);
	rq->curr->sched_class->task_tick(rq, rq->curr, 0);
	rq_unlock(rq, &rf);
	local_irq_enable();
	rq->idle_balance = idle_cpu(cpu);
	sched_balance_trigger(rq);
	ft_resched_pending();
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

/* Exec time of the running task as of now, without touching fair.c state. */
static u64 exec_now(struct task_struct *p)
{
	return p->se.sum_exec_runtime + (ft_m.now - p->se.exec_start);
}

static u64 budget_end(int cpu)
{
	struct task_struct *p = cpu_rq(cpu)->curr;
	struct ft_task *t;
	u64 done;

	if (p == cpu_rq(cpu)->idle)
		return U64_MAX;
	t = &ft_m.tasks[p->pid];
	if (!t->run_ns)
		return U64_MAX;
	done = exec_now(p);
	return done >= t->run_until_exec ? ft_m.now : ft_m.now + t->run_until_exec - done;
}

static u64 next_event(u64 end)
{
	u64 next = end;

	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++) {
		next = min(next, ft_m.next_tick[cpu]);
		next = min(next, budget_end(cpu));
	}
	for (int id = 1; id < FT_MAX_TASKS; id++)
		if (ft_m.tasks[id].p && ft_m.tasks[id].wake_at)
			next = min(next, ft_m.tasks[id].wake_at);
	return next;
}

static void run_events(void)
{
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++) {
		struct task_struct *p = cpu_rq(cpu)->curr;
		struct ft_task *t;

		if (budget_end(cpu) > ft_m.now)
			continue;
		t = &ft_m.tasks[p->pid];
		ft_task_sleep(p->pid);
		t->wake_at = ft_m.now + t->sleep_ns;
	}
	for (int id = 1; id < FT_MAX_TASKS; id++) {
		struct ft_task *t = &ft_m.tasks[id];

		if (!t->p || !t->wake_at || t->wake_at > ft_m.now)
			continue;
		t->run_until_exec = t->p->se.sum_exec_runtime + t->run_ns;
		ft_task_wake(id);
	}
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++) {
		if (ft_m.next_tick[cpu] > ft_m.now)
			continue;
		ft_m.next_tick[cpu] += TICK_NSEC;
		ft_tick(cpu);
	}
}

int ft_run_for(u64 ns)
{
	u64 end;

	if (!ft_m.booted)
		return -ENODEV;
	end = ft_m.now + ns;
	for (;;) {
		u64 next = next_event(end);

		ft_clock_advance_to(next);
		run_events();
		ft_resched_pending();
		if (next >= end)
			return 0;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What the rest of the kernel does for fair.c between CPUs: the
 * SCHED_SOFTIRQ raised by the tick and run at that CPU's interrupt exit,
 * the CPU stopper (stop_one_cpu_nowait(): its work preempts whatever fair
 * task runs on that CPU, as the stop class does, so active balancing can
 * move the task that was running), RCU callbacks (run at the next
 * quiescent point: the end of the operation), and the rq online/offline
 * steps of core.c that topology.c calls when it attaches a root domain.
 * All of it is synchronous and ordered by CPU number: deterministic.
 */
#include <linux/interrupt.h>
#include <linux/stop_machine.h>
#include "driver.h"

bool sched_smp_initialized;

static void (*softirq_vec[NR_SOFTIRQS])(void);
static unsigned long softirq_pending[NR_CPUS];

void open_softirq(int nr, void (*action)(void))
{
	softirq_vec[nr] = action;
}

void raise_softirq(unsigned int nr)
{
	softirq_pending[fairtest_cpu] |= 1UL << nr;
}

/*
 * irq_exit() on @cpu: the softirqs its interrupt raised, lowest first.
 * The return from the interrupt is a preemption point: a need_resched
 * set from another CPU is seen there, whether or not its IPI came yet.
 */
void ft_irq_exit(int cpu)
{
	unsigned long pending = softirq_pending[cpu];

	softirq_pending[cpu] = 0;
	if (!ft_idle_exit_pending(cpu))
		ft_m.resched_unseen[cpu] = false;
	ft_switch_cpu(cpu);
	for (int nr = 0; nr < NR_SOFTIRQS; nr++) {
		if (!(pending & (1UL << nr)))
			continue;
		if (nr == SCHED_SOFTIRQ)
			ft_m.balance_runs[cpu]++;
		if (!softirq_vec[nr])
			ft_fault_here("softirq without handler", __builtin_return_address(0),
				      "softirq %d raised on cpu %d", nr, cpu);
		else
			softirq_vec[nr]();
	}
	ft_task_work_run(cpu);
	ft_numa_user_faults(cpu);	/* back in user space, it touches memory */
}

/* ---- the CPU stopper ---- */
#define FT_STOP_QUEUE	8

struct ft_stop_queue {
	struct { cpu_stop_fn_t fn; void *arg; } work[FT_STOP_QUEUE];
	int head, nr;
};
static struct ft_stop_queue stop_queue[NR_CPUS];

/*
 * Queues the work and wakes the stopper thread: it is enqueued on its rq
 * (counted in nr_running, which active_load_balance_cpu_stop() relies on:
 * the stopper plus the task to move) and, being above every class, asks
 * the running task to reschedule. Callers hold no rq lock, as in core.c.
 */
#ifdef FT_STOP_NOWAIT_VOID	/* 7.3: queueing cannot fail, nothing to say */
#define stop_queued(ok)	return
void
#else
#define stop_queued(ok)	return ok
bool
#endif
stop_one_cpu_nowait(unsigned int cpu, cpu_stop_fn_t fn, void *arg,
		    struct cpu_stop_work *work_buf)
{
	struct ft_stop_queue *q = &stop_queue[cpu];
	struct rq *rq = cpu_rq(cpu);
	struct rq_flags rf;

	if (cpu >= ft_m.nr_cpus || !cpu_active(cpu))
		stop_queued(false);
	if (q->nr == FT_STOP_QUEUE)
		ft_host_abort("stopper queue full: work queued faster than it runs");
	q->work[(q->head + q->nr) % FT_STOP_QUEUE].fn = fn;
	q->work[(q->head + q->nr) % FT_STOP_QUEUE].arg = arg;
	q->nr++;
	ft_m.stop_works++;
	if (!ft_m.stopper_queued[cpu]) {
		rq_lock_irqsave(rq, &rf);
		ft_m.stopper_queued[cpu] = true;
		ft_m.stoppers |= BIT_ULL(cpu);
		add_nr_running(rq, 1);
		resched_curr(rq);
		rq_unlock_irqrestore(rq, &rf);
	}
	stop_queued(true);
}

bool ft_stop_pending(int cpu)
{
	return ft_m.stopper_queued[cpu];
}

/* The stopper, off its rq once its works are done (under the rq lock). */
void ft_stopper_sleeps(struct rq *rq)
{
	ft_m.stopper_queued[cpu_of(rq)] = false;
	ft_m.stoppers &= ~BIT_ULL(cpu_of(rq));
	sub_nr_running(rq, 1);
}

/*
 * The stopper thread of each CPU with work: it preempts the running task
 * (which stays queued, and so becomes movable), runs every queued work
 * with no rq lock held, and sleeps again. Returns whether any work ran.
 */
bool ft_run_stoppers(void)
{
	bool ran = false;

	/* read as it goes: a work may wake a later CPU's stopper, run in this pass */
	ft_for_each_cpu_in(cpu, ft_m.stoppers) {
		struct ft_stop_queue *q = &stop_queue[cpu];

		ft_schedule_cpu(cpu, true);	/* picks the stopper */
		while (q->nr) {
			cpu_stop_fn_t fn = q->work[q->head].fn;
			void *arg = q->work[q->head].arg;

			q->head = (q->head + 1) % FT_STOP_QUEUE;
			q->nr--;
			ft_switch_cpu(cpu);
			fn(arg);
		}
		ft_schedule_cpu(cpu, false);	/* the stopper sleeps */
		ran = true;
	}
	return ran;
}

/* ---- RCU: callbacks run once the operation that queued them is over ---- */
static struct rcu_head *rcu_list, **rcu_tail = &rcu_list;

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	ft_state_changed();
	head->func = func;
	head->next = NULL;
	*rcu_tail = head;
	rcu_tail = &head->next;
}

void ft_rcu_quiescent(void)
{
	while (rcu_list) {
		struct rcu_head *head = rcu_list;

		rcu_list = head->next;
		if (!rcu_list)
			rcu_tail = &rcu_list;
		head->func(head);
	}
}

/* ---- core.c: an rq joins or leaves its root domain's online set ---- */
void set_rq_online(struct rq *rq)
{
	if (rq->online)
		return;
	cpumask_set_cpu(rq->cpu, rq->rd->online);
	rq->online = 1;
	if (fair_sched_class.rq_online)
		fair_sched_class.rq_online(rq);
}

void set_rq_offline(struct rq *rq)
{
	if (!rq->online)
		return;
	update_rq_clock(rq);
	if (fair_sched_class.rq_offline)
		fair_sched_class.rq_offline(rq);
	cpumask_clear_cpu(rq->cpu, rq->rd->online);
	rq->online = 0;
}

/* A fresh machine: nothing raised, queued or pending from the last one. */
void ft_smp_reset(void)
{
	memset(softirq_pending, 0, sizeof(softirq_pending));
	memset(stop_queue, 0, sizeof(stop_queue));
	ft_rcu_quiescent();
	sched_smp_initialized = false;
}

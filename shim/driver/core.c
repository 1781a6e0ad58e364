// SPDX-License-Identifier: GPL-2.0
/*
 * The core-scheduler steps fair.c calls back into (activate_task,
 * resched_curr, set_task_cpu, update_rq_clock, the rq lock) and the ones
 * the driver composes operations from (__schedule, select_task_rq). Each
 * follows kernel/sched/core.c's protocol: same locks, same clock-update
 * flags, same class callbacks in the same order, minus what has no meaning
 * here (psi, uclamp, sched_info, core scheduling, tracing).
 */
#include "driver.h"

/* No RT or deadline tasks exist; fair.c only compares against these. */
const struct sched_class rt_sched_class;
const struct sched_class dl_sched_class;

/*
 * Two rq locks at once only as double_rq_lock() takes them: the second
 * nested (lockdep's SINGLE_DEPTH_NESTING) and in rq order (lower CPU
 * first without core scheduling), or two CPUs could deadlock ABBA.
 */
static void check_rq_lock_order(struct rq *rq, int subclass, void *caller)
{
	ft_for_each_cpu_in(cpu, ft_m.rq_locked & ~BIT_ULL(cpu_of(rq))) {
		if (!subclass)
			ft_fault_here("rq lock order", caller,
				      "cpu %d's rq lock taken unnested while cpu %d's is held",
				      cpu_of(rq), cpu);
		else if (cpu > cpu_of(rq))
			ft_fault_here("rq lock order", caller,
				      "cpu %d's rq lock taken after cpu %d's (double_rq_lock order)",
				      cpu_of(rq), cpu);
	}
}

void raw_spin_rq_lock_nested(struct rq *rq, int subclass)
{
	check_rq_lock_order(rq, subclass, __builtin_return_address(0));
	raw_spin_lock(&rq->__lock);
}

/* Out of line up to 6.12; an inline raw_spin_unlock() from 7.2 on. */
#ifndef FT_RQ_UNLOCK_INLINE
void raw_spin_rq_unlock(struct rq *rq)
{
	raw_spin_unlock(&rq->__lock);
}
#endif

/*
 * FAIRTEST_CHECKER=full audits the driver's masks too, against a scan of
 * the CPUs: rq_locked is each rq lock's word (at every release, when one
 * is held at least), and need_resched is never set where resched_maybe
 * does not say it may be (a curr changes, and fair.c sets the flag, only
 * under the rq lock, whose release marks the CPU, or in resched_curr()).
 */
static void rq_locked_audit(void)
{
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++)
		if (raw_spin_is_locked(&cpu_rq(cpu)->__lock) != !!(ft_m.rq_locked & BIT_ULL(cpu)))
			ft_fault_here("incremental checker", NULL,
				      "driver: cpu %d's rq lock %s, rq_locked says %s", cpu,
				      raw_spin_is_locked(&cpu_rq(cpu)->__lock) ? "held" : "free",
				      ft_m.rq_locked & BIT_ULL(cpu) ? "held" : "free");
}

static void resched_maybe_audit(void)
{
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++)
		if (test_tsk_need_resched(cpu_rq(cpu)->curr) &&
		    !(ft_m.resched_maybe & BIT_ULL(cpu)))
			ft_fault_here("incremental checker", NULL,
				      "driver: cpu %d's curr has need_resched, not in resched_maybe",
				      cpu);
}

/*
 * An rq lock carries its rq in the lock's debug owner field, which nothing
 * else writes (CONFIG_DEBUG_SPINLOCK's checks are ours, seams/locking.c,
 * and its lock init clears it): a lock is known for an rq's, and which,
 * without a scan of the CPUs at every lock and unlock.
 */
void ft_rq_lock_mark(struct rq *rq)
{
	rq->__lock.owner = rq;
}

static inline int rq_lock_cpu(raw_spinlock_t *lock)
{
	struct rq *rq = container_of(lock, struct rq, __lock);

	return lock->owner == rq ? cpu_of(rq) : -1;
}

/* seams/locking.c calls this as any spinlock is taken: the rq locks held, as a mask. */
void ft_spin_taking(raw_spinlock_t *lock)
{
	int cpu = rq_lock_cpu(lock);

	if (cpu >= 0)
		ft_m.rq_locked |= BIT_ULL(cpu);
}

/*
 * seams/locking.c calls this before any spinlock is released: when it is
 * an rq lock, that CPU's fair state must be consistent now.
 */
void ft_spin_releasing(raw_spinlock_t *lock)
{
	int cpu = rq_lock_cpu(lock);

	ft_state_changed();
	if (cpu < 0)
		return;
	if (ft_m.checks_full)
		rq_locked_audit();
	ft_m.rq_locked &= ~BIT_ULL(cpu);
	ft_budget_changed(cpu);
	/* whatever happened under it, its curr may now have the flag */
	ft_m.resched_maybe |= BIT_ULL(cpu);
	ft_check_invariants(cpu_rq(cpu));
}

/* 7.x wraps it in a macro that tells the lock-context analysis. */
#ifdef task_rq_lock
struct rq *_task_rq_lock(struct task_struct *p, struct rq_flags *rf)
#else
struct rq *task_rq_lock(struct task_struct *p, struct rq_flags *rf)
#endif
{
	struct rq *rq;

	raw_spin_lock_irqsave(&p->pi_lock, rf->flags);
	rq = task_rq(p);
	raw_spin_rq_lock(rq);
	rq_pin_lock(rq, rf);
	return rq;
}

void update_rq_clock(struct rq *rq)
{
	s64 delta;

	if (!raw_spin_is_locked(&rq->__lock))
		ft_fault_here("clock update without rq lock",
			      __builtin_return_address(0), "cpu %d", cpu_of(rq));
	if (rq->clock_update_flags & RQCF_ACT_SKIP)
		return;
	if (sched_feat(WARN_DOUBLE_CLOCK))
		WARN_ON_ONCE(rq->clock_update_flags & RQCF_UPDATED);
	rq->clock_update_flags |= RQCF_UPDATED;

	delta = sched_clock_cpu(cpu_of(rq)) - rq->clock;
	if (delta < 0)
		return;
	rq->clock += delta;
	rq->clock_task += delta;
	update_rq_clock_pelt(rq, delta);
}

/*
 * The flag is set at once, as set_nr_and_not_polling() does. The local
 * CPU acts on it at the end of the operation, when its interrupt or
 * system call returns. A busy remote CPU is told by the reschedule IPI
 * (smp_send_reschedule()) and acts when that arrives, ft_set_ipi_latency()
 * later, or at its own interrupt's exit (its tick) if that comes first.
 * An idle CPU needs no IPI: x86's idle loop polls (TIF_POLLING_NRFLAG set,
 * so set_nr_and_not_polling() sends none) and schedules at once, or after
 * the idle-exit cost the simulator may set (ft_set_idle_exit()); a busy
 * CPU a wake-up, tick or hrtick preempts, after that one's cost, if set.
 */
void resched_curr(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	int cpu = cpu_of(rq);
	bool later;

	if (!raw_spin_is_locked(&rq->__lock))
		ft_fault_here("resched without rq lock",
			      __builtin_return_address(0), "cpu %d", cpu);
	ft_m.resched_maybe |= BIT_ULL(cpu);
	if (test_tsk_need_resched(curr)) {
		/* asked again inside the kernel: no longer only the way out's */
		if (cpu == smp_processor_id() && ft_in_kernel(rq, curr))
			ft_m.resched_user &= ~BIT_ULL(cpu);
		return;
	}
	set_tsk_need_resched(curr);
	/* the end of this operation is its task's return to user space */
	if (cpu == smp_processor_id() && !ft_in_kernel(rq, curr))
		ft_m.resched_user |= BIT_ULL(cpu);
	ft_event(FT_EV_RESCHED);
	ft_host_seam_called("resched_curr", cpu);
	/* The CPU acts on the flag later: an idle one after the model's idle
	 * exit cost (it polls: no IPI), a busy one after the wake-up's, tick's
	 * or hrtick's preemption cost or, if remote, when its IPI lands. */
	if (curr == rq->idle)
		later = ft_idle_exit_delay(cpu);
	else if (ft_resched_at_return(rq))
		later = false;	/* its own call's return, or at once (preempt.c) */
	else
		later = ft_preempt_delay(cpu) ||
			(cpu != smp_processor_id() && ft_send_reschedule(cpu));
	if (later)
		ft_m.resched_unseen[cpu] = true;
}

/*
 * Lazy preemption (PREEMPT_LAZY, the 7.x default): the flag is acted on
 * when the CPU next returns to user space. Every operation runs on some
 * CPU as an interrupt or system call, so on that CPU, for a task in user
 * space, the return is at the end of the operation: there it is an
 * ordinary resched. A task inside a system call (ft_task_set_kernel())
 * keeps the lazy flag until it returns (preempt.c), and elsewhere nothing
 * tells the CPU (no IPI): either way the next tick promotes the flag as
 * sched_tick() does (loop.c). In another model get_lazy_tif_bit() gives
 * the ordinary flag.
 */
#ifdef FT_HAVE_RESCHED_LAZY
void resched_curr_lazy(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	if (curr == rq->idle || ft_m.preempt_model != FT_PREEMPT_LAZY ||
	    (cpu_of(rq) == smp_processor_id() && !ft_in_kernel(rq, curr))) {
		resched_curr(rq);
		return;
	}
	if (!test_tsk_need_resched(curr) && !test_tsk_thread_flag(curr, TIF_NEED_RESCHED_LAZY))
		set_tsk_thread_flag(curr, TIF_NEED_RESCHED_LAZY);
}
#endif

void ft_enqueue_task(struct rq *rq, struct task_struct *p, int flags)
{
	/* RESTORE puts a task back where it was while its mask changes. */
	if (!(flags & ENQUEUE_RESTORE) && !cpumask_test_cpu(cpu_of(rq), p->cpus_ptr))
		ft_fault_here("affinity violated", __builtin_return_address(0),
			      "task %d enqueued on cpu %d outside its mask %#lx",
			      p->pid, cpu_of(rq), cpumask_bits(p->cpus_ptr)[0]);
	if (!(flags & ENQUEUE_NOCLOCK))
		update_rq_clock(rq);
	p->sched_class->enqueue_task(rq, p, flags);
}

/*
 * false only for DEQUEUE_SLEEP that fair.c turned into a delayed dequeue.
 * core.c's dequeue_task(), which 7.3's fair.c calls back for a delayed
 * task it finishes dequeueing.
 */
bool dequeue_task(struct rq *rq, struct task_struct *p, int flags)
{
	if (!(flags & DEQUEUE_NOCLOCK))
		update_rq_clock(rq);
	return p->sched_class->dequeue_task(rq, p, flags);
}

void activate_task(struct rq *rq, struct task_struct *p, int flags)
{
	if (task_on_rq_migrating(p))
		flags |= ENQUEUE_MIGRATED;
	ft_enqueue_task(rq, p, flags);
	WRITE_ONCE(p->on_rq, TASK_ON_RQ_QUEUED);
}

void deactivate_task(struct rq *rq, struct task_struct *p, int flags)
{
	WARN_ON_ONCE(flags & DEQUEUE_SLEEP);
	WRITE_ONCE(p->on_rq, TASK_ON_RQ_MIGRATING);
	dequeue_task(rq, p, flags);
}

void wakeup_preempt(struct rq *rq, struct task_struct *p, int flags)
{
	if (p->sched_class == rq->curr->sched_class) {
		ft_observe_wakeup_preempt(rq, p, flags);
		rq->curr->sched_class->wakeup_preempt(rq, p, flags);
	}
	else if (rq->curr == rq->idle)
		resched_curr(rq);
	if (task_on_rq_queued(rq->curr) && test_tsk_need_resched(rq->curr))
		rq_clock_skip_update(rq);
}

void set_task_cpu(struct task_struct *p, unsigned int new_cpu)
{
	if (!cpumask_test_cpu(new_cpu, p->cpus_ptr))
		ft_fault_here("affinity violated", __builtin_return_address(0),
			      "task %d moved to cpu %u outside its mask %#lx", p->pid, new_cpu,
			      cpumask_bits(p->cpus_ptr)[0]);
	if (task_cpu(p) != new_cpu) {
		if (p->sched_class->migrate_task_rq)
			p->sched_class->migrate_task_rq(p, new_cpu);
		p->se.nr_migrations++;
		ft_event(FT_EV_MIGRATE);
		ft_observe_migrate(p, new_cpu);
	}
	ft_set_task_cpu(p, new_cpu);
}

void set_cpus_allowed_common(struct task_struct *p, struct affinity_context *ctx)
{
	cpumask_copy(&p->cpus_mask, ctx->new_mask);
	p->nr_cpus_allowed = cpumask_weight(ctx->new_mask);
}

int idle_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return rq->curr == rq->idle && !rq->nr_running && !rq->ttwu_pending;
}

#ifndef FT_AVAILABLE_IDLE_CPU_INLINE
int available_idle_cpu(int cpu)
{
	return idle_cpu(cpu);
}
#endif

/*
 * core.c's select_task_rq(). Its fallback replaces a CPU the task may not
 * use, silently; fair.c's own choice is checked here, before it does: the
 * only disallowed CPU fair.c may answer is @cpu, the task's previous one,
 * which select_idle_sibling() and the slow path hand back unchecked when
 * an affinity change left it behind (the fallback's case). Any other CPU
 * outside the mask is fair.c placing the task where it may not run.
 */
int ft_select_task_rq(struct task_struct *p, int cpu, int *wake_flags)
{
	if (p->nr_cpus_allowed > 1) {
		int prev = cpu;

		cpu = p->sched_class->select_task_rq(p, prev, *wake_flags);
		if (cpu != prev && (cpu < 0 || cpu >= nr_cpu_ids ||
				    !cpumask_test_cpu(cpu, p->cpus_ptr)))
			ft_fault_here("affinity violated", __builtin_return_address(0),
				      "select_task_rq_fair() chose cpu %d for task %d, outside its mask %#lx (prev cpu %d)",
				      cpu, p->pid, cpumask_bits(p->cpus_ptr)[0], prev);
#ifdef FT_HAVE_RQ_SELECTED
		*wake_flags |= WF_RQ_SELECTED;
#endif
	} else {
		cpu = cpumask_any(p->cpus_ptr);
	}
	if (!cpumask_test_cpu(cpu, p->cpus_ptr) || !cpu_active(cpu))
		cpu = cpumask_any_and(p->cpus_ptr, cpu_active_mask);
	return cpu;
}

void ft_set_load_weight(struct task_struct *p, bool update_load)
{
	int prio = p->static_prio - MAX_RT_PRIO;
	struct load_weight lw = {
		.weight = scale_load(sched_prio_to_weight[prio]),
		.inv_weight = sched_prio_to_wmult[prio],
	};

	if (task_has_idle_policy(p)) {
		lw.weight = scale_load(WEIGHT_IDLEPRIO);
		lw.inv_weight = WMULT_IDLEPRIO;
	}

	if (update_load && p->sched_class->reweight_task)
		p->sched_class->reweight_task(task_rq(p), p, &lw);
	else
		p->se.load = lw;
}

/*
 * __pick_next_task(): the stop class first, then fair, then idle. Up to
 * 6.12 fair.c's pick_next_task_fair() also puts prev and sets next; from
 * 7.2 the class only picks and core.c switches with
 * put_prev_set_next_task().
 */
static struct task_struct *pick_next(struct rq *rq, struct task_struct *prev,
				     struct rq_flags *rf)
{
	struct task_struct *next;

	if (ft_stop_pending(cpu_of(rq))) {
		next = ft_m.stopper[cpu_of(rq)];
		put_prev_set_next_task(rq, prev, next);
		return next;
	}
	do {
#ifdef FT_HAVE_PICK_NEXT_TASK_FAIR
		next = pick_next_task_fair(rq, prev, rf);
#else
		next = fair_sched_class.pick_task(rq, rf);
#endif
	} while (next == RETRY_TASK);
#ifdef FT_HAVE_PICK_NEXT_TASK_FAIR
	if (next)
		return next;	/* already switched to by fair.c */
#endif
	if (!next)
		next = rq->idle;
	put_prev_set_next_task(rq, prev, next);
	return next;
}

/*
 * __schedule() on @cpu: block prev if it is going to sleep (which fair.c
 * may turn into a delayed dequeue), pick, switch. Runs "on" that CPU so
 * current and smp_processor_id() are what fair.c expects.
 */
void ft_schedule_cpu(int cpu, bool preempt)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *prev, *next;
	struct rq_flags rf;

	ft_switch_cpu(cpu);
	local_irq_disable();
	rq_lock(rq, &rf);
	rq->clock_update_flags <<= 1;
	update_rq_clock(rq);
	rq->clock_update_flags = RQCF_UPDATED;

	ft_hrtick_schedule_enter(rq);
	prev = rq->curr;
	ft_m.resched_unseen[cpu] = false;	/* it schedules now anyway */
	ft_m.resched_user &= ~BIT_ULL(cpu);
	if (prev == ft_m.stopper[cpu] && !preempt) {
		/* its works done, the stopper sleeps */
		ft_stopper_sleeps(rq);
	} else if (!preempt && READ_ONCE(prev->__state) && prev != rq->idle) {
		int flags = DEQUEUE_SLEEP | DEQUEUE_NOCLOCK;
		bool dequeued;

		/* A dying task must not stay behind as a delayed dequeue. */
		if (is_special_task_state(READ_ONCE(prev->__state)))
			flags |= DEQUEUE_SPECIAL;
		dequeued = dequeue_task(rq, prev, flags);
		ft_observe_sleep_dequeue(prev, flags, dequeued);
		if (dequeued)
			__block_task(rq, prev);
		ft_event(FT_EV_SLEEP);
	}
	next = pick_next(rq, prev, &rf);
	clear_tsk_need_resched(prev);

	if (prev != next) {
		rq->nr_switches++;
		RCU_INIT_POINTER(rq->curr, next);
		ft_cpu_set_busy(cpu, next != rq->idle);
		prev->on_cpu = 0;
		next->on_cpu = 1;
		ft_set_current(cpu, next);
		if (next != rq->idle && next != ft_m.stopper[cpu])
			ft_m.tasks[next->pid].switches_in++;
		ft_event(FT_EV_SWITCH);
		ft_observe_switch(cpu, prev, next, preempt);
	}
	ft_hrtick_schedule_exit(rq);
	rq_unpin_lock(rq, &rf);
	raw_spin_rq_unlock_irq(rq);

	if (prev != next && READ_ONCE(prev->__state) == TASK_DEAD)
		ft_task_dead(prev);
	/* The idle loop: the tick stops on entry (nohz), restarts on exit. */
	if (prev != next && next == rq->idle)
		ft_nohz_idle_enter(cpu);
	else if (prev != next && prev == rq->idle)
		ft_nohz_idle_exit(cpu);
	/* next goes back to user space: its task works run on the way */
	ft_task_work_run(cpu);
}

/*
 * The preemption points: stopper work first (it preempts), then every CPU
 * whose curr was asked to resched, but for a remote one whose reschedule
 * IPI is still on its way and one inside a system call that the model does
 * not preempt there (preempt.c); RCU callbacks once all is quiet. The CPUs are
 * looked at in order, as a scan of them all would, but only those whose
 * curr may have the flag (resched_maybe, kept where it can be set).
 */
void ft_resched_pending(void)
{
	bool again;

	if (ft_m.checks_full)
		resched_maybe_audit();
	do {
		again = ft_run_stoppers();
		ft_for_each_cpu_in(cpu, ft_m.resched_maybe) {
			if (!test_tsk_need_resched(cpu_rq(cpu)->curr)) {
				ft_m.resched_maybe &= ~BIT_ULL(cpu);
				continue;
			}
			if (!ft_m.resched_unseen[cpu] && ft_preemptible(cpu_rq(cpu))) {
				ft_schedule_cpu(cpu, true);
				again = true;
			}
		}
	} while (again);
	ft_rcu_quiescent();
	/* An operation ends here: it must leave no rq lock behind. */
	ft_for_each_cpu_in(cpu, ft_m.rq_locked)
		ft_fault_here("rq lock held at operation end",
			      __builtin_return_address(0), "cpu %d", cpu);
}

u64 ft_cpu_nr_switches(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus ? cpu_rq(cpu)->nr_switches : 0;
}

/* A class's pick_task(): it takes the rq_flags from 7.2 on. */
#ifdef FT_PICK_TASK_TAKES_RF
#define FT_PICK_TASK_ARGS	struct rq *rq, struct rq_flags *rf
#else
#define FT_PICK_TASK_ARGS	struct rq *rq
#endif

/* The idle class: what a CPU runs when fair.c has nothing. */
static struct task_struct *ft_pick_task_idle(FT_PICK_TASK_ARGS)
{
	return rq->idle;
}

static void ft_put_prev_task_idle(struct rq *rq, struct task_struct *prev,
			       struct task_struct *next)
{
}

/* As idle.c's: a CPU going idle may make its whole core idle. */
static void ft_set_next_task_idle(struct rq *rq, struct task_struct *next, bool first)
{
	update_idle_core(rq);
}

static void ft_wakeup_preempt_idle(struct rq *rq, struct task_struct *p, int flags)
{
	resched_curr(rq);
}

static void ft_task_tick_idle(struct rq *rq, struct task_struct *curr, int queued)
{
}

static void ft_update_curr_idle(struct rq *rq)
{
}

const struct sched_class ft_idle_class = {
	.pick_task = ft_pick_task_idle,
	.put_prev_task = ft_put_prev_task_idle,
	.set_next_task = ft_set_next_task_idle,
	.wakeup_preempt = ft_wakeup_preempt_idle,
	.task_tick = ft_task_tick_idle,
	.update_curr = ft_update_curr_idle,
};

/* The stop class: the CPU stopper's thread (smp.c), above every task. */
static struct task_struct *ft_pick_task_stop(FT_PICK_TASK_ARGS)
{
	return ft_stop_pending(cpu_of(rq)) ? ft_m.stopper[cpu_of(rq)] : NULL;
}

/* Nothing preempts the stopper; it runs to completion. */
static void ft_wakeup_preempt_stop(struct rq *rq, struct task_struct *p, int flags)
{
}

const struct sched_class ft_stop_class = {
	.pick_task = ft_pick_task_stop,
	.put_prev_task = ft_put_prev_task_idle,
	.set_next_task = ft_set_next_task_idle,
	.wakeup_preempt = ft_wakeup_preempt_stop,
	.task_tick = ft_task_tick_idle,
	.update_curr = ft_update_curr_idle,
};

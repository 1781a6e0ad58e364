// SPDX-License-Identifier: GPL-2.0
/*
 * Task life cycle for the bridge: fork (sched_fork + wake_up_new_task),
 * wake-up (try_to_wake_up), sleep, exit, and the attribute changes that
 * core.c performs with the task dequeued and put (nice, custom slice,
 * group move), each under task_rq_lock with one clock update. Wake-ups
 * carry two failure points: delivered twice, and delivered after the
 * task's CPU left its affinity mask (the core's fallback then applies).
 */
#include "driver.h"

/*
 * task_rq_lock() and the clock update from the CPU the operation runs on:
 * a wake-up's is the waker's, and its resched of another CPU is remote.
 */
static struct rq *lock_task_here(struct task_struct *p, struct rq_flags *rf)
{
	struct rq *rq = task_rq_lock(p, rf);

	update_rq_clock(rq);
	return rq;
}

/* The same, run on the task's own CPU. */
static struct rq *lock_task(struct task_struct *p, struct rq_flags *rf)
{
	ft_switch_cpu(task_cpu(p));
	return lock_task_here(p, rf);
}

/* Set while a batch of wake-ups is queued: they reschedule once, at the end. */
static bool wake_batch;

static void unlock_task(struct rq *rq, struct task_struct *p, struct rq_flags *rf)
{
	task_rq_unlock(rq, p, rf);
	if (!wake_batch)
		ft_resched_pending();
}

static u64 clamp_custom_slice(u64 slice_ns)
{
	return clamp_t(u64, slice_ns, NSEC_PER_MSEC / 10, NSEC_PER_MSEC * 100);
}

static void set_slice(struct task_struct *p, u64 slice_ns)
{
	p->se.custom_slice = slice_ns != 0;
	p->se.slice = slice_ns ? clamp_custom_slice(slice_ns) : sysctl_sched_base_slice;
}

int ft_task_fork(const struct ft_task_attr *attr)
{
	struct ft_task_attr dflt = FT_TASK_ATTR_DEFAULT;
	struct task_group *tg;
	struct task_struct *p;
	struct rq_flags rf;
	struct rq *rq;
	int id, cpu, wake_flags = WF_FORK;

	ft_op_begin("fork", attr ? attr->cpu : -1, attr ? attr->nice : 0);
	if (!ft_m.booted)
		return -ENODEV;
	attr = attr ?: &dflt;
	cpu = attr->cpu < 0 ? 0 : attr->cpu;
	tg = ft_group_of(attr->group);
	if (!tg || cpu >= ft_m.nr_cpus || attr->nice < MIN_NICE || attr->nice > MAX_NICE ||
	    (attr->parent && !ft_task_of(attr->parent)))
		return -EINVAL;
	if (attr->cpus && (ft_m.nr_cpus < 64 && attr->cpus >> ft_m.nr_cpus))
		return -EINVAL;
	for (id = 1; id < FT_MAX_TASKS && ft_m.tasks[id].p; id++)
		;
	if (id == FT_MAX_TASKS)
		return -EAGAIN;
	/* dup_task_struct(): fork fails before the scheduler hears of it */
	p = ft_host_fail(FT_FP_DUP_TASK_STRUCT) ? NULL : ft_host_zalloc(sizeof(*p));
	if (!p)
		return -ENOMEM;

	/* sched_fork() */
	p->pid = id;
	p->__state = TASK_NEW;
	p->sched_class = &fair_sched_class;
	p->policy = attr->sched_idle ? SCHED_IDLE : SCHED_NORMAL;
	p->static_prio = NICE_TO_PRIO(attr->nice);
	p->prio = p->normal_prio = p->static_prio;
	/* copy_signal(): the parent's session (autogroup.c) */
	if (ft_autogroup_fork(p, ft_task_of(attr->parent))) {
		ft_host_free(p);
		return -ENOMEM;
	}
	p->sched_task_group = ft_task_group_of(p, tg);
	p->cgroups = cpu_rq(0)->idle->cgroups;
	cpumask_copy(&p->cpus_mask, cpu_possible_mask);
	if (attr->cpus)
		ft_cpus_from_bits(&p->cpus_mask, attr->cpus);
	p->cpus_ptr = &p->cpus_mask;
	p->nr_cpus_allowed = cpumask_weight(&p->cpus_mask);
	INIT_LIST_HEAD(&p->se.group_node);
#if defined(CONFIG_CFS_BANDWIDTH) && defined(FT_HAVE_CFS_THROTTLE_WORK)
	init_cfs_throttle_work(p);
#endif
	set_slice(p, attr->slice_ns);
	refcount_set(&p->usage, 1);	/* the driver's own, dropped never */
	ft_numa_task_fork(p);
	ft_set_load_weight(p, false);
	init_entity_runnable_average(&p->se);

	ft_m.nr_task_ids = max(ft_m.nr_task_ids, id + 1);
	ft_state_changed();
	ft_m.tasks[id] = (struct ft_task){ .p = p, .run_ns = attr->run_ns,
					    .sleep_ns = attr->sleep_ns };
	if (attr->run_ns)
		ft_m.tasks[id].run_until_exec = attr->run_ns;

	/* sched_cgroup_fork(): the parent runs on @cpu */
	ft_switch_cpu(cpu);
	ft_set_task_cpu(p, cpu);
	p->sched_class->task_fork(p);

	/* wake_up_new_task(), from the parent's CPU */
	WRITE_ONCE(p->__state, TASK_RUNNING);
	ft_set_task_cpu(p, ft_select_task_rq(p, task_cpu(p), &wake_flags));
	rq = lock_task_here(p, &rf);
	post_init_entity_util_avg(p);
	activate_task(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_INITIAL);
	wakeup_preempt(rq, p, wake_flags);
	ft_observe_wake(FT_OBS_WAKEUP_NEW, p);
	unlock_task(rq, p, &rf);
	return id;
}

/*
 * sched_setaffinity() on a sleeping task, to every CPU but @cpu: what
 * __do_set_cpus_allowed() does when the task is neither queued nor running.
 */
static void disallow_cpu(struct task_struct *p, int cpu)
{
	struct cpumask mask;
	struct affinity_context ac = { .new_mask = &mask, .flags = SCA_CHECK };

	cpumask_copy(&mask, cpu_active_mask);
	cpumask_clear_cpu(cpu, &mask);
	p->sched_class->set_cpus_allowed(p, &ac);
}

/*
 * ttwu_do_activate()'s end: a wake-up ends the CPU's idle period that
 * new-idle balancing stamped, and feeds rq->avg_idle, which decides
 * whether the next new-idle balance is worth its cost.
 */
static void note_idle_end(struct rq *rq)
{
	if (rq->idle_stamp) {
		u64 delta = rq_clock(rq) - rq->idle_stamp;
		u64 max = 2 * rq->max_idle_balance_cost;

		update_avg(&rq->avg_idle, delta);
		if (rq->avg_idle > max)
			rq->avg_idle = max;
		rq->idle_stamp = 0;
	}
}

/*
 * try_to_wake_up() from @waker_cpu (-1: a timer on the task's own CPU,
 * whose current task is then the waker) with @extra wake flags (WF_SYNC).
 */
static int ttwu(int id, int waker_cpu, int extra)
{
	struct task_struct *p = ft_task_of(id);
	int cpu, wake_flags = WF_TTWU | extra;
	struct rq_flags rf;
	struct rq *rq;

	ft_op_begin1("wake", id);
	if (!p)
		return -ESRCH;
	if (READ_ONCE(p->__state) == TASK_RUNNING)
		return -EALREADY;
	ft_set_wake_at(&ft_m.tasks[id], 0);
	ft_event(FT_EV_WAKE);
	ft_observe_waking(p);
	ft_switch_cpu(waker_cpu < 0 ? task_cpu(p) : waker_cpu);

	/* Still queued: a delayed dequeue is undone (ttwu_runnable). */
	if (task_on_rq_queued(p)) {
		rq = lock_task_here(p, &rf);
#ifdef FT_HAVE_DELAYED_DEQUEUE
		if (p->se.sched_delayed)
			ft_enqueue_task(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_DELAYED);
#endif
		if (!task_on_cpu(rq, p))
			wakeup_preempt(rq, p, wake_flags);
		WRITE_ONCE(p->__state, TASK_RUNNING);
		ft_observe_wake(FT_OBS_WAKEUP, p);
		unlock_task(rq, p, &rf);
		return 0;
	}

	WRITE_ONCE(p->__state, TASK_WAKING);
	/* an affinity change raced with the sleep: prev CPU not allowed now */
	if (ft_m.nr_cpus > 1 && ft_host_fail(FT_FP_WAKE_DISALLOWED_CPU))
		disallow_cpu(p, task_cpu(p));
	cpu = ft_select_task_rq(p, p->wake_cpu, &wake_flags);
	if (task_cpu(p) != cpu) {
		wake_flags |= WF_MIGRATED;
		set_task_cpu(p, cpu);
	}
	rq = lock_task_here(p, &rf);
	activate_task(rq, p, ENQUEUE_WAKEUP | ENQUEUE_NOCLOCK |
#ifdef FT_HAVE_RQ_SELECTED
		      (wake_flags & WF_RQ_SELECTED ? ENQUEUE_RQ_SELECTED : 0) |
#endif
		      (wake_flags & WF_MIGRATED ? ENQUEUE_MIGRATED : 0));
	wakeup_preempt(rq, p, wake_flags);
	WRITE_ONCE(p->__state, TASK_RUNNING);
	note_idle_end(rq);
	ft_observe_wake(FT_OBS_WAKEUP, p);
	unlock_task(rq, p, &rf);
	return 0;
}

/* A duplicate finds the task running: try_to_wake_up()'s state check. */
int ft_task_wake(int id)
{
	int ret = ttwu(id, -1, 0);

	if (!ret && ft_host_fail(FT_FP_WAKE_DUPLICATE))
		ttwu(id, -1, 0);
	return ret;
}

/* A running task wakes @id from its own CPU, as a pipe write or futex does. */
int ft_task_wake_by(int id, int waker, bool sync)
{
	struct task_struct *w = ft_task_of(waker);

	if (!w)
		return -ESRCH;
	if (!task_current(task_rq(w), w))
		return -EBUSY;
	return ttwu(id, task_cpu(w), sync ? WF_SYNC : 0);
}

/* A device interrupt on @cpu: what runs there, the idle task too, wakes @id. */
int ft_task_wake_on(int id, int cpu)
{
	if (cpu < 0 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	return ttwu(id, cpu, 0);
}

/*
 * sched_ttwu_pending(): wake-ups queued for a CPU are all activated before
 * it next schedules, so each sees the others already enqueued.
 */
int ft_task_wake_batch(const int *ids, int n)
{
	int err = 0;

	wake_batch = true;
	for (int i = 0; i < n && !err; i++)
		err = ft_task_wake(ids[i]);
	wake_batch = false;
	ft_resched_pending();
	return err;
}

static int block_running(int id, unsigned int state)
{
	struct task_struct *p = ft_task_of(id);

	if (!p)
		return -ESRCH;
	if (!task_current(task_rq(p), p))
		return -EBUSY;
	WRITE_ONCE(p->__state, state);
	ft_schedule_cpu(task_cpu(p), false);
	ft_resched_pending();
	return 0;
}

int ft_task_sleep(int id)
{
	ft_op_begin1("sleep", id);
	return block_running(id, TASK_INTERRUPTIBLE);
}

/* After the switch away from a dead task (finish_task_switch()). */
void ft_task_dead(struct task_struct *p)
{
	int id = p->pid;

#ifdef FT_HAVE_DELAYED_DEQUEUE
	/*
	 * A sleeper killed while its dequeue is still delayed: in the kernel
	 * the signal wakes it and it exits by running, never delayed. We let
	 * it die at once, so its delayed dequeue is finished first, the way
	 * fair.c finishes one for a task leaving the class (7.x's
	 * switching_from_fair(); 6.12's task_dead_fair() did it itself).
	 */
	if (p->se.sched_delayed) {
		struct rq_flags rf;
		struct rq *rq;

		ft_switch_cpu(task_cpu(p));
		rq = task_rq_lock(p, &rf);
		update_rq_clock(rq);
		if (p->se.sched_delayed)
			dequeue_task(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED | DEQUEUE_NOCLOCK);
		task_rq_unlock(rq, p, &rf);
	}
#endif
#ifdef FT_HAVE_TASK_DEAD_FAIR
	p->sched_class->task_dead(p);
#endif
	ft_set_wake_at(&ft_m.tasks[id], 0);
	ft_checker_task_gone(id);
	ft_m.tasks[id] = (struct ft_task){};
	ft_autogroup_release(p, false);
	ft_numa_task_free(p);
	ft_host_free(p);
	ft_state_changed();
}

int ft_task_exit(int id)
{
	struct task_struct *p = ft_task_of(id);

	ft_op_begin1("exit", id);
	if (!p)
		return -ESRCH;
	if (task_current(task_rq(p), p)) {
		/*
		 * do_exit() leaves its autogroup while running; the resched
		 * that move may ask for is taken at its final schedule, the
		 * next preemption point here (as a batch of wake-ups defers it).
		 */
		wake_batch = true;
		ft_autogroup_exit(p);
		wake_batch = false;
		return block_running(id, TASK_DEAD);
	}
	if (READ_ONCE(p->__state) == TASK_RUNNING)
		return -EBUSY;	/* runnable tasks exit by running first */
	ft_autogroup_exit(p);
	WRITE_ONCE(p->__state, TASK_DEAD);
	ft_task_dead(p);
	return 0;
}

/*
 * The dequeue/put ... enqueue/set_next bracket core.c wraps around every
 * attribute change of a task that may be queued or running.
 */
struct change_ctx {
	struct rq *rq;
	struct rq_flags rf;
	bool queued, running;
	int flags;
};

static void change_begin(struct task_struct *p, struct change_ctx *c, int flags)
{
	c->rq = lock_task(p, &c->rf);
	c->flags = flags;
	c->queued = task_on_rq_queued(p);
	c->running = task_current(c->rq, p);
	if (c->queued)
		dequeue_task(c->rq, p, flags | DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
	if (c->running)
		put_prev_task(c->rq, p);
}

static void change_end(struct task_struct *p, struct change_ctx *c)
{
	if (c->queued)
		ft_enqueue_task(c->rq, p, c->flags | ENQUEUE_RESTORE | ENQUEUE_NOCLOCK);
	if (c->running)
		set_next_task(c->rq, p);
}

#ifdef CONFIG_NUMA_BALANCING
/* core.c's sched_setnuma(): the preferred node changes under the bracket. */
void sched_setnuma(struct task_struct *p, int nid)
{
	struct change_ctx c;

	change_begin(p, &c, 0);
	p->numa_preferred_nid = nid;
	change_end(p, &c);
	task_rq_unlock(c.rq, p, &c.rf);
	ft_numa_counts_setnuma();
}
#endif

int ft_task_set_nice(int id, int nice)
{
	struct task_struct *p = ft_task_of(id);
	struct change_ctx c;
	int old_prio;

	ft_op_begin("set_nice", id, nice);
	if (!p)
		return -ESRCH;
	if (nice < MIN_NICE || nice > MAX_NICE)
		return -EINVAL;
	change_begin(p, &c, 0);
	p->static_prio = NICE_TO_PRIO(nice);
	ft_set_load_weight(p, true);
	old_prio = p->prio;
	p->prio = p->normal_prio = p->static_prio;
	change_end(p, &c);
	p->sched_class->prio_changed(c.rq, p, old_prio);
	unlock_task(c.rq, p, &c.rf);
	return 0;
}

/* sched_setattr() with SCHED_NORMAL and sched_runtime = @slice_ns. */
int ft_task_set_slice(int id, u64 slice_ns)
{
	struct task_struct *p = ft_task_of(id);
	struct change_ctx c;

	ft_op_begin("set_slice", id, slice_ns);
	if (!p)
		return -ESRCH;
	change_begin(p, &c, DEQUEUE_MOVE);
	set_slice(p, slice_ns);
	ft_set_load_weight(p, true);
	change_end(p, &c);
	p->sched_class->prio_changed(c.rq, p, p->prio);
	unlock_task(c.rq, p, &c.rf);
	return 0;
}

/* A group change as core.c's sched_change_group() brackets it. */
void ft_task_move_group(struct task_struct *p, struct task_group *tg)
{
	struct change_ctx c;

	if (p->sched_task_group == tg)
		return;
	change_begin(p, &c, DEQUEUE_MOVE);
	p->sched_task_group = tg;
	if (p->sched_class->task_change_group)
		p->sched_class->task_change_group(p);
	else
		set_task_rq(p, task_cpu(p));
	change_end(p, &c);
	if (c.running)
		resched_curr(c.rq);
	unlock_task(c.rq, p, &c.rf);
}

/* A cgroup move; a task of the root cgroup stays in its session's autogroup. */
int ft_task_set_group(int id, int group)
{
	struct task_struct *p = ft_task_of(id);
	struct task_group *tg = ft_group_of(group);

	ft_op_begin("set_group", id, group);
	if (!p)
		return -ESRCH;
	if (!tg)
		return -EINVAL;
	ft_task_move_group(p, ft_task_group_of(p, tg));
	return 0;
}

int ft_task_yield(int id)
{
	struct task_struct *p = ft_task_of(id);
	struct rq_flags rf;
	struct rq *rq;

	ft_op_begin1("yield", id);
	if (!p)
		return -ESRCH;
	if (!task_current(task_rq(p), p))
		return -EBUSY;
	/* do_sched_yield(): yield_task() updates the clock itself. */
	ft_switch_cpu(task_cpu(p));
	rq = task_rq_lock(p, &rf);
	p->sched_class->yield_task(rq);
	task_rq_unlock(rq, p, &rf);
	ft_schedule_cpu(task_cpu(p), true);
	ft_resched_pending();
	return 0;
}

/* What the load balancer does to a queued task (detach, attach). */
int ft_task_migrate(int id, int cpu)
{
	struct task_struct *p = ft_task_of(id);
	struct rq_flags rf;
	struct rq *rq;

	ft_op_begin("migrate", id, cpu);
	if (!p)
		return -ESRCH;
	if (cpu < 0 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	if (task_cpu(p) == cpu)
		return 0;
	/* can_migrate_task(): never to a CPU outside the task's mask */
	if (!cpumask_test_cpu(cpu, p->cpus_ptr))
		return -EINVAL;
	if (task_current(task_rq(p), p))
		return -EBUSY;	/* the running task is moved by a stopper */
	if (!task_on_rq_queued(p)) {
		set_task_cpu(p, cpu);
		return 0;
	}
	rq = lock_task(p, &rf);
	deactivate_task(rq, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, cpu);
	task_rq_unlock(rq, p, &rf);

	rq = lock_task(p, &rf);
	activate_task(rq, p, ENQUEUE_NOCLOCK);
	wakeup_preempt(rq, p, 0);
	unlock_task(rq, p, &rf);
	return 0;
}

/* migration_cpu_stop(), for the task set_affinity found running. */
struct ft_migration_arg {
	struct task_struct *p;
	int dest_cpu;
};
static struct ft_migration_arg migration_arg[NR_CPUS];

/* move_queued_task(): off its rq, onto @dest, preempting there if due. */
static void move_queued(struct rq *rq, struct rq_flags *rf, struct task_struct *p,
			int dest)
{
	deactivate_task(rq, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, dest);
	task_rq_unlock(rq, p, rf);

	rq = lock_task(p, rf);
	activate_task(rq, p, ENQUEUE_NOCLOCK);
	wakeup_preempt(rq, p, 0);
	task_rq_unlock(rq, p, rf);
}

static int migration_stop(void *data)
{
	struct ft_migration_arg *arg = data;
	struct task_struct *p = arg->p;
	struct rq_flags rf;
	struct rq *rq;

	rq = task_rq_lock(p, &rf);
	update_rq_clock(rq);
	/* It may have slept, or moved, since the work was queued. */
	if (task_rq(p) == this_rq() && task_on_rq_queued(p) &&
	    !cpumask_test_cpu(task_cpu(p), p->cpus_ptr))
		move_queued(rq, &rf, p, arg->dest_cpu);
	else
		task_rq_unlock(rq, p, &rf);
	return 0;
}

/*
 * sched_setaffinity(): the new mask under the dequeue/put bracket, then
 * affine_move_task(): a task on a CPU it may no longer use is moved, by
 * the CPU's stopper if it is running there, directly if merely queued; a
 * sleeping one finds an allowed CPU when it wakes (select_task_rq()).
 */
int ft_task_set_affinity(int id, u64 mask)
{
	struct task_struct *p = ft_task_of(id);
	struct cpumask new_mask;
	struct affinity_context ac = { .new_mask = &new_mask };
	struct change_ctx c;
	int dest;

	ft_op_begin("set_affinity", id, mask);
	if (!p)
		return -ESRCH;
	cpumask_clear(&new_mask);
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++)
		if (mask >> cpu & 1)
			cpumask_set_cpu(cpu, &new_mask);
	if (!cpumask_intersects(&new_mask, cpu_active_mask))
		return -EINVAL;
	change_begin(p, &c, 0);
	p->sched_class->set_cpus_allowed(p, &ac);
	change_end(p, &c);
	if (cpumask_test_cpu(task_cpu(p), &new_mask) || !task_on_rq_queued(p)) {
		unlock_task(c.rq, p, &c.rf);
		return 0;
	}
	dest = cpumask_any_and(cpu_active_mask, &new_mask);
	if (c.running) {
		migration_arg[task_cpu(p)] = (struct ft_migration_arg){ p, dest };
		task_rq_unlock(c.rq, p, &c.rf);
		stop_one_cpu_nowait(task_cpu(p), migration_stop,
				    &migration_arg[task_cpu(p)], NULL);
		ft_resched_pending();
		return 0;
	}
	move_queued(c.rq, &c.rf, p, dest);
	ft_resched_pending();
	return 0;
}

u64 ft_task_affinity(int id)
{
	struct task_struct *p = ft_task_of(id);

	return p ? cpumask_bits(p->cpus_ptr)[0] : 0;
}

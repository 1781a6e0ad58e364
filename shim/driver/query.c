// SPDX-License-Identifier: GPL-2.0
/*
 * What the bridge lets tests observe: task and cfs_rq state copied into
 * plain structs, the entities of a queue for brute-force oracles, and the
 * event counters. Reading a running task's exec time first brings it up
 * to date, as task_sched_runtime() does in the kernel.
 */
#include "driver.h"

void ft_event(enum ft_event_kind kind)
{
	ft_m.events[kind]++;
}

u64 ft_event_count(enum ft_event_kind kind)
{
	return kind < FT_EV_NR ? ft_m.events[kind] : 0;
}

void ft_events_reset(void)
{
	memset(ft_m.events, 0, sizeof(ft_m.events));
}

static void update_running(struct task_struct *p)
{
	struct rq_flags rf;
	struct rq *rq;

	if (!task_current(task_rq(p), p))
		return;
	ft_switch_cpu(task_cpu(p));
	rq = task_rq_lock(p, &rf);
	update_rq_clock(rq);
	p->sched_class->update_curr(rq);
	task_rq_unlock(rq, p, &rf);
}

int ft_task_info(int id, struct ft_task_info *info)
{
	struct task_struct *p = ft_task_of(id);

	if (!p)
		return -ESRCH;
	update_running(p);
	*info = (struct ft_task_info){
		.id = id,
		.cpu = task_cpu(p),
		.on_rq = task_on_rq_queued(p),
		.running = task_current(task_rq(p), p),
#ifdef FT_HAVE_DELAYED_DEQUEUE
		.sched_delayed = p->se.sched_delayed,
#endif
		.sleeping = READ_ONCE(p->__state) != TASK_RUNNING,
		.nice = PRIO_TO_NICE(p->static_prio),
		.weight = scale_load_down(p->se.load.weight),
		.exec_ns = p->se.sum_exec_runtime,
		.vruntime = (s64)p->se.vruntime,
		.deadline = (s64)p->se.deadline,
		.vlag = p->se.vlag,
		.slice = p->se.slice,
		.custom_slice = p->se.custom_slice,
		.group = ft_group_id(p->sched_task_group),
		.nr_switches_in = ft_m.tasks[id].switches_in,
		.load_avg = p->se.avg.load_avg,
		.util_avg = p->se.avg.util_avg,
#if defined(CONFIG_CFS_BANDWIDTH) && defined(FT_HAVE_CFS_THROTTLE_WORK)
		/* init_cfs_throttle_work(): next points at itself while not queued */
		.throttle_work_pending = p->sched_throttle_work.next != &p->sched_throttle_work,
		.throttled = p->throttled,
#endif
	};
	return 0;
}

int ft_curr(int cpu)
{
	struct rq *rq;

	if (!ft_m.booted || cpu < 0 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	rq = cpu_rq(cpu);
	return rq->curr == rq->idle ? 0 : rq->curr->pid;
}

struct cfs_rq *ft_cfs_rq_of(int cpu, int group)
{
	struct task_group *tg = ft_group_of(group);

	if (!tg || cpu < 0 || cpu >= ft_m.nr_cpus)
		return NULL;
	return ft_tg_cfs_rq(tg, cpu);
}

static void fill_entity(struct sched_entity *se, struct cfs_rq *cfs_rq,
			struct ft_entity *e)
{
	*e = (struct ft_entity){
		.task = entity_is_task(se) ? task_of(se)->pid : 0,
		.group = se->my_q ? ft_group_id(se->my_q->tg) : -1,
		.curr = se == cfs_rq->curr,
		.on_rq = se->on_rq,
		.in_tree = se != cfs_rq->curr && se->on_rq,
		.weight = se->load.weight,
		.avg_weight = se->on_rq ? ft_avg_weight(cfs_rq, se) : 0,
		.vruntime = (s64)se->vruntime,
		.deadline = (s64)se->deadline,
		.vlag = se->vlag,
		.slice = se->slice,
		.min_vruntime = (s64)se->min_vruntime,
		.min_slice = se->min_slice,
#ifdef FT_HAVE_DELAYED_DEQUEUE
		.sched_delayed = se->sched_delayed,
#endif
		.eligible = se->on_rq && ft_fair_entity_eligible(cfs_rq, se),
		.protected = se == cfs_rq->curr && ft_fair_slice_protected(se),
	};
}

int ft_cfs_pick_eevdf(int cpu, int group, bool protect, struct ft_entity *out)
{
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);
	struct sched_entity *se;

	if (!cfs_rq)
		return -EINVAL;
	se = ft_fair_pick_eevdf(cfs_rq, protect);
	if (!se)
		return -ENOENT;
	fill_entity(se, cfs_rq, out);
	return 0;
}

u64 ft_cfs_min_slice(int cpu, int group)
{
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);

	return cfs_rq ? ft_fair_min_slice(cfs_rq) : 0;
}

int ft_cfs_entities(int cpu, int group, struct ft_entity *out, int max)
{
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);
	struct rb_node *node;
	int n = 0;

	if (!cfs_rq)
		return -EINVAL;
	for (node = rb_first_cached(&cfs_rq->tasks_timeline); node; node = rb_next(node)) {
		if (n < max)
			fill_entity(rb_entry(node, struct sched_entity, run_node), cfs_rq, &out[n]);
		n++;
	}
	if (cfs_rq->curr && cfs_rq->curr->on_rq) {
		if (n < max)
			fill_entity(cfs_rq->curr, cfs_rq, &out[n]);
		n++;
	}
	return n;
}

int ft_cfs_info(int cpu, int group, struct ft_cfs_info *info)
{
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);

	if (!cfs_rq)
		return -EINVAL;
	*info = (struct ft_cfs_info){
		.nr_queued = cfs_rq->FT_CFS_NR,
		.h_nr_queued = cfs_rq->FT_CFS_H_NR,
		.load = scale_load_down(cfs_rq->load.weight),
		.avg_vruntime = cfs_rq->FT_CFS_SUM_V,
		.avg_load = cfs_rq->FT_CFS_SUM_W,
		.zero_vruntime = (s64)cfs_rq->FT_CFS_ZERO_VRUNTIME,
		.load_avg = cfs_rq->avg.load_avg,
		.util_avg = cfs_rq->avg.util_avg,
		.removed_load_avg = cfs_rq->removed.load_avg,
		.removed_util_avg = cfs_rq->removed.util_avg,
	};
	return 0;
}

s64 ft_cfs_avg_vruntime(int cpu, int group)
{
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);
	struct rq_flags rf;
	u64 v;

	if (!cfs_rq)
		return 0;
	ft_switch_cpu(cpu);
	rq_lock(cpu_rq(cpu), &rf);
	v = avg_vruntime(cfs_rq);
	rq_unlock(cpu_rq(cpu), &rf);
	return (s64)v;
}

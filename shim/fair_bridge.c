// SPDX-License-Identifier: GPL-2.0
/*
 * The one translation unit that holds fair.c: the tree's
 * kernel/sched/fair.c, included unmodified (the tools/testing/vma way), so
 * white-box tests can reach its static functions through the thin
 * wrappers below. Only this file sees fair.c's statics; everything else
 * goes through fair_sched_class, the driver and shim/fairtest.h.
 */
#include "fair.c"	/* kernel/sched/fair.c of the tree under test */
#include "fairtest.h"
#include "fair_white.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

/* From the driver (driver.h would pull pelt.h in a second time). */
struct cfs_rq *ft_cfs_rq_of(int cpu, int group);

/* vruntime_eligible(): is an entity at @vruntime eligible on that cfs_rq? */
int ft_cfs_vruntime_eligible(int cpu, int group, ft_s64 vruntime)
{
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);

	return cfs_rq ? vruntime_eligible(cfs_rq, (u64)vruntime) : -EINVAL;
}

/* fair_white.h: for the invariant checker and the white-box queries. */
int ft_fair_entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return entity_eligible(cfs_rq, se);
}

/*
 * From 7.2 pick_eevdf() takes @protect (buddy and slice protection, as
 * pick_next_entity() asks); up to 6.12 protection is inside, governed by
 * RUN_TO_PARITY alone.
 */
struct sched_entity *ft_fair_pick_eevdf(struct cfs_rq *cfs_rq, bool protect)
{
#ifdef FT_PICK_EEVDF_PROTECT
	return pick_eevdf(cfs_rq, protect);
#else
	return pick_eevdf(cfs_rq);
#endif
}

bool ft_fair_slice_protected(struct sched_entity *se)
{
	return protect_slice(se);
}

/*
 * The lag bound, scaled by the entity's weight: up to 6.12 (DESIGN.md 5.7)
 * max(2 * slice, TICK_NSEC) of the entity's own slice; from 7.2 the
 * largest slice of its queue plus a tick. The rule as specified, written
 * here rather than read back from entity_lag(), so that a patch changing
 * the clamp is reported by the checker (and by make gate) as a change.
 */
s64 ft_fair_lag_limit(struct sched_entity *se, u64 queue_max_slice)
{
#ifdef FT_LAG_CLAMP_MAX_SLICE
	return calc_delta_fair(queue_max_slice + TICK_NSEC, se);
#else
	return calc_delta_fair(max_t(u64, 2 * se->slice, TICK_NSEC), se);
#endif
}

u64 ft_fair_min_slice(struct cfs_rq *cfs_rq)
{
	return cfs_rq_min_slice(cfs_rq);
}

/*
 * fair.c keeps nohz's idle set in file statics that outlive a fake
 * machine: a CPU still in it leaves, as it would on its next busy tick.
 */
void ft_fair_nohz_forget(struct rq *rq)
{
#ifdef CONFIG_NO_HZ_COMMON
	if (rq->nohz_tick_stopped)
		nohz_balance_exit_idle(rq);
#endif
}

#ifdef CONFIG_NUMA_BALANCING
int ft_fair_numa_group(struct task_struct *p, int *nr_tasks);
unsigned long ft_fair_numa_faults(struct task_struct *p, int nid, bool group);

/* The id of @p's numa group (0: none) and its number of tasks. */
int ft_fair_numa_group(struct task_struct *p, int *nr_tasks)
{
	struct numa_group *ng = rcu_dereference_raw(p->numa_group);

	*nr_tasks = ng ? ng->nr_tasks : 0;
	return ng ? ng->gid : 0;
}

/* task_faults() / group_faults(): the decayed memory faults on @nid. */
unsigned long ft_fair_numa_faults(struct task_struct *p, int nid, bool group)
{
	if (group)
		return rcu_dereference_raw(p->numa_group) ? group_faults(p, nid) : 0;
	return task_faults(p, nid);
}
#endif

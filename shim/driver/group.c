// SPDX-License-Identifier: GPL-2.0
/*
 * Task groups, as the cpu cgroup controller (and autogroup.c) creates
 * them (sched_create_group + sched_online_group) and tears them down; the
 * per-CPU entities and cfs_rqs are fair.c's own (alloc_fair_sched_group).
 * Either allocation may fail (failure points sched/sched_create_group and
 * sched/alloc_fair_sched_group): the error path is core.c's, -ENOMEM with
 * everything allocated so far freed and nothing linked anywhere.
 */
#include "driver.h"
#include "autogroup.h"	/* kernel/sched/autogroup.h: autogroup_free() */

int ft_group_id(struct task_group *tg)
{
	for (int g = 0; g < FT_MAX_GROUPS; g++)
		if (ft_m.groups[g] == tg)
			return g;
	return -1;
}

/* core.c's sched_create_group(): the group and its fair.c parts, not yet linked. */
struct task_group *sched_create_group(struct task_group *parent)
{
	struct task_group *tg;
	int ok;

	/* kmem_cache_alloc(task_group_cache, ...) */
	tg = ft_host_fail(FT_FP_SCHED_CREATE_GROUP) ? NULL : ft_host_zalloc(sizeof(*tg));
	if (!tg)
		return ERR_PTR(-ENOMEM);
	ft_slab_site = FT_FP_ALLOC_FAIR_SCHED_GROUP;
	ok = alloc_fair_sched_group(tg, parent);
	ft_slab_site = FT_FP_NR;
	if (!ok) {
		free_fair_sched_group(tg);
		ft_host_free(tg);
		return ERR_PTR(-ENOMEM);
	}
	return tg;
}

/* sched_online_group(): linked under @parent, its queues online; given an id. */
void sched_online_group(struct task_group *tg, struct task_group *parent)
{
	int g;

	tg->parent = parent;
	INIT_LIST_HEAD(&tg->children);
	list_add_tail(&tg->siblings, &parent->children);
	list_add_tail(&tg->list, &task_groups);
	online_fair_sched_group(tg);
	for (g = 1; g < FT_MAX_GROUPS && ft_m.groups[g]; g++)
		;
	if (g == FT_MAX_GROUPS) {
		ft_fault_here("too many task groups", __builtin_return_address(0),
			      "the driver keeps %d", FT_MAX_GROUPS);
		return;
	}
	ft_m.groups[g] = tg;
	ft_m.nr_group_ids = max(ft_m.nr_group_ids, g + 1);
}

/* sched_release_group(): off the lists, no longer found. */
void sched_release_group(struct task_group *tg)
{
	int g = ft_group_id(tg);

	list_del(&tg->list);
	list_del(&tg->siblings);
	if (g > 0)
		ft_m.groups[g] = NULL;
}

/*
 * sched_destroy_group(): the kernel unregisters and frees after an RCU
 * grace period; nothing here still reads the group, so at once.
 */
void sched_destroy_group(struct task_group *tg)
{
	unregister_fair_sched_group(tg);
	free_fair_sched_group(tg);
	autogroup_free(tg);
	ft_host_free(tg);
}

int ft_group_create(int parent_id)
{
	struct task_group *parent = ft_group_of(parent_id);
	struct task_group *tg;
	int g;

	ft_op_begin1("group_create", parent_id);
	if (!parent)
		return -EINVAL;
	for (g = 1; g < FT_MAX_GROUPS && ft_m.groups[g]; g++)
		;
	if (g == FT_MAX_GROUPS)
		return -ENOSPC;
	tg = sched_create_group(parent);
	if (IS_ERR(tg))
		return PTR_ERR(tg);
	sched_online_group(tg, parent);
	return ft_group_id(tg);
}

int ft_group_set_shares(int group, unsigned long shares)
{
	struct task_group *tg = ft_group_of(group);

	ft_op_begin("group_set_shares", group, shares);
	if (!tg || tg == &root_task_group)
		return -EINVAL;
	return sched_group_set_shares(tg, scale_load(shares));
}

/* A cpu.idle write: the group's entities become SCHED_IDLE-like. */
int ft_group_set_idle(int group, bool idle)
{
	struct task_group *tg = ft_group_of(group);

	ft_op_begin("group_set_idle", group, idle);
	if (!tg || tg == &root_task_group)
		return -EINVAL;
	return sched_group_set_idle(tg, idle);
}

int ft_group_destroy(int group)
{
	struct task_group *tg = ft_group_of(group);

	ft_op_begin1("group_destroy", group);
	if (!tg || tg == &root_task_group)
		return -EINVAL;
	ft_for_each_task_id(id)
		if (ft_m.tasks[id].p->sched_task_group == tg)
			return -EBUSY;
	if (!list_empty(&tg->children))
		return -EBUSY;
	sched_release_group(tg);
	sched_destroy_group(tg);
	return 0;
}

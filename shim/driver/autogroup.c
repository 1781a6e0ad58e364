// SPDX-License-Identifier: GPL-2.0
/*
 * What kernel/sched/autogroup.c (shim/autogroup_unit.c) asks of core.c
 * and of the signal code, and the bridge's session calls. A task's group
 * is core.c's sched_get_task_group(): its cgroup's group (the one
 * ft_task_set_group() gave it; an autogroup's task is in the root
 * cgroup), or, for a task of the root cgroup, its session's autogroup.
 * sched_move_task() moves it there with the dequeue/put ... enqueue/set
 * bracket of every group change (task.c). Every task here is privileged
 * (no MULTIUSER), so can_nice() allows any nice.
 */
#include "driver.h"
#include "autogroup.h"	/* kernel/sched/autogroup.h */

void ft_autogroup_boot(void);
int ft_autogroup_setsid(struct task_struct *p);
int ft_autogroup_nice(struct task_struct *p, int nice);
struct task_group *ft_autogroup_tg(struct task_struct *p);

/* sched_get_task_group(): the cgroup's group, then autogroup's say. */
struct task_group *ft_task_group_of(struct task_struct *p, struct task_group *css_tg)
{
	return autogroup_task_group(p, css_tg);
}

void sched_move_task(struct task_struct *tsk, bool for_autogroup)
{
	struct task_group *css = tsk->sched_task_group;

	if (task_group_is_autogroup(css))
		css = &root_task_group;
	ft_task_move_group(tsk, ft_task_group_of(tsk, css));
}

/* Its siglock taken, or NULL for a reaped task; out of line from 7.x. */
#ifdef FT_HAVE_LOCK_TASK_SIGHAND_CALL
struct sighand_struct *lock_task_sighand(struct task_struct *tsk, unsigned long *flags)
#else
struct sighand_struct *__lock_task_sighand(struct task_struct *tsk, unsigned long *flags)
#endif
{
	struct sighand_struct *sighand = tsk->sighand;

	if (!sighand)
		return NULL;	/* reaped */
	spin_lock_irqsave(&sighand->siglock, *flags);
	return sighand;
}

int can_nice(const struct task_struct *p, const int nice)
{
	return 1;
}

int ft_task_setsid(int id)
{
	struct task_struct *p = ft_task_of(id);

	ft_op_begin1("setsid", id);
	if (!p)
		return -ESRCH;
	return ft_autogroup_setsid(p);
}

int ft_autogroup_set_nice(int id, int nice)
{
	struct task_struct *p = ft_task_of(id);

	ft_op_begin("autogroup_nice", id, nice);
	if (!p)
		return -ESRCH;
	return ft_autogroup_nice(p, nice);
}

int ft_task_autogroup(int id)
{
	struct task_struct *p = ft_task_of(id);

	if (!p)
		return -ESRCH;
	return ft_group_id(ft_autogroup_tg(p));
}

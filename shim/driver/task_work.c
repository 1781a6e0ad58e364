// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/task_work.c, for what fair.c queues on a task to run on its way
 * back to user space: 7.x's throttling dequeues a task of a throttled
 * group there (throttle_cfs_rq_work), not in the middle of the pick. In
 * this machine a running task is always in user space, so the works run
 * at the two points it passes through the kernel's exit to user mode:
 * the interrupt exit of its CPU and its switch in. They run as the task,
 * with interrupts on and no rq lock held, in the order they were queued.
 */
#include <linux/task_work.h>
#include "driver.h"

int task_work_add(struct task_struct *task, struct callback_head *work,
		  enum task_work_notify_mode notify)
{
	struct callback_head **tail = &task->task_works;

	if (task->flags & PF_EXITING)
		return -ESRCH;
	while (*tail)
		tail = &(*tail)->next;
	work->next = NULL;
	*tail = work;
	ft_m.quiet = false;
	return 0;
}

/* resume_user_mode_work() of @cpu's running task, if it has works. */
void ft_task_work_run(int cpu)
{
	struct task_struct *p = cpu_rq(cpu)->curr;

	if (p == cpu_rq(cpu)->idle || !READ_ONCE(p->task_works))
		return;
	ft_switch_cpu(cpu);
	while (p->task_works) {
		struct callback_head *work = p->task_works;

		p->task_works = work->next;
		work->func(work);
	}
}

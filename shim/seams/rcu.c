// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/rcu/tree_plugin.h: preemptible RCU's read-side
 * markers (PREEMPT_RCU comes with a preemptible or dynamic-preemption
 * kernel). A single-threaded machine has no grace period to hold off; the
 * nesting is kept in the task, as the kernel keeps it, so that
 * rcu_preempt_depth() reads true and an unbalanced unlock is caught.
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include "seam.h"

#ifdef CONFIG_PREEMPT_RCU
void __rcu_read_lock(void)
{
	current->rcu_read_lock_nesting++;
}

void __rcu_read_unlock(void)
{
	if (--current->rcu_read_lock_nesting < 0)
		ft_fault_here("rcu_read_unlock without lock", __builtin_return_address(0),
			      "nesting %d", current->rcu_read_lock_nesting);
}
#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/sched/sched.h of the tree under test, with the headers it relies
 * on its includer to have pulled in first (fair.c and build_policy.c list
 * them before it). Every kernel-side file of ours that needs the
 * scheduler's internal types includes this instead of sched.h directly.
 */
#ifndef FAIRTEST_KSCHED_H
#define FAIRTEST_KSCHED_H

#include <linux/mmu_context.h>
#include <linux/spinlock_api.h>
#include <linux/cpumask_api.h>
#include <linux/mutex_api.h>
#include <linux/topology.h>
#include <linux/jiffies.h>
#include <linux/interrupt.h>
#include <linux/rbtree_augmented.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/isolation.h>
#include <linux/sched/nohz.h>

#include "sched.h"	/* kernel/sched/sched.h */
#include "pelt.h"	/* kernel/sched/pelt.h */

#endif /* FAIRTEST_KSCHED_H */

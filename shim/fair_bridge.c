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

/* From the driver (driver.h would pull pelt.h in a second time). */
struct cfs_rq *ft_cfs_rq_of(int cpu, int group);

/* vruntime_eligible(): is an entity at @vruntime eligible on that cfs_rq? */
int ft_cfs_vruntime_eligible(int cpu, int group, ft_s64 vruntime)
{
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);

	return cfs_rq ? vruntime_eligible(cfs_rq, (u64)vruntime) : -EINVAL;
}

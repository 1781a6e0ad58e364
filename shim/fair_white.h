/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel side only: fair.c's own answers, exported by shim/fair_bridge.c
 * (the one file that includes fair.c, so the only one that reaches its
 * statics) for the invariant checker and the white-box queries. Each
 * reads without side effects, so asking never changes what is asked about.
 */
#ifndef FAIRTEST_FAIR_WHITE_H
#define FAIRTEST_FAIR_WHITE_H

struct cfs_rq;
struct sched_entity;
struct rq;

int ft_fair_entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se);
struct sched_entity *ft_fair_pick_eevdf(struct cfs_rq *cfs_rq, bool protect);
bool ft_fair_slice_protected(struct sched_entity *se);
s64 ft_fair_lag_limit(struct sched_entity *se, u64 queue_max_slice); /* the clamp */
u64 ft_fair_min_slice(struct cfs_rq *cfs_rq);	/* cfs_rq_min_slice() */
void ft_fair_nohz_forget(struct rq *rq);	/* leave nohz's idle set */

#endif /* FAIRTEST_FAIR_WHITE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/sched/deadline.c: the fair deadline server, which
 * lets fair tasks run when RT tasks hog a CPU. No RT tasks exist in the
 * harness, so the server never has anything to do: counted no-ops.
 */
#include "../ksched.h"
#include "seam.h"

void init_dl_entity(struct sched_dl_entity *dl_se)
{
	SEAM_NOOP();
}

void dl_server_init(struct sched_dl_entity *dl_se, struct rq *rq,
		    dl_server_pick_f pick_task)
{
	SEAM_NOOP();
}

void dl_server_start(struct sched_dl_entity *dl_se)
{
	SEAM_NOOP();
}

void dl_server_stop(struct sched_dl_entity *dl_se)
{
	SEAM_NOOP();
}

void dl_server_update(struct sched_dl_entity *dl_se, s64 delta_exec)
{
	SEAM_NOOP();
}

/* 6.12's fair.c calls it and sched.h declares it; 7.x has neither. */
void dl_server_update_idle_time(struct rq *rq, struct task_struct *p);
void dl_server_update_idle_time(struct rq *rq, struct task_struct *p)
{
	SEAM_NOOP();
}

/*
 * The root domain's deadline bookkeeping (bandwidth, the cpudl heap), set
 * up and torn down by topology.c with every root domain: no deadline
 * tasks, so nothing to track.
 */
void init_dl_bw(struct dl_bw *dl_b)
{
	SEAM_NOOP();
}

int cpudl_init(struct cpudl *cp)
{
	SEAM_NOOP();
	return 0;
}

void cpudl_cleanup(struct cpudl *cp)
{
	SEAM_NOOP();
}

void dl_clear_root_domain(struct root_domain *rd)
{
	SEAM_NOOP();
}

/* Only for a fair server already started; ours never is (dl_server_start). */
void __dl_server_attach_root(struct sched_dl_entity *dl_se, struct rq *rq)
{
	SEAM_ABORT();
}

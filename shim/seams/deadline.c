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

void dl_server_update_idle_time(struct rq *rq, struct task_struct *p)
{
	SEAM_NOOP();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The preemption model: where a task inside the kernel may be switched
 * away from, as kernel/Kconfig.preempt's choice and core.c's
 * preempt_dynamic_init() give it (read in 6.12.118's and 7.3.4's trees).
 * In user space a reschedule acts at the end of the interrupt or system
 * call that set it, in every model. Inside a system call:
 * - NONE, VOLUNTARY: the interrupt's exit to kernel mode does not preempt
 *   (irqentry_exit_cond_resched() is off), nor does preempt_enable(); the
 *   switch waits for the return to user space (or a cond_resched() point,
 *   which the driver's kernel sections do not have);
 * - FULL: TIF_NEED_RESCHED preempts at the interrupt's exit;
 * - LAZY (7.x): the same for TIF_NEED_RESCHED; TIF_NEED_RESCHED_LAZY, which
 *   fair.c's update_curr() and wake-up preemption set (resched_curr_lazy()),
 *   waits for the return to user space (exit_to_user_mode_loop() checks
 *   both flags), or for the next tick, whose sched_tick() turns it into
 *   TIF_NEED_RESCHED (loop.c). hrtick's reschedule is a full one.
 * With PREEMPT_DYNAMIC the boot starts in the choice's model: none,
 * voluntary, lazy, else full, in that order (preempt_dynamic_init()).
 */
#include "driver.h"

int ft_preempt_config(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_NONE))
		return FT_PREEMPT_NONE;
	if (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY))
		return FT_PREEMPT_VOLUNTARY;
#ifdef FT_HAVE_RESCHED_LAZY
	if (IS_ENABLED(CONFIG_PREEMPT_LAZY))
		return FT_PREEMPT_LAZY;
#endif
	return FT_PREEMPT_FULL;
}

int ft_preempt_model(void)
{
	return ft_m.preempt_model;
}

int ft_set_preempt_model(int model)
{
	if (model < FT_PREEMPT_NONE || model > FT_PREEMPT_LAZY)
		return -EINVAL;
#ifndef FT_HAVE_RESCHED_LAZY
	if (model == FT_PREEMPT_LAZY)
		return -EOPNOTSUPP;
#endif
	ft_m.preempt_model = model;
	return 0;
}

bool ft_in_kernel(struct rq *rq, struct task_struct *p)
{
	return p != rq->idle && p != ft_m.stopper[cpu_of(rq)] && ft_m.tasks[p->pid].in_kernel;
}

/*
 * May @rq's curr, which has TIF_NEED_RESCHED, be switched away from now?
 * A flag set on the task's own CPU while it was in user space stands for
 * the return to user space at the end of that operation, where the real
 * task switches before it can make another system call; the driver's
 * switch may come later (the wake-up preemption cost,
 * ft_set_wake_preempt()), and if the task entered the kernel meanwhile,
 * preempting it there would take a pipe's mutex with it, which the real
 * one never holds then. So that switch waits for the call's return, in
 * every model.
 */
bool ft_preemptible(struct rq *rq)
{
	if (!ft_in_kernel(rq, rq->curr))
		return true;
	if (ft_m.resched_user & BIT_ULL(cpu_of(rq)))
		return false;
	return ft_m.preempt_model == FT_PREEMPT_FULL || ft_m.preempt_model == FT_PREEMPT_LAZY;
}

/*
 * A wake-up made by @rq's curr inside a system call, on its own CPU (the
 * waker's futex call: not a timer's): the switch it asks for has no cost
 * of its own (ft_set_wake_preempt()), as that cost stands for the rest of
 * the operation after the wake-up, which here is the rest of the call.
 * The model says where it comes: at the call's return
 * (ft_task_set_kernel()) where it does not preempt inside the kernel
 * (NONE, VOLUNTARY, LAZY's lazy flag), at once where it does. The real
 * 6.12.118 (voluntary) and 7.3.4 (lazy) kernels switch a worker of
 * schbench-mutex whose futex wake-up asked for it 6 / 7 us after that
 * wake-up, always preempted, never after another wake-up or a sleep of
 * its own (docs/fidelity-sync.md).
 */
bool ft_resched_at_return(struct rq *rq)
{
	const char *op = ft_m.op.name;

	return cpu_of(rq) == smp_processor_id() && ft_in_kernel(rq, rq->curr) &&
	       !ft_m.in_timer && op && !strcmp(op, "wake");
}

int ft_task_set_kernel(int id, bool in)
{
	struct task_struct *p = ft_task_of(id);
	struct ft_task *t;

	if (!p)
		return -ESRCH;
	t = &ft_m.tasks[id];
	if (t->in_kernel == in)
		return 0;
	t->in_kernel = in;
	if (in)
		return 0;
#ifdef FT_HAVE_RESCHED_LAZY
	/* exit_to_user_mode_loop(): the lazy flag schedules as the other does */
	if (test_tsk_thread_flag(p, TIF_NEED_RESCHED_LAZY) && task_current(task_rq(p), p)) {
		clear_tsk_thread_flag(p, TIF_NEED_RESCHED_LAZY);
		set_tsk_need_resched(p);
		ft_m.resched_maybe |= BIT_ULL(task_cpu(p));
	}
#endif
	ft_state_changed();	/* the loop's next preemption point looks again */
	return 0;
}

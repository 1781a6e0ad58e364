// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's kernel/sched/autogroup.c, unmodified, where the profile has
 * CONFIG_SCHED_AUTOGROUP (the debian profile): every session gets a task
 * group of its own (setsid() -> sched_autogroup_create_attach()), a fork
 * inherits its parent's (copy_signal() -> sched_autogroup_fork()), and a
 * write to /proc/PID/autogroup sets that group's shares from the nice
 * table (proc_sched_autogroup_set_nice()). Each fake task is a process of
 * one thread with a signal_struct and sighand_struct of its own, made
 * here; the groups come from core.c's calls, our driver/group.c, and the
 * task moves from sched_move_task() in driver/autogroup.c. The wrappers
 * below are the calls fork, setsid, exit and the proc file make (a fork
 * runs sched_autogroup_fork() with the parent as current, as copy_signal()
 * does), reaching the file's statics only to reset them at boot.
 */
#include "ksched.h"
#include "seams/seam.h"	/* ft_set_current() */

void ft_autogroup_boot(void);
int ft_autogroup_fork(struct task_struct *p, struct task_struct *parent);
void ft_autogroup_exit(struct task_struct *p);
void ft_autogroup_release(struct task_struct *p, bool machine_gone);
void ft_autogroup_join_thread(struct task_struct *p, struct task_struct *leader);
int ft_autogroup_setsid(struct task_struct *p);
int ft_autogroup_nice(struct task_struct *p, int nice);
struct task_group *ft_autogroup_tg(struct task_struct *p);

#ifdef CONFIG_SCHED_AUTOGROUP
#include "autogroup.c"	/* kernel/sched/autogroup.c of the tree under test */

/* The init task's process: the default autogroup (the root group) is its. */
static struct signal_struct ft_init_signal;
static struct sighand_struct ft_init_sighand;
static struct task_struct ft_init_task = {
	.signal = &ft_init_signal,
	.sighand = &ft_init_sighand,
};

/* sched_init()'s autogroup_init(&init_task); ids count from 1 each boot. */
void ft_autogroup_boot(void)
{
	spin_lock_init(&ft_init_sighand.siglock);
	INIT_LIST_HEAD(&ft_init_signal.thread_head);
	atomic_set(&autogroup_seq_nr, 0);
	autogroup_init(&ft_init_task);
}

/* copy_signal() of a new process forked by @parent (NULL: by init). */
int ft_autogroup_fork(struct task_struct *p, struct task_struct *parent)
{
	struct signal_struct *sig = kzalloc(sizeof(*sig), GFP_KERNEL);
	struct sighand_struct *sighand = kzalloc(sizeof(*sighand), GFP_KERNEL);
	struct task_struct *was = current;

	if (!sig || !sighand) {
		kfree(sig);
		kfree(sighand);
		return -ENOMEM;
	}
	spin_lock_init(&sighand->siglock);
	INIT_LIST_HEAD(&sig->thread_head);
	list_add_tail(&p->thread_node, &sig->thread_head);
	p->signal = sig;
	p->sighand = sighand;
	/* copy_signal() runs in the parent: current is the parent there */
	ft_set_current(smp_processor_id(), parent ?: &ft_init_task);
	sched_autogroup_fork(sig);
	ft_set_current(smp_processor_id(), was);
	return 0;
}

/* do_exit(): PF_EXITING, then off the autogroup while still running. */
void ft_autogroup_exit(struct task_struct *p)
{
	p->flags |= PF_EXITING;
	sched_autogroup_exit_task(p);
}

/*
 * The process is reaped (free_signal_struct() -> sched_autogroup_exit());
 * when the whole machine goes, its groups are freed by the driver and no
 * reference is dropped.
 */
void ft_autogroup_release(struct task_struct *p, bool machine_gone)
{
	if (!p->signal)
		return;
	list_del(&p->thread_node);
	if (!list_empty(&p->signal->thread_head)) {
		/* a thread goes; its process stays with the others */
		p->signal->nr_threads--;
		p->signal = NULL;
		p->sighand = NULL;
		return;
	}
	if (!machine_gone)
		sched_autogroup_exit(p->signal);
	kfree(p->signal);
	kfree(p->sighand);
	p->signal = NULL;
	p->sighand = NULL;
}

/*
 * @p, a process of its own, becomes a thread of @leader's process (NUMA
 * balancing's threads sharing an mm): its own process goes, and it moves
 * to the autogroup of the process it joins.
 */
void ft_autogroup_join_thread(struct task_struct *p, struct task_struct *leader)
{
	struct signal_struct *own = p->signal;
	struct sighand_struct *own_hand = p->sighand;

	list_del(&p->thread_node);
	p->signal = leader->signal;
	p->sighand = leader->sighand;
	list_add_tail(&p->thread_node, &p->signal->thread_head);
	sched_move_task(p, true);
	sched_autogroup_exit(own);
	kfree(own);
	kfree(own_hand);
}

int ft_autogroup_setsid(struct task_struct *p)
{
	sched_autogroup_create_attach(p);
	return 0;
}

int ft_autogroup_nice(struct task_struct *p, int nice)
{
	return proc_sched_autogroup_set_nice(p, nice);
}

struct task_group *ft_autogroup_tg(struct task_struct *p)
{
	return p->signal ? p->signal->autogroup->tg : &root_task_group;
}
#else
void ft_autogroup_boot(void) { }
int ft_autogroup_fork(struct task_struct *p, struct task_struct *parent) { return 0; }
void ft_autogroup_exit(struct task_struct *p) { }
void ft_autogroup_release(struct task_struct *p, bool machine_gone) { }
void ft_autogroup_join_thread(struct task_struct *p, struct task_struct *leader) { }
int ft_autogroup_setsid(struct task_struct *p) { return -EOPNOTSUPP; }
int ft_autogroup_nice(struct task_struct *p, int nice) { return -EOPNOTSUPP; }
struct task_group *ft_autogroup_tg(struct task_struct *p) { return &root_task_group; }
#endif

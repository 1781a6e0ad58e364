// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by subsystems fair.c only touches in passing: kthread,
 * sysctl, cgroup accounting, printk, prandom, jump labels, kstrtox. (The
 * softirq, the CPU stopper and RCU callbacks are the driver's: smp.c.)
 * Counted no-ops, except where a value must be returned (fakes) or where
 * reaching the seam means work the harness does not model (aborts).
 */
#include <linux/interrupt.h>
#include <linux/stop_machine.h>
#include <linux/kthread.h>
#include <linux/sysctl.h>
#include <linux/cgroup.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/refcount.h>
#include <linux/printk.h>
#include <linux/prandom.h>
#include <linux/ratelimit.h>
#include <linux/static_call.h>
#include <linux/preempt.h>
#include "seam.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

bool kthread_is_per_cpu(struct task_struct *p)
{
	return false;
}

#ifdef FT_SYSCTL_TABLE_CONST
void __register_sysctl_init(const char *path, const struct ctl_table *table,
#else
void __register_sysctl_init(const char *path, struct ctl_table *table,
#endif
			    const char *table_name, size_t table_size)
{
	SEAM_NOOP();
}

void __cgroup_account_cputime(struct cgroup *cgrp, u64 delta_exec)
{
	SEAM_NOOP();
}

/* printk output is the kernel talking; keep it, prefixed, on the log. */
asmlinkage __visible int _printk(const char *fmt, ...)
{
	char buf[256];
	va_list args;
	int n;

	va_start(args, fmt);
	n = ft_host_vformat(buf, sizeof(buf), printk_skip_level(fmt), args);
	va_end(args);
	ft_host_log(buf);
	return n;
}

/* fair.c draws for NUMA scan jitter only; keep it deterministic. */
u32 prandom_u32_state(struct rnd_state *state)
{
	state->s1 = state->s1 * 1103515245u + 12345u;
	return state->s1;
}

/* Jump labels are plain counters (CONFIG_JUMP_LABEL off); init is done. */
bool static_key_initialized = true;

/* Only topology.c's boot-parameter parser calls it; we pass no parameters. */
int kstrtoint(const char *s, unsigned int base, int *res)
{
	SEAM_ABORT();
}

/*
 * preempt_enable() calls x86's thunk when the count drops to zero with a
 * resched folded in; the shim never folds one (seams/smp.c), so reaching
 * it means the preempt count went wrong. (Called from asm only: no header
 * declares it.)
 */
void preempt_schedule_thunk(void);
void preempt_schedule_thunk(void)
{
	SEAM_ABORT();
}

/*
 * PREEMPT_DYNAMIC: preempt_enable() reaches preempt_schedule through a
 * static call, whose target is the thunk above: the same abort.
 */
#ifdef CONFIG_PREEMPT_DYNAMIC
DEFINE_STATIC_CALL(preempt_schedule, preempt_schedule_thunk);
#endif

/* Rate limits let every message through: the log is deterministic anyway. */
int ___ratelimit(struct ratelimit_state *rs, const char *func)
{
	return 1;
}

/*
 * get_random_u32_below(): fair.c draws for timer interleaving (the
 * bandwidth period timer's first expiry). Deterministic, from the same
 * generator as prandom above.
 */
static struct rnd_state ft_random_state;

u32 __get_random_u32_below(u32 ceil)
{
	return (u32)(((u64)prandom_u32_state(&ft_random_state) * ceil) >> 32);
}

/* A new machine draws the same sequence as the first one did. */
void ft_random_reset(void)
{
	ft_random_state = (struct rnd_state){ .s1 = 1 };
}

/* The sysctl table's bounds; the table is never registered (above). */
const int sysctl_vals[] = { 0, 1, 2, 3, 4, 100, 200, 1000, 3000, INT_MAX, 65535, -1 };

int proc_dointvec_minmax(const struct ctl_table *table, int write, void *buffer,
			 size_t *lenp, loff_t *ppos)
{
	SEAM_ABORT();
}

/*
 * Retargeting a static call patches text (7.3's calc_group_shares mode
 * switch, a debugfs write): nothing here makes one.
 */
#ifdef CONFIG_HAVE_STATIC_CALL
void __static_call_update(struct static_call_key *key, void *tramp, void *func)
{
	SEAM_ABORT();
}
#endif

/*
 * What autogroup.c (the debian profile) reaches beyond the scheduler: the
 * capability check of a nice change (every task here is privileged) and
 * the printk rate limit of its allocation-failure message. A reference
 * count gone wrong is refcount_warn_saturate() below.
 */
int cap_task_setnice(struct task_struct *p, int nice)
{
	return 0;
}

int __printk_ratelimit(const char *func)
{
	return 1;
}

/* /proc/PID/autogroup's read side: nothing here reads it. */
void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	SEAM_ABORT();
}

/*
 * PREEMPT_DYNAMIC's cond_resched() (task_numa_work() calls it between
 * chunks of a scan): a counted no-op. The scan is one step of the
 * engine; nothing else could run in between.
 */
#ifdef CONFIG_PREEMPT_DYNAMIC
static int ft_cond_resched(void)
{
	SEAM_NOOP();
	return 0;
}
DEFINE_STATIC_CALL(cond_resched, ft_cond_resched);
#endif

/* lib/refcount: a refcount gone wrong is a kernel WARN: the test fails. */
void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
	refcount_set(r, REFCOUNT_SATURATED);
	WARN(1, "refcount_t: misuse (saturation type %d)", t);
}

/*
 * kernel/fork: the last reference to a task. The driver holds one for
 * each task's life and frees it itself: fair.c dropping the last one
 * is a reference bug.
 */
void __put_task_struct(struct task_struct *t)
{
	SEAM_ABORT();
}

/* 7.x drops it through RCU: the same bug, one step later. */
void __put_task_struct_rcu_cb(struct rcu_head *rhp)
{
	SEAM_ABORT();
}

/* mm/slab_common: kfree_rcu(), freed once no reader can hold it. */
struct ft_kvfree_rcu {
	struct rcu_head rcu;
	void *ptr;
};

static void ft_kvfree_cb(struct rcu_head *head)
{
	struct ft_kvfree_rcu *f = container_of(head, struct ft_kvfree_rcu, rcu);

	kfree(f->ptr);	/* every such object here came from kmalloc */
	kfree(f);
}

#ifdef FT_KVFREE_RCU_HEAD
void kvfree_call_rcu(struct kvfree_rcu_head *head, void *ptr)
#else
void kvfree_call_rcu(struct rcu_head *head, void *ptr)
#endif
{
	struct ft_kvfree_rcu *f = kmalloc(sizeof(*f), GFP_KERNEL | __GFP_NOFAIL);

	if (!f)
		SEAM_ABORT();
	f->ptr = ptr;
	call_rcu(&f->rcu, ft_kvfree_cb);
}

/* kernel/sched/debug: /proc/PID/sched's NUMA lines, never printed here. */
#ifdef CONFIG_NUMA_BALANCING
void print_numa_stats(struct seq_file *m, int node, unsigned long tsf,
		      unsigned long tpf, unsigned long gsf, unsigned long gpf)
{
	SEAM_NOOP();
}
#endif

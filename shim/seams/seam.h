/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-side helpers for seams: the definitions fair.c links against in
 * place of the rest of the kernel. Each seam is one of three kinds, and
 * shim/seams.manifest says which:
 *   fake  - does the real job in a simpler way (slab on malloc, a clock);
 *   noop  - nothing to do in a single-process machine, but the call is
 *           counted (SEAM_NOOP) so a test can see that fair.c made it;
 *   abort - must not be reached with our configs (SEAM_ABORT): reaching it
 *           means the shim is missing behaviour a test now depends on.
 */
#ifndef FAIRTEST_SEAM_H
#define FAIRTEST_SEAM_H

#include <linux/compiler.h>
#include "../fairtest.h"

struct ft_seam_counter {
	const char *symbol;
	unsigned long hits;
};

#define SEAM_NOOP()							\
	do {								\
		static struct ft_seam_counter __ft_counter		\
			__section("fairtest_seam_counters") __used	\
			__aligned(sizeof(long)) = { .symbol = __func__ };	\
		__ft_counter.hits++;					\
	} while (0)

void __noreturn ft_seam_abort(const char *symbol, const char *file, int line);
#define SEAM_ABORT()	ft_seam_abort(__func__, __FILE__, __LINE__)

/* Lock bookkeeping shared by spinlocks and the rq lock (seams/locking.c). */
struct raw_spinlock;
void ft_spin_take(struct raw_spinlock *lock, void *caller);
void ft_spin_release(struct raw_spinlock *lock, void *caller);

/* Rule breaks found by the shim itself (locking, clock), with the caller. */
void ft_fault_here(const char *what, void *caller, const char *fmt, ...);

/* The failure point standing for the kernel function now allocating. */
extern enum ft_point ft_slab_site;

/* Dynamic per-CPU memory after each CPU area's static copy (percpu.c). */
#define FT_PCPU_RESERVE	(256 * 1024)
void ft_pcpu_reset(unsigned long start);
long ft_slab_live_adjust(long delta);	/* slab.c: per-CPU objects count too */

/* hrtimers on the virtual clock (hrtimer.c), run by the driver's loop */
struct hrtimer;
u64 ft_clock_now(void);
void ft_hrtimer_start_on(struct hrtimer *timer, s64 expires, int cpu);
u64 ft_hrtimer_next(void);
void ft_hrtimer_audit(void);	/* FAIRTEST_CHECKER=full: faults if it is wrong */
extern int ft_hrtimers_queued;	/* 0: ft_hrtimer_next() is U64_MAX */
u64 ft_hrtimer_run(u64 now);
void ft_hrtimer_reset(void);

void ft_numa_boot(void);	/* numa.c: one node of every CPU */
int ft_numa_set_nodes(int nr, const int *node_of, const int *dist, int stride);

/* Generator state a new machine starts afresh (misc.c, smp.c). */
void ft_random_reset(void);
void ft_cpumask_distribute_reset(void);

/* The fake CPU the harness is executing as (see asm/percpu.h override). */
extern int fairtest_cpu;
void ft_switch_cpu(int cpu);
struct task_struct;
void ft_set_current(int cpu, struct task_struct *p);
void ft_cpu_up(int cpu, struct task_struct *idle);

/* The driver's hooks as a spinlock is taken, and before it is released (an rq lock: check). */
void ft_spin_taking(struct raw_spinlock *lock);
void ft_spin_releasing(struct raw_spinlock *lock);

/* The arch facts topology.c reads (seams/topology.c, seams/capacity.c). */
struct cpumask;
void ft_arch_set_masks(int cpu, const struct cpumask *smt,
		       const struct cpumask *cls, const struct cpumask *llc);
void ft_capacity_reset(void);	/* every CPU back to full capacity */

/* The energy model and cpufreq policies of a topology (cpufreq.c). */
int ft_em_register(const struct ft_topology *t);
void ft_em_unregister(void);

#endif /* FAIRTEST_SEAM_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/cpu.c, mm/percpu.c and arch/x86's SMP boot: the
 * CPU masks, the per-CPU area offsets and the per-CPU "hot" block where
 * x86 keeps current and the CPU number. Fakes: the driver fills them at
 * ft_boot() for the number of fake CPUs asked for. (alloc_percpu() is
 * seams/percpu.c.)
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/topology.h>
#include <asm/current.h>
#include <asm/smp.h>
#include "seam.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

struct cpumask __cpu_possible_mask;
struct cpumask __cpu_online_mask;
struct cpumask __cpu_present_mask;
struct cpumask __cpu_active_mask;
struct cpumask __cpu_enabled_mask;
struct cpumask __cpu_dying_mask;
atomic_t __num_online_cpus;
unsigned int nr_cpu_ids = 1;

unsigned long __per_cpu_offset[NR_CPUS];
#ifdef FT_HAVE_PCPU_HOT
DEFINE_PER_CPU_ALIGNED(struct pcpu_hot, pcpu_hot);
#define ft_preempt_count	pcpu_hot.preempt_count
#else
/* 7.x split x86's hot block into plain per-CPU variables. */
DEFINE_PER_CPU_CACHE_HOT(struct task_struct *, current_task);
DEFINE_PER_CPU_CACHE_HOT(int, cpu_number);
DEFINE_PER_CPU_CACHE_HOT(__typeof__(__preempt_count), __preempt_count);	/* int up to 7.2 */
#define ft_preempt_count	__preempt_count
#endif

/* Where the asm/percpu.h override points every this_cpu access. */
unsigned long fairtest_cpu_offset;
int fairtest_cpu;
unsigned long fairtest_irq_flags[NR_CPUS];

void ft_switch_cpu(int cpu)
{
	fairtest_cpu = cpu;
	fairtest_cpu_offset = __per_cpu_offset[cpu];
}

/*
 * A CPU coming up: preemption enabled with no resched folded in (x86
 * keeps PREEMPT_NEED_RESCHED inverted in the count), so preempt_enable()
 * never preempts by itself; with PREEMPT_LAZY trees (7.x) preemption is
 * the driver's, at the points core.c would preempt a user task.
 */
void ft_cpu_up(int cpu, struct task_struct *idle)
{
	per_cpu(ft_preempt_count, cpu) = PREEMPT_ENABLED;
	ft_set_current(cpu, idle);
}

/* What `current` and smp_processor_id() read on @cpu. */
void ft_set_current(int cpu, struct task_struct *p)
{
#ifdef FT_HAVE_PCPU_HOT
	per_cpu(pcpu_hot.current_task, cpu) = p;
	per_cpu(pcpu_hot.cpu_number, cpu) = cpu;
#else
	per_cpu(current_task, cpu) = p;
	per_cpu(cpu_number, cpu) = cpu;
#endif
}

/* lib/bitmap.c's, for cpumask_weight() of masks of unknown size. */
unsigned int __bitmap_weight(const unsigned long *bitmap, unsigned int bits)
{
	unsigned int w = 0, k;

	for (k = 0; k < bits / BITS_PER_LONG; k++)
		w += hweight_long(bitmap[k]);
	if (bits % BITS_PER_LONG)
		w += hweight_long(bitmap[k] & BITMAP_LAST_WORD_MASK(bits));
	return w;
}

/*
 * lib/cpumask.c's contract: a CPU in both masks, >= nr_cpu_ids when they
 * share none; each CPU remembers the answer it got last and starts after
 * it next time, so repeated calls from one CPU spread over the candidates
 * (7.x picks NUMA-aware targets with it). A new machine forgets them all.
 */
static unsigned int ft_distribute_last[NR_CPUS];

unsigned int cpumask_any_and_distribute(const struct cpumask *src1p, const struct cpumask *src2p)
{
	unsigned int *last = &ft_distribute_last[fairtest_cpu];

	/* walk the CPUs once round, from the one after @last back to it */
	for (unsigned int i = 1; i <= nr_cpu_ids; i++) {
		unsigned int cpu = (*last + i) % nr_cpu_ids;

		if (cpumask_test_cpu(cpu, src1p) && cpumask_test_cpu(cpu, src2p)) {
			*last = cpu;
			return cpu;
		}
	}
	return nr_cpu_ids;
}

void ft_cpumask_distribute_reset(void)
{
	memset(ft_distribute_last, 0, sizeof(ft_distribute_last));
}

#ifdef CONFIG_HOTPLUG_CPU
/* kernel/cpu.c: no CPU comes or goes here, so the hotplug lock guards nothing. */
void cpus_read_lock(void)
{
	SEAM_NOOP();
}

void cpus_read_unlock(void)
{
	SEAM_NOOP();
}
#endif

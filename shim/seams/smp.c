// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/cpu.c, mm/percpu.c and arch/x86's SMP boot: the
 * CPU masks, the per-CPU area offsets and the per-CPU "hot" block where
 * x86 keeps current and the CPU number. Fakes: the driver fills them at
 * ft_boot() for the number of fake CPUs asked for. alloc_percpu() (the
 * sched domain builder's per-CPU pointer arrays) is a bump allocator in a
 * zeroed reserve after the static template in every CPU's area, so a
 * dynamic per-CPU pointer is reached exactly like a static one; freeing
 * is a counted no-op, the reserve goes with the areas at shutdown.
 */
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/topology.h>
#include <asm/current.h>
#include <asm/smp.h>
#include "seam.h"

extern char __per_cpu_end[];

struct cpumask __cpu_possible_mask;
struct cpumask __cpu_online_mask;
struct cpumask __cpu_present_mask;
struct cpumask __cpu_active_mask;
struct cpumask __cpu_enabled_mask;
struct cpumask __cpu_dying_mask;
atomic_t __num_online_cpus;
unsigned int nr_cpu_ids = 1;

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU_ALIGNED(struct pcpu_hot, pcpu_hot);

/* Where the asm/percpu.h override points every this_cpu access. */
unsigned long fairtest_cpu_offset;
int fairtest_cpu;
unsigned long fairtest_irq_flags[NR_CPUS];

void ft_switch_cpu(int cpu)
{
	fairtest_cpu = cpu;
	fairtest_cpu_offset = __per_cpu_offset[cpu];
}

static unsigned long pcpu_dyn_used;

/* A fresh machine: its CPU areas have an empty, zeroed reserve. */
void ft_pcpu_dyn_reset(void)
{
	pcpu_dyn_used = 0;
}

void __percpu *pcpu_alloc_noprof(size_t size, size_t align, bool reserved,
				 gfp_t gfp)
{
	unsigned long off = ALIGN(pcpu_dyn_used, max_t(size_t, align, 8));

	if (off + size > FT_PCPU_DYN_SIZE)
		return NULL;
	pcpu_dyn_used = off + size;
	return (void __percpu *)(__per_cpu_end + off);
}

void free_percpu(void __percpu *ptr)
{
	SEAM_NOOP();
}

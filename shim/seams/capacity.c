// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by the cpufreq core and arch/x86's capacity code. Fakes: every
 * CPU has the full capacity unless a test sets another (asymmetric
 * machines), no frequency pressure, no cpufreq governor hooked in.
 */
#include <linux/cpufreq.h>
#include "../ksched.h"
#include "seam.h"

static unsigned long cpu_capacity_of[NR_CPUS];

unsigned long arch_scale_cpu_capacity(int cpu)
{
	return cpu_capacity_of[cpu] ?: SCHED_CAPACITY_SCALE;
}

int ft_set_cpu_capacity(int cpu, unsigned long capacity)
{
	if (cpu < 0 || cpu >= nr_cpu_ids || capacity > SCHED_CAPACITY_SCALE)
		return -EINVAL;
	cpu_capacity_of[cpu] = capacity;
	return 0;
}

void ft_capacity_reset(void)
{
	memset(cpu_capacity_of, 0, sizeof(cpu_capacity_of));
}

DEFINE_PER_CPU(unsigned long, cpufreq_pressure);

/* Running at full frequency; at 0 the PELT clock would never advance. */
DEFINE_PER_CPU(unsigned long, arch_freq_scale) = SCHED_CAPACITY_SCALE;

DEFINE_PER_CPU(struct update_util_data __rcu *, cpufreq_update_util_data);

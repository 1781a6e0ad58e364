// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by cpufreq, its schedutil governor and the energy model
 * (CONFIG_CPU_FREQ, CONFIG_ENERGY_MODEL: the debian profile). The machine
 * has no cpufreq policy and no energy model registered, as an x86 machine
 * whose driver registers none: topology.c then builds no perf domains and
 * EAS stays off, with its code compiled. Frequency invariance is on (x86
 * with APERF/MPERF), at the constant full frequency of seams/capacity.c.
 */
#include <linux/cpufreq.h>
#include <linux/energy_model.h>
#include <linux/jump_label.h>
#include "seam.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

#ifdef CONFIG_CPU_FREQ
struct cpufreq_policy *cpufreq_cpu_get(unsigned int cpu)
{
	return NULL;
}

void cpufreq_cpu_put(struct cpufreq_policy *policy)
{
	SEAM_ABORT();	/* nothing was got */
}

#ifdef FT_HAVE_CPUFREQ_READY_FOR_EAS
/* 7.x asks cpufreq whether the CPUs' policies suit EAS: there are none. */
bool cpufreq_ready_for_eas(const struct cpumask *cpu_mask)
{
	return false;
}
#endif

/* Compared with a policy's governor only: there is no policy. */
struct cpufreq_governor schedutil_gov;

/* Reached only through a perf domain's energy estimate: there is none. */
unsigned long sugov_effective_cpu_perf(int cpu, unsigned long actual,
				       unsigned long min, unsigned long max)
{
	SEAM_ABORT();
}
#endif

#ifdef CONFIG_ENERGY_MODEL
struct em_perf_domain *em_cpu_get(int cpu)
{
	return NULL;
}
#endif

#ifdef CONFIG_X86
/* x86 turns frequency invariance on where APERF/MPERF count: here, always. */
struct static_key_false arch_scale_freq_key = { .key = STATIC_KEY_INIT_TRUE };
#endif

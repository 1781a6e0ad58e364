// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by cpufreq, its schedutil governor and the energy model
 * (CONFIG_CPU_FREQ, CONFIG_ENERGY_MODEL: the debian profile). A machine
 * whose topology has no energy model (most of them, as an x86 machine
 * whose driver registers none) has no cpufreq policy and no perf domain:
 * topology.c builds none and EAS stays off, with its code compiled. A
 * topology with "em" lines (fixtures/topologies/biglittle-8.topo) gets,
 * per perf domain, the energy model the platform would register (its
 * states' costs derived as the EM core does: power over performance) and
 * a cpufreq policy governed by schedutil, which EAS requires; the driver
 * then asks for the rebuild schedutil's start asks for (driver/energy.c).
 * Frequency invariance is on (x86 with APERF/MPERF), at the constant full
 * frequency of seams/capacity.c: the model's states price the work, the
 * CPUs do not actually change speed.
 */
#include <linux/cpufreq.h>
#include <linux/energy_model.h>
#include <linux/jump_label.h>
#include <linux/sched/cpufreq.h>
#include "seam.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

#ifdef CONFIG_CPU_FREQ
/* One policy per perf domain, its governor schedutil; NULL: no policy. */
static struct cpufreq_policy *policy_of[NR_CPUS];
/* Compared with a policy's governor only. */
struct cpufreq_governor schedutil_gov;

struct cpufreq_policy *cpufreq_cpu_get(unsigned int cpu)
{
	return cpu < NR_CPUS ? policy_of[cpu] : NULL;
}

/* Policies live as long as the machine: nothing to drop. */
void cpufreq_cpu_put(struct cpufreq_policy *policy)
{
	if (!policy)
		SEAM_ABORT();	/* nothing was got */
}

#ifdef FT_HAVE_CPUFREQ_READY_FOR_EAS
/* 7.x asks cpufreq whether every CPU's policy is governed by schedutil. */
bool cpufreq_ready_for_eas(const struct cpumask *cpu_mask)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpu_mask)
		if (!policy_of[cpu] || policy_of[cpu]->governor != &schedutil_gov)
			return false;
	return true;
}
#endif

/*
 * schedutil's frequency request for a CPU (reached from EAS's energy
 * estimate): the utilization with the DVFS headroom map_util_perf() adds,
 * no more than @max, no less than @min.
 */
unsigned long sugov_effective_cpu_perf(int cpu, unsigned long actual,
				       unsigned long min, unsigned long max)
{
	SEAM_NOOP();	/* counted: each call is one CPU of an energy estimate */
	actual = map_util_perf(actual);
	return max(min, actual < max ? actual : max);
}
#endif

#ifdef CONFIG_ENERGY_MODEL
static struct em_perf_domain *em_of[NR_CPUS];

struct em_perf_domain *em_cpu_get(int cpu)
{
	return cpu >= 0 && cpu < NR_CPUS ? em_of[cpu] : NULL;
}

/* Frees every perf domain and policy; the machine is going away. */
void ft_em_unregister(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct em_perf_domain *pd = em_of[cpu];

		if (!pd)
			continue;
		for (int c = cpu; c < NR_CPUS; c++)
			if (em_of[c] == pd) {
				em_of[c] = NULL;
#ifdef CONFIG_CPU_FREQ
				if (c != cpu)
					policy_of[c] = NULL;
#endif
			}
		ft_host_free(rcu_dereference_raw(pd->em_table));
		ft_host_free(pd);
#ifdef CONFIG_CPU_FREQ
		ft_host_free(policy_of[cpu]);
		policy_of[cpu] = NULL;
#endif
	}
}

/*
 * What em_dev_register_perf_domain() leaves for a CPU device, per perf
 * domain of @t: the states in ascending order, each with its performance,
 * a frequency proportional to it, its power in microwatts and its cost,
 * 10 * power / performance (the EM core's resolution). 0, or -ENOMEM.
 */
int ft_em_register(const struct ft_topology *t)
{
	for (int d = 0; d < t->nr_pds; d++) {
		const struct ft_perf_domain *src = &t->pd[d];
		int n = src->nr_states;
		struct em_perf_domain *pd = ft_host_zalloc(sizeof(*pd) + cpumask_size());
		struct em_perf_table *table = ft_host_zalloc(struct_size(table, state, n));
		struct cpufreq_policy *policy = NULL;

#ifdef CONFIG_CPU_FREQ
		policy = ft_host_zalloc(sizeof(*policy));
#endif
		if (!pd || !table || (IS_ENABLED(CONFIG_CPU_FREQ) && !policy)) {
			ft_host_free(pd);
			ft_host_free(table);
			ft_host_free(policy);
			ft_em_unregister();
			return -ENOMEM;
		}
		for (int i = 0; i < n; i++) {
			struct em_perf_state *ps = &table->state[i];

			ps->performance = src->perf[i];
			ps->frequency = src->perf[i] * 1000;	/* kHz: any scale proportional */
			ps->power = src->power_mw[i] * 1000;	/* uW */
			ps->cost = 10 * ps->power / ps->performance;
		}
		kref_init(&table->kref);
		rcu_assign_pointer(pd->em_table, table);
		pd->nr_perf_states = n;
		pd->flags = EM_PERF_DOMAIN_MICROWATTS;
#ifdef FT_HAVE_EM_PERF_LIMITS
		pd->min_perf_state = 0;
		pd->max_perf_state = n - 1;
		pd->id = d;
#endif
		for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
			if (!(src->cpus >> cpu & 1))
				continue;
			cpumask_set_cpu(cpu, em_span_cpus(pd));
			em_of[cpu] = pd;
		}
#ifdef CONFIG_CPU_FREQ
		policy->governor = &schedutil_gov;
		policy->cpu = cpumask_first(em_span_cpus(pd));
		for (int cpu = 0; cpu < t->nr_cpus; cpu++)
			if (src->cpus >> cpu & 1)
				policy_of[cpu] = policy;
#endif
	}
	return 0;
}
#endif

#ifdef CONFIG_X86
/* x86 turns frequency invariance on where APERF/MPERF count: here, always. */
struct static_key_false arch_scale_freq_key = { .key = STATIC_KEY_INIT_TRUE };
#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * Energy-aware scheduling on a machine whose topology has an energy model
 * (CONFIG_ENERGY_MODEL with schedutil: the debian profile). At boot the
 * platform registers the model and cpufreq starts schedutil on every
 * policy (seams/cpufreq.c); schedutil's start asks topology.c to rebuild
 * the root domain's perf domains (rebuild_sched_domains_energy()), and
 * the tree's own topology.c decides whether EAS can run there (asymmetric
 * capacities, no SMT, frequency invariance, schedutil everywhere) and
 * attaches them. The view back out: whether EAS is on, the root domain's
 * overutilized flag, and the raw utilization signals EAS reads, for the
 * tests' own energy arithmetic (tests/eas.c).
 */
#include "driver.h"

#if defined(CONFIG_ENERGY_MODEL) && defined(CONFIG_CPU_FREQ_GOV_SCHEDUTIL)
int ft_energy_boot(const struct ft_topology *topo)
{
	int err;

	if (!topo->nr_pds)
		return 0;
	err = ft_em_register(topo);
	if (err)
		return err;
	/* sugov_start() -> sugov_eas_rebuild_sd(), one CPU's worth of it */
	rebuild_sched_domains_energy();
	ft_rcu_quiescent();
	return 0;
}
#else
int ft_energy_boot(const struct ft_topology *topo)
{
	return 0;
}
#endif

bool ft_eas_enabled(void)
{
	return ft_m.booted && sched_energy_enabled();
}

int ft_rd_overutilized(int cpu)
{
	if (!ft_m.booted || cpu < 0 || cpu >= ft_m.nr_cpus || !cpu_rq(cpu)->rd)
		return -EINVAL;
	return READ_ONCE(cpu_rq(cpu)->rd->overutilized) ? 1 : 0;
}

int ft_rd_perf_domains(int cpu, ft_u64 *spans, int max)
{
	int n = 0;

	if (!ft_m.booted || cpu < 0 || cpu >= ft_m.nr_cpus || !cpu_rq(cpu)->rd)
		return -EINVAL;
#if defined(CONFIG_ENERGY_MODEL) && defined(CONFIG_CPU_FREQ_GOV_SCHEDUTIL)
	for (struct perf_domain *pd = rcu_dereference_raw(cpu_rq(cpu)->rd->pd);
	     pd && n < max; pd = pd->next)
		spans[n++] = cpumask_bits(perf_domain_span(pd))[0];
#endif
	return n;
}

int ft_cpu_util_raw(int cpu, struct ft_util *out)
{
	struct cfs_rq *cfs_rq;

	if (!ft_m.booted || cpu < 0 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	cfs_rq = &cpu_rq(cpu)->cfs;
	out->util_avg = READ_ONCE(cfs_rq->avg.util_avg);
	out->util_est = READ_ONCE(cfs_rq->avg.util_est);
	out->runnable_avg = READ_ONCE(cfs_rq->avg.runnable_avg);
	return 0;
}

int ft_task_util_raw(int id, struct ft_util *out)
{
	struct task_struct *p = ft_task_of(id);

	if (!p)
		return -ESRCH;
	out->util_avg = READ_ONCE(p->se.avg.util_avg);
	out->util_est = READ_ONCE(p->se.avg.util_est) & ~UTIL_AVG_UNCHANGED;
	out->runnable_avg = READ_ONCE(p->se.avg.runnable_avg);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A machine with sched domains: the arch facts of a topology description
 * (which CPUs share a core, an L2 cluster, an LLC; each CPU's capacity)
 * go to the seams topology.c reads, and then the boot does what the
 * kernel's does: every rq joins the default root domain (sched_init), and
 * sched_init_domains() of the tree's topology.c builds the domains, their
 * groups and the real root domain (sched_init_smp). The view back out is a
 * plain copy of what topology.c left attached to each rq.
 */
#include "driver.h"

#define SD_FLAG(name, mflags)	[__##name] = #name,
static const char *const sd_flag_names[] = {
#include <linux/sched/sd_flags.h>
};
#undef SD_FLAG

const char *ft_sd_flag_name(int bit)
{
	if (bit < 0 || bit >= ARRAY_SIZE(sd_flag_names))
		return NULL;
	return sd_flag_names[bit] + 3;	/* without "SD_" */
}

/* Levels must nest (SMT in cluster in LLC in package), as real ones do. */
static int check_nesting(const struct ft_topology *t)
{
	for (int i = 0; i < t->nr_cpus; i++) {
		if (t->capacity[i] > SCHED_CAPACITY_SCALE)
			return -EINVAL;
		for (int j = 0; j < t->nr_cpus; j++) {
			if ((t->core[i] == t->core[j] && t->cluster[i] != t->cluster[j]) ||
			    (t->cluster[i] == t->cluster[j] && t->llc[i] != t->llc[j]) ||
			    (t->llc[i] == t->llc[j] && t->pkg[i] != t->pkg[j]))
				return -EINVAL;
		}
	}
	return 0;
}

static void set_arch_facts(const struct ft_topology *t)
{
	for (int i = 0; i < t->nr_cpus; i++) {
		struct cpumask smt, cls, llc;

		cpumask_clear(&smt);
		cpumask_clear(&cls);
		cpumask_clear(&llc);
		for (int j = 0; j < t->nr_cpus; j++) {
			if (t->core[i] == t->core[j])
				cpumask_set_cpu(j, &smt);
			if (t->cluster[i] == t->cluster[j])
				cpumask_set_cpu(j, &cls);
			if (t->llc[i] == t->llc[j])
				cpumask_set_cpu(j, &llc);
		}
		ft_arch_set_masks(i, &smt, &cls, &llc);
		ft_set_cpu_capacity(i, t->capacity[i]);
#ifdef CONFIG_SCHED_SMT
		/*
		 * sched_cpu_activate() of a CPU with a sibling: fair.c then
		 * looks for idle cores (select_idle_core()) and keeps each
		 * LLC's has_idle_cores up to date.
		 */
		if (cpumask_weight(&smt) == 2)
			static_branch_inc_cpuslocked(&sched_smt_present);
#endif
	}
}

int ft_boot_topology(const struct ft_topology *topo)
{
	int err;

	if (!topo || topo->nr_cpus < 1 || topo->nr_cpus > FT_MAX_CPUS)
		return -EINVAL;
	err = check_nesting(topo);
	if (err)
		return err;
	/* Capacities are arch facts of this machine, not of the last one. */
	ft_capacity_reset();
	err = ft_boot(topo->nr_cpus);
	if (err)
		return err;
	set_arch_facts(topo);
	/* the firmware's nodes, then sched_init_numa()'s levels from them */
	err = ft_numa_set_nodes(topo->nr_nodes, topo->node, &topo->distance[0][0], FT_MAX_NODES);
	if (err)
		return err;
	ft_topology_numa(topo->nr_nodes > 1);
	ft_numa_machine_boot();

	/* sched_init(): every rq on the default root domain, online. */
	memset(&def_root_domain, 0, sizeof(def_root_domain));
	init_defrootdomain();
	for (int cpu = 0; cpu < topo->nr_cpus; cpu++) {
		struct rq *rq = cpu_rq(cpu);

		ft_switch_cpu(cpu);
		rq->rd = NULL;
		rq->online = 0;
		rq_attach_root(rq, &def_root_domain);
	}

#ifdef FT_HAVE_LLC_ID_ALLOC
	/*
	 * ft_boot() gave each CPU an LLC id of its own, as for a CPU without
	 * domains; this topology.c allocates the ids itself and keeps one
	 * already set, so it would leave every CPU alone in its LLC for
	 * cpus_share_cache(): unset them, as the kernel's static value is.
	 */
	for (int cpu = 0; cpu < topo->nr_cpus; cpu++)
		per_cpu(sd_llc_id, cpu) = -1;
#endif

	/* sched_init_smp() */
	ft_switch_cpu(0);
	mutex_lock(&sched_domains_mutex);
	err = sched_init_domains(cpu_active_mask);
	mutex_unlock(&sched_domains_mutex);
	sched_smp_initialized = true;
	ft_m.has_domains = true;
	ft_rcu_quiescent();
	if (err)
		return err;
	/* cpufreq and the energy model come up after SMP init (energy.c) */
	err = ft_energy_boot(topo);
	if (err)
		return err;

	/*
	 * A real machine's sched_clock has counted since power-on when tests
	 * start, and fair.c reads a zero rq->idle_stamp as "not idle": at 0
	 * every idle CPU would look busy to fork and wake-up placement. So
	 * sched_clock starts 1 ms ahead (virtual time still starts at 0),
	 * and every CPU enters idle through the scheduler, as after boot,
	 * which stamps it.
	 */
	ft_clock_set_ahead(NSEC_PER_MSEC);
	for (int cpu = 0; cpu < topo->nr_cpus; cpu++) {
		ft_schedule_cpu(cpu, false);
		ft_nohz_idle_enter(cpu);
	}
	ft_resched_pending();
	return 0;
}

int ft_cpu_domains(int cpu, struct ft_domain *out, int max)
{
	struct sched_domain *sd;
	int n = 0;

	if (!ft_m.booted || cpu < 0 || cpu >= ft_m.nr_cpus)
		return -EINVAL;
	for (sd = cpu_rq(cpu)->sd; sd && n < max; sd = sd->parent, n++) {
		struct ft_domain *d = &out[n];
		struct sched_group *sg = sd->groups;

		memset(d, 0, sizeof(*d));
		for (size_t c = 0, len = sizeof(d->name) - 1; c < len && (sd->name ?: "?")[c]; c++)
			d->name[c] = (sd->name ?: "?")[c];	/* no libc here; memset ended it */
		d->span = cpumask_bits(sched_domain_span(sd))[0];
		d->flags = sd->flags;
		d->imbalance_pct = sd->imbalance_pct;
		d->cache_nice_tries = sd->cache_nice_tries;
		d->busy_factor = sd->busy_factor;
		d->min_interval = sd->min_interval;
		d->max_interval = sd->max_interval;
		d->span_weight = sd->span_weight;
		d->nr_balance_failed = sd->nr_balance_failed;
		d->balance_interval = sd->balance_interval;
		d->last_balance = sd->last_balance;
		d->imb_numa_nr = sd->imb_numa_nr;
		do {
			d->group_span[d->nr_groups] = cpumask_bits(sched_group_span(sg))[0];
			d->group_capacity[d->nr_groups] = sg->sgc->capacity;
			d->nr_groups++;
			sg = sg->next;
		} while (sg != sd->groups && d->nr_groups < FT_MAX_CPUS);
	}
	return n;
}

unsigned long ft_cpu_capacity(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus ? cpu_rq(cpu)->cpu_capacity : 0;
}

u64 ft_stop_works(void)
{
	return ft_m.stop_works;
}

u64 ft_balance_runs(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus ? ft_m.balance_runs[cpu] : 0;
}

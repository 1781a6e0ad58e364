// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's kernel/sched/topology.c, unmodified, in the surroundings it
 * gets in the kernel (build_utility.c includes it after sched.h), so sched
 * domains, groups, their capacities and the root domain are built by the
 * real code from the arch facts our seams report (seams/topology.c,
 * seams/capacity.c). The kernel never tears its domains down whole; a
 * fresh fake machine per test must, so the one wrapper below reaches the
 * file's statics the way the hotplug path does (detach every CPU onto the
 * default root domain), drops what a symmetric rescan would drop, and
 * stops EAS as a rebuild without perf domains would.
 */
#include "ksched.h"
#include "topology.c"	/* kernel/sched/topology.c of the tree under test */

void ft_topology_teardown(void);

void ft_topology_teardown(void)
{
	struct asym_cap_data *entry, *next;

	mutex_lock(&sched_domains_mutex);
	if (ndoms_cur) {
		for (int i = 0; i < ndoms_cur; i++)
			detach_destroy_domains(doms_cur[i]);
		if (doms_cur != &fallback_doms)
			free_sched_domains(doms_cur, ndoms_cur);
	}
	doms_cur = NULL;
	ndoms_cur = 0;
	list_for_each_entry_safe(entry, next, &asym_cap_list, link) {
		list_del_rcu(&entry->link);
		call_rcu(&entry->rcu, free_asym_cap_entry);
	}
#if defined(CONFIG_ENERGY_MODEL) && defined(CONFIG_CPU_FREQ_GOV_SCHEDUTIL)
	/* The perf domains went with their root domains: EAS stops. */
	if (sched_energy_enabled())
		static_branch_disable_cpuslocked(&sched_energy_present);
#endif
#ifdef CONFIG_NUMA
	sched_reset_numa();	/* the NUMA levels and masks of a machine with nodes */
#endif
	mutex_unlock(&sched_domains_mutex);
}

/*
 * sched_init() of a machine with nodes builds the NUMA levels from their
 * distances (sched_init_numa()); the last machine's levels go first, as
 * the hotplug path drops them (sched_update_numa()).
 */
void ft_topology_numa(bool nodes);

void ft_topology_numa(bool nodes)
{
#ifdef CONFIG_NUMA
	sched_reset_numa();
	if (nodes)
		sched_init_numa(NUMA_NO_NODE);
#endif
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The arch facts the tree's own kernel/sched/topology.c (shim/topology_unit.c)
 * builds sched domains from, as arch/x86's smpboot would report them: the
 * SMT sibling, L2-cluster and LLC masks of every CPU. Fakes filled from a
 * topology description at boot (driver/topology.c); a machine booted
 * without one has every CPU alone at every level. Also core.c's two
 * cache-sharing predicates, which read what topology.c derived.
 */
#include <linux/sched/topology.h>
#include "../ksched.h"
#include "seam.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

DEFINE_PER_CPU_READ_MOSTLY(cpumask_var_t, cpu_sibling_map);
static struct cpumask cluster_mask[NR_CPUS], llc_mask[NR_CPUS];

const struct cpumask *cpu_clustergroup_mask(int cpu)
{
	return &cluster_mask[cpu];
}

const struct cpumask *cpu_coregroup_mask(int cpu)
{
	return &llc_mask[cpu];
}

/* CPU @cpu shares its core (SMT), L2 and LLC with @smt, @cls and @llc. */
void ft_arch_set_masks(int cpu, const struct cpumask *smt,
		       const struct cpumask *cls, const struct cpumask *llc)
{
	cpumask_copy(per_cpu(cpu_sibling_map, cpu), smt);
	cpumask_copy(&cluster_mask[cpu], cls);
	cpumask_copy(&llc_mask[cpu], llc);
}

bool cpus_share_cache(int this_cpu, int that_cpu)
{
	if (this_cpu == that_cpu)
		return true;
	return per_cpu(sd_llc_id, this_cpu) == per_cpu(sd_llc_id, that_cpu);
}

bool cpus_share_resources(int this_cpu, int that_cpu)
{
	if (this_cpu == that_cpu)
		return true;
	return per_cpu(sd_share_id, this_cpu) == per_cpu(sd_share_id, that_cpu);
}

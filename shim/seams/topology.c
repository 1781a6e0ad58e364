// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/sched/topology.c. Fakes describing a machine with
 * no sched domains: every per-CPU domain pointer is NULL, so fair.c takes
 * its "no domain" paths (wake-ups stay on the previous CPU, no periodic or
 * idle balancing). Load balancing gets real domains in its own issue.
 */
#include <linux/sched/topology.h>
#include <linux/jump_label.h>
#include "../ksched.h"
#include "seam.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

DEFINE_PER_CPU(struct sched_domain __rcu *, sd_llc);
DEFINE_PER_CPU(int, sd_llc_size);
DEFINE_PER_CPU(int, sd_llc_id);
DEFINE_PER_CPU(int, sd_share_id);
DEFINE_PER_CPU(struct sched_domain_shared __rcu *, sd_llc_shared);
#ifdef FT_HAVE_SD_BALANCE_SHARED
DEFINE_PER_CPU(struct sched_domain_shared __rcu *, sd_balance_shared);
#endif
DEFINE_PER_CPU(struct sched_domain __rcu *, sd_numa);
DEFINE_PER_CPU(struct sched_domain __rcu *, sd_asym_packing);
DEFINE_PER_CPU(struct sched_domain __rcu *, sd_asym_cpucapacity);

DEFINE_STATIC_KEY_FALSE(sched_asym_cpucapacity);
DEFINE_STATIC_KEY_FALSE(sched_cluster_active);
LIST_HEAD(asym_cap_list);

/* With one CPU per LLC, sharing a cache means being the same CPU. */
bool cpus_share_cache(int this_cpu, int that_cpu)
{
	return this_cpu == that_cpu;
}

bool cpus_share_resources(int this_cpu, int that_cpu)
{
	return this_cpu == that_cpu;
}

int group_balance_cpu(struct sched_group *sg)
{
	SEAM_ABORT();
}

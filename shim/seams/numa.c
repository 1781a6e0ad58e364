// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by mm (node states, reclaim distance, nearest node) and by
 * x86's NUMA setup (a CPU's node, a node's CPUs, node distances), for a
 * CONFIG_NUMA build. The machine is one node: every CPU on node 0, at
 * the local distance from itself, as a NUMA kernel sees a machine whose
 * firmware describes no nodes. (NUMA balancing, which would need more
 * nodes and a page-fault feed, is not carried: docs/profiles.md.)
 */
#include <linux/numa.h>
#include <linux/nodemask.h>
#include <linux/topology.h>
#include <linux/bitmap.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include "seam.h"

#ifdef CONFIG_NUMA
DEFINE_PER_CPU(int, numa_node);
unsigned int nr_node_ids = 1;
nodemask_t node_states[NR_NODE_STATES];
cpumask_var_t node_to_cpumask_map[MAX_NUMNODES];
int node_reclaim_distance = RECLAIM_DISTANCE;

int __node_distance(int from, int to)
{
	return from == to ? LOCAL_DISTANCE : REMOTE_DISTANCE;
}

int numa_nearest_node(int node, unsigned int state)
{
	return node_state(node, state) ? node : NUMA_NO_NODE;
}

/* One node holding every possible CPU; called at every boot. */
void ft_numa_boot(void)
{
	int cpu;

	memset(node_states, 0, sizeof(node_states));
	for (int s = 0; s < NR_NODE_STATES; s++)
		node_set(0, node_states[s]);
	cpumask_clear(node_to_cpumask_map[0]);
	for_each_possible_cpu(cpu) {
		per_cpu(numa_node, cpu) = 0;
		cpumask_set_cpu(cpu, node_to_cpumask_map[0]);
	}
}
#else
void ft_numa_boot(void)
{
}
#endif

/* lib/bitmap.c's allocators, on the slab seam. */
unsigned long *bitmap_alloc(unsigned int nbits, gfp_t flags)
{
	return kmalloc_array(BITS_TO_LONGS(nbits), sizeof(unsigned long), flags);
}

void bitmap_free(const unsigned long *bitmap)
{
	kfree(bitmap);
}

/* No reader ever runs beside the writer here: a grace period is immediate. */
void synchronize_rcu(void)
{
	SEAM_NOOP();
}

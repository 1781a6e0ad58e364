// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by mm (node states, reclaim distance, nearest node) and by
 * x86's NUMA setup (a CPU's node, a node's CPUs, node distances), for a
 * CONFIG_NUMA build. A machine booted without "node" lines in its
 * topology is one node: every CPU on node 0, at the local distance from
 * itself, as a NUMA kernel sees a machine whose firmware describes no
 * nodes. One with node lines gets those nodes and their distance table,
 * as the firmware's SRAT and SLIT would give them (driver/topology.c
 * calls ft_numa_set_nodes() before the domains are built). Each node has
 * memory and CPUs. All fakes.
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
static int distance[MAX_NUMNODES][MAX_NUMNODES];

int __node_distance(int from, int to)
{
	if (from < 0 || to < 0 || from >= nr_node_ids || to >= nr_node_ids)
		return from == to ? LOCAL_DISTANCE : REMOTE_DISTANCE;
	return distance[from][to];
}

int numa_nearest_node(int node, unsigned int state)
{
	int best = NUMA_NO_NODE, n;

	if (node_state(node, state))
		return node;
	for_each_node_state(n, state)
		if (best == NUMA_NO_NODE || __node_distance(node, n) < __node_distance(node, best))
			best = n;
	return best;
}

/*
 * @nr nodes (0: one), CPU i on node @node_of[i], @dist[a * @stride + b]
 * from node a to b. Every node is possible, online, has memory and CPUs.
 */
int ft_numa_set_nodes(int nr, const int *node_of, const int *dist, int stride)
{
	int cpu;

	if (nr > MAX_NUMNODES)
		return -EINVAL;
	nr = nr ?: 1;
	memset(node_states, 0, sizeof(node_states));
	for (int n = 0; n < nr; n++) {
		for (int s = 0; s < NR_NODE_STATES; s++)
			node_set(n, node_states[s]);
		cpumask_clear(node_to_cpumask_map[n]);
		for (int m = 0; m < nr; m++)
			distance[n][m] = dist ? dist[n * stride + m] :
				n == m ? LOCAL_DISTANCE : REMOTE_DISTANCE;
	}
	nr_node_ids = nr;
	for_each_possible_cpu(cpu) {
		int n = node_of ? node_of[cpu] : 0;

		per_cpu(numa_node, cpu) = n;
		cpumask_set_cpu(cpu, node_to_cpumask_map[n]);
	}
	return 0;
}

/* One node holding every possible CPU; called at every boot. */
void ft_numa_boot(void)
{
	ft_numa_set_nodes(0, NULL, NULL, 0);
}
#else
void ft_numa_boot(void)
{
}

int ft_numa_set_nodes(int nr, const int *node_of, const int *dist, int stride)
{
	return 0;	/* no NUMA code compiled: the machine is one node */
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

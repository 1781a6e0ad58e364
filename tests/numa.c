// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA balancing (CONFIG_NUMA_BALANCING, the debian profile) on a machine
 * of two nodes (fixtures/topologies/two-node-8.topo: 4 CPUs each, distance
 * 20). Tasks get address spaces whose VMAs sit on one node each and touch
 * them as they run; fair.c's own scanner (task_numa_work()) marks pages,
 * and every marked page a task touches is a hinting fault reported with
 * task_numa_fault(), as the fault path does (shim/driver/numa.c). Oracles
 * from the definition of NUMA balancing: a task whose faults are mostly on
 * one node prefers that node and is moved or swapped there within the
 * scan delay and periods the code sets; tasks sharing memory end in one
 * numa group; a move to the preferred node leaves at most the small
 * imbalance the NUMA levels allow (imb_numa_nr tasks, NUMA_IMBALANCE_MIN
 * = 2 of difference). Skipped where the profile has no NUMA balancing.
 */
#include <errno.h>
#include <stdio.h>
#include "harness.h"

#define TOPO		"two-node-8"
#define NODE0_CPUS	0x0fULL
#define NODE1_CPUS	0xf0ULL
#define STEP_NS		(10 * NSEC_PER_MSEC)

static int node_of_cpu(int cpu)
{
	return cpu >= 4;
}

/* Boots two-node-8 and skips where NUMA balancing is not compiled. */
static void numa_boot(struct kunit *test)
{
	ft_test_boot_topology(test, TOPO);
	if (ft_numa_set_enabled(true) == -EOPNOTSUPP)
		kunit_skip(test, "profile has no NUMA balancing (make check PROFILE=debian has it)");
}

/* A CPU-bound task forked on @cpu, pinned to @cpus (0: anywhere). */
static int fork_on(struct kunit *test, int cpu, ft_u64 cpus)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int id;

	attr.cpu = cpu;
	attr.cpus = cpus;
	id = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, id, 0);
	return id;
}

/*
 * An address space for @id with one VMA of @pages on each node of
 * @pages_on (node 0 first), every page of which the task touches at each
 * return to user space.
 */
static int give_memory(struct kunit *test, int id, const ft_u64 *pages_on)
{
	int mm = ft_numa_mm_create();

	KUNIT_ASSERT_GT(test, mm, 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_set_mm(id, mm), 0);
	for (int node = 0, v; node < 2; node++) {
		if (!pages_on[node])
			continue;
		v = ft_numa_vma_create(mm, pages_on[node], node);
		KUNIT_ASSERT_GE(test, v, 0);
		KUNIT_ASSERT_EQ(test, ft_numa_task_access(id, v, pages_on[node]), 0);
	}
	return mm;
}

static struct ft_numa_info numa_info(struct kunit *test, int id)
{
	struct ft_numa_info info;

	KUNIT_ASSERT_EQ(test, ft_numa_task_info(id, &info), 0);
	return info;
}

static int task_node(struct kunit *test, int id)
{
	return node_of_cpu(ft_test_info(test, id).cpu);
}

/*
 * When a task is due to be on its preferred node: the scanner starts
 * once it has run the scan delay, its first pass covers these small
 * address spaces whole (fewer pages than one scan window), the next
 * return to user space faults them, and the placement then runs at the
 * first fault after the pass ends; a move is done by the stopper at once,
 * a retry comes a scan period later at most (numa_migrate_retry). So:
 * the delay and two of the longest scan periods, for CPU-bound tasks.
 */
static ft_u64 settle_bound(struct kunit *test, int id)
{
	struct ft_numa_info info = numa_info(test, id);

	return (info.scan_delay_ms + 2ULL * info.scan_period_max_ms) * NSEC_PER_MSEC;
}

/* Runs until every task of @ids is on node @want[i], or @limit; the time taken. */
static ft_u64 run_until_on(struct kunit *test, const int *ids, const int *want, int n,
			   ft_u64 limit)
{
	ft_u64 start = ft_now();

	while (ft_now() - start < limit) {
		bool all = true;

		for (int i = 0; i < n; i++)
			all &= task_node(test, ids[i]) == want[i];
		if (all)
			return ft_now() - start;
		ft_run_for(STEP_NS);
	}
	return limit;
}

/*
 * One task pinned to node 0 at fork and then allowed everywhere, its
 * memory 80% on node 1 (1600 pages) and 20% on node 0 (400), all of it
 * touched as it runs; the rest of the machine idle. Expect no preferred
 * node and no fault before the scan delay has passed, then node 1 as its
 * preferred node (the node of most of its faults, counted per node in
 * that proportion), and the task running on node 1 within the delay and
 * two scan periods.
 */
static void task_prefers_and_moves_to_node_of_most_faults(struct kunit *test)
{
	const ft_u64 pages[2] = { 400, 1600 };
	struct ft_numa_info info;
	struct ft_numa_stats st;
	int id, want = 1;
	ft_u64 took, bound;

	numa_boot(test);
	id = fork_on(test, 0, NODE0_CPUS);
	give_memory(test, id, pages);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 0), -EINVAL);	/* an empty mask */
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, NODE0_CPUS | NODE1_CPUS), 0);
	bound = settle_bound(test, id);

	ft_run_for(numa_info(test, id).scan_delay_ms * NSEC_PER_MSEC / 2);
	info = numa_info(test, id);
	ft_numa_stats(&st);
	KUNIT_EXPECT_EQ(test, info.preferred_nid, -1);
	KUNIT_EXPECT_EQ(test, st.faults, 0UL);
	KUNIT_EXPECT_EQ(test, task_node(test, id), 0);

	took = run_until_on(test, &id, &want, 1, bound);
	info = numa_info(test, id);
	ft_numa_stats(&st);
	kunit_info(test, "on node 1 after %llu ms; faults node0 %lu node1 %lu; %lu pages marked, "
		   "%lu faults, %lu moves, %lu swaps", took / NSEC_PER_MSEC, info.faults[0],
		   info.faults[1], st.prot_pages, st.faults, st.moves, st.swaps);
	KUNIT_EXPECT_EQ(test, info.preferred_nid, 1);
	KUNIT_EXPECT_GT(test, info.faults[1], 3 * info.faults[0]);
	KUNIT_EXPECT_LT_MSG(test, took, bound, "not on node 1 after %llu ms", bound / NSEC_PER_MSEC);
	/* and it stays there: the balancer does not undo the placement */
	ft_run_for(bound);
	KUNIT_EXPECT_EQ(test, task_node(test, id), 1);
}

/*
 * Every CPU busy: on each node three tasks pinned to their CPU and one
 * task free to move, A on node 0 with its memory on node 1 and B on node
 * 1 with its memory on node 0. No CPU is idle, so a move alone would
 * unbalance the nodes. Expect A and B to trade places (a swap) within
 * the delay and two scan periods, each node keeping four tasks.
 */
static void crossed_tasks_swap_nodes(struct kunit *test)
{
	const ft_u64 on1[2] = { 0, 2000 }, on0[2] = { 2000, 0 };
	struct ft_numa_stats st;
	int ids[2], want[2] = { 1, 0 };
	ft_u64 took, bound;

	numa_boot(test);
	ids[0] = fork_on(test, 0, NODE0_CPUS);
	ids[1] = fork_on(test, 4, NODE1_CPUS);
	for (int cpu = 1; cpu < 8; cpu++)
		if (cpu != 4)
			fork_on(test, cpu, 1ULL << cpu);
	give_memory(test, ids[0], on1);
	give_memory(test, ids[1], on0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[0], NODE0_CPUS | NODE1_CPUS), 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[1], NODE0_CPUS | NODE1_CPUS), 0);
	bound = settle_bound(test, ids[0]);

	took = run_until_on(test, ids, want, 2, bound);
	ft_numa_stats(&st);
	kunit_info(test, "swapped after %llu ms: %lu swaps, %lu moves", took / NSEC_PER_MSEC,
		   st.swaps, st.moves);
	KUNIT_EXPECT_LT_MSG(test, took, bound, "A on node %d, B on node %d after %llu ms",
			    task_node(test, ids[0]), task_node(test, ids[1]), bound / NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, st.swaps, 1UL);
	KUNIT_EXPECT_EQ(test, numa_info(test, ids[0]).preferred_nid, 1);
	KUNIT_EXPECT_EQ(test, numa_info(test, ids[1]).preferred_nid, 0);
}

/*
 * Two threads of one process (one mm), one per node, touching the same
 * VMA of 2000 pages on node 1 as they run, so each sees the pages last
 * faulted by the other: shared faults. Expect both in one numa group of
 * two tasks within the delay and two scan periods, and the group's
 * faults to be on node 1.
 */
static void threads_sharing_memory_join_one_group(struct kunit *test)
{
	int a, b, mm, v;
	struct ft_numa_info ia, ib;
	ft_u64 bound, start;

	numa_boot(test);
	a = fork_on(test, 0, 1ULL << 0);
	b = fork_on(test, 4, 1ULL << 4);
	mm = ft_numa_mm_create();
	KUNIT_ASSERT_GT(test, mm, 0);
	v = ft_numa_vma_create(mm, 2000, 1);
	KUNIT_ASSERT_GE(test, v, 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_set_mm(a, mm), 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_set_mm(b, mm), 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_access(a, v, 2000), 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_access(b, v, 2000), 0);
	bound = settle_bound(test, a);

	start = ft_now();
	do {
		ft_run_for(STEP_NS);
		ia = numa_info(test, a);
		ib = numa_info(test, b);
	} while ((!ia.group || ia.group != ib.group || ia.group_tasks != 2) &&
		 ft_now() - start < bound);
	kunit_info(test, "after %llu ms: groups %d (%d tasks) and %d (%d tasks); group faults "
		   "node0 %lu node1 %lu", (ft_now() - start) / NSEC_PER_MSEC, ia.group,
		   ia.group_tasks, ib.group, ib.group_tasks, ia.group_faults[0], ia.group_faults[1]);
	KUNIT_EXPECT_NE(test, ia.group, 0);
	KUNIT_EXPECT_EQ(test, ia.group, ib.group);
	KUNIT_EXPECT_EQ(test, ia.group_tasks, 2);
	KUNIT_EXPECT_GT(test, ia.group_faults[1], ia.group_faults[0]);
}

/* imb_numa_nr of the NUMA level of @cpu (0 if it has none). */
static unsigned int numa_allowance(struct kunit *test, int cpu)
{
	struct ft_domain d[8];
	int n = ft_cpu_domains(cpu, d, 8);

	for (int i = 0; i < n; i++)
		if (d[i].span == (NODE0_CPUS | NODE1_CPUS))
			return d[i].imb_numa_nr;
	return 0;
}

/*
 * @n tasks started on node 0 (pinned there at fork, then free), all with
 * their memory on node 1, the rest idle; run the delay and four scan
 * periods. Returns how many ended on node 1.
 */
static int follow_memory(struct kunit *test, int n)
{
	const ft_u64 on1[2] = { 0, 2000 };
	int ids[8], on_node1 = 0;
	ft_u64 bound;

	for (int i = 0; i < n; i++)
		ids[i] = fork_on(test, i, 1ULL << i);
	for (int i = 0; i < n; i++) {
		give_memory(test, ids[i], on1);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], NODE0_CPUS | NODE1_CPUS), 0);
	}
	bound = 2 * settle_bound(test, ids[0]);
	ft_run_for(bound);
	for (int i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, numa_info(test, ids[i]).preferred_nid, 1);
		on_node1 += task_node(test, ids[i]) == 1;
	}
	return on_node1;
}

/*
 * The rule for a move to the preferred node while that node has spare
 * capacity: allowed when, after it, the destination node runs no more
 * tasks than the source, or it runs at most the NUMA level's imb_numa_nr
 * tasks and no more than NUMA_IMBALANCE_MIN (2) more than the source.
 * How many of @n tasks that all want node 1, starting on node 0, get
 * there one by one.
 */
static int allowed_on_node1(int n, unsigned int imb)
{
	int k = 0;

	while (k < n) {
		int dst = k + 1, src = n - k - 1;

		if (dst > src && (dst > (int)imb || dst - src > 2))
			break;
		k++;
	}
	return k;
}

/*
 * Two, then (a fresh machine) four tasks whose memory is all on node 1
 * start on node 0 of an otherwise idle machine. Expect, after the delay
 * and four scan periods, every task to prefer node 1 and exactly as many
 * on node 1 as the imbalance rule above lets through (two-node-8:
 * imb_numa_nr 1, as topology.c derives it for one LLC per node: 1 of 2,
 * 2 of 4). The rest stay on node 0 though they prefer node 1: the nodes
 * stay balanced within the small imbalance NUMA levels allow.
 */
static void moves_to_preferred_node_respect_numa_imbalance(struct kunit *test)
{
	static const int tasks[] = { 2, 4 };

	for (int i = 0; i < 2; i++) {
		unsigned int imb;
		int moved;

		numa_boot(test);
		imb = numa_allowance(test, 0);
		KUNIT_ASSERT_GE(test, imb, 1U);
		moved = follow_memory(test, tasks[i]);
		kunit_info(test, "%d of %d on node 1 (imb_numa_nr %u: the rule lets %d)", moved,
			   tasks[i], imb, allowed_on_node1(tasks[i], imb));
		KUNIT_EXPECT_EQ(test, moved, allowed_on_node1(tasks[i], imb));
	}
}

/*
 * One task pinned to CPU 0 (node 0) for good, its memory (2000 pages) on
 * node 1 in a VMA whose pages may migrate on fault, as under the default
 * policy. The task cannot go to its memory, so its memory must come to
 * it. Expect no page to move before the scan delay, and the pages on
 * node 0 within the delay and two scan periods, the task still on node 0
 * and preferring it.
 */
static void memory_follows_a_task_that_cannot_move(struct kunit *test)
{
	int id, mm, v;
	ft_u64 start, bound;

	numa_boot(test);
	id = fork_on(test, 0, 1ULL << 0);
	mm = ft_numa_mm_create();
	KUNIT_ASSERT_GT(test, mm, 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_set_mm(id, mm), 0);
	v = ft_numa_vma_create(mm, 2000, 1);
	KUNIT_ASSERT_GE(test, v, 0);
	KUNIT_ASSERT_EQ(test, ft_numa_vma_set_migrate(mm, v, true), 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_access(id, v, 2000), 0);
	bound = settle_bound(test, id);

	ft_run_for(numa_info(test, id).scan_delay_ms * NSEC_PER_MSEC / 2);
	KUNIT_EXPECT_EQ(test, ft_numa_vma_node(mm, v), 1);
	start = ft_now();
	while (ft_numa_vma_node(mm, v) != 0 && ft_now() - start < bound)
		ft_run_for(STEP_NS);
	kunit_info(test, "pages on node %d after %llu ms", ft_numa_vma_node(mm, v),
		   (ft_now() - start) / NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, ft_numa_vma_node(mm, v), 0);
	ft_run_for(bound);
	KUNIT_EXPECT_EQ(test, task_node(test, id), 0);
	KUNIT_EXPECT_EQ(test, numa_info(test, id).preferred_nid, 0);
}

/*
 * A task pinned to node 0 with its memory on node 1, while a writer holds
 * its address space's mmap lock for the delay and two scan periods; then
 * the lock goes. The scanner only ever tries the lock. Expect no
 * protection change and no fault while it is held, and both, with node 1
 * preferred, within the delay and two scan periods after it goes.
 */
static void scanner_leaves_a_locked_address_space_alone(struct kunit *test)
{
	const ft_u64 on1[2] = { 0, 2000 };
	struct ft_numa_stats st;
	int id, mm;
	ft_u64 bound;

	numa_boot(test);
	id = fork_on(test, 0, 1ULL << 0);
	mm = give_memory(test, id, on1);
	bound = settle_bound(test, id);
	KUNIT_ASSERT_EQ(test, ft_numa_mm_lock(mm, true), 0);
	ft_run_for(bound);
	ft_numa_stats(&st);
	KUNIT_EXPECT_EQ(test, st.prot_calls, 0UL);
	KUNIT_EXPECT_EQ(test, st.faults, 0UL);
	KUNIT_ASSERT_EQ(test, ft_numa_mm_lock(mm, false), 0);
	ft_run_for(bound);
	ft_numa_stats(&st);
	kunit_info(test, "after the lock went: %lu protection changes, %lu faults", st.prot_calls,
		   st.faults);
	KUNIT_EXPECT_GT(test, st.prot_calls, 0UL);
	KUNIT_EXPECT_GT(test, st.faults, 0UL);
	KUNIT_EXPECT_EQ(test, numa_info(test, id).preferred_nid, 1);
}

/*
 * Where a numa group is placed when its memory is spread: not simply on
 * the node with the most of it, but by the interconnect. On a backplane
 * the side (the pair of nodes) holding the most of the group's memory
 * wins, then the node within it; on a glueless mesh a node's own faults
 * count with half of those of its neighbours (distance 20 of 30).
 * Two threads of one process start on node 0, free to run anywhere, and
 * touch three VMAs:
 *  - four-node-backplane-8: 40% on node 0, 30% each on nodes 2 and 3;
 *    the pair {2, 3} holds 60%, so the group prefers node 2 or 3;
 *  - four-node-mesh-8 (ring 0-1-3-2-0): 34% on node 0, 33% each on nodes
 *    1 and 3; node 1 scores 33 + (34 + 33) / 2, node 0 only 34 + 33 / 2,
 *    node 3 33 + 33 / 2, so the group prefers node 1.
 * Expect, within the delay and four scan periods, one group of both and
 * a thread preferring and running on the node(s) named. (Only one: the
 * imbalance rule keeps the other where it is, and a group task that
 * cannot move takes the node it stays on as its preferred one.)
 */
static void group_placement_follows_the_interconnect(struct kunit *test)
{
	static const struct {
		const char *topo;
		int node[3];
		ft_u64 pages[3];
		unsigned int want;	/* bit n: node n is right */
	} c[] = {
		{ "four-node-backplane-8", { 0, 2, 3 }, { 40, 30, 30 }, 1U << 2 | 1U << 3 },
		{ "four-node-mesh-8", { 0, 1, 3 }, { 34, 33, 33 }, 1U << 1 },
	};

	for (int t = 0; t < 2; t++) {
		int ids[2], mm, right = 0;
		struct ft_numa_info info[2];

		ft_test_boot_topology(test, c[t].topo);
		if (ft_numa_set_enabled(true) == -EOPNOTSUPP)
			kunit_skip(test, "profile has no NUMA balancing (make check PROFILE=debian has it)");
		mm = ft_numa_mm_create();
		KUNIT_ASSERT_GT(test, mm, 0);
		for (int i = 0; i < 2; i++) {
			ids[i] = fork_on(test, i, 1ULL << i);
			KUNIT_ASSERT_EQ(test, ft_numa_task_set_mm(ids[i], mm), 0);
		}
		for (int v = 0; v < 3; v++) {
			KUNIT_ASSERT_EQ(test, ft_numa_vma_create(mm, 20 * c[t].pages[v], c[t].node[v]), v);
			/* a few pages a tick each: the threads' faults interleave */
			for (int i = 0; i < 2; i++)
				KUNIT_ASSERT_EQ(test, ft_numa_task_access(ids[i], v, c[t].pages[v]), 0);
		}
		for (int i = 0; i < 2; i++)
			KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 0xff), 0);
		ft_run_for(2 * settle_bound(test, ids[0]));
		for (int i = 0; i < 2; i++) {
			const struct ft_topology *tp = ft_topology_find(c[t].topo);
			int node = tp->node[ft_test_info(test, ids[i]).cpu];

			info[i] = numa_info(test, ids[i]);
			right += info[i].preferred_nid == node && (c[t].want >> node & 1);
		}
		kunit_info(test, "%s: groups %d/%d (%d tasks), preferred %d/%d; group faults "
			   "%lu/%lu/%lu/%lu", c[t].topo, info[0].group, info[1].group,
			   info[0].group_tasks, info[0].preferred_nid, info[1].preferred_nid,
			   info[0].group_faults[0], info[0].group_faults[1],
			   info[0].group_faults[2], info[0].group_faults[3]);
		KUNIT_EXPECT_NE(test, info[0].group, 0);
		KUNIT_EXPECT_EQ(test, info[0].group, info[1].group);
		KUNIT_EXPECT_GE_MSG(test, right, 1, "%s: no thread prefers and runs on a right node",
				    c[t].topo);
	}
}

/*
 * A task pinned to node 0 with one VMA three scan windows long on node 1
 * (a window: sysctl_numa_balancing_scan_size MB, 256 MB), touching 4096
 * of its pages a tick. The scanner marks about a window per pass, so as
 * not to fault a large address space all at once, and starts a new
 * sequence only when it has gone through the whole space. Expect no pass
 * to mark more than a window and a huge page (a pass ends on a huge-page
 * boundary), at least three passes before the first sequence ends, and
 * at least as many pages marked by then as the VMA has.
 */
static void scanner_marks_a_window_per_pass(struct kunit *test)
{
	struct ft_numa_info info;
	struct ft_numa_stats st;
	int id, mm, v;
	ft_u64 window, start, bound;

	numa_boot(test);
	id = fork_on(test, 0, 1ULL << 0);
	mm = ft_numa_mm_create();
	KUNIT_ASSERT_GT(test, mm, 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_set_mm(id, mm), 0);
	info = numa_info(test, id);
	window = (ft_u64)info.scan_size_mb << 8;	/* 4 KiB pages */
	v = ft_numa_vma_create(mm, 3 * window, 1);
	KUNIT_ASSERT_GE(test, v, 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_access(id, v, 4096), 0);
	bound = (info.scan_delay_ms + 4ULL * info.scan_period_max_ms) * NSEC_PER_MSEC;

	start = ft_now();
	while (numa_info(test, id).scan_seq < 1 && ft_now() - start < bound)
		ft_run_for(STEP_NS);
	ft_numa_stats(&st);
	kunit_info(test, "first sequence done after %llu ms: %lu passes, at most %lu pages "
		   "marked in one (window %llu), %ld of %llu marked", (ft_now() - start) / NSEC_PER_MSEC,
		   st.scans, st.max_scan_pages, window, ft_numa_vma_marked(mm, v), 3 * window);
	KUNIT_EXPECT_GE(test, numa_info(test, id).scan_seq, 1);
	KUNIT_EXPECT_LE(test, st.max_scan_pages, window + 512);
	KUNIT_EXPECT_GE(test, st.scans, 3UL);
	KUNIT_EXPECT_GE(test, ft_numa_vma_marked(mm, v), (long)(3 * window));
}

/*
 * A task pinned to node 0 whose address space holds, on node 1, an
 * anonymous VMA, an I/O mapping, a read-only file mapping (a shared
 * library) and an inaccessible one, 2000 pages each. Migrating an I/O
 * mapping's pages is impossible, a library's pages are shared by all,
 * and an inaccessible page would never fault: the scanner leaves them.
 * Expect, after the delay and two scan periods, the anonymous VMA marked
 * and no page of the other three.
 */
static void scanner_skips_what_cannot_be_balanced(struct kunit *test)
{
	int id, mm;

	numa_boot(test);
	id = fork_on(test, 0, 1ULL << 0);
	mm = ft_numa_mm_create();
	KUNIT_ASSERT_GT(test, mm, 0);
	KUNIT_ASSERT_EQ(test, ft_numa_task_set_mm(id, mm), 0);
	for (int v = 0; v < 4; v++) {
		KUNIT_ASSERT_EQ(test, ft_numa_vma_create(mm, 2000, 1), v);
		KUNIT_ASSERT_EQ(test, ft_numa_vma_set_kind(mm, v, v), 0);
		KUNIT_ASSERT_EQ(test, ft_numa_task_access(id, v, 2000), 0);
	}
	ft_run_for(settle_bound(test, id));
	kunit_info(test, "marked: anon %ld, io %ld, file ro %ld, no access %ld",
		   ft_numa_vma_marked(mm, FT_NUMA_VMA_ANON), ft_numa_vma_marked(mm, FT_NUMA_VMA_IO),
		   ft_numa_vma_marked(mm, FT_NUMA_VMA_FILE_RO),
		   ft_numa_vma_marked(mm, FT_NUMA_VMA_NOACCESS));
	KUNIT_EXPECT_GT(test, ft_numa_vma_marked(mm, FT_NUMA_VMA_ANON), 0L);
	KUNIT_EXPECT_EQ(test, ft_numa_vma_marked(mm, FT_NUMA_VMA_IO), 0L);
	KUNIT_EXPECT_EQ(test, ft_numa_vma_marked(mm, FT_NUMA_VMA_FILE_RO), 0L);
	KUNIT_EXPECT_EQ(test, ft_numa_vma_marked(mm, FT_NUMA_VMA_NOACCESS), 0L);
}

static struct kunit_case numa_cases[] = {
	KUNIT_CASE(task_prefers_and_moves_to_node_of_most_faults),
	KUNIT_CASE(crossed_tasks_swap_nodes),
	KUNIT_CASE(threads_sharing_memory_join_one_group),
	KUNIT_CASE(moves_to_preferred_node_respect_numa_imbalance),
	KUNIT_CASE(memory_follows_a_task_that_cannot_move),
	KUNIT_CASE(scanner_leaves_a_locked_address_space_alone),
	KUNIT_CASE(group_placement_follows_the_interconnect),
	KUNIT_CASE(scanner_marks_a_window_per_pass),
	KUNIT_CASE(scanner_skips_what_cannot_be_balanced),
	{}
};

static struct kunit_suite numa_suite = {
	.name = "fair_numa",
	.test_cases = numa_cases,
};

kunit_test_suite(numa_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * Conservation while tasks move between CPUs: whatever the balancer,
 * wake-up placement or an affinity change does, a task is either asleep
 * or queued on exactly one CPU (never both, never two, never lost), the
 * per-CPU counts add up to the tasks queued, and a CPU's running task is
 * a task of that CPU. Checked every millisecond of a mixed workload on
 * the topologies with the most levels; the invariant checker adds its
 * per-rq rules at every rq unlock on top. And PELT: a migrated task's
 * load and utilisation leave one CPU and arrive on the other, exactly
 * (detach/attach for a queued task, the removed sums for a sleeping one).
 */
#include "harness.h"

static void check_conservation(struct kunit *test, const int *ids, int n, int nr_cpus,
			       ft_u64 now)
{
	static struct ft_entity ents[FT_MAX_ENTITIES];
	int seen[64] = { 0 }, queued = 0, counted = 0;

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct ft_cfs_info cfs;
		int m = ft_test_entities(test, cpu, FT_ROOT_GROUP, ents);
		int curr = ft_curr(cpu);

		for (int e = 0; e < m; e++)
			if (ents[e].task > 0 && ents[e].task < 64)
				seen[ents[e].task]++;
		KUNIT_ASSERT_EQ(test, ft_cfs_info(cpu, FT_ROOT_GROUP, &cfs), 0);
		counted += cfs.h_nr_queued;
		if (curr)
			KUNIT_ASSERT_EQ_MSG(test, ft_test_info(test, curr).cpu, cpu,
					    "cpu %d runs task %d of another cpu at %llu ns", cpu, curr, now);
	}
	for (int i = 0; i < n; i++) {
		struct ft_task_info info = ft_test_info(test, ids[i]);

		KUNIT_ASSERT_EQ_MSG(test, seen[ids[i]], info.on_rq ? 1 : 0,
				    "task %d (on_rq %d, cpu %d) queued %d times at %llu ns",
				    ids[i], info.on_rq, info.cpu, seen[ids[i]], now);
		queued += info.on_rq;
	}
	KUNIT_ASSERT_EQ_MSG(test, counted, queued, "h_nr_queued sum at %llu ns", now);
}

static void mixed_workload(struct kunit *test, const char *topo)
{
	unsigned long long rng = kunit_case_seed(test);
	const struct ft_topology *t = ft_topology_find(topo);
	int ids[40], n = 0;

	ft_test_boot_topology(test, topo);
	for (; n < 2 * t->nr_cpus + 4 && n < 40; n++) {
		struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;

		attr.nice = (int)(ft_rand(&rng) % 11) - 5;
		if (n % 2) {
			attr.run_ns = (1 + ft_rand(&rng) % 5) * NSEC_PER_MSEC;
			attr.sleep_ns = (1 + ft_rand(&rng) % 10) * NSEC_PER_MSEC;
		}
		attr.cpu = ft_rand(&rng) % t->nr_cpus;
		ids[n] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[n], 0);
	}
	for (int ms = 0; ms < 300; ms++) {
		if (ms % 10 == 5)
			KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[ft_rand(&rng) % n],
								   ft_rand(&rng) | 1), 0);
		ft_run_for(NSEC_PER_MSEC);
		check_conservation(test, ids, n, t->nr_cpus, ft_now());
	}
	kunit_info(test, "%s: %d tasks, %llu migrations, %llu wake-ups", topo, n,
		   ft_event_count(FT_EV_MIGRATE), ft_event_count(FT_EV_WAKE));
	KUNIT_EXPECT_GT(test, ft_event_count(FT_EV_MIGRATE), 0);
	ft_shutdown();
}

/*
 * 4 + 2 x 8 tasks, half CPU-bound and half 1-5 ms run / 1-10 ms sleep,
 * nice -5..5, forked on random CPUs of 4 cores x 2 SMT threads, a random
 * mask change every 10 ms, 300 ms. Expect the rules above at every
 * millisecond, and tasks to have migrated.
 */
static void tasks_conserved_on_smt_mc_8(struct kunit *test)
{
	mixed_workload(test, "smt-mc-8");
}

/* The same on two packages of 8 CPUs (36 tasks, capped at 40). */
static void tasks_conserved_on_two_packages(struct kunit *test)
{
	mixed_workload(test, "two-pkg-16");
}

/* The same on the 4+3+1 big.LITTLE machine (misfit migrations). */
static void tasks_conserved_on_big_little(struct kunit *test)
{
	mixed_workload(test, "biglittle-8");
}

static struct ft_cfs_info cfs(struct kunit *test, int cpu)
{
	struct ft_cfs_info info;

	KUNIT_EXPECT_EQ(test, ft_cfs_info(cpu, FT_ROOT_GROUP, &info), 0);
	return info;
}

/*
 * Two CPUs, a CPU-bound task alone on CPU 0 for 100 ms (its load and
 * utilisation well built up), then allowed only CPU 1: the stopper moves
 * it, running, in the same instant (no time passes, nothing decays).
 * Expect dequeue's detach to take exactly its load_avg and util_avg off
 * CPU 0 and enqueue's attach to put exactly the same on CPU 1: each
 * CPU's sums change by the task's, and their totals are unchanged.
 */
static void running_task_moves_its_pelt_exactly(struct kunit *test)
{
	struct ft_cfs_info a0, a1, b0, b1;
	struct ft_task_info t0, t1;
	int id;

	ft_test_boot_topology(test, "mc-2");
	id = ft_test_fork(test, 0, 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 1), 0);
	ft_run_for(100 * NSEC_PER_MSEC);
	t0 = ft_test_info(test, id);
	a0 = cfs(test, 0);
	a1 = cfs(test, 1);
	KUNIT_ASSERT_GT(test, t0.load_avg, 500);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 2), 0);
	t1 = ft_test_info(test, id);
	b0 = cfs(test, 0);
	b1 = cfs(test, 1);
	KUNIT_ASSERT_EQ(test, t1.cpu, 1);
	kunit_info(test, "task load %lu util %lu; cpu0 load %lu -> %lu, cpu1 load %lu -> %lu",
		   t0.load_avg, t0.util_avg, a0.load_avg, b0.load_avg, a1.load_avg, b1.load_avg);
	KUNIT_EXPECT_EQ(test, t1.load_avg, t0.load_avg);
	KUNIT_EXPECT_EQ(test, t1.util_avg, t0.util_avg);
	KUNIT_EXPECT_EQ(test, b0.load_avg, a0.load_avg - t0.load_avg);
	KUNIT_EXPECT_EQ(test, b1.load_avg, a1.load_avg + t0.load_avg);
	KUNIT_EXPECT_EQ(test, b0.util_avg, a0.util_avg - t0.util_avg);
	KUNIT_EXPECT_EQ(test, b1.util_avg, a1.util_avg + t0.util_avg);
}

/*
 * Two CPUs, a task that runs 100 ms on CPU 0 and sleeps, then is allowed
 * only CPU 1 and woken there. Its load stayed on CPU 0 as blocked load;
 * a sleeping task leaving cannot take it off at once (CPU 0's lock is not
 * held), so it goes to CPU 0's removed sums. Expect right after the
 * wake-up: CPU 0's removed load and utilisation equal the task's, CPU 1
 * carries exactly the task's; and once CPU 0 has updated (a few ticks
 * later), nothing is left in removed.
 */
static void sleeping_task_leaves_its_load_in_removed(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct ft_cfs_info c0, c1;
	struct ft_task_info t;
	int id;

	ft_test_boot_topology(test, "mc-2");
	attr.run_ns = 100 * NSEC_PER_MSEC;
	attr.sleep_ns = 100 * NSEC_PER_SEC;
	id = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, id, 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 1), 0);
	ft_run_for(110 * NSEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, ft_test_info(test, id).sleeping);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 2), 0);
	KUNIT_ASSERT_EQ(test, ft_task_wake(id), 0);
	t = ft_test_info(test, id);
	c0 = cfs(test, 0);
	c1 = cfs(test, 1);
	KUNIT_ASSERT_EQ(test, t.cpu, 1);
	KUNIT_ASSERT_GT(test, t.load_avg, 0);
	KUNIT_EXPECT_EQ(test, c0.removed_load_avg, t.load_avg);
	KUNIT_EXPECT_EQ(test, c0.removed_util_avg, t.util_avg);
	KUNIT_EXPECT_EQ(test, c1.load_avg, t.load_avg);
	KUNIT_EXPECT_EQ(test, c1.util_avg, t.util_avg);
	ft_run_for(5 * ft_tick_nsec());
	c0 = cfs(test, 0);
	KUNIT_EXPECT_EQ(test, c0.removed_load_avg, 0);
	KUNIT_EXPECT_EQ(test, c0.removed_util_avg, 0);
}

static struct kunit_case conservation_cases[] = {
	KUNIT_CASE(running_task_moves_its_pelt_exactly),
	KUNIT_CASE(sleeping_task_leaves_its_load_in_removed),
	KUNIT_CASE(tasks_conserved_on_smt_mc_8),
	KUNIT_CASE(tasks_conserved_on_two_packages),
	KUNIT_CASE(tasks_conserved_on_big_little),
	{}
};

static struct kunit_suite conservation_suite = {
	.name = "fair_conservation",
	.test_cases = conservation_cases,
};

kunit_test_suites(&conservation_suite);

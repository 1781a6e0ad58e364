// SPDX-License-Identifier: GPL-2.0
/*
 * Conservation while tasks move between CPUs: whatever the balancer,
 * wake-up placement or an affinity change does, a task is either asleep
 * or queued on exactly one CPU (never both, never two, never lost), the
 * per-CPU counts add up to the tasks queued, and a CPU's running task is
 * a task of that CPU. Checked every millisecond of a mixed workload on
 * the topologies with the most levels; the invariant checker adds its
 * per-rq rules at every rq unlock on top.
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

static struct kunit_case conservation_cases[] = {
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

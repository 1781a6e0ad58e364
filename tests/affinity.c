// SPDX-License-Identifier: GPL-2.0
/*
 * CPU affinity (cpus_ptr, nr_cpus_allowed) under every path that picks a
 * CPU: fork and wake-up placement with the core's fallback, periodic,
 * new-idle and active balancing, and sched_setaffinity() moving a task
 * off a CPU it may no longer use (through the stopper when it runs
 * there). The driver checks every enqueue and every set_task_cpu()
 * against the mask, always, and fair.c's own answer to select_task_rq()
 * before core.c's fallback could replace it (only the task's previous CPU,
 * left behind by an affinity change, may come back outside the mask), so
 * any placement outside it fails the case that caused it; the cases here
 * make every path happen.
 */
#include "harness.h"

/*
 * Four CPUs, a CPU-bound task running on its CPU, then its mask set to
 * exclude that CPU. Expect the operation to return with the task moved
 * to an allowed CPU by one stopper work, running or queued there, and
 * the mask reported back as set.
 */
static void running_task_leaves_disallowed_cpu(struct kunit *test)
{
	int id, cpu;
	ft_u64 works;

	ft_test_boot_topology(test, "mc-4");
	id = ft_test_fork(test, 0, 0);
	ft_run_for(5 * NSEC_PER_MSEC);
	cpu = ft_test_info(test, id).cpu;
	KUNIT_ASSERT_EQ(test, ft_curr(cpu), id);
	works = ft_stop_works();
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 0xfULL & ~(1ULL << cpu)), 0);
	KUNIT_EXPECT_NE(test, ft_test_info(test, id).cpu, cpu);
	KUNIT_EXPECT_TRUE(test, ft_test_info(test, id).on_rq);
	KUNIT_EXPECT_EQ(test, ft_stop_works(), works + 1);
	KUNIT_EXPECT_EQ(test, ft_task_affinity(id), 0xfULL & ~(1ULL << cpu));
}

/*
 * Two packages, 24 tasks (CPU-bound and run/sleep mixes) with seeded
 * random masks, one mask changed every 2 ms for 400 ms of balancing.
 * Expect no placement outside a mask (the driver's check), every task
 * on an allowed CPU at every millisecond, and the paths exercised:
 * migrations and stopper works happened.
 */
static void random_masks_are_never_violated(struct kunit *test)
{
	unsigned long long rng = kunit_case_seed(test);
	int ids[24], n = 24;

	ft_test_boot_topology(test, "two-pkg-16");
	for (int i = 0; i < n; i++) {
		struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;

		if (i % 3 == 2) {
			attr.run_ns = (1 + ft_rand(&rng) % 4) * NSEC_PER_MSEC;
			attr.sleep_ns = (1 + ft_rand(&rng) % 8) * NSEC_PER_MSEC;
		}
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], (ft_rand(&rng) & 0xffff) |
							   1ULL << (i % 16)), 0);
	}
	for (int ms = 0; ms < 400; ms++) {
		if (ms % 2 == 0) {
			int i = ft_rand(&rng) % n;
			ft_u64 mask = ft_rand(&rng) & 0xffff;

			KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], mask ?: 1ULL << (i % 16)), 0);
		}
		ft_run_for(NSEC_PER_MSEC);
		for (int i = 0; i < n; i++) {
			struct ft_task_info info = ft_test_info(test, ids[i]);

			if (info.on_rq)
				KUNIT_ASSERT_TRUE_MSG(test, ft_task_affinity(ids[i]) >> info.cpu & 1,
						      "task %d on cpu %d, mask %#llx at %d ms",
						      ids[i], info.cpu, ft_task_affinity(ids[i]), ms);
		}
	}
	kunit_info(test, "%llu migrations, %llu stopper works",
		   ft_event_count(FT_EV_MIGRATE), ft_stop_works());
	KUNIT_EXPECT_GT(test, ft_event_count(FT_EV_MIGRATE), 0);
	KUNIT_EXPECT_GT(test, ft_stop_works(), 0);
}

/*
 * Two CPUs, three CPU-bound tasks pinned to CPU 0, CPU 1 idle for 100 ms
 * of periodic balancing. Expect none to move (can_migrate_task() refuses
 * every one) and CPU 1 to stay idle.
 */
static void pinned_tasks_stay_put(struct kunit *test)
{
	int ids[3];

	ft_test_boot_topology(test, "mc-2");
	for (int i = 0; i < 3; i++) {
		ids[i] = ft_test_fork(test, 0, 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 1), 0);
	}
	ft_run_for(100 * NSEC_PER_MSEC);
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, ft_test_info(test, ids[i]).cpu, 0);
	KUNIT_EXPECT_EQ(test, ft_cpu_busy_ns(1), 0);
	KUNIT_EXPECT_GT(test, ft_balance_runs(1), 0);
}

/*
 * Four CPUs sharing an LLC, hogs pinned to CPUs 0 and 1, a sleeper last
 * on CPU 0 and allowed on CPUs 0, 1 and 3; it wakes on CPU 0. prev is
 * busy, so select_idle_cpu() scans the LLC from CPU 1 on: CPU 2 is idle
 * but not allowed. Expect fair.c itself to choose CPU 3 (the driver
 * fails the case if it answers CPU 2, before any fallback), running.
 */
static void wakeup_scan_skips_idle_cpus_outside_the_mask(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int s;

	ft_test_boot_topology(test, "mc-4");
	ft_test_features(test, "!SIS_UTIL", NULL);
	for (int cpu = 0; cpu < 2; cpu++)
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ft_test_fork(test, 0, cpu), 1ULL << cpu), 0);
	attr.run_ns = NSEC_PER_MSEC;
	attr.sleep_ns = 100 * NSEC_PER_SEC;
	attr.cpus = 1;
	s = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, s, 0);
	ft_run_for(20 * NSEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, ft_test_info(test, s).sleeping);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(s, 0xbULL), 0);
	KUNIT_ASSERT_EQ(test, ft_curr(2), 0);
	KUNIT_ASSERT_EQ(test, ft_task_wake(s), 0);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, s).cpu, 3);
	KUNIT_EXPECT_EQ(test, ft_curr(3), s);
}

static struct kunit_case affinity_cases[] = {
	KUNIT_CASE(running_task_leaves_disallowed_cpu),
	KUNIT_CASE(random_masks_are_never_violated),
	KUNIT_CASE(pinned_tasks_stay_put),
	KUNIT_CASE(wakeup_scan_skips_idle_cpus_outside_the_mask),
	{}
};

static struct kunit_suite affinity_suite = {
	.name = "fair_affinity",
	.test_cases = affinity_cases,
};

kunit_test_suites(&affinity_suite);

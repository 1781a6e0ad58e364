// SPDX-License-Identifier: GPL-2.0
/*
 * The unreasonable-idle detector (shim/driver/idle.c, the LB_PROMOTE
 * series' definition): a CPU idle for t while a task allowed there waits
 * runnable on another CPU, t > 2.5 ms, counted in the buckets 2.5-3 ms,
 * 3-4 ms and > 4 ms. First against intervals built to exact lengths on
 * CPUs without domains (nothing balances, so only the test opens and
 * closes them: the detector alone, suite fairtest_harness_idle), then on
 * real domains, where it measures the balancer.
 */
#include <errno.h>
#include "harness.h"

static struct ft_idle_stats stats(struct kunit *test, int cpu)
{
	struct ft_idle_stats st;

	KUNIT_ASSERT_EQ(test, ft_unreasonable_idle(cpu, &st), 0);
	return st;
}

/* Two CPUs without domains, two CPU-bound tasks forked on CPU 0. */
static void two_on_cpu0(struct kunit *test, int *a, int *b)
{
	KUNIT_ASSERT_EQ(test, ft_boot(2), 0);
	*a = ft_test_fork(test, 0, 0);
	*b = ft_test_fork(test, 0, 0);
}

/* Allows both tasks CPU 1 again (opening) or pins them to CPU 0 (closing). */
static void allow_cpu1(struct kunit *test, int a, int b, bool allow)
{
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(a, allow ? 3 : 1), 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(b, allow ? 3 : 1), 0);
}

/*
 * Two CPUs without domains, A and B CPU-bound on CPU 0, CPU 1 idle: an
 * interval is open while either may use CPU 1 and closed while both are
 * pinned to CPU 0. Intervals of 2, 2.5, 2.7, 3, 3.5, 4 and 5 ms. Expect
 * the bucket edges exactly: 2 and 2.5 ms not counted (t > 2.5 ms), 2.7 and
 * 3 ms in the first bucket, 3.5 and 4 ms in the second, 5 ms in the
 * third; all on CPU 1, none on CPU 0 (busy throughout), longest 5 ms.
 */
static void buckets_count_exact_intervals(struct kunit *test)
{
	static const ft_u64 us[] = { 2000, 2500, 2700, 3000, 3500, 4000, 5000 };
	struct ft_idle_stats st;
	int a, b;

	two_on_cpu0(test, &a, &b);
	allow_cpu1(test, a, b, false);
	for (int i = 0; i < 7; i++) {
		allow_cpu1(test, a, b, true);
		ft_run_for(us[i] * NSEC_PER_USEC);
		allow_cpu1(test, a, b, false);
		ft_run_for(NSEC_PER_MSEC);
	}
	st = stats(test, 1);
	KUNIT_EXPECT_EQ(test, st.count[0], 2);
	KUNIT_EXPECT_EQ(test, st.count[1], 2);
	KUNIT_EXPECT_EQ(test, st.count[2], 1);
	KUNIT_EXPECT_EQ(test, st.longest_ns, 5 * NSEC_PER_MSEC);
	st = stats(test, 0);
	KUNIT_EXPECT_EQ(test, st.count[0] + st.count[1] + st.count[2], 0);
	st = stats(test, -1);
	KUNIT_EXPECT_EQ(test, st.count[0] + st.count[1] + st.count[2], 5);
}

/*
 * The same machine with the interval left open for 3.2 ms when asked.
 * Expect it counted as of now, in the 3-4 ms bucket: a run that ends
 * inside an interval still reports it.
 */
static void open_interval_counts_as_of_now(struct kunit *test)
{
	struct ft_idle_stats st;
	int a, b;

	two_on_cpu0(test, &a, &b);
	ft_run_for(3200 * NSEC_PER_USEC);
	st = stats(test, -1);
	KUNIT_EXPECT_EQ(test, st.count[1], 1);
	KUNIT_EXPECT_EQ(test, st.longest_ns, 3200 * NSEC_PER_USEC);
}

/*
 * The same machine with the detector turned off, then booted again.
 * Expect ft_unreasonable_idle() to fail with -ENODATA while it is off
 * (the interval went unseen), and the next boot to count it again.
 */
static void detector_off_answers_nothing_until_boot(struct kunit *test)
{
	struct ft_idle_stats st;
	int a, b;

	two_on_cpu0(test, &a, &b);
	ft_idle_detector_off();
	ft_run_for(3200 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, ft_unreasonable_idle(-1, &st), -ENODATA);
	two_on_cpu0(test, &a, &b);
	ft_run_for(3200 * NSEC_PER_USEC);
	st = stats(test, -1);
	KUNIT_EXPECT_EQ(test, st.count[1], 1);
}

/*
 * Eight CPU-bound tasks forked on 4 cores x 2 SMT threads, 1 s of
 * balancing. Fork balancing gives each its own CPU. Expect no CPU ever
 * unreasonably idle.
 */
static void balanced_machine_has_no_unreasonable_idle(struct kunit *test)
{
	struct ft_idle_stats st;

	ft_test_boot_topology(test, "smt-mc-8");
	for (int i = 0; i < 8; i++)
		ft_test_fork(test, 0, 0);
	ft_run_for(NSEC_PER_SEC);
	st = stats(test, -1);
	KUNIT_EXPECT_EQ(test, st.count[0] + st.count[1] + st.count[2], 0);
	KUNIT_EXPECT_EQ(test, st.longest_ns, 0);
}

/*
 * Eight CPU-bound tasks pinned to CPU 0 of 4 cores x 2 SMT threads, then
 * allowed everywhere, 500 ms. While they spread, CPUs sit idle beside
 * waiting tasks, each interval open from the release until the CPU gets
 * its first task (none goes idle again here once it has one). The test
 * counts for itself the CPUs still idle just past 2.5, 3 and 4 ms: each
 * is an interval longer than that edge. Expect the detector's table, the
 * series' table for this start, to be exactly those counts (all buckets,
 * the 3-4 ms and > 4 ms ones, the > 4 ms one), and the longest interval
 * within ft_spread_bound_ns() of the machine (fair_balance's bound).
 */
static void spreading_start_is_reported(struct kunit *test)
{
	static const ft_u64 edge_us[] = { 2500, 3000, 4000 };
	struct ft_idle_stats st;
	int ids[8], idle[3] = { 0 };
	ft_u64 bound, t0;

	ft_test_boot_topology(test, "smt-mc-8");
	bound = ft_spread_bound_ns(0);
	for (int i = 0; i < 8; i++) {
		ids[i] = ft_test_fork(test, 0, 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 1), 0);
	}
	for (int i = 0; i < 8; i++)
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], ~0ULL), 0);
	t0 = ft_now();
	for (int k = 0; k < 3; k++) {
		ft_run_for(t0 + edge_us[k] * NSEC_PER_USEC + 1 - ft_now());
		for (int cpu = 0; cpu < 8; cpu++)
			idle[k] += ft_curr(cpu) == 0;
	}
	ft_run_for(t0 + 500 * NSEC_PER_MSEC - ft_now());
	st = stats(test, -1);
	kunit_info(test, "unreasonable idle: 2.5-3 ms %llu, 3-4 ms %llu, >4 ms %llu; longest %llu us",
		   st.count[0], st.count[1], st.count[2], st.longest_ns / NSEC_PER_USEC);
	kunit_info(test, "idle CPUs seen past 2.5 / 3 / 4 ms: %d / %d / %d; bound %llu ms",
		   idle[0], idle[1], idle[2], bound / NSEC_PER_MSEC);
	KUNIT_EXPECT_GT(test, idle[0], 0);
	KUNIT_EXPECT_EQ(test, st.count[0] + st.count[1] + st.count[2], idle[0]);
	KUNIT_EXPECT_EQ(test, st.count[1] + st.count[2], idle[1]);
	KUNIT_EXPECT_EQ(test, st.count[2], idle[2]);
	KUNIT_EXPECT_GT(test, st.longest_ns, 4 * NSEC_PER_MSEC);
	KUNIT_EXPECT_LE(test, st.longest_ns, bound);
}

static struct kunit_case idle_harness_cases[] = {
	KUNIT_CASE(buckets_count_exact_intervals),
	KUNIT_CASE(open_interval_counts_as_of_now),
	KUNIT_CASE(detector_off_answers_nothing_until_boot),
	{}
};

static struct kunit_case idle_cases[] = {
	KUNIT_CASE(balanced_machine_has_no_unreasonable_idle),
	KUNIT_CASE(spreading_start_is_reported),
	{}
};

static struct kunit_suite idle_suite = {
	.name = "fair_unreasonable_idle",
	.test_cases = idle_cases,
};

static struct kunit_suite idle_harness_suite = {
	.name = "fairtest_harness_idle",
	.test_cases = idle_harness_cases,
};

kunit_test_suites(&idle_suite, &idle_harness_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * What a sleeper's lag is worth when it wakes (newer trees and
 * fixtures/patches/short-slice): positive lag, service owed, fades with
 * the time slept but never turns into debt; negative lag is kept; and on
 * an idle CPU every wakee starts from zero lag, so that several wake-ups
 * landing together are placed the same whatever their order. Lag decides
 * who runs first after a wake-up, so the oracles are exact. Trees without
 * the behaviour skip, naming the probe that said so.
 */
#include <errno.h>
#include "harness.h"



/*
 * On one CPU: A runs 2 ms alone, B forks and is run as soon as A's turn
 * ends, then sleeps at once, owed service (positive lag). Wake-up
 * preemption is off so that B, woken later, stays queued and its stored
 * lag can be read. Returns B's lag as it left.
 */
static ft_s64 b_sleeps_owed(struct kunit *test, int *b)
{
	ft_s64 lag;

	ft_test_features(test, "!WAKEUP_PREEMPTION", NULL);
	ft_test_fork(test, 0, 0);
	ft_run_for(2 * NSEC_PER_MSEC);
	*b = ft_test_fork(test, 0, 0);
	for (int i = 0; i < 1000 && ft_curr(0) != *b; i++)
		ft_run_for(10 * NSEC_PER_USEC);
	KUNIT_ASSERT_EQ_MSG(test, ft_curr(0), *b, "setup: B never ran");
	KUNIT_ASSERT_EQ(test, ft_task_sleep(*b), 0);
	lag = ft_test_info(test, *b).vlag;
	KUNIT_ASSERT_GT_MSG(test, lag, 0, "setup: B left owed nothing");
	return lag;
}

/*
 * B sleeps with positive lag L for L/2 (nice 0: one virtual ns per ns).
 * Expect its lag after the wake-up to be exactly L - L/2.
 */
static void positive_lag_decays_by_time_slept(struct kunit *test)
{
	ft_s64 lag, slept;
	int b;

	ft_test_require(test, "sleep_lag_decay");
	lag = b_sleeps_owed(test, &b);
	slept = lag / 2;
	ft_run_for(slept);
	KUNIT_ASSERT_EQ(test, ft_task_wake(b), 0);
	KUNIT_ASSERT_NE_MSG(test, ft_curr(0), b, "B preempted: its lag is no longer readable");
	KUNIT_EXPECT_EQ(test, ft_test_info(test, b).vlag, lag - slept);
}

/*
 * B sleeps with positive lag L for 3L. Expect its lag after the wake-up
 * to be exactly 0: the decay stops at zero, it never becomes debt.
 */
static void long_sleep_ends_at_zero_lag(struct kunit *test)
{
	ft_s64 lag;
	int b;

	ft_test_require(test, "sleep_lag_decay");
	lag = b_sleeps_owed(test, &b);
	ft_run_for(3 * lag);
	KUNIT_ASSERT_EQ(test, ft_task_wake(b), 0);
	KUNIT_ASSERT_NE(test, ft_curr(0), b);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, b).vlag, 0);
}

/*
 * On one CPU with delayed dequeue and hrtick off (with the hrtick, which
 * the debian profile turns on for 7.x, B's 200 us slice would end on time
 * and A would be running when B is to sleep): B (200 us slice, so it
 * preempts A at once) runs 1 ms ahead of A and sleeps
 * in debt (negative lag), sleeps 5 ms while A runs, and wakes on that busy
 * CPU. Expect its lag exactly as it left: debt neither fades nor resets.
 */
static void negative_lag_kept_across_sleep(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	ft_s64 lag;
	int a, b;

	ft_test_features(test, "!DELAY_DEQUEUE", "!HRTICK", NULL);
	a = ft_test_fork(test, 0, 0);
	ft_run_for(100 * NSEC_PER_USEC);
	attr.slice_ns = 200 * NSEC_PER_USEC;	/* short: it runs at once */
	b = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, b, 0);
	for (int i = 0; i < 1000 && ft_curr(0) != b; i++)
		ft_run_for(10 * NSEC_PER_USEC);
	KUNIT_ASSERT_EQ_MSG(test, ft_curr(0), b, "setup: B never ran");
	ft_run_for(NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_task_sleep(b), 0);
	lag = ft_test_info(test, b).vlag;
	KUNIT_ASSERT_LT_MSG(test, lag, 0, "setup: B left without debt");

	ft_test_features(test, "!WAKEUP_PREEMPTION", NULL);
	ft_run_for(5 * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), a);
	KUNIT_ASSERT_EQ(test, ft_task_wake(b), 0);
	KUNIT_ASSERT_NE(test, ft_curr(0), b);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, b).vlag, lag);
}

/* The debt scenario above where sleeper lag decays. Expect the debt kept. */
static void lag_kept_by_sleep_decay(struct kunit *test)
{
	ft_test_require(test, "sleep_lag_decay");
	negative_lag_kept_across_sleep(test);
}

/*
 * The debt scenario above where idle wake-ups reset lag: the CPU is busy.
 * Expect the debt kept.
 */
static void lag_kept_on_busy_cpu_wakeup(struct kunit *test)
{
	ft_test_require(test, "wake_idle_zero_lag");
	negative_lag_kept_across_sleep(test);
}

/*
 * A fresh one-CPU machine: three tasks share it for 12 ms, then the
 * running one runs 2 ms more and sleeps in debt, the next does the same,
 * the last sleeps alone; the CPU idles 1 ms; the first two wake together
 * (one wake list) in @order. Returns v(first) - v(second) after the
 * wake-up; *lags gets their lags before it (both must be non-zero).
 */
static ft_s64 wake_pair_on_idle_cpu(struct kunit *test, bool reverse, ft_s64 lags[2])
{
	int sleeper[2], pair[2];
	ft_s64 v[2];

	ft_shutdown();
	KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
	ft_test_features(test, "!DELAY_DEQUEUE", NULL);
	for (int i = 0; i < 3; i++)
		ft_test_fork(test, 0, 0);
	ft_run_for(12 * NSEC_PER_MSEC);
	for (int i = 0; i < 2; i++) {
		ft_run_for(2 * NSEC_PER_MSEC);
		sleeper[i] = ft_curr(0);
		KUNIT_ASSERT_GT(test, sleeper[i], 0);
		KUNIT_ASSERT_EQ(test, ft_task_sleep(sleeper[i]), 0);
		lags[i] = ft_test_info(test, sleeper[i]).vlag;
		KUNIT_ASSERT_NE_MSG(test, lags[i], 0, "setup: sleeper %d left with zero lag", i);
	}
	KUNIT_ASSERT_EQ(test, ft_task_sleep(ft_curr(0)), 0);
	ft_run_for(NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), 0);

	pair[0] = sleeper[reverse];
	pair[1] = sleeper[!reverse];
	KUNIT_ASSERT_EQ(test, ft_task_wake_batch(pair, 2), 0);
	for (int i = 0; i < 2; i++)
		v[i] = ft_test_info(test, sleeper[i]).vruntime;
	for (int i = 0; i < 2; i++)
		if (ft_curr(0) != sleeper[i])
			KUNIT_EXPECT_EQ_MSG(test, ft_test_info(test, sleeper[i]).vlag, 0,
					    "queued wakee %d kept lag", sleeper[i]);
	return v[0] - v[1];
}

/*
 * The scenario above in both wake orders. Expect the two wakees placed at
 * the same vruntime either way, and the queued one holding zero lag.
 */
static void idle_cpu_wakeups_placed_independent_of_order(struct kunit *test)
{
	ft_s64 lags[2], fwd, rev;

	ft_test_require(test, "wake_idle_zero_lag");
	fwd = wake_pair_on_idle_cpu(test, false, lags);
	rev = wake_pair_on_idle_cpu(test, true, lags);
	KUNIT_EXPECT_EQ_MSG(test, fwd, 0, "lags before %lld, %lld", lags[0], lags[1]);
	KUNIT_EXPECT_EQ_MSG(test, rev, 0, "lags before %lld, %lld", lags[0], lags[1]);
}

static struct kunit_case sleep_lag_cases[] = {
	KUNIT_CASE(positive_lag_decays_by_time_slept),
	KUNIT_CASE(long_sleep_ends_at_zero_lag),
	KUNIT_CASE(lag_kept_by_sleep_decay),
	KUNIT_CASE(lag_kept_on_busy_cpu_wakeup),
	KUNIT_CASE(idle_cpu_wakeups_placed_independent_of_order),
	{}
};

static struct kunit_suite sleep_lag_suite = {
	.name = "fair_sleep_lag",
	.init = ft_test_boot_one_cpu,
	.test_cases = sleep_lag_cases,
};

kunit_test_suite(sleep_lag_suite);

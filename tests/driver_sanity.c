// SPDX-License-Identifier: GPL-2.0
/*
 * Driver sanity: the fake machine drives fair.c through fork, wake-up,
 * sleep, tick, exit and attribute changes the way core.c does, and time is
 * accounted exactly. If these fail, no other suite's result means anything.
 */
#include <errno.h>
#include "harness.h"

static int boot_four_cpus(struct kunit *test)
{
	return ft_test_boot(test, 4);
}

/*
 * One CPU, one forked task. Expect it queued on CPU 0's root cfs_rq and,
 * after the preemption point, running there.
 */
static void fork_queues_and_runs_task(struct kunit *test)
{
	struct ft_cfs_info cfs;
	int id = ft_test_fork(test, 0, 0);

	KUNIT_ASSERT_EQ(test, ft_cfs_info(0, FT_ROOT_GROUP, &cfs), 0);
	KUNIT_EXPECT_EQ(test, cfs.nr_queued, 1);
	KUNIT_EXPECT_EQ(test, cfs.h_nr_queued, 1);
	KUNIT_EXPECT_EQ(test, ft_curr(0), id);
	KUNIT_EXPECT_TRUE(test, ft_test_info(test, id).on_rq);
}

/*
 * Harness (fairtest_harness_driver): four CPUs, a task forked onto idle
 * CPU 2. Expect exactly one resched_curr() on that CPU, seen through a
 * cmocka mock of the seam. The resched is core.c's (wakeup_preempt() of
 * a task whose class differs from the idle task's), so our driver's:
 * fair.c is not asked.
 */
static void fork_onto_idle_cpu_reschedules_it(struct kunit *test)
{
	ft_test_boot(test, 4);
	ft_mock_resched_enable(true);
	expect_function_call(mock_resched_curr);
	expect_value(mock_resched_curr, cpu, 2);
	ft_test_fork(test, 0, 2);
	ft_mock_resched_enable(false);
	KUNIT_EXPECT_NE(test, ft_curr(2), 0);
}

/*
 * A running task goes to sleep, then is woken. Expect the CPU idle in
 * between, the task off the queue (or delayed, never running), and running
 * again after the wake-up.
 */
static void sleep_then_wake_requeues_task(struct kunit *test)
{
	int id = ft_test_fork(test, 0, 0);
	struct ft_task_info info;

	ft_run_for(NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_task_sleep(id), 0);
	info = ft_test_info(test, id);
	KUNIT_EXPECT_EQ(test, ft_curr(0), 0);
	KUNIT_EXPECT_FALSE(test, info.running);
	KUNIT_EXPECT_TRUE(test, info.sleeping);
	KUNIT_EXPECT_EQ(test, ft_event_count(FT_EV_SLEEP), 1);

	ft_run_for(NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_task_wake(id), 0);
	info = ft_test_info(test, id);
	KUNIT_EXPECT_TRUE(test, info.on_rq);
	KUNIT_EXPECT_TRUE(test, info.running);
	KUNIT_EXPECT_EQ(test, ft_curr(0), id);
}

/*
 * One CPU-bound task alone for 100 ms of virtual time. Expect its exec
 * time, the CPU's busy time and the elapsed time to be the same number.
 */
static void lone_task_gets_all_elapsed_time(struct kunit *test)
{
	int id = ft_test_fork(test, 0, 0);
	ft_u64 start = ft_now();

	ft_run_for(100 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).exec_ns, ft_now() - start);
	KUNIT_EXPECT_EQ(test, ft_cpu_busy_ns(0), ft_now() - start);
}

/*
 * Four CPUs, three tasks per CPU with mixed nice levels and run/sleep
 * patterns, for 1 s. Expect, per CPU, the sum of its tasks' exec time to
 * equal the time the CPU was busy, to the nanosecond.
 */
static void exec_time_sums_to_busy_time_per_cpu(struct kunit *test)
{
	int ids[12], n = 0;

	for (int cpu = 0; cpu < 4; cpu++) {
		for (int k = 0; k < 3; k++) {
			struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;

			attr.cpu = cpu;
			attr.nice = k * 3 - 3;
			if (k == 2) {
				attr.run_ns = (1 + cpu) * NSEC_PER_MSEC;
				attr.sleep_ns = 3 * NSEC_PER_MSEC;
			}
			ids[n] = ft_task_fork(&attr);
			KUNIT_ASSERT_GT(test, ids[n], 0);
			n++;
		}
	}
	ft_run_for(NSEC_PER_SEC);
	for (int cpu = 0; cpu < 4; cpu++) {
		ft_u64 sum = 0;

		for (int i = 0; i < n; i++) {
			struct ft_task_info info = ft_test_info(test, ids[i]);

			if (info.cpu == cpu)
				sum += info.exec_ns;
		}
		KUNIT_EXPECT_EQ_MSG(test, sum, ft_cpu_busy_ns(cpu), "cpu %d", cpu);
		KUNIT_EXPECT_GT(test, ft_cpu_busy_ns(cpu), 0);
	}
}

/*
 * Two CPU-bound nice-0 tasks on one CPU for 100 ms, ticking. With the
 * base slice within a tick, each tick finds curr past its deadline
 * (update_deadline() asks for a resched) and the other task, owed, is
 * picked: a switch every tick. Expect exactly 1 + 100 ms / tick switches
 * (the first from idle) and each task's run time within a tick of half.
 * Slices end at a tick here: HRTICK off.
 */
static void tick_preempts_between_two_tasks(struct kunit *test)
{
	const ft_u64 span = 100 * NSEC_PER_MSEC, tick = ft_tick_nsec();
	int a, b;

	ft_test_features(test, "!HRTICK", NULL);
	a = ft_test_fork(test, 0, 0);
	b = ft_test_fork(test, 0, 0);

	KUNIT_ASSERT_LE_MSG(test, ft_base_slice(), tick, "the count below needs a slice within a tick");
	ft_run_for(span);
	KUNIT_EXPECT_EQ(test, ft_cpu_nr_switches(0), 1 + span / tick);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, a).exec_ns + ft_test_info(test, b).exec_ns, span);
	for (int i = 0; i < 2; i++) {
		ft_u64 exec = ft_test_info(test, i ? b : a).exec_ns;

		KUNIT_EXPECT_TRUE_MSG(test, exec + tick >= span / 2 && exec <= span / 2 + tick,
				      "task %d ran %llu ns of %llu", i ? b : a, exec, span);
	}
}

/*
 * A running task exits. Expect it gone, the queue empty, the CPU idle.
 */
static void exit_removes_task(struct kunit *test)
{
	int id = ft_test_fork(test, 0, 0);
	struct ft_cfs_info cfs;
	struct ft_task_info info;

	ft_run_for(NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_task_exit(id), 0);
	KUNIT_EXPECT_EQ(test, ft_task_info(id, &info), -ESRCH);
	KUNIT_ASSERT_EQ(test, ft_cfs_info(0, FT_ROOT_GROUP, &cfs), 0);
	KUNIT_EXPECT_EQ(test, cfs.nr_queued, 0);
	KUNIT_EXPECT_EQ(test, ft_curr(0), 0);
}

/*
 * Changing a queued task's nice level. Expect the weight of the new level
 * from the tree's table (nice 5: 335, nice -5: 3121) and the cfs_rq load to
 * follow.
 */
static void nice_change_reweights_task(struct kunit *test)
{
	int a = ft_test_fork(test, 0, 0);
	int b = ft_test_fork(test, 0, 0);
	struct ft_cfs_info cfs;

	KUNIT_ASSERT_EQ(test, ft_task_set_nice(a, 5), 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_nice(b, -5), 0);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, a).weight, 335);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, b).weight, 3121);
	KUNIT_ASSERT_EQ(test, ft_cfs_info(0, FT_ROOT_GROUP, &cfs), 0);
	KUNIT_EXPECT_EQ(test, cfs.load, 335 + 3121);
}

/*
 * Harness (fairtest_harness_driver): sched_setattr() runtimes below,
 * inside and above the allowed range, then 0. Expect 100 us, the value
 * itself, 100 ms, and the base slice back. The clamp and the reset are
 * core.c's (__setparam_fair()), so our driver's.
 */
static void custom_slice_is_clamped_and_reset(struct kunit *test)
{
	int id;

	ft_test_boot(test, 1);
	id = ft_test_fork(test, 0, 0);

	ft_task_set_slice(id, 1000);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).slice, 100000);
	ft_task_set_slice(id, 1500000);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).slice, 1500000);
	KUNIT_EXPECT_TRUE(test, ft_test_info(test, id).custom_slice);
	ft_task_set_slice(id, NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).slice, 100 * NSEC_PER_MSEC);
	ft_task_set_slice(id, 0);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).slice, ft_base_slice());
	KUNIT_EXPECT_FALSE(test, ft_test_info(test, id).custom_slice);
}

/*
 * A queued, not running task moved to another CPU. Expect it on the new
 * CPU, running there (it was idle), and one migration recorded.
 */
static void migrate_moves_queued_task(struct kunit *test)
{
	int a = ft_test_fork(test, 0, 0);
	int b = ft_test_fork(test, 0, 0);
	int waiting = ft_curr(0) == a ? b : a;

	KUNIT_ASSERT_EQ(test, ft_task_migrate(waiting, 3), 0);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, waiting).cpu, 3);
	KUNIT_EXPECT_EQ(test, ft_curr(3), waiting);
	KUNIT_EXPECT_EQ(test, ft_event_count(FT_EV_MIGRATE), 1);
}

/*
 * A task yields to an equal peer. Expect the peer to run next.
 */
static void yield_hands_cpu_to_peer(struct kunit *test)
{
	int a = ft_test_fork(test, 0, 0);
	int b = ft_test_fork(test, 0, 0);
	int running = ft_curr(0);

	KUNIT_ASSERT_EQ(test, ft_task_yield(running), 0);
	KUNIT_EXPECT_EQ(test, ft_curr(0), running == a ? b : a);
}

/*
 * The checker off, as fairsim --no-check runs, then on again: meanwhile
 * the trees changed with nobody watching where a min_slice may have gone
 * stale (shim/driver/rbwatch.c), which on a tree with the
 * min_slice_rotation finding the checker must excuse, not report. 20
 * seeded queues of 2..64 tasks on one CPU, a third with custom slices,
 * built by fork and short runs with the checker off, then as many again
 * with it on. Expect no invariant fault, and checks made once it is on.
 */
static void checker_back_on_excuses_what_it_did_not_watch(struct kunit *test)
{
	unsigned long long rng = kunit_case_seed(test);
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;

	for (int round = 0; round < 20; round++) {
		int n = 2 + ft_rand(&rng) % 63;
		ft_u64 checks;

		KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
		for (int i = 0; i < 2 * n; i++) {
			if (i == 0 || i == n)
				ft_set_invariant_checking(i == n);
			checks = ft_invariant_checks();
			attr.nice = (int)(ft_rand(&rng) % 40) - 20;
			attr.slice_ns = ft_rand(&rng) % 3 ? 0 : 100000 + ft_rand(&rng) % 20000000;
			KUNIT_ASSERT_GT(test, ft_task_fork(&attr), 0);
			ft_run_for(ft_rand(&rng) % (2 * NSEC_PER_MSEC));
			if (i < n)
				KUNIT_ASSERT_EQ(test, ft_invariant_checks(), checks);
			else
				KUNIT_ASSERT_GT(test, ft_invariant_checks(), checks);
		}
	}
}

static struct kunit_case driver_one_cpu_cases[] = {
	KUNIT_CASE(fork_queues_and_runs_task),
	KUNIT_CASE(sleep_then_wake_requeues_task),
	KUNIT_CASE(lone_task_gets_all_elapsed_time),
	KUNIT_CASE(tick_preempts_between_two_tasks),
	KUNIT_CASE(exit_removes_task),
	KUNIT_CASE(nice_change_reweights_task),
	KUNIT_CASE(yield_hands_cpu_to_peer),
	{}
};

static struct kunit_case driver_smp_cases[] = {
	KUNIT_CASE(exec_time_sums_to_busy_time_per_cpu),
	KUNIT_CASE(migrate_moves_queued_task),
	{}
};

/* What our core.c does alone: not fair.c's, so not in the fair_* counts. */
static struct kunit_case driver_harness_cases[] = {
	KUNIT_CASE(fork_onto_idle_cpu_reschedules_it),
	KUNIT_CASE(custom_slice_is_clamped_and_reset),
	KUNIT_CASE(checker_back_on_excuses_what_it_did_not_watch),
	{}
};

static struct kunit_suite driver_one_cpu_suite = {
	.name = "fair_driver",
	.init = ft_test_boot_one_cpu,
	.test_cases = driver_one_cpu_cases,
};

static struct kunit_suite driver_smp_suite = {
	.name = "fair_driver_smp",
	.init = boot_four_cpus,
	.test_cases = driver_smp_cases,
};

static struct kunit_suite driver_harness_suite = {
	.name = "fairtest_harness_driver",
	.test_cases = driver_harness_cases,
};

kunit_test_suites(&driver_one_cpu_suite, &driver_smp_suite, &driver_harness_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's answers to the faults of shim/faults.def, one case per
 * point family, each point enabled by the case itself through libfiu. An
 * allocation that fails must end in the kernel's own error path (-ENOMEM,
 * nothing leaked, no queue touched); a clock, tick or wake-up fault must be
 * absorbed the way core.c and fair.c absorb it on real hardware. The
 * harness fails any case that provokes a WARN.
 */
#include <errno.h>
#include <string.h>
#include "harness.h"



/* What an error path must leave as it was: every CPU's root queue. */
struct queues {
	struct ft_cfs_info cfs[FT_MAX_CPUS];
	long slab_live;
};

static void snapshot(struct kunit *test, struct queues *q)
{
	memset(q, 0, sizeof(*q));
	for (int cpu = 0; cpu < ft_nr_cpus(); cpu++)
		KUNIT_ASSERT_EQ(test, ft_cfs_info(cpu, FT_ROOT_GROUP, &q->cfs[cpu]), 0);
	q->slab_live = ft_slab_live();
}

static void expect_unchanged(struct kunit *test, const struct queues *before,
			     const char *what)
{
	struct queues now;

	snapshot(test, &now);
	KUNIT_EXPECT_EQ_MSG(test, now.slab_live, before->slab_live,
			    "%s leaked slab objects", what);
	for (int cpu = 0; cpu < ft_nr_cpus(); cpu++)
		KUNIT_EXPECT_TRUE_MSG(test, !memcmp(&now.cfs[cpu], &before->cfs[cpu],
						    sizeof(now.cfs[cpu])),
				      "%s changed cpu %d's queue", what, cpu);
}

/*
 * Two CPUs, a running task, then group creation with the nth slab
 * allocation under alloc_fair_sched_group failing, for n = 1, 2, ...
 * until creation succeeds. Expect -ENOMEM every time, no slab object
 * leaked, no queue changed, at least the two pointer arrays and one
 * per-CPU pair (or, from 7.2, the one per-CPU block) to have been
 * failable, and the group made at the end to
 * take a task and run it.
 */
static void group_create_fails_cleanly_at_every_allocation(struct kunit *test)
{
	int task = ft_test_fork(test, 0, 0), n, g;
	struct queues before;

	ft_run_for(NSEC_PER_MSEC);
	for (n = 1; n < 100; n++) {
		snapshot(test, &before);
		KUNIT_ASSERT_EQ(test, ft_inject_nth(FT_FP_ALLOC_FAIR_SCHED_GROUP, n), 0);
		g = ft_group_create(FT_ROOT_GROUP);
		ft_inject_disable(FT_FP_ALLOC_FAIR_SCHED_GROUP);
		if (g > 0)
			break;
		KUNIT_EXPECT_EQ_MSG(test, g, -ENOMEM, "allocation %d failed", n);
		expect_unchanged(test, &before, "failed group creation");
	}
	/* From 7.2 a group's queue and entity are one per-CPU block. */
	KUNIT_EXPECT_GE(test, n, ft_tree_lacks("group_pointer_arrays") ? 1 + 1 : 2 + 2 + 1);
	KUNIT_ASSERT_GT(test, g, 0);
	KUNIT_EXPECT_EQ(test, ft_inject_fired(FT_FP_ALLOC_FAIR_SCHED_GROUP), n - 1);
	KUNIT_ASSERT_EQ(test, ft_task_set_group(task, g), 0);
	ft_run_for(10 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, task).group, g);
	KUNIT_EXPECT_EQ(test, ft_curr(0), task);
}

/*
 * Harness (fairtest_harness_faults): the task_group allocation itself
 * fails (sched_create_group(), before fair.c is asked). Expect
 * -ENOMEM, fair.c never called (no slab object), queues unchanged, and
 * the next creation to get the first group id: no slot was used up.
 */
static void group_create_fails_before_fair_is_asked(struct kunit *test)
{
	struct queues before;
	int g;

	ft_test_fork(test, 0, 0);
	snapshot(test, &before);
	KUNIT_ASSERT_EQ(test, ft_inject_enable(FT_FP_SCHED_CREATE_GROUP, 1), 0);
	KUNIT_EXPECT_EQ(test, ft_group_create(FT_ROOT_GROUP), -ENOMEM);
	ft_inject_disable(FT_FP_SCHED_CREATE_GROUP);
	expect_unchanged(test, &before, "failed group creation");
	g = ft_group_create(FT_ROOT_GROUP);
	KUNIT_EXPECT_EQ(test, g, 1);
	KUNIT_EXPECT_EQ(test, ft_group_destroy(g), 0);
	KUNIT_EXPECT_EQ(test, ft_slab_live(), before.slab_live);
}

/*
 * Harness (fairtest_harness_faults): fork cannot allocate its task_struct
 * (before fair.c hears of the task). Expect -ENOMEM, the queues as they
 * were, and the next fork to get the id the failed one would have.
 */
static void fork_fails_before_the_scheduler_hears_of_it(struct kunit *test)
{
	int first = ft_test_fork(test, 0, 0);
	struct queues before;

	snapshot(test, &before);
	KUNIT_ASSERT_EQ(test, ft_inject_nth(FT_FP_DUP_TASK_STRUCT, 1), 0);
	KUNIT_EXPECT_EQ(test, ft_task_fork(NULL), -ENOMEM);
	expect_unchanged(test, &before, "failed fork");
	KUNIT_EXPECT_EQ(test, ft_test_fork(test, 0, 0), first + 1);
}

/*
 * One task; then every clock read 1 ms behind the clock. Expect the rq
 * clock never to go back (update_rq_clock ignores a negative delta), to
 * resume from the late reads once they pass it, and to be exact again
 * when the fault stops; the task charged exactly what the rq clock moved.
 */
static void clock_step_back_keeps_rq_clock_monotonic(struct kunit *test)
{
	int id = ft_test_fork(test, 0, 0);
	ft_u64 c0, e0;

	ft_run_for(10 * NSEC_PER_MSEC);
	e0 = ft_test_info(test, id).exec_ns;	/* also brings the rq clock to now */
	c0 = ft_rq_clock(0);
	KUNIT_ASSERT_EQ(test, c0, ft_now());

	KUNIT_ASSERT_EQ(test, ft_inject_enable(FT_FP_CLOCK_BACKWARDS, 1), 0);
	KUNIT_EXPECT_EQ(test, ft_tick(0), 0);
	KUNIT_EXPECT_EQ(test, ft_rq_clock(0), c0);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).exec_ns, e0);

	ft_run_for(1500 * NSEC_PER_USEC);	/* short of the next tick (12 ms at HZ=250) */
	ft_tick(0);
	KUNIT_EXPECT_EQ(test, ft_rq_clock(0), ft_now() - NSEC_PER_MSEC);
	KUNIT_EXPECT_GT(test, ft_inject_fired(FT_FP_CLOCK_BACKWARDS), 0);

	ft_inject_disable(FT_FP_CLOCK_BACKWARDS);
	ft_tick(0);
	KUNIT_EXPECT_EQ(test, ft_rq_clock(0), ft_now());
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).exec_ns - e0, ft_rq_clock(0) - c0);
}

/*
 * One task on a coarse clock that stops between reads for 20 ms of ticks.
 * Expect nothing charged while it stands still, then everything at the
 * first read after it moves again: a coarse clock delays, never loses.
 */
static void clock_stall_delays_but_loses_nothing(struct kunit *test)
{
	int id = ft_test_fork(test, 0, 0);
	ft_u64 start = ft_now(), e0;

	ft_run_for(NSEC_PER_MSEC);
	e0 = ft_test_info(test, id).exec_ns;
	KUNIT_ASSERT_EQ(test, ft_inject_enable(FT_FP_CLOCK_STALL, 1), 0);
	ft_run_for(20 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).exec_ns, e0);
	KUNIT_EXPECT_GT(test, ft_inject_fired(FT_FP_CLOCK_STALL), 5);
	ft_inject_disable(FT_FP_CLOCK_STALL);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).exec_ns, ft_now() - start);
}

/*
 * Two CPU-bound tasks; the clock jumps 2 s ahead under the running one
 * (a paused VM). Expect the whole jump charged to it at the next tick,
 * and the other task to run next, since the jumped one is far past its
 * deadline.
 */
static void clock_jump_is_charged_to_the_running_task(struct kunit *test)
{
	int a = ft_test_fork(test, 0, 0), b = ft_test_fork(test, 0, 0), cur, other;
	ft_u64 e0;

	ft_run_for(10 * NSEC_PER_MSEC);
	cur = ft_curr(0);
	other = cur == a ? b : a;
	e0 = ft_test_info(test, cur).exec_ns;
	KUNIT_ASSERT_EQ(test, ft_inject_nth(FT_FP_CLOCK_JUMP, 1), 0);
	ft_tick(0);
	KUNIT_EXPECT_EQ(test, ft_inject_fired(FT_FP_CLOCK_JUMP), 1);
	KUNIT_EXPECT_GE(test, ft_test_info(test, cur).exec_ns - e0, 2 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, ft_curr(0), other);
}

/*
 * Two CPU-bound tasks and no tick for 50 ms. Expect the running task to
 * keep the CPU all along (nothing else preempts it) and be charged all of
 * it, then the first tick after the fault to hand the CPU over. Reading
 * exec time calls update_curr(), which would preempt the overrunning task
 * as in the kernel, so it is read only at the end.
 * Slices end at a tick here: HRTICK off.
 */
static void lost_ticks_let_the_running_task_overrun(struct kunit *test)
{
	ft_u64 switches, start;
	int a, b, cur;

	ft_test_features(test, "!HRTICK", NULL);
	a = ft_test_fork(test, 0, 0);
	b = ft_test_fork(test, 0, 0);
	ft_run_for(10 * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_inject_enable(FT_FP_TICK_LOST, 1), 0);
	cur = ft_curr(0);
	switches = ft_cpu_nr_switches(0);
	start = ft_now();
	ft_run_for(50 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, ft_curr(0), cur);
	KUNIT_EXPECT_EQ(test, ft_cpu_nr_switches(0), switches);
	KUNIT_EXPECT_GT(test, ft_inject_fired(FT_FP_TICK_LOST), 10);
	ft_inject_disable(FT_FP_TICK_LOST);
	ft_run_for(ft_tick_nsec());
	KUNIT_EXPECT_NE(test, ft_curr(0), cur);
	KUNIT_EXPECT_TRUE(test, cur == a || cur == b);
	KUNIT_EXPECT_GE(test, ft_test_info(test, cur).exec_ns, ft_now() - start - ft_tick_nsec());
}

/* Three tasks for 100 ms on a fresh machine; their exec times and switches. */
static void run_three(struct kunit *test, ft_u64 exec[3], ft_u64 *switches)
{
	int ids[3];

	KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
	for (int i = 0; i < 3; i++)
		ids[i] = ft_test_fork(test, i * 2, 0);
	ft_run_for(100 * NSEC_PER_MSEC);
	for (int i = 0; i < 3; i++)
		exec[i] = ft_test_info(test, ids[i]).exec_ns;
	*switches = ft_cpu_nr_switches(0);
}

/*
 * The same three tasks run twice, the second time with every tick
 * doubled. Expect the very same schedule: the second tick of a pair sees
 * no time elapsed, so it charges nothing and preempts nobody.
 */
static void doubled_ticks_change_nothing(struct kunit *test)
{
	ft_u64 plain[3], doubled[3], s_plain, s_doubled;

	run_three(test, plain, &s_plain);
	KUNIT_ASSERT_EQ(test, ft_inject_enable(FT_FP_TICK_DOUBLED, 1), 0);
	run_three(test, doubled, &s_doubled);
	KUNIT_EXPECT_GT(test, ft_inject_fired(FT_FP_TICK_DOUBLED), 20);
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, doubled[i], plain[i], "task %d", i + 1);
	KUNIT_EXPECT_EQ(test, s_doubled, s_plain);
}

/*
 * Two CPU-bound tasks; the first periodic tick comes late by a tick plus
 * the base slice. Expect the task running before it to keep the CPU until
 * that late tick, the other to get no time before it, and the late tick
 * to switch.
 * Slices end at a tick here: HRTICK off.
 */
static void delayed_tick_overruns_the_slice(struct kunit *test)
{
	ft_u64 late = ft_tick_nsec() + ft_tick_nsec() + ft_base_slice();
	int a, b, cur, other;

	ft_test_features(test, "!HRTICK", NULL);
	a = ft_test_fork(test, 0, 0);
	b = ft_test_fork(test, 0, 0);
	cur = ft_curr(0);
	other = cur == a ? b : a;
	KUNIT_ASSERT_EQ(test, ft_inject_nth(FT_FP_TICK_DELAYED, 1), 0);
	ft_run_for(late - 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, ft_curr(0), cur);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, other).exec_ns, 0);
	KUNIT_EXPECT_EQ(test, ft_inject_fired(FT_FP_TICK_DELAYED), 1);
	ft_run_for(200 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, ft_curr(0), other);
}

/*
 * Four CPUs sharing an LLC (booted here: the suite's two CPUs have no
 * domains), hogs pinned to CPUs 0 and 1; a task pinned to CPU 0 sleeps
 * and, while asleep, loses CPU 0: its mask becomes CPUs 1-3, so the
 * wake-up asks select_task_rq_fair() (one allowed CPU would bypass it).
 * Expect fair.c itself to place it on idle CPU 2 or 3 (its previous CPU
 * is busy: the LLC scan), running there: core.c's fallback, taken if
 * fair.c answered the disallowed CPU 0, would give CPU 1, which is busy.
 * SIS_UTIL is off: with it the scan's depth follows the LLC's load as
 * periodic balancing last saw it, and a scan cut short answers prev.
 */
static void wake_up_avoids_a_cpu_no_longer_allowed(struct kunit *test)
{
	struct ft_task_info info;
	int id;

	ft_test_boot_topology(test, "mc-4");
	ft_test_features(test, "!SIS_UTIL", NULL);
	for (int cpu = 0; cpu < 2; cpu++)
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ft_test_fork(test, 0, cpu), 1ULL << cpu), 0);
	id = ft_test_fork(test, 0, 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 1), 0);
	while (ft_curr(0) != id)
		ft_run_for(ft_tick_nsec());
	KUNIT_ASSERT_EQ(test, ft_task_sleep(id), 0);
	KUNIT_ASSERT_EQ(test, ft_inject_enable(FT_FP_WAKE_DISALLOWED_CPU, 1), 0);
	KUNIT_ASSERT_EQ(test, ft_task_wake(id), 0);
	KUNIT_EXPECT_EQ(test, ft_inject_fired(FT_FP_WAKE_DISALLOWED_CPU), 1);
	KUNIT_EXPECT_EQ(test, ft_task_affinity(id), 0xeULL);
	info = ft_test_info(test, id);
	KUNIT_EXPECT_TRUE_MSG(test, info.cpu == 2 || info.cpu == 3, "woke on cpu %d", info.cpu);
	KUNIT_EXPECT_TRUE(test, info.running);
}

/*
 * Harness (fairtest_harness_faults): one CPU, a running task and a
 * sleeping one; the sleeper's wake-up is delivered twice. Expect it
 * queued once: two tasks on the queue, one wake-up counted, the duplicate
 * answered by the state check (try_to_wake_up()'s, our driver's: the
 * duplicate never reaches fair.c).
 */
static void duplicate_wake_up_queues_once(struct kunit *test)
{
	int a = ft_test_fork(test, 0, 0), b;
	struct ft_cfs_info cfs;
	ft_u64 wakes;

	ft_run_for(NSEC_PER_MSEC);
	b = ft_curr(0) == a ? ft_test_fork(test, 0, 0) : a;
	ft_run_for(10 * NSEC_PER_MSEC);
	while (ft_curr(0) != b)
		ft_run_for(ft_tick_nsec());
	KUNIT_ASSERT_EQ(test, ft_task_sleep(b), 0);
	ft_run_for(10 * NSEC_PER_MSEC);
	wakes = ft_event_count(FT_EV_WAKE);
	KUNIT_ASSERT_EQ(test, ft_inject_enable(FT_FP_WAKE_DUPLICATE, 1), 0);
	KUNIT_EXPECT_EQ(test, ft_task_wake(b), 0);
	KUNIT_EXPECT_EQ(test, ft_inject_fired(FT_FP_WAKE_DUPLICATE), 1);
	KUNIT_EXPECT_EQ(test, ft_event_count(FT_EV_WAKE), wakes + 1);
	KUNIT_ASSERT_EQ(test, ft_cfs_info(0, FT_ROOT_GROUP, &cfs), 0);
	KUNIT_EXPECT_EQ(test, cfs.nr_queued, 2);
	KUNIT_EXPECT_EQ(test, cfs.h_nr_queued, 2);
}

/*
 * A task alone on a CPU runs 1 ms, sleeps 10 ms; its first sleep is cut
 * by a spurious wake-up halfway. Expect it switched in at 6 ms, charged
 * nothing for it and asleep again, then woken at 11 ms as planned.
 */
static void spurious_wake_up_runs_and_sleeps_again(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct ft_task_info info;
	int id;

	attr.cpu = 0;
	attr.run_ns = NSEC_PER_MSEC;
	attr.sleep_ns = 10 * NSEC_PER_MSEC;
	KUNIT_ASSERT_EQ(test, ft_inject_nth(FT_FP_WAKE_SPURIOUS, 1), 0);
	id = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, id, 0);

	ft_run_for(8 * NSEC_PER_MSEC);
	info = ft_test_info(test, id);
	KUNIT_EXPECT_EQ(test, ft_inject_fired(FT_FP_WAKE_SPURIOUS), 1);
	KUNIT_EXPECT_TRUE(test, info.sleeping);
	KUNIT_EXPECT_EQ(test, info.nr_switches_in, 2);
	KUNIT_EXPECT_EQ(test, info.exec_ns, NSEC_PER_MSEC);

	ft_run_for(3500 * NSEC_PER_USEC);	/* 11.5 ms */
	info = ft_test_info(test, id);
	KUNIT_EXPECT_TRUE(test, info.running);
	KUNIT_EXPECT_EQ(test, info.nr_switches_in, 3);
	KUNIT_EXPECT_EQ(test, info.exec_ns, 1500 * NSEC_PER_USEC);
}

static struct kunit_case faults_cases[] = {
	KUNIT_CASE(clock_step_back_keeps_rq_clock_monotonic),
	KUNIT_CASE(clock_stall_delays_but_loses_nothing),
	KUNIT_CASE(clock_jump_is_charged_to_the_running_task),
	KUNIT_CASE(lost_ticks_let_the_running_task_overrun),
	KUNIT_CASE(doubled_ticks_change_nothing),
	KUNIT_CASE(delayed_tick_overruns_the_slice),
	KUNIT_CASE(spurious_wake_up_runs_and_sleeps_again),
	{}
};

/* Faults that fire before fair.c is entered: the harness's own answers. */
static struct kunit_case faults_harness_cases[] = {
	KUNIT_CASE(group_create_fails_before_fair_is_asked),
	KUNIT_CASE(fork_fails_before_the_scheduler_hears_of_it),
	KUNIT_CASE(duplicate_wake_up_queues_once),
	{}
};

static struct kunit_case faults_smp_cases[] = {
	KUNIT_CASE(group_create_fails_cleanly_at_every_allocation),
	KUNIT_CASE(wake_up_avoids_a_cpu_no_longer_allowed),
	{}
};

static struct kunit_suite faults_suite = {
	.name = "fair_faults",
	.init = ft_test_boot_one_cpu,
	.test_cases = faults_cases,
};

static struct kunit_suite faults_smp_suite = {
	.name = "fair_faults_smp",
	.init = ft_test_boot_two_cpus,
	.test_cases = faults_smp_cases,
};

static struct kunit_suite faults_harness_suite = {
	.name = "fairtest_harness_faults",
	.init = ft_test_boot_one_cpu,
	.test_cases = faults_harness_cases,
};

kunit_test_suites(&faults_suite, &faults_smp_suite, &faults_harness_suite);

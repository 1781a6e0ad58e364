// SPDX-License-Identifier: GPL-2.0
/*
 * The preemption model (shim/driver/preempt.c): two CPU-bound nice-0 tasks
 * on one CPU take turns at the ticks, each run ended by the tick that finds
 * its slice used up. One of them is then put inside a system call
 * (ft_task_set_kernel()) for its next run, and how long that run lasts
 * says where the model let the switch happen: at the same tick (FULL), one
 * tick later, when sched_tick() promotes the lazy flag (LAZY), or only at
 * the return to user space (NONE, VOLUNTARY). The first case checks the
 * boot's model against the build's .config; each other sets its model, as
 * the kernel's preempt= option would; the LAZY ones skip on trees without
 * it. HRTICK is off: its reschedule is a full one, which a profile with it
 * (debian on 7.3) would let end the slice between ticks.
 */
#include <errno.h>
#include "harness.h"

#define STEP_NS		(10 * 1000ULL)
#define LONG_NS		(40 * NSEC_PER_MSEC)

/* Runs until CPU 0 switches, at most @limit; the time that took. */
static ft_u64 until_switch(ft_u64 limit)
{
	ft_u64 from = ft_now(), switches = ft_cpu_nr_switches(0);

	while (ft_cpu_nr_switches(0) == switches && ft_now() - from < limit)
		ft_run_for(STEP_NS);
	return ft_now() - from;
}

/*
 * Two CPU-bound tasks in model @model, HRTICK off, run from a switch on;
 * the length of one run in user space, the next one's task now curr.
 */
static ft_u64 two_tasks(struct kunit *test, int model)
{
	KUNIT_ASSERT_EQ(test, ft_set_preempt_model(model), 0);
	ft_test_features(test, "!HRTICK", NULL);
	KUNIT_ASSERT_GT(test, ft_test_fork(test, 0, 0), 0);
	KUNIT_ASSERT_GT(test, ft_test_fork(test, 0, 0), 0);
	until_switch(LONG_NS);
	until_switch(LONG_NS);
	return until_switch(LONG_NS);
}

/*
 * Two CPU-bound tasks, in model @model; the length of a run in user space
 * (*@user), then of the next one's, whose task is inside the kernel from
 * its start, at most LONG_NS. The task that was inside is *@in.
 */
static ft_u64 run_inside(struct kunit *test, int model, ft_u64 *user, int *in)
{
	*user = two_tasks(test, model);
	*in = ft_curr(0);
	KUNIT_ASSERT_EQ(test, ft_task_set_kernel(*in, true), 0);
	return until_switch(LONG_NS);
}

static void skip_without_lazy(struct kunit *test)
{
	if (ft_set_preempt_model(FT_PREEMPT_LAZY) == -EOPNOTSUPP)
		kunit_skip(test, "this tree has no PREEMPT_LAZY (6.13 on)");
}

/*
 * A boot with no preempt= option, as each case's. Expect the model the
 * build's .config chooses (FT_PROFILE_PREEMPT, read from its text by
 * sched_fair/prepare.sh): none, voluntary, lazy, else full.
 */
static void boot_takes_the_configs_model(struct kunit *test)
{
	kunit_info(test, "the build's .config: %s", FT_PROFILE_PREEMPT_NAME);
	KUNIT_EXPECT_EQ(test, ft_preempt_model(), FT_PROFILE_PREEMPT);
}

/*
 * VOLUNTARY, the set-up above. Expect the task inside the kernel to keep
 * the CPU past every tick, and the switch at its return to user space.
 */
static void voluntary_switches_at_user_return(struct kunit *test)
{
	ft_u64 user, inside;
	int in;

	inside = run_inside(test, FT_PREEMPT_VOLUNTARY, &user, &in);
	kunit_info(test, "run in user space %llu us, inside the kernel %llu us",
		   user / 1000, inside / 1000);
	KUNIT_EXPECT_GE(test, inside, LONG_NS);
	KUNIT_EXPECT_EQ(test, ft_curr(0), in);
	KUNIT_EXPECT_EQ(test, ft_task_set_kernel(in, false), 0);
	ft_run_for(1000);
	KUNIT_EXPECT_NE_MSG(test, ft_curr(0), in, "no switch at the return to user space");
}

/*
 * FULL, the same set-up. Expect the run inside the kernel to end at the
 * same tick as one in user space: the interrupt's exit preempts.
 */
static void full_preempts_inside_the_kernel(struct kunit *test)
{
	ft_u64 user, inside;
	int in;

	inside = run_inside(test, FT_PREEMPT_FULL, &user, &in);
	kunit_info(test, "run in user space %llu us, inside the kernel %llu us",
		   user / 1000, inside / 1000);
	KUNIT_EXPECT_LT(test, user, LONG_NS);
	KUNIT_EXPECT_EQ(test, inside, user);
}

/*
 * LAZY, the same set-up. Expect the run inside the kernel to last one tick
 * longer than in user space: the tick that ends the slice sets the lazy
 * flag, the next one promotes it and its interrupt's exit preempts.
 */
static void lazy_waits_one_tick_inside_the_kernel(struct kunit *test)
{
	ft_u64 user, inside;
	int in;

	skip_without_lazy(test);
	inside = run_inside(test, FT_PREEMPT_LAZY, &user, &in);
	kunit_info(test, "run in user space %llu us, inside the kernel %llu us",
		   user / 1000, inside / 1000);
	KUNIT_EXPECT_LT(test, user, LONG_NS);
	KUNIT_EXPECT_EQ(test, inside, user + ft_tick_nsec());
}

/*
 * LAZY, the set-up's tasks, the running one inside the kernel from a
 * switch on; it returns to user space half a tick after the tick that
 * ended its slice. Expect the switch at that return, not at the next tick.
 */
static void lazy_switches_at_user_return(struct kunit *test)
{
	ft_u64 user;
	int in;

	skip_without_lazy(test);
	user = two_tasks(test, FT_PREEMPT_LAZY);
	in = ft_curr(0);
	KUNIT_ASSERT_EQ(test, ft_task_set_kernel(in, true), 0);
	ft_run_for(user + ft_tick_nsec() / 2);
	KUNIT_EXPECT_EQ_MSG(test, ft_curr(0), in, "switched inside the kernel before the tick promoted the lazy flag");
	KUNIT_EXPECT_EQ(test, ft_task_set_kernel(in, false), 0);
	ft_run_for(1000);
	KUNIT_EXPECT_NE_MSG(test, ft_curr(0), in, "the lazy reschedule waited past the return to user space");
}

/*
 * FULL, one CPU: A CPU-bound, B running 1 ms and sleeping 1 ms, each
 * wake-up's switch 50 us after it (ft_set_wake_preempt()); right after
 * each wake-up A enters the kernel for 500 us. Expect no wake-up to switch
 * to B inside that call, and some at its return: the reschedule was set
 * while A was in user space and stands for a return to user space that
 * the real task makes before its next system call, so preempting A inside
 * this one (holding a pipe's mutex, say) would be the driver's own delay.
 */
static void user_resched_waits_for_the_call_entered_meanwhile(struct kunit *test)
{
	ft_u64 end, wake_at = 0, b_from = 0;
	int a, b, inside = 0, at_return = 0, wakes = 0;

	KUNIT_ASSERT_EQ(test, ft_set_preempt_model(FT_PREEMPT_FULL), 0);
	ft_test_features(test, "!HRTICK", NULL);
	a = ft_test_fork(test, 0, 0);
	b = ft_test_fork(test, 0, 0);
	KUNIT_ASSERT_GT(test, a, 0);
	KUNIT_ASSERT_GT(test, b, 0);
	ft_set_wake_preempt(50 * 1000);
	end = ft_now() + 100 * NSEC_PER_MSEC;
	while (ft_now() < end) {
		ft_run_for(STEP_NS);
		if (wake_at && ft_now() >= wake_at) {
			ft_task_wake(b);
			b_from = ft_task_exec_ns(b);
			wake_at = 0;
			wakes++;
			if (ft_curr(0) != a)
				continue;
			ft_task_set_kernel(a, true);
			ft_run_for(500 * 1000);
			inside += ft_curr(0) != a;
			ft_task_set_kernel(a, false);
			ft_run_for(1000);
			at_return += ft_curr(0) == b;
		} else if (!wake_at && ft_curr(0) == b &&
			   ft_task_exec_ns(b) - b_from >= NSEC_PER_MSEC) {
			ft_task_sleep(b);
			wake_at = ft_now() + NSEC_PER_MSEC;
		}
	}
	ft_set_wake_preempt(0);
	kunit_info(test, "%d wake-ups of B: %d switched inside A's call, %d at its return",
		   wakes, inside, at_return);
	KUNIT_EXPECT_EQ(test, inside, 0);
	KUNIT_EXPECT_GT(test, at_return, 0);
}

/*
 * FULL, the set-up's tasks, the switch after a tick's reschedule costing a
 * tick and a half. The running task is in user space at the tick that ends
 * its slice, and enters the kernel half a tick later, before the switch;
 * the next tick finds it past its new deadline and asks again, inside the
 * call. Expect the switch inside the call, when the first request's cost
 * has passed: the second is the interrupt's, which FULL acts on, not the
 * return to user space's.
 */
static void resched_asked_again_inside_preempts_there(struct kunit *test)
{
	ft_u64 user, tick = ft_tick_nsec(), inside;
	int in;

	user = two_tasks(test, FT_PREEMPT_FULL);
	KUNIT_ASSERT_LT(test, user, LONG_NS);
	in = ft_curr(0);
	ft_set_tick_preempt(tick * 3 / 2, 0);
	ft_run_for(user + tick / 2);
	KUNIT_ASSERT_EQ_MSG(test, ft_curr(0), in, "switched before the call");
	KUNIT_ASSERT_EQ(test, ft_task_set_kernel(in, true), 0);
	inside = until_switch(LONG_NS);
	ft_set_tick_preempt(0, 0);
	kunit_info(test, "run in user space %llu us, then inside the call %llu us",
		   user / 1000, inside / 1000);
	KUNIT_EXPECT_LT(test, inside, 2 * tick);
	KUNIT_EXPECT_NE(test, ft_curr(0), in);
}

static struct kunit_case preempt_model_cases[] = {
	KUNIT_CASE(boot_takes_the_configs_model),
	KUNIT_CASE(voluntary_switches_at_user_return),
	KUNIT_CASE(full_preempts_inside_the_kernel),
	KUNIT_CASE(lazy_waits_one_tick_inside_the_kernel),
	KUNIT_CASE(lazy_switches_at_user_return),
	KUNIT_CASE(user_resched_waits_for_the_call_entered_meanwhile),
	KUNIT_CASE(resched_asked_again_inside_preempts_there),
	{}
};

static struct kunit_suite preempt_model_suite = {
	.name = "fair_preempt_model",
	.init = ft_test_boot_one_cpu,
	.test_cases = preempt_model_cases,
};

kunit_test_suite(preempt_model_suite);

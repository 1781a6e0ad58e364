// SPDX-License-Identifier: GPL-2.0
/*
 * HRTICK: with the feature on, fair.c arms a high-resolution timer for the
 * end of the running task's slice (hrtick_start_fair()), so a slice that is
 * not a multiple of the tick ends on time, between ticks; with it off the
 * running task keeps the CPU until the tick that finds its slice used up.
 * Both are checked by watching which task runs, every 50 us, and how long
 * each kept the CPU. The timer is fair.c's own, fired by the driver's
 * event loop on the virtual clock. The "on" case skips where the profile
 * has no SCHED_HRTICK (make check PROFILE=debian has it).
 */
#include <stdio.h>
#include "harness.h"

#define SLICE_NS	(1500 * 1000ULL)	/* 1.5 ms: not a multiple of any tick */
#define STEP_NS		(50 * 1000ULL)
#define RUN_NS		(200 * NSEC_PER_MSEC)

struct runs {
	int nr;
	ft_u64 longest;		/* the longest time a task kept the CPU */
	ft_u64 off_tick;	/* switches not on a tick boundary */
};

/*
 * Two CPU-bound nice-0 tasks with a 1.5 ms slice on one CPU for 200 ms;
 * each time the running task changes, how long the last one ran (from
 * its exec time) and whether the switch fell on a tick.
 */
static struct runs watch_runs(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct runs r = { 0 };
	ft_u64 in_exec = 0, end;
	int ids[2], curr;

	attr.slice_ns = SLICE_NS;
	for (int i = 0; i < 2; i++) {
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
	}
	curr = ft_curr(0);
	in_exec = ft_test_info(test, curr).exec_ns;
	end = ft_now() + RUN_NS;
	while (ft_now() < end) {
		ft_run_for(STEP_NS);
		if (ft_curr(0) == curr)
			continue;
		/* the task that left ran from in_exec to its exec time now */
		if (ft_test_info(test, curr).exec_ns - in_exec > r.longest)
			r.longest = ft_test_info(test, curr).exec_ns - in_exec;
		r.off_tick += ft_now() % ft_tick_nsec() >= STEP_NS;
		r.nr++;
		curr = ft_curr(0);
		in_exec = ft_test_info(test, curr).exec_ns;
	}
	return r;
}

/*
 * HRTICK on, the set-up above. Expect every task to give up the CPU once
 * it has run its 1.5 ms slice, give or take the 10 us floor hrtick_start()
 * puts on a timer, and most switches to fall between ticks.
 */
static void slice_ends_on_time_between_ticks(struct kunit *test)
{
	struct runs r;

	if (!ft_hrtick_available())
		kunit_skip(test, "profile has no SCHED_HRTICK (make check PROFILE=debian has it)");
	ft_test_features(test, "HRTICK", NULL);
	r = watch_runs(test);
	kunit_info(test, "%d switches, longest run %llu us, %llu between ticks, %lu hrticks",
		   r.nr, r.longest / 1000, r.off_tick, ft_cpu_hrticks(0));
	KUNIT_EXPECT_GT(test, r.nr, (int)(RUN_NS / SLICE_NS / 2));
	KUNIT_EXPECT_LE_MSG(test, r.longest, SLICE_NS + 10 * 1000,
			    "a task kept the CPU %llu us past its %llu us slice",
			    (r.longest - SLICE_NS) / 1000, SLICE_NS / 1000);
	KUNIT_EXPECT_GT(test, r.off_tick, (ft_u64)r.nr / 2);
}

/*
 * HRTICK off, the same set-up. Expect every switch on a tick (within the
 * 50 us sampling), and runs longer than the slice: the slice ends at the
 * first tick after it is used up.
 */
static void without_hrtick_slice_ends_at_a_tick(struct kunit *test)
{
	struct runs r;

	ft_test_features(test, "!HRTICK", NULL);
	r = watch_runs(test);
	kunit_info(test, "%d switches, longest run %llu us, %llu between ticks",
		   r.nr, r.longest / 1000, r.off_tick);
	KUNIT_EXPECT_GT(test, r.nr, 0);
	KUNIT_EXPECT_EQ(test, r.off_tick, 0);
	KUNIT_EXPECT_GT(test, r.longest, SLICE_NS);
}

static struct kunit_case hrtick_cases[] = {
	KUNIT_CASE(slice_ends_on_time_between_ticks),
	KUNIT_CASE(without_hrtick_slice_ends_at_a_tick),
	{}
};

static struct kunit_suite hrtick_suite = {
	.name = "fair_hrtick",
	.init = ft_test_boot_one_cpu,
	.test_cases = hrtick_cases,
};

kunit_test_suite(hrtick_suite);

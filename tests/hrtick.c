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
	ft_u64 longest_of[3];	/* the same for each task watched */
	ft_u64 shortest;	/* the shortest */
	ft_u64 off_tick;	/* switches not on a tick boundary */
};

/*
 * @n CPU-bound tasks @ids on one CPU for 200 ms, looked at every @step;
 * each time the running task changes, how long the last one ran (from
 * its exec time) and whether the switch fell on a tick.
 */
static struct runs watch(struct kunit *test, const int *ids, int n, ft_u64 step)
{
	struct runs r = { .shortest = ~0ULL };
	ft_u64 in_exec, end;
	int curr = ft_curr(0);

	in_exec = ft_test_info(test, curr).exec_ns;
	end = ft_now() + RUN_NS;
	while (ft_now() < end) {
		ft_u64 ran;

		ft_run_for(step);
		if (ft_curr(0) == curr)
			continue;
		/* the task that left ran from in_exec to its exec time now */
		ran = ft_test_info(test, curr).exec_ns - in_exec;
		if (ran > r.longest)
			r.longest = ran;
		if (ran < r.shortest)
			r.shortest = ran;
		for (int i = 0; i < n; i++)
			if (ids[i] == curr && ran > r.longest_of[i])
				r.longest_of[i] = ran;
		r.off_tick += ft_now() % ft_tick_nsec() >= step;
		r.nr++;
		curr = ft_curr(0);
		in_exec = ft_test_info(test, curr).exec_ns;
	}
	return r;
}

/* Two CPU-bound nice-0 tasks with a 1.5 ms slice, watched every 50 us. */
static struct runs watch_runs(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int ids[2];

	attr.slice_ns = SLICE_NS;
	for (int i = 0; i < 2; i++) {
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
	}
	return watch(test, ids, 2, STEP_NS);
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

/*
 * HRTICK on, two CPU-bound nice-0 tasks with a 3 ms slice on one CPU. Once
 * one of them is switched to (its slice timer armed), a schedule() in the
 * middle of its slice that picks it again (run to parity protects it).
 * No switch means no set_next_task(), so no new timer: 7.2+'s __schedule()
 * keeps the one armed at the switch (it only defers an hrtick_start() made
 * inside it, hrtick_schedule_enter/exit()); 6.12's cancels it on entry
 * (hrtick_clear()), so there the task runs on to the tick.
 * Expect the same task still running after the schedule(); on 7.2+ its
 * slice to end on the hrtick, before the next tick; on 6.12 at a tick,
 * no hrtick fired.
 */
static void repicked_task_keeps_its_slice_timer(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	unsigned long fired;
	ft_u64 tick = ft_tick_nsec(), next_tick;
	int ids[2], curr;

	if (!ft_hrtick_available())
		kunit_skip(test, "profile has no SCHED_HRTICK (make check PROFILE=debian has it)");
	ft_test_features(test, "HRTICK", NULL);
	attr.slice_ns = 3000 * 1000ULL;
	for (int i = 0; i < 2; i++) {
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
	}
	/* the first switch between the two, then 0.5 ms into that slice */
	curr = ft_curr(0);
	while (ft_curr(0) == curr && ft_now() < 20 * tick)
		ft_run_for(10 * 1000);
	curr = ft_curr(0);
	KUNIT_ASSERT_TRUE(test, curr == ids[0] || curr == ids[1]);
	ft_run_for(500 * 1000);
	KUNIT_ASSERT_EQ(test, ft_curr(0), curr);
	fired = ft_cpu_hrticks(0);
	KUNIT_ASSERT_EQ(test, ft_schedule(0), 0);
	KUNIT_EXPECT_EQ(test, ft_curr(0), curr);
	next_tick = (ft_now() / tick + 1) * tick;
	while (ft_curr(0) == curr && ft_now() < next_tick + 3 * tick)
		ft_run_for(10 * 1000);
	KUNIT_EXPECT_NE(test, ft_curr(0), curr);
	kunit_info(test, "slice ended %lld us before the tick at %llu us, %lu hrticks since",
		   ((long long)next_tick - (long long)ft_now()) / 1000, next_tick / 1000,
		   ft_cpu_hrticks(0) - fired);
	if (!ft_hrtick_kept_by_schedule()) {
		KUNIT_EXPECT_EQ(test, ft_cpu_hrticks(0), fired);
		KUNIT_EXPECT_EQ(test, ft_now() % tick, 0);
		return;
	}
	KUNIT_EXPECT_GT(test, ft_cpu_hrticks(0), fired);
	KUNIT_EXPECT_LT_MSG(test, ft_now(), next_tick,
			    "the task picked again ran on to the tick: its slice timer was lost");
}

/*
 * HRTICK on and the simulator's wake-up preemption cost set to 50 us: A
 * always runs, B runs 1 ms of CPU time and sleeps 1 ms, on one CPU for
 * 100 ms, watched every microsecond. The cost is the wake-up's (the
 * interrupt's exit, schedule(), the switch); an hrtick that ends a slice
 * asks for its reschedule in an interrupt of its own, whose exit switches
 * at once, whatever ran before it, a wake-up included.
 * Expect each switch that follows an hrtick with no wake-up or tick
 * between them within the microsecond of that hrtick, never later.
 */
static void hrtick_preemption_waits_no_wake_up_cost(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	ft_u64 end, hrtick_at = 0, wake_at = 0, b_from = 0;
	unsigned long hrticks;
	int a, b, prompt = 0, late = 0;
	bool fired;
	ft_u64 switches, tick = ft_tick_nsec();

	if (!ft_hrtick_available())
		kunit_skip(test, "profile has no SCHED_HRTICK (make check PROFILE=debian has it)");
	ft_test_features(test, "HRTICK", NULL);
	a = ft_task_fork(&attr);
	b = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, a, 0);
	KUNIT_ASSERT_GT(test, b, 0);
	ft_set_wake_preempt(50 * 1000);
	end = ft_now() + 100 * NSEC_PER_MSEC;
	while (ft_now() < end) {
		hrticks = ft_cpu_hrticks(0);
		switches = ft_cpu_nr_switches(0);
		ft_run_for(1000);
		fired = ft_cpu_hrticks(0) != hrticks;
		if (ft_cpu_nr_switches(0) != switches) {
			if (fired)
				prompt++;
			/* not after a tick between them: it may have switched */
			else if (hrtick_at && ft_now() / tick == hrtick_at / tick && late++ < 3)
				kunit_info(test, "switch %llu us after the hrtick at %llu us",
					   (ft_now() - hrtick_at) / 1000, hrtick_at / 1000);
			hrtick_at = 0;
		} else if (fired) {
			hrtick_at = ft_now();
		}
		if (wake_at && ft_now() >= wake_at) {
			ft_task_wake(b);
			b_from = ft_task_exec_ns(b);
			wake_at = hrtick_at = 0;
		} else if (!wake_at && ft_curr(0) == b && ft_task_exec_ns(b) - b_from >= NSEC_PER_MSEC) {
			ft_task_sleep(b);
			wake_at = ft_now() + NSEC_PER_MSEC;
		}
	}
	ft_set_wake_preempt(0);
	kunit_info(test, "switches after an hrtick: %d at once, %d late", prompt, late);
	KUNIT_EXPECT_GT(test, prompt, 0);
	KUNIT_EXPECT_EQ_MSG(test, late, 0, "an hrtick's reschedule waited the wake-up preemption cost");
}

/*
 * The simulator's tick and hrtick preemption costs set to 60 and 30 us
 * (the wake-up's 0): two CPU-bound nice-0 tasks with a 1.5 ms slice on one
 * CPU, 100 ms with HRTICK off, then (where the profile has SCHED_HRTICK)
 * 100 ms with it on, watched every microsecond. Each cost is its own
 * handler's work before the switch it asks for, the running task going on
 * meanwhile (the guest's handler-to-switch p50, probes included: tick
 * 12 us, hrtick 10, twin/calibrate.py on a boot with timer-7.3.events).
 * Expect every switch with HRTICK off 60 us after a tick (within the
 * microsecond watched); with it on, every switch that follows an hrtick
 * with no tick between them 30 us after that hrtick (+/- 1 us), none
 * sooner.
 */
static void tick_and_hrtick_preemptions_wait_their_costs(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	ft_u64 tick = ft_tick_nsec(), end, hrtick_at = 0, off_tick = 0, early = 0, late = 0;
	int ids[2], on_tick = 0, after_hrtick = 0;
	bool hrtick = ft_hrtick_available();

	ft_test_features(test, "!HRTICK", NULL);
	attr.slice_ns = SLICE_NS;
	for (int i = 0; i < 2; i++) {
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
	}
	ft_set_tick_preempt(60 * 1000, 30 * 1000);
	end = ft_now() + 100 * NSEC_PER_MSEC;
	while (ft_now() < end) {
		ft_u64 switches = ft_cpu_nr_switches(0);

		ft_run_for(1000);
		if (ft_cpu_nr_switches(0) == switches)
			continue;
		if (ft_now() % tick >= 60 * 1000 && ft_now() % tick <= 61 * 1000)
			on_tick++;
		else if (off_tick++ < 3)
			kunit_info(test, "a switch %llu us after a tick", ft_now() % tick / 1000);
	}
	if (hrtick)
		ft_test_features(test, "HRTICK", NULL);
	end = ft_now() + 100 * NSEC_PER_MSEC;
	while (hrtick && ft_now() < end) {
		unsigned long hrticks = ft_cpu_hrticks(0);
		ft_u64 switches = ft_cpu_nr_switches(0), at;

		ft_run_for(1000);
		if (ft_cpu_hrticks(0) != hrticks)
			hrtick_at = ft_now();
		if (ft_cpu_nr_switches(0) == switches)
			continue;
		at = hrtick_at;
		hrtick_at = 0;
		/* a tick between them: that one may have switched */
		if (!at || ft_now() / tick != at / tick)
			continue;
		if (ft_now() - at < 29 * 1000)
			early++;
		else if (ft_now() - at > 31 * 1000)
			late++;
		else
			after_hrtick++;
		if (ft_now() - at < 29 * 1000 || ft_now() - at > 31 * 1000)
			kunit_info(test, "a switch %llu us after the hrtick at %llu us",
				   (ft_now() - at) / 1000, at / 1000);
	}
	ft_set_tick_preempt(0, 0);
	kunit_info(test, "switches 60 us after a tick: %d, elsewhere %llu; 30 us after an hrtick: %d, "
		   "sooner %llu, later %llu%s", on_tick, off_tick, after_hrtick, early, late,
		   hrtick ? "" : " (no SCHED_HRTICK in the profile: the tick's part only)");
	KUNIT_EXPECT_GT(test, on_tick, 0);
	KUNIT_EXPECT_EQ_MSG(test, off_tick, 0, "a tick's switch did not wait the tick's cost");
	if (hrtick)
		KUNIT_EXPECT_GT(test, after_hrtick, 0);
	KUNIT_EXPECT_EQ_MSG(test, early, 0, "an hrtick's switch did not wait the hrtick's cost");
	KUNIT_EXPECT_EQ_MSG(test, late, 0, "an hrtick's switch waited longer than its cost");
}

/*
 * HRTICK on, the simulator's arming cost of a slice's timer set to 20 us
 * (from a switch to the timer armed on __schedule()'s way out, 7.2+: the
 * timer then expires that much later than the pick asked for), two
 * CPU-bound nice-0 tasks with a 1.5 ms slice on one CPU for 200 ms,
 * watched every microsecond.
 * Expect every run from switch to switch to last the slice, the 20 us and
 * the driver's 1 us of interrupt lateness (+/- the microsecond watched):
 * nothing of the 20 us is taken from the next slice.
 */
static void slice_timer_armed_after_the_switch(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct runs r;
	int ids[2];

	if (!ft_hrtick_available())
		kunit_skip(test, "profile has no SCHED_HRTICK (make check PROFILE=debian has it)");
	if (!ft_hrtick_kept_by_schedule())
		kunit_skip(test, "the tree arms the slice's timer in the pick (7.2 on: after the switch)");
	ft_test_features(test, "HRTICK", NULL);
	attr.slice_ns = SLICE_NS;
	for (int i = 0; i < 2; i++) {
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
	}
	ft_set_hrtick_arm(20 * 1000);
	/* past each task's first slice (a new task's is half), to a switch */
	while (ft_cpu_nr_switches(0) < 4 && ft_now() < 20 * SLICE_NS)
		ft_run_for(1000);
	r = watch(test, ids, 2, 1000);
	ft_set_hrtick_arm(0);
	kunit_info(test, "%d switches, runs %llu-%llu us", r.nr, r.shortest / 1000, r.longest / 1000);
	KUNIT_EXPECT_GT(test, r.nr, (int)(RUN_NS / SLICE_NS / 2));
	KUNIT_EXPECT_GE_MSG(test, r.shortest, SLICE_NS + 20 * 1000,
			    "a run of %llu us: the timer was armed at the switch",
			    r.shortest / 1000);
	KUNIT_EXPECT_LE(test, r.longest, SLICE_NS + 22 * 1000);
}

/*
 * HRTICK on, three CPU-bound tasks at nice -5, 0 and 5 (weights 3121, 1024
 * and 335, the twin's weights workload) with a 1.5 ms slice on one CPU for
 * 200 ms, watched every 10 us. For a weight other than nice 0 the time to
 * the deadline fair.c asks the timer for, rounded down, buys a vruntime a
 * nanosecond short of that deadline; the hrtick's interrupt comes after its
 * expiry (the driver's model of it), so it must still find the slice used
 * up and move the deadline. On time to the nanosecond it would not: the
 * task keeps a deadline a nanosecond away, is picked again with no timer
 * (no switch) and runs on to the tick, and the 10 us floor on the timer
 * shows as runs of 10 us.
 * Expect the nice 5 task never to keep the CPU past its slice (+10 us),
 * as Debian's 7.3.4 under QEMU all but never does (2 of its 1571 runs in
 * three boots of the weights twin: twin/run_lengths.py light), and no task
 * to be switched in for less than 100 us.
 */
static void weighted_slice_ends_on_its_hrtick(struct kunit *test)
{
	static const int nices[3] = { -5, 0, 5 };
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct runs r;
	int ids[3];

	if (!ft_hrtick_available())
		kunit_skip(test, "profile has no SCHED_HRTICK (make check PROFILE=debian has it)");
	ft_test_features(test, "HRTICK", NULL);
	attr.slice_ns = SLICE_NS;
	for (int i = 0; i < 3; i++) {
		attr.nice = nices[i];
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
	}
	r = watch(test, ids, 3, 10 * 1000);
	kunit_info(test, "%d switches, longest run nice -5/0/5 %llu/%llu/%llu us, shortest %llu us",
		   r.nr, r.longest_of[0] / 1000, r.longest_of[1] / 1000, r.longest_of[2] / 1000,
		   r.shortest / 1000);
	KUNIT_EXPECT_GT(test, r.nr, (int)(RUN_NS / SLICE_NS / 2));
	KUNIT_EXPECT_LE_MSG(test, r.longest_of[2], SLICE_NS + 10 * 1000,
			    "the nice 5 task kept the CPU %llu us past its slice",
			    (r.longest_of[2] - SLICE_NS) / 1000);
	KUNIT_EXPECT_GE_MSG(test, r.shortest, 100 * 1000ULL,
			    "a task was switched in for %llu us: picked with its slice all but used",
			    r.shortest / 1000);
}

static struct kunit_case hrtick_cases[] = {
	KUNIT_CASE(slice_ends_on_time_between_ticks),
	KUNIT_CASE(repicked_task_keeps_its_slice_timer),
	KUNIT_CASE(weighted_slice_ends_on_its_hrtick),
	KUNIT_CASE(hrtick_preemption_waits_no_wake_up_cost),
	KUNIT_CASE(tick_and_hrtick_preemptions_wait_their_costs),
	KUNIT_CASE(slice_timer_armed_after_the_switch),
	KUNIT_CASE(without_hrtick_slice_ends_at_a_tick),
	{}
};

static struct kunit_suite hrtick_suite = {
	.name = "fair_hrtick",
	.init = ft_test_boot_one_cpu,
	.test_cases = hrtick_cases,
};

kunit_test_suite(hrtick_suite);

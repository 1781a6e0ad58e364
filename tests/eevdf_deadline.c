// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual deadlines (DESIGN.md 5.5, 5.6): vd = v + slice/w. The deadline
 * moves only when vruntime reaches it, and then to v + the weight-scaled
 * slice, with a non-custom slice refreshed from the base slice; a task
 * joining the competition starts with half a slice (PLACE_DEADLINE_INITIAL).
 */
#include "harness.h"

/*
 * slice * NICE_0 / w, which fair.c computes in fixed point with the
 * weight's 32-bit reciprocal: equal up to that reciprocal's rounding.
 */
static void expect_scaled(struct kunit *test, ft_s64 got, ft_u64 slice,
			  unsigned long weight, const char *what)
{
	ft_s64 want = (ft_s64)(slice * 1024 / weight);
	ft_s64 err = got > want ? got - want : want - got;

	KUNIT_EXPECT_LE_MSG(test, err, 1 + (want >> 20),
			    "%s: %lld, slice %llu scaled by weight %lu is %lld",
			    what, got, slice, weight, want);
}

/*
 * Two tasks at nice 5 and 0 on one CPU, sampled every 100 us for 40 ms
 * (ticks fall on samples, and a sample brings the running task's vruntime
 * up to date as the kernel's update_curr() does). Expect, at each sample,
 * the running task's deadline either unchanged and still ahead of its
 * vruntime, or moved to exactly vruntime + slice scaled by its weight.
 * Slices end at a tick here: HRTICK off.
 */
static void deadline_moves_only_when_vruntime_reaches_it(struct kunit *test)
{
	struct ft_task_info prev[3] = { 0 }, now;
	int ids[2], moved = 0;

	ft_test_features(test, "!HRTICK", NULL);
	ids[0] = ft_test_fork(test, 5, 0);
	ids[1] = ft_test_fork(test, 0, 0);
	for (int i = 0; i < 2; i++)
		prev[i + 1] = ft_test_info(test, ids[i]);
	for (int step = 0; step < 400; step++) {
		int id = ft_curr(0);

		ft_run_for(100 * 1000);
		if (id <= 0 || id != ft_curr(0))
			goto resample;
		now = ft_test_info(test, id);
		if (now.deadline == prev[id].deadline) {
			KUNIT_EXPECT_LT_MSG(test, now.vruntime, now.deadline,
					    "task %d reached its deadline and kept it", id);
		} else {
			moved++;
			KUNIT_EXPECT_GE(test, now.vruntime, prev[id].deadline);
			expect_scaled(test, now.deadline - now.vruntime, now.slice,
				      now.weight, "deadline - vruntime");
		}
resample:
		for (int i = 0; i < 2; i++)
			prev[i + 1] = ft_test_info(test, ids[i]);
	}
	KUNIT_EXPECT_GT_MSG(test, moved, 10, "too few deadline moves to test anything");
}

/*
 * A nice-0 task with the base slice and one with a custom 2 ms slice, then
 * the base slice halved (debugfs base_slice_ns), 20 ms run. Expect the
 * first to have taken the new base slice at its next deadline, and the
 * custom slice to stay 2 ms.
 */
static void non_custom_slice_follows_base_slice(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	ft_u64 base = ft_base_slice();
	int plain, custom;

	plain = ft_test_fork(test, 0, 0);
	attr.slice_ns = 2 * NSEC_PER_MSEC;
	custom = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, custom, 0);
	ft_set_base_slice(base / 2);
	ft_run_for(20 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, plain).slice, base / 2);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, custom).slice, 2 * NSEC_PER_MSEC);
	KUNIT_EXPECT_TRUE(test, ft_test_info(test, custom).custom_slice);
}

static void expect_initial_deadline(struct kunit *test, bool halved)
{
	struct ft_task_info b;

	ft_test_fork(test, 0, 0);
	ft_run_for(ft_base_slice() / 3);
	b = ft_test_info(test, ft_test_fork(test, 3, 0));
	expect_scaled(test, b.deadline - b.vruntime, halved ? b.slice / 2 : b.slice,
		      b.weight, halved ? "first deadline, halved" : "first deadline");
}

/*
 * A task running, then a nice-3 task forked next to it, with
 * PLACE_DEADLINE_INITIAL on. Expect the new task's first deadline to be
 * half its weight-scaled slice past its vruntime.
 */
static void new_task_starts_with_half_a_slice(struct kunit *test)
{
	ft_test_features(test, "PLACE_DEADLINE_INITIAL", NULL);
	expect_initial_deadline(test, true);
}

/* As above with PLACE_DEADLINE_INITIAL off. Expect a whole scaled slice. */
static void new_task_starts_with_full_slice_without_initial(struct kunit *test)
{
	ft_test_features(test, "!PLACE_DEADLINE_INITIAL", NULL);
	expect_initial_deadline(test, false);
}

static struct kunit_case deadline_cases[] = {
	KUNIT_CASE(deadline_moves_only_when_vruntime_reaches_it),
	KUNIT_CASE(non_custom_slice_follows_base_slice),
	KUNIT_CASE(new_task_starts_with_half_a_slice),
	KUNIT_CASE(new_task_starts_with_full_slice_without_initial),
	{}
};

static struct kunit_suite deadline_suite = {
	.name = "fair_eevdf_deadline",
	.init = ft_test_boot_one_cpu,
	.test_cases = deadline_cases,
};

kunit_test_suite(deadline_suite);

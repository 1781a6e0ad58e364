// SPDX-License-Identifier: GPL-2.0
/*
 * Long-run CPU shares: over a long run EEVDF gives each CPU-bound entity
 * service in proportion to its weight, with an error bounded by the lag
 * bound (a slice-sized amount) plus a tick, independent of run length.
 * Both flat (nice levels) and hierarchical (task groups) shares.
 */
#include <stdio.h>
#include "harness.h"

#define RUN_NS		(10 * NSEC_PER_SEC)

/* The service bound: a couple of slices plus a tick, whatever the run. */
static ft_u64 service_bound(void)
{
	return 2 * ft_base_slice() + 2 * ft_tick_nsec();
}

static long long abs_diff(ft_u64 a, ft_u64 b)
{
	return a > b ? (long long)(a - b) : (long long)(b - a);
}

static void expect_share(struct kunit *test, int id, ft_u64 expected)
{
	ft_u64 got = ft_test_info(test, id).exec_ns;

	kunit_info(test, "task %d: %.2f%% of the CPU (expected %.2f%%, error %lld us)", id,
		   100.0 * got / RUN_NS, 100.0 * expected / RUN_NS,
		   abs_diff(got, expected) / 1000);
	KUNIT_EXPECT_LE_MSG(test, abs_diff(got, expected), service_bound(),
			    "task %d got %llu ns, its weight entitles it to %llu ns",
			    id, got, expected);
}

/*
 * Three CPU-bound tasks at nice -5, 0 and 5 (weights 3121, 1024, 335) on
 * one CPU for 10 s. Expect each task's exec time to be its weight's share
 * of the 10 s, within 2 base slices + 2 ticks.
 */
static void nice_levels_share_cpu_by_weight(struct kunit *test)
{
	static const int nice[] = { -5, 0, 5 };
	int ids[3];
	ft_u64 total_weight = 0;

	for (int i = 0; i < 3; i++) {
		ids[i] = ft_test_fork(test, nice[i], 0);
		total_weight += ft_test_info(test, ids[i]).weight;
	}
	ft_run_for(RUN_NS);
	for (int i = 0; i < 3; i++)
		expect_share(test, ids[i],
			     RUN_NS * ft_test_info(test, ids[i]).weight / total_weight);
}

/*
 * A root task next to a group with the default 1024 shares holding two
 * tasks, on one CPU for 10 s. Expect 50% / 25% / 25% within the same bound.
 */
static void group_shares_split_hierarchically(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int root_task, grouped[2], group;

	group = ft_group_create(FT_ROOT_GROUP);
	KUNIT_ASSERT_GT(test, group, 0);
	KUNIT_ASSERT_EQ(test, ft_group_set_shares(group, 1024), 0);
	root_task = ft_test_fork(test, 0, 0);
	attr.group = group;
	for (int i = 0; i < 2; i++) {
		grouped[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, grouped[i], 0);
	}
	ft_run_for(RUN_NS);
	expect_share(test, root_task, RUN_NS / 2);
	expect_share(test, grouped[0], RUN_NS / 4);
	expect_share(test, grouped[1], RUN_NS / 4);
}

static struct kunit_case shares_cases[] = {
	KUNIT_CASE(nice_levels_share_cpu_by_weight),
	KUNIT_CASE(group_shares_split_hierarchically),
	{}
};

static struct kunit_suite shares_suite = {
	.name = "fair_shares",
	.init = ft_test_boot_one_cpu,
	.test_cases = shares_cases,
};

kunit_test_suite(shares_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * Autogroup: with CONFIG_SCHED_AUTOGROUP every session (setsid()) gets a
 * task group of its own, its processes' children join it, and the CPU is
 * shared between sessions by their groups' weights, not by how many tasks
 * each holds; /proc/PID/autogroup's nice sets that weight from the nice
 * table. The tree's own autogroup.c does the placing (shim/autogroup_unit.c:
 * setsid, fork, exit and the proc write go through it), fair.c the
 * sharing. Oracles from the definition: a group's share of a CPU is its
 * weight over the sum of the weights there, a nice level being a factor
 * of 1.25 in weight. Skipped where the profile has no autogroup (make
 * check PROFILE=debian has it).
 */
#include <errno.h>
#include "harness.h"

#define RUN_NS		(2 * NSEC_PER_SEC)
/* Shares measured over RUN_NS: a lag bound and a tick are far below this. */
#define SHARE_TOL	0.03

/* A session on CPU 0 of @n CPU-bound tasks: a leader that called setsid() and its children. */
static void session(struct kunit *test, int n, int *ids)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int ret;

	attr.cpu = 0;
	ids[0] = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, ids[0], 0);
	ret = ft_task_setsid(ids[0]);
	if (ret == -EOPNOTSUPP)
		kunit_skip(test, "%s", ft_tree_lacks("autogroup"));
	KUNIT_ASSERT_EQ(test, ret, 0);
	attr.parent = ids[0];
	for (int i = 1; i < n; i++) {
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
	}
}

static ft_u64 exec_of(struct kunit *test, const int *ids, int n)
{
	ft_u64 sum = 0;

	for (int i = 0; i < n; i++)
		sum += ft_test_info(test, ids[i]).exec_ns;
	return sum;
}

/* The weight of nice level @nice: 1024 at 0, a factor of 1.25 a level. */
static double nice_weight(int nice)
{
	double w = 1024;

	for (int i = 0; i < (nice < 0 ? -nice : nice); i++)
		w = nice < 0 ? w * 1.25 : w / 1.25;
	return w;
}

/* Runs RUN_NS; A's share of what A and B ran together. */
static double share_of_a(struct kunit *test, const int *a, int na, const int *b, int nb)
{
	ft_u64 a0 = exec_of(test, a, na), b0 = exec_of(test, b, nb), ra, rb;

	ft_run_for(RUN_NS);
	ra = exec_of(test, a, na) - a0;
	rb = exec_of(test, b, nb) - b0;
	KUNIT_ASSERT_GT(test, ra + rb, RUN_NS / 2);
	return (double)ra / (ra + rb);
}

/*
 * One CPU: session A of one CPU-bound task, session B of four (a leader
 * and three children it forked). Expect each session's tasks in its own
 * autogroup (B's children in their leader's), and, over 2 s, A to get
 * half the CPU within 3 points (sessions share by group, 1024 each), not
 * the fifth that sharing by task count would give; B's tasks a quarter
 * of B's half each.
 */
static void sessions_share_by_session_not_task_count(struct kunit *test)
{
	int a[1], b[4], ga, gb;
	double sa;
	ft_u64 b0[4];

	session(test, 1, a);
	session(test, 4, b);
	ga = ft_task_autogroup(a[0]);
	gb = ft_task_autogroup(b[0]);
	KUNIT_ASSERT_GT(test, ga, 0);
	KUNIT_ASSERT_GT(test, gb, 0);
	KUNIT_EXPECT_NE(test, ga, gb);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, a[0]).group, ga);
	for (int i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, ft_task_autogroup(b[i]), gb);
		KUNIT_EXPECT_EQ(test, ft_test_info(test, b[i]).group, gb);
		b0[i] = ft_test_info(test, b[i]).exec_ns;
	}
	sa = share_of_a(test, a, 1, b, 4);
	kunit_info(test, "session of 1 task: %.1f%%, session of 4: %.1f%% (by task count: 20/80)",
		   100 * sa, 100 * (1 - sa));
	KUNIT_EXPECT_LE(test, sa > 0.5 ? sa - 0.5 : 0.5 - sa, SHARE_TOL);
	for (int i = 0; i < 4; i++) {
		double s = (double)(ft_test_info(test, b[i]).exec_ns - b0[i]) / RUN_NS;

		KUNIT_EXPECT_LE_MSG(test, s > 0.125 ? s - 0.125 : 0.125 - s, SHARE_TOL,
				    "task %d of session B ran %.1f%%", b[i], 100 * s);
	}
}

/*
 * As above, then session B's autogroup set to nice 5 (A's stays at 0),
 * and later B back to 0 and A to 5. Expect A's share to follow the
 * groups' weights within 3 points each time: 1024 / (1024 + w(5)) =
 * 75.3% with w(n) = 1024 / 1.25^n, then 24.7%. The tasks' own nice
 * stays 0 throughout.
 */
static void autogroup_nice_moves_its_share(struct kunit *test)
{
	int a[1], b[4];
	double sa, want;

	session(test, 1, a);
	session(test, 4, b);
	KUNIT_ASSERT_EQ(test, ft_autogroup_set_nice(b[2], 5), 0);
	sa = share_of_a(test, a, 1, b, 4);
	want = 1024 / (1024 + nice_weight(5));
	kunit_info(test, "B at nice 5: A %.1f%% (weights say %.1f%%)", 100 * sa, 100 * want);
	KUNIT_EXPECT_LE(test, sa > want ? sa - want : want - sa, SHARE_TOL);

	KUNIT_ASSERT_EQ(test, ft_autogroup_set_nice(b[0], 0), 0);
	KUNIT_ASSERT_EQ(test, ft_autogroup_set_nice(a[0], 5), 0);
	sa = share_of_a(test, a, 1, b, 4);
	want = nice_weight(5) / (1024 + nice_weight(5));
	kunit_info(test, "A at nice 5: A %.1f%% (weights say %.1f%%)", 100 * sa, 100 * want);
	KUNIT_EXPECT_LE(test, sa > want ? sa - want : want - sa, SHARE_TOL);
	for (int i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, ft_test_info(test, b[i]).nice, 0);
	KUNIT_EXPECT_EQ(test, ft_autogroup_set_nice(a[0], 20), -EINVAL);
}

/*
 * A session of two tasks; both exit, each while running. Expect the
 * autogroup's task group gone with its last process (its queue on CPU 0
 * no longer there), and a task of the default session untouched in the
 * root group throughout.
 */
static void autogroup_goes_with_its_last_process(struct kunit *test)
{
	int s[2], other = ft_test_fork(test, 0, 0), g;
	struct ft_cfs_info info;

	session(test, 2, s);
	g = ft_task_autogroup(s[0]);
	KUNIT_ASSERT_GT(test, g, 0);
	KUNIT_EXPECT_EQ(test, ft_task_autogroup(other), FT_ROOT_GROUP);
	ft_run_for(20 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, ft_cfs_info(0, g, &info), 0);
	for (int i = 0; i < 2; i++) {
		int steps = 0;

		while (ft_curr(0) != s[i] && steps++ < 10000)
			ft_run_for(100 * NSEC_PER_USEC);
		KUNIT_ASSERT_EQ(test, ft_task_exit(s[i]), 0);
	}
	KUNIT_EXPECT_NE(test, ft_cfs_info(0, g, &info), 0);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, other).group, FT_ROOT_GROUP);
	ft_run_for(20 * NSEC_PER_MSEC);
	KUNIT_EXPECT_TRUE(test, ft_test_info(test, other).running);
}

static struct kunit_case autogroup_cases[] = {
	KUNIT_CASE(sessions_share_by_session_not_task_count),
	KUNIT_CASE(autogroup_nice_moves_its_share),
	KUNIT_CASE(autogroup_goes_with_its_last_process),
	{}
};

static struct kunit_suite autogroup_suite = {
	.name = "fair_autogroup",
	.init = ft_test_boot_one_cpu,
	.test_cases = autogroup_cases,
};

kunit_test_suite(autogroup_suite);

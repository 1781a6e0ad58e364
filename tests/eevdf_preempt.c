// SPDX-License-Identifier: GPL-2.0
/*
 * Wake-up preemption (DESIGN.md 5.9): with RUN_TO_PARITY a picked task
 * keeps the CPU until its slice's deadline even if a newcomer would now be
 * the EEVDF pick; with PREEMPT_SHORT an eligible wakee with a shorter slice
 * and an earlier deadline breaks that protection. Each rule with its
 * feature on and off.
 */
#include "harness.h"

/*
 * A (nice 0, base slice) forked and picked, run a third of its slice;
 * then B forked with a slice of @b_slice (0: the base slice). Returns B's
 * id, and A's in @a.
 */
static int fork_while_protected(struct kunit *test, int *a, ft_u64 b_slice)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int b;

	*a = ft_test_fork(test, 0, 0);
	KUNIT_ASSERT_EQ(test, ft_curr(0), *a);
	ft_run_for(ft_base_slice() / 3);
	attr.slice_ns = b_slice;
	b = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, b, 0);
	return b;
}

/*
 * RUN_TO_PARITY on, PREEMPT_SHORT off: A runs, then B is forked with a
 * quarter slice, so B is eligible with the earlier deadline (the EEVDF
 * pick). Expect A to keep the CPU (its slice is protected) until the
 * first tick after its deadline, and B to run then.
 * Slices end at a tick here: HRTICK off.
 */
static void run_to_parity_protects_curr_slice(struct kunit *test)
{
	int a, b;

	ft_test_features(test, "!HRTICK", "RUN_TO_PARITY", "!PREEMPT_SHORT", NULL);
	b = fork_while_protected(test, &a, ft_base_slice() / 4);
	KUNIT_EXPECT_EQ(test, ft_curr(0), a);
	ft_run_for(ft_base_slice() / 3);
	KUNIT_EXPECT_EQ(test, ft_curr(0), a);
	ft_run_for(ft_base_slice() + ft_tick_nsec());
	KUNIT_EXPECT_NE(test, ft_test_info(test, b).nr_switches_in, 0);
}

/*
 * As above with RUN_TO_PARITY off. Expect B to preempt A at once; on
 * trees that give curr a minimum quantum instead (7.x: the base slice, or
 * curr's own if shorter), expect B to run within that quantum plus the
 * tick that notices its end, never later.
 */
static void without_run_to_parity_wakee_preempts(struct kunit *test)
{
	int a, b;

	ft_test_features(test, "!RUN_TO_PARITY", "!PREEMPT_SHORT", NULL);
	b = fork_while_protected(test, &a, ft_base_slice() / 4);
	if (ft_tree_lacks("min_quantum")) {
		KUNIT_EXPECT_EQ(test, ft_curr(0), b);
		return;
	}
	ft_run_for(ft_base_slice() + ft_tick_nsec());
	KUNIT_EXPECT_NE(test, ft_test_info(test, b).nr_switches_in, 0);
}

/*
 * RUN_TO_PARITY and PREEMPT_SHORT on: B forked with a quarter slice while
 * A's slice is protected. Expect B to preempt A at once: the shorter
 * slice with the earlier deadline cancels A's protection.
 */
static void shorter_slice_wakee_preempts_protected_curr(struct kunit *test)
{
	int a, b;

	ft_test_features(test, "RUN_TO_PARITY", "PREEMPT_SHORT", NULL);
	b = fork_while_protected(test, &a, ft_base_slice() / 4);
	KUNIT_EXPECT_EQ(test, ft_curr(0), b);
}

/*
 * RUN_TO_PARITY and PREEMPT_SHORT on. A forked with a whole first slice
 * (PLACE_DEADLINE_INITIAL off) and picked, run a third of it; then B
 * forked with the same slice but half of it first (PLACE_DEADLINE_INITIAL
 * on), so B is eligible with the earlier deadline: the EEVDF pick. Expect
 * A to keep the CPU: only a shorter slice may cancel its protection.
 */
static void equal_slice_wakee_does_not_preempt(struct kunit *test)
{
	int a, b;

	ft_test_features(test, "RUN_TO_PARITY", "PREEMPT_SHORT", "!PLACE_DEADLINE_INITIAL", NULL);
	a = ft_test_fork(test, 0, 0);
	ft_run_for(ft_base_slice() / 3);
	ft_test_features(test, "PLACE_DEADLINE_INITIAL", NULL);
	b = ft_test_fork(test, 0, 0);
	KUNIT_ASSERT_LT(test, ft_test_info(test, b).deadline, ft_test_info(test, a).deadline);
	KUNIT_EXPECT_EQ(test, ft_curr(0), a);
}

static struct kunit_case preempt_cases[] = {
	KUNIT_CASE(run_to_parity_protects_curr_slice),
	KUNIT_CASE(without_run_to_parity_wakee_preempts),
	KUNIT_CASE(shorter_slice_wakee_preempts_protected_curr),
	KUNIT_CASE(equal_slice_wakee_does_not_preempt),
	{}
};

static struct kunit_suite preempt_suite = {
	.name = "fair_eevdf_preempt",
	.init = ft_test_boot_one_cpu,
	.test_cases = preempt_cases,
};

kunit_test_suite(preempt_suite);

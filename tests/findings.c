// SPDX-License-Identifier: GPL-2.0
/*
 * Exact rules that the tree's fair.c is known to break: each case tests
 * the rule as it should hold and reports, through ft_test_finding(),
 * whether the break reproduced. On a tree where sched_fair/probe.sh finds
 * the construction that causes it, a reproduced break is an expected
 * failure (a skip saying so); on any other tree it fails, and so does a
 * tree flagged for it on which it no longer reproduces.
 */
#include "harness.h"

/*
 * 40 seeded random queues of 2..64 tasks on one CPU, a third with custom
 * slices (0.1..20 ms), built by fork and short runs, so the rbtree
 * rebalances (rotations) many times. Expect cfs_rq_min_slice() to equal
 * the smallest slice queued after every fork. It does not where min_slice
 * rides in min_vruntime_update() but the rotate/copy callbacks
 * (RB_DECLARE_CALLBACKS) carry min_vruntime alone: the node that moves up
 * keeps the minimum of its old subtree, and cfs_rq_min_slice() reads the
 * root's stale value (finding "min_slice_rotation").
 */
static void min_slice_is_exact_after_tree_rotations(struct kunit *test)
{
	unsigned long long rng = kunit_case_seed(test);
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct ft_entity ents[FT_MAX_ENTITIES];
	ft_u64 have = 0, want = 0;
	bool broken = false;

	for (int round = 0; round < 40 && !broken; round++) {
		int n = 2 + ft_rand(&rng) % 63;

		KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
		for (int i = 0; i < n && !broken; i++) {
			int queued;

			attr.nice = (int)(ft_rand(&rng) % 40) - 20;
			attr.slice_ns = ft_rand(&rng) % 3 ? 0 : 100000 + ft_rand(&rng) % 20000000;
			KUNIT_ASSERT_GT(test, ft_task_fork(&attr), 0);
			ft_run_for(ft_rand(&rng) % (2 * NSEC_PER_MSEC));
			queued = ft_test_entities(test, 0, FT_ROOT_GROUP, ents);
			want = ~0ULL;
			for (int e = 0; e < queued; e++)
				want = ents[e].slice < want ? ents[e].slice : want;
			have = ft_cfs_min_slice(0, FT_ROOT_GROUP);
			broken = queued && have != want;
		}
	}
	if (broken)
		kunit_info(test, "cfs_rq_min_slice() %llu, smallest slice queued %llu", have, want);
	ft_test_finding(test, "min_slice_rotation", broken,
			"cfs_rq_min_slice() is not the smallest queued slice after rotations");
}

static struct kunit_case findings_cases[] = {
	KUNIT_CASE(min_slice_is_exact_after_tree_rotations),
	{}
};

static struct kunit_suite findings_suite = {
	.name = "fair_findings",
	.init = ft_test_boot_one_cpu,
	.test_cases = findings_cases,
};

kunit_test_suite(findings_suite);

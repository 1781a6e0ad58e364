// SPDX-License-Identifier: GPL-2.0
/*
 * Exact rules that the tree's fair.c is known to break: each case tests
 * the rule as it should hold and reports, through ft_test_finding(),
 * whether the break reproduced. On a tree where sched_fair/probe.sh finds
 * the construction that causes it, a reproduced break is an expected
 * failure (a skip saying so); on any other tree it fails, and so does a
 * tree flagged for it on which it no longer reproduces.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"

/*
 * 40 seeded random queues of 2..64 tasks on one CPU, a third with custom
 * slices (0.1..20 ms), built by fork and short runs, so the rbtree
 * rebalances (rotations) many times. Expect cfs_rq_min_slice() to equal
 * the smallest slice queued after every fork. It does not where min_slice
 * rides in min_vruntime_update() but the rotate/copy callbacks
 * (RB_DECLARE_CALLBACKS) carry min_vruntime alone: the node that moves up
 * keeps the minimum of its old subtree, and cfs_rq_min_slice() reads the
 * root's stale value (finding "min_slice_rotation"). Only that is the
 * finding: a wrong value with no rotation or successor copy below the
 * root (ft_cfs_min_slice_excused()) fails here, as the checker fails any
 * wrong node with none below it.
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
	if (broken) {
		kunit_info(test, "cfs_rq_min_slice() %llu, smallest slice queued %llu", have, want);
		KUNIT_ASSERT_TRUE_MSG(test, ft_cfs_min_slice_excused(0, FT_ROOT_GROUP),
				      "no rotation or copy below the root: not the finding's signature");
	}
	ft_test_finding(test, "min_slice_rotation", broken,
			"cfs_rq_min_slice() is not the smallest queued slice after rotations");
}

static ft_s64 lag_of(struct kunit *test, int id)
{
	return ft_test_exact_v(test, 0, FT_ROOT_GROUP) - ft_test_info(test, id).vruntime;
}

/*
 * EEVDF's bound (Stoica et al.): a task's lag stays within -r_max < lag <
 * max(r_max, q), r_max the largest request (slice) queued, q the quantum
 * (a tick here); a clamp within that bound cuts lag the algorithm itself
 * can produce. One CPU, nice 0, RUN_TO_PARITY without PREEMPT_SHORT: A
 * (100 ms slice) runs protected while B (5 ms) waits (30 ms; 3 ms where
 * B's arrival cuts A's protection to B's slice, 7.x), then B is requeued
 * (a nice change to the same nice). Expect B's lag, owed inside r_max =
 * 100 ms, kept. It is cut where the clamp is the entity's own max(2 x
 * slice, tick) (finding "lag_clamp_own_slice": 15 ms owed, 10 ms kept);
 * the queue's largest slice plus a tick (7.x) is never below the bound.
 */
static void lag_within_eevdf_bound_survives_requeue(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	ft_s64 before, after, r_max = 100 * NSEC_PER_MSEC;
	bool broken;
	int a, b;

	ft_test_features(test, "RUN_TO_PARITY", "!PREEMPT_SHORT", "PLACE_LAG", "?!DELAY_DEQUEUE", NULL);
	attr.slice_ns = r_max;
	a = ft_task_fork(&attr);
	attr.slice_ns = 5 * NSEC_PER_MSEC;
	b = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, b, a);
	ft_run_for((ft_tree_lacks("queue_lag_clamp") ? 30 : 3) * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), a);
	before = lag_of(test, b);
	KUNIT_ASSERT_GT(test, before, 0);
	KUNIT_ASSERT_LT(test, before, r_max);
	KUNIT_ASSERT_EQ(test, ft_task_set_nice(b, 0), 0);
	after = lag_of(test, b);
	broken = before - after > 2;
	if (broken)
		kunit_info(test, "B owed %lld ns, r_max %lld ns, kept %lld ns", before, r_max, after);
	ft_test_finding(test, "lag_clamp_own_slice", broken,
			"the lag clamp cuts a lag within EEVDF's bound (r_max, the largest slice queued)");
}

/*
 * Every named topology booted with its sched domains and shut down again
 * (the domains torn down as CPU hotplug detaches them). Expect every slab
 * object topology.c allocated to be freed. It is not where the sd_llc /
 * sd_balance_shared split (7.2, 7.3) claims a sched_domain_shared twice for one
 * domain: an asymmetric-capacity machine whose SD_ASYM_CPUCAPACITY_FULL
 * domain is also its topmost SD_SHARE_LLC one gets the asym claim, then
 * the LLC claim overwrites sd->shared, and the first object's reference
 * is never dropped (finding "sds_double_claim").
 */
static void domain_teardown_frees_every_shared_object(struct kunit *test)
{
	char leaky[160] = "";
	bool broken = false;

	for (int i = 0; i < ft_topology_count(); i++) {
		const struct ft_topology *topo = ft_topology_get(i);
		long before = ft_slab_live(), after;

		KUNIT_ASSERT_EQ(test, ft_boot_topology(topo), 0);
		ft_shutdown();
		after = ft_slab_live();
		if (after != before) {
			broken = true;
			snprintf(leaky + strlen(leaky), sizeof(leaky) - strlen(leaky), "%s%s (%ld)",
				 *leaky ? ", " : "", topo->name, after - before);
		}
	}
	if (broken)
		kunit_info(test, "slab objects left after teardown: %s", leaky);
	ft_test_finding(test, "sds_double_claim", broken,
			"a topology's teardown leaves sched_domain_shared objects allocated");
}

static struct kunit_case findings_cases[] = {
	KUNIT_CASE(min_slice_is_exact_after_tree_rotations),
	KUNIT_CASE(lag_within_eevdf_bound_survives_requeue),
	KUNIT_CASE(domain_teardown_frees_every_shared_object),
	{}
};

static struct kunit_suite findings_suite = {
	.name = "fair_findings",
	.init = ft_test_boot_one_cpu,
	.test_cases = findings_cases,
};

kunit_test_suite(findings_suite);

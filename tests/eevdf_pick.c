// SPDX-License-Identifier: GPL-2.0
/*
 * The EEVDF pick (DESIGN.md 5.2-5.4): V is left-biased so an entity at V
 * is eligible; pick_eevdf() returns the eligible entity with the earliest
 * virtual deadline; the augmented tree answers "is anything in this
 * subtree eligible" and "what is the smallest slice queued". The oracles
 * scan every queued entity with 128-bit sums, on seeded random queues.
 */
#include "harness.h"

/* Exact: lag(v) >= 0 <=> sum over the queue of w_i * (v_i - v) >= 0. */
static bool exactly_eligible(const struct ft_entity *ents, int n, ft_s64 v)
{
	__int128 sum = 0;

	for (int i = 0; i < n; i++)
		sum += (__int128)ents[i].avg_weight * (ents[i].vruntime - v);
	return sum >= 0;
}

/* The brute-force EEVDF choice: eligible, then earliest deadline. */
static const struct ft_entity *brute_force_pick(const struct ft_entity *ents, int n)
{
	const struct ft_entity *best = NULL;

	for (int i = 0; i < n; i++) {
		if (!exactly_eligible(ents, n, ents[i].vruntime))
			continue;
		if (!best || ents[i].deadline < best->deadline)
			best = &ents[i];
	}
	return best;
}

/* A random queue on CPU 0: n tasks of random nice and slice, run a while. */
static void random_queue(struct kunit *test, unsigned long long *rng, int n)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;

	for (int i = 0; i < n; i++) {
		attr.nice = (int)(ft_rand(rng) % 40) - 20;
		attr.slice_ns = ft_rand(rng) % 3 ? 0 : 100000 + ft_rand(rng) % 20000000;
		KUNIT_ASSERT_GT(test, ft_task_fork(&attr), 0);
		ft_run_for(ft_rand(rng) % (2 * NSEC_PER_MSEC));
	}
}

/*
 * 40 random queues of 2..64 tasks (nice -20..19, a third with a custom
 * slice of 0.1..20 ms), each run for a random time, RUN_TO_PARITY off so
 * no slice protection applies. Expect pick_eevdf() to return an entity
 * that is exactly eligible and has the earliest deadline among all
 * exactly-eligible queued entities, curr included, at every probe.
 */
static void pick_is_earliest_eligible_deadline(struct kunit *test)
{
	unsigned long long rng = kunit_case_seed(test);
	struct ft_entity ents[FT_MAX_ENTITIES], pick;
	const struct ft_entity *want;

	ft_test_features(test, "!RUN_TO_PARITY", NULL);
	for (int round = 0; round < 40; round++) {
		int n;

		KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
		ft_test_features(test, "!RUN_TO_PARITY", NULL);
		random_queue(test, &rng, 2 + ft_rand(&rng) % 63);
		for (int probe = 0; probe < 8; probe++) {
			ft_run_for(ft_rand(&rng) % ft_tick_nsec());
			n = ft_test_entities(test, 0, FT_ROOT_GROUP, ents);
			if (n < 2)
				continue;
			want = brute_force_pick(ents, n);
			KUNIT_ASSERT_NOT_NULL(test, want);
			KUNIT_ASSERT_EQ(test, ft_cfs_pick_eevdf(0, FT_ROOT_GROUP, false, &pick), 0);
			KUNIT_EXPECT_TRUE_MSG(test, exactly_eligible(ents, n, pick.vruntime),
					      "round %d: picked task %d is not eligible", round, pick.task);
			KUNIT_EXPECT_EQ_MSG(test, pick.deadline, want->deadline,
					    "round %d: picked task %d, brute force task %d",
					    round, pick.task, want->task);
		}
	}
}

/*
 * Two tasks: A forked and picked (its slice protected), run an eighth of
 * a slice, then B forked with a quarter slice, so B's deadline is earlier;
 * RUN_TO_PARITY on, PREEMPT_SHORT off. Expect pick_eevdf() to keep returning A while A is eligible and
 * protected, although B's deadline is earlier.
 */
static void protected_curr_is_picked_over_earlier_deadline(struct kunit *test)
{
	struct ft_entity ents[FT_MAX_ENTITIES], pick;
	int a, b, n;

	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;

	ft_test_features(test, "RUN_TO_PARITY", "!PREEMPT_SHORT", "PLACE_DEADLINE_INITIAL", NULL);
	a = ft_test_fork(test, 0, 0);
	ft_run_for(ft_base_slice() / 8);
	attr.slice_ns = ft_base_slice() / 4;
	b = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, b, 0);
	KUNIT_ASSERT_EQ(test, ft_curr(0), a);
	n = ft_test_entities(test, 0, FT_ROOT_GROUP, ents);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_ASSERT_LT(test, ft_test_info(test, b).deadline, ft_test_info(test, a).deadline);
	KUNIT_ASSERT_TRUE(test, ents[1].curr && ents[1].protected && ents[1].eligible);
	KUNIT_ASSERT_EQ(test, ft_cfs_pick_eevdf(0, FT_ROOT_GROUP, true, &pick), 0);
	KUNIT_EXPECT_EQ(test, pick.task, a);
}

/*
 * 40 random queues as above. Expect V (avg_vruntime()) to be eligible
 * (its left bias), every tree node's augmented min_vruntime to be no
 * larger than its own vruntime and the smallest of them to equal the
 * tree's brute-force minimum. (The checker walks every subtree after each
 * operation; this is the view from outside. min_slice: tests/findings.c.)
 */
static void min_vruntime_augment_and_left_biased_v(struct kunit *test)
{
	unsigned long long rng = kunit_case_seed(test);
	struct ft_entity ents[FT_MAX_ENTITIES];

	for (int round = 0; round < 40; round++) {
		ft_s64 min_v = 0, min_aug_v = 0;
		bool first = true;
		int n;

		KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
		random_queue(test, &rng, 2 + ft_rand(&rng) % 63);
		n = ft_test_entities(test, 0, FT_ROOT_GROUP, ents);
		for (int i = 0; i < n; i++) {
			if (!ents[i].in_tree)
				continue;
			KUNIT_EXPECT_LE(test, ents[i].min_vruntime, ents[i].vruntime);
			if (first || ents[i].vruntime < min_v)
				min_v = ents[i].vruntime;
			if (first || ents[i].min_vruntime < min_aug_v)
				min_aug_v = ents[i].min_vruntime;
			first = false;
		}
		KUNIT_EXPECT_EQ_MSG(test, min_aug_v, min_v, "round %d", round);
		KUNIT_EXPECT_EQ_MSG(test, ft_cfs_vruntime_eligible(0, FT_ROOT_GROUP,
					ft_cfs_avg_vruntime(0, FT_ROOT_GROUP)), 1, "round %d", round);
	}
}

/*
 * min_slice is checked exactly wherever the tree's callbacks cannot have
 * left it stale (on a tree with the min_slice_rotation finding, any node
 * with no rotation or successor copy below it). One CPU: A runs; B (3 ms
 * slice) and then C (0.5 ms slice, nice 19, so its deadline is the later)
 * are forked: B is the root, C its right child, and a tree of two never
 * rotates. Expect cfs_rq_min_slice() to be C's 0.5 ms, no node excused,
 * and the checker to have held min_slice exact at some node.
 */
static void min_slice_is_exact_in_a_tree_that_never_rotated(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct ft_entity ents[FT_MAX_ENTITIES];
	ft_u64 exact = ft_min_slice_exact_checks();
	int a, b, c, n;

	ft_test_features(test, "RUN_TO_PARITY", "!PREEMPT_SHORT", NULL);
	a = ft_test_fork(test, 0, 0);
	attr.slice_ns = 3 * NSEC_PER_MSEC;
	b = ft_task_fork(&attr);
	attr.slice_ns = 500 * NSEC_PER_USEC;
	attr.nice = 19;
	c = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, b, 0);
	KUNIT_ASSERT_GT(test, c, 0);
	KUNIT_ASSERT_EQ(test, ft_curr(0), a);
	n = ft_test_entities(test, 0, FT_ROOT_GROUP, ents);
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_ASSERT_TRUE_MSG(test, ents[0].task == b && ents[1].task == c,
			      "tree order: task %d, then %d", ents[0].task, ents[1].task);
	KUNIT_EXPECT_FALSE(test, ft_cfs_min_slice_excused(0, FT_ROOT_GROUP));
	KUNIT_EXPECT_EQ(test, ft_cfs_min_slice(0, FT_ROOT_GROUP), 500 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, ents[0].min_slice, 500 * NSEC_PER_USEC);
	KUNIT_EXPECT_GT(test, ft_min_slice_exact_checks(), exact);
}

/*
 * An entity with two children dequeued and enqueued again by an attribute
 * change, where the erase needs no rebalancing: the successor copied into
 * its place keeps its own min_slice (on a tree with the min_slice_rotation
 * finding) and the shim sees no gap in which the entity was gone. The
 * operations of property sequence 79135 (shrunk), on 3 CPUs: task 6 (0.68
 * ms slice, the smallest on CPU 1) reset to the base slice. Expect every
 * invariant to hold: on a tree with the finding, the stale root excused
 * (the copy is the finding's signature), elsewhere cfs_rq_min_slice() the
 * smallest slice queued on CPU 1.
 */
static void min_slice_copy_on_requeue_is_the_finding(struct kunit *test)
{
	static const struct { int cpu, nice; ft_u64 slice; } forks[] = {
		{ 1, 14, 69479128 }, { 1, 8, 0 }, { 1, -11, 61121988 }, { 1, -18, 0 },
	}, later[] = {
		{ 1, 9, 676552 }, { 1, -15, 0 }, { 2, 9, 0 }, { 0, 1, 0 }, { 1, 15, 0 },
		{ 2, 11, 0 }, { 2, 12, 0 }, { 0, -19, 0 }, { 1, -18, 0 },
	};
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct ft_entity ents[FT_MAX_ENTITIES];
	ft_u64 want = ~0ULL;
	int n;

	KUNIT_ASSERT_EQ(test, ft_boot(3), 0);
	for (int i = 0; i < 4; i++) {
		attr.cpu = forks[i].cpu;
		attr.nice = forks[i].nice;
		attr.slice_ns = forks[i].slice;
		KUNIT_ASSERT_EQ(test, ft_task_fork(&attr), i + 1);
	}
	KUNIT_ASSERT_EQ(test, ft_curr(1), 2);
	KUNIT_ASSERT_EQ(test, ft_task_sleep(2), 0);
	attr.cpu = 0;
	attr.nice = -9;
	attr.slice_ns = 0;
	KUNIT_ASSERT_EQ(test, ft_task_fork(&attr), 5);
	KUNIT_ASSERT_EQ(test, ft_task_set_slice(3, 56701518), 0);
	KUNIT_ASSERT_EQ(test, ft_task_wake(2), 0);
	for (int i = 0; i < 9; i++) {
		attr.cpu = later[i].cpu;
		attr.nice = later[i].nice;
		attr.slice_ns = later[i].slice;
		KUNIT_ASSERT_EQ(test, ft_task_fork(&attr), i + 6);
	}
	KUNIT_ASSERT_EQ(test, ft_task_set_slice(2, 0), 0);
	attr.cpu = 0;
	attr.nice = -2;
	KUNIT_ASSERT_EQ(test, ft_task_fork(&attr), 15);
	KUNIT_ASSERT_EQ(test, ft_task_set_slice(6, 0), 0);
	n = ft_test_entities(test, 1, FT_ROOT_GROUP, ents);
	KUNIT_ASSERT_GT(test, n, 2);
	for (int i = 0; i < n; i++)
		want = ents[i].slice < want ? ents[i].slice : want;
	if (ft_tree_has_finding("min_slice_rotation"))
		KUNIT_EXPECT_TRUE_MSG(test, ft_cfs_min_slice_excused(1, FT_ROOT_GROUP),
				      "no successor copy below the root: the sequence no longer shows the finding");
	if (ft_cfs_min_slice(1, FT_ROOT_GROUP) != want)
		KUNIT_EXPECT_TRUE_MSG(test, ft_cfs_min_slice_excused(1, FT_ROOT_GROUP),
				      "cfs_rq_min_slice() %llu, smallest queued %llu, nothing excused",
				      ft_cfs_min_slice(1, FT_ROOT_GROUP), want);
}

static struct kunit_case pick_cases[] = {
	KUNIT_CASE(pick_is_earliest_eligible_deadline),
	KUNIT_CASE(protected_curr_is_picked_over_earlier_deadline),
	KUNIT_CASE(min_vruntime_augment_and_left_biased_v),
	KUNIT_CASE(min_slice_is_exact_in_a_tree_that_never_rotated),
	KUNIT_CASE(min_slice_copy_on_requeue_is_the_finding),
	{}
};

static struct kunit_suite pick_suite = {
	.name = "fair_eevdf_pick",
	.init = ft_test_boot_one_cpu,
	.test_cases = pick_cases,
};

kunit_test_suite(pick_suite);

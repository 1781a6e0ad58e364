// SPDX-License-Identifier: GPL-2.0
/*
 * Lag (DESIGN.md 5.6-5.8, 5.11): what an entity is owed, V - v, is stored
 * in vlag when it leaves the queue, clamped, and given back on return
 * (PLACE_LAG), compensated for the weight it adds to V. A reweight keeps V
 * and w * lag. A sleeper that is owed nothing stays queued, delayed, until
 * its debt is paid (DELAY_DEQUEUE), and leaves no credit (DELAY_ZERO).
 * Oracles compute V exactly from every queued entity (ft_exact_v()).
 */
#include "harness.h"

/* Exact V - v of a task on CPU 0, both as of now. */
static ft_s64 lag_of(struct kunit *test, int id)
{
	ft_s64 v = ft_test_exact_v(test, 0, FT_ROOT_GROUP);

	return v - ft_test_info(test, id).vruntime;
}

/* Runs until @id is picked, then puts it to sleep: it was eligible. */
static void sleep_when_picked(struct kunit *test, int id)
{
	for (int step = 0; ft_curr(0) != id; step++) {
		KUNIT_ASSERT_LT_MSG(test, step, 1000, "task %d never picked", id);
		ft_run_for(100 * 1000);
	}
	KUNIT_ASSERT_EQ(test, ft_task_sleep(id), 0);
}

static void expect_placement(struct kunit *test, bool keep_lag)
{
	ft_s64 vlag, placed;
	int c;

	ft_test_fork(test, 0, 0);
	ft_test_fork(test, -3, 0);
	c = ft_test_fork(test, 2, 0);
	ft_run_for(3 * ft_base_slice());
	sleep_when_picked(test, c);
	vlag = ft_test_info(test, c).vlag;
	KUNIT_ASSERT_NE_MSG(test, vlag, 0, "the sleeper must carry lag for this test");
	ft_run_for(5 * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_task_wake(c), 0);
	placed = lag_of(test, c);
	if (keep_lag)
		KUNIT_EXPECT_TRUE_MSG(test, placed - vlag <= 2 && vlag - placed <= 2,
				      "lag %lld before sleeping, %lld after placement", vlag, placed);
	else
		KUNIT_EXPECT_TRUE_MSG(test, placed <= 1 && placed >= -1,
				      "lag %lld after placement without PLACE_LAG", placed);
}

/*
 * Three tasks (nice 0, -3, 2); the nice-2 one sleeps as soon as it is
 * picked (so with lag >= 0), the others run 5 ms, then it wakes; PLACE_LAG
 * on (sleeper lag decay off, on trees that have it: the rule is about
 * placement, not about what sleeping costs). Expect V' - v right after the wake-up, with V' exact over the new
 * queue, to equal the vlag stored at sleep within 2 ns of rounding: the
 * placement compensated for the weight the sleeper adds to V.
 */
static void placement_keeps_stored_lag(struct kunit *test)
{
	ft_test_features(test, "PLACE_LAG", "?!SLEEP_LAG_DECAY", NULL);
	expect_placement(test, true);
}

/* As above with PLACE_LAG off. Expect the sleeper placed at V (lag 0 +-1). */
static void placement_at_v_without_place_lag(struct kunit *test)
{
	ft_test_features(test, "!PLACE_LAG", NULL);
	expect_placement(test, false);
}

/*
 * A runs with a 100 ms custom slice (protected, RUN_TO_PARITY; PREEMPT_SHORT
 * off) while B, with a 5 ms slice, waits 30 ms, so B is owed ~15 ms, more
 * than its limit 2 * 5 ms. B is then dequeued and requeued (a nice change
 * to the same nice, as core.c does). Expect B's lag after the requeue to
 * be exactly the limit: the dequeue clamped it, the placement kept it.
 * Where the limit is the queue's largest slice plus a tick (7.x), B's
 * arrival cuts A's protection to 5 ms: after 3 ms B's lag is far inside
 * A's 100 ms; expect it kept as it was.
 */
static void dequeue_clamps_lag_to_limit(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	ft_s64 limit, before, after;
	int a, b;

	ft_test_features(test, "RUN_TO_PARITY", "!PREEMPT_SHORT", "PLACE_LAG", NULL);
	attr.slice_ns = 100 * NSEC_PER_MSEC;
	a = ft_task_fork(&attr);
	attr.slice_ns = 5 * NSEC_PER_MSEC;
	b = ft_task_fork(&attr);
	/* nice 0: no weight scaling; the tick must not set the bound */
	limit = 2 * attr.slice_ns;
	KUNIT_ASSERT_GT(test, limit, ft_tick_nsec());
	KUNIT_ASSERT_GT(test, b, a);
	if (!ft_tree_lacks("queue_lag_clamp")) {
		/*
		 * 7.x: B's arrival cuts A's protection to B's 5 ms, so B
		 * waits 3 ms; the limit is A's 100 ms plus a tick.
		 */
		ft_run_for(3 * NSEC_PER_MSEC);
		KUNIT_ASSERT_EQ(test, ft_curr(0), a);
		before = lag_of(test, b);
		KUNIT_ASSERT_GT(test, before, 0);
		limit = 100 * NSEC_PER_MSEC + ft_tick_nsec();
		KUNIT_ASSERT_LT(test, before, limit);
		KUNIT_ASSERT_EQ(test, ft_task_set_nice(b, 0), 0);
		after = lag_of(test, b);
		KUNIT_EXPECT_TRUE_MSG(test, after - before <= 2 && before - after <= 2,
				      "lag %lld before the requeue, %lld after, limit %lld",
				      before, after, limit);
		return;
	}
	ft_run_for(30 * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), a);
	before = lag_of(test, b);
	KUNIT_ASSERT_GT_MSG(test, before, limit, "B must be owed more than its limit");
	KUNIT_ASSERT_EQ(test, ft_task_set_nice(b, 0), 0);
	after = lag_of(test, b);
	KUNIT_EXPECT_TRUE_MSG(test, after - limit <= 2 && limit - after <= 2,
			      "lag %lld before the requeue, %lld after, limit %lld",
			      before, after, limit);
}

/*
 * Three nice-0 tasks run 7 ms, then a queued, not running one is reniced
 * to 5 (dequeue, reweight, enqueue, as core.c does). Expect V unchanged
 * (within 2 ns) and w * lag unchanged (within the new weight times 2 ns).
 */
static void reweight_keeps_v_and_weighted_lag(struct kunit *test)
{
	ft_s64 v, v2, lag, lag2;
	unsigned long w, w2;
	int ids[3], x = 0;

	ft_test_features(test, "PLACE_LAG", NULL);
	for (int i = 0; i < 3; i++)
		ids[i] = ft_test_fork(test, 0, 0);
	ft_run_for(7 * NSEC_PER_MSEC);
	for (int i = 0; i < 3 && !x; i++)
		if (ids[i] != ft_curr(0) && lag_of(test, ids[i]))
			x = ids[i];
	KUNIT_ASSERT_GT_MSG(test, x, 0, "no queued task with lag");
	v = ft_test_exact_v(test, 0, FT_ROOT_GROUP);
	lag = lag_of(test, x);
	w = ft_test_info(test, x).weight;
	KUNIT_ASSERT_EQ(test, ft_task_set_nice(x, 5), 0);
	v2 = ft_test_exact_v(test, 0, FT_ROOT_GROUP);
	lag2 = lag_of(test, x);
	w2 = ft_test_info(test, x).weight;
	KUNIT_ASSERT_NE(test, w, w2);
	KUNIT_EXPECT_TRUE_MSG(test, v2 - v <= 2 && v - v2 <= 2, "V %lld before, %lld after", v, v2);
	KUNIT_EXPECT_TRUE_MSG(test, (__int128)w * lag - (__int128)w2 * lag2 <= 2 * (__int128)w2 &&
				    (__int128)w2 * lag2 - (__int128)w * lag <= 2 * (__int128)w2,
			      "w*lag %lld*%lld before, %lld*%lld after", (long long)w, lag,
			      (long long)w2, lag2);
}

/* Two nice-0 tasks; A (100 ms slice) runs 2 ms past B, then sleeps. */
static int sleep_while_ineligible(struct kunit *test, ft_s64 *lag)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int a;

	attr.slice_ns = 100 * NSEC_PER_MSEC;
	a = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, a, 0);
	ft_test_fork(test, 0, 0);
	ft_run_for(2 * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), a);
	*lag = lag_of(test, a);
	KUNIT_ASSERT_LT_MSG(test, *lag, 0, "A must be ineligible when it sleeps");
	KUNIT_ASSERT_EQ(test, ft_task_sleep(a), 0);
	return a;
}

/*
 * RUN_TO_PARITY, PREEMPT_SHORT off, DELAY_DEQUEUE on: A sleeps while
 * ineligible (see sleep_while_ineligible()). Expect A still queued and
 * sched_delayed with its vruntime kept; then, woken at once, queued and
 * no longer delayed with the same vruntime (requeued, not placed).
 */
static void ineligible_sleeper_stays_queued_delayed(struct kunit *test)
{
	struct ft_task_info before, after;
	ft_s64 lag;
	int a;

	ft_test_features(test, "RUN_TO_PARITY", "!PREEMPT_SHORT", "DELAY_DEQUEUE", NULL);
	a = sleep_while_ineligible(test, &lag);
	before = ft_test_info(test, a);
	KUNIT_EXPECT_TRUE(test, before.on_rq);
	KUNIT_EXPECT_TRUE(test, before.sched_delayed);
	KUNIT_ASSERT_EQ(test, ft_task_wake(a), 0);
	after = ft_test_info(test, a);
	KUNIT_EXPECT_TRUE(test, after.on_rq);
	KUNIT_EXPECT_FALSE(test, after.sched_delayed);
	KUNIT_EXPECT_EQ(test, after.vruntime, before.vruntime);
}

/*
 * As above with DELAY_DEQUEUE off. Expect A dequeued at once, not delayed,
 * with vlag equal to its exact (negative) lag at the sleep.
 */
static void ineligible_sleeper_leaves_without_delay_dequeue(struct kunit *test)
{
	struct ft_task_info info;
	ft_s64 lag;
	int a;

	ft_test_features(test, "RUN_TO_PARITY", "!PREEMPT_SHORT", "!DELAY_DEQUEUE", NULL);
	a = sleep_while_ineligible(test, &lag);
	info = ft_test_info(test, a);
	KUNIT_EXPECT_FALSE(test, info.on_rq);
	KUNIT_EXPECT_FALSE(test, info.sched_delayed);
	KUNIT_EXPECT_TRUE_MSG(test, info.vlag - lag <= 1 && lag - info.vlag <= 1,
			      "vlag %lld, exact lag at sleep %lld", info.vlag, lag);
}

/* Runs until the delayed sleeper is picked and so leaves the queue. */
static struct ft_task_info delayed_sleeper_leaves(struct kunit *test)
{
	struct ft_task_info info;
	ft_s64 lag;
	int a;

	a = sleep_while_ineligible(test, &lag);
	for (int step = 0; ; step++) {
		info = ft_test_info(test, a);
		if (!info.on_rq)
			break;
		KUNIT_ASSERT_LT_MSG(test, step, 1000, "delayed task never left the queue");
		ft_run_for(100 * 1000);
	}
	KUNIT_EXPECT_FALSE(test, info.sched_delayed);
	return info;
}

/*
 * DELAY_DEQUEUE and DELAY_ZERO on: A sleeps ineligible and stays queued
 * until its lag is paid and it is picked. Expect it then dequeued with
 * vlag exactly 0: the credit it had at that moment is dropped.
 */
static void delayed_sleeper_leaves_with_zero_lag(struct kunit *test)
{
	ft_test_features(test, "RUN_TO_PARITY", "!PREEMPT_SHORT", "DELAY_DEQUEUE",
			 "DELAY_ZERO", NULL);
	KUNIT_EXPECT_EQ(test, delayed_sleeper_leaves(test).vlag, 0);
}

/*
 * As above with DELAY_ZERO off. Expect the positive lag it had when picked
 * (it was eligible, and the other task ran on past it) kept in vlag.
 */
static void delayed_sleeper_keeps_credit_without_delay_zero(struct kunit *test)
{
	ft_test_features(test, "RUN_TO_PARITY", "!PREEMPT_SHORT", "DELAY_DEQUEUE",
			 "!DELAY_ZERO", NULL);
	KUNIT_EXPECT_GT(test, delayed_sleeper_leaves(test).vlag, 0);
}

static void expect_deadline_after_migration(struct kunit *test, bool relative)
{
	struct ft_task_info before, after;
	int b;

	ft_test_fork(test, 0, 0);
	ft_test_fork(test, 0, 1);
	ft_run_for(ft_base_slice() / 4);
	b = ft_test_fork(test, 0, 0);
	before = ft_test_info(test, b);
	KUNIT_ASSERT_FALSE(test, before.running);
	KUNIT_ASSERT_EQ(test, ft_task_migrate(b, 1), 0);
	after = ft_test_info(test, b);
	KUNIT_EXPECT_EQ(test, after.deadline - after.vruntime,
			relative ? before.deadline - before.vruntime : (ft_s64)after.slice);
}

/*
 * Two CPUs, each running a task; a new task queued on CPU 0 (deadline half
 * a slice ahead) is migrated to CPU 1; PLACE_REL_DEADLINE on. Expect its
 * deadline - vruntime on CPU 1 to be what it was on CPU 0.
 */
static void migration_keeps_relative_deadline(struct kunit *test)
{
	ft_test_features(test, "PLACE_REL_DEADLINE", "PLACE_DEADLINE_INITIAL", NULL);
	expect_deadline_after_migration(test, true);
}

/* As above with PLACE_REL_DEADLINE off. Expect a fresh whole slice. */
static void migration_renews_deadline_without_rel_deadline(struct kunit *test)
{
	ft_test_features(test, "!PLACE_REL_DEADLINE", "PLACE_DEADLINE_INITIAL", NULL);
	expect_deadline_after_migration(test, false);
}

/* The root queue's entity of a task or a group (task 0), or NULL. */
static const struct ft_entity *find_entity(const struct ft_entity *ents, int n, int task, int group)
{
	for (int i = 0; i < n; i++)
		if (ents[i].task == task && (task || ents[i].group == group))
			return &ents[i];
	return NULL;
}

/*
 * A root task R and a group G (two tasks) on one CPU run 7 ms; then, at a
 * moment R is curr and so G's entity waits queued, R runs on until G's
 * entity is owed at least 200 us (at a switch their vruntimes meet, and a
 * lag of 0 is kept by any reweight, right or wrong), and G's shares go
 * from 1024 to 3072: update_cfs_group() reweights a queued entity (the
 * on-rq branch of reweight_entity(); with a flat pick, G's tasks' h_load).
 * Expect V unchanged (within 2 ns) and, for every waiting entity whose
 * weight changed, w * lag unchanged (within its new weight times 2 ns,
 * the rounding of one division each way); where groups have entities in
 * the tree, G's to be one of them; with a flat pick, none yet (each takes
 * its new weight at its next pick). R's run on ends at a tick: HRTICK off.
 */
static void queued_group_reweight_keeps_v_and_weighted_lag(struct kunit *test)
{
	struct ft_entity before[FT_MAX_ENTITIES], after[FT_MAX_ENTITIES];
	const ft_s64 owed = 200 * NSEC_PER_USEC;
	const struct ft_entity *ge = NULL;
	int r, g, nb, na, changed = 0;
	ft_s64 v = 0, v2;

	ft_test_features(test, "PLACE_LAG", "!HRTICK", NULL);
	g = ft_group_create(FT_ROOT_GROUP);
	KUNIT_ASSERT_GT(test, g, 0);
	r = ft_test_fork(test, 0, 0);
	for (int i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, ft_task_set_group(ft_test_fork(test, 0, 0), g), 0);
	ft_run_for(7 * NSEC_PER_MSEC);
	for (int step = 0; step < 100 && ft_curr(0) != r; step++)
		ft_run_for(100 * NSEC_PER_USEC);
	for (int step = 0; step < 100; step++) {	/* R runs on; G's entity is owed more */
		KUNIT_ASSERT_EQ(test, ft_curr(0), r);
		v = ft_test_exact_v(test, 0, FT_ROOT_GROUP);
		nb = ft_test_entities(test, 0, FT_ROOT_GROUP, before);
		ge = find_entity(before, nb, 0, g);	/* none with a flat pick */
		if (!ge || v - ge->vruntime >= owed)
			break;
		ft_run_for(50 * NSEC_PER_USEC);
	}
	if (ft_tree_lacks("flat_pick")) {
		KUNIT_ASSERT_NOT_NULL(test, ge);
		KUNIT_ASSERT_GE_MSG(test, v - ge->vruntime, owed,
				    "G's entity is owed too little to tell a reweight's error");
	}
	KUNIT_ASSERT_EQ(test, ft_group_set_shares(g, 3072), 0);
	v2 = ft_test_exact_v(test, 0, FT_ROOT_GROUP);
	na = ft_test_entities(test, 0, FT_ROOT_GROUP, after);
	KUNIT_ASSERT_EQ(test, na, nb);
	KUNIT_EXPECT_TRUE_MSG(test, v2 - v <= 2 && v - v2 <= 2, "V %lld before, %lld after", v, v2);
	for (int i = 0; i < na; i++) {
		const struct ft_entity *a = &after[i];
		const struct ft_entity *b = find_entity(before, nb, a->task, a->group);
		__int128 wl, wl2, slack;

		KUNIT_ASSERT_NOT_NULL(test, b);
		if (!a->in_tree || a->avg_weight == b->avg_weight)
			continue;
		changed++;
		wl = (__int128)b->avg_weight * (v - b->vruntime);
		wl2 = (__int128)a->avg_weight * (v2 - a->vruntime);
		slack = 2 * (__int128)a->avg_weight;
		KUNIT_EXPECT_TRUE_MSG(test, wl - wl2 <= slack && wl2 - wl <= slack,
				      "task %d group %d: w*lag %lu*%lld before, %lu*%lld after",
				      a->task, a->group, b->avg_weight, v - b->vruntime,
				      a->avg_weight, v2 - a->vruntime);
	}
	kunit_info(test, "%d waiting entities reweighted by the share change", changed);
	/* Flat (7.3): G's tasks take their new h_load at their next pick. */
	if (ft_tree_lacks("flat_pick"))
		KUNIT_EXPECT_GE(test, changed, 1);
	else
		KUNIT_EXPECT_EQ(test, changed, 0);
}

/*
 * With a flat pick (7.3) a share change reaches a waiting task's weight
 * (h_load) only when it is next picked: set_next_task_fair() reweights it
 * while it is queued. One CPU: a root task R at nice 19 with a 100 ms
 * slice (its vruntime races ahead once it has run, so it is not the next
 * pick) and G's three tasks, which take turns for 10 ms so their
 * vruntimes part, and until R has had its first turn. With
 * one of G's tasks (t1) running, G's shares go from 1024 to 3072, and t1
 * sleeps (delayed dequeue off, so it leaves): t2 or t3 is picked at that
 * instant. Expect V of the remaining queue unchanged by the pick (within
 * 2 ns) and the picked task's w * lag
 * unchanged (within its new weight times 2 ns).
 */
static void pick_reweight_keeps_v_and_weighted_lag(struct kunit *test)
{
	struct ft_entity before[FT_MAX_ENTITIES], after[FT_MAX_ENTITIES], rest[FT_MAX_ENTITIES];
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int g, r, t[3], nb, na, m = 0, picked;
	const struct ft_entity *b, *a;
	__int128 wl, wl2;
	ft_s64 v, v2;

	ft_test_require(test, "flat_pick");
	ft_test_features(test, "PLACE_LAG", "!DELAY_DEQUEUE", NULL);
	g = ft_group_create(FT_ROOT_GROUP);
	KUNIT_ASSERT_GT(test, g, 0);
	attr.slice_ns = 100 * NSEC_PER_MSEC;
	attr.nice = 19;
	r = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, r, 0);
	for (int i = 0; i < 3; i++) {
		t[i] = ft_test_fork(test, 0, 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_group(t[i], g), 0);
	}
	ft_run_for(10 * NSEC_PER_MSEC);	/* G's tasks take turns: their vruntimes part */
	/* R's first turn, once no task of G is eligible: past it, R's vruntime is ahead */
	for (int step = 0; step < 200 && !ft_test_info(test, r).exec_ns; step++)
		ft_run_for(NSEC_PER_MSEC);
	KUNIT_ASSERT_GT(test, ft_test_info(test, r).exec_ns, 0);
	for (int step = 0; step < 200 && (ft_curr(0) == r || ft_curr(0) <= 0); step++)
		ft_run_for(100 * NSEC_PER_USEC);
	for (int i = 1; i < 3; i++) {	/* t[0]: whichever of G's tasks runs now */
		if (ft_curr(0) == t[i]) {
			t[i] = t[0];
			t[0] = ft_curr(0);
		}
	}
	KUNIT_ASSERT_EQ(test, ft_curr(0), t[0]);
	KUNIT_ASSERT_EQ(test, ft_group_set_shares(g, 3072), 0);

	nb = ft_test_entities(test, 0, FT_ROOT_GROUP, before);
	for (int i = 0; i < nb; i++)	/* the queue as it is once t1 has left */
		if (before[i].task != t[0])
			rest[m++] = before[i];
	v = ft_exact_v(rest, m);
	KUNIT_ASSERT_EQ(test, ft_task_sleep(t[0]), 0);
	picked = ft_curr(0);
	KUNIT_ASSERT_TRUE_MSG(test, picked == t[1] || picked == t[2], "picked task %d", picked);
	na = ft_test_entities(test, 0, FT_ROOT_GROUP, after);
	v2 = ft_exact_v(after, na);
	b = find_entity(rest, m, picked, 0);
	a = find_entity(after, na, picked, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, a);
	kunit_info(test, "task %d: lag %lld at weight %lu before the pick, %lld at %lu after", picked,
		   v - b->vruntime, b->avg_weight, v2 - a->vruntime, a->avg_weight);
	KUNIT_EXPECT_NE_MSG(test, a->avg_weight, b->avg_weight, "the pick did not reweight task %d", picked);
	KUNIT_EXPECT_TRUE_MSG(test, v2 - v <= 2 && v - v2 <= 2, "V %lld before the pick, %lld after", v, v2);
	wl = (__int128)b->avg_weight * (v - b->vruntime);
	wl2 = (__int128)a->avg_weight * (v2 - a->vruntime);
	KUNIT_EXPECT_TRUE_MSG(test, wl - wl2 <= 2 * (__int128)a->avg_weight &&
				    wl2 - wl <= 2 * (__int128)a->avg_weight,
			      "task %d: w*lag %lu*%lld before, %lu*%lld after", picked,
			      b->avg_weight, v - b->vruntime, a->avg_weight, v2 - a->vruntime);
}

static struct kunit_case lag_cases[] = {
	KUNIT_CASE(placement_keeps_stored_lag),
	KUNIT_CASE(placement_at_v_without_place_lag),
	KUNIT_CASE(dequeue_clamps_lag_to_limit),
	KUNIT_CASE(reweight_keeps_v_and_weighted_lag),
	KUNIT_CASE(queued_group_reweight_keeps_v_and_weighted_lag),
	KUNIT_CASE(pick_reweight_keeps_v_and_weighted_lag),
	KUNIT_CASE(ineligible_sleeper_stays_queued_delayed),
	KUNIT_CASE(ineligible_sleeper_leaves_without_delay_dequeue),
	KUNIT_CASE(delayed_sleeper_leaves_with_zero_lag),
	KUNIT_CASE(delayed_sleeper_keeps_credit_without_delay_zero),
	{}
};

static struct kunit_suite lag_suite = {
	.name = "fair_eevdf_lag",
	.init = ft_test_boot_one_cpu,
	.test_cases = lag_cases,
};

static struct kunit_case migration_cases[] = {
	KUNIT_CASE(migration_keeps_relative_deadline),
	KUNIT_CASE(migration_renews_deadline_without_rel_deadline),
	{}
};


static struct kunit_suite migration_suite = {
	.name = "fair_eevdf_lag_smp",
	.init = ft_test_boot_two_cpus,
	.test_cases = migration_cases,
};

kunit_test_suites(&lag_suite, &migration_suite);

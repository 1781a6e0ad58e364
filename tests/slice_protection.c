// SPDX-License-Identifier: GPL-2.0
/*
 * RUN_TO_PARITY slice protection with a limit of its own, se->vprot (newer
 * trees and fixtures/patches/short-slice): once picked, curr is not
 * preempted by an equal peer before its vruntime reaches vprot. The limit
 * decides how long a short-slice task can be kept waiting, so it is
 * checked exactly: set at pick to min(deadline, v + smallest slice queued),
 * cut (never extended) when a shorter slice is enqueued, never beyond the
 * deadline. Trees without the field skip, naming the probe that said so.
 */
#include <errno.h>
#include "harness.h"

#define MAX_TASKS	8


static int fork_slice(struct kunit *test, int nice, ft_u64 slice_ns)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int id;

	attr.nice = nice;
	attr.slice_ns = slice_ns;
	id = ft_task_fork(&attr);
	KUNIT_ASSERT_GT_MSG(test, id, 0, "fork(slice %llu) failed", slice_ns);
	return id;
}

static ft_s64 vprot_of(struct kunit *test, int id)
{
	ft_s64 vprot;

	KUNIT_ASSERT_EQ(test, ft_task_vprot(id, &vprot), 0);
	return vprot;
}

/* Smallest slice among the tasks queued on the CPU (delayed ones count). */
static ft_u64 min_queued_slice(struct kunit *test, const int *ids, int n, int cpu)
{
	ft_u64 min = ~0ULL;

	for (int i = 0; i < n; i++) {
		struct ft_task_info info = ft_test_info(test, ids[i]);

		if (info.on_rq && info.cpu == cpu && info.slice < min)
			min = info.slice;
	}
	return min;
}

/*
 * vprot means something only while curr is protected (vruntime < vprot):
 * once it is reached, or cancelled (vprot = vruntime), the field is dead
 * and 7.x leaves it unscaled across a reweight. A live limit must not lie
 * beyond the deadline. Reports instead of expecting when @found is given.
 */
static void expect_within_deadline(struct kunit *test, int id, const char *when, bool *found)
{
	struct ft_task_info info = ft_test_info(test, id);
	ft_s64 vprot = vprot_of(test, id);

	if (vprot - info.vruntime <= 0 || vprot - info.deadline <= 0)
		return;
	if (found) {
		if (!*found)
			kunit_info(test, "task %d %s: vprot %lld beyond deadline %lld (vruntime %lld)",
				   id, when, vprot, info.deadline, info.vruntime);
		*found = true;
		return;
	}
	KUNIT_FAIL(test, "task %d %s: vprot %lld beyond deadline %lld (vruntime %lld)",
		   id, when, vprot, info.deadline, info.vruntime);
}

/*
 * One CPU, four nice-0 tasks with slices 3 ms, 0.3 ms, 1 ms and the base
 * slice. Forty times: run a while, put curr to sleep so the next task is
 * picked at that very instant, then wake the sleeper. Nice 0 makes virtual
 * time equal real time, so the oracles are exact. @want gives the limit
 * the picked task's vprot must equal; returns the picks checked.
 */
typedef ft_s64 (*limit_rule)(struct kunit *test, const int *ids, int n, int next);

static int picks_follow(struct kunit *test, limit_rule want)
{
	const ft_u64 slices[] = { 3 * NSEC_PER_MSEC, 300 * NSEC_PER_USEC, NSEC_PER_MSEC, 0 };
	int ids[MAX_TASKS], n = 0, checked = 0;

	for (int i = 0; i < 4; i++)
		ids[n++] = fork_slice(test, 0, slices[i]);

	for (int round = 0; round < 40; round++) {
		struct ft_task_info info;
		int prev, next;

		ft_run_for((ft_u64)(1 + round % 7) * 170 * NSEC_PER_USEC);
		prev = ft_curr(0);
		KUNIT_ASSERT_GT(test, prev, 0);
		KUNIT_ASSERT_EQ(test, ft_task_sleep(prev), 0);
		next = ft_curr(0);
		if (next > 0) {
			info = ft_test_info(test, next);
			KUNIT_EXPECT_EQ_MSG(test, vprot_of(test, next), want(test, ids, n, next),
					    "round %d: task %d picked at v %lld, deadline %lld",
					    round, next, info.vruntime, info.deadline);
			checked++;
		}
		KUNIT_ASSERT_EQ(test, ft_task_wake(prev), 0);
	}
	return checked;
}

static ft_s64 min_of_deadline_and_min_slice(struct kunit *test, const int *ids, int n, int next)
{
	struct ft_task_info info = ft_test_info(test, next);
	ft_s64 limit = info.vruntime + (ft_s64)min_queued_slice(test, ids, n, 0);

	return limit - info.deadline < 0 ? limit : info.deadline;
}

/*
 * With RUN_TO_PARITY and without PREEMPT_SHORT (which cuts elsewhere on
 * 7.3, below). Expect each picked task's vprot to equal min(deadline,
 * vruntime + smallest slice queued).
 */
static void limit_set_at_pick_is_min_of_deadline_and_min_slice(struct kunit *test)
{
	ft_test_require(test, "vprot");
	ft_test_features(test, "RUN_TO_PARITY", "?!PREEMPT_SHORT", NULL);
	KUNIT_EXPECT_GT(test, picks_follow(test, min_of_deadline_and_min_slice), 30);
}

/*
 * The vruntime at which curr stops being eligible, from first principles:
 * curr at v is eligible while (v - z) * W <= sum w_i (v_i - z) over the
 * queue including itself; only curr's v moves while it runs, so that is
 * v <= the weighted average of the others, V_others. The first ineligible
 * vruntime is floor(V_others) + 1.
 */
static ft_s64 min_of_deadline_and_ineligible_point(struct kunit *test, const int *ids, int n,
						   int next)
{
	struct ft_entity ents[FT_MAX_ENTITIES], others[FT_MAX_ENTITIES];
	struct ft_task_info info = ft_test_info(test, next);
	int queued = ft_test_entities(test, 0, FT_ROOT_GROUP, ents), m = 0;
	ft_s64 limit;

	if (min_queued_slice(test, ids, n, 0) >= info.slice)
		return info.deadline;	/* no shorter slice queued: to the deadline */
	for (int i = 0; i < queued; i++)
		if (ents[i].in_tree)
			others[m++] = ents[i];
	KUNIT_ASSERT_GT(test, m, 0);
	limit = ft_exact_v(others, m) + 1;
	return limit - info.deadline < 0 ? limit : info.deadline;
}

/*
 * As above with PREEMPT_SHORT on, on trees that bound the protection by
 * the ineligible point (7.3: a shorter slice queued means curr runs only
 * while it stays eligible). Expect vprot = min(deadline, floor(V_others)
 * + 1) when a shorter slice is queued, the deadline otherwise.
 */
static void limit_with_preempt_short_ends_where_curr_turns_ineligible(struct kunit *test)
{
	ft_test_require(test, "protect_ineligible");
	ft_test_features(test, "RUN_TO_PARITY", "PREEMPT_SHORT", NULL);
	KUNIT_EXPECT_GT(test, picks_follow(test, min_of_deadline_and_ineligible_point), 30);
}

/*
 * Two CPUs, six tasks of mixed nice levels and slices, run/sleep
 * behaviours for 200 ms, with or without nice changes of the running
 * tasks (reweight scales the deadline, and must scale the limit with
 * it); @found collects breaks instead of failing.
 */
static void mixed_load(struct kunit *test, bool nice_changes, bool *found)
{
	int ids[6], nice[6] = { 0, -5, 5, 0, 3, -2 };

	for (int i = 0; i < 6; i++) {
		struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;

		attr.nice = nice[i];
		attr.cpu = i % 2;
		attr.slice_ns = (i % 3) * 700 * NSEC_PER_USEC;
		attr.run_ns = i < 3 ? 0 : (ft_u64)(i + 1) * 900 * NSEC_PER_USEC;
		attr.sleep_ns = i < 3 ? 0 : 2 * NSEC_PER_MSEC;
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
	}
	for (int step = 0; step < 800; step++) {
		ft_run_for(250 * NSEC_PER_USEC);
		for (int cpu = 0; cpu < 2; cpu++) {
			int curr = ft_curr(cpu);

			if (curr <= 0)
				continue;
			expect_within_deadline(test, curr, "after a step", found);
			if (nice_changes && step % 37 == 0) {
				KUNIT_ASSERT_EQ(test, ft_task_set_nice(curr, (step / 37) % 9 - 4), 0);
				expect_within_deadline(test, curr, "after a nice change", found);
			}
		}
	}
}

/*
 * The mixed load above. Expect every live vprot of a curr at or before
 * its deadline at every 250 us step: with nice changes, except on trees
 * with finding "vprot_reweight", which run it without them (the case
 * below tests the changes).
 */
static void limit_never_beyond_deadline(struct kunit *test)
{
	ft_test_require(test, "vprot");
	mixed_load(test, !ft_tree_has_finding("vprot_reweight"), NULL);
}

/*
 * The mixed load with nice changes. Expect no live vprot beyond its
 * deadline. It is, on trees whose reweight rescales vprot only for a
 * curr that is still curr: core.c's nice change puts the task first
 * (sched_change: dequeue, put_prev, reweight, enqueue, set_next), so the
 * limit keeps its old absolute value while the deadline is rescaled
 * (finding "vprot_reweight", 7.2.13 and 7.3.4).
 */
static void limit_within_deadline_across_nice_changes(struct kunit *test)
{
	bool found = false;

	ft_test_require(test, "vprot");
	mixed_load(test, true, &found);
	ft_test_finding(test, "vprot_reweight", found,
			"a running task's live protection lies beyond its deadline after a nice change");
}

/*
 * The set-up of the enqueue cases: on one CPU, A (3 ms slice) runs and is
 * protected; B (200 us slice) ran 1 ms ahead of A and slept, so it comes
 * back ineligible and cannot preempt. Delayed dequeue is off so B leaves
 * the queue when it sleeps. Returns A and B, A running for 200 us since
 * its pick, B asleep. Slices end at a tick here: HRTICK off.
 */
static void a_protected_b_asleep_behind(struct kunit *test, int *a, int *b)
{
	ft_test_features(test, "!HRTICK", "!DELAY_DEQUEUE", NULL);
	*a = fork_slice(test, 0, 3 * NSEC_PER_MSEC);
	ft_run_for(100 * NSEC_PER_USEC);
	*b = fork_slice(test, 0, 200 * NSEC_PER_USEC);
	for (int i = 0; i < 100 && ft_curr(0) != *b; i++)
		ft_run_for(10 * NSEC_PER_USEC);
	KUNIT_ASSERT_EQ_MSG(test, ft_curr(0), *b, "setup: B never ran");
	ft_run_for(NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), *b);
	KUNIT_ASSERT_EQ(test, ft_task_sleep(*b), 0);
	KUNIT_ASSERT_LT_MSG(test, ft_test_info(test, *b).vlag, 0, "setup: B left without debt");
	KUNIT_ASSERT_EQ(test, ft_curr(0), *a);
	ft_run_for(200 * NSEC_PER_USEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), *a);
}

/*
 * A protected, B (shorter slice, ineligible) wakes. Expect A still
 * running and its vprot cut to exactly min(vprot before, v_A + B's slice).
 */
static void shorter_slice_enqueue_cuts_protection(struct kunit *test)
{
	struct ft_task_info a_info;
	ft_s64 before, want;
	int a, b;

	ft_test_require(test, "vprot");
	ft_test_require(test, "protect_update");
	a_protected_b_asleep_behind(test, &a, &b);
	before = vprot_of(test, a);
	KUNIT_ASSERT_GT_MSG(test, before - ft_test_info(test, a).vruntime, 200 * NSEC_PER_USEC,
			    "setup: A's protection ends too soon to be cut");

	KUNIT_ASSERT_EQ(test, ft_task_wake(b), 0);
	KUNIT_ASSERT_EQ_MSG(test, ft_curr(0), a, "B preempted: not the case under test");
	a_info = ft_test_info(test, a);
	want = a_info.vruntime + (ft_s64)ft_test_info(test, b).slice;
	want = want - before < 0 ? want : before;
	KUNIT_EXPECT_EQ(test, vprot_of(test, a), want);
	KUNIT_EXPECT_LT(test, vprot_of(test, a), before);
}

/*
 * As above, then 50 us later C with a 2 ms slice (longer than what is left
 * of A's protection) is forked; PREEMPT_SHORT is off so C cannot cancel A's
 * protection either. Expect A's vprot unchanged by C's arrival.
 */
static void longer_slice_enqueue_never_extends_protection(struct kunit *test)
{
	ft_s64 before;
	int a, b;

	ft_test_require(test, "vprot");
	ft_test_require(test, "protect_update");
	a_protected_b_asleep_behind(test, &a, &b);
	KUNIT_ASSERT_EQ(test, ft_task_wake(b), 0);
	ft_test_features(test, "!PREEMPT_SHORT", NULL);
	ft_run_for(50 * NSEC_PER_USEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), a);
	before = vprot_of(test, a);

	fork_slice(test, 0, 2 * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ_MSG(test, ft_curr(0), a, "C preempted: not the case under test");
	KUNIT_EXPECT_EQ_MSG(test, vprot_of(test, a), before,
			    "an enqueue moved A's protection from %lld to %lld", before, vprot_of(test, a));
}

static struct kunit_case protection_cases[] = {
	KUNIT_CASE(limit_set_at_pick_is_min_of_deadline_and_min_slice),
	KUNIT_CASE(limit_with_preempt_short_ends_where_curr_turns_ineligible),
	KUNIT_CASE(shorter_slice_enqueue_cuts_protection),
	KUNIT_CASE(longer_slice_enqueue_never_extends_protection),
	{}
};

static struct kunit_case protection_smp_cases[] = {
	KUNIT_CASE(limit_never_beyond_deadline),
	KUNIT_CASE(limit_within_deadline_across_nice_changes),
	{}
};

static struct kunit_suite protection_suite = {
	.name = "fair_slice_protection",
	.init = ft_test_boot_one_cpu,
	.test_cases = protection_cases,
};

static struct kunit_suite protection_smp_suite = {
	.name = "fair_slice_protection_smp",
	.init = ft_test_boot_two_cpus,
	.test_cases = protection_smp_cases,
};

kunit_test_suites(&protection_suite, &protection_smp_suite);

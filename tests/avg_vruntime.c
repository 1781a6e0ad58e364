// SPDX-License-Identifier: GPL-2.0
/*
 * The running sums behind EEVDF's V: cfs_rq->avg_vruntime is
 * sum((v_i - zero) * w_i) and cfs_rq->avg_load is sum(w_i) over the
 * entities in the tree (curr excluded), kept incrementally by fair.c. A
 * missed update anywhere skews V and so every eligibility decision. The
 * oracle recomputes both from scratch, in 128-bit arithmetic, after every
 * operation of a scripted run over two CPUs and a task group.
 */
#include "harness.h"

#define MAX_ENTITIES	64


static void expect_sums_exact(struct kunit *test, int cpu, int group, const char *after)
{
	struct ft_entity ents[MAX_ENTITIES];
	struct ft_cfs_info cfs;
	__int128 sum = 0;
	ft_u64 load = 0;
	int n;

	KUNIT_ASSERT_EQ(test, ft_cfs_info(cpu, group, &cfs), 0);
	n = ft_cfs_entities(cpu, group, ents, MAX_ENTITIES);
	KUNIT_ASSERT_LE(test, n, MAX_ENTITIES);
	for (int i = 0; i < n; i++) {
		if (!ents[i].in_tree)
			continue;
		sum += (__int128)(ents[i].vruntime - cfs.zero_vruntime) *
		       (__int128)ents[i].avg_weight;
		load += ents[i].avg_weight;
	}
	KUNIT_EXPECT_EQ_MSG(test, cfs.avg_load, load, "cpu %d group %d after %s", cpu, group, after);
	KUNIT_EXPECT_TRUE_MSG(test, (__int128)cfs.avg_vruntime == sum,
			      "cpu %d group %d after %s: avg_vruntime %lld, brute force %lld",
			      cpu, group, after, cfs.avg_vruntime, (long long)sum);
}

/*
 * Eligibility is lag >= 0, i.e. (v_i - z) * W <= sum((v_j - z) * w_j) over
 * the queue including curr: fair.c's vruntime_eligible() must agree with
 * that 128-bit brute force for every queued entity.
 */
static void expect_eligibility_exact(struct kunit *test, int cpu, int group, const char *after)
{
	struct ft_entity ents[MAX_ENTITIES];
	struct ft_cfs_info cfs;
	__int128 sum = 0, load = 0;
	int n;

	KUNIT_ASSERT_EQ(test, ft_cfs_info(cpu, group, &cfs), 0);
	n = ft_cfs_entities(cpu, group, ents, MAX_ENTITIES);
	for (int i = 0; i < n; i++) {
		sum += (__int128)(ents[i].vruntime - cfs.zero_vruntime) * ents[i].avg_weight;
		load += ents[i].avg_weight;
	}
	for (int i = 0; i < n; i++) {
		bool want = (__int128)(ents[i].vruntime - cfs.zero_vruntime) * load <= sum;

		KUNIT_EXPECT_EQ_MSG(test, ft_cfs_vruntime_eligible(cpu, group, ents[i].vruntime), want,
				    "cpu %d group %d entity of task %d after %s",
				    cpu, group, ents[i].task, after);
	}
}

static void check_all(struct kunit *test, int group, const char *after)
{
	for (int cpu = 0; cpu < ft_nr_cpus(); cpu++) {
		expect_sums_exact(test, cpu, FT_ROOT_GROUP, after);
		expect_sums_exact(test, cpu, group, after);
		expect_eligibility_exact(test, cpu, FT_ROOT_GROUP, after);
		expect_eligibility_exact(test, cpu, group, after);
	}
}

/*
 * Five tasks over two CPUs, two of them in a child group, one with a
 * run/sleep pattern; then sleep, wake, tick, nice, custom slice, group
 * move, yield, migration and long runs. Expect avg_vruntime and avg_load
 * of every cfs_rq to equal the brute-force sums after each step, and
 * vruntime_eligible() to match the sign of each entity's exact lag.
 */
static void sums_match_brute_force_after_every_operation(struct kunit *test)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int group = ft_group_create(FT_ROOT_GROUP);
	int ids[5];

	KUNIT_ASSERT_GT(test, group, 0);
	check_all(test, group, "group create");
	for (int i = 0; i < 5; i++) {
		attr.cpu = i % 2;
		attr.nice = 2 * i - 4;
		attr.group = i >= 3 ? group : FT_ROOT_GROUP;
		attr.run_ns = i == 2 ? 2 * NSEC_PER_MSEC : 0;
		attr.sleep_ns = i == 2 ? 5 * NSEC_PER_MSEC : 0;
		ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, ids[i], 0);
		check_all(test, group, "fork");
	}
	ft_run_for(10 * NSEC_PER_MSEC);
	check_all(test, group, "run 10 ms");
	for (int cpu = 0; cpu < 2; cpu++) {
		int id = ft_curr(cpu);

		if (id > 0) {
			ft_task_sleep(id);
			check_all(test, group, "sleep");
			ft_tick(cpu);
			check_all(test, group, "tick");
			ft_task_wake(id);
			check_all(test, group, "wake");
		}
	}
	ft_task_set_nice(ids[0], 7);
	check_all(test, group, "nice");
	ft_task_set_slice(ids[1], 300000);
	check_all(test, group, "custom slice");
	ft_task_set_group(ids[1], group);
	check_all(test, group, "group move");
	ft_task_yield(ft_curr(0));
	check_all(test, group, "yield");
	for (int i = 0; i < 5; i++) {
		if (ft_task_migrate(ids[i], 1 - ft_test_info(test, ids[i]).cpu) == 0) {
			check_all(test, group, "migrate");
			break;
		}
	}
	for (int step = 0; step < 200; step++) {
		ft_run_for(ft_tick_nsec() / 3);
		check_all(test, group, "run a third of a tick");
	}
}

/*
 * V is floor(sum / W) over the queue, curr included: the left bias that
 * keeps an entity at V eligible. The sum is taken against zero_vruntime,
 * which each avg_vruntime() moves to V, so it is negative only when an
 * entity has been put left of V since; there C's division, which
 * truncates towards zero, gives one more than the floor. CPU 0: A (nice
 * 0) runs past B (nice 1) until B, waiting, is owed; B is requeued (the
 * renice path: dequeue, enqueue), so placement puts it left of V after
 * the last avg_vruntime(). Expect the sum below zero and no multiple of W
 * (else the rounding cannot show), and avg_vruntime() to return the exact
 * floor of the weighted average.
 */
static void v_is_the_floor_of_a_negative_sum(struct kunit *test)
{
	struct ft_entity ents[MAX_ENTITIES];
	struct ft_cfs_info cfs;
	__int128 sum = 0, load = 0;
	ft_s64 want, have;
	int a, b, n;

	ft_test_features(test, "PLACE_LAG", NULL);
	a = ft_test_fork(test, 0, 0);
	b = ft_test_fork(test, 1, 0);
	for (int step = 0; step < 200; step++) {
		ft_run_for(100 * NSEC_PER_USEC);
		if (ft_curr(0) == a && ft_test_exact_v(test, 0, FT_ROOT_GROUP) -
				       ft_test_info(test, b).vruntime > 100 * (ft_s64)NSEC_PER_USEC)
			break;
	}
	KUNIT_ASSERT_EQ_MSG(test, ft_curr(0), a, "B is never owed 100 us while A runs");
	KUNIT_ASSERT_EQ(test, ft_task_set_nice(b, 1), 0);

	KUNIT_ASSERT_EQ(test, ft_cfs_info(0, FT_ROOT_GROUP, &cfs), 0);
	n = ft_test_entities(test, 0, FT_ROOT_GROUP, ents);
	KUNIT_ASSERT_EQ(test, n, 2);
	for (int i = 0; i < n; i++) {
		sum += (__int128)ents[i].avg_weight * (ents[i].vruntime - cfs.zero_vruntime);
		load += ents[i].avg_weight;
	}
	KUNIT_ASSERT_TRUE_MSG(test, sum < 0 && sum % load,
			      "sum %lld over weight %lld: the rounding cannot show",
			      (long long)sum, (long long)load);
	want = ft_exact_v(ents, n);
	have = ft_cfs_avg_vruntime(0, FT_ROOT_GROUP);
	KUNIT_EXPECT_EQ_MSG(test, have, want, "sum %lld over weight %lld, zero_vruntime %lld",
			    (long long)sum, (long long)load, cfs.zero_vruntime);
}

static struct kunit_case avg_cases[] = {
	KUNIT_CASE(sums_match_brute_force_after_every_operation),
	KUNIT_CASE(v_is_the_floor_of_a_negative_sum),
	{}
};

static struct kunit_suite avg_suite = {
	.name = "fair_avg_vruntime",
	.init = ft_test_boot_two_cpus,
	.test_cases = avg_cases,
};

kunit_test_suite(avg_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * CFS bandwidth control (cpu.max): a group given a quota per period runs
 * at most that quota in each period, give or take what the accounting can
 * overrun before it notices (a tick per CPU, paid back from the next
 * period); a throttled queue is never picked and its tasks do not run;
 * lifting the limit puts every task back. Oracles from the definition of
 * cpu.max, checked by sampling the machine at short steps; the period
 * timer, the slack timer and the unthrottle paths are fair.c's own, driven
 * by the virtual clock. Skipped where the profile has no CFS_BANDWIDTH
 * (make check PROFILE=debian has it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"

#define PERIOD_NS	(100 * NSEC_PER_MSEC)
#define QUOTA_NS	(20 * NSEC_PER_MSEC)
#define STEP_NS		(100 * 1000ULL)		/* 100 us samples */
#define PERIODS		20

struct bw_group {
	int group, nr;
	int ids[4];
};

/*
 * A group of @nr CPU-bound tasks limited to @quota per PERIOD_NS, task i
 * on CPU i modulo the CPUs (@pinned: and allowed there only).
 */
static void bw_group_create(struct kunit *test, struct bw_group *g, int nr, ft_u64 quota,
			    bool pinned)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int ret;

	g->group = ft_group_create(FT_ROOT_GROUP);
	KUNIT_ASSERT_GT(test, g->group, 0);
	ret = ft_group_set_bandwidth(g->group, PERIOD_NS, quota, 0);
	if (ret == -EOPNOTSUPP)
		kunit_skip(test, "profile has no CFS bandwidth control (make check PROFILE=debian has it)");
	KUNIT_ASSERT_EQ(test, ret, 0);
	attr.group = g->group;
	g->nr = nr;
	for (int i = 0; i < nr; i++) {
		attr.cpu = i % ft_nr_cpus();
		if (pinned)
			attr.cpus = 1ULL << attr.cpu;
		g->ids[i] = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, g->ids[i], 0);
	}
}

static ft_u64 bw_group_exec(struct kunit *test, const struct bw_group *g)
{
	ft_u64 sum = 0;

	for (int i = 0; i < g->nr; i++)
		sum += ft_test_info(test, g->ids[i]).exec_ns;
	return sum;
}

static bool bw_group_runs(const struct bw_group *g, int cpu)
{
	int curr = ft_curr(cpu);

	for (int i = 0; i < g->nr; i++)
		if (g->ids[i] == curr)
			return true;
	return false;
}

/*
 * What the accounting may overrun: a running task is charged at each tick
 * (and at each switch), and the queue is throttled at the next check, so
 * each CPU may run up to a tick past the quota; the overrun is paid back
 * from the next period's quota.
 */
static ft_u64 bw_overrun(void)
{
	return ft_nr_cpus() * ft_tick_nsec();
}

/*
 * On each CPU of the machine, two CPU-bound tasks in a group limited to
 * 20 ms per 100 ms next to one task in the root group; 20 periods, sampled
 * every 100 us. Expect, for every k, the group's run time in the first k
 * periods after cpu.max was written to be at most the k + 1 quotas it was
 * given (the write refills the pool at once, then one per period) plus
 * one tick per CPU, and at least k - 1 quotas less that overrun: the
 * group is limited, and gets its quota when it wants more.
 */
static void group_runs_at_most_its_quota_per_period(struct kunit *test)
{
	struct bw_group g;
	ft_u64 start = ft_now(), base;
	int cpus = ft_nr_cpus();

	bw_group_create(test, &g, 2 * cpus, QUOTA_NS, false);
	for (int cpu = 0; cpu < cpus; cpu++)
		ft_test_fork(test, 0, cpu);
	base = bw_group_exec(test, &g);
	for (int k = 1; k <= PERIODS; k++) {
		ft_u64 ran;

		ft_run_for(start + k * PERIOD_NS - ft_now());
		ran = bw_group_exec(test, &g) - base;
		KUNIT_EXPECT_LE_MSG(test, ran, (k + 1) * QUOTA_NS + bw_overrun(),
				    "the group ran %llu us in %d periods of a %llu us quota",
				    ran / 1000, k, QUOTA_NS / 1000);
		KUNIT_EXPECT_GE_MSG(test, ran + bw_overrun(), (k - 1) * QUOTA_NS,
				    "the group ran only %llu us in %d periods of a %llu us quota",
				    ran / 1000, k, QUOTA_NS / 1000);
		if (k == PERIODS)
			kunit_info(test, "%d CPUs: the group ran %llu us in %d periods of %llu us quota",
				   cpus, ran / 1000, k, QUOTA_NS / 1000);
	}
}

/*
 * One CPU, two CPU-bound tasks in a group limited to 20 ms per 100 ms
 * next to a root task; 10 periods sampled every 100 us. Expect that
 * whenever the group's queue is throttled no task of the group is
 * running, and that while it stays throttled with no period refill the
 * group's tasks gain no run time. Where the tree throttles a running task
 * on its way back to user space (7.x), the task that was running may go
 * on until then: up to one tick (the interrupt exit), and no more.
 */
static void throttled_queue_is_never_picked(struct kunit *test)
{
	struct bw_group g;
	struct ft_bandwidth_info bw;
	ft_u64 end, grace = ft_throttle_deferred() ? ft_tick_nsec() : 0;
	ft_u64 since = 0, exec_at_throttle = 0;
	int periods_at_throttle = -1, throttled_samples = 0;

	bw_group_create(test, &g, 2, QUOTA_NS, false);
	ft_test_fork(test, 0, 0);
	end = ft_now() + 10 * PERIOD_NS;
	while (ft_now() < end) {
		bool throttled;
		ft_u64 exec;

		ft_run_for(STEP_NS);
		throttled = ft_cfs_throttled(0, g.group) == 1;
		exec = bw_group_exec(test, &g);
		KUNIT_ASSERT_EQ(test, ft_group_bandwidth(g.group, &bw), 0);
		if (!throttled) {
			periods_at_throttle = -1;
			continue;
		}
		throttled_samples++;
		if (periods_at_throttle != bw.nr_periods) {
			/* throttled since the last step (or refilled and throttled again) */
			since = ft_now() - STEP_NS;
			exec_at_throttle = exec;
			periods_at_throttle = bw.nr_periods;
		}
		KUNIT_ASSERT_FALSE_MSG(test, bw_group_runs(&g, 0) && ft_now() - since > grace,
				       "task %d of a group throttled since %llu ns still runs at %llu ns",
				       ft_curr(0), since, ft_now());
		KUNIT_ASSERT_LE_MSG(test, exec - exec_at_throttle, grace,
				    "a group throttled since %llu ns ran %llu ns more by %llu ns",
				    since, exec - exec_at_throttle, ft_now());
	}
	kunit_info(test, "throttled at %d of %d samples, %d periods, %d throttled",
		   throttled_samples, (int)(10 * PERIOD_NS / STEP_NS), bw.nr_periods,
		   bw.nr_throttled);
	KUNIT_EXPECT_GT(test, throttled_samples, 0);
}

/*
 * One CPU, two CPU-bound tasks (nice 0) in a group limited to 20 ms per
 * 100 ms next to a root task; run until the group is throttled, then lift
 * the limit (cpu.max "max"). Expect at once no throttled queue, both
 * tasks queued again with the run time they had, and over the next
 * second the group and the root task sharing the CPU half and half (equal
 * shares), within two base slices and two ticks.
 */
static void lifting_the_limit_unthrottles_everything(struct kunit *test)
{
	struct bw_group g;
	ft_u64 before[2], g0, r0, ran_g, ran_r;
	int root_task, steps = 0;

	bw_group_create(test, &g, 2, QUOTA_NS, false);
	root_task = ft_test_fork(test, 0, 0);
	while (ft_cfs_throttled(0, g.group) != 1 && steps++ < 10000)
		ft_run_for(STEP_NS);
	KUNIT_ASSERT_EQ_MSG(test, ft_cfs_throttled(0, g.group), 1, "the group never throttled");
	for (int i = 0; i < 2; i++)
		before[i] = ft_test_info(test, g.ids[i]).exec_ns;
	KUNIT_ASSERT_EQ(test, ft_group_set_bandwidth(g.group, PERIOD_NS, FT_QUOTA_INF, 0), 0);
	KUNIT_EXPECT_EQ(test, ft_cfs_throttled(0, g.group), 0);
	for (int i = 0; i < 2; i++) {
		struct ft_task_info info = ft_test_info(test, g.ids[i]);

		KUNIT_EXPECT_TRUE_MSG(test, info.on_rq, "task %d not queued after unthrottle", g.ids[i]);
		KUNIT_EXPECT_EQ(test, info.exec_ns, before[i]);
	}
	g0 = bw_group_exec(test, &g);
	r0 = ft_test_info(test, root_task).exec_ns;
	ft_run_for(NSEC_PER_SEC);
	ran_g = bw_group_exec(test, &g) - g0;
	ran_r = ft_test_info(test, root_task).exec_ns - r0;
	kunit_info(test, "after the limit went: group %llu us, root task %llu us", ran_g / 1000,
		   ran_r / 1000);
	KUNIT_EXPECT_LE(test, ran_g > ran_r ? ran_g - ran_r : ran_r - ran_g,
			2 * (2 * ft_base_slice() + 2 * ft_tick_nsec()));
}

#define BW_SLICE_NS	(5 * NSEC_PER_MSEC)	/* sysctl sched_cfs_bandwidth_slice_us */
#define SLACK_NS	(5 * NSEC_PER_MSEC)	/* the slack timer's delay */

/*
 * The slack timer: three CPUs, a CPU-bound task of a group pinned to
 * each. Between two ticks, cpu.max is written again, which refills the
 * pool and leaves each queue no runtime of its own; the quota is what
 * lets two queues take a 5 ms bandwidth slice plus the tick they owe at
 * the next tick and leaves the third none: that one is throttled there
 * and the pool is empty, some 100 ms before the period refills it. The
 * two tasks still running then sleep, and each queue hands back what it
 * holds beyond 1 ms; once the pool holds more than a slice, fair.c arms
 * the slack timer, whose expiry hands the pool out to throttled queues.
 * Expect one queue throttled, the pool holding more than a slice after
 * the returns, the throttled queue unthrottled 5 ms (the slack delay)
 * later, give or take a tick, with no period refill in between, and its
 * task running again: the pool had more than its debt.
 */
static void returned_runtime_unthrottles_before_the_period_ends(struct kunit *test)
{
	struct ft_bandwidth_info bw;
	struct bw_group g;
	ft_u64 tick = ft_tick_nsec(), returned_at, exec;
	int ids[3], group, periods, victim = -1;

	KUNIT_ASSERT_EQ(test, ft_boot(3), 0);
	bw_group_create(test, &g, 3, PERIOD_NS, true);
	group = g.group;
	memcpy(ids, g.ids, sizeof(ids));
	/* between two ticks: the next charges each queue a whole tick */
	ft_run_for(tick + tick / 2);
	KUNIT_ASSERT_EQ(test, ft_group_set_bandwidth(group, PERIOD_NS,
						     2 * (BW_SLICE_NS + tick), 0), 0);
	KUNIT_ASSERT_EQ(test, ft_group_bandwidth(group, &bw), 0);
	periods = bw.nr_periods;
	while (victim < 0 && ft_now() < PERIOD_NS / 2) {
		ft_run_for(STEP_NS);
		for (int cpu = 0; cpu < 3; cpu++)
			if (ft_cfs_throttled(cpu, group) == 1)
				victim = cpu;
	}
	KUNIT_ASSERT_GE_MSG(test, victim, 0, "no queue throttled by %llu us", ft_now() / 1000);
	for (int cpu = 0; cpu < 3; cpu++) {
		if (cpu == victim)
			continue;
		KUNIT_ASSERT_EQ(test, ft_cfs_throttled(cpu, group), 0);
		KUNIT_ASSERT_EQ(test, ft_task_sleep(ids[cpu]), 0);
	}
	returned_at = ft_now();
	KUNIT_ASSERT_EQ(test, ft_group_bandwidth(group, &bw), 0);
	kunit_info(test, "cpu %d throttled at %llu us; the pool holds %llu us after the returns",
		   victim, returned_at / 1000, bw.runtime / 1000);
	KUNIT_ASSERT_GT(test, bw.runtime, BW_SLICE_NS);

	while (ft_cfs_throttled(victim, group) == 1 && ft_now() < returned_at + PERIOD_NS)
		ft_run_for(STEP_NS);
	KUNIT_ASSERT_EQ(test, ft_group_bandwidth(group, &bw), 0);
	kunit_info(test, "unthrottled %llu us after the returns, %d period refills",
		   (ft_now() - returned_at) / 1000, bw.nr_periods - periods);
	KUNIT_EXPECT_EQ(test, ft_cfs_throttled(victim, group), 0);
	KUNIT_EXPECT_GE(test, ft_now() - returned_at, SLACK_NS);
	KUNIT_EXPECT_LE(test, ft_now() - returned_at, SLACK_NS + tick + STEP_NS);
	KUNIT_EXPECT_EQ(test, bw.nr_periods, periods);
	exec = ft_test_info(test, ids[victim]).exec_ns;
	ft_run_for(tick);
	kunit_info(test, "then ran %llu us in a tick", (ft_test_info(test, ids[victim]).exec_ns - exec) / 1000);
	KUNIT_EXPECT_GT(test, ft_test_info(test, ids[victim]).exec_ns, exec);
}

/*
 * 7.x throttles a task where it returns to user space: throttling the
 * queue queues a task work on each of its tasks, and a task leaves the
 * queue (into the group's limbo list) only when its work runs; until then
 * it is in the kernel and may run. In this machine a task returns to user
 * space at its CPU's interrupt exit and at its switch in, so a running
 * task reaches that point within a tick. One CPU, two CPU-bound tasks in
 * a group limited to 20 ms per 100 ms next to a root task; 5 periods
 * sampled every 100 us; in each throttle the first task seen in limbo is
 * reniced (0 and 1 in turn), a system call that takes it off its queue
 * and puts it back. Expect, while the group's queue is throttled, no task
 * of the group whose throttle work has run to be switched in, to run or
 * to gain run time, a reniced one to stay in limbo, the group to run at
 * most a tick past the moment its queue was throttled (the way to the
 * next interrupt exit), and each throttle to send a task to limbo.
 * Skipped where the tree throttles at the pick (6.12).
 */
static void throttled_task_stops_once_it_returns_to_user(struct kunit *test)
{
	struct bw_group g;
	ft_u64 end, tick = ft_tick_nsec(), since = 0, exec_at_throttle = 0;
	ft_u64 limbo_exec[4] = { 0 };
	unsigned long limbo_switches[4] = { 0 };
	bool was_limbo[4] = { false }, was_throttled = false, reniced = false;
	int nice = 0, renices = 0;
	int throttles = 0, throttles_to_limbo = 0, ran_with_work = 0;
	bool limbo_this_throttle = false;

	if (!ft_throttle_deferred())
		kunit_skip(test, "the tree throttles a queue at the pick, not on the return to user space (7.2 and 7.3 do; 6.12 and a profile without CFS_BANDWIDTH do not)");
	bw_group_create(test, &g, 2, QUOTA_NS, false);
	ft_test_fork(test, 0, 0);
	end = ft_now() + 5 * PERIOD_NS;
	while (ft_now() < end) {
		bool throttled;
		ft_u64 exec;

		ft_run_for(STEP_NS);
		throttled = ft_cfs_throttled(0, g.group) == 1;
		exec = bw_group_exec(test, &g);
		if (!throttled) {
			if (was_throttled && limbo_this_throttle)
				throttles_to_limbo++;
			was_throttled = false;
			for (int i = 0; i < g.nr; i++)
				was_limbo[i] = false;
			continue;
		}
		if (!was_throttled) {
			since = ft_now() - STEP_NS;
			exec_at_throttle = exec;
			was_throttled = true;
			limbo_this_throttle = false;
			reniced = false;
			throttles++;
		}
		for (int i = 0; i < g.nr; i++) {
			struct ft_task_info info = ft_test_info(test, g.ids[i]);

			if (info.running && info.throttle_work_pending)
				ran_with_work++;
			if (!info.throttled)
				continue;
			limbo_this_throttle = true;
			if (!was_limbo[i]) {
				was_limbo[i] = true;
				limbo_exec[i] = info.exec_ns;
				limbo_switches[i] = info.nr_switches_in;
			}
			if (!reniced) {
				nice = !nice;
				KUNIT_ASSERT_EQ(test, ft_task_set_nice(g.ids[i], nice), 0);
				reniced = true;
				renices++;
				info = ft_test_info(test, g.ids[i]);
				KUNIT_ASSERT_TRUE_MSG(test, info.throttled,
						      "task %d left limbo when reniced at %llu us",
						      g.ids[i], ft_now() / 1000);
			}
			KUNIT_ASSERT_EQ_MSG(test, info.nr_switches_in, limbo_switches[i],
					    "task %d was switched in at %llu us after its throttle work ran",
					    g.ids[i], ft_now() / 1000);
			KUNIT_ASSERT_FALSE_MSG(test, info.running,
					       "task %d runs at %llu us after its throttle work ran",
					       g.ids[i], ft_now() / 1000);
			KUNIT_ASSERT_EQ_MSG(test, info.exec_ns, limbo_exec[i],
					    "task %d gained run time in limbo by %llu us",
					    g.ids[i], ft_now() / 1000);
		}
		KUNIT_ASSERT_LE_MSG(test, exec - exec_at_throttle, tick,
				    "a group throttled since %llu us ran %llu us more by %llu us",
				    since / 1000, (exec - exec_at_throttle) / 1000, ft_now() / 1000);
	}
	if (was_throttled && limbo_this_throttle)
		throttles_to_limbo++;
	kunit_info(test, "%d throttles, %d sent a task to limbo, %d renices in limbo; a task with its work pending ran at %d samples",
		   throttles, throttles_to_limbo, renices, ran_with_work);
	KUNIT_EXPECT_GT(test, throttles, 0);
	KUNIT_EXPECT_EQ(test, throttles_to_limbo, throttles);
}

/*
 * Two CPUs, a CPU-bound task of one group pinned to each, the group
 * limited to 40 ms per 100 ms; 20 periods. A queue draws runtime from
 * the group's pool a bandwidth slice (5 ms) at a time, as it needs it, so
 * while the pool holds runtime neither queue is refused, and the queue
 * that is ahead holds at most a slice it has not run plus the tick it may
 * overrun. Expect in every period after the first the two CPUs together
 * to run at most the quota plus a tick each (an overrun is paid back from
 * the next period), and each CPU at least half of what is left of the
 * quota once the other's unspent slice and overrun are taken out.
 */
static void each_cpu_draws_from_the_group_pool(struct kunit *test)
{
	struct bw_group g;
	ft_u64 quota = 2 * QUOTA_NS, tick = ft_tick_nsec(), start, last[2], floor;
	int ids[2];

	KUNIT_ASSERT_EQ(test, ft_nr_cpus(), 2);
	bw_group_create(test, &g, 2, quota, true);
	memcpy(ids, g.ids, sizeof(ids));
	floor = (quota - BW_SLICE_NS - tick) / 2;
	start = ft_now();
	ft_run_for(PERIOD_NS);
	for (int cpu = 0; cpu < 2; cpu++)
		last[cpu] = ft_test_info(test, ids[cpu]).exec_ns;
	for (int k = 2; k <= PERIODS; k++) {
		ft_u64 ran[2];

		ft_run_for(start + k * PERIOD_NS - ft_now());
		for (int cpu = 0; cpu < 2; cpu++) {
			ft_u64 exec = ft_test_info(test, ids[cpu]).exec_ns;

			ran[cpu] = exec - last[cpu];
			last[cpu] = exec;
		}
		if (k == PERIODS)
			kunit_info(test, "period %d: cpu0 ran %llu us, cpu1 %llu us of a %llu us quota",
				   k, ran[0] / 1000, ran[1] / 1000, quota / 1000);
		KUNIT_EXPECT_LE_MSG(test, ran[0] + ran[1], quota + 2 * tick,
				    "period %d: the CPUs ran %llu + %llu us of a %llu us quota",
				    k, ran[0] / 1000, ran[1] / 1000, quota / 1000);
		for (int cpu = 0; cpu < 2; cpu++)
			KUNIT_EXPECT_GE_MSG(test, ran[cpu], floor,
					    "period %d: cpu%d ran %llu us, the other %llu us of a %llu us quota",
					    k, cpu, ran[cpu] / 1000, ran[!cpu] / 1000, quota / 1000);
	}
}

static struct kunit_case bandwidth_cases[] = {
	KUNIT_CASE(group_runs_at_most_its_quota_per_period),
	KUNIT_CASE(throttled_queue_is_never_picked),
	KUNIT_CASE(throttled_task_stops_once_it_returns_to_user),
	KUNIT_CASE(lifting_the_limit_unthrottles_everything),
	KUNIT_CASE(returned_runtime_unthrottles_before_the_period_ends),
	{}
};

static struct kunit_suite bandwidth_suite = {
	.name = "fair_bandwidth",
	.init = ft_test_boot_one_cpu,
	.test_cases = bandwidth_cases,
};

kunit_test_suite(bandwidth_suite);

static struct kunit_suite bandwidth_smp_suite = {
	.name = "fair_bandwidth_smp",
	.init = ft_test_boot_two_cpus,
	.test_cases = (struct kunit_case[]){
		KUNIT_CASE(group_runs_at_most_its_quota_per_period),
		KUNIT_CASE(each_cpu_draws_from_the_group_pool),
		{}
	},
};

kunit_test_suite(bandwidth_smp_suite);

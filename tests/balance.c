// SPDX-License-Identifier: GPL-2.0
/*
 * Load balancing by the tree's fair.c over domains from its topology.c:
 * periodic balancing from the tick's SCHED_SOFTIRQ, new-idle balancing
 * from the pick path, active balancing through the CPU stopper. Each case
 * states a bound derived from the balancer's documented rules (intervals,
 * cache_nice_tries, the active-balance threshold), so a change that makes
 * the balancer slower or wrong fails here by name.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"

/* Tasks per CPU of @ids; returns max - min. */
static int spread(struct kunit *test, const int *ids, int n, int nr_cpus, char *buf,
		  size_t size)
{
	int per[FT_MAX_CPUS] = { 0 }, lo = n, hi = 0;
	size_t len = 0;

	for (int i = 0; i < n; i++)
		per[ft_test_info(test, ids[i]).cpu]++;
	for (int c = 0; c < nr_cpus; c++) {
		lo = per[c] < lo ? per[c] : lo;
		hi = per[c] > hi ? per[c] : hi;
		if (len < size)
			len += snprintf(buf + len, size - len, "%s%d", c ? " " : "", per[c]);
	}
	return hi - lo;
}

/*
 * N CPU-bound tasks all pinned to CPU 0, then allowed everywhere, on a
 * machine of M = N CPUs. Expect a spread of at most one task per CPU
 * within ft_spread_bound_ns() of CPU 0's domains, and still so at the end
 * of the run. The bound: level by level, each pass at most max_interval
 * apart (the interval exactly, passes_follow_the_domain_intervals checks),
 * ceil(log2(groups)) passes that halve the imbalance between the level's
 * groups plus cache_nice_tries + 1 that may fail while the waiting tasks
 * are cache hot (they ran within sysctl_sched_migration_cost). On 6.12 at
 * HZ=250 that is 36 / 76 / 172 ms for the three machines, where they
 * spread in 4 / 40 / 48 ms (8 / 40 / 144 at HZ=1000); a balancer four
 * times slower takes 16 / 96 / 368 ms.
 */
static void converge(struct kunit *test, const char *topo, int n)
{
	ft_u64 bound, start, reached = 0;
	int ids[FT_MAX_CPUS];
	char buf[128];

	ft_test_boot_topology(test, topo);
	bound = ft_spread_bound_ns(0);
	for (int i = 0; i < n; i++) {
		ids[i] = ft_test_fork(test, 0, 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 1), 0);
	}
	spread(test, ids, n, n, buf, sizeof(buf));
	for (int i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], ~0ULL), 0);
	start = ft_now();
	while (ft_now() - start < bound + 100 * NSEC_PER_MSEC) {
		ft_run_for(NSEC_PER_MSEC);
		if (!reached && spread(test, ids, n, n, buf, sizeof(buf)) <= 1)
			reached = ft_now() - start;
	}
	kunit_info(test, "%s: %d tasks spread at %llu ms (bound %llu ms); at the end: %s",
		   topo, n, reached / NSEC_PER_MSEC, bound / NSEC_PER_MSEC, buf);
	KUNIT_EXPECT_GT_MSG(test, reached, 0, "%s: never spread: %s", topo, buf);
	KUNIT_EXPECT_LE(test, reached, bound);
	KUNIT_EXPECT_LE_MSG(test, spread(test, ids, n, n, buf, sizeof(buf)), 1,
			    "%s: spread again at the end: %s", topo, buf);
	ft_shutdown();
}

/* converge() on four CPUs sharing an LLC: 4 tasks. */
static void tasks_spread_on_mc_4(struct kunit *test)
{
	converge(test, "mc-4", 4);
}

/* converge() on 4 cores x 2 SMT threads: 8 tasks. */
static void tasks_spread_on_smt_mc_8(struct kunit *test)
{
	converge(test, "smt-mc-8", 8);
}

/* converge() across two packages (the top level spans 16 CPUs): 16 tasks. */
static void tasks_spread_on_two_packages(struct kunit *test)
{
	converge(test, "two-pkg-16", 16);
}

/*
 * Two CPUs sharing an LLC, four CPU-bound tasks of nice -5, 0, 0, 0
 * (weights 3121, 1024, 1024, 1024) released from CPU 0, 2 s. Expect the
 * weight on each CPU within the MC level's imbalance_pct (117%) of the
 * other's at the end: {3121} against {3072} is the only split that is;
 * counting tasks alone (2 + 2) would leave 4145 against 2048, so this
 * needs the balancer to move load, not tasks (migrate_load).
 */
static void weighted_loads_balance_within_imbalance_pct(struct kunit *test)
{
	static const int nice[] = { -5, 0, 0, 0 };
	unsigned long w[2] = { 0, 0 };
	int ids[4];

	ft_test_boot_topology(test, "mc-2");
	for (int i = 0; i < 4; i++) {
		ids[i] = ft_test_fork(test, nice[i], 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 1), 0);
	}
	for (int i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 3), 0);
	ft_run_for(2 * NSEC_PER_SEC);
	for (int i = 0; i < 4; i++) {
		struct ft_task_info info = ft_test_info(test, ids[i]);

		w[info.cpu] += info.weight;
	}
	kunit_info(test, "weight per CPU: %lu, %lu", w[0], w[1]);
	KUNIT_EXPECT_LE(test, 100 * w[0], 117 * w[1]);
	KUNIT_EXPECT_LE(test, 100 * w[1], 117 * w[0]);
}

/*
 * Two CPUs: A and B CPU-bound, pinned to CPU 0 until half a tick (at
 * least 0.6 ms) after the tick at 20 ms: they switch only at ticks, so
 * the one waiting has not run for that long, more than the 0.5 ms
 * migration cost: not cache hot (22 ms at HZ=250, 20.6 ms at HZ=1000), X
 * running alone on CPU 1; then A and B may use both CPUs and X sleeps at
 * once, before any tick. Expect CPU 1's new-idle balance, from the pick
 * path of that very schedule, to pull A or B: CPU 1 is not idle after
 * the sleep, with no time passed and no tick. NI_RANDOM (where the tree
 * has it) is off: it skips a new-idle balance at random, in proportion
 * to how often they failed, and the rule tested is what one does.
 */
static void newly_idle_cpu_pulls_waiting_task(struct kunit *test)
{
	int a, b, x;

	ft_test_boot_topology(test, "mc-2");
	ft_test_features(test, "?!NI_RANDOM", NULL);
	a = ft_test_fork(test, 0, 0);
	b = ft_test_fork(test, 0, 0);
	x = ft_test_fork(test, 0, 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(a, 1), 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(b, 1), 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(x, 2), 0);
	ft_run_for(20 * NSEC_PER_MSEC + (ft_tick_nsec() / 2 > 600 * NSEC_PER_USEC ?
					 ft_tick_nsec() / 2 : 600 * NSEC_PER_USEC));
	KUNIT_ASSERT_EQ(test, ft_curr(1), x);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(a, 3), 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(b, 3), 0);
	KUNIT_ASSERT_EQ(test, ft_task_sleep(x), 0);
	KUNIT_EXPECT_TRUE_MSG(test, ft_curr(1) == a || ft_curr(1) == b,
			      "cpu 1 runs %d after x slept", ft_curr(1));
	KUNIT_EXPECT_NE(test, ft_curr(0), 0);
	ft_shutdown();
}

/*
 * The 4+3+1 big.LITTLE machine: one CPU-bound task pinned to little CPU 0
 * for 200 ms (its utilisation saturates at the little CPU's 448, which
 * does not fit there with fair.c's 20% margin: a misfit), then allowed
 * everywhere while every other CPU is idle. It is running, so only an
 * active balance can move it: expect it on a big or the prime CPU
 * (capacity >= 870) within 2 * max_interval of the MC level (16 ms) plus
 * a tick, moved by a stopper work.
 */
static void misfit_task_moves_to_big_cpu(struct kunit *test)
{
	ft_u64 start, bound = 2 * 16 * NSEC_PER_MSEC + ft_tick_nsec(), moved = 0;
	int id, cpu = 0;

	ft_test_boot_topology(test, "biglittle-8");
	id = ft_test_fork(test, 0, 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 1), 0);
	ft_run_for(200 * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_curr(0), id);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, ~0ULL), 0);
	start = ft_now();
	while (!moved && ft_now() - start < 10 * bound) {
		ft_run_for(NSEC_PER_MSEC);
		cpu = ft_test_info(test, id).cpu;
		if (ft_cpu_capacity(cpu) >= 870)
			moved = ft_now() - start;
	}
	kunit_info(test, "moved to cpu %d (capacity %lu) after %llu ms, %llu stopper works",
		   cpu, ft_cpu_capacity(cpu), moved / NSEC_PER_MSEC, ft_stop_works());
	KUNIT_EXPECT_GT(test, moved, 0);
	KUNIT_EXPECT_LE(test, moved, bound);
	KUNIT_EXPECT_GT(test, ft_stop_works(), 0);
	ft_shutdown();
}

/* The lowest domain level of @cpu whose span holds @other; -1 if none. */
static int level_with(int cpu, int other, struct ft_domain *out)
{
	struct ft_domain d[8];
	int n = ft_cpu_domains(cpu, d, 8);

	for (int i = 0; i < n; i++) {
		if (d[i].span >> other & 1) {
			*out = d[i];
			return i;
		}
	}
	return -1;
}

/*
 * Two CPUs sharing an LLC: A (nice -20) and B (nice 19, pinned) on CPU 0,
 * CPU 1 idle; A allowed on both once it runs. A runs nearly all the time
 * (B's weight is 15 against 88761) and a running task cannot be pulled,
 * B may not move: every periodic attempt of CPU 1 fails and counts in its
 * domain's nr_balance_failed. Expect, attempt by attempt, no stopper work
 * while that count is at most cache_nice_tries + 2, and the attempt that
 * takes it past (the domain's own cache_nice_tries + 3rd) to queue exactly
 * one, which moves A to CPU 1 and resets the count: need_active_balance()'s
 * rule for an imbalance in tasks (migrate_task).
 */
static void active_balance_starts_after_cache_nice_tries_failures(struct kunit *test)
{
	struct ft_domain d;
	unsigned int seen = 0, tries;
	ft_u64 works;
	int a, b;

	ft_test_boot_topology(test, "mc-2");
	a = ft_test_fork(test, -20, 0);
	b = ft_test_fork(test, 19, 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(a, 1), 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(b, 1), 0);
	ft_run_for(20 * NSEC_PER_MSEC);
	while (ft_curr(0) != a)
		ft_run_for(ft_tick_nsec());
	KUNIT_ASSERT_GE(test, level_with(1, 0, &d), 0);
	tries = d.cache_nice_tries;
	KUNIT_ASSERT_EQ(test, d.nr_balance_failed, 0);
	works = ft_stop_works();
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(a, 3), 0);
	for (int t = 0; t < 200 && ft_test_info(test, a).cpu == 0; t++) {
		ft_run_for(ft_tick_nsec());
		KUNIT_ASSERT_EQ_MSG(test, ft_curr(0) == a || ft_test_info(test, a).cpu == 1, true,
				    "B ran on cpu 0 at %llu ms: A was not always running there",
				    ft_now() / NSEC_PER_MSEC);
		level_with(1, 0, &d);
		if (ft_test_info(test, a).cpu == 0) {
			KUNIT_EXPECT_EQ_MSG(test, ft_stop_works(), works,
					    "stopper queued after %u failed attempts", d.nr_balance_failed);
			KUNIT_ASSERT_LE_MSG(test, d.nr_balance_failed, tries + 2,
					    "%u failed attempts and A still on cpu 0", d.nr_balance_failed);
			seen = d.nr_balance_failed > seen ? d.nr_balance_failed : seen;
		}
	}
	kunit_info(test, "cache_nice_tries %u: %u failed attempts, then %llu stopper work(s); A on cpu %d",
		   tries, seen, ft_stop_works() - works, ft_test_info(test, a).cpu);
	KUNIT_EXPECT_EQ(test, seen, tries + 2);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, a).cpu, 1);
	KUNIT_EXPECT_EQ(test, ft_stop_works(), works + 1);
	KUNIT_EXPECT_EQ(test, d.nr_balance_failed, 0);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, b).cpu, 0);
	ft_shutdown();
}

/*
 * Releases @n tasks pinned to CPU 0 to CPUs 0-1 and runs tick by tick
 * until the first balance pass moves any; returns how many it moved and
 * fills @moved with their ids. @load: each task's PELT load and CPU 0's
 * and CPU 1's root load and capacity as read before that tick.
 */
struct pass {
	int nr, ids[16];
	unsigned long task_load[16], load[2], cap[2];
};

static void first_pass(struct kunit *test, const int *ids, int n, struct pass *ps)
{
	for (int i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 3), 0);
	for (int t = 0; t < 200 && !ps->nr; t++) {
		ft_u64 migrations = ft_event_count(FT_EV_MIGRATE);

		for (int c = 0; c < 2; c++) {
			struct ft_cfs_info cfs;

			KUNIT_ASSERT_EQ(test, ft_cfs_info(c, FT_ROOT_GROUP, &cfs), 0);
			ps->load[c] = cfs.load_avg;
			ps->cap[c] = ft_cpu_capacity(c);
		}
		for (int i = 0; i < n; i++)
			ps->task_load[i] = ft_test_info(test, ids[i]).load_avg;
		ft_run_for(ft_tick_nsec());
		for (int i = 0; i < n; i++)
			if (ft_test_info(test, ids[i]).cpu == 1)
				ps->ids[ps->nr++] = i;
		KUNIT_ASSERT_EQ(test, ft_event_count(FT_EV_MIGRATE) - migrations, ps->nr);
	}
	KUNIT_ASSERT_GT_MSG(test, ps->nr, 0, "no task moved in 200 ticks");
}

/*
 * Two CPUs sharing an LLC, five CPU-bound tasks pinned to CPU 0 for 20 ms
 * (CPU 1 idle), then allowed on both. CPU 1 is idle and each CPU is a
 * group of one: calculate_imbalance() asks for half the difference in
 * tasks, (5 - 0) / 2 = 2 (migrate_task), and of the four waiting at most
 * one ran within the migration cost. Expect the first pass to move
 * exactly 2: detach_tasks() counts each task it detached off the
 * imbalance and stops there, not when CPU 0 is down to one task.
 */
static void one_pass_moves_the_task_imbalance(struct kunit *test)
{
	struct pass ps = { 0 };
	int ids[5];

	ft_test_boot_topology(test, "mc-2");
	for (int i = 0; i < 5; i++) {
		ids[i] = ft_test_fork(test, 0, 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 1), 0);
	}
	ft_run_for(20 * NSEC_PER_MSEC);
	first_pass(test, ids, 5, &ps);
	kunit_info(test, "first pass at %llu ms moved %d of 5 tasks (imbalance 2)",
		   ft_now() / NSEC_PER_MSEC, ps.nr);
	KUNIT_EXPECT_EQ(test, ps.nr, (5 - 0) / 2);
	ft_shutdown();
}

/*
 * Two CPUs sharing an LLC: X pinned to CPU 1, four tasks pinned to CPU 0,
 * all CPU-bound, 200 ms (their PELT loads near their weight, 1024), then
 * the four allowed on both. Both CPUs are busy: CPU 1's periodic pass
 * moves load (migrate_load), imbalance = min((avg_0 - avg) * cap_0,
 * (avg - avg_1) * cap_1) / 1024 with avg_i = load_i * 1024 / cap_i and
 * avg the pair's, about (4 - 1) / 2 tasks' worth. Expect, from the loads
 * read just before the pass, the load it moved to be at most that
 * imbalance and what is left of it smaller than any task on CPU 0 (no
 * task that still fitted was left): one task here, not two.
 */
static void one_pass_moves_at_most_the_load_imbalance(struct kunit *test)
{
	unsigned long avg0, avg1, avg, imb, moved = 0, smallest = ~0UL;
	struct pass ps = { 0 };
	int ids[4], x;

	ft_test_boot_topology(test, "mc-2");
	x = ft_test_fork(test, 0, 1);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(x, 2), 0);
	for (int i = 0; i < 4; i++) {
		ids[i] = ft_test_fork(test, 0, 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 1), 0);
	}
	ft_run_for(200 * NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, ft_curr(1), x);
	first_pass(test, ids, 4, &ps);
	avg0 = ps.load[0] * 1024 / ps.cap[0];
	avg1 = ps.load[1] * 1024 / ps.cap[1];
	avg = (ps.load[0] + ps.load[1]) * 1024 / (ps.cap[0] + ps.cap[1]);
	KUNIT_ASSERT_TRUE(test, avg1 < avg && avg < avg0);
	imb = (avg0 - avg) * ps.cap[0] < (avg - avg1) * ps.cap[1] ?
	      (avg0 - avg) * ps.cap[0] / 1024 : (avg - avg1) * ps.cap[1] / 1024;
	for (int i = 0; i < 4; i++) {
		bool gone = false;

		for (int j = 0; j < ps.nr; j++)
			gone |= ps.ids[j] == i;
		if (gone)
			moved += ps.task_load[i];
		else if (ps.task_load[i] < smallest)
			smallest = ps.task_load[i];
	}
	kunit_info(test, "loads %lu / %lu: imbalance %lu; the pass moved %d task(s), load %lu",
		   ps.load[0], ps.load[1], imb, ps.nr, moved);
	KUNIT_EXPECT_LE(test, moved, imb);
	if (moved <= imb)
		KUNIT_EXPECT_LT(test, imb - moved, smallest);
	KUNIT_EXPECT_EQ(test, ps.nr, 1);
	ft_shutdown();
}

/* msecs_to_jiffies() at this tree's HZ (TICK_NSEC ns per jiffy), rounded up. */
static ft_u64 ms_to_jiffies(ft_u64 ms)
{
	return (ms * NSEC_PER_MSEC + ft_tick_nsec() - 1) / ft_tick_nsec();
}

/*
 * get_sd_balance_interval(): the domain's balance_interval (ms), times its
 * busy_factor on a busy CPU, in jiffies, one less when busy (so levels do
 * not balance in step), at least 1 and at most max_load_balance_interval
 * (HZ * (CPUs - 1) / 10 after the last CPU came up, HZ / 10 on one CPU).
 */
static ft_u64 expected_interval(const struct ft_domain *d, bool busy)
{
	ft_u64 hz = NSEC_PER_SEC / ft_tick_nsec();
	ft_u64 max = hz * (ft_nr_cpus() > 1 ? ft_nr_cpus() - 1 : 1) / 10;
	ft_u64 j = ms_to_jiffies((ft_u64)d->balance_interval * (busy ? d->busy_factor : 1));

	if (busy)
		j--;
	return j < 1 ? 1 : j > max ? max : j;
}

/*
 * Follows each domain level of @cpu tick by tick for @ms and checks every
 * gap between two of its periodic passes (last_balance moving) against
 * expected_interval() of the balance_interval the earlier pass left.
 * Returns the number of gaps checked.
 */
static int check_pass_gaps(struct kunit *test, int cpu, bool busy, ft_u64 ms)
{
	struct ft_domain prev[8], d[8];
	int n = ft_cpu_domains(cpu, prev, 8), gaps = 0;
	bool seen[8] = { false };

	KUNIT_ASSERT_GT(test, n, 0);
	for (ft_u64 t = 0; t < ms * NSEC_PER_MSEC; t += ft_tick_nsec()) {
		ft_run_for(ft_tick_nsec());
		KUNIT_ASSERT_EQ(test, ft_cpu_domains(cpu, d, 8), n);
		for (int l = 0; l < n; l++) {
			if (d[l].last_balance == prev[l].last_balance)
				continue;
			if (seen[l]) {
				KUNIT_EXPECT_EQ_MSG(test, d[l].last_balance - prev[l].last_balance,
						    expected_interval(&prev[l], busy),
						    "cpu %d %s: %s pass after %llu jiffies, balance_interval %u ms",
						    cpu, d[l].name, busy ? "busy" : "idle",
						    d[l].last_balance - prev[l].last_balance,
						    prev[l].balance_interval);
				gaps++;
			}
			seen[l] = true;
			prev[l] = d[l];
		}
	}
	return gaps;
}

/*
 * Periodic balancing runs each level exactly as often as its interval
 * says. 4 cores x 2 SMT threads, a CPU-bound task pinned to each CPU (all
 * busy, nothing to move: each pass doubles balance_interval up to
 * max_interval), 2 s: on CPU 0, the first CPU of every group and so the
 * one that balances each level, expect every gap between two passes of a
 * level to be get_sd_balance_interval() of its busy interval, exactly.
 * Then four CPUs sharing an LLC, one task pinned to CPU 0, CPUs 1-3 idle
 * and ticking (not where idle CPUs stop their tick): expect CPU 1's gaps
 * to be its idle interval, exactly. These intervals are what the
 * spreading bounds below are made of.
 */
static void passes_follow_the_domain_intervals(struct kunit *test)
{
	int gaps;

	ft_test_boot_topology(test, "smt-mc-8");
	for (int cpu = 0; cpu < 8; cpu++)
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ft_test_fork(test, 0, cpu), 1ULL << cpu), 0);
	ft_run_for(20 * NSEC_PER_MSEC);
	gaps = check_pass_gaps(test, 0, true, 2000);
	kunit_info(test, "smt-mc-8, busy cpu 0: %d gaps checked", gaps);
	KUNIT_EXPECT_GE(test, gaps, 10);
	ft_shutdown();

	ft_test_boot_topology(test, "mc-4");
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ft_test_fork(test, 0, 0), 1), 0);
	ft_run_for(20 * NSEC_PER_MSEC);
	if (ft_tick_stopped(1)) {
		kunit_info(test, "mc-4: idle CPUs stop their tick here; idle gaps not checked");
		return;
	}
	gaps = check_pass_gaps(test, 1, false, 500);
	kunit_info(test, "mc-4, idle cpu 1: %d gaps checked", gaps);
	KUNIT_EXPECT_GE(test, gaps, 10);
	ft_shutdown();
}

static struct kunit_case balance_cases[] = {
	KUNIT_CASE(tasks_spread_on_mc_4),
	KUNIT_CASE(tasks_spread_on_smt_mc_8),
	KUNIT_CASE(tasks_spread_on_two_packages),
	KUNIT_CASE(weighted_loads_balance_within_imbalance_pct),
	KUNIT_CASE(newly_idle_cpu_pulls_waiting_task),
	KUNIT_CASE(misfit_task_moves_to_big_cpu),
	KUNIT_CASE(active_balance_starts_after_cache_nice_tries_failures),
	KUNIT_CASE(one_pass_moves_the_task_imbalance),
	KUNIT_CASE(one_pass_moves_at_most_the_load_imbalance),
	KUNIT_CASE(passes_follow_the_domain_intervals),
	{}
};

static struct kunit_suite balance_suite = {
	.name = "fair_balance",
	.test_cases = balance_cases,
};

kunit_test_suites(&balance_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * Idle CPUs without a tick (PROFILE=nohz: CONFIG_NO_HZ_IDLE). An idle CPU
 * stops its tick and joins fair.c's nohz idle set; nobody balances for it
 * but the idle load balancer, which a busy CPU's tick kicks with an IPI
 * (nohz_balancer_kick(), kick_ilb()). These cases skip on the periodic
 * base profile, where every CPU ticks and no kick is ever needed.
 */
#include "harness.h"

/*
 * Eight CPUs, all idle after boot, then one CPU-bound task for 20 ms,
 * then it exits. Expect every idle CPU's tick stopped throughout, the
 * task's CPU ticking while it runs and stopped again after, and the task
 * never moved. The busy tick still kicks the idle balancer now and then
 * (NOHZ_STATS_KICK: the idle CPUs' blocked load must decay), and that
 * kick must not restart anyone's tick: the count is printed.
 */
static void idle_cpus_stop_their_tick(struct kunit *test)
{
	int id, cpu;

	ft_test_require(test, "nohz_idle");
	ft_test_boot_topology(test, "smt-mc-8");
	for (int c = 0; c < 8; c++)
		KUNIT_EXPECT_TRUE_MSG(test, ft_tick_stopped(c), "cpu %d ticks after boot", c);
	id = ft_test_fork(test, 0, 0);
	cpu = ft_test_info(test, id).cpu;
	ft_events_reset();
	ft_run_for(20 * NSEC_PER_MSEC);
	for (int c = 0; c < 8; c++)
		KUNIT_EXPECT_EQ_MSG(test, ft_tick_stopped(c), c != cpu, "cpu %d", c);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, id).cpu, cpu);
	KUNIT_EXPECT_EQ(test, ft_event_count(FT_EV_MIGRATE), 0);
	kunit_info(test, "%llu idle-balancer kicks delivered", ft_ipis_delivered());
	KUNIT_ASSERT_EQ(test, ft_task_exit(id), 0);
	KUNIT_EXPECT_TRUE(test, ft_tick_stopped(cpu));
}

/*
 * Eight CPU-bound tasks pinned to CPU 0 of 4 cores x 2 SMT threads, then
 * allowed everywhere; the other seven CPUs are idle without a tick, so
 * only CPU 0's tick can start their balancing, by kicking the idle load
 * balancer. Expect the spread of fair_balance (at most one task apart)
 * within its bound, 7 x 4 attempts x 16 ms + a tick, plus the IPI's
 * latency, and kicks delivered.
 */
static void kicked_idle_balancer_spreads_tasks(struct kunit *test)
{
	ft_u64 bound = 7 * 4 * 16 * NSEC_PER_MSEC + ft_tick_nsec() + NSEC_PER_USEC;
	ft_u64 start, reached = 0;
	int ids[8];

	ft_test_require(test, "nohz_idle");
	ft_test_boot_topology(test, "smt-mc-8");
	for (int i = 0; i < 8; i++) {
		ids[i] = ft_test_fork(test, 0, 0);
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], 1), 0);
	}
	for (int i = 0; i < 8; i++)
		KUNIT_ASSERT_EQ(test, ft_task_set_affinity(ids[i], ~0ULL), 0);
	start = ft_now();
	while (!reached && ft_now() - start < 2 * bound) {
		int per[8] = { 0 }, lo = 8, hi = 0;

		ft_run_for(NSEC_PER_MSEC);
		for (int i = 0; i < 8; i++)
			per[ft_test_info(test, ids[i]).cpu]++;
		for (int c = 0; c < 8; c++) {
			lo = per[c] < lo ? per[c] : lo;
			hi = per[c] > hi ? per[c] : hi;
		}
		if (hi - lo <= 1)
			reached = ft_now() - start;
	}
	kunit_info(test, "spread after %llu ms, %llu IPIs delivered",
		   reached / NSEC_PER_MSEC, ft_ipis_delivered());
	KUNIT_EXPECT_GT(test, reached, 0);
	KUNIT_EXPECT_LE(test, reached, bound);
	KUNIT_EXPECT_GT(test, ft_ipis_delivered(), 0);
}

static struct kunit_case nohz_cases[] = {
	KUNIT_CASE(idle_cpus_stop_their_tick),
	KUNIT_CASE(kicked_idle_balancer_spreads_tasks),
	{}
};

static struct kunit_suite nohz_suite = {
	.name = "fair_nohz",
	.test_cases = nohz_cases,
};

kunit_test_suites(&nohz_suite);

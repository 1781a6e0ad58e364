// SPDX-License-Identifier: GPL-2.0
/*
 * Wake-up and fork CPU selection by the tree's select_task_rq_fair() over
 * real domains: the fast path (select_idle_sibling(): an idle prev_cpu is
 * kept, else an idle CPU of the LLC is found), wake_affine()'s choice
 * between the waker's and the wakee's CPU for sync wake-ups across LLCs,
 * and fork balancing, which fills idle cores before SMT siblings; and
 * when a wake-up's preemption of a busy remote CPU takes effect (its
 * reschedule IPI). Each case pins the busy tasks so that no balancing
 * moves anything while the placement under test happens.
 */
#include "harness.h"

/* A task that runs 1 ms on @cpu and then sleeps for longer than any case. */
static int sleeper_on(struct kunit *test, int cpu)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int id;

	attr.run_ns = NSEC_PER_MSEC;
	attr.sleep_ns = 100 * NSEC_PER_SEC;
	id = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, id, 0);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 1ULL << cpu), 0);
	return id;
}

static int hog_on(struct kunit *test, int cpu)
{
	int id = ft_test_fork(test, 0, 0);

	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(id, 1ULL << cpu), 0);
	return id;
}

/* Runs until @s has slept on its CPU, then allows it everywhere. */
static void let_sleep_then_free(struct kunit *test, int s, int cpu)
{
	ft_run_for(20 * NSEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, ft_test_info(test, s).sleeping);
	KUNIT_ASSERT_EQ(test, ft_test_info(test, s).cpu, cpu);
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(s, ~0ULL), 0);
}

static void busy_prev_wakes_on_idle_cpu(struct kunit *test)
{
	int s, cpu;

	ft_test_boot_topology(test, "mc-4");
	hog_on(test, 0);
	hog_on(test, 1);
	s = sleeper_on(test, 0);
	let_sleep_then_free(test, s, 0);
	KUNIT_ASSERT_EQ(test, ft_task_wake(s), 0);
	cpu = ft_test_info(test, s).cpu;
	KUNIT_EXPECT_TRUE_MSG(test, cpu == 2 || cpu == 3, "woke on cpu %d", cpu);
	KUNIT_EXPECT_EQ(test, ft_curr(cpu), s);
}

/*
 * Four CPUs sharing an LLC, hogs pinned to CPUs 0 and 1, a sleeper last
 * on CPU 0; it wakes (a timer on CPU 0). Expect it on idle CPU 2 or 3,
 * running: select_idle_sibling() leaves a busy prev_cpu for an idle CPU
 * of the LLC.
 */
static void wakeup_leaves_busy_prev_for_idle_llc_cpu(struct kunit *test)
{
	busy_prev_wakes_on_idle_cpu(test);
}

/* The same with SIS_UTIL off: the idle scan is not cut by utilisation. */
static void wakeup_leaves_busy_prev_without_sis_util(struct kunit *test)
{
	ft_test_features(test, "!SIS_UTIL", NULL);
	busy_prev_wakes_on_idle_cpu(test);
}

/*
 * Four CPUs, a hog pinned to CPU 0, a sleeper last on CPU 2, CPUs 1-3
 * idle; it wakes from a timer on CPU 2. Expect it on CPU 2: an idle
 * prev_cpu is kept (cache affinity), not any other idle CPU.
 */
static void idle_prev_cpu_is_kept(struct kunit *test)
{
	int s;

	ft_test_boot_topology(test, "mc-4");
	hog_on(test, 0);
	s = sleeper_on(test, 2);
	let_sleep_then_free(test, s, 2);
	KUNIT_ASSERT_EQ(test, ft_task_wake(s), 0);
	KUNIT_EXPECT_EQ(test, ft_test_info(test, s).cpu, 2);
	KUNIT_EXPECT_EQ(test, ft_curr(2), s);
}

/*
 * Two packages: a hog W pinned to CPU 0 (package 0) wakes a sleeper last
 * on CPU 9 (package 1, idle). Without WF_SYNC, wake_affine_idle() keeps
 * the idle prev_cpu: expect CPU 9. With WF_SYNC and W alone on its CPU,
 * it picks the waker's CPU as target, and select_idle_sibling() then
 * takes an idle CPU of the waker's LLC (prev_cpu shares no cache with
 * it): expect a CPU of package 0 other than 0. SIS_UTIL is off: its scan
 * depth comes from periodic balancing, which idle CPUs without a tick
 * (the nohz profile) have not done yet, and the rule tested here is
 * wake_affine()'s choice of LLC, not the depth of the scan.
 */
static void sync_wakeup_follows_wake_affine(struct kunit *test)
{
	int w, s, cpu;

	for (int sync = 0; sync <= 1; sync++) {
		ft_test_boot_topology(test, "two-pkg-16");
		ft_test_features(test, "!SIS_UTIL", NULL);
		w = hog_on(test, 0);
		s = sleeper_on(test, 9);
		let_sleep_then_free(test, s, 9);
		KUNIT_ASSERT_EQ(test, ft_curr(0), w);
		KUNIT_ASSERT_EQ(test, ft_task_wake_by(s, w, sync), 0);
		cpu = ft_test_info(test, s).cpu;
		kunit_info(test, "%ssync wake-up on cpu %d", sync ? "" : "non-", cpu);
		if (sync)
			KUNIT_EXPECT_TRUE_MSG(test, cpu > 0 && cpu < 8,
					      "sync wake-up on cpu %d", cpu);
		else
			KUNIT_EXPECT_EQ(test, cpu, 9);
		KUNIT_EXPECT_EQ(test, ft_curr(cpu), s);
	}
	ft_shutdown();
}

/*
 * Eight CPUs as 4 cores x 2 SMT threads (siblings n and n+4), four
 * CPU-bound tasks forked from CPU 0. Expect fork balancing to put them
 * on four different cores: fair.c prefers the group with the most idle
 * CPUs, so a core with both threads idle wins over a busy core's sibling.
 */
static void forks_fill_cores_before_smt_siblings(struct kunit *test)
{
	int cores = 0;

	ft_test_boot_topology(test, "smt-mc-8");
	for (int i = 0; i < 4; i++) {
		int cpu = ft_test_info(test, ft_test_fork(test, 0, 0)).cpu;

		KUNIT_EXPECT_FALSE_MSG(test, cores & (1 << (cpu % 4)),
				       "task %d on cpu %d, a busy core's sibling", i, cpu);
		cores |= 1 << (cpu % 4);
	}
	KUNIT_EXPECT_EQ(test, cores, 0xf);
}

/*
 * smt-mc-8 (siblings n and n+4) with one thread of cores 0, 2 and 3 busy
 * (hogs on CPUs 0, 2 and 3) and core 1 (CPUs 1 and 5) wholly idle; S,
 * asleep, last ran on CPU 2. The hog on CPU 0 wakes S: prev and the
 * waker's CPU are both busy, so select_idle_sibling() scans the LLC.
 * Expect S on CPU 1 or 5, the idle core: with SMT, fair.c keeps
 * has_idle_cores for the LLC and looks for a core whose every thread is
 * idle before any idle thread (CPUs 4, 6 and 7 share a core with a hog:
 * CPU 6 is prev's sibling, CPU 4 the first idle CPU after prev).
 */
static void wakeup_prefers_an_idle_core_to_a_busy_cores_sibling(struct kunit *test)
{
	int s, w, cpu;

	ft_test_boot_topology(test, "smt-mc-8");
	w = hog_on(test, 0);
	hog_on(test, 2);
	hog_on(test, 3);
	s = sleeper_on(test, 2);
	let_sleep_then_free(test, s, 2);
	while (ft_curr(0) != w)
		ft_run_for(ft_tick_nsec());
	KUNIT_ASSERT_EQ(test, ft_task_wake_by(s, w, false), 0);
	cpu = ft_test_info(test, s).cpu;
	kunit_info(test, "woke on cpu %d", cpu);
	KUNIT_EXPECT_TRUE_MSG(test, cpu == 1 || cpu == 5,
			      "woke on cpu %d, not on the idle core (1, 5)", cpu);
	KUNIT_EXPECT_EQ(test, ft_curr(cpu), s);
}

/*
 * Two CPUs: a hog W pinned to CPU 0; on CPU 1, A running a sixth into
 * its slice, and S, pinned there, asleep, with an eighth slice, so that
 * on waking it preempts A (PREEMPT_SHORT). W wakes S from CPU 0, away
 * from any tick. Expect S queued on CPU 1 at once and, where wake-up
 * preemption is eager (up to 6.12), A running there until exactly one
 * IPI latency later (50 us: still A at 50 us - 1 ns), then S, after one
 * reschedule IPI; with latency 0, S at once and no IPI. Where it is lazy
 * (7.x, resched_curr_lazy()), no IPI is sent whatever the latency: A
 * runs until CPU 1's next tick, S from that tick on.
 * Slices end at a tick here: HRTICK off.
 */
static void remote_wakeup_preempts_one_ipi_later(struct kunit *test)
{
	const ft_u64 lat[] = { 50 * NSEC_PER_USEC, 0 };
	bool lazy = !ft_tree_lacks("resched_lazy");

	for (int i = 0; i < 2; i++) {
		struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
		ft_u64 tick = ft_tick_nsec(), wait;
		int w, a, s;

		ft_test_boot_topology(test, "mc-2");
		ft_test_features(test, "!HRTICK", "RUN_TO_PARITY", "PREEMPT_SHORT", NULL);
		ft_set_ipi_latency(lat[i]);
		w = hog_on(test, 0);
		attr.slice_ns = ft_base_slice() / 8;	/* below A's deadline once woken */
		attr.cpus = 1ULL << 1;
		s = ft_task_fork(&attr);
		KUNIT_ASSERT_GT(test, s, 0);
		KUNIT_ASSERT_EQ(test, ft_curr(1), s);
		KUNIT_ASSERT_EQ(test, ft_task_sleep(s), 0);
		a = hog_on(test, 1);
		KUNIT_ASSERT_EQ(test, ft_curr(1), a);
		ft_run_for(ft_base_slice() / 6);
		/* No tick of CPU 1 until the IPI is in. */
		KUNIT_ASSERT_LT(test, ft_now() % tick + lat[i], tick);

		KUNIT_ASSERT_EQ(test, ft_task_wake_by(s, w, false), 0);
		KUNIT_EXPECT_EQ(test, ft_test_info(test, s).cpu, 1);
		wait = lazy ? tick - ft_now() % tick : lat[i];
		kunit_info(test, "latency %llu ns: S runs %llu ns after the wake-up", lat[i], wait);
		if (wait) {
			KUNIT_EXPECT_EQ(test, ft_curr(1), a);
			ft_run_for(wait - 1);
			KUNIT_EXPECT_EQ(test, ft_curr(1), a);
			ft_run_for(1);
		}
		KUNIT_EXPECT_EQ(test, ft_curr(1), s);
		KUNIT_EXPECT_EQ(test, ft_resched_ipis(), !lazy && lat[i] ? 1 : 0);
	}
	ft_shutdown();
}

/*
 * wake_affine_idle()'s choice between the waker's CPU (this) and the
 * wakee's previous CPU (prev), case by case; each setup makes
 * select_idle_sibling() return the chosen CPU itself (it is idle) or scan
 * only the chosen LLC, so the CPU the wakee lands on names the choice:
 *  - an interrupt on idle CPU 3 (the idle task wakes), prev 1 idle, one
 *    LLC: prev is kept (no migration for an interrupt);
 *  - the same with prev 0 busy: this CPU, idle and cache affine, wins;
 *  - an interrupt on idle CPU 3 of package 0, prev 9 idle in package 1:
 *    no cache shared, prev is idle: prev;
 *  - W running alone on CPU 0 wakes with WF_SYNC, prev 9 idle: the waker's
 *    CPU (it is about to sleep), then an idle CPU of its LLC;
 *  - the same with a second task queued behind W: the sync rule does not
 *    apply (W's CPU stays busy), prev is idle: prev;
 *  - W alone on CPU 0 wakes without WF_SYNC, prev 9 idle: prev.
 * Expect each wake-up on the CPU given (-1: any of package 0 but CPU 0),
 * running. SIS_UTIL is off (see sync_wakeup_follows_wake_affine).
 */
static void wake_affine_idle_chooses_by_idle_state_and_sync(struct kunit *test)
{
	enum { IRQ, ALONE, QUEUED };
	static const struct {
		const char *topo;
		int prev, waker_cpu, waker, expect;
		bool prev_busy, sync;
	} tab[] = {
		{ "mc-4", 1, 3, IRQ, 1, false, false },
		{ "mc-4", 0, 3, IRQ, 3, true, false },
		{ "two-pkg-16", 9, 3, IRQ, 9, false, false },
		{ "two-pkg-16", 9, 0, ALONE, -1, false, true },
		{ "two-pkg-16", 9, 0, QUEUED, 9, false, true },
		{ "two-pkg-16", 9, 0, ALONE, 9, false, false },
	};

	for (unsigned int i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		int s, w = 0, cpu;

		ft_test_boot_topology(test, tab[i].topo);
		ft_test_features(test, "WA_IDLE", "!SIS_UTIL", NULL);
		if (tab[i].prev_busy)
			hog_on(test, tab[i].prev);
		if (tab[i].waker != IRQ)
			w = hog_on(test, tab[i].waker_cpu);
		if (tab[i].waker == QUEUED)
			hog_on(test, tab[i].waker_cpu);
		s = sleeper_on(test, tab[i].prev);
		let_sleep_then_free(test, s, tab[i].prev);
		if (tab[i].waker == IRQ) {
			KUNIT_ASSERT_EQ(test, ft_curr(tab[i].waker_cpu), 0);
			KUNIT_ASSERT_EQ(test, ft_task_wake_on(s, tab[i].waker_cpu), 0);
		} else {
			while (ft_curr(tab[i].waker_cpu) != w)
				ft_run_for(ft_tick_nsec());
			KUNIT_ASSERT_EQ(test, ft_task_wake_by(s, w, tab[i].sync), 0);
		}
		cpu = ft_test_info(test, s).cpu;
		kunit_info(test, "%s: prev %d %s, waker %s on cpu %d, %ssync: cpu %d", tab[i].topo,
			   tab[i].prev, tab[i].prev_busy ? "busy" : "idle",
			   tab[i].waker == IRQ ? "an interrupt" :
			   tab[i].waker == ALONE ? "a task alone" : "a task with one queued",
			   tab[i].waker_cpu, tab[i].sync ? "" : "non-", cpu);
		if (tab[i].expect < 0)
			KUNIT_EXPECT_TRUE_MSG(test, cpu > 0 && cpu < 8, "row %u: cpu %d", i, cpu);
		else
			KUNIT_EXPECT_EQ_MSG(test, cpu, tab[i].expect, "row %u", i);
		KUNIT_EXPECT_EQ(test, ft_curr(cpu), s);
		ft_shutdown();
	}
}

static struct kunit_case placement_cases[] = {
	KUNIT_CASE(wakeup_leaves_busy_prev_for_idle_llc_cpu),
	KUNIT_CASE(wakeup_leaves_busy_prev_without_sis_util),
	KUNIT_CASE(idle_prev_cpu_is_kept),
	KUNIT_CASE(sync_wakeup_follows_wake_affine),
	KUNIT_CASE(wake_affine_idle_chooses_by_idle_state_and_sync),
	KUNIT_CASE(forks_fill_cores_before_smt_siblings),
	KUNIT_CASE(wakeup_prefers_an_idle_core_to_a_busy_cores_sibling),
	KUNIT_CASE(remote_wakeup_preempts_one_ipi_later),
	{}
};

static struct kunit_suite placement_suite = {
	.name = "fair_placement",
	.test_cases = placement_cases,
};

kunit_test_suites(&placement_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * Energy-aware scheduling on the big.LITTLE machine (biglittle-8: four
 * little CPUs, three big, one prime, a perf domain each type, with the
 * energy model of its .topo file). The oracle is our own arithmetic over
 * the model: a CPU running at performance state s draws power(s), and its
 * busy fraction is util / perf(s), so a perf domain costs power(s) /
 * perf(s) times the sum of its CPUs' utilization, s being the lowest
 * state that gives schedutil's request for its busiest CPU (util plus a
 * quarter of headroom). A waking task's cheapest CPU is the one where
 * adding it raises that total least, among the CPUs it fits (util below
 * 80% of capacity). The utilization signals are the kernel's own (PELT,
 * read raw as EAS reads them); the choice is fair.c's, through
 * select_task_rq_fair() on an ordinary wake-up. Skipped where the profile
 * does not compile EAS (make check PROFILE=debian does).
 */
#include <stdio.h>
#include "harness.h"

#define EAS_TOPO	"biglittle-8"
/* Slack on every utilization the oracle reads, for the rounding and the
 * decay between our read and fair.c's (PELT moves < 1% a ms). */
#define SLACK_PCT	10
#define SLACK_ABS	8

static const struct ft_topology *eas_boot(struct kunit *test)
{
	const char *why = ft_tree_lacks("energy_model");
	const struct ft_topology *t = ft_topology_find(EAS_TOPO);

	if (why)
		kunit_skip(test, "%s", why);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_GT_MSG(test, t->nr_pds, 0, "%s has no energy model", EAS_TOPO);
	ft_test_boot_topology(test, EAS_TOPO);
	KUNIT_ASSERT_TRUE_MSG(test, ft_eas_enabled(),
			      "EAS is off on %s with its energy model and schedutil", EAS_TOPO);
	return t;
}

static unsigned long cap_of(const struct ft_topology *t, int cpu)
{
	return t->capacity[cpu] ?: 1024;
}

static int pd_of(const struct ft_topology *t, int cpu)
{
	for (int d = 0; d < t->nr_pds; d++)
		if (t->pd[d].cpus >> cpu & 1)
			return d;
	return -1;
}

/* The utilization landscape a wake-up of @p from @prev sees. */
struct landscape {
	double cpu[FT_MAX_CPUS];	/* each CPU's utilization without p */
	double task;			/* p's */
	int overutilized;		/* the root domain's flag */
	unsigned long estimates;	/* CPUs' energy estimates the wake-up made */
};

static void read_landscape(struct kunit *test, const struct ft_topology *t, int p, int prev,
			   struct landscape *l)
{
	struct ft_util u;

	KUNIT_ASSERT_EQ(test, ft_task_util_raw(p, &u), 0);
	l->task = u.util_avg > u.util_est ? u.util_avg : u.util_est;
	for (int c = 0; c < t->nr_cpus; c++) {
		double avg;

		KUNIT_ASSERT_EQ(test, ft_cpu_util_raw(c, &u), 0);
		avg = u.util_avg;
		if (c == prev)	/* p's blocked utilization still sits on prev */
			avg = avg > l->task ? avg - l->task : 0;
		l->cpu[c] = avg > u.util_est ? avg : u.util_est;
		if (l->cpu[c] > cap_of(t, c))
			l->cpu[c] = cap_of(t, c);
	}
}

static double scaled(double util, double scale)
{
	double v = util * scale + (scale > 1 ? SLACK_ABS : scale < 1 ? -SLACK_ABS : 0);

	return v < 0 ? 0 : v;
}

/* Energy of perf domain @d with every utilization scaled, p on @dst (-1: nowhere). */
static double pd_energy(const struct ft_topology *t, int d, const struct landscape *l,
			int dst, double scale)
{
	const struct ft_perf_domain *pd = &t->pd[d];
	double sum = 0, max = 0, want;
	int s;

	for (int c = 0; c < t->nr_cpus; c++) {
		double u, cap = cap_of(t, c);

		if (!(pd->cpus >> c & 1))
			continue;
		u = scaled(l->cpu[c] + (c == dst ? l->task : 0), scale);
		if (u > cap)
			u = cap;
		sum += u;
		max = u > max ? u : max;
	}
	want = max * 1.25;	/* schedutil's headroom */
	for (s = 0; s < pd->nr_states - 1 && pd->perf[s] < want; s++)
		;
	return (double)pd->power_mw[s] / pd->perf[s] * sum;
}

/* What placing p on @dst adds to the machine's energy, at one scale. */
static double delta_at(const struct ft_topology *t, const struct landscape *l, int dst,
		       double scale)
{
	int d = pd_of(t, dst);

	return pd_energy(t, d, l, dst, scale) - pd_energy(t, d, l, -1, scale);
}

/* The range that delta takes over the slack (scales 0.9 .. 1.1). */
static void delta_range(const struct ft_topology *t, const struct landscape *l, int dst,
			double *lo, double *hi)
{
	*lo = 1e300;
	*hi = -1e300;
	for (int i = -4; i <= 4; i++) {
		double e = delta_at(t, l, dst, 1.0 + i * SLACK_PCT / 400.0);

		*lo = e < *lo ? e : *lo;
		*hi = e > *hi ? e : *hi;
	}
}

/* fits_capacity(): p on @cpu leaves it 20% headroom, at a scale. */
static bool fits(const struct ft_topology *t, const struct landscape *l, int cpu, double scale)
{
	return scaled(l->cpu[cpu] + l->task, scale) * 1280 < cap_of(t, cpu) * 1024.0;
}

/*
 * Judges fair.c's choice @chosen for the wake-up seen as @l: it must be a
 * CPU p fits (with the slack in its favour) whose energy delta can be no
 * more than the cheapest CPU that surely fits. Returns the cheapest CPU
 * by the model (exact, no slack) for the log, -1 if p surely fits nowhere.
 */
static int judge(struct kunit *test, const struct ft_topology *t, const struct landscape *l,
		 int chosen, const char *what)
{
	double best_hi = 1e300, lo, hi, best = 1e300;
	int cheapest = -1;

	for (int c = 0; c < t->nr_cpus; c++) {
		if (!fits(t, l, c, 1.0 + SLACK_PCT / 100.0))
			continue;
		delta_range(t, l, c, &lo, &hi);
		best_hi = hi < best_hi ? hi : best_hi;
		if (delta_at(t, l, c, 1.0) < best) {
			best = delta_at(t, l, c, 1.0);
			cheapest = c;
		}
	}
	if (cheapest < 0)
		return -1;
	KUNIT_EXPECT_TRUE_MSG(test, fits(t, l, chosen, 1.0 - SLACK_PCT / 100.0),
			      "%s: task of util %.0f placed on cpu %d (util %.0f, capacity %lu): "
			      "it does not fit there", what, l->task, chosen, l->cpu[chosen],
			      cap_of(t, chosen));
	delta_range(t, l, chosen, &lo, &hi);
	KUNIT_EXPECT_LE_MSG(test, lo, best_hi,
			    "%s: task of util %.0f placed on cpu %d, adding %.1f mW; cpu %d adds "
			    "%.1f (cpus' utilization without it: %.0f %.0f %.0f %.0f | %.0f %.0f %.0f | %.0f)",
			    what, l->task, chosen, delta_at(t, l, chosen, 1.0), cheapest, best,
			    l->cpu[0], l->cpu[1], l->cpu[2], l->cpu[3], l->cpu[4], l->cpu[5], l->cpu[6],
			    l->cpu[7]);
	return cheapest;
}

/*
 * A periodic task pinned to @cpu: @run_ms of every 16 ms and a bit (150
 * us more per CPU number), so that its bursts drift against the tick
 * instead of locking to it: a burst that no tick ever lands in would
 * leave its CPU without periodic balancing, the only thing that clears
 * the overutilized flag.
 */
static int periodic(struct kunit *test, int cpu, int run_ms)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int id;

	attr.cpu = cpu;
	attr.cpus = 1ULL << cpu;
	attr.run_ns = run_ms * NSEC_PER_MSEC;
	attr.sleep_ns = (16 - run_ms) * NSEC_PER_MSEC + (cpu + 1) * 150 * NSEC_PER_USEC;
	id = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, id, 0);
	return id;
}

/*
 * Periodic task @p, pinned so far, is let go anywhere once it has gone
 * to sleep, and woken there and then (within 100 us of its dequeue, so
 * its utilization has not decayed); @l gets what the wake-up saw, read
 * just before it. Returns the CPU fair.c chose.
 */
static int wake_after_sleep(struct kunit *test, const struct ft_topology *t, int p,
			    struct landscape *l)
{
	int prev, steps = 0;

	while (ft_test_info(test, p).on_rq && steps++ < 1000)
		ft_run_for(100 * NSEC_PER_USEC);
	KUNIT_ASSERT_FALSE_MSG(test, ft_test_info(test, p).on_rq, "task %d never slept", p);
	prev = ft_test_info(test, p).cpu;
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(p, ~0ULL), 0);
	read_landscape(test, t, p, prev, l);
	l->overutilized = ft_rd_overutilized(prev);
	l->estimates = ft_seam_hits("sugov_effective_cpu_perf");
	KUNIT_ASSERT_EQ(test, ft_task_wake(p), 0);
	l->estimates = ft_seam_hits("sugov_effective_cpu_perf") - l->estimates;
	return ft_test_info(test, p).cpu;
}

/*
 * A task that ran @run_ns alone on @prev, pinned there, put to sleep and
 * woken at once with every CPU allowed; @l gets what the wake-up saw.
 * Returns the CPU fair.c chose.
 */
static int wake_once(struct kunit *test, const struct ft_topology *t, int prev, ft_u64 run_ns,
		     struct landscape *l, int *id)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	ft_u64 until = ft_now() + run_ns;
	int p;

	attr.cpu = prev;
	attr.cpus = 1ULL << prev;
	p = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, p, 0);
	while (ft_now() < until || ft_curr(prev) != p)
		ft_run_for(100 * NSEC_PER_USEC);
	KUNIT_ASSERT_EQ(test, ft_task_sleep(p), 0);
	KUNIT_ASSERT_FALSE_MSG(test, ft_test_info(test, p).on_rq,
			       "the sleeper stayed queued: its wake-up would not choose a CPU");
	KUNIT_ASSERT_EQ(test, ft_task_set_affinity(p, ~0ULL), 0);
	read_landscape(test, t, p, prev, l);
	l->overutilized = ft_rd_overutilized(prev);
	KUNIT_ASSERT_EQ(test, ft_task_wake(p), 0);
	*id = p;
	return ft_test_info(test, p).cpu;
}

/*
 * The boot itself: biglittle-8 with its energy model under a profile
 * that compiles EAS. Expect topology.c to have turned EAS on and attached
 * one perf domain per CPU type to the root domain, exactly the .topo's
 * "em" spans, and the machine to start not overutilized.
 */
static void eas_starts_with_one_perf_domain_per_cluster(struct kunit *test)
{
	const struct ft_topology *t = eas_boot(test);
	ft_u64 spans[FT_MAX_PDS];
	int n = ft_rd_perf_domains(0, spans, FT_MAX_PDS);

	KUNIT_ASSERT_EQ(test, n, t->nr_pds);
	for (int d = 0; d < t->nr_pds; d++) {
		bool found = false;

		for (int i = 0; i < n; i++)
			found |= spans[i] == t->pd[d].cpus;
		KUNIT_EXPECT_TRUE_MSG(test, found, "perf domain %#llx of the model not attached",
				      t->pd[d].cpus);
	}
	KUNIT_EXPECT_EQ(test, ft_rd_overutilized(0), 0);
	ft_shutdown();
}

/*
 * Sixteen seeded landscapes: each CPU runs a pinned periodic task of 0-3
 * ms in 16, and one CPU also the task under test, 1-4 ms in 16, for 500
 * ms; then that task, once asleep, is let go anywhere and woken. Expect,
 * at each wake-up the root domain is not overutilized at, fair.c's CPU to be one
 * the task fits on whose energy cost by the model is, within the slack,
 * the least of all such CPUs. A round overutilized at the wake-up (a
 * little CPU's utilization grows fast: its PELT clock runs at 448/1024)
 * is not EAS's to judge; at least ten must be judged, and tasks must have
 * moved in some (a choice was made, not just kept).
 */
static void wakeup_picks_least_energy_cpu(struct kunit *test)
{
	unsigned long long seed = 0xea5, moved = 0, judged = 0, rounds = 16;

	for (unsigned int r = 0; r < rounds; r++) {
		const struct ft_topology *t = eas_boot(test);
		int prev = ft_rand(&seed) % t->nr_cpus, chosen, cheapest, p;
		struct landscape l;
		char what[32];

		for (int c = 0; c < t->nr_cpus; c++) {
			int ms = ft_rand(&seed) % 4;

			if (ms)
				periodic(test, c, ms);
		}
		p = periodic(test, prev, 1 + ft_rand(&seed) % 4);
		ft_run_for(500 * NSEC_PER_MSEC);
		chosen = wake_after_sleep(test, t, p, &l);
		if (l.overutilized) {
			kunit_info(test, "round %u: overutilized at the wake-up, not judged", r);
			ft_shutdown();
			continue;
		}
		snprintf(what, sizeof(what), "round %u", r);
		KUNIT_EXPECT_GT_MSG(test, l.estimates, 0, "%s: the wake-up made no energy estimate", what);
		cheapest = judge(test, t, &l, chosen, what);
		kunit_info(test, "round %u: util %.0f from cpu %d to cpu %d (the model's cheapest: %d)",
			   r, l.task, prev, chosen, cheapest);
		judged += cheapest >= 0;
		moved += chosen != prev;
		ft_shutdown();
	}
	KUNIT_EXPECT_GE(test, judged, 10);
	KUNIT_EXPECT_GT(test, moved, 0);
}

/*
 * A task new on the idle prime CPU (a new task's utilization starts at
 * half its CPU's spare capacity: about 512, too much for a little CPU's
 * 448 with 20% headroom), run 1 ms there, every other CPU idle. Expect it woken onto a CPU it fits, of capacity 870 or more (the
 * little CPUs would be cheapest if fit did not count), the cheapest of
 * those by the model: a big one.
 */
static void big_task_goes_where_it_fits(struct kunit *test)
{
	const struct ft_topology *t = eas_boot(test);
	struct landscape l;
	int chosen, cheapest, p;

	chosen = wake_once(test, t, 7, NSEC_PER_MSEC, &l, &p);
	KUNIT_ASSERT_EQ(test, l.overutilized, 0);
	cheapest = judge(test, t, &l, chosen, "big task");
	kunit_info(test, "util %.0f from cpu 7 to cpu %d (model's cheapest %d)", l.task, chosen,
		   cheapest);
	KUNIT_EXPECT_GE(test, ft_cpu_capacity(chosen), 870);
	KUNIT_EXPECT_GE(test, l.task * 1280, 448 * 1024.0);	/* the premise: no little fits */
	ft_shutdown();
}

/*
 * A small periodic task (1 ms in 16) pinned to the prime CPU 7 for 200
 * ms, then a CPU-bound task pinned to little CPU 1 for 100 ms: its
 * utilization passes 80% of 448, so the root domain is overutilized.
 * Then the small task, once asleep, is let go anywhere and woken. Expect the
 * root domain overutilized at the wake-up, no energy estimate made (the
 * counted schedutil requests of find_energy_efficient_cpu()), and the
 * task left on its idle prev CPU, which it fits, as the capacity-aware
 * idle search does, not moved to the little CPU the energy model prefers
 * (checked to differ).
 */
static void overutilized_turns_eas_placement_off(struct kunit *test)
{
	const struct ft_topology *t = eas_boot(test);
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct landscape l;
	int chosen, cheapest = -1, p;
	double best = 1e300;

	p = periodic(test, 7, 1);
	ft_run_for(200 * NSEC_PER_MSEC);
	attr.cpu = 1;
	attr.cpus = 1ULL << 1;
	KUNIT_ASSERT_GT(test, ft_task_fork(&attr), 0);
	ft_run_for(100 * NSEC_PER_MSEC);
	chosen = wake_after_sleep(test, t, p, &l);
	KUNIT_EXPECT_EQ(test, l.overutilized, 1);
	KUNIT_EXPECT_EQ_MSG(test, l.estimates, 0, "the wake-up estimated energy (%lu CPUs' frequency requests)",
			    l.estimates);
	for (int c = 0; c < t->nr_cpus; c++)
		if (fits(t, &l, c, 1.0) && delta_at(t, &l, c, 1.0) < best) {
			best = delta_at(t, &l, c, 1.0);
			cheapest = c;
		}
	kunit_info(test, "util %.0f, cpu 1 util %.0f: woken on cpu %d (the model's cheapest %d)",
		   l.task, l.cpu[1], chosen, cheapest);
	KUNIT_ASSERT_GE_MSG(test, cheapest, 0, "the task fits no CPU");
	KUNIT_ASSERT_LT(test, cap_of(t, cheapest), 448 + 1);	/* EAS would have moved it */
	KUNIT_EXPECT_EQ(test, chosen, 7);
	ft_shutdown();
}

/*
 * The overutilized flag itself: a CPU-bound task pinned to little CPU 1
 * beside a periodic task on big CPU 4 (5 ms in 16, which keeps ticks and
 * balancing going), sampled every millisecond. Expect the root domain
 * overutilized once CPU 1's utilization has been above 80% of its
 * capacity for more than a tick, and, after the task sleeps for good,
 * not overutilized again within 500 ms of CPU 1 falling below 80%: the
 * tick sets the flag, the root level's load balance clears it.
 */
static void overutilized_follows_utilization(struct kunit *test)
{
	const struct ft_topology *t = eas_boot(test);
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	ft_u64 above = 0, below = 0, set_at = 0, clear_at = 0;
	double limit = cap_of(t, 1) * 0.8;
	struct ft_util u;
	int hog;

	periodic(test, 4, 5);
	attr.cpu = 1;
	attr.cpus = 1ULL << 1;
	hog = ft_task_fork(&attr);
	KUNIT_ASSERT_GT(test, hog, 0);
	for (int ms = 0; ms < 200 && !set_at; ms++) {
		ft_run_for(NSEC_PER_MSEC);
		KUNIT_ASSERT_EQ(test, ft_cpu_util_raw(1, &u), 0);
		if (!above && (u.util_avg > limit || u.util_est > limit))
			above = ft_now();
		if (ft_rd_overutilized(0) == 1)
			set_at = ft_now();
	}
	KUNIT_ASSERT_GT_MSG(test, above, 0, "cpu 1's utilization never passed 80%%");
	KUNIT_EXPECT_GT_MSG(test, set_at, 0, "never overutilized after cpu 1 passed 80%% at %llu us",
			    above / 1000);
	KUNIT_EXPECT_LE(test, set_at, above + ft_tick_nsec() + NSEC_PER_MSEC);
	while (ft_curr(1) != hog)
		ft_run_for(100 * NSEC_PER_USEC);
	KUNIT_ASSERT_EQ(test, ft_task_sleep(hog), 0);
	for (int ms = 0; ms < 1000 && !clear_at; ms++) {
		ft_run_for(NSEC_PER_MSEC);
		KUNIT_ASSERT_EQ(test, ft_cpu_util_raw(1, &u), 0);
		if (!below && u.util_avg < limit && u.util_est < limit)
			below = ft_now();
		if (below && ft_rd_overutilized(0) == 0)
			clear_at = ft_now();
	}
	kunit_info(test, "over 80%% at %llu ms, flag set at %llu ms; below at %llu ms, cleared at %llu ms",
		   above / NSEC_PER_MSEC, set_at / NSEC_PER_MSEC, below / NSEC_PER_MSEC,
		   clear_at / NSEC_PER_MSEC);
	KUNIT_ASSERT_GT(test, below, 0);
	KUNIT_EXPECT_GT_MSG(test, clear_at, 0, "still overutilized 1 s after the task slept");
	KUNIT_EXPECT_LE(test, clear_at, below + 500 * NSEC_PER_MSEC);
	ft_shutdown();
}

static struct kunit_case eas_cases[] = {
	KUNIT_CASE(eas_starts_with_one_perf_domain_per_cluster),
	KUNIT_CASE(wakeup_picks_least_energy_cpu),
	KUNIT_CASE(big_task_goes_where_it_fits),
	KUNIT_CASE(overutilized_turns_eas_placement_off),
	KUNIT_CASE(overutilized_follows_utilization),
	{}
};

static struct kunit_suite eas_suite = {
	.name = "fair_eas",
	.test_cases = eas_cases,
};

kunit_test_suite(eas_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/time/hrtimer.c: high-resolution timers on the
 * virtual clock. A started timer goes into one small table, with the CPU
 * it fires on (the CPU that started it, or the one hrtick_start() names);
 * the driver's event loop asks for the earliest expiry (kept, below) and
 * fires what is due (ft_hrtimer_run), in expiry order, on its CPU with
 * interrupts off, restarting those whose function says so, as the hrtimer
 * interrupt does.
 * Every base reads as high resolution (hres_active), so hrtick is on
 * where the HRTICK feature is. Time is CLOCK_MONOTONIC = the virtual ns.
 */
#include <linux/hrtimer.h>
#include "seam.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

#define FT_HRTIMERS	256


static struct {
	struct hrtimer *timer;
	int cpu;
} queued[FT_HRTIMERS];
int ft_hrtimers_queued;	/* seam.h: the loop reads it before asking */

/*
 * The earliest expiry of a queued timer, asked at every step of the loop,
 * is kept while next_known: a timer queued earlier lowers it; one that
 * leaves it (dequeued, restarted or forwarded while queued, from the kept
 * expiry) has it found again by a scan at the next look, and so does a
 * run of the timers due, whose last scan finds it anyway. Nothing else
 * writes a queued timer's expiry but hrtimer_forward() here: fair.c (6.12
 * and 7.3) sets and forwards only its bandwidth timers' while they are not
 * queued (at their init, in their own callback, before
 * hrtimer_start_expires()); the rest of the shim only starts timers.
 * One moved in place by the inlines of <linux/hrtimer.h> while queued, a
 * bug in the kernel too, would leave the kept expiry stale:
 * FAIRTEST_CHECKER=full finds it by a scan at the loop's looks and
 * faults on a difference (ft_hrtimer_audit()).
 */
static u64 next_expiry;
static bool next_known;

static u64 expiry_of(int i)
{
	return (u64)hrtimer_get_expires(queued[i].timer);
}

static u64 next_find(void)
{
	u64 next = U64_MAX;

	for (int i = 0; i < ft_hrtimers_queued; i++)
		next = min(next, expiry_of(i));
	return next;
}

/* queued timer @i's expiry is about to change or go */
static void next_leaves(int i)
{
	if (expiry_of(i) == next_expiry)
		next_known = false;
}

static struct hrtimer_cpu_base ft_hrtimer_cpu_base = {
#ifdef FT_HRTIMER_HRES_ACTIVE
	.hres_active = 1,
#endif
};

#ifdef FT_HRTIMER_BASE_GET_TIME
static ktime_t ft_hrtimer_get_time(void)
{
	return ns_to_ktime(ft_clock_now());
}
#endif

static struct hrtimer_clock_base ft_hrtimer_base = {
	.cpu_base = &ft_hrtimer_cpu_base,
	.clockid = CLOCK_MONOTONIC,
#ifdef FT_HRTIMER_BASE_GET_TIME
	.get_time = ft_hrtimer_get_time,
#endif
};

#ifdef FT_HRTIMER_HIGHRES_KEY
/* 7.x reads "is this CPU high resolution" from one key: it is, always. */
struct static_key_false hrtimer_highres_enabled_key = { .key = STATIC_KEY_INIT_TRUE };
#endif

#ifndef FT_HRTIMER_BASE_GET_TIME
/* 7.x asks the timer's clock instead (an inline reads the base before). */
ktime_t hrtimer_cb_get_time(const struct hrtimer *timer)
{
	return ns_to_ktime(ft_clock_now());
}
#endif

static int find(const struct hrtimer *timer)
{
	for (int i = 0; i < ft_hrtimers_queued; i++)
		if (queued[i].timer == timer)
			return i;
	return -1;
}

static void set_queued(struct hrtimer *timer, bool on)
{
#ifdef FT_HRTIMER_IS_QUEUED_FIELD
	timer->is_queued = on;
#else
	timer->state = on ? HRTIMER_STATE_ENQUEUED : HRTIMER_STATE_INACTIVE;
#endif
}

static void dequeue(int i)
{
	next_leaves(i);
	set_queued(queued[i].timer, false);
	queued[i] = queued[--ft_hrtimers_queued];
}

static void init_timer(struct hrtimer *timer)
{
	memset(timer, 0, sizeof(*timer));
	timer->base = &ft_hrtimer_base;
}

#ifdef FT_HAVE_HRTIMER_SETUP
void hrtimer_setup(struct hrtimer *timer, enum hrtimer_restart (*function)(struct hrtimer *),
		   clockid_t clock_id, enum hrtimer_mode mode)
{
	init_timer(timer);
	ACCESS_PRIVATE(timer, function) = function;
}
#else
void hrtimer_init(struct hrtimer *timer, clockid_t clock_id, enum hrtimer_mode mode)
{
	init_timer(timer);
}
#endif

/* Queue (or move) @timer to fire at its expiry on @cpu. */
void ft_hrtimer_start_on(struct hrtimer *timer, ktime_t expires, int cpu)
{
	int i = find(timer);

	if (i < 0) {
		if (ft_hrtimers_queued == FT_HRTIMERS)
			ft_fault_here("too many hrtimers", __builtin_return_address(0),
				      "%d queued", ft_hrtimers_queued);
		i = ft_hrtimers_queued++;
	} else {
		next_leaves(i);
	}
	hrtimer_set_expires(timer, expires);
	queued[i].timer = timer;
	queued[i].cpu = cpu;
	set_queued(timer, true);
	next_expiry = min(next_expiry, (u64)expires);
}

void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 range_ns,
			    const enum hrtimer_mode mode)
{
	/* the slack a range allows is the timer's to use: fire at the start */
	if (mode & HRTIMER_MODE_REL)
		tim = ktime_add_ns(tim, ft_clock_now());
	ft_hrtimer_start_on(timer, tim, fairtest_cpu);
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	int i = find(timer);

	if (timer->base && timer->base->running == timer)
		return -1;
	if (i < 0)
		return 0;
	dequeue(i);
	return 1;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	int ret = hrtimer_try_to_cancel(timer);

	/* single-threaded: a callback still running is the caller itself */
	if (ret < 0)
		ft_fault_here("hrtimer_cancel from its own callback", __builtin_return_address(0),
			      "timer %p", timer);
	return ret > 0;
}

bool hrtimer_active(const struct hrtimer *timer)
{
	return find(timer) >= 0 || (timer->base && timer->base->running == timer);
}

/*
 * Move a timer that is due (or late) forward by whole @interval steps to
 * the first step after @now, and count the steps: the bandwidth period
 * timer reads that count as the periods it missed. A timer not yet due keeps
 * its expiry and counts none.
 */
u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval)
{
	ktime_t late = ktime_sub(now, hrtimer_get_expires(timer));
	u64 steps;

	if (late < 0)
		return 0;
	/*
	 * The kernel raises an interval below hrtimer_resolution to it. The
	 * virtual clock resolves every nanosecond, so its resolution is 1 ns
	 * and only an empty interval needs raising (else we divide by zero).
	 */
	interval = max_t(ktime_t, interval, 1);
	/* due exactly at @now is one step late: the new expiry must pass now */
	steps = ktime_divns(late, interval) + 1;
	/*
	 * A queued one: the source of kernel/time/hrtimer.c (6.12, 7.3) warns
	 * and keeps its expiry, which no boot here has shown; the seam moves
	 * it, and the kept earliest follows.
	 */
	if (hrtimer_is_queued(timer))
		next_known = false;
	/* both expiries move together, as the timer keeps a soft and a hard one */
	hrtimer_add_expires_ns(timer, steps * interval);
	return steps;
}

/* The earliest expiry of a queued timer, U64_MAX if none. */
u64 ft_hrtimer_next(void)
{
	if (!next_known) {
		next_expiry = next_find();
		next_known = true;
	}
	return next_expiry;
}

/* FAIRTEST_CHECKER=full, at the loop's looks: the kept earliest expiry is right. */
void ft_hrtimer_audit(void)
{
	u64 found;
	int i;

	if (!next_known)
		return;
	found = next_find();
	if (found == next_expiry)
		return;
	for (i = 0; i < ft_hrtimers_queued - 1 && expiry_of(i) != found; i++)
		;
	ft_fault_here("incremental checker", NULL,
		      "hrtimers: earliest expiry kept as %llu, found %llu (a timer of CPU %d, of %d queued)",
		      next_expiry, found, found == U64_MAX ? -1 : queued[i].cpu, ft_hrtimers_queued);
}

/*
 * Fire every timer due at @now, earliest first (ties: the one queued
 * first), each on its CPU with interrupts off; returns a mask of the
 * CPUs that took one, whose interrupt exit the driver then runs.
 */
u64 ft_hrtimer_run(u64 now)
{
	u64 cpus = 0;

	for (;;) {
		struct hrtimer *timer;
		enum hrtimer_restart (*fn)(struct hrtimer *);
		int best = -1, cpu;
		u64 next = U64_MAX;

		for (int i = 0; i < ft_hrtimers_queued; i++) {
			if (expiry_of(i) <= now && (best < 0 || expiry_of(i) < expiry_of(best)))
				best = i;
			next = min(next, expiry_of(i));
		}
		if (best < 0) {
			/* none due: the scan found the earliest, after @now */
			next_expiry = next;
			next_known = true;
			return cpus;
		}
		timer = queued[best].timer;
		cpu = queued[best].cpu;
		dequeue(best);
		cpus |= 1ULL << cpu;
		ft_switch_cpu(cpu);
		fn = ACCESS_PRIVATE(timer, function);
		local_irq_disable();
		timer->base->running = timer;
		if (fn(timer) == HRTIMER_RESTART && find(timer) < 0)
			ft_hrtimer_start_on(timer, hrtimer_get_expires(timer), cpu);
		timer->base->running = NULL;
		local_irq_enable();
	}
}

/* A new machine: no timer survives the one before. */
void ft_hrtimer_reset(void)
{
	while (ft_hrtimers_queued)
		dequeue(0);
}

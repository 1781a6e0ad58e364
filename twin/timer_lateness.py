#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# How late a real kernel's hrtimers run, and what a sleeper's sleep is made
# of, in a boot's trace with twin/events/timer-7.3.events' probes (make
# twin with FAIRTEST_TWIN_EVENTS=that file; real-N/trace):
# - per kind of timer (the tick: expiries on its grid; the sleeper's
#   hrtimer_wakeup; the rest, mostly the hrtick), the clock the interrupt's
#   handler read (hrtimer_expire_entry's now) minus the expiry the timer
#   was programmed for (the hard one, soft + slack): its lateness, p1 / p50
#   / p99 ns; and how many ran before it (another interrupt inside the
#   slack, or the clock event's minimum delta), and from its handler to
#   the switch it asks for (a switch within 40 us, nothing between);
# - W's sleeps (a switch out with prev_state=S to the sched_waking of W),
#   split: switch-out to the soft expiry, the slack, the lateness, and from
#   the handler's probe to sched_waking; then sched_waking to W's switch in;
# - W's wake-ups (sched_wakeup) by the time to the next tick, in 250 us
#   bins, those that preempt (a resched flag: N, n or l) and those that do
#   not; the ticks from the hexp lines, or for a trace without them
#   (fairsim's sim.trace) the 4 ms grid from 0.
# The trace's clock (tracefs "local") and the timers' (CLOCK_MONOTONIC)
# both count the guest's TSC; their offset is taken as the least
# ts - now over the handlers, which puts the handler's own probe at 0.
#
# usage: twin/timer_lateness.py W TRACE...
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import named, quantile  # noqa: E402

if len(sys.argv) < 3:
    sys.exit("usage: twin/timer_lateness.py W TRACE...")
waker = sys.argv[1]
ev_re = re.compile(r'\] (\S+)\s+([\d.]+): (sched_switch|sched_waking|sched_wakeup|hexp|hwk): (.*)')
TICK_NS = 4000000


def pct(xs):
    if not xs:
        return "-"
    return "/".join("%.0f" % quantile(xs, f) for f in (0.01, 0.5, 0.99))


def field(rest, name):
    return int(re.search(r'\b' + name + r'=(-?\w+)', rest).group(1), 0)


for path in sys.argv[2:]:
    try:
        lines = open(path).readlines()
    except OSError as e:
        sys.exit("fairtest: timer_lateness.py: %s: %s" % (path, e.strerror))
    events = []
    for line in lines:
        m = ev_re.search(line)
        if m:
            flags, t, ev, rest = m.groups()
            events.append((round(float(t) * 1e9), ev, rest if ev != 'sched_wakeup' else flags + ' ' + rest))
    hexps = [(ts, rest) for ts, ev, rest in events if ev == 'hexp']
    offset = min((ts - field(rest, 'now') for ts, rest in hexps), default=None)
    # the sleeper's callback: the function a hwk line follows, or else the
    # one run most often just before W's sched_waking
    fns = collections.Counter()
    for i, (ts, ev, rest) in enumerate(events):
        if i and events[i - 1][1] == 'hexp' and (
                ev == 'hwk' or (ev == 'sched_waking' and named(re.search(r'comm=(\S+)', rest).group(1), waker))):
            fns[field(events[i - 1][2], 'fn')] += 100 if ev == 'hwk' else 1
    wake_fn = fns.most_common(1)[0][0] if fns else None
    kinds = {'tick': [], 'sleep timer': [], 'other (hrtick)': []}
    early = {k: 0 for k in kinds}
    switch_after = {k: [] for k in kinds}

    def kind_of(rest):
        return ('sleep timer' if field(rest, 'fn') == wake_fn else
                'tick' if field(rest, 'exp') % TICK_NS == 0 else 'other (hrtick)')
    for ts, rest in hexps:
        now, exp = field(rest, 'now'), field(rest, 'exp')
        kinds[kind_of(rest)].append(now - exp)
        early[kind_of(rest)] += now < exp
    # a switch within 40 us of a handler, nothing else run between: the
    # reschedule that handler asked for (the wake-up's, the slice's end)
    last = None
    for ts, ev, rest in events:
        if ev == 'hexp':
            last = (ts, kind_of(rest))
        elif ev == 'sched_switch' and last and ts - last[0] < 40000:
            switch_after[last[1]].append((ts - last[0]) / 1e3)
            last = None
    if offset is None:
        print("%s: no hexp lines (twin/events/timer-7.3.events): the sleeps only" % path)
    else:
        print("%s: trace clock = CLOCK_MONOTONIC %+.6f s" % (path, offset / 1e9))
    for kind, late in kinds.items() if hexps else ():
        print("  %-15s %5d run, %4d before their expiry; now - expiry p1/p50/p99 %s ns; "
              "%d switches within 40 us, handler to switch p1/p50/p99 %s us"
              % (kind, len(late), early[kind], pct(late), len(switch_after[kind]),
                 pct(switch_after[kind])))
    # W's sleeps
    parts = {k: [] for k in ('sleep', 'to soft expiry', 'slack', 'lateness',
                             'handler to waking', 'waking to switch-in')}
    out = last_hexp = waking = None
    for ts, ev, rest in events:
        if ev == 'sched_switch':
            m = re.search(r'prev_comm=(\S+) .*prev_state=(\S+) ==> next_comm=(\S+)', rest)
            if named(m.group(1), waker) and m.group(2).startswith('S'):
                out, last_hexp, waking = ts, None, None
            elif named(m.group(3), waker) and waking is not None:
                parts['waking to switch-in'].append((ts - waking) / 1e3)
                waking = None
        elif ev == 'hexp':
            last_hexp = (ts, rest)
        elif ev == 'sched_waking' and out is not None and named(re.search(r'comm=(\S+)', rest).group(1), waker):
            if not hexps:
                parts['sleep'].append((ts - out) / 1e3)
                waking = ts
            elif last_hexp and field(last_hexp[1], 'fn') == wake_fn:
                hts, hr = last_hexp
                now, exp, sexp = field(hr, 'now'), field(hr, 'exp'), field(hr, 'sexp')
                parts['sleep'].append((ts - out) / 1e3)
                parts['to soft expiry'].append((sexp + offset - out) / 1e3)
                parts['slack'].append((exp - sexp) / 1e3)
                parts['lateness'].append((now - exp) / 1e3)
                parts['handler to waking'].append((ts - hts) / 1e3)
                waking = ts
            out = None
    print("  %s's sleeps (switch-out to sched_waking), %d: p1/p50/p99 us" % (waker, len(parts['sleep'])))
    for k, xs in parts.items():
        xs = sorted(xs)
        print("    %-20s %s" % (k, "/".join("%.1f" % xs[min(len(xs) - 1, int(len(xs) * f))]
                                            for f in (0.01, 0.5, 0.99)) if xs else "-"))
    # W's wake-ups against the tick (in the trace's clock)
    bins = {True: [0] * (TICK_NS // 250000), False: [0] * (TICK_NS // 250000)}
    for ts, ev, rest in events:
        if ev == 'sched_wakeup' and named(re.search(r'comm=(\S+)', rest).group(1), waker):
            to_tick = -(ts - (offset or 0)) % TICK_NS
            bins[rest[1] in 'Nnl'][min(len(bins[True]) - 1, to_tick // 250000)] += 1
    for pre in (True, False):
        print("  %s's wake-ups %s, %d, by us to the next tick (250 us bins from 0%s): %s"
              % (waker, "that preempt" if pre else "that do not", sum(bins[pre]),
                 "" if hexps else "; the ticks at 4 ms from 0: right for fairsim's trace only",
                 " ".join(str(n) for n in bins[pre])))

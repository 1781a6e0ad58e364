#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The hrtick beside the tick in a trace with twin/events/hrtick-7.3.events'
# probes (a real boot's real-N/trace) or FAIRSIM_PROBES=1 (fairsim's
# sim.trace), for a waker W beside a task that always runs (the sleeper's
# B beside A):
# - re-picks: hrticks (q=1) after which the same task runs on (no switch
#   before the next tick, hrtick or wake-up: fair.c picked it again, and
#   with no switch no set_next_task() arms a new timer), and how each such
#   stretch ended: at a tick, or at an hrtick a wake-up's enqueue armed
#   (hrtick_update(), an "hrs" line with sched=0);
# - W's wake-ups by whether they preempt (the sched_wakeup line's N or l
#   flag) and how long before the next tick they came (us, 200 us bins; the
#   tick's phase read from the trace's q=0 lines);
# - W's sleeps (a switch out with prev_state=S to its wake-up): how long
#   they last, and the ticks and hrticks inside them: in the last 50 us
#   before the wake-up (those a slacked sleep timer could coalesce with),
#   and all of them by how long after the sleep began (100 us bins).
# docs/fidelity-differences.md uses it for the sleeper on 7.3.
#
# usage: twin/hrtick_phase.py W TRACE...
import bisect
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import named  # noqa: E402

if len(sys.argv) < 3:
    sys.exit("usage: twin/hrtick_phase.py W TRACE...")
waker = sys.argv[1]
ev_re = re.compile(r'\] (\S+)\s+([\d.]+): (sched_switch|sched_wakeup|tick|hrs): (.*)')
TICK_US = 4000


for path in sys.argv[2:]:
    try:
        lines = open(path).readlines()
    except OSError as e:
        sys.exit("fairtest: hrtick_phase.py: %s: %s" % (path, e.strerror))
    events = []
    phase = None
    for line in lines:
        m = ev_re.search(line)
        if not m:
            continue
        flags, t, ev, rest = m.groups()
        us = float(t) * 1e6
        if ev == 'tick' and ' q=0' in rest and phase is None:
            phase = us % TICK_US
        events.append((us, flags, ev, rest))
    if phase is None:
        sys.exit("fairtest: hrtick_phase.py: %s: no tick lines (FAIRTEST_TWIN_EVENTS="
                 "twin/events/hrtick-7.3.events, FAIRSIM_PROBES=1)" % path)
    late = []
    expiry = deferred = None
    for us, flags, ev, rest in events:
        if ev == 'hrs':
            delay = int(re.search(r'delay=(\d+)', rest).group(1)) / 1000
            if 'sched=0' in rest:
                expiry, deferred = us + delay, None
            else:
                deferred = delay
        elif ev == 'sched_switch' and deferred is not None:
            expiry, deferred = us + deferred, None
        elif ev == 'tick' and ' q=1' in rest and expiry is not None:
            late.append(us - expiry)
            expiry = None
    late.sort()
    repicks = collections.Counter()
    wakes = collections.Counter()
    pending = None          # a re-pick in progress: how it ends
    for i, (us, flags, ev, rest) in enumerate(events):
        if ev == 'tick' and ' q=1' in rest:
            nxt = [e for e in events[i + 1:i + 4] if e[2] in ('sched_switch', 'hrs', 'tick', 'sched_wakeup')]
            # the hrtick's own schedule(): a switch, or (7.2+) an hrs with sched=2 then a switch
            if not any(e[2] == 'sched_switch' and e[0] - us < 50 for e in nxt):
                pending = us
            continue
        if pending is None:
            if ev == 'sched_wakeup' and re.search(r'comm=(\S+)', rest) and \
               named(re.search(r'comm=(\S+)', rest).group(1), waker):
                kind = 'preempting' if ('N' in flags or 'l' in flags) else 'not preempting'
                before = (phase - us) % TICK_US
                wakes[(kind, int(before // 200) * 200)] += 1
            continue
        if ev == 'tick' and ' q=0' in rest:
            repicks['to a tick'] += 1
            pending = None
        elif ev == 'hrs' and 'sched=0' in rest:
            repicks['to an hrtick a wake-up armed'] += 1
            pending = None
        elif ev == 'sched_switch':
            repicks['to a switch'] += 1
            pending = None
        if ev == 'sched_wakeup' and re.search(r'comm=(\S+)', rest) and \
           named(re.search(r'comm=(\S+)', rest).group(1), waker):
            kind = 'preempting' if ('N' in flags or 'l' in flags) else 'not preempting'
            wakes[(kind, int(((phase - us) % TICK_US) // 200) * 200)] += 1
    sleeps, start = [], None
    for us, flags, ev, rest in events:
        if ev == 'sched_switch' and 'prev_state=S' in rest and \
           named(re.search(r'prev_comm=(\S+)', rest).group(1), waker):
            start = us
        elif ev == 'sched_wakeup' and start is not None and \
             named(re.search(r'comm=(\S+)', rest).group(1), waker):
            sleeps.append((start, us))
            start = None
    ticks = [(us, 'hrtick' if ' q=1' in rest else 'tick')
             for us, _, ev, rest in events if ev == 'tick']
    ends, inside, lengths = collections.Counter(), collections.Counter(), []
    for s, w in sleeps:
        lengths.append(w - s)
        for us, kind in ticks[bisect.bisect_right(ticks, (s, 'z')):
                              bisect.bisect_right(ticks, (w, 'z'))]:
            inside[(kind, int((us - s) // 100) * 100)] += 1
            if us >= w - 50:
                ends[kind] += 1
    lengths.sort()
    print("%s: %d hrticks picked the running task again: %s" % (
        path, sum(repicks.values()),
        ", ".join("%d %s" % (n, k) for k, n in sorted(repicks.items())) or "none"))
    if late:
        print("  hrtick handler after its expiry, %d: p1/p50/p99 %s us" % (
            len(late), "/".join("%.1f" % late[min(len(late) - 1, int(len(late) * f))]
                                for f in (0.01, 0.5, 0.99))))
    for kind in ('preempting', 'not preempting'):
        total = sum(n for (k, _), n in wakes.items() if k == kind)
        print("  %s wake-ups of %s: %d; us before the next tick, 200 us bins: %s" % (
            kind, waker, total,
            " ".join("%d:%d" % (b, wakes[(kind, b)]) for b in range(0, TICK_US, 200))))
    if lengths:
        print("  sleeps of %s: %d, p1/p50/p99 %s us; in their last 50 us %d hrticks, %d ticks" % (
            waker, len(lengths), "/".join("%.0f" % lengths[min(len(lengths) - 1, int(len(lengths) * f))]
                                         for f in (0.01, 0.5, 0.99)),
            ends['hrtick'], ends['tick']))
        for kind in ('hrtick', 'tick'):
            print("    %ss inside them, us after the sleep began, 100 us bins: %s" % (
                kind, " ".join("%d:%d" % (b, n) for (k, b), n in sorted(inside.items())
                               if k == kind) or "none"))

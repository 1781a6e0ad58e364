#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Why a task that always runs (the sleeper's A) runs on to the tick after
# the preemption of a waker (B), in a trace with deqs lines (B's lag at each
# sleep: twin/events/sleep-7.3.events on a real boot, FAIRSIM_PROBES=1 in
# fairsim) and hrs lines (each hrtick_start(), the same probes):
# - B's lag through time, rebuilt from the switches and anchored at each
#   probed sleep: with A and B alone and of one weight, B's lag grows by
#   half of A's run while B is queued (runnable or delayed), falls by half
#   of B's run, holds while B is dequeued, and a delayed B leaves at 0 once
#   eligible (DELAY_ZERO). The rebuilt lag at each sleep minus the probed
#   one says how far to trust it;
# - per preemption of B (a switch B -> A, B runnable): B's lag then and A's
#   slice left (the hrs line of that switch), for the stretches of A that
#   ran past 1.5 ms (to the tick) and the rest: A's hrtick re-picks A, and
#   nothing arms another until the tick, when B is still not eligible at
#   it, i.e. when slice left + 2 x lag < 0; and the preemptions within
#   20 us of that edge, how many below it, how many ran on to the tick;
# - what led to each short slice left (< 500 us): how the burst began (B's
#   wake-up preempted, within 20 us, or B waited), whether B's sleep before
#   it was delayed;
# - the time between two stretches to the tick (ms), and the period of B's
#   wake-ups two at a time (wake-up to the one after next, us, 10 us bins);
# - B's wake-ups that preempt (a switch to B within 20 us) by the time since
#   the last tick, 50 us bins over the first 1000 us (the ticks from the
#   hexp lines of twin/events/timer-7.3.events and the like; fairsim's
#   sim.trace: the 4 ms grid from 0), and B's pieces: a preempting
#   wake-up to the switch, switch-out to the wake-up (its sleep), its burst
#   (CPU time from wake-up to sleep), the means of those two and of B's
#   wake-up to the next, and its bursts with a tick in its run and without
#   (the same ticks). Without deqs lines only these parts.
# docs/fidelity-differences.md uses it for the sleeper on 7.3.
#
# usage: twin/tick_runs.py A B TRACE...
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import named, quantile  # noqa: E402

if len(sys.argv) < 4:
    sys.exit("usage: twin/tick_runs.py A B TRACE...")
a, b = sys.argv[1], sys.argv[2]
ev_re = re.compile(r'\] (\S+)\s+([\d.]+): (sched_switch|sched_wakeup|deqs|hrs|hexp): (.*)')
sw_re = re.compile(r'prev_comm=(\S+) .*prev_state=(\S+) ==> next_comm=(\S+)')
DEQUEUE_SLEEP, DEQUEUE_DELAYED = 0x1, 0x20


def q(xs, f):
    return round(quantile(xs, f)) if xs else "-"


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def qs(xs):
    return "%s/%s/%s" % (q(xs, .1), q(xs, .5), q(xs, .9))


for path in sys.argv[3:]:
    try:
        lines = open(path)
    except OSError as e:
        sys.exit("fairtest: tick_runs.py: %s: %s" % (path, e.strerror))
    bpid = lag = last = hrs = None
    state, running, err, pre, wakes = "?", None, [], [], []
    waited = delayed = pend = None
    off = None      # the trace clock at a tick, less a multiple of 4 ms
    since_tick, pieces, out, burst, on = [], {"wake": [], "sleep": [], "burst": []}, None, 0, None
    ticked, by_tick = False, {True: [], False: []}
    for line in lines:
        m = ev_re.search(line)
        if not m:
            if line.startswith("# fairsim:"):
                off = 0.0
            continue
        _, t, ev, rest = m.groups()
        t = float(t) * 1e6
        if lag is not None and last is not None and state in ("Q", "D"):
            lag += (t - last) / 2 * (1 if running == "A" else -1 if running == "B" else 0)
            if state == "D" and lag >= 0:
                lag = 0.0
        last = t
        if ev == "hexp":
            f = dict(re.findall(r'(\w+)=(-?\w+)', rest))
            if off is None and int(f["exp"]) % 4000000 == 0:
                off = int(f["now"]) / 1000 - t
        elif ev == "hrs":
            hrs = (t, int(re.search(r'delay=(\d+)', rest).group(1)) / 1000)
        elif ev == "deqs":
            f = dict(re.findall(r'(\w+)=(-?\w+)', rest))
            if f["pid"] == bpid and int(f["fl"], 16) & (DEQUEUE_SLEEP | DEQUEUE_DELAYED) == DEQUEUE_SLEEP:
                if lag is not None:
                    err.append(lag - int(f["l"]) / 1000)
                lag, state, delayed = int(f["l"]) / 1000, "D" if f["r"] == "0" else "S", f["r"] == "0"
        elif ev == "sched_wakeup":
            c = re.search(r'comm=(\S+) pid=(\d+)', rest)
            if c and named(c.group(1), b):
                bpid, state, burst, ticked = c.group(2), "Q", 0, False
                if out is not None:
                    pieces["sleep"].append(t - out)
                wakes.append(t)
                waited, woke, prev_delayed = None, t, delayed
        else:
            s = sw_re.search(rest)
            if not s:
                continue
            prev, st, nxt = s.groups()
            if pend is not None and named(prev, a):
                pend["stretch"] = t - pend["t"]
                pre.append(pend)
                pend = None
            if named(nxt, b) and waited is None and bpid is not None:
                waited = t - woke >= 20
                if not waited:
                    pieces["wake"].append(t - woke)
                if not waited and off is not None:
                    since_tick.append((woke + off) % 4000)
            if named(prev, b) and st.startswith("R") and named(nxt, a) and lag is not None:
                left = hrs[1] if hrs and t - hrs[0] < 20 else None
                pend = {"t": t, "lag": lag, "left": left, "how": "%s, sleep before %s" % (
                    "B waited" if waited else "B's wake-up preempted",
                    "delayed" if prev_delayed else "not delayed")}
            if named(nxt, b):
                on = t
            if named(prev, b) and on is not None:
                burst += t - on
                if off is not None:
                    ticked |= (on + off) // 4000 != (t + off) // 4000
                if not st.startswith("R"):
                    pieces["burst"].append(burst)
                    if off is not None:
                        by_tick[ticked].append(burst)
                    out = t
            running = "A" if named(nxt, a) else "B" if named(nxt, b) else None
    print("%s: %s's preempting wake-up to the switch p50 %s us; sleep, switch-out to wake-up, "
          "p10/p50/p90 %s; burst %s" % (path, b, q(pieces["wake"], .5), qs(pieces["sleep"]),
                                        qs(pieces["burst"])))
    if len(wakes) > 1:
        print("%s: means, us: %s's wake-up to the next %.1f (%d), sleep %.1f, burst %.1f" % (
            path, b, (wakes[-1] - wakes[0]) / (len(wakes) - 1), len(wakes), mean(pieces["sleep"]),
            mean(pieces["burst"])))
    if off is not None:
        print("%s: %s's burst with a tick in its run p10/p50/p90 %s (%d), without %s (%d)" % (
            path, b, qs(by_tick[True]), len(by_tick[True]), qs(by_tick[False]),
            len(by_tick[False])))
        print("%s: %s's preempting wake-ups by us since the last tick, 50 us bins to 1000: %s" % (
            path, b, " ".join(str(sum(1 for x in since_tick if int(x // 50) == i)) for i in range(20))))
    if not err:
        print("fairtest: tick_runs.py: %s: no deqs lines for %s's sleeps (FAIRSIM_PROBES=1, "
                 "twin/events/sleep-7.3.events)" % (path, b))
        continue
    print("%s: %s's lag rebuilt minus probed at its sleeps p10/p50/p90 %s us (%d sleeps)" % (
        path, b, qs(err), len(err)))
    for kind, sel in (("to the tick", [x for x in pre if x["stretch"] > 1500]),
                      ("shorter", [x for x in pre if x["stretch"] <= 1500])):
        left = [x["left"] for x in sel if x["left"] is not None]
        margin = [x["left"] + 2 * x["lag"] for x in sel if x["left"] is not None]
        print("  %s's stretches %s: %d; at %s's preemption its lag p10/p50/p90 %s us, %s's slice "
              "left %s, left + 2 x lag %s" % (a, kind, len(sel), b, qs([x["lag"] for x in sel]),
                                              a, qs(left), qs(margin)))
    # near the rule's edge a few us of the cycle decide: how often, and which way
    edge = [x for x in pre if x["left"] is not None and abs(x["left"] + 2 * x["lag"]) <= 20]
    print("  %s's preemptions within 20 us of the edge (|left + 2 x lag| <= 20): %d, %d below 0; "
          "%s ran to the tick after %d of them" % (
              b, len(edge), sum(x["left"] + 2 * x["lag"] < 0 for x in edge), a,
              sum(x["stretch"] > 1500 for x in edge)))
    how = collections.Counter(x["how"] for x in pre if x["left"] is not None and x["left"] < 500)
    print("  %s's slice left < 500 us at %s's preemption, after: %s" % (
        a, b, "; ".join("%s %d" % kv for kv in sorted(how.items())) or "none"))
    ends = [x["t"] for x in pre if x["stretch"] > 1500]
    gaps = [(y - x) / 1000 for x, y in zip(ends, ends[1:])]
    print("  ms between stretches to the tick p10/p50/p90 %s, most often %s" % (
        qs(gaps), ", ".join("%d ms %dx" % kv for kv in collections.Counter(
            round(g) for g in gaps).most_common(3))))
    two = collections.Counter(int((y - x) // 10) * 10 for x, y in zip(wakes, wakes[2:]))
    print("  %s's wake-up to the one after next, us: %s" % (
        b, ", ".join("%d: %d" % kv for kv in two.most_common(4))))

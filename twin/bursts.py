#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# How a waker's bursts end beside a task that always runs (the sleeper's B
# beside A), in a tracefs trace (a real boot's real-N/trace or fairsim's
# sim.trace): per wake-up of B, whether B was preempted before it slept;
# how long A ran after each preemption of B (A's stretch, p10/p50/p90, and
# how many ran past 1.5 ms: to the tick rather than a slice); and, where
# the trace has wpf lines (twin/events/, FAIRSIM_PROBES=1), B's lag at the
# wake-up of each kind of burst; where it has hrs lines (hrtick_start(), the
# same probes), how many of each kind's sleeps arm the next task's slice
# timer at the switch-out: fair.c arms one only with h_nr_queued > 1, so
# for a B that sleeps beside A alone, when B's dequeue was delayed (it was
# not eligible); where it has deqs lines (dequeue_task_fair()'s return,
# twin/events/sleep-7.3.events; fairsim's probes), B's lag at each sleep
# and whether the dequeue was delayed, and the slice timer each switch
# to A or B armed (hrs lines: what the last slice's overrun took from
# it); last, the ms between two of A's stretches to the tick (a model on
# a periodic orbit has one value) and B's wake-up to the one after next
# (its cycle two at a time, against the tick's grid). docs/fidelity-differences.md uses it for the sleeper.
#
# usage: twin/bursts.py A B TRACE...
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import named, quantile  # noqa: E402

if len(sys.argv) < 4:
    sys.exit("usage: twin/bursts.py A B TRACE...")
a, b = sys.argv[1], sys.argv[2]
ev_re = re.compile(r'\] (\S+)\s+([\d.]+): (sched_switch|sched_wakeup|wpf|hrs|deqs): (.*)')
sw_re = re.compile(r'prev_comm=(\S+) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(\S+)')


def q(xs, f):
    return round(quantile(xs, f)) if xs else "-"


for path in sys.argv[3:]:
    try:
        lines = open(path)
    except OSError as e:
        sys.exit("fairtest: bursts.py: %s: %s" % (path, e.strerror))
    bpid, lag, burst, bursts, stretch, since = None, None, None, [], [], None
    to_tick, wakes = [], []     # A's stretches past 1.5 ms (their start), B's wake-ups
    hrs, hrs_delay, armed_at = None, None, {a: [], b: []}
    for line in lines:
        m = ev_re.search(line)
        if not m:
            continue
        flags, t, ev, rest = m.groups()
        t = float(t)
        if ev == "hrs":
            hrs = t     # armed in the pick, before the switch's line
            hrs_delay = int(re.search(r'delay=(\d+)', rest).group(1)) / 1000
            continue
        if ev == "deqs":
            f = dict(re.findall(r'(\w+)=(-?\w+)', rest))
            # a sleep's dequeue (DEQUEUE_SLEEP, not a delayed one's end)
            if f.get("pid") == bpid and burst is not None and int(f["fl"], 16) & 0x21 == 1:
                burst["slag"] = int(f["l"]) / 1000
                burst["sdl"] = f["r"] == "0"
            continue
        if ev == "wpf":
            f = dict(re.findall(r'(\w+)=(-?\w+)', rest))
            if f.get("pid") == bpid:
                v = int(f["pl"], 0) & (2**64 - 1)
                lag = (v - 2**64 if v >= 2**63 else v) / 1000
        elif ev == "sched_wakeup":
            c = re.search(r'comm=(\S+) pid=(\d+)', rest)
            if c and named(c.group(1), b):
                bpid = c.group(2)
                wakes.append(t)
                burst = {"preempted": 0, "lag": lag}
                lag = None
        else:
            s = sw_re.search(rest)
            if not s:
                continue
            prev, _, state, nxt = s.groups()
            for who in (a, b):
                if named(nxt, who) and hrs is not None and t - hrs < 20e-6:
                    armed_at[who].append(hrs_delay)
            if named(prev, a) and since is not None:
                stretch.append((t - since) * 1e6)
                if stretch[-1] > 1500:
                    to_tick.append(since)
                since = None
            if named(prev, b) and burst is not None:
                if state.startswith("R"):
                    burst["preempted"] += 1
                    since = t if named(nxt, a) else None
                else:
                    burst["armed"] = hrs is not None and t - hrs < 20e-6
                    bursts.append(burst)
                    burst = None
    stretch.sort()
    print("%s: %d bursts of %s, %d ended in its sleep unpreempted; %s ran %d times after %s's "
          "preemption: p10/p50/p90 %s/%s/%s us, %d over 1.5 ms" % (
              path, len(bursts), b, sum(not x["preempted"] for x in bursts), a, len(stretch), b,
              q(stretch, .1), q(stretch, .5), q(stretch, .9), sum(x > 1500 for x in stretch)))
    gaps = sorted(round((y - x) * 1e3) for x, y in zip(to_tick, to_tick[1:]))
    common = sorted(set(gaps), key=lambda g: (-gaps.count(g), g))[:3]
    cycles = sorted((y - x) * 1e6 for x, y in zip(wakes, wakes[2:]))
    print("  ms between %s's stretches to the tick p10/p50/p90 %s/%s/%s, most often %s; %s's "
          "wake-up to the one after next p10/p50/p90 %s/%s/%s us" % (
              a, q(gaps, .1), q(gaps, .5), q(gaps, .9),
              ", ".join("%d (%dx)" % (g, gaps.count(g)) for g in common) or "-", b,
              q(cycles, .1), q(cycles, .5), q(cycles, .9)))
    if armed_at[a] or armed_at[b]:
        print("  slice timer armed at a switch to %s / %s (hrs lines), us: p10/p50/p90 %s/%s/%s / %s/%s/%s" % (
            a, b, *(q(sorted(armed_at[w]), f) for w in (a, b) for f in (.1, .5, .9))))
    for kind, sel in (("unpreempted", [x for x in bursts if not x["preempted"]]),
                      ("preempted", [x for x in bursts if x["preempted"]])):
        lags = sorted(x["lag"] for x in sel if x["lag"] is not None)
        if lags:
            print("  %s bursts: %s's lag at the wake-up p10/p50/p90 %s/%s/%s us" % (
                kind, b, q(lags, .1), q(lags, .5), q(lags, .9)))
        slags = sorted(x["slag"] for x in sel if "slag" in x)
        if slags:
            print("  %s bursts: %s's lag at its sleep p10/p50/p90 %s/%s/%s us, min %s; %d of %d "
                  "dequeues delayed (lag < 0)" % (
                      kind, b, q(slags, .1), q(slags, .5), q(slags, .9), round(slags[0]),
                      sum(x.get("sdl", False) for x in sel), len(slags)))
        if hrs is not None:
            print("  %s bursts: %d of %d sleeps armed %s's slice timer at the switch-out (%s's dequeue delayed)" % (
                kind, sum(x.get("armed", False) for x in sel), len(sel), a, b))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# What a timer's handler costs the task it interrupts: per trace (a boot's
# real-N/trace, or fairsim's), TASK's bursts (its CPU time from a wake-up
# to the sleep that follows, over any preemptions between) grouped by how
# many handlers ran on its time: wake-ups whose line carries ftrace's
# hardirq flag (h, or H with a softirq) with the task on that CPU. A
# kernel without IRQ_TIME_ACCOUNTING (Debian's) charges a handler's time
# to the task it interrupts, so a burst's length grows by the handlers'
# cost: the difference of the medians, one handler against none, is
# fairsim's --timer-cost. Bursts under 100 us (segment_costs.py's
# SHORT_US: a schbench-mutex worker woken to find the mutex taken) are
# counted apart, and the cost is read from the longer ones. fairsim's
# trace flags a wake-up made by a sleep timer's handler the same way.
# Bursts cut by the trace's start or its window (real-N/window_*, where
# the boot has one) are left out.
#
# usage: twin/irq_runs.py TASK TRACE...
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segment_costs import SHORT_US, events, switch_re  # noqa: E402
from trace_names import named, quantile  # noqa: E402

MIN_GROUP = 10


def bursts(path, task):
    """{handlers on its time: [burst CPU time, us]} of TASK in one trace."""
    on = {}        # CPU -> (pid, since) of the task's instance running there
    burst = {}     # pid -> [CPU time so far, handlers]; absent until a sleep was seen
    by = {}
    for comm, pid, cpu, flags, ts, kind, rest in events(path):
        if kind == 'sched_waking':
            cur = on.get(cpu)
            if cur and cur[0] == pid and flags[2:3] in ('h', 'H') and pid in burst:
                burst[pid][1] += 1
            continue
        s = switch_re.match(rest)
        if not s:
            continue
        prev, state, nxt = s.group(2), s.group(3), s.group(5)
        cur = on.pop(cpu, None)
        if cur and cur[0] == prev and prev in burst:
            burst[prev][0] += (ts - cur[1]) * 1e6
        if named(s.group(1), task) and state[:1] in ('S', 'D'):
            b = burst.get(prev)
            if b:
                by.setdefault(b[1], []).append(b[0])
            burst[prev] = [0.0, 0]
        if named(s.group(4), task):
            on[cpu] = (nxt, ts)
    return by


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: twin/irq_runs.py TASK TRACE...")
    for path in sys.argv[2:]:
        by = bursts(path, sys.argv[1])
        if not by:
            print("%s: no whole burst of %s" % (path, sys.argv[1]))
            continue
        print("%s: %s's bursts (CPU time, wake-up to sleep) by the timer handlers on its time"
              % (path, sys.argv[1]))
        print("  handlers  under %d us: n  p50 | longer: n   p10 us   p50 us   p90 us" % SHORT_US)
        long_ = {}
        for k in sorted(by):
            short = [x for x in by[k] if x < SHORT_US]
            long_[k] = [x for x in by[k] if x >= SHORT_US]
            ln = long_[k]
            print("  %8d  %14s | %9d  %7s  %7s  %7s" % (
                k, "%d  %.1f" % (len(short), quantile(short, .5)) if short else "0  -", len(ln),
                *(("%.1f" % quantile(ln, f)) if ln else "-" for f in (.1, .5, .9))))
        if len(long_.get(0, [])) >= MIN_GROUP and len(long_.get(1, [])) >= MIN_GROUP:
            print("  a handler's cost: %.1f us (the longer bursts' p50, one handler less none)"
                  % (quantile(long_[1], .5) - quantile(long_[0], .5)))
        else:
            print("  a handler's cost: fewer than %d longer bursts with one handler or with none"
                  % MIN_GROUP)

if __name__ == '__main__':
    main()

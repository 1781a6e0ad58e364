#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Where a task that asked for its own switch by a wake-up is switched
# away, in a trace (a boot's real-N/trace, or fairsim's): each wake-up
# made in a task's context (no "h" or "s" in the flags) whose
# sched_wakeup line carries a resched flag (N, or 7.x's lazy l, or their
# other letters), the first since the waker was switched in, then the
# waker's next switch away: how long after the wake-up, and whether it
# was preempted (R, R+), slept first (S, D) and woke another task before
# it. A futex or pipe call wakes at its end, so a switch at the call's
# return to user space comes a fixed time after the wake-up, preempted,
# and never after a sleep of the waker's. By waker and wakee, named as
# rt-app names its threads (fairsim's instance number dropped). A real
# trace's window starts at its "fairtest_twin: window_start" mark and
# lasts --duration seconds (5); fairsim's trace is read from 0.
# docs/fidelity-sync.md uses it for schbench-mutex and hackbench.
#
# usage: twin/wake_switch.py [--duration S] TRACE...
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import window_matches  # noqa: E402

line_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): '
                     r'(sched_waking|sched_wakeup|sched_switch): (.*)')
woken_re = re.compile(r'comm=(\S+) pid=(\d+)')
switch_re = re.compile(r'prev_comm=(\S+) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(\S+)')


def kind(comm):
    """rt-app's name of a thread: fairsim's worker-0-3 is worker-0"""
    m = re.fullmatch(r'(.+-\d+)-\d+', comm)
    return m.group(1) if m else comm


def wake_switches(path, duration):
    """{(waker, wakee): [(us to the switch, state, woke another first)]}"""
    asked, out = {}, collections.defaultdict(list)
    for m in window_matches(path, line_re, 'wake_switch.py', duration):
        comm, pid, _, flags, ts, event, rest = m.groups()
        ts = float(ts)
        in_task = len(flags) > 2 and flags[2] == '.'
        if event == 'sched_waking' and in_task and pid in asked:
            asked[pid][2] = True
        elif event == 'sched_wakeup' and in_task and flags[1] != '.' and pid not in asked:
            w = woken_re.search(rest)
            asked[pid] = [ts, (kind(comm), kind(w.group(1))), False]
        elif event == 'sched_switch':
            s = switch_re.search(rest)
            if s and s.group(2) in asked:
                at, pair, again = asked.pop(s.group(2))
                out[pair].append(((ts - at) * 1e6, s.group(3), again))
    return out


def main():
    args, duration = sys.argv[1:], 5.0
    if args[:1] == ['--duration'] and len(args) > 1:
        duration, args = float(args[1]), args[2:]
    if not args:
        sys.exit("usage: twin/wake_switch.py [--duration S] TRACE...")
    print("waker -> wakee: wake-ups that asked for the waker's switch | us to the switch: "
          "p50, max | switched preempted, after a sleep | woke another first")
    for path in args:
        print(path)
        for pair, v in sorted(wake_switches(path, duration).items()):
            gaps = sorted(g for g, _, _ in v)
            print("  %s -> %s: %d | %.0f, %.0f | %d, %d | %d" % (
                pair[0], pair[1], len(v), gaps[len(gaps) // 2], gaps[-1],
                sum(st.startswith('R') for _, st, _ in v),
                sum(st[0] in 'SD' for _, st, _ in v), sum(a for _, _, a in v)))


if __name__ == '__main__':
    main()

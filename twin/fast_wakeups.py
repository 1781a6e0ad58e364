#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# How many of one task's wake-ups reached the CPU at once, in a tracefs
# trace (a real boot's real-N/trace, or fairsim's sim.trace): per trace,
# the task's sched_wakeup -> sched_switch-to-it intervals (per thread), the share under
# 20 us (the wake-up preempted the running task) and their median, split by
# the resched flag the sched_wakeup line found ('.' none, 'l' lazy, 'N').
# A p50 hides this split; docs/fidelity.md uses it for cyclictest-rtapp.
#
# usage: twin/fast_wakeups.py TASK TRACE...     (TASK a regular expression)
import re
import sys

if len(sys.argv) < 3:
    sys.exit("usage: twin/fast_wakeups.py TASK TRACE...")
task = '(?:%s)' % sys.argv[1]  # a regular expression: 'sender|receiver-g0-\d+'
ev_re = re.compile(r'\] (\S+)\s+([\d.]+): (sched_wakeup|sched_switch): (.*)')
wake_re = re.compile(r'comm=%s(-\d+)? pid=(\d+)' % task)
next_re = re.compile(r'next_comm=%s(-\d+)? next_pid=(\d+)' % task)
for path in sys.argv[2:]:
    try:
        lines = open(path)
    except OSError as e:
        sys.exit("fairtest: fast_wakeups.py: %s: %s" % (path, e.strerror))
    pend, by = {}, {}	# per pid: each thread's wake-up waits for its own switch
    for line in lines:
        m = ev_re.search(line)
        if not m:
            continue
        flags, t, ev, rest = m.groups()
        w = ev == "sched_wakeup" and wake_re.search(rest)
        n = ev == "sched_switch" and next_re.search(rest)
        if w:
            pend[w.group(2)] = (flags[1] if len(flags) > 1 else ".", float(t))
        elif n and n.group(2) in pend:
            f, t0 = pend.pop(n.group(2))
            by.setdefault(f, []).append((float(t) - t0) * 1e6)
    every = sorted(x for v in by.values() for x in v)
    if not every:
        print("%s: no wake-up of %s" % (path, sys.argv[1]))
        continue
    split = ", ".join("%r %d (%.0f%% fast)" % (k, len(v), 100 * sum(x < 20 for x in v) / len(v))
                      for k, v in sorted(by.items()))
    print("%s: %d wake-ups, %.0f%% within 20 us, p50 %.0f us; by flag: %s" % (
        path, len(every), 100 * sum(x < 20 for x in every) / len(every),
        every[len(every) // 2], split))

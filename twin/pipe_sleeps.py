#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Where hackbench's threads sleep, in a tracefs trace (a real boot's
# real-N/trace, or fairsim's sim.trace): per side (receivers, senders),
# the sleeps by the state sched_switch gives (S: a pipe's wait, which is
# interruptible; D: uninterruptible, on the real kernel the pipe's mutex,
# which pipe_read() and pipe_write() hold while they copy), and the
# wake-ups by the state the woken thread slept in and the side of its
# waker (the thread the sched_wakeup line runs in). fairsim's threads
# sleep in S only, on its mutexes too (sim/shapes/hackbench.py --pipe-lock).
# Real threads are all "hackbench": which side each is, by pid order, is
# trace_names.hackbench_sides()'s.
#
# usage: twin/pipe_sleeps.py [--fds N] TRACE...      (N: hackbench's -f, 20)
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import fds_option, hackbench_sides  # noqa: E402

fds, args = fds_option(sys.argv[1:], "usage: twin/pipe_sleeps.py [--fds N] TRACE...")
sw_re = re.compile(r'sched_switch: prev_comm=(\S+) prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+)')
wk_re = re.compile(r'^\s*(\S+)-(\d+)\s.*sched_wakeup: comm=(\S+) pid=(\d+)')

for path in args:
    try:
        side = hackbench_sides(path, fds)
    except OSError as e:
        sys.exit("fairtest: pipe_sleeps.py: %s: %s" % (path, e.strerror))
    slept, sleeps, wakes = {}, {}, {}
    for line in open(path):
        m = sw_re.search(line)
        if m:
            pid, st = int(m.group(2)), m.group(3)
            if pid in side and st[0] in 'SD':
                slept[pid] = st[0]
                sleeps[(side[pid], st[0])] = sleeps.get((side[pid], st[0]), 0) + 1
            continue
        m = wk_re.search(line)
        if m and int(m.group(4)) in side:
            pid = int(m.group(4))
            key = (side[pid], slept.pop(pid, '?'), side.get(int(m.group(2)), m.group(1)))
            wakes[key] = wakes.get(key, 0) + 1
    print("%s: %d receivers, %d senders" % (path, sum(v == 'receiver' for v in side.values()),
                                           sum(v == 'sender' for v in side.values())))
    for s in ('receiver', 'sender'):
        print("  %ss slept %d times in S, %d in D" % (s, sleeps.get((s, 'S'), 0),
                                                     sleeps.get((s, 'D'), 0)))
    for (s, st, by), n in sorted(wakes.items(), key=lambda kv: -kv[1]):
        print("  %s woken from %s by %s: %d" % (s, st, by, n))

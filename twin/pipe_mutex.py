#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# How much of hackbench's CPU time runs under a mutex, in a real boot's
# trace with FAIRTEST_TWIN_EVENTS=twin/events/pipe-mutex.events: per side
# (receivers, senders: twin/pipe_sleeps.py's split by pid order), the CPU
# time from each mutex_lock() call to the thread's next mutex_unlock() (on
# one CPU: while the thread is the one running), its share of the side's
# CPU time, and that share of the side's operations alone, the side's CPU
# time less WAKE_COST us after each of its wake-ups, as twin/hackbench_cost.py
# counts a write's and a read's cost: what sim/shapes/hackbench.py's
# --pipe-lock W:R takes. The probes' own cost is in both times.
#
# usage: twin/pipe_mutex.py TRACE [WAKE_COST]      (fairsim's default, 10 us)
import re
import sys

if len(sys.argv) not in (2, 3):
    sys.exit("usage: twin/pipe_mutex.py TRACE [WAKE_COST]")
wake_cost = float(sys.argv[2]) / 1e6 if len(sys.argv) == 3 else 10e-6
sw_re = re.compile(r'\[\d+\] \S+\s+([\d.]+): sched_switch: prev_comm=(\S+) prev_pid=(\d+) '
                   r'.*next_comm=(\S+) next_pid=(\d+)')
wk_re = re.compile(r'sched_wakeup: comm=hackbench pid=(\d+)')
ml_re = re.compile(r'-(\d+)\s+\[\d+\] \S+\s+([\d.]+): (ml|mu):')
path, fds = sys.argv[1], 20
try:
    lines = open(path).readlines()
except OSError as e:
    sys.exit("fairtest: pipe_mutex.py: %s: %s" % (path, e.strerror))
pids = set()
for line in lines:
    m = sw_re.search(line)
    if m:
        pids.update(int(m.group(i + 1)) for i, c in ((2, m.group(2)), (4, m.group(4)))
                    if c == 'hackbench')
side = {p: 'receiver' if i % (2 * fds) < fds else 'sender' for i, p in enumerate(sorted(pids))}
if not side or not any(ml_re.search(x) for x in lines[:200000]):
    sys.exit("fairtest: pipe_mutex.py: %s: no hackbench threads or no ml/mu probe lines "
             "(boot it with FAIRTEST_TWIN_EVENTS=twin/events/pipe-mutex.events)" % path)
cpu, under, locks, wakes = ({'receiver': 0.0, 'sender': 0.0} for _ in range(4))
held, cur, since = {}, None, None


def account(t):
    global since
    if cur in side and since is not None:
        cpu[side[cur]] += t - since
        if held.get(cur):
            under[side[cur]] += t - since
    since = t


for line in lines:
    m = sw_re.search(line)
    if m:
        account(float(m.group(1)))
        cur = int(m.group(5))
        continue
    m = ml_re.search(line)
    if m and int(m.group(1)) in side:
        pid = int(m.group(1))
        account(float(m.group(2)))
        held[pid] = m.group(3) == 'ml'
        locks[side[pid]] += m.group(3) == 'ml'
        continue
    m = wk_re.search(line)
    if m and int(m.group(1)) in side:
        wakes[side[int(m.group(1))]] += 1
print("%s:" % path)
for s in ('sender', 'receiver'):
    ops = cpu[s] - wakes[s] * wake_cost
    print("  %ss: %d locks, %.1f ms of CPU, %.1f under a mutex (%.0f%%); %d wake-ups, "
          "of the operations' %.1f ms %.0f%%" % (s, locks[s], cpu[s] * 1e3, under[s] * 1e3,
          100 * under[s] / cpu[s] if cpu[s] else 0, wakes[s], ops * 1e3,
          100 * under[s] / ops if ops > 0 else 0))

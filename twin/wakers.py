#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Who woke a task, in a tracefs trace (a real boot's real-N/trace, or
# fairsim's sim.trace): per trace, the task's wake-ups counted by the task
# that was on the CPU when it woke (the line's own comm, instance and pid
# dropped: "worker-0-7-23" and "worker-0-169" are both "worker"), from
# sched_waking where the trace has it, else sched_wakeup. A wake-up from
# a sibling is a handover (a mutex, a pipe); one from <idle> a timer.
# docs/fidelity.md uses it for schbench-mutex. A second line: by waker,
# the wake-ups' latency to run (the wake-up to the switch to the task,
# p50 / p99 us), inside the window's marks where the boot's trace has
# them, as the twin's analysis counts.
#
# usage: twin/wakers.py TASK TRACE...
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import marked_window  # noqa: E402

if len(sys.argv) < 3:
    sys.exit("usage: twin/wakers.py TASK TRACE...")
task = re.escape(sys.argv[1])
line_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\].*?\s(sched_waking|sched_wakeup): comm=%s(-\d+)? '
                     % task)
ev_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (sched_waking|sched_wakeup|sched_switch): (.*)')
woken_re = re.compile(r'comm=%s(-\d+)? pid=(\d+)' % task)
next_re = re.compile(r'next_pid=(\d+)')


def latencies(path, text, event):
    """By waker: the task's wake-ups to its switches in, in us."""
    win = marked_window(text.splitlines())
    pending, out = {}, collections.defaultdict(list)
    for line in text.splitlines():
        m = ev_re.match(line)
        if not m:
            continue
        ts = float(m.group(3))
        if win and not win[0] <= ts <= win[1]:
            continue
        if m.group(4) == event:
            w = woken_re.match(m.group(5))
            if w:
                pending[w.group(2)] = (ts, re.split(r'-', m.group(1))[0] or m.group(1))
        elif m.group(4) == 'sched_switch':
            n = next_re.search(m.group(5))
            if n and n.group(1) in pending:
                t0, k = pending.pop(n.group(1))
                out[k].append((ts - t0) * 1e6)
    return out


for path in sys.argv[2:]:
    try:
        text = open(path).read()
    except OSError as e:
        sys.exit("fairtest: wakers.py: %s: %s" % (path, e.strerror))
    event = "sched_waking" if "sched_waking: " in text else "sched_wakeup"
    by = collections.Counter()
    for line in text.splitlines():
        m = line_re.match(line)
        if m and m.group(3) == event:
            by[re.split(r'-', m.group(1))[0] or m.group(1)] += 1
    total = sum(by.values())
    if not total:
        print("%s: no %s of %s" % (path, event, sys.argv[1]))
        continue
    print("%s: %d wake-ups of %s (%s); by waker: %s" % (
        path, total, sys.argv[1], event,
        ", ".join("%s %d (%.0f%%)" % (k, v, 100 * v / total) for k, v in by.most_common())))
    lat = collections.defaultdict(list)
    for k, v in latencies(path, text, event).items():
        lat[k] = sorted(v)
    if lat:
        print("%s: latency to run by waker, p50 / p99 us: %s" % (path, ", ".join(
            "%s %.0f / %.0f" % (k, v[len(v) // 2], v[min(len(v) - 1, int(.99 * len(v)))])
            for k, v in sorted(lat.items(), key=lambda kv: -len(kv[1])))))

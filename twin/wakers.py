#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Who woke a task, in a tracefs trace (a real boot's real-N/trace, or
# fairsim's sim.trace): per trace, the task's wake-ups counted by the task
# that was on the CPU when it woke (the line's own comm, instance and pid
# dropped: "worker-0-7-23" and "worker-0-169" are both "worker"), from
# sched_waking where the trace has it, else sched_wakeup. A wake-up from
# a sibling is a handover (a mutex, a pipe); one from <idle> a timer.
# docs/fidelity.md uses it for schbench-mutex.
#
# usage: twin/wakers.py TASK TRACE...
import collections
import re
import sys

if len(sys.argv) < 3:
    sys.exit("usage: twin/wakers.py TASK TRACE...")
task = re.escape(sys.argv[1])
line_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\].*?\s(sched_waking|sched_wakeup): comm=%s(-\d+)? '
                     % task)
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

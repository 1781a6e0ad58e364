#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# hackbench's pipe traffic in a real boot's trace (make twin with
# FAIRTEST_TWIN_EVENTS=twin/events/pipe.events): per side, the threads that
# only read (receivers) and those that write (senders), their reads or
# writes, wake-ups, CPU time (from sched_switch) and so the reads a
# receiver makes per wake-up and the CPU time per read and per write. The
# probes' own cost is in those times (an fprobe at each call).
#
# usage: twin/pipe_ops.py TRACE...
import re
import sys

if len(sys.argv) < 2:
    sys.exit("usage: twin/pipe_ops.py TRACE...")
ev_re = re.compile(r'-(\d+)\s+\[\d+\] \S+\s+([\d.]+): (pr|pw|sched_switch|sched_wakeup): (.*)')
for path in sys.argv[1:]:
    try:
        lines = open(path)
    except OSError as e:
        sys.exit("fairtest: pipe_ops.py: %s: %s" % (path, e.strerror))
    reads, writes, wakes, run = {}, {}, {}, {}
    on, since = None, None
    for line in lines:
        m = ev_re.search(line)
        if not m:
            continue
        pid, t, ev, rest = m.group(1), float(m.group(2)), m.group(3), m.group(4)
        if ev == 'pr':
            reads[pid] = reads.get(pid, 0) + 1
        elif ev == 'pw':
            writes[pid] = writes.get(pid, 0) + 1
        elif ev == 'sched_wakeup':
            w = re.search(r' pid=(\d+)', rest)
            wakes[w.group(1)] = wakes.get(w.group(1), 0) + 1
        else:
            if on is not None:
                run[on] = run.get(on, 0.0) + t - since
            on, since = re.search(r'next_pid=(\d+)', rest).group(1), t
    if not reads and not writes:
        sys.exit("fairtest: pipe_ops.py: %s: no pr/pw lines (FAIRTEST_TWIN_EVENTS=twin/events/pipe.events)" % path)
    recv = [p for p in reads if p not in writes]
    send = [p for p in writes]
    print("%s:" % path)
    print("  side        threads      calls   wake-ups  calls/wake-up   CPU ms   CPU us/call")
    for name, pids, calls in (("receivers", recv, reads), ("senders", send, writes)):
        n = sum(calls[p] for p in pids)
        w = sum(wakes.get(p, 0) for p in pids)
        cpu = sum(run.get(p, 0.0) for p in pids) * 1e3
        print("  %-10s %8d %10d %10d %14.1f %8.1f %13.2f" %
              (name, len(pids), n, w, n / w if w else 0.0, cpu, cpu * 1e3 / n if n else 0.0))

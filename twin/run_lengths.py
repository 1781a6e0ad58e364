#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# How long a task runs each time it is switched in, in a tracefs trace (a
# real boot's real-N/trace, or fairsim's sim.trace): per trace, the count
# and the p10 / p50 / p90 / max of its runs (switch in to switch out, us),
# and how many lasted 3 ms or more (most of a 4 ms tick), all instances
# of the task together ("mid-0-3" and "mid" are "mid"). A
# slice ended by the hrtick is a run of about the base slice; one ended by
# the tick is a multiple of it. docs/fidelity.md uses it for weights.
#
# usage: twin/run_lengths.py TASK TRACE...
import re
import sys

if len(sys.argv) < 3:
    sys.exit("usage: twin/run_lengths.py TASK TRACE...")
task = sys.argv[1]
sw_re = re.compile(r'\s([\d.]+): sched_switch: .*next_comm=(\S+) next_pid=(\d+)')


def name(comm):
    # fairsim's threads are KEY-INSTANCE; the real ones KEY
    return comm if comm == task else re.sub(r'-\d+$', '', comm)


for path in sys.argv[2:]:
    try:
        lines = open(path)
    except OSError as e:
        sys.exit("fairtest: run_lengths.py: %s: %s" % (path, e.strerror))
    runs, cur = [], None
    for line in lines:
        m = sw_re.search(line)
        if not m:
            continue
        t = float(m.group(1))
        if cur is not None:
            runs.append((t - cur) * 1e6)
        cur = t if name(m.group(2)) == task else None
    runs.sort()
    if not runs:
        print("%s: %s never ran" % (path, task))
        continue
    n = len(runs)
    long_ = sum(r >= 3000 for r in runs)
    print("%s: %s ran %d times; run us p10 %.0f, p50 %.0f, p90 %.0f, max %.0f; %d (%.0f%%) of 3 ms "
          "or more" % (path, task, n, runs[n // 10], runs[n // 2], runs[9 * n // 10], runs[-1],
                       long_, 100 * long_ / n))

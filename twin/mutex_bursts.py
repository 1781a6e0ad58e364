#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A locker's wake-ups by what followed them, in a trace (a boot's
# real-N/trace, or fairsim's): each burst of the tasks named (from a
# wake-up's switch in to the switch away that put the task to sleep,
# pieces between preemptions joined) counts as a pass (PASS_US and
# longer: schbench-mutex's workers run 500 us a pass), a short burst
# (under SHORT_US) that woke nobody (a re-take that found the mutex
# taken, or a wait whose unlock found no sleeper) or that woke someone
# (a wait's unlock, a group's last leaver waking the broadcaster).
# Also the CPU time of the bursts per pass, and the bursts preempted
# within SHORT_PRE_US of their start by the task they had just woken.
# A real trace's window starts at its "fairtest_twin: window_start" mark
# and lasts --duration seconds (5); fairsim's trace is read from 0.
# docs/fidelity-sync.md uses it for schbench-mutex.
#
# usage: twin/mutex_bursts.py [--duration S] TASK[,TASK...] TRACE...
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segment_costs import flags_re, switch_re  # noqa: E402
from trace_names import window_matches  # noqa: E402

PASS_US, SHORT_US, SHORT_PRE_US = 450, 100, 20
woken_re = re.compile(r'comm=(\S+) pid=(\d+)')


def named(comm, tasks):
    return any(comm == t or re.fullmatch(re.escape(t) + r'-\d+', comm) for t in tasks)


def events(path, duration):
    for m in window_matches(path, flags_re, 'mutex_bursts.py', duration):
        yield m.groups()


def bursts(path, tasks, duration):
    """(run us, tasks woken, preempted early by its wakee) of each burst"""
    on, cur, woken, out = None, {}, set(), []
    for comm, pid, cpu, flags, ts, kind, rest in events(path, duration):
        ts = float(ts)
        if kind == 'sched_waking':
            w = woken_re.search(rest)
            if on and on[0] == pid and pid in cur and w.group(2) != pid:
                cur[pid][1] += 1
                cur[pid][3] = w.group(2)
            if named(w.group(1), tasks):
                woken.add(w.group(2))
            continue
        s = switch_re.match(rest)
        if not s:
            continue
        prev, state, nxt = s.group(2), s.group(3), s.group(5)
        if on and on[0] == prev and prev in cur:
            b = cur[prev]
            b[0] += (ts - on[1]) * 1e6
            if state.startswith('R') and b[0] < SHORT_PRE_US and b[3] == nxt:
                b[2] = True
            if state.startswith('S'):
                out.append(tuple(cur.pop(prev)[:3]))
        if nxt in woken and nxt not in cur:
            woken.discard(nxt)
            cur[nxt] = [0.0, 0, False, None]
        on = (nxt, ts)
    return out


def main():
    args, duration = sys.argv[1:], 5.0
    if args[:1] == ['--duration'] and len(args) > 1:
        duration, args = float(args[1]), args[2:]
    if len(args) < 2:
        sys.exit("usage: twin/mutex_bursts.py [--duration S] TASK[,TASK...] TRACE...")
    tasks = args[0].split(',')
    print("trace: wake-ups | passes (%d us and more) | short (under %d us): woke nobody, "
          "woke some | CPU us per pass | preempted by their wakee within %d us"
          % (PASS_US, SHORT_US, SHORT_PRE_US))
    for path in args[1:]:
        c = collections.Counter()
        for run, woke, pre in bursts(path, tasks, duration):
            c['all'] += 1
            c['run'] += run
            c['pass' if run >= PASS_US else 'short0' if run < SHORT_US and not woke
              else 'short1' if run < SHORT_US else 'mid'] += 1
            c['pre'] += pre
        print("%s: %d | %d | %d, %d | %.1f | %d%s" % (
            path, c['all'], c['pass'], c['short0'], c['short1'],
            c['run'] / c['pass'] if c['pass'] else 0, c['pre'],
            " | %d between" % c['mid'] if c['mid'] else ""))


if __name__ == '__main__':
    main()

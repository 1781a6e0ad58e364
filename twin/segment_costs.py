#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# What a task's stretches of CPU cost, by how many tasks it woke in them:
# per trace (a boot's real-N/trace, or fairsim's), the task's segments
# from a switch in to the switch away that put it to sleep (prev_state
# S), grouped by the wake-ups it made in between (sched_waking of
# another task with it on the CPU; inside the window's marks where the
# boot's trace has them), with the count and the p10 / p50 / p90 length of
# each group. A fit over the groups of two and more wake-ups (least
# squares on their medians, weighted by count) gives the CPU time per
# task woken (its slope) and the rest of such a segment (its intercept).
# For schbench-mutex's message thread these are fairsim's three costs:
# a segment that woke nobody is a wake-up's return and a sleep again
# (--wake-cost: its median), one that woke n is a broadcast that ends a
# pass (--futex-wake-cost: the slope; --loop-cost: the intercept less the
# wake cost). Then the segments by what woke: tasks of its own kind,
# others, and from an interrupt (a timer's expiry on its time: ftrace's
# h flag, which fairsim's trace writes too), under SHORT_US and longer; and a mutex unlock's cost
# (--unlock-wake-cost): a short segment that woke one of its kind (a
# schbench-mutex worker's pthread_cond_wait()) less one that woke nobody.
# docs/fidelity-sync.md.
#
# usage: twin/segment_costs.py TASK TRACE...
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import quantile, window_matches  # noqa: E402

woken_re = re.compile(r' pid=(\d+)')
flags_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): (sched_waking|sched_switch): (.*)')
woken_comm_re = re.compile(r'comm=(\S+)')
switch_re = re.compile(r'prev_comm=(\S+) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(\S+) next_pid=(\d+)')


def events(path):
    """(comm, pid, cpu, flags, ts, kind, rest) of each sched_waking and
    sched_switch line of one trace inside its marked window, ts in seconds."""
    for m in window_matches(path, flags_re, 'segment_costs.py'):
        comm, pid, cpu, flags, ts, kind, rest = m.groups()
        yield comm, pid, cpu, flags, float(ts), kind, rest


def segments(path, task):
    """{tasks woken: [segment lengths, us]} of TASK's segments in one trace
    that ended asleep (twin/calibrate.py pools them over boots)."""
    task_re = re.compile(re.escape(task) + r'(-\d+)?$')
    on = {}          # CPU -> (pid, comm, since, wake-ups made)
    by = collections.defaultdict(list)
    for comm, pid, cpu, flags, ts, kind, rest in events(path):
        if kind == 'sched_waking':
            cur = on.get(cpu)
            # another task: by pid, as a real trace's threads share a comm
            if cur and cur[0] == pid and woken_re.search(rest).group(1) != pid:
                on[cpu] = cur[:3] + (cur[3] + 1,)
            continue
        s = switch_re.match(rest)
        if not s:
            continue
        cur = on.get(cpu)
        if cur and cur[0] == s.group(2) and s.group(3).startswith('S') and task_re.match(cur[1]):
            by[cur[3]].append((ts - cur[2]) * 1e6)
        on[cpu] = (s.group(5), s.group(4), ts, 0)
    return by


# A segment this short has none of a pass's runs in it (schbench-mutex's
# are 500 us): the return from a sleep and what the task did before it
# slept again (unlock_segments()).
SHORT_US = 100


def by_context(path, task):
    """{(wake-ups of its own kind, of others, from an interrupt): [segment
    lengths, us]} of TASK's segments in one trace that ended asleep. A
    wake-up from an interrupt (the flags' h or s: a timer's expiry, whose
    handler runs on the interrupted task's time) is not the task's own.
    fairsim's trace has them too; there the handler costs the task its
    time only under --timer-cost."""
    task_re = re.compile(re.escape(task) + r'(-\d+)?$')
    on = {}          # CPU -> (pid, comm, since, [own, other, interrupt])
    by = collections.defaultdict(list)
    for comm, pid, cpu, flags, ts, kind, rest in events(path):
        cur = on.get(cpu)
        if kind == 'sched_waking':
            if cur and cur[0] == pid:
                w = woken_comm_re.search(rest).group(1)
                cur[3][2 if flags[2:3] in ('h', 'H', 's') else 0 if task_re.match(w) else 1] += 1
            continue
        s = switch_re.match(rest)
        if not s:
            continue
        if cur and cur[0] == s.group(2) and s.group(3).startswith('S') and task_re.match(cur[1]):
            by[tuple(cur[3])].append((ts - cur[2]) * 1e6)
        on[cpu] = (s.group(5), s.group(4), ts, [0, 0, 0])
    return by


def unlock_segments(path, task):
    """([segments that woke nobody], [segments that woke one task of its
    own kind and no other]) of TASK's segments under SHORT_US in one
    trace that ended asleep (by_context()), us. A locker's short segment
    that woke one of its kind is the return from a sleep and a mutex
    unlock's wake-up (pthread_cond_wait()'s); less one that woke nobody,
    it is the unlock's cost (twin/calibrate.py, mid_mean())."""
    by = by_context(path, task)
    return ([x for x in by.get((0, 0, 0), []) if x < SHORT_US],
            [x for x in by.get((1, 0, 0), []) if x < SHORT_US])


def mid_mean(xs):
    """The mean of the middle half of XS: a trace's microseconds make each
    length whole, the mean of the middle half gives the fraction back."""
    xs = sorted(xs)
    mid = xs[len(xs) // 4:len(xs) - len(xs) // 4]
    return sum(mid) / len(mid)


def fit(by):
    """(base us, us per task woken, groups of 2+ fitted) of a least-squares
    fit over the medians of the groups of two wake-ups and more, weighted by
    count; None with fewer than two such groups."""
    pts = [(n, sorted(xs)[len(xs) // 2], len(xs)) for n, xs in by.items() if n >= 2]
    w = sum(c for _, _, c in pts)
    if len(pts) < 2 or not w:
        return None
    mx = sum(n * c for n, _, c in pts) / w
    my = sum(y * c for _, y, c in pts) / w
    sxx = sum(c * (n - mx) ** 2 for n, _, c in pts)
    slope = sum(c * (n - mx) * (y - my) for n, y, c in pts) / sxx if sxx else 0.0
    return my - slope * mx, slope, len(pts)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: twin/segment_costs.py TASK TRACE...")
    for path in sys.argv[2:]:
        by = segments(path, sys.argv[1])
        if not by:
            print("%s: no segment of %s that ended asleep" % (path, sys.argv[1]))
            continue
        print("%s: %s's segments that ended asleep, by the tasks it woke in them" % (path, sys.argv[1]))
        print("  woke      n   p10 us   p50 us   p90 us")
        for n in sorted(by):
            xs = sorted(by[n])
            print("  %4d  %5d  %7.1f  %7.1f  %7.1f" % (
                n, len(xs), quantile(xs, .1), quantile(xs, .5), quantile(xs, .9)))
        f = fit(by)
        if not f:
            print("  fit: fewer than two groups of two wake-ups or more")
            continue
        base, slope = f[0], f[1]
        none = sorted(by[0])[len(by[0]) // 2] if by.get(0) else None
        print("  fit over 2+ wake-ups: %.1f us + %.2f us per task woken" % (base, slope))
        if none is not None:
            print("  fairsim: --wake-cost %.0f --futex-wake-cost %.1f --loop-cost %.1f"
                  % (none, slope, base - none))
    for path in sys.argv[2:]:
        by = by_context(path, sys.argv[1])
        print("%s: %s's segments by the wake-ups of its kind / others / from an interrupt, "
              "10 or more" % (path, sys.argv[1]))
        print("  own other irq  under %d us: n  p50 us | longer: n  p50 us" % SHORT_US)
        for k in sorted(by):
            short = sorted(x for x in by[k] if x < SHORT_US)
            long_ = sorted(x for x in by[k] if x >= SHORT_US)
            if len(short) >= 10 or len(long_) >= 10:
                print("  %3d %5d %3d  %18s | %s" % (k + (
                    "%d  %.1f" % (len(short), quantile(short, .5)) if short else "-",
                    "%d  %.1f" % (len(long_), quantile(long_, .5)) if long_ else "-")))
        none, one = unlock_segments(path, sys.argv[1])
        if none and one:
            print("%s: under %d us, the middle half's mean: woke nobody %.1f us (%d), woke one "
                  "%s %.1f us (%d): --unlock-wake-cost %.1f" % (
                      path, SHORT_US, mid_mean(none), len(none), sys.argv[1], mid_mean(one),
                      len(one), mid_mean(one) - mid_mean(none)))


if __name__ == '__main__':
    main()

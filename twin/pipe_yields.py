#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Where hackbench's threads are switched away while runnable, in a real
# 6.12 boot's trace with FAIRTEST_TWIN_EVENTS=twin/events/cond-resched-6.12.events.
# A sched_switch whose prev_state is "R+" is __schedule(SM_PREEMPT), which
# under PREEMPT_VOLUNTARY only a cond_resched() point makes inside a system
# call (irqentry_exit_cond_resched() and preempt_schedule() are off there):
# counted by the caller of the __cond_resched() the thread was in (the
# last cr line's ra=; "?" in a trace without them). "R" is schedule() at
# the return to user space.
# Each is also told by what set the flag: the last wake-up in the thread's
# context since it ran (its sched_wakeup line has a resched flag, N or 7.x's
# lazy l or its other letters: that wake-up asked for the switch; the woken
# thread's name), else "no wake-up" (a tick). Sleeps (S, D) are counted beside them, and each side's runs
# (switch in to switch out) and the receivers a sender woke in each run it
# left runnable, and how far apart a thread's wake-ups in one run are
# (its sched_waking lines with no switch between: a sender's writes that
# each found a pipe empty, try_to_wake_up() on its time), and how long a
# sender's wake-up takes from its sched_waking line to the wakee's
# sched_wakeup (the part of try_to_wake_up() between its two tracepoints;
# a wakee's latest sched_waking). fairsim's trace (sim.trace,
# its threads sender-* and receiver-*) reads too: it writes every
# preemption as R+, wherever it came.
#
# usage: twin/pipe_yields.py [--fds N] TRACE...      (N: hackbench's -f, 20)
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import fds_option  # noqa: E402

fds, args = fds_option(sys.argv[1:], "usage: twin/pipe_yields.py [--fds N] TRACE...")
ev_re = re.compile(r'-(\d+)\s+\[\d+\] (\S+)\s+([\d.]+): (cr|sched_switch|sched_wakeup|sched_waking): (.*)')
sw_re = re.compile(r'prev_comm=(\S+) prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+) ==> .* next_pid=(\d+)')
ra_re = re.compile(r'ra=([^+\s]+)')


def count(path):
    """{pid: {(state, caller, flag setter): n}}, {pid: name}, the runs
    [(pid, us, state, pids woken)], whether it had cr lines, the gaps
    [(pid, us)] between a thread's wake-ups in one run, the wake-ups'
    [(waker pid, us)] from sched_waking to sched_wakeup"""
    caller, setter, seen, names, cr_seen = {}, {}, {}, {}, False
    since, woke, runs, waking, gaps = {}, {}, [], {}, []
    pending, ttwu = {}, []
    for line in open(path):
        m = ev_re.search(line)
        if not m:
            continue
        pid, flags, t, kind, rest = int(m.group(1)), m.group(2), float(m.group(3)), m.group(4), m.group(5)
        if kind == 'cr':
            cr_seen = True
            r = ra_re.search(rest)
            caller[pid] = r.group(1) if r else '?'
        elif kind == 'sched_waking':
            if pid in waking:
                gaps.append((pid, (t - waking[pid]) * 1e6))
            waking[pid] = t
            w = re.search(r'pid=(\d+)', rest)
            if w:
                pending[int(w.group(1))] = (pid, t)
        elif kind == 'sched_wakeup':
            w = re.search(r'comm=(\S+) pid=(\d+)', rest)
            if w:
                woke.setdefault(pid, []).append(int(w.group(2)))
                if int(w.group(2)) in pending:
                    waker, at = pending.pop(int(w.group(2)))
                    ttwu.append((waker, (t - at) * 1e6))
            if flags[1:2] not in ('', '.') and pid not in setter and w:
                setter[pid] = (w.group(1), int(w.group(2)))
        else:
            s = sw_re.search(rest)
            if not s:
                continue
            prev, st = int(s.group(2)), s.group(3)
            if s.group(1) == 'hackbench' or s.group(1).startswith(('sender', 'receiver')):
                key = (st, caller.get(prev, '?') if st == 'R+' else '',
                       setter.get(prev, ('no wake-up', 0)) if st[0] == 'R' else None)
                names[prev] = s.group(1)
                seen.setdefault(prev, {})
                seen[prev][key] = seen[prev].get(key, 0) + 1
                if prev in since:
                    runs.append((prev, (t - since[prev]) * 1e6, st, woke.get(prev, [])))
            caller.pop(prev, None)
            setter.pop(prev, None)
            waking.pop(prev, None)
            since[int(s.group(4))] = t
            woke.pop(int(s.group(4)), None)
    return seen, names, runs, cr_seen, gaps, ttwu


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else 0


def woken(why, names, real):
    """the side of a woken hackbench thread, else its name without a number"""
    comm, pid = why
    if names.get(pid) == 'hackbench':
        return 'a receiver' if real.index(pid) % (2 * fds) < fds else 'a sender'
    if comm.startswith(('sender', 'receiver')):
        return 'a ' + comm.split('-')[0]
    return re.sub(r'-\d+$', '', comm)


for path in args:
    try:
        seen, names, runs, cr_seen, gaps, ttwu = count(path)
    except OSError as e:
        sys.exit("fairtest: pipe_yields.py: %s: %s" % (path, e.strerror))
    if not seen:
        sys.exit("fairtest: pipe_yields.py: %s: no hackbench thread was switched away; "
                 "give the trace of a twin of hackbench" % path)
    # hackbench creates each group's FDS receivers, then its FDS senders
    sides, members = {}, {}
    real = sorted(p for p in seen if names[p] == 'hackbench')
    for pid in seen:
        if names[pid] == 'hackbench':
            i = real.index(pid)
            name = 'receivers' if i % (2 * fds) < fds else 'senders'
        else:
            name = names[pid].split('-')[0] + 's'
        side = sides.setdefault(name, {})
        members.setdefault(name, []).append(pid)
        for (st, where, why), n in seen[pid].items():
            key = (st, where, why and woken(why, names, real))
            side[key] = side.get(key, 0) + n
    print("%s: %d hackbench threads%s" % (path, len(seen), '' if cr_seen else
                                           ", no cr lines (callers: ?)"))
    side_of = {pid: side for side, pids in members.items() for pid in pids}
    for name in ('receivers', 'senders'):
        rows = sides.get(name, {})
        print("  %s: %d switches away" % (name, sum(rows.values())))
        mine = [r for r in runs if side_of.get(r[0]) == name]
        ran = [r[1] for r in mine]
        print("    runs: p50 %.0f us, mean %.0f us" % (median(ran), sum(ran) / max(len(ran), 1)))
        if name == 'senders':
            # the receivers a sender woke in each run it left runnable
            n = [sum(side_of.get(w) == 'receivers' for w in r[3]) for r in mine if r[2][0] == 'R']
            print("    runs left runnable: receivers woken p50 %d, mean %.1f" %
                  (median(n), sum(n) / max(len(n), 1)))
            g = [us for pid, us in gaps if side_of.get(pid) == name]
            print("    wake-ups in one run: %d, p50 %.0f us apart" % (len(g), median(g)))
            g = [us for pid, us in ttwu if side_of.get(pid) == name]
            print("    sched_waking to sched_wakeup: %d, p50 %.0f us" % (len(g), median(g)))
        for (st, where, why), n in sorted(rows.items(), key=lambda kv: (-kv[1], kv[0])):
            text = {'R+': 'R+ (in %s)' % where, 'R': 'R'}.get(st, st)
            print("    %-40s %6d%s" % (text, n, ", flag set by: %s" % why if why else ''))

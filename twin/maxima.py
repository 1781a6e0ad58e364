#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# What delayed a task's worst wake-ups, in a tracefs trace (a real boot's
# real-N/trace or fairsim's sim.trace): per trace, the task's N longest
# wake-up latencies (sched_wakeup to the sched_switch onto it, as fairsim's
# analysis measures them, inside the window_start/window_end marks where
# the trace has them), each with the wake-up line's flags and the task on
# the CPU when it came (<idle> for a timer out of idle), what ran on the
# CPU it was switched in on between the wake-up and that switch (comm and
# how long), what else woke in the millisecond before and until the
# switch (offset from the wake-up), and what ran there in that millisecond
# before. A latency whose CPU ran only the idle
# task throughout went to interrupts or the idle exit, which the trace does
# not show. Where the trace has the wake-up checks' probe lines ("wpf":
# a boot with FAIRTEST_TWIN_EVENTS=twin/events/wakeup-<tree>.events,
# fairsim's with FAIRSIM_PROBES=1), each wake-up also gets the state the
# check decided on, as twin/wakeup_state.py reads it: the wakee's lag, the
# running task eligible or not, protected or not, its slice left, and the
# wakee's deadline against its. docs/fidelity-maxima.md uses it for the
# maxima.
#
# usage: twin/maxima.py TASK [N] TRACE...       (N: 3)
import bisect
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import named  # noqa: E402
from wakeup_state import has_prot, kv_re, state  # noqa: E402

BEFORE = 1e-3
line_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): (\w+): (.*)')
sw_re = re.compile(r'prev_comm=(.+?) prev_pid=(\d+) .*==> next_comm=(.+?) next_pid=(\d+)')
wk_re = re.compile(r'comm=(.+?) pid=(\d+) .*target_cpu=(\d+)')

args = sys.argv[1:]
if len(args) >= 2 and args[1].isdigit():
    task, n, paths = args[0], int(args[1]), args[2:]
else:
    task, n, paths = args[0] if args else None, 3, args[1:]
if not task or not paths or n < 1:
    sys.exit("usage: twin/maxima.py TASK [N] TRACE...")


def us(s):
    return "%d" % round(s * 1e6)


def short(comm):
    # fairsim's comms carry the instance ("B-0"), the real ones not
    return "<idle>" if comm.startswith("swapper/") else comm


def runs(sw, i, t0, t1):
    """what ran on a CPU (its switches sw, from the i-th) in [t0, t1)"""
    out = []
    while i < len(sw) and sw[i][0] < t1:
        start = max(sw[i][0], t0)
        end = min(sw[i + 1][0] if i + 1 < len(sw) else t1, t1)
        if end > start or not out:
            out.append("%s %s us" % (short(sw[i][1]), us(end - start)))
        i += 1
    return out


for path in paths:
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        sys.exit("fairtest: maxima.py: %s: %s" % (path, e.strerror))
    marked = any("fairtest_twin: window_start" in x for x in lines)
    inside = not marked
    switches = {}       # cpu -> [(t, next comm)]
    wakes = []          # (t, comm, cpu)
    pending = {}        # pid -> (t, flags, waker, cpu, the check's state or None)
    check = {}          # pid -> the last wake-up check's fields
    lats = []
    for line in lines:
        if "fairtest_twin: window_start" in line:
            inside = True
            continue
        if "fairtest_twin: window_end" in line:
            break
        m = line_re.match(line)
        if not m:
            continue
        waker, _, cpu, flags, t, ev, rest = m.groups()
        cpu, t = int(cpu), float(t)
        if ev == "sched_switch":
            s = sw_re.search(rest)
            if not s:
                continue
            nxt, npid = s.group(3), s.group(4)
            switches.setdefault(cpu, []).append((t, nxt))
            w = pending.pop(npid, None)
            if w and inside:
                lats.append((t - w[0], w[0], t, cpu, w[1], w[2], w[4]))
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            s = wk_re.search(rest)
            if not s:
                continue
            comm, pid, tcpu = s.group(1), s.group(2), int(s.group(3))
            wakes.append((t, comm, tcpu))
            if ev == "sched_wakeup" and named(comm, task):
                pending[pid] = (t, flags, short(waker), tcpu, check.pop(pid, None))
        elif ev == "wpf":
            f = dict(kv_re.findall(rest))
            check[f.get("pid")] = f
    if not lats:
        print("%s: no wake-up of %s followed by its switch%s" % (
            path, task, " in the window" if marked else ""))
        continue
    lats.sort(key=lambda x: -x[0])
    print("%s: %d wake-ups of %s; the %d longest:" % (path, len(lats), task, min(n, len(lats))))
    wake_t = [w[0] for w in wakes]
    for lat, t0, t1, cpu, flags, waker, f in lats[:n]:
        sw = switches.get(cpu, [])
        i = max(bisect.bisect_right([s[0] for s in sw], t0) - 1, 0)
        ran = runs(sw, i, t0, t1)
        j = max(bisect.bisect_right([s[0] for s in sw], t0 - BEFORE) - 1, 0)
        before = runs(sw, j, t0 - BEFORE, t0)
        lo, hi = bisect.bisect_left(wake_t, t0 - BEFORE), bisect.bisect_right(wake_t, t1)
        woke = ["%s %+d" % (short(c), round((t - t0) * 1e6)) for t, c, _ in wakes[lo:hi]
                if not named(c, task)]
        print("  %s us at %.6f on CPU %d (flags %s, woken from %s): ran %s; woke (us from it): %s; "
              "in the 1 ms before it ran %s" % (
                  us(lat), t0, cpu, flags, waker, ", ".join(ran) or "-", ", ".join(woke) or "none",
                  ", ".join(before) or "-"))
        if f:
            st = state(f)
            print("    the check: its lag %+.0f us, its deadline %+.0f us from the running task's, "
                  "which is %seligible%s, %.0f us of its slice left" % (
                      st["lag"], st["dd"], "" if st["elig"] else "not ",
                      (", protected" if st["prot"] else ", not protected") if has_prot(f) else "",
                      st["left"]))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The model's machine costs as the real boots of a twin measured them
# (make twin CALIBRATE=1), from the same analysis fairsim made of each
# boot's trace (real-N.json) and the traces themselves:
#   idle exit      the idle-CPU wake-up p50 (a wake-up that found its CPU
#                  running pid 0, to the switch), median over the boots;
#   wake preempt   a wake-up onto a busy CPU whose sched_wakeup line
#                  carries a resched flag (the check decided to preempt),
#                  to the switch to the wakee: p50 over all boots;
#   wake cost      CPU time per wake-up beyond the workload's run: the real
#                  run per wake-up of the task with the shortest one, minus
#                  fairsim's for that task less fairsim's own wake cost.
#   tick / hrtick  from a timer's handler to the preempting switch
#   preempt        (timer_preempt(): boots with timer-7.3.events only).
# Where a task of the file rt-app ran (rtapp.json beside the boots)
# broadcasts or signals a condition (schbench-mutex's message threads),
# its futex wake-ups and segments give three costs for the one wake cost
# (twin/segment_costs.py, pooled over the boots, the task with the most
# groups of 2+ wake-ups): the wake cost is the p50 of its segments that
# woke nobody, the futex wake cost the fit's CPU time per task woken, the
# loop cost the fit's rest less the wake cost. A mutex unlock's wake-up
# (--unlock-wake-cost) from the short segments of a locker that wakes no
# condition (schbench-mutex's workers): those that woke one of its kind
# (pthread_cond_wait()'s unlock) less those that woke nobody.
# A cost with no sample keeps fairsim's value, and the second line says so.
#
# usage: twin/calibrate.py SIM_JSON REAL_DIR...   (REAL_DIR: real-N, beside real-N.json)
# prints: line 1 fairsim's options; line 2 what they came from.
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import segment_costs  # noqa: E402

if len(sys.argv) < 3:
    sys.exit("usage: twin/calibrate.py SIM_JSON REAL_DIR...")
ev_re = re.compile(r'\] (\S+)\s+([\d.]+): (sched_wakeup|sched_switch): (.*)')
pid_re = re.compile(r' pid=(\d+)')
next_re = re.compile(r'next_pid=(\d+)')
prev_re = re.compile(r'prev_pid=(\d+)')


def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError) as e:
        sys.exit("fairtest: calibrate.py: %s: %s" % (path, e))


def trace_of(d):
    try:
        return open(d + "/trace")
    except OSError as e:
        sys.exit("fairtest: calibrate.py: %s/trace: %s" % (d, e.strerror))


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


sim = load(sys.argv[1])
reals = [(d, load(d + ".json")) for d in sys.argv[2:]]
opts, said = [], []

idle = [r["idle_wakeup_latency_ns"]["p50"] for _, r in reals
        if r.get("idle_wakeup_latency_ns", {}).get("samples")]
if idle:
    us = round(median(idle) / 1000)
    opts.append("--idle-exit %d" % us)
    said.append("idle exit %d us (idle-CPU wake-up p50, %d boots)" % (us, len(idle)))
else:
    said.append("idle exit: fairsim's (no idle-CPU wake-up in the real traces)")

# Wake-ups the check decided to preempt on, onto a busy CPU, to the switch.
lat = []
for d, _ in reals:
    curr, pend = {}, {}
    f = trace_of(d)
    for line in f:
        m = ev_re.search(line)
        if not m:
            continue
        flags, t, ev, rest = m.groups()
        cpu = line[line.index("[") + 1:line.index("]")]
        if ev == "sched_wakeup":
            pid = pid_re.search(rest).group(1)
            if len(flags) > 1 and flags[1] != "." and curr.get(cpu, "0") != "0":
                pend[pid] = float(t)
        else:
            nxt = next_re.search(rest).group(1)
            curr[cpu] = nxt
            if nxt in pend:
                lat.append((float(t) - pend.pop(nxt)) * 1e6)
if lat:
    us = round(median(lat))
    opts.append("--wake-preempt %d" % us)
    said.append("wake-up preemption %d us (p50 of %d preempting wake-ups)" % (us, len(lat)))
else:
    said.append("wake-up preemption: fairsim's (no preempting wake-up in the real traces)")

# Run per wake-up: the task that runs least per wake-up shows the fixed cost.
sim_cost = sim.get("wake_cost_ns", 0)
best = None
for name, t in sim.get("by_task", {}).items():
    if not all(sum(x["wakeups"] for x in r["tasks"] if x["task"] == name) for _, r in reals):
        continue
    s_tasks = [x for x in sim["tasks"] if x["task"] == name]
    s_w = sum(x["wakeups"] for x in s_tasks)
    if not s_w:
        continue
    s_rpw = sum(x["runtime_ns"] for x in s_tasks) / s_w
    r_rpw = median([sum(x["runtime_ns"] for x in r["tasks"] if x["task"] == name) /
                    sum(x["wakeups"] for x in r["tasks"] if x["task"] == name)
                    for _, r in reals])
    if best is None or r_rpw < best[1]:
        best = (name, r_rpw, s_rpw)
if best:
    us = max(0, round((best[1] - best[2] + sim_cost) / 1000))
    opts.append("--wake-cost %d" % us)
    said.append("wake cost %d us (%s: %.1f us a wake-up real, %.1f in fairsim with %d)" % (
        us, best[0], best[1] / 1000, best[2] / 1000, round(sim_cost / 1000)))
else:
    said.append("wake cost: fairsim's (no task woke on both sides)")


def wakes_by_futex(task):
    if isinstance(task, dict):
        return any(k in ("broad", "signal") or wakes_by_futex(v) for k, v in task.items())
    return isinstance(task, list) and any(wakes_by_futex(v) for v in task)


def unlocks(task):
    if isinstance(task, dict):
        return any(k == "unlock" or (k == "wait" and isinstance(v, dict) and "mutex" in v) or
                   unlocks(v) for k, v in task.items())
    return isinstance(task, list) and any(unlocks(v) for v in task)


def rtapp_of(reals):
    """The file rt-app ran, rtapp.json beside the boots; None without it."""
    try:
        return json.load(open(os.path.join(os.path.dirname(reals[0][0]), "rtapp.json")))
    except (OSError, ValueError):
        return None


def by_unlocks(sim, reals):
    """--unlock-wake-cost from the short segments of the mutex's user that
    wakes no condition with the most of them that woke one of its kind
    (segment_costs.unlock_segments(), pooled over the boots): theirs
    less that of those that woke nobody (the mean of the middle half,
    segment_costs.mid_mean()), as (us, option, what it came
    from). None without both."""
    rtapp = rtapp_of(reals)
    if rtapp is None:
        return None
    best = None
    for name in sim.get("by_task", {}):
        t = rtapp.get("tasks", {}).get(name)
        if not unlocks(t) or wakes_by_futex(t):
            continue
        none, one = [], []
        for d, _ in reals:
            n, o = segment_costs.unlock_segments(d + "/trace", name)
            none += n
            one += o
        if none and one and (best is None or len(one) > len(best[2])):
            best = (name, none, one)
    if best is None:
        return None
    name, none, one = best
    m_none, m_one = segment_costs.mid_mean(none), segment_costs.mid_mean(one)
    us = max(0.0, round(m_one - m_none, 1))
    return (us, "--unlock-wake-cost %.1f" % us,
            "unlock wake %.1f us (%s's segments under %d us over %d boots, their middle half's "
            "mean: %.1f of %d that woke one of its kind less %.1f of %d that woke nobody, "
            "twin/segment_costs.py)" % (us, name, segment_costs.SHORT_US, len(reals), m_one,
                                        len(one), m_none, len(none)))


def by_segments(sim, reals, unlock):
    """The three costs from the segments of the condition's waker that
    wakes most at once, as (options, what they came from), or None when no
    such task woke two or more in two groups of segments, or it never
    slept without waking. Where that task unlocks too, its pass's unlock
    wakes one more at @unlock us (--unlock-wake-cost, None: the futex
    wake's), which the fit's rest holds beyond the slope: the loop cost
    is that rest less the wake cost and the difference."""
    rtapp = rtapp_of(reals)
    if rtapp is None:
        return None
    best = None
    for name in sim.get("by_task", {}):
        if not wakes_by_futex(rtapp.get("tasks", {}).get(name)):
            continue
        by = {}
        for d, _ in reals:
            for n, xs in segment_costs.segments(d + "/trace", name).items():
                by.setdefault(n, []).extend(xs)
        f = segment_costs.fit(by)
        if f and by.get(0) and (best is None or f[2] > best[1][2]):
            best = (name, f, by)
    if best is None:
        return None
    name, (base, slope, groups), by = best
    none = segment_costs.quantile(by[0], .5)
    wake, futex = round(none), max(0.0, round(slope, 1))
    extra = round(unlock - futex, 1) if unlock is not None and unlocks(rtapp["tasks"][name]) else 0.0
    loop = max(0.0, round(base - none - extra, 1))
    many = sorted(n for n in by if n >= 2)
    return (["--wake-cost %d" % wake, "--futex-wake-cost %.1f" % futex, "--loop-cost %.1f" % loop],
            ["wake cost %d us, futex wake %.1f us a task woken, loop %.1f us (%s's segments over "
             "%d boots: p50 of %d that woke nobody; %.1f + %.2f n us over %d groups that woke "
             "%d-%d%s, twin/segment_costs.py)" % (
                 wake, futex, loop, name, len(reals), len(by[0]), base, slope, groups, many[0],
                 many[-1], "; the loop less its unlock's %.1f beyond a futex wake-up" % extra
                 if extra else "")])


unl = by_unlocks(sim, reals)
seg = by_segments(sim, reals, unl[0] if unl else None)
if seg:
    opts = [o for o in opts if not o.startswith("--wake-cost ")] + seg[0]
    said = [x for x in said if not x.startswith("wake cost")] + seg[1]
if unl:
    opts.append(unl[1])
    said.append(unl[2])


def timer_preempt(dirs, hz):
    """The tick's and the hrtick's preemption costs (--tick-preempt,
    --hrtick-preempt): from a timer's handler to the preempting switch it
    asks for (prev_state R, no wake-up between them, within 40 us), p50
    over the boots. Only a trace with the handlers in it has them: the
    default trace shows a preemption by the tick or hrtick as a switch with
    no wake-up before it, and the tick's grid runs on CLOCK_MONOTONIC, the
    trace's clock on "local", at an offset it does not carry. Boots with
    FAIRTEST_TWIN_EVENTS=twin/events/timer-7.3.events have an hexp line per
    handler (the probe's own cost then in the figure). A tick: an expiry
    on the 1/hz grid; an hrtick: any other that preempts."""
    tick_ns = 10**9 // hz if hz else None
    hexp_re = re.compile(r'\[(\d+)\] \S+\s+([\d.]+): (hexp|sched_waking|sched_switch): (.*)')
    got = {"tick": [], "hrtick": []}
    for d in dirs:
        f = trace_of(d)
        last = {}       # per CPU: a handler's (time, kind) until its switch
        for line in f:
            m = hexp_re.search(line)
            if not m:
                continue
            cpu, ev, rest = m.group(1), m.group(3), m.group(4)
            t = round(float(m.group(2)) * 1e9)
            if ev == "hexp":
                e = re.search(r"\bexp=(-?\d+)", rest)
                if not e:
                    sys.exit("fairtest: calibrate.py: %s/trace: an hexp line without exp= "
                             "(the probe of twin/events/timer-7.3.events gives it): %s"
                             % (d, line.strip()))
                exp = int(e.group(1))
                last[cpu] = (t, "tick" if tick_ns and exp % tick_ns == 0 else "hrtick")
            elif ev == "sched_waking":
                last.pop(cpu, None)
            elif cpu in last:
                h = last.pop(cpu)
                if t - h[0] < 40000 and re.search(r"prev_state=R\b", rest):
                    got[h[1]].append((t - h[0]) / 1000)
    out, what = [], []
    for kind in ("tick", "hrtick"):
        if got[kind]:
            us = round(median(got[kind]))
            out.append("--%s-preempt %d" % (kind, us))
            what.append("%s preemption %d us (handler to switch p50 of %d, timer-7.3.events' probe "
                        "included)" % (kind, us, len(got[kind])))
        else:
            what.append("%s preemption: fairsim's (no timer handler in the real traces: boot with "
                        "FAIRTEST_TWIN_EVENTS=twin/events/timer-7.3.events, or set %s_PREEMPT)"
                        % (kind, kind.upper()))
    return out, what


o, w = timer_preempt([d for d, _ in reals], sim.get("hz"))
opts += o
said += w
print(" ".join(opts))
print("; ".join(said))

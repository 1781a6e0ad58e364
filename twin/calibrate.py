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
# A cost with no sample keeps fairsim's value, and the second line says so.
#
# usage: twin/calibrate.py SIM_JSON REAL_DIR...   (REAL_DIR: real-N, beside real-N.json)
# prints: line 1 fairsim's options; line 2 what they came from.
import json
import re
import sys

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
    try:
        f = open(d + "/trace")
    except OSError as e:
        sys.exit("fairtest: calibrate.py: %s/trace: %s" % (d, e.strerror))
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
    hexp_re = re.compile(r'\] \S+\s+([\d.]+): (hexp|sched_waking|sched_switch): (.*)')
    got = {"tick": [], "hrtick": []}
    for d in dirs:
        try:
            f = open(d + "/trace")
        except OSError as e:
            sys.exit("fairtest: calibrate.py: %s/trace: %s" % (d, e.strerror))
        last = None
        for line in f:
            m = hexp_re.search(line)
            if not m:
                continue
            t, ev, rest = round(float(m.group(1)) * 1e9), m.group(2), m.group(3)
            if ev == "hexp":
                exp = int(re.search(r"\bexp=(-?\d+)", rest).group(1))
                last = (t, "tick" if tick_ns and exp % tick_ns == 0 else "hrtick")
            elif ev == "sched_waking":
                last = None
            elif last:
                if t - last[0] < 40000 and re.search(r"prev_state=R\b", rest):
                    got[last[1]].append((t - last[0]) / 1000)
                last = None
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

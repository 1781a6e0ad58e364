#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# fair.c's state at one task's wake-up preemption checks, from the "wpf"
# lines of a trace: a real boot's (make twin with FAIRTEST_TWIN_EVENTS=
# twin/events/wakeup-<tree>.events) or fairsim's (FAIRSIM_PROBES=1 with
# TRACE=). Per trace: how often the check decided to preempt (the flag of
# the sched_wakeup line that follows: anything but '.'), and the state it
# decided on, split by that decision: the running task eligible (its
# vruntime at or below V) and still protected (vruntime below vprot; 7.x), the
# wakee's lag V - vruntime and deadline against the running task's, the
# running task's own slice left (its deadline - vruntime), in us of
# virtual time (nice 0: us of CPU time), the queue's length, and the lag
# the wakee kept from its sleep (its vlag, which placement reads and
# leaves: the placed lag is this one where nothing else moved it).
# --side receiver|sender takes hackbench's threads of that side instead of
# TASK's: a real trace names every thread "hackbench", and its receivers'
# pipe wake-ups and its senders' (from the pipe's mutex) differ
# (trace_names.hackbench_sides(): by pid order, --fds N as hackbench's -f).
#
# usage: twin/wakeup_state.py TASK TRACE...
#        twin/wakeup_state.py --side receiver|sender [--fds N] TRACE...
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_names import fds_option, hackbench_sides, quantile  # noqa: E402

ev_re = re.compile(r'\] (\S+)\s+([\d.]+): (sched_wakeup|wpf): (.*)')
kv_re = re.compile(r'(\w+)=(-?\w+)')


def u64(x):
    return int(x, 0) & (2**64 - 1)


def s64(x):
    v = u64(x)
    return v - 2**64 if v >= 2**63 else v


def has_prot(r):
    # 6.12 has no vprot: its guest probe reads none, fairsim writes 0
    return u64(r.get("cp", "0")) != 0


def state(r):
    """one wpf line's fields as the check saw them: the running task
    eligible and protected, the wakee's lag, its deadline against the
    running task's, the running task's deadline against V and its slice
    left (us of virtual time). Each vruntime is taken relative to zv, as
    fair.c's entity_key() takes it: vruntimes wrap (7.x starts them 1 ms
    below 2^64, so a fairsim run's first checks straddle the wrap)."""
    zv, sw, sv = u64(r["zv"]), u64(r["sw"]), s64(r["sv"])

    def key(x):
        return s64(str(u64(x) - zv))
    # the running task's weight in the sum: nice 0 (these workloads),
    # in the tree's unit (6.12 sums scale_load_down() weights, 1024)
    cv, cw = key(r["cv"]), 1048576 if sw % 1048576 == 0 else 1024
    # V - zv as avg_vruntime() computes it, the running task weighed in
    V = (sv + cv * cw) / (sw + cw)
    return {"elig": cv <= V, "prot": has_prot(r) and cv < key(r["cp"]),
            "lag": (V - key(r["pv"])) / 1000,
            "dd": (key(r["pd"]) - key(r["cd"])) / 1000,
            "cdv": (key(r["cd"]) - V) / 1000, "left": (key(r["cd"]) - cv) / 1000}


def pct(v, n):
    return "%3.0f%%" % (100.0 * v / n) if n else "   -"


def p50(xs):
    return "%8.0f" % quantile(xs, .5) if xs else "       -"


USAGE = ("usage: twin/wakeup_state.py TASK TRACE...\n"
         "       twin/wakeup_state.py --side receiver|sender [--fds N] TRACE...")


def parse(args):
    """(TASK or None, side or None, fds, traces) from the arguments"""
    if args[:1] == ['--side']:
        if len(args) < 2 or args[1] not in ('receiver', 'sender'):
            sys.exit(USAGE)
        fds, traces = fds_option(args[2:], USAGE)
        return None, args[1], fds, traces
    if len(args) < 2:
        sys.exit(USAGE)
    return args[0], None, 20, args[1:]


def main():
    task, side, fds, paths = parse(sys.argv[1:])
    if side:
        task = "hackbench's %ss" % side
        name_re = re.compile(r'comm=(hackbench|sender-\S+|receiver-\S+) pid=(\d+)')
    else:
        name_re = re.compile(r'comm=%s(-\d+)? pid=(\d+)' % re.escape(task))
    for path in paths:
        try:
            lines = open(path).read().splitlines()
            if side:
                pids = {str(p) for p, s in hackbench_sides(path, fds).items() if s == side}
        except OSError as e:
            sys.exit("fairtest: wakeup_state.py: %s: %s" % (path, e.strerror))
        if not side:
            pids = {m.group(2) for l in lines for m in [name_re.search(l)] if m}
        pend, rows = None, []
        for line in lines:
            m = ev_re.search(line)
            if not m:
                continue
            flags, _, ev, rest = m.groups()
            f = dict(kv_re.findall(rest))
            if ev == "wpf" and f.get("pid") in pids:
                pend = f
            elif ev == "sched_wakeup" and pend and name_re.search(rest):
                pend["preempt"] = len(flags) > 1 and flags[1] != "."
                rows.append(pend)
                pend = None
        if not rows:
            print("%s: no wpf line for %s (no probes in this trace?)" % (path, task))
            continue
        print("%s: %d wake-ups of %s, %s decided to preempt" % (
            path, len(rows), task, pct(sum(r["preempt"] for r in rows), len(rows)).strip()))
        print("  %-9s %5s %9s %9s %9s %9s %9s %9s %5s %8s" % (
            "decision", "n", "curr elig", "curr prot", "lag us", "d-cd us", "curr d-V", "curr d-v", "nq",
            "kept us"))
        for want, name in ((True, "preempt"), (False, "not")):
            sel = [r for r in rows if r["preempt"] == want]
            n = len(sel)
            elig = prot = 0
            lag, dd, cdv, left = [], [], [], []
            for r in sel:
                st = state(r)
                elig += st["elig"]
                prot += st["prot"]
                lag.append(st["lag"])
                dd.append(st["dd"])
                cdv.append(st["cdv"])
                left.append(st["left"])
            print("  %-9s %5d %9s %9s %9s %9s %9s %9s %5s %s" % (
                name, n, pct(elig, n), pct(prot, n) if sel and has_prot(sel[0]) else "   -", p50(lag), p50(dd), p50(cdv),
                p50(left), p50([int(r["nq"]) for r in sel]).strip(), p50([s64(r["pl"]) / 1000 for r in sel])))


if __name__ == "__main__":
    main()

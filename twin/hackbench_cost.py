#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# What a pipe write and a pipe read of hackbench cost on the real side,
# from the real boots of a twin of a hackbench that ends
# (fixtures/workloads/hackbench-timed-1cpu.json): each boot's hackbench
# printed its messages and its time (real-N/extra.out), so a message (one
# write, one read) took TIME / MESSAGES; the boot's trace gives the CPU
# time of the senders and of the receivers over the window and their
# wake-ups (real-N.json: hackbench creates a group's receivers first, so
# they are its lower thread ids), which splits that time between the write
# and the read. fairsim adds WAKE_COST_US of CPU after each wake-up
# (--wake-cost, 10 by default): that much of each side's real CPU time per
# real wake-up is left out of its cost, so that fairsim's side, given the
# real wake-ups, spends the real CPU time. With PIPE_WAKE_COST_US
# (--pipe-wake-cost: try_to_wake_up() on the waker's time) that much per
# wake-up of the other side is left out too (a side's threads are woken by
# the other's: receivers by a write, senders by a read). Prints "WRITE_US READ_US" (the
# boots' mean, to 0.01 us) for sim/shapes/hackbench.py --cost-us WRITE_US
# --read-cost-us READ_US, and the figures it used on stderr.
#
# usage: twin/hackbench_cost.py TWIN_RESULT_DIR [WAKE_COST_US [PIPE_WAKE_COST_US]]
import glob
import json
import os
import re
import sys


def fail(msg):
    sys.exit("fairtest: hackbench_cost.py: %s" % msg)


USAGE = "usage: twin/hackbench_cost.py TWIN_RESULT_DIR [WAKE_COST_US [PIPE_WAKE_COST_US]]"
if len(sys.argv) not in (2, 3, 4):
    sys.exit(USAGE)
d = sys.argv[1]
try:
    wake_cost = float(sys.argv[2]) * 1000 if len(sys.argv) >= 3 else 10000.0
    pipe_cost = float(sys.argv[3]) * 1000 if len(sys.argv) == 4 else 0.0
except ValueError:
    sys.exit(USAGE)
if wake_cost < 0 or pipe_cost < 0:
    sys.exit(USAGE)
per_msg, send_f, recv_f = [], [], []
for js in sorted(glob.glob(os.path.join(d, "real-*.json"))):
    try:
        out = open(js[:-5] + "/extra.out").read()
        res = json.load(open(js))
    except (OSError, ValueError) as e:
        fail("%s: %s" % (js, e))
    t = re.search(r"^Time: ([\d.]+)", out, re.M)
    g = re.search(r"with (\d+) groups using (\d+) file descriptors", out)
    loops = re.search(r"Each sender will pass (\d+) messages", out)
    if not (t and g and loops):
        fail("%s/extra.out: no hackbench that ended (its Time:, groups and messages)" % js[:-5])
    groups, fds = int(g.group(1)), int(g.group(2)) // 2
    if groups != 1:
        fail("%s: %d groups; the split by thread id holds for one" % (js, groups))
    msgs = groups * fds * fds * int(loops.group(1))
    per_msg.append(float(t.group(1)) * 1e6 / msgs)
    threads = sorted((x["pid"], x["runtime_ns"], x["wakeups"])
                     for x in res["tasks"] if x.get("task") == "hackbench")
    # the main thread, created before its workers, shows when it ran in
    # the window (it starts them and joins them)
    if len(threads) == 2 * groups * fds + 1:
        threads = threads[1:]
    if len(threads) != 2 * groups * fds:
        fail("%s: %d hackbench threads in the trace, not %d" % (js, len(threads), 2 * groups * fds))
    half = len(threads) // 2
    recv = sum(r for _, r, _ in threads[:half])
    send = sum(r for _, r, _ in threads[half:])
    if recv + send <= 0:
        fail("%s: the hackbench threads did not run in the window" % js)
    # each side's share of the window's hackbench CPU time, less the
    # wake-up costs fairsim adds
    send_w = sum(w for _, _, w in threads[half:])
    recv_w = sum(w for _, _, w in threads[:half])
    send_f.append((send - wake_cost * send_w - pipe_cost * recv_w) / (recv + send))
    recv_f.append((recv - wake_cost * recv_w - pipe_cost * send_w) / (recv + send))
if not per_msg:
    fail("%s: no real-N.json (a make twin result directory?)" % d)
m = sum(per_msg) / len(per_msg)
fs, fr = sum(send_f) / len(send_f), sum(recv_f) / len(recv_f)
if fs <= 0 or fr <= 0:
    fail("the wake-ups' cost (%g + %g us each) is more than a side's CPU time"
         % (wake_cost / 1000, pipe_cost / 1000))
print("hackbench_cost: %d boots: %.2f us a message (a write and a read); of hackbench's CPU "
      "time, the writes %.1f%%, the reads %.1f%%, the %g us after each wake-up%s the rest"
      % (len(per_msg), m, 100 * fs, 100 * fr, wake_cost / 1000,
         " and the waker's %g" % (pipe_cost / 1000) if pipe_cost else ""), file=sys.stderr)
print("%.2f %.2f" % (m * fs, m * fr))

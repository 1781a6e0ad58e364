#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fidelity table from make twin's results (twin/fidelity.sh): on
stdout the rows that decide each workload (per workload below: the task
it is about and the figures its experiment reads), in FULL every row of
every twin. Both markdown; fairsim's figure is the mean over its seeds,
with their range where there are several; '*' where fairsim's seeds and
the real boots do not overlap (fairsim --twin's rule).

usage: twin/fidelity_table.py TWINS.tsv FULL.md
TWINS.tsv: workload, tree, profile, features, CPUs, result dir, twin json.
"""
import json
import sys

# workload: its deciding rows, (task, metric); None is the machine.
DECIDING = {
    "sleeper": [("B", "share %"), ("B", "preemptions")],
    "cyclictest": [("cyclictest", "wake-up p50 us"), ("cyclictest", "wake-up p99 us"),
                   ("cyclictest", "wake-up max us")],
    "cyclictest-rtapp": [("cyclictest", "wake-up p50 us"), ("cyclictest", "wake-up p99 us")],
    "slice-hint-1cpu-0.1x": [("cyclictest", "wake-up p90 us"), ("cyclictest", "wake-up p99 us"),
                             ("cyclictest", "wake-up max us")],
    "slice-hint-1cpu-1x": [("cyclictest", "wake-up p90 us"), ("cyclictest", "wake-up p99 us"),
                           ("cyclictest", "wake-up max us")],
    "slice-hint-1cpu-10x": [("cyclictest", "wake-up p90 us"), ("cyclictest", "wake-up p99 us"),
                            ("cyclictest", "wake-up max us")],
    "weights": [("heavy", "share %"), ("mid", "share %"), ("light", "share %")],
    "schbench-mutex": [("worker-0", "wake-ups"), ("worker-0", "wake-up p50 us")],
    "cyclictest-hackbench-1cpu": [("cyclictest", "wake-up p50 us"), ("cyclictest", "wake-up p99 us"),
                                  ("hackbench", "wake-ups")],
    "hackbench-timed-1cpu": [("hackbench", "share % (all threads)")],
    "balance-idle-2cpu": [("w", "run per wake-up us"), (None, "idle 3-4ms"), (None, "idle >4ms")],
}
HEAD = ("| workload | kernel | CPUs | profile, features | task | metric | fairsim mean [min, max] "
        "| real mean +/- sd [min, max] | difference |\n|---|---|---|---|---|---|---|---|---|")


def line(w, kv, cpus, prof, feat, r):
    f, x = r["fairsim"], r["real"]
    fs = "%.2f" % f["mean"]
    if f.get("runs", 1) > 1:
        fs += " [%.2f, %.2f]" % (f["min"], f["max"])
    return "| %s | %s | %s | %s | %s | %s | %s | %.2f +/- %.2f [%.2f, %.2f] | %+.2f%s |" % (
        w, kv, cpus, prof + ("" if feat == "defaults" else ", " + feat), r["task"] or "machine",
        r["metric"], fs, x["mean"], x["sd"], x["min"], x["max"], r["difference"],
        " *" if r["outside_real_range"] else "")


def spread(xs):
    mean = sum(xs) / len(xs)
    sd = (sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)) ** 0.5 if len(xs) > 1 else 0
    return {"mean": mean, "sd": sd, "min": min(xs), "max": max(xs), "runs": len(xs)}


def stand_in(d, t):
    """Rows for a program the real side ran in place of fairsim's tasks
    (twin/workload.py's "twin:" line): the program's threads in the real
    traces against the sum over fairsim's tasks the real side has not."""
    try:
        sims = [json.load(open(d + "/" + f)) for f in t["fairsim"]]
        real = [json.load(open(d + "/" + f)) for f in t["real"]]
    except (OSError, ValueError):
        return []
    if not sims or not real:
        return []
    extra = [k for k in real[0]["by_task"] if k not in sims[0]["by_task"]]
    out = []
    for prog in extra:
        for metric, field in (("share % (all threads)", "share_pct"), ("wake-ups", "wakeups"),
                              ("switches", "switches"), ("preemptions", "preemptions")):
            x = spread([sum(x[field] for x in r["tasks"] if x["task"] == prog) for r in real])
            f = spread([sum(x[field] for x in s["tasks"] if x["task"] not in real[0]["by_task"])
                        for s in sims])
            out.append({"task": prog, "metric": metric, "fairsim": f, "real": x,
                        "difference": f["mean"] - x["mean"],
                        "outside_real_range": f["max"] < x["min"] - 1e-9 or f["min"] > x["max"] + 1e-9})
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: twin/fidelity_table.py TWINS.tsv FULL.md")
    short, full = [HEAD], [HEAD]
    for tsv in open(sys.argv[1]):
        w, kv, prof, feat, cpus, d, name = tsv.rstrip("\n").split("\t")
        try:
            t = json.load(open(d + "/" + name))
        except (OSError, ValueError) as e:
            sys.exit("fairtest: fidelity_table.py: %s/%s: %s" % (d, name, e))
        t["rows"] += stand_in(d, t)
        rows = {(r["task"], r["metric"]): r for r in t["rows"]}
        want = DECIDING.get(w) or DECIDING.get(w.split(",")[0]) or sorted({(r["task"], "share %") for r in t["rows"] if r["task"]})
        idle = rows.get((None, "idle-CPU wake-ups"))
        for key in want:
            r = rows.get(key)
            # a real run with no wake-up onto an idle CPU has no such latency
            if not r or (key[1].startswith("idle-CPU") and not (idle and idle["real"]["mean"])):
                continue
            short.append(line(w, kv, cpus, prof, feat, r))
        full += [line(w, kv, cpus, prof, feat, r) for r in t["rows"]]
    print("\n".join(short))
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(full) + "\n")


main()

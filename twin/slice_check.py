#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Did the guest's threads get the slices the file asks? twin/slice.c
prints, for every thread it gave a slice, what it asked and what the
kernel then held (sched_getattr()'s sched_runtime, /proc's se.slice) on
rt-app's stderr (the boot's rt-app.out). Every thread of every task in
the map (twin/workload.py's OUT.slice: NAME SLICE_NS THREADS) must hold
its slice by both readings.

usage: twin/slice_check.py MAP RT_APP_OUT
Prints one line: per task, threads that hold the slice and the slice;
exit 1 with the reason on that line when one does not.
"""
import re
import sys

LINE = re.compile(r"fairtest-slice: (\S+) (\d+): asked (\d+) ns, sched_getattr (\d+) ns, "
                  r"se\.slice (-?\d+) ns")
FAILED = re.compile(r"fairtest-slice: (\S+) (\d+): .*failed: .*")


def main():
    if len(sys.argv) != 3:
        print("usage: twin/slice_check.py MAP RT_APP_OUT")
        return 2
    want = {}
    try:
        with open(sys.argv[1]) as f:
            for i, line in enumerate(f, 1):
                name, ns, n = line.split()
                want[name[:15]] = (int(ns), int(n))
    except OSError as e:
        print("fairtest: slice_check.py: %s: %s" % (sys.argv[1], e.strerror))
        return 2
    except ValueError:
        print("fairtest: slice_check.py: %s:%d: not NAME SLICE_NS THREADS "
              "(twin/workload.py writes the map)" % (sys.argv[1], i))
        return 2
    held = {name: set() for name in want}
    bad = []
    try:
        with open(sys.argv[2], errors="replace") as f:
            text = f.read()
    except OSError as e:
        print("no rt-app output to check the slices in (%s)" % e)
        return 1
    for m in FAILED.finditer(text):
        bad.append(m.group(0))
    for m in LINE.finditer(text):
        name, tid, asked, got, proc = m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))
        if name not in want:
            continue
        if got != asked or proc not in (asked, -1):
            bad.append("%s %s asked %d ns, the kernel holds %d (sched_getattr), %d (se.slice)"
                       % (name, tid, asked, got, proc))
        else:
            held[name].add(tid)
    short = ["%s %d of %d" % (name, len(held[name]), n) for name, (ns, n) in want.items()
             if len(held[name]) != n]
    if bad or short:
        print("the slice did not take on the real kernel: %s (rt-app.out)"
              % "; ".join(bad[:2] + (["threads holding their slice: " + ", ".join(short)] if short else [])))
        return 1
    print(", ".join("%s %d/%d at %d us" % (name, len(held[name]), n, ns // 1000)
                    for name, (ns, n) in want.items()))
    return 0


sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The twin's workload: a fairsim workload file made into one the real
rt-app 1.0 reads. fairsim reads rt-app's grammar as workgen does (C
comments, trailing commas, repeated event keys); rt-app 1.0 parses plain
JSON with json-c, and an object keeps one value per key. So comments and
trailing commas go, a repeated key gets a suffix (rt-app finds events by
key prefix, so "run" stays a run), and "global" gets what the guest needs:
the calibration the guest measured ("@CALIBRATION@", filled in by /init),
the duration (the guest's window plus a margin; /init ends it), SCHED_OTHER
as default and no logging. What rt-app 1.0 cannot run is refused in one
line (exit 3): fairsim's pipes, a wait without a mutex, and the keys of
later rt-app versions.

A file whose pipe tasks stand for a real program says so in a comment
line "twin: COMMAND" (fixtures/workloads/cyclictest-hackbench-1cpu.json:
Debian's hackbench): the tasks with pipe events are left out of rt-app's
file and COMMAND runs beside rt-app in the guest, with as many threads as
the tasks left out; OUT.json's sibling OUT.extra gets that count and the
command, one a line, and OUT.analysis.json the tasks rt-app runs and one
named for the program, its threads (what the real trace is read for).
A line "twin-trace: N KB a second" gives such a file's boots a trace
buffer of DURATION x N + 8192 KB (twin/boot.sh's own is 2048 KB a second):
the command is then run by sh -c, which first resizes the buffer, tracing
still off, then execs it (a shell with no spaces in its one word, since
/init splits the command's line into words); OUT.extra's third line keeps
the command as the file gives it. Without that line OUT.extra is as it
was, and so is the key of the boots stored (twin/twin.sh).

A SCHED_OTHER task's "dl-runtime" is its slice (sched_attr.sched_runtime),
which rt-app 1.0 never sets: OUT.slice gets one "NAME SLICE_NS THREADS"
line per such task, the map of the guest's slice helper (twin/slice.c, preloaded
into rt-app by twin/slice.sh), and no file when no task has one. The
kernel clamps a custom slice to 100 us..100 ms (__setparam_fair(),
kernel/sched/syscalls.c in 6.12, fair.c in 7.x) and fairsim does the
same; a slice outside that range, or one given per phase (the helper sets
a thread's slice once, as it starts), is refused.

usage: twin/workload.py WORKLOAD DURATION OUT.json
Prints the number of threads the workload starts.
"""
import json
import os
import re
import sys

# Keys fairsim reads that rt-app 1.0 (Debian's) does not: why, in a word.
UNKNOWN_TO_RTAPP = {
    "pipe_read": "fairsim's pipes",
    "pipe_write": "fairsim's pipes",
    "pipe_capacity": "fairsim's pipes",
    "pipe_page_messages": "fairsim's pipes",
    "pipe_write_locked_ns": "fairsim's pipes",
    "pipe_read_locked_ns": "fairsim's pipes",
    "fork": "rt-app 1.1's fork event",
    "taskgroup": "rt-app 1.1's task groups",
    "runtime": "rt-app 1.1's runtime event (1.0 would read it as a run)",
    "util_min": "uclamp (rt-app 1.1)",
    "util_max": "uclamp (rt-app 1.1)",
}


def fail(msg):
    print("fairtest: %s: %s" % (sys.argv[1], msg), file=sys.stderr)
    sys.exit(3)


def strip(text):
    """Drop C and C++ comments outside strings, then trailing commas."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def pairs(items):
    seen, obj = {}, {}
    for k, v in items:
        seen[k] = seen.get(k, 0) + 1
        obj[k if seen[k] == 1 else "%s_%d" % (k, seen[k])] = v
    return obj


def uses_pipes(node):
    if isinstance(node, dict):
        return any(re.sub(r"\d+$", "", k) in ("pipe_read", "pipe_write") or uses_pipes(v)
                   for k, v in node.items())
    return False


def walk(node, path):
    if isinstance(node, dict):
        for k, v in node.items():
            base = re.sub(r"_\d+$", "", k)
            for key, why in UNKNOWN_TO_RTAPP.items():
                if base == key or (key in ("pipe_read", "pipe_write") and base.startswith(key)):
                    fail("%s at %s: rt-app 1.0 cannot run %s; the twin runs workloads without it"
                         % (k, path or "top", why))
            # rt-app's wait is pthread_cond_wait() on the event's mutex:
            # without one, rt-app 1.0 waits forever and the guest is killed.
            if base in ("wait", "sync") and not (isinstance(v, dict) and "mutex" in v):
                fail("%s at %s has no \"mutex\": rt-app 1.0 never returns from it; "
                     "lock a mutex around it and name it in the %s (sim/shapes/schbench.py "
                     "--mutex: fixtures/workloads/schbench-mutex.json)" % (k, path or "top", k))
            walk(v, path + "/" + k)


# __setparam_fair()'s clamp of sched_runtime for a fair task (us)
SLICE_MIN_US, SLICE_MAX_US = 100, 100000
FAIR_POLICIES = ("SCHED_OTHER", "SCHED_NORMAL", "SCHED_BATCH", "SCHED_IDLE")


def slices(w):
    """{task name: slice ns} for the fair tasks with a dl-runtime."""
    default = w.get("global", {}).get("default_policy", "SCHED_OTHER")
    out = {}
    for name, t in w["tasks"].items():
        if not isinstance(t, dict):
            continue
        policy = t.get("policy", default)
        for ph_name, ph in (t.get("phases") or {}).items():
            if isinstance(ph, dict) and "dl-runtime" in ph and policy in FAIR_POLICIES:
                fail("dl-runtime at tasks/%s/phases/%s: the twin gives a thread its slice once, "
                     "as it starts; give dl-runtime at the task's level" % (name, ph_name))
        if "dl-runtime" not in t or policy not in FAIR_POLICIES:
            continue
        us = t["dl-runtime"]
        if not isinstance(us, (int, float)) or isinstance(us, bool):
            fail("dl-runtime at tasks/%s is not a number of us" % name)
        if not SLICE_MIN_US <= us <= SLICE_MAX_US:
            fail("dl-runtime %s at tasks/%s: the kernel clamps a SCHED_OTHER slice to %d..%d us "
                 "(sched_attr.sched_runtime); give one in that range" % (us, name, SLICE_MIN_US, SLICE_MAX_US))
        if len(name) > 15:
            fail("task %s with a dl-runtime: the guest finds its threads by name, which the kernel "
                 "cuts to 15 characters; give it a shorter name" % name)
        out[name] = (int(us * 1000), t.get("instance", 1))
    return out


def main():
    if len(sys.argv) != 4:
        print("usage: twin/workload.py WORKLOAD DURATION OUT.json", file=sys.stderr)
        sys.exit(2)
    src, duration, out = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        with open(src) as f:
            raw = f.read()
        w = json.loads(strip(raw), object_pairs_hook=pairs)
    except (OSError, ValueError) as e:
        fail("not a workload rt-app can read (%s)" % e)
    if not isinstance(w, dict) or not isinstance(w.get("tasks"), dict) or not w["tasks"]:
        fail("no \"tasks\" object")
    twin_cmd = re.search(r"^[\s*/]*twin:\s*(\S.*?)\s*$", raw, re.M)
    trace_kb = re.search(r"^[\s*/]*twin-trace:\s*(\S.*?)\s*$", raw, re.M)
    if trace_kb:
        m = re.fullmatch(r"(\d+) KB a second", trace_kb.group(1))
        if not m or not twin_cmd:
            fail("\"twin-trace: %s\": say \"twin-trace: N KB a second\", beside a \"twin:\" line"
                 % trace_kb.group(1))
        trace_kb = min(int(float(duration) * int(m.group(1))) + 8192, 262144)
    extra = 0
    if twin_cmd:
        for name in [n for n, t in w["tasks"].items() if uses_pipes(t)]:
            t = w["tasks"].pop(name)
            extra += t.get("instance", 1) if isinstance(t, dict) else 1
        if isinstance(w.get("global"), dict):
            w["global"].pop("pipe_capacity", None)
            w["global"].pop("pipe_page_messages", None)
            w["global"].pop("pipe_write_locked_ns", None)
            w["global"].pop("pipe_read_locked_ns", None)
        if not extra:
            fail("a \"twin:\" line, but no task with pipe events for its command to stand for")
    walk(w, "")
    g = w.setdefault("global", {})
    # /init closes the window after DURATION s and stops rt-app itself.
    g["duration"] = int(float(duration)) + 5
    g["calibration"] = "@CALIBRATION@"
    g.setdefault("default_policy", "SCHED_OTHER")
    g["lock_pages"] = False
    g["logdir"] = "/tmp"
    g["log_size"] = "disable"
    g["ftrace"] = False
    g["gnuplot"] = False
    threads = 0
    for name, t in w["tasks"].items():
        if not isinstance(t, dict):
            fail("task %s is not an object" % name)
        n = t.get("instance", 1)
        if not isinstance(n, int) or n < 1:
            fail("task %s: instance must be a positive integer" % name)
        threads += n
    slice_map = slices(w)
    with open(out, "w") as f:
        json.dump(w, f, indent=1)
        f.write("\n")
    if slice_map:
        with open(re.sub(r"\.json$", "", out) + ".slice", "w") as f:
            f.writelines("%s %d %d\n" % (k, ns, n) for k, (ns, n) in slice_map.items())
    if twin_cmd:
        stem = re.sub(r"\.json$", "", out)
        cmd = twin_cmd.group(1)
        if trace_kb:
            cmd = "sh -c " + "${IFS}".join(
                ["echo", "%d>/sys/kernel/tracing/buffer_size_kb&&exec" % trace_kb] + cmd.split())
        with open(stem + ".extra", "w") as f:
            f.write("%d\n%s\n" % (extra, cmd))
            if trace_kb:	# without one, the file (a key of stored boots) as before
                f.write("%s\n" % twin_cmd.group(1))
        # for reading the real trace (fairsim --from-trace): the tasks rt-app
        # runs, and the program's threads under its name (their comm)
        prog = os.path.basename(twin_cmd.group(1).split()[0])[:15]
        tasks = dict(w["tasks"], **{prog: {"instance": extra, "run": 1000}})
        with open(stem + ".analysis.json", "w") as f:
            json.dump({"tasks": tasks}, f, indent=1)
    print(threads)


main()

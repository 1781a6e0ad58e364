#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fidelity table (docs/fidelity.md): every workload rt-app 1.0 can run,
# on one CPU, on each tree, run by make twin (fairsim beside the tree's own
# Debian kernel under QEMU icount), and the rows that decide whether the
# model is faithful printed as one markdown table. A twin whose result is
# already there (same workload, tree, profile, features, window and boots)
# is not booted again: FIDELITY_RERUN=1 boots everything anew.
#
# usage: twin/fidelity.sh [DURATION [RUNS]]        (5 s, 2 boots)
#        FIDELITY_ROWS='sleeper:7.3:debian:' twin/fidelity.sh   only those rows
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
duration=${1:-5} runs=${2:-2}
case $duration$runs in *[!0-9]*|'')
	echo "fairtest: fidelity.sh: DURATION and RUNS are whole numbers (got '$duration' '$runs')" >&2
	exit 2 ;;
esac
# workload:KVER:PROFILE:FEATURES, one twin each
rows=${FIDELITY_ROWS:-"
sleeper:6.12:base: sleeper:7.3:base:
sleeper:6.12:base:!DELAY_DEQUEUE sleeper:7.3:base:!DELAY_DEQUEUE
sleeper:7.3:debian: sleeper:7.3:debian:!DELAY_DEQUEUE
cyclictest:6.12:base: cyclictest:7.3:base:
cyclictest-rtapp:6.12:base: cyclictest-rtapp:7.3:base: cyclictest-rtapp:7.3:debian:"}
logs=$top/build/fidelity
mkdir -p "$logs" || exit 1

for row in $rows; do
	IFS=: read -r w kv prof feat <<EOF
$row
EOF
	log=$logs/$w-$kv-$prof-$(printf '%s' "${feat:-defaults}" | tr '!,' '_+')-${duration}s-$runs.log
	if [ -z "${FIDELITY_RERUN:-}" ] && [ -s "$log" ] &&
	   dir=$(sed -n 's/^twin: results in //p' "$log") && [ -s "$dir/twin.json" ]; then
		continue
	fi
	echo "fidelity: $w on $kv ($prof${feat:+, $feat}), ${duration} s, $runs boots" >&2
	make -s -C "$top" twin WORKLOAD="fixtures/workloads/$w.json" CPUS=1 KVER="$kv" \
		PROFILE="$prof" FEATURES="$feat" DURATION="$duration" RUNS="$runs" >"$log.tmp" 2>&1 ||
		{ tail -5 "$log.tmp" >&2; echo "fairtest: fidelity.sh: the twin of $row failed (log: $log.tmp)" >&2; exit 1; }
	mv "$log.tmp" "$log"
done

# The table: per twin, the task the workload is about and the rows that
# matter; '*' where fairsim lies outside the real boots' range.
for row in $rows; do
	IFS=: read -r w kv prof feat <<EOF
$row
EOF
	log=$logs/$w-$kv-$prof-$(printf '%s' "${feat:-defaults}" | tr '!,' '_+')-${duration}s-$runs.log
	dir=$(sed -n 's/^twin: results in //p' "$log")
	printf '%s\t%s\t%s\t%s\t%s\n' "$w" "$kv" "$prof" "${feat:-defaults}" "$dir"
	# rt-app 1.0 sets a SCHED_OTHER thread's policy with sched_setscheduler()
	# and never its sched_runtime: the real tasks run with the default slice
	# whatever dl-runtime says. The same real boots beside fairsim given the
	# file without dl-runtime, which is what the real kernel ran.
	# (alone on its CPU a task's slice decides nothing: beside others only)
	case $w in cyclictest-rtapp) ;; *) continue ;; esac
	nodl=$logs/$w-nodl.json
	sed '/"dl-runtime"/d' "$top/fixtures/workloads/$w.json" >"$nodl" || exit 1
	(cd "$dir" && "$dir/../../fairsim" --quiet --cpus 1 --seed 1 --duration "$duration" \
		${feat:+--features "$feat"} --json sim-nodl.json "$nodl" >/dev/null &&
	 "$dir/../../fairsim" --twin sim-nodl.json real-*.json --json twin-nodl.json >/dev/null 2>&1) ||
		{ echo "fairtest: fidelity.sh: fairsim on $nodl failed" >&2; exit 1; }
	printf '%s\t%s\t%s\t%s\t%s\n' "$w, no dl-runtime" "$kv" "$prof" "${feat:-defaults}" "$dir"
done | python3 -c '
import json, sys
task = {"sleeper": "B", "cyclictest": "cyclictest", "cyclictest-rtapp": "cyclictest"}
want = ["share %", "run per wake-up us", "wake-up p50 us", "wake-up p99 us",
        "wake-up max us", "preemptions"]
print("| workload | kernel | profile, features | task | metric | fairsim | real mean +/- sd [min, max] | difference |")
print("|---|---|---|---|---|---|---|---|")
for line in sys.stdin:
    w, kv, prof, feat, d = line.rstrip("\n").split("\t")
    t = json.load(open(d + ("/twin-nodl.json" if "no dl-runtime" in w else "/twin.json")))
    rows = {(r["task"], r["metric"]): r for r in t["rows"]}
    also = [("rtapp", "share %"), ("rtapp", "run per wake-up us")] if w.startswith("cyclictest-rtapp") else []
    for task_, m in [(task[w.split(",")[0]], m) for m in want] + also + [(None, "idle-CPU wake-up p50 us")]:
        r = rows.get((task_, m))
        if not r:
            continue
        # a real run with no wake-up onto an idle CPU has no such latency
        if m.startswith("idle-CPU") and not rows[(None, "idle-CPU wake-ups")]["real"]["mean"]:
            continue
        f, x = r["fairsim"], r["real"]
        print("| %s | %s | %s | %s | %s | %.2f | %.2f +/- %.2f [%.2f, %.2f] | %+.2f%s |" % (
            w, kv, prof + ("" if feat == "defaults" else ", " + feat), task_ or "machine", m,
            f["mean"], x["mean"], x["sd"], x["min"], x["max"], r["difference"],
            " *" if r["outside_real_range"] else ""))
'

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fidelity table (docs/fidelity.md): every workload rt-app 1.0 can run,
# on each tree, run by make twin (fairsim beside the tree's own Debian
# kernel under QEMU), the rows that decide whether the model is faithful
# printed as one markdown table on stdout, every row of every twin in
# O/fidelity/full.md. The real boots are kept in O/fidelity/real, keyed by
# what decides them (kernel version, the file rt-app runs, features, CPUs,
# window, boots: twin/twin.sh), and used again whenever the key matches;
# fairsim's column is always computed anew, so after a change to the model
# the table costs seconds. FIDELITY_RERUN=1 boots everything anew.
# fairsim runs FIDELITY_SEEDS seeds (5, from 1) against the boots: a seed
# moves a latency's tail as a boot does, and a row is marked only where
# the two sides' ranges do not meet (fairsim --twin).
#
# usage: twin/fidelity.sh [DURATION [RUNS]]        (5 s, 3 boots)
#        FIDELITY_ROWS='sleeper:7.3:debian:' twin/fidelity.sh   only those rows
#          (workload:KVER:PROFILE:FEATURES[:CPUS[:DURATION[:RUNS]]])
#        O=dir twin/fidelity.sh                    another build dir (build);
#          one run at a time per O
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
duration=${1:-5} runs=${2:-3}
seeds=${FIDELITY_SEEDS:-5}
case $duration$runs$seeds in *[!0-9]*|'')
	echo "fairtest: fidelity.sh: DURATION, RUNS and FIDELITY_SEEDS are whole numbers (got '$duration' '$runs' '$seeds')" >&2
	exit 2 ;;
esac
[ "$seeds" -gt 0 ] || { echo "fairtest: fidelity.sh: FIDELITY_SEEDS=0: give 1 or more fairsim seeds" >&2; exit 2; }
# O as make takes it: relative to where the command runs.
o=${O:-$top/build}
case $o in /*) ;; *) o=$(pwd)/$o ;; esac
# workload:KVER:PROFILE:FEATURES[:CPUS[:DURATION[:RUNS]]], one twin each; CPUS
# 1, DURATION and RUNS the command's unless given. 7.3's cyclictest-rtapp
# has 6 boots: its real p99 falls on either side of two modes
# (docs/fidelity-differences.md), and 6 show the spread.
rows=${FIDELITY_ROWS:-"
sleeper:6.12:base: sleeper:7.3:base:
sleeper:6.12:base:!DELAY_DEQUEUE sleeper:7.3:base:!DELAY_DEQUEUE
sleeper:7.3:debian: sleeper:7.3:debian:!DELAY_DEQUEUE
cyclictest:6.12:base: cyclictest:7.3:base:
cyclictest-rtapp:6.12:base: cyclictest-rtapp:7.3:base::1::6 cyclictest-rtapp:7.3:debian::1::6
slice-hint-1cpu-0.1x:6.12:base: slice-hint-1cpu-1x:6.12:base: slice-hint-1cpu-10x:6.12:base:
slice-hint-1cpu-0.1x:7.3:base: slice-hint-1cpu-1x:7.3:base: slice-hint-1cpu-10x:7.3:base:
slice-hint-1cpu-0.1x:7.3:debian: slice-hint-1cpu-1x:7.3:debian: slice-hint-1cpu-10x:7.3:debian:
weights:6.12:base: weights:7.3:base: weights:7.3:debian:
schbench-mutex:6.12:base: schbench-mutex:7.3:base: schbench-mutex:7.3:debian:
cyclictest-hackbench-1cpu:6.12:base: cyclictest-hackbench-1cpu:7.3:base: cyclictest-hackbench-1cpu:7.3:debian:
hackbench-timed-1cpu:6.12:base: hackbench-timed-1cpu:7.3:base:
balance-idle-2cpu:6.12:base::2 balance-idle-2cpu:7.3:base::2"}
logs=$o/fidelity
mkdir -p "$logs/real" || exit 1
# One run per O: two would write the same logs, twins and table. The lock
# is held while any process of the run lives (its make twin and boots
# inherit the descriptor), so it goes with the run however it ends, and a
# second run is refused at once, naming the first (its line in the lock).
exec 9>>"$logs/.lock" || exit 1
if ! flock -n 9; then
	holder=$(cat "$logs/.lock" 2>/dev/null)
	echo "fairtest: fidelity.sh: another run works in O=$o (${holder:-its pid not written yet}); wait for it to end, or give this one another O=" >&2
	exit 1
fi
printf 'pid %s, twin/fidelity.sh %s %s, since %s' $$ "$duration" "$runs" "$(date -u '+%H:%M:%S UTC')" >"$logs/.lock"
# twins.tsv and full.md appear whole or not at all
trap 'rm -f "$logs/twins.tsv.tmp" "$logs/full.md.tmp"' EXIT
export FAIRTEST_TWIN_STORE="$logs/real"
if [ -n "${FIDELITY_RERUN:-}" ]; then unset FAIRTEST_TWIN_REUSE; else export FAIRTEST_TWIN_REUSE=1; fi

log_of() { # workload kver profile features cpus duration runs
	echo "$logs/$1-$2-$3-$(printf '%s' "${4:-defaults}" | tr '!,' '_+')-${5}cpu-${6}s-$7.log"
}

for row in $rows; do
	IFS=: read -r w kv prof feat cpus d n <<EOF
$row
EOF
	cpus=${cpus:-1} d=${d:-$duration} n=${n:-$runs}
	log=$(log_of "$w" "$kv" "$prof" "$feat" "$cpus" "$d" "$n")
	echo "fidelity: $w on $kv ($prof${feat:+, $feat}), $cpus CPU, $d s, $n boots" >&2
	make -s -C "$top" twin O="$o" WORKLOAD="fixtures/workloads/$w.json" CPUS="$cpus" KVER="$kv" \
		PROFILE="$prof" FEATURES="$feat" DURATION="$d" RUNS="$n" SEED=1 SEEDS="$seeds" >"$log.tmp" 2>&1 ||
		{ tail -5 "$log.tmp" >&2; echo "fairtest: fidelity.sh: the twin of $row failed (log: $log.tmp)" >&2; exit 1; }
	mv "$log.tmp" "$log"
	grep -h '^twin: boots .* stored under' "$log" | sed 's/^twin:/fidelity:/' >&2
done

# One line per twin for the table: workload, tree, profile, features, CPUs,
# result dir, and which twin.json to read.
for row in $rows; do
	IFS=: read -r w kv prof feat cpus d n <<EOF
$row
EOF
	cpus=${cpus:-1} d=${d:-$duration} n=${n:-$runs}
	dir=$(sed -n 's/^twin: results in //p' "$(log_of "$w" "$kv" "$prof" "$feat" "$cpus" "$d" "$n")")
	label=$w
	[ "$d" = "$duration" ] || label="$w, $d s window"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$kv" "$prof" "${feat:-defaults}" "$cpus" "$dir" twin.json
	# fairsim's hackbench at the costs of a write and of a read the real one
	# had: the same tree's hackbench-timed-1cpu twin printed its time for 20
	# x 20 x 300 messages, its trace splits it between the senders' writes
	# and the receivers' reads (twin/hackbench_cost.py)
	if [ "$w" = cyclictest-hackbench-1cpu ]; then
		tdir=$(sed -n 's/^twin: results in //p' "$(log_of hackbench-timed-1cpu "$kv" base "" 1 "$duration" "$runs")" 2>/dev/null)
		cost=$([ -n "$tdir" ] && python3 "$top/twin/hackbench_cost.py" "$tdir" 2>/dev/null)
		[ -n "$cost" ] || {
			echo "fidelity: no hackbench-timed-1cpu:$kv:base: twin among the rows: the" \
			     "measured-cost row of $w on $kv is left out (add that row to have it)" >&2
			continue
		}
		set -- $cost
		# the shares of a write's and a read's cost under the pipe's mutex,
		# each tree's as twin/pipe_mutex.py measured them in a boot with
		# twin/events/pipe-mutex.events (docs/fidelity-pipe.md)
		case $kv in 6.*) lock=0.61:0.54 ;; *) lock=0.35:0.54 ;; esac
		measured=$logs/$w-cost$1-$2-lock$lock.json
		python3 "$top/sim/shapes/hackbench.py" -g 1 -T -p -s 1000 -l 10 --cost-us "$1" --read-cost-us "$2" \
			--pipe-lock "$lock" --forever --duration 30 --cyclictest 3777:0 >"$measured" &&
		(cd "$dir" && sd=1 && while [ $sd -le "$seeds" ]; do
			"$dir/../../fairsim" --quiet --cpus "$cpus" --seed $sd --duration "$d" \
				${feat:+--features "$feat"} --json sim-cost$sd.json "$measured" >/dev/null || exit 1
			sd=$((sd + 1))
		 done &&
		 "$dir/../../fairsim" --twin sim-cost*.json --vs real-*.json --json twin-cost.json >/dev/null 2>&1) ||
			{ echo "fairtest: fidelity.sh: fairsim on $measured failed" >&2; exit 1; }
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label, $1 / $2 us a write / read, $lock under the pipe's mutex (measured)" "$kv" "$prof" \
			"${feat:-defaults}" "$cpus" "$dir" twin-cost.json
	fi
done >"$logs/twins.tsv.tmp" || exit 1
mv "$logs/twins.tsv.tmp" "$logs/twins.tsv" || exit 1

python3 "$top/twin/fidelity_table.py" "$logs/twins.tsv" "$logs/full.md.tmp" &&
	mv "$logs/full.md.tmp" "$logs/full.md" &&
	echo "fidelity: every row of every twin: $logs/full.md" >&2

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The workload simulator's speed: the short-slice series' experiments in
# fixtures/workloads (130 s each on 8 CPUs), with the invariant checker on
# and off, as simulated seconds per wall second, the largest resident set,
# and our time as a ratio to its floor: the tree's own code, measured in
# the same run. perf samples the run; the floor is the part of its CPU
# time whose samples fall in the symbols of the tree's objects (fair.c,
# pelt.c and lib/ as built in the build dir's k/, less the bridge's ft_*
# wrappers); the ratio is all samples over those. A ratio of 1 would be a
# simulator that costs nothing beside the kernel's own scheduling work.
# perf samples the hardware cycle counter where there is one, the
# cpu-clock software event where there is none (a VM without a PMU), and
# user space only where perf_event_paranoid keeps the kernel out; the
# line under the table says which. Samples count CPU time, not waiting
# for a CPU, so the ratios hold on a busy machine where the wall times do
# not. 999 Hz: at 4999 Hz the sampling itself added a quarter to the CPU
# time of the hackbench run on a 2-core VM; at 999 Hz nothing measurable.
# The host clock is read here, never by the simulator.
#
# usage: bench/sim.sh FAIRSIM   (build/<tree>/fairsim, after make build)
set -eu
[ $# -eq 1 ] || { echo "usage: bench/sim.sh FAIRSIM   (build/<tree>/fairsim, after make build)" >&2; exit 2; }
sim=$1
top=$(cd "$(dirname "$0")/.." && pwd)
k=$(dirname "$sim")/k
[ -x "$sim" ] && [ -f "$k/fair_bridge.o" ] ||
	{ echo "bench/sim.sh: no fairsim and k/fair_bridge.o at $sim: run make build, give build/<tree>/fairsim" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The event perf can sample here, first choice first; none: no floor.
"$top/sched_fair/deps.sh" linux-perf || true
event=
if command -v perf >/dev/null; then
	for e in cycles cpu-clock cycles:u cpu-clock:u; do
		if perf record -q -e "$e" -o "$work/probe.data" -- true >/dev/null 2>&1 &&
		   ! perf stat -x, -e "$e" true 2>&1 | grep -q 'not supported'; then
			event=$e
			break
		fi
	done
fi
syms() { for o in "$@"; do nm --defined-only "$o"; done | awk '$2 ~ /^[tTwW]$/ && $3 !~ /^ft_/ { print $3 }' | sort -u; }
syms "$k/fair_bridge.o" >"$work/fair.syms"
# shellcheck disable=SC2046 # object paths of the build dir
syms "$k"/*_unit.o "$k/fair_bridge.o" $(find "$k/lib" "$k/arch" -name '*.o') >"$work/tree.syms"

# profile FILE: "ALL TREE FAIR N": fairsim's sample periods in a perf.data,
# all, in the tree's code, in fair.c's; N samples in all
profile() {
	perf report -i "$1" --stdio -q --comm fairsim --sort sym -F sample,period,sym 2>/dev/null |
	awk 'FILENAME == ARGV[1] { fair[$1] = 1; next }
	     FILENAME == ARGV[2] { tree[$1] = 1; next }
	     { all += $2; n += $1; if ($4 in tree) t += $2; if ($4 in fair) f += $2 }
	     END { printf "%.0f %.0f %.0f %.0f\n", all, t, f, n }' "$work/fair.syms" "$work/tree.syms" -
}
div() { echo "$1 / $2" | bc -l; }

printf '%-22s %7s %8s %7s %8s %8s %8s %7s %8s\n' "workload (8 CPUs)" "checker" "wall s" "x real" \
	"cpu s" "floor s" "fair.c s" "ratio" "samples"
rss=0 used=
for mode in on off; do
	eval "all_$mode=0 tree_$mode=0 fair_$mode=0 cpu_$mode=0 wall_$mode=0 n_$mode=0"
done
for w in cyclictest cyclictest-rtapp cyclictest-hackbench; do
	for mode in on off; do
		flag=; [ $mode = off ] && flag=--no-check
		rec=
		[ -z "$event" ] || rec="perf record -q -e $event -F 999 -o $work/p.data --"
		# shellcheck disable=SC2086 # rec is a command line or nothing
		$rec /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$sim" --cpus 8 --quiet $flag \
			"$top/fixtures/workloads/$w.json" 2>"$work/err" ||
			{ echo "bench/sim.sh: $w (checker $mode) failed: $(tail -n 3 "$work/err")" >&2; exit 1; }
		read -r wall user sys kb <"$work/t"
		[ "$kb" -gt "$rss" ] && rss=$kb
		cpu=$(echo "$user + $sys" | bc)
		if [ -n "$event" ]; then
			# shellcheck disable=SC2046 # four numbers
			set -- $(profile "$work/p.data")
			all=$1 tree=$2 fair=$3 n=$4
			# what perf sampled in the end (it adds :u where it must)
			used=$(perf report -i "$work/p.data" --header-only 2>/dev/null |
			       sed -n 's/^# event : name = \([^,]*\),.*/\1/p' | head -n 1)
			# where the rest goes: the largest symbols outside the tree's code
			perf report -i "$work/p.data" --stdio -q --comm fairsim --sort sym -F period,sym 2>/dev/null |
			awk -v all="$all" 'FILENAME == ARGV[1] { tree[$1] = 1; next }
			     !($3 in tree) { printf "%s %.1f%%\n", $3, 100 * $1 / all }' "$work/tree.syms" - |
			sort -k2 -rn | head -n 6 | tr '\n' ' ' >"$work/top-$w-$mode"
		else
			all=0 tree=0 fair=0 n=0
		fi
		if [ "$tree" -gt 0 ]; then
			floor=$(printf '%.2f' "$(div "$cpu * $tree" "$all")")
			fairs=$(printf '%.2f' "$(div "$cpu * $fair" "$all")")
			ratio=$(printf '%.1fx' "$(div "$all" "$tree")")
			shown=$n
		else
			floor=- fairs=- ratio=- shown=-
		fi
		printf '%-22s %7s %8.2f %6.0fx %8.2f %8s %8s %7s %8s\n' "$w" "$mode" "$wall" \
			"$(div 130 "$wall + 0.001")" "$cpu" "$floor" "$fairs" "$ratio" "$shown"
		eval "all_$mode=\$((all_$mode + all)) tree_$mode=\$((tree_$mode + tree))"
		eval "fair_$mode=\$((fair_$mode + fair)) cpu_$mode=\$(echo \"\$cpu_$mode + \$cpu\" | bc)"
		eval "wall_$mode=\$(echo \"\$wall_$mode + \$wall\" | bc) n_$mode=\$((n_$mode + n))"
	done
done
for mode in on off; do
	eval "all=\$all_$mode tree=\$tree_$mode fair=\$fair_$mode cpu=\$cpu_$mode wall=\$wall_$mode n=\$n_$mode"
	if [ "$tree" -gt 0 ]; then
		printf '%-22s %7s %8.2f %6.0fx %8.2f %8.2f %8.2f %6.1fx %8s\n' "together (390 s)" "$mode" "$wall" \
			"$(div 390 "$wall + 0.001")" "$cpu" "$(div "$cpu * $tree" "$all")" "$(div "$cpu * $fair" "$all")" \
			"$(div "$all" "$tree")" "$n"
	else
		printf '%-22s %7s %8.2f %6.0fx %8.2f %8s %8s %7s %8s\n' "together (390 s)" "$mode" "$wall" \
			"$(div 390 "$wall + 0.001")" "$cpu" - - - -
	fi
done
printf 'largest resident set: %d MB\n' $((rss / 1024))
for mode in on off; do
	if [ -s "$work/top-cyclictest-hackbench-$mode" ]; then
		echo "hackbench, checker $mode, above the floor: $(sed 's/ $//' "$work/top-cyclictest-hackbench-$mode")"
	fi
done
if [ -n "$event" ]; then
	echo "floor: the tree's code (fair.c, pelt.c, lib/) by perf samples of ${used:-$event} at 999 Hz; ratio: cpu s / floor s"
else
	if ! command -v perf >/dev/null; then
		echo "floor: not measured: no perf (Debian: apt-get install linux-perf)"
	else
		echo "floor: not measured: perf record failed for cycles and cpu-clock, kernel and user" \
			"(perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo ?): 2 or lower lets a user sample their own processes)"
	fi
fi

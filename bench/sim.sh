#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The workload simulator's speed: the short-slice series' experiments in
# fixtures/workloads (130 s each on 8 CPUs), with the invariant checker on
# and off, as simulated seconds per wall second, the largest resident set,
# and our time as a ratio to its floor: the tree's own code, measured in
# the same run. perf samples each run; the floor is the part of the CPU
# time of the run without the checker whose samples fall in the symbols
# of the tree's objects (fair.c, pelt.c and lib/ as built in the build
# dir's k/, less the bridge's ft_* wrappers): the checker calls into the
# tree too, and that is the checker's time. A run's ratio is its CPU time
# over the floor. A ratio of 1 would be a simulator that costs nothing
# beside the kernel's own scheduling work.
# perf samples the hardware cycle counter where there is one, the
# cpu-clock software event where there is none (a VM without a PMU), and
# user space only where perf_event_paranoid keeps the kernel out; the
# line under the table says which. Samples count CPU time, not waiting
# for a CPU, so the ratios hold on a busy machine where the wall times do
# not. 999 Hz: at 4999 Hz the sampling itself added a quarter to the CPU
# time of the hackbench run on a 2-core VM; at 999 Hz nothing measurable.
# The host clock is read here, never by the simulator. With a second
# fairsim (BASE: another build of the same tree, e.g. from a worktree of
# main), each run of FAIRSIM is followed by the same run of BASE, so a
# change is measured against its base side by side, under the same load;
# the rows of BASE say "base" after the checker column.
#
#
# Samples move from run to run (on a shared 2-core VM the floor of one
# run, whose fair.c work is the same with the checker on and off, came
# out a fifth apart), so a second table counts instructions, which do not
# move: each experiment's first COUNT_S simulated seconds (default 10; 0:
# no count) under valgrind's callgrind, the floor there being the
# instructions on lines of the tree's files (fair.c, pelt.c, lib/ and the
# kernel headers inlined anywhere, as callgrind_annotate attributes them),
# again in the run without the checker; a third table splits the ratio by
# whose lines the instructions are on.
#
# Each perf run is made ROUNDS times (default 3), the checker on and off
# in turn: a row is the round of the median ratio, with the lowest and
# highest ratio of the rounds beside it (a round's ratio is over the
# floor of the same round's run without the checker).
#
# usage: bench/sim.sh FAIRSIM [BASE]   (build/<tree>/fairsim, after make build)
set -eu
usage="usage: bench/sim.sh FAIRSIM [BASE]   (build/<tree>/fairsim, after make build)"
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
for sim in "$@"; do
	[ -x "$sim" ] && [ -f "$(dirname "$sim")/k/fair_bridge.o" ] ||
		{ echo "bench/sim.sh: no fairsim and k/fair_bridge.o at $sim: run make build, give build/<tree>/fairsim" >&2; exit 2; }
done
sims=$*
count_s=${COUNT_S:-10}
case $count_s in
''|*[!0-9]*) echo "bench/sim.sh: COUNT_S=$count_s: give whole simulated seconds (0: no count)" >&2; exit 2 ;;
esac
rounds=${ROUNDS:-3}
case $rounds in
''|0*|*[!0-9]*) echo "bench/sim.sh: ROUNDS=$rounds: give how many perf runs of each (1 or more)" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
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
# without perf, no ratio: one round of each tells all
[ -n "$event" ] || rounds=1
syms() { for o in "$@"; do nm --defined-only "$o"; done | awk '$2 ~ /^[tTwW]$/ && $3 !~ /^ft_/ { print $3 }' | sort -u; }
# tree_syms K N: fair.c's symbols and the tree's of build dir K's objects, as set N
tree_syms() {
	syms "$1/fair_bridge.o" >"$work/fair$2.syms"
	# shellcheck disable=SC2046 # object paths of the build dir
	syms "$1"/*_unit.o "$1/fair_bridge.o" $(find "$1/lib" "$1/arch" -name '*.o') >"$work/tree$2.syms"
}

# profile FILE N: "ALL TREE FAIR N": fairsim's sample periods in a perf.data,
# all, in the tree's code, in fair.c's (symbol set N); N samples in all
profile() {
	perf report -i "$1" --stdio -q --comm fairsim --sort sym -F sample,period,sym 2>/dev/null |
	awk 'FILENAME == ARGV[1] { fair[$1] = 1; next }
	     FILENAME == ARGV[2] { tree[$1] = 1; next }
	     { all += $2; n += $1; if ($4 in tree) t += $2; if ($4 in fair) f += $2 }
	     END { printf "%.0f %.0f %.0f %.0f\n", all, t, f, n }' "$work/fair$2.syms" "$work/tree$2.syms" -
}
div() { echo "$1 / $2" | bc -l; }

# side 0 is FAIRSIM, side 1 BASE; a row's checker column says which
label() { if [ "$2" = 1 ]; then echo "$1 base"; else echo "$1"; fi; }
side=0
for sim in $sims; do
	tree_syms "$(dirname "$sim")/k" $side
	side=$((side + 1))
done
printf '%-22s %8s %8s %7s %8s %8s %8s %7s %11s %8s\n' "workload (8 CPUs)" "checker" "wall s" "x real" \
	"cpu s" "floor s" "fair.c s" "ratio" "rounds" "samples"
# runs FUNC N: "FUNC WORKLOAD CHECKER SIDE FAIRSIM FLAG ROUND" for each
# experiment, N rounds of it, checker on and off, each fairsim (SIDE 0 or
# 1, FLAG --no-check or none)
runs() {
	for w in cyclictest cyclictest-rtapp cyclictest-hackbench; do
		for r in $(seq "$2"); do
			for mode in on off; do
				side=0
				for sim in $sims; do
					flag=; [ $mode = off ] && flag=--no-check
					"$1" $w $mode $side "$sim" "$flag" "$r"
					side=$((side + 1))
				done
			done
		done
	done
}
# totals FUNC: "FUNC CHECKER SIDE" for each checker mode and fairsim
totals() {
	for mode in on off; do
		side=0
		for sim in $sims; do
			"$1" $mode $side
			side=$((side + 1))
		done
	done
}
# zero NAME...: NAME_on0, NAME_on1, NAME_off0 and NAME_off1 set to 0
zero() { for v in "$@"; do for k in on0 on1 off0 off1; do eval "${v}_$k=0"; done; done; }

rss=0 used=
# sampled W MODE SIDE SIM FLAG ROUND: one perf run, kept; after the last
# run of W (last round, checker off, last fairsim) its rows, added to the
# totals. As in the counted table below, a row's floor is that of the
# run without the checker: the checker's calls into the tree are the
# checker's time.
sampled() {
	w=$1 mode=$2 side=$3 sim=$4 flag=$5 r=$6
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
		set -- $(profile "$work/p.data" $side)
		all=$1 tree=$2 fair=$3 n=$4
		# what perf sampled in the end (it adds :u where it must)
		used=$(perf report -i "$work/p.data" --header-only 2>/dev/null |
		       sed -n 's/^# event : name = \([^,]*\),.*/\1/p' | head -n 1)
		# where the rest goes: the largest symbols outside the tree's code
		perf report -i "$work/p.data" --stdio -q --comm fairsim --sort sym -F period,sym 2>/dev/null |
		awk -v all="$all" 'FILENAME == ARGV[1] { tree[$1] = 1; next }
		     !($3 in tree) { printf "%s %.1f%%\n", $3, 100 * $1 / all }' "$work/tree$side.syms" - |
		sort -k2 -rn | head -n 6 | tr '\n' ' ' >"$work/top-$w-$mode${side}_$r"
	else
		all=0 tree=0 fair=0 n=0
	fi
	k=$mode${side}_$r
	if [ "$tree" -gt 0 ]; then
		eval "s_floor_$k=$(div "$cpu * $tree" "$all") s_fairs_$k=$(div "$cpu * $fair" "$all")"
	else
		eval "s_floor_$k= s_fairs_$k="
	fi
	eval "s_wall_$k=$wall s_cpu_$k=$cpu s_n_$k=$n"
	[ "$mode" = off ] && [ "$side" = "$last" ] && [ "$r" = "$rounds" ] || return 0
	totals sampled_out
}
# median PREFIX MODE SIDE: "ROUND LOW HIGH", the round of the median ratio
# of PREFIX's cpu over its floor of the run without the checker, and the
# lowest and highest; no floor: round 1 and no ratios
median() {
	for r in $(seq "$rounds"); do
		eval "c=\$${1}cpu_$2$3_$r f=\$${1}floor_off$3_$r"
		# shellcheck disable=SC2154 # c and f: set by the eval
		if [ -n "$f" ] && [ "$(echo "$f > 0" | bc)" = 1 ]; then
			echo "$(div "$c" "$f") $r"
		fi
	done | sort -g | awk '{ v[NR] = $1; r[NR] = $2 }
		END { if (NR) printf "%d %.1f %.1f\n", r[int((NR + 1) / 2)], v[1], v[NR]; else print "1 - -" }'
}
# sampled_out MODE SIDE: workload w's row (its median round), each round
# added to the totals of that round
sampled_out() {
	# shellcheck disable=SC2046 # three words
	set -- "$1" "$2" $(median s_ "$1" "$2")
	eval "wall=\$s_wall_$1$2_$3 cpu=\$s_cpu_$1$2_$3 n=\$s_n_$1$2_$3"
	eval "f=\$s_floor_off$2_$3 fs=\$s_fairs_off$2_$3"
	# shellcheck disable=SC2154 # f and fs: set by the eval
	sampled_row "$w" "$(label "$1" "$2")" 130 "$wall" "$cpu" "$f" "$fs" "$4" "$5" "$n"
	eval "top_$1$2=$3"	# the round whose largest symbols are printed (hackbench's, the last)
	for r in $(seq "$rounds"); do
		k=$1$2_$r
		# the floor is the run without the checker's, for both rows
		for v in cpu wall n $([ "$1" = off ] && echo floor fairs); do
			eval "t_${v}_$k=\$(echo \"0\${t_${v}_$k:-} + 0\${s_${v}_$k}\" | bc)"
		done
	done
}
# sampled_row NAME CHECKER SIMULATED WALL CPU FLOOR FAIR LOW HIGH N: one row (FLOOR empty: no floor)
sampled_row() {
	if [ -n "$6" ] && [ "$(echo "$6 > 0" | bc)" = 1 ]; then
		printf '%-22s %8s %8.2f %6.0fx %8.2f %8.2f %8.2f %6.1fx %11s %8s\n' "$1" "$2" "$4" \
			"$(div "$3" "$4 + 0.001")" "$5" "$6" "$7" "$(div "$5" "$6")" "$8-${9}x" "${10}"
	else
		printf '%-22s %8s %8.2f %6.0fx %8.2f %8s %8s %7s %11s %8s\n' "$1" "$2" "$4" \
			"$(div "$3" "$4 + 0.001")" "$5" - - - - -
	fi
}
last=$(($(echo "$sims" | wc -w) - 1))
runs sampled "$rounds"
# sampled_total MODE SIDE: the row of the three together, its median round
sampled_total() {
	# shellcheck disable=SC2046 # three words
	set -- "$1" "$2" $(median t_ "$1" "$2")
	eval "sampled_row \"together (390 s)\" \"\$(label $1 $2)\" 390 \"\$t_wall_$1$2_$3\"" \
		"\"\$t_cpu_$1$2_$3\" \"\$t_floor_off$2_$3\" \"\$t_fairs_off$2_$3\" $4 $5 \"\$t_n_$1$2_$3\""
}
totals sampled_total
printf 'largest resident set: %d MB\n' $((rss / 1024))
for mode in on off; do
	for side in 0 1; do
		eval "r=\${top_$mode$side:-}"
		if [ -n "$r" ] && [ -s "$work/top-cyclictest-hackbench-$mode${side}_$r" ]; then
			echo "hackbench, checker $(label $mode $side), above the floor:" \
			     "$(sed 's/ $//' "$work/top-cyclictest-hackbench-$mode${side}_$r")"
		fi
	done
done
if [ -n "$event" ]; then
	echo "floor (and fair.c s): the tree's code (fair.c, pelt.c, lib/) by perf samples of ${used:-$event} at 999 Hz, in the run without the checker; ratio: cpu s / floor s, each row the round of the median ratio of $rounds (rounds: the lowest and highest)"
else
	if ! command -v perf >/dev/null; then
		echo "floor: not measured: no perf (Debian: apt-get install linux-perf)"
	else
		echo "floor: not measured: perf record failed for cycles and cpu-clock, kernel and user" \
			"(perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo ?): 2 or lower lets a user sample their own processes)"
	fi
fi

# count SIM ARGS...: c_all and c_tree, the instructions of SIM's run under
# callgrind, all and on lines under the tree (found from fair.c's path;
# kbuild's trees hold no space); c_shim and c_sim on lines of shim/ and
# of sim/ (ours found from sim/engine.c's path: where SIM was built).
# shim/seams/locking.c's _raw_spin_*() lie in __lockfunc's section, which
# callgrind finds no lines for ("???"): they are the shim's too.
count() {
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>"$work/err" ||
		{ echo "bench/sim.sh: callgrind of $*: $(tail -n 3 "$work/err")" >&2; exit 1; }
	# from $work: callgrind_annotate makes paths under its directory relative
	(cd "$work" && callgrind_annotate --auto=no --inclusive=no --threshold=100 cg.out) \
		>"$work/cg.txt" 2>"$work/err" ||
		{ echo "bench/sim.sh: callgrind_annotate: $(tail -n 1 "$work/err")" >&2; exit 1; }
	awk '/PROGRAM TOTALS/ { gsub(",", "", $1); all = $1; next }
	     /^ *[0-9,]+ \(/ && $0 ~ /\/kernel\/sched\/fair\.c:/ && !root {
		     match($0, /\/[^ ]*\/kernel\/sched\/fair\.c:/); root = substr($0, RSTART, RLENGTH - 21) }
	     /^ *[0-9,]+ \(/ && $0 ~ / ([^ ]*\/)?sim\/engine\.c:/ && !ours {
		     match($0, / ([^ ]*\/)?sim\/engine\.c:/); top = substr($0, RSTART + 1, RLENGTH - 14); ours = 1 }
	     /^ *[0-9,]+ \(/ { gsub(",", "", $1); n = $1; sub(/^ *[0-9]+ \( *[0-9.]+%\) +/, ""); line[NR] = $0; cnt[NR] = n }
	     END { for (i in line) {
			   l = line[i]
			   if (root != "" && index(l, root "/") == 1) t += cnt[i]
			   else if (!ours) continue
			   else if (index(l, top "shim/") == 1 || index(l, "???:_raw_spin_") == 1) sh += cnt[i]
			   else if (index(l, top "sim/") == 1) sm += cnt[i] }
		   printf "%.0f %.0f %.0f %.0f\n", all, t, sh, sm }' "$work/cg.txt" >"$work/count"
	read -r c_all c_tree c_shim c_sim <"$work/count"
	[ "$c_tree" -gt 0 ] ||
		{ echo "bench/sim.sh: $1: no instruction on a line of the tree's kernel/sched/fair.c (built without -g?): run make build" >&2; exit 1; }
}
[ "$count_s" -gt 0 ] || exit 0
# The floor of a row is the tree's instructions of the run without the
# checker, whose work is the same but for the checker (which only reads:
# outputs are byte-identical either way); so the checker's cost is all a
# run with it counts beyond the run without, its calls into the tree
# (pick_eevdf(), vruntime_eligible(), ...) included.
echo
printf '%-22s %8s %14s %14s %7s\n' "counted (first $count_s s)" "checker" "instructions" "floor" "ratio"
zero call floor cshim ccheck csim
# counted W MODE SIDE SIM FLAG: one callgrind run, kept; after the last
# run of W (checker off, last fairsim) its rows, added to the totals
counted() {
	w=$1 mode=$2 side=$3 sim=$4 flag=$5
	# shellcheck disable=SC2086 # flag is an option or nothing
	count "$sim" --cpus 8 --quiet --duration "$count_s" $flag "$top/fixtures/workloads/$w.json"
	eval "r_all_$mode$side=$c_all r_tree_$mode$side=$c_tree r_shim_$mode$side=$c_shim"
	eval "r_sim_$mode$side=$c_sim"
	[ "$mode" = off ] && [ "$side" = "$last" ] || return 0
	totals counted_out
}
# counted_out MODE SIDE: workload w's row, added to the totals
counted_out() {
	k=$1$2
	eval "a=\$r_all_$k f=\$r_tree_off$2"
	# shellcheck disable=SC2154 # a and f: set by the eval
	printf '%-22s %8s %14s %14s %6.2fx\n' "$w" "$(label "$1" "$2")" "$a" "$f" "$(div "$a" "$f")"
	eval "call_$k=\$((call_$k + a)) floor_$k=\$((floor_$k + f))"
	eval "cshim_$k=\$((cshim_$k + r_shim_off$2)) csim_$k=\$((csim_$k + r_sim_off$2))"
	eval "ccheck_$k=\$((ccheck_$k + a - r_all_off$2))"
}
runs counted 1
# counted_total MODE SIDE: the row of the three together
counted_total() {
	k=$1$2
	eval "a=\$call_$k f=\$floor_$k"
	printf '%-22s %8s %14s %14s %6.2fx\n' "together" "$(label "$1" "$2")" "$a" "$f" \
		"$(div "$a" "$f")"
}
totals counted_total
echo "counted: instructions by valgrind --tool=callgrind; floor: those on lines of files under the tree with the checker off; ratio: all / floor"

# The three together by whose lines the instructions are on, as multiples
# of the floor: what the ratio is made of. shim/ stands in for the
# kernel's core.c (and its seams); sim/ is the workload's model; the
# checker is what it adds (above), the rest by the run without it.
echo
# layer NAME VAR: one row, VAR (all less the others for "rest") per column
layer() {
	printf '%-34s' "$1"
	for mode in on off; do
		side=0
		for sim in $sims; do
			k=$mode$side
			eval "f=\$floor_$k"
			if [ "$2" = rest ]; then
				eval "v=\$((call_$k - floor_$k - cshim_$k - ccheck_$k - csim_$k))"
			else
				eval "v=\$$2_$k"
			fi
			printf ' %9.2fx' "$(div "$v" "$f")"
			side=$((side + 1))
		done
	done
	echo
}
printf '%-34s' "the three (first $count_s s), checker"
for mode in on off; do
	side=0
	for sim in $sims; do
		printf ' %10s' "$(label $mode $side)"
		side=$((side + 1))
	done
done
echo
layer "the tree's (fair.c, pelt.c, lib/)" floor
layer "shim/ (core.c's part, seams)" cshim
layer "the checker" ccheck
layer "sim/ (the workload's model)" csim
layer "the rest (libc, ...)" rest
echo "layers: instructions on lines of each one's files (inlined code counts where it was written), the checker's beyond the run without it, as multiples of the floor; they add up to the ratio"

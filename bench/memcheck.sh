#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What memory and UB checking cost: the suites run plain, under valgrind
# memcheck (the valgrind variant) and built with ASan+UBSan, interleaved
# round by round in one run so that the machine's load hits all three
# alike; the median wall time of each and its ratio to the plain run. The
# whole run is mostly fixed costs (valgrind's start, a leak check per
# case), so the compute-bound fair_shares suite and the bare start-up
# (--list) are measured on their own too.
# Builds in a private directory (the first build prepares the tree once).
#
# usage: bench/memcheck.sh [ROUNDS]   (default 5; uses the default tree)
set -eu
rounds=${1:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

secs() {
	start=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || { echo "bench: failed: $*" >&2; exit 1; }
	end=$(date +%s.%N)
	echo "$end - $start" | bc
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "building plain, valgrind and asan binaries in $work ..." >&2
make -s -C "$top" build O="$work/build" >/dev/null 2>&1
make -s -C "$top" valgrind O="$work/build" >/dev/null 2>&1
make -s -C "$top" asan O="$work/build" >/dev/null 2>&1
obj=$(ls -d "$work"/build/*/)
cases=$("$obj/fairtest" --list | wc -l)

# measure NAME [GLOB...]: one table block, plain/valgrind/asan interleaved
measure() {
	name=$1
	shift
	: >"$work/plain"; : >"$work/valgrind"; : >"$work/asan"
	for _ in $(seq "$rounds"); do
		secs "$obj/fairtest" "$@" >>"$work/plain"
		secs "$top/tests/memcheck/run.sh" valgrind "$obj/valgrind/fairtest" "$@" >>"$work/valgrind"
		secs "$top/tests/memcheck/run.sh" asan "$obj/asan/fairtest" "$@" >>"$work/asan"
	done
	plain=$(median <"$work/plain")
	for v in plain valgrind asan; do
		t=$(median <"$work/$v")
		printf '%-34s %-9s %9.3f %9.1fx\n' "$name" "$v" "$t" "$(echo "$t / $plain" | bc -l)"
	done
}

printf 'median wall time of %d interleaved rounds, %d CPUs\n' "$rounds" "$(nproc)"
printf '%-34s %-9s %9s %10s\n' cases run "wall s" "vs plain"
measure "all $cases cases"
measure "fair_shares.* (compute-bound)" 'fair_shares.*'
measure "no case (--list): start-up" --list

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The shim's own oracles prove themselves: each fixtures/mutants/shim/*.patch
# breaks the shim (not fair.c) and names the cases that must catch it on
# its "Caught by:" line. Those cases pass on the base build and fail on the
# mutant's (sched_fair/mutant_build.sh builds it). Then the decisions those
# oracles guard, end to end: fair_numa.* prints the same KTAP with the host
# heap's holes moved (tests/heap/noise.c preloaded, three seeds) as
# without, since fair.c orders two numa_groups by address. Prints one line
# a check and a tally.
#
# usage: shim_mutants.sh OBJ KSRC PROFILE
set -u
obj=$1 ksrc=$2 profile=$3
top=$(cd "$(dirname "$0")/.." && pwd)
out=$obj/shim-mutants
mkdir -p "$out"
. "$top/tests/result.sh"
skipped=0

# How many of three heap-noise seeds move BIN's fair_numa KTAP (into DIR).
noise_moves() {	# BIN DIR
	"$1" 'fair_numa.*' >"$2/numa.quiet" 2>&1
	moved=0
	for seed in 1 2 3; do
		HEAP_NOISE_SEED=$seed LD_PRELOAD=$out/noise.so "$1" 'fair_numa.*' >"$2/numa.noise$seed" 2>&1
		cmp -s "$2/numa.quiet" "$2/numa.noise$seed" || moved=$((moved + 1))
	done
	echo $moved
}
rm -f "$out/noise.so"
cc -O2 -shared -fPIC -o "$out/noise.so" "$top/tests/heap/noise.c" 2>"$out/noise.log"
for patch in "$top"/fixtures/mutants/shim/*.patch; do
	set -f	# a case list is globs for the runner, not for the shell
	name=shim/$(basename "$patch" .patch)
	dir=$out/$(basename "$patch" .patch)
	cases=$(sed -n 's/^Caught by: //p' "$patch")
	if [ -z "$cases" ]; then
		result fail "$name: no 'Caught by:' line in $patch"
	elif ! "$obj/fairtest" $cases >"$out/base.$(basename "$patch" .patch)" 2>&1; then
		result fail "$name: $cases fail on the base build ($out/base.$(basename "$patch" .patch))"
	elif grep -q '^fairtest: 0 passed, 0 failed' "$out/base.$(basename "$patch" .patch)"; then
		skipped=$((skipped + 1))
		echo "ok - $name # SKIP $cases skip on this tree and profile ($(sed -n 's/^fairtest: //p' "$out/base.$(basename "$patch" .patch)"))"
	elif ! why=$("$top/sched_fair/mutant_build.sh" "$obj" "$ksrc" "$profile" "$patch" "$dir"); then
		result fail "$name: $why"
	elif "$dir/obj/fairtest" $cases >"$dir/run" 2>&1; then
		result fail "$name: survives: $cases pass on it ($(sed -n 's/^fairtest: //p' "$dir/run"))"
	else
		# A mutant that puts fair.c's objects back on the host heap
		# ("Heap noise: moves" in its header) must show the noise at
		# work where fair_numa runs, or the noise check below proves
		# nothing.
		moved=$(noise_moves "$dir/obj/fairtest" "$dir")
		if grep -q '^Heap noise: moves' "$patch" && [ "$moved" = 0 ] &&
		   ! grep -q '^fairtest: 0 passed, 0 failed' "$dir/numa.quiet"; then
			result fail "$name: heap noise moves fair_numa's KTAP on none of 3 seeds: tests/heap/noise.c no longer moves the host heap"
		else
			result ok "$name: caught by $cases ($(sed -n 's/^fairtest: //p' "$dir/run"); fair_numa's KTAP moved by $moved of 3 heap-noise seeds)"
		fi
	fi
	set +f
done

if [ ! -f "$out/noise.so" ]; then
	result fail "heap noise: tests/heap/noise.c does not compile ($out/noise.log)"
elif [ "$(noise_moves "$obj/fairtest" "$out")" = 0 ]; then
	result ok "heap noise: fair_numa.* prints the same KTAP under 3 heap-noise seeds as without ($(sed -n 's/^fairtest: //p' "$out/numa.quiet"))"
else
	result fail "heap noise: fair_numa.*'s KTAP moves with the host heap (diff $out/numa.quiet $out/numa.noise*)"
fi
echo "shim-mutants: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

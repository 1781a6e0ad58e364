#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The engine's own oracles prove themselves: each mutant of sim/ in
# fixtures/mutants/engine/ (a patch; its "caught-by:" line names the
# checks of tests/sim/run.sh, by the start of their titles, " | " between
# them, that must catch it) is applied to a copy of sim/, fairsim is
# built from that copy in a copy of the base build
# (sched_fair/mutant_build.sh), and tests/sim/run.sh runs on it: the
# first named check fails, and none but the named ones.
# Cost, a mutant: the copy (about 2 s on a 2-core VM), one compile and a
# link, and one run of tests/sim/run.sh (about 10 s of CPU); as many
# mutants at once as there are CPUs. Prints one
# line per mutant and "engine mutants: N passed, N failed, N skipped"
# last; a mutant whose "refused-here:" options this tree's fairsim takes
# is skipped, with that reason.
#
# usage: tests/sim/mutants.sh OBJ KSRC PROFILE
set -u
obj=$1 ksrc=$2 profile=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$obj/sim-mutants
rm -rf "$out"
mkdir -p "$out" || exit 1

. "$top/tests/result.sh"
skipped=0

# vet PATCH: prints why PATCH is not built (its line), or nothing
vet() {
	if ! grep -q '^caught-by: ' "$1"; then
		echo "fail no 'caught-by: CHECK' line in $1"
		return
	fi
	# A mutant that only stops fairsim refusing an option changes
	# nothing where the tree's fairsim takes it ("refused-here: OPTIONS")
	refused=$(sed -n 's/^refused-here: //p' "$1")
	# shellcheck disable=SC2086 # options are words
	if [ -n "$refused" ] && "$obj/fairsim" --quiet --cpus 1 --duration 0.01 $refused \
		"$top/fixtures/workloads/sleeper.json" >/dev/null 2>&1; then
		echo "skip this tree's fairsim takes $refused: the mutant changes nothing here"
	fi
}

# Each mutant built and tests/sim/run.sh run on it, as many at once as
# the machine has CPUs (run.sh runs one fairsim at a time), a new one
# started as soon as one ends; the verdicts below, in name order, read
# what they left.
jobs=$(nproc 2>/dev/null || echo 1)
for patch in "$top"/fixtures/mutants/engine/*.patch; do
	[ -n "$(vet "$patch")" ] || echo "$patch"
done | xargs -P "$jobs" -I{} sh -c '
	top=$1 obj=$2 ksrc=$3 profile=$4 patch=$5
	dir=$obj/sim-mutants/$(basename "$patch" .patch)
	if why=$("$top/sched_fair/mutant_build.sh" "$obj" "$ksrc" "$profile" "$patch" "$dir"); then
		"$top/tests/sim/run.sh" "$dir/obj/fairsim" "$ksrc" >"$dir/run.log" 2>&1
	else
		echo "$why" >"$dir.why"
	fi
	exit 0' _ "$top" "$obj" "$ksrc" "$profile" {}

for patch in "$top"/fixtures/mutants/engine/*.patch; do
	name=engine/$(basename "$patch" .patch)
	dir=$out/$(basename "$patch" .patch)
	caught=$(sed -n 's/^caught-by: //p' "$patch")
	v=$(vet "$patch")
	case $v in
	fail\ *) result fail "$name: ${v#fail }"; continue ;;
	skip\ *) skipped=$((skipped + 1)); echo "ok - $name # SKIP ${v#skip }"; continue ;;
	esac
	if [ -f "$dir.why" ]; then
		result fail "$name: $(cat "$dir.why")"
		continue
	fi
	bad=$(grep '^not ok - ' "$dir/run.log")
	first=${caught%% | *}
	others=$(printf '%s\n' "$bad" | grep -v -F "$(printf '%s\n' "$caught" | sed 's/ | /\n/g' |
		sed 's/^/not ok - /')" | grep -c .)
	tally=$(tail -1 "$dir/run.log")
	if [ -z "$bad" ]; then
		result fail "$name: survives tests/sim/run.sh ($tally; $dir/run.log)"
	elif ! printf '%s\n' "$bad" | grep -q -F "not ok - $first"; then
		result fail "$name: not caught by '$first' ($tally; $dir/run.log)"
	elif [ "$others" -gt 0 ]; then
		result fail "$name: caught by $others check(s) besides '$caught' ($dir/run.log)"
	else
		result ok "$name: caught by '$caught' only ($tally)"
	fi
done
echo "engine mutants: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

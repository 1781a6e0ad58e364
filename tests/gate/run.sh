#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The gate checked on our own fixtures: the short-slice series passes every
# step (with coverage); each broken twin, put in its place after the good
# patches before it, fails at its own step, naming the patch and the test
# that catches it; and bad input (a patch that does not apply, a malformed
# mbox, an empty series, a step that does not compile, a revision range on
# a tree that is not git) fails with one line naming the step, leaves the
# base tree untouched and no step build behind; make coverage reports
# fair.c's percentages. Prints "gate: N passed, N failed" last. The
# fixtures are made for Debian's 6.12.117 (all of the above) and 7.3.4
# (its own series and twins): on another tree the checks are skipped,
# saying so.
#
# usage: tests/gate/run.sh OBJ KSRC
set -u
obj=$1 ksrc=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/fixtures/patches
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }
gate() { make -s -C "$top" gate O="$(dirname "$obj")" KSRC="$ksrc" "$@"; }
gate_root=$(dirname "$obj")/gate/$(basename "$obj")

# The series written for this tree: short-slice for 6.12.117 (with the
# layout and bad-input fixtures), sleep-lag-7.3 for 7.3.4.
applies() { patch -d "$ksrc" -p1 --dry-run -s -F0 -f <"$1" >/dev/null 2>&1; }
series=
for name in short-slice sleep-lag-7.3; do
	first=$(ls "$fx/$name"/*.patch | head -n 1)
	if applies "$first"; then
		series=$name
		break
	fi
done
if [ -z "$series" ]; then
	echo "ok - gate checks # SKIP no fixture series (6.12.117: short-slice, 7.3.4: sleep-lag-7.3) applies to $ksrc"
	echo "gate: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
good=("$fx/$series"/*.patch)
if [ "$series" = short-slice ]; then
	twins=("$fx"/broken/*.patch)
	expect_test=(
		[1]=fair_eevdf_pick.min_vruntime_augment_and_left_biased_v
		[2]=fair_slice_protection.limit_set_at_pick_is_min_of_deadline_and_min_slice
		[3]=fair_slice_protection.longer_slice_enqueue_never_extends_protection
		[4]=fair_sleep_lag.long_sleep_ends_at_zero_lag
		[5]=fair_sleep_lag.idle_cpu_wakeups_placed_independent_of_order
	)
else
	twins=("$fx"/broken-7.3/*.patch)
	expect_test=(
		[1]=fair_sleep_lag.long_sleep_ends_at_zero_lag
		[2]=fair_sleep_lag.idle_cpu_wakeups_placed_independent_of_order
	)
fi

touch "$out/marker"
untouched() {	# the base tree: no file written since the marker
	local w
	w=$(find "$ksrc" -newer "$out/marker" -print -quit 2>/dev/null)
	[ -z "$w" ] || { bad "$1: base tree written: $w"; return 1; }
}

# 1. The good series, every step green, with coverage.
if gate SERIES="$fx/$series" >"$out/good.out" 2>"$out/good.err"; then
	n=$(grep -c ' ok$' "$out/good.out")
	total=${#good[@]}
	if [ "$n" -eq "$total" ] && grep -q '^ok ' "$gate_root-cov/gate.ktap"; then
		ok "$series series: $n of $total steps green ($(tr -s ' ' <"$gate_root-cov/steps/0002/coverage.txt" | head -n 1))"
	else
		bad "$series series: $n of $total steps in the table are ok"
	fi
else
	bad "$series series: gate failed: $(head -n 3 "$out/good.err" | tr '\n' ' ')"
fi
untouched "$series series"

# 2. Each broken twin after the good patches before it: fails at its step,
#    naming the patch and the test that catches it.
for twin in "${twins[@]}"; do
	k=$((10#$(basename "$twin" | cut -c1-4)))
	s=$out/twin$k
	mkdir -p "$s"
	for g in "${good[@]}"; do
		[ $((10#$(basename "$g" | cut -c1-4))) -lt "$k" ] && ln -s "$g" "$s/"
	done
	ln -s "$twin" "$s/"
	subject=$(sed -n 's/^Subject: \[PATCH\] //p' "$twin")
	if gate SERIES="$s" COVERAGE=0 >"$out/twin.out" 2>"$out/twin.err"; then
		bad "broken twin $k: gate passed"
	elif ! grep -q "step $k (${subject:0:40}.*${expect_test[$k]}" "$out/twin.err"; then
		bad "broken twin $k: no line naming step $k and ${expect_test[$k]}: $(grep -m1 'gate:' "$out/twin.err")"
	else
		ok "broken twin $k caught: $(grep -m1 "step $k (" "$out/twin.err" | cut -c1-160)"
	fi
done
untouched "broken twins"

if [ "$series" != short-slice ]; then
	echo "ok - layout and bad-input gate checks # SKIP their fixtures are written for 6.12.117"
	skipped=$((skipped + 1))
else

# 1b. vprot sharing vlag's storage (mainline v6.17+ layout): the driver
#     builds, the compile probe sees the union, the vprot tests run and pass.
if gate SERIES="$fx/layout/vprot-union" COVERAGE=0 >"$out/union.out" 2>"$out/union.err" &&
	cat "$gate_root"/obj/gen/probes*.h | grep -q FT_VPROT_IN_UNION &&
	grep -q '^fair_slice_protection.limit_set_at_pick_is_min_of_deadline_and_min_slice pass$' \
		"$gate_root/steps/0003/results"; then
	ok "vprot in a union with vlag: builds, probed as a union, vprot tests pass"
else
	bad "vprot in a union with vlag: $(grep -m1 'gate:' "$out/union.err" "$out/union.out")"
fi

# 3. Bad input: one line naming the step, non-zero exit, nothing left.
expect_gate_error() {	# what pattern SERIES [then]
	local what=$1 pattern=$2
	shift 2
	if gate "$@" >"$out/bad.out" 2>"$out/bad.err"; then
		bad "$what: exited 0"
	elif ! grep -q -- "$pattern" "$out/bad.err"; then
		bad "$what: no line matching '$pattern' in: $(head -c 300 "$out/bad.err")"
	else
		ok "$what: $(grep -m1 -- "$pattern" "$out/bad.err" | cut -c1-160)"
	fi
}
expect_gate_error "patch that does not apply" "step 1 (sched/fair: a change against code that is not there) does not apply" \
	SERIES="$fx/bad/does-not-apply.patch" COVERAGE=0
if [ -e "$gate_root/steps/0001/tree" ] || [ -e "$gate_root/steps/0001/tree.tmp" ]; then
	bad "patch that does not apply: a step tree was left behind"
fi
expect_gate_error "malformed mbox" "step 2 (sched/fair: a message that lost its diff): malformed" \
	SERIES="$fx/bad/malformed.mbox" COVERAGE=0
[ ! -e "$gate_root/steps/0001" ] || bad "malformed mbox: step 1 ran before the series was checked"
mkdir -p "$out/empty"
expect_gate_error "empty series" "empty series" SERIES="$out/empty" COVERAGE=0
expect_gate_error "step 2 does not compile" "step 2 (sched/fair: a change that does not compile) does not build: .*error" \
	SERIES="$fx/bad/does-not-compile" COVERAGE=0
[ ! -e "$gate_root/obj/fairtest" ] || bad "step 2 does not compile: a test binary was left in the step build dir"
grep -q '^not ok 2 ' "$gate_root/gate.ktap" || bad "step 2 does not compile: KTAP does not say 'not ok 2'"
expect_gate_error "revision range on a tree that is not git" "is not a git checkout" SERIES=HEAD~2..HEAD COVERAGE=0
expect_gate_error "no SERIES" "needs SERIES" COVERAGE=0
untouched "bad input"
fi

# 4. make coverage: the whole suite on one tree.
if make -s -C "$top" coverage O="$(dirname "$obj")" KSRC="$ksrc" >"$out/cov.out" 2>&1 &&
	grep -q 'coverage: kernel/sched/fair.c lines [0-9.]*%' "$out/cov.out" && [ -f "$obj-cov/coverage-html/index.html" ]; then
	ok "make coverage: $(grep -m1 'fair.c lines' "$out/cov.out")"
else
	bad "make coverage: $(tail -n 2 "$out/cov.out" | tr '\n' ' ')"
fi

echo "gate: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]

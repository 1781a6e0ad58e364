#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The twin's slices on the real side, without a boot: twin/workload.py's
# map from a file's SCHED_OTHER dl-runtime to the guest helper's
# "NAME SLICE_NS THREADS" lines (none for a file without), the helper
# (twin/slice.c, built by twin/slice.sh) preloaded into Debian's rt-app on
# this host giving each thread its slice, as twin/slice_check.py reads
# rt-app's output (a SKIP on a host kernel without custom slices), and bad
# input: a slice outside the kernel's clamp, a slice per phase, a tree
# without custom slices; each one line, a non-zero exit, nothing left.
#
# usage: tests/twin/slice.sh OUTDIR
# shellcheck disable=SC2016 # check's second argument is code, evaluated there
set -u
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
wl=$top/fixtures/workloads
tap_name=twin-slice
. "$top/tests/twin/tap.sh"
skipped=0
fresh_out

# ---- the map ----
python3 "$top/twin/workload.py" "$wl/cyclictest-rtapp.json" 5 "$out/crt.json" >/dev/null 2>"$out/crt.err"
check "cyclictest-rtapp: the waker at 8 ms, the 16 tasks at 16 ms ($(tr '\n' ';' <"$out/crt.slice" 2>/dev/null))" \
	'[ "$(cat "$out/crt.slice" 2>/dev/null)" = "$(printf "cyclictest 8000000 1\nrtapp 16000000 16")" ]'
python3 "$top/twin/workload.py" "$wl/slice-hint-1cpu-0.1x.json" 5 "$out/hint.json" >/dev/null 2>&1
check "slice-hint-1cpu-0.1x: the waker alone, at the kernel's least slice" \
	'[ "$(cat "$out/hint.slice" 2>/dev/null)" = "cyclictest 100000 1" ]'
python3 "$top/twin/workload.py" "$wl/sleeper.json" 5 "$out/sleeper.json" >/dev/null 2>&1
check "sleeper: no dl-runtime, no map (its guest is the one every stored boot had)" '[ ! -e "$out/sleeper.slice" ]'
cat >"$out/deadline.json" <<'EOF'
{ "tasks": { "dl": { "policy": "SCHED_DEADLINE", "dl-runtime": 50, "dl-period": 1000, "run": 10 },
	     "b": { "run": 100, "sleep": 100 } } }
EOF
python3 "$top/twin/workload.py" "$out/deadline.json" 5 "$out/dl-out.json" >/dev/null 2>&1
check "a SCHED_DEADLINE task's dl-runtime stays rt-app's own" '[ ! -e "$out/dl-out.slice" ]'

# bad NAME EXPECT CMD...: CMD fails with one line on stderr matching EXPECT
bad() {
	name=$1 expect=$2
	shift 2
	if "$@" >"$out/bad.out" 2>"$out/bad.err"; then
		not_ok "$name: exit 0"
	elif [ "$(grep -c . "$out/bad.err")" -ne 1 ] || ! grep -q -- "$expect" "$out/bad.err"; then
		not_ok "$name: said $(head -c 300 "$out/bad.err" | tr '\n' '|')"
	else
		ok "$name: $(cat "$out/bad.err")"
	fi
}
sed 's/"dl-runtime": 100,/"dl-runtime": 50,/' "$wl/slice-hint-1cpu-0.1x.json" >"$out/short.json"
bad "a slice below the kernel's 100 us" "dl-runtime 50 at tasks/cyclictest: the kernel clamps a SCHED_OTHER slice to 100..100000 us" \
	python3 "$top/twin/workload.py" "$out/short.json" 5 "$out/short-out.json"
check "... and no file left of it" '[ ! -e "$out/short-out.json" ] && [ ! -e "$out/short-out.slice" ]'
cat >"$out/phase.json" <<'EOF'
{ "tasks": { "a": { "phases": { "p1": { "dl-runtime": 1000, "run": 100 }, "p2": { "run": 100 } } } } }
EOF
bad "a slice per phase" "dl-runtime at tasks/a/phases/p1: the twin gives a thread its slice once" \
	python3 "$top/twin/workload.py" "$out/phase.json" 5 "$out/phase-out.json"
mkdir -p "$out/old-tree/kernel/sched"
echo 'int fair;' >"$out/old-tree/kernel/sched/fair.c"
bad "a tree without custom slices" "has no custom slices (sched_attr.sched_runtime, 6.12 and later); twin it on a 6.12 or later tree, or drop dl-runtime" \
	"$top/twin/twin.sh" /bin/false "$out/old-tree" "$wl/slice-hint-1cpu-1x.json" "$out/old/r" 1 1 1 "" 1 tcg
check "... and no result left" '[ -z "$(ls "$out/old" 2>/dev/null)" ]'

# ---- the helper on this host's kernel ----
: >"$out/initrd"
if ! "$top/twin/slice.sh" "$out/initrd" "$out/crt.slice" "$out/initrd.slice" 2>"$out/build.err"; then
	not_ok "twin/slice.sh: $(tail -n 1 "$out/build.err")"
elif ! command -v rt-app >/dev/null; then
	echo "ok - twin-slice: the helper in rt-app # SKIP rt-app is not installed (sched_fair/deps.sh rt-app)"
	skipped=$((skipped + 1))
else
	gzip -dc "$out/initrd.slice" | busybox cpio -t 2>/dev/null | sort >"$out/initrd.list"
	check "the appended cpio: the helper, /etc/ld.so.preload, the map" \
		'[ "$(grep -c "^\(usr/lib/fairtest-slice.so\|etc/ld.so.preload\|etc/fairtest-slice\)$" "$out/initrd.list")" = 3 ]'
	# cyclictest-rtapp's names, rt-app's calibration fixed, one second
	printf 'cyclictest 300000 1\nrtapp 16000000 2\n' >"$out/host.slice"
	cat >"$out/host.json" <<EOF
{ "global": { "calibration": 1000, "duration": 1, "default_policy": "SCHED_OTHER",
	"lock_pages": false, "logdir": "$out", "log_size": "disable" },
  "tasks": { "cyclictest": { "run": 10, "timer": { "ref": "u", "period": 3777 } },
	     "rtapp": { "instance": 2, "run": 1000, "sleep": 1000 }, "other": { "run": 100, "sleep": 1000 } } }
EOF
	FAIRTEST_SLICE_MAP=$out/host.slice LD_PRELOAD=$out/fairtest-slice.so \
		timeout 30 rt-app "$out/host.json" >"$out/host.out" 2>&1
	if res=$(python3 "$top/twin/slice_check.py" "$out/host.slice" "$out/host.out"); then
		ok "the helper in rt-app on $(uname -r): $res"
		check "... and the thread not in the map left alone" '! grep -q "fairtest-slice: other" "$out/host.out"'
	elif grep -q 'sched_getattr 0 ns' "$out/host.out"; then
		echo "ok - twin-slice: the helper in rt-app # SKIP this host's kernel ($(uname -r)) keeps no custom slice (6.12 and later do)"
		skipped=$((skipped + 1))
	else
		not_ok "the helper in rt-app on $(uname -r): $res"
	fi
fi

echo "twin-slice: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

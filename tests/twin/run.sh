#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The twin, briefly (make test): the sleeper on one CPU for 2 s of guest
# time, one boot of the tree's own kernel under QEMU beside fairsim, through
# twin/twin.sh as make twin runs it. It checks that both columns exist and
# that the real run was sane (the workload ran, little else did, the trace
# and schedstat tell the same story), never that the two agree: that is what
# docs/twin.md reports. Then bad input: an unknown accelerator, a workload
# rt-app 1.0 cannot run, a guest that does not finish in its time; each one
# line, a non-zero exit, no result left.
#
# usage: tests/twin/run.sh FAIRSIM KSRC OUTDIR
set -u
fairsim=$1 ksrc=$2 out=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
sleeper=$top/fixtures/workloads/sleeper.json
passed=0 failed=0
ok() { echo "ok - twin: $1"; passed=$((passed + 1)); }
not_ok() { echo "not ok - twin: $1"; failed=$((failed + 1)); }
mkdir -p "$out"
rm -rf "$out/sleeper" "$out/bad"
# twin/maxima.py on a small trace of ours: ct woken four times, once
# before the window, once behind a kworker that was running when it
# came (800 us of it, then 100 us of idle). Expect 3 wake-ups in the
# window, the longest 900 us with the kworker's 800 us and its wake-up
# 100 us before (after 895 us of idle), and the one outside the window
# (5000 us) not counted. With the check's probe line (wpf) before it, the
# state it decided on: V = 1.1 ms (the running task at 1.2 ms weighed in
# with one queued task at 1.0 ms), so ct placed at V has lag 0 and the
# running task is not eligible, protected to 1.3 ms, 300 us of its slice
# left, ct's deadline 300 us after its.
cat >"$out/maxima.trace" <<'EOF'
# tracer: nop
          <idle>-0       [000] d.h2.     0.900000: sched_wakeup: comm=ct pid=7 prio=120 target_cpu=000
          <idle>-0       [000] d..2.     0.905000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ct next_pid=7 next_prio=120
              ct-7       [000] d..2.     0.905010: sched_switch: prev_comm=ct prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
            init-1       [000] .....     1.000000: tracing_mark_write: fairtest_twin: window_start
          <idle>-0       [000] d.h2.     1.001000: sched_wakeup: comm=ct pid=7 prio=120 target_cpu=000
          <idle>-0       [000] d..2.     1.001005: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ct next_pid=7 next_prio=120
              ct-7       [000] d..2.     1.001015: sched_switch: prev_comm=ct prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [000] dNs2.     1.001900: sched_wakeup: comm=kworker/0:1 pid=30 prio=120 target_cpu=000
          <idle>-0       [000] d..2.     1.001910: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/0:1 next_pid=30 next_prio=120
     kworker/0:1-30      [000] d.h2.     1.002000: wpf: (fairsim) pid=7 wf=0x8 pv=1100000 pl=0 pd=1800000 ps=700000 pdl=0 cpid=30 cv=1200000 cd=1500000 cp=1300000 cs=700000 cx=0 zv=1000000 sv=0 sw=1048576 nq=2
     kworker/0:1-30      [000] d.h2.     1.002000: sched_wakeup: comm=ct pid=7 prio=120 target_cpu=000
     kworker/0:1-30      [000] d..2.     1.002800: sched_switch: prev_comm=kworker/0:1 prev_pid=30 prev_prio=120 prev_state=I ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [000] d..2.     1.002900: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ct next_pid=7 next_prio=120
              ct-7       [000] d..2.     1.002910: sched_switch: prev_comm=ct prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [000] d.h2.     1.003000: sched_wakeup: comm=ct pid=7 prio=120 target_cpu=000
          <idle>-0       [000] d..2.     1.003040: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ct next_pid=7 next_prio=120
            init-1       [000] .....     1.004000: tracing_mark_write: fairtest_twin: window_end
EOF
mx=$(python3 "$top/twin/maxima.py" ct 1 "$out/maxima.trace" 2>&1)
if echo "$mx" | grep -q ': 3 wake-ups of ct; the 1 longest:$' &&
   echo "$mx" | grep -q '^  900 us at 1.002000 on CPU 0 .*ran kworker/0:1 800 us, <idle> 100 us; woke (us from it): kworker/0:1 -100; in the 1 ms before it ran <idle> 5 us, ct 10 us, <idle> 895 us, kworker/0:1 90 us$'; then
	ok "maxima.py: the worst wake-up in the window and the kworker that ran before it"
else
	echo "$mx" | sed 's/^/# /'
	not_ok "maxima.py: not the 900 us wake-up with the kworker's 800 us"
fi
if echo "$mx" | grep -q "^    the check: its lag +0 us, its deadline +300 us from the running task's, which is not eligible, protected, 300 us of its slice left$"; then
	ok "maxima.py: the wake-up check's state from its probe line"
else
	echo "$mx" | sed 's/^/# /'
	not_ok "maxima.py: not the check's state (lag 0, not eligible, protected, 300 us left)"
fi

# A tree of the user's own has no Debian image (make twin says so): a
# skip. Any other failure (a broken mirror, a bad package) is a failure.
if ! why=$("$top/sched_fair/kimage.sh" "$ksrc" 2>&1 >/dev/null); then
	why=$(echo "$why" | tail -n 1 | sed 's/^fairtest: //')
	case $why in
	*"is not a Debian linux-source tree"*)
		echo "ok - twin: # SKIP no kernel to boot: $why"
		echo "twin: $passed passed, 0 failed, 1 skipped"
		exit 0 ;;
	esac
	echo "not ok - twin: no kernel to boot: ${why:-kimage.sh failed and said nothing}"
	echo "twin: 0 passed, 1 failed"
	exit 1
fi

# The one boot also calibrates fairsim's costs from itself (CALIBRATE=1)
# and, on a tree whose probe file we have, reads fair.c's state at each
# wake-up on both sides (FAIRTEST_TWIN_EVENTS, FAIRSIM_PROBES).
case ${ksrc##*/} in
*-6.12-*) events=$top/twin/events/wakeup-6.12.events ;;
*-7.3-*) events=$top/twin/events/wakeup-7.3.events ;;
*) events= ;;
esac
if FAIRTEST_TWIN_CALIBRATE=1 FAIRTEST_TWIN_EVENTS=$events FAIRSIM_PROBES=${events:+1} \
	"$top/twin/twin.sh" "$fairsim" "$ksrc" "$sleeper" "$out/sleeper" 1 2 1 "" 1 "${FAIRTEST_TWIN_ACCEL:-}" \
	>"$out/sleeper.log" 2>&1; then
	ok "the sleeper ran in fairsim and on $(sed -n 's/^twin: real kernel \(.*\) under QEMU \([^,]*\),.*/\1 (\2)/p' "$out/sleeper.log")"
else
	sed 's/^/# /' "$out/sleeper.log"
	not_ok "the sleeper's twin run failed"
fi

# Both columns: A's and B's share, a number in each.
cols=$(awk '$2 == "share" && ($1 == "A" || $1 == "B") && $4 ~ /^[0-9.]+$/ && $5 ~ /^[0-9.]+$/ { n++ } END { print n + 0 }' \
	"$out/sleeper/twin.txt" 2>/dev/null)
if [ "$cols" = 2 ]; then
	ok "both columns: $(awk '$1 == "B" && $2 == "share" { printf "B share fairsim %s%%, real %s%%", $4, $5 }' "$out/sleeper/twin.txt")"
else
	not_ok "the table lacks A's or B's share in a column (twin.txt)"
fi

# Sane: B cycled (1 ms runs: hundreds of wake-ups in 2 s), the workload had
# the CPU (others under 10%), and the trace's shares are schedstat's within
# 2 points (two measurements of the same run).
real=$out/sleeper/real-1
if [ -f "$real.txt" ] && [ -f "$real/schedstat" ]; then
	other=$(sed -n 's/.*other tasks ran .* (\([0-9.]*\)% of the CPUs).*/\1/p' "$real.txt")
	wakeups=$(awk '$1 ~ /^B-/ && $2 ~ /^[0-9]+$/ { print $9; exit }' "$real.txt")
	worst=$(awk -v ws="$(cat "$real/window_start")" -v we="$(cat "$real/window_end")" '
		FILENAME ~ /schedstat.start$/ { st[$1] = $2; next }
		FILENAME ~ /schedstat$/ { if ($1 in st && $5 != "rt-app") ss[$5] = 100 * ($2 - st[$1]) / ((we - ws) * 1e9); next }
		$1 ~ /^[AB]-/ && $2 ~ /^[0-9]+$/ { split($1, n, "-"); tr[n[1]] = $3 }
		END { w = 0; for (t in ss) { d = ss[t] - tr[t]; if (d < 0) d = -d; if (!(t in tr)) d = 100; if (d > w) w = d } printf "%.1f\n", w }
		' "$real/schedstat.start" "$real/schedstat" "$real.txt")
	if [ -n "$other" ] && [ -n "$wakeups" ] &&
	   awk -v o="$other" -v w="$wakeups" -v d="$worst" 'BEGIN { exit !(o < 10 && w >= 200 && d <= 2) }'; then
		ok "the real run was sane: B woke $wakeups times, other tasks $other% of the CPU, trace vs schedstat within $worst points"
	else
		not_ok "the real run was not sane: B woke ${wakeups:-?} times (>= 200), other tasks ${other:-?}% (< 10), trace vs schedstat ${worst:-?} points (<= 2)"
	fi
else
	not_ok "no real run to check"
fi

# CALIBRATE=1: the header names a wake cost and a wake-up preemption read
# from the boot (B's 1 ms runs, A preempted by B's wake-ups), fairsim ran
# again with them (sim.json has them), the first run kept.
cal=$(sed -n 's/^twin: fairsim calibrated from the real boots: //p' "$out/sleeper.log")
if echo "$cal" | grep -q 'wake-up preemption [0-9]* us (p50 of [0-9]*' &&
   echo "$cal" | grep -q 'wake cost [0-9]* us (B:' && [ -f "$out/sleeper/sim-given.json" ] &&
   python3 -c 'import json, re, sys
c = int(re.search(r"wake cost (\d+) us", sys.argv[2]).group(1))
sys.exit(json.load(open(sys.argv[1]))["wake_cost_ns"] != c * 1000)' "$out/sleeper/sim.json" "$cal"; then
	ok "CALIBRATE=1: $cal"
else
	not_ok "CALIBRATE=1: no calibrated rerun with the costs it names (header: ${cal:-none})"
fi

# The probes: a wpf line at each of B's wake-ups on both sides, which
# twin/wakeup_state.py sets side by side.
if [ -z "$events" ]; then
	echo "ok - twin: # SKIP no probe file for ${ksrc##*/} (twin/events/)"
elif st=$(python3 "$top/twin/wakeup_state.py" B "$out/sleeper/sim.trace" "$out/sleeper/real-1/trace" 2>&1) &&
     [ "$(echo "$st" | grep -c 'wake-ups of B, ')" = 2 ]; then
	ok "probes on both sides: $(echo "$st" | grep 'wake-ups of B' | sed 's/.*: //' | tr '\n' ';')"
else
	echo "$st" | sed 's/^/# /'
	not_ok "probes: no wpf lines for B's wake-ups on both sides"
fi

# Bad input: one line, non-zero, nothing left.
bad() {
	name=$1 want=$2
	shift 2
	"$@" >"$out/bad.out" 2>"$out/bad.err"
	rc=$?
	lines=$(grep -c . "$out/bad.err")
	left=$(ls -d "$out/bad" "$out"/bad.tmp.* 2>/dev/null | wc -l)
	if [ "$rc" -ne 0 ] && [ "$lines" -eq 1 ] && grep -q -- "$want" "$out/bad.err" && [ "$left" -eq 0 ]; then
		ok "$name: $(cat "$out/bad.err")"
	else
		sed 's/^/# /' "$out/bad.err"
		not_ok "$name: exit $rc, $lines lines on stderr (want 1 naming '$want'), $left results left"
	fi
}
bad "an unknown accelerator" "ACCEL=warp" \
	"$top/twin/twin.sh" "$fairsim" "$ksrc" "$sleeper" "$out/bad" 1 2 1 "" 1 warp
bad "a workload with fairsim's pipes" "rt-app 1.0 cannot run fairsim's pipes" \
	"$top/twin/twin.sh" "$fairsim" "$ksrc" "$top/fixtures/workloads/cyclictest-hackbench.json" "$out/bad" 1 2 1 "" 1 icount:1
bad "a bad CALIBRATE" "CALIBRATE=2" \
	env FAIRTEST_TWIN_CALIBRATE=2 "$top/twin/twin.sh" "$fairsim" "$ksrc" "$sleeper" "$out/bad" 1 2 1 "" 1 icount:1
bad "a missing probe file" "FAIRTEST_TWIN_EVENTS=/no/such" \
	env FAIRTEST_TWIN_EVENTS=/no/such "$top/twin/twin.sh" "$fairsim" "$ksrc" "$sleeper" "$out/bad" 1 2 1 "" 1 icount:1
bad "a workload that waits without a mutex" 'has no "mutex": rt-app 1.0 never returns' \
	"$top/twin/twin.sh" "$fairsim" "$ksrc" "$top/fixtures/workloads/schbench.json" "$out/bad" 1 2 1 "" 1 icount:1
bad "a guest that does not finish in its time" "did not power off within 5 s" \
	env FAIRTEST_TWIN_LIMIT=5 "$top/twin/twin.sh" "$fairsim" "$ksrc" "$sleeper" "$out/bad" 1 2 1 "" 1 icount:1
# FAIRTEST_TWIN_KEEP=1: the same guest's console stays where boot.sh says.
FAIRTEST_TWIN_KEEP=1 FAIRTEST_TWIN_LIMIT=5 "$top/twin/twin.sh" "$fairsim" "$ksrc" "$sleeper" "$out/bad" 1 2 1 "" 1 icount:1 \
	>"$out/bad.out" 2>"$out/bad.err"
rc=$?
kept=$(sed -n 's/^fairtest: kept //p' "$out/bad.err")
if [ "$rc" -ne 0 ] && [ -n "$kept" ] && [ -f "$kept/console.log" ] && [ -f "$kept/qemu.log" ]; then
	ok "FAIRTEST_TWIN_KEEP=1 keeps a killed guest's console and QEMU output ($(ls "$kept" | tr '\n' ' '))"
else
	sed 's/^/# /' "$out/bad.err"
	not_ok "FAIRTEST_TWIN_KEEP=1: exit $rc, kept '${kept:-nothing}'"
fi
rm -rf "$out"/bad.tmp.* "$out/bad.out" "$out/bad.err"

echo "twin: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

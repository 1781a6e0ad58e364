#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CALIBRATE=1's costs (twin/calibrate.py), without a boot: fairsim's own
# traces stand for the real boots (the same trace format; fairsim's
# --json is the analysis --from-trace makes), so the costs they were run
# at are the answer. schbench-mutex at a wake cost of 10 us, 6.6 us a
# futex wake-up per task woken and 17 us a pass: calibrate.py reads the
# three back from the message thread's segments, and a mutex unlock's
# own cost (9 us) from the workers'; the sleeper, which
# broadcasts nothing, keeps the one flat wake cost; a timer handler's
# preemption is told per CPU. Then each mutant
# fixtures/mutants/twin/calibrate-* runs the same checks.
#
# usage: tests/twin/calibrate.sh FAIRSIM OUTDIR
# shellcheck disable=SC2016 # check's second argument is code, evaluated there
set -u
fairsim=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
wl=$top/fixtures/workloads
tap_name=twin-calibrate
. "$top/tests/twin/tap.sh"
fresh_out
case $fairsim in /*) ;; *) fairsim=$(pwd)/$fairsim ;; esac

# boots DIR FILE OPTIONS: DIR/real-1, real-2 (seeds 1, 2 at OPTIONS) and
# DIR/sim.json (seed 1 at fairsim's defaults), as twin/twin.sh leaves them
boots() {
	mkdir -p "$1" && python3 "$top/twin/workload.py" "$2" 3 "$1/rtapp.json" >/dev/null || return 1
	for s in 1 2; do
		mkdir -p "$1/real-$s"
		# shellcheck disable=SC2086 # options are words
		"$fairsim" --quiet --cpus 1 --seed "$s" --duration 3 $3 --json "$1/real-$s.json" \
			--trace "$1/real-$s/trace" "$2" >/dev/null || return 1
	done
	"$fairsim" --quiet --cpus 1 --seed 1 --duration 3 --json "$1/sim.json" "$2" >/dev/null
}
boots "$out/schbench" "$wl/schbench-mutex.json" "--wake-cost 10 --futex-wake-cost 6.6 --loop-cost 17 --wake-preempt 6" &&
	boots "$out/unlock" "$wl/schbench-mutex.json" \
		"--wake-cost 10 --futex-wake-cost 6.6 --unlock-wake-cost 9 --loop-cost 17 --wake-preempt 6" &&
	boots "$out/sleeper" "$wl/sleeper.json" "--wake-cost 30" ||
	{ echo "not ok - $tap_name: fairsim did not make the boots ($out)"; echo "$tap_name: 0 passed, 1 failed"; exit 1; }
# the sleeper's boots with a tick at 3.004 s (hz 250: on the grid) on CPU
# 0, a wake-up on CPU 1 and CPU 0's switch 12 us after the handler
cp -r "$out/sleeper" "$out/timer" && cat >>"$out/timer/real-1/trace" <<'EOT'
             A-0-1       [000] d.h1.     3.004001: hexp: hrtimer=000000001 now=3004001000 exp=3004000000
          <idle>-0       [001] d..2.     3.004003: sched_waking: comm=C-0 pid=9 prio=120 target_cpu=001
             A-0-1       [000] d..2.     3.004013: sched_switch: prev_comm=A-0 prev_pid=1 prev_prio=120 prev_state=R+ ==> next_comm=B-0 next_pid=2 next_prio=120
EOT

# checks LIB WORK: the checks on the calibrate.py in LIB
checks() {
	(
	passed=0 failed=0
	sch=$(cd "$out/schbench" && python3 "$1/calibrate.py" sim.json real-1 real-2 2>&1)
	opt=$(echo "$sch" | sed -n 1p)
	# schbench-mutex at 10 / 6.6 / 17 us. Expect those three back (the
	# fit within 0.5 us), the header naming message-0's segments.
	check "schbench-mutex: the three costs it ran at, from message-0's segments ($opt)" \
		'echo "$opt" | grep -q -- "--wake-cost 10 " && echo "$sch" | sed -n 2p | grep -q "loop .* (message-0.s segments over 2 boots" &&
		 echo "$opt" | awk "{ for (i = 1; i < NF; i++) o[\$i] = \$(i + 1) }
			END { f = o[\"--futex-wake-cost\"] - 6.6; l = o[\"--loop-cost\"] - 17
			      exit !(\"--futex-wake-cost\" in o && f * f < .25 && l * l < .25) }"'
	ul=$(cd "$out/unlock" && python3 "$1/calibrate.py" sim.json real-1 real-2 2>&1)
	uo=$(echo "$ul" | sed -n 1p)
	# schbench-mutex with a mutex unlock's wake-up at 9 us, the
	# broadcast's at 6.6. Expect 9 back from the workers' short segments,
	# and 6.6 and 17 as above: message-0's pass ends with an unlock, whose
	# 2.4 us beyond a broadcast's wake-up the loop cost does not keep (each
	# within 0.5 us).
	check "schbench-mutex: an unlock's own cost from the workers' segments ($uo)" \
		'echo "$ul" | sed -n 2p | grep -q "unlock wake .* (worker-[01].s segments under 100 us over 2 boots, their middle half" &&
		 echo "$uo" | awk "{ for (i = 1; i < NF; i++) o[\$i] = \$(i + 1) }
			END { u = o[\"--unlock-wake-cost\"] - 9; f = o[\"--futex-wake-cost\"] - 6.6
			      l = o[\"--loop-cost\"] - 17
			      exit !(\"--unlock-wake-cost\" in o && u * u < .25 && f * f < .25 && l * l < .25) }"'
	sl=$(cd "$out/sleeper" && python3 "$1/calibrate.py" sim.json real-1 real-2 2>&1)
	# The sleeper at a wake cost of 30 us. Expect it back, flat (B's run
	# per wake-up), and no futex or loop cost.
	check "the sleeper: one flat wake cost, no futex or loop cost ($(echo "$sl" | sed -n 1p))" \
		'echo "$sl" | sed -n 1p | grep -q -- "--wake-cost 30$" && echo "$sl" | sed -n 2p | grep -q "wake cost 30 us (B:"'
	tm=$(cd "$out/timer" && python3 "$1/calibrate.py" sim.json real-1 real-2 2>&1)
	# The sleeper's boots with a tick's handler on CPU 0 appended, 12 us
	# before the switch it preempts with, and a wake-up on CPU 1 between
	# the two. Expect a tick preemption of 12 us: CPU 1's wake-up does not
	# end CPU 0's handler.
	check "a tick's handler on one CPU, a wake-up on another ($(echo "$tm" | sed -n 1p))" \
		'echo "$tm" | sed -n 1p | grep -q -- "--tick-preempt 12$"'
	echo "checks: $passed passed, $failed failed"
	)
}

checks_then_mutants "$out/calibrate.log" "calibrate-*" "$out/work"

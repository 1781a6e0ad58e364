#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make test`: the fair.c suites (KTAP), then the CLI and parser checks,
# the workload simulator's checks (tests/sim) and Debian's rt-app on its
# workload files, valgrind, ASan+UBSan and the fault matrix, the runner's
# self-test, `make mutate`, the checker's two modes (tests/checker), the
# shim's mutants (tests/shim_mutants.sh), make
# campaign's checks (tests/campaign), the gate on the fixture series, a short twin
# run (tests/twin), and the docs' links and make targets (tests/docs).
# Ends with one tally line over all of them.
#
# usage: tests/project.sh OBJ KSRC [runner args...]
set -u
obj=$1 ksrc=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
failed=0

# The twin's checks, mostly one thread each (QEMU's, fairsim's, python's),
# run beside the single-threaded steps up to the mutants; their output is
# printed in its place below. tests/twin: run.sh, the sleeper beside
# Debian's own kernel under QEMU; kernel.sh, the twin's kernel built from
# a tree (its config and bad input, no build); slice.sh, the file's slices
# on the real side; calibrate.sh, CALIBRATE=1's costs read back from
# fairsim's traces at known costs; store.sh, the store of real boots;
# traces.sh, the trace scripts on small traces of ours; fidelity.sh, one
# twin/fidelity.sh run on a fake make twin. Only run.sh boots.
twin_steps="twin twin-kernel twin-slice twin-calibrate twin-store twin-traces twin-fidelity"
twin_start() {
	t=$top/tests/twin
	for step in $twin_steps; do
		case $step in
		twin) set -- "$t/run.sh" "$obj/fairsim" "$ksrc" ;;
		twin-kernel) set -- "$t/kernel.sh" "$ksrc" ;;
		twin-calibrate) set -- "$t/calibrate.sh" "$obj/fairsim" ;;
		*) set -- "$t/${step#twin-}.sh" ;;
		esac
		"$@" "$obj/$step-test" >"$obj/$step.log" 2>&1
		echo $? >"$obj/$step.log.rc"
	done
}
for step in $twin_steps; do rm -f "$obj/$step.log.rc"; done
# The twin's packages first, here: no apt-get beside the steps below.
"$top/sched_fair/deps.sh" @twin || failed=1
twin_start &
twin_pid=$!

"$obj/fairtest" "$@" >"$obj/check.ktap" || failed=1
cat "$obj/check.ktap"
suites=$(sed -n 's/^fairtest: //p' "$obj/check.ktap" | tail -n 1)

"$top/tests/cli/run.sh" "$obj/fairtest" "$ksrc" >"$obj/cli.log" || failed=1
cat "$obj/cli.log"
cli=$(sed -n 's/^cli: //p' "$obj/cli.log")

# The workload simulator: hand-checked cases, determinism, bad input;
# again built with ASan+UBSan, where a leak or a report is a second
# stderr line and fails the check that saw it.
"$top/tests/sim/run.sh" "$obj/fairsim" "$ksrc" >"$obj/sim.log" 2>&1 || failed=1
cat "$obj/sim.log"
sim=$(sed -n 's/^sim: //p' "$obj/sim.log")
"$top/tests/sim/run.sh" "$obj/asan/fairsim" "$ksrc" >"$obj/sim-asan.log" 2>&1 || failed=1
sed 's/^\(not \)*ok - /&asan: /' "$obj/sim-asan.log"
sim="$sim, $(sed -n 's/^sim: //p' "$obj/sim-asan.log")"
# Debian's rt-app as the judge of the workload files: a second of each
# file fairsim accepts, the rule or refusal behind each it refuses, and
# fairsim on each example of rt-app's that rt-app runs.
"$top/tests/sim/rtapp.py" "$top" 6 "$obj/fairsim" >"$obj/rtapp.log" 2>&1 || failed=1
cat "$obj/rtapp.log"
sim="$sim, $(sed -n 's/^rtapp: //p' "$obj/rtapp.log")"

# The same suites under memcheck and built with ASan+UBSan (the variants
# make test built in OBJ/valgrind, OBJ/asan), and the fault matrix; each is
# one check. They get the run's seed, timeout and globs, not its --junit.
seed=1 timeout=60
set -- "$@" --end
while [ "$1" != --end ]; do
	case $1 in
	--seed) seed=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--junit) shift ;;
	*) set -- "$@" "$1" ;;
	esac
	shift
done
shift
tools=0 tools_failed=0
for tool in valgrind asan; do
	tools=$((tools + 1))
	if "$top/tests/memcheck/run.sh" $tool "$obj/$tool/fairtest" --seed "$seed" --timeout "$timeout" "$@" \
		>"$obj/$tool.log" 2>&1; then
		echo "ok - $(tail -n 1 "$obj/$tool.log")"
	else
		grep -v '^    ok \|^ok ' "$obj/$tool.log"
		echo "not ok - $tool: see above"
		tools_failed=$((tools_failed + 1))
	fi
done
tools=$((tools + 1))
if "$top/tests/fault/matrix.sh" "$obj/fairtest" "" 0.05 "$seed" "$timeout" "$@" >"$obj/fault.log" 2>&1; then
	echo "ok - fault matrix: $(tail -n 1 "$obj/fault.log")"
else
	cat "$obj/fault.log"
	echo "not ok - fault matrix: see above"
	tools_failed=$((tools_failed + 1))
fi
[ "$tools_failed" -eq 0 ] || failed=1
memfault="$((tools - tools_failed)) passed, $tools_failed failed"

if KUNIT_PY=$ksrc/tools/testing/kunit/kunit.py "$top/tests/kunit/selftest/run.sh" >"$obj/selftest.log" 2>&1; then
	selftest="1 passed, 0 failed"
	echo "ok - runner self-test"
else
	cat "$obj/selftest.log"
	selftest="0 passed, 1 failed"
	failed=1
fi

# The mutants below take every CPU: the twin's checks are done first.
wait "$twin_pid"

# The suites must catch every deliberate bug of fixtures/mutants (>= 90%),
# as many mutants at once as there are CPUs (MUTATE_JOBS).
if "$top/sched_fair/mutate.sh" "$obj" "$ksrc" "$FAIRTEST_PROFILE" --timeout 30 >"$obj/mutate.log" 2>&1; then
	echo "ok - make mutate: $(tail -n 1 "$obj/mutate.log")"
	mutate="1 passed, 0 failed"
else
	cat "$obj/mutate.log"
	mutate="0 passed, 1 failed"
	failed=1
fi

# The engine's oracles catch their mutants (fixtures/mutants/engine).
"$top/tests/sim/mutants.sh" "$obj" "$ksrc" "$FAIRTEST_PROFILE" >"$obj/sim-mutants.log" 2>&1 || failed=1
cat "$obj/sim-mutants.log"
sim="$sim, $(sed -n 's/^engine mutants: //p' "$obj/sim-mutants.log")"

# The incremental checker finds what the full one does (FAIRTEST_CHECKER).
"$top/tests/checker/modes.sh" "$obj" "$ksrc" "$FAIRTEST_PROFILE" >"$obj/checker.log" 2>&1 || failed=1
cat "$obj/checker.log"
checker=$(sed -n 's/^checker: //p' "$obj/checker.log")
[ -n "$checker" ] || { checker="0 passed, 1 failed"; failed=1; }

# The shim's own oracles against their mutants (fixtures/mutants/shim).
"$top/tests/shim_mutants.sh" "$obj" "$ksrc" "$FAIRTEST_PROFILE" >"$obj/shim-mutants.log" 2>&1 || failed=1
cat "$obj/shim-mutants.log"
shim=$(sed -n 's/^shim-mutants: //p' "$obj/shim-mutants.log")
[ -n "$shim" ] || { shim="0 passed, 1 failed"; failed=1; }

# make campaign: each kind's merge is the one machine's report; two ssh
# logins to 127.0.0.1; a killed shard rerun; resume; bad input.
"$top/tests/campaign/run.sh" "$obj" "$ksrc" "$FAIRTEST_PROFILE" >"$obj/campaign.log" 2>&1 || failed=1
cat "$obj/campaign.log"
campaign=$(sed -n 's/^campaign: //p' "$obj/campaign.log")
[ -n "$campaign" ] || { campaign="0 passed, 1 failed"; failed=1; }

# The per-patch gate on our fixture series, broken twins and bad input.
"$top/tests/gate/run.sh" "$obj" "$ksrc" >"$obj/gate.log" 2>&1 || failed=1
cat "$obj/gate.log"
gate=$(sed -n 's/^gate: \([0-9]* passed\)/\1/p' "$obj/gate.log" | tail -n 1)

# The twin's checks, printed here, ran beside the steps above (twin_start).
twin=
for step in $twin_steps; do
	log=$obj/$step.log
	cat "$log"
	[ "$(cat "$log.rc" 2>/dev/null)" = 0 ] || failed=1
	twin="$twin${twin:+, }$(sed -n "s/^$step: \([0-9]* passed.*\)/\1/p" "$log" | tail -n 1)"
done

# README and docs: links resolve, make targets and knobs are make help's.
python3 "$top/tests/docs/check.py" "$top" >"$obj/docs.log" 2>&1 || failed=1
cat "$obj/docs.log"
docs=$(sed -n 's/^docs: //p' "$obj/docs.log")
[ -n "$docs" ] || { docs="0 passed, 1 failed"; failed=1; }

sum() { echo "$suites, $cli, $sim, $memfault, $selftest, $mutate, $checker, $shim, $campaign, $gate, $twin, $docs" | grep -o "[0-9]* $1" | awk '{ n += $1 } END { print n + 0 }'; }
echo "test: $(sum passed) passed, $(sum failed) failed, $(sum skipped) skipped"
exit $failed

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make test`: the fair.c suites (KTAP), then the CLI and parser checks,
# then the runner's self-test. Ends with one tally line over all three.
#
# usage: tests/project.sh OBJ KSRC [runner args...]
set -u
obj=$1 ksrc=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
failed=0

"$obj/fairtest" "$@" >"$obj/check.ktap" || failed=1
cat "$obj/check.ktap"
suites=$(sed -n 's/^fairtest: //p' "$obj/check.ktap" | tail -n 1)

"$top/tests/cli/run.sh" "$obj/fairtest" "$ksrc" >"$obj/cli.log" || failed=1
cat "$obj/cli.log"
cli=$(sed -n 's/^cli: //p' "$obj/cli.log")

if KUNIT_PY=$ksrc/tools/testing/kunit/kunit.py "$top/tests/selftest/run.sh" >"$obj/selftest.log" 2>&1; then
	selftest="1 passed, 0 failed"
	echo "ok - runner self-test"
else
	cat "$obj/selftest.log"
	selftest="0 passed, 1 failed"
	failed=1
fi

# The per-patch gate on our fixture series, broken twins and bad input.
"$top/tests/gate/run.sh" "$obj" "$ksrc" >"$obj/gate.log" 2>&1 || failed=1
cat "$obj/gate.log"
gate=$(sed -n 's/^gate: \([0-9]* passed\)/\1/p' "$obj/gate.log" | tail -n 1)

sum() { echo "$suites, $cli, $selftest, $gate" | grep -o "[0-9]* $1" | awk '{ n += $1 } END { print n + 0 }'; }
echo "test: $(sum passed) passed, $(sum failed) failed, $(sum skipped) skipped"
exit $failed

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make test`: the fair.c suites (KTAP), then the CLI and parser checks,
# the runner's self-test and `make mutate`. Ends with one tally line.
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

# The suites must catch every deliberate bug of fixtures/mutants (>= 90%).
if "$top/sched_fair/mutate.sh" "$obj" "$ksrc" "$FAIRTEST_PROFILE" --timeout 30 >"$obj/mutate.log" 2>&1; then
	echo "ok - make mutate: $(tail -n 1 "$obj/mutate.log")"
	mutate="1 passed, 0 failed"
else
	cat "$obj/mutate.log"
	mutate="0 passed, 1 failed"
	failed=1
fi

sum() { echo "$suites, $cli, $selftest, $mutate" | grep -o "[0-9]* $1" | awk '{ n += $1 } END { print n + 0 }'; }
echo "test: $(sum passed) passed, $(sum failed) failed, $(sum skipped) skipped"
exit $failed

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Builds the runner with its selftest suite (never the real suites) and
# checks the KTAP, the exit codes, the JUnit file and, where the kernel
# tree is at hand, that kunit.py reads the same totals.
#
# usage: tests/kunit/selftest/run.sh [OUTDIR]   (default: a new directory in /tmp)
#        VALGRIND=1 tests/kunit/selftest/run.sh  also runs the passing cases under
#                                          valgrind
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/fairtest-selftest.XXXXXX")}
kunit_py=${KUNIT_PY:-$(ls -d "${XDG_CACHE_HOME:-$HOME/.cache}"/fairtest/trees/linux-source-*/tools/testing/kunit/kunit.py 2>/dev/null | head -n 1)}
# starts_clean compares the environment a process started with
export FAIRTEST_SELFTEST_ORIG=orig
bin=$out/runner_selftest
ktap=$out/selftest.ktap
failed=0

mkdir -p "$out"
cd "$top"	# so that __FILE__ reads tests/kunit/selftest/...
cc -std=gnu11 -Wall -Wextra -Werror -O2 -g -o "$bin" \
	tests/kunit/runner.c tests/kunit/snapshot.c tests/kunit/selftest/runner_selftest.c -lcmocka

bad() {
	echo "run.sh: $*" >&2
	failed=1
}

# status WANT CMD...: runs CMD with output discarded, checks its exit status
status() {
	want=$1
	shift
	rc=0
	"$@" >/dev/null 2>&1 || rc=$?
	[ "$rc" = "$want" ] || bad "'$*' exited $rc, not $want"
}

rc=0
"$bin" --timeout 2 --junit "$out/selftest.xml" >"$ktap" || rc=$?
[ "$rc" = 1 ] || bad "selftest run exited $rc, not 1"

# the line of the failing expectation, so that edits above it do not matter
eq_line=$(grep -n 'KUNIT_EXPECT_EQ(test, a, b);' tests/kunit/selftest/runner_selftest.c |
	  cut -d: -f1)
while IFS= read -r line; do
	grep -qFx -- "$line" "$ktap" || bad "missing line: $line"
done <<EOF
KTAP version 1
# fairtest seed: 1
1..3
ok 1 runner_selftest_all_skipped # SKIP
    # fails_expect: EXPECTATION FAILED at tests/kunit/selftest/runner_selftest.c:$eq_line
        a == 3 (0x3)
    # fails_expect: still running after the expectations
    not ok 1 fails_expect
    not ok 2 fails_assert
    ok 3 skips # SKIP needs CONFIG_FOO
    ok 4 marks_skipped # SKIP half done
    not ok 5 crashes # ERROR crashed with signal 11 (Segmentation fault)
    not ok 6 aborts # ERROR crashed with signal 6 (Aborted)
    not ok 7 exits # ERROR exited with status 3 and no verdict
    not ok 8 hangs # TIMEOUT timed out after 2 s
    not ok 9 mock_left_over
    WARNING at kernel/sched/fair.c:123
    not ok 10 warns
    # chatters: printed on stderr
    not ok 11 chatters
    ok 1 passes
    ok 2 mock_satisfied
    ok 3 case_seed_is_stable
    ok 4 leaves_state_a_restore_puts_back
    ok 5 starts_clean
    ok 6 leaves_a_pending_signal
    ok 7 leaves_a_file_open
    ok 8 leaves_a_mapping
    ok 9 leaves_a_lower_limit
    ok 10 leaves_a_nicer_process
    ok 11 leaves_a_child
    ok 12 leaves_a_posix_timer
    ok 13 starts_with_nothing_left
    ok 14 forked_child_returns
ok 3 runner_selftest_good
# Totals: pass:14 fail:9 skip:3 total:26
EOF
[ "$(tail -n 1 "$ktap")" = "fairtest: 14 passed, 9 failed, 3 skipped" ] ||
	bad "last line is not the plain summary"
! grep -q "a child's teardown" "$ktap" || bad "a case's teardown ran in its child"
! grep -qE '\[ RUN|\[  (PASSED|FAILED)|error: Failure!|not reached|- fairtest$' "$ktap" ||
	bad "cmocka chatter or unreachable code in the KTAP"

"$bin" --timeout 2 >"$out/again.ktap" || true
cmp -s "$ktap" "$out/again.ktap" || bad "two runs differ"
# Workers that restore their memory between cases print what a process
# per case prints; one worker running a suite gives each case a clean start.
"$bin" --timeout 2 --fork-each >"$out/fork_each.ktap" || true
cmp -s "$ktap" "$out/fork_each.ktap" || bad "workers and --fork-each differ"
status 0 "$bin" --jobs 1 --fork-each 'runner_selftest_good.*'
# ... and each case that left what cannot be put back ended its worker,
# while the one that left only what can be did not
FAIRTEST_SELFTEST_PIDS=$out/pids status 0 "$bin" --jobs 1 'runner_selftest_good.*'
awk '
	prev == "leaves_state_a_restore_puts_back" && $2 != pid { print "starts_clean ran in a new worker" }
	prev ~ /^leaves_a_/ && $2 == pid { print $1 " ran in the worker " prev " left as it was" }
	{ prev = $1; pid = $2; n++ }
	END { if (n != 10) print n " of the 10 cases noted their process" }
' "$out/pids" >"$out/pids.bad"
[ ! -s "$out/pids.bad" ] || bad "workers: $(cat "$out/pids.bad")"

if [ ! -f "$out/selftest.xml" ] || [ -e "$out/selftest.xml.tmp" ]; then
	bad "no JUnit, or its .tmp left behind"
fi
[ "$(grep -c '<testcase ' "$out/selftest.xml")" = 26 ] || bad "JUnit lacks cases"
grep -q 'failures="9" skipped="2"' "$out/selftest.xml" || bad "JUnit counts"

[ "$("$bin" --list | wc -l)" = 26 ] || bad "--list"
status 0 "$bin" 'runner_selftest_good.*' '*all_skipped*'
status 2 "$bin" 'runner_selftest_good.*' no_such_case
status 2 "$bin" --seed 12x
status 2 "$bin" --bogus
status 0 "$bin" --help

if [ -n "$kunit_py" ] && [ -f "$kunit_py" ]; then
	python3 "$kunit_py" parse <"$ktap" >"$out/kunit_py.txt" || true
	grep -q 'Ran 26 tests: passed: 14, failed: 9, skipped: 3' \
		"$out/kunit_py.txt" || bad "kunit.py disagrees: $(tail -n 1 "$out/kunit_py.txt")"
else
	echo "run.sh: no kunit.py at $kunit_py, parser check skipped" >&2
fi

if [ "${VALGRIND:-0}" = 1 ]; then
	status 0 valgrind -q --error-exitcode=99 --leak-check=full \
		"$bin" 'runner_selftest_good.*' '*all_skipped*'
fi

[ "$failed" = 0 ] && echo "run.sh: runner selftest passed ($out)"
exit "$failed"

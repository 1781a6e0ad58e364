#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make coverage`: which of the tree's scheduler code the suites execute.
# Builds the same binary with --coverage in a build dir of its own (OBJ-cov,
# sharing OBJ's kbuild preparation), runs the suites, and captures the
# tree's code (fair.c through the bridge, pelt.c, lib/) with lcov: HTML
# under OBJ-cov/coverage-html, and fair.c's line and function percentages
# on stdout. Exits with the suites' status.
#
# usage: suite.sh KSRC OBJ PROFILE_FILE [runner args]
set -eu
ksrc=$1 obj=$2 profile=$3
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
sf=$top/sched_fair
cobj=$obj-cov

"$sf/deps.sh" lcov
"$sf/share_prep.sh" "$obj" "$ksrc" "$cobj" "$ksrc"
# -u: pull in __gcov_dump, which the runner calls before a case's _exit().
# FAIR_G=-g: gcov maps counts to lines through the debug line info, and
# -g1 loses a fifth of fair.c's lines (2278 of 2920 instrumented).
make --no-print-directory -j"$(nproc)" -f "$sf/build.mk" KSRC="$ksrc" OBJ="$cobj" \
	PROFILE="$profile" VARIANT_CFLAGS="--coverage -Wl,-u,__gcov_dump" FAIR_G=-g all
find "$cobj" -name '*.gcda' -delete
status=0
"$cobj/fairtest" "$@" >"$cobj/check.ktap" || status=$?
tail -n 1 "$cobj/check.ktap"

lcov -q --capture --no-recursion --directory "$cobj/k" --directory "$cobj/k/lib" \
	--output-file "$cobj/coverage.info" --rc lcov_branch_coverage=0 \
	--ignore-errors gcov,source >"$cobj/lcov.log" 2>&1 ||
	{ echo "fairtest: lcov could not capture coverage: $(tail -n 1 "$cobj/lcov.log") (full log: $cobj/lcov.log)" >&2; exit 1; }
rm -rf "$cobj/coverage-html"
genhtml -q --prefix "$ksrc" --title "fairtest: $(basename "$ksrc")" \
	--output-directory "$cobj/coverage-html" "$cobj/coverage.info" >>"$cobj/lcov.log" 2>&1 ||
	{ echo "fairtest: genhtml failed: $(tail -n 1 "$cobj/lcov.log")" >&2; exit 1; }
lcov -q --extract "$cobj/coverage.info" "$ksrc/kernel/sched/fair.c" \
	--output-file "$cobj/fair.info" >>"$cobj/lcov.log" 2>&1
lcov --summary "$cobj/fair.info" 2>&1 | sed -n 's/^ *\(lines\|functions\)\.*: /\1 /p' |
	sed 's/^/coverage: kernel\/sched\/fair.c /'
# What the profile leaves out of fair.c: source lines in preprocessor
# blocks its config turns off, and the options that turn off the most.
python3 "$top/coverage/uncompiled.py" "$ksrc/kernel/sched/fair.c" "$obj/kbuild/include/generated/autoconf.h" \
	--summary "$(basename "$profile" .config)" coverage:
echo "coverage: HTML in $cobj/coverage-html/index.html"
exit $status

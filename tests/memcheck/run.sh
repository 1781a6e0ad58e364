#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make valgrind` and `make asan`: the suites under memcheck, or built with
# ASan+UBSan, and a verdict that needs zero reports. Every case runs in a
# forked child: memcheck follows forks by itself (no exec, so no
# --trace-children; the only exec is addr2line, which is not ours to
# check), each process logs to its own file, and every log is read, so a
# report from a case, from its exit, or from the runner all count. Per
# case, tests/memcheck.c also fails the case itself, so the KTAP says
# which one. In the ASan build a report ends the case's child and the
# runner prints it under that case; the verdict counts reports in the
# KTAP and on stderr (the runner's own).
#
# usage: tests/memcheck/run.sh valgrind|asan BIN [runner args...]
set -u
tool=$1 bin=$2
shift 2
logs=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-$tool.XXXXXX")
trap 'rm -rf "$logs"' EXIT

# A leak the tree under test is known for (a probed finding, tested by
# fair_findings) is suppressed here at its one allocation site, so every
# other leak still counts.
here=$(cd "$(dirname "$0")" && pwd)
vg_supp= lsan_supp=
if cat "$(dirname "$(dirname "$bin")")"/gen/probes*.h 2>/dev/null | grep -q FT_FINDING_SDS_DOUBLE_CLAIM; then
	vg_supp=--suppressions=$here/sds_double_claim.supp
	lsan_supp=:suppressions=$here/sds_double_claim.lsan
fi

case $tool in
valgrind)
	# memcheck runs compute-bound code ~100x slower and instruments every
	# forked child afresh (fair_property forks hundreds): ten times the
	# per-case time limit.
	timeout=30	# the runner's default
	set -- "$@" --end
	while [ "$1" != --end ]; do
		case $1 in
		--timeout) timeout=$2; shift ;;
		*) set -- "$@" "$1" ;;
		esac
		shift
	done
	shift
	set -- --timeout $((timeout * 10)) "$@"
	valgrind -q --tool=memcheck --error-exitcode=99 --leak-check=full $vg_supp \
		--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
		--log-file="$logs/%p.log" "$bin" "$@" >"$logs/ktap" 2>"$logs/stderr"
	rc=$?
	cat "$logs/ktap"
	cat "$logs/stderr" >&2
	errors=0 lost=0
	for f in "$logs"/*.log; do
		[ -s "$f" ] || continue
		echo "valgrind: report of pid $(basename "$f" .log):" >&2
		sed 's/^==[0-9]*== /  /' "$f" | head -n 40 >&2
		n=$(grep -c -E '^==[0-9]+== (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|Source and destination|Argument|.*definitely lost|.*indirectly lost)' "$f")
		errors=$((errors + n))
		l=$(sed -n 's/^==[0-9]*== *\([0-9,]*\) bytes in .* are \(definitely\|indirectly\) lost.*/\1/p' "$f" | tr -d , |
		    awk '{ s += $1 } END { print s + 0 }')
		lost=$((lost + l))
	done
	procs=$(find "$logs" -name '*.log' | wc -l)
	echo "valgrind: $procs processes, $errors reports, $lost bytes definitely or indirectly lost, runner exit $rc"
	[ "$errors" -eq 0 ] && [ "$lost" -eq 0 ] && [ "$rc" -eq 0 ]
	;;
asan)
	# A child's report goes to its captured stderr, so it shows under its case.
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 LSAN_OPTIONS=print_suppressions=0$lsan_supp \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		"$bin" "$@" >"$logs/ktap" 2>"$logs/stderr"
	rc=$?
	cat "$logs/ktap"
	cat "$logs/stderr" >&2
	reports=$(cat "$logs/ktap" "$logs/stderr" |
		  grep -c -E 'ERROR: (Address|Leak)Sanitizer|runtime error:|LeakSanitizer: leaks')
	echo "asan: $reports ASan/UBSan/LSan reports, runner exit $rc"
	[ "$reports" -eq 0 ] && [ "$rc" -eq 0 ]
	;;
*)
	echo "fairtest: unknown checker '$tool'; use valgrind or asan" >&2
	exit 2
	;;
esac

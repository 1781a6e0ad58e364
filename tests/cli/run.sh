#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The project's own checks around `make check`: the KTAP it prints is read
# with the same totals by the kernel's parser (kunit.py), the same run twice
# is byte-identical, and bad input (missing tree, not a tree, unknown
# profile, bad option, filter matching nothing) fails with one clear line.
# Prints "cli: N passed, N failed" last.
#
# usage: tests/cli/run.sh BUILD_BIN KSRC
set -u
bin=$1 ksrc=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }

# expect_error WHAT PATTERN CMD...: non-zero exit, one stderr line matching
expect_error() {
	what=$1 pattern=$2
	shift 2
	if "$@" >"$out/stdout" 2>"$out/stderr"; then
		bad "$what: exited 0"
	elif ! grep -q "$pattern" "$out/stderr"; then
		bad "$what: no line matching '$pattern' in: $(head -c 300 "$out/stderr")"
	else
		ok "$what: $(grep -m1 "$pattern" "$out/stderr")"
	fi
}

"$bin" >"$out/a.ktap" 2>/dev/null
"$bin" >"$out/b.ktap" 2>/dev/null
if cmp -s "$out/a.ktap" "$out/b.ktap"; then ok "two runs are byte-identical"; else bad "two runs differ"; fi

ours=$(sed -n 's/^# Totals: //p' "$out/a.ktap" | tail -n 1)
kunit_py=$ksrc/tools/testing/kunit/kunit.py
if [ -f "$kunit_py" ] && command -v python3 >/dev/null; then
	theirs=$(python3 "$kunit_py" parse <"$out/a.ktap" 2>&1 | grep -o 'Ran [0-9]* tests:.*' | tail -n 1)
	p=$(echo "$ours" | sed -n 's/.*pass:\([0-9]*\).*/\1/p')
	t=$(echo "$ours" | sed -n 's/.*total:\([0-9]*\).*/\1/p')
	case "$theirs" in
	"Ran $t tests: passed: $p"*) ok "kunit.py parse agrees: $theirs (ours: $ours)" ;;
	*) bad "kunit.py parse says '$theirs', we say '$ours'" ;;
	esac
else
	ok "kunit.py parse check # SKIP no $kunit_py"
fi

expect_error "missing KSRC" "does not exist" make -s -C "$top" build KSRC=/nonexistent/tree
mkdir -p "$out/notatree"
expect_error "KSRC not a kernel tree" "is not a kernel tree" make -s -C "$top" build KSRC="$out/notatree"
expect_error "unknown profile" "unknown PROFILE" make -s -C "$top" build PROFILE=nosuch
expect_error "unknown option" "unknown option" "$bin" --frobnicate
expect_error "filter matching nothing" "no test matches" "$bin" 'nosuch.*'
expect_error "seed not a number" "seed" "$bin" --seed banana

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make fault`: the suites (or FILTER's cases) under a matrix of failure
# points: none, then each point alone failing once (its first use) and
# failing at random with probability P, then all of them at random
# together. libfiu's generator is pinned to SEED, so a row replays
# exactly. Prints one table row per run and, below it, every kernel WARN
# (file:line), invariant rule and shim rule (locking, clock) that fired.
#
# A row is UNEXPECTED, and the exit status 1, when a case crashed or hung,
# when the fault-free row fails anything, or when a WARN or an invariant
# break shows up that tests/fault/findings does not list for that point.
# A listed one is a finding: a weakness of the kernel under that fault,
# reported every run, not hidden and not failing (the row of all points
# accepts any point's finding). FAIRTEST_FINDINGS names another list.
# Test failures alone are
# not unexpected: a fault changes what some tests assert (shares, exact
# exec times), and the table shows how many.
#
# make campaign KIND=fault runs the rows apart: FAIRTEST_FAULT_ROW=count
# prints the number of rows; FAIRTEST_FAULT_ROW=k runs row k alone and
# leaves its row and signatures in FAIRTEST_FAULT_SAVE/k; and
# FAIRTEST_FAULT_FROM=dir prints the table of the rows saved in dir/1..n.
#
# usage: tests/fault/matrix.sh BIN "POINTS" P SEED TIMEOUT [GLOB...]
set -u
only=${FAIRTEST_FAULT_ROW:-} save=${FAIRTEST_FAULT_SAVE:-} from=${FAIRTEST_FAULT_FROM:-}
bin=$1 points=$2 p=$3 seed=$4 timeout=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
def=$top/shim/faults.def
findings=${FAIRTEST_FINDINGS:-$here/findings}
out=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-fault.XXXXXX")
trap 'rm -rf "$out"' EXIT

die() { echo "fairtest: $*" >&2; exit 2; }

known=$(sed -n 's/^FT_POINT([A-Z_]*,[[:space:]]*"\([^"]*\)".*/\1/p' "$def")
[ -n "$known" ] || die "no failure points found in $def"

# Bad input first: one line each, before any run.
case $seed in '' | *[!0-9]*) die "SEED='$seed' is not a decimal number; e.g. SEED=7" ;; esac
[ "$seed" -le 4294967295 ] 2>/dev/null || die "SEED=$seed is beyond libfiu's 32-bit seed; use 0..4294967295"
if ! echo "$p" | grep -Eq '^([0-9]+\.?[0-9]*|\.[0-9]+)$' ||
   ! awk -v p="$p" 'BEGIN { exit !(p >= 0 && p <= 1) }'; then
	die "P='$p' is not a probability in [0,1]; e.g. P=0.05"
fi
if [ -z "$points" ]; then
	points=$known
else
	sel=
	for pt in $(echo "$points" | tr ',' ' '); do
		m=
		for k in $known; do
			case $pt in
			*'*') case $k in "${pt%\*}"*) m="$m $k" ;; esac ;;
			*) [ "$k" = "$pt" ] && m=$k ;;
			esac
		done
		[ -n "$m" ] || die "unknown failure point '$pt' in FAULTS; the points are listed by \`make help\` and in shim/faults.def"
		sel="$sel $m"
	done
	points=$sel
fi
points=$(echo "$points" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')

# run NAME MODE SPEC: one row of the table
rows=0 unexpected=0
run() {
	name=$1 mode=$2 spec=$3
	shift 3
	rows=$((rows + 1))
	k=$out/$rows
	if [ -n "$from" ]; then	# a campaign's shard ran it
		[ -f "$from/$rows" ] || die "no row $rows in $from; rerun the campaign"
		sed -n 1p "$from/$rows" | tee "$k.row"
		sed 1d "$from/$rows" >>"$out/signatures"
		grep -q 'UNEXPECTED$' "$k.row" && unexpected=$((unexpected + 1))
		return 0
	fi
	[ -z "$only" ] || [ "$only" = "$rows" ] || return 0
	FAIRTEST_FAULTS=$spec FIU_PRNG_SEED=$seed "$bin" --seed "$seed" --timeout "$timeout" "$@" \
		>"$k.ktap" 2>"$k.err"
	rc=$?
	[ "$rc" -eq 2 ] && { cat "$k.err" >&2; exit 2; }
	awk -v name="$name" -v mode="$mode" -v rc="$rc" -v findings="$findings" '
	BEGIN {
		while ((getline line < findings) > 0) {
			if (line ~ /^#/ || line !~ /\t/) continue
			split(line, f, "\t")
			known[f[1] "\t" f[2]] = 1
			known["all\t" f[2]] = 1	# the row of all points: any finding
		}
	}
	/^    (not )?ok [0-9]+ / {
		cases++
		if (/# SKIP/) skip++
		else if (/^    not ok/) fail++
		else pass++
		if (/# (ERROR|TIMEOUT)/) crash++
	}
	/failure point .* fired [0-9]+ times/ {
		n = $0; sub(/.* fired /, "", n); sub(/ times.*/, "", n); fired += n
	}
	/WARN at / {
		warn++; s = $0; sub(/.*WARN at /, "", s); sub(/:[^:0-9].*$/, "", s)
		sig["WARN at " s]++
	}
	/(lock taken twice|lock released unheld|without rq lock|rq lock order|rq lock held at operation end|affinity violated) at / {
		s = $0; sub(/^ *(# [^:]*: )?/, "", s); sub(/ at .*/, "", s)
		sig["shim rule broken: " s]++	# the driver broke core.c protocol
	}
	/invariant broken/ {
		inv++; s = $0; sub(/.*invariant broken: /, "", s); sub(/ after .*/, "", s)
		sig["invariant broken: " s]++
	}
	END {
		verdict = "ok"
		if (rc > 2) { crash++; verdict = "UNEXPECTED" }
		if (crash) verdict = "UNEXPECTED"
		if (mode == "-" && fail) verdict = "UNEXPECTED"
		for (s in sig) {
			if ((name "\t" s) in known) { if (verdict == "ok") verdict = "finding" }
			else verdict = "UNEXPECTED"
			printf "%s\t%s\t%s\t%d\n", name, mode, s, sig[s] > "/dev/stderr"
		}
		printf "%-36s %-6s %5d %6d %5d %5d %5d %5d %5d %5d  %s\n", name, mode,
		       cases, fired, pass, fail, skip, warn, inv, crash, verdict
	}' "$k.ktap" 2>"$k.sig" | tee "$k.row"
	cat "$k.sig" >>"$out/signatures"
	[ -z "$save" ] || cat "$k.row" "$k.sig" >"$save/$rows"
	grep -q 'UNEXPECTED$' "$k.row" && unexpected=$((unexpected + 1))
	return 0
}

# The fault suites enable points of their own: under the matrix they
# would count two sources of failures at once, so they run only by name.
scope="cases: $*"
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046
	set -- $("$bin" --list | grep -v '^fair_faults\|^fairtest_harness_faults')
	scope="all cases but fair_faults* and fairtest_harness_faults"
fi
if [ "$only" = count ]; then
	echo $(($(echo "$points" | wc -w) * 2 + 2))
	exit 0
fi
echo "fairtest fault matrix: FIU_PRNG_SEED=$seed, P=$p, $(echo "$points" | wc -w) points, $scope"
printf '%-36s %-6s %5s %6s %5s %5s %5s %5s %5s %5s  %s\n' point mode cases fired pass fail skip WARN invar crash verdict
run none - "" "$@"
for pt in $points; do
	run "$pt" once "$pt=once" "$@"
	run "$pt" "p=$p" "$pt=$p" "$@"
done
all=$(echo "$points" | sed "s/\([^ ]*\)/\1=$p/g; s/ /,/g")
run all "p=$p" "$all" "$@"

if [ -s "$out/signatures" ]; then
	echo
	echo "WARNs and invariant breaks (point, mode, where, times):"
	sort "$out/signatures" | while IFS='	' read -r name mode s n; do
		if grep -qF "$(printf '%s\t%s' "$name" "$s")" "$findings" 2>/dev/null ||
		   { [ "$name" = all ] && grep -qF "$(printf '\t%s' "$s")" "$findings" 2>/dev/null; }; then
			tag="finding (tests/fault/findings)"
		else
			tag=UNEXPECTED
		fi
		echo "  $name $mode: $s x$n: $tag"
	done
fi
echo "fault: $rows runs, $unexpected unexpected"
[ "$unexpected" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make mutate`: proof that the suites catch real scheduler bugs. Each
# mutant of fixtures/mutants/*.mutants is applied alone to a scratch copy
# of the tree's fair.c (or of the other file it names, autogroup.c); a
# copy of the base build recompiles only the object that includes it
# against it (FAIR_C_DIR) and runs every suite. Prints a table:
# mutant, verdict, the cases that caught it; n/a for a mutant that needs an
# option the profile leaves off or whose lines are not in this fair.c once.
# Exits non-zero if the base tree fails, a mutant is invalid (does not
# compile, names an option the tree's Kconfig does not define, or could not
# be applied for any other reason), or fewer than 90% are caught.
#
# make campaign KIND=mutate runs the mutants apart: MUTATE_ONLY=list prints
# the names; MUTATE_ONLY=base prints the unmutated tree's exit status,
# MUTATE_ONLY=name that mutant's row alone; MUTATE_FROM=dir prints the
# table of those outputs saved as dir/base and dir/<name>.
# MUTATE_RUNNER=cmd runs each mutant's fairtest as \`cmd fairtest args\`
# (tests/checker/modes.sh runs it under both checker modes).
#
# MUTATE_JOBS=n (default: every CPU) runs n mutants at once, one's
# compile beside another's suites, as the shards above in one directory,
# then prints their table: the same bytes as MUTATE_JOBS=1.
#
# usage: [MUTANTS='glob...'] mutate.sh OBJ KSRC PROFILE [fairtest args...]
set -u
obj=$1 ksrc=$2 profile=$3
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
work=$obj/mutants
apply=$top/sched_fair/mutant_apply.py
only=${MUTATE_ONLY:-} from=${MUTATE_FROM:-}
jobs=${MUTATE_JOBS:-$(nproc)}

if [ -z "$only$from" ] && [ "$jobs" -gt 1 ]; then
	rows=$obj/mutate-rows
	rm -rf "$rows" "$work" && mkdir -p "$rows" || exit 1
	MUTATE_ONLY=base "$0" "$obj" "$ksrc" "$profile" "$@" >"$rows/base" &&
		names=$(MUTATE_ONLY=list "$0" "$obj" "$ksrc" "$profile") || exit 1
	# The unmutated tree failing: the table's step below says so.
	[ "$(cat "$rows/base")" != 0 ] ||
	printf '%s\n' $names | xargs -P "$jobs" -I{} sh -c \
		'out=$1/$2; shift 2; MUTATE_ONLY=${out##*/} "$@" >"$out"' _ "$rows" {} \
		"$0" "$obj" "$ksrc" "$profile" "$@" ||
		{ echo "fairtest: a mutant's run died (its row in $rows is short); rerun with MUTATE_JOBS=1 to see which" >&2; exit 1; }
	MUTATE_FROM=$rows exec "$0" "$obj" "$ksrc" "$profile"
fi

base=0
if [ -n "$from" ]; then
	base=$(cat "$from/base" 2>/dev/null)
elif [ -z "$only" ] || [ "$only" = base ]; then
	"$obj/fairtest" "$@" >"$obj/mutate-base.ktap" 2>&1
	base=$?
	[ -z "$only" ] || { echo "$base"; exit 0; }
fi
[ "$base" = 0 ] || {
	echo "fairtest: the suites fail on the unmutated tree (see $obj/mutate-base.ktap); fix that first" >&2
	exit 1
}
[ -n "$only$from" ] || rm -rf "$work"
mkdir -p "$work"
names=$(python3 "$apply" --list "$top"/fixtures/mutants/*.mutants) || exit 1
if [ -n "${MUTANTS:-}" ]; then
	picked=
	set -f	# the globs match mutant names, not files
	for name in $names; do
		for g in $MUTANTS; do
			case $name in $g) picked="$picked $name"; break ;; esac
		done
	done
	set +f
	[ -n "$picked" ] || { echo "fairtest: MUTANTS='$MUTANTS' matches no mutant of fixtures/mutants" >&2; exit 1; }
	names=$picked
fi
if [ "$only" = list ]; then
	echo "$names"
	exit 0
fi

# The tree's Kconfig symbols: a mutant's needs: must name one of them.
symbols=$work/symbols${only:+.$only}	# a campaign's shards run side by side
[ -n "$from" ] || find "$ksrc" -name 'Kconfig*' -not -path '*/Documentation/*' -exec \
	sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config \([A-Z0-9_]*\)[[:space:]]*$/\2/p' {} + | sort -u >"$symbols"

caught=0 applicable=0 broken=0
[ -n "$only" ] || printf '%-32s %-9s %s\n' MUTANT VERDICT 'CAUGHT BY'
for name in $names; do
	[ -z "$only" ] || [ "$only" = "$name" ] || continue
	if [ -n "$from" ]; then	# a campaign's shard tested it
		[ -f "$from/$name" ] || { echo "fairtest: no result for mutant $name in $from; rerun the campaign" >&2; exit 1; }
		cat "$from/$name"
		case $(awk '{ print $2; exit }' "$from/$name") in
		n/a) ;;
		invalid) applicable=$((applicable + 1)) broken=$((broken + 1)) ;;
		caught) applicable=$((applicable + 1)) caught=$((caught + 1)) ;;
		*) applicable=$((applicable + 1)) ;;
		esac
		continue
	fi
	dir=$work/$name
	rm -rf "$dir"
	mkdir -p "$dir/src"
	# fair.c, or another file of the tree compiled unmodified by a unit
	# of ours (shim/X_unit.c includes kernel/sched/X.c): the copy in
	# src/ is found first, and fair.c is always there, mutated or not.
	file=$(python3 "$apply" --file "$name" "$top"/fixtures/mutants/*.mutants) || exit 1
	unit=fair_bridge
	if [ "$file" != fair.c ]; then
		unit=${file%.c}_unit
		cp "$ksrc/kernel/sched/fair.c" "$dir/src/fair.c"
	fi
	if [ ! -f "$top/shim/$unit.c" ]; then
		applicable=$((applicable + 1)) broken=$((broken + 1))
		printf '%-32s %-9s %s\n' "$name" invalid "file: $file is not compiled as it is (no shim/$unit.c)"
		continue
	fi
	FT_AUTOCONF=$obj/kbuild/include/generated/autoconf.h FT_SYMBOLS=$symbols \
		python3 "$apply" "$name" "$ksrc/kernel/sched/$file" "$dir/src/$file" \
		"$top"/fixtures/mutants/*.mutants 2>"$dir/apply.err"
	rc=$?
	why=$(sed -n '1s/^fairtest: //p' "$dir/apply.err")
	case $rc in
	0) ;;
	3|4)	# needs an option that is off; its lines are not there once
		printf '%-32s %-9s %s\n' "$name" n/a "$why"
		continue ;;
	*)	# a wrong entry or an unreadable input: counted as broken
		applicable=$((applicable + 1))
		printf '%-32s %-9s %s\n' "$name" invalid "${why:-mutant_apply.py exited $rc: $dir/apply.err}"
		broken=$((broken + 1))
		continue ;;
	esac
	applicable=$((applicable + 1))
	# A private copy of the base build: only the bridge is rebuilt.
	mkdir -p "$dir/obj"
	cp -a "$obj/k" "$obj/u" "$obj/gen" "$obj/kflags" "$dir/obj/"
	ln -s "$obj/kbuild" "$dir/obj/kbuild"
	rm -f "$dir/obj/k/fair_bridge.o" "$dir/obj/k/fair_bridge.o.d" "$dir/obj/k/$unit.o"
	if ! make -s --no-print-directory -f "$top/sched_fair/build.mk" KSRC="$ksrc" \
	     OBJ="$dir/obj" PROFILE="$profile" FAIR_C_DIR="$dir/src" all >"$dir/build.log" 2>&1; then
		printf '%-32s %-9s %s\n' "$name" invalid "does not compile: $dir/build.log"
		broken=$((broken + 1))
		continue
	fi
	${MUTATE_RUNNER:-} "$dir/obj/fairtest" "$@" >"$dir/ktap" 2>&1
	rc=$?
	# suite.case of every failing case: "not ok" lines inside a subtest.
	failed=$(awk '/^    # Subtest: / { s = $3 } /^    not ok / { print s "." $4 }' "$dir/ktap")
	if [ -z "$failed" ] && [ "$rc" -ne 0 ]; then
		# The runner itself died or refused: caught, but by no case.
		caught=$((caught + 1))
		printf '%-32s %-9s %s
' "$name" caught "the runner exited $rc: $dir/ktap"
	elif [ -n "$failed" ]; then
		caught=$((caught + 1))
		n=$(echo "$failed" | wc -l)
		first=$(echo "$failed" | head -n 2 | paste -sd, -)
		[ "$n" -gt 2 ] && first="$first (+$((n - 2)) more)"
		printf '%-32s %-9s %s\n' "$name" caught "$first"
	else
		printf '%-32s %-9s %s\n' "$name" SURVIVED "no case failed"
	fi
	rm -rf "$dir/obj/k" "$dir/obj/u"	# keep the logs, not the objects
done

[ -z "$only" ] || exit 0	# the row is the shard's result
tested=$((applicable - broken))	# a mutant that does not compile tests nothing
[ "$tested" -gt 0 ] || { echo "fairtest: no mutant applies to $ksrc and compiles" >&2; exit 1; }
pct=$((100 * caught / tested))
inv=
[ "$broken" -eq 0 ] || inv=", $broken invalid (see above)"
echo "mutate: $caught of $tested mutants caught ($pct%), $((tested - caught)) survived$inv"
[ "$broken" -eq 0 ] && [ "$pct" -ge 90 ]

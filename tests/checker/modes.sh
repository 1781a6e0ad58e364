#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The incremental invariant checker finds what the full one finds
# (FAIRTEST_CHECKER=full, docs/sim-shortcuts.md): every suite, and property
# sequences beyond the suites' own, print the same KTAP under both on the
# unmutated tree, and fairsim on 8 and 16 CPUs the same output; each
# mutant of the checker's own rules (lag clamp, eligibility, V sums,
# augmented minima, counts) applied to fair.c makes every suite print the
# same KTAP under both, and is caught; the full checker's audit of the
# incremental one's premises (a fault of its own) never fires, and fails a
# suite once a mutant of the shim breaks a premise
# (fixtures/mutants/checker-audit); a bad FAIRTEST_CHECKER is refused.
# Prints one line per check and a tally (a mutant the tree lacks the lines
# of is skipped).
#
# usage: modes.sh OBJ KSRC PROFILE   (OBJ relative or absolute)
set -u
[ $# -eq 3 ] || { echo "usage: tests/checker/modes.sh OBJ KSRC PROFILE" >&2; exit 2; }
# OBJ as given, relative to here or absolute; the mutant builds link into
# it from other directories, so it is made absolute once.
obj=$(cd "$1" 2>/dev/null && pwd) && [ -x "$obj/fairtest" ] ||
	{ echo "fairtest: modes.sh: OBJ=$1 is no build dir with a fairtest binary; give the build dir of a tree, O/<tree>-<hash> (make check makes it)" >&2; exit 2; }
ksrc=$2 profile=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$obj/checker-modes
skipped=0
rm -rf "$out"
mkdir -p "$out"

. "$top/tests/result.sh"

# The checker's own rules: each mutant breaks one (n/a where the tree
# lacks its lines; 7.x's twins are the x- ones).
mutants='eligibility-strict lag-clamp-widened lag-sign-flipped augment-left-not-propagated
avg-load-not-subtracted avg-vruntime-truncates delayed-count-not-raised min-slice-right-dropped
min-slice-no-child reweight-queued-keeps-vlag x-eligibility-strict x-lag-clamp-widened
x-max-slice-not-propagated x-avg-vruntime-truncates x-reweight-queued-keeps-vlag'

# 1. The unmutated tree: all suites, then 2000 more property sequences.
for run in suites property; do
	set --
	[ "$run" = property ] && set -- --seed 5000 'fair_property.*'
	for mode in full incremental; do
		FAIRTEST_SEQUENCES=$([ "$run" = property ] && echo 1000) \
			FAIRTEST_CHECKER=$mode "$obj/fairtest" "$@" >"$out/$run.$mode" 2>&1
		echo $? >>"$out/$run.$mode"
	done
	if cmp -s "$out/$run.full" "$out/$run.incremental" && grep -q '^fairtest: .* 0 failed' "$out/$run.full"; then
		result ok "unmutated, $run: the same KTAP under both checkers ($(sed -n 's/^fairtest: //p' "$out/$run.full"))"
	else
		diff "$out/$run.full" "$out/$run.incremental" | head -n 10
		result fail "unmutated, $run: the checkers differ or a case failed (see $out/$run.*)"
	fi
done

# 1b. fairsim on many CPUs, where load balancing moves tasks between two
# locked runqueues most often: the same tables and JSON under both
# checkers, with the run's migrations counted. Cost: about 2.5 s of the
# two modes on a 2-core VM.
for run in two-pkg-16:cyclictest-hackbench cls-mc-16:schbench smt-mc-8:schbench; do
	topo=${run%%:*} wl=${run#*:}
	for mode in full incremental; do
		FAIRTEST_CHECKER=$mode "$obj/fairsim" --topology "$topo" --duration 1 \
			--json "$out/sim.$topo.$wl.$mode.json" "$top/fixtures/workloads/$wl.json" \
			>"$out/sim.$topo.$wl.$mode" 2>&1
		echo $? >>"$out/sim.$topo.$wl.$mode"
	done
	migrations=$(python3 -c 'import json, sys
def count(o):
	if isinstance(o, dict):
		return sum(v if k == "migrations" and isinstance(v, int) else count(v) for k, v in o.items())
	return sum(count(x) for x in o) if isinstance(o, list) else 0
print(count(json.load(open(sys.argv[1]))))' "$out/sim.$topo.$wl.full.json" 2>/dev/null)
	if [ "$(tail -n 1 "$out/sim.$topo.$wl.full")" = 0 ] && cmp -s "$out/sim.$topo.$wl.full" "$out/sim.$topo.$wl.incremental" &&
	   cmp -s "$out/sim.$topo.$wl.full.json" "$out/sim.$topo.$wl.incremental.json"; then
		result ok "fairsim $wl on $topo, 1 s: the same output under both checkers ($migrations migrations)"
	else
		diff "$out/sim.$topo.$wl.full" "$out/sim.$topo.$wl.incremental" | head -n 10
		result fail "fairsim $wl on $topo: the checkers differ or fairsim failed (see $out/sim.$topo.$wl.*)"
	fi
done

# 2. Each mutant, every suite under both checkers (tests/checker/both.sh).
: >"$out/diffs"
MUTANTS=$(echo $mutants) MUTATE_RUNNER=$top/tests/checker/both.sh CHECKER_MODES_DIFFS=$out/diffs \
	"$top/sched_fair/mutate.sh" "$obj" "$ksrc" "$profile" --timeout 30 >"$out/mutate" 2>&1
while read -r name verdict by; do
	case $verdict in
	caught)
		if grep -q "^$name:" "$out/diffs"; then
			grep -A6 "^$name:" "$out/diffs"
			result fail "$name: the checkers print different KTAP"
		else
			result ok "$name: caught, the same KTAP under both checkers ($by)"
		fi ;;
	n/a)
		skipped=$((skipped + 1))
		echo "ok - $name: n/a on this tree # SKIP $by" ;;
	*) result fail "$name: $verdict $by" ;;
	esac
done <<EOT
$(sed -n '/^MUTANT /,/^mutate: /{ /^MUTANT /d; /^mutate: /d; p; }' "$out/mutate")
EOT
grep -q '^mutate: ' "$out/mutate" || { cat "$out/mutate"; result fail "mutate.sh did not finish"; }

# 3. The audit's own mutants (fixtures/mutants/checker-audit): each breaks a
# premise of the incremental checker in a patched copy of shim/
# (sched_fair/mutant_build.sh). The
# incremental mode alone passes audit_suites (the mutant is invisible to it);
# under the full checker the audit's fault fails them. Cost, a mutant: a
# copy of the base build, the patched unit's compile and a link (about 2 s
# on a 2-core VM), and two runs of audit_suites (hundredths of a second).
audit_suites='fair_affinity.* fair_avg_vruntime.*'
# A "Needs: FT_X" line: the premise exists only on trees whose probes
# define FT_X (sched_fair/probe.sh), elsewhere the mutant is skipped. A
# "Suites: GLOB..." line runs those suites instead, for a premise that
# audit_suites do not reach on every tree (hrtimers: HRTICK is off by
# default on 6.12).
for patch in "$top"/fixtures/mutants/checker-audit/*.patch; do
	name=checker-audit/$(basename "$patch" .patch)
	dir=$out/$name
	need=$(sed -n 's/^Needs: \(FT_[A-Z0-9_]*\).*/\1/p' "$patch")
	if [ -n "$need" ] && ! grep -qs "^#define $need\b" "$obj"/gen/probes*.h; then
		skipped=$((skipped + 1))
		echo "ok - $name # SKIP this tree's probes define no $need"
		continue
	fi
	if ! why=$("$top/sched_fair/mutant_build.sh" "$obj" "$ksrc" "$profile" "$patch" "$dir"); then
		result fail "$name: $why"
		continue
	fi
	suites=$(sed -n 's/^Suites: \([^(]*\).*/\1/p' "$patch")
	suites=${suites:-$audit_suites}
	for mode in incremental full; do
		# shellcheck disable=SC2086 # a list of fairtest's globs, not the shell's
		(set -f; FAIRTEST_CHECKER=$mode "$dir/obj/fairtest" $suites >"$dir/$mode" 2>&1)
	done
	inc=$(sed -n 's/^fairtest: //p' "$dir/incremental") full=$(sed -n 's/^fairtest: //p' "$dir/full")
	if ! grep -q '^fairtest: .* 0 failed' "$dir/incremental" || grep -q 'incremental checker: ' "$dir/incremental"; then
		result fail "$name: the incremental checker alone fails $suites ($inc; see $dir/incremental)"
	elif grep -q '^fairtest: .* 0 failed' "$dir/full" || ! grep -q 'incremental checker: ' "$dir/full"; then
		result fail "$name: survives the full checker's audit ($full; see $dir/full)"
	else
		result ok "$name: caught by the full checker's audit only ($full; incremental: $inc)"
	fi
done

# 4. Bad input: one line naming the variable, exit 2, nothing run.
FAIRTEST_CHECKER=sometimes "$obj/fairtest" 'fair_property.*' >"$out/bad" 2>&1
rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <"$out/bad")" = 1 ] && grep -q 'FAIRTEST_CHECKER=sometimes' "$out/bad"; then
	result ok "FAIRTEST_CHECKER=sometimes is refused: $(cat "$out/bad")"
else
	result fail "FAIRTEST_CHECKER=sometimes: exit $rc, $(head -n 3 "$out/bad")"
fi

echo "checker: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

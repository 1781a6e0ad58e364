#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make gate`: before a series is posted, what each patch does. Every step
# is a copy of the step before (hard links; only the files the patch
# touches are copied for real, so the base tree is never written) plus the
# patch; it must apply, build, and keep the suites green. For each step:
# the first rejected hunk or compiler error, test counts, tests newly
# failing against the step before (by name), kernel WARNs, invariant
# checker hits, and coverage of the lines the patch changed. Ends with a
# table, a KTAP file for machines, and exit 0 only if every step passed.
#
# All steps build in one build dir seen through one path ($root/cur, a
# symlink moved from step to step), so a step recompiles only what its
# patch touched, and coverage data keeps one place. The build dir starts
# each run from a snapshot of the base build, and step results are
# removed before a run starts: nothing of an earlier run is taken as fresh.
#
# usage: gate.sh SERIES KSRC BASE_OBJ PROFILE_FILE COVERAGE [runner args]
set -u
series=$1 ksrc=$2 base_obj=$3 profile=$4 cov=$5
shift 5
sf=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$sf")
root=$(dirname "$base_obj")/gate/$(basename "$base_obj")$([ "$cov" = 1 ] && echo -cov)
cur=$root/cur obj=$root/obj steps=$root/steps
# -u: pull in __gcov_dump, which the runner calls before a case's _exit().
vflags=$([ "$cov" = 1 ] && echo --coverage -Wl,-u,__gcov_dump)
# gcov maps counts to lines through the debug line info: full -g for fair.c.
fair_g=$([ "$cov" = 1 ] && echo -g || echo -g1)

die() { echo "fairtest: gate: $*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

mkdir -p "$root" || die "cannot create $root"
exec 9>"$root/lock"
flock -n 9 || { echo "fairtest: gate: waiting for another gate run on this tree ($root)" >&2; flock 9; }
if [ "$cov" = 1 ]; then
	"$sf/deps.sh" patch lcov || exit 1
else
	"$sf/deps.sh" patch || exit 1
fi

# Nothing of an earlier run may be read as this run's result.
rm -rf "$steps" "$root/series" "$root/gate.ktap" "$root/table.txt"
mkdir -p "$steps"
python3 "$sf/series.py" "$series" "$ksrc" "$root/series" >"$root/series.list" || exit 1
nsteps=$(wc -l <"$root/series.list")
# A cached tree holds only what the build reads; the series may touch more.
# shellcheck disable=SC2046 # one path per word
"$sf/tree.sh" --complete "$ksrc" $(cut -f3- "$root/series.list" | tr '\t' '\n' | sort -u) || exit 1

# ---- the base, built with the gate's flags at the fixed path ----
ln -sfn "$ksrc" "$cur"
if [ -d "$root/obj.base" ]; then
	rm -rf "$obj" && cp -a "$root/obj.base" "$obj"
fi
"$sf/share_prep.sh" "$base_obj" "$ksrc" "$obj" "$cur" || exit 1
kmake() {
	make --no-print-directory -j"$(nproc)" -f "$sf/build.mk" KSRC="$cur" OBJ="$obj" PROFILE="$profile" \
		VARIANT_CFLAGS="$vflags" FAIR_G="$fair_g" all
}
t0=$(now)
kmake >"$root/base.build.log" 2>&1 ||
	die "the base tree $ksrc does not build with the gate's flags: $(grep -m1 'first error' "$root/base.build.log" || tail -n 1 "$root/base.build.log")"
rm -rf "$root/obj.base.tmp" && cp -a "$obj" "$root/obj.base.tmp" &&
	rm -rf "$root/obj.base" && mv "$root/obj.base.tmp" "$root/obj.base"
"$sf/prep_inputs.sh" "$ksrc" "$base_obj/kbuild" >"$root/prep_inputs"
echo "gate: base $ksrc built in $(secs "$t0" "$(now)") s; $nsteps step(s)"

# results KTAP > "suite.case status" lines
results() {
	awk '/^    # Subtest: / { suite = $3; next }
	     /^        / { next }
	     /^    (not )?ok [0-9]+ / {
		st = ($1 == "not") ? "fail" : "pass"; i = ($1 == "not") ? 4 : 3
		name = $i; if ($0 ~ / # SKIP/) st = "skip"
		print suite "." name, st }' "$1"
}

run_tests() {	# dir: runs the suites, writes check.ktap and results
	find "$obj" -name '*.gcda' -delete
	"$obj/fairtest" "$@" >"$d/check.ktap" 2>"$d/check.stderr"
	results "$d/check.ktap" >"$d/results"
}

d=$root/base
mkdir -p "$d"
run_tests "$@"
prev_results=$d/results
echo "gate: base: $(grep -c ' pass$' "$prev_results") passed, $(grep -c ' fail$' "$prev_results") failed, $(grep -c ' skip$' "$prev_results") skipped"

# ---- the steps ----
prev_tree=$ksrc
prep_from=$base_obj prep_ksrc=$ksrc
ok_steps=0
: >"$root/table.rows"
{
	echo "KTAP version 1"
	echo "# fairtest gate: $series on $ksrc"
	echo "1..$nsteps"
} >"$root/gate.ktap.tmp"

step=0
while IFS= read -r row; do
	step=$((step + 1))
	num=${row%%	*}
	rest=${row#*	}
	name=${rest%%	*}
	files=$(echo "$rest" | cut -f2- | tr '\t' ' ')
	d=$steps/$num
	mkdir -p "$d"
	apply=ok build=- pass=- fail=- skip=- newfail=- warns=- inv=- covtxt=- verdict=ok
	diag=()
	ta=$(now)

	# A copy of the previous step; the files the patch writes get their own inode.
	# Across filesystems hard links fail: fall back to a tree of symlinks.
	if ! cp -al "$prev_tree" "$d/tree.tmp" 2>"$d/copy.err"; then
		rm -rf "$d/tree.tmp"
		[ "$step" -gt 1 ] || echo "gate: cannot hard-link $ksrc into $root ($(head -n 1 "$d/copy.err")); using symlinks" >&2
		cp -as "$(cd "$prev_tree" && pwd -P)" "$d/tree.tmp" 2>"$d/copy.err" ||
			{ rm -rf "$d/tree.tmp"; die "step $step ($name): cannot copy $prev_tree: $(head -n 1 "$d/copy.err")"; }
	fi
	for f in $files; do
		if [ -f "$d/tree.tmp/$f" ] || [ -L "$d/tree.tmp/$f" ]; then
			cp "$d/tree.tmp/$f" "$d/tree.tmp/$f.ft-new" && mv -f "$d/tree.tmp/$f.ft-new" "$d/tree.tmp/$f"
		fi
	done
	if ! patch -d "$d/tree.tmp" -p1 -N -F0 -s --no-backup-if-mismatch -r "$d/rejects" \
		-i "$root/series/$num.patch" >"$d/apply.log" 2>&1; then
		apply=FAIL verdict=FAIL
		why=$(grep -m1 -E 'FAILED|malformed|garbage|No file to patch|can.t find file|Reversed' "$d/apply.log" ||
			head -n 1 "$d/apply.log")
		why=${why% -- saving rejects*}
		echo "fairtest: gate: step $step ($name) does not apply: $why" >&2
		diag+=("does not apply: $why")
		if [ -s "$d/rejects" ]; then
			echo "  first rejected hunk:" >&2
			awk '/^@@/ { n++ } n == 1' "$d/rejects" | head -n 20 | sed 's/^/  | /' >&2
			awk '/^@@/ { n++ } n == 1' "$d/rejects" | head -n 20 | sed 's/^/rejected: /' >"$d/reject.txt"
		fi
		rm -rf "$d/tree.tmp"
	else
		mv "$d/tree.tmp" "$d/tree"
	fi
	tb=$(now)

	if [ "$apply" = ok ]; then
		# Does this patch touch anything the kbuild preparation reads? (Steps
		# after one that did share that step's preparation.)
		own=
		for f in $files; do
			while IFS= read -r pat; do
				# shellcheck disable=SC2053 # pat is a glob on purpose
				[[ $f == $pat ]] && { own=$f; break 2; }
			done <"$root/prep_inputs"
		done
		ln -sfn "$d/tree" "$cur"
		if [ -n "$own" ]; then
			echo "gate: step $step touches $own, which kbuild preparation reads: preparing this step's tree" >&2
			"$sf/prepare.sh" "$d/tree" "$d/prep" "$profile" >"$d/prep.log" 2>&1 || {
				build=FAIL verdict=FAIL
				diag+=("kbuild preparation failed: $(grep -m1 fairtest: "$d/prep.log")")
			}
			prep_from=$d/prep prep_ksrc=$d/tree
		fi
		if [ "$build" != FAIL ]; then
			"$sf/share_prep.sh" "$prep_from" "$prep_ksrc" "$obj" "$cur" >"$d/build.log" 2>&1
			if kmake >>"$d/build.log" 2>&1; then
				build=ok
			else
				build=FAIL verdict=FAIL
				why=$(sed -n 's/^fairtest: first error: //p' "$d/build.log" | head -n 1)
				[ -n "$why" ] || why=$(grep -m1 -E 'error|Error' "$d/build.log")
				why=${why//$cur\//}
				echo "fairtest: gate: step $step ($name) does not build: ${why//$d\/tree\//}" >&2
				diag+=("does not build: ${why//$d\/tree\//}")
				rm -f "$obj/fairtest"
			fi
		fi
	fi
	tc=$(now)

	if [ "$build" = ok ]; then
		run_tests "$@"
		pass=$(grep -c ' pass$' "$d/results")
		fail=$(grep -c ' fail$' "$d/results")
		skip=$(grep -c ' skip$' "$d/results")
		warns=$(grep -c 'WARN at' "$d/check.ktap")
		inv=$(grep -c 'invariant broken' "$d/check.ktap")
		grep ' fail$' "$d/results" | cut -d' ' -f1 | sort >"$d/failing"
		grep ' fail$' "$prev_results" | cut -d' ' -f1 | sort >"$d/failing.prev"
		comm -23 "$d/failing" "$d/failing.prev" >"$d/newly-failing"
		newfail=$(wc -l <"$d/newly-failing")
		[ "$fail" -eq 0 ] || verdict=FAIL
		[ "$pass" -gt 0 ] || { verdict=FAIL; diag+=("no test passed: $(head -n 1 "$d/check.stderr")"); }
		if [ "$fail" -gt 0 ]; then
			echo "fairtest: gate: step $step ($name): $fail test(s) fail, $newfail newly: $(tr '\n' ' ' <"$d/newly-failing")" >&2
			diag+=("failing: $(tr '\n' ' ' <"$d/failing")")
			diag+=("newly failing: $(tr '\n' ' ' <"$d/newly-failing")")
		fi
		grep -h -m3 -E 'WARN at|invariant broken' "$d/check.ktap" | sed 's/^ *# *//' | while IFS= read -r l; do
			echo "  $l" >&2
		done
		prev_results=$d/results
	fi
	td=$(now)

	if [ "$build" = ok ] && [ "$cov" = 1 ]; then
		if "$top/coverage/step.sh" "$root/series/$num.patch" "$cur" "$obj" "$d" "$files" \
			>"$d/cov.counts" 2>"$d/cov.log" && read -r c u x <"$d/cov.counts"; then
			covtxt="$c/$((c + u + x))"
		else
			covtxt=error
			diag+=("coverage failed: $(tail -n 1 "$d/cov.log")")
		fi
	fi
	te=$(now)
	echo "apply $(secs "$ta" "$tb") build $(secs "$tb" "$tc") test $(secs "$tc" "$td") coverage $(secs "$td" "$te")" >"$d/times"

	[ "$verdict" = ok ] && ok_steps=$((ok_steps + 1))
	printf '%-4s %-46.46s %-5s %-5s %4s %4s %4s %4s %4s %4s %7s  %s\n' "$step" "$name" "$apply" "$build" \
		"$pass" "$fail" "$skip" "$newfail" "$warns" "$inv" "$covtxt" "$verdict" >>"$root/table.rows"
	{
		[ "$verdict" = ok ] && printf 'ok %d %s\n' "$step" "${name//#/}" || printf 'not ok %d %s\n' "$step" "${name//#/}"
		echo "    # apply $apply; build $build; tests $pass passed, $fail failed, $skip skipped; newly failing $newfail; WARN $warns; invariant broken $inv; changed lines covered $covtxt"
		for l in "${diag[@]}"; do echo "    # $l"; done
		[ -f "$d/coverage.txt" ] && sed 's/^/    # coverage: /' "$d/coverage.txt"
	} >>"$root/gate.ktap.tmp"
	if [ "$apply" != ok ] || [ "$build" != ok ]; then
		break
	fi
	prev_tree=$d/tree
done <"$root/series.list"

for ((s = step + 1; s <= nsteps; s++)); do
	name=$(sed -n "${s}p" "$root/series.list" | cut -f2)
	printf '%-4s %-46.46s %-5s\n' "$s" "$name" "not run (an earlier step failed)" >>"$root/table.rows"
	printf 'ok %d %s # SKIP an earlier step did not apply or build\n' "$s" "${name//#/}" >>"$root/gate.ktap.tmp"
done
# What the profile leaves uncompiled of fair.c (as the last step built
# has it): the gate says nothing of those lines.
python3 "$top/coverage/uncompiled.py" "$cur/kernel/sched/fair.c" \
	"$base_obj/kbuild/include/generated/autoconf.h" --summary "$(basename "$profile" .config)" gate: \
	>"$root/uncompiled.txt" 2>&1 || echo "gate: could not count fair.c's uncompiled lines" >"$root/uncompiled.txt"
sed 's/^/# /' "$root/uncompiled.txt" >>"$root/gate.ktap.tmp"
echo "# gate: $ok_steps of $nsteps steps passed" >>"$root/gate.ktap.tmp"
mv "$root/gate.ktap.tmp" "$root/gate.ktap"

{
	printf '%-4s %-46s %-5s %-5s %4s %4s %4s %4s %4s %4s %7s  %s\n' step patch apply build pass fail skip new WARN inv covered verdict
	cat "$root/table.rows"
} >"$root/table.txt"
echo
cat "$root/table.txt"
echo
cat "$root/uncompiled.txt"
[ "$cov" = 1 ] && echo "gate: per-step coverage: $steps/NNNN/coverage.txt, HTML in $steps/NNNN/html/index.html"
echo "gate: KTAP: $root/gate.ktap"
echo "gate: $ok_steps of $nsteps steps passed"
[ "$ok_steps" -eq "$nsteps" ]

# SPDX-License-Identifier: GPL-2.0
#
# The result lines the twin's test scripts share, sourced by them: one
# "ok" / "not ok" line per check, named "<tap_name>: <what>", counted in
# passed / failed for the script's own tally.

passed=0 failed=0
ok() { echo "ok - $tap_name: $1"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $tap_name: $1"; failed=$((failed + 1)); }
# check WHAT EXPR: ok when the shell expression EXPR holds
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
# fresh_out [SUBDIR]: the script's OUTDIR $out emptied, made (with
# SUBDIR in it) and absolute; the script ends if it cannot be made
fresh_out() { rm -rf "$out" && mkdir -p "$out/${1:-}" && out=$(cd "$out" && pwd) || exit 1; }

# mutants GLOB FUNC: each patch fixtures/mutants/twin/GLOB.patch (of
# twin/; its "caught-by:" line names checks by the start of their titles,
# " | " between them) applied to a copy of twin/ in $out/NAME, then
# "FUNC DIR/twin DIR/work" (the script's checks, printing ok / not ok
# lines): the first named check fails, and none but the named ones.
mutants() {
	for patch in "$top"/fixtures/mutants/twin/$1.patch; do
		[ -f "$patch" ] || continue
		name=twin/$(basename "$patch" .patch)
		caught=$(sed -n 's/^caught-by: //p' "$patch")
		dir=$out/$(basename "$patch" .patch)
		rm -rf "$dir"
		mkdir -p "$dir" && cp -a "$top/twin" "$dir/" &&
			(cd "$dir" && patch -s -p1 <"$patch") >"$dir/patch.log" 2>&1 || {
			not_ok "mutant $name: does not apply ($dir/patch.log)"
			continue
		}
		"$2" "$dir/twin" "$dir/work" >"$dir/run.log" 2>&1
		bad=$(grep '^not ok - ' "$dir/run.log")
		first=${caught%% | *}
		others=$(printf '%s\n' "$bad" | grep -v -F "$(printf '%s\n' "$caught" | sed 's/ | /\n/g' |
			sed "s/^/not ok - $tap_name: /")" | grep -c .)
		if [ -z "$caught" ]; then
			not_ok "mutant $name: no 'caught-by: CHECK' line"
		elif ! printf '%s\n' "$bad" | grep -q -F "not ok - $tap_name: $first"; then
			not_ok "mutant $name: not caught by '$first' ($dir/run.log)"
		elif [ "$others" -gt 0 ]; then
			not_ok "mutant $name: caught by $others check(s) besides '$caught' ($dir/run.log)"
		else
			ok "mutant $name: caught by '$caught' only"
		fi
	done
}

# checks_then_mutants LOG GLOB WORK: the script's checks (a function named
# "checks", given twin/ and the work dir WORK, run in a subshell that ends with "checks: N passed, M failed")
# on twin/ itself into LOG, their lines and tally taken up here, then the
# mutants of GLOB against them, then the script's total; false on a failure.
checks_then_mutants() {
	checks "$top/twin" "$3" >"$1" 2>&1
	grep '^\(not \)\{0,1\}ok' "$1"
	passed=$(sed -n 's/^checks: \([0-9]*\) passed.*/\1/p' "$1")
	failed=$(sed -n 's/^checks: .* \([0-9]*\) failed/\1/p' "$1")
	passed=${passed:-0} failed=${failed:-1}
	mutants "$2" checks
	echo "$tap_name: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

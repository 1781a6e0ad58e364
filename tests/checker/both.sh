#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A mutant's fairtest run under both checker modes (MUTATE_RUNNER of
# sched_fair/mutate.sh, for tests/checker/modes.sh): FAIRTEST_CHECKER=full
# first, then the incremental checker, whose output and exit status are
# the run's. Where the two print different KTAP, the mutant's name and the
# first differing lines go to $CHECKER_MODES_DIFFS.
#
# usage: both.sh FAIRTEST [fairtest args...]
set -u
bin=$1
full=$(mktemp) || exit 1
trap 'rm -f "$full" "$full.inc"' EXIT
FAIRTEST_CHECKER=full "$@" >"$full" 2>&1
rc_full=$?
FAIRTEST_CHECKER=incremental "$@" >"$full.inc" 2>&1
rc=$?
cat "$full.inc"
if [ "$rc" != "$rc_full" ] || ! cmp -s "$full" "$full.inc"; then
	name=$(basename "$(dirname "$(dirname "$bin")")")
	# One write: mutate.sh runs mutants side by side (MUTATE_JOBS).
	block=$(echo "$name: full exited $rc_full, incremental $rc"
		diff "$full" "$full.inc" | head -n 6)
	printf '%s\n' "$block" >>"${CHECKER_MODES_DIFFS:-/dev/stderr}"
fi
exit $rc

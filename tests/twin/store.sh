#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The twin's store of real boots (twin/store.sh), without a boot: fake
# boot dirs (a trace naming the writer and the boot, and 100 files more)
# go in as twin/twin.sh puts them. A new key takes a whole set; a second
# run adds its boots after the first run's, which stay as they were; a
# reuse takes the first RUNS (every one with all, none when too few); six
# writers of one key at once leave every boot of each, whole, under its
# own number, and no temp dir; a run that fails half-way leaves no key;
# twin/twin.sh refuses a FAIRTEST_TWIN_REUSE other than 1 or all.
# Then each mutant fixtures/mutants/twin/store-* runs the same checks
# (tests/twin/tap.sh's mutants): the ones it names fail, no other.
#
# usage: tests/twin/store.sh OUTDIR
set -u
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
tap_name=twin-store
. "$top/tests/twin/tap.sh"
fresh_out

# fake SRC WRITER BOOTS: a run's result dir with BOOTS boots of WRITER
fake() {
	mkdir -p "$1" && echo "{ \"writer\": \"$2\" }" >"$1/rtapp.json"
	i=1
	while [ "$i" -le "$3" ]; do
		mkdir "$1/real-$i"
		echo "$2 $i" >"$1/real-$i/trace"
		seq 1 100 | while read -r f; do echo "$2" >"$1/real-$i/f$f"; done
		i=$((i + 1))
	done
}
# traces KEYDIR: each stored boot's trace, in order, ";" between
traces() { for d in $(seq 1 "$(store_count "$1")"); do printf '%s;' "$(cat "$1/real-$d/trace")"; done; }
# whole KEYDIR: every boot's 100 files are its trace's writer's
whole() {
	for d in "$1"/real-*; do
		[ "$(cat "$d"/f* | sort -u)" = "$(cut -d' ' -f1 "$d/trace")" ] &&
			[ "$(ls "$d" | wc -l)" = 101 ] || return 1
	done
}

# checks LIB WORK: the checks on the store.sh in LIB, working in WORK
checks() {
	(
	passed=0 failed=0
	. "$1/store.sh"
	w=$2
	mkdir -p "$w"
	# One run of 2 boots into a new key. Expect the key to hold them as
	# real-1, real-2 with the run's rtapp.json and complete, and "1 2".
	fake "$w/a" a 2
	got=$(store_add "$w/a" "$w/store" k1)
	check "a new key takes the run's boots whole (got '$got')" \
		'[ "$got" = "1 2" ] && [ "$(traces "$w/store/k1")" = "a 1;a 2;" ] && [ -f "$w/store/k1/complete" ] && whole "$w/store/k1"'
	# A second run of 2 boots into that key. Expect them as real-3,
	# real-4 and the first run's two unchanged.
	fake "$w/b" b 2
	got=$(store_add "$w/b" "$w/store" k1)
	check "a second run adds its boots after the first run's (got '$got', stored $(traces "$w/store/k1"))" \
		'[ "$got" = "3 4" ] && [ "$(traces "$w/store/k1")" = "a 1;a 2;b 1;b 2;" ] && whole "$w/store/k1"'
	# Reuse of those 4 boots. Expect the first 2 for RUNS=2, all 4 with
	# all, none for RUNS=5.
	check "a reuse takes the first RUNS, every one with all, none when too few ($(store_reuse "$w/store/k1" 2 1) $(store_reuse "$w/store/k1" 2 all) $(store_reuse "$w/store/k1" 5 1))" \
		'[ "$(store_reuse "$w/store/k1" 2 1) $(store_reuse "$w/store/k1" 2 all) $(store_reuse "$w/store/k1" 5 1)" = "2 4 0" ]'
	# Six writers of 3 boots each into one new key at once. Expect 18
	# boots, each writer's 3 once each, every boot whole, no temp dir.
	for x in c d e f g h; do fake "$w/$x" "$x" 3; done
	for x in c d e f g h; do store_add "$w/$x" "$w/store" k2 >"$w/$x.got" & done
	wait
	n=$(store_count "$w/store/k2")
	distinct=$(traces "$w/store/k2" | tr ';' '\n' | sort -u | grep -c .)
	temps=$(ls -a "$w/store" | grep -c '^\.k')
	check "six writers at once: every boot of each, whole, under its own number ($n boots, $distinct distinct, $temps temp dirs)" \
		'[ "$n" = 18 ] && [ "$distinct" = 18 ] && [ "$temps" = 0 ] && whole "$w/store/k2"'
	# A run whose copy fails half-way (no rtapp.json). Expect a non-zero
	# return, no key, and nothing left once the caller drops store_new.
	fake "$w/i" i 2
	rm "$w/i/rtapp.json"
	store_add "$w/i" "$w/store" k3 >/dev/null 2>&1
	rc=$?
	rm -rf "$store_new"
	check "a run that fails half-way leaves no key (return $rc)" \
		'[ "$rc" -ne 0 ] && [ ! -e "$w/store/k3" ] && [ "$(ls -a "$w/store" | grep -c "^\.k3")" = 0 ]'
	# FAIRTEST_TWIN_REUSE=yes to twin/twin.sh. Expect one line naming it,
	# a non-zero exit, before anything is made (no result dir).
	FAIRTEST_TWIN_REUSE=yes "$1/twin.sh" /bin/false "$w" "$top/fixtures/workloads/sleeper.json" \
		"$w/bad/result" 1 2 1 "" 1 icount:1 >/dev/null 2>"$w/bad.err"
	rc=$?
	check "a bad FAIRTEST_TWIN_REUSE: one line, non-zero, nothing made ($(cat "$w/bad.err"))" \
		'[ "$rc" -ne 0 ] && [ "$(grep -c . "$w/bad.err")" = 1 ] && grep -q "FAIRTEST_TWIN_REUSE=yes: 1 .* or all" "$w/bad.err" && [ ! -e "$w/bad" ]'
	echo "checks: $passed passed, $failed failed"
	)
}

checks_then_mutants "$out/store.log" "store-*" "$out/store"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Speed, measured side by side in one run, per tree (default: 6.12 and
# 7.3), against the kernel's own routes run here too, never recorded
# figures:
#  - cold from tarball: fairtest's unpack (tree.sh: the part a build
#    reads, 7zz or xz -T0) + make check, to KTAP totals;
#  - edit fair.c -> KTAP totals, against its floor: gcc compiling fair.c
#    alone with kbuild's own command for the tree (objtool left out), the
#    two alternated RUNS times, medians and their ratio (goal: <= 1.1x);
#  - the KUnit route: kunit.py run on UML ('example*' from a minimal
#    kunitconfig, its own build dir), cold and after touching fair.c
#    (KUNIT=0 leaves it out: a cold UML build takes minutes);
#  - the simulation rate, 8 CPU-bound tasks on 4 CPUs (default tree).
# Trees are never written: each run works on a hard-linked copy whose
# fair.c alone is a private file.
#
# usage: bench/speed.sh [--markdown] [KVER...]   (env: RUNS=5, KUNIT=1, PROFILE=debian; ~2 GB in /tmp)
#        --markdown: the tables in markdown, with a line naming the machine
#        and the date, as docs/speed.md shows them
# PROFILE (make's knob) is passed on to every make check: the floor is
# kbuild's command for fair.c under the same profile.
set -eu
md=0
[ "${1:-}" != --markdown ] || { md=1; shift; }
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-5}
kunit=${KUNIT:-1}
cache=${FAIRTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fairtest}
[ $# -gt 0 ] || set -- 6.12 7.3
work=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM	# so that EXIT's cleanup runs when stopped too

now() { date +%s.%N; }
secs() { s=$(now); "$@" >>"$work/log" 2>&1 || { echo "bench: failed: $* (log: $work/log)" >&2; tail -n 5 "$work/log" >&2; exit 1; }; echo "$(now) - $s" | bc; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { printf %.2f "$(echo "scale=4; $1 / $2" | bc)"; }
goal() { awk -v v="$1" -v g="$2" 'BEGIN { print (v <= g) ? "met" : "missed" }'; }
# row TREE STEP FAIRTEST KERNEL'S RATIO: one line of the table
row() {
	if [ "$md" = 1 ]; then
		printf '| %s | %s | %s | %s | %s |\n' "$@"
	else
		printf '%-6s %-44s %10s %10s %8s\n' "$@"
	fi
}

# The tarball stream of linux-source-$1 and its Debian version, fetching
# the package if needed.
tarball() {
	if [ -r "/usr/src/linux-source-$1.tar.xz" ]; then
		echo "$(dpkg-query -W -f='${Version}' "linux-source-$1")	cat /usr/src/linux-source-$1.tar.xz"
		return
	fi
	deb=$(ls "$cache/debs/linux-source-$1_"*_all.deb 2>/dev/null | tail -n 1)
	if [ -z "$deb" ]; then
		KVER=$1 "$top/sched_fair/tree.sh" >/dev/null
		deb=$(ls "$cache/debs/linux-source-$1_"*_all.deb | tail -n 1)
	fi
	echo "$(dpkg-deb -f "$deb" Version)	dpkg-deb --fsys-tarfile $deb | tar -xO ./usr/src/linux-source-$1.tar.xz"
}

if [ "$md" = 1 ]; then
	echo "Measured by \`bench/speed.sh --markdown $*\` (RUNS=$runs KUNIT=$kunit PROFILE=${PROFILE:-debian}) on $(nproc) cores, $(. /etc/os-release && echo "$PRETTY_NAME"), $(date -u +%Y-%m-%d)."
	echo
	row tree step fairtest "kernel's" ratio
	row --- --- --- --- ---
else
	row tree step fairtest "kernel's" ratio
fi
for kver in "$@"; do
	w=$work/$kver
	mkdir -p "$w"
	src=$(tarball "$kver")
	version=${src%%	*} stream=${src#*	}
	# Cold: fairtest's own unpack (the part a build reads) into a cache of
	# its own, then make check on that tree.
	tree=$w/cache/trees/linux-source-$kver-$version
	cold=$(secs sh -c "FAIRTEST_CACHE='$w/cache' '$top/sched_fair/tree.sh' --unpack linux-source-$kver '$version' '$stream' >/dev/null &&
		make -C '$top' check KSRC='$tree' O='$w/build'")
	obj=$(ls -d "$w"/build/linux-source-"$kver"-*)

	# The floor: kbuild's command for fair.o (kbuild builds it once here,
	# fairtest itself only has it preprocess, with the variables prepare.sh
	# gave it), run alone on the same source.
	# shellcheck disable=SC2046 # one variable per word
	make -C "$tree" O="$obj/kbuild" $(cat "$obj/kbuild/.fairtest-kmake") kernel/sched/fair.o >>"$work/log" 2>&1 ||
		{ echo "bench: kbuild could not build fair.o of $tree (log: $work/log)" >&2; exit 1; }
	cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$obj/kbuild/kernel/sched/.fair.o.cmd" | sed 's/;.*//' |
	      sed "s| -o [^ ]*| -o $w/floor.o|")
	ours= floor=
	for i in $(seq "$runs"); do
		touch "$tree/kernel/sched/fair.c"
		ours="$ours $(secs make -C "$top" check KSRC="$tree" O="$w/build")"
		floor="$floor $(secs sh -c "cd '$obj/kbuild' && $cmd")"
	done
	ours=$(echo "$ours" | median) floor=$(echo "$floor" | median)

	[ "$md" = 0 ] || kver=$version	# the table names the exact tree
	row "$kver" "cold from tarball -> KTAP totals" "$(printf %.1fs "$cold")" "" "goal <= 30 s: $(goal "$cold" 30)"
	row "$kver" "edit fair.c -> KTAP totals vs gcc on fair.c" "$(printf %.2fs "$ours")" \
		"$(printf %.2fs "$floor")" "$(ratio "$ours" "$floor")x (goal <= 1.1x: $(goal "$(ratio "$ours" "$floor")" 1.1))"

	if [ "$kunit" = 1 ]; then
		printf 'CONFIG_KUNIT=y\nCONFIG_KUNIT_EXAMPLE_TEST=y\n' >"$w/kunitconfig"
		# kunit.py builds the tree it lives in, all of it (untimed here), in
		# a copy of its own, with fair.c a private file so touching it
		# leaves the cache alone.
		"$top/sched_fair/tree.sh" --complete "$tree" >>"$work/log" 2>&1
		cp -al "$tree" "$w/uml-tree" && rm "$w/uml-tree/kernel/sched/fair.c" &&
			cp "$tree/kernel/sched/fair.c" "$w/uml-tree/kernel/sched/fair.c"
		k="python3 $w/uml-tree/tools/testing/kunit/kunit.py run --build_dir=$w/uml --kunitconfig=$w/kunitconfig --jobs=$(nproc) example*"
		kcold=$(secs sh -c "cd '$w/uml-tree' && $k")
		touch "$w/uml-tree/kernel/sched/fair.c"
		ktouch=$(secs sh -c "cd '$w/uml-tree' && $k")
		row "$kver" "cold: ours (tarball) vs KUnit UML (unpacked)" "$(printf %.1fs "$cold")" \
			"$(printf %.1fs "$kcold")" "$(ratio "$kcold" "$cold")x"
		row "$kver" "touch fair.c: ours vs KUnit on UML" "$(printf %.2fs "$ours")" \
			"$(printf %.2fs "$ktouch")" "$(ratio "$ktouch" "$ours")x"
	fi
done

# Simulated seconds per wall second, on the first tree's build.
obj=$(ls -d "$work/$1"/build/linux-source-"$1"-*)
cur=current_task
nm "$obj/fairtest" | grep -q ' pcpu_hot$' && cur=pcpu_hot
cc -O2 -I"$top/shim" -c "$top/bench/sim_rate.c" -o "$work/sim_rate.o"
# shellcheck disable=SC2046 # one object per word
# The rbtree's rebalancing goes through shim/driver/rbwatch.c, as build.mk links it.
cc -no-pie -Wl,-T,"$top/shim/percpu.lds" -Wl,--defsym=const_$cur=$cur \
	-Wl,--wrap=__rb_insert_augmented,--wrap=__rb_erase_color \
	"$work/sim_rate.o" $(find "$obj/k" -name "*.o") "$obj"/u/shim/*.o "$obj"/u/gen/seam_stubs.o \
	"$obj"/u/gen/topologies.o -lfiu \
	-o "$work/sim_rate"
if [ "$md" = 1 ]; then
	printf '\n| simulated seconds per wall second, checker on | rate |\n| --- | --- |\n'
	"$work/sim_rate" 20 | sed 's/^ *\(.*[^ ]\)  *\([0-9.]*\)$/| \1 | \2 |/'
else
	"$work/sim_rate" 20
fi

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Prepare one kernel tree for fairtest, out of tree, into OBJ/kbuild:
# configure it with a profile, run kbuild's prepare (generated headers),
# preprocess kernel/sched/fair.c once so kbuild writes down its exact
# command line, and derive from it OBJ/kflags (see kflags.sh). Also extract the
# nice-level weight tables from the tree's core.c into OBJ/gen.
# The tree is only read. On any failure the kbuild dir is removed, so the
# next run starts clean instead of trusting a half-prepared tree.
#
# usage: prepare.sh KSRC OBJ PROFILE_FILE
set -eu
ksrc=$1 obj=$2 profile=$3
here=$(cd "$(dirname "$0")" && pwd)
kb=$obj/kbuild
log=$obj/kbuild.log
jobs=$(nproc 2>/dev/null || echo 2)

fail() {
	echo "fairtest: $*" >&2
	rm -rf "$kb" "$obj/kflags" "$obj/gen/prio_tables.c"
	exit 1
}
# x86_64 always selects OBJTOOL; kbuild would build objtool in prepare
# (a third of a cold start) to check objects we never link. Unset on the
# command line, it changes only what make runs: autoconf.h, and so the C,
# keeps CONFIG_OBJTOOL, and the compile flags are the same.
# The host programs kbuild builds on the way (fixdep, kconfig's conf,
# relocs, modpost, sorttable) are compiled without optimisation: they run
# for moments, and their 26 compiles took 6.5 CPU-s at -O2 against 3.3 at
# -O0 on a 2-core VM, of kbuild's 21-24 for configure and prepare
# (HOSTCFLAGS comes last on their command lines, after kbuild's -O2).
# No Rust toolchain, whatever the host has: the configuration of the tree
# under test would otherwise depend on it (CONFIG_RUSTC_VERSION and the
# rustc feature probes), and configure and prepare ask rustc eight
# times (0.1-0.2 s each here) for a language our profiles never enable.
# Whoever runs kbuild in $kb later (bench/speed.sh) passes the same, read
# from $kb/.fairtest-kmake: other values would make kbuild reconfigure.
kmake_args="ARCH=x86_64 CONFIG_OBJTOOL= HOSTCFLAGS=-O0 RUSTC=/bin/false HOSTRUSTC=/bin/false BINDGEN=/bin/false"
kmake() {
	# shellcheck disable=SC2086 # one variable per word
	make -C "$ksrc" O="$kb" -j"$jobs" $kmake_args "$@" >>"$log" 2>&1
}
first_error() {
	grep -m1 -E 'error:|Error [0-9]|\*\*\*' "$log" || tail -n 1 "$log"
}

[ "$(uname -m)" = x86_64 ] || fail "this machine is $(uname -m); fairtest builds fair.c for x86_64 only"
mkdir -p "$kb" "$obj/gen"
: >"$log"
echo "$kmake_args" >"$kb/.fairtest-kmake"

# A profile may start from another: "#include NAME.config" (one level).
awk -v dir="$(dirname "$profile")" '/^#include [A-Za-z0-9_.-]+\.config$/ {
	f = dir "/" $2
	while ((getline line < f) > 0) print line
	close(f)
	next
} { print }' "$profile" >"$kb/profile.expanded"

# tinyconfig's fragments, then ours last so our choices win.
cat "$ksrc/kernel/configs/tiny-base.config" "$ksrc/kernel/configs/tiny.config" \
	"$ksrc/arch/x86/configs/tiny.config" "$kb/profile.expanded" >"$kb/fairtest.allconfig" 2>/dev/null ||
	cat "$kb/profile.expanded" >"$kb/fairtest.allconfig"
name=$(basename "$profile" .config)
echo "fairtest: configuring $ksrc ($name profile) in $kb" >&2
KCONFIG_WARN_UNKNOWN_SYMBOLS=1 kmake KCONFIG_ALLCONFIG="$kb/fairtest.allconfig" allnoconfig ||
	fail "kbuild could not configure $ksrc: $(first_error) (full log: $log)"
# A profile names options of every supported tree. One that this tree's
# Kconfig does not define (SCHED_DEBUG is always on from 7.x, PROC_SYSCTL
# became SYSCTL) is skipped by kconfig, which names it when asked to: the
# run goes on without it, with a line. One that the tree defines but
# could not enable stops the run. (Asking kconfig, not scanning the
# tree's Kconfig files first, keeps the scan off the way to results.)
unmet=$(awk -v name="$name" '
	FILENAME == ARGV[1] { if (/warning: unknown symbol: /) unknown["CONFIG_" $NF] = 1; next }
	FILENAME == ARGV[2] { if (/=y$/) enabled[$0] = 1; next }
	/^(# )?CONFIG_[A-Z0-9_]+[= ]/ {
		opt = $0
		sub(/^# /, "", opt)
		sub(/[= ].*/, "", opt)
		if (opt in unknown) {
			if (!(opt in told))
				printf "fairtest: %s is not in this tree'"'"'s Kconfig; profile %s goes on without it\n", opt, name >"/dev/stderr"
			told[opt] = 1
		} else if (/=y$/ && !($0 in enabled) && unmet == "") {
			unmet = opt
		}
	}
	END { print unmet }' "$log" "$kb/.config" "$kb/profile.expanded")
[ -z "$unmet" ] ||
	fail "$ksrc cannot enable $unmet that profile $name needs (missing or unmet dependency in its Kconfig)"

# kbuild's command line for fair.c is all we want from it: preprocessing
# writes it down as compiling would, in a fraction of the time. Whether
# fair.c compiles is found out by our own compile, with the same flags.
# One kbuild run prepares the tree too (a single target depends on
# prepare): each run re-evaluates the tree's compiler checks, 3.5 s on a
# 2-core VM. On failure, prepare alone tells which half it was.
echo "fairtest: kbuild prepare" >&2
if ! kmake kernel/sched/fair.i; then
	kmake prepare ||
		fail "kbuild prepare failed for $ksrc: $(first_error) (full log: $log; are flex, bison, bc, libelf-dev installed?)"
	fail "kbuild could not preprocess $ksrc/kernel/sched/fair.c: $(first_error) (full log: $log)"
fi

"$here/kflags.sh" "$kb" >"$obj/kflags.tmp" || fail "could not derive compile flags from $kb"
mv "$obj/kflags.tmp" "$obj/kflags"

# The weight tables are data of the tree under test, not ours to retype.
{
	echo "/* Generated by fairtest from $ksrc/kernel/sched/core.c; do not edit. */"
	echo "#include <linux/types.h>"
	awk '/^const (int|u32) sched_prio_to_(weight|wmult)\[40\] = \{/, /^\};/' "$ksrc/kernel/sched/core.c"
} >"$obj/gen/prio_tables.c.tmp"
[ "$(grep -c 'sched_prio_to_' "$obj/gen/prio_tables.c.tmp")" -eq 2 ] ||
	fail "could not find sched_prio_to_weight/wmult in $ksrc/kernel/sched/core.c"
mv "$obj/gen/prio_tables.c.tmp" "$obj/gen/prio_tables.c"
touch "$kb/.fairtest-prepared"

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
	rm -rf "$kb" "$obj/kflags" "$obj/gen/prio_tables.c" "$obj/gen/profile_desc.h"
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
# It may take options from the config of Debian's own image of this tree
# ("#take CONFIG_X [max=N]": the kernel's value, capped at N) and name
# options it leaves at ours ("#leave CONFIG_X reason"); see
# docs/profiles.md. Of an option set twice, the later line stands.
kconfig=
if grep -q '^#take ' "$profile"; then
	# kimage.sh's own line names the trouble; it is the one line said.
	kdir=$("$here/kimage.sh" "$ksrc" 2>"$obj/kimage.err") || {
		why=$(tail -n 1 "$obj/kimage.err" | sed 's/^fairtest: //')
		rm -f "$obj/kimage.err"
		fail "profile $(basename "$profile" .config) takes options from Debian's config of $ksrc, which could not be had: ${why:-kimage.sh failed}; PROFILE=base needs no kernel config"
	}
	cat "$obj/kimage.err" >&2	# its progress line, when it fetched
	rm -f "$obj/kimage.err"
	kconfig=$kdir/config
fi
# A profile that takes nothing is not compared with the kernel's config:
# whether Debian's image happens to be in the cache (make twin fetches it)
# must not change what the same tree and seed print.
awk -v dir="$(dirname "$profile")" -v kconfig="$kconfig" -v compare="$kb/profile.compare" \
	-v relevant="$(dirname "$profile")/debian.config" "$(cat "$here/kconfig.awk")"'
function set(opt, line) {
	if (!(opt in val))
		order[++n] = opt
	val[opt] = line
}
function take(opt, max,   v) {
	v = kconfig_value(opt)
	if (max != "" && v + 0 > max + 0) {
		capped[opt] = v
		v = max
	}
	set(opt, v == "n" ? "# " opt " is not set" : opt "=" v)
	listed[opt] = "taken" (opt in capped ? ", capped at " max : "")
}
function line_in(line, from,   o) {
	if (line ~ /^#take CONFIG_[A-Z0-9_]+/) {
		split(line, f, " ")
		take(f[2], f[3] ~ /^max=/ ? substr(f[3], 5) : "")
	} else if (line ~ /^#leave CONFIG_[A-Z0-9_]+ /) {
		split(line, f, " ")
		o = line
		sub(/^#leave CONFIG_[A-Z0-9_]+ +/, "", o)
		listed[f[2]] = "left out: " o
	} else if (line ~ /^(# )?CONFIG_[A-Z0-9_]+[= ]/) {
		set(opt_of(line), line)
	} else if (line ~ /^#(take|leave)/ && bad == "") {
		bad = line
	}
}
/^#include [A-Za-z0-9_.-]+\.config$/ {
	inc = dir "/" $2
	while ((getline l < inc) > 0)
		line_in(l)
	close(inc)
	next
}
{ line_in($0) }
END {
	if (bad != "") {
		printf "fairtest: malformed profile line \"%s\" (want \"#take CONFIG_X [max=N]\" or \"#leave CONFIG_X reason\")\n", bad >"/dev/stderr"
		exit 1
	}
	for (i = 1; i <= n; i++)
		print val[order[i]]
	# The options a result depends on, ours against the kernel'"'"'s: every
	# option this profile takes or leaves out, and every one it sets.
	printf "" >compare
	for (i = 1; i <= n; i++)
		if (!(order[i] in listed))
			listed[order[i]] = "set by the profile"
	# The debian profile names every option that matters to fair.c: those
	# are compared for every profile.
	while ((getline l < relevant) > 0)
		if (l ~ /^#(take|leave) CONFIG_/) {
			split(l, f, " ")
			if (!(f[2] in listed))
				listed[f[2]] = "left at Kconfig default"
		}
	for (o in listed)
		printf "%s\t%s\t%s\n", o, (o in kernel) ? kernel[o] : "-", listed[o] >compare
}' "$profile" >"$kb/profile.expanded" 2>"$kb/profile.err" || {
	# One line: the profile's own complaint, or awk's.
	why=$(sed -n '1s/^fairtest: //p' "$kb/profile.err")
	[ -n "$why" ] || why="could not read profile $profile: $(head -n 1 "$kb/profile.err")"
	fail "$why"
}
rm -f "$kb/profile.err"

# tinyconfig's fragments, then ours last so our choices win.
cat "$ksrc/kernel/configs/tiny-base.config" "$ksrc/kernel/configs/tiny.config" \
	"$ksrc/arch/x86/configs/tiny.config" "$kb/profile.expanded" >"$kb/fairtest.allconfig" 2>/dev/null ||
	cat "$kb/profile.expanded" >"$kb/fairtest.allconfig"
name=$(basename "$profile" .config)
echo "fairtest: configuring $ksrc ($name profile) in $kb" >&2
KCONFIG_WARN_UNKNOWN_SYMBOLS=1 kmake KCONFIG_ALLCONFIG="$kb/fairtest.allconfig" allnoconfig ||
	fail "kbuild could not configure $ksrc: $(first_error) (full log: $log)"
# What this build is, for the KTAP header: the profile's name and each
# option it compares (above) whose value here is not the kernel's.
awk -v name="$name" -v kernel="${kconfig:+Debian's $(cat "$(dirname "$kconfig")/package" 2>/dev/null)}" '
FILENAME == ARGV[1] {
	if (/^CONFIG_[A-Z0-9_]+=/) { o = $0; sub(/=.*/, "", o); v = $0; sub(/^[^=]*=/, "", v); ours[o] = v }
	next
}
{
	split($0, g, "\t")
	o = g[1]; k = g[2]; why = g[3]
	v = (o in ours) ? ours[o] : "n"
	if (kernel == "" || (k == "-" && v == "n"))
		next
	if (v != k)
		diff[++n] = sprintf("%s=%s (kernel: %s; %s)", o, v, k == "-" ? "absent" : k, why)
}
END {
	printf "#define FT_PROFILE_DESC \"%s\"\n", name
	printf "#define FT_PROFILE_KERNEL \"%s\"\n", kernel == "" ? "none: the profile takes no option from a kernel config" : kernel
	# The preemption model chosen by the .config of this build, read from
	# its text (the driver reads it through IS_ENABLED(), and
	# tests/preempt_model.c compares the two)
	preempt = "FT_PREEMPT_FULL"
	if (ours["CONFIG_PREEMPT_NONE"] == "y") preempt = "FT_PREEMPT_NONE"
	else if (ours["CONFIG_PREEMPT_VOLUNTARY"] == "y") preempt = "FT_PREEMPT_VOLUNTARY"
	else if (ours["CONFIG_PREEMPT_LAZY"] == "y") preempt = "FT_PREEMPT_LAZY"
	printf "#define FT_PROFILE_PREEMPT %s\n#define FT_PROFILE_PREEMPT_NAME \"%s\"\n", preempt, preempt
	# sorted, so the header is the same every run
	for (i = 2; i <= n; i++) for (j = i; j > 1 && diff[j - 1] > diff[j]; j--) { t = diff[j]; diff[j] = diff[j - 1]; diff[j - 1] = t }
	printf "#define FT_PROFILE_DIFF \\\n"
	for (i = 1; i <= n; i++) {
		gsub(/"/, "\\\"", diff[i])
		printf "\t\"%s\\n\" \\\n", diff[i]
	}
	printf "\t\"\"\n"
}' "$kb/.config" "$kb/profile.compare" >"$obj/gen/profile_desc.h.tmp" &&
	mv "$obj/gen/profile_desc.h.tmp" "$obj/gen/profile_desc.h" ||
	fail "could not compare profile $name with the kernel's config"

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

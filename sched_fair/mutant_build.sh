#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A binary of a mutant of our own code: PATCH applied to a copy of shim/ (its
# kernel-side units under SHIM_PATCHED, its user-side files at its top)
# (then DIR/obj/fairtest is built) or of sim/ (DIR/obj/fairsim), in DIR,
# from a private copy of the base build OBJ, so only the patched units are
# compiled again (a unit's compile and a link: seconds), and only the
# binary and the logs are kept. The patch's
# "+++ b/<dir>/" lines say which. On failure, one line naming what failed.
# Users: tests/checker/modes.sh (the checker's audit mutants),
# tests/shim_mutants.sh (fixtures/mutants/shim) and tests/sim/mutants.sh
# (fixtures/mutants/engine).
#
# usage: mutant_build.sh OBJ KSRC PROFILE PATCH DIR
set -u
obj=$1 ksrc=$2 profile=$3 patch=$4 dir=$5
top=$(cd "$(dirname "$0")/.." && pwd)
name=${patch#"$top"/}
tops=$(sed -n 's|^+++ b/\([^/]*\)/.*|\1|p' "$patch" | sort -u)
case $tops in
shim) set -- SHIM_DIR="$dir/shim" \
	SHIM_PATCHED="$(echo $(sed -n 's|^+++ b/shim/\([^/]*\)/.*|\1|p' "$patch" | sort -u))" fairtest ;;
sim) set -- SIM_DIR="$dir/sim" fairsim ;;
*) echo "$name patches $(echo $tops), not shim/ or sim/ alone: split it"; exit 1 ;;
esac
rm -rf "$dir"
mkdir -p "$dir/obj"
cp -a "$top/$tops" "$dir/$tops"
if ! patch -s -p1 --fuzz=0 -d "$dir" <"$patch" >"$dir/patch.log" 2>&1; then
	echo "$name does not apply to $tops/: refresh its context ($dir/patch.log)"
	exit 1
fi
cp -a "$obj/k" "$obj/u" "$obj/gen" "$obj/kflags" "$dir/obj/"
ln -s "$obj/kbuild" "$dir/obj/kbuild"
if ! make -s --no-print-directory -f "$top/sched_fair/build.mk" KSRC="$ksrc" OBJ="$dir/obj" \
     PROFILE="$profile" "$@" >"$dir/build.log" 2>&1; then
	echo "$name does not compile ($dir/build.log)"
	exit 1
fi
# The copied objects (60 MB) served the build only; the binary and the logs stay.
rm -rf "$dir/obj/k" "$dir/obj/u"

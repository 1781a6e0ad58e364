#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A test binary of a mutant of the shim: PATCH applied to a copy of shim/
# in DIR, built from a private copy of the base build OBJ, so only the
# patched units are compiled again (a unit's compile and a link: seconds).
# Leaves DIR/obj/fairtest; on failure, one line naming what failed.
# Users: tests/checker/modes.sh (the checker's audit mutants) and
# tests/shim_mutants.sh (fixtures/mutants/shim).
#
# usage: shim_mutant.sh OBJ KSRC PROFILE PATCH DIR
set -u
obj=$1 ksrc=$2 profile=$3 patch=$4 dir=$5
top=$(cd "$(dirname "$0")/.." && pwd)
name=${patch#"$top"/}
rm -rf "$dir"
mkdir -p "$dir/obj"
cp -a "$top/shim" "$dir/shim"
if ! patch -s -p1 --fuzz=0 -d "$dir" <"$patch" >"$dir/patch.log" 2>&1; then
	echo "$name does not apply to shim/: refresh its context ($dir/patch.log)"
	exit 1
fi
units=$(sed -n 's|^+++ b/shim/\([^/]*\)/.*|\1|p' "$patch" | sort -u)
cp -a "$obj/k" "$obj/u" "$obj/gen" "$obj/kflags" "$dir/obj/"
ln -s "$obj/kbuild" "$dir/obj/kbuild"
if ! make -s --no-print-directory -f "$top/sched_fair/build.mk" KSRC="$ksrc" OBJ="$dir/obj" \
     PROFILE="$profile" SHIM_DIR="$dir/shim" SHIM_PATCHED="$(echo $units)" fairtest >"$dir/build.log" 2>&1; then
	echo "$name does not compile ($dir/build.log)"
	exit 1
fi

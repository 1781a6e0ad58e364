#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Coverage of one gate step: capture the lcov trace of the kernel-side
# objects after the step's test run, summarise the patch's changed lines
# (changed.py), and render HTML (genhtml) for the files the patch touched,
# with those lines marked. Prints "covered uncovered not_compiled".
#
# usage: step.sh PATCH TREE OBJ STEP_DIR "FILES"
set -eu
patch=$1 tree=$2 obj=$3 d=$4 files=$5
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")

# The tree's own code only (fair.c through the bridge, pelt.c, lib/): our
# driver's use of a kernel header is not a test of it.
lcov -q --capture --no-recursion --directory "$obj/k" --directory "$obj/k/lib" --output-file "$d/cov.info" \
	--rc lcov_branch_coverage=0 --ignore-errors gcov,source >"$d/lcov.log" 2>&1 ||
	{ echo "lcov capture failed: $(tail -n 1 "$d/lcov.log")" >&2; exit 1; }
patterns=
for f in $files; do
	patterns="$patterns $tree/$f"
done
html=
# shellcheck disable=SC2086 # one pattern per touched file
if lcov -q --extract "$d/cov.info" $patterns --output-file "$d/touched.info" >>"$d/lcov.log" 2>&1 &&
	[ -s "$d/touched.info" ]; then
	genhtml -q --prefix "$tree" --title "$(basename "$patch")" --output-directory "$d/html" \
		"$d/touched.info" >>"$d/lcov.log" 2>&1 && html="--html $d/html"
fi
# The preprocessor command of build.mk's kernel-side compiles, for the
# "not compiled in this config" regions.
# shellcheck disable=SC2046,SC2086
python3 "$here/changed.py" "$patch" "$tree" "$obj" "$d/cov.info" "$d/coverage.txt" $html \
	--cpp ${CC:-gcc} -E -I"$top/shim/include" -I"$obj/gen" $(cat "$obj/kflags") \
	-I"$tree/kernel/sched" -DKBUILD_MODNAME='"fairtest"' -DKBUILD_BASENAME='"ft"'

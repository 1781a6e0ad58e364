#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Let a build dir reuse the kbuild preparation of another build dir instead
# of configuring and preparing a tree again (about 20 s). Valid when the
# new tree differs from the prepared one only in files that preparation
# does not read (the gate checks that with prep_inputs.sh) or is the same
# tree seen through another path. The new dir gets kbuild's flags with the
# tree path replaced, the weight tables, and a preparation stamp; the
# generated headers stay in the prepared dir, which is only read.
#
# usage: share_prep.sh PREPARED_OBJ PREPARED_KSRC NEW_OBJ NEW_KSRC
set -eu
from=$1 from_ksrc=$2 to=$3 to_ksrc=$4

if [ ! -f "$from/kbuild/.fairtest-prepared" ] || [ ! -f "$from/kflags" ]; then
	echo "fairtest: $from is not a prepared build dir; run make build first" >&2
	exit 1
fi
mkdir -p "$to/kbuild" "$to/gen"
# Tree paths are absolute in the flags (-I, -include, -fmacro-prefix-map).
# Literally: a path may hold regex characters (Debian's "1~bpo13+1").
awk -v a="$from_ksrc" -v b="$to_ksrc" '{
	s = ""
	while ((i = index($0, a)) > 0) { s = s substr($0, 1, i - 1) b; $0 = substr($0, i + length(a)) }
	print s $0
}' "$from/kflags" >"$to/kflags.tmp"
# New flags or a newer preparation: restamp, so that everything rebuilds.
stale=
if ! cmp -s "$to/kflags.tmp" "$to/kflags" 2>/dev/null; then
	mv "$to/kflags.tmp" "$to/kflags"
	stale=1
fi
rm -f "$to/kflags.tmp"
for f in prio_tables.c profile_desc.h; do
	cmp -s "$from/gen/$f" "$to/gen/$f" 2>/dev/null || cp "$from/gen/$f" "$to/gen/$f"
done
[ -n "$(find "$to/kbuild/.fairtest-prepared" -newer "$from/kbuild/.fairtest-prepared" 2>/dev/null)" ] ||
	stale=1
[ -z "$stale" ] || touch "$to/kbuild/.fairtest-prepared"

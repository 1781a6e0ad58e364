#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Resolve the kernel tree under test and print its absolute path.
# With no argument, the default tree: Debian's linux-source-6.12, unpacked
# once into the cache (never into git, never over an existing tree).
# A tree is only read: kbuild runs out of tree (O=) into our build dir.
#
# usage: tree.sh [KSRC]
set -eu
die() { echo "fairtest: $*" >&2; exit 1; }

cache=${FAIRTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fairtest}
default_pkg=linux-source-6.12
tarball=/usr/src/$default_pkg.tar.xz

ksrc=${1:-}
if [ -z "$ksrc" ]; then
	ksrc=$cache/trees/$default_pkg
	if [ ! -f "$ksrc/kernel/sched/fair.c" ]; then
		[ -r "$tarball" ] || "$(dirname "$0")/deps.sh" "$default_pkg" >&2
		[ -r "$tarball" ] || die "$tarball missing after installing $default_pkg; install it by hand (apt-get install $default_pkg)"
		echo "fairtest: unpacking $tarball into $cache/trees (once)" >&2
		mkdir -p "$cache/trees"
		tmp=$(mktemp -d "$cache/trees/.unpack.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		tar -C "$tmp" -xJf "$tarball" || die "could not unpack $tarball (disk full?); free space under $cache and retry"
		rm -rf "$ksrc"
		mv "$tmp/$default_pkg" "$ksrc"
	fi
fi

[ -d "$ksrc" ] || die "KSRC=$ksrc does not exist; point KSRC at an unpacked Linux source tree, or leave it unset for the default ($default_pkg)"
ksrc=$(cd "$ksrc" && pwd -P)
[ -f "$ksrc/kernel/sched/fair.c" ] && [ -f "$ksrc/Makefile" ] ||
	die "KSRC=$ksrc is not a kernel tree (no kernel/sched/fair.c); point KSRC at the top of a Linux source tree"
[ -d "$ksrc/arch/x86" ] ||
	die "KSRC=$ksrc has no arch/x86; fairtest runs x86_64 kernels only, use a tree with arch/x86"
[ ! -e "$ksrc/.config" ] && [ ! -d "$ksrc/include/config" ] ||
	die "KSRC=$ksrc is configured in place (.config or include/config present), which kbuild O= builds refuse; test a clean copy (cp -al or git worktree) instead"
echo "$ksrc"

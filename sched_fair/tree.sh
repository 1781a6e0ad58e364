#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Resolve the kernel tree under test and print its absolute path.
# With no KSRC, Debian's linux-source-$KVER (default 6.12): the installed
# package's tarball when it is there (6.12 is installed by deps.sh), else
# the newest version the archive serves, fetched with `apt-get download`
# under a private apt state (the system's apt configuration is never
# touched) and unpacked once into the cache, named with its exact version.
# Any tree is only read: kbuild runs out of tree (O=) into our build dir.
# A tree without EEVDF, or half unpacked, is refused before any build.
#
# A cached tree is unpacked in part: what kbuild's configure and prepare
# and our build read (every Kconfig and Makefile, arch/x86, include,
# kernel, lib, scripts, the tools headers, kunit.py), a tenth of the
# tarball; writing the rest cost a third of a cold start. --complete adds
# the named paths (a patch's files) or, with none, everything, from the
# tarball the tree came from; files already there are left as they are.
#
# usage: KVER=7.3 tree.sh [KSRC]
#        tree.sh --complete TREE [PATH...]
#        tree.sh --unpack PKG VERSION TARBALL_CMD   (bench/speed.sh)
set -eu
die() { echo "fairtest: $*" >&2; exit 1; }

cache=${FAIRTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fairtest}
kver=${KVER:-6.12}
oldest=6.12
pkg=linux-source-$kver

# What a partial tree holds: directories, then name patterns anywhere.
PARTIAL_DIRS="Makefile arch/x86 include kernel lib scripts tools/include tools/arch tools/scripts tools/build tools/testing/kunit"
PARTIAL_NAMES="*Kconfig* */Makefile* */Kbuild*"

# unpack TARBALL_CMD DEST MEMBER...: the tarball's members (under its top
# directory, whose name is left out) into DEST, keeping what DEST has.
unpack() {
	cmd=$1 dest=$2
	shift 2
	# Debian's tarballs are multi-block xz: every core decompresses.
	# 7-Zip's decoder, where installed (deps.sh installs it), did the
	# 6.12 tarball in 9.0 CPU-s against xz's 10.2, and the unpack in
	# 6.1-7.1 s against 7.3-8.2 side by side on a 2-core VM.
	if command -v 7zz >/dev/null; then
		sh -c "$cmd" | 7zz x -txz -si -so -bd
	else
		sh -c "$cmd" | xz -T0 -dc
	fi | tar -C "$dest" -x --strip-components=1 --skip-old-files --wildcards "$@"
}

# The part of $tarball a build reads, as $cache/trees/$pkg-$version: ksrc.
unpack_tree() {
	ksrc=$cache/trees/$pkg-$version
	echo "fairtest: unpacking $pkg $version into $cache/trees (once)" >&2
	mkdir -p "$cache/trees"
	tmp=$(mktemp -d "$cache/trees/.unpack.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	members=
	for d in $PARTIAL_DIRS; do
		members="$members $pkg/$d"
	done
	mkdir "$tmp/$pkg"
	set -f	# the names stay patterns for tar
	# shellcheck disable=SC2086 # one member per word
	unpack "$tarball" "$tmp/$pkg" $members $PARTIAL_NAMES ||
		die "could not unpack $pkg $version (disk full?); free space under $cache and retry"
	set +f
	printf '%s\n%s\n' "$pkg" "$tarball" >"$tmp/$pkg/.fairtest-partial"
	echo "$version" >"$tmp/$pkg/.fairtest-version"
	rm -rf "$ksrc"
	mv "$tmp/$pkg" "$ksrc"
}

if [ "${1:-}" = --complete ]; then
	[ $# -ge 2 ] || die "usage: tree.sh --complete TREE [PATH...]"
	tree=$2
	shift 2
	[ -f "$tree/.fairtest-partial" ] || exit 0	# whole already
	top=$(sed -n 1p "$tree/.fairtest-partial")
	src=$(sed -n 2p "$tree/.fairtest-partial")
	if [ $# -eq 0 ]; then
		echo "fairtest: unpacking the rest of $tree (once)" >&2
		unpack "$src" "$tree" "$top" ||
			die "could not unpack the rest of $tree from its tarball ($src)"
		rm "$tree/.fairtest-partial"
		exit 0
	fi
	members= names=
	for f; do
		[ -e "$tree/$f" ] || { members="$members $top/$f" names="$names $f"; }
	done
	[ -n "$members" ] || exit 0
	echo "fairtest: unpacking$names into $tree (a cached tree holds only what the build reads)" >&2
	# A path the tarball lacks is the patch's business, not ours.
	# shellcheck disable=SC2086 # one member per word
	unpack "$src" "$tree" $members 2>/dev/null || true
	exit 0
fi
# The bench times a cold start through the same code: --unpack PKG VERSION TARBALL_CMD.
if [ "${1:-}" = --unpack ]; then
	[ $# -eq 4 ] || die "usage: tree.sh --unpack PKG VERSION TARBALL_CMD"
	pkg=$2 version=$3 tarball=$4
	unpack_tree
	echo "$ksrc"
	exit 0
fi


. "$(dirname "$0")/apt.sh"

fetch() {
	apt_private_update
	echo "fairtest: asking Debian's archive for the newest $pkg" >&2
	version=$(apt_private apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^  Candidate: //p')
	[ -n "$version" ] && [ "$version" != "(none)" ] ||
		die "Debian serves no $pkg; KVER must name a served series (6.12, 7.2, 7.3), or set KSRC"
	(cd "$cache/debs" && apt_private apt-get -qq download "$pkg=$version" >&2) ||
		die "could not download $pkg $version; check the network or set KSRC to an unpacked tree"
	deb=$(ls "$cache/debs/${pkg}_"*"_all.deb" | grep -F "$(echo "$version" | sed 's/:/%3a/')" | head -n 1)
	tarball="dpkg-deb --fsys-tarfile $deb | tar -xO ./usr/src/$pkg.tar.xz"
}

# The Debian version of $pkg when installed, else nothing.
installed_version() {
	dpkg-query -W -f='${Status} ${Version}' "$pkg" 2>/dev/null | sed -n 's/^install ok installed //p'
}

ksrc=${1:-}
if [ -z "$ksrc" ]; then
	case $kver in
	[0-9]*.[0-9]*) ;;
	*) die "KVER=$kver is not a kernel series; use e.g. KVER=6.12, KVER=7.2 or KVER=7.3" ;;
	esac
	# Debian's series before 6.6 are CFS: refuse before fetching 150 MB.
	# (A tree given by KSRC is judged by its code, below.)
	major=${kver%%.*} minor=${kver#*.}
	[ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "${minor%%.*}" -ge 6 ]; } ||
		die "KVER=$kver has no EEVDF (linux-source-$kver is CFS, before 6.6); the oldest tree fairtest supports is $oldest (KVER=$oldest)"
	# This runs before every make check, so dpkg is asked only when its
	# answer may have changed: a tree unpacked after the package was last
	# installed (dpkg rewrites its file list then) is of that version, and
	# with no package installed any cached tree of the series does.
	list=/var/lib/dpkg/info/$pkg.list
	mark=
	for d in "$cache/trees/$pkg"-*; do
		[ -f "$d/.fairtest-version" ] && [ -f "$d/kernel/sched/fair.c" ] || continue
		if [ -e "$list" ] && [ "$d/.fairtest-version" -nt "$list" ] ||
		   { [ ! -e "$list" ] && [ "$kver" != 6.12 ]; }; then
			mark=$d
		fi
	done
	if [ -z "$mark" ]; then
		installed=$(installed_version)
		[ -n "$installed" ] || [ "$kver" != 6.12 ] || { "$(dirname "$0")/deps.sh" "$pkg" >&2 &&
			installed=$(installed_version); }
		for d in "$cache/trees/$pkg"-*; do
			[ -f "$d/.fairtest-version" ] && [ -f "$d/kernel/sched/fair.c" ] || continue
			if [ -z "$installed" ] || [ "$(cat "$d/.fairtest-version")" = "$installed" ]; then
				mark=$d
			fi
		done
	fi
	if [ -n "$mark" ]; then
		ksrc=$mark
	else
		if [ -n "$installed" ]; then
			version=$installed
			tarball="cat /usr/src/$pkg.tar.xz"
		else
			fetch
		fi
		unpack_tree
	fi
fi

[ -d "$ksrc" ] || die "KSRC=$ksrc does not exist; point KSRC at an unpacked Linux source tree, or leave it unset for the default ($pkg)"
ksrc=$(cd "$ksrc" && pwd -P)
[ -f "$ksrc/Makefile" ] && [ -f "$ksrc/kernel/sched/fair.c" ] && [ -f "$ksrc/kernel/sched/sched.h" ] &&
	[ -f "$ksrc/include/linux/sched.h" ] ||
	die "KSRC=$ksrc is not a whole kernel tree (no top Makefile, kernel/sched/fair.c or sched.h: half unpacked?); point KSRC at the top of a complete Linux source tree"
# EEVDF (6.6 on) keeps a lag per entity and an average vruntime per queue.
grep -q 'avg_vruntime' "$ksrc/kernel/sched/fair.c" && grep -Eq '[[:space:]]vlag;' "$ksrc/include/linux/sched.h" ||
	die "KSRC=$ksrc has no EEVDF (no avg_vruntime() in kernel/sched/fair.c, no vlag in struct sched_entity): a CFS tree older than 6.6; the oldest tree fairtest supports is $oldest (KVER=$oldest)"
[ -d "$ksrc/arch/x86" ] ||
	die "KSRC=$ksrc has no arch/x86; fairtest runs x86_64 kernels only, use a tree with arch/x86"
[ ! -e "$ksrc/.config" ] && [ ! -d "$ksrc/include/config" ] ||
	die "KSRC=$ksrc is configured in place (.config or include/config present), which kbuild O= builds refuse; test a clean copy (cp -al or git worktree) instead"
echo "$ksrc"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Debian's own kernel image for the exact package version of a Debian
# source tree (a tree tree.sh unpacked, or the installed linux-source
# package's): the twin boots it, the debian profile reads its config.
# Fetched with apt-get download under the private apt state (apt.sh) and
# unpacked once into $cache/kimages/VERSION/ as `vmlinuz` and `config`;
# prints that directory. Nothing is installed.
#
# Debian names the image differently by series: 6.12's kernel is in
# linux-image-U+debN-amd64-unsigned (or the signed linux-image-U+debN-amd64);
# 7.x's linux-image-* is a metapackage and the kernel is in
# linux-binary-U+debN-amd64, its config in linux-base-U+debN-amd64. The
# package chosen is the first of those whose version is the tree's and which
# holds a kernel (more than 1 MB installed).
#
# usage: kimage.sh KSRC
set -eu
die() { echo "fairtest: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: kimage.sh KSRC"
ksrc=$1
cache=${FAIRTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fairtest}

version=
if [ -f "$ksrc/.fairtest-version" ]; then
	version=$(cat "$ksrc/.fairtest-version")
else
	# The installed package's tree, unpacked by tree.sh under that version.
	case $(basename "$ksrc") in
	linux-source-*-[0-9]*) version=$(basename "$ksrc" | sed 's/^linux-source-[0-9.]*-//') ;;
	esac
fi
[ -n "$version" ] ||
	die "KSRC=$ksrc is not a Debian linux-source tree, so Debian has no image of it; build its kernel instead (make twin builds one for KSRC trees)"
# The version file travels with a copy of the tree (cp -a), which may since
# have become another kernel: the tree is Debian's only while its Makefile
# says that version (Debian's x.y~rcN and x.y are Makefile's x.y.0).
made=$(awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 } $1 == "SUBLEVEL" { s = $2 }
	END { print v "." p "." s }' "$ksrc/Makefile" 2>/dev/null)
said=${version%%-*}
said=${said%%~*}
[ "$said" = "$made" ] || [ "$said.0" = "$made" ] ||
	die "KSRC=$ksrc says Debian $version but its Makefile $made, so it is not that Debian tree; remove its .fairtest-version, or use PROFILE=base"

out=$cache/kimages/$version
if [ -f "$out/vmlinuz" ] && [ -f "$out/config" ]; then
	echo "$out"
	exit 0
fi

. "$(dirname "$0")/apt.sh"
apt_private_update
upstream=${version%%-*}
pkg=
for p in $(apt_private apt-cache pkgnames "linux-" 2>/dev/null |
	   grep -E "^linux-(binary|image)-$(echo "$upstream" | sed 's/\./\\./g')\+deb[0-9.]*-amd64(-unsigned)?\$" |
	   awk '{ r = /^linux-binary-/ ? 0 : /-unsigned$/ ? 1 : 2; print r, $0 }' | sort | cut -d' ' -f2); do
	size=$(apt_private apt-cache show "$p=$version" 2>/dev/null | sed -n 's/^Installed-Size: //p' | head -n 1)
	[ -n "$size" ] && [ "$size" -gt 1000 ] && { pkg=$p; break; }
done
[ -n "$pkg" ] || die "Debian serves no amd64 kernel image of version $version (the tree's linux-source version); set KSRC to a tree whose version Debian still serves"

# 7.x keeps the config beside the kernel's modules list, in linux-base.
pkgs=$pkg
case $pkg in
linux-binary-*) pkgs="$pkg linux-base-${pkg#linux-binary-}" ;;
esac
echo "fairtest: fetching Debian's $pkgs $version (once)" >&2
debs=
for p in $pkgs; do
	(cd "$cache/debs" && apt_private apt-get -qq download "$p=$version" >&2) ||
		die "could not download $p $version; check the network"
	debs="$debs $(ls "$cache/debs/${p}_"*"_amd64.deb" | grep -F "$(echo "$version" | sed 's/:/%3a/')" | head -n 1)"
done
mkdir -p "$cache/kimages"
tmp=$(mktemp -d "$cache/kimages/.unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for deb in $debs; do
	dpkg-deb -x "$deb" "$tmp/x" || die "could not unpack $deb; delete it and retry"
done
k=$(find "$tmp/x/boot" "$tmp/x/usr/lib/modules" -maxdepth 2 -name 'vmlinuz*' -type f 2>/dev/null | head -n 1)
c=$(find "$tmp/x/boot" "$tmp/x/usr/lib/modules" -maxdepth 2 \( -name 'config-*' -o -name config \) -type f 2>/dev/null | head -n 1)
[ -n "$k" ] && [ -n "$c" ] || die "$pkgs $version hold no vmlinuz and config where Debian puts them (/boot or /usr/lib/modules/*/)"
mkdir "$tmp/out"
mv "$k" "$tmp/out/vmlinuz"
mv "$c" "$tmp/out/config"
echo "$pkgs $version" >"$tmp/out/package"
rm -rf "$out"
mv "$tmp/out" "$out"
echo "$out"

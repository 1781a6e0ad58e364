#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The twin's initramfs: Debian's busybox-static, rt-app and rt-tests'
# hackbench (which a workload's "twin:" line may run beside rt-app) with the
# shared libraries they load (ldd's list, plus libgcc_s.so.1, which glibc
# opens at thread exit and ldd does not list), and twin/init.sh as /init. Built
# once into DIR/initramfs.cpio.gz and rebuilt when the packages or
# init.sh change (DIR/initramfs.key); prints its path. Run-specific files
# travel in a second cpio that twin/boot.sh appends (the kernel unpacks
# concatenated archives in turn).
#
# usage: twin/initramfs.sh DIR
set -eu
die() { echo "fairtest: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: twin/initramfs.sh DIR"
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/sched_fair/deps.sh" @twin
mkdir -p "$1"
dir=$(cd "$1" && pwd)
img=$dir/initramfs.cpio.gz

key=$(dpkg-query -W -f='${Package} ${Version}\n' busybox-static rt-app rt-tests libc6 libjson-c5 libgcc-s1 2>/dev/null
      cat "$top/twin/init.sh" "$0" | md5sum)
if [ -f "$img" ] && [ "$(cat "$dir/initramfs.key" 2>/dev/null)" = "$key" ]; then
	echo "$img"
	exit 0
fi

tmp=$(mktemp -d "$dir/.initramfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/bin" "$root/usr/bin" "$root/run" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
ldd /bin/busybox >/dev/null 2>&1 &&
	die "/bin/busybox is not static; install busybox-static (sched_fair/deps.sh busybox-static)"
rtapp=$(command -v rt-app) || die "no rt-app; install Debian's rt-app (sched_fair/deps.sh rt-app)"
cp "$rtapp" "$root/usr/bin/rt-app"
hackbench=$(command -v hackbench) || die "no hackbench; install Debian's rt-tests (sched_fair/deps.sh rt-tests)"
cp "$hackbench" "$root/usr/bin/hackbench"
gcc_s=$(ldconfig -p | sed -n 's/^[[:space:]]*libgcc_s\.so\.1 (libc6,x86-64) => //p' | head -n 1)
[ -n "$gcc_s" ] || die "no libgcc_s.so.1 (Debian's libgcc-s1); rt-app's threads need it"
for lib in $({ ldd "$rtapp"; ldd "$hackbench"; } | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }') "$gcc_s"; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
# The dynamic loader is also looked for where the ELF header names it.
interp=$(readelf -l "$rtapp" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then
	mkdir -p "$root$(dirname "$interp")"
	cp -L "$interp" "$root$interp"
fi
cp "$top/twin/init.sh" "$root/init"
chmod 755 "$root/init"
(cd "$root" && find . | sort | busybox cpio -o -H newc 2>/dev/null) | gzip -9n >"$tmp/img"
mv "$tmp/img" "$img"
echo "$key" >"$dir/initramfs.key"
echo "$img"

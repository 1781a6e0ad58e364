#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest's slice helper for a workload whose SCHED_OTHER tasks carry a
# dl-runtime (twin/workload.py's OUT.slice): builds twin/slice.c into
# DIR/fairtest-slice.so (again when the source or the compiler changes),
# then writes OUT, the cached initramfs INITRD followed by a cpio of
# /usr/lib/fairtest-slice.so, /etc/ld.so.preload naming it (glibc's loader
# then preloads it into every dynamic program the guest starts: rt-app,
# hackbench) and the map as /etc/fairtest-slice. Only such workloads get
# it: INITRD, twin/init.sh and twin/boot.sh stay as they are, so the
# stored boots of every other workload keep their keys.
#
# usage: twin/slice.sh INITRD MAP OUT
set -eu
die() { echo "fairtest: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: twin/slice.sh INITRD MAP OUT"
initrd=$1 map=$2 out=$3
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(dirname "$initrd")
so=$dir/fairtest-slice.so
cc=${CC:-cc}
command -v "$cc" >/dev/null || die "no C compiler ($cc) for the slice helper twin/slice.c; install gcc"
command -v busybox >/dev/null || die "no busybox for the helper's cpio; install busybox-static (sched_fair/deps.sh busybox-static)"

key=$({ cat "$top/twin/slice.c"; "$cc" --version | head -n 1; } | md5sum)
if [ ! -f "$so" ] || [ "$(cat "$so.key" 2>/dev/null)" != "$key" ]; then
	# no -ldl: glibc 2.34 and later has dlsym in libc (the loader serves
	# the thread-local flag), and the guest
	# holds only the libraries rt-app and hackbench load
	"$cc" -O2 -Wall -Wextra -fPIC -shared -o "$so.$$.tmp" "$top/twin/slice.c" ||
		die "twin/slice.c did not build (above)"
	need=$(readelf -d "$so.$$.tmp" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^\(libc\.so\.6\|ld-linux-x86-64\.so\.2\)$' || true)
	[ -z "$need" ] || { rm -f "$so.$$.tmp"; die "twin/slice.c's library needs $need, which the guest does not hold"; }
	mv "$so.$$.tmp" "$so"
	echo "$key" >"$so.key"
fi

tmp=$(mktemp -d "$out.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root/etc" "$tmp/root/usr/lib"
cp "$so" "$tmp/root/usr/lib/fairtest-slice.so"
echo /usr/lib/fairtest-slice.so >"$tmp/root/etc/ld.so.preload"
cp "$map" "$tmp/root/etc/fairtest-slice"
(cd "$tmp/root" && find . | sort | busybox cpio -o -H newc 2>/dev/null) | gzip -9n >"$tmp/slice.cpio.gz"
cat "$initrd" "$tmp/slice.cpio.gz" >"$out"

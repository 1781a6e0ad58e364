#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Which accelerator the twin boots with: KVM when this machine's KVM boots
# the kernel to /init, else TCG with -icount (twin/boot.sh). A /dev/kvm that
# opens is not enough: on VMs whose KVM is itself emulated (kvm_pvm) QEMU
# stops with "KVM internal error ... emulation failure" during early boot.
# So one short boot is tried per kernel and machine, and its answer kept in
# DIR/accel-<kernel package version>-<host> (delete it to ask again). The
# reason for TCG goes to stderr once, when the answer is found.
#
# Under TCG the guest runs at a fixed instruction rate (-icount shift=N,
# sleep=off): plain TCG ties the guest clock to the host's, so a busy host
# stretches every rt-app run event (docs/twin.md, "Choosing icount").
#
# usage: twin/accel.sh KIMAGE_DIR INITRD DIR
set -eu
[ $# -eq 3 ] || { echo "usage: twin/accel.sh KIMAGE_DIR INITRD DIR" >&2; exit 2; }
kimage=$1 initrd=$2 dir=$3
top=$(cd "$(dirname "$0")/.." && pwd)
tcg=icount:${FAIRTEST_TWIN_ICOUNT_SHIFT:-1}
memo=$dir/accel-$(basename "$kimage")-$(uname -n)
if [ -f "$memo" ]; then
	if [ "$(cat "$memo")" = kvm ]; then echo kvm; else echo "$tcg"; fi
	exit 0
fi
if [ ! -w /dev/kvm ] || [ ! -r /dev/kvm ]; then
	why="no usable /dev/kvm"
else
	json=$(mktemp "$dir/.probe.XXXXXX")
	echo '{ "tasks": { "idle": { "sleep": 1000 } } }' >"$json"
	if FAIRTEST_TWIN_PROBE=1 "$top/twin/boot.sh" "$kimage" "$initrd" "$json" 1 1 1 "" kvm 30 "$json.out" 2>"$json.err"; then
		rm -rf "$json" "$json.out" "$json.err"
		echo kvm >"$memo"
		echo kvm
		exit 0
	fi
	why="KVM does not boot $(cat "$kimage/package") here: $(tail -n 1 "$json.err" | sed 's/^fairtest: //')"
	rm -rf "$json" "$json.out" "$json.err"
fi
echo "tcg" >"$memo"
echo "fairtest: twin: $why; using TCG ($tcg)" >&2
echo "$tcg"

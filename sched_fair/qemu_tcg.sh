#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# qemu-system-x86_64 for make domains-xcheck, always under TCG. kunit.py
# from 6.15 on asks for "-accel kvm -accel hvf -accel tcg"; KVM here is
# nested and stops 7.3's boot ("KVM internal error. Suberror: 1", an
# emulation failure on cmpxchg16b), and where /dev/kvm is missing those
# trees fall back to TCG anyway. Dropping the two accelerators gives every
# tree, on every machine, the same emulated CPU (qemu64) that 6.12's
# kunit.py boots. domains_xcheck.sh puts this first in PATH under QEMU's
# name, with the real binary in FAIRTEST_QEMU.
set -eu
prev=
for a do
	shift
	if [ "$prev" = -accel ]; then
		prev=
		case $a in
		kvm|hvf) continue ;;
		esac
		set -- "$@" -accel "$a"
		continue
	fi
	if [ "$a" = -accel ]; then
		prev=-accel
		continue
	fi
	set -- "$@" "$a"
done
exec "$FAIRTEST_QEMU" "$@"

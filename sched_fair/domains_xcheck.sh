#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make domains-xcheck: our sched-domain dumps are derived from arch facts
# we hand topology.c; this checks them against a real kernel. The tree's
# own kunit.py builds a small x86_64 kernel (tests/qemu/kunitconfig) and
# boots it under QEMU once per machine shape, with sched_verbose (the boot
# dump: levels, spans, groups) and fairtest's KUnit case
# (tests/qemu/domains_kunit.c: names, imbalance_pct, flags). The kernel's
# lines are kept verbatim in QEMU_DIR/SERIES/SHAPE.dump (SERIES: the tree's
# VERSION.PATCHLEVEL), which tests/topology.c compares with our dump of
# fixtures/topologies/SHAPE.topo on trees of that series. A developer's
# tool: CI uses the committed dumps and needs no QEMU.
#
# The tree is read only: kunit.py runs in a scratch overlay (symlinks to
# the tree, plus our case in kernel/sched/), kernel objects go to WORK.
#
# usage: domains_xcheck.sh KSRC WORK QEMU_DIR [SHAPE...]
set -eu
[ $# -ge 3 ] || { echo "usage: domains_xcheck.sh KSRC WORK QEMU_DIR [SHAPE...]" >&2; exit 2; }
[ -d "$1" ] || { echo "domains-xcheck: no kernel tree at $1" >&2; exit 2; }
ksrc=$(cd "$1" && pwd) work=$2 out=$3
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/sched_fair/kunit_qemu.sh"

# shape, QEMU -smp, and which CPU of the .topo each QEMU CPU is. QEMU
# numbers a core's threads next to each other (APIC id order); our
# smt-mc-8 numbers them as many real x86 machines do, n and n+4. QEMU 7.2
# has no clusters on x86 (cls-mc-16) and no asymmetric capacities
# (biglittle-8): those two are not cross-checked.
shapes='uni-1 sockets=1,cores=1,threads=1 0
mc-2 sockets=1,cores=2,threads=1 0 1
mc-4 sockets=1,cores=4,threads=1 0 1 2 3
smt-mc-8 sockets=1,cores=4,threads=2 0 4 1 5 2 6 3 7
two-pkg-16 sockets=2,cores=4,threads=2 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15'
want=${*:-$(echo "$shapes" | cut -d' ' -f1)}
for s in $want; do
	echo "$shapes" | grep -q "^$s " ||
		{ echo "domains-xcheck: no QEMU shape $s; shapes:" $(echo "$shapes" | cut -d' ' -f1) >&2; exit 2; }
done
tag=domains-xcheck
kunit_prepare

kunit_overlay "$top/tests/qemu/domains_kunit.c" fairtest_domains_kunit

# Options this tree does not have are left out of the kunitconfig
# (SCHED_DEBUG went in 6.15: the dump is built without it since).
find "$ksrc" -name 'Kconfig*' -not -path '*/Documentation/*' -exec \
	sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config \([A-Z0-9_]*\)[[:space:]]*$/\2/p' {} + | sort -u >"$work/symbols"
grep -v '^#\?[[:space:]]*CONFIG_' "$top/tests/qemu/kunitconfig" >"$work/kunitconfig"
sed -n 's/^#\{0,1\}[[:space:]]*CONFIG_\([A-Z0-9_]*\).*/\1 &/p' "$top/tests/qemu/kunitconfig" |
	while read -r sym line; do
		if grep -qx "$sym" "$work/symbols"; then
			echo "$line"
		else
			echo "domains-xcheck: $(basename "$ksrc") has no CONFIG_$sym: left out" >&2
		fi
	done >>"$work/kunitconfig"

# Every tree boots under TCG (sched_fair/qemu_tcg.sh says why).
kunit_build
qemu=$("$FAIRTEST_QEMU" --version | head -n 1)
out=$out/$(echo "$version" | cut -d. -f1-2)
mkdir -p "$out"
for s in $want; do
	line=$(echo "$shapes" | grep "^$s ")
	smp=$(echo "$line" | cut -d' ' -f2)
	map=$(echo "$line" | cut -d' ' -f3-)
	# printk.time=0: no timestamps, so a re-capture differs only where
	# the kernel does; ignore_loglevel: the dump is KERN_DEBUG.
	args="exec $common --kernel_args=sched_verbose --kernel_args=ignore_loglevel --kernel_args=printk.time=0 --qemu_args=-smp --qemu_args=$smp --raw_output=all fairtest_domains"
	echo "domains-xcheck: booting $s (-smp $smp)" >&2
	$kunit $args >"$work/$s.log" 2>&1 ||
		{ tail -n 20 "$work/$s.log" >&2; echo "domains-xcheck: $s: kunit.py exec failed (full output: $work/$s.log)" >&2; exit 1; }
	grep -q 'ok 1 fairtest_domains_dump' "$work/$s.log" ||
		{ echo "domains-xcheck: $s: the fairtest_domains case did not pass (see $work/$s.log)" >&2; exit 1; }
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "#"
		echo "# A real kernel's sched domains for fixtures/topologies/$s.topo: kernel"
		echo "# output, verbatim below the header, from a boot under QEMU by"
		echo "# sched_fair/domains_xcheck.sh (make domains-xcheck re-captures it)."
		echo "# tests/topology.c compares our dump of $s.topo with it, field by field."
		echo "# Levels, spans, groups: sched_verbose's boot dump (topology.c's"
		echo "# sched_domain_debug()); name, imbalance_pct, flags: the fairtest_domains"
		echo "# KUnit case (tests/qemu/domains_kunit.c), read from the booted domains."
		echo "#"
		echo "# tree: linux $version${deb:+ (Debian linux-source $deb)}"
		echo "# qemu: $qemu, TCG (sched_fair/qemu_tcg.sh), qboot, default CPU (kunit.py's x86_64)"
		echo "# $(grep -m 1 'smpboot: CPU0: ' "$work/$s.log" | sed 's/\r$//')"
		echo "# WORK/kunitconfig: tests/qemu/kunitconfig less what this tree lacks:"
		grep '^#\{0,1\} *CONFIG_' "$work/kunitconfig" | tr '\n' ' ' | sed 's/^/#   /; s/ $//'
		echo
		echo "# kunit.py config $common" | sed "s#$work#WORK#g; s#$top/##g"
		echo "# kunit.py build $common --jobs=$jobs" | sed "s#$work#WORK#g; s#$top/##g"
		echo "# kunit.py $args" | sed "s#$work#WORK#g; s#$top/##g"
		echo "# captured: $(date -u +%Y-%m-%d)"
		echo "#"
		echo "# QEMU CPU i is CPU map[i] of $s.topo:"
		echo "fairtest-map: $map"
		grep -E 'CPU[0-9]+ attaching|^ *domain-[0-9]+: |^ *groups: |fairtest-domain cpu|^ERROR: ' "$work/$s.log" |
			sed 's/\r$//'
	} >"$out/$s.dump.tmp"
	mv "$out/$s.dump.tmp" "$out/$s.dump"
	echo "domains-xcheck: $s: $out/$s.dump" >&2
done

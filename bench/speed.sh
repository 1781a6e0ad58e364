#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Speed figures, measured in one run on this machine, next to the kernel's
# own route as recorded in the project brief (KUnit on UML: 84 s cold,
# 2.9 s after touching fair.c; x86_64 QEMU with SMP: 141 s and 7.6 s).
# The tree is never written to: the "touch fair.c" case uses a hard-linked
# copy of the tree whose fair.c alone is a private copy.
#
# usage: bench/speed.sh   (uses the default tree; needs ~1.5 GB in /tmp)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=$("$top/sched_fair/tree.sh")
work=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

secs() { start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); echo "$end - $start" | bc; }

cp -al "$ksrc" "$work/tree"
rm "$work/tree/kernel/sched/fair.c"
cp "$ksrc/kernel/sched/fair.c" "$work/tree/kernel/sched/fair.c"

tarball=/usr/src/linux-source-6.12.tar.xz
unpack=$(secs tar -C "$work" -xJf "$tarball")
cold=$(secs make -C "$top" check KSRC="$work/tree" O="$work/build")
warm=$(secs make -C "$top" check KSRC="$work/tree" O="$work/build")
touch "$work/tree/kernel/sched/fair.c"
touched=$(secs make -C "$top" check KSRC="$work/tree" O="$work/build")

obj=$(ls -d "$work"/build/tree-*)
cc -O2 -I"$top/shim" -c "$top/bench/sim_rate.c" -o "$work/sim_rate.o"
cc -no-pie -Wl,-T,"$top/shim/percpu.lds" -Wl,--defsym=const_pcpu_hot=pcpu_hot \
	"$work/sim_rate.o" $(find "$obj/k" -name "*.o") "$obj"/u/shim/*.o "$obj"/u/gen/seam_stubs.o \
	"$obj"/u/gen/topologies.o -lfiu \
	-o "$work/sim_rate"

printf '%-44s %10s %12s %12s\n' "step" "fairtest" "vs UML" "vs QEMU"
printf '%-44s %9.1fs\n' "unpack tarball (not in cold below)" "$unpack"
printf '%-44s %9.1fs %11.1fx %11.1fx\n' "cold: unpacked tree -> KTAP totals" "$cold" \
	"$(echo "84 / $cold" | bc -l)" "$(echo "141 / $cold" | bc -l)"
printf '%-44s %9.1fs %11.1fx %11.1fx\n' "cold from tarball (unpack + cold)" "$(echo "$unpack + $cold" | bc)" \
	"$(echo "84 / ($unpack + $cold)" | bc -l)" "$(echo "141 / ($unpack + $cold)" | bc -l)"
printf '%-44s %9.2fs\n' "warm make check, nothing changed" "$warm"
printf '%-44s %9.2fs %11.1fx %11.1fx\n' "touch fair.c -> KTAP totals" "$touched" \
	"$(echo "2.9 / $touched" | bc -l)" "$(echo "7.6 / $touched" | bc -l)"
"$work/sim_rate" 20

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The real kernel's own scheduler, split as bench/sim.sh splits the
# simulator: the CPU time of core.c beside that of fair.c (and pelt.c)
# while the kernel runs hackbench, so that the driver's cost (shim/, our
# core.c) can be set beside what the kernel's core.c itself costs per
# unit of fair.c. The kernel is the tree's, built as User-Mode Linux
# (defconfig, SMP on CPUS CPUs, hostfs) in the build dir; the guest's root
# is this machine's / read-only, its init runs hackbench (processes: UML
# runs a process's threads one at a time in user space) between two reads
# of /proc/stat's ctxt, then powers off. perf samples the host process
# that runs the guest's kernel (cpu-clock, FREQ Hz); uml_split.py gives
# each sample in the kernel binary to the source file of its function.
# ROUNDS boots; each row is one, then the median of their core.c : fair.c
# ratios with the lowest and highest, the share of core.c's samples in
# __schedule(), and the largest functions of the median round.
#
# What it does not see: most of the guest's time is the host kernel's (a
# guest's system call is a signal and host system calls: seccomp=on,
# which UML's SMP needs, and fit for a guest that runs this machine's own
# binaries), and __schedule() holds UML's
# inlined context switch, whose stalls after each switch of host
# processes land in core.c; the last line says how much.
# 7.2's and 7.3's UML have SMP; 6.12's has none (no PELT, no
# balancing: fair.c's share would be less than on a real machine), so
# it is refused.
#
# usage: bench/uml.sh [KVER]   (default 7.3; env: ROUNDS=3 CPUS=2 LOOPS=400 FREQ=4999)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:-7.3}
rounds=${ROUNDS:-3}
cpus=${CPUS:-2}
loops=${LOOPS:-400}
freq=${FREQ:-4999}
for v in ROUNDS="$rounds" CPUS="$cpus" LOOPS="$loops" FREQ="$freq"; do
	case ${v#*=} in
	''|0*|*[!0-9]*) echo "bench/uml.sh: $v: give a whole number, 1 or more" >&2; exit 2 ;;
	esac
done
[ "$cpus" -le 8 ] || { echo "bench/uml.sh: CPUS=$cpus: the guest is built with 8 CPUs at most" >&2; exit 2; }

"$top/sched_fair/deps.sh" linux-perf rt-tests busybox-static >&2
ksrc=$(KVER=$kver "$top/sched_fair/tree.sh")
# a partial tree has every Kconfig
grep -q '^config SMP' "$ksrc/arch/um/Kconfig" ||
	{ echo "bench/uml.sh: $ksrc: its UML has no SMP (6.12's has none); give KVER=7.2 or 7.3" >&2; exit 2; }
"$top/sched_fair/tree.sh" --complete "$ksrc"	# UML builds all of arch/um, drivers, fs
o=$top/build/uml-${ksrc##*/}
# configured once: the stamp says the .config beside it is whole
if [ ! -f "$o/.fairtest-config" ]; then
	mkdir -p "$o"
	make -s -C "$ksrc" O="$o" ARCH=um defconfig >&2
	"$ksrc/scripts/config" --file "$o/.config" -e SMP --set-val NR_CPUS 8 -e HOSTFS -e DEBUG_INFO
	make -s -C "$o" ARCH=um olddefconfig >&2
	: >"$o/.fairtest-config"
fi
echo "bench/uml.sh: building UML from $ksrc in $o (minutes, once)" >&2
make -s -C "$o" ARCH=um -j"$(nproc)" linux >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-uml.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
busybox=$(command -v busybox)
cat >"$work/init" <<EOF
#!/bin/sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
echo "ctxt-before \$(grep '^ctxt' /proc/stat)"
hackbench -g 1 -p -l $loops -s 1000 >/dev/null
echo "ctxt-after \$(grep '^ctxt' /proc/stat)"
$busybox poweroff -f
EOF
chmod +x "$work/init"

echo "the real kernel, $(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$ksrc/Makefile" | paste -sd.) as UML ($cpus CPUs), hackbench -g 1 -p -l $loops -s 1000, perf cpu-clock at $freq Hz"
printf '%-6s %9s %8s %8s %8s %8s %11s %9s %10s %10s\n' round samples linux core.c fair.c other "core:fair" switches "core us/sw" "fair us/sw"
for r in $(seq "$rounds"); do
	if ! timeout 600 perf record -q -e cpu-clock -F "$freq" -o "$work/perf.data" -- \
		"$o/linux" mem=1024M ncpus="$cpus" seccomp=on rootfstype=hostfs rootflags=/ ro init="$work/init" \
		con=null con0=fd:0,fd:1 </dev/null >"$work/console" 2>&1; then
		echo "bench/uml.sh: the guest did not finish in 600 s (round $r); its console's end:" >&2
		tail -n 20 "$work/console" >&2
		exit 1
	fi
	sw=$(awk '$1 == "ctxt-before" { b = $3 + 0 } $1 == "ctxt-after" { a = $3 + 0 } END { if (a > b) print a - b }' "$work/console")
	[ -n "$sw" ] || { echo "bench/uml.sh: no switch count on the guest's console (round $r); its end:" >&2; tail -n 20 "$work/console" >&2; exit 1; }
	perf script -i "$work/perf.data" -F ip,dso 2>/dev/null >"$work/script"
	python3 "$top/bench/uml_split.py" "$o/linux" "$work/script" >"$work/split"
	# shellcheck disable=SC2046 # the counts, one word each
	set -- $(sed -n 1p "$work/split")
	[ "$4" -gt 0 ] || { echo "bench/uml.sh: no sample in fair.c (round $r): too short a run; raise LOOPS" >&2; exit 1; }
	awk -v r="$r" -v t="$1" -v l="$2" -v c="$3" -v f="$4" -v os="$5" -v s="$7" -v sw="$sw" -v hz="$freq" \
	    -v rows="$work/rows" 'BEGIN {
		printf "%-6s %9d %8d %8d %8d %8d %11.2f %9d %10.3f %10.3f\n", r, t, l, c, f, os, c / f, sw,
		       c / hz / sw * 1e6, f / hz / sw * 1e6
		print c / f, c ? s / c : 0, r >>rows
	}'
	mv "$work/split" "$work/split.$r"
done
sort -n "$work/rows" | awk -v med="$work/median" '{ v[++n] = $1; s += $2; r[n] = $3 } END {
	m = int((n + 1) / 2)
	printf "core.c : fair.c (and pelt.c), median of %d: %.2f (%.2f-%.2f); __schedule() %.0f%% of core.c\n",
	       n, v[m], v[1], v[n], 100 * s / n
	print r[m] >med
}'
echo "largest functions in round $(cat "$work/median"), the median's:"
sed -n '2,$p' "$work/split.$(cat "$work/median")"

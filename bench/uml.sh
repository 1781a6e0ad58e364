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
# of /proc/stat's ctxt, then powers off. perf samples the host processes
# that run the guest (cpu-clock, FREQ Hz); uml_split.py gives each sample
# in the kernel binary to the source file of its function, weighed by its
# period. ROUNDS boots; each row is one, then the median of their
# core.c : fair.c ratios (the lower middle one for an even ROUNDS) with
# the lowest and highest, the mean share of core.c's samples in
# __schedule(), and the largest functions of the median round.
#
# Not what bench/sim.sh counts, exactly: this is time, that instructions;
# here a kernel header inlined into a function counts for the function's
# file, there for the tree wherever it is inlined; lib/rbtree.c, which the
# simulator's floor holds, is a column of its own (fair.c's queue and
# others use it). Most of the guest's time is the host kernel's (a guest's
# system call is a signal and host system calls: seccomp=on, which UML's
# SMP needs, fit for a guest running this machine's own binaries), and
# __schedule() holds UML's inlined context switch, whose stalls after each
# switch of host processes land in core.c: the median line says how much.
# 7.2's and 7.3's UML have SMP; 6.12's has none (no PELT, no balancing:
# fair.c's share would be less than on a real machine), so it is refused.
#
# usage: bench/uml.sh [KVER]   (default: $KVER, else 7.3; env: ROUNDS=3 CPUS=2 LOOPS=400 FREQ=4999)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd -P)
kver=${1:-${KVER:-7.3}}
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
perf record -q -e cpu-clock -o /dev/null -- true >/dev/null 2>&1 ||
	{ echo "bench/uml.sh: perf record cannot sample cpu-clock here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo ?): 2 or lower lets a user sample their own processes)" >&2; exit 1; }
ksrc=$(KVER=$kver "$top/sched_fair/tree.sh")
# a partial tree has every Kconfig
grep -q '^config SMP' "$ksrc/arch/um/Kconfig" ||
	{ echo "bench/uml.sh: $ksrc: its UML has no SMP (6.12's has none); give 7.2 or 7.3" >&2; exit 2; }
"$top/sched_fair/tree.sh" --complete "$ksrc"	# UML builds all of arch/um, drivers, fs
o=$top/build/uml-${ksrc##*/}
want='CONFIG_SMP=y CONFIG_NR_CPUS=8 CONFIG_HOSTFS=y CONFIG_DEBUG_INFO=y'
configured() { for c in $want; do grep -qx "$c" "$o/.config" 2>/dev/null || return 1; done; }
if ! configured; then
	mkdir -p "$o"
	make -s -C "$ksrc" O="$o" ARCH=um defconfig >&2
	"$ksrc/scripts/config" --file "$o/.config" -e SMP --set-val NR_CPUS 8 -e HOSTFS -e DEBUG_INFO
	make -s -C "$o" ARCH=um olddefconfig >&2
	configured || { echo "bench/uml.sh: $o/.config lacks one of $want after olddefconfig; remove $o and look at the tree's arch/um/Kconfig" >&2; exit 1; }
fi
echo "bench/uml.sh: building UML from $ksrc in $o (minutes, once)" >&2
make -s -C "$o" ARCH=um -j"$(nproc)" linux >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-uml.XXXXXX")
pid=
trap 'rm -rf "$work"' EXIT
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; exit 130' INT TERM
busybox=$(command -v busybox)
cat >"$work/init" <<EOF
#!/bin/sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
echo "ctxt-before \$(grep '^ctxt' /proc/stat)"
hackbench -g 1 -p -l $loops -s 1000 >/dev/null && echo "ctxt-after \$(grep '^ctxt' /proc/stat)"
$busybox poweroff -f
EOF
chmod +x "$work/init"
# the console's end, after one line saying what failed
failed() { echo "bench/uml.sh: $1 (round $r); the guest's console ends:" >&2; tail -n 20 "$work/console" >&2; exit 1; }

echo "the real kernel, $(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$ksrc/Makefile" | paste -sd.) as UML ($cpus CPUs), hackbench -g 1 -p -l $loops -s 1000, perf cpu-clock at $freq Hz"
printf '%-5s %8s %7s %7s %7s %7s %6s %10s %9s %10s %10s\n' round samples linux core.c fair.c rbtree other \
	"core:fair" switches "core us/sw" "fair us/sw"
for r in $(seq "$rounds"); do
	# in the background, so that a signal reaches the trap at once
	timeout -k 30 600 perf record -q -e cpu-clock -F "$freq" -o "$work/perf.data" -- \
		"$o/linux" mem=1024M ncpus="$cpus" seccomp=on uml_dir="$work" rootfstype=hostfs \
		rootflags=/ ro init="$work/init" con=null con0=fd:0,fd:1 </dev/null >"$work/console" 2>&1 &
	pid=$!
	rc=0
	wait "$pid" || rc=$?
	pid=
	case $rc in
	0) ;;
	124|137) failed "the guest did not power off within 600 s" ;;
	*) failed "perf record or the guest failed (exit $rc)" ;;
	esac
	sw=$(awk '$1 == "ctxt-before" { b = $3 + 0 } $1 == "ctxt-after" { a = $3 + 0 } END { if (a > b) print a - b }' "$work/console")
	[ -n "$sw" ] || failed "hackbench failed in the guest, or printed no switch count"
	perf script -i "$work/perf.data" -F period,ip,dso >"$work/script" 2>"$work/perf.err" ||
		{ echo "bench/uml.sh: perf script failed (round $r):" >&2; tail -n 5 "$work/perf.err" >&2; exit 1; }
	python3 "$top/bench/uml_split.py" "$o/linux" "$work/script" >"$work/split.$r"
	# shellcheck disable=SC2046 # the counts and nanoseconds, one word each
	set -- $(sed -n 1,2p "$work/split.$r")
	[ "$2" -gt 0 ] || { echo "bench/uml.sh: no sample in $o/linux (round $r): is it the binary perf ran, with debug info?" >&2; exit 1; }
	[ "$4" -gt 0 ] || { echo "bench/uml.sh: no sample in fair.c (round $r): too short a run; raise LOOPS" >&2; exit 1; }
	awk -v r="$r" -v t="$1" -v l="$2" -v c="$3" -v f="$4" -v rb="$5" -v os="$6" -v s="$8" \
	    -v cns="$9" -v fns="${10}" -v sw="$sw" -v rows="$work/rows" 'BEGIN {
		printf "%-5s %8d %7d %7d %7d %7d %6d %10.2f %9d %10.3f %10.3f\n", r, t, l, c, f, rb, os,
		       cns / fns, sw, cns / sw / 1000, fns / sw / 1000
		print cns / fns, c ? s / c : 0, r >>rows
	}'
done
sort -n "$work/rows" | awk -v med="$work/median" '{ v[++n] = $1; s += $2; r[n] = $3 } END {
	m = int((n + 1) / 2)
	printf "core.c : fair.c (and pelt.c), median of %d: %.2f (%.2f-%.2f); __schedule() %.0f%% of core.c'\''s samples, mean\n",
	       n, v[m], v[1], v[n], 100 * s / n
	print r[m] >med
}'
echo "largest functions (samples) in round $(cat "$work/median"), the median's:"
sed -n '3,$p' "$work/split.$(cat "$work/median")"

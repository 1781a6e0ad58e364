#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One boot of the twin's real kernel under QEMU: the cached initramfs plus
# a cpio of this run's /run/params and /run/workload.json, the console on
# the first serial port (OUT/console.log), the guest's results (a tar.gz,
# see twin/init.sh) on the second. ACCEL is kvm, tcg (multi-threaded TCG,
# the guest clock follows the host's) or icount:N (TCG with -icount
# shift=N,sleep=off: one guest instruction is 2^N ns of guest time, and an
# idle guest jumps to its next timer). A guest that does not power off
# within LIMIT seconds of wall time is killed. OUT is written only when
# the run was whole: results unpacked, the guest's status "ok"; otherwise
# one line on stderr and exit 1, and OUT does not exist.
#
# usage: twin/boot.sh KIMAGE_DIR INITRD RTAPP_JSON THREADS CPUS DURATION FEATURES ACCEL LIMIT OUT
set -eu
die() { echo "fairtest: $*" >&2; exit 1; }
[ $# -eq 10 ] ||
	die "usage: twin/boot.sh KIMAGE_DIR INITRD RTAPP_JSON THREADS CPUS DURATION FEATURES ACCEL LIMIT OUT"
kimage=$1 initrd=$2 json=$3 threads=$4 cpus=$5 duration=$6 features=$7 accel=$8 limit=$9
out=${10}
[ -f "$kimage/vmlinuz" ] || die "no kernel image in $kimage"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "$out.tmp.XXXXXX")
# FAIRTEST_TWIN_KEEP=1 keeps a failed run's files (console, qemu's output).
trap '[ "${FAIRTEST_TWIN_KEEP:-}" = 1 ] && [ -f "$tmp/qemu.log" ] && echo "fairtest: kept $tmp" >&2 || rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

mkdir -p "$tmp/cpio/run"
cp "$json" "$tmp/cpio/run/workload.json"
# FAIRTEST_TWIN_EVENTS=file: dynamic events (tracefs dynamic_events lines,
# group "fairtest") recorded beside the sched tracepoints.
if [ -n "${FAIRTEST_TWIN_EVENTS:-}" ]; then
	[ -f "$FAIRTEST_TWIN_EVENTS" ] || die "FAIRTEST_TWIN_EVENTS=$FAIRTEST_TWIN_EVENTS: no such file of dynamic_events lines"
	grep -v '^[[:space:]]*\(#\|$\)' "$FAIRTEST_TWIN_EVENTS" >"$tmp/cpio/run/events"
fi
# A program beside rt-app (twin/workload.py's "twin:" line): its threads, its command.
[ ! -f "${json%.json}.extra" ] || cp "${json%.json}.extra" "$tmp/cpio/run/extra"
# The ring buffer, per CPU: the trace of a busy CPU runs to about 1 MB a
# second in the binary buffer; the guest has 1 GiB.
buffer_kb=$(awk -v d="$duration" -v c="$cpus" 'BEGIN { k = int(d * 2048 + 8192); m = int(262144 / c); print (k > m ? m : k) }')
cat >"$tmp/cpio/run/params" <<EOF
DURATION=$duration
PROBE=${FAIRTEST_TWIN_PROBE:-}
FEATURES='$features'
THREADS=$threads
BUFFER_KB=$buffer_kb
EOF
(cd "$tmp/cpio" && find . | sort | busybox cpio -o -H newc 2>/dev/null) | gzip -n >"$tmp/run.cpio.gz"
cat "$initrd" "$tmp/run.cpio.gz" >"$tmp/initrd"
rm -rf "$tmp/cpio" "$tmp/run.cpio.gz"

case $accel in
kvm) acc="-accel kvm -cpu max" ;;
tcg) acc="-accel tcg,thread=multi -cpu max" ;;
icount:[0-9]*) acc="-accel tcg -cpu max -icount shift=${accel#icount:},sleep=off" ;;
*) die "unknown accelerator $accel (kvm, tcg, icount:N)" ;;
esac
start=$(date +%s)
# cryptomgr.notests: Debian's kernels test every crypto algorithm in
# kthreads at boot, which under TCG are still running when the workload
# starts (seen: cryptomgr_test took 41% of the CPU of a 2 s window).
# shellcheck disable=SC2086 # $acc is words
timeout -k 5 "$limit" qemu-system-x86_64 $acc -m 1G -smp "$cpus" \
	-display none -monitor none -nodefaults -no-reboot \
	-serial "file:$tmp/console.log" -serial "file:$tmp/result.tgz" \
	-kernel "$kimage/vmlinuz" -initrd "$tmp/initrd" \
	-append "console=ttyS0 panic=-1 quiet cryptomgr.notests${FAIRTEST_TWIN_APPEND:+ $FAIRTEST_TWIN_APPEND}" >"$tmp/qemu.log" 2>&1 && rc=0 || rc=$?
wall=$(($(date +%s) - start))
rm -f "$tmp/initrd"
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	die "the guest ($(cat "$kimage/package"), $accel) did not power off within $limit s; killed (its console: rerun with FAIRTEST_TWIN_KEEP=1)"
fi
[ "$rc" -eq 0 ] || die "qemu-system-x86_64 failed ($rc): $(head -c 300 "$tmp/qemu.log" | tr '\n' ' ')"
mkdir "$tmp/res"
tar -C "$tmp/res" -xzf "$tmp/result.tgz" 2>/dev/null ||
	die "the guest's results did not arrive whole ($accel; console: $(grep fairtest-guest "$tmp/console.log" | tail -n 1))"
status=$(cat "$tmp/res/status" 2>/dev/null || echo "no status")
[ "$status" = ok ] || die "the guest failed: $status"
mv "$tmp/console.log" "$tmp/res/"
echo "$wall" >"$tmp/res/wall"
echo "$accel" >"$tmp/res/accel"
rm -f "$tmp/qemu.log"
mv "$tmp/res" "$out"

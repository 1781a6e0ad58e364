#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The twin's guest /init (busybox sh, PID 1 of Debian's own kernel under
# QEMU). It sets the sched features, measures rt-app's ns per loop once
# (rt-app's own calibration takes 4-26 s under TCG and drifts), records the
# scheduler's tracepoints while the workload runs, snapshots each rt-app
# thread's /proc/<tid>/schedstat at the end of the window, and sends the
# results as a tar.gz down the second serial port (ttyS1, a file on the
# host) before `poweroff -f`. /run/params and /run/workload.json come from
# the run's own cpio, appended to the cached one by twin/boot.sh.
#
# The trace covers the measured window, which opens once every thread of
# the workload exists and lasts DURATION seconds; trace_marker lines
# "fairtest_twin: window_start" / "window_end" mark its ends.

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/shm /tmp
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
[ -e $T/trace ] || T=/sys/kernel/debug/tracing

say() { echo "fairtest-guest: $*" >/dev/console; }
out=/tmp/out
mkdir -p $out
# Whatever happens next, the host gets what there is and the guest ends.
finish() {
	echo "$1" >$out/status
	[ "$1" = ok ] || say "failed: $1"
	stty -F /dev/ttyS1 raw -echo -onlcr 2>/dev/null
	tar -C $out -cf - . | gzip >/dev/ttyS1
	sync
	poweroff -f
}

. /run/params
uname -r >$out/kernel
nproc >$out/cpus
say "up: $(uname -r), $(nproc) CPUs, $(cut -d' ' -f1 /proc/uptime) s after boot"
# twin/accel.sh asks only whether the kernel reaches /init.
[ -z "$PROBE" ] || finish ok

# FEATURES is fairsim's list: "A,!B"; debugfs takes A and NO_B.
for f in $(echo "$FEATURES" | tr ',' ' '); do
	case $f in
	!*) f=NO_${f#!} ;;
	esac
	echo "$f" >/sys/kernel/debug/sched/features 2>/dev/null ||
		finish "the kernel has no sched feature $f (see $out/features)"
done
cat /sys/kernel/debug/sched/features >$out/features

# rt-app's ns per loop, measured by rt-app itself: with "calibration"
# 1000 a run event of R us is R loops; its log gives each event's time
# (us, column 3) and loops (column 2). The median of one second of events
# leaves out those a tick or a kernel thread cut into.
mkdir -p /tmp/cal
cat >/tmp/cal.json <<EOF
{ "global": { "calibration": 1000, "duration": 1, "default_policy": "SCHED_OTHER",
	"lock_pages": false, "logdir": "/tmp/cal", "log_basename": "cal", "log_size": 4 },
  "tasks": { "cal": { "run": 2000 } } }
EOF
timeout 60 rt-app /tmp/cal.json >/tmp/cal/out 2>&1 ||
	{ cp /tmp/cal/out $out/rt-app.err; finish "rt-app did not run its calibration (rt-app.err)"; }
ns=$(cat /tmp/cal/cal-*.log 2>/dev/null | awk '!/^#/ && $2 > 0 { printf "%.3f\n", $3 * 1000 / $2 }' | sort -n |
	awk '{ v[NR] = $1 } END { if (NR) printf "%d %d\n", v[int((NR + 1) / 2)] + 0.5, NR }')
set -- $ns
[ "${1:-0}" -gt 0 ] || { cp /tmp/cal/out $out/rt-app.err; finish "rt-app's calibration log is empty (rt-app.err)"; }
ns=$1
echo "$ns" >$out/calibration
sed "s/\"@CALIBRATION@\"/$ns/" /run/workload.json >/tmp/workload.json
say "rt-app: $ns ns per loop (median of $2 run events)"

echo 0 >$T/tracing_on
echo >$T/trace
echo "$BUFFER_KB" >$T/buffer_size_kb
for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task; do
	echo 1 >$T/events/sched/$e/enable || finish "tracefs has no sched:$e"
done
# FAIRTEST_TWIN_EVENTS (twin/boot.sh): probes on fair.c's functions, with
# BTF argument names, in group "fairtest"; the kernel's error_log names a
# line it refuses.
if [ -s /run/events ]; then
	while read -r l; do
		echo "$l" >>$T/dynamic_events 2>/dev/null ||
			{
				# error_log: the reason, the command, a caret under the bad part
				col=$(tail -n 1 $T/error_log | awk '{ print index($0, "^") }')
				finish "the kernel refused the event: $l: $(tail -n 3 $T/error_log | head -n 1 |
					sed 's/.*error: //') at: $(tail -n 2 $T/error_log | head -n 1 | cut -c"${col:-1}"-)"
			}
	done </run/events
	cp $T/dynamic_events $out/events
	echo 1 >$T/events/fairtest/enable || finish "no events in group fairtest"
fi

# A program the workload runs beside rt-app (/run/extra: its threads, then
# its command) starts first and has all its threads before rt-app starts.
epid=
if [ -f /run/extra ]; then
	{ read -r ethreads; read -r ecmd; } </run/extra
	$ecmd >$out/extra.out 2>&1 &
	epid=$!
	n=0
	while [ "$(ls /proc/$epid/task 2>/dev/null | wc -l)" -le "$ethreads" ]; do
		[ -d /proc/$epid ] || finish "$ecmd exited before its threads ran (extra.out)"
		n=$((n + 1))
		[ $n -lt 2000 ] || finish "$ecmd's $ethreads threads did not all start within 100 s"
		sleep 0.05
	done
fi
rt-app /tmp/workload.json >$out/rt-app.out 2>&1 &
pid=$!
# This shell marks the window and reads the threads' clocks: at nice -20 it
# does so when its sleep ends, not when the workload lets it run. rt-app
# has its own nice by then (it forks at 0).
renice -n -20 -p $$ >/dev/null
# The window opens when rt-app's main thread and all of the workload's
# exist (rt-app parses and mlocks first: tenths of a second under TCG).
n=0
while [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -le "$THREADS" ]; do
	[ -d /proc/$pid ] || finish "rt-app exited before its threads ran (rt-app.out)"
	n=$((n + 1))
	[ $n -lt 2000 ] || finish "rt-app's $THREADS threads did not all start within 100 s"
	sleep 0.05
done
# Shell builtins only from here to the snapshot: a fork costs tens of ms
# under TCG.
# schedstat (tid, run ns, wait ns, timeslices, comm) is read at both ends
# of the window: the difference is the window's.
snapshot() {
	for t in /proc/$pid/task/*; do
		read -r s <$t/schedstat
		read -r c <$t/comm
		echo "${t##*/} $s $c"
	done >$1
}
# The trace is the window: rt-app's start (parsing, mlock, thread
# creation: a tenth of a second of waits under TCG) stays out of it.
echo 1 >$T/tracing_on
echo "fairtest_twin: window_start" >$T/trace_marker
snapshot $out/schedstat.start
read -r up _ </proc/uptime
echo "$up" >$out/window_start
sleep "$DURATION"
echo "fairtest_twin: window_end" >$T/trace_marker
snapshot $out/schedstat
read -r up _ </proc/uptime
echo "$up" >$out/window_end
echo 0 >$T/tracing_on
kill $pid $epid 2>/dev/null
wait $pid 2>/dev/null
[ -z "$epid" ] || wait $epid 2>/dev/null

for c in $T/per_cpu/cpu*; do
	echo "${c##*/} $(sed -n 's/^overrun: //p' $c/stats)"
done >$out/overrun
cat $T/trace >$out/trace
say "window $(cat $out/window_start)-$(cat $out/window_end) s, $(wc -l <$out/trace) trace lines"
finish ok

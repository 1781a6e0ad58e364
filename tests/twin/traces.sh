#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The trace scripts of twin/ on small traces of ours, without a boot:
# twin/pipe_yields.py tells hackbench's switches away by their state and
# by what set the flag; twin/wakeup_state.py --side takes one side's
# wake-up checks of the real hackbench. Then each mutant fixtures/mutants/twin/traces-*
# runs the same checks (tests/twin/tap.sh's mutants): the ones it names
# fail, no other.
#
# usage: tests/twin/traces.sh OUTDIR
set -u
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
tap_name=twin-traces
. "$top/tests/twin/tap.sh"
fresh_out

# hackbench -f 1: pid 10 the receiver, 11 the sender. The sender wakes the
# receiver with the N flag and is switched away at its return (R); in its
# next write it wakes the receiver without the flag, a tick sets it, and
# it is switched at mutex_lock()'s cond_resched() (R+); then it sleeps in
# D. The receiver sleeps once in S. The sender's wake-ups begin with a
# sched_waking line: one in its first run, two 5 us apart in its second.
cat >"$out/yields.trace" <<'EOF'
# tracer: nop
       hackbench-11      [000] .....     1.000000: pw: (pipe_write+0x4/0x650)
       hackbench-11      [000] .....     1.000001: cr: (__cond_resched+0x4/0x70) ra=mutex_lock+0x12/0x30
       hackbench-11      [000] d..3.     1.000003: sched_waking: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] dN.3.     1.000005: sched_wakeup: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] d..2.     1.000009: sched_switch: prev_comm=hackbench prev_pid=11 prev_prio=120 prev_state=R ==> next_comm=hackbench next_pid=10 next_prio=120
       hackbench-10      [000] .....     1.000010: pr: (pipe_read+0x4/0x650)
       hackbench-10      [000] d..2.     1.000015: sched_switch: prev_comm=hackbench prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=hackbench next_pid=11 next_prio=120
       hackbench-11      [000] d..3.     1.000016: sched_waking: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] .....     1.000020: pw: (pipe_write+0x4/0x650)
       hackbench-11      [000] d..3.     1.000021: sched_waking: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] d..3.     1.000021: sched_wakeup: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] .N...     1.000022: cr: (__cond_resched+0x4/0x70) ra=mutex_lock+0x12/0x30
       hackbench-11      [000] d..2.     1.000023: sched_switch: prev_comm=hackbench prev_pid=11 prev_prio=120 prev_state=R+ ==> next_comm=hackbench next_pid=10 next_prio=120
       hackbench-10      [000] d..2.     1.000030: sched_switch: prev_comm=hackbench prev_pid=10 prev_prio=120 prev_state=R ==> next_comm=hackbench next_pid=11 next_prio=120
       hackbench-11      [000] d..2.     1.000040: sched_switch: prev_comm=hackbench prev_pid=11 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
EOF

# 7.x's lazy flag (PREEMPT_LAZY: fair.c's wake-up preemption sets
# TIF_NEED_RESCHED_LAZY, "l" in the flags): the sender wakes the receiver
# with it and is switched away at its return; the receiver sleeps.
cat >"$out/lazy.trace" <<'EOF'
# tracer: nop
       hackbench-11      [000] d..3.     1.000003: sched_waking: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] dl.3.     1.000005: sched_wakeup: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] d..2.     1.000009: sched_switch: prev_comm=hackbench prev_pid=11 prev_prio=120 prev_state=R ==> next_comm=hackbench next_pid=10 next_prio=120
       hackbench-10      [000] d..2.     1.000015: sched_switch: prev_comm=hackbench prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=hackbench next_pid=11 next_prio=120
EOF

# hackbench -f 1 again, its wake-up checks (wpf, as the probes of
# twin/events/wakeup-7.3.events write them): the receiver (pid 10) is woken
# twice, the first check preempting (N), the sender (11) once, from D.
# Each check's queue: V 50 us left of the running task, the wakee 50 us
# left of V, with 40 us of lag kept from its sleep.
w='wf=8 pv=900000 pl=40000 pd=1600000 ps=700000 pdl=0 cv=1000000 cd=1500000 cp=1500000 cs=700000 cx=1 zv=1000000 sv=-104857600000 sw=1048576 nq=2'
wpf='wpf: (wakeup_preempt_fair+0x4/0x480)'
cat >"$out/wakeups.trace" <<EOF
# tracer: nop
       hackbench-10      [000] d..2.     1.000000: sched_switch: prev_comm=hackbench prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=hackbench next_pid=11 next_prio=120
       hackbench-11      [000] d..5.     1.000010: $wpf pid=10 $w cpid=11
       hackbench-11      [000] dN.4.     1.000011: sched_wakeup: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] d..2.     1.000015: sched_switch: prev_comm=hackbench prev_pid=11 prev_prio=120 prev_state=R ==> next_comm=hackbench next_pid=10 next_prio=120
       hackbench-10      [000] d..2.     1.000030: sched_switch: prev_comm=hackbench prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=hackbench next_pid=11 next_prio=120
       hackbench-11      [000] d..5.     1.000040: $wpf pid=10 $w cpid=11
       hackbench-11      [000] d..4.     1.000041: sched_wakeup: comm=hackbench pid=10 prio=120 target_cpu=000
       hackbench-11      [000] d..2.     1.000050: sched_switch: prev_comm=hackbench prev_pid=11 prev_prio=120 prev_state=D ==> next_comm=hackbench next_pid=10 next_prio=120
       hackbench-10      [000] d..5.     1.000060: $wpf pid=11 $w cpid=10
       hackbench-10      [000] d..4.     1.000061: sched_wakeup: comm=hackbench pid=11 prio=120 target_cpu=000
EOF

# One check across the wrap of vruntime (7.x starts it 1 ms below 2^64):
# the queue's zero 10 us below 2^64, the running task 20 us after it (its
# vruntime wrapped to 10 us), the wakee 100 us before it. V is 40 us
# before the zero: the running task ineligible, the wakee's lag 60 us,
# the running task's deadline 560 us after V, 500 after its vruntime.
cat >"$out/wrap.trace" <<EOF
# tracer: nop
           w-20      [000] d..5.     1.000000: $wpf pid=21 wf=8 pv=18446744073709441616 pl=60000 pd=590000 ps=700000 pdl=0 cpid=20 cv=10000 cd=510000 cp=510000 cs=700000 cx=1 zv=18446744073709541616 sv=-104857600000 sw=1048576 nq=2
           w-20      [000] d..4.     1.000001: sched_wakeup: comm=w pid=21 prio=120 target_cpu=000
EOF

# schbench-mutex's shape for twin/mutex_bursts.py: M (pid 10) wakes
# workers 20 and 21; 20 runs a pass (520 us) and sleeps; 21 wakes 20 (a
# wait's unlock) and sleeps after 20 us; 20 wakes M (a group's last
# leaver), is preempted by it 10 us in, runs 5 us more after M and
# sleeps; 21, woken by M again, sleeps after 10 us having woken nobody.
# Lines before the window's mark are not read.
cat >"$out/mutex.trace" <<'EOF'
# tracer: nop
               w-21      [000] d..2.     0.999000: sched_switch: prev_comm=w prev_pid=21 prev_prio=120 prev_state=S ==> next_comm=m next_pid=10 next_prio=120
          init-1       [000] .....     1.000000: tracing_mark_write: fairtest_twin: window_start
               m-10      [000] d..2.     1.000010: sched_waking: comm=w pid=20 prio=120 target_cpu=000
               m-10      [000] d..2.     1.000011: sched_waking: comm=w pid=21 prio=120 target_cpu=000
               m-10      [000] d..2.     1.000020: sched_switch: prev_comm=m prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=w next_pid=20 next_prio=120
               w-20      [000] d..2.     1.000540: sched_switch: prev_comm=w prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=w next_pid=21 next_prio=120
               w-21      [000] d..2.     1.000545: sched_waking: comm=w pid=20 prio=120 target_cpu=000
               w-21      [000] d..2.     1.000560: sched_switch: prev_comm=w prev_pid=21 prev_prio=120 prev_state=S ==> next_comm=w next_pid=20 next_prio=120
               w-20      [000] d..2.     1.000565: sched_waking: comm=m pid=10 prio=120 target_cpu=000
               w-20      [000] d..2.     1.000570: sched_switch: prev_comm=w prev_pid=20 prev_prio=120 prev_state=R ==> next_comm=m next_pid=10 next_prio=120
               m-10      [000] d..2.     1.000598: sched_waking: comm=w pid=21 prio=120 target_cpu=000
               m-10      [000] d..2.     1.000600: sched_switch: prev_comm=m prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=w next_pid=20 next_prio=120
               w-20      [000] d..2.     1.000605: sched_switch: prev_comm=w prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=w next_pid=21 next_prio=120
               w-21      [000] d..2.     1.000615: sched_switch: prev_comm=w prev_pid=21 prev_prio=120 prev_state=S ==> next_comm=m next_pid=10 next_prio=120
EOF

# Wake-ups that asked for their waker's switch, for twin/wake_switch.py:
# w (pid 20) wakes x without a flag, then m with N, and is preempted 7 us
# later; w (21) wakes w (20) with the lazy flag, wakes x again and sleeps
# 10 us later; w (20) wakes m with N from an interrupt (h). Lines before
# the window's mark are not read.
cat >"$out/switch.trace" <<'EOF'
# tracer: nop
               w-21      [000] dN.3.     0.999000: sched_wakeup: comm=m pid=10 prio=120 target_cpu=000
               w-21      [000] d..2.     0.999005: sched_switch: prev_comm=w prev_pid=21 prev_prio=120 prev_state=R ==> next_comm=w next_pid=20 next_prio=120
          init-1       [000] .....     1.000000: tracing_mark_write: fairtest_twin: window_start
               w-20      [000] d..3.     1.000050: sched_wakeup: comm=x pid=30 prio=120 target_cpu=000
               w-20      [000] d..3.     1.000099: sched_waking: comm=m pid=10 prio=120 target_cpu=000
               w-20      [000] dN.3.     1.000100: sched_wakeup: comm=m pid=10 prio=120 target_cpu=000
               w-20      [000] d..2.     1.000107: sched_switch: prev_comm=w prev_pid=20 prev_prio=120 prev_state=R ==> next_comm=w next_pid=21 next_prio=120
               w-21      [000] dl.3.     1.000200: sched_wakeup: comm=w pid=20 prio=120 target_cpu=000
               w-21      [000] d..3.     1.000203: sched_waking: comm=x pid=30 prio=120 target_cpu=000
               w-21      [000] d..2.     1.000210: sched_switch: prev_comm=w prev_pid=21 prev_prio=120 prev_state=S ==> next_comm=w next_pid=20 next_prio=120
               w-20      [000] dNh3.     1.000300: sched_wakeup: comm=m pid=10 prio=120 target_cpu=000
               w-20      [000] d..2.     1.000302: sched_switch: prev_comm=w prev_pid=20 prev_prio=120 prev_state=R ==> next_comm=m next_pid=10 next_prio=120
EOF

# A boot's window for twin/segment_costs.py: w sleeps after 10 us inside
# the trace's window marks and after 20 us past the end mark, where
# real-N/window_* (/proc/uptime, a quarter of a second ahead of the
# trace's clock under TCG) would put the window.
mkdir -p "$out/real-1"
echo 1.25 >"$out/real-1/window_start"
echo 1.50 >"$out/real-1/window_end"
cat >"$out/real-1/trace" <<'EOF'
# tracer: nop
          init-1       [000] .....     1.000000: tracing_mark_write: fairtest_twin: window_start
          <idle>-0       [000] d..2.     1.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=20 next_prio=120
               w-20      [000] d..2.     1.000110: sched_switch: prev_comm=w prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          init-1       [000] .....     1.001000: tracing_mark_write: fairtest_twin: window_end
          <idle>-0       [000] d..2.     1.300000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=20 next_prio=120
               w-20      [000] d..2.     1.300020: sched_switch: prev_comm=w prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
EOF

# checks TWIN WORK: prints ok / not ok lines and the tally
checks() {
	(
	passed=0 failed=0
	yl=$(python3 "$1/pipe_yields.py" --fds 1 "$out/yields.trace" 2>&1)
	echo "$yl" | sed 's/^/# /'
	# Expect the receiver's S and its R, the sender's R, R+ and D.
	check "pipe_yields.py: each side's switches counted" \
		'echo "$yl" | grep -q "^  receivers: 2 switches away$" && echo "$yl" | grep -q "^  senders: 3 switches away$"'
	# Expect the first R flagged by the receiver's wake-up with N.
	check "pipe_yields.py: a wake-up with the N flag is what set it" \
		'echo "$yl" | grep -q "^    R  *1, flag set by: a receiver$"'
	# Expect the R+ at mutex_lock, flagged by no wake-up: the one it made had no N.
	check "pipe_yields.py: a wake-up without the N flag set nothing" \
		'echo "$yl" | grep -q "^    R+ (in mutex_lock)  *1, flag set by: no wake-up$"'
	check "pipe_yields.py: a sleep in D" 'echo "$yl" | grep -q "^    D  *1$"'
	# Expect the sender's runs from its switch in: 8 us (R+) and 10 us
	# (D), one receiver woken in the one it left runnable, the one from
	# before its first write not counted.
	check "pipe_yields.py: a sender's runs, the receivers woken in each" \
		'echo "$yl" | grep -q "^    runs: p50 10 us, mean 9 us$" &&
		 echo "$yl" | grep -q "^    runs left runnable: receivers woken p50 1, mean 1.0$"'
	# Expect one gap between wake-ups, the second run's 5 us: none from the
	# first run's wake-up to the second run's, a switch between.
	check "pipe_yields.py: wake-ups in one run, how far apart" \
		'echo "$yl" | grep -q "^    wake-ups in one run: 1, p50 5 us apart$"'
	# Expect the sender's two wake-ups timed from their latest sched_waking:
	# 2 us, and 0 us (the one at 1.000016 superseded at 1.000021).
	check "pipe_yields.py: a wake-up from its latest sched_waking to sched_wakeup" \
		'echo "$yl" | grep -q "^    sched_waking to sched_wakeup: 2, p50 2 us$"'
	yl=$(python3 "$1/pipe_yields.py" --fds 1 "$out/lazy.trace" 2>&1)
	echo "$yl" | sed 's/^/# /'
	# Expect the sender's R flagged by the receiver's wake-up, as with N.
	check "pipe_yields.py: a wake-up with the lazy flag is what set it" \
		'echo "$yl" | grep -q "^    R  *1, flag set by: a receiver$"'
	ws=$(python3 "$1/wakeup_state.py" --side receiver --fds 1 "$out/wakeups.trace" 2>&1)
	echo "$ws" | sed 's/^/# /'
	# Expect the receiver's two checks, one preempting, the running task
	# ineligible at both, the wakee's lag 50 us; not the sender's.
	check "wakeup_state.py: --side receiver takes the receivers' checks alone" \
		'echo "$ws" | grep -q "2 wake-ups of hackbench.s receivers, 50% decided to preempt$" &&
		 echo "$ws" | grep -q "^  not  *1  *0%  *100%  *50 "'
	ws=$(python3 "$1/wakeup_state.py" --side sender --fds 1 "$out/wakeups.trace" 2>&1)
	echo "$ws" | sed 's/^/# /'
	# Expect the sender's one check, which did not preempt.
	check "wakeup_state.py: --side sender takes the senders' checks alone" \
		'echo "$ws" | grep -q "1 wake-ups of hackbench.s senders, 0% decided to preempt$"'
	# Expect the lag kept from the sleep (the wakee's vlag) beside the
	# placed one.
	check "wakeup_state.py: the lag kept from the sleep" \
		'echo "$ws" | grep -q "^  not .* 50 .*  *2  *40$"'
	ws=$(python3 "$1/wakeup_state.py" w "$out/wrap.trace" 2>&1)
	echo "$ws" | sed 's/^/# /'
	# Expect the state as fair.c reads it relative to the zero, the wrap
	# not seen: ineligible, protected, lag 60, deadline 560 past V.
	check "wakeup_state.py: vruntimes across the wrap" \
		'echo "$ws" | grep -q "^  not  *1  *0%  *100%  *60  *80  *560  *500  *2  *60$"'
	python3 "$1/wakeup_state.py" --side writer "$out/wakeups.trace" >"$out/side.err" 2>&1
	rc=$?
	check "wakeup_state.py: an unknown side: the usage, non-zero" \
		'[ "$rc" -ne 0 ] && grep -q "^usage: twin/wakeup_state.py" "$out/side.err"'
	python3 "$1/pipe_yields.py" "$out/none" >"$out/none.err" 2>&1
	rc=$?
	check "pipe_yields.py: no such trace: one line, non-zero" \
		'[ "$rc" -ne 0 ] && [ "$(grep -c . "$out/none.err")" = 1 ]'
	mb=$(python3 "$1/mutex_bursts.py" w "$out/mutex.trace" 2>&1)
	# Expect 4 wake-ups: 1 pass, 1 short burst that woke nobody, 2 that
	# woke a task, 565 us of CPU a pass, 1 preempted by its wakee.
	check "mutex_bursts.py: a burst's pieces across a preemption joined" \
		'echo "$mb" | grep -q "mutex.trace: 4 | 1 | 1, 2 | 565.0 | 1$"'
	sw=$(python3 "$1/wake_switch.py" "$out/switch.trace" 2>&1)
	echo "$sw" | sed 's/^/# /'
	# Expect w -> m once, preempted 7 us after its flagged wake-up (the
	# unflagged one before it and the interrupt's after it not counted),
	# and w -> w once, asleep 10 us after, having woken x first.
	check "wake_switch.py: the flagged wake-ups in a task's context, how the waker left" \
		'echo "$sw" | grep -q "^  w -> m: 1 | 7, 7 | 1, 0 | 0$" &&
		 echo "$sw" | grep -q "^  w -> w: 1 | 10, 10 | 0, 1 | 1$" &&
		 [ "$(echo "$sw" | grep -c " -> ")" = 3 ]'
	sc=$(python3 "$1/segment_costs.py" w "$out/real-1/trace" 2>&1)
	echo "$sc" | sed 's/^/# /'
	# Expect the one segment inside the marks, 10 us.
	check "segment_costs.py: the window from the trace's marks" \
		'echo "$sc" | grep -q "^     0      1     10.0     10.0     10.0$"'
	echo "checks: $passed passed, $failed failed"
	)
}

checks_then_mutants "$out/traces.log" "traces-*" "$out/work"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The workload simulator's checks (fairsim, sim/): small workloads whose
# figures are worked out on paper below, every event kind in one run,
# byte-identical output for the same seed, the trace and JSON files
# parse, the A/B path and the plots work, and each bad input in bad/
# fails with its one line and leaves no file behind. Prints
# "sim: N passed, N failed, N skipped" last.
#
# usage: tests/sim/run.sh FAIRSIM [KSRC]  (KSRC, the tree FAIRSIM was built
# from, makes the pipe's tree-dependent wake-up checked exactly)
set -u
sim=$1 ksrc=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0 skip=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }

# run NAME CPUS [args...]: the case's JSON result in $out/NAME.json, on
# the ideal machine (--ideal: no timer slack, no wake-up or idle-exit
# cost), where the figures below are worked out on paper
run() {
	name=$1 cpus=$2
	shift 2
	"$sim" --quiet --ideal --seed 0 --cpus "$cpus" --json "$out/$name.json" "$@" \
		"$here/cases/$name.json" 2>"$out/$name.err" ||
		{ bad "$name: fairsim failed: $(head -c 300 "$out/$name.err")"; return 1; }
}

# expect WHAT FILE PYTHON-EXPR: the expression over the result r is true
expect() {
	what=$1 file=$2 expr=$3
	if got=$(python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
t = {x['task'] + '-' + str(x['instance']): x for x in r['tasks']}
ok = $expr
print('' if ok else 'false: ' + sys.argv[2])
sys.exit(0 if ok else 1)" "$file" "$expr" 2>&1); then
		ok "$what"
	else
		bad "$what: $got"
	fi
}

# One task alone on one CPU: run 1 ms, then a 4 ms timer (started at its
# first use, 1 ms). It runs [0,1], sleeps to 5, runs [5,6], ... : wake-ups
# at 5, 9, ..., 997 ms, 249 of them, each on an idle CPU. Expect 250 ms of
# run time, 249 wake-ups, every latency 0.
run periodic 1 && expect "periodic task alone: 250 ms run, 249 wake-ups, zero latency" \
	"$out/periodic.json" \
	"t['p-0']['runtime_ns'] == 250000000 and t['p-0']['wakeups'] == 249 and \
	 t['p-0']['wakeup_latency_ns']['samples'] == 249 and t['p-0']['wakeup_latency_ns']['max'] == 0"

# A (CPU 0) holds mutex m for [0,2] ms, then sleeps 8; B (CPU 1) starts at
# 1.5 ms and blocks on m; the unlock at 2 wakes B, which takes m, runs
# [2,3] and sleeps 8.5. From then on B wakes at 11.5, 21.5, ..., finds m
# held by A (held [10,12], [20,22], ...) and takes it at 12, 22, ...: two
# wake-ups per 10 ms, on an idle CPU. The loop also handles events due at
# the final instant, so A's wake-up at 1000 ms counts. Expect A 200 ms run
# and 100 wake-ups, B 100 ms and 200 wake-ups (1.5, 2, then 11.5, 12, ...),
# every latency 0.
run mutex 2 && expect "mutex unlock wakes the waiter on two pinned CPUs: exact run times and wake-ups" \
	"$out/mutex.json" \
	"t['a-0']['runtime_ns'] == 200000000 and t['a-0']['wakeups'] == 100 and \
	 t['b-0']['runtime_ns'] == 100000000 and t['b-0']['wakeups'] == 200 and \
	 t['b-0']['wakeup_latency_ns']['max'] == 0 and t['b-0']['cpu'] == 1"

# glibc's unlock hands nothing over: it wakes one waiter, which tries
# again when it runs. A (CPU 0) holds m for 2 ms, unlocks and locks it
# again at once; B (CPU 1) comes at 1 ms and sleeps on m. Each unlock
# (2, 4, ..., 1000 ms) wakes B, which runs after A took m back and sleeps
# again. Expect A all of the second, B no run time and 501 wake-ups (its
# start at 1 ms, then 500 futex wake-ups; a hand-over gives B 1 ms each).
run mutex_barging 2 && expect "mutex unlock wakes a waiter that loses to the running locker" \
	"$out/mutex_barging.json" \
	"t['a-0']['runtime_ns'] == 1000000000 and t['a-0']['wakeups'] == 0 and \
	 t['b-0']['runtime_ns'] == 0 and t['b-0']['wakeups'] == 501"

# glibc's broadcast first waits until the waiters its last broadcast woke
# have run. Each wake-up costs 1 ms of CPU (--wake-cost 1000), paid before
# the woken task goes on. W (CPU 1) waits on c at 0; M (CPU 0) runs at
# 1 ms, broadcasts at 1.1 (W woken), broadcasts again at 1.2 holding mx,
# with X (CPU 2, from 1.15) waiting: W has not run yet, so M sleeps. W
# runs its cost to 2.1, leaves the group (waking M) and sleeps on mx,
# which M holds. M, after its cost, wakes X and unlocks at 3.1, waking W;
# W and X take mx in turn at 4.1. M sleeps 10 ms and, after the cost,
# broadcasts a third time at 14.1 ms (for rt-app, whose X may come after
# the second) to no waiter. Expect M 2.2 ms of run time and 3 wake-ups (its
# start, W's, its sleep's), W 2 ms and 2 wake-ups, X 1 ms and 2, the run
# over at 14.1 ms (without the wait: 12.2).
run broad_quiesce 3 --wake-cost 1000 && expect "broadcast waits for the last broadcast's waiters" \
	"$out/broad_quiesce.json" \
	"r['duration_ns'] == 14100000 and t['m-0']['runtime_ns'] == 2200000 and \
	 t['m-0']['wakeups'] == 3 and t['w-0']['runtime_ns'] == 2000000 and t['w-0']['wakeups'] == 2 and \
	 t['x-0']['runtime_ns'] == 1000000 and t['x-0']['wakeups'] == 2"

# A broadcaster that finds another waiting for its group sleeps on the
# condition's lock until the first is done. As above, with each wake-up
# 1 ms of CPU; M's second broadcast (1.2 ms, no mutex) waits for W; N (CPU
# 3) broadcasts at 1.2 too and sleeps behind M. W runs at 2.1 and wakes M,
# which wakes X and then N at 3.1 and sleeps 10 ms; N, at 4.1, finds no
# waiter and sleeps 10 ms. Expect the run over at 15.1 ms (N's third
# broadcast after its cost), M and N 3 wake-ups each, M 2.2 ms of run
# time, N 2 ms (at once: 12.2 ms; the order at 1.2 ms swaps M and N's
# wake-ups, not these figures).
run broad_two 4 --wake-cost 1000 && expect "a second broadcaster waits for the first one's lock" \
	"$out/broad_two.json" \
	"r['duration_ns'] == 15100000 and t['m-0']['wakeups'] == 3 and t['n-0']['wakeups'] == 3 and \
	 t['m-0']['runtime_ns'] == 2200000 and t['n-0']['runtime_ns'] == 2000000"

# glibc's signal (pthread_cond_signal()) wakes G1's longest waiter; the
# woken waiter holds a reference to its group until it runs, and a signal
# that finds G1 empty and waiters in G2 waits for those references before
# G2 becomes G1. Each wake-up costs 1 ms of CPU (--wake-cost 1000). V (CPU
# 1) waits on c at 0, W (CPU 2) at 0.5 ms. S (CPU 0, never holding mx)
# signals at 1 ms: G2 {V, W} becomes G1, V woken; at 1.1 W, still in G1,
# woken without a wait. X (CPU 3) waits at 1.15, into G2. S's third signal
# (1.2) finds G1 empty and V's and W's references held: S sleeps. V leaves
# at 2.0, W at 2.1 (waking S); S, after its cost, wakes X at 3.1; X's cost
# ends the run at 4.1 ms. Expect S 1.2 ms of run time and 2 wake-ups (its
# start, W's), X 1 ms and 2, the run over at 4.1 ms (a signal without the
# references: 2.2 ms, S 0.2 ms and 1), V woken at 1.0 ms and W at 1.1 (in
# the order they waited).
run signal_groups 4 --wake-cost 1000 --trace "$out/signal_groups.trace" &&
	expect "signal: G1's longest waiter; a group switch waits for the signalled ones" \
	"$out/signal_groups.json" \
	"r['duration_ns'] == 4100000 and t['s-0']['runtime_ns'] == 1200000 and \
	 t['s-0']['wakeups'] == 2 and t['x-0']['runtime_ns'] == 1000000 and t['x-0']['wakeups'] == 2 and \
	 t['v-0']['wakeups'] == 1 and t['w-0']['wakeups'] == 2 and \
	 [l.split()[3] + l.split()[5] for l in open('$out/signal_groups.trace')
	  if ' sched_waking: comm=' in l and l.split()[3] in ('0.001000:', '0.001100:')
	  and l.split()[5][5] in 'vw'] == ['0.001000:comm=v-0', '0.001100:comm=w-0']"

# A broadcast after a signal wakes the rest of G1 first, then waits for
# G1's references before G2 becomes G1 (glibc's steps 1 and 2). As
# above, each wake-up 1 ms of CPU. S signals at 1 ms: G2 {V, W} becomes
# G1, V woken, W left in G1. X waits at 1.05, into G2. S's broadcast at
# 1.1 wakes W, then sleeps until W, the last, leaves (2.1); after its
# cost S wakes X at 3.1, whose cost ends the run at 4.1 ms. Expect S 1.1
# ms of run time and 2 wake-ups, X 1 ms and 2 (woken with W at once:
# the run over at 2.1).
run broad_after_signal 4 --wake-cost 1000 && expect "broadcast after a signal: G1's rest, then the wait" \
	"$out/broad_after_signal.json" \
	"r['duration_ns'] == 4100000 and t['s-0']['runtime_ns'] == 1100000 and \
	 t['s-0']['wakeups'] == 2 and t['x-0']['runtime_ns'] == 1000000 and t['x-0']['wakeups'] == 2"

# The same with a futex wake-up costing its waker 0.1 ms (--futex-wake-cost
# 100) and each pass of a phase 0.05 ms at its end (--loop-cost 50), paid
# before the task's next event or its exit. S pays 0.1 after each signal
# (its second at 1.2, its third at 1.4, quiesced until W, at 2.2 after
# its 0.1 for waking S, leaves), wakes X at 3.2 and ends at 3.35; X runs
# its 1 ms and its pass's end, the run over at 4.25 ms. Expect S 1.55 ms
# of run time (0.2 + 3 x 0.1 + 0.05 + 1), V 1.05, W 1.15, X 1.05.
if "$sim" --quiet --ideal --seed 0 --cpus 4 --wake-cost 1000 --futex-wake-cost 100 --loop-cost 50 \
	--json "$out/signal_costs.json" "$here/cases/signal_groups.json" 2>"$out/signal_costs.err"; then
	expect "futex wake-up and loop costs: the waker pays each wake-up, each pass pays its end" \
		"$out/signal_costs.json" \
		"r['duration_ns'] == 4250000 and t['s-0']['runtime_ns'] == 1550000 and \
		 t['v-0']['runtime_ns'] == 1050000 and t['w-0']['runtime_ns'] == 1150000 and \
		 t['x-0']['runtime_ns'] == 1050000 and r['futex_wake_ns'] == 100000 and r['loop_cost_ns'] == 50000"
else
	bad "signal_groups with the futex and loop costs: fairsim failed: $(head -c 300 "$out/signal_costs.err")"
fi

# A condition wait's unlock that wakes a mutex sleeper pays for that
# wake-up before the sleep (--futex-wake-cost 100, 3 pinned CPUs). A holds
# mx [0,1] ms; B comes at 0.5 and sleeps on mx. At 1.0 A waits on c: the
# unlock wakes B (B's 2nd wake-up), A runs its 0.1 ms and only then
# sleeps. S signals c at 1.05, while A still runs: A never sleeps on c,
# tries mx at 1.1, sleeps on it (B holds it to 1.2) and is woken by B's
# unlock; B pays 0.1 for that, the run over at 1.3 ms. Expect A 1.1 ms of
# run time and 1 wake-up (paid after the sleep, S's signal wakes it: 2),
# B 0.3 ms and 2, S 0.2 ms.
if "$sim" --quiet --ideal --seed 0 --cpus 3 --futex-wake-cost 100 --json "$out/wait_pays_first.json" \
	"$here/cases/wait_pays_first.json" 2>"$out/wait_pays_first.err"; then
	expect "a wait's unlock pays its wake-up before the sleep" "$out/wait_pays_first.json" \
		"r['duration_ns'] == 1300000 and t['a-0']['runtime_ns'] == 1100000 and \
		 t['a-0']['wakeups'] == 1 and t['b-0']['runtime_ns'] == 300000 and \
		 t['b-0']['wakeups'] == 2 and t['s-0']['runtime_ns'] == 200000"
else
	bad "wait_pays_first: fairsim failed: $(head -c 300 "$out/wait_pays_first.err")"
fi

# A mutex unlock's futex wake-up at its own cost (--unlock-wake-cost
# 300), a broadcast's at --futex-wake-cost 100, each paid by the waker
# per task woken, 3 pinned CPUs. W and V lock m and wait on c. S locks m
# at 0.5 ms and broadcasts: both wake, find m taken and sleep on it; S
# pays 2 x 0.1 and runs 1 ms to 1.7, its unlock wakes W (0.3 more, S ends
# at 2.0); W takes m, its unlock wakes V and W pays 0.3; V takes m, its
# unlock wakes nobody. Expect the run over at 2.0 ms, S 1.5 ms of run time
# (1 + 2 x 0.1 + 0.3), W 0.3, V 0, and the JSON with both costs.
if "$sim" --quiet --ideal --seed 0 --cpus 3 --futex-wake-cost 100 --unlock-wake-cost 300 \
	--json "$out/unlock_cost.json" "$here/cases/unlock_cost.json" 2>"$out/unlock_cost.err"; then
	expect "an unlock's wake-up at its own cost, a broadcast's at the futex cost" \
		"$out/unlock_cost.json" \
		"r['duration_ns'] == 2000000 and t['s-0']['runtime_ns'] == 1500000 and \
		 t['w-0']['runtime_ns'] == 300000 and t['v-0']['runtime_ns'] == 0 and \
		 r['futex_wake_ns'] == 100000 and r['unlock_wake_ns'] == 300000"
else
	bad "unlock_cost: fairsim failed: $(head -c 300 "$out/unlock_cost.err")"
fi

# A runs 1 ms, B 3 ms, then both meet at a barrier; ten rounds. A waits
# 2 ms each round and is woken by B's arrival, the last one. Expect the
# run to end at 30 ms with A 10 ms, B 30 ms, A woken 10 times, B never.
run barrier 2 && expect "barrier: the last to arrive wakes the other, ten rounds end at 30 ms" \
	"$out/barrier.json" \
	"r['duration_ns'] == 30000000 and t['a-0']['runtime_ns'] == 10000000 and \
	 t['b-0']['runtime_ns'] == 30000000 and t['a-0']['wakeups'] == 10 and t['b-0']['wakeups'] == 0"

# B (CPU 1) waits on condition c; A (CPU 0) runs 1 ms, signals c under m,
# sleeps 9 ms. B wakes at 1, 11, ..., 991 ms, takes m back (A has
# released it in the same instant) and runs 0.5 ms. Expect B 100 wake-ups
# and 50 ms of run time, A 100 ms (wake-ups at 10 ... 1000 ms).
run cond 2 && expect "condition wait/signal: B runs 0.5 ms per signal" \
	"$out/cond.json" \
	"t['b-0']['wakeups'] == 100 and t['b-0']['runtime_ns'] == 50000000 and \
	 t['a-0']['runtime_ns'] == 100000000 and t['b-0']['wakeup_latency_ns']['max'] == 0"

# One CPU, wake-up preemption off: A runs 0.5 ms, resumes B, runs 0.3 ms
# more, then its 10 ms timer. B's request (wake-up to its next suspend)
# is its 300 us wait plus its 200 us run; A's, from its timer to the
# next, its 0.8 ms. B cannot preempt at the wake-up, and no tick
# falls inside A's last 0.3 ms (they are at whole milliseconds at any HZ,
# A's windows at 10k+1.3 .. 10k+1.6 ms), so B waits exactly 300 us each
# time. The first resume (at 0.5 ms) is lost: B has not run to its
# suspend yet. Expect 99 samples, all 300 us, B's 19.8 ms of run time,
# B's requests all 500 us and A's 800 us.
run wakeup_wait 1 --features '!WAKEUP_PREEMPTION,!HRTICK' &&
	expect "wake-up without preemption: B waits A's remaining 300 us, exactly" \
	"$out/wakeup_wait.json" \
	"t['b-0']['wakeup_latency_ns']['samples'] == 99 and \
	 t['b-0']['wakeup_latency_ns']['p50'] == 300000 and \
	 t['b-0']['wakeup_latency_ns']['max'] == 300000 and t['b-0']['runtime_ns'] == 19800000 and \
	 t['b-0']['response_ns']['p50'] == t['b-0']['response_ns']['max'] == 500000 and \
	 t['a-0']['response_ns']['max'] == 800000"

# The same with the tree's default features: whenever EEVDF picks B at its
# wake-up, B preempts A at once (latency 0, A preempted), otherwise it
# waits the same 300 us. Expect both outcomes: a median of 0, a maximum of
# 300 us, and A preempted at least once but not every time.
# Without HRTICK: the debian profile turns it on for 7.x, where a slice
# then ends on an hrtimer, not at A's tick-phased boundaries these cases
# count on (fair_hrtick checks the hrtick; here it is the tick's model).
run wakeup_wait 1 --features '!HRTICK' && expect "wake-up preemption on: B preempts A on some wake-ups, never waits longer" \
	"$out/wakeup_wait.json" \
	"t['b-0']['wakeup_latency_ns']['p50'] == 0 and \
	 t['b-0']['wakeup_latency_ns']['max'] == 300000 and \
	 0 < t['a-0']['preemptions'] < 99"

# A SCHED_IDLE hog (weight 3) beside an always-runnable nice-0 task
# (1024) and a task that runs 1 ms every 10 ms, one CPU, 10 s. The
# periodic task takes its 1 s; the other 9 s split 3 : 1024, so the hog
# gets 9 s x 3/1027 = 26.3 ms (at nice 19, weight 15, it would get
# 130 ms). Expect the hog between 20 and 35 ms, and the periodic task
# its full second over 999 wake-ups.
run idle 1 && expect "SCHED_IDLE: the hog gets weight 3's share, 26 ms of 9 s" \
	"$out/idle.json" \
	"20000000 <= t['hog-0']['runtime_ns'] <= 35000000 and \
	 t['p-0']['runtime_ns'] == 1000000000 and t['p-0']['wakeups'] == 999"

# fairsim's pipe (hackbench's shape), two messages deep: W (CPU 0) writes
# at 0 and 0.1 ms and blocks on the full pipe at 0.2; R (CPU 1) starts at
# 1 ms and reads every 0.3 ms (1.0, 1.3, ..., 2.2), each read waking W,
# which writes its 3rd, 4th, 5th message at 1.0, 1.3, 1.6 and blocks in
# between; R never finds the pipe empty. Expect the run to end at 2.5 ms,
# W with 0.5 ms of run time and 3 wake-ups, R with 1.5 ms and 1 (its start).
run pipe 2 && expect "bounded pipe: writers block when full, each read wakes one, exact times" \
	"$out/pipe.json" \
	"r['duration_ns'] == 2500000 and t['w-0']['runtime_ns'] == 500000 and \
	 t['w-0']['wakeups'] == 3 and t['r-0']['runtime_ns'] == 1500000 and t['r-0']['wakeups'] == 1"

# The same pipe with a pipe wake-up costing its waker 0.05 ms
# (--pipe-wake-cost 50: try_to_wake_up() on the waker's time), paid before
# its next event. R's reads at 1.0, 1.35 and 1.7 ms each wake W and cost R
# 0.05 more, W's 3rd, 4th and 5th writes come at those instants, and R's
# last two reads, which wake nobody, at 2.05 and 2.35. Expect the run to
# end at 2.65 ms, R with 1.65 ms of run time, W with 0.5 ms and 3 wake-ups.
run pipe 2 --pipe-wake-cost 50 && expect "pipe wake-up cost: the waker pays each wake-up" \
	"$out/pipe.json" \
	"r['duration_ns'] == 2650000 and t['r-0']['runtime_ns'] == 1650000 and \
	 t['w-0']['runtime_ns'] == 500000 and t['w-0']['wakeups'] == 3 and r['pipe_wake_ns'] == 50000"

# The kernel's pipe in pages (sim/pipe.c): 2 pages of 4 messages. W
# (CPU 0) fills both by 0.8 ms and blocks; R (CPU 1) reads 3 messages from
# 1 ms on and stops. No read empties the oldest page, so none frees room:
# W never writes again (a counter of messages would let it write 3 more).
# 7.x's pipe_read() wakes no writer then; 6.12's wakes one at each read of
# the full pipe, which finds it still full and sleeps again. Expect W with
# 0.8 ms of run time and, by the tree's major version, 0 wake-ups (7 on)
# or 3 (6.x; either without KSRC), R with 0.9 ms.
pipe_wakes='(0, 3)'
major=$([ -n "$ksrc" ] && sed -n 's/^VERSION = //p' "$ksrc/Makefile" 2>/dev/null)
case $major in
[0-6]) pipe_wakes='(3,)' ;;
[7-9] | [1-9][0-9]) pipe_wakes='(0,)' ;;
esac
run pipe_pages 2 && expect "pipe in pages: a read that frees no page lets no writer write${major:+ (linux $major.x)}" \
	"$out/pipe_pages.json" \
	"t['w-0']['runtime_ns'] == 800000 and t['w-0']['wakeups'] in $pipe_wakes and \
	 t['r-0']['runtime_ns'] == 900000"

# The pipe's mutex (sim/pipe.c): a write holds it 2 ms, a read 1 ms. W
# (CPU 0) writes at 0 and 3 ms, each write 2 ms under the mutex, then runs
# 1 ms; R (CPU 1) starts at 3.5 ms and reads the first message, there
# since 2 ms, but W holds the mutex from 3 to 5 ms: R sleeps on it, is
# woken by W's unlock, and reads from 5 to 6 ms, then runs 0.1 ms. Expect
# the run over at 6.1 ms, R woken twice (its start, the unlock), W's and
# R's run times 6 and 1.1 ms (the time under the mutex is theirs).
run pipe_mutex 2 && expect "pipe's mutex: a read waits for the write that holds it" \
	"$out/pipe_mutex.json" \
	"r['duration_ns'] == 6100000 and t['r-0']['wakeups'] == 2 and \
	 t['w-0']['runtime_ns'] == 6000000 and t['r-0']['runtime_ns'] == 1100000"

# hackbench's shape (sim/shapes/hackbench.py): 2 groups of 4 senders and
# 4 receivers, 10 loops, 2 us per write and per read, on 2 CPUs, until
# done. Each sender writes 10 messages to each of 4 receivers and each
# receiver reads 4 x 10: expect 80 us of run time for every one of the
# 16 tasks, every pipe drained, and the run ending once they are.
if python3 "$top/sim/shapes/hackbench.py" -g 2 -f 4 -l 10 -T -p >"$out/hackbench.json" 2>"$out/hb.err" &&
	"$sim" --quiet --ideal --seed 0 --cpus 2 --json "$out/hb.result.json" "$out/hackbench.json" 2>>"$out/hb.err"; then
	expect "hackbench shape: 16 tasks, 80 us each, all messages delivered" "$out/hb.result.json" \
		"len(r['tasks']) == 16 and all(x['runtime_ns'] == 80000 for x in r['tasks']) and \
		 0 < r['duration_ns'] < 10000000"
else
	bad "hackbench shape: $(head -c 300 "$out/hb.err")"
fi

# schbench's shape (sim/shapes/schbench.py): one message thread waking two
# workers every 2 ms, each thinking 500 us, every task on its own CPU.
# The broadcasts at 2, 4, ..., 998 ms wake both workers on idle CPUs (the
# one due at the run's last instant never runs). Expect 499 wake-ups per
# worker, all at once, and 499 requests of exactly 500 us each.
if python3 "$top/sim/shapes/schbench.py" -m 1 -t 2 -r 1 -s 2000 -c 500 >"$out/schbench.json" 2>"$out/sb.err" &&
	"$sim" --quiet --ideal --seed 0 --cpus 3 --json "$out/sb.result.json" "$out/schbench.json" 2>>"$out/sb.err"; then
	expect "schbench shape: requests of exactly the think time when nothing competes" \
		"$out/sb.result.json" \
		"all(t[w]['wakeups'] == 499 and t[w]['wakeup_latency_ns']['max'] == 0 and \
		     t[w]['response_ns']['samples'] == 499 and t[w]['response_ns']['p50'] == 500000 and \
		     t[w]['response_ns']['max'] == 500000 for w in ('worker-0-0', 'worker-0-1'))"
else
	bad "schbench shape: $(head -c 300 "$out/sb.err")"
fi

# Taskgroups nest by path: r in the root beside group /g (1024 shares
# each) gets half the CPU; in /g, a beside /g/h a quarter; b and c share
# /g/h's quarter. Expect 50 / 25 / 12.5 / 12.5 % within half a point
# over 10 s (a group made twice would give r and a a third each).
run groups 1 && expect "nested taskgroups split the CPU 50 / 25 / 12.5 / 12.5" \
	"$out/groups.json" \
	"all(abs(t[k]['share_pct'] - v) < 0.5 for k, v in \
	     (('r-0', 50), ('a-0', 25), ('b-0', 12.5), ('c-0', 12.5)))"

# Unreasonable idle (the LB_PROMOTE series' buckets), on two CPUs as
# islands: round-robin puts A and C on CPU 0, B on CPU 1. B runs [0,1] ms
# and sleeps to 10, so CPU 1 is idle [1,10], [11,20], ..., [991,1000]
# while A or C waits on CPU 0, allowed there: 100 intervals of exactly
# 9 ms (the last still open at the end, counted as of then), all over
# 4 ms; CPU 0 is never idle. Expect that in the JSON and the same total
# row in the text table.
if run idle_islands 2 --islands && expect "unreasonable idle on islands: 100 events of 9 ms on CPU 1, in the JSON" \
	"$out/idle_islands.json" \
	"r['topology'] == 'islands' and r['sched_domains'] == '' and \
	 r['unreasonable_idle']['buckets'] == ['2.5-3ms', '3-4ms', '>4ms'] and \
	 r['unreasonable_idle']['total'] == {'count': [0, 0, 100], 'longest_ns': 9000000} and \
	 [c['count'] for c in r['unreasonable_idle']['per_cpu']] == [[0, 0, 0], [0, 0, 100]]"; then
	if "$sim" --ideal --seed 0 --islands --cpus 2 "$here/cases/idle_islands.json" 2>/dev/null |
		grep -q '^total  *0  *0  *100  *9\.000$'; then
		ok "unreasonable idle: the text table's total row"
	else
		bad "unreasonable idle: no 'total 0 0 100 9.000' row in the text report"
	fi
fi

# The same on two CPUs sharing an LLC (--cpus 2: one MC domain): when B
# sleeps, CPU 1 balances and pulls the task waiting on CPU 0 (new-idle
# balancing, or the tick's a few ms later), so few intervals grow past
# 2.5 ms. Expect the machine named mc-2 with an MC domain, migrations,
# and fewer than a tenth of the islands' 100 events.
run idle_islands 2 && expect "with balancing (mc-2) the idle CPU pulls: < 10 events, tasks migrate" \
	"$out/idle_islands.json" \
	"r['topology'] == 'mc-2' and r['sched_domains'] == 'MC' and \
	 sum(r['unreasonable_idle']['total']['count']) < 10 and \
	 sum(x['migrations'] for x in r['tasks']) > 0"

# Every event kind and property in one workgen-style file (comments,
# trailing commas, repeated keys). Expect it to run, list the keys it does
# not model once each, leave out the SCHED_FIFO task by name, fork three
# children, and give every task run time.
run every_event 4 && expect "every event kind runs; ignored keys and the RT task are named" \
	"$out/every_event.json" \
	"r['ignored'] == ['calibration', 'logdir', 'resources', 'mem', 'nodes_membind'] and \
	 r['left_out'] == ['rt (SCHED_FIFO)'] and \
	 sum(1 for x in r['tasks'] if x['task'] == 'child') == 3 and \
	 all(x['runtime_ns'] > 0 for x in r['tasks']) and \
	 t['consumer-0']['cpu'] in (1, 2) and t['producer-0']['wakeups'] > 0"

# rt-app's older and looser forms, each beside the case it restates.
# cond.json with the signal declared in "resources" with a "target" (the
# syntax before rt-app 1.0): expect cond's exact figures, and the one
# line saying the target was followed.
run old_signal 2 && expect "pre-1.0 signal targets: cond's figures exactly" \
	"$out/old_signal.json" \
	"t['b-0']['wakeups'] == 100 and t['b-0']['runtime_ns'] == 50000000 and \
	 t['a-0']['runtime_ns'] == 100000000 and r['ignored'] == []" &&
	if grep -q 'signal targets followed (trig -> c)' "$out/old_signal.err"; then
		ok "pre-1.0 signal targets: one line names the target followed"
	else
		bad "pre-1.0 signal targets: no line naming them in: $(cat "$out/old_signal.err")"
	fi

# A task name given twice becomes "a" and "a1" (workgen's numbering); a
# 0 us sleep or run and a timer of period 0 are no-ops. Expect "a" as
# periodic.json's task exactly (250 ms, 249 wake-ups) and "a1" running
# 2 ms in every 4 ms: 500 ms, 250 wake-ups.
run twice 2 && expect "a repeated task name and 0 us events: a, a1 with exact figures" \
	"$out/twice.json" \
	"sorted(t) == ['a-0', 'a1-0'] and t['a-0']['runtime_ns'] == 250000000 and \
	 t['a-0']['wakeups'] == 249 and t['a1-0']['runtime_ns'] == 500000000 and \
	 t['a1-0']['wakeups'] == 250"

# A SCHED_FIFO default_policy: the task naming no policy is left out,
# named with the policy; the SCHED_OTHER one runs as periodic.json's task.
run default_fifo 1 && expect "default_policy SCHED_FIFO: that task left out by name, the other runs" \
	"$out/default_fifo.json" \
	"r['left_out'] == ['rt (SCHED_FIFO by default_policy)'] and list(t) == ['p-0'] and \
	 t['p-0']['runtime_ns'] == 250000000 and t['p-0']['wakeups'] == 249"

# Same file and seed twice, with sched domains and balancing (smt-mc-8,
# given once by name and once as the fixture's path: the same machine):
# the report, the JSON and the trace are byte-identical; another seed
# moves the tasks' start times, so its report differs. Expect equal,
# equal, equal, different; and the machine's two levels in the result.
for i in 1 2; do
	[ $i = 1 ] && topo=smt-mc-8 || topo=$top/fixtures/topologies/smt-mc-8.topo
	"$sim" --seed 7 --topology "$topo" --json "$out/d$i.json" --trace "$out/d$i.trace" \
		"$here/cases/every_event.json" >"$out/d$i.txt" 2>/dev/null
done
"$sim" --seed 8 --topology smt-mc-8 "$here/cases/every_event.json" >"$out/d3.txt" 2>/dev/null
if cmp -s "$out/d1.txt" "$out/d2.txt" && cmp -s "$out/d1.json" "$out/d2.json" &&
	cmp -s "$out/d1.trace" "$out/d2.trace"; then
	ok "same seed, with balancing: report, JSON and trace byte-identical"
else
	bad "same seed gave different output"
fi
if cmp -s "$out/d1.txt" "$out/d3.txt"; then bad "seeds 7 and 8 gave the same report"; else ok "another seed, another report"; fi

# The engine's plans (sim/plan.c: pipe steps taken without the event
# loop, brought up to date when someone could tell) against every step
# through the loop (--no-plans): hackbench's pipes on 8 CPUs with the
# real machine's costs (a wake-up preemption's skipped clock update, the
# same-nanosecond order of the loop's pass), on the ideal machine,
# balanced over smt-mc-8, with --loop-cost (charged where a pass ends,
# which a plan's steps would skip) and with --pipe-wake-cost (a wake-up is
# the loop's, never a plan's). Expect report, JSON and trace
# byte-identical.
for m in '--cpus 8' '--cpus 8 --ideal' '--topology smt-mc-8' '--cpus 8 --loop-cost 17' \
	'--cpus 8 --pipe-wake-cost 5'; do
	for p in '' --no-plans; do
		"$sim" --seed 1 --duration 0.5 $m $p --json "$out/p$p.json" --trace "$out/p$p.trace" \
			"$top/fixtures/workloads/cyclictest-hackbench.json" >"$out/p$p.txt" 2>&1
	done
	if cmp -s "$out/p.txt" "$out/p--no-plans.txt" && cmp -s "$out/p.json" "$out/p--no-plans.json" &&
		cmp -s "$out/p.trace" "$out/p--no-plans.trace"; then
		ok "hackbench $m: the plans' output is the loop's, byte for byte"
	else
		bad "hackbench $m: the plans' output differs from --no-plans'"
	fi
done
expect "smt-mc-8 booted with its SMT and MC domains" "$out/d1.json" \
	"r['topology'] == 'smt-mc-8' and r['sched_domains'] == 'SMT,MC' and r['cpus'] == 8"

# The trace is the kernel's ftrace text: every line after the header has
# task-pid, [cpu], flags, a timestamp and one of our events with its
# fields, and timestamps never go back. Expect all four event kinds.
if python3 - "$out/d1.trace" <<'EOF'
import re, sys
pat = re.compile(r'^\s*(\S.*)-(\d+)\s+\[(\d{3})\] \S{5} +(\d+)\.(\d{6}): '
		 r'(sched_switch|sched_waking|sched_wakeup|sched_wakeup_new|sched_migrate_task): (.*)$')
seen, last = set(), -1
for n, line in enumerate(open(sys.argv[1]), 1):
	if line.startswith('#'):
		continue
	m = pat.match(line)
	if not m:
		sys.exit('line %d is not an ftrace line: %s' % (n, line))
	t = int(m.group(4)) * 1000000 + int(m.group(5))
	if t < last:
		sys.exit('line %d goes back in time' % n)
	last = t
	ev, args = m.group(6), m.group(7)
	need = ['prev_comm=', 'prev_state=', '==> next_comm='] if ev == 'sched_switch' else ['comm=', 'pid=', 'prio=']
	if not all(k in args for k in need):
		sys.exit('line %d lacks fields: %s' % (n, line))
	seen.add(ev)
want = {'sched_switch', 'sched_waking', 'sched_wakeup', 'sched_wakeup_new'}
sys.exit(0 if want <= seen else 'missing events: %s' % (want - seen))
EOF
then ok "trace: ftrace text lines, in time order, all four event kinds"; else bad "trace does not parse"; fi

# One analysis for both columns (sim/analysis.c): fairsim's own trace,
# read back with --from-trace, goes through the code that made the run's
# tables. With seed 0 every event falls on a whole microsecond, the
# trace's resolution. Expect every figure of the run's JSON (run time,
# switches, preemptions, migrations, wake-ups, each latency percentile,
# waits, requests, unreasonable idle per CPU) again, on a machine with
# balancing (mc-2) and on islands (100 idle intervals).
same_figures() {	# WHAT RUN.json TRACE.json
	if python3 - "$2" "$3" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
keys = ('tasks', 'by_task', 'unreasonable_idle', 'duration_ns', 'cpus')
diff = [k for k in keys if a[k] != b[k]]
sys.exit('differ in %s: %s / %s' % (diff, str(a[diff[0]])[:200], str(b[diff[0]])[:200]) if diff else 0)
EOF
	then ok "$1"; else bad "$1"; fi
}
for m in mutex:--cpus_2 idle_islands:--islands; do
	c=${m%%:*} args=$(echo "${m#*:}" | tr _ ' ')
	# shellcheck disable=SC2086
	if "$sim" --quiet --seed 0 --cpus 2 $args --json "$out/rt-$c.json" --trace "$out/rt-$c.trace" \
		"$here/cases/$c.json" 2>"$out/rt.err" &&
		"$sim" --quiet --from-trace "$out/rt-$c.trace" --workload "$here/cases/$c.json" \
			--json "$out/ft-$c.json" 2>>"$out/rt.err"; then
		same_figures "--from-trace of fairsim's own trace ($c, $args): the run's figures" \
			"$out/rt-$c.json" "$out/ft-$c.json"
	else
		bad "--from-trace of fairsim's own trace ($c): $(head -c 300 "$out/rt.err")"
	fi
done

# Samples past 32 bits (sim/stats.c keeps them in 32 bits until one needs
# more): a nice 19 task behind two nice -20 ones on one CPU waits seconds
# for each slice, longer than 2^32 ns, after a first wait of milliseconds.
# Expect its runnable waits in the JSON (count; p50, p90, p99, max by
# nearest rank, within the trace's microsecond) to be those read from the
# run's own trace, each from its wake-up or its preemption to its switch
# in, and the longest past 2^32 ns.
if "$sim" --quiet --ideal --seed 0 --cpus 1 --json "$out/lw.json" --trace "$out/lw.trace" \
	"$here/cases/long_wait.json" 2>"$out/lw.err"; then
	if why=$(python3 - "$out/lw.trace" "$out/lw.json" 2>&1 <<'EOF2'
import json, math, re, sys
ev = re.compile(r' ([\d.]+): (sched_wakeup_new|sched_wakeup|sched_switch): (.*)')
since, waits = None, []
for line in open(sys.argv[1]):
	m = ev.search(line)
	if not m:
		continue
	ts, kind, rest = round(float(m.group(1)) * 1e6) * 1000, m.group(2), m.group(3)
	if kind != 'sched_switch':
		if 'comm=meek-0 ' in rest:
			since = ts
	elif rest.startswith('prev_comm=meek-0 ') and 'prev_state=R' in rest:
		since = ts
	elif 'next_comm=meek-0 ' in rest and since is not None:
		waits.append(ts - since)
		since = None
waits.sort()
rank = lambda p: waits[max(1, math.ceil(p / 100 * len(waits) - 1e-9)) - 1]
want = {'samples': len(waits), 'p50': rank(50), 'p90': rank(90), 'p99': rank(99), 'max': waits[-1]}
got = [t for t in json.load(open(sys.argv[2]))['tasks'] if t['task'] == 'meek'][0]['runnable_wait_ns']
diff = {k: (got[k], v) for k, v in want.items() if abs(got[k] - v) >= (1 if k == 'samples' else 1000)}
sys.exit('json, trace: %s' % diff if diff else 0 if waits[-1] >> 32 else 'no wait past 2^32 ns: %s' % waits)
EOF2
	); then ok "samples past 32 bits: a starved task's waits as its trace shows them"
	else bad "samples past 32 bits: a starved task's waits as its trace shows them: $why"; fi
else
	bad "long_wait: fairsim failed: $(head -c 300 "$out/lw.err")"
fi

# A wake-up's flags field carries the need_resched letter the wake-up left
# on its CPU, as a real trace's sched_wakeup line does ('N', '.'):
# twin/fast_wakeups.py and wakeup_state.py split wake-ups by it. On the
# ideal machine a preempting wake-up switches at the same instant. Expect
# w's wake-ups of both kinds, each 'N' one followed at once by the switch
# to w and no '.' one; with FAIRSIM_PROBES=1 a wpf line (fair.c's state
# at the check) before each, a deqs line (the sleep's dequeue: delayed, r=0,
# exactly when fair.c left w queued, dl=1) before each of w's sleeps, and
# the same figures as without.
"$sim" --quiet --ideal --seed 0 --cpus 1 --json "$out/wb.json" --trace "$out/wb.trace" \
	"$here/cases/waker_busy.json" 2>"$out/wb.err" &&
FAIRSIM_PROBES=1 "$sim" --quiet --ideal --seed 0 --cpus 1 --json "$out/wbp.json" \
	--trace "$out/wbp.trace" "$here/cases/waker_busy.json" 2>>"$out/wb.err" ||
	bad "waker_busy: fairsim failed: $(head -c 300 "$out/wb.err")"
if why=$(python3 - "$out/wb.trace" "$out/wbp.trace" "$out/wb.json" "$out/wbp.json" 2>&1 <<'EOF'
import json, re, sys
ev = re.compile(r'\] (\S+)\s+([\d.]+): (sched_wakeup|sched_switch|wpf|deqs): (.*)')
deqs = []
def wakes(path):
	out, pend, probe = [], None, 0
	for line in open(path):
		m = ev.search(line)
		if not m:
			continue
		flags, t, e, rest = m.groups()
		if e == 'wpf' and ' pid=2 ' in rest:
			probe += 1
		elif e == 'deqs' and ' pid=2 ' in rest:
			deqs.append(re.search(r' dl=(\d) r=(\d)', rest).groups())
		elif e == 'sched_switch' and 'prev_comm=w-0 ' in rest and 'prev_state=S' in rest:
			deqs.append('sleep')
		elif e == 'sched_wakeup' and 'comm=w-0 ' in rest:
			pend = (flags[1], t)
		elif e == 'sched_switch' and 'next_comm=w-0 ' in rest and pend:
			out.append((pend[0], pend[1] == t))
			pend = None
	return out, probe
w, _ = wakes(sys.argv[1])
deqs.clear()
wp, probes = wakes(sys.argv[2])
kinds = {f for f, _ in w}
if kinds != {'N', '.'}:
	sys.exit('wake-up flags %s, not both N and .' % sorted(kinds))
if any((f == 'N') != at_once for f, at_once in w):
	sys.exit('a wake-up whose flag does not match the switch that followed')
if probes < len(wp) or wp != w:
	sys.exit('%d wpf lines for %d wake-ups, or other wake-ups with probes' % (probes, len(wp)))
sleeps = [i for i, d in enumerate(deqs) if d == 'sleep']
if not sleeps or any(i == 0 or deqs[i - 1] == 'sleep' for i in sleeps) or \
		any(d != 'sleep' and (d[0] == '1') != (d[1] == '0') for d in deqs):
	sys.exit('w slept %d times: not each after one deqs line, or a deqs line whose '
		 'delay and result disagree' % len(sleeps))
a, b = (json.load(open(f)) for f in sys.argv[3:5])
if a['tasks'] != b['tasks']:
	sys.exit('the probes changed the figures')
EOF
); then ok "trace: a wake-up's resched flag matches its switch; FAIRSIM_PROBES adds wpf and deqs lines only"
else bad "trace: wake-up flags or probes: $why"; fi

# FAIRSIM_FUTEX=1 writes glibc's futex calls into the trace as the guest's
# futex probes do, for twin/futexes.py. broad_quiesce (above): M's second
# broadcast sleeps on c's group word (0x2000 + c) with one reference
# (value 3) and W's leaving wakes it; W sleeps on mx with 2 and M's unlock
# wakes it; W's and X's unlocks, whose re-take after the wait set 2, call
# a wake that finds nobody. Expect those lines in twin/futexes.py's table,
# and the trace without them the same as a run without FAIRSIM_FUTEX.
"$sim" --quiet --ideal --seed 0 --cpus 3 --wake-cost 1000 --trace "$out/bq.trace" \
	"$here/cases/broad_quiesce.json" 2>"$out/bq.err" &&
FAIRSIM_FUTEX=1 "$sim" --quiet --ideal --seed 0 --cpus 3 --wake-cost 1000 \
	--trace "$out/bqf.trace" "$here/cases/broad_quiesce.json" 2>>"$out/bq.err" ||
	bad "broad_quiesce: fairsim failed: $(head -c 300 "$out/bq.err")"
if table=$(python3 "$top/twin/futexes.py" "$out/bqf.trace" 2>&1) &&
   echo "$table" | grep -q '^0x2001 *m 1 (val 3) | w 1 (nr 2147483647) | 1$' &&
   echo "$table" | grep -q '^0x0 *w 1 (val 2) | m 1 (nr 1), w 1 (nr 1), x 1 (nr 1) | 1$' &&
   grep -v ': fw' "$out/bqf.trace" | cmp -s - "$out/bq.trace"; then
	ok "FAIRSIM_FUTEX: glibc's futex calls in the trace, nothing else changed"
else bad "FAIRSIM_FUTEX: $table"; fi

# A broadcast's last woken waiter leaves its group (waking the broadcaster
# that waits for it) before it takes the mutex again: glibc's
# __condvar_dec_grefs() and its futex wake-up come before
# __pthread_mutex_cond_lock(), so the wake-up's cost (--futex-wake-cost
# 100) is paid before the re-take, as a wake-up preemption at the
# syscall's exit would switch away before it. gref_pays_first (each wake-up
# 1 ms, --wake-cost 1000): W waits on c at 0; M broadcasts at 1.1 (W
# woken), X waits from 1.25, M's second broadcast at 1.3 holds mx and
# waits for W. W runs its cost to 2.1 and wakes M; expect W's re-take to
# find mx taken at 2.2 ms (fwait on 0x0), not at 2.1.
if FAIRSIM_FUTEX=1 "$sim" --quiet --ideal --seed 0 --cpus 3 --wake-cost 1000 --futex-wake-cost 100 \
	--trace "$out/gpf.trace" "$here/cases/gref_pays_first.json" 2>"$out/gpf.err"; then
	if grep -q '^ *w-0-2 .* 0\.002100: fwake: (fairsim) ua=0x2001 ' "$out/gpf.trace" &&
	   grep -q '^ *w-0-2 .* 0\.002200: fwait: (fairsim) ua=0x0 val=2' "$out/gpf.trace" &&
	   ! grep -q '^ *w-0-2 .* 0\.002100: fwait: ' "$out/gpf.trace"; then
		ok "a condition's last leaver pays its wake-up before the mutex's re-take"
	else bad "a condition's last leaver pays its wake-up before the mutex's re-take:" \
		"$(grep 'w-0-2 .*fw' "$out/gpf.trace" | sed -n '2,4p' | tr -s ' ' | tr '\n' ';')"; fi
else
	bad "gref_pays_first: fairsim failed: $(head -c 300 "$out/gpf.err")"
fi

# --exit-switch: the same leaver wakes the broadcaster on its own CPU
# (both pinned to CPU 1; M's 100 us slice, dl-runtime, makes its wake-up
# preempt W; no hrtick, which would cut M's slice). The switch the
# wake-up asks for comes at the exit of W's futex call, when its cost
# (--futex-wake-cost 100) is paid, before the re-take: not a fixed
# --wake-preempt after the wake-up, whether that ends after the call
# (200 us: without the option W re-takes at 2.4 ms, finds mx taken and
# sleeps) or before it (50 us: the switch would cut the call at 2.35).
# exit_switch (each wake-up 1 ms): W wakes M at 2.3 ms; expect W
# switched to M preempted at 2.4 ms, with no fwait of W's at 2.4, both
# ways.
for wp in 200 50; do
	if FAIRSIM_FUTEX=1 "$sim" --quiet --ideal --seed 0 --cpus 2 --features '!HRTICK' \
		--wake-cost 1000 --futex-wake-cost 100 --wake-preempt $wp --exit-switch \
		--trace "$out/xs.trace" "$here/cases/exit_switch.json" 2>"$out/xs.err"; then
		if grep -q '^ *w-0-2 .* 0\.002300: fwake: (fairsim) ua=0x2001 ' "$out/xs.trace" &&
		   grep -q '^ *w-0-2 .* 0\.002400: sched_switch: prev_comm=w-0 prev_pid=2 prev_prio=120 prev_state=R+ ==> next_comm=m-0 ' "$out/xs.trace" &&
		   ! grep -q '^ *w-0-2 .* 0\.0024[0-9]*: fwait: ' "$out/xs.trace"; then
			ok "a futex call's wake-up preemption switches at its exit (--wake-preempt $wp)"
		else bad "a futex call's wake-up preemption switches at its exit (--wake-preempt $wp):" \
			"$(grep '^ *w-0-2 .* 0\.0023\|^ *w-0-2 .* 0\.0024' "$out/xs.trace" | cut -c30-120 | tr -s ' ' | tr '\n' ';')"; fi
	else
		bad "exit_switch: fairsim failed: $(head -c 300 "$out/xs.err")"
	fi
done

# A real kernel's trace (traces/rtapp-host.trace: rt-app 1.0 on a busy
# build machine, 2 CPUs, with other tasks running). rt-app names every
# instance after its key, renames a thread only after it started (its
# wakeup_new says "rt-app"), and a key of 16 characters or more keeps
# "rt-app". Counted here by reading the lines directly: per thread of the
# first 0.2 s from the first event of a workload thread, the switches in,
# the time between switches in and out, the wake-ups and migrations.
# Expect A, B and C's two instances (in order of appearance) with exactly
# those figures, and one line naming the long key.
tr=$here/traces/rtapp-host
if "$sim" --from-trace "$tr.trace" --workload "$tr.json" --duration 0.2 --json "$out/host.json" \
	>"$out/host.txt" 2>"$out/host.err" &&
	grep -q 'no thread named for a-task-name-too-long' "$out/host.err" &&
	python3 - "$tr.trace" "$out/host.json" <<'EOF'
import json, re, sys
r = json.load(open(sys.argv[2]))
line = re.compile(r'^\s*.*-\d+\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\w+): (.*)$')
ev = []
for l in open(sys.argv[1]):
	m = line.match(l)
	if m and not l.startswith('#'):
		ev.append((int(m.group(2)) * 10**9 + int(m.group(3)) * 1000, int(m.group(1)), m.group(4), m.group(5)))
name, first = {}, {}
for t, cpu, e, a in ev:
	if e == 'sched_switch':
		m = re.match(r'prev_comm=(.*) prev_pid=(\d+) .* next_comm=(.*) next_pid=(\d+)', a)
		pairs = [(m.group(1), m.group(2)), (m.group(3), m.group(4))]
	else:
		m = re.match(r'comm=(.*) pid=(\d+)', a)
		pairs = [(m.group(1), m.group(2))] if m else []
	for c, p in pairs:
		name[int(p)] = c
		first.setdefault(int(p), t)
ours = sorted((p for p in name if name[p] in ('A', 'B', 'C')), key=lambda p: (first[p], p))
start = min(first[p] for p in ours)
end = start + 200000000
want = {}
for p in ours:
	key = '%s-%d' % (name[p], sum(1 for q in ours if name[q] == name[p] and (first[q], q) < (first[p], p)))
	sw = wk = mg = run = 0
	on = None
	for t, cpu, e, a in ev:
		if t > end:
			break
		if e == 'sched_switch':
			pp, nn = (int(x) for x in re.findall(r'(?:prev|next)_pid=(\d+)', a))
			if pp == p and on is not None:
				run += t - on
				on = None
			if nn == p:
				sw += 1
				on = t
		elif e in ('sched_wakeup', 'sched_migrate_task') and int(re.search(r' pid=(\d+)', a).group(1)) == p:
			wk += e == 'sched_wakeup'
			mg += e == 'sched_migrate_task'
	if on is not None:
		run += end - on
	want[key] = (p, sw, run, wk, mg)
got = {x['task'] + '-' + str(x['instance']): (x['pid'], x['switches'], x['runtime_ns'], x['wakeups'], x['migrations']) for x in r['tasks']}
sys.exit(0 if got == want and sorted(got) == ['A-0', 'B-0', 'C-0', 'C-1'] else 'got %s, want %s' % (got, want))
EOF
then
	ok "--from-trace of a real kernel's trace: rt-app's thread names; switches, run time, wake-ups, migrations as the lines give them"
else
	bad "--from-trace of a real kernel's trace: $(head -c 300 "$out/host.err")"
fi

# The same trace in trace-cmd report's layout (a "cpus=2" first line, no
# header, no irq-info column). Expect the same figures.
{ echo "cpus=2"; grep -v '^#' "$tr.trace" | sed -E 's/^(.*\[[0-9]{3}\]) [^ ]{5} /\1 /'; } >"$out/tc.txt"
if "$sim" --quiet --from-trace "$out/tc.txt" --workload "$tr.json" --duration 0.2 \
	--json "$out/tc.json" 2>/dev/null; then
	same_figures "--from-trace of trace-cmd report's layout: the same figures" \
		"$out/host.json" "$out/tc.json"
else
	bad "--from-trace of trace-cmd report's layout: fairsim failed"
fi

# --twin: fairsim's result beside real ones, figures per task definition.
# The real trace's result as both sides (one "fairsim", two "real"): a
# twin of itself. Expect every difference 0, nothing outside the range,
# B's share row in the text, and a JSON of the rows.
if "$sim" --twin "$out/host.json" "$out/host.json" "$out/host.json" --json "$out/twin.json" \
	>"$out/twin.txt" 2>&1 && grep -q '^B  *share %' "$out/twin.txt" &&
	python3 -c "
import json, sys
r = json.load(open('$out/twin.json'))['rows']
sys.exit(0 if r and all(x['difference'] == 0 and not x['outside_real_range'] and x['real']['runs'] == 2 for x in r) else 'rows: %s' % r[:2])"; then
	ok "--twin: a result beside itself differs by 0 in every row, text and JSON"
else
	bad "--twin: $(head -c 300 "$out/twin.txt")"
fi
if "$sim" --twin "$out/host.json" "$out/host.json" --vs "$out/host.json" --json "$out/twin2.json" \
	>/dev/null 2>&1 && python3 -c "
import json, sys
r = json.load(open('$out/twin2.json'))
sys.exit(0 if len(r['fairsim']) == 2 and len(r['real']) == 1 and
	 all(x['fairsim']['runs'] == 2 and x['real']['runs'] == 1 for x in r['rows']) else 'sides: %s / %s' % (r['fairsim'], r['real']))"; then
	ok "--twin A B --vs C: two fairsim results, one real"
else
	bad "--twin A B --vs C: the sides are not split at --vs"
fi
# Seeds against boots: fairsim's runs at half and 1.1 times the real
# figures meet the real range (one boot), though their mean (0.8 times)
# lies outside it; at 2 and 3 times they do not. Expect no row marked in
# the first and every row whose real figure is not 0 marked in the
# second, with fairsim's range in the JSON (run per wake-up, a ratio,
# does not scale).
python3 - "$out/host.json" "$out" <<'PY'
import json, sys
def scaled(x, k):
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, (int, float)):
        return x * k
    if isinstance(x, list):
        return [scaled(v, k) for v in x]
    return {a: scaled(v, k) for a, v in x.items()}
r = json.load(open(sys.argv[1]))
for k in (0.5, 1.1, 2, 3):
    json.dump(scaled(r, k), open("%s/x%s.json" % (sys.argv[2], k), "w"))
PY
if "$sim" --twin "$out/x0.5.json" "$out/x1.1.json" --vs "$out/host.json" --json "$out/meet.json" \
	>/dev/null 2>&1 && "$sim" --twin "$out/x2.json" "$out/x3.json" --vs "$out/host.json" \
	--json "$out/apart.json" >/dev/null 2>&1; then
	wrong=$(python3 -c "
import json
meet = [x for x in json.load(open('$out/meet.json'))['rows'] if x['metric'] != 'run per wake-up us']
apart = [x for x in json.load(open('$out/apart.json'))['rows'] if x['metric'] != 'run per wake-up us']
wrong = ['marked: ' + x['metric'] for x in meet if x['outside_real_range']]
wrong += ['not marked: ' + x['metric'] for x in apart if x['real']['mean'] > 0 and not x['outside_real_range']]
wrong += ['fairsim min: ' + x['metric'] for x in meet if x['real']['mean'] > 0 and
	  abs(x['fairsim']['min'] - 0.5 * x['real']['mean']) > 1e-6 * x['real']['mean']]
print('; '.join(wrong[:4]) if wrong or not meet else '')" 2>&1)
else
	wrong="fairsim --twin failed"
fi
if [ -z "$wrong" ]; then
	ok "--twin: fairsim's seeds marked apart only where their range misses the real one"
else
	bad "--twin: fairsim's seeds marked apart only where their range misses the real one: $wrong"
fi

# Bad traces: one line naming the file and line, exit 1, no JSON left.
printf '# tracer: nop\n   A-1 [000] d..2. 1.000000: sched_switch: prev_comm=A prev_pid=1\n' >"$out/bad.trace"
mkdir "$out/badtrace"
if "$sim" --from-trace "$out/bad.trace" --json "$out/badtrace/r.json" >/dev/null 2>"$out/bt.err"; then
	bad "a malformed sched_switch: exited 0"
elif [ "$(wc -l <"$out/bt.err")" -eq 1 ] && grep -q 'bad.trace:2: a sched_switch without' "$out/bt.err" &&
	[ -z "$(ls -A "$out/badtrace")" ]; then
	ok "a malformed trace line: $(cat "$out/bt.err")"
else
	bad "a malformed trace line: $(head -c 300 "$out/bt.err") $(ls -A "$out/badtrace")"
fi
# cli_fails LABEL ARGS...: fairsim ARGS exits non-zero with a "fairsim:" line
cli_fails() {
	label=$1
	shift
	if "$sim" "$@" >/dev/null 2>"$out/cli.err"; then
		bad "command line '$label': exited 0"
	elif grep -q '^fairsim: ' "$out/cli.err"; then
		ok "command line '$label': $(grep -m1 '^fairsim: ' "$out/cli.err")"
	else
		bad "command line '$label': no 'fairsim:' line in: $(head -c 200 "$out/cli.err")"
	fi
}
for args in "--from-trace /no/such.trace" "--from-trace $here/cases/mutex.json" \
	"--from-trace $tr.trace --workload $here/cases/mutex.json" "--twin $out/host.json" \
	"--twin $out/host.txt $out/host.json" "--workload $tr.json $here/cases/mutex.json" \
	"--from-trace $tr.trace --islands"; do
	# shellcheck disable=SC2086
	cli_fails "$args" $args
done

# The 2023 sleeper (fixtures/workloads/sleeper.json: A always runs, B runs
# 1 ms and sleeps 1 ms, one CPU, HZ=250, base slice 0.7 ms), on the ideal
# machine (--ideal), where B's 2 ms cycle can lock to the 4 ms tick grid. B needs
# 1 ms a burst but its slice is 0.7 ms, so a tick that falls in the last
# 0.3 ms of a burst, past B's deadline, ends it: B is not eligible then,
# A runs to the next tick (4 ms later) and B keeps one burst in three.
# Whether a tick falls there is the seed's doing: with seed 1 B first
# runs at a tick and its bursts stay on the tick grid (ticks land on its
# wake-ups), with seed 2 it first runs 0.131 ms in, off the grid. It
# matters only where B wakes with no lag: DELAY_ZERO clips the positive
# lag a delayed B has at its wake-up, and trees that update curr before
# requeue_delayed_entity() takes the lag (probes.h,
# FT_HAVE_REQUEUE_CURRENT_V: 7.3 in enqueue_task_fair(), 7.2.13 in
# requeue_delayed_entity() itself) see that lag; the others (6.12)
# take it against a V as of A's last update, negative, and keep B's old
# vruntime, which carries it through. Expect B at 50% on the grid on every
# tree; off the grid 33.3% on REQUEUE_CURRENT_V trees and 50% elsewhere;
# and off the grid 50% everywhere with DELAY_ZERO off.
# The probes sit in the build dir's gen/, a variant's binary (asan/) one
# level below it, next to a gen/ of its own without them.
share_b() {	# SEED [FEATURES]: B's share in percent, slices ending at the tick (no HRTICK)
	"$sim" --quiet --cpus 1 --seed "$1" --duration 4 --features "!HRTICK${2:+,$2}" --json "$out/sl.json" $costs \
		"$top/fixtures/workloads/sleeper.json" && python3 -c "
import json; print([x['share_pct'] for x in json.load(open('$out/sl.json'))['tasks'] if x['task'] == 'B'][0])"
}
near() { awk -v v="$1" -v want="$2" 'BEGIN { exit !(v >= want - 0.5 && v <= want + 0.5) }'; }
if cat "$(dirname "$sim")"/gen/probes*.h "$(dirname "$sim")"/../gen/probes*.h 2>/dev/null |
   grep -q 'FT_HAVE_REQUEUE_CURRENT_V'; then off=33.3 why="lag clipped to 0 at wake-up"
else off=50 why="lag against a stale V"; fi
costs=--ideal
on=$(share_b 1) grid=$(share_b 2) nozero=$(share_b 2 '!DELAY_ZERO')
if near "$on" 50 && near "$grid" "$off" && near "$nozero" 50; then
	ok "sleeper: B $on% on the tick grid, $grid% off it ($why), $nozero% off it without DELAY_ZERO"
else
	bad "sleeper: B on the grid $on% (want 50), off $grid% (want $off: $why), off without DELAY_ZERO $nozero% (want 50)"
fi

# What a real machine adds (engine.c; the defaults: 50 us timer slack,
# 10 us of CPU per wake-up, 5 us from a wake-up to the switch on an idle
# CPU, 5 us on a busy one the wake-up preempts). The periodic case alone on one CPU: its timer expires at 5, 9,
# ..., 997 ms, never within 50 us before a tick (multiples of 4 ms), so
# each wake-up comes 50 us late, the idle CPU switches 5 us after it, and
# the task runs 10 us before its 1 ms. Expect 249 wake-ups, every
# latency exactly 5 us, and 1 ms + 249 x 1.010 ms = 252.49 ms of run
# time (the timer's period stays on its grid: the slack does not add up).
if "$sim" --quiet --seed 0 --cpus 1 --json "$out/costs.json" "$here/cases/periodic.json" 2>"$out/costs.err"; then
	expect "costs: a periodic task alone wakes 50 us late, switches in 5 us, runs 10 us more" \
		"$out/costs.json" \
		"t['p-0']['wakeups'] == 249 and t['p-0']['runtime_ns'] == 252490000 and \
		 t['p-0']['wakeup_latency_ns']['p50'] == t['p-0']['wakeup_latency_ns']['max'] == 5000"
else
	bad "costs: $(head -c 300 "$out/costs.err")"
fi

# Timer slack ends at a tick inside its range (an interrupt that runs the
# hrtimer queue expires every timer past its soft expiry): A (cases/
# slack.json) runs 1 ms and sleeps 2.98 ms. Its first sleep is due at
# 3.98 ms and the tick at 4 ms lies within the 50 us, so it wakes then;
# it runs from 4.005 (idle exit) for 10 us + 1 ms, sleeps at 5.015, is
# due at 7.995 and wakes with the tick at 8, and so on: a 4 ms cycle.
# Expect 250 wake-ups in 1 s (4, 8, ..., 1000 ms, the last at the run's
# end; without the tick it would drift by 45 us a cycle and wake fewer
# times), every latency 5 us, and 250 x 1 ms + 249 x 10 us of run time.
if "$sim" --quiet --seed 0 --cpus 1 --json "$out/slack.json" "$here/cases/slack.json" 2>"$out/slack.err"; then
	expect "timer slack: a sleep due within 50 us before a tick ends at the tick" "$out/slack.json" \
		"t['a-0']['wakeups'] == 250 and t['a-0']['runtime_ns'] == 252490000 and \
		 t['a-0']['wakeup_latency_ns']['p50'] == 5000 and t['a-0']['wakeup_latency_ns']['max'] == 5000"
else
	bad "timer slack: $(head -c 300 "$out/slack.err")"
fi

# The wake-up preemption cost alone (--ideal --wake-preempt 5) on the
# wake-up case above: a wake-up that preempts A now lets A run 5 us more
# before B runs; one that does not waits A's remaining 300 us as before.
# Expect B's latencies to be 5 us or 300 us and nothing else, the median
# 5 us, and A preempted on some wake-ups but not all.
if "$sim" --quiet --ideal --wake-preempt 5 --features '!HRTICK' --seed 0 --cpus 1 --json "$out/wp.json" \
	"$here/cases/wakeup_wait.json" 2>"$out/wp.err"; then
	expect "wake-up preemption cost: a preempting wake-up waits exactly 5 us" "$out/wp.json" \
		"t['b-0']['wakeup_latency_ns']['p50'] == 5000 and \
		 t['b-0']['wakeup_latency_ns']['max'] == 300000 and \
		 {v for _, v in r['by_task']['b']['wakeup_latency_cdf_ns']} == {5000, 300000} and \
		 0 < t['a-0']['preemptions'] < 99"
else
	bad "wake-up preemption cost: $(head -c 300 "$out/wp.err")"
fi

# The sleeper with the machine's costs (the defaults): B's cycle is no
# longer exactly 2 ms, drifts against the tick, and the ticks that land
# in its bursts' last 0.3 ms cut one in three on every tree and seed.
# Expect B between 32 and 35% with seeds 1 and 2, with delayed dequeue
# and without: the phase lock (50%) is gone.
costs=
b1=$(share_b 1) b2=$(share_b 2) s1=$(share_b 1 '!DELAY_DEQUEUE') s2=$(share_b 2 '!DELAY_DEQUEUE')
if awk -v a="$b1" -v b="$b2" -v c="$s1" -v d="$s2" 'BEGIN {
	exit !(a > 32 && a < 35 && b > 32 && b < 35 && c > 32 && c < 35 && d > 32 && d < 35) }'; then
	ok "sleeper with the machine's costs: B $b1% / $b2% (seeds 1, 2), $s1% / $s2% without DELAY_DEQUEUE"
else
	bad "sleeper with the machine's costs: B $b1% / $b2%, without DELAY_DEQUEUE $s1% / $s2% (want 32..35)"
fi

# A/B (sim/ab.sh, fairsim --compare): the sleeper, strict EEVDF
# (DELAY_DEQUEUE off: B gets a third on any phase) as base against the
# tree's defaults as patched, seeds 1 and 2, 2 s on one CPU. Expect four
# result files and B's run time row changing by +50% (both seeds at 50%),
# or by +25% where seed 2 gives 33.3% (above): (50 + 33.3) / 2 / 33.3.
if [ "$off" = 50 ]; then lo=40 hi=60; else lo=20 hi=30; fi
if "$top/sim/ab.sh" "$top/fixtures/workloads/sleeper.json" "$out/ab" 2 1 "$sim" '!DELAY_DEQUEUE,!HRTICK' \
	"$sim" '!HRTICK' --cpus 1 --duration 2 --ideal >"$out/ab.txt" 2>&1 &&
	[ "$(ls "$out/ab" | wc -l)" -eq 4 ] && grep -q '^run time ms' "$out/ab.txt" &&
	awk -v lo=$lo -v hi=$hi '/^# scheduling latency \(us\) for B$/ { b = 1 }
	       b && /^run time ms/ { c = $NF; sub(/%/, "", c); found = (c + 0 >= lo && c + 0 <= hi) }
	       END { exit !found }' "$out/ab.txt"; then
	ok "A/B: the sleeper's run time +$lo..$hi% from strict EEVDF to delayed dequeue"
else
	bad "A/B of the sleeper (want +$lo..$hi%): $(tail -n 8 "$out/ab.txt")"
fi

# The A/B runs in parallel (sim/ab.sh -j): every_event (each run says on
# stderr that it leaves the RT task out), three seeds a side on 4 CPUs,
# with 2 jobs and with 1; then a patched side whose features do not
# exist, so every patched run fails. Expect stdout, stderr and the six
# result files byte-identical between 2 jobs and 1, and the failure's
# stderr and exit status identical too, naming patched seed 1.
ab_jobs() {	# JOBS DIR FEATURES_B: stdout, stderr and exit status in DIR.*
	"$top/sim/ab.sh" -j "$1" "$here/cases/every_event.json" "$out/$2" 3 1 "$sim" '' "$sim" "$3" \
		--cpus 4 >"$out/$2.out" 2>"$out/$2.err"
	echo $? >"$out/$2.rc"
}
ab_jobs 1 j1 '!DELAY_DEQUEUE'
ab_jobs 2 j2 '!DELAY_DEQUEUE'
ab_jobs 1 f1 'NO_SUCH_FEATURE'
ab_jobs 2 f2 'NO_SUCH_FEATURE'
same=1
for f in j1.out j1.err j1.rc f1.err f1.rc $(cd "$out/j1" && ls); do
	case $f in j1.* | f1.*) a=$out/$f b=$out/$(echo "$f" | tr 1 2) ;; *) a=$out/j1/$f b=$out/j2/$f ;; esac
	cmp -s "$a" "$b" || { same=0; bad "A/B with 2 jobs: $(basename "$b") differs from the serial run's"; }
done
if [ $same = 1 ] && [ "$(cat "$out/j1.rc")" = 0 ] && [ "$(ls "$out/j1" | wc -l)" -eq 6 ] &&
	[ "$(grep -c 'left out' "$out/j1.err")" -eq 6 ] && grep -q '^run time ms' "$out/j1.out" &&
	[ "$(cat "$out/f1.rc")" = 1 ] && tail -n 1 "$out/f1.err" | grep -q 'the patched run with seed 1 failed'; then
	ok "A/B with 2 jobs: stdout, stderr and results the serial run's bytes, a failure named alike"
elif [ $same = 1 ]; then
	bad "A/B with 2 jobs: serial run: rc $(cat "$out/j1.rc"), $(ls "$out/j1" | wc -l) results; failing run: rc $(cat "$out/f1.rc"), $(tail -n 1 "$out/f1.err")"
fi
# The same results as markdown (docs' tables). Expect B's run time row as
# a table row with the same change as the plain table.
plain=$(awk '/for B$/ { b = 1 } b && /^run time ms/ { print $NF; exit }' "$out/ab.txt")
if "$sim" --compare "$out"/ab/base-*.json --vs "$out"/ab/patched-*.json --markdown >"$out/ab.md" &&
	awk -v c="$plain" '/for B$/ { b = 1 } b && /^\| run time ms \|/ { found = ($(NF - 1) == c) } END { exit !found }' "$out/ab.md"; then
	ok "A/B --markdown: B's run time row, $plain, as a table row"
else
	bad "A/B --markdown (want B's run time $plain): $(tail -n 8 "$out/ab.md")"
fi
if "$sim" --compare "$out/d1.txt" --vs "$out/d1.json" >/dev/null 2>"$out/cmp.err"; then
	bad "--compare of a file that is no result: exited 0"
elif grep -q "is not a fairsim result file" "$out/cmp.err"; then
	ok "--compare of a file that is no result: $(cat "$out/cmp.err")"
else
	bad "--compare of a file that is no result: $(cat "$out/cmp.err")"
fi

# Plots (sim/plot.py, gnuplot): the latency distribution of two results
# and the timeline of a trace. Expect two SVG files that parse as XML,
# with one curve per task definition and side, and a timeline row of data
# per switched-in stretch. Skipped, saying so, where gnuplot is missing.
if ! command -v gnuplot >/dev/null; then
	skip=$((skip + 1))
	echo "ok - plots # SKIP gnuplot is not installed (make sim PLOT=... installs gnuplot-nox)"
elif python3 "$top/sim/plot.py" "$out/plots" --result "$out/d1.json" --result-b "$out/ab/base-seed1.json" \
	--trace "$out/d1.trace" --window-ms 20 >"$out/plot.log" 2>&1 &&
	python3 - "$out/plots" <<'EOF'
import os, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
for name in ('latency.svg', 'timeline.svg'):
	ET.parse(os.path.join(d, name))
curves = open(os.path.join(d, 'latency.dat')).read().count('# ')
rows = sum(1 for l in open(os.path.join(d, 'timeline.dat')) if not l.startswith('#'))
sys.exit(0 if curves >= 2 and rows > 10 else 'curves %d, timeline rows %d' % (curves, rows))
EOF
then
	ok "plots: latency distribution and timeline are SVG that parses, with data"
else
	bad "plots: $(tail -n 3 "$out/plot.log")"
fi

# must_fail WHAT NAME PATTERN ARGS...: fairsim with ARGS and --json and
# --trace into an empty dir. Expect a non-zero exit, exactly one line on
# stderr matching PATTERN (grep), and no output file, not even a partial one.
must_fail() {
	what=$1 name=$2 pattern=$3
	shift 3
	mkdir "$out/$name"
	if "$sim" --json "$out/$name/r.json" --trace "$out/$name/t.trace" "$@" \
		>"$out/bad.out" 2>"$out/bad.err"; then
		bad "$what: exited 0"
	elif [ "$(wc -l <"$out/bad.err")" -ne 1 ] || ! grep -q -- "$pattern" "$out/bad.err"; then
		bad "$what: wanted one line with '$pattern', got: $(head -c 300 "$out/bad.err")"
	elif [ -n "$(ls -A "$out/$name")" ]; then
		bad "$what: left $(ls -A "$out/$name")"
	else
		ok "$what: $(cat "$out/bad.err")"
	fi
}

# Each file in bad/ names its expected message in its first line.
for f in "$here"/bad/*.json; do
	name=$(basename "$f" .json)
	must_fail "bad input $name" "bad-$name" "$(sed -n '1s|^// expect: ||p' "$f")" --cpus 8 "$f"
done

# Each bad topology file in bad-topo/ likewise: the line names the file
# and the line in it.
for f in "$here"/bad-topo/*.topo; do
	name=$(basename "$f" .topo)
	must_fail "bad topology $name" "badtopo-$name" "$(sed -n '1s|^# expect: ||p' "$f")" \
		--topology "$f" "$here/cases/periodic.json"
done

# --hrtick-arm on the sleeper's B and A, one CPU, 0.3 s: the option
# means something only where the tree arms the slice's timer after the
# switch (7.2 and later with SCHED_HRTICK). Expect, where fairsim takes it,
# a trace that differs from the run without it and the header naming it;
# where it does not, one line naming the option and a non-zero exit.
w=$top/fixtures/workloads/sleeper.json
if "$sim" --cpus 1 --duration 0.3 --seed 1 --trace "$out/arm0.trace" "$w" >/dev/null 2>&1 &&
	"$sim" --cpus 1 --duration 0.3 --seed 1 --hrtick-arm 5 --trace "$out/arm5.trace" "$w" \
		>"$out/arm5.out" 2>"$out/arm5.err"; then
	if ! grep -q "slice's timer armed 5 us" "$out/arm5.out"; then
		bad "--hrtick-arm: the header does not name it"
	elif cmp -s "$out/arm0.trace" "$out/arm5.trace"; then
		bad "--hrtick-arm: taken, and the trace is the same as without it"
	else
		ok "--hrtick-arm: taken, the slices' timers later"
	fi
elif [ "$(grep -c . "$out/arm5.err")" = 1 ] && grep -q '^fairsim: .*--hrtick-arm' "$out/arm5.err"; then
	ok "--hrtick-arm: refused on this tree ($(cat "$out/arm5.err"))"
else
	bad "--hrtick-arm: failed without one line naming it: $(head -c 200 "$out/arm5.err")"
fi

# --tick-cost on the sleeper, one CPU, 0.5 s: a tick's handler is charged
# to the task it interrupts, whose work ends that much later. Expect the
# header to name it, and B's bursts (CPU time from wake-up to sleep) with
# a tick in their run, p50, 9 us longer than those without
# (twin/tick_runs.py), where without the option both are one length.
tc_p50() {
	python3 "$top/twin/tick_runs.py" A B "$1" 2>/dev/null |
		sed -n 's|.*with a tick in its run p10/p50/p90 [0-9-]*/\([0-9-]*\)/.*without [0-9-]*/\([0-9-]*\)/.*|\1 \2|p'
}
if "$sim" --cpus 1 --duration 0.5 --seed 1 --trace "$out/tc0.trace" "$w" >/dev/null 2>&1 &&
	"$sim" --cpus 1 --duration 0.5 --seed 1 --tick-cost 9 --trace "$out/tc9.trace" "$w" \
		>"$out/tc9.out" 2>&1; then
	read -r t0 n0 <<-EOF
	$(tc_p50 "$out/tc0.trace")
	EOF
	read -r t9 n9 <<-EOF
	$(tc_p50 "$out/tc9.trace")
	EOF
	if ! grep -q "a tick's handler 9 us" "$out/tc9.out"; then
		bad "--tick-cost: the header does not name it"
	elif [ -z "$n9" ] || [ "$t0" != "$n0" ] || [ "$t9" != "$((n9 + 9))" ]; then
		bad "--tick-cost: B's burst p50 with a tick / without: ${t0:-?} / ${n0:-?} us, with 9 us a tick: ${t9:-?} / ${n9:-?}"
	else
		ok "--tick-cost: B's bursts with a tick in them 9 us longer ($t9 / $n9 us)"
	fi
else
	bad "--tick-cost: fairsim failed: $(head -c 200 "$out/tc9.out")"
fi

# --timer-wake on the sleeper, one CPU, 0.5 s: a sleep timer's handler
# wakes its task that much after the expiry. Expect the header to name it,
# and B's sleep (switch-out to wake-up, twin/tick_runs.py), p50, 10 us
# longer with --timer-wake 10 than without (1050 us: the sleep and the
# slack).
tw_p50() {
	python3 "$top/twin/tick_runs.py" A B "$1" 2>/dev/null |
		sed -n 's|.*sleep, switch-out to wake-up, p10/p50/p90 [0-9-]*/\([0-9-]*\)/.*|\1|p'
}
if "$sim" --cpus 1 --duration 0.5 --seed 1 --timer-wake 10 --trace "$out/tw10.trace" "$w" \
	>"$out/tw10.out" 2>&1; then
	s0=$(tw_p50 "$out/tc0.trace")
	s10=$(tw_p50 "$out/tw10.trace")
	if ! grep -q "a sleep timer's expiry to its task's wake-up 10 us" "$out/tw10.out"; then
		bad "--timer-wake: the header does not name it"
	elif [ -z "$s0" ] || [ -z "$s10" ] || [ "$s10" != "$((s0 + 10))" ]; then
		bad "--timer-wake: B's sleep p50 ${s0:-?} us, with --timer-wake 10 ${s10:-?}"
	else
		ok "--timer-wake: B's sleep 10 us longer ($s10 / $s0 us)"
	fi
else
	bad "--timer-wake: fairsim failed: $(head -c 200 "$out/tw10.out")"
fi

# --timer-cost on a 500 us worker beside a 977 us timer, one CPU, 1 s: a
# sleep timer's handler runs on the task it interrupts, and fairsim's
# trace flags its wake-up as the kernel's (h). Expect the header to name
# it, and w's bursts (CPU time, wake-up to sleep) with one handler on
# their time 9 us longer than those with none (twin/irq_runs.py), where
# without the option both are one length.
ic_cost() {
	python3 "$top/twin/irq_runs.py" w "$1" 2>/dev/null |
		sed -n "s/.*a handler's cost: \([0-9.-]*\) us.*/\1/p"
}
if "$sim" --cpus 1 --seed 1 --trace "$out/ic0.trace" "$here/cases/timer_cost.json" >/dev/null 2>&1 &&
	"$sim" --cpus 1 --seed 1 --timer-cost 9 --trace "$out/ic9.trace" "$here/cases/timer_cost.json" \
		>"$out/ic9.out" 2>&1; then
	c0=$(ic_cost "$out/ic0.trace")
	c9=$(ic_cost "$out/ic9.trace")
	if ! grep -q "a sleep timer's handler 9 us" "$out/ic9.out"; then
		bad "--timer-cost: the header does not name it"
	elif [ "$c0" != 0.0 ] || [ "$c9" != 9.0 ]; then
		bad "--timer-cost: w's bursts with a handler less those without: ${c0:-none} us, with 9 us a handler: ${c9:-none}"
	else
		ok "--timer-cost: w's bursts with a timer's handler in them 9 us longer ($c0 / $c9 us)"
	fi
else
	bad "--timer-cost: fairsim failed: $(head -c 200 "$out/ic9.out")"
fi

# Bad command lines: one line each, non-zero exit.
for args in "--cpus 0" "--cpus 65" "--seed x" "--duration -1" "--duration 1e300" "--frobnicate" \
	"--features NO_SUCH_FEATURE" "/no/such/file.json" "--topology no-such-machine" \
	"--timer-slack -1" "--wake-cost x" "--idle-exit 1e12" "--wake-preempt -" \
	"--tick-preempt -5" "--hrtick-preempt x" "--hrtick-arm 1e10" "--tick-cost -1" "--timer-wake -3" "--timer-cost 1e12" \
	"--topology /no/such/file.topo" "--topology smt-mc-8 --cpus 4" "--topology mc-2 --islands"; do
	case $args in /*) a=$args ;; *) a="$args $here/cases/periodic.json" ;; esac
	# shellcheck disable=SC2086
	cli_fails "$args" $a
done

echo "sim: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

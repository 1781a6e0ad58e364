#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make campaign's checks: for a small campaign of each kind, the merged
# report is byte for byte the one machine's (the fairtest run over the
# whole seed range, tests/fault/matrix.sh, sched_fair/mutate.sh,
# sim/ab.sh); a failing property campaign (a mutant's build) merges to
# the whole run's shrunk failure and replay line; two ssh logins to
# 127.0.0.1, served by an sshd started here on a loopback port with its own
# keys, merge to the same bytes; a shard killed mid-run is rerun and a
# second run of a finished campaign reruns nothing; bad input gets one
# line, exit status 2 and no campaign dir. About 40 s on a 2-core VM,
# most of it the two mutants' builds.
#
# usage: tests/campaign/run.sh OBJ KSRC PROFILE_FILE
set -u
obj=$1 ksrc=$2 profile=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
camp=$top/sched_fair/campaign.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-campaign.XXXXXX")
sshd_pid=
cleanup() {
	[ -z "$sshd_pid" ] || kill "$sshd_pid" 2>/dev/null
	rm -rf "$tmp" "$HOME/.fairtest-campaign/ssh-"*
	rmdir "$HOME/.fairtest-campaign" 2>/dev/null
}
trap cleanup EXIT
cd "$top" || exit 1	# WORKLOAD paths are the source tree's
pass=0 fail=0 skip=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
same() {	# NAME A B: the merged report A is B's bytes
	if cmp -s "$2" "$3"; then ok "$1"; else bad "$1:"; diff "$2" "$3" | head -n 20 | sed 's/^/# /'; fi
}
# campaign NAME [VAR=value...]: make campaign's run into $tmp/NAME.out,
# the campaign dir $tmp/NAME
campaign() {
	n=$1
	shift
	env CAMPAIGN="$tmp/$n" SEED=1 TIMEOUT=60 "$@" "$camp" run "$obj" "$ksrc" "$profile" \
		>"$tmp/$n.out" 2>"$tmp/$n.err"
	echo $? >"$tmp/$n.rc"
}
pfilter='fair_property.*'

# property: three shards of 200 seeds against one run of 600
campaign prop KIND=property SEEDS=1-600 SHARD=200
FAIRTEST_SEQUENCES=600 "$obj/fairtest" --seed 1 --timeout 0 "$pfilter" >"$tmp/prop.ref"
same "property: 3 shards of 200 seeds merge to the one run over 1-600" "$tmp/prop.out" "$tmp/prop.ref"

# fault: the rows of one point on one suite, with WARNs (listed findings)
# under the table, merged from the rows' shards
pt=mm/__kmalloc_cache_noprof
campaign fault KIND=fault FAULTS=$pt P=0.3 FILTER='fair_topology.*'
"$top/tests/fault/matrix.sh" "$obj/fairtest" $pt 0.3 1 60 'fair_topology.*' >"$tmp/fault.ref"
same "fault: 4 row shards merge to make fault's table" "$tmp/fault.out" "$tmp/fault.ref"
grep -q 'WARN at .*finding' "$tmp/fault.ref" ||
	bad "fault: the matrix of $pt on fair_topology shows no WARN to merge any more; pick another point"

# mutate: two mutants against the property suite, one caught, one not
muts='avg-load-not-subtracted lag-sign-flipped'
campaign mutate KIND=mutate MUTANTS="$muts" FILTER="$pfilter"
MUTATE_JOBS=1 MUTANTS=$muts "$top/sched_fair/mutate.sh" "$obj" "$ksrc" "$profile" --seed 1 --timeout 30 "$pfilter" >"$tmp/mutate.ref" 2>&1
same "mutate: base and 2 mutant shards merge to make mutate's table" "$tmp/mutate.out" "$tmp/mutate.ref"
MUTATE_JOBS=2 MUTANTS=$muts "$top/sched_fair/mutate.sh" "$obj" "$ksrc" "$profile" --seed 1 --timeout 30 "$pfilter" >"$tmp/mutate.par" 2>&1
same "mutate: 2 mutants at once (MUTATE_JOBS=2) print the table one at a time does" "$tmp/mutate.par" "$tmp/mutate.ref"

# property on a mutant's build: the first failing seed, shrunk, replayed
mobj=$tmp/mutant-obj
mkdir -p "$mobj" && cp "$obj/mutants/avg-load-not-subtracted/obj/fairtest" "$obj/fairsim" "$mobj/" 2>/dev/null
if [ -x "$mobj/fairtest" ]; then
	obj_saved=$obj obj=$mobj
	campaign propfail KIND=property SEEDS=101-500 SHARD=100
	obj=$obj_saved
	FAIRTEST_SEQUENCES=400 "$mobj/fairtest" --seed 101 --timeout 0 "$pfilter" >"$tmp/propfail.ref"
	same "property on a mutant: 4 shards merge to the run's failure" "$tmp/propfail.out" "$tmp/propfail.ref"
	if grep -q "shrunk to .*; replay: fairtest --seed 101 'fair_property" "$tmp/propfail.out" ||
	   { grep -q 'shrunk to' "$tmp/propfail.out" && grep -q "replay: fairtest --seed 101 " "$tmp/propfail.out"; }; then
		ok "property on a mutant: the merged failure is shrunk and names its replay"
	else
		bad "property on a mutant: no shrunk sequence and replay line in the merge"
	fi
else
	bad "property on a mutant: the mutate campaign left no mutant build"
fi

# sim: sim-ab's runs, 3 seeds a side
campaign sim KIND=sim WORKLOAD=fixtures/workloads/sleeper.json FEATURES_B=PREEMPT_SHORT SEEDS=3 SIM_ARGS='--duration 1'
(cd "$top" && sim/ab.sh fixtures/workloads/sleeper.json "$tmp/ab-ref" 3 1 "$obj/fairsim" '' "$obj/fairsim" PREEMPT_SHORT \
	--duration 1) >"$tmp/sim.ref" 2>&1
same "sim: 6 run shards merge to make sim-ab's tables" "$tmp/sim.out" "$tmp/sim.ref"

# a killed shard: shard 2 of 4 (seeds 4001-8000) killed mid-run, rerun;
# shards of 4000 seeds run about 2 s here, long enough to be caught running
# (at 500 an idle machine ran a shard in a quarter of a second, and the
# watch below missed it)
(cd "$top" && CAMPAIGN=$tmp/kill KIND=property SEEDS=1-16000 SHARD=4000 CAMPAIGN_JOBS=1 SEED=1 \
	"$camp" run "$obj" "$ksrc" "$profile" >"$tmp/kill.out" 2>"$tmp/kill.err") &
bg=$!
killed=
i=0
while [ $i -lt 600 ] && [ -z "$killed" ] && kill -0 $bg 2>/dev/null; do
	# the runner itself (its parent is the shard), not a case's process:
	# a case that dies is a result, a shard that dies is lost
	for p in $(pgrep -f -- "^bundle/fairtest --seed 4001 "); do
		[ "$(readlink "/proc/$p/cwd")" = "$tmp/kill" ] &&
			tr '\0' ' ' <"/proc/$(ps -o ppid= -p "$p" | tr -d ' ')/cmdline" 2>/dev/null |
				grep -q 'campaign.sh shard' &&
			killed=$p
	done
	[ -z "$killed" ] || { sleep 0.1; kill -9 "$killed" || killed=; }
	sleep 0.05
	i=$((i + 1))
done
wait $bg
FAIRTEST_SEQUENCES=16000 "$obj/fairtest" --seed 1 --timeout 0 "$pfilter" >"$tmp/kill.ref"
runs=$(grep -c '^000002 ' "$tmp/kill/attempts")
if [ -n "$killed" ] && [ "$runs" -ge 2 ]; then
	ok "a shard killed mid-run is rerun (shard 2 ran $runs times)"
else
	bad "a shard killed mid-run is rerun: killed '$killed', shard 2 ran $runs times"
fi
same "the campaign with a killed shard merges to the whole run" "$tmp/kill.out" "$tmp/kill.ref"
lines=$(wc -l <"$tmp/kill/attempts")
(cd "$top" && CAMPAIGN=$tmp/kill KIND=property SEEDS=1-16000 SHARD=4000 CAMPAIGN_JOBS=1 SEED=1 \
	"$camp" run "$obj" "$ksrc" "$profile" >"$tmp/again.out" 2>"$tmp/again.err")
if [ "$(wc -l <"$tmp/kill/attempts")" -eq "$lines" ] && cmp -s "$tmp/again.out" "$tmp/kill.ref"; then
	ok "a second run of a finished campaign reruns no shard and prints the same report"
else
	bad "a second run of a finished campaign: $lines -> $(wc -l <"$tmp/kill/attempts") attempts, or another report"
fi

# an interrupted campaign (parallel stopped after its first shard) resumes
# with the shards not yet finished only (the one parallel stopped mid-run
# among them)
(CAMPAIGN=$tmp/resume KIND=property SEEDS=1-16000 SHARD=4000 CAMPAIGN_JOBS=1 SEED=1 \
	"$camp" run "$obj" "$ksrc" "$profile" >"$tmp/resume1.out" 2>"$tmp/resume1.err") &
bg=$!
i=0 stopped=
while [ $i -lt 600 ] && [ -z "$stopped" ] && kill -0 $bg 2>/dev/null; do
	if [ -f "$tmp/resume/out/000001" ]; then
		for p in $(pgrep -f -- "--joblog $tmp/resume/joblog"); do kill -TERM "$p" && stopped=$p; done
	fi
	sleep 0.05
	i=$((i + 1))
done
wait $bg
rc1=$?
finished=$(ls "$tmp/resume/out")
done1=$(echo "$finished" | grep -c .)
CAMPAIGN=$tmp/resume KIND=property SEEDS=1-16000 SHARD=4000 CAMPAIGN_JOBS=1 SEED=1 \
	"$camp" run "$obj" "$ksrc" "$profile" >"$tmp/resume2.out" 2>"$tmp/resume2.err"
twice=$(sed 's/ .*//' "$tmp/resume/attempts" | sort | uniq -d | grep -Fx "$finished" | paste -sd, -)
if [ -n "$stopped" ] && [ "$rc1" = 1 ] && [ "$done1" -lt 4 ] && [ -z "$twice" ] &&
   cmp -s "$tmp/resume2.out" "$tmp/kill.ref"; then
	ok "an interrupted campaign ($done1 of 4 shards done) resumes with the others only, same report"
else
	bad "an interrupted campaign: stopped '$stopped', exit $rc1, $done1 done, ran twice: '$twice'"
fi

# two machines: two ssh logins to 127.0.0.1, an sshd of our own
port=$((20000 + $$ % 20000))
s=$tmp/sshd
why=
if ! [ -x /usr/sbin/sshd ]; then
	why="no /usr/sbin/sshd: sudo apt-get install openssh-server to run it (deps.sh installs it on CI only: it starts a system sshd)"
elif ! command -v rsync >/dev/null; then
	why="no rsync, which parallel's --basefile and --return use"
else
	mkdir -p "$s" && chmod 700 "$s"
	ssh-keygen -q -t ed25519 -N '' -f "$s/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$s/user_key"
	cp "$s/user_key.pub" "$s/authorized_keys"
	cat >"$s/sshd_config" <<EOF
ListenAddress 127.0.0.1:$port
HostKey $s/host_key
AuthorizedKeysFile $s/authorized_keys
PidFile $s/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
EOF
	cat >"$s/ssh_config" <<EOF
Host *
  Port $port
  IdentityFile $s/user_key
  IdentitiesOnly yes
  UserKnownHostsFile $s/known_hosts
  StrictHostKeyChecking no
  BatchMode yes
  LogLevel ERROR
EOF
	[ "$(id -u)" -ne 0 ] || mkdir -p /run/sshd	# its privilege separation dir
	/usr/sbin/sshd -D -f "$s/sshd_config" -E "$s/sshd.log" &
	sshd_pid=$!
	i=0
	until ssh -F "$s/ssh_config" 127.0.0.1 true 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 50 ] && kill -0 "$sshd_pid" 2>/dev/null || { why="sshd would not start here: $(tail -n 1 "$s/sshd.log")"; break; }
		sleep 0.1
	done
fi
if [ -n "$why" ]; then
	echo "ok - two ssh logins merge to the one machine's report # SKIP $why"
	skip=$((skip + 1))
else
	printf '1/127.0.0.1\n1/%s@127.0.0.1\n' "$(id -un)" >"$tmp/hosts"
	PARALLEL_SSH="ssh -F $s/ssh_config" campaign ssh KIND=property SEEDS=1-600 SHARD=200 HOSTS="$tmp/hosts"
	same "two ssh logins to 127.0.0.1 merge to the one run over 1-600" "$tmp/ssh.out" "$tmp/prop.ref"
	hosts_used=$(awk -F'\t' 'NR > 1 { print $2 }' "$tmp/ssh/joblog" | sort -u | paste -sd' ' -)
	case $hosts_used in
	*127.0.0.1*' '*127.0.0.1*) ok "both logins ran shards ($hosts_used)" ;;
	*) bad "both logins ran shards: only '$hosts_used'" ;;
	esac
	if ls -d "$HOME/.fairtest-campaign/ssh-"* >/dev/null 2>&1; then
		bad "the logins' copies of the bundle are left behind: $(ls -d "$HOME/.fairtest-campaign/ssh-"*)"
	else
		ok "the logins' copies of the bundle are removed at the end"
	fi
	# a login that fails: one line, nothing written
	printf '1/127.0.0.1\n1/nobody-here@127.0.0.2\n' >"$tmp/hosts-bad"
	PARALLEL_SSH="ssh -F $s/ssh_config" campaign sshbad KIND=property SEEDS=1-600 HOSTS="$tmp/hosts-bad"
	if [ "$(cat "$tmp/sshbad.rc")" = 2 ] && [ "$(wc -l <"$tmp/sshbad.err")" = 1 ] &&
	   grep -q "nobody-here@127.0.0.2" "$tmp/sshbad.err" && [ ! -e "$tmp/sshbad" ]; then
		ok "an unreachable host: one line naming it, exit 2, no campaign dir"
	else
		bad "an unreachable host: exit $(cat "$tmp/sshbad.rc"): $(cat "$tmp/sshbad.err")"
	fi
fi

# bad input: one line naming the knob, exit 2, nothing written
for args in "KIND=bogus" "KIND=property SEEDS=5-1" "KIND=property SEEDS=1-x" "KIND=property SHARD=150" \
	    "KIND=sim FEATURES_B=PREEMPT_SHORT WORKLOAD=no/such.json" "KIND=property HOSTS=$tmp/no-such-file"; do
	# shellcheck disable=SC2086
	campaign badin $args
	knob=${args##* } knob=${knob%%=*}
	if [ "$(cat "$tmp/badin.rc")" = 2 ] && [ "$(wc -l <"$tmp/badin.err")" = 1 ] &&
	   grep -q "$knob" "$tmp/badin.err" && [ ! -e "$tmp/badin" ]; then
		ok "bad input $args: one line naming $knob, exit 2, no campaign dir"
	else
		bad "bad input $args: exit $(cat "$tmp/badin.rc"): $(cat "$tmp/badin.err")"
	fi
done

# SLURM=1: the array script, no run
campaign slurm KIND=property SEEDS=1-1000 SHARD=100 SLURM=1
if [ "$(cat "$tmp/slurm.rc")" = 0 ] && grep -q '^#SBATCH --array=1-10$' "$tmp/slurm/campaign.sbatch" &&
   [ ! -e "$tmp/slurm/joblog" ] && sh -n "$tmp/slurm/campaign.sbatch"; then
	ok "SLURM=1 writes a 10-task array script and runs nothing"
else
	bad "SLURM=1: exit $(cat "$tmp/slurm.rc"): $(cat "$tmp/slurm.err")"
fi

echo "campaign: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

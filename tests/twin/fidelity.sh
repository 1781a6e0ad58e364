#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# twin/fidelity.sh's one run per build dir, without a boot: a fake make
# first in PATH stands for make twin (it writes its pid, waits while
# O.hold exists, then fails), so a run can be held in its first twin. A
# second run on the same O is refused at once, in one line naming the
# first's pid, and writes nothing; a run on another O goes on; the lock
# goes with the first run, whether it ends by itself or is killed. Then
# the same two runs on a copy of fidelity.sh with
# fixtures/mutants/twin/fidelity-no-lock.patch applied: the second run is
# not refused there, so the checks above can fail.
#
# usage: tests/twin/fidelity.sh OUTDIR
# shellcheck disable=SC2016 # check's second argument is code, evaluated there
set -u
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
tap_name=twin-fidelity
. "$top/tests/twin/tap.sh"
fresh_out bin
# The fake make holds at most 30 s; its sleeps do not keep the run's lock.
cat >"$out/bin/make" <<MAKE
#!/bin/sh
echo \$\$ >>"$out/make.pids"
for a; do case \$a in O=*) o=\${a#O=} ;; esac; done
n=0
while [ -e "\$o.hold" ] && [ \$n -lt 300 ]; do sleep 0.1 9>&-; n=\$((n + 1)); done
echo "fake make twin: \$*"
exit 1
MAKE
chmod 755 "$out/bin/make"
: >"$out/make.pids"
rows=sleeper:6.12:base:

# fid SCRIPT O NAME: one run in the background, its pid in $out/NAME.pid
fid() {
	PATH=$out/bin:$PATH O=$2 FIDELITY_ROWS=$rows "$1" 1 1 >"$out/$3.out" 2>"$out/$3.err" &
	echo $! >"$out/$3.pid"
}
# once SCRIPT O NAME: one run to its end
once() { PATH=$out/bin:$PATH O=$2 FIDELITY_ROWS=$rows "$1" 1 1 >"$out/$3.out" 2>"$out/$3.err"; }
# made N: the fake make started N times or more
made() { [ "$(wc -l <"$out/make.pids")" -ge "$1" ]; }
# upto COND: wait at most 5 s for the shell condition COND
upto() {
	n=0
	until eval "$1"; do
		[ $n -lt 50 ] || return 1
		sleep 0.1
		n=$((n + 1))
	done
}
alive() { kill -0 "$(cat "$out/$1.pid")" 2>/dev/null; }
# held SCRIPT O: a first run held in its make twin, then a second on the
# same O, given 5 s to end or to reach its own make twin; second.rc: its
# exit code, or "running". Then the hold is lifted and both end.
held() {
	touch "$2.hold"
	: >"$out/make.pids"
	fid "$1" "$2" first
	upto 'made 1' || echo "the first run never reached make twin: $(cat "$out/first.err")" >&2
	fid "$1" "$2" second
	upto '! alive second || made 2'
	if alive second; then
		echo running >"$out/second.rc"
		rm -f "$2.hold"
		wait "$(cat "$out/second.pid")"
	else
		wait "$(cat "$out/second.pid")"
		echo $? >"$out/second.rc"
	fi
	rm -f "$2.hold"
	wait "$(cat "$out/first.pid")"
}
# past NAME: the run got past the lock to its make twin (which failed)
past() { grep -q "the twin of $rows failed" "$out/$1.err" && ! grep -q 'another run works' "$out/$1.err"; }

# A run held in its first twin; a second on the same O. Expect the second
# to exit 1 without a make twin of its own, with one line on stderr
# naming the first's pid and the way out (another O=), nothing on stdout,
# and no log of its row beside the first's.
held "$top/twin/fidelity.sh" "$out/o"
check "a second run on one O is refused at once (exit $(cat "$out/second.rc")): $(cat "$out/second.err")" \
	'[ "$(cat "$out/second.rc")" = 1 ] && [ "$(wc -l <"$out/make.pids")" = 1 ]'
check "its one line names the running one and the fix" \
	'[ "$(wc -l <"$out/second.err")" = 1 ] && grep -q "pid $(cat "$out/first.pid"), twin/fidelity.sh 1 1, since .*another O=" "$out/second.err"'
check "it writes nothing: no stdout, only the first run's log" \
	'[ ! -s "$out/second.out" ] && [ "$(ls "$out/o/fidelity" | grep -c log)" = 1 ]'

# A run held on one O, another run on another O. Expect the other run
# past the lock, at its make twin (which fails: the fake make's exit).
touch "$out/o.hold"
fid "$top/twin/fidelity.sh" "$out/o" first
upto 'made 1'
once "$top/twin/fidelity.sh" "$out/o2" other
check "a run on another O goes on meanwhile" 'past other'
# The held run's twin ends (failing), so the run ends. Expect a run on
# its O past the lock.
rm -f "$out/o.hold"
wait "$(cat "$out/first.pid")"
once "$top/twin/fidelity.sh" "$out/o" after
check "the lock goes with a run that ends" 'past after'

# A run held again, then killed (TERM to it and to its make twin). Expect
# the next run past the lock.
touch "$out/o.hold"
: >"$out/make.pids"
fid "$top/twin/fidelity.sh" "$out/o" killed
if upto 'made 1'; then
	# shellcheck disable=SC2046 # one word a pid
	kill "$(cat "$out/killed.pid")" $(cat "$out/make.pids") 2>/dev/null
	wait "$(cat "$out/killed.pid")"
	upto '! kill -0 $(cat "$out/make.pids") 2>/dev/null'
fi
rm -f "$out/o.hold"
once "$top/twin/fidelity.sh" "$out/o" afterkill
check "the lock goes with a run that is killed" 'past afterkill'

# The mutant: fidelity.sh without its lock. Expect its second run on one
# O past where the lock stops it, at a make twin of its own.
mkdir -p "$out/mutant/twin"
cp "$top/twin/fidelity.sh" "$out/mutant/twin/"
if patch -s -p1 --fuzz=0 -d "$out/mutant" <"$top/fixtures/mutants/twin/fidelity-no-lock.patch" >"$out/mutant.log" 2>&1; then
	held "$out/mutant/twin/fidelity.sh" "$out/om"
	check "fixtures/mutants/twin/fidelity-no-lock: its second run is not refused (caught by the first check)" \
		'[ "$(wc -l <"$out/make.pids")" = 2 ] && ! grep -q "another run works" "$out/second.err"'
else
	not_ok "fixtures/mutants/twin/fidelity-no-lock does not apply to twin/fidelity.sh: refresh its context ($out/mutant.log)"
fi

echo "twin-fidelity: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

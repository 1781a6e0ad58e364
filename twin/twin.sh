#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make twin: one workload in fairsim and on the real kernel of the same
# tree (Debian's own image of the tree's exact package version, or a
# kernel built from the tree by twin/kernel.sh, booted RUNS times under
# QEMU), both traces through fairsim's one analysis (--from-trace), then the side-by-side table (--twin). Everything goes to
# a temporary directory that becomes RESULT only when every part succeeded:
#   RESULT/sim.{txt,json,trace}   fairsim's run (seed SEED)
#   RESULT/sim-seedS.{txt,json}   fairsim's run at seed S, the further seeds
#                                 of FAIRTEST_TWIN_SEEDS=N (SEED+1 .. SEED+N-1)
#   RESULT/real-N/                one boot: trace, schedstat at both ends of
#                                 the window, console, calibration, features
#   RESULT/real-N.{txt,json}      the analysis of that boot's trace
#   RESULT/twin.txt, twin.json    the table printed on stdout
#   RESULT/rtapp.slice            the slices the guest gave rt-app's threads
#                                 (twin/slice.c), for a file with dl-runtime
#
# SIM_ARGS: more options for fairsim's run (the model's costs: --ideal,
# --timer-slack, ...), as words.
#
# FAIRTEST_TWIN_STORE=DIR adds the boots to those kept in DIR/<key>
# (twin/store.sh: none is replaced), the key a hash of what decides them:
# the kernel package and version, the file rt-app runs (the workload's
# content, the window), the features, CPUs, boots, accelerator, the guest's
# /init and extra kernel arguments, and for a file with SCHED_OTHER slices
# the slice map and twin/slice.c. With FAIRTEST_TWIN_REUSE=1 as well, the
# first RUNS boots stored under that key are used instead of booting (so
# boots added later do not move the table; =all takes every stored boot,
# and the header says how many); their traces still go through today's
# analysis and fairsim always runs (twin/fidelity.sh uses this).
#
# usage: twin/twin.sh FAIRSIM KSRC WORKLOAD RESULT CPUS DURATION SEED FEATURES RUNS ACCEL [SIM_ARGS]
set -eu
die() { echo "fairtest: $*" >&2; exit 1; }
. "$(dirname "$0")/store.sh"
# Directory $2 becomes $1, whole, by rename(); rename() does not replace a
# directory that has files, so $2's old self is moved aside first. Two
# runs that replace one $2 at once leave one whole, never a mix of both or
# one inside the other (as mv $1 $2 would onto an existing $2).
replace_dir() {
	n=0
	until mv -T "$1" "$2" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -le 5 ] || return 1
		mv -T "$2" "$1.old$n" 2>/dev/null || true
	done
	rm -rf "$1".old*
}
[ $# -eq 10 ] || [ $# -eq 11 ] ||
	die "usage: twin/twin.sh FAIRSIM KSRC WORKLOAD RESULT CPUS DURATION SEED FEATURES RUNS ACCEL [SIM_ARGS]"
fairsim=$1 ksrc=$2 workload=$3 result=$4 cpus=$5 duration=$6 seed=$7 features=$8 runs=$9
accel=${10} sim_args=${11:-}
top=$(cd "$(dirname "$0")/.." && pwd)
case $fairsim in /*) ;; *) fairsim=$(pwd)/$fairsim ;; esac

[ -f "$workload" ] || die "no workload file $workload; see fixtures/workloads/"
case $runs in ''|*[!0-9]*|0) die "RUNS=$runs: give the number of boots of the real kernel, 1 or more" ;; esac
case $cpus in ''|*[!0-9]*|0) die "CPUS=$cpus: give the guest's CPUs, 1 or more" ;; esac
case $accel in ''|auto|kvm|tcg|icount:[0-9]|icount:1[0-9]) ;; *) die "ACCEL=$accel: one of auto, kvm, tcg, icount:N" ;; esac
# fairsim's seeds: a seed jitters each task's start (up to 1 ms), so a
# latency's tail moves with it as a boot's does; N seeds give fairsim's
# column a spread to set beside the boots'.
seeds=${FAIRTEST_TWIN_SEEDS:-1}
case $seeds in ''|*[!0-9]*|0) die "SEEDS=$seeds: give the number of fairsim's seeds, from SEED, 1 or more" ;; esac
case $seed in ''|*[!0-9]*) die "SEED=$seed: give fairsim's first seed, a whole number" ;; esac
case ${FAIRTEST_TWIN_REUSE:-} in
''|1|all) ;;
*) die "FAIRTEST_TWIN_REUSE=$FAIRTEST_TWIN_REUSE: 1 (the first RUNS stored boots) or all (every stored boot of the key)" ;;
esac
case ${FAIRTEST_TWIN_CALIBRATE:-0} in
''|0|1) ;;
*) die "CALIBRATE=$FAIRTEST_TWIN_CALIBRATE: 1 (fairsim with the costs the real boots measured) or 0" ;;
esac
[ -z "${FAIRTEST_TWIN_EVENTS:-}" ] || [ -f "$FAIRTEST_TWIN_EVENTS" ] ||
	die "FAIRTEST_TWIN_EVENTS=$FAIRTEST_TWIN_EVENTS: no such file of dynamic_events lines (see twin/events/)"
"$top/sched_fair/deps.sh" @twin

mkdir -p "$(dirname "$result")"
[ -n "$duration" ] || duration=$(python3 -c 'import json,re,sys
t=re.sub(r"/\*.*?\*/|//[^\n]*", "", open(sys.argv[1]).read(), flags=re.S)
m=re.search(r"\"duration\"\s*:\s*([0-9.]+)", t)
print(m.group(1) if m else 10)' "$workload")

# The previous result stays until this run has a whole one to put there.
# FAIRTEST_TWIN_KEEP=1: a failed run's files stay, a failed boot's console
# and QEMU output with them (twin/boot.sh keeps its own under this dir).
# One rule for every way out, the store's half-made copy ($store_new) included.
tmp=$(mktemp -d "$result.tmp.XXXXXX")
store_new=
cleanup() {
	rc=$?
	rm -rf "$tmp".old*
	{ [ "$rc" -ne 0 ] && [ "${FAIRTEST_TWIN_KEEP:-}" = 1 ]; } || rm -rf "$tmp"
	[ -z "$store_new" ] || rm -rf "$store_new"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# What rt-app 1.0 cannot run is said before anything boots.
threads=$(python3 "$top/twin/workload.py" "$workload" "$duration" "$tmp/rtapp.json") || exit 1
# The file's SCHED_OTHER slices (dl-runtime), which rt-app 1.0 does not
# set: our helper does, preloaded into rt-app (twin/slice.sh), on a kernel
# that takes a fair task's sched_runtime (custom slices: 6.12 and later).
if [ -f "$tmp/rtapp.slice" ] &&
	! grep -qs custom_slice "$ksrc"/kernel/sched/syscalls.c "$ksrc"/kernel/sched/fair.c; then
	die "$(basename "$workload") gives SCHED_OTHER tasks a dl-runtime (a slice), but $(basename "$ksrc") has no custom slices (sched_attr.sched_runtime, 6.12 and later); twin it on a 6.12 or later tree, or drop dl-runtime"
fi
initrd=$("$top/twin/initramfs.sh" "$(dirname "$result")")
boot_initrd=$initrd

# The kernel: Debian's own image of the tree's version for a tree tree.sh
# unpacked from Debian's package; any other tree's (yours, a series
# applied), or any with FAIRTEST_TWIN_KERNEL=build, built from the tree
# (twin/kernel.sh), its objects and images beside the fairsim build dirs.
cache=$(cd "${FAIRTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fairtest}" 2>/dev/null && pwd -P) || cache=/nonexistent
case $ksrc in
"$cache"/trees/*) kernel=${FAIRTEST_TWIN_KERNEL:-debian} ;;
*) kernel=build ;;
esac
case $kernel in debian|build) ;; *) die "FAIRTEST_TWIN_KERNEL=$kernel: give build (or leave it unset)" ;; esac
if [ "$kernel" = build ]; then
	kimage=$("$top/twin/kernel.sh" "$ksrc" "$(dirname "$(dirname "$fairsim")")/twin-kernel") || exit 1
else
	kimage=$("$top/sched_fair/kimage.sh" "$ksrc" 2>"$tmp/kimage.err") || {
		msg=$(tail -n 1 "$tmp/kimage.err")
		rm -f "$tmp/kimage.err"
		die "${msg#fairtest: }"
	}
	rm -f "$tmp/kimage.err"
fi

if [ -z "$accel" ] || [ "$accel" = auto ]; then
	accel=$("$top/twin/accel.sh" "$kimage" "$initrd" "$(dirname "$result")")
	# icount counts the instructions of all vCPUs on one clock: with n of
	# them busy each runs at 1/n of the rate its calibration measured
	# (seen: the sleeper's B, CPUS=2, ran 2.7 ms per "1 ms" event). Plain
	# TCG runs the vCPUs side by side, at the host's mercy (docs/twin.md).
	case $accel in
	icount:*)
		if [ "$cpus" -gt 1 ]; then
			accel=tcg
			echo "fairtest: twin: $cpus CPUs: plain TCG, not icount (one instruction clock for all vCPUs); run events stretch when the host is busy" >&2
		fi ;;
	esac
fi
# A boot takes 5-15 s of wall time and the calibration 2-5 s; the window
# is DURATION s of guest time, which TCG on a busy host and icount's
# slower shifts stretch: the limit allows for 20x, plus the trace's trip.
limit=$(awk -v d="$duration" -v c="$cpus" 'BEGIN { printf "%d\n", 180 + 20 * d * (c > 2 ? c / 2 : 1) }')
limit=${FAIRTEST_TWIN_LIMIT:-$limit}

pkg=$(cat "$kimage/package")
if [ -f "$tmp/rtapp.slice" ]; then
	boot_initrd=$tmp/initrd.slice
	"$top/twin/slice.sh" "$initrd" "$tmp/rtapp.slice" "$boot_initrd" || exit 1
fi
store= key=
if [ -n "${FAIRTEST_TWIN_STORE:-}" ]; then
	key=$({ echo "$pkg $cpus $duration $runs $accel $threads"; echo "$features"
		echo "${FAIRTEST_TWIN_APPEND:-}"; cat "$tmp/rtapp.json" "$top/twin/init.sh" "$top/twin/boot.sh"
		[ ! -f "$tmp/rtapp.extra" ] || cat "$tmp/rtapp.extra"
		[ ! -f "$tmp/rtapp.slice" ] || cat "$tmp/rtapp.slice" "$top/twin/slice.c"
		[ -z "${FAIRTEST_TWIN_EVENTS:-}" ] || cat "$FAIRTEST_TWIN_EVENTS"
		cat "$(dirname "$initrd")/initramfs.key"; } | md5sum | cut -c1-16)
	store=$FAIRTEST_TWIN_STORE/$key
fi
# Reused: the first RUNS boots of the key (every one with REUSE=all).
reused=
if [ -n "$store" ] && [ -n "${FAIRTEST_TWIN_REUSE:-}" ]; then
	take=$(store_reuse "$store" "$runs" "$FAIRTEST_TWIN_REUSE")
	[ "$take" -eq 0 ] || { reused=$store runs=$take; }
fi
features_shown=${features:-"the kernel's defaults"}
echo "twin: $(basename "$workload"), $cpus CPUs, $duration s, features: $features_shown"
if [ "$seeds" -gt 1 ]; then seeds_shown="seeds $seed-$((seed + seeds - 1))"; else seeds_shown="seed $seed"; fi
echo "twin: fairsim on $(basename "$ksrc"), $seeds_shown${sim_args:+, $sim_args}"
rtapp_version=$(dpkg-query -W rt-app | cut -f2)
echo "twin: real kernel $pkg under QEMU $accel, $runs boots, rt-app $rtapp_version"
# rt-app 1.0 sets a SCHED_OTHER task's policy with pthread_setschedparam()
# and never its slice (docs/fidelity.md): twin/slice.c does, and each
# boot's check below says what the kernel holds.
[ ! -f "$tmp/rtapp.slice" ] ||
	echo "twin: slices on the real side: set by twin/slice.c (preloaded into rt-app) with sched_setattr(): $(awk '{ printf "%s%s %d us", sep, $1, $2 / 1000; sep = ", " }' "$tmp/rtapp.slice")"
if [ -f "$tmp/rtapp.extra" ]; then
	# line 3, when there: the command as the file says it (line 2 resizes the trace buffer first)
	extra_cmd=$(sed -n 3p "$tmp/rtapp.extra")
	[ -z "$extra_cmd" ] || extra_cmd="$extra_cmd, with the file's twin-trace buffer of $(sed -n 's/.*echo\${IFS}\([0-9]*\)>.*/\1/p' "$tmp/rtapp.extra") KB"
	echo "twin: beside rt-app on the real kernel: ${extra_cmd:-$(sed -n 2p "$tmp/rtapp.extra")} ($(dpkg-query -W rt-tests | cut -f2)), for the $(sed -n 1p "$tmp/rtapp.extra") threads of the file's pipe tasks, which fairsim runs"
fi
# A built kernel: the options of its config that kconfig did not keep.
[ ! -s "$kimage/differs" ] ||
	echo "twin: its config differs from what twin-kernel.kconfig asked in: $(awk '{ printf "%s%s=%s (asked %s)", sep, $1, $3, $2; sep = ", " }' "$kimage/differs")"

feat_arg=
[ -z "$features" ] || feat_arg="--features $features"
# fairsim_seeds OPTIONS: fairsim at every seed with these options; the
# first seed's run is sim.*, with the trace the scripts read
fairsim_seeds() {
	sd=$seed
	while [ "$sd" -lt $((seed + seeds)) ]; do
		# shellcheck disable=SC2086 # $feat_arg and $sim_args are words
		if [ "$sd" = "$seed" ]; then
			"$fairsim" --cpus "$cpus" --seed "$sd" --duration "$duration" $feat_arg $sim_args "$@" \
				--json "$tmp/sim.json" --trace "$tmp/sim.trace" "$workload" >"$tmp/sim.txt"
		else
			"$fairsim" --cpus "$cpus" --seed "$sd" --duration "$duration" $feat_arg $sim_args "$@" \
				--json "$tmp/sim-seed$sd.json" "$workload" >"$tmp/sim-seed$sd.txt"
		fi || return 1
		sd=$((sd + 1))
	done
}
fairsim_seeds || die "fairsim failed on $workload (see above)"

# The real trace is read for the tasks rt-app ran.
real_workload=$workload
# (under the workload's own name, which the table's header compares)
if [ -f "$tmp/rtapp.analysis.json" ]; then
	mkdir "$tmp/analysis"
	real_workload=$tmp/analysis/$(basename "$workload")
	mv "$tmp/rtapp.analysis.json" "$real_workload"
fi
[ -z "$reused" ] ||
	echo "twin: boots 1-$runs of the $(store_count "$store") stored under $store (same kernel, file, features, window, boots): not booted again"
i=1
while [ "$i" -le "$runs" ]; do
	if [ -n "$reused" ]; then
		cp -a "$reused/real-$i" "$tmp/real-$i" || die "cannot copy $reused/real-$i"
	else
		"$top/twin/boot.sh" "$kimage" "$boot_initrd" "$tmp/rtapp.json" "$threads" "$cpus" "$duration" \
			"$features" "$accel" "$limit" "$tmp/real-$i" || exit 1
	fi
	over=$(awk '$2 > 0 { n += $2 } END { print n + 0 }' "$tmp/real-$i/overrun")
	[ "$over" -eq 0 ] ||
		die "boot $i: the trace buffer overflowed ($over events lost); a shorter DURATION fits"
	"$fairsim" --from-trace "$tmp/real-$i/trace" --workload "$real_workload" --cpus "$cpus" \
		--duration "$duration" --json "$tmp/real-$i.json" >"$tmp/real-$i.txt" ||
		die "boot $i: its trace did not read (real-$i/trace)"
	# schedstat, a second measurement beside the trace's: each thread's
	# CPU time over the window, as a share of the window's CPU time.
	share=$(awk -v ws="$(cat "$tmp/real-$i/window_start")" -v we="$(cat "$tmp/real-$i/window_end")" '
		FNR == NR { run[$1] = $2; next }
		$1 in run && $5 != "rt-app" { printf "%s%s %.1f%%", sep, $5, 100 * ($2 - run[$1]) / ((we - ws) * 1e9); sep = ", " }
		' "$tmp/real-$i/schedstat.start" "$tmp/real-$i/schedstat")
	echo "twin: boot $i: $(cat "$tmp/real-$i/wall") s wall, rt-app $(cat "$tmp/real-$i/calibration") ns/loop, schedstat: $share"
	if [ -f "$tmp/rtapp.slice" ]; then
		check=$(python3 "$top/twin/slice_check.py" "$tmp/rtapp.slice" "$tmp/real-$i/rt-app.out") ||
			die "boot $i: $check"
		echo "twin: boot $i: slices the kernel holds (sched_getattr, /proc se.slice): $check"
	fi
	i=$((i + 1))
done
if [ -n "$store" ] && [ -z "$reused" ]; then
	# (not in $(...): cleanup() must see store_new if it fails half-way)
	store_add "$tmp" "$FAIRTEST_TWIN_STORE" "$key" >"$tmp/stored" || die "cannot store the boots in $store"
	echo "twin: these $runs boots stored under $store as boots $(sed 's/ /, /g' "$tmp/stored") of $(store_count "$store")"
	rm -f "$tmp/stored"
fi

# CALIBRATE=1 (FAIRTEST_TWIN_CALIBRATE): fairsim again, with the idle exit,
# wake-up preemption and wake cost these boots measured (twin/calibrate.py;
# the futex wake and loop costs too where a task broadcasts, a mutex
# unlock's where a task locks),
# so that what differs is the scheduler's, not the emulated machine's; the
# run with the costs given is kept as sim-given.*.
case ${FAIRTEST_TWIN_CALIBRATE:-0} in
1)
	cal=$(cd "$tmp" && python3 "$top/twin/calibrate.py" sim.json $(i=1; while [ $i -le "$runs" ]; do echo "real-$i"; i=$((i + 1)); done)) ||
		die "twin/calibrate.py could not read the costs from the real boots"
	for f in txt json trace; do mv "$tmp/sim.$f" "$tmp/sim-given.$f"; done
	for f in "$tmp"/sim-seed*.json "$tmp"/sim-seed*.txt; do
		[ ! -f "$f" ] || mv "$f" "$tmp/sim-given-${f#"$tmp"/sim-}"
	done
	# shellcheck disable=SC2046 # the calibrated options are words
	fairsim_seeds $(echo "$cal" | sed -n 1p) ||
		die "fairsim failed on $workload with the calibrated costs ($(echo "$cal" | sed -n 1p))"
	echo "twin: fairsim calibrated from the real boots: $(echo "$cal" | sed -n 2p)"
	;;
esac

# Relative names: the table's header names the files as they will be.
# shellcheck disable=SC2046 # one word per boot
(cd "$tmp" && "$fairsim" --twin sim.json $(sd=$((seed + 1)); while [ $sd -lt $((seed + seeds)) ]; do echo "sim-seed$sd.json"; sd=$((sd + 1)); done) \
	--vs $(i=1; while [ $i -le "$runs" ]; do echo "real-$i.json"; i=$((i + 1)); done) \
	--json twin.json >twin.txt) || die "fairsim --twin failed"
cat "$tmp/twin.txt"
rm -f "$tmp/initrd.slice"
replace_dir "$tmp" "$result" || die "cannot put the results in $result (it stays in the way)"
trap - EXIT
echo "twin: results in $result"

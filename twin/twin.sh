#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make twin: one workload in fairsim and on the real kernel of the same
# tree (Debian's own image of the tree's exact package version, or a
# kernel built from the tree by twin/kernel.sh, booted RUNS times under
# QEMU), both traces through fairsim's one analysis (--from-trace), then the side-by-side table (--twin). Everything goes to
# a temporary directory that becomes RESULT only when every part succeeded:
#   RESULT/sim.{txt,json,trace}   fairsim's run
#   RESULT/real-N/                one boot: trace, schedstat at both ends of
#                                 the window, console, calibration, features
#   RESULT/real-N.{txt,json}      the analysis of that boot's trace
#   RESULT/twin.txt, twin.json    the table printed on stdout
#
# SIM_ARGS: more options for fairsim's run (the model's costs: --ideal,
# --timer-slack, ...), as words.
#
# usage: twin/twin.sh FAIRSIM KSRC WORKLOAD RESULT CPUS DURATION SEED FEATURES RUNS ACCEL [SIM_ARGS]
set -eu
die() { echo "fairtest: $*" >&2; exit 1; }
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
"$top/sched_fair/deps.sh" qemu-system-x86 busybox-static rt-app

mkdir -p "$(dirname "$result")"
[ -n "$duration" ] || duration=$(python3 -c 'import json,re,sys
t=re.sub(r"/\*.*?\*/|//[^\n]*", "", open(sys.argv[1]).read(), flags=re.S)
m=re.search(r"\"duration\"\s*:\s*([0-9.]+)", t)
print(m.group(1) if m else 10)' "$workload")

# The previous result stays until this run has a whole one to put there.
tmp=$(mktemp -d "$result.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# What rt-app 1.0 cannot run is said before anything boots.
threads=$(python3 "$top/twin/workload.py" "$workload" "$duration" "$tmp/rtapp.json") || exit 1
initrd=$("$top/twin/initramfs.sh" "$(dirname "$result")")

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
	kimage=$("$top/sched_fair/kimage.sh" "$ksrc" 2>"$result.kimage.err") || {
		msg=$(tail -n 1 "$result.kimage.err")
		rm -f "$result.kimage.err"
		die "${msg#fairtest: }"
	}
	rm -f "$result.kimage.err"
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
features_shown=${features:-"the kernel's defaults"}
echo "twin: $(basename "$workload"), $cpus CPUs, $duration s, features: $features_shown"
echo "twin: fairsim on $(basename "$ksrc"), seed $seed${sim_args:+, $sim_args}"
rtapp_version=$(dpkg-query -W rt-app | cut -f2)
echo "twin: real kernel $pkg under QEMU $accel, $runs boots, rt-app $rtapp_version"
# A built kernel: the options of its config that kconfig did not keep.
[ ! -s "$kimage/differs" ] ||
	echo "twin: its config differs from what twin-kernel.kconfig asked in: $(awk '{ printf "%s%s=%s (asked %s)", sep, $1, $3, $2; sep = ", " }' "$kimage/differs")"

feat_arg=
[ -z "$features" ] || feat_arg="--features $features"
# shellcheck disable=SC2086 # $feat_arg and $sim_args are words
"$fairsim" --cpus "$cpus" --seed "$seed" --duration "$duration" $feat_arg $sim_args \
	--json "$tmp/sim.json" --trace "$tmp/sim.trace" "$workload" >"$tmp/sim.txt" ||
	die "fairsim failed on $workload (see above)"

i=1
while [ "$i" -le "$runs" ]; do
	"$top/twin/boot.sh" "$kimage" "$initrd" "$tmp/rtapp.json" "$threads" "$cpus" "$duration" \
		"$features" "$accel" "$limit" "$tmp/real-$i" || exit 1
	over=$(awk '$2 > 0 { n += $2 } END { print n + 0 }' "$tmp/real-$i/overrun")
	[ "$over" -eq 0 ] ||
		die "boot $i: the trace buffer overflowed ($over events lost); a shorter DURATION fits"
	"$fairsim" --from-trace "$tmp/real-$i/trace" --workload "$workload" --cpus "$cpus" \
		--duration "$duration" --json "$tmp/real-$i.json" >"$tmp/real-$i.txt" ||
		die "boot $i: its trace did not read (real-$i/trace)"
	# schedstat, a second measurement beside the trace's: each thread's
	# CPU time over the window, as a share of the window's CPU time.
	share=$(awk -v ws="$(cat "$tmp/real-$i/window_start")" -v we="$(cat "$tmp/real-$i/window_end")" '
		FNR == NR { run[$1] = $2; next }
		$1 in run && $5 != "rt-app" { printf "%s%s %.1f%%", sep, $5, 100 * ($2 - run[$1]) / ((we - ws) * 1e9); sep = ", " }
		' "$tmp/real-$i/schedstat.start" "$tmp/real-$i/schedstat")
	echo "twin: boot $i: $(cat "$tmp/real-$i/wall") s wall, rt-app $(cat "$tmp/real-$i/calibration") ns/loop, schedstat: $share"
	i=$((i + 1))
done

# Relative names: the table's header names the files as they will be.
# shellcheck disable=SC2046 # one word per boot
(cd "$tmp" && "$fairsim" --twin sim.json $(i=1; while [ $i -le "$runs" ]; do echo "real-$i.json"; i=$((i + 1)); done) \
	--json twin.json >twin.txt) || die "fairsim --twin failed"
cat "$tmp/twin.txt"
rm -rf "$result"
mv "$tmp" "$result"
trap - EXIT
echo "twin: results in $result"

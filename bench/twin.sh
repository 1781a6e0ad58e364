#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The twin's cost, as wall seconds per simulated second on each side: the
# sleeper (fixtures/workloads/sleeper.json) on one CPU in fairsim, and on
# the tree's own kernel under QEMU booted twice, for a SHORT and a LONG
# window: the difference of the two boots' wall times over the difference
# of their windows is the real side's price of one more guest second; what
# is left of the short boot is the fixed price of a boot (kernel, /init,
# rt-app's calibration, the trace's trip). Both sides measured here, in
# the same run; the host clock is read here only.
#
# usage: bench/twin.sh FAIRSIM KSRC [ACCEL [SHORT LONG]]
#   (FAIRSIM: build/<tree>/fairsim after make build; ACCEL as make twin's,
#    default what twin/accel.sh picks; windows 1 and 4 s)
set -eu
[ $# -ge 2 ] || { echo "usage: bench/twin.sh FAIRSIM KSRC [ACCEL [SHORT LONG]]" >&2; exit 2; }
sim=$1 ksrc=$2 accel=${3:-} short=${4:-1} long=${5:-4}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
w=$top/fixtures/workloads/sleeper.json

"$top/sched_fair/deps.sh" qemu-system-x86 busybox-static rt-app bc
kimage=$("$top/sched_fair/kimage.sh" "$ksrc")
initrd=$("$top/twin/initramfs.sh" "$work")
[ -n "$accel" ] || accel=$("$top/twin/accel.sh" "$kimage" "$initrd" "$work")
python3 "$top/twin/workload.py" "$w" "$long" "$work/rtapp.json" >/dev/null
secs() { date +%s.%N; }

t0=$(secs)
"$sim" --cpus 1 --duration 100 --quiet "$w" >/dev/null
t1=$(secs)
sim_wall=$(echo "$t1 - $t0" | bc -l)

for d in "$short" "$long"; do
	t0=$(secs)
	"$top/twin/boot.sh" "$kimage" "$initrd" "$work/rtapp.json" 2 1 "$d" "" "$accel" 900 "$work/real-$d"
	t1=$(secs)
	eval "wall_$d=$(echo "$t1 - $t0" | bc -l)"
done
eval "ws=\$wall_$short wl=\$wall_$long"
per=$(echo "($wl - $ws) / ($long - $short)" | bc -l)
fixed=$(echo "$ws - $short * $per" | bc -l)

echo "twin bench: the sleeper, 1 CPU; real kernel $(cat "$kimage/package") under QEMU $accel"
f2() { printf '%.2f' "$1"; }
row() { printf '%-44s %12s %14s\n' "$1" "$2" "$3"; }
row "side" "wall s" "wall s per s"
row "fairsim, 100 s simulated" "$(f2 "$sim_wall")" "$(printf '%.4f' "$(echo "$sim_wall / 100" | bc -l)")"
row "real, ${short} s window (one boot)" "$(f2 "$ws")" "-"
row "real, ${long} s window (one boot)" "$(f2 "$wl")" "-"
row "real, per guest second (the difference)" "-" "$(f2 "$per")"
row "real, fixed per boot" "$(f2 "$fixed")" "-"
printf 'real / fairsim, per simulated second: %.0fx\n' "$(echo "$per / ($sim_wall / 100)" | bc -l)"

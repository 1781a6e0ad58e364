#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The workload simulator's speed, as simulated seconds per wall second:
# the short-slice series' experiments in fixtures/workloads (130 s each on
# 8 CPUs), with the invariant checker on and off, and the largest
# resident set. The host clock is read here, never by the simulator.
#
# usage: bench/sim.sh FAIRSIM   (build/<tree>/fairsim, after make build)
set -eu
sim=$1
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-34s %8s %10s %9s %10s %9s\n' "workload (8 CPUs, 130 s)" "checker" "wall s" "ratio" "off: wall" "ratio"
tot_on=0 tot_off=0 tot_sim=0 rss=0
for w in cyclictest cyclictest-rtapp cyclictest-hackbench; do
	for mode in on off; do
		flag=; [ $mode = off ] && flag=--no-check
		/usr/bin/time -f '%e %M' -o "$work/t" "$sim" --cpus 8 --quiet $flag \
			"$top/fixtures/workloads/$w.json"
		read -r wall kb <"$work/t"
		[ "$kb" -gt "$rss" ] && rss=$kb
		eval "wall_$mode=$wall"
	done
	# shellcheck disable=SC2154
	printf '%-34s %8s %10.2f %8.0fx %10.2f %8.0fx\n' "$w" "on" "$wall_on" \
		"$(echo "130 / ($wall_on + 0.001)" | bc -l)" "$wall_off" "$(echo "130 / ($wall_off + 0.001)" | bc -l)"
	tot_on=$(echo "$tot_on + $wall_on" | bc)
	tot_off=$(echo "$tot_off + $wall_off" | bc)
	tot_sim=$((tot_sim + 130))
done
printf '%-34s %8s %10.2f %8.0fx %10.2f %8.0fx\n' "together ($tot_sim s)" "on" "$tot_on" \
	"$(echo "$tot_sim / ($tot_on + 0.001)" | bc -l)" "$tot_off" "$(echo "$tot_sim / ($tot_off + 0.001)" | bc -l)"
printf 'largest resident set: %d MB\n' $((rss / 1024))

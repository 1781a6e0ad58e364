#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The sleeper's phase against the tick in fairsim over a grid of the
# model's costs (wake-up preemption, timer slack, wake cost, us): for each,
# how many of B's bursts end unpreempted and how many of A's stretches run
# on to the tick (twin/bursts.py on the run's trace). Each set of constant
# costs puts the model on one periodic orbit, so the counts move in jumps;
# docs/fidelity-differences.md sets them beside the real kernel's spread.
#
# OPTION...: more of fairsim's options for every run of the grid, e.g.
# --tick-preempt 23 --hrtick-preempt 11, or --features '!DELAY_DEQUEUE'.
#
# usage: twin/sleeper_sweep.sh FAIRSIM [WORKLOAD [OPTION...]] (FAIRSIM: build/<tree>/fairsim)
set -eu
sim=${1:?usage: twin/sleeper_sweep.sh FAIRSIM [WORKLOAD [OPTION...]]}
here=$(cd "$(dirname "$0")" && pwd)
wl=${2:-$here/../fixtures/workloads/sleeper.json}
shift $(($# < 2 ? $# : 2))
[ -x "$sim" ] || { echo "fairtest: sleeper_sweep.sh: $sim: not an executable fairsim; make build first" >&2; exit 2; }
[ -f "$wl" ] || { echo "fairtest: sleeper_sweep.sh: $wl: no such workload" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "wake-preempt slack wake-cost | unpreempted to-the-tick"
for wp in 5 7 14; do
	for sl in 44 46 48 50 52; do
		for wc in 20 26 32 38; do
			"$sim" --cpus 1 --seed 1 --duration 5 --quiet --no-check --wake-preempt $wp \
				--timer-slack $sl --wake-cost $wc "$@" --trace "$tmp/t" "$wl" >/dev/null
			python3 "$here/bursts.py" A B "$tmp/t" | sed -nE "1s/.*B, ([0-9]+) ended.* ([0-9]+) over 1.5 ms.*/$wp $sl $wc | \1 \2/p"
		done
	done
done

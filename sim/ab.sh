#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make sim-ab`: one workload, base and patched, over SEEDS seeds each.
# The sides differ by their fairsim binary (two trees' builds) and/or by
# their sched features; every run writes its JSON result under OUT, and
# fairsim --compare prints the seeds' table shape with change and spread.
# A failing run stops it, naming the side and seed.
#
# usage: sim/ab.sh [--markdown] WORKLOAD OUT SEEDS FIRST_SEED BIN_A FEATURES_A BIN_B FEATURES_B [fairsim args...]
set -eu
md=
[ "$1" != --markdown ] || { md=--markdown; shift; }
workload=$1 out=$2 seeds=$3 first=$4 bin_a=$5 feat_a=$6 bin_b=$7 feat_b=$8
shift 8
case $seeds in ''|*[!0-9]*|0) echo "fairsim: SEEDS must be a count >= 1, not '$seeds'" >&2; exit 2 ;; esac
mkdir -p "$out"
base= patched=
i=0
while [ "$i" -lt "$seeds" ]; do
	seed=$((first + i))
	for side in base patched; do
		if [ $side = base ]; then bin=$bin_a feat=$feat_a; else bin=$bin_b feat=$feat_b; fi
		res=$out/$side-seed$seed.json
		"$bin" --quiet --seed "$seed" ${feat:+--features "$feat"} --json "$res" "$@" "$workload" ||
			{ echo "fairsim: the $side run with seed $seed failed" >&2; exit 1; }
		if [ $side = base ]; then base="$base $res"; else patched="$patched $res"; fi
	done
	i=$((i + 1))
done
sides="base = ${bin_a%/fairsim}${feat_a:+ with $feat_a}, patched = ${bin_b%/fairsim}${feat_b:+ with $feat_b}"
if [ -n "$md" ]; then
	# the builds by their tree's name, not this machine's paths
	sides="base = $(basename "${bin_a%/fairsim}")${feat_a:+ with $feat_a}, patched = $(basename "${bin_b%/fairsim}")${feat_b:+ with $feat_b}"
	echo "\`$workload\`, $sides${*:+, fairsim $*}; $(nproc) cores, $(. /etc/os-release && echo "$PRETTY_NAME"), $(date -u +%Y-%m-%d)."
else
	echo "# $workload: $sides"
fi
# shellcheck disable=SC2086
exec "$bin_a" --compare $base --vs $patched $md

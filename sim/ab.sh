#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make sim-ab`: one workload, base and patched, over SEEDS seeds each.
# The sides differ by their fairsim binary (two trees' builds) and/or by
# their sched features; every run writes its JSON result under OUT, and
# fairsim --compare prints the seeds' table shape with change and spread.
# The runs are independent processes, JOBS at a time (-j, default every
# core): each keeps its stderr apart and it is replayed in seed order, so
# stdout, stderr and the result files are the bytes a serial run (-j 1)
# gives. A failing run fails it, naming the first side and seed in that
# order that failed.
#
# AB_FROM=dir: the runs were made elsewhere (make campaign KIND=sim): their
# results are in OUT, their stderr and exit status in dir; only the report.
#
# usage: sim/ab.sh [-j JOBS] [--markdown] WORKLOAD OUT SEEDS FIRST_SEED BIN_A FEATURES_A BIN_B FEATURES_B [fairsim args...]
set -eu
jobs=$(nproc) md=
while :; do
	case ${1-} in
	-j) jobs=${2-}; shift; [ $# -eq 0 ] || shift ;;
	-j*) jobs=${1#-j}; shift ;;
	--markdown) md=--markdown; shift ;;
	*) break ;;
	esac
done
case $jobs in ''|*[!0-9]*|0) echo "fairsim: JOBS must be a count >= 1, not '$jobs'" >&2; exit 2 ;; esac
[ $# -ge 8 ] || { echo "usage: sim/ab.sh [-j JOBS] [--markdown] WORKLOAD OUT SEEDS FIRST_SEED BIN_A FEATURES_A BIN_B FEATURES_B [fairsim args...]" >&2; exit 2; }
workload=$1 out=$2 seeds=$3 first=$4 bin_a=$5 feat_a=$6 bin_b=$7 feat_b=$8
shift 8
case $seeds in ''|*[!0-9]*|0) echo "fairsim: SEEDS must be a count >= 1, not '$seeds'" >&2; exit 2 ;; esac
mkdir -p "$out"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
[ -z "${AB_FROM:-}" ] || { cp "$AB_FROM"/*.err "$AB_FROM"/*.rc "$logs/" || exit 2; }
i=0
while [ "$i" -lt "$seeds" ]; do
	echo "$((first + i)) base"
	echo "$((first + i)) patched"
	i=$((i + 1))
done >"$logs/runs"
# One run per line of $logs/runs, its stderr and exit status under $logs.
# xargs gives the job the fairsim arguments, then the line's SEED SIDE.
export workload out logs bin_a feat_a bin_b feat_b
# shellcheck disable=SC2016 # expanded by the job's shell
[ -n "${AB_FROM:-}" ] || xargs -P "$jobs" -L 1 sh -c '
	i=0 n=$#
	for a do
		i=$((i + 1))
		if [ $i -le $((n - 2)) ]; then set -- "$@" "$a"
		elif [ $i -lt $n ]; then seed=$a
		else side=$a; fi
		shift
	done
	if [ $side = base ]; then bin=$bin_a feat=$feat_a; else bin=$bin_b feat=$feat_b; fi
	"$bin" --quiet --seed "$seed" ${feat:+--features "$feat"} --json "$out/$side-seed$seed.json" \
		"$@" "$workload" 2>"$logs/$seed-$side.err"
	echo $? >"$logs/$seed-$side.rc"' sh_ab "$@" <"$logs/runs" ||
	true
base='' patched=''
while read -r seed side; do
	cat "$logs/$seed-$side.err" >&2
	[ "$(cat "$logs/$seed-$side.rc" 2>/dev/null)" = 0 ] ||
		{ echo "fairsim: the $side run with seed $seed failed" >&2; exit 1; }
	res=$out/$side-seed$seed.json
	if [ "$side" = base ]; then base="$base $res"; else patched="$patched $res"; fi
done <"$logs/runs"
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

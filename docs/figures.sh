#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Prints, in markdown, the tables of results that README.md and docs/ show,
# each headed by one line naming the command, the machine and the date.
# Paste its output over the table it regenerates: only numbers change.
#
# usage: docs/figures.sh trees [KVER...]   per tree: pass/fail/skip of make check
#                                          (default 6.12 7.2 7.3; the default debian
#                                          profile, then PROFILE=nohz and PROFILE=base)
#        docs/figures.sh mutate [KVER]     make mutate's table (about 2 min a tree)
#        docs/figures.sh seeds             the short-slice series' experiments: make sim-ab
#                                          base vs the series applied (6.12, PROFILE=base, 5 seeds; ~5 min)
#        docs/figures.sh hz                unreasonable idle at HZ=250 vs HZ=1000 (make sim-ab
#                                          PROFILE=base PROFILE_B=hz1000, 5 seeds)
#        docs/figures.sh shapes            hackbench's groups and schbench.json on 8 CPUs
#        docs/figures.sh speed [KVER...]   bench/speed.sh --markdown (minutes: run it once)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-}
[ $# -eq 0 ] || shift

machine() { echo "$(nproc) cores, $(. /etc/os-release && echo "$PRETTY_NAME"), $(date -u +%Y-%m-%d)"; }

# make sim-ab over 5 seeds, in markdown: the tables, not the builds' lines,
# and of the per-task tables only those whose title matches $keep.
keep=.
ab() {
	log=$(mktemp)
	make -s -C "$top" sim-ab SEEDS=5 MARKDOWN=1 "$@" >"$log" 2>&1 ||
		{ tail -n 5 "$log" >&2; rm -f "$log"; echo "figures: make sim-ab $* failed" >&2; exit 1; }
	sed -n '/^`/,$p' "$log" | keep
	rm -f "$log"
}
keep() {
	awk -v keep="$keep" 'BEGIN { show = 1 }
		/^scheduling latency \(us\) for / { show = ($0 ~ keep) }
		/^unreasonable idle events/ { show = 1 }
		show' | cat -s
}

# The last KTAP line's counts and the header's tree, for make check on $1.
counts() {
	out=$(make -s -C "$top" check KVER="$1" PROFILE="$2" 2>&1) || true
	tree=$(echo "$out" | sed -n 's/^# fairtest tree: \([^ ]*\) (Debian \([^)]*\)).*/\1 | \2/p')
	tot=$(echo "$out" | sed -n 's/^fairtest: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 | \2 | \3/p')
	[ -n "$tree" ] && [ -n "$tot" ] || { echo "figures: make check KVER=$1 printed no totals" >&2; echo "$out" | tail -n 3 >&2; exit 1; }
	echo "| $tree | $2 | $tot |"
}

case $what in
trees)
	[ $# -gt 0 ] || set -- 6.12 7.2 7.3
	echo "Printed by \`docs/figures.sh trees $*\` (\`make check KVER=x.y PROFILE=debian|nohz|base\`, seed 1) on $(machine)."
	echo
	echo "| tree | Debian version | profile | pass | fail | skip |"
	echo "| --- | --- | --- | --- | --- | --- |"
	for p in debian nohz base; do
		for v; do counts "$v" "$p"; done
	done
	;;
mutate)
	v=${1:-6.12}
	echo "Printed by \`docs/figures.sh mutate $v\` (\`make mutate KVER=$v\`) on $(machine)."
	echo
	echo "| mutant | verdict | caught by |"
	echo "| --- | --- | --- |"
	make -s -C "$top" mutate KVER="$v" 2>&1 | awk '
		/^MUTANT / { t = 1; next }
		t && $2 == "n/a" { na++; next }	# a mutant of other trees
		t && NF >= 2 && $2 ~ /^(caught|SURVIVED|invalid)$/ {
			name = $1; verdict = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); gsub(/,/, ", ")
			printf "| %s | %s | %s |\n", name, verdict, $0; next }
		t && NF { last = $0 }
		END { if (last != "") printf "\n%s (%d mutants written for other trees'"'"' code do not apply)\n", last, na }'
	;;
seeds)
	# The series applied to a copy of the default tree: hard links, but the
	# files the series touches copied for real, so patch cannot write
	# through the links into the cache.
	tree=$(KVER=6.12 "$top/sched_fair/tree.sh")
	copy=$top/build/figures/short-slice-tree
	series=$top/fixtures/patches/short-slice
	rm -rf "$copy" && mkdir -p "$(dirname "$copy")" && cp -al "$tree" "$copy"
	for f in $(sed -n 's|^+++ b/||p' "$series"/*.patch | sort -u); do
		cp --remove-destination "$tree/$f" "$copy/$f"
	done
	for p in "$series"/*.patch; do
		patch -s -d "$copy" -p1 <"$p" || { echo "figures: $p does not apply to $tree" >&2; exit 1; }
	done
	keep='for (cyclictest|rtapp)$'	# the waker and the rt-app tasks, not hackbench's 40
	for w in cyclictest cyclictest-rtapp cyclictest-hackbench; do
		echo "Printed by \`make sim-ab WORKLOAD=fixtures/workloads/$w.json KSRC_B=<6.12 + fixtures/patches/short-slice> PROFILE=base SEEDS=5 MARKDOWN=1\` (\`docs/figures.sh seeds\`):"
		echo
		ab WORKLOAD="fixtures/workloads/$w.json" KSRC_B="$copy" PROFILE=base
		echo
	done
	;;
hz)
	for w in balance-idle-short balance-idle-long; do
		echo "Printed by \`make sim-ab WORKLOAD=fixtures/workloads/$w.json PROFILE=base PROFILE_B=hz1000 SEEDS=5 MARKDOWN=1\` (\`docs/figures.sh hz\`):"
		echo
		ab WORKLOAD="fixtures/workloads/$w.json" PROFILE=base PROFILE_B=hz1000
		echo
	done
	;;
shapes)
	tmp=$(mktemp -d)
	# make sim on the default profile's build: CPUS=8, TOPO=islands
	sim() { make -s -C "$top" sim CPUS=8 "$@"; }
	echo "Printed by \`docs/figures.sh shapes\` (\`sim/shapes/hackbench.py -g N -l 100\` run by \`fairsim --cpus 8\`, and with \`--islands\`) on $(machine), tree 6.12:"
	echo
	echo "| groups | simulated ms, 8 CPUs balanced | on islands | bound (N x 20 ms) |"
	echo "| --- | --- | --- | --- |"
	for g in 1 4 8 16; do
		python3 "$top/sim/shapes/hackbench.py" -g "$g" -l 100 >"$tmp/hb.json"
		one() { sim WORKLOAD="$tmp/hb.json" "$@" | sed -n 's/.*, \([0-9.]*\) s simulated.*/\1/p' | head -n 1 | awk '{ print $1 * 1000 }'; }
		echo "| $g | $(one) | $(one TOPO=islands) | $((g * 20)) |"
	done
	echo
	echo "Printed by \`make sim CPUS=8 WORKLOAD=fixtures/workloads/schbench.json\` (worker-0's blocks) on $(machine), tree 6.12:"
	echo
	echo '```'
	sim WORKLOAD="$top/fixtures/workloads/schbench.json" |
		awk '/^# scheduling latency \(us\) for worker-0 / { w = 1 } /^# scheduling latency/ && !/worker-0 / { w = 0 }
		     w && /^(Wakeup|Request|\t)/'
	echo '```'
	rm -rf "$tmp"
	;;
speed)
	exec "$top/bench/speed.sh" --markdown "$@"
	;;
*)
	sed -n 's/^# usage: /usage: /p; s/^#        /       /p' "$0" >&2
	exit 2
	;;
esac

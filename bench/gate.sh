#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the gate costs: a 4-patch series (the first four of our short-slice
# fixtures) on the default tree, with coverage, warm (the base tree
# prepared and built once before; the gate itself run once before, so its
# base snapshot exists). The target is under 60 s on 2 cores. Prints the
# wall time, the cost of each step by phase (copy+apply, build, tests,
# coverage), and which phase dominates.
#
# usage: bench/gate.sh [N_PATCHES]   (default 4; uses the default tree)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-4}
work=$(mktemp -d "${TMPDIR:-/tmp}/fairtest-gate-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
i=0
for p in "$top"/fixtures/patches/short-slice/*.patch; do
	i=$((i + 1))
	if [ "$i" -le "$n" ]; then
		ln -s "$p" "$work/"
	fi
done

make -s -C "$top" build >/dev/null
make -s -C "$top" gate SERIES="$work" >/dev/null 2>&1 || true	# warm-up
start=$(date +%s.%N)
make -s -C "$top" gate SERIES="$work" >"$work/gate.out" 2>&1 || { cat "$work/gate.out"; exit 1; }
end=$(date +%s.%N)
root=$(sed -n 's|^gate: KTAP: \(.*\)/gate.ktap$|\1|p' "$work/gate.out")

echo "gate, $n patches, coverage on, warm, $(nproc) CPUs: $(echo "$end - $start" | bc | xargs printf '%.1f') s wall"
printf '%-5s %-44s %8s %8s %8s %8s\n' step patch apply build tests coverage
i=0
for d in "$root"/steps/*/; do
	i=$((i + 1))
	name=$(sed -n "${i}p" "$root/series.list" | cut -f2)
	# shellcheck disable=SC2046 # "apply A build B test C coverage D"
	set -- $(cat "$d/times")
	printf '%-5s %-44.44s %7ss %7ss %7ss %7ss\n' "$i" "$name" "$2" "$4" "$6" "$8"
done
awk '{ a += $2; b += $4; t += $6; c += $8 } END {
	printf "%-50s %7.1fs %7.1fs %7.1fs %7.1fs\n", "total over steps", a, b, t, c
	m = "build"; v = b
	if (a > v) { m = "copy+apply"; v = a } if (t > v) { m = "tests"; v = t } if (c > v) { m = "coverage"; v = c }
	printf "dominant: %s (%.0f%% of the step time)\n", m, 100 * v / (a + b + t + c)
}' "$root"/steps/*/times
echo "why builds cost what they do (a probe change or a header rebuilds every kernel-side object):"
i=0
for d in "$root"/steps/*/; do
	i=$((i + 1))
	printf '  step %s: %2s kernel-side objects recompiled; touches %s\n' "$i" \
		"$(grep -c '^  KCC' "$d/build.log")" "$(sed -n "${i}p" "$root/series.list" | cut -f3- | tr '\t' ' ')"
done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make findings-real: fairtest's findings (tests/findings.c,
# tests/slice_protection.c) shown, or not, on the tree's own kernel. The
# tree's kunit.py builds a small x86_64 kernel (tests/qemu/findings.kunitconfig)
# with fairtest's KUnit cases (tests/qemu/findings_kunit.c) and boots it
# under QEMU (TCG, sched_fair/qemu_tcg.sh) with 4 CPUs; each case drives
# the running scheduler into its finding and prints what it saw. Ends with
# one verdict line per finding: shown, not shown, or cannot be shown here
# (why). Exit 0 when every case ran (a finding that shows is an answer,
# not an error); non-zero when the kernel did not build or boot, or a case
# it built did not finish (sched_fair/findings_verdict.sh). Like
# domains-xcheck a developer's tool: CI needs no QEMU for it.
#
# The tree is read only: kunit.py runs in a scratch overlay (symlinks to
# the tree, plus our case in kernel/sched/), kernel objects go to WORK.
# With SERIES (what make gate takes), the files it touches are copies in
# the overlay with the series applied, so the patched kernel is an
# incremental build of the same WORK; the next run puts fresh copies of
# the tree's own files back (new mtimes: kbuild rebuilds what they feed).
#
# usage: findings_real.sh KSRC WORK [SERIES]
set -eu
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: findings_real.sh KSRC WORK [SERIES]" >&2; exit 2; }
[ -d "$1" ] || { echo "findings-real: no kernel tree at $1" >&2; exit 2; }
ksrc=$(cd "$1" && pwd) work=$2 series=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/sched_fair/findings_verdict.sh"
. "$top/sched_fair/kunit_qemu.sh"
tag=findings-real
kunit_prepare

# What the tree has decides which cases are built (-D flags of the case).
defs=
grep -Eq '^[[:space:]]+u64[[:space:]]+vprot;' "$ksrc/include/linux/sched.h" && defs="$defs -DFT_HAVE_VPROT"
grep -q '^void arch_set_cpu_capacity(' "$ksrc/arch/x86/include/asm/topology.h" && defs="$defs -DFT_HAVE_HYBRID_CAPACITY"
grep -Eq '^[[:space:]]+u64[[:space:]]+min_slice;' "$ksrc/include/linux/sched.h" && defs="$defs -DFT_HAVE_MIN_SLICE"
grep -q '^static int __sds_alloc(' "$ksrc/kernel/sched/topology.c" && defs="$defs -DFT_HAVE_SDS_ALLOC"

kunit_overlay "$top/tests/qemu/findings_kunit.c" fairtest_findings_kunit \
	"CFLAGS_fairtest_findings_kunit.o +=$defs"
# Undo the last run's series, then apply this one's.
if [ -f "$src/.fairtest-patched" ]; then
	while IFS= read -r f; do
		rm -f "$src/$f"
		[ ! -e "$ksrc/$f" ] || cp "$ksrc/$f" "$src/$f"
	done <"$src/.fairtest-patched"
	rm "$src/.fairtest-patched"
fi
label=
if [ -n "$series" ]; then
	rm -rf "$work/series"
	python3 "$top/sched_fair/series.py" "$series" "$ksrc" "$work/series" >"$work/series.list" || exit 1
	cut -f3- "$work/series.list" | tr '\t' '\n' | sort -u >"$src/.fairtest-patched"
	while IFS= read -r f; do
		rm -f "$src/$f"
		[ ! -e "$ksrc/$f" ] || cp "$ksrc/$f" "$src/$f"
	done <"$src/.fairtest-patched"
	while IFS='	' read -r num name _; do
		patch -d "$src" -p1 -N -F0 -s --no-backup-if-mismatch -r - -i "$work/series/$num.patch" >"$work/patch.log" 2>&1 ||
			{ echo "findings-real: step $(echo "$num" | sed "s/^0*//") ($name) of $series does not apply: $(head -n 1 "$work/patch.log")" >&2; exit 1; }
	done <"$work/series.list"
	label=" + $series ($(wc -l <"$work/series.list") patches)"
fi
grep -E '^(# )?CONFIG_' "$top/tests/qemu/findings.kunitconfig" >"$work/kunitconfig"

kunit_build
echo "findings-real: booting linux $version under $("$FAIRTEST_QEMU" --version | head -n 1 | sed 's/ (.*//'), TCG, -smp 4" >&2
log=$work/exec.log
# kunit.py exits non-zero when a case fails, which is how a finding shows:
# the log, not the exit code, says whether the kernel ran the cases.
$kunit exec $common --qemu_args=-smp --qemu_args=4 --raw_output=all fairtest_findings >"$log" 2>&1 || true
sed -i 's/\r$//' "$log"
grep -q '# Subtest: fairtest_findings' "$log" ||
	{ tail -n 20 "$log" >&2; echo "findings-real: the kernel did not run the fairtest_findings cases (full output: $log)" >&2; exit 1; }

grep -E '^ +# fairtest_|fairtest-verdict|^ +(not )?ok [0-9]+ fairtest_' "$log" | sed 's/^ *//'
echo
echo "findings-real: linux $version${deb:+ (Debian linux-source $deb)}$label at $ksrc, $(date -u +%Y-%m-%d)"
findings_verdicts "$log" "$defs" "$kbuild/.config"

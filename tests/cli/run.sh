#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The project's own checks around `make check`: the KTAP it prints is read
# with the same totals by the kernel's parser (kunit.py), the same run twice
# is byte-identical, and bad input (missing tree, not a tree, unknown
# profile, bad option, filter matching nothing, unknown failure point,
# probability outside [0,1], seed not a number, a QEMU shape or tree that
# make domains-xcheck does not know, a seam manifest that lies, a profile
# option the tree cannot enable, a kernel's topology dump with no fixture
# or no tree line) fails with one clear line; and probe.sh
# falls back to a compile per probe when their shared one fails elsewhere.
# Prints "cli: N passed, N failed" last.
#
# usage: tests/cli/run.sh BUILD_BIN KSRC
set -u
bin=$1 ksrc=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }

# expect_error WHAT PATTERN CMD...: non-zero exit, one stderr line matching
expect_error() {
	what=$1 pattern=$2
	shift 2
	if "$@" >"$out/stdout" 2>"$out/stderr"; then
		bad "$what: exited 0"
	elif ! grep -q "$pattern" "$out/stderr"; then
		bad "$what: no line matching '$pattern' in: $(head -c 300 "$out/stderr")"
	else
		ok "$what: $(grep -m1 "$pattern" "$out/stderr")"
	fi
}

"$bin" >"$out/a.ktap" 2>/dev/null
"$bin" >"$out/b.ktap" 2>/dev/null
if cmp -s "$out/a.ktap" "$out/b.ktap"; then ok "two runs are byte-identical"; else bad "two runs differ"; fi

ours=$(sed -n 's/^# Totals: //p' "$out/a.ktap" | tail -n 1)
kunit_py=$ksrc/tools/testing/kunit/kunit.py
if [ -f "$kunit_py" ] && command -v python3 >/dev/null; then
	theirs=$(python3 "$kunit_py" parse <"$out/a.ktap" 2>&1 | grep -o 'Ran [0-9]* tests:.*' | tail -n 1)
	p=$(echo "$ours" | sed -n 's/.*pass:\([0-9]*\).*/\1/p')
	t=$(echo "$ours" | sed -n 's/.*total:\([0-9]*\).*/\1/p')
	case "$theirs" in
	"Ran $t tests: passed: $p"*) ok "kunit.py parse agrees: $theirs (ours: $ours)" ;;
	*) bad "kunit.py parse says '$theirs', we say '$ours'" ;;
	esac
else
	ok "kunit.py parse check # SKIP no $kunit_py"
fi

expect_error "missing KSRC" "does not exist" make -s -C "$top" build KSRC=/nonexistent/tree
mkdir -p "$out/notatree"
expect_error "KSRC not a kernel tree" "is not a whole kernel tree" make -s -C "$top" build KSRC="$out/notatree"
# A pre-EEVDF tree (6.1's CFS): the files a tree has, without avg_vruntime/vlag.
mkdir -p "$out/cfs/kernel/sched" "$out/cfs/include/linux" "$out/cfs/arch/x86"
: >"$out/cfs/Makefile"
echo 'static void update_min_vruntime(void) {}' >"$out/cfs/kernel/sched/fair.c"
: >"$out/cfs/kernel/sched/sched.h"
echo 'struct sched_entity { int vruntime; };' >"$out/cfs/include/linux/sched.h"
start=$(date +%s)
expect_error "pre-EEVDF tree" "has no EEVDF.*oldest tree fairtest supports is 6.12" make -s -C "$top" build KSRC="$out/cfs"
[ $(( $(date +%s) - start )) -le 2 ] && ok "pre-EEVDF tree refused within a second or two" ||
	bad "pre-EEVDF tree took $(( $(date +%s) - start )) s to refuse"
# A tree of one's own has no Debian image; the one-line answer says what to do.
expect_error "kernel image of a non-Debian tree" "is not a Debian linux-source tree.*build its kernel" \
	"$top/sched_fair/kimage.sh" "$out/notatree"
expect_error "KVER not a series" "is not a kernel series" make -s -C "$top" build KVER=banana
expect_error "KVER of a CFS series" "KVER=6.1 has no EEVDF.*oldest tree fairtest supports is 6.12" make -s -C "$top" build KVER=6.1
expect_error "unknown profile" "unknown PROFILE" make -s -C "$top" build PROFILE=nosuch
expect_error "unknown option" "unknown option" "$bin" --frobnicate
expect_error "filter matching nothing" "no test matches" "$bin" 'nosuch.*'
expect_error "seed not a number" "seed" "$bin" --seed banana

# Fault injection (make fault runs tests/fault/matrix.sh; the binary reads
# FAIRTEST_FAULTS and FIU_PRNG_SEED): bad input stops before any case.
matrix=$top/tests/fault/matrix.sh
expect_error "unknown failure point" "unknown failure point 'sched/nosuch'" \
	env FAIRTEST_FAULTS=sched/nosuch "$bin"
expect_error "probability above 1" "not a number in \[0,1\]" \
	env FAIRTEST_FAULTS=sched/sched_tick/lost=1.5 "$bin"
expect_error "probability not a number" "not a number in \[0,1\]" \
	env FAIRTEST_FAULTS=sched/sched_tick/lost=often "$bin"
expect_error "libfiu seed not a number" "FIU_PRNG_SEED must be a decimal" \
	env FIU_PRNG_SEED=banana "$bin"
expect_error "make fault: unknown point" "unknown failure point 'mm/nosuch'" \
	"$matrix" "$bin" mm/nosuch 0.05 1 10
expect_error "make fault: P above 1" "P='2' is not a probability" "$matrix" "$bin" "" 2 1 10
expect_error "make fault: P negative" "P='-0.1' is not a probability" "$matrix" "$bin" "" -0.1 1 10
expect_error "make fault: SEED not a number" "SEED='x1' is not a decimal" "$matrix" "$bin" "" 0.05 x1 10
# make domains-xcheck refuses before building or installing anything.
expect_error "domains-xcheck: unknown shape" "no QEMU shape cls-mc-16; shapes: uni-1" \
	"$top/sched_fair/domains_xcheck.sh" "$ksrc" "$out/xcheck" "$out/qemu" cls-mc-16
expect_error "domains-xcheck: no tree" "no kernel tree at /nonexistent/tree" \
	"$top/sched_fair/domains_xcheck.sh" /nonexistent/tree "$out/xcheck" "$out/qemu"
# A second build finds nothing to do: no compiler runs (a generated file
# rewritten at every parse would rebuild what includes it after each edit).
profile=$(basename "${FAIRTEST_PROFILE:-base.config}" .config)
obj=$(dirname "$bin")	# the build dir of the binary under test
[ -f "$obj/kflags" ] || obj=$(dirname "$obj")	# a variant's sits in OBJ/VARIANT
o=$(dirname "$obj")	# and O, where make names it
make -s -C "$top" list KSRC="$ksrc" PROFILE="$profile" O="$o" >/dev/null 2>&1
if ! make -C "$top" list KSRC="$ksrc" PROFILE="$profile" O="$o" >"$out/again" 2>&1; then
	bad "make list failed: $(tail -n 1 "$out/again")"
elif grep -qE '^  (KCC|CC|LD|PCH) ' "$out/again"; then
	bad "a build with nothing changed rebuilt: $(grep -E '^  (KCC|CC|LD|PCH) ' "$out/again" | head -n 3 | tr '\n' ' ')"
else
	ok "a build with nothing changed compiles nothing"
fi

# A profile option the tree's Kconfig lacks is named and left out; one it
# has but cannot enable (NUMA_BALANCING without NUMA) stops the run before
# kbuild prepares anything, and takes the half-made kbuild dir with it.
cp "$top/sched_fair/configs/base.config" "$out/base.config"
printf '#include base.config\nCONFIG_FAIRTEST_NO_SUCH_OPTION=y\nCONFIG_NUMA_BALANCING=y\n' >"$out/unmet.config"
expect_error "profile: an option the tree cannot enable" \
	"cannot enable CONFIG_NUMA_BALANCING that profile unmet needs" \
	"$top/sched_fair/prepare.sh" "$ksrc" "$out/prep" "$out/unmet.config"
if grep -q "CONFIG_FAIRTEST_NO_SUCH_OPTION is not in this tree's Kconfig; profile unmet goes on without it" "$out/stderr" &&
   [ ! -e "$out/prep/kbuild" ] && [ ! -e "$out/prep/kflags" ]; then
	ok "profile: an option the tree lacks is named, and a failed configure leaves no kbuild dir"
else
	bad "profile: $(head -c 300 "$out/stderr"); left: $(ls "$out/prep" 2>&1 | tr '\n' ' ')"
fi

# seams.sh on objects of our own: a real one calling four symbols, a shim
# defining two of them. The manifest must list what the shim defines for
# it, and define what it lists; the rest is stubbed, by name.
seams=$top/sched_fair/seams.sh
printf 'void s_listed(void), s_unlisted(void), s_lying(void), s_missing(void);\nvoid real(void) { s_listed(); s_unlisted(); s_lying(); s_missing(); }\n' >"$out/real.c"
printf 'void s_listed(void) {}\nvoid s_unlisted(void) {}\n' >"$out/shim.c"
cc -c "$out/real.c" -o "$out/real.o" && cc -c "$out/shim.c" -o "$out/shim.o"
printf 's_listed\tfake\tx\tshim.c\ns_lying\tfake\tx\tshim.c\ns_unlisted\tfake\tx\tshim.c\n' >"$out/lying.manifest"
expect_error "seams: a listed seam no shim file defines" "lists s_lying but no shim file defines it" \
	"$seams" "$out/lying.manifest" "$out/real.o" "$out/shim.o" "$out/stubs.c"
printf 's_listed\tfake\tx\tshim.c\n' >"$out/unlisted.manifest"
expect_error "seams: a shim definition the manifest does not list" "defines s_unlisted for fair.c but" \
	"$seams" "$out/unlisted.manifest" "$out/real.o" "$out/shim.o" "$out/stubs.c"
printf 's_listed\tfake\tx\tshim.c\ns_unlisted\tfake\tx\tshim.c\n' >"$out/good.manifest"
if "$seams" "$out/good.manifest" "$out/real.o" "$out/shim.o" "$out/stubs.c" 2>"$out/seams.err" &&
   grep -q '2 symbol(s) fair.c needs have no seam; stubbed to abort if reached: s_lying s_missing' "$out/seams.err" &&
   grep -q '^void s_missing(void) { ft_host_abort' "$out/stubs.c"; then
	ok "seams: symbols no seam provides are stubbed and named"
else
	bad "seams: stubs: $(head -c 300 "$out/seams.err")"
fi
# probe.sh's compile probes share one file; an error there that no probe's
# #line names (in a header, a macro body) sends each probe to a compile
# of its own. A shim whose ksched.h makes one probe compile and another
# fail inside the header: the first must stay found, the second not.
cp -r "$top/shim" "$out/probe-shim" && cp "$obj/kflags" "$out/probe-kflags"
printf '#define __SCHED_FEAT_SLEEP_LAG_DECAY\t0\n#define __SCHED_FEAT_WAKE_IDLE_ZERO_LAG\t(1 +)\n' >>"$out/probe-shim/ksched.h"
"$top/sched_fair/probe.sh" "$ksrc" "$out/probe-kflags" "$out/probe-shim" tree >"$out/probes.h" 2>"$out/probes.err"
if grep -q '^#define FT_HAVE_SLEEP_LAG_DECAY' "$out/probes.h" && ! grep -q 'FT_HAVE_WAKE_IDLE_ZERO_LAG' "$out/probes.h"; then
	ok "probes: an error in a header leaves each probe its own compile"
else
	bad "probes: header error: $(grep -E 'SLEEP_LAG|WAKE_IDLE' "$out/probes.h" | tr '\n' ' ') $(head -c 200 "$out/probes.err")"
fi
# topologies.sh on a copy of the fixtures: a real kernel's dump with no
# .topo of its name, or without its tree line, stops it with the file
# named, and leaves no half-written output.
cp -r "$top/fixtures/topologies" "$out/topos"
dump=$(ls "$out"/topos/qemu/*/*.dump | head -n 1)
cp "$dump" "${dump%/*}/no-such-shape.dump"
expect_error "topologies: a dump with no topology" "no-such-shape.dump: no topology no-such-shape.topo" \
	"$top/sched_fair/topologies.sh" "$out/topos" "$out/topos.c"
rm "${dump%/*}/no-such-shape.dump"
sed -i '/^# tree: linux /d' "$dump"
expect_error "topologies: a dump without its tree line" "${dump##*/}: no '# tree: linux VERSION' line" \
	"$top/sched_fair/topologies.sh" "$out/topos" "$out/topos.c"
if ls "$out"/topos.c* >/dev/null 2>&1; then
	bad "topologies: a failed run left $(ls "$out"/topos.c* | tr '\n' ' ')"
else
	ok "topologies: a failed run leaves nothing behind"
fi
# The matrix's verdicts, on a stand-in binary whose KTAP has a WARN under
# one point, an invariant break under another and a crash under a third.
cat >"$out/fakebin" <<'EOF'
#!/bin/sh
[ "$1" = --list ] && { echo fair_x.a; exit 0; }
printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: fair_x\n    1..1\n'
case $FAIRTEST_FAULTS in
*lost*) echo "    # a: WARN at kernel/sched/fair.c:123: oops" ;;
esac
case $FAIRTEST_FAULTS in
*doubled*) echo "    # a: invariant broken: lag bound after tick: cpu 0" ;;
esac
case $FAIRTEST_FAULTS in
*delayed*) echo "    not ok 1 a # ERROR crashed with signal 11 (Segmentation fault)" ;;
'') echo "    ok 1 a" ;;
*) echo "    not ok 1 a" ;;
esac
EOF
chmod +x "$out/fakebin"
printf '# test\nsched/sched_tick/lost\tWARN at kernel/sched/fair.c:123\tknown\n' >"$out/findings"
if FAIRTEST_FINDINGS=$out/findings "$matrix" "$out/fakebin" sched/sched_tick/lost 0.5 1 10 >"$out/m1" 2>&1 &&
   grep -q 'lost  *once  *1  *0  *0  *1  *0  *1  *0  *0  finding$' "$out/m1"; then
	ok "fault matrix: a listed WARN is a finding and does not fail"
else
	bad "fault matrix: listed WARN: $(head -c 400 "$out/m1")"
fi
if ! "$matrix" "$out/fakebin" sched/sched_tick/lost 0.5 1 10 >"$out/m2" 2>&1 &&
   grep -q 'sched/sched_tick/lost once: WARN at kernel/sched/fair.c:123 x1: UNEXPECTED' "$out/m2"; then
	ok "fault matrix: an unlisted WARN fails it, with file:line"
else
	bad "fault matrix: unlisted WARN: $(head -c 400 "$out/m2")"
fi
if ! "$matrix" "$out/fakebin" 'sched/sched_tick/d*' 0.5 1 10 >"$out/m3" 2>&1 &&
   grep -q 'doubled  *once .* 1  *0  UNEXPECTED$' "$out/m3" &&
   grep -q 'delayed  *once .* 0  *1  UNEXPECTED$' "$out/m3" &&
   grep -q 'invariant broken: lag bound x1: UNEXPECTED' "$out/m3"; then
	ok "fault matrix: an invariant break and a crash fail it"
else
	bad "fault matrix: invariant/crash: $(head -c 600 "$out/m3")"
fi

if FIU_PRNG_SEED=7 "$bin" 'fair_driver.*' | grep -q '^# fiu prng seed: 7$'; then
	ok "KTAP header names libfiu's seed"
else
	bad "no '# fiu prng seed: 7' in the KTAP header"
fi
"$matrix" "$bin" 'sched/sched_tick/*' 0.2 3 30 'fair_driver.*' >"$out/f1" 2>&1
"$matrix" "$bin" 'sched/sched_tick/*' 0.2 3 30 'fair_driver.*' >"$out/f2" 2>&1
if cmp -s "$out/f1" "$out/f2" && grep -q 'sched_tick/lost  *p=0.2 ' "$out/f1"; then
	ok "fault matrix replays byte-identically with the same SEED"
else
	bad "fault matrix differs between two runs with SEED=3: $(diff "$out/f1" "$out/f2" | head -c 300)"
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

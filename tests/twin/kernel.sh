#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The twin's kernel built from a tree (twin/kernel.sh), without building a
# kernel: the config fragment of the tree under test (Debian's scheduler
# options taken, the guest's needs, nothing else), then a stand-in tree
# whose Makefile plays kbuild in a few lines, for what the script does
# around kbuild: an image kept by the tree's content (built once, a changed
# file gets its own), a series applied in the farm and undone, and bad
# input (no tree, not a tree, a series that does not apply, a build that
# fails, a config that lost what the guest needs): one line naming it, a
# non-zero exit, no image left. A real build takes tens of minutes here
# (docs/twin.md), so CI does not run one.
#
# usage: tests/twin/kernel.sh KSRC OUTDIR
# shellcheck disable=SC2016,SC2034 # check's second argument is code, evaluated there
set -u
ksrc=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
kernel=$top/twin/kernel.sh
tap_name=twin-kernel
. "$top/tests/twin/tap.sh"
fresh_out

# bad NAME EXPECT CMD...: CMD fails with one line on stderr matching EXPECT
# (besides the line that says a build starts).
bad() {
	name=$1 expect=$2
	shift 2
	if "$@" >"$out/bad.out" 2>"$out/bad.all"; then
		not_ok "$name: exit 0"
	elif ! grep -v '^fairtest: twin: building ' "$out/bad.all" >"$out/bad.err" ||
	     [ "$(grep -c . "$out/bad.err")" -ne 1 ] || ! grep -q -- "$expect" "$out/bad.err"; then
		not_ok "$name: said $(head -c 300 "$out/bad.err" | tr '\n' '|')"
	else
		ok "$name: $(cat "$out/bad.err")"
	fi
}

# ---- the fragment of the tree under test ----
frag=$out/fragment
if ! "$kernel" --fragment "$ksrc" "$out/work" >"$frag" 2>"$out/fragment.err"; then
	not_ok "the config fragment of $ksrc: $(tail -n 1 "$out/fragment.err")"
else
	check "every fragment line is a CONFIG_ line" '! grep -Evq "^(# CONFIG_[A-Z0-9_]+ is not set|CONFIG_[A-Z0-9_]+=.+)\$" "$frag"'
	for o in SERIAL_8250_CONSOLE BLK_DEV_INITRD DEBUG_FS FTRACE SCHEDSTATS ACPI; do
		grep -q "^CONFIG_$o=y\$" "$frag" || not_ok "the guest's CONFIG_$o is not in the fragment"
	done
	ok "the guest's needs are in the fragment"
	kconfig=
	[ ! -f "$ksrc/.fairtest-version" ] || kconfig=$("$top/sched_fair/kimage.sh" "$ksrc" 2>/dev/null)/config
	if [ -z "$kconfig" ]; then
		check "a tree with no Debian version takes no scheduler option" '! grep -q CONFIG_HZ_ "$frag"'
	else
		# Each #take of debian.config has Debian's value (NR_CPUS capped).
		bad_take=$(grep -o '^#take CONFIG_[A-Z0-9_]*' "$top/sched_fair/configs/debian.config" | cut -d' ' -f2 |
			while read -r o; do
				want=$(sed -n "s/^$o=//p" "$kconfig")
				[ -n "$want" ] || want=n
				got=$(sed -n "s/^$o=//p" "$frag")
				[ -n "$got" ] || { grep -q "^# $o is not set" "$frag" && got=n; }
				[ "$o" = CONFIG_NR_CPUS ] && [ "$want" -gt 64 ] && want=64
				[ "$o" = CONFIG_NODES_SHIFT ] && [ "$want" != n ] && [ "$want" -gt 3 ] && want=3
				[ "$got" = "$want" ] || echo "$o=$got (Debian: $want)"
			done | head -n 3 | tr '\n' ' ')
		check "the scheduler options are Debian's ($(grep -E '^CONFIG_(HZ|PREEMPT)[A-Z_0-9]*=y' "$frag" | tr '\n' ' '))${bad_take:+: $bad_take}" '[ -z "$bad_take" ]'
	fi
fi

# ---- a stand-in tree: kbuild's two targets in a Makefile ----
fake=$out/tree
mkdir -p "$fake/kernel/sched" "$fake/arch/x86"
echo 'int fair;' >"$fake/kernel/sched/fair.c"
cat >"$fake/Makefile" <<'EOF'
VERSION = 9
PATCHLEVEL = 9
SUBLEVEL = 0
# olddefconfig keeps the fragment, adds what kconfig would select, and
# loses what FT_DROP names; bzImage fails when FT_FAIL is set.
olddefconfig:
	@grep -v "^CONFIG_$(FT_DROP)=" $(O)/.config >$(O)/.config.new; \
	 printf 'CONFIG_TRACING=y\nCONFIG_SCHED_INFO=y\n' >>$(O)/.config.new; mv $(O)/.config.new $(O)/.config
bzImage:
	@if [ -n "$(FT_FAIL)" ]; then echo "kernel/sched/fair.c:1:5: error: expected ';'"; exit 1; fi
	@mkdir -p $(O)/arch/x86/boot && cat kernel/sched/fair.c >$(O)/arch/x86/boot/bzImage
EOF
work=$out/work
images() { find "$work/images" -mindepth 1 -maxdepth 1 ! -name '.*' 2>/dev/null | wc -l; }

img=$("$kernel" "$fake" "$work" 2>"$out/build.err") || not_ok "the stand-in tree built: $(tail -n 1 "$out/build.err")"
check "an image of the tree: vmlinuz, config, package" '[ -f "$img/vmlinuz" ] && [ -f "$img/config" ] && grep -q "linux 9.9.0 built from $fake" "$img/package"'
check "a tree with no Debian version says its scheduler options are Kconfig's" 'grep -q "Kconfig'"'"'s default scheduler options" "$img/package"'
again=$("$kernel" "$fake" "$work" 2>"$out/again.err")
check "the same tree again: the same image, no build" '[ "$again" = "$img" ] && ! grep -q building "$out/again.err"'
echo 'int fair = 1;' >"$fake/kernel/sched/fair.c"
changed=$("$kernel" "$fake" "$work" 2>/dev/null)
check "a changed file: its own image, of its content" '[ "$changed" != "$img" ] && [ "$(cat "$changed/vmlinuz")" = "int fair = 1;" ] && [ "$(images)" -eq 2 ]'
check "the tree is only read" '[ "$(find "$fake" -newer "$fake/kernel/sched/fair.c" | wc -l)" -eq 0 ] && [ ! -e "$fake/.config" ]'

# A series in the farm: applied, built as its own kernel, undone for the base.
mkdir -p "$out/series"
cat >"$out/series/0001-fair.patch" <<'EOF'
Subject: [PATCH] sched/fair: two

---
 kernel/sched/fair.c | 2 +-
--- a/kernel/sched/fair.c
+++ b/kernel/sched/fair.c
@@ -1 +1 @@
-int fair = 1;
+int fair = 2;
EOF
farm=$("$kernel" --series "$fake" "$work" "$out/series" 2>"$out/series.err")
check "--series: a farm with the series applied, the tree untouched" '[ "$(cat "$farm/kernel/sched/fair.c")" = "int fair = 2;" ] && [ "$(cat "$fake/kernel/sched/fair.c")" = "int fair = 1;" ]'
patched=$("$kernel" "$farm" "$work" 2>/dev/null)
check "the farm builds its own kernel, named for the series" '[ "$(cat "$patched/vmlinuz")" = "int fair = 2;" ] && grep -q "+ $out/series (1 patches)" "$patched/package"'
base=$("$kernel" "$fake" "$work" 2>/dev/null)
check "the base again: its cached image" '[ "$base" = "$changed" ]'

# ---- bad input ----
bad "no tree" "KSRC=$out/none does not exist" "$kernel" "$out/none" "$work"
bad "not a kernel tree" "is not a whole x86 kernel tree" "$kernel" "$out/series" "$work"
sed 's/int fair = 1;/int fair = 7;/' "$out/series/0001-fair.patch" >"$out/stale.patch"
bad "a series that does not apply" "step 1 (.*) of $out/stale.patch does not apply" "$kernel" --series "$fake" "$work" "$out/stale.patch"
check "a series that did not apply leaves the farm as the tree" '[ "$(cat "$farm/kernel/sched/fair.c")" = "int fair = 1;" ] && [ ! -e "$farm/.fairtest-patched" ]'
echo 'int fair = 3;' >"$fake/kernel/sched/fair.c"
n=$(images)
bad "a kernel that does not build" "the kernel of $fake did not build: kernel/sched/fair.c:1:5: error" env FT_FAIL=1 "$kernel" "$fake" "$work"
check "a failed build leaves no image" '[ "$(images)" -eq "$n" ] && [ -z "$(find "$work/images" -mindepth 1 -maxdepth 1 -name ".*")" ]'
bad "a config that lost what the guest needs" "lost CONFIG_DEVTMPFS" env FT_DROP=DEVTMPFS "$kernel" "$fake" "$work"
# A copy of a Debian tree keeps its version file after it became another kernel.
cp -a "$fake" "$out/copy" && echo 9.8.1-1 >"$out/copy/.fairtest-version"
bad "a Debian version its Makefile contradicts" "says Debian 9.8.1-1 but its Makefile 9.9.0, so it is not that Debian tree" \
	"$kernel" --fragment "$out/copy" "$work"

echo "twin-kernel: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

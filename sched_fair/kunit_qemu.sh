# SPDX-License-Identifier: GPL-2.0
#
# Sourced by domains_xcheck.sh and findings_real.sh: the tree's own kernel,
# built by the tree's kunit.py with a KUnit case of ours and booted under
# QEMU TCG (qemu_tcg.sh says why TCG). The tree is read only: kunit.py runs
# in a scratch overlay, WORK/src (symlinks to the tree; kunit.py itself a
# copy, since it finds the tree from its own real path; our case and a
# kernel/sched/Makefile that builds it), and the objects go to WORK/kbuild.
# Needs $top, $ksrc, $work and $tag (the tool's name, for its
# one-line messages).

# kunit_prepare: the tree has kunit.py (else one line, exit 2), QEMU is
# installed, the tree is whole (a kernel build reads all of it; a cached
# one holds only our part), and $work exists and is absolute.
kunit_prepare() {
	[ -f "$ksrc/tools/testing/kunit/kunit.py" ] ||
		{ echo "$tag: $ksrc has no tools/testing/kunit/kunit.py" >&2; exit 2; }
	"$top/sched_fair/deps.sh" qemu-system-x86
	"$top/sched_fair/tree.sh" --complete "$ksrc"
	mkdir -p "$work"
	work=$(cd "$work" && pwd)
}

# kunit_overlay CASE.c NAME [MAKEFILE_LINE]: the overlay in $src, CASE.c in
# it as kernel/sched/NAME.c, built when KUNIT is on. A file is rewritten
# only when its text changes, so kbuild rebuilds no more than it must.
kunit_overlay() {
	src=$work/src kbuild=$work/kbuild
	if [ "$(cat "$src/.fairtest-overlay-of" 2>/dev/null)" != "$ksrc" ]; then
		echo "$tag: overlay of $ksrc in $src" >&2
		rm -rf "$src" "$kbuild"
		mkdir -p "$src"
		cp -as "$ksrc/." "$src/"
		rm -rf "$src/tools/testing/kunit"
		cp -rL "$ksrc/tools/testing/kunit" "$src/tools/testing/kunit"
		echo "$ksrc" >"$src/.fairtest-overlay-of"
	fi
	{
		cat "$ksrc/kernel/sched/Makefile"
		echo "obj-\$(CONFIG_KUNIT) += $2.o"
		[ -z "${3:-}" ] || echo "$3"
	} >"$work/sched.Makefile"
	if ! cmp -s "$work/sched.Makefile" "$src/kernel/sched/Makefile"; then
		rm -f "$src/kernel/sched/Makefile"
		mv "$work/sched.Makefile" "$src/kernel/sched/Makefile"
	fi
	cmp -s "$1" "$src/kernel/sched/$2.c" || cp "$1" "$src/kernel/sched/$2.c"
}

# kunit_build: QEMU behind qemu_tcg.sh first in PATH, then kunit.py config
# and build with $work/kunitconfig; sets $kunit, $common, $jobs, and the
# tree's $version and Debian $deb for the tool's report.
kunit_build() {
	FAIRTEST_QEMU=$(command -v qemu-system-x86_64)
	export FAIRTEST_QEMU
	mkdir -p "$work/bin"
	ln -sf "$top/sched_fair/qemu_tcg.sh" "$work/bin/qemu-system-x86_64"
	PATH=$work/bin:$PATH
	kunit="python3 $src/tools/testing/kunit/kunit.py"
	common="--arch=x86_64 --build_dir=$kbuild --kunitconfig=$work/kunitconfig"
	jobs=$(nproc)
	echo "$tag: building the kernel in $kbuild (kunit.py config + build)" >&2
	$kunit config $common >"$work/config.log" 2>&1 ||
		{ tail -n 20 "$work/config.log" >&2; echo "$tag: kunit.py config failed (full output: $work/config.log)" >&2; exit 1; }
	$kunit build $common --jobs="$jobs" >"$work/build.log" 2>&1 ||
		{ tail -n 20 "$work/build.log" >&2; echo "$tag: kunit.py build failed (full output: $work/build.log)" >&2; exit 1; }
	version=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = *//p' "$ksrc/Makefile" | paste -sd.)
	deb=$(cat "$ksrc/.fairtest-version" 2>/dev/null || true)
}

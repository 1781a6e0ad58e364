#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The twin's kernel built from a tree: for a tree Debian has no image of
# (a tree of yours, a series applied), or any tree with
# FAIRTEST_TWIN_KERNEL=build. The config is sched_fair/configs/
# twin-kernel.kconfig: the guest's needs, and the scheduler options of
# Debian's own config of the tree's version when the tree has one
# (kimage.sh), Kconfig's defaults otherwise; make olddefconfig fills the
# rest. The tree is only read: kbuild works in WORK/NAME/TREE+series, a
# farm of symlinks to it (files a series changes are real copies there),
# with its objects in WORK/NAME/obj, so a series is an incremental build of
# its tree's objects. The bzImage is kept by content in WORK/images/KEY/
# (vmlinuz, config, package: what kimage.sh gives), KEY a hash of the
# tree's files, the series, the config and the compiler: the same tree
# is built once, a patched one gets its own kernel. Prints that dir.
#
#   kernel.sh KSRC WORK           the kernel of KSRC (KSRC may be a farm
#                                 --series made: it builds in place)
#   kernel.sh --fragment KSRC WORK
#                                 print the config fragment only (the
#                                 kconfig file with Debian's values taken)
#   kernel.sh --series KSRC WORK SERIES
#                                 make the farm of KSRC with SERIES applied
#                                 (series.py reads it as make gate does);
#                                 prints the farm, a tree fairsim builds too
#
# Bad input gets one line naming it and the fix, exit 1; a failed build
# leaves no image (the objects stay for the next, incremental, try).
set -eu
die() { echo "fairtest: twin: $*" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
sf=$top/sched_fair
mode=build
case ${1:-} in --series|--fragment) mode=${1#--}; shift ;; esac
{ [ "$mode" = build ] && [ $# -eq 2 ]; } || { [ "$mode" = series ] && [ $# -eq 3 ]; } ||
	{ [ "$mode" = fragment ] && [ $# -eq 2 ]; } ||
	die "usage: twin/kernel.sh [--fragment] KSRC WORK | twin/kernel.sh --series KSRC WORK SERIES"
[ -d "$1" ] || die "KSRC=$1 does not exist; point KSRC at a kernel tree"
ksrc=$(cd "$1" && pwd -P)
{ [ -f "$ksrc/.fairtest-farm-of" ] || { [ -f "$ksrc/Makefile" ] && [ -f "$ksrc/kernel/sched/fair.c" ] &&
	[ -d "$ksrc/arch/x86" ]; }; } ||
	die "KSRC=$ksrc is not a whole x86 kernel tree (no top Makefile, kernel/sched/fair.c or arch/x86); point KSRC at the top of one"
mkdir -p "$2" || die "cannot create the build dir $2"
work=$(cd "$2" && pwd -P)
series=${3:-}

# The farm of a tree is WORK/NAME/TREE+series, NAME the tree's name and a
# hash of its path; a farm given as KSRC is built where it is.
if [ -f "$ksrc/.fairtest-farm-of" ]; then
	base=$(cat "$ksrc/.fairtest-farm-of")
	dir=$(dirname "$ksrc")
else
	base=$ksrc
	dir=$work/$(basename "$ksrc")-$(printf '%s' "$ksrc" | md5sum | cut -c1-8)
fi
# Named so: fairsim's build dir of a farm (make twin SERIES=) says what it is.
src=$dir/$(basename "$base")+series

# restore FILE...: fresh copies of the tree's own files (new mtimes: kbuild
# rebuilds what they feed, though the tree's are older than the objects).
restore() {
	for f; do
		rm -f "$src/$f"
		[ ! -e "$base/$f" ] || cp "$base/$f" "$src/$f"
	done
}
farm() {
	exec 8>"$dir.lock"
	flock 8
	if [ "$(cat "$src/.fairtest-farm-of" 2>/dev/null)" != "$base" ]; then
		rm -rf "$src" "$dir/obj"
		mkdir -p "$src"
		cp -as "$base/." "$src/" || die "cannot make the farm of $base in $src (disk full?)"
		echo "$base" >"$src/.fairtest-farm-of"
	fi
	if [ -f "$src/.fairtest-patched" ]; then
		# shellcheck disable=SC2046 # one path per word
		restore $(cat "$src/.fairtest-patched")
		rm "$src/.fairtest-patched" "$src/.fairtest-series"
	fi
}

if [ "$mode" = series ]; then
	"$sf/deps.sh" patch
	"$sf/tree.sh" --complete "$base"	# a cached tree holds only fairsim's part
	farm
	rm -rf "$dir/series"
	python3 "$sf/series.py" "$series" "$base" "$dir/series" >"$dir/series.list" || exit 1
	files=$(cut -f3- "$dir/series.list" | tr '\t' '\n' | sort -u)
	# shellcheck disable=SC2086 # one path per word
	"$sf/tree.sh" --complete "$base" $files
	echo "$files" >"$src/.fairtest-patched"
	# shellcheck disable=SC2086 # one path per word
	restore $files
	while IFS='	' read -r num name _; do
		patch -d "$src" -p1 -N -F0 -s --no-backup-if-mismatch -r - -i "$dir/series/$num.patch" >"$dir/patch.log" 2>&1 || {
			# shellcheck disable=SC2046 # one path per word
			restore $(cat "$src/.fairtest-patched")
			rm "$src/.fairtest-patched"
			die "step $(echo "$num" | sed 's/^0*//') ($name) of $series does not apply to $base: $(head -n 1 "$dir/patch.log"); rebase the series on that tree"
		}
	done <"$dir/series.list"
	cat "$dir/series/"*.patch | md5sum | cut -c1-8 >"$src/.fairtest-series"
	echo "$series ($(wc -l <"$dir/series.list") patches)" >>"$src/.fairtest-series"
	echo "$src"
	exit 0
fi

# ---- the config: the kconfig file, Debian's values for its #take lines ----
conf=$sf/configs/twin-kernel.kconfig
dver=$(cat "$base/.fairtest-version" 2>/dev/null || true)
[ -n "$dver" ] || case $(basename "$base") in
linux-source-*-[0-9]*) dver=$(basename "$base" | sed 's/^linux-source-[0-9.]*-//') ;;
esac
dconf=
if [ -n "$dver" ]; then
	kdir=$("$sf/kimage.sh" "$base" 2>"$dir.kimage.err") || {
		why=$(tail -n 1 "$dir.kimage.err" | sed 's/^fairtest: //')
		rm -f "$dir.kimage.err"
		die "the scheduler options of the kernel built from $base come from Debian's config of $dver, which could not be had: $why"
	}
	cat "$dir.kimage.err" >&2
	rm -f "$dir.kimage.err"
	dconf=$kdir/config
fi
mkdir -p "$dir"
frag=$dir/fragment.tmp
[ "$mode" = build ] || frag=/dev/stdout
awk -v dir="$(dirname "$conf")" -v kconfig="$dconf" "$(cat "$sf/kconfig.awk")"'
function take(opt, max,   v) {
	if (kconfig == "")
		return
	v = kconfig_value(opt)
	if (max != "" && v + 0 > max + 0)
		v = max
	print (v == "n" ? "# " opt " is not set" : opt "=" v)
}
function takes(line) {
	if (line ~ /^#take CONFIG_[A-Z0-9_]+/) {
		split(line, f, " ")
		take(f[2], f[3] ~ /^max=/ ? substr(f[3], 5) : "")
	}
}
/^#takes [A-Za-z0-9_.-]+$/ {
	inc = dir "/" $2
	while ((getline l < inc) > 0)
		takes(l)
	close(inc)
	next
}
{ takes($0) }
/^(# )?CONFIG_[A-Z0-9_]+[= ]/ { print }
' "$conf" >"$frag"
[ "$mode" = build ] || exit 0

# ---- the key: the tree's files, the series, the config, the compiler ----
"$sf/tree.sh" --complete "$base"	# a cached tree holds only fairsim's part
# A tree's content hash is kept by its files' names, sizes, mtimes and
# inodes: the next run of the same tree does not read 1.5 GB again. A
# farm's is its tree's and its patched files'.
content_of() {
	stat_key=$(cd "$1" && find -L . -type f ! -path './.git/*' ! -name '.fairtest-*' -printf '%P %s %T@ %i\n' |
		sort | md5sum | cut -c1-32)
	mkdir -p "$work/content"
	c=$(cat "$work/content/$stat_key" 2>/dev/null || true)
	if [ -z "$c" ]; then
		c=$(cd "$1" && find -L . -type f ! -path './.git/*' ! -name '.fairtest-*' -print0 | sort -z |
			xargs -0 md5sum | md5sum | cut -c1-32)
		echo "$c" >"$work/content/$stat_key"
	fi
	echo "$c"
}
content=$(content_of "$base")
if [ "$base" != "$ksrc" ] && [ -f "$src/.fairtest-patched" ]; then
	# shellcheck disable=SC2046 # one path per word
	content=$( { echo "$content"; cd "$src" && md5sum $(cat .fairtest-patched); } | md5sum | cut -c1-32)
fi
key=$( { echo "$content"; cat "$frag"; gcc --version | head -n 1; } | md5sum | cut -c1-16)
out=$work/images/$key
if [ -f "$out/vmlinuz" ]; then
	rm -f "$frag"
	echo "$out"
	exit 0
fi

# ---- the build ----
"$sf/deps.sh"	# gcc, make, flex, bison, bc, libelf-dev, libssl-dev
if [ "$base" = "$ksrc" ]; then
	farm
else
	exec 8>"$dir.lock"
	flock 8
fi
obj=$dir/obj
mkdir -p "$obj"
mv "$frag" "$dir/fragment"
cp "$dir/fragment" "$obj/.config"
log=$dir/build.log
jobs=$(nproc)
version=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = *//p' "$base/Makefile" | paste -sd.)
label="linux $version built from $base"
[ ! -f "$src/.fairtest-series" ] || label="$label + $(sed -n 2p "$src/.fairtest-series")"
label="$label (twin-kernel.kconfig, $( [ -n "$dconf" ] && echo "Debian $dver's scheduler options" || echo "Kconfig's default scheduler options: no Debian config of this tree"))"
# No Rust, whatever the host has: the config would depend on the host's
# rustc (its version and feature probes), as prepare.sh says.
kmake() {
	nice -n 10 make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs" \
		RUSTC=/bin/false HOSTRUSTC=/bin/false BINDGEN=/bin/false "$@" >>"$log" 2>&1
}
: >"$log"
kmake olddefconfig || die "make olddefconfig failed on $base: $(grep -m1 -E 'error|\*\*\*' "$log" || tail -n 1 "$log") (full log: $log)"
# What the guest cannot do without must have survived olddefconfig.
for o in SERIAL_8250_CONSOLE BLK_DEV_INITRD RD_GZIP BINFMT_SCRIPT DEVTMPFS TMPFS DEBUG_FS TRACING SCHED_INFO ACPI PCI; do
	grep -q "^CONFIG_$o=y" "$obj/.config" ||
		die "the kernel config of $base lost CONFIG_$o, which the twin's guest needs (its dependencies in this tree); see sched_fair/configs/twin-kernel.kconfig"
done
echo "fairtest: twin: building $label in $obj (nice, -j$jobs; a first build takes tens of minutes here)" >&2
start=$(date +%s)
kmake bzImage || die "the kernel of $base did not build: $(grep -m1 -E 'error:|Error [0-9]|\*\*\*' "$log" || tail -n 1 "$log") (full log: $log)"
secs=$(($(date +%s) - start))
mkdir -p "$work/images"
tmp=$(mktemp -d "$work/images/.new.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$obj/arch/x86/boot/bzImage" "$tmp/vmlinuz"
cp "$obj/.config" "$tmp/config"
echo "$label" >"$tmp/package"
echo "$secs" >"$tmp/build_seconds"
# What the fragment asked and kconfig did not keep (unmet dependencies, or
# no such option in this tree): "CONFIG_X asked got".
awk 'FNR == NR { if (/^CONFIG_/) { o = $0; sub(/=.*/, "", o); v = $0; sub(/^[^=]*=/, "", v); have[o] = v }
		 else if (/^# CONFIG_.* is not set$/) have[$2] = "n"; next }
     /^CONFIG_/ { o = $0; sub(/=.*/, "", o); v = $0; sub(/^[^=]*=/, "", v) }
     /^# CONFIG_/ { o = $2; v = "n" }
     { g = (o in have) ? have[o] : "n"; if (g != v) print o, v, g }' "$obj/.config" "$dir/fragment" >"$tmp/differs"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "fairtest: twin: built in $secs s ($log)" >&2
echo "$out"

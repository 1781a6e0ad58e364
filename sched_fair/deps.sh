#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages fairtest needs, only those that are missing,
# with sudo when not root. Extra package names may be given as arguments;
# @twin names the real-kernel twin's (QEMU, and what its initramfs holds).
set -eu
extra=
for a in "$@"; do
	case $a in
	@twin) extra="$extra qemu-system-x86 busybox-static rt-app rt-tests" ;;
	*) extra="$extra $a" ;;
	esac
done
# rt-app: make test runs the workload files under the real one (tests/sim/rtapp.py).
# parallel, rsync, ssh: make campaign's shards here and on other machines;
# openssh-server: its test's sshd on a loopback port (tests/campaign), on CI
# only: installing it starts a system sshd, which a laptop should not get
# from a test suite (there the test skips, naming the package).
need="gcc make flex bison bc libelf-dev libssl-dev libcmocka-dev libfiu-dev libjson-c-dev valgrind python3 7zip rt-app parallel rsync openssh-client$extra"
[ "${CI:-}" != true ] || need="$need openssh-server"
# This runs before every make check: once all were found, that answer holds
# until dpkg's database next changes.
cache=${FAIRTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fairtest}
ok=$cache/deps.ok
have=
[ -f "$ok" ] && [ "$ok" -nt /var/lib/dpkg/status ] && IFS= read -r have <"$ok" && [ "$have" = "$need" ] && exit 0
found() { mkdir -p "$cache" && echo "$need" >"$ok.tmp" && mv "$ok.tmp" "$ok"; }
# shellcheck disable=SC2086 # one package per word
missing=$(dpkg-query -W -f='${Package} ${Status}\n' $need 2>/dev/null |
	  awk -v need="$need" '/ install ok installed$/ { installed[$1] = 1 }
	      END { n = split(need, p, " "); for (i = 1; i <= n; i++) if (!(p[i] in installed)) printf " %s", p[i] }')
[ -n "$missing" ] || { found; exit 0; }

command -v apt-get >/dev/null ||
	{ echo "fairtest: missing packages:$missing, and no apt-get; install them by hand" >&2; exit 1; }
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "fairtest: installing missing Debian packages:$missing" >&2
$sudo apt-get update -qq >&2 || true
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >&2 ||
	{ echo "fairtest: could not install$missing; run: sudo apt-get install$missing" >&2; exit 1; }
found

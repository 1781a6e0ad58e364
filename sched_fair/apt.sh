# SPDX-License-Identifier: GPL-2.0
#
# Sourced by tree.sh and kimage.sh: Debian's archive read through a private
# apt state under the cache, so fetching a kernel source or image never
# touches the system's own apt configuration, lists or installed packages.
# After `apt_private_update`, "$@" holds the options that point apt-get and
# apt-cache at that state. Needs $cache and die().

# The URI the system's own apt sources use for Debian (deb.debian.org when none).
debian_uri() {
	grep -rhoE '^(deb |URIs:)[^#]*https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
		grep -oE 'https?://[^ ]+/debian/?' | grep -v security | head -n 1 | sed 's|/$||'
}

# The suites that serve the trees fairtest runs and their kernels. Lists
# younger than an hour are reused: one update serves a tree and its image.
apt_private_update() {
	case $cache in *[[:space:]]*) die "the cache path ($cache) has a blank; set FAIRTEST_CACHE to a path without one" ;; esac
	state=$cache/apt
	uri=$(debian_uri)
	uri=${uri:-http://deb.debian.org/debian}
	mkdir -p "$state/lists/partial" "$state/archives/partial" "$state/cache" "$cache/debs"
	{
		for suite in bookworm bookworm-backports trixie trixie-backports sid; do
			echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main"
		done
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${uri%/debian}/debian-security bookworm-security main"
	} >"$state/sources.list.new"
	cmp -s "$state/sources.list.new" "$state/sources.list" || rm -f "$state/updated"
	mv "$state/sources.list.new" "$state/sources.list"
	set -- -o Dir::Etc::sourcelist="$state/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" \
		-o Dir::Cache::Archives="$state/archives" -o Debug::NoLocking=1 -o APT::Sandbox::User=root
	apt_opts=$*
	if [ -z "$(find "$state/updated" -mmin -60 2>/dev/null)" ]; then
		apt-get "$@" -qq update >&2 ||
			die "could not read Debian's package lists ($uri); check the network or set KSRC to an unpacked tree"
		touch "$state/updated"
	fi
}

# apt_private CMD ARGS...: apt-get or apt-cache on the private state.
apt_private() {
	cmd=$1
	shift
	# shellcheck disable=SC2086 # the options are words without blanks
	$cmd $apt_opts "$@"
}

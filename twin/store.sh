# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The twin's store of real boots (FAIRTEST_TWIN_STORE), sourced by
# twin/twin.sh: ROOT/KEY holds real-1, real-2, ... in the order they were
# stored, beside rtapp.json and complete. A run that boots adds its boots
# after the ones there; none is ever replaced, so a reuse of the first
# RUNS boots gives the same table however many are added later.
#
# Every boot enters by one rename() of a whole directory: a new key as a
# whole set (its temp dir renamed to ROOT/KEY), a boot of a key that exists
# to the first free real-N (rename() onto a directory that has files
# fails, so two writers never share a number, and a reader sees a boot
# whole or not at all). The temp dir is store_new, for the caller's
# cleanup when something fails half-way.

# store_count KEYDIR: how many boots KEYDIR holds (real-1 .. real-N).
store_count() {
	sc_n=0
	while [ -d "$1/real-$((sc_n + 1))" ]; do sc_n=$((sc_n + 1)); done
	echo "$sc_n"
}

# store_reuse KEYDIR RUNS MODE: how many boots a run that may reuse takes:
# the first RUNS (MODE 1) or every one (MODE all), none (0) when fewer
# than RUNS are stored.
store_reuse() {
	sr_n=$(store_count "$1")
	if [ "$sr_n" -lt "$2" ]; then echo 0
	elif [ "$3" = all ]; then echo "$sr_n"
	else echo "$2"
	fi
}

# store_add SRC ROOT KEY: SRC's real-1 .. real-K (and its rtapp.json)
# become the next K boots of ROOT/KEY; prints the numbers they got (one
# writer's boots can interleave with another's that stores at once).
store_add() {
	sa_src=$1 sa_root=$2 sa_key=$3
	store_new=$(mkdir -p "$sa_root" && mktemp -d "$sa_root/.$sa_key.XXXXXX") || return 1
	chmod 755 "$store_new" || return 1
	sa_k=0
	while [ -d "$sa_src/real-$((sa_k + 1))" ]; do
		sa_k=$((sa_k + 1))
		cp -a "$sa_src/real-$sa_k" "$store_new/" || return 1
	done
	[ "$sa_k" -gt 0 ] || return 1
	cp "$sa_src/rtapp.json" "$store_new/" && touch "$store_new/complete" || return 1
	if mv -T "$store_new" "$sa_root/$sa_key" 2>/dev/null; then
		store_new=
		seq 1 "$sa_k" | tr '\n' ' ' | sed 's/ $/\n/'
		return 0
	fi
	sa_i=1 sa_got=
	sa_n=$(store_count "$sa_root/$sa_key")
	while [ "$sa_i" -le "$sa_k" ]; do
		sa_n=$((sa_n + 1)) sa_tries=0
		until mv -T "$store_new/real-$sa_i" "$sa_root/$sa_key/real-$sa_n" 2>/dev/null; do
			# taken by another writer meanwhile: the next number
			sa_tries=$((sa_tries + 1))
			[ "$sa_tries" -le 1000 ] && [ -d "$sa_root/$sa_key/real-$sa_n" ] || return 1
			sa_n=$((sa_n + 1))
		done
		sa_got="${sa_got:+$sa_got }$sa_n"
		sa_i=$((sa_i + 1))
	done
	rm -rf "$store_new"
	store_new=
	echo "$sa_got"
}

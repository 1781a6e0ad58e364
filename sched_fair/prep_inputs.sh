#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# List, relative to the tree, the files whose change would change what a
# kbuild preparation gives our build: the Kconfig files (autoconf.h), the
# sources of the generated headers our objects include (bounds.h from
# kernel/bounds.c, timeconst.h), build scripts and Makefiles (as patterns),
# and core.c (the weight tables). A patch touching none of them can reuse
# its base's preparation (share_prep.sh); any other gets its own.
#
# usage: prep_inputs.sh KSRC KBUILD_DIR   (one path or glob per line)
set -eu
ksrc=$1 kb=$2
{
	sed -n 's/^[[:space:]]*\([^ $][^ ]*\) \\$/\1/p' "$kb/kernel/.bounds.s.cmd"
	sed -n 's/^[[:space:]]*\([^ ]*Kconfig[^ ]*\) \\$/\1/p' "$kb/include/config/auto.conf.cmd"
	printf '%s\n' kernel/time/timeconst.bc kernel/sched/core.c 'Makefile' '*/Makefile*' \
		'*/Kbuild' 'Kconfig*' '*/Kconfig*' 'scripts/*' 'arch/x86/entry/syscalls/*' \
		'include/generated/*'
} | sed "s|^$ksrc/||" | grep -v '^/' | sort -u

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Turn the command line kbuild used for kernel/sched/fair.o into the flags
# for compiling kernel-side code as part of an ordinary x86_64 program.
# Everything that shapes the C (defines, includes, -W, -std, -f semantics)
# is kept; only code-generation flags that assume ring 0 or a kernel image
# are dropped: they would break calls that cross into the user side
# (8-byte stack alignment, no red zone) or need objtool/ftrace/retpolines.
#
# usage: kflags.sh BUILD_DIR   (prints one flag per line)
set -eu
objdir=$1
# fair.c preprocessed (prepare.sh) or compiled: the same flags but -E/-c.
cmdfile=$objdir/kernel/sched/.fair.i.cmd
[ -r "$cmdfile" ] || cmdfile=$objdir/kernel/sched/.fair.o.cmd
[ -r "$cmdfile" ] || { echo "kflags.sh: $cmdfile missing: run the tree preparation first" >&2; exit 1; }

sed -n 's/^savedcmd_[^ ]* := //p' "$cmdfile" | sed 's/;.*//' | tr ' ' '\n' |
awk -v objdir="$objdir" '
	NR == 1 || $0 == "" { next }			# the compiler itself
	/^-Wp,-M/ || $0 == "-c" || $0 == "-E" || /\.c$/ { next }
	skip_next { skip_next = 0; next }
	$0 == "-o" { skip_next = 1; next }
	/^-DKBUILD_|^-D__KBUILD_/ { next }		# set per file by our Makefile
	/^-mcmodel=|^-mno-red-zone$|^-mpreferred-stack-boundary=|^-mskip-rax-setup$/ { next }
	/^-fno-asynchronous-unwind-tables$|^-fomit-frame-pointer$/ { next }
	/^-mindirect-branch|^-mfunction-return=|^-mharden-sls=|^-mretpoline/ { next }
	/^-pg$|^-mfentry$|^-mrecord-mcount$|^-mnop-mcount$|^-fpatchable-function-entry=/ { next }
	/^-mstack-protector-guard|^-fstack-protector/ { next }
	/^-fzero-call-used-regs=|^-fsanitize=|^-fsanitize-coverage=/ { next }
	/^-I\.\// { print "-I" objdir "/" substr($0, 5); next }
	/^-I[^\/]/ { print "-I" objdir "/" substr($0, 3); next }
	{ print }
'

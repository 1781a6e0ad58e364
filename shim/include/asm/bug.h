/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands in for: arch/x86/include/asm/bug.h
 *
 * x86 turns WARN and BUG into ud2 plus an entry in the kernel's bug table,
 * which in user space is just SIGILL with no message. Leaving the arch
 * header out makes asm-generic/bug.h route WARN through
 * warn_slowpath_fmt() (shim/kernel/panic.c records it with file:line and
 * fails the running test) and BUG through panic(). The include guard is
 * the real header's, so it is never pulled in.
 */
#ifndef _ASM_X86_BUG_H
#define _ASM_X86_BUG_H

#include <linux/stringify.h>
#include <linux/instrumentation.h>
#include <linux/objtool.h>

/* Constants other x86 headers take from here. */
#define ASM_UD2		".byte 0x0f, 0x0b"
#define INSN_UD2	0x0b0f
#define LEN_UD2		2

#include <asm-generic/bug.h>

#endif /* _ASM_X86_BUG_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands in for: arch/x86/include/asm/percpu.h
 *
 * x86 reaches per-CPU data through the %gs segment, which a user process
 * does not own. We keep the real header (every helper, every size switch)
 * and only replace the addressing: a per-CPU access becomes the template
 * address plus the offset of the fake CPU the harness is running as. The
 * harness moves that offset when it "switches CPU" (see shim/percpu.c), so
 * current, smp_processor_id() and this_cpu_*() follow without more shims.
 */
#ifndef FAIRTEST_ASM_PERCPU_H
#define FAIRTEST_ASM_PERCPU_H

#include_next <asm/percpu.h>

#ifndef __ASSEMBLY__
extern unsigned long fairtest_cpu_offset;

#undef __percpu_seg_override
#define __percpu_seg_override

#undef __percpu_prefix
#define __percpu_prefix		""
#undef __force_percpu_prefix
#define __force_percpu_prefix	""

#undef __my_cpu_ptr
#define __my_cpu_ptr(ptr)	\
	((__my_cpu_type(*(ptr)) *)((__force unsigned long)(ptr) + fairtest_cpu_offset))

#undef __my_cpu_offset
#define __my_cpu_offset		fairtest_cpu_offset

#undef arch_raw_cpu_ptr
#define arch_raw_cpu_ptr(ptr)	\
	((typeof(*(ptr)) __kernel __force *)((__force unsigned long)(ptr) + fairtest_cpu_offset))

/* The stable read takes the variable's absolute address: make it a load. */
#undef __raw_cpu_read_stable
#define __raw_cpu_read_stable(size, _var)	(*__my_cpu_ptr(&(_var)))
#endif /* !__ASSEMBLY__ */

#endif /* FAIRTEST_ASM_PERCPU_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands in for: arch/x86/include/asm/irqflags.h
 *
 * cli, sti and hlt are privileged and pushf shows a user process's flags,
 * not a fake CPU's. The interrupt-enable bit lives in a per-CPU harness
 * variable instead, so lockdep-style assertions in fair.c
 * (lockdep_assert_irqs_disabled and friends) see what the driver did, and
 * the driver can check that every rq-lock section ran with IRQs off.
 * The include guard is the real header's, so it is never pulled in.
 */
#ifndef _X86_IRQFLAGS_H_
#define _X86_IRQFLAGS_H_

#include <asm/processor-flags.h>

#ifndef __ASSEMBLY__
#include <linux/types.h>

/* Per fake CPU: X86_EFLAGS_IF when interrupts are enabled. */
extern unsigned long fairtest_irq_flags[];
extern int fairtest_cpu;

static __always_inline unsigned long arch_local_save_flags(void)
{
	return fairtest_irq_flags[fairtest_cpu];
}

static __always_inline void arch_local_irq_disable(void)
{
	fairtest_irq_flags[fairtest_cpu] = 0;
}

static __always_inline void arch_local_irq_enable(void)
{
	fairtest_irq_flags[fairtest_cpu] = X86_EFLAGS_IF;
}

static __always_inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}

static __always_inline int arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_EFLAGS_IF);
}

static __always_inline int arch_irqs_disabled(void)
{
	return arch_irqs_disabled_flags(arch_local_save_flags());
}

static __always_inline void arch_local_irq_restore(unsigned long flags)
{
	fairtest_irq_flags[fairtest_cpu] = flags & X86_EFLAGS_IF;
}

/* A fake CPU never idles in hardware: the event loop advances time. */
static __always_inline void arch_safe_halt(void)
{
	arch_local_irq_enable();
}

static __always_inline void halt(void)
{
}

static __always_inline unsigned long native_save_fl(void)
{
	return arch_local_save_flags();
}
#endif /* !__ASSEMBLY__ */

#endif /* _X86_IRQFLAGS_H_ */

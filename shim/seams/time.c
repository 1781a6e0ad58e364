// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/time and kernel/sched/clock.c. Fakes driven by the
 * virtual clock of the driver (shim/driver/clock.c): sched_clock_cpu() is
 * virtual nanoseconds (with the clock failure points), jiffies follow it
 * at the tree's HZ.
 */
#include <linux/jiffies.h>
#include <linux/sched/clock.h>
#include "seam.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

unsigned long volatile __cacheline_aligned_in_smp jiffies = INITIAL_JIFFIES;

u64 ft_clock_read(int cpu);

u64 sched_clock_cpu(int cpu)
{
	return ft_clock_read(cpu);
}

unsigned long __msecs_to_jiffies(const unsigned int m)
{
	return DIV_ROUND_UP((unsigned long)m * HZ, MSEC_PER_SEC);
}

#if !defined(FT_JIFFIES_TO_MSECS_INLINE) || !(HZ <= MSEC_PER_SEC && !(MSEC_PER_SEC % HZ))
unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (u64)j * MSEC_PER_SEC / HZ;
}
#endif

/* The raw clock of this CPU; fair.c reads it for statistics, not decisions. */
u64 sched_clock(void)
{
	return ft_clock_read(fairtest_cpu);
}

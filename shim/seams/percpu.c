// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by mm/percpu.c: dynamic per-CPU memory, which fair.c uses
 * for a task group's queues and entities from 7.2 on (alloc_percpu_gfp of
 * one block per CPU). A per-CPU pointer is an address in the template
 * plus each CPU's offset, so a dynamic object must sit at the same offset
 * in every CPU's area: like the kernel's first chunk, every area carries
 * a reserve after its static copy, handed out first-fit in 64-byte units
 * at the same offset everywhere. A fake; deterministic, zeroed, counted
 * with the slab objects, and failing where the slab seam would.
 */
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/gfp.h>
#include "seam.h"

#define UNIT		64
#define UNITS		(FT_PCPU_RESERVE / UNIT)

extern char __per_cpu_start[];
static bool used[UNITS];
static unsigned short length[UNITS];	/* units of the object starting here */
static unsigned long reserve_start;	/* offset of the reserve in an area */

/* Called by boot.c with the reserve's offset; forgets every object. */
void ft_pcpu_reset(unsigned long start)
{
	reserve_start = start;
	memset(used, 0, sizeof(used));
	memset(length, 0, sizeof(length));
}

void __percpu *pcpu_alloc_noprof(size_t size, size_t align, bool reserved, gfp_t gfp)
{
	unsigned int n = DIV_ROUND_UP(size, UNIT), step = max_t(size_t, align, UNIT) / UNIT;
	unsigned int at;
	int cpu;

	if (!(gfp & __GFP_NOFAIL) && ft_slab_site != FT_FP_NR && ft_host_fail(ft_slab_site))
		return NULL;
	for (at = 0; at + n <= UNITS; at += step)
		if (!memchr(used + at, true, n))
			break;
	if (!n || at + n > UNITS)
		return NULL;
	memset(used + at, 1, n);
	length[at] = n;
	for_each_possible_cpu(cpu)
		memset(__per_cpu_start + reserve_start + at * UNIT + __per_cpu_offset[cpu], 0, n * UNIT);
	ft_slab_live_adjust(1);
	return (void __percpu *)(__per_cpu_start + reserve_start + at * UNIT);
}

void free_percpu(void __percpu *ptr)
{
	unsigned long at;

	if (!ptr)
		return;
	at = ((__force char *)ptr - __per_cpu_start - reserve_start) / UNIT;
	if (at >= UNITS || !length[at]) {
		ft_fault_here("free_percpu of no object", __builtin_return_address(0), "%p", ptr);
		return;
	}
	memset(used + at, 0, length[at]);
	length[at] = 0;
	ft_slab_live_adjust(-1);
}

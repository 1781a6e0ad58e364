// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by mm/slab: fair.c allocates per-CPU group entities and
 * cfs_rqs when a task group is created, NUMA groups as tasks share pages.
 * Fakes on top of shim/arena.c, whose addresses follow the order of the
 * allocations, as fair.c makes them, and not the host heap's (fair.c
 * compares two numa_group addresses); the memory is always zeroed, which
 * covers __GFP_ZERO and makes a missed initialisation show up the same way
 * every run.
 * Each entry point is a failure point, and so is "any allocation made
 * under alloc_fair_sched_group" (the driver marks that span), since a
 * GFP_KERNEL allocation may fail where __GFP_NOFAIL is not given. Live
 * objects are counted, so a test can see an error path leak nothing.
 */
#include <linux/slab.h>
#include "seam.h"

struct kmem_cache *
kmalloc_caches[NR_KMALLOC_TYPES][KMALLOC_SHIFT_HIGH + 1] __ro_after_init;

/* Set by the driver around the kernel function it stands for. */
enum ft_point ft_slab_site = FT_FP_NR;
static long live;

static void *slab_alloc(size_t size, gfp_t flags, enum ft_point point)
{
	void *p;

	if (!(flags & __GFP_NOFAIL) &&
	    (ft_host_fail(point) ||
	     (ft_slab_site != FT_FP_NR && ft_host_fail(ft_slab_site))))
		return NULL;
	p = ft_host_slab_alloc(size);
	if (p)
		live++;
	return p;
}

void *__kmalloc_noprof(size_t size, gfp_t flags)
{
	return slab_alloc(size, flags, FT_FP_KMALLOC);
}

void *__kmalloc_node_noprof(DECL_BUCKET_PARAMS(size, b), gfp_t flags, int node)
{
	return slab_alloc(size, flags, FT_FP_KMALLOC_NODE);
}

void *__kmalloc_cache_noprof(struct kmem_cache *s, gfp_t flags, size_t size)
{
	return slab_alloc(size, flags, FT_FP_KMALLOC_CACHE);
}

void *__kmalloc_cache_node_noprof(struct kmem_cache *s, gfp_t flags, int node,
				  size_t size)
{
	return slab_alloc(size, flags, FT_FP_KMALLOC_CACHE_NODE);
}

void kfree(const void *objp)
{
	if (ZERO_OR_NULL_PTR(objp))
		return;
	live--;
	ft_host_slab_free((void *)objp);
}

long ft_slab_live(void)
{
	return live;
}

/* Per-CPU objects (seams/percpu.c) count as slab objects for leak checks. */
long ft_slab_live_adjust(long delta)
{
	return live += delta;
}

/* For tests: an object from the seam, as fair.c's kmalloc() gets one. */
void *ft_slab_alloc(unsigned long size)
{
	return __kmalloc_noprof(size, GFP_KERNEL);
}

void ft_slab_free(void *p)
{
	kfree(p);
}

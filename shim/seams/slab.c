// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by mm/slab: fair.c allocates per-CPU group entities and
 * cfs_rqs when a task group is created. Fakes on top of the host allocator;
 * the memory is always zeroed, which covers __GFP_ZERO and makes a missed
 * initialisation show up the same way every run. Freed through ft_host_free.
 */
#include <linux/slab.h>
#include "seam.h"

struct kmem_cache *
kmalloc_caches[NR_KMALLOC_TYPES][KMALLOC_SHIFT_HIGH + 1] __ro_after_init;

void *__kmalloc_noprof(size_t size, gfp_t flags)
{
	return ft_host_zalloc(size);
}

void *__kmalloc_node_noprof(DECL_BUCKET_PARAMS(size, b), gfp_t flags, int node)
{
	return ft_host_zalloc(size);
}

void *__kmalloc_cache_noprof(struct kmem_cache *s, gfp_t flags, size_t size)
{
	return ft_host_zalloc(size);
}

void *__kmalloc_cache_node_noprof(struct kmem_cache *s, gfp_t flags, int node,
				  size_t size)
{
	return ft_host_zalloc(size);
}

void kfree(const void *objp)
{
	ft_host_free((void *)objp);
}

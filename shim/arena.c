// SPDX-License-Identifier: GPL-2.0
/*
 * The slab seam's memory (user side of shim/seams/slab.c): objects carved
 * in allocation order from one reserved region, so a fair.c decision on
 * the order of two kmalloc'd addresses (task_numa_group()'s tie-break of
 * two numa_groups) follows the order of fair.c's own allocations and not
 * the host heap, which the harness's allocations move. A freed object
 * goes on its size class's list and is handed out again last-in first-out,
 * as a slab cache does; a machine's boot starts the region over once every
 * object is freed, so one test's addresses do not depend on the tests run
 * before it in the process. After a leak (7.x's sds_double_claim) a boot
 * carves on past the leaked objects instead: the addresses are still a
 * function of the case's own allocations and frees, since every case
 * starts from the same arena (the runner's snapshot, or a process of its
 * own). The region's base moves with mmap(): fair.c compares addresses and
 * never computes with their values (sched_fair/addr_audit.py,
 * docs/faults-memcheck.md). Under memcheck every object is a malloc-like
 * block between no-access redzones: leaks, overflows and uses after free
 * are reported as for malloc. Under ASan objects come from calloc instead:
 * LeakSanitizer reports only its own allocations.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "fairtest.h"

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_FALLBACK	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_FALLBACK	1
#endif
#endif

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MALLOCLIKE_BLOCK(addr, size, rz, zeroed)	((void)0)
#define VALGRIND_FREELIKE_BLOCK(addr, rz)			((void)0)
#define VALGRIND_MAKE_MEM_NOACCESS(addr, size)			((void)0)
#endif

#define REGION		(4UL << 30)	/* address space only: pages come as used */
#define REDZONE		16UL
#define MAX_CLASSES	64

/*
 * An object's place as an offset, not a pointer: memcheck's leak check
 * would find every object reachable through this table otherwise.
 */
struct block {
	unsigned long at;	/* from region */
	unsigned int klass;
	unsigned int size;	/* asked for; 0 once freed */
};

struct klass {
	unsigned long size;
	unsigned int *free;	/* indices into blocks[], the last freed last */
	unsigned int nr_free, cap_free;
};

static char *region, *bump;
static struct block *blocks;	/* in address order: carved in that order */
static unsigned int nr_blocks, cap_blocks;
static struct klass classes[MAX_CLASSES];
static unsigned int nr_classes;
static long live;

/* kmalloc's size classes (8-byte steps as 16 for alignment), then pages. */
static unsigned long class_size(unsigned long size)
{
	static const unsigned long sizes[] = { 16, 32, 64, 96, 128, 192, 256, 512,
					       1024, 2048, 4096, 8192 };

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (size <= sizes[i])
			return sizes[i];
	return (size + 4095) & ~4095UL;
}

static void *grow(void *array, unsigned int *cap, size_t elem)
{
	unsigned int n = *cap ? *cap * 2 : 256;
	void *p = realloc(array, n * elem);

	if (!p)
		ft_host_abort("slab arena: out of host memory for its bookkeeping");
	*cap = n;
	return p;
}

static struct klass *klass_of(unsigned long size)
{
	unsigned int i;

	for (i = 0; i < nr_classes; i++)
		if (classes[i].size == size)
			return &classes[i];
	if (nr_classes == MAX_CLASSES)
		ft_host_abort("slab arena: more than 64 object sizes");
	classes[nr_classes].size = size;
	return &classes[nr_classes++];
}

#ifndef HEAP_FALLBACK
static void map_region(void)
{
	region = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (region == MAP_FAILED)
		ft_host_abort("slab arena: cannot reserve its address space (mmap)");
	VALGRIND_MAKE_MEM_NOACCESS(region, REGION);
	bump = region;
}
#endif

void *ft_host_slab_alloc(unsigned long size)
{
#ifdef HEAP_FALLBACK
	void *p = calloc(1, size ? size : 1);

	live += !!p;
	return p;
#else
	struct klass *k = klass_of(class_size(size ? size : 1));
	struct block *b;

	if (k->nr_free) {
		b = &blocks[k->free[--k->nr_free]];
	} else {
		if (!region)
			map_region();
		if (bump + REDZONE + k->size + REDZONE > region + REGION)
			ft_host_abort("slab arena: 4 GiB of live objects");
		if (nr_blocks == cap_blocks)
			blocks = grow(blocks, &cap_blocks, sizeof(*blocks));
		b = &blocks[nr_blocks++];
		b->at = bump + REDZONE - region;
		b->klass = k - classes;
		bump += REDZONE + k->size;
	}
	b->size = size ? size : 1;
	VALGRIND_MALLOCLIKE_BLOCK(region + b->at, b->size, REDZONE, 0);
	memset(region + b->at, 0, b->size);
	live++;
	return region + b->at;
#endif
}

void ft_host_slab_free(void *p)
{
#ifdef HEAP_FALLBACK
	live--;
	free(p);
#else
	unsigned long at = (char *)p - region;
	unsigned int lo = 0, hi = nr_blocks;
	struct klass *k;
	struct block *b;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (blocks[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == nr_blocks || blocks[lo].at != at || !blocks[lo].size)
		ft_host_abort("kfree() of an address that is no live slab object");
	b = &blocks[lo];
	b->size = 0;
	VALGRIND_FREELIKE_BLOCK(p, REDZONE);
	k = &classes[b->klass];
	if (k->nr_free == k->cap_free)
		k->free = grow(k->free, &k->cap_free, sizeof(*k->free));
	k->free[k->nr_free++] = lo;
	live--;
#endif
}

/* At a boot: once nothing is live, the next machine carves from the start. */
void ft_host_slab_reset(void)
{
#ifndef HEAP_FALLBACK
	if (live)
		return;		/* a leak, which the leak checks report */
	bump = region;
	nr_blocks = 0;
	for (unsigned int i = 0; i < nr_classes; i++)
		classes[i].nr_free = 0;
#endif
}

/*
 * The region beyond the last object carved, mapped now if it was not: the
 * test runner's snapshot (tests/kunit/snapshot.c) leaves it alone, since
 * restoring this file's bookkeeping forgets whatever a case carved there.
 */
void ft_host_slab_unused(char **start, unsigned long *len)
{
#ifdef HEAP_FALLBACK
	*start = NULL;
	*len = 0;
#else
	if (!region)
		map_region();
	*start = bump;
	*len = region + REGION - bump;
#endif
}

const char *ft_host_slab_unordered(void)
{
#ifdef HEAP_FALLBACK
	return "built with ASan: slab objects come from calloc, since LeakSanitizer reports only its own allocations";
#else
	return NULL;
#endif
}

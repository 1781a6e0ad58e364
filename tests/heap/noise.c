// SPDX-License-Identifier: GPL-2.0
/*
 * Heap noise, preloaded into fairtest by tests/shim_mutants.sh: before
 * every calloc(), one of 64 held blocks is freed and another of a size
 * drawn from HEAP_NOISE_SEED taken, so the host heap's holes move as they
 * do when the harness or the checker allocates differently. A run's KTAP
 * must not move with it: fair.c's objects come from the slab arena.
 */
#include <stddef.h>
#include <stdlib.h>

void *__libc_calloc(size_t n, size_t size);
void *__libc_malloc(size_t size);
void __libc_free(void *p);

static void *held[64];
static unsigned long long state;

void *calloc(size_t n, size_t size)
{
	unsigned int slot;

	if (!state) {
		const char *seed = getenv("HEAP_NOISE_SEED");

		state = (seed ? strtoull(seed, NULL, 10) : 0) * 2654435761ULL + 1;
	}
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	slot = (state >> 33) % 64;
	__libc_free(held[slot]);
	held[slot] = __libc_malloc(16 + (state >> 40) % 2048);
	return __libc_calloc(n, size);
}

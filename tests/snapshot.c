// SPDX-License-Identifier: GPL-2.0
/*
 * The writable memory of this process, saved once and put back between
 * cases, so that a worker process can run case after case each from the
 * same state, as a fresh fork would (tests/runner.c).
 *
 * Saved: every private writable mapping (the program's and every
 * library's data and bss, the heap, the static TLS) but the stack, which
 * holds the worker loop itself, and the signal actions. The heap is first
 * grown and touched, and malloc told to keep it and never to use mmap, so
 * that no case maps memory that a restore would not see, and none faults
 * on pages a former case already touched: the faults and the fork that a
 * process per case costs are what this saves. A case that changes what
 * is not saved (a file offset, an mmap of its own) is not isolated: the
 * variants that need that (ASan's shadow, gcov's counters, valgrind) run
 * a process per case.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "snapshot.h"

/* A case's heap fits in this; beyond it, its pages fault again next case. */
#define HEAP_RESERVE	(8 << 20)
#define MAX_REGIONS	64

struct region {
	char *start;
	size_t len;
	char *saved;
};

/* Lives in a mapping of its own, which no restore writes. */
struct image {
	struct region regions[MAX_REGIONS];
	int nr;
	void *brk;
	char *heap_used;
	struct sigaction act[NSIG];
};

static struct image *img;

static int add_region(struct image *im, char *start, char *end)
{
	if (start >= end)
		return 0;
	if (im->nr == MAX_REGIONS)
		return -1;
	im->regions[im->nr++] = (struct region){ start, end - start, NULL };
	return 0;
}

/* Every private writable mapping but the stack and the image itself. */
static int writable_regions(struct image *im)
{
	long page = sysconf(_SC_PAGESIZE);
	char *self = (char *)im;
	char *self_end = self + (sizeof(*im) + page - 1) / page * page;
	char line[512], perms[8], name[256];
	unsigned long start, end;
	FILE *maps = fopen("/proc/self/maps", "r");

	if (!maps)
		return -1;
	while (fgets(line, sizeof(line), maps)) {
		name[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255s", &start, &end, perms, name) < 3)
			continue;
		if (strcmp(perms, "rw-p") || !strcmp(name, "[stack]") ||
		    !strcmp(name, "[vvar]") || !strcmp(name, "[vdso]"))
			continue;
		if (self < (char *)end && self_end > (char *)start) {
			if (add_region(im, (char *)start, self) ||
			    add_region(im, self_end, (char *)end))
				goto full;
		} else if (add_region(im, (char *)start, (char *)end)) {
			goto full;
		}
	}
	fclose(maps);
	return 0;
full:
	fclose(maps);
	return -1;
}

int snapshot_take(void)
{
	size_t total = 0;
	char *save;
	void *p;
	int i;

	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	p = malloc(HEAP_RESERVE);	/* grows the heap; its pages fault once */
	if (!p)
		return -1;
	free(p);

	img = mmap(NULL, sizeof(*img), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (img == MAP_FAILED)
		return -1;
	if (writable_regions(img))
		return -1;
	img->brk = sbrk(0);
	/*
	 * Above malloc's top chunk the heap holds nothing malloc reads (it
	 * clears what calloc() takes from there), so only up to the top
	 * chunk's header is put back: a case's heap is not copied back whole.
	 */
	img->heap_used = (char *)img->brk - mallinfo2().keepcost + 64;
	for (i = 0; i < img->nr; i++) {
		struct region *r = &img->regions[i];

		if (r->start < (char *)img->brk && r->start + r->len > img->heap_used)
			r->len = r->start < img->heap_used ? (size_t)(img->heap_used - r->start) : 0;
		total += r->len;
	}
	save = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (save == MAP_FAILED)
		return -1;
	for (i = 1; i < NSIG; i++)
		sigaction(i, NULL, &img->act[i]);
	for (i = 0; i < img->nr; i++) {
		img->regions[i].saved = save;
		memcpy(save, img->regions[i].start, img->regions[i].len);
		save += img->regions[i].len;
	}
	return 0;
}

void snapshot_restore(void)
{
	struct image *im = img;	/* img itself is in a region being restored */
	int i;

	for (i = 1; i < NSIG; i++)
		if (i != SIGKILL && i != SIGSTOP)
			sigaction(i, &im->act[i], NULL);
	if (sbrk(0) != im->brk)
		brk(im->brk);
	for (i = 0; i < im->nr; i++)
		memcpy(im->regions[i].start, im->regions[i].saved, im->regions[i].len);
}

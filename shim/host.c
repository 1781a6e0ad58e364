// SPDX-License-Identifier: GPL-2.0
/*
 * The user-side services the kernel side calls through shim/fairtest.h:
 * memory, formatting, logging, aborting, and the record of rule breaks
 * (WARNs, lock and clock faults) that fails the running test. The only
 * place where kernel-side code reaches libc.
 */
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fairtest.h"

#define MAX_FAULTS	32

static struct ft_fault faults[MAX_FAULTS];
static int nr_faults;

/*
 * Memory a machine frees is kept for the next one (a property batch boots
 * hundreds in one process): glibc would hand large blocks back to the
 * system and fault them in again, and a page fault is dear on some VMs
 * (16 us here, most of a short sequence's time).
 */
static void __attribute__((constructor)) keep_freed_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

void *ft_host_zalloc(unsigned long size)
{
	return calloc(1, size);
}

void *ft_host_alloc(unsigned long size)
{
	return malloc(size);
}

void ft_host_free(void *p)
{
	free(p);
}

int ft_host_vformat(char *buf, unsigned long size, const char *fmt, va_list args)
{
	return vsnprintf(buf, size, fmt, args);
}

void ft_host_log(const char *msg)
{
	fprintf(stderr, "kernel: %s%s", msg,
		*msg && msg[strlen(msg) - 1] == '\n' ? "" : "\n");
}

void ft_host_abort(const char *msg)
{
	fprintf(stderr, "fairtest: kernel side aborted: %s\n", msg);
	fflush(NULL);
	abort();
}

void ft_host_fault(const struct ft_fault *fault)
{
	if (nr_faults < MAX_FAULTS)
		faults[nr_faults] = *fault;
	nr_faults++;
}

int ft_fault_count(void)
{
	return nr_faults;
}

const struct ft_fault *ft_fault_get(int i)
{
	return i >= 0 && i < nr_faults && i < MAX_FAULTS ? &faults[i] : NULL;
}

void ft_fault_reset(void)
{
	nr_faults = 0;
}

/*
 * FAIRTEST_CHECKER=full: the invariant checker visits every task at every
 * check instead of only those whose state can have changed since; the two
 * find the same violations (tests/checker/modes.sh shows it).
 */
bool ft_host_checker_full(void)
{
	static int full = -1;
	const char *mode;

	if (full < 0) {
		mode = getenv("FAIRTEST_CHECKER");
		if (mode && *mode && strcmp(mode, "full") && strcmp(mode, "incremental")) {
			fprintf(stderr, "fairtest: FAIRTEST_CHECKER=%s: not a checker mode; use full or incremental\n",
				mode);
			exit(2);
		}
		full = mode && !strcmp(mode, "full");
	}
	return full;
}

/* A bad value stops the program before it runs anything. */
static void __attribute__((constructor)) checker_mode_valid(void)
{
	ft_host_checker_full();
}

/* Unmocked by default: tests that expect seam calls install their own. */
void __attribute__((weak)) ft_host_seam_called(const char *symbol, int cpu)
{
}

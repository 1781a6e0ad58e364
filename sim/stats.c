// SPDX-License-Identifier: GPL-2.0
/*
 * Latency samples and their percentiles. Every sample is kept (a 130 s
 * run of a 3777 us periodic waker is 34k of them, a few hundred kB), so
 * percentiles are exact order statistics, not histogram buckets: the
 * same run gives the same figures on any machine.
 */
#include <stdlib.h>
#include <string.h>
#include "sim.h"

static void *grown(void *p, size_t n, size_t size)
{
	if (!(p = realloc(p, n * size)))
		abort();
	return p;
}

/*
 * 32 bits a sample while all fit: a 130 s hackbench run keeps about 20
 * million, each written once and sorted once, and half the memory is half
 * the pages to fault in and to sort through.
 */
static void widen(struct sim_samples *s)
{
	s->cap = s->cap ? s->cap : 256;
	s->v = grown(NULL, s->cap, sizeof(*s->v));
	for (size_t i = 0; i < s->n; i++)
		s->v[i] = s->w[i];
	free(s->w);
	s->w = NULL;
}

void sim_samples_put(struct sim_samples *s, ft_u64 ns)
{
	if (ns >> 32 && !s->v)
		widen(s);
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		if (s->v)
			s->v = grown(s->v, s->cap, sizeof(*s->v));
		else
			s->w = grown(s->w, s->cap, sizeof(*s->w));
	}
	if (s->v)
		s->v[s->n++] = ns;
	else
		s->w[s->n++] = ns;
	s->sum += ns;
	if (ns > s->max)
		s->max = ns;
}

/*
 * Sorted by bytes, lowest first (LSD radix): a 130 s run keeps millions
 * of samples, where qsort's comparisons were a few percent of the run.
 * Only the bytes the largest sample has are passes, and of those only
 * the bytes whose value differs between samples; an array already in
 * order (sorted once for the text report, again for --json) is left as
 * it is. One body for both widths, as a macro: T is the sample's type.
 */
#define RADIX_SORT(T, v, n, max)						\
do {										\
	T *a = (v), *b, *t;							\
	size_t i;								\
										\
	for (i = 1; i < (n) && a[i - 1] <= a[i]; i++)				\
		;								\
	if (i >= (n))								\
		break;								\
	b = grown(NULL, (n), sizeof(*b));					\
	for (int shift = 0; shift < 64 && (max) >> shift; shift += 8) {	\
		size_t at[256] = {}, sum = 0;					\
										\
		for (i = 0; i < (n); i++)					\
			at[a[i] >> shift & 0xff]++;				\
		if (at[a[0] >> shift & 0xff] == (n))				\
			continue;	/* one value of this byte: no pass */	\
		for (int d = 0; d < 256; d++) {					\
			size_t c = at[d];					\
										\
			at[d] = sum;						\
			sum += c;						\
		}								\
		for (i = 0; i < (n); i++)					\
			b[at[a[i] >> shift & 0xff]++] = a[i];			\
		t = a, a = b, b = t;						\
	}									\
	if (a != (v)) {								\
		memcpy((v), a, (n) * sizeof(*a));				\
		b = a;								\
	}									\
	free(b);								\
} while (0)

void sim_samples_sort(struct sim_samples *s)
{
	if (s->v)
		RADIX_SORT(ft_u64, s->v, s->n, s->max);
	else if (s->w)
		RADIX_SORT(unsigned int, s->w, s->n, s->max);
}

/* Nearest rank: the smallest sample with at least pct% at or below it. */
ft_u64 sim_pct(const struct sim_samples *s, double pct)
{
	size_t rank;

	if (!s->n)
		return 0;
	rank = (size_t)((pct / 100.0) * s->n + 0.999999999);
	if (rank < 1)
		rank = 1;
	if (rank > s->n)
		rank = s->n;
	return sim_sample(s, rank - 1);
}

void sim_samples_free(struct sim_samples *s)
{
	free(s->w);
	free(s->v);
	*s = (struct sim_samples){};
}

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

void sim_samples_add(struct sim_samples *s, ft_u64 ns)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
	}
	s->v[s->n++] = ns;
	s->sum += ns;
	if (ns > s->max)
		s->max = ns;
}

/*
 * Sorted by bytes, lowest first (LSD radix): a 130 s run keeps millions
 * of samples, where qsort's comparisons were a few percent of the run.
 * Only the bytes the largest sample has are passes, and of those only
 * the bytes whose value differs between samples; an array already in
 * order (a definition with one instance, merged by report.c) is left as
 * it is.
 */
void sim_samples_sort(struct sim_samples *s)
{
	ft_u64 *a = s->v, *b, max = 0;
	size_t i;

	for (i = 1; i < s->n && a[i - 1] <= a[i]; i++)
		;
	if (i >= s->n)
		return;
	b = malloc(s->n * sizeof(*b));
	if (!b)
		abort();
	for (i = 0; i < s->n; i++)
		max = a[i] > max ? a[i] : max;
	for (int shift = 0; shift < 64 && max >> shift; shift += 8) {
		size_t at[256] = {}, sum = 0;
		ft_u64 *t;

		for (i = 0; i < s->n; i++)
			at[a[i] >> shift & 0xff]++;
		if (at[a[0] >> shift & 0xff] == s->n)
			continue;	/* one value of this byte: the pass would copy */
		for (int d = 0; d < 256; d++) {
			size_t c = at[d];

			at[d] = sum;
			sum += c;
		}
		for (i = 0; i < s->n; i++)
			b[at[a[i] >> shift & 0xff]++] = a[i];
		t = a, a = b, b = t;
	}
	if (a != s->v) {
		memcpy(s->v, a, s->n * sizeof(*a));
		b = a;
	}
	free(b);
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
	return s->v[rank - 1];
}

void sim_samples_free(struct sim_samples *s)
{
	free(s->v);
	*s = (struct sim_samples){};
}

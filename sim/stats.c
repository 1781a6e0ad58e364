// SPDX-License-Identifier: GPL-2.0
/*
 * Latency samples and their percentiles. Every sample is kept (a 130 s
 * run of a 3777 us periodic waker is 34k of them, a few hundred kB), so
 * percentiles are exact order statistics, not histogram buckets: the
 * same run gives the same figures on any machine.
 */
#include <stdlib.h>
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

static int cmp(const void *a, const void *b)
{
	ft_u64 x = *(const ft_u64 *)a, y = *(const ft_u64 *)b;

	return x < y ? -1 : x > y;
}

void sim_samples_sort(struct sim_samples *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp);
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

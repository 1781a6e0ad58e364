// SPDX-License-Identifier: GPL-2.0
/*
 * The one reader of the .topo format (fixtures/topologies/), user side.
 * The test binary reads its named machines with it from the texts
 * sched_fair/topologies.sh compiles in, and fairsim reads any file with
 * it at run time, so a machine means the same thing to both and a file
 * that one accepts the other does too. Per CPU, in CPU order:
 *
 *	cpu N core cluster llc pkg capacity
 *
 * (equal ids share that level; levels must nest, as real ones do), an
 * optional energy model, one line per performance domain:
 *
 *	em CPULIST PERF:POWER_MW ...
 *
 * (its CPUs, "4-6" or "0,2"; its performance states lowest first, the
 * capacity each gives and the power a CPU draws there, in mW), optionally
 * NUMA nodes, one line each, in node order:
 *
 *	node N CPULIST DIST_TO_NODE_0 DIST_TO_NODE_1 ...
 *
 * (every CPU in one node, an LLC inside one node, distances symmetric,
 * 10 to itself and more to any other), plus "expect ..." lines (the domain
 * dump tests/topology.c compares) and
 * comments. Every mistake is reported as one line naming the line and
 * what it should be.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fairtest.h"

static int fail(char *err, size_t n, int line, const char *fmt, ...)
{
	va_list ap;
	int len = snprintf(err, n, "%d: ", line);

	va_start(ap, fmt);
	vsnprintf(err + len, n > (size_t)len ? n - len : 0, fmt, ap);
	va_end(ap);
	return -1;
}

static bool number(const char *s, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && !*end && *out >= lo && *out <= hi;
}

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* "0-3,8": a cpulist into @mask; false if malformed or past FT_MAX_CPUS. */
static bool cpulist(const char *s, ft_u64 *mask)
{
	*mask = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= FT_MAX_CPUS)
			return false;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= FT_MAX_CPUS)
				return false;
			s = end;
		}
		for (long c = a; c <= b; c++)
			*mask |= 1ULL << c;
		if (*s == ',')
			s++;
		else if (*s)
			return false;
	}
	return *mask != 0;
}

/* One performance domain: em CPULIST PERF:POWER_MW ... (lowest state first). */
static int parse_em(char **f, int nf, struct ft_topology *t, char *err, size_t n, int line)
{
	struct ft_perf_domain *pd = &t->pd[t->nr_pds];

	if (t->nr_pds == FT_MAX_PDS)
		return fail(err, n, line, "more than %d perf domains", FT_MAX_PDS);
	if (nf < 3 || !cpulist(f[1], &pd->cpus))
		return fail(err, n, line, "want: em CPULIST PERF:POWER_MW ... (CPUs as 0-3 or 0,2; "
			    "at most %d states, lowest first)", FT_MAX_PSTATES);
	if (nf - 2 > FT_MAX_PSTATES)
		return fail(err, n, line, "more than %d performance states", FT_MAX_PSTATES);
	for (int i = 2; i < nf; i++) {
		char *end;
		long perf = strtol(f[i], &end, 10), power;

		if (end == f[i] || *end != ':' || perf < 1 || perf > 1024 ||
		    !number(end + 1, 1, 1000000, &power))
			return fail(err, n, line, "state '%s' is not PERF:POWER_MW (perf 1..1024, "
				    "power 1..1000000 mW)", f[i]);
		pd->perf[pd->nr_states] = perf;
		pd->power_mw[pd->nr_states++] = power;
	}
	t->nr_pds++;
	return 0;
}

/*
 * The model must describe every CPU once, and each domain's CPUs alike;
 * its states rise in performance and in energy per unit of work (power /
 * perf), so that none is an inefficient one the kernel would flag, and
 * the top one gives the CPUs' capacity, as the kernel derives it.
 */
static int check_em(const struct ft_topology *t, const int *line, char *err, size_t n)
{
	ft_u64 seen = 0, all = t->nr_cpus == 64 ? ~0ULL : (1ULL << t->nr_cpus) - 1;

	for (int d = 0; d < t->nr_pds; d++) {
		const struct ft_perf_domain *pd = &t->pd[d];
		int first = __builtin_ctzll(pd->cpus);
		unsigned long cap = t->capacity[first] ?: 1024;

		if (pd->cpus & ~all)
			return fail(err, n, line[d], "perf domain names a CPU the machine lacks");
		if (pd->cpus & seen)
			return fail(err, n, line[d], "a CPU is in two perf domains");
		seen |= pd->cpus;
		for (int c = 0; c < t->nr_cpus; c++)
			if ((pd->cpus >> c & 1) && (t->capacity[c] ?: 1024) != cap)
				return fail(err, n, line[d], "cpus %d and %d of one perf domain differ "
					    "in capacity", first, c);
		if (pd->perf[pd->nr_states - 1] != cap)
			return fail(err, n, line[d], "top state gives %lu, the CPUs' capacity is %lu",
				    pd->perf[pd->nr_states - 1], cap);
		for (int i = 1; i < pd->nr_states; i++)
			if (pd->perf[i] <= pd->perf[i - 1] ||
			    pd->power_mw[i] * pd->perf[i - 1] <= pd->power_mw[i - 1] * pd->perf[i])
				return fail(err, n, line[d], "state %d must give more than state %d at a "
					    "higher power per unit of perf (no inefficient states)", i, i - 1);
	}
	if (t->nr_pds && seen != all)
		return fail(err, n, line[t->nr_pds - 1], "the energy model leaves out some CPUs "
			    "(every CPU needs one, or EAS cannot start)");
	return 0;
}

/* The first pair of CPUs that share a level but not the one above it. */
static int check_nesting(const struct ft_topology *t, const int *line, char *err, size_t n)
{
	static const char *const names[] = { "core", "cluster", "llc", "pkg" };
	const int *lvl[] = { t->core, t->cluster, t->llc, t->pkg };

	for (int i = 0; i < t->nr_cpus; i++)
		for (int j = 0; j < i; j++)
			for (int l = 0; l < 3; l++)
				if (lvl[l][i] == lvl[l][j] && lvl[l + 1][i] != lvl[l + 1][j])
					return fail(err, n, line[i], "cpus %d and %d share a %s but not "
						    "a %s: levels must nest (core in cluster in llc "
						    "in pkg)", j, i, names[l], names[l + 1]);
	return 0;
}

/* The node lines against the CPUs: a node each, LLCs inside, SLIT rules. */
static int check_nodes(struct ft_topology *t, const ft_u64 *cpus, int node_line,
		       char *err, size_t n)
{
	ft_u64 seen = 0;

	for (int i = 0; i < t->nr_nodes; i++) {
		if (cpus[i] & seen)
			return fail(err, n, node_line, "node %d: a CPU already in another node", i);
		seen |= cpus[i];
		for (int j = 0; j < t->nr_nodes; j++) {
			int d = t->distance[i][j];

			if (i == j ? d != 10 : d <= 10 || d > 254)
				return fail(err, n, node_line, "node %d: distance %d to node %d: want "
					    "10 to itself, 11..254 to others", i, d, j);
			if (d != t->distance[j][i])
				return fail(err, n, node_line, "distances of nodes %d and %d are not "
					    "symmetric", i, j);
		}
		for (int c = 0; c < FT_MAX_CPUS; c++)
			if (cpus[i] >> c & 1) {
				if (c >= t->nr_cpus)
					return fail(err, n, node_line, "node %d: cpu %d is not "
						    "described", i, c);
				t->node[c] = i;
			}
	}
	for (int c = 0; c < t->nr_cpus; c++) {
		if (!(seen >> c & 1))
			return fail(err, n, node_line, "cpu %d is in no node", c);
		for (int d = 0; d < c; d++)
			if (t->llc[c] == t->llc[d] && t->node[c] != t->node[d])
				return fail(err, n, node_line, "cpus %d and %d share an llc but "
					    "not a node", d, c);
	}
	return 0;
}

int ft_topology_parse(const char *text, const char *name, struct ft_topology *out,
		      char **expect, char *err, unsigned long errlen)
{
	int line = 0, cpu_line[FT_MAX_CPUS], em_line[FT_MAX_PDS], node_line = 0;
	ft_u64 node_cpus[FT_MAX_NODES];
	int node_len[FT_MAX_NODES];
	size_t exp_len = 0;

	memset(out, 0, sizeof(*out));
	out->name = name;
	if (expect)
		*expect = NULL;
	for (const char *p = text, *start; *p; ) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char buf[1024], *f[3 + FT_MAX_PSTATES + FT_MAX_NODES], *save;
		int nf = 0;

		line++;
		if (len >= sizeof(buf))
			return fail(err, errlen, line, "line too long");
		memcpy(buf, p, len);
		buf[len] = '\0';
		start = p;
		p += len + !!end;
		for (char *w = strtok_r(buf, " \t\r", &save); w && nf < (int)ARRAY_LEN(f);
		     w = strtok_r(NULL, " \t\r", &save))
			f[nf++] = w;
		if (!nf || f[0][0] == '#')
			continue;
		if (!strcmp(f[0], "expect")) {
			const char *rest = strstr(start, "expect") + 6;
			size_t rlen = len - (rest - start);

			while (rlen && (*rest == ' ' || *rest == '\t'))
				rest++, rlen--;
			if (expect) {
				char *e = realloc(*expect, exp_len + rlen + 2);

				if (!e)
					return fail(err, errlen, line, "out of memory");
				memcpy(e + exp_len, rest, rlen);
				exp_len += rlen;
				e[exp_len++] = '\n';
				e[exp_len] = '\0';
				*expect = e;
			}
			continue;
		}
		if (!strcmp(f[0], "em")) {
			if (parse_em(f, nf, out, err, errlen, line))
				return -1;
			em_line[out->nr_pds - 1] = line;
			continue;
		}
		if (!strcmp(f[0], "node")) {
			int nd = out->nr_nodes;
			long v;

			if (nd == FT_MAX_NODES)
				return fail(err, errlen, line, "more than %d nodes", FT_MAX_NODES);
			if (nf < 4 || !number(f[1], nd, nd, &v) || !cpulist(f[2], &node_cpus[nd]))
				return fail(err, errlen, line, "want: node %d CPULIST DISTANCE... "
					    "(nodes in order from 0)", nd);
			out->nr_nodes++;
			if (nf - 3 > FT_MAX_NODES)
				return fail(err, errlen, line, "node %d: more than %d distances",
					    nd, FT_MAX_NODES);
			for (int i = 3; i < nf; i++) {
				if (!number(f[i], 0, 255, &v))
					return fail(err, errlen, line, "node %d: distance '%s' is not "
						    "0..255", nd, f[i]);
				out->distance[nd][i - 3] = v;
			}
			node_len[nd] = nf - 3;	/* checked once the node count is known */
			node_line = line;
			continue;
		}
		if (strcmp(f[0], "cpu"))
			return fail(err, errlen, line, "unknown line '%s': want 'cpu N core cluster "
				    "llc pkg capacity', 'em CPULIST PERF:POWER_MW ...', 'node N CPULIST "
				    "DISTANCE...', 'expect ...' or a # comment", f[0]);
		{
			long v[6];
			int cpu = out->nr_cpus;

			if (cpu == FT_MAX_CPUS)
				return fail(err, errlen, line, "more than %d CPUs", FT_MAX_CPUS);
			if (nf != 7 || !number(f[1], cpu, cpu, &v[0]))
				return fail(err, errlen, line, "want: cpu %d core cluster llc pkg "
					    "capacity (CPUs in order from 0)", cpu);
			for (int i = 1; i < 5; i++)
				if (!number(f[i + 1], 0, 1 << 20, &v[i]))
					return fail(err, errlen, line, "cpu %d: '%s' is not an id "
						    ">= 0", cpu, f[i + 1]);
			if (!number(f[6], 0, 1024, &v[5]))
				return fail(err, errlen, line, "cpu %d: capacity '%s' is not 1..1024 "
					    "(0 = 1024)", cpu, f[6]);
			out->core[cpu] = v[1];
			out->cluster[cpu] = v[2];
			out->llc[cpu] = v[3];
			out->pkg[cpu] = v[4];
			out->capacity[cpu] = v[5];
			cpu_line[cpu] = line;
			out->nr_cpus++;
		}
	}
	if (!out->nr_cpus)
		return fail(err, errlen, line, "no 'cpu N core cluster llc pkg capacity' lines");
	for (int i = 0; i < out->nr_nodes; i++) {
		if (node_len[i] != out->nr_nodes)
			return fail(err, errlen, node_line, "node %d has %d distances for %d nodes",
				    i, node_len[i], out->nr_nodes);
	}
	if (out->nr_nodes && check_nodes(out, node_cpus, node_line, err, errlen))
		return -1;
	if (check_nesting(out, cpu_line, err, errlen))
		return -1;
	return check_em(out, em_line, err, errlen);
}

int ft_topology_read(const char *path, struct ft_topology *out, char *err,
		     unsigned long errlen)
{
	static char name[256];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	FILE *f = fopen(path, "r");
	char *text = NULL, why[512];
	size_t len = 0;
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (getdelim(&text, &len, '\0', f) < 0 && !text) {
		fclose(f);
		snprintf(err, errlen, "%s: cannot read it", path);
		return -1;
	}
	fclose(f);
	snprintf(name, sizeof(name), "%.*s", (int)(strcspn(base, ".")), base);
	ret = ft_topology_parse(text ? text : "", name, out, NULL, why, sizeof(why));
	if (ret)
		snprintf(err, errlen, "%s:%s", path, why);
	free(text);
	return ret;
}

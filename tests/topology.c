// SPDX-License-Identifier: GPL-2.0
/*
 * Sched domains built by the tree's own kernel/sched/topology.c from the
 * named machines of fixtures/topologies. The shape rules hold for any
 * machine (spans nest, groups partition, capacities add up), so they are
 * checked on every CPU of every topology; the exact dump (levels, spans,
 * groups, imbalance_pct, flags) is checked against the "expect" lines of
 * each fixture, derived by hand from topology.c's rules (sd_init(), the
 * degenerate-level removal), so a change in how the tree builds domains,
 * or in the arch facts we hand it, shows up as a named difference; and
 * against a real kernel's for the machines QEMU can build.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"

static int popcount(ft_u64 x)
{
	return __builtin_popcountll(x);
}

/*
 * The flag of a level whose groups are each node's neighbourhood, and so
 * may overlap: SD_OVERLAP where the tree has it (6.12), else SD_NUMA (7.x
 * builds every NUMA level's groups that way).
 */
static unsigned int overlap_flag(void)
{
	unsigned int numa = 0;

	for (int bit = 0; ft_sd_flag_name(bit); bit++) {
		if (!strcmp(ft_sd_flag_name(bit), "OVERLAP"))
			return 1U << bit;
		if (!strcmp(ft_sd_flag_name(bit), "NUMA"))
			numa = 1U << bit;
	}
	return numa;
}

static void check_cpu_shape(struct kunit *test, const struct ft_topology *t, int cpu)
{
	struct ft_domain d[8];
	int n = ft_cpu_domains(cpu, d, 8);
	ft_u64 child = 1ULL << cpu;

	KUNIT_ASSERT_GE(test, n, 0);
	for (int i = 0; i < n; i++) {
		ft_u64 all = 0;
		unsigned long cap = 0, want = 0;

		KUNIT_EXPECT_TRUE_MSG(test, (d[i].span & child) == child && d[i].span != child,
				      "%s cpu%d: level %s does not strictly contain its child",
				      t->name, cpu, d[i].name);
		KUNIT_EXPECT_EQ_MSG(test, popcount(d[i].span), d[i].span_weight,
				    "%s cpu%d %s", t->name, cpu, d[i].name);
		KUNIT_EXPECT_GE_MSG(test, d[i].nr_groups, 2, "%s cpu%d %s: one group only",
				    t->name, cpu, d[i].name);
		KUNIT_EXPECT_TRUE_MSG(test, d[i].group_span[0] >> cpu & 1,
				      "%s cpu%d %s: first group is not the CPU's own",
				      t->name, cpu, d[i].name);
		/* A NUMA level of nodes at several distances (SD_OVERLAP) has
		 * groups that overlap by design: they cover it, no more. */
		bool overlap = d[i].flags & overlap_flag();

		for (int g = 0; g < d[i].nr_groups; g++) {
			if (!overlap)
				KUNIT_EXPECT_EQ_MSG(test, all & d[i].group_span[g], 0,
						    "%s cpu%d %s: groups overlap", t->name, cpu,
						    d[i].name);
			all |= d[i].group_span[g];
			cap += d[i].group_capacity[g];
		}
		KUNIT_EXPECT_EQ_MSG(test, all, d[i].span, "%s cpu%d %s: groups do not cover the span",
				    t->name, cpu, d[i].name);
		for (int c = 0; c < t->nr_cpus; c++)
			if (d[i].span >> c & 1)
				want += t->capacity[c] ?: 1024;
		if (!overlap)
			KUNIT_EXPECT_EQ_MSG(test, cap, want, "%s cpu%d %s: group capacities",
					    t->name, cpu, d[i].name);
		child = d[i].span;
	}
	/* The top level spans the machine; a one-CPU machine has none. */
	if (t->nr_cpus > 1)
		KUNIT_EXPECT_EQ_MSG(test, n ? d[n - 1].span : 0, (2ULL << (t->nr_cpus - 1)) - 1,
				    "%s cpu%d: top level", t->name, cpu);
	else
		KUNIT_EXPECT_EQ(test, n, 0);
	KUNIT_EXPECT_EQ_MSG(test, ft_cpu_capacity(cpu), t->capacity[cpu] ?: 1024,
			    "%s cpu%d: rq capacity", t->name, cpu);
}

/*
 * Every named topology, booted in turn. Expect on every CPU: each level
 * strictly contains the one below (topology.c drops levels that add
 * nothing), has at least two groups, its first group holds the CPU, the
 * groups partition the span and their capacities add up to the span's,
 * the top level spans the machine, and rq->cpu_capacity is the arch's.
 */
static void every_topology_builds_nested_domains(struct kunit *test)
{
	for (int i = 0; i < ft_topology_count(); i++) {
		const struct ft_topology *t = ft_topology_get(i);

		KUNIT_ASSERT_EQ_MSG(test, ft_boot_topology(t), 0, "%s", t->name);
		for (int cpu = 0; cpu < t->nr_cpus; cpu++)
			check_cpu_shape(test, t, cpu);
	}
	ft_shutdown();
}

/* The expect lines of @name about @cpu, in order. */
static void expected_for(const char *all, int cpu, char *buf, size_t size)
{
	char prefix[16];
	size_t len = 0;

	snprintf(prefix, sizeof(prefix), "cpu%d ", cpu);
	buf[0] = 0;
	for (const char *line = all; *line; ) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line + 1) : strlen(line);

		if (!strncmp(line, prefix, strlen(prefix)) && len + n < size) {
			memcpy(buf + len, line, n);
			len += n;
			buf[len] = 0;
		}
		line += n;
	}
}

/*
 * Boots @t and compares each CPU's dump with its lines in @all: every CPU
 * (@every; a CPU without lines has no domain), or only those @all names.
 * Returns how many CPUs were compared.
 */
static int compare_dumps(struct kunit *test, const struct ft_topology *t, const char *all,
			 bool every, const char *what)
{
	int checked = 0;

	KUNIT_ASSERT_EQ_MSG(test, ft_boot_topology(t), 0, "%s", t->name);
	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		char want[2048], got[2048];

		expected_for(all, cpu, want, sizeof(want));
		if (!*want && !every)
			continue;
		ft_domain_dump(cpu, got, sizeof(got));
		KUNIT_EXPECT_STREQ_MSG(test, got, want, "%s cpu%d: ours vs %s", t->name, cpu, what);
		checked++;
	}
	return checked;
}

/*
 * Each topology with expect lines in its fixture. Expect the dump of every
 * CPU those lines name to equal them, level for level.
 */
static void domain_dump_matches_fixture(struct kunit *test)
{
	int checked = 0;

	for (int i = 0; i < ft_topology_count(); i++) {
		const struct ft_topology *t = ft_topology_get(i);
		const char *expect = ft_topology_expect(t->name);

		if (expect && *expect)
			checked += compare_dumps(test, t, expect, false, "the expect lines");
	}
	kunit_info(test, "%d CPUs' dumps checked", checked);
	KUNIT_EXPECT_GT(test, checked, 0);
	ft_shutdown();
}

/*
 * Each topology of which a real kernel of this tree's series printed its
 * domains, booted under QEMU with the same shape (make domains-xcheck;
 * fixtures/topologies/qemu/SERIES/). Expect our dump of every CPU to equal
 * the kernel's, renumbered to the fixture's CPUs: the same levels with
 * the same names, spans, groups in the same order, imbalance_pct and
 * flags. Skips, saying so, where no dump is of this tree's series.
 */
static void domain_dump_matches_real_kernel(struct kunit *test)
{
	char why[256] = "no real kernel's dump in fixtures/topologies/qemu";
	int checked = 0, machines = 0;

	for (int i = 0; i < ft_topology_count(); i++) {
		const struct ft_topology *t = ft_topology_get(i);
		const char *none, *real = ft_topology_real(t->name, &none);

		if (!real) {
			if (none)	/* there are, of other trees */
				snprintf(why, sizeof(why), "%s", none);
			continue;
		}
		checked += compare_dumps(test, t, real, true, "the real kernel's");
		machines++;
	}
	ft_shutdown();
	if (!machines)
		kunit_skip(test, "%s", why);
	kunit_info(test, "%d machines, %d CPUs compared with a real kernel's", machines, checked);
}

static struct kunit_case topology_cases[] = {
	KUNIT_CASE(every_topology_builds_nested_domains),
	KUNIT_CASE(domain_dump_matches_fixture),
	KUNIT_CASE(domain_dump_matches_real_kernel),
	{}
};

static struct kunit_suite topology_suite = {
	.name = "fair_topology",
	.test_cases = topology_cases,
};

kunit_test_suites(&topology_suite);

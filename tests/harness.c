// SPDX-License-Identifier: GPL-2.0
/*
 * Harness glue between the runner and the fake kernel: every case starts
 * with no recorded faults and ends by failing if the kernel side recorded
 * any (WARN with its file:line, or a shim rule such as a lock taken twice,
 * resolved to file:line with addr2line). Also the cmocka mock for seams.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "fiu_host.h"
#include "snapshot.h"

/*
 * A worker's snapshot leaves the slab arena's uncarved part alone: the
 * arena's bookkeeping is restored, which forgets what a case carved, and
 * the region is mapped before the snapshot, so no case adds a mapping
 * (which would end the worker).
 */
static void slab_unused(char **start, size_t *len)
{
	unsigned long n;

	ft_host_slab_unused(start, &n);
	*len = n;
}

static void __attribute__((constructor)) snapshot_leaves_slab_arena(void)
{
	snapshot_leave(slab_unused);
}

static bool mock_resched;

void ft_mock_resched_enable(bool on)
{
	mock_resched = on;
}

void mock_resched_curr(int cpu)
{
	function_called();
	check_expected(cpu);
}

void ft_host_seam_called(const char *symbol, int cpu)
{
	if (mock_resched && !strcmp(symbol, "resched_curr"))
		mock_resched_curr(cpu);
}

/* Fault injection (shim/fiu_host.c): FAIRTEST_FAULTS, FIU_PRNG_SEED. */
void kunit_hook_run_begin(int argc, char **argv)
{
	ft_inject_setup();
}

void kunit_hook_header(void)
{
	ft_inject_header();
}

static void report_injected(struct kunit *test)
{
	for (int i = 0; i < FT_FP_NR; i++)
		if (ft_inject_fired(i))
			kunit_info(test, "failure point %s fired %lu times",
				   ft_inject_name(i), ft_inject_fired(i));
}

void kunit_hook_case_begin(struct kunit *test)
{
	ft_inject_case_begin(test->suite->name, test->name);
	ft_memcheck_case_begin();
	ft_fault_reset();
	mock_resched = false;
}

/* file:line of a code address in this binary, for shim-detected faults. */
static void where(void *addr, char *buf, size_t size)
{
	char cmd[128], line[256];
	FILE *f;

	snprintf(buf, size, "%p", addr);
	/* -i: inlined frames too; the last line is the outermost caller. */
	snprintf(cmd, sizeof(cmd), "addr2line -i -e /proc/%d/exe %p 2>/dev/null",
		 (int)getpid(), (void *)((char *)addr - 1));
	f = popen(cmd, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		snprintf(buf, size, "%s", line);
	}
	pclose(f);
}

void ft_fault_describe(const struct ft_fault *f, char *buf, size_t size)
{
	char loc[256];

	if (!f->file && !f->caller) {	/* the checker names its own place */
		snprintf(buf, size, "%s: %s", f->what, f->msg);
		return;
	}
	if (f->file)
		snprintf(loc, sizeof(loc), "%s:%d", f->file, f->line);
	else
		where(f->caller, loc, sizeof(loc));
	snprintf(buf, size, "%s at %s%s%s", f->what, loc, *f->msg ? ": " : "", f->msg);
}

void kunit_hook_case_end(struct kunit *test)
{
	int n = ft_fault_count();

	for (int i = 0; i < n; i++) {
		const struct ft_fault *f = ft_fault_get(i);
		char text[600];

		if (!f) {
			KUNIT_FAIL(test, "%d more faults not shown", n - i);
			break;
		}
		ft_fault_describe(f, text, sizeof(text));
		KUNIT_FAIL(test, "%s", text);
	}
	report_injected(test);
	ft_shutdown();
	ft_memcheck_case_end(test);
}

int ft_test_boot(struct kunit *test, int nr_cpus)
{
	int err = ft_boot(nr_cpus);

	KUNIT_ASSERT_EQ_MSG(test, err, 0, "ft_boot(%d) failed", nr_cpus);
	return 0;
}

void ft_test_boot_topology(struct kunit *test, const char *name)
{
	const struct ft_topology *topo = ft_topology_find(name);
	int err;

	KUNIT_ASSERT_NOT_NULL_MSG(test, topo, "no topology %s in fixtures/topologies", name);
	err = ft_boot_topology(topo);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "ft_boot_topology(%s) failed", name);
}

void ft_span_str(ft_u64 span, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (int cpu = 0; cpu < FT_MAX_CPUS && len < size; cpu++) {
		int last = cpu;

		if (!(span >> cpu & 1))
			continue;
		while (last + 1 < FT_MAX_CPUS && (span >> (last + 1) & 1))
			last++;
		len += snprintf(buf + len, size - len, len ? ",%d" : "%d", cpu);
		if (last > cpu && len < size)
			len += snprintf(buf + len, size - len, "-%d", last);
		cpu = last;
	}
}

void ft_domain_dump(int cpu, char *buf, size_t size)
{
	struct ft_domain d[8];
	int n = ft_cpu_domains(cpu, d, 8);
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < n && len < size; i++) {
		char span[128];

		ft_span_str(d[i].span, span, sizeof(span));
		len += snprintf(buf + len, size - len, "cpu%d %s span=%s groups=", cpu,
				d[i].name, span);
		for (int g = 0; g < d[i].nr_groups && len < size; g++) {
			ft_span_str(d[i].group_span[g], span, sizeof(span));
			len += snprintf(buf + len, size - len, "%s%s", g ? "|" : "", span);
		}
		if (len < size)
			len += snprintf(buf + len, size - len, " pct=%u flags=", d[i].imbalance_pct);
		for (int bit = 0, first = 1; ft_sd_flag_name(bit) && len < size; bit++) {
			if (!(d[i].flags & (1u << bit)))
				continue;
			len += snprintf(buf + len, size - len, "%s%s", first ? "" : ",",
					ft_sd_flag_name(bit));
			first = 0;
		}
		if (len < size)
			len += snprintf(buf + len, size - len, "\n");
	}
}

int ft_test_boot_one_cpu(struct kunit *test)
{
	return ft_test_boot(test, 1);
}

int ft_test_boot_two_cpus(struct kunit *test)
{
	return ft_test_boot(test, 2);
}

void ft_test_require(struct kunit *test, const char *feature)
{
	const char *why = ft_tree_lacks(feature);

	if (why)
		kunit_skip(test, "%s", why);
}

void ft_test_features(struct kunit *test, ...)
{
	const char *spec;
	va_list ap;

	va_start(ap, test);
	while ((spec = va_arg(ap, const char *))) {
		bool optional = *spec == '?';
		bool on = spec[optional] != '!';
		const char *name = spec + optional + !on;

		if (ft_feature_get(name) < 0) {
			if (optional)
				continue;
			va_end(ap);
			kunit_skip(test, "tree has no sched feature %s", name);
		}
		ft_feature_set(name, on);
	}
	va_end(ap);
}

void ft_test_finding(struct kunit *test, const char *finding, bool reproduced,
		     const char *what)
{
	bool known = ft_tree_has_finding(finding);

	KUNIT_EXPECT_FALSE_MSG(test, reproduced && !known,
			       "fair.c breaks the rule (%s) on a tree without finding %s", what, finding);
	KUNIT_EXPECT_FALSE_MSG(test, known && !reproduced,
			       "finding %s no longer reproduces on this tree; update sched_fair/probe.sh",
			       finding);
	if (known && reproduced)
		kunit_skip(test, "XFAIL known finding %s of the tree reproduced: %s", finding, what);
}

int ft_test_entities(struct kunit *test, int cpu, int group, struct ft_entity *out)
{
	int n = ft_cfs_entities(cpu, group, out, FT_MAX_ENTITIES);

	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_ASSERT_LE(test, n, FT_MAX_ENTITIES);
	return n;
}

ft_s64 ft_exact_v(const struct ft_entity *ents, int n)
{
	__int128 sum = 0, load = 0, q;

	if (!n)
		return 0;
	for (int i = 0; i < n; i++) {
		sum += (__int128)ents[i].avg_weight * (ents[i].vruntime - ents[0].vruntime);
		load += ents[i].avg_weight;
	}
	q = sum / load;
	if (q * load > sum)	/* floor, not truncation */
		q--;
	return ents[0].vruntime + (ft_s64)q;
}

ft_s64 ft_test_exact_v(struct kunit *test, int cpu, int group)
{
	struct ft_entity ents[FT_MAX_ENTITIES];
	int curr = ft_curr(cpu);

	if (curr > 0)	/* brings the running task's vruntime up to date */
		ft_test_info(test, curr);

	return ft_exact_v(ents, ft_test_entities(test, cpu, group, ents));
}

int ft_test_fork(struct kunit *test, int nice, int cpu)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int id;

	attr.nice = nice;
	attr.cpu = cpu;
	id = ft_task_fork(&attr);
	KUNIT_ASSERT_GT_MSG(test, id, 0, "fork(nice %d, cpu %d) failed", nice, cpu);
	return id;
}

struct ft_task_info ft_test_info(struct kunit *test, int id)
{
	struct ft_task_info info;

	KUNIT_ASSERT_EQ_MSG(test, ft_task_info(id, &info), 0, "no task %d", id);
	return info;
}

/*
 * How long tasks started on @cpu may take to spread over the machine,
 * from its domains: level by level (a task crosses the upper ones before
 * the lower ones can spread it), each pass at most max_interval apart
 * (msecs_to_jiffies(), whole ticks); per level, ceil(log2(groups)) passes
 * that each halve the imbalance between groups, plus cache_nice_tries + 1
 * that may fail while the waiting tasks are cache hot; one tick to notice.
 */
ft_u64 ft_spread_bound_ns(int cpu)
{
	struct ft_domain d[8];
	int n = ft_cpu_domains(cpu, d, 8);
	ft_u64 tick = ft_tick_nsec(), bound = tick;

	for (int l = 0; l < n; l++) {
		ft_u64 ms = d[l].max_interval, passes = d[l].cache_nice_tries + 1;

		for (int g = 1; g < d[l].nr_groups; g *= 2)
			passes++;
		bound += passes * ((ms * NSEC_PER_MSEC + tick - 1) / tick) * tick;
	}
	return bound;
}

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

void kunit_hook_case_end(struct kunit *test)
{
	int n = ft_fault_count();

	for (int i = 0; i < n; i++) {
		const struct ft_fault *f = ft_fault_get(i);
		char loc[256];

		if (!f) {
			KUNIT_FAIL(test, "%d more faults not shown", n - i);
			break;
		}
		if (f->file)
			snprintf(loc, sizeof(loc), "%s:%d", f->file, f->line);
		else
			where(f->caller, loc, sizeof(loc));
		KUNIT_FAIL(test, "%s at %s%s%s", f->what, loc, *f->msg ? ": " : "", f->msg);
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

int ft_test_boot_one_cpu(struct kunit *test)
{
	return ft_test_boot(test, 1);
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

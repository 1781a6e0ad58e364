// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/panic.c and kernel/sched/debug.c. With our asm/bug.h
 * override, WARN() arrives at warn_slowpath_fmt() with the kernel file and
 * line: it is recorded as a fault, and the runner fails the running test
 * with it. BUG() arrives at panic(), which ends the test process (the
 * runner reports the abort). Debug dumps are not expected: abort.
 */
#include <linux/kernel.h>
#include <linux/panic.h>
#include <linux/stdarg.h>
#include "../ksched.h"
#include "seam.h"

void warn_slowpath_fmt(const char *file, const int line, unsigned int taint,
		       const char *fmt, ...)
{
	struct ft_fault fault = { .what = "WARN", .file = file, .line = line };
	va_list args;

	if (fmt) {
		va_start(args, fmt);
		ft_host_vformat(fault.msg, sizeof(fault.msg), fmt, args);
		va_end(args);
	}
	ft_host_fault(&fault);
}

void panic(const char *fmt, ...)
{
	char msg[160];
	va_list args;

	va_start(args, fmt);
	ft_host_vformat(msg, sizeof(msg), fmt, args);
	va_end(args);
	ft_host_abort(msg);
}

void ft_fault_here(const char *what, void *caller, const char *fmt, ...)
{
	struct ft_fault fault = { .what = what, .caller = caller };
	va_list args;

	va_start(args, fmt);
	ft_host_vformat(fault.msg, sizeof(fault.msg), fmt, args);
	va_end(args);
	ft_host_fault(&fault);
}

void __noreturn ft_seam_abort(const char *symbol, const char *file, int line)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "seam %s (%s:%d) reached: fair.c needs behaviour the shim does not model",
		 symbol, file, line);
	ft_host_abort(msg);
}

void print_cfs_rq(struct seq_file *m, int cpu, struct cfs_rq *cfs_rq)
{
	SEAM_ABORT();
}

/* sched_verbose: topology.c prints its domains when set (off: quiet runs). */
bool sched_debug_verbose;

/* The debugfs and sysctl views of the domains: nothing to publish. */
void dirty_sched_domain_sysctl(int cpu)
{
	SEAM_NOOP();
}

void update_sched_domain_debugfs(void)
{
	SEAM_NOOP();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Memory checking per case. Under valgrind and in ASan builds every case
 * runs in a forked child (tests/kunit/runner.c), whose own exit is after its
 * verdict, so whatever memcheck or LeakSanitizer would say at exit could
 * not fail the case that caused it. Instead the case's end asks them here, after the fake kernel is shut down: under valgrind,
 * the errors memcheck counted during the case and the bytes a leak check
 * finds definitely or indirectly lost since the case began; in an ASan
 * build, LeakSanitizer's leak check. Outside both, nothing happens.
 */
#include <unistd.h>
#include <valgrind/memcheck.h>
#include "harness.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

static unsigned long errors_before, lost_before;

static unsigned long lost_now(void)
{
	unsigned long leaked = 0, dubious = 0, reachable = 0, suppressed = 0;

	VALGRIND_DO_QUICK_LEAK_CHECK;
	VALGRIND_COUNT_LEAKS(leaked, dubious, reachable, suppressed);
	(void)dubious, (void)reachable, (void)suppressed;
	return leaked;	/* definitely + indirectly lost */
}

void ft_memcheck_case_begin(void)
{
	if (!RUNNING_ON_VALGRIND)
		return;
	lost_before = lost_now();
	errors_before = VALGRIND_COUNT_ERRORS;
}

void ft_memcheck_case_end(struct kunit *test)
{
	if (RUNNING_ON_VALGRIND) {
		unsigned long lost = lost_now(), errors;

		if (lost > lost_before) {
			VALGRIND_DO_ADDED_LEAK_CHECK;	/* the details, to the log */
			KUNIT_FAIL(test, "memcheck: %lu bytes definitely or indirectly lost",
				   lost - lost_before);
		}
		errors = VALGRIND_COUNT_ERRORS;
		if (errors > errors_before)
			KUNIT_FAIL(test, "memcheck: %lu errors (valgrind log of pid %d)",
				   errors - errors_before, (int)getpid());
	}
#ifdef __SANITIZE_ADDRESS__
	if (__lsan_do_recoverable_leak_check())
		KUNIT_FAIL(test, "LeakSanitizer: leaks (report above)");
#endif
}

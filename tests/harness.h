/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fair.c suites share: booting a fresh fake machine per case and
 * small helpers over the bridge. The harness also hooks every case so that
 * a kernel WARN, a lock or a clock rule broken during it fails the case.
 */
#ifndef FAIRTEST_HARNESS_H
#define FAIRTEST_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "kunit.h"
#include "fairtest.h"

#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/* suite->init for suites that want N CPUs: set test->priv to (void *)N. */
int ft_test_boot(struct kunit *test, int nr_cpus);
int ft_test_boot_one_cpu(struct kunit *test);	/* a suite->init */

int ft_test_fork(struct kunit *test, int nice, int cpu);
struct ft_task_info ft_test_info(struct kunit *test, int id);

/* Memory checking at the edges of every case (tests/memcheck.c). */
void ft_memcheck_case_begin(void);
void ft_memcheck_case_end(struct kunit *test);

/* cmocka mock of the resched_curr seam; tests opt in per case. */
void ft_mock_resched_enable(bool on);
void mock_resched_curr(int cpu);

#endif /* FAIRTEST_HARNESS_H */

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

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/* suite->init for suites that want N CPUs: set test->priv to (void *)N. */
int ft_test_boot(struct kunit *test, int nr_cpus);
int ft_test_boot_one_cpu(struct kunit *test);	/* a suite->init */
int ft_test_boot_two_cpus(struct kunit *test);	/* a suite->init */

/*
 * Boots a named machine of fixtures/topologies with the tree's own sched
 * domains; fails the case if it is unknown or the boot fails.
 */
void ft_test_boot_topology(struct kunit *test, const char *name);
/* The "expect" lines of a named topology (sched_fair/topologies.sh). */
const char *ft_topology_expect(const char *name);
/* A real kernel's dump of @name for this tree's series, or NULL and *why. */
const char *ft_topology_real(const char *name, const char **why);
/* "0-3,8": the CPUs of a span, as the kernel prints a cpulist. */
void ft_span_str(ft_u64 span, char *buf, size_t size);
/* One line per domain level of @cpu, lowest first (tests/topology.c format). */
void ft_domain_dump(int cpu, char *buf, size_t size);

/* A recorded fault as one line: "WARN at file:line: msg", "invariant broken: ...". */
void ft_fault_describe(const struct ft_fault *f, char *buf, size_t size);

/*
 * The time tasks started on @cpu may take to spread over the machine,
 * derived from its domains' intervals (tests/harness.c says how).
 */
ft_u64 ft_spread_bound_ns(int cpu);

int ft_test_fork(struct kunit *test, int nice, int cpu);
struct ft_task_info ft_test_info(struct kunit *test, int id);

/*
 * The sched features a case depends on, and the state it needs them in:
 * "NAME" on, "!NAME" off; NULL ends the list. A tree without one of them
 * skips the case, saying which; "?!NAME" turns off a feature only newer
 * trees have (sleeper lag decay, say) and is no reason to skip where it
 * does not exist. Every case that depends on a feature's
 * behaviour says so through this, so its KTAP line carries the reason.
 */
void ft_test_features(struct kunit *test, ...) __attribute__((sentinel));

/* Skips the case, saying why, where the tree lacks @feature (ft_tree_lacks()). */
void ft_test_require(struct kunit *test, const char *feature);

/*
 * Ends a case that tests an exact rule fair.c is known to break on some
 * trees (ft_tree_has_finding()). Where the tree has the finding and the
 * case reproduced it, the case is a skip that says so (an expected
 * failure, visible in the totals); where the tree has it but the case
 * did not reproduce it, or has not but it did, the case fails.
 */
void ft_test_finding(struct kunit *test, const char *finding, bool reproduced,
		     const char *what);

/* The task of a cfs_rq's entity, for oracles over ft_cfs_entities(). */
#define FT_MAX_ENTITIES	128
int ft_test_entities(struct kunit *test, int cpu, int group, struct ft_entity *out);

/* splitmix64: the tests' only randomness, always from a printed seed. */
static inline unsigned long long ft_rand(unsigned long long *state)
{
	unsigned long long x = (*state += 0x9e3779b97f4a7c15ULL);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* V exactly: floor(sum w_i * v_i / sum w_i) over the queue, in 128 bits. */
ft_s64 ft_exact_v(const struct ft_entity *ents, int n);
/* The queue's exact V on a cfs_rq, and a task's exact lag V - v there. */
ft_s64 ft_test_exact_v(struct kunit *test, int cpu, int group);

/* Memory checking at the edges of every case (tests/memcheck.c). */
void ft_memcheck_case_begin(void);
void ft_memcheck_case_end(struct kunit *test);

/* cmocka mock of the resched_curr seam; tests opt in per case. */
void ft_mock_resched_enable(bool on);
void mock_resched_curr(int cpu);

#endif /* FAIRTEST_HARNESS_H */

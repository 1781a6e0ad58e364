// SPDX-License-Identifier: GPL-2.0
/*
 * The slab seam's addresses: fair.c orders two kmalloc'd objects by
 * address in one place at least (task_numa_group() breaks a tie between
 * two numa_groups that way), so a run's decisions stay the same only if
 * those addresses follow fair.c's own allocations, whatever the harness,
 * the checker or the simulator allocate on the host heap between them.
 */
#include <stdlib.h>
#include "harness.h"

#define CHURN	32

static void skip_unordered(struct kunit *test)
{
	const char *why = ft_host_slab_unordered();

	if (why)
		kunit_skip(test, "%s", why);
}

/*
 * The host heap given blocks and then holes below the slab objects: the
 * harness allocates CHURN blocks of the object's size, and frees them
 * after each object. Expect each object above the one before it.
 */
static void objects_come_in_allocation_order(struct kunit *test)
{
	static const unsigned long sizes[] = { 64, 64, 200, 24, 1000, 64, 5000, 200 };
	void *obj[sizeof(sizes) / sizeof(sizes[0])];
	void *churn[CHURN];

	skip_unordered(test);
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int c = 0; c < CHURN; c++)
			churn[c] = malloc(sizes[i]);
		obj[i] = ft_slab_alloc(sizes[i]);
		KUNIT_ASSERT_NOT_NULL(test, obj[i]);
		for (int c = 0; c < CHURN; c++)
			free(churn[c]);
		if (i)
			KUNIT_EXPECT_TRUE_MSG(test, (char *)obj[i] > (char *)obj[i - 1],
					      "object %u (%lu bytes) at %p, below object %u at %p",
					      i, sizes[i], obj[i], i - 1, obj[i - 1]);
	}
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		ft_slab_free(obj[i]);
}

/* Allocate, free one, allocate again: the kernel side's sequence. */
static void sequence(void *obj[4])
{
	obj[0] = ft_slab_alloc(96);
	obj[1] = ft_slab_alloc(96);
	ft_slab_free(obj[0]);
	obj[2] = ft_slab_alloc(512);
	obj[0] = ft_slab_alloc(96);
	obj[3] = ft_slab_alloc(96);
}

/*
 * The same kernel-side sequence on two machines booted in turn, the
 * harness allocating between them (blocks of those sizes, half freed).
 * Expect the second machine's objects at the first one's addresses.
 */
static void a_machine_gets_the_same_addresses_whatever_the_heap_did(struct kunit *test)
{
	void *first[4], *second[4], *churn[CHURN];

	skip_unordered(test);
	sequence(first);
	for (int i = 0; i < 4; i++)
		ft_slab_free(first[i]);
	for (int c = 0; c < CHURN; c++)
		churn[c] = malloc(c % 2 ? 96 : 512);
	for (int c = 0; c < CHURN; c += 2)
		free(churn[c]);
	KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
	sequence(second);
	for (int c = 1; c < CHURN; c += 2)
		free(churn[c]);
	for (int i = 0; i < 4; i++) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, second[i], first[i], "object %d", i);
		ft_slab_free(second[i]);
	}
}

/*
 * A machine that leaks (as 7.x's sds_double_claim does at each domain
 * rebuild): the same kernel-side sequence, one object of it left live,
 * the harness allocating, a second machine booted, the sequence again;
 * then everything freed and a third machine. Expect the second machine's
 * objects from the first's freed ones, last freed first, and past the
 * leaked one (96 bytes and a 16-byte redzone on): addresses set by the
 * case's own allocations, not the heap; and the third at the first's.
 */
static void a_leak_keeps_the_next_machine_in_allocation_order(struct kunit *test)
{
	void *first[4], *second[4], *third[4], *churn[CHURN];

	skip_unordered(test);
	sequence(first);
	for (int i = 0; i < 3; i++)
		ft_slab_free(first[i]);
	for (int c = 0; c < CHURN; c++)
		churn[c] = malloc(c % 2 ? 96 : 512);
	KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
	sequence(second);
	for (int c = 0; c < CHURN; c++)
		free(churn[c]);
	KUNIT_EXPECT_PTR_EQ(test, second[0], first[1]);
	KUNIT_EXPECT_PTR_EQ(test, second[1], first[0]);
	KUNIT_EXPECT_PTR_EQ(test, second[2], first[2]);
	KUNIT_EXPECT_PTR_EQ(test, second[3], (void *)((char *)first[3] + 96 + 16));
	ft_slab_free(first[3]);
	for (int i = 0; i < 4; i++)
		ft_slab_free(second[i]);
	KUNIT_ASSERT_EQ(test, ft_boot(1), 0);
	sequence(third);
	for (int i = 0; i < 4; i++) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, third[i], first[i], "object %d", i);
		ft_slab_free(third[i]);
	}
}

static struct kunit_case slab_cases[] = {
	KUNIT_CASE(objects_come_in_allocation_order),
	KUNIT_CASE(a_machine_gets_the_same_addresses_whatever_the_heap_did),
	KUNIT_CASE(a_leak_keeps_the_next_machine_in_allocation_order),
	{}
};

static struct kunit_suite slab_suite = {
	.name = "fairtest_harness_slab",
	.init = ft_test_boot_one_cpu,
	.test_cases = slab_cases,
};

kunit_test_suites(&slab_suite);

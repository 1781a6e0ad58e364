// SPDX-License-Identifier: GPL-2.0
/*
 * Cases that prove the runner, one for each way a case can end. Built only
 * into the selftest binary by run.sh, never into the main test binary:
 * half of these fail on purpose.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "../kunit.h"

/* Stands in for a seam of the kernel side that a test mocks. */
static void resched_seam(void)
{
	function_called();
}

/* Stands in for the harness's WARN recorder. */
static const char *pending_warn;

void kunit_hook_case_end(struct kunit *test)
{
	if (pending_warn)
		KUNIT_FAIL(test, "WARNING at %s", pending_warn);
}

static int fixture_init(struct kunit *test)
{
	static int value = 42;

	test->priv = &value;
	return 0;
}

static void passes(struct kunit *test)
{
	unsigned long long big = ~0ULL;
	struct { unsigned int bits:3; } bf = { 5 };
	const char *s = "abc";
	int neg = -1;

	KUNIT_EXPECT_EQ(test, *(int *)test->priv, 42);
	KUNIT_EXPECT_NE(test, big, 0);
	KUNIT_EXPECT_LT(test, neg, 0);
	KUNIT_EXPECT_LE(test, bf.bits, 5);
	KUNIT_EXPECT_GT(test, big, 1);
	KUNIT_EXPECT_GE(test, 0U, 0);
	KUNIT_EXPECT_TRUE(test, s);
	KUNIT_EXPECT_FALSE(test, neg > 0);
	KUNIT_EXPECT_NULL(test, NULL);
	KUNIT_EXPECT_NOT_NULL(test, s);
	KUNIT_EXPECT_PTR_EQ(test, s, s);
	KUNIT_EXPECT_PTR_NE(test, s, s + 1);
	KUNIT_EXPECT_STREQ(test, s, "abc");
	KUNIT_EXPECT_STRNEQ(test, s, "abd");
	KUNIT_ASSERT_EQ_MSG(test, 1 + 1, 2, "arithmetic broke: %d", 1 + 1);
	KUNIT_ASSERT_STREQ(test, s, "abc");
	KUNIT_SUCCEED(test);
	kunit_info(test, "seed %llu", kunit_seed());
}

static void mock_satisfied(struct kunit *test)
{
	expect_function_call(resched_seam);
	resched_seam();
	KUNIT_SUCCEED(test);
}

static void case_seed_is_stable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kunit_case_seed(test), kunit_case_seed(test));
	KUNIT_EXPECT_NE(test, kunit_case_seed(test), kunit_seed());
}

/* What one case leaves behind, which the next one must not find. */
static int scribbled;
static char *kept;

static void on_sigusr1(int sig)
{
	(void)sig;
}

static void leaves_state_behind(struct kunit *test)
{
	scribbled = 1;
	kept = malloc(1 << 20);
	KUNIT_ASSERT_NOT_NULL(test, kept);
	signal(SIGUSR1, on_sigusr1);
	setenv("FAIRTEST_SELFTEST_LEFTOVER", "1", 1);
	KUNIT_SUCCEED(test);
}

/*
 * Runs after leaves_state_behind, in the same worker when there is one
 * (run.sh runs this suite with --jobs 1). Expect none of its state.
 */
static void starts_clean(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, scribbled, 0);
	KUNIT_EXPECT_NULL(test, kept);
	KUNIT_EXPECT_PTR_EQ(test, signal(SIGUSR1, SIG_DFL), SIG_DFL);
	KUNIT_EXPECT_NULL(test, getenv("FAIRTEST_SELFTEST_LEFTOVER"));
}

static struct kunit_case good_cases[] = {
	KUNIT_CASE(passes),
	KUNIT_CASE(mock_satisfied),
	KUNIT_CASE(case_seed_is_stable),
	KUNIT_CASE(leaves_state_behind),
	KUNIT_CASE(starts_clean),
	{}
};

static struct kunit_suite good_suite = {
	.name = "runner_selftest_good",
	.init = fixture_init,
	.test_cases = good_cases,
};

static void fails_expect(struct kunit *test)
{
	int a = 3, b = 4;

	KUNIT_EXPECT_EQ(test, a, b);
	KUNIT_EXPECT_STREQ_MSG(test, "x", "y", "strings differ <&>");
	kunit_info(test, "still running after the expectations");
}

static void fails_assert(struct kunit *test)
{
	int runnable = 1;

	KUNIT_ASSERT_GT(test, runnable, 5);
	kunit_err(test, "not reached");
}

static void skips(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_%s", "FOO");
	KUNIT_FAIL(test, "not reached");
}

static void marks_skipped(struct kunit *test)
{
	kunit_mark_skipped(test, "half done");
	kunit_info(test, "goes on after kunit_mark_skipped()");
}

static void crashes(struct kunit *test)
{
	(void)test;
	raise(SIGSEGV);	/* what a NULL dereference does, without UB */
}

static void aborts(struct kunit *test)
{
	(void)test;
	abort();
}

static void exits(struct kunit *test)
{
	(void)test;
	exit(3);
}

static void hangs(struct kunit *test)
{
	(void)test;
	for (;;)
		pause();
}

static void mock_left_over(struct kunit *test)
{
	expect_function_calls(resched_seam, 2);
	resched_seam();
	KUNIT_SUCCEED(test);
}

static void warns(struct kunit *test)
{
	(void)test;
	pending_warn = "kernel/sched/fair.c:123";
}

static void chatters(struct kunit *test)
{
	printf("printed on stdout\n");
	fprintf(stderr, "printed on stderr\n");
	KUNIT_EXPECT_TRUE_MSG(test, 0, "a\nmulti-line message");
}

static struct kunit_case bad_cases[] = {
	KUNIT_CASE(fails_expect),
	KUNIT_CASE(fails_assert),
	KUNIT_CASE(skips),
	KUNIT_CASE(marks_skipped),
	KUNIT_CASE(crashes),
	KUNIT_CASE(aborts),
	KUNIT_CASE(exits),
	KUNIT_CASE(hangs),
	KUNIT_CASE(mock_left_over),
	KUNIT_CASE(warns),
	KUNIT_CASE(chatters),
	{}
};

static struct kunit_suite bad_suite = {
	.name = "runner_selftest_bad",
	.test_cases = bad_cases,
};

static void only_skips(struct kunit *test)
{
	kunit_skip(test, "nothing to do here");
}

static struct kunit_case skip_cases[] = {
	KUNIT_CASE(only_skips),
	{}
};

static struct kunit_suite skip_suite = {
	.name = "runner_selftest_all_skipped",
	.test_cases = skip_cases,
};

/* Registered out of name order: the runner must sort them. */
kunit_test_suites(&good_suite, &bad_suite);
kunit_test_suite(skip_suite);

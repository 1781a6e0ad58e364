/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit-shaped test API for fairtest's user-space runner (runner.c).
 *
 * The names follow the kernel's <kunit/test.h> so that a test written
 * here can move into the kernel. Each case runs under cmocka from the
 * same fresh process state (runner.c), so cmocka's mocks
 * (expect_function_call(), function_called(), will_return(), ...) work
 * inside cases: include
 * <stdarg.h>, <stddef.h>, <stdint.h>, <setjmp.h> and <cmocka.h> where you
 * need them. This header includes nothing itself, so that it cannot clash
 * with the kernel's own type and macro definitions.
 *
 * Differences from the kernel worth knowing:
 *  - integer comparisons evaluate each side once in the C common type of
 *    both sides, exactly like the kernel, but report each side in its own
 *    signedness;
 *  - a failure is never undone by a later kunit_skip()/kunit_mark_skipped();
 *  - a skip must carry a reason: an empty one fails the case.
 */
#ifndef FAIRTEST_KUNIT_H
#define FAIRTEST_KUNIT_H

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

#define KUNIT_STATUS_COMMENT_SIZE 256

struct kunit_suite;

/* Per-case context, fresh for every case. */
struct kunit {
	const char *name;
	struct kunit_suite *suite;
	enum kunit_status status;
	char status_comment[KUNIT_STATUS_COMMENT_SIZE];	/* the skip reason */
	void *priv;					/* for init/exit fixtures */
};

struct kunit_case {
	const char *name;
	void (*run_case)(struct kunit *test);
};

#define KUNIT_CASE(test_name) { .name = #test_name, .run_case = test_name }

struct kunit_suite {
	const char *name;
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;	/* ends with an empty {} entry */
};

/* Hooks for the harness; runner.c has weak no-op defaults. */
void kunit_hook_run_begin(int argc, char **argv);	/* once, before any case */
void kunit_hook_header(void);	/* may print "# ..." lines in the KTAP header */
void kunit_hook_case_begin(struct kunit *test);	/* in the case, before init */
void kunit_hook_case_end(struct kunit *test);	/* in the case, after exit */

/* The run's --seed, and a seed that depends only on it and the case's name. */
unsigned long long kunit_seed(void);
unsigned long long kunit_case_seed(const struct kunit *test);

/* Registration: runs at load time; the runner sorts suites by name. */
void kunit__register(struct kunit_suite **suites, unsigned long n);

#define KUNIT__PASTE2(a, b) a##b
#define KUNIT__PASTE(a, b) KUNIT__PASTE2(a, b)
#define KUNIT__REGISTER(id, ...)					\
	static struct kunit_suite *KUNIT__PASTE(kunit__suites_, id)[] =	\
		{ __VA_ARGS__ };					\
	static void __attribute__((constructor))			\
	KUNIT__PASTE(kunit__register_, id)(void)			\
	{								\
		kunit__register(KUNIT__PASTE(kunit__suites_, id),	\
			sizeof(KUNIT__PASTE(kunit__suites_, id)) /	\
			sizeof(KUNIT__PASTE(kunit__suites_, id)[0]));	\
	}								\
	_Static_assert(1, "swallows the caller's semicolon")

#define kunit_test_suites(...) KUNIT__REGISTER(__COUNTER__, __VA_ARGS__)
#define kunit_test_suite(suite) kunit_test_suites(&suite)

/* Logging: KTAP diagnostic lines under the case. */
#define KUNIT__PRINTF(f, a) __attribute__((format(printf, f, a)))

void kunit__printf(struct kunit *test, int named, const char *fmt, ...)
	KUNIT__PRINTF(3, 4);

#define kunit_info(test, ...) kunit__printf(test, 1, __VA_ARGS__)
#define kunit_warn(test, ...) kunit__printf(test, 1, __VA_ARGS__)
#define kunit_err(test, ...) kunit__printf(test, 1, __VA_ARGS__)
/* The level is not evaluated, so KERN_* need not exist in user space. */
#define kunit_log(lvl, test, ...) kunit__printf(test, 0, __VA_ARGS__)

/* Skipping: the reason is printed on the result line. */
void kunit__mark_skipped(struct kunit *test, const char *fmt, ...)
	KUNIT__PRINTF(2, 3);
void kunit__end_skipped(struct kunit *test);

#define kunit_mark_skipped(test, ...) kunit__mark_skipped(test, __VA_ARGS__)
#define kunit_skip(test, ...) do {					\
	kunit__mark_skipped(test, __VA_ARGS__);				\
	kunit__end_skipped(test);					\
} while (0)

/*
 * Expectations and assertions. Everything known at compile time travels
 * in one compound literal; the reporting functions run only on failure.
 */
struct kunit_site {
	const char *file;
	int line;
	int is_assert;		/* an assertion ends the case */
	const char *op;
	const char *left, *right;	/* source text */
};

#define KUNIT__SITE(a, op, l, r)					\
	(&(const struct kunit_site){ __FILE__, __LINE__, (a), (op), (l), (r) })

/* typeof(x + 0) promotes bit-fields, which typeof() cannot take. */
#define KUNIT__SIGNED(x) (!((typeof((x) + 0))-1 > 0))

void kunit__int_failed(struct kunit *test, const struct kunit_site *site,
		       unsigned long long left, int left_signed,
		       unsigned long long right, int right_signed,
		       const char *fmt, ...) KUNIT__PRINTF(7, 8);
void kunit__ptr_failed(struct kunit *test, const struct kunit_site *site,
		       const void *left, const void *right,
		       const char *fmt, ...) KUNIT__PRINTF(5, 6);
void kunit__str_failed(struct kunit *test, const struct kunit_site *site,
		       const char *left, const char *right,
		       const char *fmt, ...) KUNIT__PRINTF(5, 6);
void kunit__bool_failed(struct kunit *test, const struct kunit_site *site,
			int expected, const char *fmt, ...) KUNIT__PRINTF(4, 5);
void kunit__failed(struct kunit *test, const struct kunit_site *site,
		   const char *fmt, ...) KUNIT__PRINTF(3, 4);
int kunit__strcmp(const char *a, const char *b);	/* NULL-safe */

/*
 * Copies in the common type of both sides keep each side evaluated once
 * and keep -Wsign-compare quiet about literals; casting back through the
 * side's own type recovers its value for the report.
 */
#define KUNIT__INT(test, a, op, l, lt, r, rt, ...) do {		\
	const typeof((l) + (r)) __kl = (l), __kr = (r);			\
	if (!(__kl op __kr))						\
		kunit__int_failed(test, KUNIT__SITE(a, #op, lt, rt),	\
			(unsigned long long)(typeof((l) + 0))__kl,	\
			KUNIT__SIGNED(l),				\
			(unsigned long long)(typeof((r) + 0))__kr,	\
			KUNIT__SIGNED(r), __VA_ARGS__);			\
} while (0)

#define KUNIT__PTR(test, a, op, l, lt, r, rt, ...) do {		\
	const void *__kl = (l), *__kr = (r);				\
	if (!(__kl op __kr))						\
		kunit__ptr_failed(test, KUNIT__SITE(a, #op, lt, rt),	\
				  __kl, __kr, __VA_ARGS__);		\
} while (0)

#define KUNIT__STR(test, a, op, l, lt, r, rt, ...) do {		\
	const char *__kl = (l), *__kr = (r);				\
	if (!(kunit__strcmp(__kl, __kr) op 0))				\
		kunit__str_failed(test, KUNIT__SITE(a, #op, lt, rt),	\
				  __kl, __kr, __VA_ARGS__);		\
} while (0)

#define KUNIT__BOOL(test, a, want, c, ct, ...) do {			\
	if (((c) ? 1 : 0) != (want))					\
		kunit__bool_failed(test, KUNIT__SITE(a, "", ct, ""),	\
				   want, __VA_ARGS__);			\
} while (0)

#define KUNIT__NULL ((void *)0)

#define KUNIT_SUCCEED(test) ((void)(test))
#define KUNIT_FAIL(test, ...)						\
	kunit__failed(test, KUNIT__SITE(0, "", "", ""), __VA_ARGS__)
#define KUNIT_ASSERT_FAILURE(test, ...)					\
	kunit__failed(test, KUNIT__SITE(1, "", "", ""), __VA_ARGS__)

/* The plain forms pass a NULL message; the _MSG forms add a printf one. */
#define KUNIT_EXPECT_EQ(t, l, r) KUNIT__INT(t, 0, ==, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_NE(t, l, r) KUNIT__INT(t, 0, !=, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_LT(t, l, r) KUNIT__INT(t, 0, <, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_LE(t, l, r) KUNIT__INT(t, 0, <=, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_GT(t, l, r) KUNIT__INT(t, 0, >, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_GE(t, l, r) KUNIT__INT(t, 0, >=, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_TRUE(t, c) KUNIT__BOOL(t, 0, 1, c, #c, KUNIT__NULL)
#define KUNIT_EXPECT_FALSE(t, c) KUNIT__BOOL(t, 0, 0, c, #c, KUNIT__NULL)
#define KUNIT_EXPECT_NULL(t, p)						\
	KUNIT__PTR(t, 0, ==, p, #p, KUNIT__NULL, "NULL", KUNIT__NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)					\
	KUNIT__PTR(t, 0, !=, p, #p, KUNIT__NULL, "NULL", KUNIT__NULL)
#define KUNIT_EXPECT_PTR_EQ(t, l, r) KUNIT__PTR(t, 0, ==, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_PTR_NE(t, l, r) KUNIT__PTR(t, 0, !=, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_STREQ(t, l, r) KUNIT__STR(t, 0, ==, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_EXPECT_STRNEQ(t, l, r) KUNIT__STR(t, 0, !=, l, #l, r, #r, KUNIT__NULL)

#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...) KUNIT__INT(t, 0, ==, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, ...) KUNIT__INT(t, 0, !=, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, ...) KUNIT__INT(t, 0, <, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, ...) KUNIT__INT(t, 0, <=, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, ...) KUNIT__INT(t, 0, >, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...) KUNIT__INT(t, 0, >=, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...) KUNIT__BOOL(t, 0, 1, c, #c, __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...) KUNIT__BOOL(t, 0, 0, c, #c, __VA_ARGS__)
#define KUNIT_EXPECT_NULL_MSG(t, p, ...)				\
	KUNIT__PTR(t, 0, ==, p, #p, KUNIT__NULL, "NULL", __VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, ...)				\
	KUNIT__PTR(t, 0, !=, p, #p, KUNIT__NULL, "NULL", __VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, ...) KUNIT__PTR(t, 0, ==, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE_MSG(t, l, r, ...) KUNIT__PTR(t, 0, !=, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_STREQ_MSG(t, l, r, ...) KUNIT__STR(t, 0, ==, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(t, l, r, ...) KUNIT__STR(t, 0, !=, l, #l, r, #r, __VA_ARGS__)

#define KUNIT_ASSERT_EQ(t, l, r) KUNIT__INT(t, 1, ==, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_NE(t, l, r) KUNIT__INT(t, 1, !=, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_LT(t, l, r) KUNIT__INT(t, 1, <, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_LE(t, l, r) KUNIT__INT(t, 1, <=, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_GT(t, l, r) KUNIT__INT(t, 1, >, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_GE(t, l, r) KUNIT__INT(t, 1, >=, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_TRUE(t, c) KUNIT__BOOL(t, 1, 1, c, #c, KUNIT__NULL)
#define KUNIT_ASSERT_FALSE(t, c) KUNIT__BOOL(t, 1, 0, c, #c, KUNIT__NULL)
#define KUNIT_ASSERT_NULL(t, p)						\
	KUNIT__PTR(t, 1, ==, p, #p, KUNIT__NULL, "NULL", KUNIT__NULL)
#define KUNIT_ASSERT_NOT_NULL(t, p)					\
	KUNIT__PTR(t, 1, !=, p, #p, KUNIT__NULL, "NULL", KUNIT__NULL)
#define KUNIT_ASSERT_PTR_EQ(t, l, r) KUNIT__PTR(t, 1, ==, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_PTR_NE(t, l, r) KUNIT__PTR(t, 1, !=, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_STREQ(t, l, r) KUNIT__STR(t, 1, ==, l, #l, r, #r, KUNIT__NULL)
#define KUNIT_ASSERT_STRNEQ(t, l, r) KUNIT__STR(t, 1, !=, l, #l, r, #r, KUNIT__NULL)

#define KUNIT_ASSERT_EQ_MSG(t, l, r, ...) KUNIT__INT(t, 1, ==, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(t, l, r, ...) KUNIT__INT(t, 1, !=, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, ...) KUNIT__INT(t, 1, <, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, ...) KUNIT__INT(t, 1, <=, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(t, l, r, ...) KUNIT__INT(t, 1, >, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, ...) KUNIT__INT(t, 1, >=, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, ...) KUNIT__BOOL(t, 1, 1, c, #c, __VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(t, c, ...) KUNIT__BOOL(t, 1, 0, c, #c, __VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(t, p, ...)				\
	KUNIT__PTR(t, 1, ==, p, #p, KUNIT__NULL, "NULL", __VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, ...)				\
	KUNIT__PTR(t, 1, !=, p, #p, KUNIT__NULL, "NULL", __VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ_MSG(t, l, r, ...) KUNIT__PTR(t, 1, ==, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE_MSG(t, l, r, ...) KUNIT__PTR(t, 1, !=, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_STREQ_MSG(t, l, r, ...) KUNIT__STR(t, 1, ==, l, #l, r, #r, __VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ_MSG(t, l, r, ...) KUNIT__STR(t, 1, !=, l, #l, r, #r, __VA_ARGS__)

#endif /* FAIRTEST_KUNIT_H */

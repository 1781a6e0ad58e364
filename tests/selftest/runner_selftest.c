// SPDX-License-Identifier: GPL-2.0
/*
 * Cases that prove the runner, one for each way a case can end. Built only
 * into the selftest binary by run.sh, never into the main test binary:
 * half of these fail on purpose.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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
/* Where nothing is mapped until leaves_state_behind maps it. */
#define LEFT_MAPPED	((void *)0x5a5a00000000UL)
#define LEFT_FD		100

/* The process as the runner started it, before any worker or case. */
static struct {
	pid_t runner;
	const char *env;
	mode_t umask;
	char cwd[PATH_MAX];
	struct rlimit nofile;
	int nice;
} start;

static void __attribute__((constructor)) note_start(void)
{
	start.runner = getpid();
	start.env = getenv("FAIRTEST_SELFTEST_ORIG");
	start.umask = umask(0);
	umask(start.umask);
	if (!getcwd(start.cwd, sizeof(start.cwd)))
		start.cwd[0] = 0;
	getrlimit(RLIMIT_NOFILE, &start.nofile);
	start.nice = getpriority(PRIO_PROCESS, 0);
}

static void on_sigusr1(int sig)
{
	(void)sig;
}

/*
 * Changes the process everywhere a case can: memory (globals, heap, the
 * environment the process started with), signal actions, mask, a pending
 * signal and a timer, umask, cwd, a file descriptor, a mapping, a limit
 * and its nice level. Expect it to pass; starts_clean checks what it left.
 */
static void leaves_state_behind(struct kunit *test)
{
	struct rlimit nofile = start.nofile;
	sigset_t usr2;

	scribbled = 1;
	kept = malloc(1 << 20);
	KUNIT_ASSERT_NOT_NULL(test, kept);
	signal(SIGUSR1, on_sigusr1);
	setenv("FAIRTEST_SELFTEST_LEFTOVER", "1", 1);
	setenv("FAIRTEST_SELFTEST_ORIG", "changed", 1);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	raise(SIGUSR2);
	alarm(1);
	umask(077);
	KUNIT_ASSERT_EQ(test, chdir("/"), 0);
	KUNIT_ASSERT_EQ(test, dup2(STDOUT_FILENO, LEFT_FD), LEFT_FD);
	KUNIT_ASSERT_PTR_EQ(test, mmap(LEFT_MAPPED, 4096, PROT_READ,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0),
			    LEFT_MAPPED);
	if (nofile.rlim_cur > LEFT_FD + 1) {
		nofile.rlim_cur--;
		KUNIT_ASSERT_EQ(test, setrlimit(RLIMIT_NOFILE, &nofile), 0);
	}
	KUNIT_ASSERT_EQ(test, setpriority(PRIO_PROCESS, 0, start.nice + 1), 0);
	KUNIT_SUCCEED(test);
}

/*
 * Runs after leaves_state_behind, in the same worker when there is one
 * (run.sh runs this suite with --jobs 1). Expect none of its state: the
 * process as a fresh fork of the runner has it (or a crash by SIGALRM).
 */
static void starts_clean(struct kunit *test)
{
	const char *env = getenv("FAIRTEST_SELFTEST_ORIG");
	char cwd[PATH_MAX];
	struct rlimit nofile;
	sigset_t mask;
	mode_t mode;

	KUNIT_EXPECT_EQ(test, scribbled, 0);
	KUNIT_EXPECT_NULL(test, kept);
	KUNIT_EXPECT_PTR_EQ(test, signal(SIGUSR1, SIG_DFL), SIG_DFL);
	KUNIT_EXPECT_NULL(test, getenv("FAIRTEST_SELFTEST_LEFTOVER"));
	KUNIT_EXPECT_STREQ(test, env ? env : "(unset)", start.env ? start.env : "(unset)");
	KUNIT_EXPECT_EQ(test, alarm(0), 0);
	sigprocmask(SIG_SETMASK, NULL, &mask);
	KUNIT_EXPECT_FALSE(test, sigismember(&mask, SIGUSR2));
	sigpending(&mask);
	KUNIT_EXPECT_FALSE(test, sigismember(&mask, SIGUSR2));
	mode = umask(0);
	umask(mode);
	KUNIT_EXPECT_EQ(test, mode, start.umask);
	KUNIT_ASSERT_NOT_NULL(test, getcwd(cwd, sizeof(cwd)));
	KUNIT_EXPECT_STREQ(test, cwd, start.cwd);
	KUNIT_EXPECT_EQ(test, fcntl(LEFT_FD, F_GETFD), -1);
	KUNIT_EXPECT_EQ(test, msync(LEFT_MAPPED, 4096, MS_ASYNC), -1);
	getrlimit(RLIMIT_NOFILE, &nofile);
	KUNIT_EXPECT_EQ(test, nofile.rlim_cur, start.nofile.rlim_cur);
	KUNIT_EXPECT_EQ(test, getpriority(PRIO_PROCESS, 0), start.nice);
}

/*
 * Forks a child that fails the case (quietly) and returns from it, as a
 * careless test might. Expect the verdict of the case's own process, and
 * the child to end there, not to go on running cases as a second worker
 * would (it would hold the runner's socket, and the next case might run
 * in it).
 */
static void forked_child_returns(struct kunit *test)
{
	struct timespec ms = { 0, 1000000 };
	pid_t pid = fork();
	int waited = 0;

	if (!pid) {
		test->status = KUNIT_FAILURE;
		return;
	}
	KUNIT_ASSERT_GT(test, pid, 0);
	while (waitpid(pid, NULL, WNOHANG) == 0 && waited++ < 1000)
		nanosleep(&ms, NULL);
	if (waited > 1000) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		KUNIT_FAIL(test, "the case's child is still running a second later");
	}
}

/* Runs after forked_child_returns. Expect to run in a child of the runner. */
static void runs_in_a_child_of_the_runner(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, getppid(), start.runner);
}

static struct kunit_case good_cases[] = {
	KUNIT_CASE(passes),
	KUNIT_CASE(mock_satisfied),
	KUNIT_CASE(case_seed_is_stable),
	KUNIT_CASE(leaves_state_behind),
	KUNIT_CASE(starts_clean),
	KUNIT_CASE(forked_child_returns),
	KUNIT_CASE(runs_in_a_child_of_the_runner),
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

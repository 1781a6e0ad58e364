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
#include <sys/time.h>
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
/* Where nothing is mapped until leaves_a_mapping maps it. */
#define LEFT_MAPPED	((void *)0x5a5a00000000UL)
#define LEFT_FD		100

/* The process as the runner started it, before any worker or case. */
static struct {
	const char *env;
	mode_t umask;
	char cwd[PATH_MAX];
	struct rlimit nofile;
	int nice;
} start;

static void __attribute__((constructor)) note_start(void)
{
	start.env = getenv("FAIRTEST_SELFTEST_ORIG");
	start.umask = umask(0);
	umask(start.umask);
	if (!getcwd(start.cwd, sizeof(start.cwd)))
		start.cwd[0] = 0;
	getrlimit(RLIMIT_NOFILE, &start.nofile);
	start.nice = getpriority(PRIO_PROCESS, 0);
}

/*
 * Which process ran the case, for run.sh: a case after one that left
 * what a worker cannot put back must run in a new worker, and one after
 * a case that left only what it can put back in the same.
 */
static void note_process(struct kunit *test)
{
	const char *log = getenv("FAIRTEST_SELFTEST_PIDS");
	int fd;

	if (!log)
		return;
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	KUNIT_ASSERT_GE(test, fd, 0);
	dprintf(fd, "%s %d\n", test->name, (int)getpid());
	close(fd);
}

static void on_sigusr1(int sig)
{
	(void)sig;
}

/*
 * Changes what a worker puts back: memory (globals, heap, the environment
 * the process started with), signal actions, mask and stack, interval
 * timers, umask, cwd. Expect it to pass; starts_clean checks what it left.
 */
static void leaves_state_a_restore_puts_back(struct kunit *test)
{
	static char altstack[1 << 16];
	const struct itimerval later = { .it_value = { 1000, 0 } };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	sigset_t usr2;

	note_process(test);
	scribbled = 1;
	kept = malloc(1 << 20);
	KUNIT_ASSERT_NOT_NULL(test, kept);
	signal(SIGUSR1, on_sigusr1);
	/* first: a new variable would move the environment to the heap */
	setenv("FAIRTEST_SELFTEST_ORIG", "changed", 1);
	setenv("FAIRTEST_SELFTEST_LEFTOVER", "1", 1);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	KUNIT_ASSERT_EQ(test, sigaltstack(&ss, NULL), 0);
	alarm(1000);
	KUNIT_ASSERT_EQ(test, setitimer(ITIMER_VIRTUAL, &later, NULL), 0);
	umask(077);
	KUNIT_ASSERT_EQ(test, chdir("/"), 0);
	KUNIT_SUCCEED(test);
}

/*
 * Runs after leaves_state_a_restore_puts_back, in the same worker when
 * there is one (run.sh runs this suite with --jobs 1 and checks that).
 * Expect none of its state: the process as a fresh fork of the runner has it.
 */
static void starts_clean(struct kunit *test)
{
	const char *env = getenv("FAIRTEST_SELFTEST_ORIG");
	struct itimerval timer;
	char cwd[PATH_MAX];
	sigset_t mask;
	stack_t ss;
	mode_t mode;

	note_process(test);
	KUNIT_EXPECT_EQ(test, scribbled, 0);
	KUNIT_EXPECT_NULL(test, kept);
	KUNIT_EXPECT_PTR_EQ(test, signal(SIGUSR1, SIG_DFL), SIG_DFL);
	KUNIT_EXPECT_NULL(test, getenv("FAIRTEST_SELFTEST_LEFTOVER"));
	KUNIT_EXPECT_STREQ(test, env ? env : "(unset)", start.env ? start.env : "(unset)");
	sigprocmask(SIG_SETMASK, NULL, &mask);
	KUNIT_EXPECT_FALSE(test, sigismember(&mask, SIGUSR2));
	KUNIT_ASSERT_EQ(test, sigaltstack(NULL, &ss), 0);
	KUNIT_EXPECT_TRUE(test, ss.ss_flags & SS_DISABLE);
	KUNIT_EXPECT_EQ(test, alarm(0), 0);
	KUNIT_ASSERT_EQ(test, getitimer(ITIMER_VIRTUAL, &timer), 0);
	KUNIT_EXPECT_EQ(test, timer.it_value.tv_sec, 0);
	mode = umask(0);
	umask(mode);
	KUNIT_EXPECT_EQ(test, mode, start.umask);
	KUNIT_ASSERT_NOT_NULL(test, getcwd(cwd, sizeof(cwd)));
	KUNIT_EXPECT_STREQ(test, cwd, start.cwd);
}

/*
 * Each of the next cases leaves one thing a worker cannot put back.
 * Expect each to pass, and the case after it to run in a new worker:
 * run.sh checks that from the processes noted. (A pending signal that
 * kills would end the worker anyway, a moment later.)
 */
static void leaves_a_pending_signal(struct kunit *test)
{
	sigset_t usr2;

	note_process(test);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	raise(SIGUSR2);
}

static void leaves_a_file_open(struct kunit *test)
{
	note_process(test);
	KUNIT_EXPECT_EQ(test, dup2(STDOUT_FILENO, LEFT_FD), LEFT_FD);
}

static void leaves_a_mapping(struct kunit *test)
{
	note_process(test);
	KUNIT_EXPECT_PTR_EQ(test, mmap(LEFT_MAPPED, 4096, PROT_READ,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0),
			    LEFT_MAPPED);
}

static void leaves_a_lower_limit(struct kunit *test)
{
	struct rlimit nofile = start.nofile;

	note_process(test);
	nofile.rlim_cur--;
	KUNIT_EXPECT_EQ(test, setrlimit(RLIMIT_NOFILE, &nofile), 0);
}

static void leaves_a_nicer_process(struct kunit *test)
{
	note_process(test);
	KUNIT_EXPECT_EQ(test, setpriority(PRIO_PROCESS, 0, start.nice + 1), 0);
}

static void leaves_a_child(struct kunit *test)
{
	siginfo_t child;
	pid_t pid;

	note_process(test);
	pid = fork();
	if (!pid)
		_exit(0);
	KUNIT_ASSERT_GT(test, pid, 0);
	/* ended, its SIGCHLD gone by, not reaped */
	KUNIT_EXPECT_EQ(test, waitid(P_PID, pid, &child, WEXITED | WNOWAIT), 0);
}

static void leaves_a_posix_timer(struct kunit *test)
{
	struct sigevent none = { .sigev_notify = SIGEV_NONE };
	timer_t timer;

	note_process(test);
	KUNIT_EXPECT_EQ(test, timer_create(CLOCK_MONOTONIC, &none, &timer), 0);
}

/*
 * Runs after leaves_a_posix_timer, and after the others through the
 * workers that followed them. Expect none of what they left, the timer
 * first of all: run.sh's check of the processes sees a worker that kept
 * another leftover, this case one that kept it through every later case.
 */
static void starts_with_nothing_left(struct kunit *test)
{
	siginfo_t child = { 0 };
	struct rlimit nofile;
	sigset_t pending;
	FILE *timers;

	note_process(test);
	timers = fopen("/proc/self/timers", "r");
	if (timers) {
		KUNIT_EXPECT_EQ(test, fgetc(timers), EOF);
		fclose(timers);
	}
	sigpending(&pending);
	KUNIT_EXPECT_FALSE(test, sigismember(&pending, SIGUSR2));
	KUNIT_EXPECT_EQ(test, fcntl(LEFT_FD, F_GETFD), -1);
	KUNIT_EXPECT_EQ(test, msync(LEFT_MAPPED, 4096, MS_ASYNC), -1);
	getrlimit(RLIMIT_NOFILE, &nofile);
	KUNIT_EXPECT_EQ(test, nofile.rlim_cur, start.nofile.rlim_cur);
	KUNIT_EXPECT_EQ(test, getpriority(PRIO_PROCESS, 0), start.nice);
	KUNIT_EXPECT_EQ(test, waitid(P_ALL, 0, &child, WEXITED | WNOHANG | WNOWAIT), -1);
}

/*
 * Forks a child that fails the case (quietly), arms a WARN for the case's
 * end and returns from the case, as a careless test might. Expect the
 * verdict of the case's own process, the child to end there, without the
 * case's teardown, and not to go on running cases as a second worker
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
		pending_warn = "a child's teardown";
		return;
	}
	KUNIT_ASSERT_GT(test, pid, 0);
	while (waitpid(pid, NULL, WNOHANG) == 0 && waited++ < 10000)
		nanosleep(&ms, NULL);
	if (waited > 10000) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		KUNIT_FAIL(test, "the case's child is still running ten seconds later");
	}
}

static struct kunit_case good_cases[] = {
	KUNIT_CASE(passes),
	KUNIT_CASE(mock_satisfied),
	KUNIT_CASE(case_seed_is_stable),
	KUNIT_CASE(leaves_state_a_restore_puts_back),
	KUNIT_CASE(starts_clean),
	KUNIT_CASE(leaves_a_pending_signal),
	KUNIT_CASE(leaves_a_file_open),
	KUNIT_CASE(leaves_a_mapping),
	KUNIT_CASE(leaves_a_lower_limit),
	KUNIT_CASE(leaves_a_nicer_process),
	KUNIT_CASE(leaves_a_child),
	KUNIT_CASE(leaves_a_posix_timer),
	KUNIT_CASE(starts_with_nothing_left),
	KUNIT_CASE(forked_child_returns),
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

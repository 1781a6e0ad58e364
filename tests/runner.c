// SPDX-License-Identifier: GPL-2.0
/*
 * fairtest's user-space KUnit runner.
 *
 * Every case runs under cmocka in a process of its own or in a worker
 * that puts its memory back as it was before each case (snapshot.c), so
 * every case starts from the same state, a crash, a hang or a stray
 * exit() costs one case and not the run, and cmocka's mock bookkeeping
 * starts clean for every case. The child's stdout and stderr
 * go to a temporary file which the parent turns into KTAP diagnostics; the
 * verdict comes back over a pipe of its own, so nothing a case prints can
 * forge it. The parent prints KTAP as the kernel's KUnit does, and no
 * times, so the same run gives the same bytes.
 */
#define _GNU_SOURCE
/* From the build (sched_fair/build.mk): the tree this binary tests. */
#ifndef FT_TREE_DESC
#define FT_TREE_DESC "unknown"
#endif
#ifndef FT_PROFILE_DESC
#define FT_PROFILE_DESC "unknown"
#define FT_PROFILE_KERNEL "unknown"
#define FT_PROFILE_DIFF ""
#endif
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <valgrind/valgrind.h>

#include "kunit.h"
#include "snapshot.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_SUITES	1024
#define MAX_CASE_LINES	500	/* a runaway printk loop must not drown the report */
#define MAX_AHEAD	128	/* ended cases waiting to be printed hold two files each */
#define RECORD		('\036')	/* starts a line this API wrote, not the case */
#define DROP_NOTE	'!'	/* record: drop cmocka's echo of this assertion */
#define GROUP		"fairtest"

static struct kunit_suite *suites[MAX_SUITES];
static size_t nr_suites;

static struct {
	unsigned long long seed;
	unsigned int timeout;
	const char *junit;
	bool list;
	const char **filters;
	int nr_filters;
	size_t jobs;		/* 0 until parsed: the online CPUs */
	bool fork_each;
} opt = { .seed = 1, .timeout = 30 };

/* ASan's shadow memory is not ours to save (gcc and clang say so differently) */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN true
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN true
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN false
#endif

/* libgcov's, in --coverage builds (linked with -Wl,-u,__gcov_dump); else NULL. */
extern void __gcov_dump(void) __attribute__((weak));

/* Exits with code after one "fairtest: ..." line on stderr. */
static void __attribute__((noreturn, format(printf, 2, 3)))
quit(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fairtest: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(code);
}

struct verdict {
	enum kunit_status status;
	char comment[KUNIT_STATUS_COMMENT_SIZE];
};

void kunit__register(struct kunit_suite **list, unsigned long n)
{
	for (; n; n--, list++) {
		if (nr_suites == MAX_SUITES)
			quit(2, "more than %d suites", MAX_SUITES);
		suites[nr_suites++] = *list;
	}
}

__attribute__((weak)) void kunit_hook_run_begin(int argc, char **argv)
{
	(void)argc;
	(void)argv;
}

__attribute__((weak)) void kunit_hook_header(void)
{
}

__attribute__((weak)) void kunit_hook_case_begin(struct kunit *test)
{
	(void)test;
}

__attribute__((weak)) void kunit_hook_case_end(struct kunit *test)
{
	(void)test;
}

unsigned long long kunit_seed(void)
{
	return opt.seed;
}

static unsigned long long mix64(unsigned long long x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* FNV-1a: the name alone picks the seed, so a filtered run replays it. */
static unsigned long long hash_str(unsigned long long h, const char *s)
{
	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

unsigned long long kunit_case_seed(const struct kunit *test)
{
	unsigned long long h = 0xcbf29ce484222325ULL;

	h = hash_str(hash_str(h, test->suite->name), ".");
	return mix64(opt.seed ^ mix64(hash_str(h, test->name)));
}

/* ---- the API: runs in the case's child ---- */

static struct {
	struct kunit test;
	const struct kunit_case *kcase;
	bool in_cmocka;		/* cmocka's longjmp target is live */
	bool init_failed, exit_started, end_started;
	pid_t pid;		/* the case's own process */
} cur;

/* One record per line, so every line keeps its place in the stream. */
static void vemit(const char *lead, const char *name, const char *fmt,
		  va_list ap)
{
	char *s, *line, *next;

	if (vasprintf(&s, fmt, ap) < 0)
		return;
	for (line = s; line; line = next) {
		next = strchr(line, '\n');
		if (next && !*++next)
			next = NULL;
		printf("%c%s%s%s%.*s\n", RECORD, lead, name ? name : "",
		       name ? ": " : "", (int)strcspn(line, "\n"), line);
	}
	free(s);
}

static void __attribute__((format(printf, 2, 3)))
emitf(const char *lead, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(lead, NULL, fmt, ap);
	va_end(ap);
}

void kunit__printf(struct kunit *test, int named, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit("# ", named ? test->name : NULL, fmt, ap);
	va_end(ap);
}

static void fail_head(struct kunit *test, const struct kunit_site *site)
{
	kunit__printf(test, 1, "%s FAILED at %s:%d", site->is_assert ?
		      "ASSERTION" : "EXPECTATION", site->file, site->line);
	test->status = KUNIT_FAILURE;
}

/* An assertion ends the case through cmocka, which still runs exit(). */
static void stop_if_assert(const struct kunit_site *site)
{
	/* Outside cmocka there is nowhere to jump: it counts as an expectation. */
	if (!site->is_assert || !cur.in_cmocka)
		return;
	/* cmocka repeats the location; the parent drops that echo. */
	printf("%c%c%s:%d: error: Failure!\n", RECORD, DROP_NOTE, site->file,
	       site->line);
	_fail(site->file, site->line);
	abort();	/* _fail() returns only when cmocka runs no test */
}

#define FAIL_TAIL(site, fmt) do {					\
	va_list ap;							\
									\
	if (fmt) {							\
		va_start(ap, fmt);					\
		vemit("", NULL, fmt, ap);				\
		va_end(ap);						\
	}								\
	stop_if_assert(site);						\
} while (0)

static void int_line(const char *text, unsigned long long v, int is_signed)
{
	char dec[24];

	if (is_signed)
		snprintf(dec, sizeof(dec), "%lld", (long long)v);
	else
		snprintf(dec, sizeof(dec), "%llu", v);
	if (strcmp(dec, text))	/* a literal already shows its value */
		emitf("    ", "%s == %s (0x%llx)", text, dec, v);
}

void kunit__int_failed(struct kunit *test, const struct kunit_site *site,
		       unsigned long long l, int ls, unsigned long long r,
		       int rs, const char *fmt, ...)
{
	fail_head(test, site);
	emitf("", "Expected %s %s %s, but", site->left, site->op, site->right);
	int_line(site->left, l, ls);
	int_line(site->right, r, rs);
	FAIL_TAIL(site, fmt);
}

static void ptr_line(const char *text, const void *p)
{
	if (!strcmp(text, "NULL"))
		return;
	if (p)
		emitf("    ", "%s == %p", text, p);
	else
		emitf("    ", "%s == NULL", text);
}

void kunit__ptr_failed(struct kunit *test, const struct kunit_site *site,
		       const void *l, const void *r, const char *fmt, ...)
{
	fail_head(test, site);
	emitf("", "Expected %s %s %s, but", site->left, site->op, site->right);
	ptr_line(site->left, l);
	ptr_line(site->right, r);
	FAIL_TAIL(site, fmt);
}

static void str_line(const char *text, const char *s)
{
	size_t n = strlen(text);

	if (!s)
		emitf("    ", "%s == NULL", text);
	else if (n < 2 || text[0] != '"' || strncmp(text + 1, s, n - 2) ||
		 s[n - 2])	/* a literal already shows its value */
		emitf("    ", "%s == \"%s\"", text, s);
}

void kunit__str_failed(struct kunit *test, const struct kunit_site *site,
		       const char *l, const char *r, const char *fmt, ...)
{
	fail_head(test, site);
	emitf("", "Expected %s %s %s, but", site->left, site->op, site->right);
	str_line(site->left, l);
	str_line(site->right, r);
	FAIL_TAIL(site, fmt);
}

void kunit__bool_failed(struct kunit *test, const struct kunit_site *site,
			int expected, const char *fmt, ...)
{
	fail_head(test, site);
	emitf("", "Expected %s to be %s, but is %s", site->left,
	      expected ? "true" : "false", expected ? "false" : "true");
	FAIL_TAIL(site, fmt);
}

void kunit__failed(struct kunit *test, const struct kunit_site *site,
		   const char *fmt, ...)
{
	fail_head(test, site);
	FAIL_TAIL(site, fmt);
}

int kunit__strcmp(const char *a, const char *b)
{
	if (!a || !b)
		return a == b ? 0 : a ? 1 : -1;
	return strcmp(a, b);
}

void kunit__mark_skipped(struct kunit *test, const char *fmt, ...)
{
	char *c = test->status_comment;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c, sizeof(test->status_comment), fmt, ap);
	va_end(ap);
	for (size_t i = 0; c[i]; i++)	/* it goes on the one result line */
		if (c[i] == '\n')
			c[i] = ' ';
	for (size_t n = strlen(c); n && c[n - 1] == ' '; n--)
		c[n - 1] = 0;
	if (!c[0]) {
		kunit__printf(test, 1, "skipped without a reason; a skip must say why");
		test->status = KUNIT_FAILURE;
	} else if (test->status != KUNIT_FAILURE) {
		/* a later skip never hides an earlier failure */
		test->status = KUNIT_SKIPPED;
	}
}

void kunit__end_skipped(struct kunit *test)
{
	(void)test;
	if (cur.in_cmocka)
		_skip(__FILE__, __LINE__);
}

/* ---- the child: one case under cmocka ---- */

/*
 * cmocka turns SIGSEGV and friends into a longjmp; running exit() on a
 * half-updated scheduler after that proves nothing, so let the signal
 * kill the child and have the parent report the crash.
 */
static void default_crash_signals(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS };

	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
}

/* exit() and the end hook run once, even if an assertion skipped them. */
static void finish_case(void)
{
	if (!cur.exit_started) {
		cur.exit_started = true;
		if (cur.test.suite->exit)
			cur.test.suite->exit(&cur.test);
	}
	if (!cur.end_started) {
		cur.end_started = true;
		kunit_hook_case_end(&cur.test);
	}
}

/*
 * Ends a child that the case (or its suite's init or exit) forked and did
 * not end, before it runs the case's teardown or gives a verdict: both
 * are the case's own process's.
 */
static void end_if_forked(void)
{
	if (getpid() != cur.pid)
		_exit(0);
}

static int cm_setup(void **state)
{
	int rc = 0;

	(void)state;
	cur.in_cmocka = true;
	default_crash_signals();
	kunit_hook_case_begin(&cur.test);
	if (cur.test.suite->init)
		rc = cur.test.suite->init(&cur.test);
	if (rc) {
		kunit__printf(&cur.test, 1, "failed to initialize: %d", rc);
		cur.test.status = KUNIT_FAILURE;
		cur.init_failed = true;
	}
	return 0;	/* cmocka skips the teardown after a failed setup */
}

static void cm_test(void **state)
{
	(void)state;
	default_crash_signals();
	if (!cur.init_failed)
		cur.kcase->run_case(&cur.test);
	end_if_forked();
}

static int cm_teardown(void **state)
{
	(void)state;
	default_crash_signals();
	finish_case();
	return 0;
}

/* What every process that runs cases sets up once. */
static void child_setup(void)
{
	/* a hung case must not outlive a runner killed from outside */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* unbuffered, so records stay in order with everything else */
	setvbuf(stdout, NULL, _IONBF, 0);
	/* the parent reads cmocka's TAP mode: the environment must not switch it */
	unsetenv("CMOCKA_MESSAGE_OUTPUT");
	unsetenv("CMOCKA_XML_FILE");
	unsetenv("CMOCKA_TEST_ABORT");
	cmocka_set_message_output(CM_OUTPUT_TAP);
}

/* One case, its output to @out; its verdict to @vfd, which is closed. */
static void run_one(struct kunit_suite *suite, const struct kunit_case *kcase,
		    int out, int vfd)
{
	const struct CMUnitTest group[] = { {
		.name = kcase->name, .test_func = cm_test,
		.setup_func = cm_setup, .teardown_func = cm_teardown,
	} };
	struct verdict v = { 0 };
	int rc = 0;

	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	cur.test = (struct kunit){ .name = kcase->name, .suite = suite };
	cur.kcase = kcase;
	cur.pid = getpid();
	if (suite->suite_init)
		rc = suite->suite_init(suite);
	if (rc) {
		kunit__printf(&cur.test, 1, "suite_init failed: %d", rc);
		cur.test.status = KUNIT_FAILURE;
	} else {
		/* a leftover mock expectation fails only in cmocka's eyes */
		if (_cmocka_run_group_tests(GROUP, group, 1, NULL, NULL))
			cur.test.status = KUNIT_FAILURE;
		cur.in_cmocka = false;
		finish_case();
		if (suite->suite_exit)
			suite->suite_exit(suite);
	}
	end_if_forked();
	v.status = cur.test.status;
	memcpy(v.comment, cur.test.status_comment, sizeof(v.comment));
	/* _exit() skips gcov's exit handler: write --coverage counters here. */
	if (__gcov_dump)
		__gcov_dump();
	if (write(vfd, &v, sizeof(v)) != sizeof(v))
		_exit(3);
	close(vfd);
}

static void __attribute__((noreturn))
run_child(struct kunit_suite *suite, const struct kunit_case *kcase,
	  int out, int vfd)
{
	child_setup();
	run_one(suite, kcase, out, vfd);
	_exit(0);
}

/* ---- the parent: KTAP out of children ---- */

struct result {
	struct kunit_suite *suite;
	const struct kunit_case *kcase;
	enum kunit_status status;
	const char *directive;	/* TIMEOUT or ERROR: the child gave no verdict */
	char *reason;		/* the skip reason, or why there is no verdict */
	char *diag;		/* the case's diagnostics, for JUnit */
	/* while it runs: the child, its verdict pipe, its captured output */
	pid_t pid;
	int verdict_fd;
	FILE *cap;
	struct verdict v;
	size_t got;		/* bytes of v read so far */
	bool ended;		/* its pipe is closed: the child is gone */
	int worker;		/* the worker running it, or -1: a child of its own */
	int wstatus;		/* how its worker ended, if the case ended it */
};

/* ---- workers ---- */

/*
 * A worker runs case after case, each from the same saved state
 * (snapshot.c): a fork and a hundred page faults less per case. It gets
 * the case's number with the case's output file and verdict pipe; a case
 * that crashes, hangs or exits ends its worker, and the parent tells that
 * case as it tells a child of its own, and starts another worker. Builds
 * whose state is not all in memory we can save (--coverage's counters
 * are written per process, ASan's shadow, valgrind's) and --fork-each run
 * a process per case.
 */
static struct worker {
	pid_t pid;	/* 0: not running */
	int sock;
	bool busy;
	bool ready;	/* its state is back: it has said so */
} *workers;
static bool fork_each;

/*
 * Sends a byte each time its state is back as saved, so that a worker
 * that ends between cases (it could not put back what a case changed) is
 * never blamed on the next.
 */
static void __attribute__((noreturn)) run_worker(const struct result *all, int sock)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	size_t i;
	struct iovec iov = { .iov_base = &i, .iov_len = sizeof(i) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	int fds[2];
	char ready = 1;

	child_setup();
	if (snapshot_take() || write(sock, &ready, 1) != 1)
		_exit(4);
	for (;;) {
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		if (recvmsg(sock, &msg, 0) != sizeof(i) || !CMSG_FIRSTHDR(&msg))
			_exit(0);	/* the parent is done with us */
		memcpy(fds, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(fds));
		run_one(all[i].suite, all[i].kcase, fds[0], fds[1]);
		close(fds[0]);
		if (!snapshot_restore() || write(sock, &ready, 1) != 1)
			_exit(0);
	}
}

/* Starts worker @w; false if a worker cannot run here (then fork_each). */
static bool start_worker(const struct result *all, struct worker *w)
{
	int sv[2];
	char ready;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		quit(1, "socketpair: %s", strerror(errno));
	fflush(NULL);	/* or the worker would print our buffered output too */
	w->pid = fork();
	if (w->pid < 0)
		quit(1, "cannot fork: %s", strerror(errno));
	if (!w->pid) {
		/* other cases' pipes must not stay open in here */
		if ((sv[1] != 3 && dup2(sv[1], 3) < 0) || close_range(4, ~0U, 0))
			_exit(4);
		run_worker(all, 3);
	}
	close(sv[1]);
	w->sock = sv[0];
	w->busy = false;
	w->ready = read(w->sock, &ready, 1) == 1;
	if (w->ready)
		return true;
	close(w->sock);
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	fprintf(stderr, "fairtest: no worker could start here (its snapshot or close_range() failed); one process per case\n");
	return false;
}

/* Closes worker @w's socket, which ends it if a case has not, and reaps it. */
static void end_worker(struct worker *w, int *wstatus)
{
	close(w->sock);
	while (waitpid(w->pid, wstatus, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	w->busy = false;
}

/*
 * Worker @w, idle, ready for a case: a new one if it ended between cases,
 * or is still not back after the time a case gets.
 */
static bool ready_worker(const struct result *all, struct worker *w)
{
	struct pollfd back = { .fd = w->sock, .events = POLLIN };
	int limit = opt.timeout && opt.timeout < INT_MAX / 1000 ? (int)opt.timeout * 1000 : -1;
	char ready;

	if (w->pid && !w->ready) {
		w->ready = poll(&back, 1, limit) == 1 &&
			   read(w->sock, &ready, 1) == 1;
		if (!w->ready) {
			kill(w->pid, SIGKILL);
			end_worker(w, NULL);
		}
	}
	return w->pid || start_worker(all, w);
}

/* Hands case @res to an idle worker; false if none can take it. */
static bool give_to_worker(struct result *all, struct result *res, int vfd)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = { 0 };
	size_t i = res - all;
	struct iovec iov = { .iov_base = &i, .iov_len = sizeof(i) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int fds[2] = { fileno(res->cap), vfd };

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	for (size_t w = 0; w < opt.jobs; w++) {
		if (workers[w].busy)
			continue;
		if (!ready_worker(all, &workers[w]))
			return false;
		if (sendmsg(workers[w].sock, &msg, MSG_NOSIGNAL) != sizeof(i)) {
			end_worker(&workers[w], NULL);	/* killed from outside */
			if (!start_worker(all, &workers[w]) ||
			    sendmsg(workers[w].sock, &msg, MSG_NOSIGNAL) != sizeof(i))
				return false;
		}
		workers[w].busy = true;
		workers[w].ready = false;
		res->worker = w;
		res->pid = workers[w].pid;
		return true;
	}
	quit(1, "no idle worker for %s", res->kcase->name);
}

/* A case's pipe closed: with a verdict, its worker is free for the next. */
static void case_ended(struct result *res)
{
	if (res->worker < 0)
		return;
	if (res->got == sizeof(res->v))
		workers[res->worker].busy = false;
	else
		end_worker(&workers[res->worker], &res->wstatus);
}

/* Prints one diagnostic line under the case and keeps it for JUnit. */
static void __attribute__((format(printf, 2, 3)))
diag(FILE *keep, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		quit(1, "out of memory");
	va_end(ap);
	printf("    %s\n", s);
	fprintf(keep, "%s\n", s);
	free(s);
}

static const char *after(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) ? NULL : s + n;
}

/* What a line from the case says, or NULL if it is cmocka's TAP chatter. */
static const char *case_message(const char *line, const char *name)
{
	const char *rest;

	if (!strcmp(line, "1..1") || !strcmp(line, "# ok - " GROUP) ||
	    !strcmp(line, "# not ok - " GROUP) || after(line, "not ok 1 # SKIP"))
		return NULL;
	rest = after(line, "ok 1 - ");
	if (!rest)
		rest = after(line, "not ok 1 - ");
	if (rest && after(rest, name))
		return NULL;
	rest = after(line, "# ");
	return rest ? rest : line;
}

static void copy_output(FILE *cap, FILE *keep, const char *name)
{
	char *line = NULL, *drop = NULL;
	unsigned int lines = 0, dropped = 0;
	size_t size = 0;
	ssize_t n;

	rewind(cap);
	while ((n = getline(&line, &size, cap)) > 0) {
		const char *msg = line + 1;

		if (line[n - 1] == '\n')
			line[n - 1] = 0;
		if (line[0] == RECORD && line[1] == DROP_NOTE) {
			free(drop);
			drop = strdup(line + 2);
			continue;
		}
		if (line[0] != RECORD) {
			msg = case_message(line, name);
			if (!msg)
				continue;
			if (drop && !strcmp(msg, drop)) {
				free(drop);	/* drop the echo once */
				drop = NULL;
				continue;
			}
		}
		if (lines++ >= MAX_CASE_LINES)
			dropped++;
		else if (line[0] == RECORD)
			diag(keep, "%s", msg);
		else
			diag(keep, "# %s: %s", name, msg);
	}
	if (dropped)
		diag(keep, "# %s: %u more lines of output dropped", name, dropped);
	free(line);
	free(drop);
}

static int ms_left(const struct timespec *end)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (end->tv_sec - now.tv_sec) * 1000LL +
	     (end->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
}

/* Reads what a case's pipe holds; true when it is at its end. */
static bool take_verdict(struct result *res)
{
	char rest[64];
	ssize_t n;

	if (res->got < sizeof(res->v))
		n = read(res->verdict_fd, (char *)&res->v + res->got, sizeof(res->v) - res->got);
	else	/* a full verdict: only the end of the pipe is still to come */
		n = read(res->verdict_fd, rest, sizeof(rest));
	if (n < 0 && errno == EINTR)
		return false;
	if (n > 0 && res->got < sizeof(res->v))
		res->got += n;
	return res->ended = n <= 0;
}

/*
 * Waits until some of the running cases @from..@to - 1 end, or the one
 * awaited runs past @end; returns how many ended, or -1 for the latter.
 */
static int wait_any(struct result *all, size_t from, size_t to, const struct timespec *end)
{
	struct pollfd p[to - from];
	size_t nr = 0;
	int ready, ended = 0;

	for (size_t i = from; i < to; i++)
		if (!all[i].ended)
			p[nr++] = (struct pollfd){ .fd = all[i].verdict_fd, .events = POLLIN };
	ready = poll(p, nr, opt.timeout ? ms_left(end) : -1);
	if (ready < 0 && errno == EINTR)
		return 0;
	if (ready < 0)
		quit(1, "poll: %s", strerror(errno));
	if (ready == 0)
		return -1;
	for (size_t i = from, k = 0; i < to; i++) {
		if (!all[i].ended && p[k++].revents && take_verdict(&all[i])) {
			case_ended(&all[i]);
			ended++;
		}
	}
	return ended;
}

static void judge(struct result *res, const struct verdict *v, bool complete,
		  bool timed_out, int wstatus)
{
	int rc = 0;

	res->status = KUNIT_FAILURE;
	if (timed_out) {
		res->directive = "TIMEOUT";
		rc = asprintf(&res->reason, "timed out after %u s", opt.timeout);
	} else if (!complete && WIFSIGNALED(wstatus)) {
		res->directive = "ERROR";
		rc = asprintf(&res->reason, "crashed with signal %d (%s)",
			      WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)));
	} else if (!complete) {
		res->directive = "ERROR";
		rc = asprintf(&res->reason, "exited with status %d and no verdict",
			      WEXITSTATUS(wstatus));
	} else {
		res->status = v->status;
		if (v->status == KUNIT_SKIPPED)
			res->reason = strndup(v->comment, sizeof(v->comment));
	}
	if (rc < 0)
		quit(1, "out of memory");
}

static void print_result(const char *indent, size_t num, const char *name,
			 enum kunit_status status, const char *directive,
			 const char *reason)
{
	printf("%s%s %zu %s", indent, status == KUNIT_FAILURE ? "not ok" : "ok",
	       num, name);
	if (status == KUNIT_SKIPPED)
		printf(" # SKIP%s%s", reason ? " " : "", reason ? reason : "");
	else if (directive)
		printf(" # %s %s", directive, reason);
	putchar('\n');
}

/* Forks the child that runs one case; its verdict and output wait for us. */
static void start_case(struct result *all, struct result *res)
{
	int vp[2];

	res->cap = tmpfile();
	if (!res->cap || pipe(vp))
		quit(1, "cannot set up %s: %s", res->kcase->name, strerror(errno));
	res->worker = -1;
	if (!fork_each) {
		if (give_to_worker(all, res, vp[1])) {
			close(vp[1]);
			res->verdict_fd = vp[0];
			return;
		}
		fork_each = true;	/* no worker here: a process per case */
	}
	fflush(NULL);	/* or the child would print our buffered output too */
	res->pid = fork();
	if (res->pid < 0)
		quit(1, "cannot fork: %s", strerror(errno));
	if (res->pid == 0) {
		close(vp[0]);
		run_child(res->suite, res->kcase, fileno(res->cap), vp[1]);
	}
	close(vp[1]);
	res->verdict_fd = vp[0];
}

/*
 * Runs case @i of all @n selected ones and prints its result. Up to
 * --jobs cases run at once: whenever one ends, the next one not started
 * yet starts, ahead of @i, but every result is printed in case order, so
 * the output is the same byte for byte whatever the number of jobs. A
 * case's time limit runs from when its verdict is awaited, never shorter
 * than asked.
 */
static void run_case(struct result *all, size_t i, size_t n, size_t num)
{
	static size_t started, running;
	struct result *res = &all[i];
	struct timespec end;
	bool timed_out = false;
	size_t size;
	int wstatus = 0;
	FILE *keep;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += opt.timeout;
	for (;;) {
		int ended;

		for (; started < n && running < opt.jobs && started < i + MAX_AHEAD; running++)
			start_case(all, &all[started++]);
		if (res->ended)
			break;
		ended = wait_any(all, i, started, &end);
		if (ended < 0) {
			timed_out = true;
			running--;
			break;
		}
		running -= ended;
	}
	if (timed_out)
		kill(res->pid, SIGKILL);
	if (res->worker < 0)
		while (waitpid(res->pid, &wstatus, 0) < 0 && errno == EINTR)
			;
	else if (timed_out)
		end_worker(&workers[res->worker], &wstatus);
	else
		wstatus = res->wstatus;
	close(res->verdict_fd);

	keep = open_memstream(&res->diag, &size);
	if (!keep)
		quit(1, "out of memory");
	copy_output(res->cap, keep, res->kcase->name);
	fclose(res->cap);
	judge(res, &res->v, res->got == sizeof(res->v), timed_out, wstatus);
	if (res->directive)
		diag(keep, "# %s: %s", res->kcase->name, res->reason);
	fclose(keep);
	print_result("    ", num, res->kcase->name, res->status, res->directive,
		     res->reason);
}

struct counts {
	size_t pass, fail, skip;
};

static void count(struct counts *c, enum kunit_status status)
{
	if (status == KUNIT_SUCCESS)
		c->pass++;
	else if (status == KUNIT_FAILURE)
		c->fail++;
	else
		c->skip++;
}

static void print_counts(const char *name, const struct counts *c)
{
	printf("# %s: pass:%zu fail:%zu skip:%zu total:%zu\n", name, c->pass,
	       c->fail, c->skip, c->pass + c->fail + c->skip);
}

/* The suite of cases @first..@last - 1 of all @n selected ones. */
static void run_suite(struct result *all, size_t first, size_t last, size_t n,
		      size_t num, struct counts *total)
{
	const char *name = all[first].suite->name;
	struct counts c = { 0 };
	enum kunit_status status;

	printf("    KTAP version 1\n    # Subtest: %s\n    1..%zu\n", name, last - first);
	for (size_t i = first; i < last; i++) {
		run_case(all, i, n, i - first + 1);
		count(&c, all[i].status);
	}
	print_counts(name, &c);
	print_counts("Totals", &c);
	status = c.fail ? KUNIT_FAILURE : c.pass ? KUNIT_SUCCESS : KUNIT_SKIPPED;
	print_result("", num, name, status, NULL, NULL);
	total->pass += c.pass;
	total->fail += c.fail;
	total->skip += c.skip;
}

/* ---- JUnit ---- */

static void xml_puts(FILE *f, const char *s, bool attr)
{
	for (; s && *s; s++) {
		unsigned char ch = *s;

		if (ch == '&')
			fputs("&amp;", f);
		else if (ch == '<')
			fputs("&lt;", f);
		else if (ch == '>')
			fputs("&gt;", f);
		else if (ch == '"')
			fputs("&quot;", f);
		else if (ch == '\n' && attr)
			fputs("&#10;", f);
		else if (ch < 0x20 && ch != '\n' && ch != '\t')
			fputc('?', f);	/* not allowed in XML 1.0 at all */
		else
			fputc(ch, f);
	}
}

/* One line for JUnit: why there was no verdict, else the first diagnostic. */
static char *failure_message(const struct result *r)
{
	const char *d = r->diag ? r->diag : "", *rest = after(d, "# ");

	if (r->reason)
		return strdup(r->reason);
	rest = rest ? after(rest, r->kcase->name) : NULL;
	if (rest && after(rest, ": "))
		d = rest + 2;
	return *d && *d != '\n' ? strndup(d, strcspn(d, "\n")) : strdup("failed");
}

static void junit_case(FILE *f, const struct result *r)
{
	char *msg = r->status == KUNIT_FAILURE ? failure_message(r) : NULL;

	fputs("    <testcase classname=\"", f);
	xml_puts(f, r->suite->name, true);
	fputs("\" name=\"", f);
	xml_puts(f, r->kcase->name, true);
	fputs("\"", f);
	if (r->status == KUNIT_SUCCESS) {
		fputs("/>\n", f);
	} else if (r->status == KUNIT_SKIPPED) {
		fputs(">\n      <skipped message=\"", f);
		xml_puts(f, r->reason, true);
		fputs("\"/>\n    </testcase>\n", f);
	} else {
		fputs(">\n      <failure message=\"", f);
		xml_puts(f, msg, true);
		fputs("\">", f);
		xml_puts(f, r->diag, false);
		fputs("</failure>\n    </testcase>\n", f);
	}
	free(msg);
}

static void write_junit(FILE *f, const char *tmp, const struct result *res,
			size_t n)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n", f);
	for (size_t i = 0, j; i < n; i = j) {
		struct counts c = { 0 };

		for (j = i; j < n && res[j].suite == res[i].suite; j++)
			count(&c, res[j].status);
		fputs("  <testsuite name=\"", f);
		xml_puts(f, res[i].suite->name, true);
		fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
			j - i, c.fail, c.skip);
		for (size_t k = i; k < j; k++)
			junit_case(f, &res[k]);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	/* written aside and renamed, so FILE is never half-written */
	if (ferror(f) | fclose(f) || rename(tmp, opt.junit))
		quit(1, "cannot write %s: %s", opt.junit, strerror(errno));
}

/* ---- options and main ---- */

static const char usage[] =
	"usage: fairtest [options] [GLOB...]\n"
	"Runs the test cases whose suite.case matches any GLOB (all by default),\n"
	"each from the same fresh state, and prints KTAP on stdout.\n"
	"  --list           print suite.case of the selected cases and exit\n"
	"  --seed N         run seed for property tests (default 1)\n"
	"  --timeout S      seconds a case may run, 0 for no limit (default 30)\n"
	"  --jobs N         cases run at once (default: the online CPUs); the\n"
	"                   output is the same for any N\n"
	"  --junit FILE     also write a JUnit XML report to FILE\n"
	"  --fork-each      a fresh process for every case, not workers that\n"
	"                   restore their memory between cases (the output is\n"
	"                   the same; coverage, ASan and valgrind runs always do)\n"
	"  --help           print this and exit\n"
	"Exit status: 0 all passed, 1 a case failed, 2 usage error.\n";

/* Takes "--name value" or "--name=value"; false if argv[*i] is not --name. */
static bool opt_value(int argc, char **argv, int *i, const char *name,
		      const char **value)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n) || (a[n] && a[n] != '='))
		return false;
	if (a[n] == '=')
		*value = a + n + 1;
	else if (*i + 1 < argc)
		*value = argv[++*i];
	else
		quit(2, "option '%s' needs a value (try --help)", name);
	return true;
}

static unsigned long long parse_num(const char *name, const char *s,
				    unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v > max)
		quit(2, "option '%s' wants a decimal number up to %llu, not '%s'",
		     name, max, s);
	return v;
}

static void parse_args(int argc, char **argv)
{
	bool only_globs = false;
	const char *v;

	opt.filters = calloc(argc, sizeof(*opt.filters));
	if (!opt.filters)
		quit(1, "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (only_globs || a[0] != '-' || !a[1]) {
			opt.filters[opt.nr_filters++] = a;
		} else if (!strcmp(a, "--")) {
			only_globs = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			exit(0);
		} else if (!strcmp(a, "--list")) {
			opt.list = true;
		} else if (!strcmp(a, "--fork-each")) {
			opt.fork_each = true;
		} else if (opt_value(argc, argv, &i, "--seed", &v)) {
			opt.seed = parse_num("--seed", v, ULLONG_MAX);
		} else if (opt_value(argc, argv, &i, "--timeout", &v)) {
			opt.timeout = parse_num("--timeout", v, UINT_MAX);
		} else if (opt_value(argc, argv, &i, "--jobs", &v)) {
			opt.jobs = parse_num("--jobs", v, 1024);
			if (!opt.jobs)
				quit(2, "option '--jobs' wants at least 1");
		} else if (opt_value(argc, argv, &i, "--junit", &v)) {
			if (!*v)
				quit(2, "option '--junit' needs a file name");
			opt.junit = v;
		} else {
			quit(2, "unknown option '%s' (try --help)", a);
		}
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct kunit_suite *const *)a)->name,
		      (*(struct kunit_suite *const *)b)->name);
}

static bool selected(const struct kunit_suite *s, const struct kunit_case *c,
		     bool *hit)
{
	bool any = !opt.nr_filters;
	char *id;

	if (asprintf(&id, "%s.%s", s->name, c->name) < 0)
		quit(1, "out of memory");
	for (int i = 0; i < opt.nr_filters; i++)
		if (!fnmatch(opt.filters[i], id, 0))
			any = hit[i] = true;
	free(id);
	return any;
}

/* Sorted by suite name, so link order cannot change the output. */
static size_t select_cases(struct result **out)
{
	bool *hit = calloc(opt.nr_filters + 1, sizeof(*hit));
	struct result *res = NULL;
	size_t n = 0;

	if (!hit)
		quit(1, "out of memory");
	qsort(suites, nr_suites, sizeof(*suites), by_name);
	for (size_t i = 0; i < nr_suites; i++) {
		struct kunit_suite *s = suites[i];
		struct kunit_case *c = s->test_cases;

		if (i && !strcmp(suites[i - 1]->name, s->name))
			quit(2, "two suites are named '%s'", s->name);
		for (; c && c->name; c++) {
			if (!selected(s, c, hit))
				continue;
			res = realloc(res, (n + 1) * sizeof(*res));
			if (!res)
				quit(1, "out of memory");
			res[n++] = (struct result){ .suite = s, .kcase = c };
		}
	}
	for (int i = 0; i < opt.nr_filters; i++)
		if (!hit[i])
			quit(2, "no test matches '%s' (try --list)",
			     opt.filters[i]);
	free(hit);
	*out = res;
	return n;
}

/* Each option whose value here is not the kernel's, one KTAP comment each. */
static void print_profile_diff(void)
{
	const char *d = FT_PROFILE_DIFF, *nl;

	for (; (nl = strchr(d, '\n')); d = nl + 1)
		printf("# fairtest config: %.*s\n", (int)(nl - d), d);
}

int main(int argc, char **argv)
{
	struct counts total = { 0 };
	struct result *res;
	char *junit_tmp = NULL;
	FILE *junit = NULL;
	size_t n, nr_run = 0;

	parse_args(argc, argv);
	n = select_cases(&res);
	if (opt.list) {
		for (size_t i = 0; i < n; i++)
			printf("%s.%s\n", res[i].suite->name, res[i].kcase->name);
		free(res);
		free(opt.filters);
		return 0;
	}
	if (opt.junit) {	/* fail now, not after the whole run */
		if (asprintf(&junit_tmp, "%s.tmp", opt.junit) < 0)
			quit(1, "out of memory");
		junit = fopen(junit_tmp, "w");
		if (!junit)
			quit(2, "cannot write %s: %s", junit_tmp, strerror(errno));
	}
	kunit_hook_run_begin(argc, argv);
	if (!opt.jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		opt.jobs = cpus > 0 ? (size_t)cpus : 1;
	}

	fork_each = opt.fork_each || __gcov_dump || RUNNING_ON_VALGRIND || UNDER_ASAN;
	workers = calloc(opt.jobs, sizeof(*workers));
	if (!workers)
		quit(1, "out of memory");

	for (size_t i = 0; i < n; i++)
		nr_run += !i || res[i].suite != res[i - 1].suite;
	printf("KTAP version 1\n# fairtest tree: %s\n# fairtest profile: %s, against %s\n",
	       FT_TREE_DESC, FT_PROFILE_DESC, FT_PROFILE_KERNEL);
	print_profile_diff();
	printf("# fairtest seed: %llu\n", opt.seed);
	kunit_hook_header();
	printf("1..%zu\n", nr_run);
	for (size_t i = 0, j, num = 1; i < n; i = j, num++) {
		for (j = i; j < n && res[j].suite == res[i].suite; j++)
			;
		run_suite(res, i, j, n, num, &total);
	}
	for (size_t w = 0; w < opt.jobs; w++)
		if (workers[w].pid)
			end_worker(&workers[w], NULL);
	free(workers);
	print_counts("Totals", &total);
	printf("fairtest: %zu passed, %zu failed, %zu skipped\n", total.pass,
	       total.fail, total.skip);
	fflush(stdout);

	if (junit)
		write_junit(junit, junit_tmp, res, n);
	free(junit_tmp);
	for (size_t i = 0; i < n; i++) {
		free(res[i].reason);
		free(res[i].diag);
	}
	free(res);
	free(opt.filters);
	return total.fail ? 1 : 0;
}

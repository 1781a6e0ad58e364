// SPDX-License-Identifier: GPL-2.0
/*
 * The twin's slice helper: a library the guest's dynamic loader preloads
 * into rt-app (/etc/ld.so.preload) so that its SCHED_OTHER threads get the
 * slice the workload file gives them. rt-app 1.0 sets a thread's policy
 * with pthread_setschedparam() and reads "dl-runtime" only for
 * SCHED_DEADLINE; the kernel takes a fair task's custom slice from
 * sched_attr.sched_runtime (sched_setattr(), 6.12 and later). So after
 * rt-app's own call, and after it names the thread (the name is how the
 * map below finds it), this asks sched_setattr() for the thread's slice,
 * keeping its nice (sched_setattr() sets both), and reads back what the
 * kernel holds: sched_getattr()'s sched_runtime and /proc's se.slice. One
 * line per thread on stderr ("fairtest-slice: ..."), which the guest's
 * /init keeps as rt-app.out and twin/twin.sh prints in the twin's header.
 *
 * The map (FAIRTEST_SLICE_MAP, else /etc/fairtest-slice) holds
 * "COMM SLICE_NS THREADS" lines (THREADS is the host's, for its check), written by twin/workload.py: rt-app names every
 * instance of a task after the task's key, so a task's instances share
 * its line. Threads not in the map (rt-app's main thread, the guest's
 * calibration run, hackbench) are left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* include/uapi/linux/sched/types.h, SCHED_ATTR_SIZE_VER0 */
struct ft_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static unsigned long long slice_of(const char *comm)
{
	const char *path = getenv("FAIRTEST_SLICE_MAP");
	char line[128], name[64];
	unsigned long long ns, found = 0;
	FILE *f;

	f = fopen(path ? path : "/etc/fairtest-slice", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu", name, &ns) == 2 && !strncmp(name, comm, 15) &&
		    strlen(comm) == (strlen(name) < 15 ? strlen(name) : 15))
			found = ns;
	fclose(f);
	return found;
}

/* se.slice as /proc/<tid>/sched prints it (ns), or -1 without it */
static long long proc_slice(void)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/thread-self/sched", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.slice", 8) && sscanf(strchr(line, ':') + 1, "%lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static void say(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		(void)!write(2, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* once a thread: its slice outlives later sched_setscheduler()s (kept by the kernel) */
static __thread int applied;

static void apply(void)
{
	struct ft_sched_attr a = { .size = sizeof(a) };
	char comm[16] = "";
	unsigned long long want;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int nice;

	if (applied || sched_getscheduler(0) != SCHED_OTHER)
		return;
	prctl(PR_GET_NAME, comm);
	want = slice_of(comm);
	if (!want)
		return;
	applied = 1;
	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);
	if (nice == -1 && errno)
		nice = 0;
	a.sched_policy = SCHED_OTHER;
	a.sched_nice = nice;
	a.sched_runtime = want;
	if (syscall(SYS_sched_setattr, 0, &a, 0)) {
		say("fairtest-slice: %s %d: sched_setattr(sched_runtime %llu) failed: %s\n",
		    comm, tid, want, strerror(errno));
		return;
	}
	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0)) {
		say("fairtest-slice: %s %d: asked %llu ns; sched_getattr failed: %s\n",
		    comm, tid, want, strerror(errno));
		return;
	}
	say("fairtest-slice: %s %d: asked %llu ns, sched_getattr %llu ns, se.slice %lld ns, nice %d\n",
	    comm, tid, want, (unsigned long long)a.sched_runtime, proc_slice(), a.sched_nice);
}

int pthread_setschedparam(pthread_t thread, int policy, const struct sched_param *param)
{
	static int (*real)(pthread_t, int, const struct sched_param *);
	int ret;

	if (!real)
		real = (int (*)(pthread_t, int, const struct sched_param *))
			dlsym(RTLD_NEXT, "pthread_setschedparam");
	if (!real)
		return ENOSYS;
	ret = real(thread, policy, param);
	if (!ret && policy == SCHED_OTHER && pthread_equal(thread, pthread_self()))
		apply();
	return ret;
}

int pthread_setname_np(pthread_t thread, const char *name)
{
	static int (*real)(pthread_t, const char *);
	int ret;

	if (!real)
		real = (int (*)(pthread_t, const char *))dlsym(RTLD_NEXT, "pthread_setname_np");
	if (!real)
		return ENOSYS;
	ret = real(thread, name);
	if (!ret && pthread_equal(thread, pthread_self()))
		apply();
	return ret;
}

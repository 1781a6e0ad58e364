// SPDX-License-Identifier: GPL-2.0
/*
 * The writable memory of this process, saved once and put back between
 * cases, so that a worker process can run case after case each from the
 * same state, as a fresh fork would (runner.c).
 *
 * Saved: every private writable mapping (the program's and every
 * library's data and bss, the heap, the static TLS, the environment,
 * copied to the heap for that) but the stack, which holds the worker loop
 * itself, and the kernel's rseq area, which the kernel owns; and the
 * process state a case may change and a restore can set back: signal
 * actions, mask and stack, interval timers, umask, cwd. The heap is first
 * grown and touched, and malloc told to keep it and never to use mmap, so
 * that no case maps memory that a restore would not see, and none faults
 * on pages a former case already touched: the faults and the fork that a
 * process per case costs are what this saves. What cannot be set back (a mapping,
 * a file descriptor, a POSIX timer or a child a case left, a pending
 * signal, a lowered limit, its CPU affinity, nice level, policy, process
 * group or session) is compared, and if it differs the worker ends and a
 * new one takes the next case.
 * Bytes a case left in the reserve above malloc's top are not cleared:
 * only a read of memory never written sees them, which valgrind's run (a
 * process per case) reports. The variants whose state is not all here
 * (ASan's shadow, gcov's counters, valgrind) run a process per case.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/rseq.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "snapshot.h"

/* A case's heap fits in this; beyond it, its pages fault again next case. */
#define HEAP_RESERVE	(8 << 20)
#define MAX_REGIONS	64
/* /proc/self/maps and the list of open fds, read without malloc */
#define LISTING_MAX	16384

struct span {
	char *start, *end;
};

struct region {
	char *start;
	size_t len;
	char *saved;
};

/* Lives in a mapping of its own, which no restore writes. */
struct image {
	struct region regions[MAX_REGIONS];
	int nr;
	void *brk;
	char *heap_used;
	struct sigaction act[NSIG];
	sigset_t mask;
	mode_t umask;
	int cwd;
	struct rlimit lim[RLIM_NLIMITS];
	cpu_set_t cpus;
	int nice, policy;
	stack_t altstack;
	dev_t cwd_dev;
	ino_t cwd_ino;
	pid_t pgrp, sid;
	ssize_t maps_len, fds_len, timers_len;	/* -1: could not be read */
	char maps[LISTING_MAX];
	char fds[LISTING_MAX];
	char timers[LISTING_MAX];
};

static struct image *img;
static void (*leave)(char **start, size_t *len);

void snapshot_leave(void (*span)(char **start, size_t *len))
{
	leave = span;
}

static int add_region(struct image *im, char *start, char *end)
{
	if (start >= end)
		return 0;
	if (im->nr == MAX_REGIONS)
		return -1;
	im->regions[im->nr++] = (struct region){ start, end - start, NULL };
	return 0;
}

/* Adds [@start, @end) less the holes, which are sorted and disjoint. */
static int add_around(struct image *im, char *start, char *end,
		      const struct span *hole, int nr_holes)
{
	for (int h = 0; h < nr_holes; h++) {
		if (hole[h].start >= end || hole[h].end <= start)
			continue;
		if (add_region(im, start, hole[h].start))
			return -1;
		start = hole[h].end;
	}
	return add_region(im, start, end);
}

/*
 * Every private writable mapping but the stack, the image itself, the
 * rseq area, where the kernel keeps this thread's CPU number, and what
 * snapshot_leave() names (asked first: it may map what it names).
 */
static int writable_regions(struct image *im)
{
	long page = sysconf(_SC_PAGESIZE);
	char *rseq = (char *)__builtin_thread_pointer() + __rseq_offset;
	struct span hole[3] = {
		{ (char *)im, (char *)im + (sizeof(*im) + page - 1) / page * page },
		{ rseq, rseq + __rseq_size },
	};
	int nr_holes = 2;
	char line[512], perms[8], name[256];
	unsigned long start, end;
	FILE *maps;
	int err = 0;

	if (leave) {
		size_t len = 0;

		leave(&hole[2].start, &len);
		hole[2].end = hole[2].start + len;
		nr_holes += len != 0;
	}
	for (int i = 1; i < nr_holes; i++)	/* in address order */
		for (int j = i; j > 0 && hole[j].start < hole[j - 1].start; j--) {
			struct span first = hole[j];

			hole[j] = hole[j - 1];
			hole[j - 1] = first;
		}
	maps = fopen("/proc/self/maps", "r");
	if (!maps)
		return -1;
	while (!err && fgets(line, sizeof(line), maps)) {
		name[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255s", &start, &end, perms, name) < 3)
			continue;
		if (strcmp(perms, "rw-p") || !strcmp(name, "[stack]") ||
		    !strcmp(name, "[vvar]") || !strcmp(name, "[vdso]"))
			continue;
		err = add_around(im, (char *)start, (char *)end, hole, nr_holes);
	}
	fclose(maps);
	return err;
}

/* The text of /proc/self/@name into @buf, with no malloc; -1 if not all of it. */
static ssize_t read_proc(const char *name, char *buf)
{
	char path[64] = "/proc/self/";
	ssize_t len = 0, got = 0;
	int fd;

	strcat(path, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (len < LISTING_MAX && (got = read(fd, buf + len, LISTING_MAX - len)) > 0)
		len += got;
	close(fd);
	return got < 0 || len == LISTING_MAX ? -1 : len;
}

/*
 * The mappings (but the stack's, which grows with a deep case and is
 * not put back) into @buf, with no malloc: the heap is being restored.
 */
static ssize_t read_maps(char *buf)
{
	ssize_t len = read_proc("maps", buf), kept = 0;

	for (ssize_t i = 0, eol; i < len; i = eol + 1) {
		for (eol = i; eol < len && buf[eol] != '\n'; eol++)
			;
		if (memmem(buf + i, eol - i, "[stack]", 7))
			continue;
		memmove(buf + kept, buf + i, eol - i);
		kept += eol - i;
		buf[kept++] = '\n';
	}
	return len < 0 ? -1 : kept;
}

/* The names of the open file descriptors into @buf, with no malloc. */
static ssize_t read_fds(char *buf)
{
	size_t len = 0;
	long got = -1;
	int fd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (len < LISTING_MAX - 1024 &&
	       (got = syscall(SYS_getdents64, fd, buf + len, LISTING_MAX - len)) > 0)
		len += got;
	close(fd);
	if (got)
		return -1;	/* not all of it: nothing to compare */
	/* a record holds its offset in the directory too: names only */
	for (size_t i = 0, kept = 0;; ) {
		struct dirent64 *d = (struct dirent64 *)(buf + i);
		size_t n;

		if (i >= len)
			return kept;
		n = strlen(d->d_name) + 1;
		i += d->d_reclen;
		memmove(buf + kept, d->d_name, n);
		kept += n;
	}
}

/* Whether @now, @len long, is the listing @then, @then_len long. */
static bool same(const char *now, ssize_t len, const char *then, ssize_t then_len)
{
	return len == then_len && (len <= 0 || !memcmp(now, then, len));
}

/* What a case may change outside memory, saved. */
static int save_process(struct image *im)
{
	struct stat st;

	im->cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (im->cwd < 0 || fstat(im->cwd, &st))
		return -1;
	im->cwd_dev = st.st_dev;
	im->cwd_ino = st.st_ino;
	sigaltstack(NULL, &im->altstack);
	im->pgrp = getpgrp();
	im->sid = getsid(0);
	for (int i = 1; i < NSIG; i++)
		sigaction(i, NULL, &im->act[i]);
	sigprocmask(SIG_SETMASK, NULL, &im->mask);
	im->umask = umask(0);
	umask(im->umask);
	for (int i = 0; i < RLIM_NLIMITS; i++)
		getrlimit(i, &im->lim[i]);
	sched_getaffinity(0, sizeof(im->cpus), &im->cpus);
	im->nice = getpriority(PRIO_PROCESS, 0);
	im->policy = sched_getscheduler(0);
	im->maps_len = read_maps(im->maps);
	im->fds_len = read_fds(im->fds);
	im->timers_len = read_proc("timers", im->timers);	/* POSIX timers */
	return im->maps_len > 0 && im->fds_len > 0 ? 0 : -1;
}

int snapshot_take(void)
{
	size_t total = 0;
	char *save;
	void *p;
	int i;

	/* glibc edits the first environment in place, and it is on the stack */
	if (environ) {
		size_t n = 0;
		char **env;

		while (environ[n])
			n++;
		env = malloc((n + 1) * sizeof(*env));
		if (!env)
			return -1;
		environ = memcpy(env, environ, (n + 1) * sizeof(*env));
	}
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	p = malloc(HEAP_RESERVE);	/* grows the heap; its pages fault once */
	if (!p)
		return -1;
	free(p);

	img = mmap(NULL, sizeof(*img), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (img == MAP_FAILED)
		return -1;
	if (writable_regions(img))
		return -1;
	img->brk = sbrk(0);
	/*
	 * Above malloc's top chunk the heap holds nothing malloc reads (it
	 * clears what calloc() takes from there), so only up to the top
	 * chunk's header is put back: a case's heap is not copied back whole.
	 */
	img->heap_used = (char *)img->brk - mallinfo2().keepcost + 64;
	for (i = 0; i < img->nr; i++) {
		struct region *r = &img->regions[i];

		if (r->start < (char *)img->brk && r->start + r->len > img->heap_used)
			r->len = r->start < img->heap_used ? (size_t)(img->heap_used - r->start) : 0;
		total += r->len;
	}
	save = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (save == MAP_FAILED)
		return -1;
	if (save_process(img))
		return -1;
	for (i = 0; i < img->nr; i++) {
		img->regions[i].saved = save;
		memcpy(save, img->regions[i].start, img->regions[i].len);
		save += img->regions[i].len;
	}
	return 0;
}

bool snapshot_restore(void)
{
	static const struct itimerval off;
	struct image *im = img;	/* img itself is in a region being restored */
	char now[LISTING_MAX];
	sigset_t all, pending;
	siginfo_t child = { 0 };
	struct rlimit lim;
	struct stat st;
	cpu_set_t cpus;
	int i;

	for (i = ITIMER_REAL; i <= ITIMER_PROF; i++)
		setitimer(i, &off, NULL);
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	for (i = 1; i < NSIG; i++)
		if (i != SIGKILL && i != SIGSTOP)
			sigaction(i, &im->act[i], NULL);
	sigaltstack(&im->altstack, NULL);
	if (sbrk(0) != im->brk)
		brk(im->brk);
	for (i = 0; i < im->nr; i++)
		memcpy(im->regions[i].start, im->regions[i].saved, im->regions[i].len);
	umask(im->umask);
	/* the fd's number may now name another directory */
	if (fstat(im->cwd, &st) || st.st_dev != im->cwd_dev || st.st_ino != im->cwd_ino ||
	    fchdir(im->cwd))
		return false;
	if (sigpending(&pending) || !sigisemptyset(&pending))
		return false;
	for (i = 0; i < RLIM_NLIMITS; i++)
		if (getrlimit(i, &lim) || lim.rlim_cur != im->lim[i].rlim_cur ||
		    lim.rlim_max != im->lim[i].rlim_max)
			return false;
	if (sched_getaffinity(0, sizeof(cpus), &cpus) || !CPU_EQUAL(&cpus, &im->cpus) ||
	    getpriority(PRIO_PROCESS, 0) != im->nice || sched_getscheduler(0) != im->policy ||
	    getpgrp() != im->pgrp || getsid(0) != im->sid)
		return false;
	/* a child left running or unreaped, which a later wait would find */
	if (!waitid(P_ALL, 0, &child, WEXITED | WNOHANG | WNOWAIT))
		return false;
	if (!same(now, read_maps(now), im->maps, im->maps_len) ||
	    !same(now, read_fds(now), im->fds, im->fds_len) ||
	    !same(now, read_proc("timers", now), im->timers, im->timers_len))
		return false;
	sigprocmask(SIG_SETMASK, &im->mask, NULL);
	return true;
}

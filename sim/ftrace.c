// SPDX-License-Identifier: GPL-2.0
/*
 * `fairsim --from-trace`: a kernel's ftrace text (tracefs `trace`, the
 * output of `trace-cmd report`, or fairsim's own `--trace`) read into the
 * analysis (analysis.c) that makes fairsim's own tables, so a real
 * kernel's run and the model's are measured by the same code. Only
 * sched_switch, sched_wakeup, sched_wakeup_new and sched_migrate_task are
 * used (sched_waking is read and skipped, as in the model); other lines
 * are skipped. Fields are found by name, so the column options of tracefs
 * (irq-info, record-tgid) and trace-cmd's spacing do not matter.
 *
 * Tasks are the workload's threads, matched by name: rt-app 1.0 names
 * each thread with pthread_setname_np() after its task's key (every
 * instance the same name; a key of 16 characters or more is refused by
 * the kernel, and the thread keeps the name "rt-app"), and numbers
 * nothing, so instances are numbered in order of appearance; fairsim's
 * own threads are "key-instance". Names are those a pid had last: a new
 * thread is traced as "rt-app" until it renames itself. Two passes: the
 * first learns names, the CPU count and the time span, the second feeds
 * the analysis.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

struct pid_rec {
	int pid;
	char comm[16];
	ft_u64 first_ns;
	int task;		/* index into run->tasks + 1; 0 = not reported */
};

static struct {
	struct pid_rec *rec;
	int nr, cap;		/* open addressing, cap a power of two */
} pids;

static struct pid_rec *pid_find(int pid, bool add)
{
	unsigned int h;

	if (!pids.cap || (add && 2 * (pids.nr + 1) > pids.cap)) {
		struct pid_rec *old = pids.rec;
		int oldcap = pids.cap;

		pids.cap = oldcap ? 2 * oldcap : 1024;
		pids.rec = calloc(pids.cap, sizeof(*pids.rec));
		if (!pids.rec)
			abort();
		pids.nr = 0;
		for (int i = 0; i < oldcap; i++)
			if (old[i].pid)
				*pid_find(old[i].pid, true) = old[i];
		free(old);
	}
	for (h = (unsigned int)pid * 2654435761U & (pids.cap - 1); pids.rec[h].pid;
	     h = (h + 1) & (pids.cap - 1))
		if (pids.rec[h].pid == pid)
			return &pids.rec[h];
	if (!add)
		return NULL;
	pids.rec[h].pid = pid;
	pids.nr++;
	return &pids.rec[h];
}

/* One event line, its fields found by name. */
struct line {
	struct ft_obs o;
	ft_u64 ns;
	char comm[16], prev_comm[16];
};

/* The text between @key and @end (" pid=", ...), at most 15 characters. */
static bool text_field(const char *s, const char *key, const char *end, char out[16])
{
	const char *p = strstr(s, key), *q;

	if (!p)
		return false;
	p += strlen(key);
	q = strstr(p, end);
	if (!q)
		return false;
	snprintf(out, 16, "%.*s", (int)(q - p < 15 ? q - p : 15), p);
	return true;
}

static bool int_field(const char *s, const char *key, int *out)
{
	const char *p = s;
	size_t n = strlen(key);
	char *end;

	/* a whole key: "pid=" is not the tail of "prev_pid=" */
	while ((p = strstr(p, key)) && p != s && p[-1] != ' ')
		p += n;
	if (!p)
		return false;
	errno = 0;
	*out = strtol(p + n, &end, 10);
	return !errno && end != p + n;
}

enum parsed { SKIP, EVENT, BAD };

static enum parsed parse_line(char *s, struct line *l, const char **why)
{
	char *p = s, *ev, *args;
	unsigned long long sec;
	size_t digits;
	ft_u64 frac;

	/* "comm-pid [cpu] flags secs.frac: event: args" (comm may hold spaces) */
	while ((p = strchr(p, '['))) {
		if (isdigit((unsigned char)p[1]) && strchr(p, ']') &&
		    strspn(p + 1, "0123456789") == (size_t)(strchr(p, ']') - p - 1))
			break;
		p++;
	}
	if (!p)
		return SKIP;
	p = strchr(p, ']') + 1;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p) || !strchr(p, '.') ||
	    strspn(p, "0123456789") != (size_t)(strchr(p, '.') - p))
		p += strcspn(p, " ");	/* the irq-info flags */
	while (*p == ' ')
		p++;
	sec = strtoull(p, &p, 10);
	if (*p++ != '.')
		return SKIP;
	digits = strspn(p, "0123456789");
	if (!digits || digits > 9 || p[digits] != ':')
		return SKIP;
	frac = strtoull(p, NULL, 10);
	for (size_t i = digits; i < 9; i++)
		frac *= 10;
	l->ns = sec * 1000000000ULL + frac;
	ev = p + digits + 1;
	while (*ev == ' ')
		ev++;
	args = strchr(ev, ':');
	if (!args)
		return SKIP;
	*args++ = '\0';
	memset(&l->o, 0, sizeof(l->o));
	if (!strcmp(ev, "sched_switch")) {
		char state[16] = "";

		l->o.kind = FT_OBS_SWITCH;
		if (!text_field(args, "prev_comm=", " prev_pid=", l->prev_comm) ||
		    !text_field(args, "next_comm=", " next_pid=", l->comm) ||
		    !int_field(args, "prev_pid=", &l->o.prev_pid) ||
		    !int_field(args, "next_pid=", &l->o.pid) ||
		    !text_field(args, "prev_state=", " ", state))
			return *why = "a sched_switch without prev_comm, prev_pid, prev_state, "
				      "next_comm or next_pid", BAD;
		/* "R+": preempted; "R": yielded; X and Z: exited; the rest slept */
		l->o.prev_state = state[0] == 'R' ? 'R' : state[0] == 'X' || state[0] == 'Z' ?
				  'X' : 'S';
		l->o.preempt = state[0] == 'R' && state[1] == '+';
		return EVENT;
	}
	if (!strcmp(ev, "sched_wakeup") || !strcmp(ev, "sched_wakeup_new") ||
	    !strcmp(ev, "sched_waking")) {
		l->o.kind = !strcmp(ev, "sched_wakeup_new") ? FT_OBS_WAKEUP_NEW :
			    !strcmp(ev, "sched_wakeup") ? FT_OBS_WAKEUP : FT_OBS_WAKING;
		if (!text_field(args, "comm=", " pid=", l->comm) ||
		    !int_field(args, "pid=", &l->o.pid) ||
		    !int_field(args, "target_cpu=", &l->o.cpu))
			return *why = "a wake-up event without comm, pid or target_cpu", BAD;
		return EVENT;
	}
	if (!strcmp(ev, "sched_migrate_task")) {
		l->o.kind = FT_OBS_MIGRATE;
		if (!text_field(args, "comm=", " pid=", l->comm) ||
		    !int_field(args, "pid=", &l->o.pid) ||
		    !int_field(args, "orig_cpu=", &l->o.orig_cpu) ||
		    !int_field(args, "dest_cpu=", &l->o.dest_cpu))
			return *why = "a sched_migrate_task without comm, pid, orig_cpu or dest_cpu", BAD;
		l->o.cpu = l->o.dest_cpu;
		return EVENT;
	}
	return SKIP;
}

/* The CPU a line was recorded on: "[001]". */
static int line_cpu(const char *s)
{
	const char *p = s;

	while ((p = strchr(p, '[')))
		if (isdigit((unsigned char)*++p))
			return atoi(p);
	return -1;
}

static void learn(struct pid_rec *r, const char *comm, ft_u64 ns, bool fresh)
{
	if (fresh)
		r->first_ns = ns;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
}

static struct sim_task *task_of(void *ctx, int pid)
{
	struct sim_run *run = ctx;
	struct pid_rec *r = pid_find(pid, false);

	return r && r->task ? &run->tasks[r->task - 1] : NULL;
}

static int by_first(const void *a, const void *b)
{
	const struct pid_rec *x = *(struct pid_rec *const *)a, *y = *(struct pid_rec *const *)b;

	return x->first_ns != y->first_ns ? (x->first_ns < y->first_ns ? -1 : 1) :
	       (x->pid > y->pid) - (x->pid < y->pid);
}

/* Does @comm name instance @inst of @def, rt-app's way or fairsim's? */
static int match(const struct sim_def *def, const char *comm, bool *rtapp)
{
	char full[SIM_NAME_LEN + 16];

	if (!strncmp(comm, def->name, 15) && strlen(comm) == (strlen(def->name) < 15 ?
							      strlen(def->name) : 15)) {
		*rtapp = true;
		return 0;
	}
	for (int i = 0; i < 1000; i++) {
		snprintf(full, sizeof(full), "%s-%d", def->name, i);
		if (!strncmp(comm, full, 15) && strlen(comm) == (strlen(full) < 15 ?
								 strlen(full) : 15)) {
			*rtapp = false;
			return i;
		}
	}
	return -1;
}

static int add_def(struct sim_workload *w, const char *name)
{
	for (int d = 0; d < w->nr_defs; d++)
		if (!strcmp(w->defs[d].name, name))
			return d;
	w->defs = realloc(w->defs, (w->nr_defs + 1) * sizeof(*w->defs));
	if (!w->defs)
		abort();
	w->defs[w->nr_defs] = (struct sim_def){ .instance = 0 };
	snprintf(w->defs[w->nr_defs].name, SIM_NAME_LEN, "%s", name);
	return w->nr_defs++;
}

static int fail(const char *path, long n, const char *what)
{
	if (n)
		fprintf(stderr, "fairsim: %s:%ld: %s\n", path, n, what);
	else
		fprintf(stderr, "fairsim: %s: %s\n", path, what);
	return -1;
}

/*
 * Reads @path into @run: tasks, their figures, the window. @w is the
 * workload (parsed) or empty (every task of the trace is reported).
 */
int sim_from_trace(const char *path, struct sim_run *run, struct sim_workload *w,
		   struct sim_opts *o, struct sim_trace_info *info)
{
	struct pid_rec **order = NULL;
	char *buf = NULL;
	size_t cap = 0;
	long n = 0;
	int max_cpu = -1, nr_order = 0, ret = -1;
	bool have_workload = w->nr_defs > 0;
	ft_u64 first = 0, last = 0, start, end;
	FILE *f = fopen(path, "r");
	struct line l;
	const char *why;

	if (!f) {
		fprintf(stderr, "fairsim: cannot read the trace %s (%s)\n", path, strerror(errno));
		return -1;
	}
	memset(&pids, 0, sizeof(pids));
	/* pass 1: names, CPUs, span */
	while (getline(&buf, &cap, f) > 0) {
		char *p;

		n++;
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] == '#' || !strncmp(buf, "cpus=", 5)) {
			if ((p = strstr(buf, "#P:")))
				info->nr_cpus = atoi(p + 3);
			if (!strncmp(buf, "cpus=", 5))
				info->nr_cpus = atoi(buf + 5);
			if (!strncmp(buf, "# fairsim: ", 11) && strstr(buf, "every CPU idle at 0")) {
				info->fairsim = true;
				if ((p = strstr(buf, ", end ")))
					info->end_ns = strtoull(p + 6, NULL, 10);
			}
			continue;
		}
		if (strstr(buf, "LOST") && strstr(buf, "EVENTS"))
			info->lost++;
		switch (parse_line(buf, &l, &why)) {
		case SKIP:
			continue;
		case BAD:
			fail(path, n, why);
			goto out;
		case EVENT:
			break;
		}
		if (!info->events++)
			first = l.ns;
		if (l.ns < last) {
			fail(path, n, "goes back in time: give the trace in time order (the "
			     "tracefs 'trace' file, or trace-cmd report)");
			goto out;
		}
		last = l.ns;
		if (line_cpu(buf) > max_cpu)
			max_cpu = line_cpu(buf);
		if (l.o.kind == FT_OBS_SWITCH) {
			struct pid_rec *r;

			if (l.o.prev_pid && (r = pid_find(l.o.prev_pid, true)))
				learn(r, l.prev_comm, l.ns, !r->comm[0]);
			if (l.o.pid && (r = pid_find(l.o.pid, true)))
				learn(r, l.comm, l.ns, !r->comm[0]);
		} else if (l.o.pid) {
			struct pid_rec *r = pid_find(l.o.pid, true);

			learn(r, l.comm, l.ns, !r->comm[0]);
		}
		if (l.o.cpu > max_cpu)
			max_cpu = l.o.cpu;
	}
	if (!info->events) {
		fail(path, 0, "no sched_switch, sched_wakeup, sched_wakeup_new or "
		     "sched_migrate_task line: record those events (tracefs events/sched/)");
		goto out;
	}
	if (info->nr_cpus < max_cpu + 1)
		info->nr_cpus = max_cpu + 1;
	if (o->cpus > info->nr_cpus)
		info->nr_cpus = o->cpus;
	if (info->nr_cpus > FT_MAX_CPUS) {
		fail(path, 0, "more CPUs than fairsim's 64");
		goto out;
	}
	o->cpus = info->nr_cpus;

	/* the reported tasks, in the workload's order, instances by appearance */
	order = calloc(pids.nr, sizeof(*order));
	for (int i = 0; i < pids.cap; i++)
		if (pids.rec[i].pid)
			order[nr_order++] = &pids.rec[i];
	qsort(order, nr_order, sizeof(*order), by_first);
	run->tasks = calloc(nr_order + 1, sizeof(*run->tasks));
	start = ~0ULL;
	for (int d = 0; d < (have_workload ? w->nr_defs : 1); d++) {
		int next_inst = 0;

		for (int i = 0; i < nr_order; i++) {
			struct pid_rec *r = order[i];
			struct sim_task *t;
			bool rtapp = true;
			int inst, def = d;

			if (r->task)
				continue;
			if (have_workload) {
				if ((inst = match(&w->defs[d], r->comm, &rtapp)) < 0)
					continue;
				if (rtapp)
					inst = next_inst++;
			} else {
				def = add_def(w, r->comm);
				inst = w->defs[def].instance++;
			}
			t = &run->tasks[run->nr_tasks];
			*t = (struct sim_task){ .id = r->pid, .def = def, .inst = inst, .cpu = -1,
						.rq_cpu = -1, .allowed = w->defs[def].cpus };
			snprintf(t->comm, sizeof(t->comm), "%s", r->comm);
			r->task = ++run->nr_tasks;
			if (r->first_ns < start)
				start = r->first_ns;
		}
	}
	for (int d = 0; have_workload && d < w->nr_defs; d++) {
		bool found = false;

		for (int i = 0; i < run->nr_tasks; i++)
			found |= run->tasks[i].def == d;
		if (!found && w->defs[d].instance > 0)
			snprintf(info->missing + strlen(info->missing),
				 sizeof(info->missing) - strlen(info->missing), "%s%s",
				 info->missing[0] ? ", " : "", w->defs[d].name);
	}
	if (!run->nr_tasks) {
		fail(path, 0, have_workload ? "no thread of the workload's tasks in it (rt-app names "
		     "them after their keys, which must be shorter than 16 characters)" :
		     "no task in it");
		goto out;
	}
	/* the window: from the first event of a task reported */
	end = info->end_ns ? info->end_ns : o->duration_ns ? start + o->duration_ns :
	      w->duration_ns ? start + w->duration_ns : last;
	if (info->fairsim && info->end_ns)
		start = 0;
	if (end > last && !info->fairsim)
		info->short_by = end - last, end = last;
	if (end <= start) {
		fail(path, 0, "the workload's tasks have no time in it");
		goto out;
	}
	info->start_ns = start;
	info->first_ns = first;

	/* pass 2: the analysis, times from the window's start */
	sim_an_init(&run->an, info->nr_cpus, info->fairsim, task_of, run);
	run->an.tasks = run->tasks;
	run->an.nr_tasks = run->nr_tasks;
	rewind(f);
	while (getline(&buf, &cap, f) > 0) {
		if (buf[0] == '#' || parse_line(buf, &l, &why) != EVENT)
			continue;
		if (l.ns > end)
			break;
		l.o.now = l.ns > start ? l.ns - start : 0;
		/*
		 * The kernel prints "R+" only for a preemption in kernel mode; a
		 * task preempted on its way back to user space, the usual case,
		 * is switched out as plain "R", as one that called sched_yield()
		 * is. fairsim marks every involuntary switch "R+".
		 */
		if (!info->fairsim && l.o.kind == FT_OBS_SWITCH && l.o.prev_state == 'R')
			l.o.preempt = true;
		if (l.o.kind == FT_OBS_SWITCH)
			l.o.cpu = line_cpu(buf);
		if (l.o.cpu < 0 || l.o.cpu >= info->nr_cpus)
			continue;
		sim_an_event(&run->an, &l.o);
	}
	run->end_ns = end - start;
	sim_an_end(&run->an, run->end_ns);
	for (int i = 0; i < run->nr_tasks; i++) {
		struct sim_task *t = &run->tasks[i];

		t->exec_ns = t->run_ns;
		if (t->cpu < 0)
			t->cpu = 0;
	}
	memcpy(run->idle, run->an.idle, sizeof(run->idle));
	ret = 0;
out:
	free(order);
	free(buf);
	free(pids.rec);
	memset(&pids, 0, sizeof(pids));
	fclose(f);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * An rt-app workload file, read the way rt-app and workgen read it (facts
 * from rt-app's doc/tutorial.txt): "tasks" holds thread objects, each one
 * phase of events or a "phases" object of them; "global" the run's
 * settings. Events are recognised by key prefix, in file order. Everything
 * is checked here, before the engine starts and before any output file
 * exists, so bad input costs one clear line and nothing else. Keys rt-app
 * knows that the model has no use for (memory, IO, uclamp, logging) are
 * collected and listed once as ignored, never dropped silently.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "sim.h"

static const char *file;
/* global.default_policy: the policy of a task that names none */
static char default_policy[32];

/*
 * rt-app before 1.0 declared signals in "resources" and named them in the
 * events: "trig0" : { "type" : "signal", "target" : "wait0" } makes
 * "signal" : "trig0" wake the waiters of "wait0". Those pairs, by name.
 */
static struct target {
	char name[SIM_NAME_LEN], target[SIM_NAME_LEN];
} *targets;
static int nr_targets;

static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fairsim: %s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* "run#2" (the prepass's third "run") is named "run" in messages. */
static void base_key(const char *key, char *out)
{
	size_t n = strcspn(key, "#");

	if (n >= SIM_NAME_LEN)
		n = SIM_NAME_LEN - 1;
	memcpy(out, key, n);
	out[n] = '\0';
}

static void note(char *list, size_t size, const char *what)
{
	char item[SIM_NAME_LEN + 4];
	size_t n = strlen(list);

	snprintf(item, sizeof(item), "%s%s", n ? ", " : "", what);
	if (strstr(list, what))
		return;
	if (n + strlen(item) + 1 < size)
		strcat(list, item);
}

static void ignore(struct sim_workload *w, const char *key)
{
	note(w->ignored, sizeof(w->ignored), key);
}

/* An integer in [lo, hi]; "what" names it for the message. */
static int get_int(json_object *v, const char *what, long long lo, long long hi,
		   long long *out)
{
	if (!json_object_is_type(v, json_type_int))
		return fail("%s must be an integer, not %s", what, json_object_to_json_string(v));
	errno = 0;
	*out = json_object_get_int64(v);
	if (errno || *out < lo || *out > hi)
		return fail("%s is %s, outside %lld..%lld", what,
			    json_object_to_json_string(v), lo, hi);
	return 0;
}

/*
 * A duration in microseconds that fits the clock in nanoseconds; > 0
 * unless @zero_ok (rt-app takes a 0 us run, sleep or timer period as a
 * no-op: its template.json carries "sleep" : 0).
 */
static int get_us(json_object *v, const char *what, ft_u64 *ns, bool zero_ok)
{
	long long us;

	if (!json_object_is_type(v, json_type_int))
		return fail("%s must be an integer number of microseconds, not %s", what,
			    json_object_to_json_string(v));
	errno = 0;
	us = json_object_get_int64(v);
	if (us < 0 || (!us && !zero_ok))
		return fail("%s is %lld us; it must be %s", what, us, zero_ok ? ">= 0" : "> 0");
	if (errno || (ft_u64)us > SIM_MAX_NS / 1000)
		return fail("%s is %s us, which overflows the clock (at most %llu us)", what,
			    json_object_to_json_string(v), SIM_MAX_NS / 1000);
	*ns = (ft_u64)us * 1000;
	return 0;
}

static const char *get_str(json_object *v)
{
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static int resource(struct sim_workload *w, const char *name, enum sim_res_kind kind)
{
	for (int i = 0; i < w->nr_res; i++)
		if (w->res[i].kind == kind && !strcmp(w->res[i].name, name))
			return i;
	w->res = realloc(w->res, (w->nr_res + 1) * sizeof(*w->res));
	if (!w->res)
		abort();
	w->res[w->nr_res] = (struct sim_res){ .kind = kind,
		.unique = kind == SIM_RES_TIMER && !strncmp(name, "unique", 6) };
	snprintf(w->res[w->nr_res].name, SIM_NAME_LEN, "%s", name);
	return w->nr_res++;
}

static int group(struct sim_workload *w, const char *path, const char *where)
{
	if (!*path)
		return -1;
	for (int i = 0; i < w->nr_groups; i++)
		if (!strcmp(w->groups[i], path))
			return i;
	if (w->nr_groups == 32)
		return fail("%s: taskgroup '%s' is the 33rd; at most 32 taskgroups", where, path), -2;
	if (strlen(path) >= SIM_NAME_LEN)
		return fail("%s: taskgroup '%s' is too long (at most %d characters)", where,
			    path, SIM_NAME_LEN - 1), -2;
	strcpy(w->groups[w->nr_groups], path);
	return w->nr_groups++;
}

static const struct {
	const char *prefix;
	enum sim_ev_kind kind;
} events[] = {
	/* longest first where one is a prefix of another */
	{ "runtime", SIM_RUNTIME }, { "run", SIM_RUN }, { "sleep", SIM_SLEEP },
	{ "timer", SIM_TIMER }, { "unlock", SIM_UNLOCK }, { "lock", SIM_LOCK },
	{ "wait", SIM_WAIT }, { "signal", SIM_SIGNAL }, { "broad", SIM_BROAD },
	{ "sync", SIM_SYNC }, { "barrier", SIM_BARRIER }, { "suspend", SIM_SUSPEND },
	{ "resume", SIM_RESUME }, { "yield", SIM_YIELD }, { "fork", SIM_FORK },
	{ "pipe_write", SIM_PIPE_WRITE }, { "pipe_read", SIM_PIPE_READ },
};

/* rt-app events the model has nothing for: listed as ignored. */
static const char *const ignored_events[] = { "mem", "iorun" };
static const char *const ignored_props[] = {
	"dl-period", "dl-deadline", "period", "deadline", "util_min", "util_max",
	"hold_ns", "nodes_membind",
};

struct ctx {
	struct sim_workload *w;
	struct sim_def *def;
	struct sim_phase *ph;
	char where[2 * SIM_NAME_LEN + 16];
	int nr_cpus;
	bool left_out;
	bool rt;		/* the task's policy is not the fair class's */
	int zero;		/* events of 0 us dropped from this phase */
};

static bool rt_policy(const char *p)
{
	return !strcmp(p, "SCHED_FIFO") || !strcmp(p, "SCHED_RR") || !strcmp(p, "SCHED_DEADLINE");
}

static bool known_policy(const char *p)
{
	return rt_policy(p) || !strcmp(p, "SCHED_OTHER") || !strcmp(p, "SCHED_IDLE");
}

/* The waiters a signal or broad named @name wakes: its target, if declared. */
static const char *signal_target(const char *name)
{
	for (int i = 0; i < nr_targets; i++)
		if (!strcmp(targets[i].name, name))
			return targets[i].target;
	return name;
}

static int name_arg(struct ctx *c, const char *ev, json_object *v, const char **out)
{
	*out = get_str(v);
	if (!*out || !**out)
		return fail("%s: %s needs a resource name (a non-empty string)", c->where, ev);
	return 0;
}

static int add_event(struct ctx *c, enum sim_ev_kind kind, const char *key, json_object *v)
{
	struct sim_workload *w = c->w;
	struct sim_event e = { .kind = kind, .mutex = -1, .res = -1 };
	char what[sizeof(c->where) + SIM_NAME_LEN + 4];
	const char *name;
	json_object *x;

	snprintf(what, sizeof(what), "%s: %s", c->where, key);
	switch (kind) {
	case SIM_RUN:
	case SIM_RUNTIME:
	case SIM_SLEEP:
		if (get_us(v, what, &e.ns, true))
			return -1;
		if (!e.ns)
			return c->zero++, 0;	/* a no-op, as in rt-app */
		break;
	case SIM_TIMER:
		if (!json_object_is_type(v, json_type_object))
			return fail("%s must be an object { \"ref\": name, \"period\": us }", what);
		if (!json_object_object_get_ex(v, "ref", &x) || !get_str(x) || !*get_str(x))
			return fail("%s has no \"ref\" (the timer's name)", what);
		e.res = resource(w, get_str(x), SIM_RES_TIMER);
		if (!json_object_object_get_ex(v, "period", &x))
			return fail("%s has no \"period\" (us)", what);
		if (get_us(x, what, &e.ns, true))
			return -1;
		if (json_object_object_get_ex(v, "mode", &x)) {
			name = get_str(x);
			if (!name || (strcmp(name, "relative") && strcmp(name, "absolute")))
				return fail("%s: mode must be \"relative\" or \"absolute\"", what);
			e.absolute = !strcmp(name, "absolute");
		}
		if (!e.ns)
			return c->zero++, 0;	/* never waits, as in rt-app */
		break;
	case SIM_LOCK:
	case SIM_UNLOCK:
		if (name_arg(c, key, v, &name))
			return -1;
		e.res = resource(w, name, SIM_RES_MUTEX);
		break;
	case SIM_SIGNAL:
	case SIM_BROAD:
		if (name_arg(c, key, v, &name))
			return -1;
		e.res = resource(w, signal_target(name), SIM_RES_COND);
		w->res[e.res].wakers++;
		break;
	case SIM_WAIT:
	case SIM_SYNC:
		if (!json_object_is_type(v, json_type_object) ||
		    !json_object_object_get_ex(v, "ref", &x) || !get_str(x) || !*get_str(x))
			return fail("%s must be an object { \"ref\": name, \"mutex\": name }", what);
		e.res = resource(w, get_str(x), SIM_RES_COND);
		w->res[e.res].waiters++;
		if (kind == SIM_SYNC)
			w->res[e.res].wakers++;
		if (json_object_object_get_ex(v, "mutex", &x)) {
			if (!get_str(x) || !*get_str(x))
				return fail("%s: \"mutex\" must be a name", what);
			e.mutex = resource(w, get_str(x), SIM_RES_MUTEX);
		}
		break;
	case SIM_BARRIER:
		if (name_arg(c, key, v, &name))
			return -1;
		e.res = resource(w, name, SIM_RES_BARRIER);
		break;
	case SIM_SUSPEND:
		/* workgen fills an empty name with the thread's own */
		name = get_str(v);
		e.res = resource(w, name && *name ? name : c->def->name, SIM_RES_SUSPEND);
		w->res[e.res].waiters++;
		break;
	case SIM_RESUME:
		if (name_arg(c, key, v, &name))
			return -1;
		e.res = resource(w, name, SIM_RES_SUSPEND);
		w->res[e.res].wakers++;
		break;
	case SIM_YIELD:
		break;
	case SIM_PIPE_WRITE:
	case SIM_PIPE_READ:
		if (name_arg(c, key, v, &name))
			return -1;
		e.res = resource(w, name, SIM_RES_PIPE);
		if (kind == SIM_PIPE_WRITE)
			w->res[e.res].writers++;
		else
			w->res[e.res].readers++;
		break;
	case SIM_FORK:
		if (name_arg(c, key, v, &name))
			return -1;
		e.res = -1;
		for (int i = 0; i < w->nr_defs; i++)
			if (!strcmp(w->defs[i].name, name))
				e.res = i;
		if (e.res < 0) {
			/* defined later in the file: resolved after all are read */
			e.res = -2 - resource(w, name, SIM_RES_NAME);
		}
		break;
	}
	c->ph->ev = realloc(c->ph->ev, (c->ph->nr_ev + 1) * sizeof(e));
	if (!c->ph->ev)
		abort();
	c->ph->ev[c->ph->nr_ev++] = e;
	return 0;
}

static int policy(struct ctx *c, json_object *v, bool thread)
{
	const char *p = get_str(v);

	if (!p)
		return fail("%s: policy must be a string", c->where);
	if (!strcmp(p, "SCHED_OTHER") || !strcmp(p, "SCHED_IDLE")) {
		if (thread)
			c->def->sched_idle = !strcmp(p, "SCHED_IDLE");
		else if (c->def->sched_idle != !strcmp(p, "SCHED_IDLE"))
			ignore(c->w, "policy (per phase: a policy change of a running task)");
		return 0;
	}
	if (rt_policy(p)) {
		c->left_out = true;
		char item[2 * SIM_NAME_LEN];

		snprintf(item, sizeof(item), "%s (%s)", c->def->name, p);
		note(c->w->left_out, sizeof(c->w->left_out), item);
		return 0;
	}
	return fail("%s: unknown policy '%s'; use SCHED_OTHER, SCHED_IDLE, SCHED_FIFO, "
		    "SCHED_RR or SCHED_DEADLINE", c->where, p);
}

static int cpus(struct ctx *c, json_object *v, ft_u64 *mask)
{
	long long cpu;
	char what[sizeof(c->where) + 8];

	snprintf(what, sizeof(what), "%s: cpus", c->where);
	if (!json_object_is_type(v, json_type_array) || !json_object_array_length(v))
		return fail("%s must be a non-empty array of CPU numbers", what);
	*mask = 0;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *x = json_object_array_get_idx(v, i);

		if (!json_object_is_type(x, json_type_int))
			return fail("%s must hold CPU numbers, not %s", what, json_object_to_json_string(x));
		cpu = json_object_get_int64(x);
		if (cpu < 0 || cpu >= c->nr_cpus)
			return fail("%s: CPU %lld is outside the machine (%d CPUs: 0..%d); "
				    "use CPUS= for a bigger one", what, cpu, c->nr_cpus, c->nr_cpus - 1);
		*mask |= 1ULL << cpu;
	}
	return 0;
}

/* Keys a thread or a phase may carry that are not events. */
static int property(struct ctx *c, const char *k, json_object *v, bool thread, bool *done)
{
	struct sim_phase *ph = c->ph;
	long long n;
	ft_u64 mask = 0, ns;
	char what[sizeof(c->where) + 64];
	int g;

	*done = true;
	if (!strcmp(k, "loop")) {
		snprintf(what, sizeof(what), "%s: loop", c->where);
		if (get_int(v, what, thread ? -1 : 1, 1LL << 40, &n))
			return -1;
		if (!n)
			return fail("%s: loop 0 runs nothing; use -1 (forever) or a count", c->where);
		if (thread)
			c->def->loop = n;
		else
			ph->loop = n;
	} else if (!strcmp(k, "priority") && c->rt) {
		/* an RT priority; the task is left out */
		snprintf(what, sizeof(what), "%s: priority (an RT task's)", c->where);
		if (get_int(v, what, 0, 99, &n))
			return -1;
	} else if (!strcmp(k, "priority")) {
		snprintf(what, sizeof(what), "%s: priority (a SCHED_OTHER task's nice)", c->where);
		if (get_int(v, what, -20, 19, &n))
			return -1;
		if (thread)
			c->def->nice = n;
		else
			ph->nice = n;
	} else if (!strcmp(k, "dl-runtime")) {
		/* on SCHED_OTHER this is sched_attr.sched_runtime: the slice */
		snprintf(what, sizeof(what), "%s: dl-runtime", c->where);
		if (get_us(v, what, &ns, false))
			return -1;
		if (thread)
			c->def->slice_ns = ns;
		else
			ph->slice_ns = ns;
	} else if (!strcmp(k, "policy")) {
		return policy(c, v, thread);
	} else if (!strcmp(k, "cpus")) {
		if (cpus(c, v, &mask))
			return -1;
		if (thread)
			c->def->cpus = mask;
		else if (mask != c->def->cpus)
			ignore(c->w, "cpus (per phase: affinity changes of a running task)");
	} else if (!strcmp(k, "taskgroup")) {
		if (!get_str(v))
			return fail("%s: taskgroup must be a string", c->where);
		g = group(c->w, get_str(v), c->where);
		if (g == -2)
			return -1;
		if (thread)
			c->def->group = g;
		else
			ph->group = g;
	} else {
		*done = false;
		for (size_t i = 0; i < sizeof(ignored_props) / sizeof(*ignored_props); i++)
			if (!strcmp(k, ignored_props[i]))
				*done = true;
		if (*done)
			ignore(c->w, k);
	}
	return 0;
}

/* The events (and per-phase properties) of one object, in file order. */
static int read_events(struct ctx *c, json_object *obj, bool thread)
{
	json_object_object_foreach(obj, key, v) {
		char k[SIM_NAME_LEN];
		bool done = false;

		base_key(key, k);
		if (thread && (!strcmp(k, "instance") || !strcmp(k, "delay") || !strcmp(k, "phases")))
			continue;
		if (property(c, k, v, thread, &done))
			return -1;
		if (done)
			continue;
		for (size_t i = 0; i < sizeof(events) / sizeof(*events) && !done; i++) {
			if (strncmp(k, events[i].prefix, strlen(events[i].prefix)))
				continue;
			if (add_event(c, events[i].kind, k, v))
				return -1;
			done = true;
		}
		for (size_t i = 0; i < sizeof(ignored_events) / sizeof(*ignored_events) && !done; i++)
			if (!strncmp(k, ignored_events[i], strlen(ignored_events[i]))) {
				ignore(c->w, ignored_events[i]);
				done = true;
			}
		if (!done)
			return fail("%s: unknown event or key '%s'; events are run, runtime, sleep, "
				    "timer, lock, unlock, wait, signal, broad, sync, barrier, "
				    "suspend, resume, yield, fork (and fairsim's pipe_write, pipe_read)",
				    c->where, k);
	}
	return 0;
}

static struct sim_phase *new_phase(struct sim_def *d, const char *name)
{
	d->ph = realloc(d->ph, (d->nr_ph + 1) * sizeof(*d->ph));
	if (!d->ph)
		abort();
	d->ph[d->nr_ph] = (struct sim_phase){ .loop = 1, .nice = SIM_KEEP,
					      .slice_ns = SIM_KEEP_SLICE, .group = -1 };
	snprintf(d->ph[d->nr_ph].name, SIM_NAME_LEN, "%s", name);
	return &d->ph[d->nr_ph++];
}

static bool defined(struct sim_workload *w, const char *name)
{
	for (int i = 0; i < w->nr_defs; i++)
		if (!strcmp(w->defs[i].name, name))
			return true;
	return false;
}

/* A phase whose events all took 0 us would spin at one instant. */
static int phase_events(struct ctx *c)
{
	if (c->ph->nr_ev)
		return 0;
	if (c->zero)
		return fail("%s: its events all take 0 us; it would spin at one instant", c->where);
	return fail("%s has no events; give it at least a run or a sleep", c->where);
}

static int read_thread(struct sim_workload *w, const char *key, json_object *t, int nr_cpus)
{
	struct ctx c = { .w = w, .nr_cpus = nr_cpus };
	char name[SIM_NAME_LEN + 16];
	const char *pol = default_policy;
	struct sim_def *d;
	json_object *v, *phases = NULL;
	long long n;

	/* a name used twice gets a number, as workgen gives it: "a", "a1" */
	snprintf(name, sizeof(name), "%s", key);
	for (int i = 1; defined(w, name); i++)
		snprintf(name, sizeof(name), "%s%d", key, i);
	if (strlen(name) >= SIM_NAME_LEN)
		return fail("task name '%s' is too long (at most %d characters)", name, SIM_NAME_LEN - 1);
	if (!json_object_is_type(t, json_type_object))
		return fail("task '%s' must be an object", name);
	w->defs = realloc(w->defs, (w->nr_defs + 1) * sizeof(*w->defs));
	if (!w->defs)
		abort();
	d = &w->defs[w->nr_defs++];
	*d = (struct sim_def){ .instance = 1, .loop = -1, .group = -1 };
	strcpy(d->name, name);
	c.def = d;
	snprintf(c.where, sizeof(c.where), "task '%s'", name);
	if (json_object_object_get_ex(t, "policy", &v) && get_str(v))
		pol = get_str(v);
	c.rt = rt_policy(pol);
	if (pol == default_policy && c.rt) {
		char item[2 * SIM_NAME_LEN + 32];

		snprintf(item, sizeof(item), "%s (%s by default_policy)", name, pol);
		note(w->left_out, sizeof(w->left_out), item);
		c.left_out = true;
	}
	d->sched_idle = !strcmp(pol, "SCHED_IDLE");

	if (json_object_object_get_ex(t, "instance", &v)) {
		if (get_int(v, "instance", 0, 1LL << 30, &n))
			return -1;
		d->instance = n;
	}
	if (json_object_object_get_ex(t, "delay", &v)) {
		if (get_int(v, "delay (us)", 0, SIM_MAX_NS / 1000, &n))
			return -1;
		d->delay_ns = n * 1000;
	}
	json_object_object_get_ex(t, "phases", &phases);
	/* thread-level properties and, without "phases", the one phase's events */
	c.ph = new_phase(d, "phase0");
	if (read_events(&c, t, true))
		return -1;
	if (phases) {
		if (c.ph->nr_ev)
			return fail("%s has both \"phases\" and events of its own; put the events "
				    "in a phase", c.where);
		if (!json_object_is_type(phases, json_type_object))
			return fail("%s: \"phases\" must be an object of phase objects", c.where);
		d->nr_ph = 0;
		json_object_object_foreach(phases, pname, p) {
			char k[SIM_NAME_LEN];

			base_key(pname, k);
			if (!json_object_is_type(p, json_type_object))
				return fail("%s: phase '%s' must be an object", c.where, k);
			c.ph = new_phase(d, k);
			c.zero = 0;
			snprintf(c.where, sizeof(c.where), "task '%s' phase '%s'", name, k);
			if (read_events(&c, p, false) || phase_events(&c))
				return -1;
		}
	}
	snprintf(c.where, sizeof(c.where), "task '%s'", name);
	if (!d->nr_ph)
		return fail("%s: \"phases\" is empty; give it a phase of events", c.where);
	if (phase_events(&c))
		return -1;
	if (c.left_out)
		d->instance = -1;
	return 0;
}

/* A task whose events neither take time nor block would spin at one instant. */
static bool takes_time(const struct sim_def *d)
{
	for (int p = 0; p < d->nr_ph; p++)
		for (int e = 0; e < d->ph[p].nr_ev; e++)
			switch (d->ph[p].ev[e].kind) {
			case SIM_RUN: case SIM_RUNTIME: case SIM_SLEEP: case SIM_TIMER:
			case SIM_WAIT: case SIM_SYNC: case SIM_SUSPEND: case SIM_BARRIER:
			case SIM_PIPE_READ:
				return true;
			default:
				break;
			}
	return false;
}

static int check(struct sim_workload *w)
{
	/* forks named tasks defined after them: resolve now */
	for (int i = 0; i < w->nr_defs; i++)
		for (int p = 0; p < w->defs[i].nr_ph; p++)
			for (int e = 0; e < w->defs[i].ph[p].nr_ev; e++) {
				struct sim_event *ev = &w->defs[i].ph[p].ev[e];

				if (ev->kind != SIM_FORK || ev->res >= 0)
					continue;
				const char *name = w->res[-2 - ev->res].name;

				for (int j = 0; j < w->nr_defs; j++)
					if (!strcmp(w->defs[j].name, name))
						ev->res = j;
				if (ev->res < 0)
					return fail("task '%s': fork '%s' names no task; define it under "
						    "\"tasks\"", w->defs[i].name, name);
			}
	for (int i = 0; i < w->nr_defs; i++) {
		struct sim_def *d = &w->defs[i];

		if (d->instance > 0)
			w->nr_tasks += d->instance;
		if (!takes_time(d))
			return fail("task '%s': none of its events takes time (run, runtime, sleep, "
				    "timer) or blocks (wait, sync, suspend, barrier, pipe_read); it would spin at "
				    "one instant", d->name);
		/* barrier users: every instance of every task that names it */
		for (int p = 0; p < d->nr_ph; p++)
			for (int e = 0; e < d->ph[p].nr_ev; e++) {
				struct sim_event *ev = &d->ph[p].ev[e];
				bool first = true;

				if (ev->kind != SIM_BARRIER)
					continue;
				for (int q = 0; q <= p; q++)
					for (int f = 0; f < (q == p ? e : d->ph[q].nr_ev); f++)
						if (d->ph[q].ev[f].kind == SIM_BARRIER &&
						    d->ph[q].ev[f].res == ev->res)
							first = false;
				if (first && d->instance > 0)
					w->res[ev->res].users += d->instance;
			}
	}
	if (w->nr_tasks > SIM_MAX_TASKS)
		return fail("%d task instances; the limit is %d (SIM_MAX_TASKS): lower "
			    "\"instance\"", w->nr_tasks, SIM_MAX_TASKS);
	for (int i = 0; i < w->nr_res; i++) {
		struct sim_res *r = &w->res[i];

		if (r->kind == SIM_RES_COND && !r->wakers)
			return fail("wait on '%s', but no signal, broad or sync names it; it would "
				    "wait forever", r->name);
		if (r->kind == SIM_RES_COND && !r->waiters)
			return fail("signal or broad '%s', but nothing waits on it; check the name",
				    r->name);
		if (r->kind == SIM_RES_PIPE && (!r->readers || !r->writers))
			return fail("pipe '%s' is %s but never %s; it would block forever", r->name,
				    r->readers ? "read" : "written", r->readers ? "written" : "read");
		if (r->kind == SIM_RES_SUSPEND && !r->waiters)
			return fail("resume '%s', but no task suspends on '%s'; name a task that "
				    "suspends", r->name, r->name);
	}
	return 0;
}

static int read_global(struct sim_workload *w, json_object *g)
{
	long long n;

	if (!json_object_is_type(g, json_type_object))
		return fail("\"global\" must be an object");
	json_object_object_foreach(g, key, v) {
		char k[SIM_NAME_LEN];

		base_key(key, k);
		if (!strcmp(k, "duration")) {
			if (get_int(v, "global: duration (s)", -1, 1LL << 62, &n))
				return -1;
			if (!n)
				return fail("global: duration 0 runs nothing; use seconds > 0, or -1 "
					    "(until every task ends)");
			if (n > 0 && (ft_u64)n > SIM_MAX_NS / 1000000000ULL)
				return fail("global: duration %lld s overflows the clock (at most %llu s)",
					    n, SIM_MAX_NS / 1000000000ULL);
			w->duration_ns = n < 0 ? 0 : (ft_u64)n * 1000000000ULL;
		} else if (!strcmp(k, "pipe_capacity")) {
			/* fairsim's own: a pipe's size in messages (hackbench's shape) */
			if (get_int(v, "global: pipe_capacity (messages)", 1, 1LL << 30, &n))
				return -1;
			w->pipe_capacity = n;
		} else if (!strcmp(k, "pipe_page_messages")) {
			/* fairsim's own: how many of them one page holds (sim/pipe.c) */
			if (get_int(v, "global: pipe_page_messages (messages)", 1, 1LL << 30, &n))
				return -1;
			w->pipe_page_messages = n;
		} else if (!strcmp(k, "pipe_write_locked_ns") || !strcmp(k, "pipe_read_locked_ns")) {
			/* fairsim's own: a write's or read's time under the pipe's mutex */
			if (get_int(v, k[5] == 'w' ? "global: pipe_write_locked_ns" :
				    "global: pipe_read_locked_ns", 0, 1LL << 40, &n))
				return -1;
			w->pipe_locked_ns[k[5] != 'w'] = n;
		} else if (!strcmp(k, "default_policy")) {
			if (!get_str(v) || !known_policy(get_str(v)))
				return fail("global: default_policy %s is unknown; use SCHED_OTHER, "
					    "SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE",
					    json_object_to_json_string(v));
			/* an RT default leaves out the tasks that name no policy */
			snprintf(default_policy, sizeof(default_policy), "%s", get_str(v));
		} else {
			ignore(w, k);
		}
	}
	return 0;
}

/*
 * "resources": rt-app creates resources from their use, so a declaration
 * adds nothing, except the pre-1.0 signal's "target" (see struct target).
 * The types are those rt-app 1.0 or a later one takes.
 */
static int read_resources(json_object *r)
{
	static const char *const types[] = {
		"run", "runtime", "mutex", "signal", "wait", "broadcast", "sync", "sleep",
		"timer", "barrier", "mem", "iorun", "yield", "suspend", "resume", "fork",
	};

	if (!json_object_is_type(r, json_type_object))
		return 0;	/* the oldest files give a count of mutexes */
	json_object_object_foreach(r, key, v) {
		json_object *x;
		const char *type = NULL;
		bool known = false;

		if (!json_object_is_type(v, json_type_object))
			return fail("resources: '%s' must be an object { \"type\": ... }", key);
		if (json_object_object_get_ex(v, "type", &x)) {
			type = get_str(x);
			for (size_t i = 0; type && i < sizeof(types) / sizeof(*types); i++)
				known |= !strcmp(type, types[i]);
			if (!known)
				return fail("resources: '%s' has type %s, which rt-app does not know; "
					    "use mutex, wait, signal, broadcast, sync, timer or barrier",
					    key, json_object_to_json_string(x));
		}
		if (!json_object_object_get_ex(v, "target", &x))
			continue;
		if (!get_str(x) || !*get_str(x) || strlen(get_str(x)) >= SIM_NAME_LEN ||
		    strlen(key) >= SIM_NAME_LEN)
			return fail("resources: '%s' needs a \"target\" that names a resource "
				    "(at most %d characters)", key, SIM_NAME_LEN - 1);
		targets = realloc(targets, (nr_targets + 1) * sizeof(*targets));
		if (!targets)
			abort();
		snprintf(targets[nr_targets].name, SIM_NAME_LEN, "%s", key);
		snprintf(targets[nr_targets++].target, SIM_NAME_LEN, "%s", get_str(x));
	}
	return 0;
}

/* One line for the targets followed, which Debian's rt-app 1.0 does not. */
static void say_targets(void)
{
	if (!nr_targets)
		return;
	fprintf(stderr, "fairsim: %s: resources: signal targets followed (", file);
	for (int i = 0; i < nr_targets; i++)
		fprintf(stderr, "%s%s -> %s", i ? ", " : "", targets[i].name, targets[i].target);
	fprintf(stderr, ") as rt-app before 1.0 did; rt-app 1.0 ignores \"target\" and "
		"wakes only the waiters of the signal's own name\n");
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n;

	if (!f)
		return NULL;
	*len = 0;
	do {
		if (*len + 65536 > cap) {
			cap = cap * 2 + 65536;
			buf = realloc(buf, cap + 1);
			if (!buf)
				abort();
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

/*
 * A file that gives its pipe's size alone keeps one message a page; one
 * that gives neither has the kernel's 16 pages of hackbench's default
 * 100-byte messages (40 a page).
 */
static int pipe_size(struct sim_workload *w)
{
	if (!w->pipe_page_messages)
		w->pipe_page_messages = w->pipe_capacity ? 1 : 40;
	if (!w->pipe_capacity)
		w->pipe_capacity = 16 * w->pipe_page_messages;
	if (w->pipe_capacity % w->pipe_page_messages)
		return fail("global: pipe_capacity %ld is not a whole number of pages of "
			    "pipe_page_messages %ld; give a multiple (the kernel's pipe: 16 pages)",
			    w->pipe_capacity, w->pipe_page_messages);
	w->pipe_pages = w->pipe_capacity / w->pipe_page_messages;
	return 0;
}

int sim_parse(const char *path, struct sim_workload *w, int nr_cpus)
{
	struct json_tokener *tok;
	json_object *root, *tasks = NULL, *v0;
	size_t len, end;
	char *text, *plain;
	int ret = -1;

	file = path;
	strcpy(default_policy, "SCHED_OTHER");
	*w = (struct sim_workload){ 0 };
	snprintf(w->path, sizeof(w->path), "%s", path);
	text = slurp(path, &len);
	if (!text)
		return fail("cannot read it (%s)", strerror(errno));
	plain = sim_prepass(text, len);
	free(text);
	tok = json_tokener_new();
	root = json_tokener_parse_ex(tok, plain, strlen(plain) + 1);
	end = json_tokener_get_parse_end(tok);
	if (!root) {
		int line = 1;

		for (size_t i = 0; i < end && plain[i]; i++)
			line += plain[i] == '\n';
		fail("line %d: malformed JSON: %s; fix the syntax there", line,
		     json_tokener_error_desc(json_tokener_get_error(tok)));
		goto out;
	}
	if (!json_object_is_type(root, json_type_object)) {
		fail("the top level must be an object with \"tasks\"");
		goto out;
	}
	/* what the tasks depend on first, wherever the file puts it */
	if ((json_object_object_get_ex(root, "global", &v0) && read_global(w, v0)) ||
	    (json_object_object_get_ex(root, "resources", &v0) && read_resources(v0)))
		goto out;
	json_object_object_foreach(root, key, v) {
		char k[SIM_NAME_LEN];

		base_key(key, k);
		if (!strcmp(k, "tasks")) {
			tasks = v;
		} else if (!strcmp(key, "global")) {
			continue;	/* read above */
		} else if (!strcmp(k, "global")) {
			if (read_global(w, v))
				goto out;
		} else if (!strcmp(k, "resources")) {
			if (!nr_targets)
				ignore(w, "resources");	/* rt-app creates them from use */
		} else {
			fail("unknown top-level key '%s'; an rt-app file has tasks, global, resources", k);
			goto out;
		}
	}
	if (pipe_size(w))
		goto out;
	if (!tasks || !json_object_is_type(tasks, json_type_object)) {
		fail("no \"tasks\" object; an rt-app file needs one");
		goto out;
	}
	{
		json_object_object_foreach(tasks, name, t) {
			char k[SIM_NAME_LEN];

			base_key(name, k);
			if (read_thread(w, k, t, nr_cpus))
				goto out;
		}
	}
	if (!w->nr_defs) {
		fail("\"tasks\" is empty; define at least one task");
		goto out;
	}
	ret = check(w);
	if (!ret && !w->nr_tasks && w->left_out[0]) {
		ret = fail("no task of the fair class is left to run (left out: %s); "
			   "give a task \"policy\": \"SCHED_OTHER\"", w->left_out);
		goto out;
	}
	if (!ret)
		say_targets();
out:
	free(targets);
	targets = NULL;
	nr_targets = 0;
	if (ret)
		sim_workload_free(w);
	json_object_put(root);
	json_tokener_free(tok);
	free(plain);
	return ret;
}

void sim_workload_free(struct sim_workload *w)
{
	for (int i = 0; i < w->nr_defs; i++) {
		for (int p = 0; p < w->defs[i].nr_ph; p++)
			free(w->defs[i].ph[p].ev);
		free(w->defs[i].ph);
	}
	free(w->defs);
	free(w->res);
	*w = (struct sim_workload){};
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload simulator's own model, shared by its parts: a workload read
 * from an rt-app JSON file (parse.c) becomes thread definitions made of
 * phases made of events; the engine (engine.c) runs instances of them as
 * driven tasks of the fake machine through shim/fairtest.h, never through
 * kernel headers; metrics (stats.c), reports (report.c) and the trace
 * (trace.c) read what it recorded. Times are virtual nanoseconds.
 */
#ifndef FAIRTEST_SIM_H
#define FAIRTEST_SIM_H

#include <stdio.h>
#include "fairtest.h"

/* Task ids of the driver are below 1024; we keep one spare. */
#define SIM_MAX_TASKS	1000
#define SIM_NAME_LEN	64
/* Nothing may end later than this: ~146 years of virtual time, far from
 * the u64 nanosecond clock's end, so sums of two times never overflow. */
#define SIM_MAX_NS	(1ULL << 62)

enum sim_ev_kind {
	SIM_RUN, SIM_RUNTIME, SIM_SLEEP, SIM_TIMER, SIM_LOCK, SIM_UNLOCK,
	SIM_WAIT, SIM_SIGNAL, SIM_BROAD, SIM_SYNC, SIM_BARRIER, SIM_SUSPEND,
	SIM_RESUME, SIM_YIELD, SIM_FORK,
	/* fairsim's own, for hackbench's shape: a bounded pipe of messages */
	SIM_PIPE_WRITE, SIM_PIPE_READ,
};

struct sim_event {
	enum sim_ev_kind kind;
	ft_u64 ns;		/* run, runtime, sleep; timer period */
	int res;		/* resource: mutex, cond, barrier, timer; fork: def */
	int mutex;		/* wait, sync: the mutex; -1 none */
	bool absolute;		/* timer mode */
};

struct sim_phase {
	char name[SIM_NAME_LEN];
	long loop;		/* times in a row; >= 1 */
	struct sim_event *ev;
	int nr_ev;
	int nice;		/* applied at phase start; SIM_KEEP = unchanged */
	ft_u64 slice_ns;	/* likewise; SIM_KEEP_SLICE = unchanged */
	int group;		/* likewise; -1 = unchanged */
};
#define SIM_KEEP	1000
#define SIM_KEEP_SLICE	(~0ULL)

struct sim_def {
	char name[SIM_NAME_LEN];
	int instance;
	long loop;		/* -1 = forever */
	ft_u64 delay_ns;
	int nice;
	ft_u64 slice_ns;
	ft_u64 cpus;		/* 0 = every CPU */
	int group;		/* index into sim_workload.groups; -1 = root */
	bool sched_idle;
	struct sim_phase *ph;
	int nr_ph;
	int forked;		/* instances created by fork events so far */
};

enum sim_res_kind { SIM_RES_MUTEX, SIM_RES_COND, SIM_RES_BARRIER, SIM_RES_TIMER,
		    SIM_RES_SUSPEND, SIM_RES_NAME /* a fork's target, until resolved */,
		    SIM_RES_PIPE };

struct sim_res {
	char name[SIM_NAME_LEN];
	enum sim_res_kind kind;
	bool unique;		/* timer: one per task instance */
	int users;		/* barrier: instances that use it */
	int readers, writers;	/* pipe: events that read, write it */
	int wakers;		/* cond, suspend: events that wake it */
	int waiters;		/* cond, suspend: events that wait on it */
};

struct sim_workload {
	char path[256];
	struct sim_def *defs;
	int nr_defs;
	struct sim_res *res;
	int nr_res;
	char groups[32][SIM_NAME_LEN];
	int nr_groups;
	ft_u64 duration_ns;	/* 0 = until every task has finished */
	int nr_tasks;		/* instances started at time 0 */
	long pipe_capacity;	/* messages a pipe holds (global.pipe_capacity) */
	long pipe_page_messages;	/* of them, one page's (global.pipe_page_messages) */
	long pipe_pages;	/* the one over the other, kept: a pipe step's check divides none */
	ft_u64 pipe_locked_ns[2];	/* a write's, a read's time under the pipe's mutex */
	char ignored[1024];	/* keys read and not modelled, once each */
	char left_out[1024];	/* tasks of classes we do not model */
};

/* pipe.c: a pipe's pages, as fs/pipe.c keeps them */
struct sim_pipe {
	int *unread;		/* a ring: each page in use, oldest at first; cap a power of 2 */
	int cap, first, n;
	long last_written;	/* messages written into the newest page */
	int owner;		/* pipe->mutex: its holder's task index + 1, 0 = free */
	bool handoff;		/* its first waiter asked for it (MUTEX_FLAG_HANDOFF) */
};
/*
 * What writes that never slept can add before one blocks (the plans'
 * bound): inline, as plan.c checks it for every planned write.
 */
static inline long sim_pipe_room(const struct sim_workload *w, const struct sim_pipe *p)
{
	long pm = w->pipe_page_messages;

	if (!p->n)
		return w->pipe_pages * pm;
	return (w->pipe_pages - p->n) * pm + pm - p->last_written;
}
/* The workload gives the pipe's mutex a time: its operations take it. */
static inline bool sim_pipe_locked(const struct sim_workload *w)
{
	return w->pipe_locked_ns[0] || w->pipe_locked_ns[1];
}
static inline bool sim_pipe_full(const struct sim_workload *w, const struct sim_pipe *p)
{
	return p->n >= w->pipe_pages;
}
/* @retry: the writer slept in this write and goes on in pipe_write()'s loop. */
static inline bool sim_pipe_writable(const struct sim_workload *w, const struct sim_pipe *p,
				     bool retry)
{
	if (!retry && p->n && p->last_written < w->pipe_page_messages)
		return true;
	return !sim_pipe_full(w, p);
}
void sim_pipe_grow(struct sim_pipe *p);

/* inline: a plan's catch-up takes most pipe steps (plan.c) */
static inline void sim_pipe_put(const struct sim_workload *w, struct sim_pipe *p, bool retry)
{
	if (!retry && p->n && p->last_written < w->pipe_page_messages) {
		p->unread[(p->first + p->n - 1) & (p->cap - 1)]++;
		p->last_written++;
		return;
	}
	if (p->n == p->cap)
		sim_pipe_grow(p);
	p->unread[(p->first + p->n++) & (p->cap - 1)] = 1;
	p->last_written = 1;
}

/* One message from the oldest page; true when that emptied and freed it. */
static inline bool sim_pipe_take(struct sim_pipe *p)
{
	if (--p->unread[p->first])
		return false;
	p->first = (p->first + 1) & (p->cap - 1);
	p->n--;
	return true;
}
bool sim_pipe_read_wakes_writer(bool was_full, bool freed);
bool sim_pipe_lock(struct sim_pipe *p, int who, bool first_waiter);
void sim_pipe_unlock(struct sim_pipe *p, int first_waiter);
void sim_pipe_free(struct sim_pipe *p);

/* parse.c: 0, or -1 after printing one line "fairsim: <file>: ..." */
int sim_parse(const char *path, struct sim_workload *w, int nr_cpus);
void sim_workload_free(struct sim_workload *w);

/* prepass.c: comments, trailing commas and repeated keys made plain JSON */
char *sim_prepass(const char *text, size_t len);

/*
 * stats.c: percentiles over samples (nanoseconds), kept in 32 bits each
 * until one needs more (4.29 s): then all are in @v
 */
struct sim_samples {
	unsigned int *w;
	ft_u64 *v;
	size_t n, cap;
	ft_u64 sum, max;
};
static inline ft_u64 sim_sample(const struct sim_samples *s, size_t i)
{
	return s->v ? s->v[i] : s->w[i];
}
void sim_samples_put(struct sim_samples *s, ft_u64 ns);
/* inline: a switch adds one or two; the call when the array must grow or widen */
static inline void sim_samples_add(struct sim_samples *s, ft_u64 ns)
{
	if (!s->w || s->n == s->cap || ns >> 32) {
		sim_samples_put(s, ns);
		return;
	}
	s->w[s->n++] = ns;
	s->sum += ns;
	if (ns > s->max)
		s->max = ns;
}
/*
 * Sorted by report.c where it reads percentiles, not at the run's end: a
 * --quiet run without --json sorts nothing. A second sort (the text
 * report and --json both) finds them sorted and leaves the same order.
 */
void sim_samples_sort(struct sim_samples *s);
ft_u64 sim_pct(const struct sim_samples *s, double pct);	/* sorted */
void sim_samples_free(struct sim_samples *s);

/*
 * A step a running task takes without waking the event loop (plan.c's
 * plans): a pipe operation known to neither block nor wake, at @due if
 * the task runs on (its exec time then reaches the step's); then it runs
 * the run event at the position given.
 */
struct sim_step {
	ft_u64 due;
	long phase_loop, thread_loop;
	int phase, ev;
	int res;
	bool write;
	bool retry;	/* a read's try again after its wake-up (plan.c) */
};
#define SIM_PLAN_MAX	16
#define SIM_PLAN_EXTEND	4	/* steps left when an open plan grows */

/* What the engine measured for one task instance. */
struct sim_task {
	int id;			/* the driver's task id (pid in traces) */
	int def, inst;
	char comm[16];		/* as the kernel would truncate it */
	/* where in the program */
	int phase, ev, state;
	long phase_loop, thread_loop;
	bool done, wake_token, started, delaying, blocked;
	bool gref;		/* woken by a signal or broadcast, not yet run */
	bool cost_due;		/* asleep since its last run: the wake-up cost is due */
	bool woken_in;		/* in run->woken_in (engine.c) */
	ft_u64 cpu_owed;	/* CPU time owed: its futex wake-ups, its phases' ends */
	ft_u64 call_owed;	/* of that, its futex call's, paid first (--exit-switch) */
	bool in_call;		/* in a futex call that woke, until it returns (--exit-switch) */
	bool sleep_due;		/* blocks once that time is run */
	bool pipe_retry;	/* slept in this pipe operation: pipe_write()'s loop goes on */
	ft_u64 start_delay;	/* delay plus the seed's jitter */
	/* timers of this instance ("unique" ones) */
	ft_u64 *timer_next;
	/* measurements */
	ft_u64 wake_at;		/* last wake-up, for its latency */
	bool woken;
	ft_u64 wait_from;	/* runnable since */
	bool waiting;
	struct sim_samples wake_lat, wait;
	struct sim_samples resp;	/* wake-up to the next sleep: a request's latency */
	ft_u64 woke_at;		/* last wake-up, for its response time */
	bool active;
	ft_u64 exec_ns, wait_ns;
	unsigned long switches, preemptions, migrations, wakeups;
	ft_u64 max_delay, max_delay_at;
	int cpu;		/* the last it ran on */
	/* analysis.c's own state */
	ft_u64 run_ns;		/* time between its switches in and out */
	ft_u64 on_since;
	bool on_cpu;
	int rq_cpu;		/* the CPU it is queued on, -1 not known */
	bool woke_idle;		/* its last wake-up found its CPU idle */
	ft_u64 allowed;		/* CPUs it may run on, 0 = all */
	/* plan.c's plan: steps [plan_i, plan_n) not yet taken, on plan_cpu */
	struct sim_step *plan;
	int plan_i, plan_n, plan_cpu;
	ft_u64 plan_lag;	/* a step's due less its exec time */
	ft_u64 plan_end;	/* the due of the end of its last run */
	bool plan_open;		/* it ended only for want of room */
};

/*
 * analysis.c: the one analysis of sched events (struct ft_obs, what
 * core.c's tracepoints report), fed by fairsim's observer or by a real
 * kernel's trace; tasks[] are the tasks it reports on, @task_of maps a
 * pid to one of them (NULL: not reported, though a CPU it runs on is busy).
 */
struct sim_an {
	int nr_cpus;
	struct sim_task *(*task_of)(void *ctx, int pid);
	void *ctx;
	struct sim_task *tasks;
	int nr_tasks;
	int curr[FT_MAX_CPUS];	/* pid running, 0 idle, -1 not known yet */
	ft_u64 cpu_since[FT_MAX_CPUS];	/* since when */
	ft_u64 other_ns;	/* CPU time of the tasks not reported */
	struct sim_samples idle_wake;	/* wake-up to switch on an idle CPU */
	ft_u64 last;		/* the instant of the last event */
	bool dirty;		/* an event since the idle state was accounted */
	int waiting_on[FT_MAX_CPUS];	/* tasks allowed everywhere, waiting there */
	int pinned_waiting;	/* tasks with an affinity, waiting anywhere */
	ft_u64 idle_since[FT_MAX_CPUS];	/* open interval's start + 1; 0 none */
	/* as bits: curr 0, waiting_on non-zero, idle_since non-zero */
	ft_u64 idle_cpus, waited_cpus, open_cpus;
	struct ft_idle_stats idle[FT_MAX_CPUS + 1];	/* [nr_cpus]: all CPUs */
};
void sim_an_init(struct sim_an *a, int nr_cpus, bool idle_at_start,
		 struct sim_task *(*task_of)(void *ctx, int pid), void *ctx);
void sim_an_event(struct sim_an *a, const struct ft_obs *o);
/* the same, @t and @prev a->task_of()'s of o->pid and (a switch's) o->prev_pid */
void sim_an_seen(struct sim_an *a, const struct ft_obs *o, struct sim_task *t,
		 struct sim_task *prev);
void sim_an_end(struct sim_an *a, ft_u64 end);

/*
 * The machine's costs by default: the kernel's timer slack of a normal
 * task (50 us); the CPU time a task spends per wake-up and an idle CPU's
 * delay from a wake-up to its switch: estimates read from single rt-app
 * traces on a Debian 12 VM, not a calibration (docs/twin-analysis.md;
 * docs/fidelity.md has what the twin's real runs measured).
 */
#define SIM_TIMER_SLACK_NS	50000ULL
#define SIM_WAKE_COST_NS	10000ULL
#define SIM_IDLE_EXIT_NS	5000ULL
#define SIM_WAKE_PREEMPT_NS	5000ULL
/* a cost not given: --unlock-wake-cost takes --futex-wake-cost's */
#define SIM_COST_UNSET		(~0ULL)

struct sim_opts {
	const char *workload;
	int cpus;
	/* the machine: a topology's sched domains, or islands (none) */
	struct ft_topology topo;
	bool islands;
	unsigned long long seed;
	ft_u64 duration_ns;	/* 0 = the workload's */
	const char *features;	/* "A,!B" */
	const char *json_out, *trace_out;
	/* what a real machine adds (engine.c, --ideal sets all three to 0) */
	ft_u64 timer_slack_ns;	/* a sleep or timer ends up to this much late */
	ft_u64 wake_cost_ns;	/* CPU time a task spends on each wake-up */
	ft_u64 idle_exit_ns;	/* an idle CPU's delay from a wake-up to the switch */
	ft_u64 wake_preempt_ns;	/* a busy CPU's, when the wake-up preempts it */
	ft_u64 tick_preempt_ns;	/* a busy CPU's, from its tick's handler to the switch */
	ft_u64 hrtick_preempt_ns;	/* the same from its hrtick's */
	ft_u64 hrtick_arm_ns;	/* from the switch to its slice's timer armed (7.2+) */
	ft_u64 tick_cost_ns;	/* a tick's handler, of the running task's CPU time */
	ft_u64 timer_wake_ns;	/* from a sleep timer's expiry to its task's wake-up */
	ft_u64 timer_cost_ns;	/* a sleep timer's handler, of the interrupted task's CPU time */
	ft_u64 futex_wake_ns;	/* CPU time a futex waker spends per task it wakes */
	ft_u64 unlock_wake_ns;	/* the same for a mutex unlock's wake-up */
	ft_u64 pipe_wake_ns;	/* CPU time a pipe writer or reader spends per task it wakes */
	ft_u64 loop_cost_ns;	/* CPU time at the end of each pass of a phase (rt-app's own) */
	bool exit_switch;	/* a futex call's wake-up preemption switches at its exit */
	bool no_check;
	bool no_plans;		/* every step through the event loop (engine.c) */
	bool quiet;
};

struct sim_run {
	struct sim_workload *w;
	const struct sim_opts *o;
	struct sim_task *tasks;	/* by instance, in start order */
	int nr_tasks, cap_tasks;
	int by_id[1024];	/* driver id -> index + 1 */
	ft_u64 *timer_next;	/* shared timers, by resource */
	int *barrier_arrived;
	int **waitq;		/* per resource: task indices, FIFO */
	int *waitq_n;
	int *waitq_cap;		/* room of each, grown by doubling */
	int *owner;		/* mutex: task index, -1 free */
	int *word;		/* mutex: glibc's futex word, 0, 1 or 2 */
	int *grefs;		/* condition: woken waiters not yet run */
	int *quiescer;		/* condition: the waker waiting for them, or -1 */
	int *g1;		/* condition: its queue's first, in G1 and not yet signalled */
	bool futex_trace;	/* FAIRSIM_FUTEX=1: glibc's futex calls in the trace */
	long *fill;		/* pipe: messages in it */
	struct sim_pipe *pipes;	/* pipe: its pages (pipe.c) */
	long *plan_w, *plan_r;	/* pipe: writes and reads planned, not yet taken */
	int planners[FT_MAX_CPUS];	/* tasks with a plan: running ones */
	ft_u64 planner_due[FT_MAX_CPUS];	/* each one's first step not taken: its due */
	int nr_planners;
	ft_u64 plan_next;	/* the earliest step due of all plans */
	int *group_id;		/* the driver's id of each taskgroup */
	struct sim_task *forking;	/* being forked: wakeup_new is its */
	int alive, blocked;	/* tasks not exited; blocked on a resource */
	ft_u64 last_now, last_exit;
	ft_u64 end_ns;
	FILE *trace;
	struct sim_an an;	/* what the tables report */
	unsigned long zero_time_steps;
	unsigned long switches;	/* the observer's count: only a switch takes a curr away */
	int behaving;		/* engine.c's behave() runs (nested: more than 1) */
	int *woken_in, nr_woken_in;	/* switched in meanwhile, the wake-up's cost due */
	/* unreasonable idle per CPU, [nr_cpus] the total (idle.c's buckets) */
	struct ft_idle_stats idle[FT_MAX_CPUS + 1];
	char domains[32];	/* CPU 0's levels, "SMT,MC"; "" = none */
	ft_u64 hz, base_slice_ns;	/* the machine's; 0 = not known (a trace) */
	const char *from;	/* --from-trace: the trace read, else NULL */
	const struct sim_trace_info *info;
	char error[512];
};

/* engine.c: 0, or -1 with run->error set; @trace may be NULL */
int sim_run_traced(struct sim_run *run, struct sim_workload *w, const struct sim_opts *o,
		   FILE *trace);
void sim_run_free(struct sim_run *run);

/* plan.c: the engine's plans (run->o->no_plans: none) */
bool sim_plan(struct sim_run *run, struct sim_task *t, ft_u64 ns);	/* @t starts a run of @ns */
bool sim_plan_retry(struct sim_run *run, struct sim_task *t, ft_u64 cost);	/* woken: its cost */
void sim_plans_catch_up(struct sim_run *run);	/* the steps due by now taken */
/* inline: asked before each pipe operation of the loop; pipe @r's steps due taken */
static inline void sim_plans_catch_up_pipe(struct sim_run *run, int r)
{
	if (run->nr_planners && (run->plan_w[r] || run->plan_r[r]) && run->plan_next <= ft_now())
		sim_plans_catch_up(run);
}
void sim_plans_check(struct sim_run *run, int res);	/* after the loop's own step on pipe @res */
void sim_plan_end(struct sim_run *run, struct sim_task *t);	/* a switch away from @t */
struct sim_task *sim_task_of(struct sim_run *run, int id);	/* NULL: not ours */

/* trace.c: the observed events as ftrace text */
void sim_trace(struct sim_run *run, const struct ft_obs *o);
void sim_trace_header(FILE *f, const char *workload, int cpus, ft_u64 end_ns);
void sim_trace_event(struct sim_run *run, int cpu, const char *event, const char *text);

/* ftrace.c: --from-trace; 0, or -1 after printing one line */
struct sim_trace_info {
	int nr_cpus;
	bool fairsim;		/* fairsim's own trace: every CPU idle at 0 */
	ft_u64 end_ns;		/* fairsim's: the run's end */
	long events, lost;	/* lines of our events; "LOST EVENTS" notes */
	ft_u64 first_ns, start_ns;	/* the trace's first event; the window's start */
	ft_u64 short_by;	/* the trace ends this much before the window */
	char missing[256];	/* tasks of the workload without a thread */
};
int sim_from_trace(const char *path, struct sim_run *run, struct sim_workload *w,
		   struct sim_opts *o, struct sim_trace_info *info);

/* compare.c: --compare BASE.json... --vs PATCHED.json... */
int sim_compare(int argc, char **argv);
/* twin.c: --twin FAIRSIM.json REAL.json... */
int sim_twin(int argc, char **argv);

/* report.c */
void sim_report_text(FILE *f, struct sim_run *run);
int sim_report_json(const char *path, struct sim_run *run);

#endif /* FAIRTEST_SIM_H */

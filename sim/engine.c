// SPDX-License-Identifier: GPL-2.0
/*
 * The engine: runs each task instance's events on the fake machine. The
 * driver's event loop does all the scheduling; the engine only answers its
 * question "what does this task do now?" (shim/driver/behave.c), at the
 * instant the task's run budget is used up or it runs again after a
 * wake-up. Zero-time events (signal, unlock, resume, fork, ...) happen in
 * that same instant, one after another, for as long as the task still
 * holds its CPU; a wake-up that preempts it leaves the rest for when it
 * runs again, as on a real machine. Mutexes and conditions are glibc's
 * (rt-app's lock, unlock, wait and broad are pthread_mutex_* and
 * pthread_cond_*), whose futex wake-ups are the workload's own: see
 * lock(), cond_signal() and broad(). Futex and condition queues are FIFO,
 * which keeps the engine deterministic.
 * A wake-up that reaches a waiter before it managed to block (it was
 * preempted in between) is kept as a token, so none is ever lost. Pipe
 * steps that neither block nor wake are planned ahead and taken without
 * the loop, in the same order and at the same instants (plan.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

enum step { STAY, NEXT, AGAIN };

/* zero-time steps at one instant before we call it a livelock */
#define SIM_SPIN_LIMIT	1000000UL

struct sim_task *sim_task_of(struct sim_run *run, int id)
{
	int i = id > 0 && id < 1024 ? run->by_id[id] : 0;

	return i ? &run->tasks[i - 1] : run->forking;
}

static int idx_of(struct sim_run *run, struct sim_task *t)
{
	return t - run->tasks;
}

static void error(struct sim_run *run, const char *msg, const char *name)
{
	if (!run->error[0])
		snprintf(run->error, sizeof(run->error), "%s%s%s", name ? name : "",
			 name ? ": " : "", msg);
}

/* splitmix64: the seed's only use, each task's start jitter */
static ft_u64 mix(ft_u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * Where instance @k of the workload forks. With sched domains, rt-app's
 * main thread creates them all from CPU 0 and fork balancing
 * (select_task_rq_fair() with WF_FORK) places each. On islands fair.c
 * never moves a task, so they are spread round-robin over their allowed
 * CPUs instead, or they would all stay on CPU 0.
 */
static int place(const struct sim_opts *o, ft_u64 cpus, int k)
{
	int allowed[FT_MAX_CPUS], n = 0;

	if (!o->islands)
		return 0;
	for (int cpu = 0; cpu < o->cpus; cpu++)
		if (!cpus || (cpus & (1ULL << cpu)))
			allowed[n++] = cpu;
	return n ? allowed[k % n] : 0;
}

static int start_instance(struct sim_run *run, int d, int cpu, int inst, ft_u64 delay)
{
	struct sim_def *def = &run->w->defs[d];
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	struct sim_task *t;
	int id;

	if (run->nr_tasks == SIM_MAX_TASKS) {
		error(run, "fork goes over the task limit (SIM_MAX_TASKS = 1000)", def->name);
		return -1;
	}
	t = &run->tasks[run->nr_tasks];
	/* named before the fork: its wakeup_new is traced under that name */
	*t = (struct sim_task){ .def = d, .cpu = cpu, .rq_cpu = cpu, .inst = inst,
				.start_delay = delay, .allowed = def->cpus };
	t->timer_next = calloc(run->w->nr_res + 1, sizeof(*t->timer_next));
	attr.nice = def->nice;
	attr.slice_ns = def->slice_ns;
	attr.group = def->group < 0 ? FT_ROOT_GROUP : run->group_id[def->group];
	attr.cpus = def->cpus;
	attr.sched_idle = def->sched_idle;
	attr.cpu = cpu;
	run->forking = t;
	id = ft_task_fork(&attr);
	run->forking = NULL;
	if (id <= 0 || ft_task_set_driven(id)) {
		error(run, "the driver refused to fork it", def->name);
		return -1;
	}
	t->id = id;
	run->by_id[id] = run->nr_tasks + 1;
	run->an.nr_tasks = ++run->nr_tasks;
	run->alive++;
	return 0;
}

static void wake(struct sim_run *run, int i)
{
	struct sim_task *t = &run->tasks[i];

	if (t->blocked) {
		t->blocked = false;
		run->blocked--;
	}
	if (ft_task_wake(t->id) == -EALREADY)
		t->wake_token = true;	/* preempted before it could block */
}

static void enqueue(struct sim_run *run, int res, struct sim_task *t)
{
	if (run->waitq_n[res] == run->waitq_cap[res]) {
		run->waitq_cap[res] = run->waitq_cap[res] ? 2 * run->waitq_cap[res] : 4;
		run->waitq[res] = realloc(run->waitq[res], run->waitq_cap[res] * sizeof(int));
		if (!run->waitq[res])
			abort();
	}
	run->waitq[res][run->waitq_n[res]++] = idx_of(run, t);
}

static int dequeue(struct sim_run *run, int res)
{
	int i;

	if (!run->waitq_n[res])
		return -1;
	i = run->waitq[res][0];
	memmove(run->waitq[res], run->waitq[res] + 1, --run->waitq_n[res] * sizeof(int));
	return i;
}

/*
 * What @t owes before it goes on, as its budget: inside a futex call
 * (--exit-switch) that call's wake-ups alone, the call returning once
 * they are paid (call_exit()), else all of it.
 */
static void pay_owed(struct sim_task *t)
{
	ft_u64 ns = t->in_call && t->call_owed < t->cpu_owed ? t->call_owed : t->cpu_owed;

	ft_task_run_budget(t->id, ns, 0);
	t->cpu_owed -= ns;
	t->call_owed = 0;
}

/*
 * --exit-switch: the futex call returns. A wake-up preemption it asked for
 * on its own CPU switches here, before the task's next event (the driver:
 * ft_resched_at_return()): the loop's preemption point comes first.
 */
static enum step call_exit(struct sim_task *t)
{
	t->in_call = false;
	ft_task_set_kernel(t->id, false);
	ft_task_run_budget(t->id, 0, 0);
	return STAY;
}

static enum step block(struct sim_run *run, struct sim_task *t)
{
	if (t->wake_token) {
		t->wake_token = false;
		return AGAIN;
	}
	if (t->cpu_owed || t->in_call) {	/* its futex wake-ups' CPU time, then the sleep (step()) */
		pay_owed(t);
		t->sleep_due = true;
		return STAY;
	}
	t->cost_due = true;
	t->blocked = true;
	run->blocked++;
	ft_task_sleep(t->id);
	return STAY;
}

/*
 * Timer slack (prctl(PR_SET_TIMERSLACK), 50 us by default for a normal
 * task; rt-app's sleep and timer are clock_nanosleep()s): the hrtimer
 * may expire anywhere from @when to @when + slack. It is programmed for
 * the late end, and expires early only when another interrupt runs the
 * hrtimer queue inside that range: on our machine, whose CPUs all tick
 * at the multiples of the tick, a tick.
 */
static ft_u64 slack(const struct sim_opts *o, ft_u64 when)
{
	ft_u64 tick = ft_tick_nsec(), next_tick;

	if (!o->timer_slack_ns)
		return when;
	next_tick = (when + tick - 1) / tick * tick;
	return next_tick <= when + o->timer_slack_ns ? next_tick : when + o->timer_slack_ns;
}

/*
 * A sleep or timer of rt-app's, due at @when: its hrtimer expires (slack())
 * and its handler wakes the task --timer-wake later, the path from the
 * handler to the wake-up that the model's timer has not. The wake-up's own
 * costs (--idle-exit, --wake-preempt, --wake-cost) count from there.
 */
static ft_u64 expiry(const struct sim_opts *o, ft_u64 when)
{
	return slack(o, when) + o->timer_wake_ns;
}

static enum step sleep_until(struct sim_run *run, struct sim_task *t, ft_u64 when)
{
	t->cost_due = true;
	if (when > SIM_MAX_NS) {
		error(run, "a sleep or timer would overflow the clock", run->w->defs[t->def].name);
		when = SIM_MAX_NS;
	}
	ft_task_sleep(t->id);
	ft_task_wake_at(t->id, when);
	return STAY;
}

/*
 * FAIRSIM_FUTEX=1: the futex call glibc would make here, in the trace as
 * the guest's probes write it (twin/futexes.py reads both). A mutex's word
 * is its resource number, a condition's signals word that plus 0x1000,
 * its group references plus 0x2000.
 */
static void futex_event(struct sim_run *run, struct sim_task *t, const char *event,
			int word, const char *arg, long n)
{
	char text[64];

	if (!run->futex_trace)
		return;
	if (word < 0)
		snprintf(text, sizeof(text), "ret=%ld", n);
	else
		snprintf(text, sizeof(text), "ua=0x%x %s=%ld", word, arg, n);
	/* the analysis' CPU of the task (ft_task_info() would update its rq) */
	sim_trace_event(run, t->rq_cpu, event, text);
}

/*
 * A futex wake-up: the waker pays @ns for each task it wakes
 * (try_to_wake_up() runs on its time) before its next event, or before
 * it sleeps (the unlock inside pthread_cond_wait(): block()). A mutex
 * unlock's is --unlock-wake-cost, every other's --futex-wake-cost.
 */
static void futex_wake_paid(struct sim_run *run, struct sim_task *t, int i, ft_u64 ns)
{
	t->cpu_owed += ns;
	if (run->o->exit_switch) {
		/* a system call from the wake-up until its cost is paid */
		t->call_owed += ns;
		if (!t->in_call)
			ft_task_set_kernel(t->id, true);
		t->in_call = true;
	}
	wake(run, i);
}

static void futex_wake(struct sim_run *run, struct sim_task *t, int i)
{
	futex_wake_paid(run, t, i, run->o->futex_wake_ns);
}

/*
 * glibc's mutex (a normal one: rt-app sets no protocol unless pi_enabled)
 * is a futex word: 0 free, 1 taken, 2 taken and maybe waited for. Unlock
 * stores 0 and, if the word was 2, wakes one futex waiter; nothing is
 * handed over: the woken waiter tries again when it runs and sleeps once
 * more if a task that ran first took the mutex meanwhile. A lock that
 * finds the mutex taken sets 2 before it sleeps, and so does every later
 * try of that lock (and the re-take after a condition wait): its unlock
 * wakes the next waiter, so contended waiters wake each other in turn.
 */
static void unlock(struct sim_run *run, int m, struct sim_task *t)
{
	int next, word = run->word[m];

	if (run->owner[m] != idx_of(run, t))
		return;	/* not ours: pthread would return EPERM, the task goes on */
	run->owner[m] = -1;
	run->word[m] = 0;
	if (word != 2)
		return;
	futex_event(run, t, "fwake", m, "nr", 1);
	if ((next = dequeue(run, m)) >= 0)
		futex_wake_paid(run, t, next, run->o->unlock_wake_ns);
	futex_event(run, t, "fwaker", -1, NULL, next >= 0);
}

/*
 * Take mutex @m (@word 1: lll_lock's first try) or set it contended and
 * sleep on it (@word 2: every later try, and pthread_cond_wait()'s
 * re-take); the caller tries again with 2 when the task runs after that.
 */
static enum step lock(struct sim_run *run, int m, struct sim_task *t, int word)
{
	if (run->owner[m] < 0) {
		run->owner[m] = idx_of(run, t);
		run->word[m] = word;
		return NEXT;
	}
	run->word[m] = 2;
	futex_event(run, t, "fwait", m, "val", 2);
	enqueue(run, m, t);
	return block(run, t);
}

/* a condition's broadcasters waiting for its lock: a pipe's writers' queue */
static int broadcasters(struct sim_run *run, int c)
{
	return run->w->nr_res + 1 + c;
}

/*
 * glibc's condition since 2.25, as in Debian 12's 2.36, which rt-app runs
 * with: waiters queue in G2; G1 is the group signals go to (@c's g1: how
 * many of the queue's first waiters are in it, not yet signalled). A
 * waiter a signal or broadcast woke holds a reference to its group until
 * it runs (gref, put_gref()). When G1 has no waiter left to wake and G2
 * has, a signal or broadcast makes G2 the new G1, but first waits until
 * every reference to the old G1 is gone (__condvar_quiesce_and_switch_g1();
 * a guest's futex trace shows the wait: twin/futexes.py): under load a
 * woken waiter waits milliseconds to run, so the waker sleeps, inside its
 * critical section, until the last of them runs and wakes it. It waits
 * holding the condition's internal lock: another signaller or broadcaster
 * sleeps on that lock until the first is done. rt-app's suspend/resume
 * stay a plain FIFO wake-up.
 */

/* NEXT: no other waker holds the condition's lock, and no reference to
 * G1 is left when G2 must become G1. Else the caller sleeps. */
static enum step cond_quiesced(struct sim_run *run, int c, struct sim_task *t)
{
	int me = idx_of(run, t);

	if (run->quiescer[c] >= 0 && run->quiescer[c] != me) {
		enqueue(run, broadcasters(run, c), t);
		return block(run, t);
	}
	if (!run->g1[c] && run->waitq_n[c] && run->grefs[c]) {
		run->quiescer[c] = me;
		futex_event(run, t, "fwait", 0x2000 + c, "val", 2 * run->grefs[c] + 1);
		return block(run, t);
	}
	return NEXT;
}

/* Wakes up to @n waiters of @c in queue order, each with a reference to its group. */
static int cond_wake(struct sim_run *run, int c, struct sim_task *t, int n, long nr)
{
	int i, k;

	if (!run->waitq_n[c] || !n)
		return 0;
	futex_event(run, t, "fwake", 0x1000 + c, "nr", nr);
	for (k = 0; k < n && (i = dequeue(run, c)) >= 0; k++) {
		run->tasks[i].gref = true;
		run->grefs[c]++;
		futex_wake(run, t, i);
	}
	futex_event(run, t, "fwaker", -1, NULL, k);
	return k;
}

/* The waker is done: the next one sleeping on the condition's lock goes on. */
static void cond_done(struct sim_run *run, int c, struct sim_task *t)
{
	int i;

	if (run->quiescer[c] != idx_of(run, t))
		return;
	run->quiescer[c] = -1;
	if ((i = dequeue(run, broadcasters(run, c))) >= 0)
		futex_wake(run, t, i);
}

/*
 * pthread_cond_signal(): one waiter of G1, the one that waited longest;
 * G2 becomes G1 (after the quiesce) when G1 has none left.
 */
static enum step cond_signal(struct sim_run *run, int c, struct sim_task *t)
{
	enum step r;

	if ((r = cond_quiesced(run, c, t)) != NEXT)
		return r;
	if (!run->g1[c])
		run->g1[c] = run->waitq_n[c];
	run->g1[c] -= cond_wake(run, c, t, 1, 1);
	cond_done(run, c, t);
	return NEXT;
}

/*
 * pthread_cond_broadcast(): G1's waiters left, then (after the quiesce)
 * all of G2. A broadcast with no waiter does nothing.
 */
static enum step broad(struct sim_run *run, int c, struct sim_task *t)
{
	enum step r;

	if (run->g1[c] && !(run->quiescer[c] >= 0 && run->quiescer[c] != idx_of(run, t))) {
		cond_wake(run, c, t, run->g1[c], 2147483647);
		run->g1[c] = 0;
	}
	if ((r = cond_quiesced(run, c, t)) != NEXT)
		return r;
	cond_wake(run, c, t, run->waitq_n[c], 2147483647);
	cond_done(run, c, t);
	return NEXT;
}

/* A woken waiter leaves its group: the last wakes the signaller or broadcaster waiting for it. */
static void put_gref(struct sim_run *run, int c, struct sim_task *t)
{
	if (!t->gref)
		return;
	t->gref = false;
	if (--run->grefs[c] || run->quiescer[c] < 0)
		return;
	futex_event(run, t, "fwake", 0x2000 + c, "nr", 2147483647);
	futex_wake(run, t, run->quiescer[c]);
	futex_event(run, t, "fwaker", -1, NULL, 1);
}

static ft_u64 *timer_of(struct sim_run *run, struct sim_task *t, int res)
{
	return run->w->res[res].unique ? &t->timer_next[res] : &run->timer_next[res];
}

static enum step timer(struct sim_run *run, struct sim_task *t, const struct sim_event *e)
{
	ft_u64 now = ft_now(), *next = timer_of(run, t, e->res);

	/* the first use starts the timer; a missed expiry does not sleep */
	*next = *next ? *next + e->ns : now + e->ns;
	if (*next > now)
		return sleep_until(run, t, expiry(run->o, *next));
	if (!e->absolute)
		*next = now;
	return NEXT;
}


/*
 * One message into (@write) or out of pipe @res, which has room for it or
 * one to give (sim/pipe.c); @retry: a writer that slept in this write.
 * True when a read freed a page.
 */
static bool pipe_move(struct sim_run *run, int res, bool write, bool retry)
{
	if (write) {
		sim_pipe_put(run->w, &run->pipes[res], retry);
		run->fill[res]++;
		return false;
	}
	run->fill[res]--;
	return sim_pipe_take(&run->pipes[res]);
}

/*
 * pipe_write() and pipe_read() wake with wake_up_interruptible_sync_poll():
 * a WF_SYNC wake-up from the writer's or reader's CPU (select_task_rq_fair()
 * may then stack the woken task on it, wake_affine()). One waiter: the
 * pipe's waits are exclusive. try_to_wake_up() runs on the waker's time
 * (--pipe-wake-cost): it pays that before its next event, as futex_wake().
 */
static void pipe_wake(struct sim_run *run, int i, struct sim_task *waker)
{
	struct sim_task *t = &run->tasks[i];
	int err;

	waker->cpu_owed += run->o->pipe_wake_ns;

	if (t->blocked) {
		t->blocked = false;
		run->blocked--;
	}
	err = ft_task_wake_by(t->id, waker->id, true);
	if (err == -EBUSY)	/* the waker is not on a CPU: cannot happen in a step */
		err = ft_task_wake(t->id);
	if (err == -EALREADY)
		t->wake_token = true;	/* preempted before it could block */
}

/*
 * fs/pipe.c's wake-ups after a message moved (pipe_io() says which): by
 * @t, of pipe @r, for a write or a read, a try again or not, and what the
 * pipe was before the move.
 */
static void pipe_wake_after(struct sim_run *run, struct sim_task *t, int r, bool write,
			    bool retry, bool was_empty, bool was_full, bool freed)
{
	int writers = run->w->nr_res + 1 + r, i;

	if (write) {
		if (was_empty && (i = dequeue(run, r)) >= 0)
			pipe_wake(run, i, t);
		if (retry && !sim_pipe_full(run->w, &run->pipes[r]) &&
		    (i = dequeue(run, writers)) >= 0)
			pipe_wake(run, i, t);
	} else {
		if (sim_pipe_read_wakes_writer(was_full, freed) && (i = dequeue(run, writers)) >= 0)
			pipe_wake(run, i, t);
		if (retry && run->fill[r] && (i = dequeue(run, r)) >= 0)
			pipe_wake(run, i, t);
	}
}

/*
 * One message into or out of a pipe (sim/pipe.c), with fs/pipe.c's
 * wake-ups: a write wakes a reader when it found the pipe empty
 * (was_empty), a read wakes a writer as the tree's pipe_read() does
 * (sim_pipe_read_wakes_writer()), and a writer or reader that slept in
 * this call and leaves room or messages behind wakes the next of its own
 * side (wake_next_writer, wake_next_reader). A woken task tries again
 * (@retry): one that finds the pipe full or empty still sleeps again, at
 * the back of the queue.
 */
static enum step pipe_io(struct sim_run *run, struct sim_task *t, const struct sim_event *e,
			 bool retry)
{
	int r = e->res, writers = run->w->nr_res + 1 + r;
	struct sim_pipe *p = &run->pipes[r];
	bool write, was_empty, was_full, freed;

	sim_plans_catch_up_pipe(run, r);
	write = e->kind == SIM_PIPE_WRITE;
	was_empty = !run->fill[r];
	was_full = sim_pipe_full(run->w, p);
	if (write ? !sim_pipe_writable(run->w, p, retry) : was_empty) {
		enqueue(run, write ? writers : r, t);
		sim_plans_check(run, r);
		return block(run, t);
	}
	freed = pipe_move(run, r, write, retry);
	sim_plans_check(run, r);
	pipe_wake_after(run, t, r, write, retry, was_empty, was_full, freed);
	return NEXT;
}

/* A pipe's mutex's waiters queue after every pipe's writers' queue. */
static int mutex_queue(struct sim_run *run, int r)
{
	return 2 * (run->w->nr_res + 1) + r;
}

/* @t's place in queue @q, -1 if not in it */
static int queued_at(struct sim_run *run, int q, struct sim_task *t)
{
	for (int k = 0; k < run->waitq_n[q]; k++)
		if (run->waitq[q][k] == idx_of(run, t))
			return k;
	return -1;
}

/*
 * __pipe_unlock(): the mutex free, or handed to its first waiter
 * (sim/pipe.c), which is woken unless it is awake already; it leaves the
 * queue once it holds the mutex. mutex_unlock() wakes with wake_up_q(), no
 * WF_SYNC.
 */
static void pipe_unlock(struct sim_run *run, int r)
{
	int q = mutex_queue(run, r), first = run->waitq_n[q] ? run->waitq[q][0] : -1;

	sim_pipe_unlock(&run->pipes[r], first);
	if (first >= 0 && run->tasks[first].blocked)
		wake(run, first);
}

/*
 * The end of a write or read under the pipe's mutex: the message moves,
 * the task leaves the kernel's section and unlocks, and then come the
 * wake-ups pipe_io() makes: fs/pipe.c wakes readers and writers after
 * __pipe_unlock(). A wake-up's reschedule then acts as one from user space
 * does (its cost, ft_set_wake_preempt()): only the time under the mutex is
 * the kernel's here.
 */
static enum step pipe_locked_done(struct sim_run *run, struct sim_task *t,
				  const struct sim_event *e)
{
	int r = e->res;
	struct sim_pipe *p = &run->pipes[r];
	bool write = e->kind == SIM_PIPE_WRITE, retry = t->pipe_retry;
	bool was_empty = !run->fill[r], was_full = sim_pipe_full(run->w, p), freed;

	freed = pipe_move(run, r, write, retry);
	ft_task_set_kernel(t->id, false);
	pipe_unlock(run, r);
	t->pipe_retry = false;
	pipe_wake_after(run, t, r, write, retry, was_empty, was_full, freed);
	return NEXT;
}

/*
 * pipe_write() and pipe_read() with the pipe's mutex, when the workload
 * gives the time each holds it (global.pipe_write_locked_ns,
 * pipe_read_locked_ns; the run after the operation is the rest of its
 * cost). The task takes the mutex or sleeps on it (sim/pipe.c's rules);
 * holding it, it finds the pipe full or empty and sleeps on the pipe,
 * unlocked, as pipe_io() does, or copies for that time inside the kernel
 * (ft_task_set_kernel(): where the tree's preemption model lets the
 * copier be preempted, the other side sleeps on the mutex meanwhile).
 * State 1: to lock; 4: copying.
 */
static enum step pipe_locked_io(struct sim_run *run, struct sim_task *t,
				const struct sim_event *e)
{
	int r = e->res, q = mutex_queue(run, r), at = queued_at(run, q, t);
	bool write = e->kind == SIM_PIPE_WRITE;
	struct sim_pipe *p = &run->pipes[r];

	if (t->state == 4)
		return pipe_locked_done(run, t, e);
	if (!sim_pipe_lock(p, idx_of(run, t), at == 0)) {
		if (at < 0)
			enqueue(run, q, t);
		return block(run, t);
	}
	if (at >= 0)
		memmove(run->waitq[q] + at, run->waitq[q] + at + 1,
			(--run->waitq_n[q] - at) * sizeof(int));
	if (write ? !sim_pipe_writable(run->w, p, t->pipe_retry) : !run->fill[r]) {
		pipe_unlock(run, r);
		enqueue(run, write ? run->w->nr_res + 1 + r : r, t);
		t->pipe_retry = true;
		return block(run, t);
	}
	if (!run->w->pipe_locked_ns[!write])
		return pipe_locked_done(run, t, e);
	t->state = 4;
	ft_task_set_kernel(t->id, true);
	ft_task_run_budget(t->id, run->w->pipe_locked_ns[!write], 0);
	return STAY;
}

/* pthread_cond_wait(): into G2, the mutex released, asleep. */
static enum step cond_wait(struct sim_run *run, const struct sim_event *e, struct sim_task *t)
{
	enqueue(run, e->res, t);
	if (e->mutex >= 0)
		unlock(run, e->mutex, t);
	futex_event(run, t, "fwait", 0x1000 + e->res, "val", 0);
	return block(run, t);
}

/* Starts the current event; NEXT when it took no time. */
static enum step start(struct sim_run *run, struct sim_task *t, const struct sim_event *e)
{
	enum step r;
	int i;

	switch (e->kind) {
	case SIM_RUN:
		if (!e->ns)
			ft_task_run_budget(t->id, 0, 0);
		else	/* its budget: the run's, or a plan's (plan.c) */
			sim_plan(run, t, e->ns);
		return STAY;
	case SIM_RUNTIME:
		ft_task_run_budget(t->id, SIM_MAX_NS, ft_now() + e->ns);
		return STAY;
	case SIM_SLEEP:
		return sleep_until(run, t, expiry(run->o, ft_now() + e->ns));
	case SIM_TIMER:
		return timer(run, t, e);
	case SIM_LOCK:
		return lock(run, e->res, t, 1);
	case SIM_UNLOCK:
		unlock(run, e->res, t);
		return NEXT;
	case SIM_SYNC:
		if ((r = cond_signal(run, e->res, t)) != NEXT) {
			t->state = 3;	/* the signal waits for G1's references; the wait comes after */
			return r;
		}
		/* fall through */
	case SIM_WAIT:
		return cond_wait(run, e, t);
	case SIM_SIGNAL:
		return cond_signal(run, e->res, t);
	case SIM_BROAD:
		return broad(run, e->res, t);
	case SIM_RESUME:
		while ((i = dequeue(run, e->res)) >= 0)
			wake(run, i);
		return NEXT;
	case SIM_BARRIER:
		if (++run->barrier_arrived[e->res] >= run->w->res[e->res].users) {
			run->barrier_arrived[e->res] = 0;
			while ((i = dequeue(run, e->res)) >= 0)
				wake(run, i);
			return NEXT;
		}
		enqueue(run, e->res, t);
		return block(run, t);
	case SIM_SUSPEND:
		enqueue(run, e->res, t);
		return block(run, t);
	case SIM_YIELD:
		ft_task_yield(t->id);
		return NEXT;
	case SIM_PIPE_WRITE:
	case SIM_PIPE_READ:
		if (sim_pipe_locked(run->w))
			return pipe_locked_io(run, t, e);
		return pipe_io(run, t, e, false);
	case SIM_FORK: {
		struct ft_task_info info;

		ft_task_info(t->id, &info);
		start_instance(run, e->res, info.cpu, run->w->defs[e->res].forked++,
			       run->w->defs[e->res].delay_ns);
		return NEXT;
	}
	}
	return NEXT;
}

/* The task runs again after a started event: finish it. */
static enum step resume(struct sim_run *run, struct sim_task *t, const struct sim_event *e)
{
	if (e->kind == SIM_SYNC && t->state == 3) {
		if (cond_signal(run, e->res, t) != NEXT)
			return STAY;	/* quiesced, or behind another waker: again */
		t->state = 1;
		return cond_wait(run, e, t);
	}
	if ((e->kind == SIM_WAIT || e->kind == SIM_SYNC) && t->state == 1) {
		put_gref(run, e->res, t);
		if ((t->cpu_owed || t->in_call) && e->mutex >= 0) {
			/* its group's futex wake-up before the re-take: pay it first */
			t->state = 2;
			pay_owed(t);
			return STAY;
		}
	}
	if ((e->kind == SIM_WAIT || e->kind == SIM_SYNC) && e->mutex >= 0) {
		t->state = 2;	/* woken: take the mutex back, or try again */
		return lock(run, e->mutex, t, 2) == NEXT ? NEXT : STAY;
	}
	if (e->kind == SIM_LOCK)
		return lock(run, e->res, t, 2) == NEXT ? NEXT : STAY;	/* woken: try again */
	if (e->kind == SIM_BROAD)
		return broad(run, e->res, t) == NEXT ? NEXT : STAY;	/* quiesced */
	if (e->kind == SIM_SIGNAL)
		return cond_signal(run, e->res, t) == NEXT ? NEXT : STAY;	/* quiesced */
	if ((e->kind == SIM_PIPE_WRITE || e->kind == SIM_PIPE_READ) &&
	    sim_pipe_locked(run->w))
		return pipe_locked_io(run, t, e);	/* copied, or woken: try again */
	if (e->kind == SIM_PIPE_WRITE || e->kind == SIM_PIPE_READ)
		return pipe_io(run, t, e, true);	/* woken: try again */
	return NEXT;
}

static void enter_phase(struct sim_task *t, const struct sim_phase *ph, struct sim_run *run)
{
	if (ph->nice != SIM_KEEP)
		ft_task_set_nice(t->id, ph->nice);
	if (ph->slice_ns != SIM_KEEP_SLICE)
		ft_task_set_slice(t->id, ph->slice_ns);
	if (ph->group >= 0)
		ft_task_set_group(t->id, run->group_id[ph->group]);
}

static void advance(struct sim_run *run, struct sim_task *t)
{
	const struct sim_def *d = &run->w->defs[t->def];

	t->state = 0;
	if (++t->ev < d->ph[t->phase].nr_ev)
		return;
	t->ev = 0;
	t->cpu_owed += run->o->loop_cost_ns;	/* rt-app's own work per pass (--loop-cost) */
	if (++t->phase_loop < d->ph[t->phase].loop)
		return;
	t->phase_loop = 0;
	if (++t->phase == d->nr_ph) {
		t->phase = 0;
		if (d->loop > 0 && ++t->thread_loop >= d->loop) {
			t->done = true;
			return;
		}
	}
	enter_phase(t, &d->ph[t->phase], run);
}

static enum step step(struct sim_run *run, struct sim_task *t)
{
	const struct sim_def *d = &run->w->defs[t->def];
	const struct sim_event *e;
	enum step r;

	if (t->in_call) {	/* its futex call's wake-ups, then the call's exit */
		if (!t->call_owed)
			return call_exit(t);
		pay_owed(t);
		return STAY;
	}
	if (t->sleep_due) {
		t->sleep_due = false;
		return block(run, t);	/* a wake-up meanwhile left a token: on at once */
	}
	/* its futex wake-ups' and its pass's CPU time first, even at its exit */
	if (t->cpu_owed) {
		pay_owed(t);
		return STAY;
	}
	if (t->done) {
		t->exec_ns = ft_task_exec_ns(t->id);
		run->alive--;
		run->last_exit = ft_now();
		ft_task_exit(t->id);
		run->by_id[t->id] = 0;	/* the driver may give the id to a fork */
		return STAY;
	}
	if (!t->started) {
		t->started = true;
		enter_phase(t, &d->ph[0], run);
		if (t->start_delay) {
			t->delaying = true;
			return sleep_until(run, t, ft_now() + t->start_delay);
		}
	}
	if (t->delaying) {
		t->delaying = false;
		t->cost_due = false;	/* rt-app's start, not a wake-up */
		return AGAIN;
	}
	/*
	 * Back from a sleep or a block: first the CPU time a real task spends
	 * on its wake-up (the return from the system call that slept, the
	 * switch), then the event goes on.
	 */
	if (t->cost_due) {
		t->cost_due = false;
		if (run->o->wake_cost_ns) {
			/* its budget: the cost's, or a plan's from a pipe read's try again */
			sim_plan_retry(run, t, run->o->wake_cost_ns);
			return STAY;
		}
	}
	e = &d->ph[t->phase].ev[t->ev];
	if (!t->state) {
		t->state = 1;
		r = start(run, t, e);
	} else {
		r = resume(run, t, e);
	}
	if (r == NEXT)
		advance(run, t);
	return r;
}

static void behave_steps(struct sim_run *run, int id);

/*
 * A woken task that is switched in takes first its wake-up's CPU time
 * (step(), cost_due): a budget from now, or a plan from its read's try
 * again (plan.c), which nothing fair.c or another task sees. Its budget
 * is used up (asleep, it asked for none), so the loop would take that
 * step at this instant anyway, in a pass of its own; taken at the switch,
 * it sets the same budget from the same exec time, a plan as safe. A
 * switch made by a step comes while the engine is in the middle of that
 * step: the woken task's is taken once that one is done (behave()), if
 * it still runs then (else the loop takes it when it runs again, as
 * before). Not with --tick-cost, which lengthens a budget the loop has
 * yet to look at.
 */
static bool wake_cost_next(const struct sim_run *run, const struct sim_task *t)
{
	return t->cost_due && run->o->wake_cost_ns && !run->o->tick_cost_ns && !t->sleep_due &&
	       !t->cpu_owed && !t->in_call && !t->done && t->started && !t->delaying;
}

static void woken_in(struct sim_run *run, struct sim_task *t)
{
	if (!wake_cost_next(run, t))
		return;
	if (!run->behaving) {
		behave_steps(run, t->id);
	} else if (!t->woken_in) {
		t->woken_in = true;
		run->woken_in[run->nr_woken_in++] = t - run->tasks;
	}
}

static void behave(int id, void *ctx)
{
	struct sim_run *run = ctx;

	run->behaving++;
	behave_steps(run, id);
	if (--run->behaving)
		return;
	while (run->nr_woken_in) {
		struct sim_task *t = &run->tasks[run->woken_in[--run->nr_woken_in]];

		t->woken_in = false;
		if (wake_cost_next(run, t) && ft_task_on_cpu(t->id))
			behave_steps(run, t->id);
	}
}

static void behave_steps(struct sim_run *run, int id)
{
	struct sim_task *t = sim_task_of(run, id);
	ft_u64 now = ft_now();	/* the loop's: it stands still while the engine steps */
	unsigned long switches = run->switches;

	if (!t) {
		ft_task_run_budget(id, SIM_MAX_NS, 0);
		return;
	}
	if (t->plan_n && run->plan_next <= now)
		sim_plans_catch_up(run);	/* its own steps: where it is in its program */
	if (now != run->last_now) {
		run->last_now = now;
		run->zero_time_steps = 0;
	}
	for (;;) {
		if (++run->zero_time_steps > SIM_SPIN_LIMIT) {
			error(run, "a million events at one instant: the tasks wake each other "
			      "without ever taking time", run->w->defs[t->def].name);
			t->done = true;
		}
		if (step(run, t) == STAY)
			return;
		/* a wake-up we made preempted us: only a switch takes a CPU's curr away */
		if (run->switches != switches && !ft_task_on_cpu(id)) {
			ft_task_run_budget(id, 0, 0);
			return;
		}
		switches = run->switches;
	}
}

/*
 * The observer: a switch away from a planning task ends its plan first.
 * Its tasks are looked up once, for the plans, the analysis and the
 * wake-up cost.
 */
static void observe(const struct ft_obs *o, void *ctx)
{
	struct sim_run *run = ctx;
	struct sim_task *t = o->pid > 0 ? sim_task_of(run, o->pid) : NULL, *prev = NULL;

	if (o->kind == FT_OBS_SWITCH) {
		run->switches++;
		prev = o->prev_pid > 0 ? sim_task_of(run, o->prev_pid) : NULL;
		if (run->nr_planners && prev && prev->plan_n)
			sim_plan_end(run, prev);
	}
	if (run->trace)
		sim_trace(run, o);
	sim_an_seen(&run->an, o, t, prev);
	if (o->kind == FT_OBS_SWITCH && t)
		woken_in(run, t);
}

static struct sim_task *an_task_of(void *ctx, int pid)
{
	return sim_task_of(ctx, pid);
}

static int make_groups(struct sim_run *run)
{
	struct sim_workload *w = run->w;
	static char made[64][SIM_NAME_LEN];
	int made_id[64], nr_made = 0;

	run->group_id = calloc(w->nr_groups + 1, sizeof(int));
	for (int i = 0; i < w->nr_groups; i++) {
		char path[SIM_NAME_LEN];
		int parent = FT_ROOT_GROUP;

		/* "/a/b": b inside a; each prefix is made once, in file order */
		strcpy(path, w->groups[i]);
		for (char *p = path; *p; ) {
			char *slash = strchr(p + 1, '/');
			int found = -1;

			if (slash)
				*slash = '\0';
			for (int j = 0; j < nr_made && found < 0; j++)
				if (!strcmp(made[j], path))
					found = made_id[j];
			if (found < 0) {
				if (nr_made == 64 || (found = ft_group_create(parent)) <= 0) {
					error(run, "could not create the taskgroup", w->groups[i]);
					return -1;
				}
				strcpy(made[nr_made], path);
				made_id[nr_made++] = found;
			}
			parent = found;
			if (!slash)
				break;
			*slash = '/';
			p = slash;
		}
		run->group_id[i] = parent;
	}
	return 0;
}

static int set_features(struct sim_run *run, const char *list)
{
	char buf[512], *save, *f;

	if (!list || !*list)
		return 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		bool on = *f != '!';

		if (ft_feature_set(on ? f : f + 1, on)) {
			snprintf(run->error, sizeof(run->error),
				 "FEATURES: this tree has no sched feature '%s'", on ? f : f + 1);
			return -1;
		}
	}
	return 0;
}

/* CPU 0's domain levels as topology.c built them, for the reports. */
static void machine_domains(struct sim_run *run)
{
	struct ft_domain *d = calloc(8, sizeof(*d));
	int n = d ? ft_cpu_domains(0, d, 8) : 0;
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += snprintf(run->domains + len, sizeof(run->domains) - len, "%s%s",
				i ? "," : "", d[i].name);
	free(d);
}

int sim_run_traced(struct sim_run *run, struct sim_workload *w, const struct sim_opts *o,
		   FILE *trace)
{
	const char *probes;
	int k = 0;

	*run = (struct sim_run){ .w = w, .o = o, .trace = trace };
	run->tasks = calloc(SIM_MAX_TASKS, sizeof(*run->tasks));
	run->woken_in = calloc(SIM_MAX_TASKS, sizeof(int));
	run->timer_next = calloc(w->nr_res + 1, sizeof(ft_u64));
	run->barrier_arrived = calloc(w->nr_res + 1, sizeof(int));
	/* a pipe's writers (a condition's broadcasters) queue after every
	 * resource's own queue, its mutex's waiters after those */
	run->waitq = calloc(3 * (w->nr_res + 1), sizeof(int *));
	run->waitq_n = calloc(3 * (w->nr_res + 1), sizeof(int));
	run->waitq_cap = calloc(3 * (w->nr_res + 1), sizeof(int));
	run->fill = calloc(w->nr_res + 1, sizeof(long));
	run->pipes = calloc(w->nr_res + 1, sizeof(*run->pipes));
	run->plan_w = calloc(w->nr_res + 1, sizeof(long));
	run->plan_r = calloc(w->nr_res + 1, sizeof(long));
	run->owner = malloc((w->nr_res + 1) * sizeof(int));
	run->quiescer = malloc((w->nr_res + 1) * sizeof(int));
	for (int i = 0; i <= w->nr_res; i++)
		run->owner[i] = run->quiescer[i] = -1;
	run->word = calloc(w->nr_res + 1, sizeof(int));
	run->grefs = calloc(w->nr_res + 1, sizeof(int));
	run->g1 = calloc(w->nr_res + 1, sizeof(int));
	run->end_ns = o->duration_ns ? o->duration_ns : w->duration_ns;

	if (o->islands ? ft_boot(o->cpus) : ft_boot_topology(&o->topo)) {
		snprintf(run->error, sizeof(run->error), "the machine (%s, %d CPUs) did not boot",
			 o->islands ? "islands" : o->topo.name, o->cpus);
		return -1;
	}
	machine_domains(run);
	sim_an_init(&run->an, o->cpus, true, an_task_of, run);
	run->an.tasks = run->tasks;
	ft_set_invariant_checking(!o->no_check);
	/* its counts are only compared with the analysis's, by the checker */
	if (o->no_check)
		ft_idle_detector_off();
	ft_init_granularity();	/* the base slice a machine of this size boots with */
	ft_set_idle_exit(o->idle_exit_ns);
	ft_set_wake_preempt(o->wake_preempt_ns);
	ft_set_tick_preempt(o->tick_preempt_ns, o->hrtick_preempt_ns);
	if (o->hrtick_arm_ns && !ft_hrtick_kept_by_schedule()) {
		snprintf(run->error, sizeof(run->error),
			 "--hrtick-arm: this tree arms the slice's timer at the pick, or has no "
			 "SCHED_HRTICK (only 7.2 and later, built with it, arm it after the switch): "
			 "leave the option out");
		return -1;
	}
	ft_set_hrtick_arm(o->hrtick_arm_ns);
	ft_set_tick_cost(o->tick_cost_ns);
	ft_set_timer_cost(o->timer_cost_ns);
	run->hz = 1000000000ULL / ft_tick_nsec();
	run->base_slice_ns = ft_base_slice();
	if (set_features(run, o->features) || make_groups(run))
		return -1;
	ft_set_behaviour(behave, run);
	ft_set_observer(observe, run);
	/* FAIRSIM_PROBES=1: the trace also gets fair.c's state at each wake-up
	 * preemption check, as the twin's guest probes read it (docs/twin.md) */
	probes = getenv("FAIRSIM_PROBES");
	ft_set_observe_probes(run->trace && probes && *probes && strcmp(probes, "0"));
	/* the analysis skips sched_waking: only the trace writes it */
	ft_set_observe_waking(run->trace != NULL);
	probes = getenv("FAIRSIM_FUTEX");
	run->futex_trace = run->trace && probes && *probes && strcmp(probes, "0");
	for (int d = 0; d < w->nr_defs; d++) {
		for (int i = 0; i < w->defs[d].instance; i++, k++)
			if (start_instance(run, d, place(o, w->defs[d].cpus, k), i,
					   w->defs[d].delay_ns +
					   (o->seed ? mix(o->seed * 1000003ULL + k) % 1000000ULL : 0)))
				return -1;
		w->defs[d].forked = w->defs[d].instance > 0 ? w->defs[d].instance : 0;
	}
	if (run->end_ns) {
		ft_run_for(run->end_ns);
	} else {
		/* until every task has ended, or all left are blocked for good */
		while (run->alive && run->blocked < run->alive && !run->error[0] &&
		       ft_now() < SIM_MAX_NS - 1000000000ULL)
			ft_run_for(10000000ULL);
		run->end_ns = run->alive ? ft_now() : run->last_exit;
	}
	sim_an_end(&run->an, run->end_ns);
	/*
	 * The tables count unreasonable idle from the events, as they do for
	 * a real kernel's trace; the driver's detector sees the machine's
	 * state itself, and with the checker on the two must agree.
	 */
	memcpy(run->idle, run->an.idle, sizeof(run->idle));
	for (int cpu = 0; !o->no_check && cpu <= o->cpus; cpu++) {
		struct ft_idle_stats st;
		char where[16] = "all CPUs";

		ft_unreasonable_idle(cpu == o->cpus ? -1 : cpu, &st);
		if (cpu < o->cpus)
			snprintf(where, sizeof(where), "CPU %d", cpu);
		if (memcmp(&st, &run->idle[cpu], sizeof(st)))
			snprintf(run->error, sizeof(run->error), "unreasonable idle on %s: the "
				 "events give %llu/%llu/%llu, longest %llu ns, the driver's detector "
				 "%llu/%llu/%llu, longest %llu ns", where, run->idle[cpu].count[0],
				 run->idle[cpu].count[1], run->idle[cpu].count[2],
				 run->idle[cpu].longest_ns, st.count[0], st.count[1], st.count[2],
				 st.longest_ns);
	}
	for (int i = 0; i < run->nr_tasks; i++)
		if (!run->tasks[i].done)
			run->tasks[i].exec_ns = ft_task_exec_ns(run->tasks[i].id);
	if (ft_fault_count()) {
		const struct ft_fault *f = ft_fault_get(0);

		snprintf(run->error, sizeof(run->error), "the kernel side reported %s at %s:%d: %.150s",
			 f->what, f->file ? f->file : "?", f->line, f->msg);
	}
	ft_set_behaviour(NULL, NULL);
	ft_set_observer(NULL, NULL);
	ft_set_observe_probes(false);
	ft_set_observe_waking(true);
	return run->error[0] ? -1 : 0;
}

void sim_run_free(struct sim_run *run)
{
	ft_shutdown();
	for (int i = 0; i < run->nr_tasks; i++) {
		free(run->tasks[i].timer_next);
		free(run->tasks[i].plan);
		sim_samples_free(&run->tasks[i].wake_lat);
		sim_samples_free(&run->tasks[i].wait);
		sim_samples_free(&run->tasks[i].resp);
	}
	for (int i = 0; run->waitq && i < 3 * (run->w->nr_res + 1); i++)
		free(run->waitq[i]);
	sim_samples_free(&run->an.idle_wake);
	for (int i = 0; run->pipes && i <= run->w->nr_res; i++)
		sim_pipe_free(&run->pipes[i]);
	free(run->pipes);
	free(run->fill);
	free(run->plan_w);
	free(run->plan_r);
	free(run->tasks);
	free(run->woken_in);
	free(run->timer_next);
	free(run->barrier_arrived);
	free(run->waitq);
	free(run->waitq_n);
	free(run->waitq_cap);
	free(run->owner);
	free(run->quiescer);
	free(run->word);
	free(run->grefs);
	free(run->g1);
	free(run->group_id);
}

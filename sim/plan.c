// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's plans (engine.c calls them): a running task's pipe steps
 * that neither block nor wake, taken without the event loop, in the same
 * order and at the same instants as the loop would take them. How and
 * why they stay exact is below and in docs/sim-shortcuts.md; docs/speed.md
 * says what they save.
 */
#include <stdlib.h>
#include <string.h>
#include "sim.h"

/*
 * Plans. Most of a pipe workload's steps change nothing that fair.c or
 * another task sees: hackbench's sender writes into a pipe that is not
 * full and that no reader waits on, its receiver reads from one that is
 * not empty and that no writer waits on, then each runs on. A running
 * task's next such steps are planned when it starts a run, and its
 * budget covers them all, so the event loop wakes once for the lot; a
 * plan that ran out of room grows as it is taken. The steps are taken
 * late, in closed form: a step planned at an exec time happened when the
 * task's exec time reached it. Whoever could tell the
 * difference brings the plans up to now first: the loop's pipe operation
 * on a pipe some plan has steps on (engine.c, pipe_io()), the planning
 * task's own step (behave(): its place in its program), and the switch
 * away from a planning task, which also ends its plan: a task plans
 * only while it runs, the only time its exec time grows with the clock.
 * A plan made while due steps of others wait counts them as planned:
 * taken, they would leave as much room and as many messages or more.
 *
 * A step is planned only if it cannot block or wake whatever comes
 * between: a write counts every planned write of the pipe as done and no
 * planned read, a read the other way round, and no task may wait on the
 * pipe. Another task's own operation on the pipe (taken by the loop) that
 * breaks this cuts the plans back to before their first step on it,
 * whose budget then ends there: the loop takes that step as before.
 *
 * Order at one instant: the loop steps the budgets that end now in CPU
 * order in the first pass after the clock came here (shim/driver/loop.c),
 * so a planned step due exactly now comes before another task's step
 * only if its CPU comes first in that pass, or the pass is over.
 */
/*
 * Due times hold while the task runs on, its exec time growing with the
 * clock; at the switch away from it too, as it ran until then (the
 * switch's update_curr() may use a clock whose update was skipped, after a
 * wake-up preemption: its sum_exec_runtime then falls short).
 */
static inline bool plan_due(const struct sim_task *t, ft_u64 due, ft_u64 now, int tie)
{
	return due < now || (due == now && t->plan_cpu < tie);
}

/*
 * @t's steps due by @now taken, its first one due. Their effects on the
 * pipes add up, so only the last step's place in the program is written;
 * dues grow with each step, so only the last can be due exactly now.
 */
static inline __attribute__((always_inline)) void
plan_take(struct sim_run *run, struct sim_task *t, ft_u64 now, int tie)
{
	const struct sim_step *s = &t->plan[t->plan_i], *end = &t->plan[t->plan_n];
	long *fill = run->fill, *plan_w = run->plan_w, *plan_r = run->plan_r;
	struct sim_pipe *pipes = run->pipes;

	/* as engine.c's pipe_move(): the pages too (sim/pipe.c) */
	do {
		if (s->write) {
			sim_pipe_put(run->w, &pipes[s->res], false);
			fill[s->res]++;
			plan_w[s->res]--;
		} else {
			fill[s->res]--;
			sim_pipe_take(&pipes[s->res]);
			plan_r[s->res]--;
		}
	} while (++s < end && plan_due(t, s->due, now, tie));
	t->plan_i = s - t->plan;
	s--;
	t->phase = s->phase;
	t->ev = s->ev;
	t->phase_loop = s->phase_loop;
	t->thread_loop = s->thread_loop;
	t->state = 1;
	/* behave()'s count of the steps at one instant: end of run, pipe, run (a try again: pipe, run) */
	if (s->due == now) {
		if (now != run->last_now) {
			run->last_now = now;
			run->zero_time_steps = 0;
		}
		run->zero_time_steps += 3 - s->retry;
	}
}

/* Steps [@s, @end) no longer counted as planned on their pipes. */
static void plan_uncount(struct sim_run *run, const struct sim_step *s, const struct sim_step *end)
{
	for (; s < end; s++)
		(s->write ? run->plan_w : run->plan_r)[s->res]--;
}

/* The steps from @from on are the loop's again: the budget ends at the first. */
static void plan_cut(struct sim_run *run, struct sim_task *t, int from)
{
	plan_uncount(run, t->plan + from, t->plan + t->plan_n);
	/* run_until_exec = the step's exec time: the driver counts from ft_task_exec_ns() */
	if (from < t->plan_n)
		ft_task_run_budget(t->id, t->plan[from].due - t->plan_lag - ft_task_exec_ns(t->id), 0);
	t->plan_n = from;
	t->plan_open = false;
}

/* Planner @k leaves the list: the last takes its place. */
static inline void planner_drop(struct sim_run *run, int k)
{
	int last = --run->nr_planners;

	run->planners[k] = run->planners[last];
	run->planner_due[k] = run->planner_due[last];
}

/* Planners whose plan is all taken or cut leave the list; the earliest step due. */
static void plans_tidy(struct sim_run *run)
{
	run->plan_next = ~0ULL;
	for (int k = 0; k < run->nr_planners; ) {
		struct sim_task *t = &run->tasks[run->planners[k]];

		if (t->plan_i == t->plan_n) {
			t->plan_i = t->plan_n = 0;
			planner_drop(run, k);
			continue;
		}
		if (run->planner_due[k] < run->plan_next)
			run->plan_next = run->planner_due[k];
		k++;
	}
}

static void plan_extend(struct sim_run *run, struct sim_task *t);

/*
 * plans_tidy() in the same pass: the order of the planners does not
 * matter. Each one's first due is kept beside the list (only a take
 * moves it), so a planner with nothing due costs a comparison.
 */
void sim_plans_catch_up(struct sim_run *run)
{
	ft_u64 now = ft_now(), next = ~0ULL;
	int tie = ft_budget_tie_cpu();

	for (int k = 0; k < run->nr_planners; ) {
		ft_u64 due = run->planner_due[k];
		struct sim_task *t;

		if (due >= now && (due > now || !plan_due(t = &run->tasks[run->planners[k]], due, now, tie))) {
			if (due < next)
				next = due;
			k++;
			continue;
		}
		t = &run->tasks[run->planners[k]];
		plan_take(run, t, now, tie);
		if (t->plan_i == t->plan_n) {
			t->plan_i = t->plan_n = 0;
			planner_drop(run, k);
			continue;
		}
		if (t->plan_open && t->plan_n - t->plan_i <= SIM_PLAN_EXTEND)
			plan_extend(run, t);
		due = run->planner_due[k] = t->plan[t->plan_i].due;
		if (due < next)
			next = due;
		k++;
	}
	run->plan_next = next;
}

/* After the loop's own operation on pipe @res: are the planned ones still safe? */
void sim_plans_check(struct sim_run *run, int res)
{
	int writers = run->w->nr_res + 1 + res;
	bool cut_w = run->plan_w[res] && (run->waitq_n[res] ||
			run->plan_w[res] > sim_pipe_room(run->w, &run->pipes[res]));
	bool cut_r = run->plan_r[res] && (run->waitq_n[writers] ||
			run->fill[res] < run->plan_r[res] + !!run->plan_w[res]);

	if (!cut_w && !cut_r)
		return;
	for (int k = 0; k < run->nr_planners; k++) {
		struct sim_task *t = &run->tasks[run->planners[k]];

		for (int j = t->plan_i; j < t->plan_n; j++) {
			if (t->plan[j].res == res && (t->plan[j].write ? cut_w : cut_r)) {
				plan_cut(run, t, j);
				break;
			}
		}
	}
	plans_tidy(run);
}

/* A switch away from a planning task: what it did is taken, the rest cut. */
void sim_plan_end(struct sim_run *run, struct sim_task *t)
{
	ft_u64 now = ft_now();
	int tie = ft_budget_tie_cpu();

	if (t->plan_i < t->plan_n && plan_due(t, t->plan[t->plan_i].due, now, tie))
		plan_take(run, t, now, tie);
	plan_cut(run, t, t->plan_i);
	plans_tidy(run);
}

/* Where advance() would go, on a copy; false where it would do more than move. */
struct plan_pos {
	const struct sim_phase *ph;
	int phase, ev;
	long phase_loop, thread_loop;
};

static inline bool plan_advance(const struct sim_def *d, struct plan_pos *p)
{
	if (++p->ev < p->ph->nr_ev)
		return true;
	p->ev = 0;
	if (++p->phase_loop < p->ph->loop)
		return true;
	p->phase_loop = 0;
	if (++p->phase == d->nr_ph) {
		p->phase = 0;
		if (d->loop > 0 && ++p->thread_loop >= d->loop)
			return false;
	}
	p->ph = &d->ph[p->phase];
	return p->ph->nice == SIM_KEEP && p->ph->slice_ns == SIM_KEEP_SLICE && p->ph->group < 0;
}

/*
 * The steps from @s on, after the run at @pos that ends at *@due: as many
 * as are safe, up to the end of the plan's array.
 * Everything the loop reads is in locals: a store into the plan would
 * otherwise make the compiler read the run's arrays anew for each step.
 */
static inline __attribute__((always_inline)) struct sim_step *
plan_build(struct sim_run *run, const struct sim_def *d, struct plan_pos *p,
	   struct sim_step *s, struct sim_step *end, ft_u64 *due)
{
	const struct sim_pipe *pipes = run->pipes;
	const int *wq_r = run->waitq_n, *wq_w = run->waitq_n + run->w->nr_res + 1;
	long *fill = run->fill, *plan_w = run->plan_w, *plan_r = run->plan_r;
	struct plan_pos pos = *p;
	ft_u64 at = *due;

	for (; s < end; s++) {
		const struct sim_event *op, *r;
		int res;

		if (!plan_advance(d, &pos))
			break;
		op = &pos.ph->ev[pos.ev];
		res = op->res;
		/*
		 * Planned reads and writes of one pipe commute only while the
		 * reads cannot empty it: then they take the oldest messages,
		 * which were there before, and the newest page, where writes
		 * merge, stays.
		 */
		if (op->kind == SIM_PIPE_WRITE) {
			if (wq_r[res] || plan_w[res] >= sim_pipe_room(run->w, &pipes[res]) ||
			    (plan_r[res] && fill[res] <= plan_r[res]))
				break;
		} else if (op->kind != SIM_PIPE_READ || wq_w[res] ||
			   fill[res] <= plan_r[res] + !!plan_w[res]) {
			break;
		}
		if (!plan_advance(d, &pos) || (r = &pos.ph->ev[pos.ev])->kind != SIM_RUN || !r->ns)
			break;
		s->due = at;
		s->res = res;
		s->write = op->kind == SIM_PIPE_WRITE;
		s->retry = false;
		s->phase = pos.phase;
		s->ev = pos.ev;
		s->phase_loop = pos.phase_loop;
		s->thread_loop = pos.thread_loop;
		(s->write ? plan_w : plan_r)[res]++;
		at += r->ns;
	}
	*due = at;
	return s;
}

/*
 * @t's plan is the steps [@t->plan, @s), the last run ending at @due:
 * true when the driver says its exec time grows with the clock, and the
 * plan then starts; else its steps are uncounted.
 */
static bool plan_start(struct sim_run *run, struct sim_task *t, struct sim_step *s, ft_u64 now,
		       ft_u64 due)
{
	ft_u64 exec;
	int cpu;

	if ((cpu = ft_task_steady_cpu(t->id, &exec)) < 0) {
		plan_uncount(run, t->plan, s);
		return false;
	}
	t->plan_i = 0;
	t->plan_n = s - t->plan;
	t->plan_cpu = cpu;
	t->plan_end = due;
	t->plan_open = s == t->plan + SIM_PLAN_MAX;
	/* a step's due less its exec time: the same for each while the task runs on */
	t->plan_lag = now - exec;
	run->planner_due[run->nr_planners] = t->plan[0].due;
	run->planners[run->nr_planners++] = t - run->tasks;
	if (run->nr_planners == 1 || t->plan[0].due < run->plan_next)
		run->plan_next = t->plan[0].due;
	ft_task_run_budget(t->id, due - t->plan_lag - exec, 0);
	return true;
}

/* a step under the pipe's mutex takes time and may find it held: not safe */
static inline bool plans_locked(const struct sim_run *run)
{
	return sim_pipe_locked(run->w);
}

/*
 * a plan's steps skip advance(), which charges --loop-cost, and run on
 * budgets that --tick-cost and --timer-cost lengthen
 */
static inline bool plans_off(const struct sim_run *run)
{
	return run->o->no_plans || run->o->loop_cost_ns || run->o->tick_cost_ns ||
	       run->o->timer_cost_ns || run->error[0];
}

static inline void plan_alloc(struct sim_task *t)
{
	if (!t->plan && !(t->plan = calloc(SIM_PLAN_MAX, sizeof(*t->plan))))
		abort();
}

/*
 * @t has just started a run: plan the pipe steps and runs after it, and
 * give it the budget, the run's alone when nothing is planned (true: a
 * plan). Most runs plan nothing (the next step wakes or blocks): the
 * steps are looked at before the driver is asked whether the task runs
 * steady.
 */
bool sim_plan(struct sim_run *run, struct sim_task *t, ft_u64 first)
{
	const struct sim_def *d = &run->w->defs[t->def];
	struct sim_step *s;
	struct plan_pos pos;
	ft_u64 now, due;

	if (plans_off(run) || plans_locked(run))
		goto alone;
	plan_alloc(t);
	now = ft_now();
	due = now + first;
	pos = (struct plan_pos){ &d->ph[t->phase], t->phase, t->ev, t->phase_loop, t->thread_loop };
	s = plan_build(run, d, &pos, t->plan, t->plan + SIM_PLAN_MAX, &due);
	if (s != t->plan && plan_start(run, t, s, now, due))
		return true;
alone:
	ft_task_run_budget(t->id, first, 0);
	return false;
}

/*
 * @t, woken from a pipe read, starts its wake-up's CPU time (@cost); the
 * read's try again comes after it, then the plan's steps as
 * sim_plan()'s. A try again is an ordinary read, but for the next
 * waiting reader it wakes when it leaves messages (engine.c, pipe_io()):
 * so it is planned only while no reader waits, and none can come to wait
 * while planned reads stay safe (a reader waits on an empty pipe only,
 * which cuts them: sim_plans_check()). A writer's try again starts a
 * page of its own (sim/pipe.c) and is the loop's.
 */
bool sim_plan_retry(struct sim_run *run, struct sim_task *t, ft_u64 cost)
{
	const struct sim_def *d = &run->w->defs[t->def];
	const struct sim_event *op = &d->ph[t->phase].ev[t->ev], *r;
	int res = op->res;
	struct sim_step *s;
	struct plan_pos pos;
	ft_u64 now, due;

	if (plans_off(run) || plans_locked(run) || op->kind != SIM_PIPE_READ || t->state != 1 ||
	    run->waitq_n[res] ||
	    run->waitq_n[run->w->nr_res + 1 + res] ||
	    run->fill[res] <= run->plan_r[res] + !!run->plan_w[res])
		goto alone;
	pos = (struct plan_pos){ &d->ph[t->phase], t->phase, t->ev, t->phase_loop, t->thread_loop };
	if (!plan_advance(d, &pos) || (r = &pos.ph->ev[pos.ev])->kind != SIM_RUN || !r->ns)
		goto alone;
	plan_alloc(t);
	now = ft_now();
	s = t->plan;
	*s = (struct sim_step){ .due = now + cost, .res = res, .retry = true, .phase = pos.phase,
				.ev = pos.ev, .phase_loop = pos.phase_loop,
				.thread_loop = pos.thread_loop };
	run->plan_r[res]++;
	due = s->due + r->ns;
	s = plan_build(run, d, &pos, s + 1, t->plan + SIM_PLAN_MAX, &due);
	if (plan_start(run, t, s, now, due))
		return true;
alone:
	ft_task_run_budget(t->id, cost, 0);
	return false;
}

/*
 * A plan that ended only for want of room, nearly taken: its steps left
 * to the front, more after them, as sim_plan() would plan them at its
 * end, and the budget to the new end. Planned here and now, a step is as
 * safe as it would be there: until someone's own step makes it unsafe,
 * which cuts it (sim_plans_check()).
 */
static void plan_extend(struct sim_run *run, struct sim_task *t)
{
	const struct sim_def *d = &run->w->defs[t->def];
	int left = t->plan_n - t->plan_i;
	struct sim_step *s, *last;
	struct plan_pos pos;
	ft_u64 exec;

	t->plan_open = false;
	if (ft_task_steady_cpu(t->id, &exec) != t->plan_cpu)
		return;
	memmove(t->plan, t->plan + t->plan_i, left * sizeof(*t->plan));
	t->plan_i = 0;
	t->plan_n = left;
	last = &t->plan[left - 1];
	pos = (struct plan_pos){ &d->ph[last->phase], last->phase, last->ev, last->phase_loop,
				 last->thread_loop };
	s = plan_build(run, d, &pos, t->plan + left, t->plan + SIM_PLAN_MAX, &t->plan_end);
	if (s == t->plan + left)
		return;
	t->plan_n = s - t->plan;
	t->plan_open = s == t->plan + SIM_PLAN_MAX;
	ft_task_run_budget(t->id, t->plan_end - t->plan_lag - exec, 0);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What a run prints, in shapes people already read: `perf sched latency`'s
 * per-task table, cyclictest's "scheduling latency (us)" rows and
 * schbench's percentile blocks per task definition, one summary line per
 * task, and a JSON file with every figure in nanoseconds for scripts and
 * for A/B comparisons. Everything is derived from the run's samples; the
 * order is the workload's, so two runs print byte-identical text.
 */
#include <string.h>
#include <json-c/json.h>
#include "sim.h"

static const double pcts[] = { 50, 90, 99, 99.9 };
static const char *const pct_names[] = { "p50", "p90", "p99", "p99.9" };

static void name_of(struct sim_run *run, struct sim_task *t, char *out, size_t n)
{
	snprintf(out, n, "%s-%d:%d", run->w->defs[t->def].name, t->inst, t->id);
}

enum which { WAKE, WAIT, RESP };

static struct sim_samples *samples(struct sim_task *t, enum which w)
{
	return w == WAKE ? &t->wake_lat : w == WAIT ? &t->wait : &t->resp;
}

/* All instances of definition @d together. */
static void merged(struct sim_run *run, int d, enum which w, struct sim_samples *out)
{
	*out = (struct sim_samples){};
	for (int i = 0; i < run->nr_tasks; i++) {
		struct sim_samples *s = samples(&run->tasks[i], w);

		if (run->tasks[i].def != d)
			continue;
		for (size_t j = 0; j < s->n; j++)
			sim_samples_add(out, sim_sample(s, j));
	}
	sim_samples_sort(out);
}

static void perf_sched_latency(FILE *f, struct sim_run *run)
{
	const char *rule = " -------------------------------------------------------------------"
			   "----------------------------------------------------------------------\n";
	ft_u64 total_run = 0;
	unsigned long total_sw = 0;
	char name[SIM_NAME_LEN + 24];

	fprintf(f, "\n%s  %-22s|   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | "
		"Max delay start           | Max delay end          |\n%s", rule, "Task", rule);
	for (int i = 0; i < run->nr_tasks; i++) {
		struct sim_task *t = &run->tasks[i];
		double avg = t->wait.n ? (double)t->wait.sum / t->wait.n : 0;

		name_of(run, t, name, sizeof(name));
		fprintf(f, "  %-22s|%11.3f ms |%9lu | avg:%9.3f ms | max:%9.3f ms | "
			"max start: %12.6f s | max end: %12.6f s\n", name, t->exec_ns / 1e6,
			t->switches, avg / 1e6, t->max_delay / 1e6, t->max_delay_at / 1e9,
			(t->max_delay_at + t->max_delay) / 1e9);
		total_run += t->exec_ns;
		total_sw += t->switches;
	}
	fprintf(f, "%s  TOTAL:                |%11.3f ms |%9lu |\n"
		" ---------------------------------------------------\n", rule, total_run / 1e6,
		total_sw);
}

static void summary(FILE *f, struct sim_run *run)
{
	char name[SIM_NAME_LEN + 24];

	fprintf(f, "\n# per task: share of one CPU over the run, runnable wait, wake-up latency (us)\n"
		"%-24s %3s %7s %10s %10s %8s %7s %5s %7s %7s %7s %7s %7s %7s\n", "task", "cpu",
		"share%", "run ms", "wait ms", "switches", "preempt", "migr", "wakeups", "p50",
		"p90", "p99", "p99.9", "max");
	for (int i = 0; i < run->nr_tasks; i++) {
		struct sim_task *t = &run->tasks[i];

		name_of(run, t, name, sizeof(name));
		fprintf(f, "%-24s %3d %7.2f %10.3f %10.3f %8lu %7lu %5lu %7lu", name, t->cpu,
			run->end_ns ? 100.0 * t->exec_ns / run->end_ns : 0, t->exec_ns / 1e6,
			t->wait_ns / 1e6, t->switches, t->preemptions, t->migrations, t->wakeups);
		sim_samples_sort(&t->wake_lat);
		for (int p = 0; p < 4; p++)
			fprintf(f, " %7llu", sim_pct(&t->wake_lat, pcts[p]) / 1000);
		fprintf(f, " %7llu\n", t->wake_lat.max / 1000);
	}
}

/* schbench's block: percentiles, and how many samples fell in each step */
static void schbench_block(FILE *f, struct sim_run *run, const char *what, struct sim_samples *s)
{
	size_t below = 0;

	fprintf(f, "\n%s Latencies percentiles (usec) runtime %llu (s) (%zu total samples)\n",
		what, run->end_ns / 1000000000ULL, s->n);
	for (int p = 0; p < 4; p++) {
		ft_u64 v = sim_pct(s, pcts[p]);
		size_t upto = below;

		while (upto < s->n && sim_sample(s, upto) <= v)
			upto++;
		fprintf(f, "\t%s%4.1fth: %-10llu (%zu samples)\n", pcts[p] == 99 ? "* " : "  ",
			pcts[p], v / 1000, upto - below);
		below = upto;
	}
	fprintf(f, "\t  min=%llu, max=%llu\n", sim_sample(s, 0) / 1000, s->max / 1000);
}

/* cyclictest's rows and schbench's blocks, for one task definition */
static void latency_tables(FILE *f, struct sim_run *run, int d)
{
	struct sim_samples s;

	merged(run, d, WAKE, &s);
	if (s.n) {
		fprintf(f, "\n# scheduling latency (us) for %s (wake-up to first run, %zu samples)\n"
			"%-16s %10s\n%-16s %10llu\n%-16s %10llu\n%-16s %10llu\n",
			run->w->defs[d].name, s.n, "", "fairsim", "99th", sim_pct(&s, 99) / 1000,
			"99.9th", sim_pct(&s, 99.9) / 1000, "Maximum", s.max / 1000);
		schbench_block(f, run, "Wakeup", &s);
	}
	sim_samples_free(&s);
	/* a request: from the wake-up to the sleep that ends it */
	merged(run, d, RESP, &s);
	if (s.n)
		schbench_block(f, run, "Request", &s);
	sim_samples_free(&s);
}

static const char *const idle_buckets[FT_IDLE_BUCKETS] = { "2.5-3ms", "3-4ms", ">4ms" };

/*
 * The LB_PROMOTE series' count of unreasonable idle: per CPU and in
 * total, how many intervals of each length a CPU stayed idle while a task
 * allowed there waited runnable on another CPU (shim/driver/idle.c).
 */
static void idle_table(FILE *f, struct sim_run *run)
{
	int n = run->o->cpus;

	fprintf(f, "\n# unreasonable idle (a CPU idle > 2.5 ms while a task allowed there waits "
		"elsewhere)");
	if (run->hz)
		fprintf(f, ", HZ=%llu", run->hz);
	fprintf(f, "\n%-6s", "cpu");
	for (int b = 0; b < FT_IDLE_BUCKETS; b++)
		fprintf(f, " %9s", idle_buckets[b]);
	fprintf(f, " %11s\n", "longest ms");
	for (int cpu = 0; cpu <= n; cpu++) {
		const struct ft_idle_stats *st = &run->idle[cpu];

		if (cpu < n)
			fprintf(f, "%-6d", cpu);
		else
			fprintf(f, "%-6s", "total");
		for (int b = 0; b < FT_IDLE_BUCKETS; b++)
			fprintf(f, " %9llu", st->count[b]);
		fprintf(f, " %11.3f\n", st->longest_ns / 1e6);
	}
}

/* "smt-mc-8 (8 CPUs, domains SMT,MC)", "8 CPUs as islands (no sched domains)" */
static void machine_name(struct sim_run *run, char *out, size_t n)
{
	const struct sim_opts *o = run->o;

	if (o->islands)
		snprintf(out, n, "%d CPU%s as islands (no sched domains)", o->cpus,
			 o->cpus > 1 ? "s" : "");
	else
		snprintf(out, n, "%s (%d CPU%s, sched domains %s)", o->topo.name, o->cpus,
			 o->cpus > 1 ? "s" : "",
			 run->domains[0] ? run->domains : "none");
}

/* The first lines of a report read from a trace: what, where, how much. */
static void trace_header(FILE *f, struct sim_run *run)
{
	const struct sim_trace_info *in = run->info;

	fprintf(f, "fairsim: trace %s%s%s, %d CPU%s, %llu.%06llu s from %llu.%06llu, %ld events%s\n",
		run->from, run->w->path[0] ? ", workload " : "", run->w->path, run->o->cpus,
		run->o->cpus > 1 ? "s" : "", run->end_ns / 1000000000ULL,
		run->end_ns % 1000000000ULL / 1000, in->start_ns / 1000000000ULL,
		in->start_ns % 1000000000ULL / 1000, in->events,
		in->fairsim ? " (fairsim's)" : "");
	fprintf(f, "fairsim: other tasks ran %.3f ms (%.2f%% of the CPUs)%s\n",
		run->an.other_ns / 1e6, run->end_ns ? 100.0 * run->an.other_ns /
		((double)run->end_ns * run->o->cpus) : 0, in->lost ?
		"; the trace LOST EVENTS: its figures are incomplete" : "");
	sim_samples_sort(&run->an.idle_wake);
	if (run->an.idle_wake.n)
		fprintf(f, "fairsim: wake-up to switch on an idle CPU (fairsim's IDLE_EXIT): p10 %.1f, "
			"p50 %.1f, p90 %.1f us over %zu wake-ups\n",
			sim_pct(&run->an.idle_wake, 10) / 1e3, sim_pct(&run->an.idle_wake, 50) / 1e3,
			sim_pct(&run->an.idle_wake, 90) / 1e3, run->an.idle_wake.n);
	if (in->short_by)
		fprintf(f, "fairsim: the trace ends %.3f ms before the workload's duration\n",
			in->short_by / 1e6);
}

/* " (a mutex unlock's N)" where --unlock-wake-cost differs, else "" */
static const char *unlock_cost(const struct sim_opts *o)
{
	static char text[48];

	if (o->unlock_wake_ns == o->futex_wake_ns)
		return "";
	snprintf(text, sizeof(text), " (a mutex unlock's %.3g)", o->unlock_wake_ns / 1e3);
	return text;
}

void sim_report_text(FILE *f, struct sim_run *run)
{
	const struct sim_opts *o = run->o;
	char m[128];

	if (run->from) {
		trace_header(f, run);
		goto tables;
	}
	machine_name(run, m, sizeof(m));
	fprintf(f, "fairsim: %s on %s, HZ=%llu, base slice %llu us, %llu.%03llu s simulated, "
		"seed %llu%s%s%s\n", run->w->path, m, run->hz,
		run->base_slice_ns / 1000, run->end_ns / 1000000000ULL,
		run->end_ns % 1000000000ULL / 1000000, o->seed,
		o->features ? ", features " : "", o->features ? o->features : "",
		o->no_check ? ", invariant checker off" : "");
	if (o->timer_slack_ns || o->wake_cost_ns || o->idle_exit_ns || o->wake_preempt_ns)
		fprintf(f, "fairsim: the machine's costs: timer slack %.3g us, wake-up %.3g us, "
			"idle exit %.3g us, wake-up preemption %.3g us (--ideal: none)\n",
			o->timer_slack_ns / 1e3, o->wake_cost_ns / 1e3, o->idle_exit_ns / 1e3,
			o->wake_preempt_ns / 1e3);
	if (o->futex_wake_ns || o->loop_cost_ns || o->unlock_wake_ns != o->futex_wake_ns)
		fprintf(f, "fairsim: and a futex wake-up %.3g us of the waker's CPU%s, a pass of a "
			"phase %.3g us at its end\n", o->futex_wake_ns / 1e3,
			unlock_cost(o), o->loop_cost_ns / 1e3);
	if (o->exit_switch)
		fprintf(f, "fairsim: and a futex call's wake-up preemption of its own CPU at that "
			"call's exit (--exit-switch)\n");
	if (o->pipe_wake_ns)
		fprintf(f, "fairsim: and a pipe wake-up %.3g us of the waker's CPU\n",
			o->pipe_wake_ns / 1e3);
	if (o->tick_preempt_ns || o->hrtick_preempt_ns || o->hrtick_arm_ns)
		fprintf(f, "fairsim: and from a tick's / hrtick's handler to the switch it asks for "
			"%.3g / %.3g us, from a switch to its slice's timer armed %.3g us\n",
			o->tick_preempt_ns / 1e3, o->hrtick_preempt_ns / 1e3, o->hrtick_arm_ns / 1e3);
	if (o->tick_cost_ns)
		fprintf(f, "fairsim: and a tick's handler %.3g us of the CPU time of the task it "
			"interrupts\n", o->tick_cost_ns / 1e3);
	if (o->timer_wake_ns)
		fprintf(f, "fairsim: and from a sleep timer's expiry to its task's wake-up %.3g us\n",
			o->timer_wake_ns / 1e3);
	if (o->timer_cost_ns)
		fprintf(f, "fairsim: and a sleep timer's handler %.3g us of the CPU time of the task it "
			"interrupts\n", o->timer_cost_ns / 1e3);
	if (run->w->ignored[0])
		fprintf(f, "fairsim: ignored (not modelled): %s\n", run->w->ignored);
tables:
	perf_sched_latency(f, run);
	summary(f, run);
	for (int d = 0; d < run->w->nr_defs; d++)
		latency_tables(f, run, d);
	idle_table(f, run);
}

static json_object *num(ft_u64 v)
{
	return json_object_new_int64((long long)v);
}

static json_object *fixed(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.3f", v);
	return json_object_new_double_s(v, buf);
}

static json_object *dist(struct sim_samples *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "samples", num(s->n));
	for (int p = 0; p < 4; p++)
		json_object_object_add(o, pct_names[p], num(sim_pct(s, pcts[p])));
	json_object_object_add(o, "max", num(s->max));
	json_object_object_add(o, "avg", num(s->n ? s->sum / s->n : 0));
	return o;
}

/* The distribution for plots: [percentile, ns] at every 1%, then the tail. */
static json_object *cdf(struct sim_samples *s)
{
	static const double tail[] = { 99.5, 99.9, 99.99, 100 };
	json_object *a = json_object_new_array();

	for (int i = 0; s->n && i < 100 + 4; i++) {
		double p = i < 100 ? i : tail[i - 100];
		json_object *pt = json_object_new_array();

		json_object_array_add(pt, fixed(p));
		json_object_array_add(pt, num(p ? sim_pct(s, p) : sim_sample(s, 0)));
		json_object_array_add(a, pt);
	}
	return a;
}

static json_object *list(const char *csv)
{
	json_object *a = json_object_new_array();
	char buf[1024], *save, *item;

	snprintf(buf, sizeof(buf), "%s", csv);
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save))
		json_object_array_add(a, json_object_new_string(item + (*item == ' ')));
	return a;
}

static json_object *idle_json(const struct ft_idle_stats *st, int cpu)
{
	json_object *o = json_object_new_object(), *c = json_object_new_array();

	if (cpu >= 0)
		json_object_object_add(o, "cpu", num(cpu));
	for (int b = 0; b < FT_IDLE_BUCKETS; b++)
		json_object_array_add(c, num(st->count[b]));
	json_object_object_add(o, "count", c);
	json_object_object_add(o, "longest_ns", num(st->longest_ns));
	return o;
}

/* unreasonable_idle: {buckets, total: {count, longest_ns}, per_cpu: [...]} */
static json_object *idle_result(struct sim_run *run)
{
	json_object *o = json_object_new_object(), *b = json_object_new_array();
	json_object *per = json_object_new_array();

	for (int i = 0; i < FT_IDLE_BUCKETS; i++)
		json_object_array_add(b, json_object_new_string(idle_buckets[i]));
	json_object_object_add(o, "buckets", b);
	json_object_object_add(o, "total", idle_json(&run->idle[run->o->cpus], -1));
	for (int cpu = 0; cpu < run->o->cpus; cpu++)
		json_object_array_add(per, idle_json(&run->idle[cpu], cpu));
	json_object_object_add(o, "per_cpu", per);
	return o;
}

int sim_report_json(const char *path, struct sim_run *run)
{
	json_object *root = json_object_new_object(), *tasks = json_object_new_array();
	json_object *defs = json_object_new_object();
	const struct sim_opts *o = run->o;
	char name[SIM_NAME_LEN + 24];
	int ret;

	json_object_object_add(root, "workload", json_object_new_string(run->w->path));
	json_object_object_add(root, "cpus", num(o->cpus));
	json_object_object_add(root, "topology", json_object_new_string(o->islands ? "islands" :
								       o->topo.name));
	json_object_object_add(root, "sched_domains", json_object_new_string(run->domains));
	json_object_object_add(root, "hz", run->hz ? num(run->hz) : NULL);
	json_object_object_add(root, "seed", run->from ? NULL : num(o->seed));
	json_object_object_add(root, "duration_ns", num(run->end_ns));
	json_object_object_add(root, "base_slice_ns", run->base_slice_ns ?
			       num(run->base_slice_ns) : NULL);
	json_object_object_add(root, "features", json_object_new_string(o->features ? o->features : ""));
	json_object_object_add(root, "invariant_checker", json_object_new_boolean(!o->no_check));
	if (!run->from) {
		json_object_object_add(root, "timer_slack_ns", num(o->timer_slack_ns));
		json_object_object_add(root, "wake_cost_ns", num(o->wake_cost_ns));
		json_object_object_add(root, "idle_exit_ns", num(o->idle_exit_ns));
		json_object_object_add(root, "wake_preempt_ns", num(o->wake_preempt_ns));
		/* only when set: the JSON of a run without them stays as it was */
		if (o->futex_wake_ns || o->loop_cost_ns || o->unlock_wake_ns != o->futex_wake_ns) {
			json_object_object_add(root, "futex_wake_ns", num(o->futex_wake_ns));
			json_object_object_add(root, "loop_cost_ns", num(o->loop_cost_ns));
		}
		if (o->unlock_wake_ns != o->futex_wake_ns)
			json_object_object_add(root, "unlock_wake_ns", num(o->unlock_wake_ns));
		if (o->exit_switch)
			json_object_object_add(root, "exit_switch", json_object_new_boolean(true));
		if (o->pipe_wake_ns)
			json_object_object_add(root, "pipe_wake_ns", num(o->pipe_wake_ns));
		if (o->tick_preempt_ns || o->hrtick_preempt_ns || o->hrtick_arm_ns) {
			json_object_object_add(root, "tick_preempt_ns", num(o->tick_preempt_ns));
			json_object_object_add(root, "hrtick_preempt_ns", num(o->hrtick_preempt_ns));
			json_object_object_add(root, "hrtick_arm_ns", num(o->hrtick_arm_ns));
		}
		if (o->tick_cost_ns)
			json_object_object_add(root, "tick_cost_ns", num(o->tick_cost_ns));
		if (o->timer_wake_ns)
			json_object_object_add(root, "timer_wake_ns", num(o->timer_wake_ns));
		if (o->timer_cost_ns)
			json_object_object_add(root, "timer_cost_ns", num(o->timer_cost_ns));
	}
	json_object_object_add(root, "ignored", list(run->w->ignored));
	json_object_object_add(root, "left_out", list(run->w->left_out));
	if (run->from) {
		/* where the figures come from: a trace, and what else ran in it */
		json_object_object_add(root, "source", json_object_new_string("trace"));
		json_object_object_add(root, "trace", json_object_new_string(run->from));
		json_object_object_add(root, "window_start_ns", num(run->info->start_ns));
		json_object_object_add(root, "events", num(run->info->events));
		json_object_object_add(root, "lost_events", num(run->info->lost));
		json_object_object_add(root, "other_tasks_ns", num(run->an.other_ns));
		json_object_object_add(root, "missing", list(run->info->missing));
	}
	for (int i = 0; i < run->nr_tasks; i++) {
		struct sim_task *t = &run->tasks[i];
		json_object *j = json_object_new_object();

		name_of(run, t, name, sizeof(name));
		json_object_object_add(j, "name", json_object_new_string(name));
		json_object_object_add(j, "task", json_object_new_string(run->w->defs[t->def].name));
		json_object_object_add(j, "instance", num(t->inst));
		json_object_object_add(j, "pid", num(t->id));
		json_object_object_add(j, "cpu", num(t->cpu));
		json_object_object_add(j, "runtime_ns", num(t->exec_ns));
		json_object_object_add(j, "share_pct",
				       fixed(run->end_ns ? 100.0 * t->exec_ns / run->end_ns : 0));
		json_object_object_add(j, "wait_ns", num(t->wait_ns));
		json_object_object_add(j, "switches", num(t->switches));
		json_object_object_add(j, "preemptions", num(t->preemptions));
		json_object_object_add(j, "migrations", num(t->migrations));
		json_object_object_add(j, "wakeups", num(t->wakeups));
		json_object_object_add(j, "max_delay_ns", num(t->max_delay));
		json_object_object_add(j, "max_delay_start_ns", num(t->max_delay_at));
		sim_samples_sort(&t->wake_lat);
		sim_samples_sort(&t->wait);
		sim_samples_sort(&t->resp);
		json_object_object_add(j, "wakeup_latency_ns", dist(&t->wake_lat));
		json_object_object_add(j, "runnable_wait_ns", dist(&t->wait));
		json_object_object_add(j, "response_ns", dist(&t->resp));
		json_object_array_add(tasks, j);
	}
	for (int d = 0; d < run->w->nr_defs; d++) {
		json_object *j = json_object_new_object();
		struct sim_samples s;
		ft_u64 rt = 0;
		int n = 0;

		for (int i = 0; i < run->nr_tasks; i++)
			if (run->tasks[i].def == d) {
				rt += run->tasks[i].exec_ns;
				n++;
			}
		if (!n) {
			json_object_put(j);
			continue;
		}
		json_object_object_add(j, "instances", num(n));
		json_object_object_add(j, "runtime_ns", num(rt));
		merged(run, d, WAKE, &s);
		json_object_object_add(j, "wakeup_latency_ns", dist(&s));
		json_object_object_add(j, "wakeup_latency_cdf_ns", cdf(&s));
		sim_samples_free(&s);
		merged(run, d, WAIT, &s);
		json_object_object_add(j, "runnable_wait_ns", dist(&s));
		sim_samples_free(&s);
		merged(run, d, RESP, &s);
		json_object_object_add(j, "response_ns", dist(&s));
		sim_samples_free(&s);
		json_object_object_add(defs, run->w->defs[d].name, j);
	}
	sim_samples_sort(&run->an.idle_wake);
	json_object_object_add(root, "idle_wakeup_latency_ns", dist(&run->an.idle_wake));
	json_object_object_add(root, "tasks", tasks);
	json_object_object_add(root, "by_task", defs);
	json_object_object_add(root, "unreasonable_idle", idle_result(run));
	ret = json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY |
				      JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(root);
	return ret;
}

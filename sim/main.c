// SPDX-License-Identifier: GPL-2.0
/*
 * fairsim: one rt-app workload on the fake machine running the tree's
 * fair.c, reports on stdout, a JSON result and an ftrace text trace on
 * request. Output files are written under a temporary name and renamed
 * only when the whole run succeeded, so a bad workload or a failed run
 * never leaves a partial file behind for a script to mistake for a result.
 */
#include <errno.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include "sim.h"

static void usage(void)
{
	fprintf(stderr, "usage: fairsim [--cpus N | --topology NAME|FILE.topo] [--islands] [--seed N]\n"
		"               [--duration S] [--features A,!B] [--json FILE] [--trace FILE]\n"
		"               [--timer-slack US] [--wake-cost US] [--idle-exit US]\n"
		"               [--wake-preempt US] [--futex-wake-cost US] [--unlock-wake-cost US]\n"
		"               [--pipe-wake-cost US] [--loop-cost US]\n"
		"               [--tick-preempt US] [--hrtick-preempt US] [--hrtick-arm US]\n"
		"               [--tick-cost US] [--timer-wake US] [--timer-cost US] [--ideal]\n"
		"               [--exit-switch]\n"
		"               [--no-check] [--no-plans] [--quiet] WORKLOAD.json\n"
		"       fairsim --from-trace TRACE.txt [--workload WORKLOAD.json] [--cpus N]\n"
		"               [--duration S] [--json FILE] [--quiet]\n"
		"       fairsim --compare BASE.json... --vs PATCHED.json... [--markdown]\n"
		"       fairsim --twin FAIRSIM.json REAL.json... [--json FILE]\n");
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "fairsim: %s '%s'\n", what, arg);
	return 2;
}

/* Seconds, possibly fractional ("0.5"), to nanoseconds. */
static int seconds(const char *s, ft_u64 *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || v <= 0 || v * 1e9 > (double)SIM_MAX_NS)
		return -1;
	*ns = (ft_u64)(v * 1e9 + 0.5);
	return 0;
}

/* Microseconds >= 0, possibly fractional ("2.5"), to nanoseconds. */
static int micros(const char *s, ft_u64 *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || v < 0 || v > 1e9)
		return -1;
	*ns = (ft_u64)(v * 1e3 + 0.5);
	return 0;
}

/* The machine cost an option sets (--timer-slack US, ...), NULL if none. */
static ft_u64 *cost_of(struct sim_opts *o, const char *opt)
{
	static const struct {
		const char *opt;
		size_t off;
	} costs[] = {
		{ "--timer-slack", offsetof(struct sim_opts, timer_slack_ns) },
		{ "--wake-cost", offsetof(struct sim_opts, wake_cost_ns) },
		{ "--idle-exit", offsetof(struct sim_opts, idle_exit_ns) },
		{ "--wake-preempt", offsetof(struct sim_opts, wake_preempt_ns) },
		{ "--tick-preempt", offsetof(struct sim_opts, tick_preempt_ns) },
		{ "--hrtick-preempt", offsetof(struct sim_opts, hrtick_preempt_ns) },
		{ "--hrtick-arm", offsetof(struct sim_opts, hrtick_arm_ns) },
		{ "--tick-cost", offsetof(struct sim_opts, tick_cost_ns) },
		{ "--timer-wake", offsetof(struct sim_opts, timer_wake_ns) },
		{ "--timer-cost", offsetof(struct sim_opts, timer_cost_ns) },
		{ "--futex-wake-cost", offsetof(struct sim_opts, futex_wake_ns) },
		{ "--unlock-wake-cost", offsetof(struct sim_opts, unlock_wake_ns) },
		{ "--pipe-wake-cost", offsetof(struct sim_opts, pipe_wake_ns) },
		{ "--loop-cost", offsetof(struct sim_opts, loop_cost_ns) },
	};

	for (size_t i = 0; i < sizeof(costs) / sizeof(costs[0]); i++)
		if (!strcmp(opt, costs[i].opt))
			return (ft_u64 *)((char *)o + costs[i].off);
	return NULL;
}

static int number(const char *s, long long lo, long long hi, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno || *end || end == s || *out < lo || *out > hi ? -1 : 0;
}

/*
 * --cpus N alone: N cores sharing one last-level cache, no SMT, the shape
 * of fixtures/topologies/mc-2 and mc-4 for any N (topology.c makes one MC
 * domain of it; one CPU has none), so tasks are placed and balanced as on
 * a real single-LLC N-core part.
 */
static void single_llc(struct ft_topology *t, int n)
{
	static char name[16];

	snprintf(name, sizeof(name), "mc-%d", n);
	*t = (struct ft_topology){ .name = name, .nr_cpus = n };
	for (int i = 0; i < n; i++) {
		t->core[i] = t->cluster[i] = i;
		t->capacity[i] = 1024;
	}
}

/* A name of fixtures/topologies, or a path to a .topo file. */
static int machine(const char *arg, struct ft_topology *t)
{
	const struct ft_topology *named;
	char err[768];

	if (strchr(arg, '/') || strstr(arg, ".topo")) {
		if (!ft_topology_read(arg, t, err, sizeof(err)))
			return 0;
		fprintf(stderr, "fairsim: topology %s\n", err);
		return -1;
	}
	named = ft_topology_find(arg);
	if (named) {
		*t = *named;
		return 0;
	}
	fprintf(stderr, "fairsim: no topology '%s': give a .topo file or one of", arg);
	for (int i = 0; i < ft_topology_count(); i++)
		fprintf(stderr, " %s", ft_topology_get(i)->name);
	fprintf(stderr, " (fixtures/topologies)\n");
	return -1;
}

static char tmp_json[4096], tmp_trace[4096];

static void drop_tmp(void)
{
	if (tmp_json[0])
		unlink(tmp_json);
	if (tmp_trace[0])
		unlink(tmp_trace);
}

/*
 * --from-trace: a kernel's trace (or fairsim's) through the analysis that
 * makes fairsim's tables; the workload, when given, names the tasks to
 * report and the window's length.
 */
static int from_trace(const char *path, const char *workload, struct sim_opts *o,
		      const char *topology)
{
	struct sim_workload w = {};
	struct sim_trace_info info = {};
	struct sim_run run = {};
	int ret = 1;

	if (o->trace_out || topology || o->islands || o->features || o->workload) {
		fprintf(stderr, "fairsim: --from-trace reads a run that happened: it takes "
			"--workload, --cpus, --duration, --json, --quiet and nothing of a run "
			"(%s)\n", o->workload ? o->workload : o->trace_out ? "--trace" : topology ?
			"--topology" : o->islands ? "--islands" : "--features");
		return 2;
	}
	if (workload && sim_parse(workload, &w, FT_MAX_CPUS))
		return 1;
	snprintf(w.path, sizeof(w.path), "%s", workload ? workload : "");
	run.w = &w;
	run.o = o;
	o->no_check = true;
	if (sim_from_trace(path, &run, &w, o, &info))
		goto out;
	run.from = path;
	run.info = &info;
	o->topo.name = "trace";
	if (info.missing[0])
		fprintf(stderr, "fairsim: %s: no thread named for %s (rt-app keeps the name "
			"\"rt-app\" for a key of 16 characters or more)\n", path, info.missing);
	if (o->json_out) {
		atexit(drop_tmp);
		snprintf(tmp_json, sizeof(tmp_json), "%s.tmp%d", o->json_out, (int)getpid());
		if (sim_report_json(tmp_json, &run) || rename(tmp_json, o->json_out)) {
			fprintf(stderr, "fairsim: cannot write %s\n", o->json_out);
			goto out;
		}
	}
	if (!o->quiet)
		sim_report_text(stdout, &run);
	ret = 0;
out:
	for (int i = 0; i < run.nr_tasks; i++) {
		sim_samples_free(&run.tasks[i].wake_lat);
		sim_samples_free(&run.tasks[i].wait);
		sim_samples_free(&run.tasks[i].resp);
	}
	free(run.tasks);
	sim_samples_free(&run.an.idle_wake);
	sim_workload_free(&w);
	return ret;
}

int main(int argc, char **argv)
{
	/*
	 * What a real machine adds, by default: the kernel's timer slack for a
	 * normal task, and wake-up, idle-exit and wake-up preemption costs
	 * estimated on a Debian 12 VM (docs/twin-analysis.md); --ideal for none.
	 */
	struct sim_opts o = { .seed = 1, .timer_slack_ns = SIM_TIMER_SLACK_NS,
			      .wake_cost_ns = SIM_WAKE_COST_NS, .idle_exit_ns = SIM_IDLE_EXIT_NS,
			      .wake_preempt_ns = SIM_WAKE_PREEMPT_NS,
			      .unlock_wake_ns = SIM_COST_UNSET };
	const char *topology = NULL, *from = NULL, *workload = NULL;
	struct sim_workload w;
	struct sim_run run;
	long long n;
	ft_u64 *cost;
	int ret = 0;

	if (argc > 1 && !strcmp(argv[1], "--compare"))
		return sim_compare(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--twin"))
		return sim_twin(argc - 2, argv + 2);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-check")) {
			o.no_check = true;
		} else if (!strcmp(a, "--exit-switch")) {
			o.exit_switch = true;
		} else if (!strcmp(a, "--no-plans")) {
			o.no_plans = true;
		} else if (!strcmp(a, "--quiet")) {
			o.quiet = true;
		} else if (!strcmp(a, "--islands")) {
			o.islands = true;
		} else if (!strcmp(a, "--ideal")) {
			o.timer_slack_ns = o.wake_cost_ns = o.idle_exit_ns = o.wake_preempt_ns = o.futex_wake_ns =
				o.pipe_wake_ns = o.loop_cost_ns = o.tick_preempt_ns = o.hrtick_preempt_ns =
				o.hrtick_arm_ns = o.tick_cost_ns = o.timer_wake_ns =
				o.timer_cost_ns = 0;
			o.unlock_wake_ns = SIM_COST_UNSET;
		} else if (a[0] == '-' && a[1] == '-' && !v) {
			usage();
			return bad("option needs a value:", a);
		} else if (!strcmp(a, "--cpus")) {
			if (number(v, 1, FT_MAX_CPUS, &n))
				return bad("CPUS must be 1..64, not", v);
			o.cpus = n;
			i++;
		} else if (!strcmp(a, "--topology")) {
			topology = v;
			i++;
		} else if (!strcmp(a, "--seed")) {
			if (number(v, 0, 1LL << 62, &n))
				return bad("SEED must be a number >= 0, not", v);
			o.seed = n;
			i++;
		} else if (!strcmp(a, "--duration")) {
			if (seconds(v, &o.duration_ns))
				return bad("DURATION must be seconds > 0 that fit the clock, not", v);
			i++;
		} else if (!strcmp(a, "--features")) {
			o.features = v;
			i++;
		} else if (!strcmp(a, "--json")) {
			o.json_out = v;
			i++;
		} else if (!strcmp(a, "--trace")) {
			o.trace_out = v;
			i++;
		} else if ((cost = cost_of(&o, a))) {
			if (micros(v, cost))
				return bad("a cost is microseconds >= 0, not", v);
			i++;
		} else if (!strcmp(a, "--from-trace")) {
			from = v;
			i++;
		} else if (!strcmp(a, "--workload")) {
			workload = v;
			i++;
		} else if (a[0] == '-') {
			usage();
			return bad("unknown option", a);
		} else if (o.workload) {
			return bad("one workload at a time; extra argument", a);
		} else {
			o.workload = a;
		}
	}
	if (o.unlock_wake_ns == SIM_COST_UNSET)
		o.unlock_wake_ns = o.futex_wake_ns;
	if (from)
		return from_trace(from, workload, &o, topology);
	if (workload) {
		usage();
		return bad("--workload goes with --from-trace; a run takes its workload as", workload);
	}
	if (!o.workload) {
		usage();
		return 2;
	}
	if (topology && o.islands) {
		fprintf(stderr, "fairsim: --islands has no sched domains, --topology %s has: "
			"give one of them\n", topology);
		return 2;
	}
	if (topology) {
		if (machine(topology, &o.topo))
			return 2;
		if (o.cpus && o.cpus != o.topo.nr_cpus) {
			fprintf(stderr, "fairsim: --cpus %d but topology %s has %d CPUs: drop "
				"--cpus (CPUS=)\n", o.cpus, o.topo.name, o.topo.nr_cpus);
			return 2;
		}
	} else {
		single_llc(&o.topo, o.cpus ? o.cpus : 8);
	}
	o.cpus = o.topo.nr_cpus;
	if (sim_parse(o.workload, &w, o.cpus))
		return 1;
	if (!o.duration_ns && !w.duration_ns)
		for (int d = 0; d < w.nr_defs; d++)
			if (w.defs[d].loop < 0 && w.defs[d].instance > 0) {
				fprintf(stderr, "fairsim: %s: global.duration is -1 (until every task ends) "
					"but task '%s' loops forever; give it a \"loop\" count or set "
					"DURATION\n", o.workload, w.defs[d].name);
				sim_workload_free(&w);
				return 1;
			}
	if (w.left_out[0])
		fprintf(stderr, "fairsim: left out (not the fair class): %s\n", w.left_out);
	atexit(drop_tmp);
	if (o.json_out)
		snprintf(tmp_json, sizeof(tmp_json), "%s.tmp%d", o.json_out, (int)getpid());
	if (o.trace_out) {
		snprintf(tmp_trace, sizeof(tmp_trace), "%s.tmp%d", o.trace_out, (int)getpid());
	}
	{
		FILE *trace = NULL;

		if (o.trace_out && !(trace = fopen(tmp_trace, "w"))) {
			fprintf(stderr, "fairsim: cannot write %s (%s)\n", o.trace_out, strerror(errno));
			return 1;
		}
		if (trace)
			sim_trace_header(trace, o.workload, o.cpus,
					 o.duration_ns ? o.duration_ns : w.duration_ns);
		ret = sim_run_traced(&run, &w, &o, trace);
		if (trace && fclose(trace))
			ret = -1;
	}
	if (ret) {
		fprintf(stderr, "fairsim: %s: %s\n", o.workload, run.error);
		ret = 1;
		goto out;
	}
	if (o.json_out && sim_report_json(tmp_json, &run)) {
		fprintf(stderr, "fairsim: cannot write %s\n", o.json_out);
		ret = 1;
		goto out;
	}
	if (!o.quiet)
		sim_report_text(stdout, &run);
	if ((o.json_out && rename(tmp_json, o.json_out)) ||
	    (o.trace_out && rename(tmp_trace, o.trace_out))) {
		fprintf(stderr, "fairsim: cannot move the results into place (%s)\n", strerror(errno));
		ret = 1;
	}
out:
	sim_run_free(&run);
	sim_workload_free(&w);
	return ret;
}

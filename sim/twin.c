// SPDX-License-Identifier: GPL-2.0
/*
 * The twin table: the same workload in fairsim and on a real kernel, each
 * side's figures made by the same analysis (analysis.c: fairsim's run, or
 * `--from-trace` of the kernel's trace), side by side per task
 * definition: metric | fairsim | real kernel | difference. Either side may
 * hold several result files (seeds, boots): each figure is their mean,
 * with its standard deviation and range where a side has several, and a
 * row is marked where fairsim's runs and the real ones do not overlap
 * (every seed's figure outside the real range, on the same side of it):
 * the differences beyond both sides' spread, worth explaining. With one
 * fairsim run that is its figure outside the real range. Reads only
 * result files.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "sim.h"
#include "results.h"

struct spread {
	double mean, sd, min, max;
	int n;
};

/* A path of keys into @r, an array index where a key is "#N". */
static bool get(json_object *r, const char *const *path, double *v)
{
	for (; *path; path++) {
		if ((*path)[0] == '#') {
			if (!json_object_is_type(r, json_type_array) ||
			    !(r = json_object_array_get_idx(r, atoi(*path + 1))))
				return false;
		} else if (!json_object_object_get_ex(r, *path, &r)) {
			return false;
		}
	}
	if (!r || (!json_object_is_type(r, json_type_int) && !json_object_is_type(r, json_type_double)))
		return false;
	*v = json_object_get_double(r);
	return true;
}

/*
 * A task definition's figure in one result: @field of by_task, or the sum
 * (or, for share, the mean) over its instances of @field of tasks[].
 */
static bool value(json_object *r, const char *def, const char *where, const char *field,
		  const char *sub, double *v)
{
	json_object *tasks;
	double sum = 0, x;
	int n = 0;

	if (!strcmp(where, "by_task")) {
		const char *path[] = { "by_task", def, field, sub, NULL };

		return get(r, path, v);
	}
	if (!strcmp(where, "top")) {
		const char *path[] = { field, sub, NULL };

		return get(r, path, v);
	}
	if (!strcmp(where, "idle")) {
		const char *path[] = { "unreasonable_idle", "total", field, sub, NULL };

		return get(r, path, v);
	}
	if (!strcmp(where, "per_wakeup")) {
		double rt, wk;

		if (!value(r, def, "sum", "runtime_ns", NULL, &rt) ||
		    !value(r, def, "sum", "wakeups", NULL, &wk) || !wk)
			return false;
		*v = rt / wk;
		return true;
	}
	json_object_object_get_ex(r, "tasks", &tasks);
	for (size_t i = 0; i < json_object_array_length(tasks); i++) {
		json_object *t = json_object_array_get_idx(tasks, i), *name;
		const char *path[] = { field, NULL };

		if (!json_object_object_get_ex(t, "task", &name) ||
		    strcmp(json_object_get_string(name), def) || !get(t, path, &x))
			continue;
		sum += x;
		n++;
	}
	if (!n)
		return false;
	*v = !strcmp(where, "mean") ? sum / n : sum;
	return true;
}

static bool spread_of(struct sim_results *s, const char *def, const char *where, const char *field,
		      const char *sub, double scale, struct spread *st)
{
	double v, sum = 0, sq = 0;

	*st = (struct spread){ .min = DBL_MAX, .max = -DBL_MAX };
	for (int i = 0; i < s->n; i++) {
		if (!value(s->r[i], def, where, field, sub, &v))
			continue;
		v /= scale;
		sum += v;
		sq += v * v;
		st->min = fmin(st->min, v);
		st->max = fmax(st->max, v);
		st->n++;
	}
	if (!st->n)
		return false;
	st->mean = sum / st->n;
	st->sd = st->n > 1 ? sqrt(fmax(0, (sq - sum * sum / st->n) / (st->n - 1))) : 0;
	return true;
}

static const struct metric {
	const char *label, *where, *field, *sub;
	double scale;
} metrics[] = {
	{ "share %", "mean", "share_pct", NULL, 1 },
	{ "run time ms", "by_task", "runtime_ns", NULL, 1e6 },
	/* a burst: what the workload's run became, to compare first */
	{ "run per wake-up us", "per_wakeup", NULL, NULL, 1e3 },
	{ "runnable wait ms", "sum", "wait_ns", NULL, 1e6 },
	{ "switches", "sum", "switches", NULL, 1 },
	{ "preemptions", "sum", "preemptions", NULL, 1 },
	{ "migrations", "sum", "migrations", NULL, 1 },
	{ "wake-ups", "sum", "wakeups", NULL, 1 },
	{ "wake-up p50 us", "by_task", "wakeup_latency_ns", "p50", 1e3 },
	{ "wake-up p90 us", "by_task", "wakeup_latency_ns", "p90", 1e3 },
	{ "wake-up p99 us", "by_task", "wakeup_latency_ns", "p99", 1e3 },
	{ "wake-up p99.9 us", "by_task", "wakeup_latency_ns", "p99.9", 1e3 },
	{ "wake-up max us", "by_task", "wakeup_latency_ns", "max", 1e3 },
};

static const struct metric idle_metrics[] = {
	{ "idle-CPU wake-up p50 us", "top", "idle_wakeup_latency_ns", "p50", 1e3 },
	{ "idle-CPU wake-ups", "top", "idle_wakeup_latency_ns", "samples", 1 },
	{ "idle 2.5-3ms", "idle", "count", "#0", 1 },
	{ "idle 3-4ms", "idle", "count", "#1", 1 },
	{ "idle >4ms", "idle", "count", "#2", 1 },
	{ "idle longest ms", "idle", "longest_ns", NULL, 1e6 },
};

static json_object *spread_json(const struct spread *st)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mean", json_object_new_double(st->mean));
	json_object_object_add(o, "sd", json_object_new_double(st->sd));
	json_object_object_add(o, "min", json_object_new_double(st->min));
	json_object_object_add(o, "max", json_object_new_double(st->max));
	json_object_object_add(o, "runs", json_object_new_int(st->n));
	return o;
}

static void row(struct sim_results *sim, struct sim_results *real, const char *def,
		const struct metric *m, json_object *rows)
{
	struct spread a, b;
	char fs[64], rs[64], diff[32];
	bool outside;
	json_object *j;

	if (!spread_of(sim, def, m->where, m->field, m->sub, m->scale, &a) ||
	    !spread_of(real, def, m->where, m->field, m->sub, m->scale, &b))
		return;
	/* a seed's figure is a draw as a boot's is: apart only when no draw meets */
	outside = a.max < b.min - 1e-9 || a.min > b.max + 1e-9;
	if (sim->n > 1)
		snprintf(fs, sizeof(fs), "%.2f +/- %.2f [%.2f, %.2f]", a.mean, a.sd, a.min, a.max);
	else
		snprintf(fs, sizeof(fs), "%.2f", a.mean);
	snprintf(rs, sizeof(rs), "%.2f +/- %.2f [%.2f, %.2f]", b.mean, b.sd, b.min, b.max);
	snprintf(diff, sizeof(diff), "%+.2f%s", a.mean - b.mean, outside ? " *" : "");
	printf("%-10s %-24s %*s %40s %14s\n", def ? def : "all", m->label, sim->n > 1 ? 40 : 16,
	       fs, rs, diff);
	j = json_object_new_object();
	json_object_object_add(j, "task", def ? json_object_new_string(def) : NULL);
	json_object_object_add(j, "metric", json_object_new_string(m->label));
	json_object_object_add(j, "fairsim", spread_json(&a));
	json_object_object_add(j, "real", spread_json(&b));
	json_object_object_add(j, "difference", json_object_new_double(a.mean - b.mean));
	json_object_object_add(j, "outside_real_range", json_object_new_boolean(outside));
	json_object_array_add(rows, j);
}

static const char *str(json_object *r, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(r, key, &v) && json_object_get_string(v) ?
	       json_object_get_string(v) : "";
}

static json_object *names(struct sim_results *s)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < s->n; i++)
		json_object_array_add(a, json_object_new_string(s->path[i]));
	return a;
}

int sim_twin(int argc, char **argv)
{
	struct sim_results sim = {}, real = {}, *s = &sim;
	const char *out = NULL;
	json_object *defs, *root = NULL, *rows;
	bool vs = false;
	int ret = 1;

	for (int i = 0; i < argc; i++)
		vs |= !strcmp(argv[i], "--vs");
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--vs")) {
			s = &real;
		} else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
			out = argv[++i];
		} else if (sim_results_load(s, argv[i], "tasks",
					    "fairsim --json, or fairsim --from-trace --json")) {
			goto out;
		} else if (!vs && s == &sim) {
			s = &real;	/* without --vs: one fairsim result, then the real ones */
		}
	}
	if (vs && !sim.n) {
		fprintf(stderr, "fairsim: --twin FAIRSIM.json... --vs REAL.json...: no fairsim result\n");
		goto out;
	}
	if (!sim.n || !real.n) {
		fprintf(stderr, "fairsim: --twin FAIRSIM.json REAL.json... [--json FILE]: give a "
			"fairsim result and at least one real kernel's (fairsim --from-trace --json)\n");
		goto out;
	}
	{
		const char *a = strrchr(str(sim.r[0], "workload"), '/');
		const char *b = strrchr(str(real.r[0], "workload"), '/');

		a = a ? a + 1 : str(sim.r[0], "workload");
		b = b ? b + 1 : str(real.r[0], "workload");
		if (*a && *b && strcmp(a, b))
			fprintf(stderr, "fairsim: warning: the two sides ran different workloads "
				"(%s, %s)\n", a, b);
	}
	printf("# twin: %s; fairsim: %d run%s (%s), real kernel: %d run%s (%s)\n",
	       str(sim.r[0], "workload"), sim.n, sim.n > 1 ? "s" : "", sim.path[0], real.n,
	       real.n > 1 ? "s" : "", real.path[0]);
	if (sim.n > 1)
		printf("# mean +/- standard deviation [range] of each side's runs; difference = "
		       "fairsim - real, * where no fairsim run lies in the real range and all lie "
		       "on one side of it\n");
	else
		printf("# mean, and for the real kernel +/- standard deviation [range]; difference = "
		       "fairsim - real, * where fairsim lies outside the real range\n");
	printf("%-10s %-24s %*s %40s %14s\n", "task", "metric", sim.n > 1 ? 40 : 16, "fairsim",
	       "real kernel", "difference");
	root = json_object_new_object();
	rows = json_object_new_array();
	json_object_object_add(root, "workload", json_object_new_string(str(sim.r[0], "workload")));
	json_object_object_add(root, "fairsim", names(&sim));
	json_object_object_add(root, "real", names(&real));
	json_object_object_get_ex(sim.r[0], "by_task", &defs);
	json_object_object_foreach(defs, def, unused) {
		(void)unused;
		for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++)
			row(&sim, &real, def, &metrics[m], rows);
	}
	for (size_t m = 0; m < sizeof(idle_metrics) / sizeof(idle_metrics[0]); m++)
		row(&sim, &real, NULL, &idle_metrics[m], rows);
	json_object_object_add(root, "rows", rows);
	if (out) {
		char tmp[4096];

		snprintf(tmp, sizeof(tmp), "%s.tmp%d", out, (int)getpid());
		if (json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_SPACED |
					    JSON_C_TO_STRING_NOSLASHESCAPE) || rename(tmp, out)) {
			unlink(tmp);
			fprintf(stderr, "fairsim: cannot write %s\n", out);
			goto out;
		}
	}
	ret = 0;
out:
	json_object_put(root);
	sim_results_put(&sim);
	sim_results_put(&real);
	return ret;
}

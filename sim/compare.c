// SPDX-License-Identifier: GPL-2.0
/*
 * A/B: result files of the same workload, base and patched (two trees or
 * two feature sets), one per seed, side by side in the seeds' shape:
 * "scheduling latency (us)" rows 99th / 99.9th / Maximum with the change
 * in percent, and run time per task definition, each figure the mean over
 * the seeds with its spread (+/- one standard deviation), as a hackbench
 * table gives it. Reads only fairsim's own JSON result files. With
 * --markdown the same tables in markdown, for the docs.
 */
#include <math.h>
#include <string.h>
#include <json-c/json.h>
#include "sim.h"
#include "results.h"

static bool markdown;

/* A number of one result by its path of keys (NULL ends it; an array
 * index where @idx >= 0 at the end); false when absent. */
static bool get(json_object *r, const char *const *path, int idx, double *v)
{
	for (; *path; path++)
		if (!json_object_object_get_ex(r, *path, &r))
			return false;
	if (idx >= 0 && !(r = json_object_array_get_idx(r, idx)))
		return false;
	*v = json_object_get_double(r);
	return true;
}

static bool mean_sd(struct sim_results *s, const char *const *path, int idx, double *mean,
		    double *sd)
{
	double v, sum = 0, sq = 0;

	for (int i = 0; i < s->n; i++) {
		if (!get(s->r[i], path, idx, &v))
			return false;
		sum += v;
		sq += v * v;
	}
	*mean = sum / s->n;
	*sd = s->n > 1 ? sqrt(fmax(0, (sq - sum * sum / s->n) / (s->n - 1))) : 0;
	return true;
}

static void row(struct sim_results *a, struct sim_results *b, const char *label,
		const char *const *path, int idx, double scale)
{
	double am, asd, bm, bsd;
	char change[32] = "n/a";

	if (!mean_sd(a, path, idx, &am, &asd) || !mean_sd(b, path, idx, &bm, &bsd))
		return;
	if (am != 0)
		snprintf(change, sizeof(change), "%+.1f%%", 100.0 * (bm - am) / am);
	else if (bm == 0)
		snprintf(change, sizeof(change), "0.0%%");
	if (markdown)
		printf("| %s | %.1f +/- %.1f | %.1f +/- %.1f | %s |\n", label, am / scale,
		       asd / scale, bm / scale, bsd / scale, change);
	else
		printf("%-12s %12.1f +/- %-8.1f %12.1f +/- %-8.1f %10s\n", label, am / scale,
		       asd / scale, bm / scale, bsd / scale, change);
}

/* A table's title and column heads. */
static void head(const char *title, const char *def)
{
	if (markdown)
		printf("\n%s%s\n\n| | base | patched | change |\n| --- | --- | --- | --- |\n", title,
		       def);
	else
		printf("\n# %s%s\n%-12s %25s %25s %10s\n", title, def, "", "base", "patched",
		       "change");
}

/* One row of a task definition's figures: by_task.<def>.<field>[.<sub>] */
static void task_row(struct sim_results *a, struct sim_results *b, const char *label,
		     const char *def, const char *field, const char *sub, double scale)
{
	const char *path[] = { "by_task", def, field, sub, NULL };

	row(a, b, label, path, -1, scale);
}

int sim_compare(int argc, char **argv)
{
	struct sim_results a = {}, b = {}, *s = &a;
	json_object *defs;
	int ret = 1;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--vs"))
			s = &b;
		else if (!strcmp(argv[i], "--markdown"))
			markdown = true;
		else if (sim_results_load(s, argv[i], NULL, "RESULT="))
			goto out;
	}
	if (!a.n || !b.n) {
		fprintf(stderr, "fairsim: --compare BASE.json... --vs PATCHED.json...\n");
		goto out;
	}
	printf("%sA/B over %d seed(s) base, %d patched: mean +/- standard deviation\n",
	       markdown ? "" : "# ", a.n, b.n);
	json_object_object_get_ex(a.r[0], "by_task", &defs);
	json_object_object_foreach(defs, def, unused) {
		(void)unused;
		head("scheduling latency (us) for ", def);
		task_row(&a, &b, "99th", def, "wakeup_latency_ns", "p99", 1000);
		task_row(&a, &b, "99.9th", def, "wakeup_latency_ns", "p99.9", 1000);
		task_row(&a, &b, "Maximum", def, "wakeup_latency_ns", "max", 1000);
		task_row(&a, &b, "run time ms", def, "runtime_ns", NULL, 1e6);
	}
	/* the LB_PROMOTE series' table: unreasonable idle events per bucket */
	if (json_object_object_get_ex(a.r[0], "unreasonable_idle", NULL)) {
		static const char *const count[] = { "unreasonable_idle", "total", "count", NULL };
		static const char *const longest[] = { "unreasonable_idle", "total", "longest_ns",
						       NULL };
		static const char *const label[] = { "2.5-3 ms", "3-4 ms", "> 4 ms" };

		head("unreasonable idle events (all CPUs)", "");
		for (int i = 0; i < 3; i++)
			row(&a, &b, label[i], count, i, 1);
		row(&a, &b, "longest ms", longest, -1, 1e6);
	}
	ret = 0;
out:
	sim_results_put(&a);
	sim_results_put(&b);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection on the user side: the kernel side asks ft_host_fail()
 * whether a failure point fails now, and libfiu answers, so what fails,
 * how often and in which order is libfiu's business, not ours. A run
 * enables points from FAIRTEST_FAULTS; tests enable their own. libfiu's
 * random generator is pinned (FIU_PRNG_SEED) and reseeded per case from
 * the case's name, so a run, or one case filtered out of it, replays the
 * same failures. Firings are counted per case for the report.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define FIU_ENABLE 1
#include <fiu.h>
#include <fiu-control.h>
#include "fairtest.h"
#include "fiu_host.h"

static const char *const names[FT_FP_NR] = {
#define FT_POINT(id, name, effect)	[FT_FP_##id] = name,
#include "faults.def"
#undef FT_POINT
};

static unsigned long fired[FT_FP_NR];
static unsigned int nth_left[FT_FP_NR];
static unsigned int prng_seed = 1;
static const char *spec;	/* FAIRTEST_FAULTS, once checked */
static bool armed;		/* any point enabled: only then ask libfiu */

int ft_host_fail(enum ft_point point)
{
	if (!armed || point < 0 || point >= FT_FP_NR || !fiu_fail(names[point]))
		return 0;
	fired[point]++;
	return 1;
}

/* Can any point fire? sim/engine.c plans only where none can (the clock is exact). */
bool ft_host_faults_armed(void)
{
	return armed;
}

const char *ft_inject_name(enum ft_point point)
{
	return point >= 0 && point < FT_FP_NR ? names[point] : NULL;
}

static void arm(void)
{
	if (!armed)
		fiu_init(0);
	armed = true;
}

int ft_inject_enable(enum ft_point point, double probability)
{
	if (point < 0 || point >= FT_FP_NR || !(probability >= 0 && probability <= 1))
		return -EINVAL;
	arm();
	if (probability == 1)
		return fiu_enable(names[point], 1, NULL, 0) ? -EINVAL : 0;
	return fiu_enable_random(names[point], 1, NULL, 0, probability) ? -EINVAL : 0;
}

/* libfiu's external mode: the callback decides, here "the nth use only". */
static int nth_cb(const char *name, int *failnum, void **failinfo,
		  unsigned int *flags)
{
	unsigned int *left = *failinfo;

	return *left && !--*left;
}

int ft_inject_nth(enum ft_point point, unsigned int nth)
{
	if (point < 0 || point >= FT_FP_NR || !nth)
		return -EINVAL;
	arm();
	nth_left[point] = nth;
	return fiu_enable_external(names[point], 1, &nth_left[point], 0, nth_cb) ?
	       -EINVAL : 0;
}

void ft_inject_disable(enum ft_point point)
{
	if (point >= 0 && point < FT_FP_NR)
		fiu_disable(names[point]);
}

unsigned long ft_inject_fired(enum ft_point point)
{
	return point >= 0 && point < FT_FP_NR ? fired[point] : 0;
}

/* ---- the run's configuration ---- */

static void __attribute__((noreturn)) bad(const char *what, const char *fix)
{
	fprintf(stderr, "fairtest: %s; %s\n", what, fix);
	exit(2);
}

/* A name, or a prefix ending in '*', the one wildcard libfiu knows. */
static bool known(const char *pattern)
{
	size_t n = strcspn(pattern, "*");

	if (pattern[n] && pattern[n + 1])
		return false;
	for (int i = 0; i < FT_FP_NR; i++)
		if (pattern[n] ? !strncmp(pattern, names[i], n) : !strcmp(pattern, names[i]))
			return true;
	return false;
}

/* One "name[=once|=P]" of FAIRTEST_FAULTS; name may end in '*' (libfiu). */
static void enable_one(char *item)
{
	char *mode = strchr(item, '='), msg[300], *end;
	double p = 1;
	int rc;

	if (mode)
		*mode++ = 0;
	if (!known(item)) {
		snprintf(msg, sizeof(msg), "unknown failure point '%s' in FAIRTEST_FAULTS",
			 item);
		bad(msg, "the points are listed by `make help` and in shim/faults.def");
	}
	if (mode && strcmp(mode, "once")) {
		errno = 0;
		p = strtod(mode, &end);
		if (!*mode || *end || errno || !(p >= 0 && p <= 1)) {
			snprintf(msg, sizeof(msg), "probability '%s' for %s is not a number in [0,1]",
				 mode, item);
			bad(msg, "write name=P, name=once or name alone (always)");
		}
	}
	arm();
	if (mode && !strcmp(mode, "once"))
		rc = fiu_enable(item, 1, NULL, FIU_ONETIME);
	else if (p == 1)
		rc = fiu_enable(item, 1, NULL, 0);
	else
		rc = fiu_enable_random(item, 1, NULL, 0, p);
	if (rc)
		bad("libfiu could not enable a failure point", item);
}

void ft_inject_setup(void)
{
	const char *seed = getenv("FIU_PRNG_SEED");
	char *list, *item, *save, *end;
	unsigned long v;

	if (seed) {
		errno = 0;
		v = strtoul(seed, &end, 10);
		if (*seed < '0' || *seed > '9' || *end || errno || v > UINT_MAX)
			bad("FIU_PRNG_SEED must be a decimal number up to 4294967295",
			    "e.g. SEED=7");
		prng_seed = v;
	}
	spec = getenv("FAIRTEST_FAULTS");
	if (!spec || !*spec) {
		spec = NULL;
		return;
	}
	list = strdup(spec);
	if (!list)
		bad("out of memory", "FAIRTEST_FAULTS");
	for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save))
		enable_one(item);
	free(list);
}

void ft_inject_header(void)
{
	printf("# fiu prng seed: %u\n", prng_seed);
	if (spec)
		printf("# fiu failure points: %s\n", spec);
}

/* FNV-1a of the case's name: its draws do not depend on the cases before. */
void ft_inject_case_begin(const char *suite, const char *name)
{
	unsigned int h = 2166136261u;
	const char *s;

	for (s = suite; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	h = (h ^ '.') * 16777619u;
	for (s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	fiu_set_prng_seed(prng_seed ^ h);
	memset(fired, 0, sizeof(fired));
}

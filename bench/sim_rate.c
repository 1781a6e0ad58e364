// SPDX-License-Identifier: GPL-2.0
/*
 * How much faster than real time the fake machine runs: 8 CPU-bound tasks
 * on 4 CPUs without domains, then on the 8-CPU SMT+MC topology with
 * balancing on, for SIM_SECONDS of virtual time each, timed with the host
 * clock.
 * The host clock is read only here, by the benchmark, never by the engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "fairtest.h"

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 8 CPU-bound tasks forked on @cpus CPUs of the machine just booted. */
static int run(const char *what, int cpus, int sim_seconds)
{
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	double t0, t1;

	for (int i = 0; i < 8; i++) {
		attr.cpu = i % cpus;
		if (ft_task_fork(&attr) <= 0)
			return 1;
	}
	t0 = wall();
	ft_run_for((ft_u64)sim_seconds * 1000000000ULL);
	t1 = wall();
	printf("%-44s %10.1f\n", what, sim_seconds / (t1 - t0));
	ft_shutdown();
	return ft_fault_count() != 0;
}

int main(int argc, char **argv)
{
	int sim_seconds = argc > 1 ? atoi(argv[1]) : 20;
	const struct ft_topology *topo = ft_topology_find("smt-mc-8");

	if (sim_seconds <= 0 || !topo || ft_boot(4)) {
		fprintf(stderr, "sim_rate: usage: sim_rate [SIM_SECONDS > 0]\n");
		return 2;
	}
	if (run("simulated s per wall s (8 tasks, 4 CPUs)", 4, sim_seconds))
		return 1;
	if (ft_boot_topology(topo))
		return 1;
	return run("  same, 8 CPUs SMT+MC, balancing on", 1, sim_seconds);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bridge: the only header both worlds include. Kernel-side code (fair.c,
 * the seams, the driver) is built with the kernel's command line and never
 * sees libc; user-side code (runner, tests, host glue) never sees kernel
 * headers. They meet here, in plain C: ints, 64-bit integers, task ids and
 * small structs. Functions named ft_* are implemented on the kernel side;
 * ft_host_* on the user side (shim/host.c).
 */
#ifndef FAIRTEST_H
#define FAIRTEST_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#endif

typedef unsigned long long ft_u64;
typedef long long ft_s64;

#define FT_MAX_CPUS	64	/* spans fit a u64 */
#define FT_MAX_NODES	8	/* the debian profile's NODES_SHIFT cap */
#define FT_ROOT_GROUP	0

/* ---- the fake machine ---- */
int ft_boot(int nr_cpus);	/* 0, or -errno; a fresh machine each call */
void ft_shutdown(void);		/* frees every task, group and CPU area */
int ft_nr_cpus(void);
ft_u64 ft_now(void);		/* virtual nanoseconds since boot */
ft_u64 ft_tick_nsec(void);	/* TICK_NSEC of the tree's config */
ft_u64 ft_base_slice(void);	/* sysctl_sched_base_slice */
void ft_set_base_slice(ft_u64 ns);	/* as debugfs sched/base_slice_ns does */

/* ---- many CPUs: a machine with sched domains (driver/topology.c) ---- */
/*
 * A machine as the arch reports it: per CPU, the ids of its core (SMT
 * siblings share one), L2 cluster, last-level cache and package, and its
 * capacity. The tree's topology.c builds the domains from it. Named ones
 * live in fixtures/topologies/ (ft_topology_find(), user side).
 */
#define FT_MAX_PDS	8
#define FT_MAX_PSTATES	16
/*
 * A performance domain of the machine's energy model (.topo "em" lines):
 * CPUs that change frequency together, and their performance states,
 * lowest first: the capacity each gives and the power one CPU draws there.
 */
struct ft_perf_domain {
	ft_u64 cpus;		/* bit i: CPU i */
	int nr_states;
	unsigned long perf[FT_MAX_PSTATES];	/* capacity units; the last = the CPUs' capacity */
	unsigned long power_mw[FT_MAX_PSTATES];
};
struct ft_topology {
	const char *name;
	int nr_cpus;
	int core[FT_MAX_CPUS], cluster[FT_MAX_CPUS], llc[FT_MAX_CPUS], pkg[FT_MAX_CPUS];
	unsigned long capacity[FT_MAX_CPUS];	/* 1..1024; 0 = 1024 */
	int nr_pds;		/* 0: no energy model (EAS stays off) */
	struct ft_perf_domain pd[FT_MAX_PDS];
	/*
	 * NUMA nodes ("node" lines): 0 = one node holding every CPU. Each CPU
	 * in one node; distance[i][j] as the firmware's SLIT gives it (10
	 * local). Only a CONFIG_NUMA build sees them (docs/numa.md).
	 */
	int nr_nodes;
	int node[FT_MAX_CPUS];
	int distance[FT_MAX_NODES][FT_MAX_NODES];
};
/* ft_boot() gives CPUs without domains (each an island); this gives domains. */
int ft_boot_topology(const struct ft_topology *topo);
const struct ft_topology *ft_topology_find(const char *name);
int ft_topology_count(void);
const struct ft_topology *ft_topology_get(int i);
/*
 * The .topo format's one reader (shim/topo_file.c, user side): 0, or -1
 * with one line "LINE: what is wrong" (read: "FILE:LINE: ...") in @err.
 * @expect, if not NULL, gets the "expect" lines (malloc'd, may be NULL).
 */
int ft_topology_parse(const char *text, const char *name, struct ft_topology *out,
		      char **expect, char *err, unsigned long errlen);
int ft_topology_read(const char *path, struct ft_topology *out, char *err,
		     unsigned long errlen);

/*
 * NUMA balancing (CONFIG_NUMA_BALANCING, the debian profile; driver/numa.c,
 * seams/numa_mm.c, docs/numa.md). Each returns -EOPNOTSUPP where the
 * profile has no NUMA balancing. An address space (mm) holds VMAs whose
 * pages all sit on one node; a task given an mm touches, at each return
 * to user space (a tick's interrupt exit), up to the pages asked of each
 * VMA, and every page task_numa_work() marked faults (task_numa_fault()).
 */
int ft_numa_set_enabled(bool on);	/* sched_numa_balancing; on at boot with >1 node */
int ft_numa_mm_create(void);		/* an mm id (1..), or -errno */
int ft_numa_vma_create(int mm, ft_u64 pages, int node);	/* its index in the mm */
int ft_numa_task_set_mm(int id, int mm);	/* a second task of an mm is a thread */
int ft_numa_task_access(int id, int vma, ft_u64 pages_per_tick);
/* Off by default: pages stay put. On: a fault asks should_numa_migrate_memory()
 * and, if it agrees, the VMA's pages move to the faulting CPU's node. */
int ft_numa_vma_set_migrate(int mm, int vma, bool on);
int ft_numa_vma_node(int mm, int vma);	/* where its pages are now */
int ft_numa_mm_lock(int mm, bool held);	/* a writer holds its mmap lock */
/* The mapping a VMA is (FT_NUMA_VMA_*) and the pages the scanner marked in it. */
enum { FT_NUMA_VMA_ANON, FT_NUMA_VMA_IO, FT_NUMA_VMA_FILE_RO, FT_NUMA_VMA_NOACCESS };
int ft_numa_vma_set_kind(int mm, int vma, int kind);
long ft_numa_vma_marked(int mm, int vma);
/* A hinting fault as the running task @id (-EBUSY if not running); @last_id
 * the task of the page's last fault (0: none, a first access). */
int ft_numa_fault(int id, int node, int pages, int last_id, int flags);
struct ft_numa_info {
	int preferred_nid;	/* -1: none */
	int node;		/* of its CPU */
	unsigned int scan_period_ms;
	int scan_seq;		/* its mm's completed scans */
	int group, group_tasks;	/* numa group id (0: none), its tasks */
	unsigned long faults[FT_MAX_NODES];	/* task_faults() per node */
	unsigned long group_faults[FT_MAX_NODES];
	/* fair.c's sysctls: first scan after delay_ms of run time, then every period */
	unsigned int scan_delay_ms, scan_period_min_ms, scan_period_max_ms;
	unsigned int scan_size_mb;	/* one scan marks about this much */
};
int ft_numa_task_info(int id, struct ft_numa_info *out);
struct ft_numa_stats {	/* since boot */
	unsigned long prot_calls, prot_pages;	/* change_prot_numa() */
	unsigned long faults, fault_pages;	/* task_numa_fault() fed */
	unsigned long moves, swaps;		/* migrate_task_to() done, migrate_swap() asked */
	unsigned long setnuma;			/* sched_setnuma() */
	unsigned long scans, max_scan_pages;	/* scanner passes; most pages one marked */
};
void ft_numa_stats(struct ft_numa_stats *out);

/* One level of a CPU's domain hierarchy, as topology.c left it. */
struct ft_domain {
	char name[8];		/* "SMT", "CLS", "MC", "PKG" */
	ft_u64 span;		/* bit i: CPU i */
	unsigned int flags;	/* SD_* bits, named by ft_sd_flag_name() */
	unsigned int imbalance_pct, cache_nice_tries, busy_factor;
	unsigned int min_interval, max_interval, span_weight;
	/* the balancer's state: failed periodic attempts, current interval (ms) */
	unsigned int nr_balance_failed, balance_interval;
	ft_u64 last_balance;	/* jiffies of the last periodic pass */
	unsigned int imb_numa_nr;	/* tasks a NUMA level lets stay imbalanced */
	int nr_groups;
	ft_u64 group_span[FT_MAX_CPUS];	/* the CPU's own group first */
	unsigned long group_capacity[FT_MAX_CPUS];
};
/* Fills the levels of @cpu, lowest first; returns how many (0: none). */
int ft_cpu_domains(int cpu, struct ft_domain *out, int max);
const char *ft_sd_flag_name(int bit);	/* "SHARE_LLC"; NULL past the last */
unsigned long ft_cpu_capacity(int cpu);	/* rq->cpu_capacity */

/*
 * Energy-aware scheduling (driver/energy.c): a topology with an energy
 * model boots with EAS on where the profile has CONFIG_ENERGY_MODEL and
 * schedutil and topology.c finds its conditions met.
 */
bool ft_eas_enabled(void);		/* sched_energy_enabled() */
int ft_rd_overutilized(int cpu);	/* 1/0: the root domain of @cpu; -errno */
/* The root domain's perf domains, as topology.c attached them: how many. */
int ft_rd_perf_domains(int cpu, ft_u64 *spans, int max);
/* PELT's utilization signals as EAS reads them, raw (no decay applied). */
struct ft_util {
	unsigned long util_avg, util_est, runnable_avg;
};
int ft_cpu_util_raw(int cpu, struct ft_util *out);	/* the CPU's root cfs_rq */
int ft_task_util_raw(int id, struct ft_util *out);	/* util_est without its flag */

/*
 * Unreasonable idle (the LB_PROMOTE series' definition): an interval in
 * which a CPU is idle while a task allowed on it waits runnable on another
 * CPU, longer than 2.5 ms, counted by length when it ends (or as of now if
 * still open): [0] 2.5-3 ms, [1] 3-4 ms, [2] > 4 ms. cpu -1: all CPUs.
 */
#define FT_IDLE_BUCKETS		3
#define FT_IDLE_MIN_NS		2500000ULL
struct ft_idle_stats {
	ft_u64 count[FT_IDLE_BUCKETS];
	ft_u64 longest_ns;	/* longest such interval, any length */
};
int ft_unreasonable_idle(int cpu, struct ft_idle_stats *out);
/*
 * The detector looks at the machine at every clock step after a change:
 * a caller that will not ask turns it off until the next ft_boot(), and
 * ft_unreasonable_idle() then fails (-ENODATA).
 */
void ft_idle_detector_off(void);

/* Affinity: bit i of @mask allows CPU i; moves a task off a disallowed CPU. */
int ft_task_set_affinity(int id, ft_u64 mask);
ft_u64 ft_task_affinity(int id);
/* A running task wakes a sleeping one from its CPU (WF_SYNC if @sync). */
int ft_task_wake_by(int id, int waker, bool sync);
/* An interrupt on @cpu wakes @id: that CPU's current task (idle or not) wakes it. */
int ft_task_wake_on(int id, int cpu);
ft_u64 ft_stop_works(void);	/* CPU stopper works queued since boot */
/*
 * Delay of an IPI from send to delivery, 1 us: the idle balancer's kick
 * (kick_ilb(), nohz profile) and the reschedule IPI to a busy remote CPU
 * (resched_curr()). 0: a remote resched acts at the end of the operation.
 */
void ft_set_ipi_latency(ft_u64 ns);
/*
 * An idle CPU asked to reschedule switches @ns later (leaving the idle
 * state), 0 (the default): at once, as a polling idle loop. For the
 * simulator's cost model; the unit tests keep 0.
 */
void ft_set_idle_exit(ft_u64 ns);
/* A busy CPU a wake-up preempts switches @ns later; 0 (the default): at
 * the end of the wake-up. The simulator's cost model, like the above. */
void ft_set_wake_preempt(ft_u64 ns);
/* The same for a busy CPU its tick (@tick_ns) or hrtick (@hrtick_ns)
 * preempts; 0 (the default): at the interrupt's exit, at once. */
void ft_set_tick_preempt(ft_u64 tick_ns, ft_u64 hrtick_ns);
/* From 7.2, a slice's timer armed on the way out of schedule() expires
 * @ns later than the pick asked for; 0 (the default): none. */
void ft_set_hrtick_arm(ft_u64 ns);
/* A busy CPU's periodic tick in the event loop (ft_run_for()) lengthens the
 * running task's budget of exec time by @ns, its handler's time charged to
 * it; 0 (the default): none. */
void ft_set_tick_cost(ft_u64 ns);
/* The same for a sleep timer's handler, on the task running where the
 * timer's task slept when it wakes it (ft_task_wake_at()); 0: none. */
void ft_set_timer_cost(ft_u64 ns);
bool ft_tick_stopped(int cpu);	/* nohz: idle with its tick stopped */
/*
 * The preemption model (kernel/Kconfig.preempt): where a task inside the
 * kernel (ft_task_set_kernel()) may be switched away from. Each boot starts
 * in the tree's config's; setting one is the kernel's preempt= boot
 * option. -EOPNOTSUPP: LAZY on a tree without it (before 6.13).
 */
enum { FT_PREEMPT_NONE, FT_PREEMPT_VOLUNTARY, FT_PREEMPT_FULL, FT_PREEMPT_LAZY };
int ft_preempt_model(void);
int ft_set_preempt_model(int model);
ft_u64 ft_ipis_delivered(void);	/* smp_call_function_single_async() calls run */
ft_u64 ft_resched_ipis(void);	/* reschedule IPIs delivered */
ft_u64 ft_balance_runs(int cpu);	/* SCHED_SOFTIRQ runs on @cpu */

/* ---- tasks: ids are small positive ints, 0 is "the idle task" ---- */
struct ft_task_attr {
	int nice;
	ft_u64 slice_ns;	/* sched_attr.sched_runtime; 0 = base slice */
	int group;		/* task group id, FT_ROOT_GROUP by default */
	int cpu;		/* CPU to fork on; -1 = CPU 0 */
	/* Behaviour in the event loop: 0/0 = always runnable. */
	ft_u64 run_ns;		/* run this long, then sleep */
	ft_u64 sleep_ns;	/* sleep this long, then wake */
	ft_u64 cpus;		/* affinity, bit n = CPU n; 0 = every CPU */
	bool sched_idle;	/* policy SCHED_IDLE instead of SCHED_NORMAL */
	int parent;		/* forked by this task: its session (autogroup); 0: init's */
};
#define FT_TASK_ATTR_DEFAULT { .cpu = -1 }

int ft_task_fork(const struct ft_task_attr *attr);	/* id, or -errno */
int ft_task_wake(int id);		/* wake a sleeping task */
int ft_task_sleep(int id);		/* a running task blocks */
int ft_task_exit(int id);		/* a running or sleeping task exits */
int ft_task_set_nice(int id, int nice);
int ft_task_set_slice(int id, ft_u64 slice_ns);	/* sched_setattr runtime */
int ft_task_yield(int id);		/* sched_yield() by a running task */
int ft_task_migrate(int id, int cpu);	/* move to another CPU */
int ft_task_set_group(int id, int group);

/*
 * Autogroup (CONFIG_SCHED_AUTOGROUP; the tree's autogroup.c): each session
 * a task group of its own. -EOPNOTSUPP where the profile lacks it.
 */
int ft_task_setsid(int id);		/* setsid(): a new session and autogroup */
int ft_autogroup_set_nice(int id, int nice);	/* echo nice > /proc/ID/autogroup */
int ft_task_autogroup(int id);	/* group id of its session's autogroup (0: the default) */

int ft_group_create(int parent);	/* id > 0, or -errno */
int ft_group_set_shares(int group, unsigned long shares);
int ft_group_set_idle(int group, bool idle);	/* cpu.idle: 0, or -errno */
int ft_group_destroy(int group);
/*
 * cpu.max: a quota of runtime per period (ns; FT_QUOTA_INF: no limit) and
 * a burst. -EOPNOTSUPP where the profile has no CONFIG_CFS_BANDWIDTH.
 */
#define FT_QUOTA_INF	(~0ULL)
int ft_group_set_bandwidth(int group, ft_u64 period_ns, ft_u64 quota_ns, ft_u64 burst_ns);
struct ft_bandwidth_info {
	ft_u64 quota, period;		/* as set */
	ft_u64 runtime;			/* the global pool left this period */
	int nr_periods, nr_throttled;	/* cpu.stat's counters */
	bool period_active;		/* the period timer is running */
};
int ft_group_bandwidth(int group, struct ft_bandwidth_info *info);
/* 1 if the group's queue on cpu is throttled, 0 if not, -errno */
int ft_cfs_throttled(int cpu, int group);
/*
 * The tree throttles a running task on its way back to user space (7.x's
 * task work), not at once: it may run on until its CPU's next interrupt
 * exit or switch.
 */
bool ft_throttle_deferred(void);
/* hrtick expiries on cpu since boot (0 without CONFIG_SCHED_HRTICK) */
unsigned long ft_cpu_hrticks(int cpu);
bool ft_hrtick_available(void);	/* the profile has CONFIG_SCHED_HRTICK */
/* and the tree's __schedule() keeps the running slice's timer (7.2+; 6.12 cancels it) */
bool ft_hrtick_kept_by_schedule(void);

/* ---- driving time ---- */
int ft_tick(int cpu);		/* one scheduler tick, then resched if asked */
int ft_schedule(int cpu);	/* __schedule() on that CPU now */
int ft_run_for(ft_u64 ns);	/* the event loop: ticks, behaviours, wake-ups */

/* ---- observing ---- */
struct ft_task_info {
	int id, cpu;
	bool on_rq, running, sched_delayed, sleeping;
	int nice;
	unsigned long weight;	/* se.load.weight, unscaled */
	ft_u64 exec_ns;		/* se.sum_exec_runtime */
	ft_s64 vruntime, deadline, vlag;
	ft_u64 slice;
	bool custom_slice;
	int group;
	unsigned long nr_switches_in;	/* times it became curr */
	unsigned long load_avg, util_avg;	/* PELT: se.avg */
	/*
	 * 7.x's deferred throttling (ft_throttle_deferred()): its throttle
	 * task work is queued and has not run yet; it has run and the task
	 * waits, dequeued, in its throttled group's limbo list.
	 */
	bool throttle_work_pending, throttled;
};
int ft_task_info(int id, struct ft_task_info *info);
int ft_curr(int cpu);		/* task id running on cpu; 0 = idle */

struct ft_cfs_info {
	unsigned int nr_queued;		/* cfs_rq->nr_running */
	unsigned int h_nr_queued;
	unsigned long load;		/* cfs_rq->load.weight, unscaled */
	ft_s64 avg_vruntime;		/* the sum field, not V */
	ft_u64 avg_load;
	ft_s64 zero_vruntime;		/* or min_vruntime on older trees */
	unsigned long load_avg, util_avg;	/* PELT: cfs_rq->avg */
	/* PELT of tasks that left while asleep, not yet taken off avg */
	unsigned long removed_load_avg, removed_util_avg;
};
/* The cfs_rq of a group on a CPU (FT_ROOT_GROUP: the CPU's root cfs_rq). */
int ft_cfs_info(int cpu, int group, struct ft_cfs_info *info);

/* One scheduling entity of a cfs_rq, for brute-force oracles. */
struct ft_entity {
	int task;		/* task id, or 0 for a group entity */
	int group;		/* group the entity represents, if any */
	bool curr, on_rq, in_tree;
	unsigned long weight;	/* scaled load weight, as fair.c uses it */
	unsigned long avg_weight;	/* its weight in the queue's V sum */
	ft_s64 vruntime, deadline, vlag;
	ft_u64 slice;
	ft_s64 min_vruntime;	/* augmented: subtree minima (tree nodes) */
	ft_u64 min_slice;
	bool sched_delayed;
	bool eligible;		/* fair.c's entity_eligible() */
	bool protected;		/* curr inside its RUN_TO_PARITY protection */
};
/* Fills up to max entities of the cfs_rq (tree order, then curr). */
int ft_cfs_entities(int cpu, int group, struct ft_entity *out, int max);

/*
 * White-box: the entity fair.c's pick_eevdf() returns; -ENOENT if none.
 * @protect as pick_next_entity() asks from 7.2 (buddy, slice protection);
 * up to 6.12 protection follows RUN_TO_PARITY whatever @protect says.
 */
int ft_cfs_pick_eevdf(int cpu, int group, bool protect, struct ft_entity *out);
/* White-box: cfs_rq_min_slice(). */
ft_u64 ft_cfs_min_slice(int cpu, int group);

/* White-box (shim/fair_bridge.c): fair.c's static vruntime_eligible(). */
int ft_cfs_vruntime_eligible(int cpu, int group, ft_s64 vruntime);

/* Exact V of a cfs_rq as fair.c computes it (avg_vruntime()). */
ft_s64 ft_cfs_avg_vruntime(int cpu, int group);

/* Capacity of a CPU, 1..1024 (0 = back to full): asymmetric machines. */
int ft_set_cpu_capacity(int cpu, unsigned long capacity);

ft_u64 ft_cpu_busy_ns(int cpu);	/* time a non-idle task was curr */
ft_u64 ft_cpu_nr_switches(int cpu);

/* ---- events and failures the driver records ---- */
/* WARNs are not events: they are faults (ft_fault_*), which fail the test. */
enum ft_event_kind {
	FT_EV_SWITCH, FT_EV_RESCHED, FT_EV_MIGRATE, FT_EV_WAKE, FT_EV_SLEEP,
	FT_EV_NR
};
ft_u64 ft_event_count(enum ft_event_kind kind);
void ft_events_reset(void);

/* Rule breaks noticed by the kernel (WARN) or the shim (locking, clock). */
struct ft_fault {
	const char *what;	/* "WARN", "lock taken twice", ... */
	const char *file;
	int line;
	void *caller;		/* return address when file is unknown */
	char msg[256];
};
int ft_fault_count(void);
const struct ft_fault *ft_fault_get(int i);
void ft_fault_reset(void);

/*
 * The invariant checker runs whenever an rq lock is released; a broken rule
 * is a fault ("invariant broken"). This counts the checks made since boot.
 */
ft_u64 ft_invariant_checks(void);
/* Tree nodes whose min_slice the checker held to the exact subtree minimum. */
ft_u64 ft_min_slice_exact_checks(void);
/*
 * Whether a node of the cfs_rq's tree may hold a stale min_slice by the
 * min_slice_rotation finding (a rotation or an erase's copy below it);
 * false on trees without the finding.
 */
bool ft_cfs_min_slice_excused(int cpu, int group);

/* Counted no-op seams: how often fair.c called a seam we do nothing in. */
unsigned long ft_seam_hits(const char *symbol);

/*
 * Known fair.c weaknesses this tree has, by name, as sched_fair/probe.sh
 * detects them from the code that causes them ("min_slice_rotation").
 */
bool ft_tree_has_finding(const char *name);

/* Feature bits by name (sched_feat()); -ENOENT if the tree lacks it. */
int ft_feature_get(const char *name);
int ft_feature_set(const char *name, bool on);

/* ---- what only some trees have (sched_fair/probe.sh, driver/features.c) ---- */
/*
 * NULL when the tree under test has @feature, else why not (for the skip
 * line): "vprot", "protect_update", "sleep_lag_decay", "wake_idle_zero_lag",
 * "nohz_idle" (the profile's idle CPUs stop their tick), "energy_model" (EAS
 * compiled: ENERGY_MODEL with schedutil), "autogroup" (SCHED_AUTOGROUP).
 */
const char *ft_tree_lacks(const char *feature);
/* se->vprot, curr's slice-protection limit; -EOPNOTSUPP without "vprot". */
int ft_task_vprot(int id, ft_s64 *vprot);
/* Wake sleeping tasks back to back, then reschedule (a ttwu wake list). */
int ft_task_wake_batch(const int *ids, int n);

/*
 * ---- workloads (sim/, shim/driver/behave.c) ----
 * A "driven" task asks the user side what to do each time its run budget
 * is used up (and when it first runs after being woken): the user side
 * answers by calling ft_task_run_budget() to keep running, or
 * ft_task_sleep() (optionally with ft_task_wake_at()), ft_task_yield(),
 * ft_task_exit(), and may wake others. The scheduling stays the driver's.
 */
typedef void (*ft_behaviour_fn)(int id, void *ctx);
void ft_set_behaviour(ft_behaviour_fn fn, void *ctx);
int ft_task_set_driven(int id);		/* after fork, before ft_run_for */
/* Keep running until @exec_ns more CPU time, or virtual time @stop_at
 * (0 = no time limit), whichever comes first. */
int ft_task_run_budget(int id, ft_u64 exec_ns, ft_u64 stop_at);
int ft_task_wake_at(int id, ft_u64 when);	/* timer for a sleeping task */
ft_u64 ft_task_exec_ns(int id);		/* sum_exec_runtime as of now */
/*
 * @id enters (@in) or leaves a system call: while inside, a reschedule
 * switches it away only where the preemption model lets it
 * (ft_set_preempt_model()); leaving is the return to user space, which
 * acts on any reschedule still pending, a lazy one too.
 */
int ft_task_set_kernel(int id, bool in);
bool ft_task_on_cpu(int id);		/* is it some CPU's curr now? */
/*
 * The CPU @id runs on if its exec time grows with the clock from now on,
 * exactly (it is curr, the clock is past its exec_start, no fault point is
 * armed), else -1; then *@exec is its exec time now (ft_task_exec_ns()).
 * sim/engine.c plans a task's steps only while it holds.
 */
int ft_task_steady_cpu(int id, ft_u64 *exec);
/*
 * Of the budget ends due now, those of CPUs below this one have been
 * stepped: the loop is stepping this CPU's in the first pass at this
 * instant; past that pass, every CPU's (FT_MAX_CPUS).
 */
int ft_budget_tie_cpu(void);
void ft_set_invariant_checking(bool on);	/* on after every ft_boot() */
void ft_init_granularity(void);	/* sched_init_smp()'s base slice for this many CPUs */

/* What the tracepoints of core.c would report, for traces and metrics. */
enum ft_obs_kind {
	FT_OBS_SWITCH, FT_OBS_WAKING, FT_OBS_WAKEUP, FT_OBS_WAKEUP_NEW,
	FT_OBS_MIGRATE,
	FT_OBS_PROBE		/* ft_set_observe_probes(): fair.c's state, as text */
};
struct ft_obs {
	enum ft_obs_kind kind;
	ft_u64 now;
	int cpu;		/* where it happens (switch, wake-up: the rq) */
	int pid, prio;		/* task woken, migrated, or switched to (0 = idle) */
	int prev_pid, prev_prio;	/* switch: the task switched away from */
	char prev_state;	/* switch: 'R' preempted or yielded, 'S' slept, 'X' exited */
	bool preempt;		/* switch: an involuntary one */
	int orig_cpu, dest_cpu;	/* migrate */
	/* wake-ups: the waker CPU's need_resched as the tracepoint finds it,
	 * in ftrace's letters ('.' none, 'N' set, 'l' lazy) */
	char resched;
	bool irq;		/* wake-ups: from a timer's handler (ftrace's 'h') */
	const char *probe, *text;	/* probe: its name and "field=value ..." */
};
typedef void (*ft_observer_fn)(const struct ft_obs *obs, void *ctx);
void ft_set_observer(ft_observer_fn fn, void *ctx);
/*
 * Also observe FT_OBS_PROBE: at each wake-up preemption check, the fields
 * twin/events/wakeup-*.events reads on the real kernel (wpf), so a twin's
 * two sides can be set field by field. Off by default.
 */
void ft_set_observe_probes(bool on);
/*
 * Observe FT_OBS_WAKING (on by default): the wake-up that follows shows
 * all a sched_waking changes, so an observer writing no trace can go
 * without it, and the call at every wake-up.
 */
void ft_set_observe_waking(bool on);

/* ---- user-side services the kernel side calls (shim/host.c) ---- */
void *ft_host_zalloc(unsigned long size);
void *ft_host_alloc(unsigned long size);	/* not zeroed */
void ft_host_free(void *p);
/* The slab seam's objects, in allocation order (shim/arena.c). */
void *ft_host_slab_alloc(unsigned long size);	/* zeroed */
void ft_host_slab_free(void *p);
void ft_host_slab_reset(void);
void ft_host_slab_unused(char **start, unsigned long *len);	/* not yet carved */
/* NULL, or why slab objects follow the host heap's order in this build. */
const char *ft_host_slab_unordered(void);
void ft_host_log(const char *msg);
/* printf-style formatting done by libc (kernel %p extensions print as %p). */
int ft_host_vformat(char *buf, unsigned long size, const char *fmt,
		    __builtin_va_list args);
void __attribute__((noreturn)) ft_host_abort(const char *msg);
/* A rule break: recorded; the runner fails the running test with it. */
void ft_host_fault(const struct ft_fault *fault);
/* FAIRTEST_CHECKER=full in the environment (exits 2 on a bad value). */
bool ft_host_checker_full(void);
/* Hook for cmocka mocks of seam calls (resched_curr). */
void ft_host_seam_called(const char *symbol, int cpu);

/* ---- fault injection: libfiu points (shim/faults.def, shim/fiu_host.c) ---- */
enum ft_point {
#define FT_POINT(id, name, effect)	FT_FP_##id,
#include "faults.def"
#undef FT_POINT
	FT_FP_NR
};
/* Kernel side: does @point fail now? libfiu decides; firings are counted. */
int ft_host_fail(enum ft_point point);
bool ft_host_faults_armed(void);
/* User side, for tests: enable a point in this case's process only. */
const char *ft_inject_name(enum ft_point point);
int ft_inject_enable(enum ft_point point, double probability); /* 1: always */
int ft_inject_nth(enum ft_point point, unsigned int nth); /* nth use from now */
void ft_inject_disable(enum ft_point point);
unsigned long ft_inject_fired(enum ft_point point);
/* What an error path must leave unchanged. */
long ft_slab_live(void);	/* slab objects allocated and not yet freed */
/* An object from the slab seam and back, as fair.c's kmalloc()/kfree(). */
void *ft_slab_alloc(unsigned long size);
void ft_slab_free(void *p);
ft_u64 ft_rq_clock(int cpu);	/* rq->clock */

#endif /* FAIRTEST_H */

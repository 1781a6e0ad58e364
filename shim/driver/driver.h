/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the driver, our mini core.c: the state of the fake machine
 * and the core-scheduler steps the bridge operations are built from. Each
 * step follows the call protocol of kernel/sched/core.c (which locks, which
 * clock updates, which class callbacks in which order), because fair.c
 * asserts that protocol and the tests must see what the kernel would.
 */
#ifndef FAIRTEST_DRIVER_H
#define FAIRTEST_DRIVER_H

#include "../ksched.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */
#include "../seams/seam.h"
#include "../fair_white.h"

#define FT_MAX_TASKS	1024
#define FT_MAX_GROUPS	64

/* Per task: what the event loop does with it. */
struct ft_task {
	struct task_struct *p;
	u64 run_ns, sleep_ns;	/* behaviour; 0 = always runnable */
	u64 run_until_exec;	/* sleeps when sum_exec_runtime reaches this */
	u64 wake_at;		/* 0 = not sleeping on a timer */
	u64 resume_at;		/* after a spurious wake-up: the real wake_at */
	unsigned long switches_in;
	bool driven;		/* behaviour asked of the user side (behave.c) */
	u64 stop_at;		/* driven: budget also ends at this time (0 = none) */
	struct lag_watch {	/* for the lag-clamp-at-dequeue check */
		bool was_on_rq;
		u64 max_slice;	/* largest slice its queue held meanwhile */
	} lag;
	int cpu;		/* task_cpu(p), kept by ft_set_task_cpu() */
	bool in_kernel;		/* inside a system call: ft_task_set_kernel() */
};

/* Unreasonable idle (idle.c): per CPU, the open interval and the counts. */
struct ft_idle_detector {
	u64 since[NR_CPUS];		/* 0: no interval open on that CPU */
	u64 open;			/* the CPUs with one open */
	u64 count[NR_CPUS][FT_IDLE_BUCKETS];
	u64 longest[NR_CPUS];
};

/* The bridge operation in progress, named in invariant reports. */
struct ft_op {
	const char *name;
	long long a, b;
	bool has_b;
};

struct ft_machine {
	int nr_cpus;
	u64 cpus_all;			/* the nr_cpus CPUs as a mask */
	u64 now;
	u64 clock_ahead;		/* sched_clock minus now, after jumps */
	u64 clock_last[NR_CPUS];	/* last sched_clock_cpu() read */
	u64 next_tick[NR_CPUS];
	u64 busy_ns[NR_CPUS];		/* up to busy_since[], for a CPU busy now */
	u64 busy_since[NR_CPUS];
	u64 busy_cpus;			/* curr is not the idle task (ft_cpu_set_busy()) */
	void *cpu_area[NR_CPUS];
	struct task_struct *idle[NR_CPUS];
	struct task_struct *stopper[NR_CPUS];	/* the stop class's thread */
	bool has_domains;		/* booted with a topology (topology.c) */
	u64 stop_works;			/* stopper works queued since boot */
	bool stopper_queued[NR_CPUS];	/* woken, not yet asleep again */
	u64 stoppers;			/* the same, as a mask */
	bool tick_stopped[NR_CPUS];	/* nohz: idle with its tick stopped */
	bool resched_unseen[NR_CPUS];	/* flag set remotely, IPI on its way */
	u64 resched_maybe;		/* CPUs whose curr may have need_resched (core.c) */
	u64 rq_locked;			/* CPUs whose rq lock is held (core.c) */
	u64 balance_runs[NR_CPUS];	/* SCHED_SOFTIRQ runs */
	unsigned long hrticks[NR_CPUS];	/* hrtick expiries (bandwidth.c) */
	bool hrtick_in_schedule[NR_CPUS];	/* 7.2+: hrtick_start() waits (bandwidth.c) */
	u64 hrtick_pending[NR_CPUS];	/* its delay, 0 = none */
	struct ft_idle_detector idle_det;
	bool idle_clean;		/* no change since idle.c last looked (below) */
	bool idle_det_off;		/* ft_idle_detector_off() since boot */
	bool quiet;			/* no change since the last preemption point */
	bool in_timer;			/* a sleep timer's handler wakes its task (loop.c) */
	int preempt_model;		/* FT_PREEMPT_*: the tree's config's (preempt.c) */
	u64 resched_user;		/* CPUs whose resched was set on curr's way to user space */
	/* loop.c's next event, kept until what it depends on changes */
	u64 budget_kept;		/* CPUs whose budget end holds (0 at boot: none) */
	unsigned int budget_leaves;	/* the min tree's first leaf (loop.c) */
	u64 budget_tree[2 * FT_MAX_CPUS];	/* when each curr's run budget ends, and minima */
	int tie_cpu;			/* ft_budget_tie_cpu() */
	u64 tick_next;			/* the earliest next_tick[] of a ticking CPU */
	bool tick_known;		/* cleared where next_tick[] or tick_stopped[] is written */
	u64 wake_next;			/* the earliest wake_at of all tasks */
	bool wake_known;
	u64 others_next;		/* the earliest tick, timer, IPI and idle exit */
	bool others_known;		/* cleared by ft_events_changed() */
	struct task_group *groups[FT_MAX_GROUPS];	/* index = group id */
	u64 events[FT_EV_NR];
	int nr_task_ids, nr_group_ids;	/* ids in use are below these */
	struct ft_op op;
	u64 invariant_checks;
	u64 min_slice_exact_checks;	/* nodes whose min_slice was held exact */
	bool checks_off;		/* ft_set_invariant_checking(false) */
	bool checks_full;		/* FAIRTEST_CHECKER=full: no incremental skips */
	bool checks_synced;		/* a check has run since boot or checks_off */
	unsigned long invariants_broken;	/* one bit per rule, reported once */
	bool booted;
	/* Last, and written only below nr_task_ids / nr_group_ids (see ft_boot). */
	struct ft_task tasks[FT_MAX_TASKS];	/* index = task id */
	struct lag_watch gse_lag[FT_MAX_GROUPS][FT_MAX_CPUS];
};
extern struct ft_machine ft_m;

static inline struct task_struct *ft_task_of(int id)
{
	if (!ft_m.booted || id <= 0 || id >= FT_MAX_TASKS)
		return NULL;
	return ft_m.tasks[id].p;
}

/* Every CPU of the machine, as a mask (FT_MAX_CPUS is 64; ft_loop_boot()). */
static inline u64 ft_cpus_all(void)
{
	return ft_m.cpus_all;
}

/* The first CPU of @mask from @cpu on; nr_cpus if none. */
static inline int ft_next_cpu_in(u64 mask, int cpu)
{
	if (cpu < 64)
		mask &= ~0ULL << cpu;
	else
		mask = 0;
	return mask ? __builtin_ctzll(mask) : ft_m.nr_cpus;
}

#define ft_for_each_cpu_in(cpu, mask) \
	for (int cpu = ft_next_cpu_in(mask, 0); cpu < ft_m.nr_cpus; \
	     cpu = ft_next_cpu_in(mask, cpu + 1))

/* Every task id that may be in use: ids above the high-water mark never were. */
#define ft_for_each_task_id(id) \
	for (int id = 1; id < ft_m.nr_task_ids; id++) \
		if (ft_m.tasks[id].p)

/*
 * Every task_cpu() change of a task with an id goes through here, so that
 * the checker knows where each task is without reading its task_struct.
 */
void ft_checker_task_cpu(int id, int cpu);
void ft_checker_task_gone(int id);

static inline void ft_set_task_cpu(struct task_struct *p, unsigned int cpu)
{
	__set_task_cpu(p, cpu);
	if (p->pid > 0 && p->pid < FT_MAX_TASKS && ft_m.tasks[p->pid].p == p)
		ft_checker_task_cpu(p->pid, cpu);
}

static inline struct task_group *ft_group_of(int id)
{
	if (!ft_m.booted || id < 0 || id >= FT_MAX_GROUPS)
		return NULL;
	return ft_m.groups[id];
}

/*
 * A group's per-CPU queue and entity: arrays of pointers up to 7.1, one
 * per-CPU block holding both from 7.2 (tg_cfs_rq()/tg_se() in sched.h).
 */
#ifdef FT_HAVE_TG_SE_ACCESSOR
#define ft_tg_cfs_rq(tg, cpu)	tg_cfs_rq(tg, cpu)
#define ft_tg_se(tg, cpu)	tg_se(tg, cpu)
#else
#define ft_tg_cfs_rq(tg, cpu)	((tg)->cfs_rq[cpu])
#define ft_tg_se(tg, cpu)	((tg)->se[cpu])
#endif

/*
 * The weight an entity has in its queue's V sum, as the tree defines it:
 * scale_load_down(load) up to 6.12; from 7.2 the full weight (the
 * hierarchical one where entities carry h_load), shifted right by
 * sum_shift once the sum would have overflowed, never below 2.
 */
static inline unsigned long ft_avg_weight(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
#ifdef FT_HAVE_SUM_SHIFT
#ifdef FT_HAVE_SE_H_LOAD
	unsigned long w = se->h_load.weight;
#else
	unsigned long w = se->load.weight;
#endif
	return cfs_rq->sum_shift ? max(2UL, w >> cfs_rq->sum_shift) : w;
#else
	return scale_load_down(se->load.weight);
#endif
}

int ft_group_id(struct task_group *tg);
struct cfs_rq *ft_cfs_rq_of(int cpu, int group);
void ft_event(enum ft_event_kind kind);

/*
 * The scheduler's state changes only inside an operation and under a lock
 * (each release says so, core.c), when a task comes or goes, or when an
 * RCU callback is queued. Until one of those happens, the unreasonable-
 * idle detector has nothing new to look at when the clock moves, and the
 * loop no CPU to reschedule, no stopper, no callback (loop.c).
 */
static inline void ft_state_changed(void)
{
	ft_m.idle_clean = false;
	ft_m.quiet = false;
}

/*
 * A CPU's run budget end (loop.c) depends on its curr, which changes, and
 * whose exec time is updated, only under that CPU's rq lock, and on the
 * task's budget; the clock running ahead moves every one of them
 * (ft_clock_set_ahead()).
 */
static inline void ft_budget_changed(int cpu)
{
	ft_m.budget_kept &= ~BIT_ULL(cpu);
}

static inline void ft_task_budget_changed(struct ft_task *t)
{
	ft_budget_changed(task_cpu(t->p));
}

/*
 * The loop keeps its earliest tick, timer, IPI and idle exit as one
 * (loop.c): each write to what they are found from says so here.
 */
static inline void ft_events_changed(void)
{
	ft_m.others_known = false;
}

void ft_set_wake_at(struct ft_task *t, u64 when);	/* loop.c */
void ft_loop_boot(void);

/* Names the operation for invariant reports; cheap, called by every op. */
static inline void ft_op_begin(const char *name, long long a, long long b)
{
	ft_m.op = (struct ft_op){ name, a, b, true };
	ft_state_changed();
}

static inline void ft_op_begin1(const char *name, long long a)
{
	ft_m.op = (struct ft_op){ name, a, 0, false };
	ft_state_changed();
}

/* invariants.c: the always-on checker, run whenever an rq lock is released. */
void ft_check_invariants(struct rq *rq);
void ft_checker_reset(void);

/* rbwatch.c: where min_slice may be stale on a tree with the rotation finding. */
struct ft_rbwatch;
void ft_rbwatch_reset(void);
struct ft_rbwatch *ft_rbwatch_sync(struct rb_root *root);
struct ft_rbwatch *ft_rbwatch_look(struct rb_root *root, int nodes);
bool ft_rbwatch_marked(const struct ft_rbwatch *w, struct rb_node *node);
bool ft_rbwatch_marked_at(const struct ft_rbwatch *w, struct rb_node *node, int i);


/* core.c: the protocol steps. */
void ft_enqueue_task(struct rq *rq, struct task_struct *p, int flags);
void ft_schedule_cpu(int cpu, bool preempt);
void ft_resched_pending(void);
int ft_preempt_config(void);
bool ft_preemptible(struct rq *rq);
bool ft_resched_at_return(struct rq *rq);
bool ft_in_kernel(struct rq *rq, struct task_struct *p);
void ft_rq_lock_mark(struct rq *rq);
void ft_set_load_weight(struct task_struct *p, bool update_load);
int ft_select_task_rq(struct task_struct *p, int cpu, int *wake_flags);
void ft_task_dead(struct task_struct *p);

/* behave.c: the workload engine's hooks (fairtest.h, "workloads") */
void ft_behave(int id);
void ft_observe_switch(int cpu, struct task_struct *prev, struct task_struct *next,
		       bool preempt);
void ft_observe_wake(enum ft_obs_kind kind, struct task_struct *p);
void ft_observe_waking(struct task_struct *p);	/* unless ft_set_observe_waking(false) */
void ft_observe_wakeup_preempt(struct rq *rq, struct task_struct *p, int flags);
void ft_observe_tick(struct rq *rq, struct task_struct *c, int queued);
void ft_observe_hrtick_start(struct rq *rq, u64 delay, bool deferred);
void ft_observe_sleep_dequeue(struct task_struct *p, int flags, bool dequeued);
void ft_observe_migrate(struct task_struct *p, int dest_cpu);
void ft_cpus_from_bits(struct cpumask *mask, u64 bits);

/* smp.c: softirq, stopper, RCU, rq online */
void ft_irq_exit(int cpu);
void ft_task_work_run(int cpu);	/* task_work.c: on the way back to user space */
/* hrtimers (seams/hrtimer.c) and hrtick (bandwidth.c) */
void ft_hrtick_init(struct rq *rq);
void ft_hrtick_schedule_enter(struct rq *rq);
void ft_hrtick_schedule_exit(struct rq *rq);
void ft_uclamp_init_rq(struct rq *rq);	/* bandwidth.c, CONFIG_UCLAMP_TASK */
bool ft_stop_pending(int cpu);
void ft_stopper_sleeps(struct rq *rq);
bool ft_run_stoppers(void);
void ft_rcu_quiescent(void);
void ft_smp_reset(void);
extern const struct sched_class ft_stop_class;

/* nohz.c: idle CPUs without a tick, IPIs */
bool ft_send_reschedule(int cpu);
bool ft_idle_exit_delay(int cpu);
bool ft_idle_exit_pending(int cpu);
bool ft_preempt_delay(int cpu);
u64 ft_next_ipi(void);
void ft_deliver_ipis(void);
void ft_nohz_reset(void);
void ft_nohz_init_rq(struct rq *rq);
void ft_nohz_idle_enter(int cpu);
void ft_nohz_idle_exit(int cpu);

/* autogroup.c, task.c; the hooks of shim/autogroup_unit.c */
void ft_task_move_group(struct task_struct *p, struct task_group *tg);
struct task_group *ft_task_group_of(struct task_struct *p, struct task_group *css_tg);
void ft_autogroup_boot(void);
int ft_autogroup_fork(struct task_struct *p, struct task_struct *parent);
void ft_autogroup_exit(struct task_struct *p);
void ft_autogroup_release(struct task_struct *p, bool machine_gone);
void ft_autogroup_join_thread(struct task_struct *p, struct task_struct *leader);

/* topology.c, idle.c, energy.c */
void ft_topology_teardown(void);	/* shim/topology_unit.c */
int ft_energy_boot(const struct ft_topology *topo);
void ft_topology_numa(bool nodes);	/* shim/topology_unit.c */

/* numa.c: NUMA balancing's core and page-fault side */
void ft_numa_machine_boot(void);
void ft_numa_task_fork(struct task_struct *p);
void ft_numa_task_free(struct task_struct *p);
void ft_numa_user_faults(int cpu);
void ft_numa_counts_setnuma(void);
void ft_idle_account(u64 until);

/* clock.c */
u64 ft_clock_now(void);
u64 ft_clock_read(int cpu);	/* sched_clock_cpu(), failure points applied */
u64 ft_clock_peek(void);	/* what sched_clock reads now, no fault drawn */
void ft_clock_set_ahead(u64 ahead);	/* sched_clock minus now from here on */
void ft_clock_advance_to(u64 t);
void ft_cpu_set_busy(int cpu, bool busy);	/* at a switch: curr is not the idle task */

/* boot.c */
unsigned int ft_default_features(void);
extern const struct sched_class ft_idle_class;

#endif /* FAIRTEST_DRIVER_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Booting the fake machine, the way sched_init() and the SMP bring-up do
 * it for a real one: per-CPU areas copied from the link-time template, a
 * runqueue and an idle task per CPU, the root task group spanning them,
 * the CPU masks, and fair.c's own class init. Also owns the core.c data
 * fair.c links against (runqueues, root_task_group, the feature bits).
 */
#include <linux/cgroup.h>
#include "driver.h"
#include "autogroup.h"	/* kernel/sched/autogroup.h: autogroup_free() */
#include "../seams/numa_mm.h"	/* ft_numa_mm_reset() */

DEFINE_PER_CPU_SHARED_ALIGNED(struct rq, runqueues);
DEFINE_PER_CPU(struct rnd_state, sched_rnd_state);
struct task_group root_task_group;
LIST_HEAD(task_groups);
__read_mostly unsigned int sysctl_sched_features;
__read_mostly unsigned int sysctl_sched_nr_migrate = SCHED_NR_MIGRATE_BREAK;
struct balance_callback balance_push_callback;
DEFINE_STATIC_KEY_FALSE(sched_numa_balancing);

struct ft_machine ft_m;

/* Every task accounts CPU time to a cgroup; ours is a root with no parent. */
static struct cgroup ft_root_cgroup;
static struct css_set ft_css_set = { .dfl_cgrp = &ft_root_cgroup };
static struct root_domain ft_root_domain;

extern char __per_cpu_start[], __per_cpu_end[];

#define SCHED_FEAT(name, enabled)	#name,
static const char *const feature_names[] = {
#include "features.h"
};
#undef SCHED_FEAT

unsigned int ft_default_features(void)
{
	unsigned int bits = 0;

#define SCHED_FEAT(name, enabled)	\
	if (enabled)			\
		bits |= 1U << __SCHED_FEAT_##name;
#include "features.h"
#undef SCHED_FEAT
	/* The kernel's own check that the clock is updated once per lock. */
	return bits | 1U << __SCHED_FEAT_WARN_DOUBLE_CLOCK;
}

static int feature_bit(const char *name)
{
	for (int i = 0; i < ARRAY_SIZE(feature_names); i++)
		if (!strcmp(feature_names[i], name))
			return i;
	return -ENOENT;
}

int ft_feature_get(const char *name)
{
	int bit = feature_bit(name);

	return bit < 0 ? bit : !!(sysctl_sched_features & (1U << bit));
}

int ft_feature_set(const char *name, bool on)
{
	int bit = feature_bit(name);

	if (bit < 0)
		return bit;
	if (on)
		sysctl_sched_features |= 1U << bit;
	else
		sysctl_sched_features &= ~(1U << bit);
	return 0;
}

static int alloc_cpu_areas(int nr_cpus)
{
	unsigned long size = __per_cpu_end - __per_cpu_start;

	ft_pcpu_reset(size);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		/*
		 * Keep the template's page alignment in every copy. Not zeroed:
		 * the template is copied in and pcpu_alloc() zeroes what it
		 * hands out of the reserve, whose untouched pages then cost no
		 * page fault (zeroing it all was most of a short sequence).
		 */
		void *raw = ft_host_alloc(size + FT_PCPU_RESERVE + PAGE_SIZE);
		char *area;

		if (!raw)
			return -ENOMEM;
		ft_m.cpu_area[cpu] = raw;
		area = PTR_ALIGN((char *)raw, PAGE_SIZE);
		memcpy(area, __per_cpu_start, size);
		__per_cpu_offset[cpu] = area - __per_cpu_start;
	}
	return 0;
}

static struct task_struct *new_idle_task(int cpu)
{
	struct task_struct *idle = ft_host_zalloc(sizeof(*idle));

	if (!idle)
		return NULL;
	idle->__state = TASK_RUNNING;
	idle->sched_class = &ft_idle_class;
	idle->policy = SCHED_NORMAL;
	idle->static_prio = idle->prio = idle->normal_prio = MAX_PRIO - 20;
	idle->sched_task_group = &root_task_group;
	idle->cgroups = &ft_css_set;
	idle->on_cpu = 1;
	cpumask_clear(&idle->cpus_mask);
	cpumask_set_cpu(cpu, &idle->cpus_mask);
	idle->cpus_ptr = &idle->cpus_mask;
	idle->nr_cpus_allowed = 1;
	__set_task_cpu(idle, cpu);
	return idle;
}

/* The CPU stopper's thread: the stop class, bound to its CPU. */
static struct task_struct *new_stop_task(int cpu)
{
	struct task_struct *stop = new_idle_task(cpu);

	if (!stop)
		return NULL;
	stop->sched_class = &ft_stop_class;
	stop->policy = SCHED_FIFO;
	stop->static_prio = stop->prio = stop->normal_prio = MAX_RT_PRIO - 1;
	stop->on_cpu = 0;
	return stop;
}

static void init_rq(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	rq->cpu = cpu;
	ft_rq_lock_mark(rq);
	init_cfs_rq(&rq->cfs);
	INIT_LIST_HEAD(&rq->leaf_cfs_rq_list);
	rq->tmp_alone_branch = &rq->leaf_cfs_rq_list;
	init_tg_cfs_entry(&root_task_group, &rq->cfs, NULL, cpu, NULL);
	INIT_LIST_HEAD(&rq->cfs_tasks);
	rq->rd = &ft_root_domain;
	rq->sd = NULL;
	/* What topology.c records for a CPU with no domain: an LLC of its own. */
	per_cpu(sd_llc_id, cpu) = cpu;
	per_cpu(sd_share_id, cpu) = cpu;
	per_cpu(sd_llc_size, cpu) = 1;
	ft_nohz_init_rq(rq);
	rq->online = 1;
	rq->cpu_capacity = SCHED_CAPACITY_SCALE;
#ifdef CONFIG_UCLAMP_TASK
	ft_uclamp_init_rq(rq);
#endif
	rq->avg_idle = 2 * sysctl_sched_migration_cost;
	rq->max_idle_balance_cost = sysctl_sched_migration_cost;
	rq->next_balance = jiffies;
	rq->curr = rq->idle = ft_m.idle[cpu];
	ft_hrtick_init(rq);
	fairtest_irq_flags[cpu] = X86_EFLAGS_IF;
	ft_cpu_up(cpu, rq->idle);
}

/*
 * Forgets the last machine. Only the slots its task and group ids reached
 * were written: clearing all of ft_m would fault in 160 KiB that a fresh
 * process (each property sequence's child) still has untouched, which was
 * a third of the cost of a short sequence.
 */
static void forget_machine(void)
{
	int tasks = ft_m.nr_task_ids, groups = ft_m.nr_group_ids;

	memset(&ft_m, 0, offsetof(struct ft_machine, tasks));
	memset(ft_m.tasks, 0, tasks * sizeof(ft_m.tasks[0]));
	memset(ft_m.gse_lag, 0, groups * sizeof(ft_m.gse_lag[0]));
	/* No same-instant pass is under way until the loop starts one. */
	ft_m.tie_cpu = FT_MAX_CPUS;
}

int ft_boot(int nr_cpus)
{
	int err;

	if (nr_cpus < 1 || nr_cpus > NR_CPUS || nr_cpus > FT_MAX_CPUS)
		return -EINVAL;
	if (ft_m.booted)
		ft_shutdown();
	forget_machine();
	ft_rbwatch_reset();
	ft_checker_reset();
	ft_smp_reset();
	ft_nohz_reset();
	ft_m.nr_cpus = nr_cpus;
	ft_m.preempt_model = ft_preempt_config();
	ft_loop_boot();
	ft_m.checks_full = ft_host_checker_full();
	sysctl_sched_features = ft_default_features();
	jiffies = INITIAL_JIFFIES;
#ifdef CONFIG_SCHED_SMT
	/* No CPU has a sibling until a topology says so (topology.c). */
	atomic_set(&sched_smt_present.key.enabled, 0);
#endif

	nr_cpu_ids = nr_cpus;
	cpumask_clear(&__cpu_possible_mask);
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		cpumask_set_cpu(cpu, &__cpu_possible_mask);
	cpumask_copy(&__cpu_present_mask, &__cpu_possible_mask);
	cpumask_copy(&__cpu_online_mask, &__cpu_possible_mask);
	cpumask_copy(&__cpu_active_mask, &__cpu_possible_mask);
	cpumask_copy(&__cpu_enabled_mask, &__cpu_possible_mask);
	atomic_set(&__num_online_cpus, nr_cpus);

	/* The last machine's objects are freed: this one's start the arena over. */
	ft_numa_mm_reset();
	ft_host_slab_reset();
	err = alloc_cpu_areas(nr_cpus);
	if (err)
		return err;
	ft_switch_cpu(0);
	ft_numa_boot();
	ft_topology_numa(false);
	ft_numa_machine_boot();

	memset(&root_task_group, 0, sizeof(root_task_group));
	memset(&ft_root_domain, 0, sizeof(ft_root_domain));
	cpumask_copy(ft_root_domain.span, &__cpu_possible_mask);
	cpumask_copy(ft_root_domain.online, &__cpu_possible_mask);
#ifdef FT_TG_CFS_RQ_PERCPU
	/* The root's queues are the runqueues' own, as sched_init() says. */
	root_task_group.cfs_rq = &runqueues.cfs;
#else
	root_task_group.se = ft_host_zalloc(nr_cpus * sizeof(void *));
	root_task_group.cfs_rq = ft_host_zalloc(nr_cpus * sizeof(void *));
	if (!root_task_group.se || !root_task_group.cfs_rq)
		return -ENOMEM;
#endif
	root_task_group.shares = ROOT_TASK_GROUP_LOAD;
	ft_hrtimer_reset();
	ft_random_reset();
	ft_cpumask_distribute_reset();
	init_cfs_bandwidth(&root_task_group.cfs_bandwidth, NULL);
	INIT_LIST_HEAD(&task_groups);
	list_add(&root_task_group.list, &task_groups);
	INIT_LIST_HEAD(&root_task_group.children);
	INIT_LIST_HEAD(&root_task_group.siblings);
	ft_m.groups[FT_ROOT_GROUP] = &root_task_group;
	ft_m.nr_group_ids = FT_ROOT_GROUP + 1;
	ft_autogroup_boot();	/* sched_init(): autogroup_init(&init_task) */

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		ft_m.idle[cpu] = new_idle_task(cpu);
		ft_m.stopper[cpu] = new_stop_task(cpu);
		if (!ft_m.idle[cpu] || !ft_m.stopper[cpu])
			return -ENOMEM;
		init_rq(cpu);
		ft_m.next_tick[cpu] = TICK_NSEC;
	}
	ft_m.tick_known = false;
	ft_events_changed();
	init_sched_fair_class();
	/*
	 * sched_cpu_starting() of each secondary CPU calls update_max_interval()
	 * before that CPU is marked online: once all are up, the longest
	 * balance interval is HZ * (CPUs - 1) / 10 jiffies (HZ / 10, the
	 * static value, on one CPU). fair.c keeps it across our boots.
	 */
	atomic_set(&__num_online_cpus, nr_cpus > 1 ? nr_cpus - 1 : 1);
	update_max_interval();
	atomic_set(&__num_online_cpus, nr_cpus);
	ft_m.booted = true;
	/* Every CPU starts in the idle loop (nohz: with its tick stopped). */
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		ft_nohz_idle_enter(cpu);
	return 0;
}

void ft_shutdown(void)
{
	if (!ft_m.booted)
		return;
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++) {
		ft_switch_cpu(cpu);	/* exit from idle runs on that CPU */
		ft_fair_nohz_forget(cpu_rq(cpu));
	}
	if (ft_m.has_domains) {
		ft_topology_teardown();
		ft_rcu_quiescent();
	}
#ifdef CONFIG_ENERGY_MODEL
	ft_em_unregister();	/* after the perf domains that point into it */
#endif
	/* Dequeued while the rqs and groups that hold the timers are there. */
	ft_hrtimer_reset();
	ft_for_each_task_id(id) {
		ft_autogroup_release(ft_m.tasks[id].p, true);
		ft_numa_task_free(ft_m.tasks[id].p);
		ft_host_free(ft_m.tasks[id].p);
	}
	for (int g = 1; g < FT_MAX_GROUPS; g++) {
		if (!ft_m.groups[g])
			continue;
		free_fair_sched_group(ft_m.groups[g]);
		autogroup_free(ft_m.groups[g]);
		ft_host_free(ft_m.groups[g]);
	}
	for (int cpu = 0; cpu < ft_m.nr_cpus; cpu++) {
		ft_host_free(ft_m.idle[cpu]);
		ft_host_free(ft_m.stopper[cpu]);
		ft_host_free(ft_m.cpu_area[cpu]);
	}
#ifndef FT_TG_CFS_RQ_PERCPU
	ft_host_free(root_task_group.se);
	ft_host_free(root_task_group.cfs_rq);
#endif
	ft_m.booted = false;
}

bool ft_tree_has_finding(const char *name)
{
#ifdef FT_FINDING_MIN_SLICE_ROTATION
	if (!strcmp(name, "min_slice_rotation"))
		return true;
#endif
#ifndef FT_LAG_CLAMP_MAX_SLICE
	if (!strcmp(name, "lag_clamp_own_slice"))
		return true;	/* the clamp is the entity's own 2 x slice */
#endif
#ifdef FT_FINDING_SDS_DOUBLE_CLAIM
	if (!strcmp(name, "sds_double_claim"))
		return true;
#endif
#ifdef FT_FINDING_VPROT_REWEIGHT
	if (!strcmp(name, "vprot_reweight"))
		return true;
#endif
	return false;
}

int ft_nr_cpus(void)
{
	return ft_m.nr_cpus;
}

u64 ft_tick_nsec(void)
{
	return TICK_NSEC;
}

u64 ft_base_slice(void)
{
	return sysctl_sched_base_slice;
}

void ft_set_base_slice(u64 ns)
{
	sysctl_sched_base_slice = ns;
}

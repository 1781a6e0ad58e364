// SPDX-License-Identifier: GPL-2.0
/*
 * What core.c and the page-fault path do for fair.c's NUMA balancing
 * (CONFIG_NUMA_BALANCING): the sched_numa_balancing switch (on when the
 * machine has more than one node, as at boot), sched_setnuma() under the
 * dequeue/put bracket, migrate_task_to() and migrate_swap() through the
 * CPU stopper, and the page-fault feed: a task given an address space
 * (seams/numa_mm.c) touches, at each return to user space, the pages of
 * the VMAs it uses; each touched page that task_numa_work() marked is a
 * hinting fault, reported with task_numa_fault() from the task's own
 * context as do_numa_page() reports it (private when the page's last
 * fault was the task's own, shared otherwise; local when the page is on
 * the task's node). Pages stay where they are (no page migration), so
 * only the task side of balancing moves anything. Tests may also report
 * faults directly (ft_numa_fault()).
 */
#include <linux/sched/numa_balancing.h>
#include <linux/mm.h>
#include "driver.h"
#include "../seams/numa_mm.h"

struct ft_numa_counts ft_numa_counts;

#ifdef CONFIG_NUMA_BALANCING
int sysctl_numa_balancing_mode;

/* fair_bridge.c: reads of fair.c's own numa state */
int ft_fair_numa_group(struct task_struct *p, int *nr_tasks);
unsigned long ft_fair_numa_faults(struct task_struct *p, int nid, bool group);

/* Per task: which VMAs of its mm it touches, how many pages a return to user. */
static struct {
	unsigned long pages[FT_NUMA_MAX_VMAS];
} access[FT_MAX_TASKS];

static void set_enabled(bool on)
{
	if (on) {
		static_branch_enable(&sched_numa_balancing);
		sysctl_numa_balancing_mode = NUMA_BALANCING_NORMAL;
	} else {
		static_branch_disable(&sched_numa_balancing);
		sysctl_numa_balancing_mode = NUMA_BALANCING_DISABLED;
	}
}

/* check_numabalancing_enable(): on by default where there are nodes to balance. */
void ft_numa_machine_boot(void)
{
	ft_numa_mm_reset();
	memset(&ft_numa_counts, 0, sizeof(ft_numa_counts));
	memset(access, 0, sizeof(access));
	set_enabled(IS_ENABLED(CONFIG_NUMA_BALANCING_DEFAULT_ENABLED) && num_online_nodes() > 1);
}

int ft_numa_set_enabled(bool on)
{
	set_enabled(on);
	return 0;
}

/* __sched_fork()'s part: every task starts with no preferred node. */
void ft_numa_task_fork(struct task_struct *p)
{
	init_numa_balancing(0, p);
	memset(&access[p->pid], 0, sizeof(access[p->pid]));
}

int ft_numa_task_set_mm(int id, int mm_id)
{
	struct task_struct *p = ft_task_of(id);
	struct ft_numa_mm *m = ft_numa_mm_get(mm_id);

	if (!p || !m)
		return -EINVAL;
	if (p->mm)
		return -EBUSY;
	/* as fork with or without CLONE_VM: the first user starts the scan clock */
	p->mm = m->mm;
	atomic_inc(&m->mm->mm_users);
#ifdef CONFIG_SCHED_AUTOGROUP
	/*
	 * Autogroup made @p a process of its own: the mm's first user's
	 * process is the mm's, the others become its threads, as
	 * clone(CLONE_VM | CLONE_THREAD) would have made them.
	 */
	if (p->signal) {
		if (!m->leader)
			m->leader = p;
		else
			ft_autogroup_join_thread(p, m->leader);
		p->signal->nr_threads++;
	} else
#endif
	{
		p->signal = m->signal;
		m->signal->nr_threads++;
	}
	ft_switch_cpu(task_cpu(p));
	init_numa_balancing(atomic_read(&m->mm->mm_users) > 1 ? CLONE_VM : 0, p);
	return 0;
}

int ft_numa_task_access(int id, int vma, u64 pages)
{
	struct task_struct *p = ft_task_of(id);
	struct ft_numa_mm *m = p && p->mm ? ft_numa_mm_of(p->mm) : NULL;

	if (!m || vma < 0 || vma >= m->nr_vmas)
		return -EINVAL;
	access[id].pages[vma] = pages;
	return 0;
}

int ft_numa_mm_create(void)
{
	return ft_numa_mm_new();
}

int ft_numa_vma_set_migrate(int mm, int vma, bool on)
{
	struct ft_numa_mm *m = ft_numa_mm_get(mm);

	if (!m || vma < 0 || vma >= m->nr_vmas)
		return -EINVAL;
	m->vmas[vma].migrate = on;
	return 0;
}

int ft_numa_vma_node(int mm, int vma)
{
	struct ft_numa_mm *m = ft_numa_mm_get(mm);

	if (!m || vma < 0 || vma >= m->nr_vmas)
		return -EINVAL;
	return m->vmas[vma].node;
}

int ft_numa_vma_set_kind(int mm, int vma, int kind)
{
	return ft_numa_vma_kind(mm, vma, kind);
}

long ft_numa_vma_marked(int mm, int vma)
{
	struct ft_numa_mm *m = ft_numa_mm_get(mm);

	if (!m || vma < 0 || vma >= m->nr_vmas)
		return -EINVAL;
	return m->vmas[vma].marked;
}

int ft_numa_vma_create(int mm, u64 pages, int node)
{
	return ft_numa_vma_new(mm, pages, node);
}

/* do_numa_page()'s report of @pages hinting faults on @node, as @p (running). */
static void report(struct task_struct *p, int last_cpupid, int node, int pages, int flags)
{
	if (node == numa_node_id())
		flags |= TNF_FAULT_LOCAL;
	ft_numa_counts.faults++;
	ft_numa_counts.fault_pages += pages;
	task_numa_fault(last_cpupid, node, pages, flags);
}

/* @cpu's running task back in user space touches its pages: the marked ones fault. */
void ft_numa_user_faults(int cpu)
{
	struct task_struct *p = cpu_rq(cpu)->curr;
	struct ft_numa_mm *m;

	if (p == cpu_rq(cpu)->idle || p == ft_m.stopper[cpu] || !p->mm)
		return;
	m = ft_numa_mm_of(p->mm);
	for (int v = 0; m && v < m->nr_vmas; v++) {
		struct ft_numa_vma *fv = &m->vmas[v];
		unsigned long n = min(fv->armed, access[p->pid].pages[v]);
		int last;

		if (!n)
			continue;
		ft_switch_cpu(cpu);
		fv->armed -= n;
		vma_set_access_pid_bit(fv->vma);
		last = fv->last_cpupid;
		fv->last_cpupid = cpu_pid_to_cpupid(cpu, p->pid) & LAST_CPUPID_MASK;
		/*
		 * mpol_misplaced() under the default (migrate-on-fault) policy:
		 * a remote page asks fair.c whether it should come here; the
		 * VMA's pages move together, and the fault reports the new node.
		 */
		if (fv->migrate && fv->node != cpu_to_node(cpu) &&
		    should_numa_migrate_memory(p, fv->folio, fv->node, cpu)) {
			fv->node = cpu_to_node(cpu);
			fv->migrations++;
			report(p, last, fv->node, n, TNF_MIGRATED);
			continue;
		}
		report(p, last, fv->node, n, 0);
	}
}

int ft_numa_fault(int id, int node, int pages, int last_id, int flags)
{
	struct task_struct *p = ft_task_of(id), *last = last_id > 0 ? ft_task_of(last_id) : NULL;
	int cpupid = -1 & LAST_CPUPID_MASK;

	if (!p || node < 0 || node >= nr_node_ids || pages < 1 || (last_id > 0 && !last))
		return -EINVAL;
	if (!task_current(task_rq(p), p))
		return -EBUSY;	/* a fault is taken by the running task */
	if (last)
		cpupid = cpu_pid_to_cpupid(task_cpu(last), last->pid) & LAST_CPUPID_MASK;
	ft_switch_cpu(task_cpu(p));
	report(p, cpupid, node, pages, flags);
	ft_resched_pending();
	return 0;
}

int ft_numa_task_info(int id, struct ft_numa_info *out)
{
	struct task_struct *p = ft_task_of(id);

	if (!p)
		return -ESRCH;
	memset(out, 0, sizeof(*out));
	out->preferred_nid = p->numa_preferred_nid;
	out->node = task_node(p);
	out->scan_period_ms = p->numa_scan_period;
	out->scan_seq = p->mm ? READ_ONCE(p->mm->numa_scan_seq) : 0;
	out->group = ft_fair_numa_group(p, &out->group_tasks);
	out->scan_delay_ms = sysctl_numa_balancing_scan_delay;
	out->scan_period_min_ms = sysctl_numa_balancing_scan_period_min;
	out->scan_period_max_ms = sysctl_numa_balancing_scan_period_max;
	out->scan_size_mb = sysctl_numa_balancing_scan_size;
	for (int n = 0; n < nr_node_ids && n < FT_MAX_NODES; n++) {
		out->faults[n] = ft_fair_numa_faults(p, n, false);
		out->group_faults[n] = ft_fair_numa_faults(p, n, true);
	}
	return 0;
}

void ft_numa_stats(struct ft_numa_stats *out)
{
	out->prot_calls = ft_numa_counts.prot_calls;
	out->prot_pages = ft_numa_counts.prot_pages;
	out->faults = ft_numa_counts.faults;
	out->fault_pages = ft_numa_counts.fault_pages;
	out->moves = ft_numa_counts.moves;
	out->swaps = ft_numa_counts.swaps;
	out->setnuma = ft_numa_counts.setnuma;
	out->scans = ft_numa_counts.scans;
	out->max_scan_pages = ft_numa_counts.max_scan_pages;
}

void ft_numa_counts_setnuma(void)
{
	ft_numa_counts.setnuma++;
}

/* A task's end: its fault statistics and its group reference go. */
void ft_numa_task_free(struct task_struct *p)
{
	task_numa_free(p, true);
}

/* ---- core.c: moving a task for NUMA, through the stopper ---- */
struct numa_move {
	struct task_struct *p;
	int dest_cpu;
	bool swap;	/* the second half of a swap */
};
static struct numa_move move_arg[NR_CPUS];

/*
 * move_queued_task() of a task the stopper preempted: off its rq, onto
 * @dest, preempting there if due. Nothing if it slept or moved meanwhile,
 * or may not run there now.
 */
static int numa_move_stop(void *data)
{
	struct numa_move *arg = data;
	struct task_struct *p = arg->p;
	struct rq_flags rf;
	struct rq *rq;

	rq = task_rq_lock(p, &rf);
	update_rq_clock(rq);
	if (task_rq(p) != this_rq() || !task_on_rq_queued(p) ||
	    !cpumask_test_cpu(arg->dest_cpu, p->cpus_ptr) || !cpu_active(arg->dest_cpu)) {
		task_rq_unlock(rq, p, &rf);
		return -EAGAIN;
	}
	deactivate_task(rq, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, arg->dest_cpu);
	task_rq_unlock(rq, p, &rf);

	ft_switch_cpu(arg->dest_cpu);
	rq = task_rq_lock(p, &rf);
	update_rq_clock(rq);
	activate_task(rq, p, ENQUEUE_NOCLOCK);
	wakeup_preempt(rq, p, 0);
	task_rq_unlock(rq, p, &rf);
	if (!arg->swap)
		ft_numa_counts.moves++;
	return 0;
}

/* The stopper of @cpu moves @p (running or queued there) to @dest. */
static void queue_move(struct task_struct *p, int cpu, int dest, bool swap)
{
	move_arg[cpu] = (struct numa_move){ p, dest, swap };
	stop_one_cpu_nowait(cpu, numa_move_stop, &move_arg[cpu], NULL);
}

/*
 * The caller (the faulting task, running) waits in stop_one_cpu() until
 * its CPU's stopper has moved it; here the stopper runs at the end of the
 * current operation, before anything else on that CPU.
 */
int migrate_task_to(struct task_struct *p, int target_cpu)
{
	int curr_cpu = task_cpu(p);

	if (curr_cpu == target_cpu)
		return 0;
	if (!cpumask_test_cpu(target_cpu, p->cpus_ptr))
		return -EINVAL;
	queue_move(p, curr_cpu, target_cpu, false);
	return 0;
}

/*
 * stop_two_cpus() stops both CPUs and swaps the tasks at once. Here each
 * CPU's stopper moves its own task, @cur's first: the same end state, one
 * stopper run apart, each task preempted by its own CPU's stopper.
 */
int migrate_swap(struct task_struct *cur, struct task_struct *p, int target_cpu, int curr_cpu)
{
	if (curr_cpu == target_cpu || !cpu_active(curr_cpu) || !cpu_active(target_cpu))
		return -EINVAL;
	if (!cpumask_test_cpu(target_cpu, cur->cpus_ptr) ||
	    !cpumask_test_cpu(curr_cpu, p->cpus_ptr))
		return -EINVAL;
	if (task_cpu(cur) != curr_cpu || task_cpu(p) != target_cpu)
		return -EAGAIN;
	queue_move(cur, curr_cpu, target_cpu, true);
	queue_move(p, target_cpu, curr_cpu, true);
	ft_numa_counts.swaps++;
	return 0;
}
#else
void ft_numa_machine_boot(void)
{
	ft_numa_mm_reset();
}

void ft_numa_task_fork(struct task_struct *p)
{
}

void ft_numa_task_free(struct task_struct *p)
{
}

void ft_numa_user_faults(int cpu)
{
}

int ft_numa_set_enabled(bool on)
{
	return -EOPNOTSUPP;
}

int ft_numa_task_set_mm(int id, int mm_id)
{
	return -EOPNOTSUPP;
}

int ft_numa_task_access(int id, int vma, u64 pages)
{
	return -EOPNOTSUPP;
}

int ft_numa_mm_create(void)
{
	return -EOPNOTSUPP;
}

int ft_numa_vma_set_migrate(int mm, int vma, bool on)
{
	return -EOPNOTSUPP;
}

int ft_numa_vma_node(int mm, int vma)
{
	return -EOPNOTSUPP;
}

int ft_numa_vma_set_kind(int mm, int vma, int kind)
{
	return -EOPNOTSUPP;
}

long ft_numa_vma_marked(int mm, int vma)
{
	return -EOPNOTSUPP;
}

int ft_numa_mm_lock(int mm, bool held)
{
	return -EOPNOTSUPP;
}

int ft_numa_vma_create(int mm, u64 pages, int node)
{
	return -EOPNOTSUPP;
}

int ft_numa_fault(int id, int node, int pages, int last_id, int flags)
{
	return -EOPNOTSUPP;
}

int ft_numa_task_info(int id, struct ft_numa_info *out)
{
	return -EOPNOTSUPP;
}

void ft_numa_stats(struct ft_numa_stats *out)
{
	memset(out, 0, sizeof(*out));
}
#endif /* CONFIG_NUMA_BALANCING */

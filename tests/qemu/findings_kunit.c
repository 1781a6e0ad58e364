// SPDX-License-Identifier: GPL-2.0
/*
 * fairtest's findings on a running kernel, for sched_fair/findings_real.sh
 * (make findings-real). Each case drives the booted kernel's own scheduler
 * into the situation tests/findings.c and tests/slice_protection.c build
 * in the model, tests the rule as it should hold (a finding that shows
 * fails its case), and prints one "fairtest-verdict NAME: ..." line the
 * script reports. Like tests/qemu/domains_kunit.c it is never built by
 * fairtest itself: the script copies it into a scratch overlay of the tree
 * (kernel/sched/, for "sched.h") and the tree's kunit.py builds it. What a
 * tree lacks is switched off by -D flags the script derives from the tree:
 * FT_HAVE_VPROT (se->vprot, 7.x), FT_HAVE_HYBRID_CAPACITY (x86's
 * arch_set_cpu_capacity(), which intel_pstate calls on hybrid CPUs),
 * FT_HAVE_MIN_SLICE (se->min_slice, the augmented minimum, 6.12 on),
 * FT_HAVE_SDS_ALLOC (topology.c's __sds_alloc(): one sched_domain_shared
 * per CPU per build, claimed by domains, 7.x).
 */
#include <kunit/test.h>
#include <linux/alloc_tag.h>
#include <linux/cpuset.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <uapi/linux/sched/types.h>
#include <linux/mmu_context.h>
#include "sched.h"

#define VERDICT(test, name, fmt, ...) \
	kunit_info(test, "fairtest-verdict " name ": " fmt "\n", ##__VA_ARGS__)

#ifdef FT_HAVE_VPROT
/*
 * The running task (this case's own kthread, nice 0, on an otherwise
 * idle guest) wakes from a 1-jiffy sleep, so it has just been picked and
 * set_protect_slice() gave it a live protection; then, with IRQs off so no
 * tick or pick intervenes, set_user_nice() (what setpriority(2) calls)
 * makes it nice -10. Expect its live protection (vruntime < vprot) at or
 * before its new deadline: the remaining protection, like the remaining
 * request, is virtual time and shrinks with the weight. It does not where
 * the nice change's put_prev (sched_change) leaves curr unseen by
 * reweight, so vprot keeps its old absolute value while the deadline is
 * rescaled (finding "vprot_reweight").
 */
static void fairtest_vprot_reweight(struct kunit *test)
{
	struct sched_entity *se = &current->se;
	long nice0 = task_nice(current);
	int trials = 50, live = 0, beyond = 0;
	s64 worst = 0, first_p = 0, first_d = 0, after_p = 0, after_d = 0;

	for (int i = 0; i < trials; i++) {
		unsigned long flags;
		s64 p0, d0, p1, d1;

		schedule_timeout_uninterruptible(1);
		local_irq_save(flags);
		p0 = se->vprot - se->vruntime;
		d0 = se->deadline - se->vruntime;
		set_user_nice(current, -10);
		p1 = se->vprot - se->vruntime;
		d1 = se->deadline - se->vruntime;
		local_irq_restore(flags);
		set_user_nice(current, nice0);
		if (p1 <= 0)
			continue;
		live++;
		if (p1 > d1) {
			if (!beyond++) {
				first_p = p0, first_d = d0, after_p = p1, after_d = d1;
			}
			worst = max(worst, p1 - d1);
		}
	}
	kunit_info(test, "renices to nice -10 of the running task: %d, live protection after %d, beyond the deadline %d\n",
		   trials, live, beyond);
	if (beyond)
		kunit_info(test, "first: before vprot-v %lld ns, deadline-v %lld ns; after vprot-v %lld ns, deadline-v %lld ns\n",
			   first_p, first_d, after_p, after_d);
	if (!live)
		kunit_skip(test, "no renice left the task a live protection");
	if (beyond)
		VERDICT(test, "vprot_reweight",
			"shown: %d of %d renices to nice -10 left the running task's live protection beyond its new deadline, by up to %lld ns (virtual)",
			beyond, live, worst);
	else
		VERDICT(test, "vprot_reweight",
			"not shown: in %d renices to nice -10 the running task's live protection stayed at or before its new deadline",
			live);
	KUNIT_EXPECT_EQ_MSG(test, beyond, 0, "vprot beyond the deadline after a nice change");
}
#endif

#if defined(FT_HAVE_HYBRID_CAPACITY) && defined(FT_HAVE_SDS_ALLOC) && defined(CONFIG_MEM_ALLOC_PROFILING)
/*
 * Live objects of __sds_alloc()'s kzalloc_node(), from its memory
 * allocation profiling tag: vmlinux's tags lie between the linker's
 * __start_alloc_tags and __stop_alloc_tags (a direct walk: the sorted
 * alloc_tag_top_users() is quadratic, minutes under TCG). __sds_alloc()
 * has two sites: the per-CPU array of pointers (alloc_percpu(), freed
 * after every build), then the objects, on a later line.
 */
extern struct alloc_tag __start_alloc_tags[], __stop_alloc_tags[];

static struct alloc_tag *tag;

static long sds_live(struct kunit *test)
{
	if (!tag) {
		for (struct alloc_tag *t = __start_alloc_tags; t < __stop_alloc_tags; t++)
			if (!strcmp(t->ct.function, "__sds_alloc") &&
			    strstr(t->ct.filename, "kernel/sched/topology.c") &&
			    (!tag || t->ct.lineno > tag->ct.lineno))
				tag = t;
		if (!tag)
			return -1;
	}
	/* destroy_sched_domains() frees through call_rcu(). */
	rcu_barrier();
	return alloc_tag_read(tag).calls;
}

static long rebuilds_leak(struct kunit *test, int n)
{
	long before = sds_live(test);

	for (int i = 0; i < n; i++) {
		/* What arch_rebuild_sched_domains() does: rebuild all, rescan capacities. */
		x86_topology_update = true;
		rebuild_sched_domains();
	}
	return sds_live(test) - before;
}

/*
 * x86 under QEMU has no CPUs of different capacity (no hybrid part, no
 * HWP), so every domain is symmetric. This case gives the CPUs the
 * capacities intel_pstate would give a hybrid part, through the same
 * arch interface (arch_enable_hybrid_capacity_scale(),
 * arch_set_cpu_capacity(), then a rebuild with a topology update), so the
 * tree's own topology.c builds an SD_ASYM_CPUCAPACITY_FULL domain. With
 * one LLC over all CPUs that domain (MC) is also the topmost SD_SHARE_LLC
 * one. Expect the live sched_domain_shared objects, counted by memory
 * allocation profiling at __sds_alloc(), unchanged over 32 rebuilds, as
 * they are over 32 rebuilds of the symmetric machine before. They grow by
 * one per rebuild where both claims run on that domain (finding
 * "sds_double_claim").
 */
static void fairtest_sds_double_claim(struct kunit *test)
{
	int n = 32, cpu, big = 0;
	long sym, asym;
	struct sched_domain *sd_asym, *sd_llc;

	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU: no sched domains");
	if (sds_live(test) < 0)
		kunit_skip(test, "no __sds_alloc() allocation site in this tree's topology.c");
	for_each_online_cpu(cpu)
		big += arch_scale_cpu_capacity(cpu) == SCHED_CAPACITY_SCALE;
	kunit_info(test, "objects counted at %s:%u\n", tag->ct.filename, tag->ct.lineno);
	kunit_info(test, "as booted: %d of %d CPUs at capacity %lu, hybrid CPU flag %d, asym capacity %d\n",
		   big, num_online_cpus(), SCHED_CAPACITY_SCALE,
		   boot_cpu_has(X86_FEATURE_HYBRID_CPU), sched_asym_cpucap_active());

	sym = rebuilds_leak(test, n);
	kunit_info(test, "symmetric: live sched_domain_shared objects after %d rebuilds: %+ld (%ld live)\n",
		   n, sym, sds_live(test));

	KUNIT_ASSERT_TRUE(test, arch_enable_hybrid_capacity_scale());
	for_each_online_cpu(cpu)
		arch_set_cpu_capacity(cpu, cpu < num_online_cpus() / 2 ? 1024 : 512, 1024, 1, 1);
	rebuilds_leak(test, 1);
	rcu_read_lock();
	sd_asym = lowest_flag_domain(0, SD_ASYM_CPUCAPACITY_FULL);
	sd_llc = highest_flag_domain(0, SD_SHARE_LLC);
	kunit_info(test, "capacities 1024/512 set: CPU0's asym-full domain %s, topmost LLC domain %s; its shared object ref %d, claimed as %#x; %ld objects live\n",
		   sd_asym ? sd_asym->name : "none", sd_llc ? sd_llc->name : "none",
		   sd_llc && sd_llc->shared ? atomic_read(&sd_llc->shared->ref) : -1,
		   sd_llc && sd_llc->shared ? sd_llc->shared->nr_idle_scan : -1, sds_live(test));
	rcu_read_unlock();
	if (!sd_asym || sd_asym != sd_llc) {
		for_each_online_cpu(cpu)
			arch_set_cpu_capacity(cpu, 1024, 1024, 1, 1);
		rebuilds_leak(test, 1);
		kunit_skip(test, "the asym-full domain is not the topmost LLC domain here");
	}

	asym = rebuilds_leak(test, n);
	kunit_info(test, "asymmetric: live sched_domain_shared objects after %d rebuilds: %+ld\n", n, asym);
	for_each_online_cpu(cpu)
		arch_set_cpu_capacity(cpu, 1024, 1024, 1, 1);
	rebuilds_leak(test, 1);

	if (asym > sym)
		VERDICT(test, "sds_double_claim",
			"shown: %d rebuilds of %d CPUs at 1024/512 (asym-full domain %s = topmost LLC) left %+ld sched_domain_shared objects live; symmetric: %+ld",
			n, num_online_cpus(), sd_asym->name, asym, sym);
	else
		VERDICT(test, "sds_double_claim",
			"not shown: %d rebuilds of %d CPUs at 1024/512 (asym-full domain %s = topmost LLC) left %+ld sched_domain_shared objects live; symmetric: %+ld",
			n, num_online_cpus(), sd_asym->name, asym, sym);
	KUNIT_EXPECT_EQ_MSG(test, asym, sym, "sched_domain_shared objects leak per rebuild");
}
#endif


#ifdef FT_HAVE_MIN_SLICE
struct slice_walk {
	int nodes, bad;
	u64 smallest, root_min, bad_have, bad_want;
};

/* Checks each node's min_slice against its own slice and its children's. */
static u64 min_slice_walk(struct rb_node *node, struct slice_walk *w)
{
	struct sched_entity *se;
	u64 want, l, r;

	if (!node)
		return U64_MAX;
	se = rb_entry(node, struct sched_entity, run_node);
	l = min_slice_walk(node->rb_left, w);
	r = min_slice_walk(node->rb_right, w);
	want = min3(se->slice, node->rb_left ? l : U64_MAX, node->rb_right ? r : U64_MAX);
	w->nodes++;
	w->smallest = min(w->smallest, se->slice);
	if (se->min_slice != want && !w->bad++) {
		w->bad_have = se->min_slice;
		w->bad_want = want;
	}
	return se->min_slice;
}

static int slice_churn(void *data)
{
	u32 seed = (unsigned long)data;

	while (!kthread_should_stop()) {
		u64 end = ktime_get_ns() + 20000 + (seed = seed * 1103515245 + 12345) % 300000;

		while (ktime_get_ns() < end && !kthread_should_stop())
			cpu_relax();
		seed = seed * 1103515245 + 12345;
		usleep_range(50 + seed % 1500, 100 + seed % 1500);
	}
	return 0;
}

/*
 * 24 kthreads bound to the last CPU, each with a custom slice (0.1..20
 * ms, sched_setattr()'s sched_runtime), each spinning 20..320 us and
 * sleeping 0.05..1.6 ms, so the CPU's rbtree of queued entities grows,
 * shrinks and rebalances all the time. This case, on another CPU, takes
 * that rq's lock every 2 ms for 3 s and walks the tree. Expect every
 * node's min_slice equal to the minimum of its own slice and its
 * children's min_slice. It is not where the rotate and copy callbacks of
 * the augmented tree carry min_vruntime alone (finding
 * "min_slice_rotation", 6.12).
 */
static void fairtest_min_slice_rotation(struct kunit *test)
{
	struct task_struct *t[24];
	int n = ARRAY_SIZE(t), cpu = num_online_cpus() - 1, walks = 0, bad_walks = 0, max_nodes = 0;
	struct slice_walk first = {};
	struct rq *rq;

	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU: the churn needs a CPU of its own");
	rq = cpu_rq(cpu);
	for (int i = 0; i < n; i++) {
		struct sched_attr attr = {
			.size = sizeof(attr),
			.sched_policy = SCHED_NORMAL,
			.sched_runtime = 100000 + (u64)(i * 7919 % 24) * 830000,
		};

		t[i] = kthread_create(slice_churn, (void *)(unsigned long)(i + 1), "ft_slice/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
		kthread_bind(t[i], cpu);
		KUNIT_ASSERT_EQ(test, sched_setattr_nocheck(t[i], &attr), 0);
		wake_up_process(t[i]);
	}
	for (int step = 0; step < 1500; step++) {
		struct slice_walk w = { .smallest = U64_MAX };
		struct rq_flags rf;

		usleep_range(2000, 2100);
		rq_lock_irqsave(rq, &rf);
		w.root_min = min_slice_walk(rq->cfs.tasks_timeline.rb_root.rb_node, &w);
		rq_unlock_irqrestore(rq, &rf);
		walks++;
		max_nodes = max(max_nodes, w.nodes);
		if (w.bad && !bad_walks++)
			first = w;
	}
	for (int i = 0; i < n; i++)
		kthread_stop(t[i]);
	kunit_info(test, "%d walks of CPU%d's tree (up to %d queued entities), %d with a wrong min_slice\n",
		   walks, cpu, max_nodes, bad_walks);
	if (bad_walks) {
		kunit_info(test, "first: %d of %d nodes wrong, one holds %llu where its subtree's minimum is %llu; root %llu, smallest queued %llu\n",
			   first.bad, first.nodes, first.bad_have, first.bad_want, first.root_min, first.smallest);
		VERDICT(test, "min_slice_rotation",
			"shown: %d of %d walks of a churning queue of up to %d entities found a node whose min_slice is not its subtree's minimum",
			bad_walks, walks, max_nodes);
	} else {
		VERDICT(test, "min_slice_rotation",
			"not shown: %d walks of a churning queue of up to %d entities, every node's min_slice its subtree's minimum",
			walks, max_nodes);
	}
	KUNIT_EXPECT_EQ_MSG(test, bad_walks, 0, "min_slice is not the subtree's minimum after rotations");
}
#endif

static struct kunit_case fairtest_findings_cases[] = {
#ifdef FT_HAVE_VPROT
	KUNIT_CASE(fairtest_vprot_reweight),
#endif
#if defined(FT_HAVE_HYBRID_CAPACITY) && defined(FT_HAVE_SDS_ALLOC) && defined(CONFIG_MEM_ALLOC_PROFILING)
	KUNIT_CASE(fairtest_sds_double_claim),
#endif
#ifdef FT_HAVE_MIN_SLICE
	KUNIT_CASE(fairtest_min_slice_rotation),
#endif
	{}
};

static struct kunit_suite fairtest_findings_suite = {
	.name = "fairtest_findings",
	.test_cases = fairtest_findings_cases,
};

kunit_test_suite(fairtest_findings_suite);

MODULE_LICENSE("GPL");

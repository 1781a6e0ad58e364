// SPDX-License-Identifier: GPL-2.0
/*
 * The invariant checker: every time an rq lock is released, the fair state
 * of that CPU is compared against brute force, because that is the moment
 * another CPU could look at it and so the moment it must be consistent.
 * Sums are recomputed in 128-bit integers, the augmented rbtree minima by
 * walking each subtree, eligibility from the exact weighted lag, the pick
 * from a scan of every queued entity. A broken rule is reported once per
 * test as a fault naming the rule, the entity, the values and the bridge
 * operation that was running; the harness fails the test with it.
 *
 * Each rule is one fair.c maintains by construction (DESIGN.md section 5);
 * where fair.c legitimately steps outside a simpler statement, the rule
 * below is narrowed to exactly what holds and says why.
 */
#include "driver.h"

enum ft_rule {
	RULE_AVG_VRUNTIME, RULE_AVG_LOAD, RULE_LOAD, RULE_NR_RUNNING,
	RULE_H_NR_QUEUED, RULE_H_NR_DELAYED, RULE_H_NR_RUNNABLE, RULE_RQ_NR_RUNNING,
	RULE_TREE_ORDER, RULE_CURR_IN_TREE, RULE_MIN_VRUNTIME, RULE_MIN_SLICE,
	RULE_MAX_SLICE, RULE_CFS_MIN_SLICE, RULE_ELIGIBLE, RULE_PICK, RULE_LAG_CLAMP,
	RULE_FLAT_TREE,
};

static const char *const rule_names[] = {
	[RULE_AVG_VRUNTIME]	= "the V sum is the weighted key sum of the tree",
	[RULE_AVG_LOAD]		= "the V weight is the weight sum of the tree",
	[RULE_LOAD]		= "load.weight is the weight sum of queued entities",
	[RULE_NR_RUNNING]	= "nr_running counts the entities queued on it",
	[RULE_H_NR_QUEUED]	= "h_nr_queued counts the tasks queued below",
	[RULE_H_NR_DELAYED]	= "h_nr_delayed counts the delayed tasks below",
	[RULE_H_NR_RUNNABLE]	= "h_nr_runnable counts the tasks below not delayed",
	[RULE_RQ_NR_RUNNING]	= "rq nr_running counts the queued tasks",
	[RULE_TREE_ORDER]	= "tree is in deadline order",
	[RULE_CURR_IN_TREE]	= "curr is not in the tree",
	[RULE_MIN_VRUNTIME]	= "min_vruntime is the subtree minimum",
	[RULE_MIN_SLICE]	= "min_slice is the subtree minimum",	/* see below */
	[RULE_MAX_SLICE]	= "max_slice is the subtree maximum",
	[RULE_CFS_MIN_SLICE]	= "cfs_rq_min_slice is the queue minimum",
	[RULE_ELIGIBLE]		= "eligible iff the exact lag is >= 0",
	[RULE_PICK]		= "pick_eevdf is the earliest eligible deadline",
	[RULE_LAG_CLAMP]	= "vlag of a dequeued entity is within the lag limit",
	[RULE_FLAT_TREE]	= "the root tree holds every queued task (flat pick)",
};

typedef __int128 s128;

/*
 * Not zeroed on entry (the kernel's flags zero every local,
 * -ftrivial-auto-var-init=zero): for the hot walks' locals that are
 * written before they are read, name buffers of the rare faults and
 * each child's minima.
 */
#if __has_attribute(uninitialized)
#define ck_noinit __attribute__((uninitialized))
#else
#define ck_noinit
#endif

static const char *op_name(char *buf, size_t size)
{
	const struct ft_op *op = &ft_m.op;

	if (!op->name)
		return "boot";
	snprintf(buf, size, "%s(%lld%s", op->name, op->a, op->has_b ? ", " : ")");
	if (op->has_b)
		snprintf(buf + strlen(buf), size - strlen(buf), "%lld)", op->b);
	snprintf(buf + strlen(buf), size - strlen(buf), " at %llu ns", ft_m.now);
	return buf;
}

static void where(struct cfs_rq *cfs_rq, char *buf, size_t size)
{
	int g = ft_group_id(cfs_rq->tg);

	snprintf(buf, size, "cpu%d %s%.0d", cpu_of(rq_of(cfs_rq)),
		 g ? "group " : "root", g);
}

static void who(struct sched_entity *se, char *buf, size_t size)
{
	if (!se)
		snprintf(buf, size, "none");
	else if (entity_is_task(se))
		snprintf(buf, size, "task %d", task_of(se)->pid);
	else
		snprintf(buf, size, "group %d se", ft_group_id(se->my_q->tg));
}

static void __printf(3, 4) broken(enum ft_rule rule, struct cfs_rq *cfs_rq,
				  const char *fmt, ...)
{
	struct ft_fault fault = { .what = "invariant broken" };
	char op[64], at[32] = "", detail[160];
	va_list args;

	if (ft_m.invariants_broken & BIT(rule))
		return;
	ft_m.invariants_broken |= BIT(rule);
	va_start(args, fmt);
	ft_host_vformat(detail, sizeof(detail), fmt, args);
	va_end(args);
	if (cfs_rq)
		where(cfs_rq, at, sizeof(at));
	snprintf(fault.msg, sizeof(fault.msg), "%s after %s: %s%s%s",
		 rule_names[rule], op_name(op, sizeof(op)), at, *at ? ": " : "", detail);
	ft_host_fault(&fault);
}

static struct sched_entity *queued_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;

	return curr && curr->on_rq ? curr : NULL;
}

#define for_each_tree_entity(se, cfs_rq)					\
	for (struct rb_node *__n = rb_first_cached(&(cfs_rq)->tasks_timeline);	\
	     __n && ((se) = rb_entry(__n, struct sched_entity, run_node));	\
	     __n = rb_next(__n))

/*
 * min_slice is exact, except on trees with FT_FINDING_MIN_SLICE_ROTATION
 * (see sched_fair/probe.sh): there the rotate and copy callbacks carry
 * min_vruntime alone, so a node moving up keeps a min_slice of its old
 * place; once stale, later propagation mixes stale and fresh values and
 * the error goes either way (seen above and below the true minimum), and
 * tests/findings.c tests the exact rule as a known finding. rbwatch.c
 * marks the nodes that can have gone stale that way; a node with no mark
 * in its subtree is checked exactly there too. Above a mark, what the
 * bug cannot break is still checked: a rotation or a copy never lands on
 * a leaf (the node going down is recomputed), so a leaf's min_slice is
 * its own slice; and every value was computed over a subtree holding the
 * node itself, so no node's min_slice is above its own slice.
 */
static bool min_slice_broken(struct sched_entity *se, u64 exact, bool stale_below)
{
#ifdef FT_FINDING_MIN_SLICE_ROTATION
	bool leaf = !se->run_node.rb_left && !se->run_node.rb_right;

	if (stale_below)
		return leaf ? se->min_slice != exact : se->min_slice > se->slice;
#endif
	ft_m.min_slice_exact_checks++;
	return se->min_slice != exact;
}

struct minima {
	u64 v, min_slice, max_slice;
	bool stale;		/* a node below (or itself) may hold a stale min_slice */
};

/* Out of the walk, so that a node's visit keeps no name buffer in its frame. */
static noinline void minima_broken(struct cfs_rq *cfs_rq, struct sched_entity *se,
				   const struct minima *m, enum ft_rule rule)
{
	char name[32];

	who(se, name, sizeof(name));
	if (rule == RULE_MIN_VRUNTIME)
		broken(RULE_MIN_VRUNTIME, cfs_rq, "%s has %lld, subtree minimum %lld",
		       name, (s64)se->min_vruntime, (s64)m->v);
	else if (rule == RULE_MIN_SLICE)
		broken(RULE_MIN_SLICE, cfs_rq, "%s has %llu, subtree minimum %llu (own slice %llu%s)",
		       name, se->min_slice, m->min_slice, se->slice,
		       m->stale ? ", rotated or copied below" : "");
#ifdef FT_HAVE_MAX_SLICE
	else
		broken(RULE_MAX_SLICE, cfs_rq, "%s has %llu, subtree maximum %llu",
		       name, se->max_slice, m->max_slice);
#endif
}

/*
 * Walks a subtree, checking each node's augmented fields against it;
 * *pre numbers the nodes in preorder, as the look just taken holds them.
 */
static void subtree_minima(struct cfs_rq *cfs_rq, const struct ft_rbwatch *w,
			   struct rb_node *node, struct minima *m, int *pre)
{
	struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);

	*m = (struct minima){ se->vruntime, se->slice, se->slice, false };
#ifdef FT_FINDING_MIN_SLICE_ROTATION
	m->stale = ft_rbwatch_marked_at(w, node, *pre);
#endif
	(*pre)++;
	for (int i = 0; i < 2; i++) {
		struct rb_node *child = i ? node->rb_right : node->rb_left;
		struct minima c ck_noinit;

		if (!child)
			continue;
		subtree_minima(cfs_rq, w, child, &c, pre);
		if ((s64)(c.v - m->v) < 0)
			m->v = c.v;
		m->min_slice = min(m->min_slice, c.min_slice);
		m->max_slice = max(m->max_slice, c.max_slice);
		m->stale |= c.stale;
	}
	if (se->min_vruntime != m->v)
		minima_broken(cfs_rq, se, m, RULE_MIN_VRUNTIME);
	if (min_slice_broken(se, m->min_slice, m->stale))
		minima_broken(cfs_rq, se, m, RULE_MIN_SLICE);
#ifdef FT_HAVE_MAX_SLICE
	if (se->max_slice != m->max_slice)
		minima_broken(cfs_rq, se, m, RULE_MAX_SLICE);
#endif
}

/*
 * One walk of a queue's tree (and its queued curr): the V sums fair.c
 * keeps, recomputed. key_sum and load include curr, so that lag(v) >= 0,
 * i.e. sum w_i * (v_i - v) >= 0, is key_sum >= load * (v - zero) exactly.
 */
struct queued {
	unsigned int nr;
	u64 min_slice, max_slice;
	s128 tree_key_sum, key_sum;
	u64 tree_load, load;
};

static void count_queued(struct cfs_rq *cfs_rq, struct sched_entity *se, struct queued *q)
{
	u64 w = ft_avg_weight(cfs_rq, se);
	s128 key = (s128)w * (s64)(se->vruntime - cfs_rq->FT_CFS_ZERO_VRUNTIME);

	q->nr++;
	q->min_slice = min(q->min_slice, se->slice);
	q->max_slice = max(q->max_slice, se->slice);
	q->key_sum += key;
	q->load += w;
	if (se != cfs_rq->curr) {
		q->tree_key_sum += key;
		q->tree_load += w;
	}
}

/*
 * What each cfs_rq counts of the entities queued on it (cfs_rq_of(se)):
 * its direct children, tasks and group entities, found by walking every
 * task and group entity of the CPU rather than the tree, because with a
 * flat pick (7.3) the tree is the CPU's alone and group queues only count.
 */
struct members {
	struct cfs_rq *cfs_rq;
	u64 max_slice;		/* largest slice in its tree and curr */
	unsigned int nr, h_nr, h_delayed, h_runnable;
	unsigned long load_weight;
};

static struct members *member_of(struct members *m, int n, struct cfs_rq *cfs_rq)
{
	for (int i = 0; i < n; i++)
		if (m[i].cfs_rq == cfs_rq)
			return &m[i];
	return NULL;
}

/* Returns the member that counted @se, NULL if none. */
static inline struct members *count_member(struct members *m, int n, struct sched_entity *se)
{
	struct members *c = se->on_rq ? member_of(m, n, se->cfs_rq) : NULL;
	struct cfs_rq *my_q = se->my_q;	/* read once: c's counts may alias it for the compiler */

	if (!c)
		return NULL;
	c->nr++;
	c->load_weight += se->load.weight;
	if (!my_q) {
		c->h_nr++;
#ifdef FT_HAVE_H_NR_DELAYED
		c->h_delayed += se->sched_delayed;
#endif
#ifdef FT_HAVE_H_NR_RUNNABLE
		c->h_runnable += !se->sched_delayed;
#endif
		return c;
	}
	c->h_nr += my_q->FT_CFS_H_NR;
#ifdef FT_HAVE_H_NR_DELAYED
	c->h_delayed += my_q->h_nr_delayed;
#endif
#ifdef FT_HAVE_H_NR_RUNNABLE
	c->h_runnable += my_q->h_nr_runnable;
#endif
	return c;
}

/*
 * A task queued below a throttled group stays queued in its own cfs_rq,
 * but its group's entity left the hierarchy: the rq no longer counts it.
 */
static bool in_throttled_group(struct sched_entity *se)
{
#if defined(CONFIG_FAIR_GROUP_SCHED) && !defined(FT_FLAT_PICK)
	for (se = se->parent; se; se = se->parent)
		if (!se->on_rq)
			return true;
#endif
	return false;
}

/*
 * 7.x: a task of a throttled group dequeues itself on its way back to
 * user space and waits in the group's limbo list, still on_rq.
 */
static bool task_in_limbo(struct task_struct *p)
{
#if defined(CONFIG_CFS_BANDWIDTH) && defined(FT_HAVE_CFS_THROTTLE_WORK)
	return p->throttled;
#else
	return false;
#endif
}

static void check_members(const struct members *c)
{
	struct cfs_rq *cfs_rq = c->cfs_rq;

	if (cfs_rq->FT_CFS_NR != c->nr)
		broken(RULE_NR_RUNNING, cfs_rq, "%u, counted %u", cfs_rq->FT_CFS_NR, c->nr);
	if (cfs_rq->load.weight != c->load_weight)
		broken(RULE_LOAD, cfs_rq, "%lu, summed %lu", cfs_rq->load.weight, c->load_weight);
	if (cfs_rq->FT_CFS_H_NR != c->h_nr)
		broken(RULE_H_NR_QUEUED, cfs_rq, "%u, counted %u", cfs_rq->FT_CFS_H_NR, c->h_nr);
#ifdef FT_HAVE_H_NR_DELAYED
	if (cfs_rq->h_nr_delayed != c->h_delayed)
		broken(RULE_H_NR_DELAYED, cfs_rq, "%u, counted %u", cfs_rq->h_nr_delayed, c->h_delayed);
#endif
#ifdef FT_HAVE_H_NR_RUNNABLE
	if (cfs_rq->h_nr_runnable != c->h_runnable)
		broken(RULE_H_NR_RUNNABLE, cfs_rq, "%u, counted %u", cfs_rq->h_nr_runnable, c->h_runnable);
#endif
}

static bool exact_eligible(struct cfs_rq *cfs_rq, const struct queued *q,
			   struct sched_entity *se)
{
	return q->key_sum >= (s128)q->load * (s64)(se->vruntime - cfs_rq->FT_CFS_ZERO_VRUNTIME);
}

static void check_eligibility_and_pick(struct cfs_rq *cfs_rq, const struct queued *q)
{
	struct sched_entity *se, *pick, *best = NULL, *curr = queued_curr(cfs_rq);
	char name[32] ck_noinit, picked[32] ck_noinit;
	bool curr_eligible = curr && exact_eligible(cfs_rq, q, curr);

	for_each_tree_entity(se, cfs_rq) {
		bool exact = exact_eligible(cfs_rq, q, se);

		if (exact != !!ft_fair_entity_eligible(cfs_rq, se)) {
			who(se, name, sizeof(name));
			broken(RULE_ELIGIBLE, cfs_rq, "%s: fair.c says %d, exact lag says %d",
			       name, !exact, exact);
		}
		if (exact && (!best || (s64)(se->deadline - best->deadline) < 0))
			best = se;
	}
	if (curr_eligible && (!best || (s64)(curr->deadline - best->deadline) < 0))
		best = curr;

	if (q->nr < 2)
		return;		/* the sole entity is picked, eligible or not */
#ifdef FT_PICK_EEVDF_PROTECT
	/* One task below: taken without looking (a delayed group may sit by it). */
	if (cfs_rq->FT_CFS_H_NR == 1)
		return;
	/* Asked without buddy or protection, it is EEVDF's pick alone. */
	pick = ft_fair_pick_eevdf(cfs_rq, false);
#else
	pick = ft_fair_pick_eevdf(cfs_rq, true);
	if (sched_feat(RUN_TO_PARITY) && curr_eligible && ft_fair_slice_protected(curr))
		best = curr;	/* an eligible curr keeps its protected slice */
#endif
	if (pick == best || (pick && best && pick->deadline == best->deadline &&
			     exact_eligible(cfs_rq, q, pick)))
		return;
	who(pick, picked, sizeof(picked));
	who(best, name, sizeof(name));
	broken(RULE_PICK, cfs_rq, "picked %s (deadline %lld), expected %s (deadline %lld)",
	       picked, pick ? (s64)pick->deadline : 0, name, best ? (s64)best->deadline : 0);
}

/* Returns the largest slice queued in its tree (curr included). */
static u64 check_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se, *prev = NULL, *curr = queued_curr(cfs_rq);
	/* summed here, copied for the eligibility check: a sum whose address no call sees stays in registers */
	struct queued acc = { .min_slice = ~0ULL }, q;
	struct minima m = { .stale = false };
	int nodes = 0;
	char name[32] ck_noinit;

	for_each_tree_entity(se, cfs_rq) {
		nodes++;
		if (se == cfs_rq->curr) {
			who(se, name, sizeof(name));
			broken(RULE_CURR_IN_TREE, cfs_rq, "%s", name);
		}
		if (prev && (s64)(se->deadline - prev->deadline) < 0) {
			who(se, name, sizeof(name));
			broken(RULE_TREE_ORDER, cfs_rq, "%s deadline %lld before its predecessor's %lld",
			       name, (s64)se->deadline, (s64)prev->deadline);
		}
		prev = se;
		count_queued(cfs_rq, se, &acc);
	}
	if (curr)
		count_queued(cfs_rq, curr, &acc);
	q = acc;

	if ((s128)cfs_rq->FT_CFS_SUM_V != q.tree_key_sum)
		broken(RULE_AVG_VRUNTIME, cfs_rq, "%lld, brute force %lld%s", (s64)cfs_rq->FT_CFS_SUM_V,
		       (s64)q.tree_key_sum, q.tree_key_sum != (s64)q.tree_key_sum ? " (overflows s64)" : "");
	if (cfs_rq->FT_CFS_SUM_W != q.tree_load)
		broken(RULE_AVG_LOAD, cfs_rq, "%llu, brute force %llu", (u64)cfs_rq->FT_CFS_SUM_W, q.tree_load);
	if (cfs_rq->tasks_timeline.rb_root.rb_node) {
		const struct ft_rbwatch *w = NULL;
		int pre = 0;

#ifdef FT_FINDING_MIN_SLICE_ROTATION
		w = ft_rbwatch_look(&cfs_rq->tasks_timeline.rb_root, nodes);
#endif
		subtree_minima(cfs_rq, w, cfs_rq->tasks_timeline.rb_root.rb_node, &m, &pre);
	}
	/* cfs_rq_min_slice() reads the root's min_slice: exact unless excused there */
	if (q.nr && !m.stale && ft_fair_min_slice(cfs_rq) != q.min_slice)
		broken(RULE_CFS_MIN_SLICE, cfs_rq, "%llu, scanned %llu",
		       ft_fair_min_slice(cfs_rq), q.min_slice);
	if (q.nr)
		check_eligibility_and_pick(cfs_rq, &q);
	return q.max_slice;
}

/*
 * On the transition to dequeued, vlag must be within entity_lag()'s clamp.
 * Where the clamp is the queue's largest slice (7.x), that slice is the
 * largest this entity's tree held at any check while it was queued: the
 * queue as it was at the dequeue is gone by the time the lock drops.
 */
static noinline void lag_broken(struct sched_entity *se, s64 limit)
{
	char name[32];

	who(se, name, sizeof(name));
	broken(RULE_LAG_CLAMP, NULL, "%s vlag %lld, limit %lld (slice %llu, weight %lu)",
	       name, se->vlag, limit, se->slice, se->load.weight);
}

static inline void check_dequeued(struct sched_entity *se, struct lag_watch *w, u64 tree_max)
{
	s64 limit;

	if (se->on_rq) {
		w->max_slice = max3(w->max_slice, tree_max, se->slice);
	} else if (w->was_on_rq) {
		limit = ft_fair_lag_limit(se, max(w->max_slice, se->slice));
		if (se->vlag > limit || se->vlag < -limit)
			lag_broken(se, limit);
		w->max_slice = 0;
	}
	w->was_on_rq = se->on_rq;
}

/*
 * The largest slice of the tree a queued @se waits in, given @c, what
 * count_member() returned for it (the member of its own queue), and
 * @cpu_tree, the member of the CPU's root queue (found once a check):
 * with a flat pick, tasks wait in the CPU's tree.
 */
static inline u64 tree_max(struct members *c, struct members *cpu_tree, struct sched_entity *se)
{
#ifdef FT_FLAT_PICK
	if (entity_is_task(se))
		return se->on_rq && cpu_tree ? cpu_tree->max_slice : 0;
#endif
	return c ? c->max_slice : 0;
}

/*
 * The incremental task scan. A task of another CPU matters to this CPU's
 * check only once dequeued after a check saw it queued (the lag clamp
 * then applies), and its se.on_rq changes only under its CPU's rq lock,
 * every release of which checks that CPU, which sees the task and records
 * was_on_rq. So a task seen queued is queued still, unless its CPU's lock
 * is held now (another CPU's lock is dropped inside it) or it changed CPU
 * since its own CPU's check last saw it: only those and this CPU's tasks
 * are visited, found by bitmaps of task ids (tasks per CPU, kept by
 * ft_set_task_cpu(); tasks moved), in id order as the full scan goes.
 */
#define CK_WORDS	BITS_TO_LONGS(FT_MAX_TASKS)

static unsigned long ck_on_cpu[FT_MAX_CPUS][CK_WORDS];
static unsigned long ck_moved[CK_WORDS];
static int ck_words;		/* words written since the last reset */

void ft_checker_reset(void)
{
	for (int c = 0; c < FT_MAX_CPUS; c++)
		memset(ck_on_cpu[c], 0, ck_words * sizeof(long));
	memset(ck_moved, 0, ck_words * sizeof(long));
	ck_words = 0;
}

void ft_checker_task_cpu(int id, int cpu)
{
	struct ft_task *t = &ft_m.tasks[id];

	__clear_bit(id, ck_on_cpu[t->cpu]);
	__set_bit(id, ck_on_cpu[cpu]);
	__set_bit(id, ck_moved);
	t->cpu = cpu;
	ck_words = max(ck_words, (int)BIT_WORD(id) + 1);
}

void ft_checker_task_gone(int id)
{
	__clear_bit(id, ck_on_cpu[ft_m.tasks[id].cpu]);
	__clear_bit(id, ck_moved);
}

static bool may_have_left(int id, u64 locked)
{
	const struct ft_task *t = &ft_m.tasks[id];

	return t->lag.was_on_rq && (test_bit(id, ck_moved) || (locked & BIT_ULL(t->cpu)));
}

/* The CPUs whose rq lock is held, but for @cpu's. */
static u64 other_rqs_locked(int cpu)
{
	return ft_m.rq_locked & ~BIT_ULL(cpu);	/* the driver's mask (core.c) */
}

/* The ids of word @w to visit: this CPU's tasks, the moved, the locked CPUs'. */
static unsigned long ck_visit(int w, int cpu, u64 locked)
{
	unsigned long ids = ck_on_cpu[cpu][w] | ck_moved[w];

	for (; locked; locked &= locked - 1)
		ids |= ck_on_cpu[__builtin_ctzll(locked)][w];
	return ids;
}

/*
 * The full scan (FAIRTEST_CHECKER=full) also proves the incremental one's
 * premises wherever it runs: the kept CPU is the task's, and no task the
 * incremental scan would skip has anything to check.
 */
static void audit_task_scan(int id, int cpu, bool resync, u64 locked)
{
	const struct ft_task *t = &ft_m.tasks[id];
	struct task_struct *p = t->p;
	int kept = test_bit(id, ck_on_cpu[task_cpu(p)]) ? task_cpu(p) : -1;

	if (t->cpu != task_cpu(p) || kept < 0 ||
	    test_bit(id, ck_on_cpu[cpu]) != (task_cpu(p) == cpu))
		ft_fault_here("incremental checker", NULL, "task %d on cpu %d, kept as on cpu %d",
			      p->pid, task_cpu(p), t->cpu);
	else if (t->cpu != cpu && t->lag.was_on_rq && !p->se.on_rq && !resync &&
		 !may_have_left(id, locked))
		ft_fault_here("incremental checker", NULL,
			      "task %d dequeued on cpu %d unseen by cpu %d's check", p->pid, t->cpu, cpu);
}

/*
 * One task, as this CPU's check sees it; @queued counts the rq's tasks.
 * Inline: a check visits about as many as its CPU has.
 */
static __always_inline void check_task(int id, int cpu, struct members *members, int n,
		       struct members *cpu_tree, unsigned int *queued)
{
	struct ft_task *t = &ft_m.tasks[id];
	struct task_struct *p = t->p;
	struct members *c;

	if (t->cpu != cpu) {
		if (!p->se.on_rq)	/* dequeued for a migration elsewhere */
			check_dequeued(&p->se, &t->lag, 0);
		return;
	}
	__clear_bit(id, ck_moved);
	*queued += task_on_rq_queued(p) && !in_throttled_group(&p->se) && !task_in_limbo(p);
	/* asleep and seen asleep: no member to count, no dequeue to check */
	if (!p->se.on_rq && !t->lag.was_on_rq)
		return;
	c = count_member(members, n, &p->se);
	if (!p->se.on_rq)	/* tree_max() finds no tree for it */
		check_dequeued(&p->se, &t->lag, 0);
	else
		check_dequeued(&p->se, &t->lag, tree_max(c, cpu_tree, &p->se));
}

void ft_check_invariants(struct rq *rq)
{
	static struct members members[FT_MAX_GROUPS];	/* too big for a kernel frame */
	struct members *cpu_tree;
	int cpu = cpu_of(rq), n = 0;
	unsigned int queued = 0;
	bool resync;
	u64 locked;

	if (!ft_m.booted || ft_m.checks_off)
		return;
	ft_m.invariant_checks++;
	for (int g = 0; g < ft_m.nr_group_ids; g++) {
		struct task_group *tg = ft_m.groups[g];

		if (!tg)
			continue;
		members[n] = (struct members){ .cfs_rq = ft_tg_cfs_rq(tg, cpu) };
		members[n++].max_slice = check_cfs_rq(ft_tg_cfs_rq(tg, cpu));
	}
	cpu_tree = member_of(members, n, &cpu_rq(cpu)->cfs);
	for (int g = 1; g < ft_m.nr_group_ids; g++) {
		struct members *gc __maybe_unused;
		struct sched_entity *gse;

		if (!ft_m.groups[g])
			continue;
		gse = ft_tg_se(ft_m.groups[g], cpu);
#ifdef FT_FLAT_PICK	/* flat: group entities only count, never wait or lag */
		count_member(members, n, gse);
#else
		gc = count_member(members, n, gse);
		check_dequeued(gse, &ft_m.gse_lag[g][cpu], tree_max(gc, cpu_tree, gse));
#endif
	}
	resync = !ft_m.checks_synced;	/* tasks were not seen meanwhile */
	ft_m.checks_synced = true;
	locked = other_rqs_locked(cpu);
	if (ft_m.checks_full || resync) {
		ft_for_each_task_id(id) {
			if (ft_m.checks_full)
				audit_task_scan(id, cpu, resync, locked);
			check_task(id, cpu, members, n, cpu_tree, &queued);
		}
	} else {
		for (int w = 0; w < ck_words; w++) {
			for (unsigned long ids = ck_visit(w, cpu, locked); ids; ids &= ids - 1) {
				int id = w * BITS_PER_LONG + __builtin_ctzl(ids);

				if (ft_m.tasks[id].cpu == cpu || may_have_left(id, locked))
					check_task(id, cpu, members, n, cpu_tree, &queued);
			}
		}
	}
	for (int i = 0; i < n; i++)
		check_members(&members[i]);
	/* the stop class's thread counts in the rq, not in the fair queues */
	if (rq->nr_running != rq->cfs.FT_CFS_H_NR + ft_m.stopper_queued[cpu] ||
	    rq->nr_running != queued + ft_m.stopper_queued[cpu])
		broken(RULE_RQ_NR_RUNNING, &rq->cfs, "rq %u, cfs h_nr %u, tasks queued %u",
		       rq->nr_running, rq->cfs.FT_CFS_H_NR, queued + ft_m.stopper_queued[cpu]);
#ifdef FT_FLAT_PICK
	{
		unsigned int in_tree = !!queued_curr(&rq->cfs);
		struct sched_entity *se;

		for_each_tree_entity(se, &rq->cfs)
			in_tree += entity_is_task(se);
		if (in_tree != queued)
			broken(RULE_FLAT_TREE, &rq->cfs, "%u tasks in the tree and curr, %u queued",
			       in_tree, queued);
	}
#endif
}

u64 ft_invariant_checks(void)
{
	return ft_m.invariant_checks;
}

u64 ft_min_slice_exact_checks(void)
{
	return ft_m.min_slice_exact_checks;
}

#ifdef FT_FINDING_MIN_SLICE_ROTATION
static bool subtree_stale(const struct ft_rbwatch *w, struct rb_node *node)
{
	return node && (ft_rbwatch_marked(w, node) || subtree_stale(w, node->rb_left) ||
			subtree_stale(w, node->rb_right));
}
#endif

bool ft_cfs_min_slice_excused(int cpu, int group)
{
#ifdef FT_FINDING_MIN_SLICE_ROTATION
	struct cfs_rq *cfs_rq = ft_cfs_rq_of(cpu, group);
	struct rb_root *root = cfs_rq ? &cfs_rq->tasks_timeline.rb_root : NULL;

	return root && subtree_stale(ft_rbwatch_sync(root), root->rb_node);
#else
	return false;
#endif
}

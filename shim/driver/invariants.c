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
	RULE_CFS_MIN_SLICE, RULE_ELIGIBLE, RULE_PICK, RULE_LAG_CLAMP,
};

static const char *const rule_names[] = {
	[RULE_AVG_VRUNTIME]	= "avg_vruntime is the weighted key sum of the tree",
	[RULE_AVG_LOAD]		= "avg_load is the weight sum of the tree",
	[RULE_LOAD]		= "load.weight is the weight sum of queued entities",
	[RULE_NR_RUNNING]	= "nr_running counts the tree plus a queued curr",
	[RULE_H_NR_QUEUED]	= "h_nr_queued counts the tasks queued below",
	[RULE_H_NR_DELAYED]	= "h_nr_delayed counts the delayed tasks below",
	[RULE_H_NR_RUNNABLE]	= "h_nr_runnable counts the tasks below not delayed",
	[RULE_RQ_NR_RUNNING]	= "rq nr_running counts the queued tasks",
	[RULE_TREE_ORDER]	= "tree is in deadline order",
	[RULE_CURR_IN_TREE]	= "curr is not in the tree",
	[RULE_MIN_VRUNTIME]	= "min_vruntime is the subtree minimum",
	[RULE_MIN_SLICE]	= "min_slice is the subtree minimum",	/* see below */
	[RULE_CFS_MIN_SLICE]	= "cfs_rq_min_slice is the queue minimum",
	[RULE_ELIGIBLE]		= "eligible iff the exact lag is >= 0",
	[RULE_PICK]		= "pick_eevdf is the earliest eligible deadline",
	[RULE_LAG_CLAMP]	= "vlag of a dequeued entity is within the lag limit",
};

typedef __int128 s128;

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

static unsigned long avg_weight(struct sched_entity *se)
{
	return scale_load_down(se->load.weight);
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
 * the error goes either way (seen above and below the true minimum). No
 * weaker rule holds, so there the checker leaves min_slice alone, and
 * tests/findings.c tests the exact rule as a known finding.
 */
static bool min_slice_broken(u64 have, u64 exact)
{
#ifdef FT_FINDING_MIN_SLICE_ROTATION
	return false;
#else
	return have != exact;
#endif
}

/* Walks a subtree, checking each node's augmented minima against it. */
static void subtree_minima(struct cfs_rq *cfs_rq, struct rb_node *node,
			   u64 *min_v, u64 *min_slice)
{
	struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);
	char name[32];

	*min_v = se->vruntime;
	*min_slice = se->slice;
	for (int i = 0; i < 2; i++) {
		struct rb_node *child = i ? node->rb_right : node->rb_left;
		u64 v, s;

		if (!child)
			continue;
		subtree_minima(cfs_rq, child, &v, &s);
		if ((s64)(v - *min_v) < 0)
			*min_v = v;
		*min_slice = min(*min_slice, s);
	}
	if (se->min_vruntime != *min_v) {
		who(se, name, sizeof(name));
		broken(RULE_MIN_VRUNTIME, cfs_rq, "%s has %lld, subtree minimum %lld",
		       name, (s64)se->min_vruntime, (s64)*min_v);
	}
	if (min_slice_broken(se->min_slice, *min_slice)) {
		who(se, name, sizeof(name));
		broken(RULE_MIN_SLICE, cfs_rq, "%s has %llu, subtree minimum %llu",
		       name, se->min_slice, *min_slice);
	}
}

/*
 * One walk of a queue: the sums and counters fair.c keeps, recomputed.
 * key_sum and load include curr, so that lag(v) >= 0, i.e.
 * sum w_i * (v_i - v) >= 0, is key_sum >= load * (v - zero) exactly.
 */
struct queued {
	unsigned int nr, h_nr, h_delayed, h_runnable;
	unsigned long load_weight;
	u64 min_slice;
	s128 tree_key_sum, key_sum;
	u64 tree_load, load;
};

static void count_queued(struct cfs_rq *cfs_rq, struct sched_entity *se, struct queued *q)
{
	s128 key = (s128)avg_weight(se) * (s64)(se->vruntime - cfs_rq->FT_CFS_ZERO_VRUNTIME);

	q->nr++;
	q->load_weight += se->load.weight;
	q->min_slice = min(q->min_slice, se->slice);
	q->h_nr += se->my_q ? se->my_q->FT_CFS_H_NR : 1;
#ifdef FT_HAVE_H_NR_DELAYED
	q->h_delayed += se->my_q ? se->my_q->h_nr_delayed : se->sched_delayed;
#endif
#ifdef FT_HAVE_H_NR_RUNNABLE
	q->h_runnable += se->my_q ? se->my_q->h_nr_runnable : !se->sched_delayed;
#endif
	q->key_sum += key;
	q->load += avg_weight(se);
	if (se != cfs_rq->curr) {
		q->tree_key_sum += key;
		q->tree_load += avg_weight(se);
	}
}

static bool exact_eligible(struct cfs_rq *cfs_rq, const struct queued *q,
			   struct sched_entity *se)
{
	return q->key_sum >= (s128)q->load * (s64)(se->vruntime - cfs_rq->FT_CFS_ZERO_VRUNTIME);
}

static void check_eligibility_and_pick(struct cfs_rq *cfs_rq, const struct queued *q)
{
	struct sched_entity *se, *pick, *best = NULL, *curr = queued_curr(cfs_rq);
	char name[32], picked[32];
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

	if (cfs_rq->FT_CFS_NR < 2)
		return;		/* the sole entity is picked, eligible or not */
	pick = ft_fair_pick_eevdf(cfs_rq);
	if (sched_feat(RUN_TO_PARITY) && curr_eligible && ft_fair_slice_protected(curr))
		best = curr;	/* an eligible curr keeps its protected slice */
	if (pick == best || (pick && best && pick->deadline == best->deadline &&
			     exact_eligible(cfs_rq, q, pick)))
		return;
	who(pick, picked, sizeof(picked));
	who(best, name, sizeof(name));
	broken(RULE_PICK, cfs_rq, "picked %s (deadline %lld), expected %s (deadline %lld)",
	       picked, pick ? (s64)pick->deadline : 0, name, best ? (s64)best->deadline : 0);
}

static void check_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se, *prev = NULL, *curr = queued_curr(cfs_rq);
	struct queued q = { .min_slice = ~0ULL };
	char name[32];

	for_each_tree_entity(se, cfs_rq) {
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
		count_queued(cfs_rq, se, &q);
	}
	if (curr)
		count_queued(cfs_rq, curr, &q);

	if ((s128)cfs_rq->avg_vruntime != q.tree_key_sum)
		broken(RULE_AVG_VRUNTIME, cfs_rq, "%lld, brute force %lld%s", cfs_rq->avg_vruntime,
		       (s64)q.tree_key_sum, q.tree_key_sum != (s64)q.tree_key_sum ? " (overflows s64)" : "");
	if (cfs_rq->avg_load != q.tree_load)
		broken(RULE_AVG_LOAD, cfs_rq, "%llu, brute force %llu", cfs_rq->avg_load, q.tree_load);
	if (cfs_rq->FT_CFS_NR != q.nr)
		broken(RULE_NR_RUNNING, cfs_rq, "%u, counted %u", cfs_rq->FT_CFS_NR, q.nr);
	if (cfs_rq->load.weight != q.load_weight)
		broken(RULE_LOAD, cfs_rq, "%lu, summed %lu", cfs_rq->load.weight, q.load_weight);
	if (cfs_rq->FT_CFS_H_NR != q.h_nr)
		broken(RULE_H_NR_QUEUED, cfs_rq, "%u, counted %u", cfs_rq->FT_CFS_H_NR, q.h_nr);
#ifdef FT_HAVE_H_NR_DELAYED
	if (cfs_rq->h_nr_delayed != q.h_delayed)
		broken(RULE_H_NR_DELAYED, cfs_rq, "%u, counted %u", cfs_rq->h_nr_delayed, q.h_delayed);
#endif
#ifdef FT_HAVE_H_NR_RUNNABLE
	if (cfs_rq->h_nr_runnable != q.h_runnable)
		broken(RULE_H_NR_RUNNABLE, cfs_rq, "%u, counted %u", cfs_rq->h_nr_runnable, q.h_runnable);
#endif
	if (q.nr && min_slice_broken(ft_fair_min_slice(cfs_rq), q.min_slice))
		broken(RULE_CFS_MIN_SLICE, cfs_rq, "%llu, scanned %llu",
		       ft_fair_min_slice(cfs_rq), q.min_slice);

	if (cfs_rq->tasks_timeline.rb_root.rb_node) {
		u64 v, s;

		subtree_minima(cfs_rq, cfs_rq->tasks_timeline.rb_root.rb_node, &v, &s);
	}
	if (q.nr)
		check_eligibility_and_pick(cfs_rq, &q);
}

/* On the transition to dequeued, vlag must be within entity_lag()'s clamp. */
static void check_dequeued(struct sched_entity *se, bool *was_on_rq)
{
	char name[32];
	s64 limit;

	if (*was_on_rq && !se->on_rq) {
		limit = ft_fair_lag_limit(se);
		if (se->vlag > limit || se->vlag < -limit) {
			who(se, name, sizeof(name));
			broken(RULE_LAG_CLAMP, NULL, "%s vlag %lld, limit %lld (slice %llu, weight %lu)",
			       name, se->vlag, limit, se->slice, se->load.weight);
		}
	}
	*was_on_rq = se->on_rq;
}

void ft_check_invariants(struct rq *rq)
{
	int cpu = cpu_of(rq);
	unsigned int queued = 0;

	if (!ft_m.booted)
		return;
	ft_m.invariant_checks++;
	for (int g = 0; g < ft_m.nr_group_ids; g++) {
		struct task_group *tg = ft_m.groups[g];

		if (!tg)
			continue;
		check_cfs_rq(tg->cfs_rq[cpu]);
		if (g)
			check_dequeued(tg->se[cpu], &ft_m.gse_was_on_rq[g][cpu]);
	}
	ft_for_each_task_id(id) {
		struct task_struct *p = ft_m.tasks[id].p;

		check_dequeued(&p->se, &ft_m.tasks[id].was_on_rq);
		queued += task_cpu(p) == cpu && task_on_rq_queued(p);
	}
	queued += ft_m.stopper_queued[cpu];	/* the stop class's thread */
	if (rq->nr_running != rq->cfs.FT_CFS_H_NR + ft_m.stopper_queued[cpu] ||
	    rq->nr_running != queued)
		broken(RULE_RQ_NR_RUNNING, &rq->cfs, "rq %u, cfs h_nr %u, tasks queued %u",
		       rq->nr_running, rq->cfs.FT_CFS_H_NR, queued);
}

u64 ft_invariant_checks(void)
{
	return ft_m.invariant_checks;
}

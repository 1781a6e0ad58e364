// SPDX-License-Identifier: GPL-2.0
/*
 * Where a tree with the min_slice_rotation finding (sched_fair/probe.sh)
 * may hold a stale min_slice, so that the checker excuses exactly there
 * and checks the exact value everywhere else. fair.c's rotate and copy
 * callbacks carry min_vruntime alone: the node a rotation moves up, and
 * the successor an erase copies into the place of a node with two
 * children, keep the min_slice of their old place, and what is computed
 * above them from it is wrong too; every other step recomputes a node
 * from its children. Rotations are seen as they happen: lib/rbtree.c's
 * two rebalancing entry points are wrapped at link time (-Wl,--wrap, see
 * build.mk) and handed a rotate callback that marks the node moving up,
 * then calls fair.c's. Copies are inlined into fair.c, so they are
 * inferred: each time the shim looks at a tree (those two calls and every
 * invariant check), an entity gone since the last look that had two
 * children then may have been replaced by a successor from its right
 * subtree, and that whole subtree is marked (a chain of erases between two
 * looks takes its successors from there too). An erase that needs no
 * rebalancing makes no call, so an entity erased and inserted again
 * before the next look (a dequeue/enqueue bracket around an attribute
 * change) is found back in the tree: the insert's look counts the entity
 * it inserts as gone, since only an entity not in the tree is inserted.
 * A mark lasts until the entity is inserted again; a node is excused
 * while its subtree holds a mark. On other trees the wrappers only pass
 * the call on, and so they do on every tree while the checker is off
 * (fairsim --no-check). A look costs what the tree holds: small trees are
 * scanned, not hashed, and a tree unchanged since the last look keeps its
 * marks as they are (an inserted entity is a leaf, so it cannot have had
 * two children at an unchanged place).
 *
 * Two looks are known to find nothing new, and are skipped unless
 * FAIRTEST_CHECKER=full (which takes them and faults where one does find a
 * change): the one after a rebalance that made no rotation, since a
 * rotation is the only move the rebalance makes; and the check's, when the
 * tree holds as many nodes as the last look saw, since every insert is
 * looked at (linked, then always rebalanced) and what a look can miss is
 * an erase that needs no rebalancing, which leaves a node fewer.
 */
#include "driver.h"

void __real___rb_insert_augmented(struct rb_node *node, struct rb_root *root,
				  void (*augment_rotate)(struct rb_node *old, struct rb_node *new));
void __real___rb_erase_color(struct rb_node *parent, struct rb_root *root,
			     void (*augment_rotate)(struct rb_node *old, struct rb_node *new));
void __wrap___rb_insert_augmented(struct rb_node *node, struct rb_root *root,
				  void (*augment_rotate)(struct rb_node *old, struct rb_node *new));
void __wrap___rb_erase_color(struct rb_node *parent, struct rb_root *root,
			     void (*augment_rotate)(struct rb_node *old, struct rb_node *new));

#ifdef FT_FINDING_MIN_SLICE_ROTATION

#define RBW_NODES	512		/* a bigger tree is all excused until empty */
#define RBW_TREES	256
#define RBW_HASH	1024		/* power of two, > 2 x RBW_NODES */
#define RBW_LINEAR	16		/* up to this many nodes: found by a scan */

struct rbw_node {
	struct rb_node *node;
	short left, right;		/* snapshot indices, -1: none */
	short slot;			/* where the hash holds it */
	bool marked;
	bool kept;			/* a look found it in the tree again */
};

struct ft_rbwatch {
	struct rb_root *root;
	bool overflow;
	bool hashed;			/* n > RBW_LINEAR: the hash holds the snapshot */
	int n;
	struct rbw_node snap[RBW_NODES];
	short hash[RBW_HASH];		/* node pointer -> snap index + 1 */
};

static struct ft_rbwatch rbw_trees[RBW_TREES];
static struct rb_root *rbw_roots[RBW_TREES];	/* rbw_trees[]'s */
#define RBW_ROOT_BITS	9		/* 2 x RBW_TREES slots */
static short rbw_root_hash[1 << RBW_ROOT_BITS];	/* root -> rbw_trees[] index + 1 */
static int rbw_nr;
static struct rbw_node rbw_next[RBW_NODES];
static short rbw_was[RBW_NODES];	/* a look: each node's index in the last one */
static void (*rbw_rotate_fn)(struct rb_node *old, struct rb_node *new);
static unsigned long rbw_rotations;	/* rotations seen, ever */
static bool rbw_last_same;		/* the last look found the tree as it was */
static struct ft_rbwatch *rbw_rotating;
/*
 * With the checker off nothing looks at min_slice, so the wrappers only
 * pass the call on and the snapshots go stale: the next look excuses
 * every tree until it is empty, as for one too big to follow.
 */
static bool rbw_blind, rbw_born_blind;

/* the product's top bits: roots lie a power of two apart (per-CPU runqueues) */
static unsigned int rbw_root_slot(const struct rb_root *root)
{
	return ((unsigned long)root * 0x9e3779b97f4a7c15ULL) >> (64 - RBW_ROOT_BITS);
}

static unsigned int rbw_root_after(unsigned int s)
{
	return (s + 1) & ((1 << RBW_ROOT_BITS) - 1);
}

/* rbw_trees[]'s index of @root's watch, -1 if none: found without a scan */
static int rbw_index(const struct rb_root *root)
{
	for (unsigned int s = rbw_root_slot(root);; s = rbw_root_after(s)) {
		int t = rbw_root_hash[s] - 1;

		if (t < 0 || rbw_roots[t] == root)
			return t;
	}
}

void ft_rbwatch_reset(void)
{
	for (int t = 0; t < rbw_nr; t++) {
		unsigned int s = rbw_root_slot(rbw_roots[t]);

		while (rbw_root_hash[s] != t + 1)
			s = rbw_root_after(s);
		rbw_root_hash[s] = 0;
	}
	rbw_nr = 0;
	rbw_blind = rbw_born_blind = false;
}

static unsigned int rbw_slot(struct rb_node *node)
{
	return (unsigned int)(((unsigned long)node >> 3) * 0x9e3779b1u) & (RBW_HASH - 1);
}

static int rbw_find(const struct ft_rbwatch *w, struct rb_node *node)
{
	if (!w->hashed) {
		for (int i = 0; i < w->n; i++)
			if (w->snap[i].node == node)
				return i;
		return -1;
	}
	for (unsigned int s = rbw_slot(node);; s = (s + 1) & (RBW_HASH - 1)) {
		int i = w->hash[s] - 1;

		if (i < 0)
			return -1;
		if (w->snap[i].node == node)
			return i;
	}
}

/*
 * The hash of a snapshot too big to scan, built and emptied slot by slot:
 * a look costs what the tree holds, not the table's size.
 */
static void rbw_hash(struct ft_rbwatch *w)
{
	w->hashed = w->n > RBW_LINEAR;
	for (int j = 0; w->hashed && j < w->n; j++) {
		unsigned int s = rbw_slot(w->snap[j].node);

		while (w->hash[s])
			s = (s + 1) & (RBW_HASH - 1);
		w->hash[s] = j + 1;
		w->snap[j].slot = s;
	}
}

static void rbw_unhash(struct ft_rbwatch *w)
{
	for (int i = 0; w->hashed && i < w->n; i++)
		w->hash[w->snap[i].slot] = 0;
	w->hashed = false;
	w->n = 0;
}

/*
 * Preorder into rbw_next; -1 when the tree has more than RBW_NODES. A
 * missing child is seen from its parent, not visited: most of a small
 * tree's children are missing.
 */
static int rbw_collect(struct rb_node *node, int *n)
{
	int i, l = -1, r = -1;

	if (*n >= RBW_NODES) {
		*n = -1;
		return -1;
	}
	i = (*n)++;
	if (node->rb_left && (l = rbw_collect(node->rb_left, n)) < 0)
		return -1;
	if (node->rb_right && (r = rbw_collect(node->rb_right, n)) < 0)
		return -1;
	rbw_next[i] = (struct rbw_node){ node, l, r, 0, false, false };
	return i;
}

static void rbw_mark_subtree(struct ft_rbwatch *w, int i)
{
	if (i < 0)
		return;
	w->snap[i].marked = true;
	rbw_mark_subtree(w, w->snap[i].left);
	rbw_mark_subtree(w, w->snap[i].right);
}

static struct ft_rbwatch *rbw_tree(struct rb_root *root)
{
	unsigned int s;
	int t;

	if (rbw_blind) {	/* changed unseen: lost track of every tree */
		for (t = 0; t < rbw_nr; t++) {
			rbw_unhash(&rbw_trees[t]);
			rbw_trees[t].overflow = true;
		}
		rbw_blind = false;
		rbw_born_blind = true;
	}
	if ((t = rbw_index(root)) >= 0)
		return &rbw_trees[t];
	if (rbw_nr == RBW_TREES)
		return NULL;	/* unwatched: the checker excuses it whole */
	rbw_trees[rbw_nr] = (struct ft_rbwatch){ .root = root, .overflow = rbw_born_blind };
	rbw_roots[rbw_nr] = root;
	for (s = rbw_root_slot(root); rbw_root_hash[s]; s = rbw_root_after(s))
		;
	rbw_root_hash[s] = rbw_nr + 1;
	return &rbw_trees[rbw_nr++];
}

/* The same nodes in the same places (preorder, children) as the last look. */
static bool rbw_same(const struct ft_rbwatch *w, int n)
{
	if (n != w->n)
		return false;
	for (int j = 0; j < n; j++)
		if (rbw_next[j].node != w->snap[j].node || rbw_next[j].left != w->snap[j].left ||
		    rbw_next[j].right != w->snap[j].right)
			return false;
	return true;
}

/*
 * An insert's look at a tree that is the last look's plus the leaf just
 * linked: the other nodes in the same preorder, the leaf in it where it
 * hangs. Nothing was erased unseen (no node is gone), so nothing is
 * marked anew; the marks move with their nodes and the leaf has none, as
 * the whole look below would find, without searching the last look for
 * each node.
 */
static bool rbw_plus_leaf(struct ft_rbwatch *w, int n, struct rb_node *inserted)
{
	int p = 0;

	if (n != w->n + 1)
		return false;
	while (p < w->n && rbw_next[p].node == w->snap[p].node)
		p++;
	if (rbw_next[p].node != inserted)
		return false;
	for (int j = p; j < w->n; j++)
		if (rbw_next[j + 1].node != w->snap[j].node)
			return false;
	for (int j = 0; j < n; j++)
		rbw_next[j].marked = j != p && w->snap[j - (j > p)].marked;
	rbw_unhash(w);
	memcpy(w->snap, rbw_next, n * sizeof(rbw_next[0]));
	w->n = n;
	rbw_hash(w);
	return true;
}

/*
 * A look at the tree: infers the copies since the last one, takes a new
 * snapshot. Linear in the tree's size: each node of the new snapshot is
 * found in the last one by the hash, which marks the ones kept.
 * @inserted: the entity an insert is about to rebalance, linked as a leaf
 * already, hence seen in the tree, but erased since the last look if that
 * look saw it.
 */
static struct ft_rbwatch *rbw_sync(struct rb_root *root, struct rb_node *inserted)
{
	struct ft_rbwatch *w = rbw_tree(root);
	int n = 0;

	rbw_last_same = false;
	if (!w)
		return NULL;
	if (root->rb_node)
		rbw_collect(root->rb_node, &n);
	if (n <= 0 || w->overflow) {
		w->overflow = root->rb_node != NULL;	/* lost track: excused until empty */
		rbw_unhash(w);
		return w;
	}
	if (rbw_same(w, n)) {
		rbw_last_same = true;
		return w;	/* nothing moved: the marks hold as they are */
	}
	if (inserted && rbw_plus_leaf(w, n, inserted))
		return w;
	for (int i = 0; i < w->n; i++)
		w->snap[i].kept = false;
	for (int j = 0; j < n; j++) {
		int i = rbw_find(w, rbw_next[j].node);

		rbw_was[j] = i;
		if (i >= 0)
			w->snap[i].kept = true;
	}
	/* Gone since the last look with two children: a successor took its place. */
	for (int i = 0; i < w->n; i++) {
		const struct rbw_node *o = &w->snap[i];

		if (o->left >= 0 && o->right >= 0 && (!o->kept || o->node == inserted))
			rbw_mark_subtree(w, o->right);
	}
	for (int j = 0; j < n; j++)
		rbw_next[j].marked = rbw_was[j] >= 0 && w->snap[rbw_was[j]].marked;
	rbw_unhash(w);
	memcpy(w->snap, rbw_next, n * sizeof(rbw_next[0]));
	w->n = n;
	rbw_hash(w);
	return w;
}

struct ft_rbwatch *ft_rbwatch_sync(struct rb_root *root)
{
	return rbw_sync(root, NULL);
}

/* A watched tree's snapshot, followed and holding @nodes nodes. */
static struct ft_rbwatch *rbw_holding(struct rb_root *root, int nodes)
{
	int t;

	if (rbw_blind || nodes <= 0 || (t = rbw_index(root)) < 0)
		return NULL;
	return !rbw_trees[t].overflow && rbw_trees[t].n == nodes ? &rbw_trees[t] : NULL;
}

/*
 * The check's look at a tree it has counted @nodes in: with as many nodes
 * as the last look saw, none was erased unseen, so nothing moved.
 */
struct ft_rbwatch *ft_rbwatch_look(struct rb_root *root, int nodes)
{
	struct ft_rbwatch *kept = rbw_holding(root, nodes), *w;

	if (kept && !ft_m.checks_full)
		return kept;
	w = rbw_sync(root, NULL);
	if (kept && !rbw_last_same)
		ft_fault_here("incremental checker", NULL,
			      "a tree of %d nodes changed with no look and no node fewer", nodes);
	return w;
}

/* Whether @node's min_slice may be stale by itself (not counting its subtree). */
bool ft_rbwatch_marked(const struct ft_rbwatch *w, struct rb_node *node)
{
	int i;

	if (!w || w->overflow)
		return true;
	i = rbw_find(w, node);
	return i < 0 || w->snap[i].marked;
}

/*
 * The same, for the @i-th node in preorder of a tree that a look has just
 * seen: read from the snapshot without a search when it is there.
 */
bool ft_rbwatch_marked_at(const struct ft_rbwatch *w, struct rb_node *node, int i)
{
	if (w && !w->overflow && i < w->n && w->snap[i].node == node)
		return w->snap[i].marked;
	return ft_rbwatch_marked(w, node);
}

static void rbw_rotate(struct rb_node *old, struct rb_node *new)
{
	int i;

	rbw_rotate_fn(old, new);
	rbw_rotations++;
	if (rbw_rotating && (i = rbw_find(rbw_rotating, new)) >= 0)
		rbw_rotating->snap[i].marked = true;
}

static void rbw_rebalance(struct rb_node *node, struct rb_root *root, bool insert,
			  void (*rotate)(struct rb_node *old, struct rb_node *new))
{
	unsigned long rotations = rbw_rotations;
	struct ft_rbwatch *w;
	int i;

	if (ft_m.checks_off) {
		rbw_blind = true;
		if (insert)
			__real___rb_insert_augmented(node, root, rotate);
		else
			__real___rb_erase_color(node, root, rotate);
		return;
	}
	w = rbw_sync(root, insert ? node : NULL);
	if (insert && w && (i = rbw_find(w, node)) >= 0)
		w->snap[i].marked = false;	/* inserted: min_slice is its own slice */
	rbw_rotate_fn = rotate;
	rbw_rotating = w && !w->overflow ? w : NULL;
	if (insert)
		__real___rb_insert_augmented(node, root, rbw_rotate);
	else
		__real___rb_erase_color(node, root, rbw_rotate);
	rbw_rotating = NULL;
	if (rbw_rotations != rotations)
		ft_rbwatch_sync(root);
	else if (ft_m.checks_full && (ft_rbwatch_sync(root), !rbw_last_same) && w && !w->overflow)
		ft_fault_here("incremental checker", NULL, "a rebalance with no rotation moved a node");
}

void __wrap___rb_insert_augmented(struct rb_node *node, struct rb_root *root,
				  void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	rbw_rebalance(node, root, true, augment_rotate);
}

void __wrap___rb_erase_color(struct rb_node *parent, struct rb_root *root,
			     void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	rbw_rebalance(parent, root, false, augment_rotate);
}

#else	/* the callbacks carry min_slice: nothing to watch */

void ft_rbwatch_reset(void)
{
}

void __wrap___rb_insert_augmented(struct rb_node *node, struct rb_root *root,
				  void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	__real___rb_insert_augmented(node, root, augment_rotate);
}

void __wrap___rb_erase_color(struct rb_node *parent, struct rb_root *root,
			     void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	__real___rb_erase_color(parent, root, augment_rotate);
}

#endif

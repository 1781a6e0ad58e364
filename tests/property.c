// SPDX-License-Identifier: GPL-2.0
/*
 * Property runs: seeded random sequences of bridge operations (fork,
 * sleep, wake, tick, run, nice, custom slice, group create and move,
 * yield, migrate, exit) over random machine and queue shapes (1-4 CPUs,
 * 1-64 tasks, weights nice -20..19, slices 0.1-100 ms, nested groups),
 * with the invariant checker watching every rq unlock; and the same, plus
 * affinity changes and wake-ups by a waker (sync or not), on the named
 * topologies with real sched domains, where balancing and wake-up
 * placement move tasks and the stopper preempts. Sequences run in
 * child processes, so a crash is a result, not the end of the run. A
 * failing sequence is shrunk to the shortest one that still fails the same
 * way, printed op by op, with the seed that replays it: sequence seeds are
 * the run's --seed and up, so `--seed S` runs the failing one first.
 * FAIRTEST_SEQUENCES=n runs n sequences in each case instead: a campaign's
 * shard (make campaign), or one machine's whole range.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"

#define SEQUENCES	400
#define MAX_OPS		240

enum op_kind {
	OP_FORK, OP_SLEEP, OP_WAKE, OP_TICK, OP_RUN, OP_NICE, OP_SLICE,
	OP_GROUP_CREATE, OP_GROUP_MOVE, OP_YIELD, OP_MIGRATE, OP_EXIT,
	OP_AFFINITY, OP_WAKE_BY,	/* only on topologies */
	OP_NR
};

/* Operands are raw random numbers, resolved against the state at run time. */
struct op {
	enum op_kind kind;
	unsigned int a, b;
	unsigned long long c;
};

struct sequence {
	int topo;		/* index of a named topology; -1: CPUs without domains */
	int nr_cpus, max_tasks;
	int n;
	struct op ops[MAX_OPS];
};

/* Outcome of a run: 0 clean, else which op failed and how. */
struct outcome {
	int failed_at;		/* op index, -1 when clean */
	char how[600];		/* the first fault, or the signal */
	unsigned long long checks;	/* invariant checks made */
};

static void generate(unsigned long long seed, bool domains, struct sequence *seq)
{
	unsigned long long rng = seed;
	/* Without domains, the operations (and so every seed's sequence) as before. */
	int kinds = domains ? OP_NR : OP_EXIT + 1;

	seq->topo = -1;
	seq->nr_cpus = 1 + ft_rand(&rng) % 4;
	if (domains) {
		seq->topo = ft_rand(&rng) % ft_topology_count();
		seq->nr_cpus = ft_topology_get(seq->topo)->nr_cpus;
	}
	seq->max_tasks = 1 + ft_rand(&rng) % 64;
	seq->n = MAX_OPS / 2 + ft_rand(&rng) % (MAX_OPS / 2);
	for (int i = 0; i < seq->n; i++) {
		unsigned long long r = ft_rand(&rng);
		/* Forks up front more often, so queues fill before they churn. */
		enum op_kind kind = i < seq->max_tasks / 2 && r % 2 ? OP_FORK : r % 97 % kinds;

		seq->ops[i] = (struct op){ kind, ft_rand(&rng), ft_rand(&rng), ft_rand(&rng) };
	}
}

static int live[64], nr_live, nr_groups;

/* The i-th (mod count) live task, sleeping or not as wanted (-1: any). */
static int pick_task(unsigned int i, int want_sleeping)
{
	struct ft_task_info info;
	int ids[64], n = 0;

	for (int k = 0; k < nr_live; k++)
		if (want_sleeping < 0 ||
		    (!ft_task_info(live[k], &info) && info.sleeping == want_sleeping))
			ids[n++] = live[k];
	return n ? ids[i % n] : 0;
}

static void forget_task(int id)
{
	for (int k = 0; k < nr_live; k++)
		if (live[k] == id)
			live[k] = live[--nr_live];
}

/* Set while replaying the shrunk sequence: each op is logged as resolved. */
static struct kunit *narrate;
#define say(...) do { if (narrate) kunit_info(narrate, __VA_ARGS__); } while (0)

static void apply(const struct sequence *seq, const struct op *op)
{
	int cpu = op->a % seq->nr_cpus;
	struct ft_task_attr attr = FT_TASK_ATTR_DEFAULT;
	int id;

	switch (op->kind) {
	case OP_FORK:
		if (nr_live >= seq->max_tasks)
			break;
		attr.cpu = cpu;
		attr.nice = (int)(op->b % 40) - 20;
		attr.slice_ns = op->c % 4 ? 0 : 100000 + op->c % 100000000;
		attr.group = nr_groups ? (int)(op->b / 40 % (nr_groups + 1)) : 0;
		id = ft_task_fork(&attr);
		say("  fork cpu %d nice %d slice %llu group %d -> task %d", attr.cpu, attr.nice,
		    attr.slice_ns, attr.group, id);
		if (id > 0)
			live[nr_live++] = id;
		break;
	case OP_SLEEP:
		say("  sleep task %d (running on cpu %d)", ft_curr(cpu), cpu);
		if (ft_curr(cpu) > 0)
			ft_task_sleep(ft_curr(cpu));
		break;
	case OP_WAKE:
		id = pick_task(op->b, 1);
		say("  wake task %d", id);
		ft_task_wake(id);
		break;
	case OP_TICK:
		say("  tick cpu %d", cpu);
		ft_tick(cpu);
		break;
	case OP_RUN:
		say("  run %llu ns", op->c % (3 * ft_tick_nsec()));
		ft_run_for(op->c % (3 * ft_tick_nsec()));
		break;
	case OP_NICE:
		id = pick_task(op->b, -1);
		say("  nice task %d to %d", id, (int)(op->c % 40) - 20);
		ft_task_set_nice(id, (int)(op->c % 40) - 20);
		break;
	case OP_SLICE:
		id = pick_task(op->b, -1);
		say("  slice task %d to %llu", id, op->c % 3 ? 50000 + op->c % 120000000 : 0);
		ft_task_set_slice(id, op->c % 3 ? 50000 + op->c % 120000000 : 0);
		break;
	case OP_GROUP_CREATE:
		id = ft_group_create(nr_groups ? (int)(op->b % (nr_groups + 1)) : 0);
		say("  group_create in group %d -> group %d",
		    nr_groups ? (int)(op->b % (nr_groups + 1)) : 0, id);
		if (id > 0)
			nr_groups++;
		break;
	case OP_GROUP_MOVE:
		id = pick_task(op->b, -1);
		say("  move task %d to group %d", id, (int)(op->c % (nr_groups + 1)));
		ft_task_set_group(id, (int)(op->c % (nr_groups + 1)));
		break;
	case OP_YIELD:
		say("  yield task %d (running on cpu %d)", ft_curr(cpu), cpu);
		if (ft_curr(cpu) > 0)
			ft_task_yield(ft_curr(cpu));
		break;
	case OP_MIGRATE:
		id = pick_task(op->b, 0);
		say("  migrate task %d to cpu %d", id, (int)(op->c % seq->nr_cpus));
		ft_task_migrate(id, (int)(op->c % seq->nr_cpus));
		break;
	case OP_EXIT:
		id = pick_task(op->b, -1);
		say("  exit task %d", id);
		if (!ft_task_exit(id))
			forget_task(id);
		break;
	case OP_AFFINITY: {
		ft_u64 all = seq->nr_cpus == 64 ? ~0ULL : (1ULL << seq->nr_cpus) - 1;
		ft_u64 mask = op->c & all ?: 1ULL << (op->c % seq->nr_cpus);

		id = pick_task(op->b, -1);
		say("  affinity of task %d to %#llx", id, mask);
		ft_task_set_affinity(id, mask);
		break;
	}
	case OP_WAKE_BY:
		id = pick_task(op->b, 1);
		say("  task %d (running on cpu %d) wakes task %d%s", ft_curr(cpu), cpu, id,
		    op->c & 1 ? ", sync" : "");
		if (ft_curr(cpu) > 0)
			ft_task_wake_by(id, ft_curr(cpu), op->c & 1);
		break;
	case OP_NR:
		break;
	}
}

/* Runs the sequence in this process; returns the index of the failing op. */
static int run_here(const struct sequence *seq, char *how, size_t size)
{
	nr_groups = nr_live = 0;
	ft_fault_reset();
	if (seq->topo >= 0 ? ft_boot_topology(ft_topology_get(seq->topo)) : ft_boot(seq->nr_cpus))
		return snprintf(how, size, "boot failed"), 0;
	for (int i = 0; i < seq->n; i++) {
		apply(seq, &seq->ops[i]);
		if (ft_fault_count()) {
			ft_fault_describe(ft_fault_get(0), how, size);
			return i;
		}
	}
	return -1;
}

/*
 * Sequences running in a child: a crash or hang becomes an outcome too.
 * One child runs a batch of consecutive seeds, booting a fresh machine for
 * each, and reports one outcome per sequence until the first failure: a
 * process per sequence cost more than the sequence itself on machines
 * where a page fault is dear. ft_boot() forgets the last machine, so an
 * outcome should not depend on the batch it ran in; a failure that does
 * is reported as such (run_sequences()).
 */
struct isolated {
	pid_t pid;
	int fd;
};

static void start_isolated(const struct sequence *given, unsigned long long seed,
			   int count, bool domains, struct isolated *run)
{
	static struct sequence seq;
	int fds[2];

	run->pid = -1;
	run->fd = -1;
	if (pipe(fds))
		return;
	fflush(NULL);
	run->pid = fork();
	if (run->pid == 0) {
		close(fds[0]);
		for (int i = 0; i < count; i++) {
			struct outcome out = { .failed_at = -1 };

			if (given)
				seq = *given;
			else
				generate(seed + i, domains, &seq);
			alarm(20);
			out.failed_at = run_here(&seq, out.how, sizeof(out.how));
			out.checks = ft_invariant_checks();	/* since boot */
			/*
			 * Off while the outcome waits in the pipe: a batch ahead
			 * of the one being read blocks once the pipe is full.
			 */
			alarm(0);
			if (write(fds[1], &out, sizeof(out)) != sizeof(out))
				_exit(3);
			if (out.failed_at >= 0)
				break;
		}
		ft_shutdown();
		_exit(0);
	}
	close(fds[1]);
	run->fd = fds[0];
}

/* The batch's next outcome; n is the sequence's length, for "died". */
static void next_outcome(struct isolated *run, int n, struct outcome *out)
{
	int status;

	*out = (struct outcome){ .failed_at = -1 };
	if (run->pid >= 0 && read(run->fd, out, sizeof(*out)) == sizeof(*out))
		return;
	*out = (struct outcome){ .failed_at = n - 1 };
	if (run->pid > 0 && waitpid(run->pid, &status, 0) == run->pid && WIFSIGNALED(status))
		snprintf(out->how, sizeof(out->how), "crashed with signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(out->how, sizeof(out->how), "%s",
			 run->pid < 0 ? "fork or pipe failed" : "died without a result");
	run->pid = 0;
}

static void finish_isolated(struct isolated *run)
{
	if (run->fd >= 0)
		close(run->fd);
	if (run->pid > 0)
		waitpid(run->pid, NULL, 0);
	*run = (struct isolated){ .pid = 0, .fd = -1 };
}

static void run_isolated(const struct sequence *seq, struct outcome *out)
{
	struct isolated run;

	start_isolated(seq, 0, 1, false, &run);
	next_outcome(&run, seq->n, out);
	finish_isolated(&run);
}

/*
 * Same failure: the same rule, or WARN at the same file:line, whatever op
 * it followed, so shrinking may drop ops before the one that trips it.
 */
static bool same_failure(const struct outcome *a, const struct outcome *b)
{
	const char *end = strstr(a->how, " after ");
	size_t n = end ? (size_t)(end - a->how) : strcspn(a->how, ":(");

	if (!end && !strncmp(a->how, "WARN at ", 8))	/* up to the line number */
		n = 8 + strcspn(a->how + 8, " ");
	return b->failed_at >= 0 && !strncmp(a->how, b->how, n) &&
	       (b->how[n] == a->how[n]);
}

/*
 * Delta debugging: drop chunks, halving their size, while the same failure
 * remains; repeat until a whole pass drops nothing.
 */
static void shrink(struct sequence *seq, struct outcome *fail)
{
	struct sequence trial;
	struct outcome out;
	bool dropped;

	seq->n = fail->failed_at + 1;
	do {
		dropped = false;
		for (int chunk = seq->n / 2; chunk >= 1; chunk /= 2) {
			for (int start = 0; start + chunk <= seq->n; ) {
				trial = *seq;
				memmove(&trial.ops[start], &trial.ops[start + chunk],
					(trial.n - start - chunk) * sizeof(trial.ops[0]));
				trial.n -= chunk;
				run_isolated(&trial, &out);
				if (!same_failure(fail, &out)) {
					start += chunk;
					continue;
				}
				*seq = trial;
				seq->n = (out.failed_at < trial.n ? out.failed_at : trial.n - 1) + 1;
				*fail = out;
				dropped = true;
			}
		}
	} while (dropped);
}

/* Replays the shrunk sequence once more, logging each op as resolved. */
static void print_sequence(struct kunit *test, const struct sequence *seq)
{
	struct outcome out;

	kunit_info(test, "shrunk to %d ops on %d CPUs%s%s:", seq->n, seq->nr_cpus,
		   seq->topo >= 0 ? ", topology " : "",
		   seq->topo >= 0 ? ft_topology_get(seq->topo)->name : "");
	narrate = test;
	run_isolated(seq, &out);
	narrate = NULL;
}

/*
 * Seeds per child: each child faults its machines' memory in once, so
 * fewer, longer children are cheaper (the whole binary: 0.57 s with 20,
 * 0.46 s with 100, on a 2-core VM); batches still run on every CPU.
 */
#define BATCH	100
#define MAX_AHEAD	64	/* batches running at once, at most */

/* The case's count, or FAIRTEST_SEQUENCES's (a positive decimal). */
static long sequences(struct kunit *test, long count)
{
	const char *env = getenv("FAIRTEST_SEQUENCES");
	char *end;
	long n;

	if (!env || !*env)
		return count;
	n = strtol(env, &end, 10);
	if (*end || n < 1) {
		KUNIT_FAIL(test, "FAIRTEST_SEQUENCES='%s' is not a count >= 1", env);
		return 0;
	}
	return n;
}

static void run_sequences(struct kunit *test, bool domains, long count)
{
	unsigned long long base = kunit_seed();
	static struct sequence seq;
	static struct isolated runs[MAX_AHEAD];	/* batch b in runs[b % ahead] */
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long batches = (count + BATCH - 1) / BATCH;
	long ahead = cpus > 1 ? (cpus < MAX_AHEAD ? cpus : MAX_AHEAD) : 1, started = 0;
	struct outcome out;
	unsigned long long checks = 0;
	long unchecked = -1;	/* the first sequence that passed with no check */
	long ops = 0;

	/* Batches run on every CPU; outcomes are taken in seed order. */
	for (long s = 0; s < count; s++) {
		long b = s / BATCH;

		for (; started < batches && started < b + ahead; started++)
			start_isolated(NULL, base + started * BATCH,
				       started < batches - 1 ? BATCH : count - started * BATCH,
				       domains, &runs[started % ahead]);
		generate(base + s, domains, &seq);
		next_outcome(&runs[b % ahead], seq.n, &out);
		if (s % BATCH == BATCH - 1 || s == count - 1)
			finish_isolated(&runs[b % ahead]);
		ops += out.failed_at < 0 ? seq.n : out.failed_at + 1;
		checks += out.checks;
		if (out.failed_at < 0 && !out.checks && unchecked < 0)
			unchecked = s;	/* its "all held" would be of nothing checked */
		if (out.failed_at < 0)
			continue;
		finish_isolated(&runs[b % ahead]);
		for (long later = b + 1; later < started; later++) {
			if (runs[later % ahead].pid > 0)
				kill(runs[later % ahead].pid, SIGKILL);
			finish_isolated(&runs[later % ahead]);
		}
		kunit_info(test, "sequence seed %llu fails at op %d: %s", base + s,
			   out.failed_at, out.how);
		if (s % BATCH) {	/* not the first of its child: try it alone */
			struct outcome alone;

			run_isolated(&seq, &alone);
			if (!same_failure(&out, &alone)) {
				KUNIT_FAIL(test, "%s, but not alone: state outlived ft_boot() from seeds %llu.. in the same process; replay: fairtest --seed %llu 'fair_property.*'",
					   out.how, base + s - s % BATCH, base + s - s % BATCH);
				return;
			}
		}
		shrink(&seq, &out);
		print_sequence(test, &seq);
		KUNIT_FAIL(test, "%s; replay: fairtest --seed %llu 'fair_property.*'",
			   out.how, base + s);
		return;
	}
	KUNIT_EXPECT_LT_MSG(test, unchecked, 0, "no invariant check ran in sequence seed %llu",
			    base + unchecked);
	KUNIT_EXPECT_GT(test, checks, 0);
	if (checks && unchecked < 0)
		kunit_info(test, "%ld sequences, %ld operations, %llu invariant checks, all held",
			   count, ops, checks);
}

/*
 * 400 random sequences of 120-240 operations, seeds --seed .. --seed+399, on
 * fresh machines of random shape, the invariant checker on. Expect no
 * sequence to break an invariant, WARN, crash or hang; a failing one is
 * shrunk and printed with the seed that replays it.
 */
static void random_operations_keep_invariants(struct kunit *test)
{
	run_sequences(test, false, sequences(test, SEQUENCES));
}

/*
 * 100 random sequences as above, each on a random named topology with
 * its sched domains, with affinity changes and wake-ups by a running
 * waker (sync or not) among the operations. Expect the same: no broken
 * invariant, WARN, lock-order or affinity rule, crash or hang.
 */
static void random_operations_with_domains_keep_invariants(struct kunit *test)
{
	run_sequences(test, true, sequences(test, SEQUENCES / 4));
}

static struct kunit_case property_cases[] = {
	KUNIT_CASE(random_operations_keep_invariants),
	KUNIT_CASE(random_operations_with_domains_keep_invariants),
	{}
};

static struct kunit_suite property_suite = {
	.name = "fair_property",
	.test_cases = property_cases,
};

kunit_test_suite(property_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * fairtest's window into a real kernel's sched domains, for
 * sched_fair/domains_xcheck.sh (make domains-xcheck). The boot-time dump
 * of sched_verbose shows each domain's level, span and groups, but not
 * its flags or imbalance_pct; this KUnit case prints those, read from the
 * very struct sched_domain the booted kernel balances with. It is never
 * built by fairtest itself: the script copies it into a scratch overlay
 * of the tree (kernel/sched/, for "sched.h") and kunit.py builds that
 * overlay, so the cached tree stays untouched.
 */
#include <kunit/test.h>
#include <linux/mmu_context.h>
#include "sched.h"

/* One line per CPU and level: "cpuN domain-L NAME span=... imbalance_pct=P flags=A,B". */
static void fairtest_domains_dump(struct kunit *test)
{
	struct sched_domain *sd;
	int cpu, levels = 0;

	rcu_read_lock();
	for_each_online_cpu(cpu) {
		int level = 0;

		for_each_domain(cpu, sd) {
			unsigned long flags = sd->flags;
			char names[512];
			unsigned int bit;
			int len = 0;

			names[0] = 0;
			for_each_set_bit(bit, &flags, __SD_FLAG_CNT)
				len += scnprintf(names + len, sizeof(names) - len, "%s%s",
						 len ? "," : "", sd_flag_debug[bit].name);
			kunit_info(test, "fairtest-domain cpu%d domain-%d %s span=%*pbl imbalance_pct=%u flags=%s\n",
				   cpu, level, sd->name, cpumask_pr_args(sched_domain_span(sd)),
				   sd->imbalance_pct, names);
			level++;
		}
		levels += level;
	}
	rcu_read_unlock();
	/* A machine of more than one CPU has domains; one CPU has none. */
	KUNIT_EXPECT_EQ(test, levels > 0, num_online_cpus() > 1);
}

static struct kunit_case fairtest_domains_cases[] = {
	KUNIT_CASE(fairtest_domains_dump),
	{}
};

static struct kunit_suite fairtest_domains_suite = {
	.name = "fairtest_domains",
	.test_cases = fairtest_domains_cases,
};

kunit_test_suite(fairtest_domains_suite);

MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour that only some trees have: the slice-protection limit vprot,
 * its cut on enqueue, sleeper lag decay, zero lag on idle wake-up. What
 * the tree has was found at build time by sched_fair/probe.sh (compile
 * probes on its types and symbols, never its version); tests ask here and
 * run, or skip with the reason, so one binary source serves every tree.
 */
#include "driver.h"

struct ft_feature_probe {
	const char *name;
	bool present;
	const char *absent;	/* the skip reason */
};

static const struct ft_feature_probe probes[] = {
	{ "vprot",
#ifdef FT_HAVE_VPROT
	  true,
#else
	  false,
#endif
	  "tree has no slice-protection limit (no member vprot in struct sched_entity)" },
	{ "protect_update",
#ifdef FT_HAVE_PROTECT_UPDATE
	  true,
#else
	  false,
#endif
	  "tree does not cut curr's protection on enqueue (no update_protect_slice() in fair.c)" },
	{ "sleep_lag_decay",
#ifdef FT_HAVE_SLEEP_LAG_DECAY
	  true,
#else
	  false,
#endif
	  "tree has no sleeper lag decay (no SLEEP_LAG_DECAY sched feature)" },
	{ "wake_idle_zero_lag",
#ifdef FT_HAVE_WAKE_IDLE_ZERO_LAG
	  true,
#else
	  false,
#endif
	  "tree keeps lag on idle wake-up (no WAKE_IDLE_ZERO_LAG sched feature)" },
	{ "protect_ineligible",
#ifdef FT_HAVE_PROTECT_INELIGIBLE
	  true,
#else
	  false,
#endif
	  "tree does not bound protection by the ineligible point (no ineligible_vruntime() in fair.c)" },
	{ "flat_pick",
#ifdef FT_FLAT_PICK
	  true,
#else
	  false,
#endif
	  "tree picks through the group hierarchy (group entities wait in their parent's tree)" },
	{ "min_quantum",
#ifdef FT_HAVE_MIN_QUANTUM
	  true,
#else
	  false,
#endif
	  "tree gives curr no protection without RUN_TO_PARITY (no minimum quantum in set_protect_slice())" },
	{ "group_pointer_arrays",
#ifndef FT_TG_CFS_RQ_PERCPU
	  true,
#else
	  false,
#endif
	  "tree keeps a group's queues in one per-CPU block (tg_cfs_rq()), not pointer arrays" },
	{ "queue_lag_clamp",
#ifdef FT_LAG_CLAMP_MAX_SLICE
	  true,
#else
	  false,
#endif
	  "tree clamps lag by the entity's own slice, not the queue's largest (cfs_rq_max_slice())" },
	{ "resched_lazy",
#ifdef FT_HAVE_RESCHED_LAZY
	  true,
#else
	  false,
#endif
	  "tree has no lazy preemption: a wake-up preemption is an ordinary resched_curr()" },
	{ "nohz_idle",
#ifdef CONFIG_NO_HZ_COMMON	/* NO_HZ_IDLE, or NO_HZ_FULL (idle CPUs stop their tick too) */
	  true,
#else
	  false,
#endif
	  "every CPU ticks in this profile (PROFILE=nohz and PROFILE=debian stop idle ticks)" },
	{ "energy_model",
#if defined(CONFIG_ENERGY_MODEL) && defined(CONFIG_CPU_FREQ_GOV_SCHEDUTIL)
	  true,
#else
	  false,
#endif
	  "profile has no CONFIG_ENERGY_MODEL with schedutil: EAS is not compiled (PROFILE=debian has it)" },
	{ "autogroup",
#ifdef CONFIG_SCHED_AUTOGROUP
	  true,
#else
	  false,
#endif
	  "profile has no CONFIG_SCHED_AUTOGROUP (PROFILE=debian has it)" },
};

const char *ft_tree_lacks(const char *feature)
{
	for (int i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(probes[i].name, feature))
			return probes[i].present ? NULL : probes[i].absent;
	return "fairtest has no probe of that name (see shim/driver/features.c)";
}

int ft_task_vprot(int id, s64 *vprot)
{
	struct task_struct *p = ft_task_of(id);

	if (!p)
		return -ESRCH;
#ifdef FT_HAVE_VPROT
	*vprot = (s64)p->se.vprot;
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

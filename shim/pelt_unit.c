// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's kernel/sched/pelt.c, unmodified, in the surroundings it gets
 * in the kernel (build_policy.c includes it after sched.h and pelt.h), so
 * load tracking is the real code rather than a fake.
 */
#include "ksched.h"
#include "pelt.c"

// SPDX-License-Identifier: GPL-2.0
/*
 * The one translation unit that holds fair.c: the tree's
 * kernel/sched/fair.c, included unmodified (the tools/testing/vma way), so
 * white-box tests can reach its static functions through the thin
 * wrappers below. Only this file sees fair.c's statics; everything else
 * goes through fair_sched_class, the driver and shim/fairtest.h.
 */
#include "fair.c"	/* kernel/sched/fair.c of the tree under test */
#include "fairtest.h"

/* SPDX-License-Identifier: GPL-2.0 */
/* The process's writable memory, saved once and put back (snapshot.c). */
#ifndef FAIRTEST_SNAPSHOT_H
#define FAIRTEST_SNAPSHOT_H

#include <stdbool.h>

int snapshot_take(void);	/* 0, or -1 if this process cannot be saved */
/* false if this process cannot be put back: then it must end */
bool snapshot_restore(void);

#endif

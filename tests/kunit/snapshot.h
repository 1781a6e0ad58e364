/* SPDX-License-Identifier: GPL-2.0 */
/* The process's writable memory, saved once and put back (snapshot.c). */
#ifndef FAIRTEST_SNAPSHOT_H
#define FAIRTEST_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

int snapshot_take(void);	/* 0, or -1 if this process cannot be saved */
/* false if this process cannot be put back: then it must end */
bool snapshot_restore(void);
/*
 * @span gives, when the snapshot is taken, a part of a mapping to leave
 * alone: memory whose owner keeps its bookkeeping in saved memory, so a
 * restore forgets whatever a case put there (the slab arena's unused part).
 */
void snapshot_leave(void (*span)(char **start, size_t *len));

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * fairsim's pipe, kept the way fs/pipe.c keeps an anonymous pipe: a ring of
 * pipe->max_usage pages (PIPE_DEF_BUFFERS, 16, by default), the messages in
 * them. A write that finds the pipe not empty merges into the newest page
 * if the message fits there (pipe_write()'s PIPE_BUF_FLAG_CAN_MERGE path);
 * otherwise it takes a page of its own, and blocks when the ring is full.
 * A writer woken from that wait goes on in pipe_write()'s loop, which
 * never merges: its message starts a page. A read takes one message from
 * the oldest page and frees that page when it is empty, so the room left
 * behind by read messages comes back a page at a time. With 1000-byte
 * messages a page holds 4 and a pipe 64 before a writer blocks, not
 * 64 KiB / 1000 = 65; with hackbench's default 100 bytes, 640. The file
 * gives the messages a page holds (global.pipe_page_messages) and the
 * pipe's (global.pipe_capacity): the pages are the one over the other.
 * Who wakes whom stays in the engine (sim/engine.c, pipe_io()); which
 * reads wake a writer is the tree's (sim_pipe_read_wakes_writer()).
 * A message's way in and out (sim_pipe_put(), sim_pipe_take()), the
 * room left (sim_pipe_room()) and whether a write fits (sim_pipe_full(),
 * sim_pipe_writable()) are inline in sim.h: plan.c's catch-ups and plans
 * take and check most of them, engine.c's pipe_io() the rest. The
 * pipe's mutex is below.
 */
#include <stdlib.h>
#include <string.h>
#include "sim.h"

/* The ring of pages in use grows in place, oldest first (sim_pipe_put()). */
void sim_pipe_grow(struct sim_pipe *p)
{
	/* a power of 2: the ring's index is a mask, not a division */
	int cap = p->cap ? 2 * p->cap : 16, *u = malloc(cap * sizeof(*u));

	if (!u)
		abort();
	for (int i = 0; i < p->n; i++)
		u[i] = p->unread[(p->first + i) % p->cap];
	free(p->unread);
	p->unread = u;
	p->cap = cap;
	p->first = 0;
}

/*
 * pipe_read()'s wake-up of a waiting writer. 6.12 wakes one whenever the
 * pipe was full when the read began (was_full), even if the read freed no
 * page: the writer finds the pipe still full and sleeps again, at the back
 * of the queue. 7.2 and 7.3 wake one only when the read freed a page of a
 * full pipe (wake_writer). Decided at build time from the tree's
 * fs/pipe.c (sched_fair/build.mk).
 */
bool sim_pipe_read_wakes_writer(bool was_full, bool freed)
{
#ifdef SIM_PIPE_WAKE_ON_FREE
	return was_full && freed;
#else
	(void)freed;
	return was_full;
#endif
}

/*
 * pipe->mutex, which pipe_write() and pipe_read() hold while they look at
 * and copy into or out of the pages (__pipe_lock()), when the workload
 * gives the time that takes (sim/engine.c). kernel/locking/mutex.c's rules:
 * a free mutex goes to whoever asks first, a sleeping waiter included; a
 * waiter stays queued, in arrival order, until it holds the mutex, and an
 * unlock wakes the first one (the engine keeps the queue). The first
 * waiter that finds it taken again once woken (@first_waiter) asks for it
 * (MUTEX_FLAG_HANDOFF): the next unlock hands it over, and nobody else
 * takes it meanwhile. @who is the task's index.
 */
bool sim_pipe_lock(struct sim_pipe *p, int who, bool first_waiter)
{
	if (!p->owner || p->owner == who + 1) {
		p->owner = who + 1;
		return true;
	}
	if (first_waiter)
		p->handoff = true;
	return false;
}

/* @first_waiter: the first queued task's index, -1 none (it is woken). */
void sim_pipe_unlock(struct sim_pipe *p, int first_waiter)
{
	p->owner = p->handoff && first_waiter >= 0 ? first_waiter + 1 : 0;
	p->handoff = false;
}

void sim_pipe_free(struct sim_pipe *p)
{
	free(p->unread);
	memset(p, 0, sizeof(*p));
}

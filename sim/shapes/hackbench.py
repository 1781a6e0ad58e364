#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
hackbench's shape as a fairsim workload, with hackbench's own parameter
names: GROUPS groups of FDS senders and FDS receivers; each receiver owns
a pipe, each sender writes LOOPS messages of DATASIZE bytes to every
receiver of its group, and a receiver reads FDS x LOOPS messages. A pipe
is the kernel's: 16 pages of 4 KiB, each holding 4096 / DATASIZE whole
messages (4 of 1000 bytes: 64 in all, not 64 KiB / 1000 = 65); writers
block when it is full, readers when it is empty (fairsim's
pipe_write/pipe_read, sim/pipe.c). Threads and processes
are the same here (no address spaces), and so are pipes and sockets. Each
write costs COST_US of CPU and each read READ_COST_US (COST_US unless
given; a fraction is kept on average over the FDS writes or reads of a
loop), model parameters, not measurements. On the real kernel a write
costs more than a read: the writer's write() wakes the reader of a pipe
it found empty (try_to_wake_up() runs on the writer's CPU time) and takes
a fresh page for every fourth 1000-byte message; which side is the slower
decides whether the pipes run empty (receivers woken per message, with
their lag, preempting the senders) or full (senders blocked), so
twin/fidelity.sh gives the two costs the real boots measured
(twin/hackbench_cost.py). --batch B moves B messages per pipe operation (B x COST_US,
a page of 4096 / DATASIZE / B operations, LOOPS / B of them): the
same bytes with B times fewer wake-ups, which is what makes a long run of
it affordable; say which B a figure used. --pipe-lock W:R runs those shares
of each write's and read's cost under the pipe's own mutex, inside the
kernel (global.pipe_write_locked_ns, pipe_read_locked_ns: sim/pipe.c), as
pipe_write() and pipe_read() copy under pipe->mutex; the rest is the run
after the operation. Where the holder can be preempted is the tree's
preemption model's (shim/driver/preempt.c). twin/pipe_mutex.py measures the
shares in a real boot. With --forever the groups start
over for the whole run (a background load); --cyclictest adds the
periodic waker beside them.
Prints the workload (plain JSON) on stdout.
"""
import argparse
import json
import sys


def spread(us, n):
    """n whole-us costs (fairsim and rt-app take whole us) that add up to
    n x us rounded: a fractional cost kept on average over a loop."""
    total = round(us * n)
    return [(i + 1) * total // n - i * total // n for i in range(n)]


def pipe_size(datasize, batch, pages=16, page=4096):
    """fairsim's pipe_capacity and pipe_page_messages, in operations of
    BATCH messages: the kernel's PIPE_DEF_BUFFERS pages, a message never
    split between two (pipe_write() merges one into the newest page only
    if it fits). Where an operation outgrows a page, whole pages a piece."""
    per_page = page // datasize // batch
    if per_page:
        return {'pipe_capacity': pages * per_page, 'pipe_page_messages': per_page}
    # messages the pages hold; one over a page takes ceil(DATASIZE / 4096)
    msgs = pages * (page // datasize) if datasize <= page else pages // -(-datasize // page)
    return {'pipe_capacity': max(1, msgs // batch), 'pipe_page_messages': 1}


def op(ph, i, kind, pipe, cost, locked):
    """One write or read (KIND) of PIPE into phase PH, then the run of COST
    us; a run of 0 (all of it under the mutex) is left out."""
    ph['%s%d' % (kind, i)] = pipe
    if cost or not locked:
        ph['run%d' % i] = cost


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument('-g', '--groups', type=int, default=10)
    ap.add_argument('-f', '--fds', type=int, default=20)
    ap.add_argument('-l', '--loops', type=int, default=100)
    ap.add_argument('-s', '--datasize', type=int, default=100)
    ap.add_argument('-T', '--threads', action='store_true', help='same as processes here')
    ap.add_argument('-P', '--process', action='store_true', help='the default')
    ap.add_argument('-p', '--pipe', action='store_true', help='the only transport modelled')
    ap.add_argument('--cost-us', type=float, default=2, help='CPU per write (and per read)')
    ap.add_argument('--read-cost-us', type=float, help='CPU per read (default: --cost-us)')
    ap.add_argument('--batch', type=int, default=1, help='messages per pipe operation')
    ap.add_argument('--slice-us', type=int, default=0, help='custom slice of every task')
    ap.add_argument('--forever', action='store_true', help='loop for the whole run')
    ap.add_argument('--duration', type=int, default=-1, help='seconds (-1: until done)')
    ap.add_argument('--pipe-lock', default='0', metavar='W[:R]',
                    help='shares of each write (and read: R, default W) under the pipe\'s mutex')
    ap.add_argument('--cyclictest', metavar='PERIOD_US:SLICE_US',
                    help='add a periodic waker (run 10 us per period; slice 0: the default)')
    a = ap.parse_args()
    if a.read_cost_us is None:
        a.read_cost_us = a.cost_us
    for name in ('groups', 'fds', 'loops', 'datasize', 'cost_us', 'read_cost_us', 'batch'):
        if getattr(a, name) <= 0:
            sys.exit('hackbench.py: --%s must be > 0' % name.replace('_', '-'))
    if a.groups * a.fds * 2 > 1000:
        sys.exit('hackbench.py: %d tasks; fairsim runs at most 1000' % (a.groups * a.fds * 2))
    try:
        lock_w, lock_r = (float(x) for x in (a.pipe_lock + ':' + a.pipe_lock).split(':')[:2])
    except ValueError:
        lock_w = lock_r = -1
    if not (0 <= lock_w <= 1 and 0 <= lock_r <= 1) or a.pipe_lock.count(':') > 1:
        sys.exit('hackbench.py: --pipe-lock takes W or W:R, shares from 0 to 1')
    if a.loops % a.batch:
        sys.exit('hackbench.py: --loops must be a multiple of --batch')
    if a.duration < 0 and a.forever:
        sys.exit('hackbench.py: --forever needs --duration')

    # the time under the mutex, in ns: whole us would round a 3.7 us share away
    locked = (round(a.cost_us * a.batch * lock_w * 1000),
              round(a.read_cost_us * a.batch * lock_r * 1000))
    tasks = {}
    if a.cyclictest:
        period, slc = (int(x) for x in a.cyclictest.split(':'))
        tasks['cyclictest'] = {'run': 10, 'timer': {'ref': 'unique', 'period': period}}
        if slc:  # 0: the default slice
            tasks['cyclictest'] = dict({'dl-runtime': slc}, **tasks['cyclictest'])
    for g in range(a.groups):
        send = {'instance': a.fds, 'loop': -1 if a.forever else 1}
        if a.slice_us:
            send['dl-runtime'] = a.slice_us
        phase = {'loop': a.loops // a.batch}
        for r, cost in enumerate(spread(a.cost_us * a.batch - locked[0] / 1000, a.fds)):
            op(phase, r, 'pipe_write', 'g%d-r%d' % (g, r), cost, locked[0])
        send['phases'] = {'send': phase}
        tasks['sender-g%d' % g] = send
        for r in range(a.fds):
            recv = {'loop': -1 if a.forever else 1}
            if a.slice_us:
                recv['dl-runtime'] = a.slice_us
            rd = a.read_cost_us * a.batch - locked[1] / 1000
            if rd == int(rd) and not locked[1]:
                recv['phases'] = {'recv': {'loop': a.fds * a.loops // a.batch,
                                           'pipe_read': 'g%d-r%d' % (g, r),
                                           'run': int(rd)}}
            else:   # a loop of FDS reads, their costs spread
                ph = {'loop': a.loops // a.batch}
                for i, cost in enumerate(spread(rd, a.fds)):
                    op(ph, i, 'pipe_read', 'g%d-r%d' % (g, r), cost, locked[1])
                recv['phases'] = {'recv': ph}
            tasks['receiver-g%d-%d' % (g, r)] = recv
    wl = {'global': dict({'duration': a.duration}, **pipe_size(a.datasize, a.batch)),
          'tasks': tasks}
    if any(locked):
        wl['global'].update(pipe_write_locked_ns=locked[0], pipe_read_locked_ns=locked[1])
    json.dump(wl, sys.stdout, indent='\t')
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()

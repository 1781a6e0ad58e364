#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
schbench's shape as a fairsim workload, with schbench's parameter names:
MESSAGE_THREADS message threads, each waking its THREADS worker threads
every SLEEPTIME us (a broadcast on its own condition), each worker then
thinking for CPUTIME us of CPU before it waits for the next message.
fairsim reports the workers' wake-up latencies and their request
latencies (wake-up to the end of the think time) in schbench's
percentile blocks. A worker still busy when its message comes misses it,
as a condition wait does. The defaults here are ours, not schbench's.
With --mutex each condition has a mutex, as rt-app 1.0 needs (its wait is
pthread_cond_wait() on that mutex; without one it never returns): a worker
locks, waits, unlocks, then thinks; a message thread locks, broadcasts,
unlocks. fairsim then runs what rt-app 1.0 runs (make twin).
Prints the workload (plain JSON) on stdout.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument('-m', '--message-threads', type=int, default=2)
    ap.add_argument('-t', '--threads', type=int, default=8, help='workers per message thread')
    ap.add_argument('-r', '--runtime', type=int, default=30, help='seconds')
    ap.add_argument('-s', '--sleeptime', type=int, default=2000, help='us between messages')
    ap.add_argument('-c', '--cputime', type=int, default=500, help='us of think time')
    ap.add_argument('--slice-us', type=int, default=0, help='custom slice of every task')
    ap.add_argument('--mutex', action='store_true',
                    help='wait and broadcast under a mutex (rt-app 1.0 runs only this)')
    a = ap.parse_args()
    for name in ('message_threads', 'threads', 'runtime', 'sleeptime', 'cputime'):
        if getattr(a, name) <= 0:
            sys.exit('schbench.py: --%s must be > 0' % name.replace('_', '-'))
    if a.message_threads * (a.threads + 1) > 1000:
        sys.exit('schbench.py: %d tasks; fairsim runs at most 1000'
                 % (a.message_threads * (a.threads + 1)))
    tasks = {}
    for m in range(a.message_threads):
        if a.mutex:
            mx = 'mx%d' % m
            msg = {'sleep': a.sleeptime, 'lock': mx, 'broad': 'm%d' % m, 'unlock': mx}
            work = {'instance': a.threads, 'lock': mx, 'wait': {'ref': 'm%d' % m, 'mutex': mx},
                    'unlock': mx, 'run': a.cputime}
        else:
            msg = {'sleep': a.sleeptime, 'broad': 'm%d' % m}
            work = {'instance': a.threads, 'wait': {'ref': 'm%d' % m}, 'run': a.cputime}
        if a.slice_us:
            msg['dl-runtime'] = work['dl-runtime'] = a.slice_us
        tasks['message-%d' % m] = msg
        tasks['worker-%d' % m] = work
    json.dump({'global': {'duration': a.runtime}, 'tasks': tasks}, sys.stdout, indent='\t')
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()

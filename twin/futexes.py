#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The futex calls of a boot recorded with FAIRTEST_TWIN_EVENTS=
# twin/events/futex.events: per futex word (its user address), who slept
# on it (futex_wait, counted by task and the value it expected) and who
# woke it (futex_wake, by task and how many it asked to wake), with the
# tasks those calls woke (futex_wake's result). glibc's words show by
# their use: a mutex's sleepers expect 2 and its unlocks wake 1; a
# condition's waiters sleep on its signals word, woken all at once
# (2147483647) by a broadcast; a broadcaster waiting for a group's
# waiters to leave sleeps on that group's references word, odd values.
# fairsim writes the same lines with FAIRSIM_FUTEX=1 (sim/engine.c).
# docs/fidelity-sync.md uses it for schbench-mutex.
#
# usage: twin/futexes.py TRACE   (a boot's real-N/trace, or fairsim's)
import collections
import re
import sys

if len(sys.argv) != 2:
    sys.exit("usage: twin/futexes.py TRACE")
call_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\].*?\s(fwait|fwake): .* ua=(\S+) (?:val|nr)=(\S+)')
ret_re = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\].*?\sfwaker: .* ret=(\S+)')
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError as e:
    sys.exit("fairtest: futexes.py: %s: %s" % (sys.argv[1], e.strerror))
waits = collections.defaultdict(collections.Counter)
wakes = collections.defaultdict(collections.Counter)
woken = collections.Counter()
pending = {}
for line in lines:
    m = call_re.match(line)
    if m:
        comm, pid, kind, ua, arg = m.groups()
        comm = re.sub(r'(-\d+)+$', '', comm)
        (waits if kind == 'fwait' else wakes)[ua][(comm, arg)] += 1
        if kind == 'fwake':
            pending[pid] = ua
        continue
    m = ret_re.match(line)
    if m and m.group(2) in pending:
        ret = int(m.group(3), 0)
        woken[pending.pop(m.group(2))] += max(ret, 0)
if not waits and not wakes:
    sys.exit("fairtest: futexes.py: %s: no fwait/fwake events (boot with "
             "FAIRTEST_TWIN_EVENTS=twin/events/futex.events)" % sys.argv[1])


def tally(c, what):
    by = collections.Counter()
    vals = collections.defaultdict(set)
    for (comm, arg), n in c.items():
        by[comm] += n
        vals[comm].add(arg)
    return ', '.join('%s %d (%s %s)' % (comm, n, what, '/'.join(sorted(vals[comm], key=int)[:4]) +
                                      ('/...' if len(vals[comm]) > 4 else ''))
                     for comm, n in by.most_common())


print('%-16s %s' % ('futex word', 'sleeps | wake calls | tasks woken'))
for ua in sorted(set(waits) | set(wakes)):
    print('%-16s %s | %s | %d' % (ua, tally(waits[ua], 'val') or '-',
                                  tally(wakes[ua], 'nr') or '-', woken[ua]))

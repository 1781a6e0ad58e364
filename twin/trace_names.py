# SPDX-License-Identifier: GPL-2.0
#
# What the twin's trace scripts (bursts.py, tick_runs.py, maxima.py, ...)
# share: the lines of a trace inside its marked window, which comm is a
# workload's task, which of hackbench's threads receive and which send (and
# the --fds N that says), and a quantile by rank. A task with several
# instances shows in a trace as name-N, so a comm is the task's when it is
# the name or the name and a number; the quantile is the value at
# int(n * f) of the values sorted (not fairsim's nearest rank, sim/stats.c:
# the scripts kept theirs, and their outputs stay as they were).

import re
import sys


def marked_window(lines):
    """(start, end) of a real trace's window, in the trace's own clock: the
    timestamps of its "fairtest_twin: window_start" and "window_end" marks
    (twin/init.sh; the window_* files beside it hold /proc/uptime, which
    under TCG runs a quarter of a second ahead of the trace's clock); None
    for a trace without them (fairsim's), an end past every line without
    its end mark."""
    start = end = None
    for line in lines:
        if 'fairtest_twin: window_' in line:
            ts = float(line.split(': tracing_mark_write')[0].split()[-1])
            if line.rstrip().endswith('window_start'):
                start = ts
            elif line.rstrip().endswith('window_end'):
                end = ts
    return None if start is None else (start, float('inf') if end is None else end)


def window_matches(path, line_re, script, duration=None):
    """The matches of line_re (its fifth group a line's timestamp) on the
    lines of the trace at path inside its window: from its window_start
    mark (0 in a trace without marks) for duration seconds, or, with no
    duration, to its window_end mark. An unreadable trace exits with one
    line naming script and path."""
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        sys.exit("fairtest: %s: %s: %s" % (script, path, e.strerror))
    win = marked_window(lines)
    start = win[0] if win else 0.0
    end = start + duration if duration is not None else (win[1] if win else float('inf'))
    for line in lines:
        m = line_re.match(line)
        if m and start <= float(m.group(5)) <= end:
            yield m


def named(comm, name):
    return comm == name or re.fullmatch(re.escape(name) + r'-\d+', comm) is not None


def quantile(xs, f):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * f))]


_switch_re = re.compile(r'sched_switch: prev_comm=(\S+) prev_pid=(\d+) ')


def hackbench_sides(path, fds):
    """pid -> 'receiver' or 'sender' for hackbench's threads in a trace.
    A real trace's are all "hackbench": hackbench creates each group's FDS
    receivers, then its FDS senders, so in pid order each 2 x FDS threads
    are FDS receivers, then FDS senders. fairsim's are named for their
    side (sender-g0-N, receiver-g0-N)."""
    names = {}
    for line in open(path):
        m = _switch_re.search(line)
        if m and (m.group(1) == 'hackbench' or m.group(1).startswith(('sender', 'receiver'))):
            names[int(m.group(2))] = m.group(1)
    side = {}
    real = sorted(p for p, n in names.items() if n == 'hackbench')
    for i, pid in enumerate(real):
        side[pid] = 'receiver' if i % (2 * fds) < fds else 'sender'
    for pid, n in names.items():
        if n != 'hackbench':
            side[pid] = 'sender' if n.startswith('sender') else 'receiver'
    return side


def fds_option(args, usage):
    """(N, the rest) of a leading `--fds N` (hackbench's -f, 20 unless
    given); the usage line and exit 1 for a bad N or no trace after it"""
    fds = 20
    if args[:1] == ['--fds']:
        if len(args) < 2 or not args[1].isdigit() or int(args[1]) < 1:
            sys.exit(usage)
        fds, args = int(args[1]), args[2:]
    if not args:
        sys.exit(usage)
    return fds, args

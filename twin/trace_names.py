# SPDX-License-Identifier: GPL-2.0
#
# What the twin's trace scripts (bursts.py, tick_runs.py, maxima.py, ...)
# share: which comm is a workload's task, and a quantile by rank. A task
# with several instances shows in a trace as name-N, so a comm is the task's
# when it is the name or the name and a number; the quantile is the value
# at int(n * f) of the values sorted (not fairsim's nearest rank, sim/stats.c:
# the scripts kept theirs, and their outputs stay as they were).

import re


def named(comm, name):
    return comm == name or re.fullmatch(re.escape(name) + r'-\d+', comm) is not None


def quantile(xs, f):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * f))]

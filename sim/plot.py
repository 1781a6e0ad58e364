#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
Plots of a fairsim run with Debian's gnuplot, as SVG: the wake-up latency
distribution of each task definition (the fraction of wake-ups that waited
longer than x, log scale, so the tail the seeds' tables quote is visible),
base and patched on one chart when given two result files; and a per-CPU
timeline of the first milliseconds of a trace (which task ran where).
Writes NAME.dat, NAME.gp and NAME.svg per plot into OUTDIR, so a plot can
be restyled by editing its .gp and running gnuplot again.
"""
import argparse
import json
import os
import re
import subprocess
import sys


def cdf_plot(out, results):
    defs = []
    for label, res in results:
        for name, d in res['by_task'].items():
            if d.get('wakeup_latency_cdf_ns'):
                defs.append((label, name, d['wakeup_latency_cdf_ns']))
    if not defs:
        return None
    dat = os.path.join(out, 'latency.dat')
    with open(dat, 'w') as f:
        for label, name, cdf in defs:
            f.write('# %s %s\n' % (label, name))
            for pct, ns in cdf:
                if pct < 100:
                    f.write('%.3f %.6f\n' % (ns / 1000.0, 1 - pct / 100.0))
            f.write('\n\n')
    plots = ', '.join("'latency.dat' index %d with steps title '%s %s'" % (i, label, name)
                      for i, (label, name, _) in enumerate(defs))
    return ('latency', '''set terminal svg size 900,560 dynamic
set output 'latency.svg'
set title 'wake-up latency: fraction of wake-ups that waited longer'
set xlabel 'latency (us)'
set ylabel 'fraction above'
set logscale y
set yrange [0.0001:1]
set key outside right
plot %s
''' % plots)


SWITCH = re.compile(r'\[(\d{3})\] \S+ +(\d+)\.(\d{6}): sched_switch: .* ==> '
                    r'next_comm=(\S+) next_pid=(\d+)')


def timeline_plot(out, trace, window_ms):
    last = {}
    spans = []
    end_us = window_ms * 1000
    with open(trace) as f:
        for line in f:
            m = SWITCH.search(line)
            if not m:
                continue
            cpu, t = int(m.group(1)), int(m.group(2)) * 1000000 + int(m.group(3))
            if cpu in last and last[cpu][2] != 0:
                spans.append((cpu, last[cpu][0], min(t, end_us), last[cpu][1], last[cpu][2]))
            last[cpu] = (t, m.group(4), int(m.group(5)))
            if t >= end_us:
                break
    if not spans:
        return None
    dat = os.path.join(out, 'timeline.dat')
    with open(dat, 'w') as f:
        f.write('# cpu start_us length_us pid comm\n')
        for cpu, start, stop, comm, pid in spans:
            if start < end_us:
                f.write('%d %d %d %d %s\n' % (cpu, start, stop - start, pid, comm))
    return ('timeline', '''set terminal svg size 1000,%d dynamic
set output 'timeline.svg'
set title 'which task ran on each CPU, first %d ms (colour: pid)'
set xlabel 'time (us)'
set ylabel 'CPU'
set ytics 1
set xrange [0:%d]
set yrange [-0.5:%d.5]
unset key
set palette defined (0 'dark-violet', 1 'blue', 2 'dark-cyan', 3 'dark-green', 4 'orange', 5 'red')
set cbrange [1:%d]
set cblabel 'pid'
plot 'timeline.dat' using 2:1:3:(0):4 with vectors nohead lw 12 lc palette
''' % (200 + 40 * (1 + max(s[0] for s in spans)), window_ms, end_us, max(s[0] for s in spans),
       max(2, max(s[4] for s in spans))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument('outdir')
    ap.add_argument('--result', required=True, help='fairsim JSON result (base)')
    ap.add_argument('--result-b', help='a second result (patched)')
    ap.add_argument('--trace', help='fairsim ftrace text')
    ap.add_argument('--window-ms', type=int, default=50)
    a = ap.parse_args()
    results = []
    for label, path in (('base', a.result), ('patched', a.result_b)):
        if not path:
            continue
        try:
            with open(path) as f:
                results.append((label if a.result_b else '', json.load(f)))
        except (OSError, ValueError) as e:
            sys.exit('plot.py: %s: %s' % (path, e))
    os.makedirs(a.outdir, exist_ok=True)
    plots = [cdf_plot(a.outdir, results)]
    if a.trace:
        plots.append(timeline_plot(a.outdir, a.trace, a.window_ms))
    for p in plots:
        if not p:
            continue
        name, script = p
        with open(os.path.join(a.outdir, name + '.gp'), 'w') as f:
            f.write(script)
        r = subprocess.run(['gnuplot', name + '.gp'], cwd=a.outdir,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode:
            sys.exit('plot.py: gnuplot failed on %s.gp: %s' % (name, r.stdout.strip()[:300]))
        print('plot.py: %s' % os.path.join(a.outdir, name + '.svg'))


if __name__ == '__main__':
    main()

# SPDX-License-Identifier: GPL-2.0
"""
The samples of a perf record of User-Mode Linux, split by the kernel
source file of the function each fell in (bench/uml.sh). perf's own
symbols are not used: it names everything at the start of .sched.text
after __sched_text_start. Each sample's address is looked up among the
binary's functions instead (nm -n -S: a symbol with a size, the sample
inside it), and each function's file is the one its debug info names at
its first instruction, the outermost of the inlined frames there
(addr2line -i), so two static functions of one name in two files stay
apart. A sample's weight is its period (cpu-clock: nanoseconds), not a
count: perf lowers the rate when sampling costs too much.

usage: uml_split.py LINUX PERF_SCRIPT_OUTPUT   (perf script -F period,ip,dso)
prints a line of sample counts: total linux core fair rbtree other_sched
  rest schedule (fair: fair.c, pelt.c and pelt.h; rbtree: lib/rbtree.c,
  which fair.c's queue and others use; schedule: core.c's __schedule),
then a line of the nanoseconds of core and fair, then core.c's and
fair.c's five largest functions
"""
import bisect
import os
import re
import subprocess
import sys


def functions(linux):
    """(address, end, name) of each sized text symbol, sorted by address"""
    nm = subprocess.run(['nm', '-n', '-S', '--defined-only', linux], check=True,
                        capture_output=True, text=True).stdout
    out = []
    for line in nm.splitlines():
        m = re.match(r'([0-9a-f]+) ([0-9a-f]+) [tTwW] (\S+)$', line)
        if m:
            start = int(m.group(1), 16)
            out.append((start, start + int(m.group(2), 16), m.group(3)))
    return out


def files_of(linux, addrs):
    """{address: source file of the function starting there}"""
    text = '\n'.join(f'{a:#x}' for a in addrs) + '\n'
    out = subprocess.run(['addr2line', '-a', '-f', '-i', '-e', linux], input=text, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    files, at = {}, None
    for line in out:
        if line.startswith('0x'):
            at = int(line, 16)
        elif at is not None and ':' in line:
            files[at] = line.rsplit(':', 1)[0]	# the last frame: the outermost
    return files


def kind(path):
    """which part of the kernel a source file is"""
    path = '/' + path
    base = path.rsplit('/', 1)[-1]
    if path.endswith('/lib/rbtree.c'):
        return 'rbtree'
    if '/kernel/sched/' not in path:
        return 'rest'
    if base == 'core.c':
        return 'core'
    if base in ('fair.c', 'pelt.c', 'pelt.h'):
        return 'fair'
    return 'other_sched'


def main():
    linux, script = os.path.realpath(sys.argv[1]), sys.argv[2]
    funcs = functions(linux)
    starts = [f[0] for f in funcs]
    counts = dict(total=0, linux=0, core=0, fair=0, rbtree=0, other_sched=0, rest=0, schedule=0)
    ns = dict(core=0, fair=0)
    hits = {}	# function index (-1: none) -> [samples, ns]
    with open(script) as f:
        for line in f:
            head, _, dso = line.rstrip().rpartition(' (')
            fields = head.split()
            if len(fields) != 2:
                continue
            counts['total'] += 1
            if os.path.realpath(dso.rstrip(')')) != linux:
                continue
            counts['linux'] += 1
            ip = int(fields[1], 16)
            i = bisect.bisect_right(starts, ip) - 1
            if i >= 0 and ip >= funcs[i][1]:
                i = -1	# between functions, or on a label of no size
            h = hits.setdefault(i, [0, 0])
            h[0] += 1
            h[1] += int(fields[0])
    files = files_of(linux, sorted(funcs[i][0] for i in hits if i >= 0))
    largest = {'core': [], 'fair': []}
    for i, (n, t) in sorted(hits.items(), key=lambda h: -h[1][0]):
        k = kind(files.get(funcs[i][0], '')) if i >= 0 else 'rest'
        counts[k] += n
        if k in ns:
            ns[k] += t
        if k == 'core' and funcs[i][2] == '__schedule':
            counts['schedule'] += n
        if k in largest and len(largest[k]) < 5:
            largest[k].append(f'{funcs[i][2]} {n}')
    print(' '.join(str(counts[k]) for k in ('total', 'linux', 'core', 'fair', 'rbtree',
                                             'other_sched', 'rest', 'schedule')))
    print(ns['core'], ns['fair'])
    for k, name in (('core', 'core.c'), ('fair', 'fair.c')):
        print(f'  {name}: ' + ', '.join(largest[k]))


if __name__ == '__main__':
    main()

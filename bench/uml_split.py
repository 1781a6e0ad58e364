# SPDX-License-Identifier: GPL-2.0
"""
The samples of a perf record of User-Mode Linux, split by the kernel
source file of the function each fell in (bench/uml.sh). perf's own
symbols are not used: it names everything at the start of .sched.text
after __sched_text_start. Each sample's address is looked up among the
binary's functions instead (nm -n), and each function's file is the one
its debug info names at its first instruction, the outermost of the
inlined frames there (addr2line -i), so two static functions of one name
in two files stay apart.

usage: uml_split.py LINUX PERF_SCRIPT_OUTPUT
prints a line of counts: total linux core fair other_sched rest schedule
  (fair: fair.c and pelt.c/pelt.h; schedule: core.c's __schedule alone),
  then core.c's and fair.c's five largest functions
"""
import bisect
import re
import subprocess
import sys


def functions(linux):
    """(address, name) of each text symbol, sorted by address"""
    nm = subprocess.run(['nm', '-n', '--defined-only', linux], check=True,
                        capture_output=True, text=True).stdout
    out = []
    for line in nm.splitlines():
        m = re.match(r'([0-9a-f]+) [tTwW] (\S+)$', line)
        if m:
            out.append((int(m.group(1), 16), m.group(2)))
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
    base = path.rsplit('/', 1)[-1]
    if '/kernel/sched/' not in '/' + path:
        return 'rest'
    if base == 'core.c':
        return 'core'
    if base in ('fair.c', 'pelt.c', 'pelt.h'):
        return 'fair'
    return 'other_sched'


def main():
    linux, script = sys.argv[1:3]
    funcs = functions(linux)
    starts = [a for a, _ in funcs]
    counts = dict(total=0, linux=0, core=0, fair=0, other_sched=0, rest=0, schedule=0)
    hits = {}	# function index -> samples
    with open(script) as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            counts['total'] += 1
            if fields[-1].strip('()') != linux:
                continue
            counts['linux'] += 1
            i = bisect.bisect_right(starts, int(fields[0], 16)) - 1
            hits[i] = hits.get(i, 0) + 1
    files = files_of(linux, sorted(funcs[i][0] for i in hits if i >= 0))
    largest = {'core': [], 'fair': []}
    for i, n in sorted(hits.items(), key=lambda h: -h[1]):
        k = kind(files.get(funcs[i][0], '')) if i >= 0 else 'rest'
        counts[k] += n
        if k == 'core' and funcs[i][1] == '__schedule':
            counts['schedule'] += n
        if k in largest and len(largest[k]) < 5:
            largest[k].append(f'{funcs[i][1]} {n}')
    print(' '.join(str(counts[k]) for k in
                   ('total', 'linux', 'core', 'fair', 'other_sched', 'rest', 'schedule')))
    for k, name in (('core', 'core.c'), ('fair', 'fair.c')):
        print(f'  {name}: ' + ', '.join(largest[k]))


if __name__ == '__main__':
    main()

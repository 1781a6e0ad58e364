#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Where fair.c's decisions could hang on the address of an object: clang's
# AST of the tree's fair.c (with the build's kernel flags, those clang
# takes), and in the functions fair.c and kernel/sched/sched.h define, every
# order comparison (<, >, <=, >=) or difference of two pointers, and every
# cast of a pointer to an integer, by function and pointer type. Equality
# (==, !=) is identity and is not listed. The reading of each line is the
# reader's: docs/faults-memcheck.md has it for the trees it was run on.
#
# usage: sched_fair/addr_audit.py OBJ KSRC     (OBJ: a build dir of KSRC)
import os
import re
import subprocess
import sys

if len(sys.argv) != 3 or not os.path.isfile(os.path.join(sys.argv[1], 'kflags')):
    sys.exit('usage: sched_fair/addr_audit.py OBJ KSRC (OBJ a build dir with its kflags: make check makes one)')
obj, ksrc = sys.argv[1], sys.argv[2]
if not os.path.isfile(os.path.join(ksrc, 'kernel/sched/fair.c')):
    sys.exit(f'fairtest: addr_audit.py: no kernel/sched/fair.c under KSRC={ksrc}; give the tree of OBJ')
# gcc's code generation and warning flags mean nothing to an AST
drop = re.compile(r'^-(W|m|O|falign|fconserve-stack|fno-allow-store|fno-stack-clash|fmacro-prefix'
                  r'|ftrivial-auto|fmin-function|fpatchable|fzero-init|fstrict-flex|fdiagnostics)')
flags = [f for f in open(os.path.join(obj, 'kflags')).read().split('\n') if f and not drop.match(f)]
ast = subprocess.run(['clang'] + flags + ['-w', '-fsyntax-only', '-Xclang', '-ast-dump',
                      'kernel/sched/fair.c'], cwd=ksrc, capture_output=True, text=True, errors='replace')
if ast.returncode:
    sys.exit('fairtest: addr_audit.py: clang does not parse fair.c: ' + ast.stderr.strip().split('\n')[-1])
lines = ast.stdout.split('\n')
loc = re.compile(r"<((?:/|[a-zA-Z])[^:>,]*\.[ch]):\d+")


def depth(line):
    return len(re.match(r'^[ |`-]*', line).group(0))


def kids(i):
    d, out = depth(lines[i]), []
    for line in lines[i + 1:]:
        if depth(line) <= d:
            break
        if depth(line) == d + 2:
            out.append(line)
    return out


def typ(line):
    t = re.findall(r"'([^']*)'", line)
    return t[0] if t else '?'


found = {}
cur = where = fn = None
for i, line in enumerate(lines):
    m = loc.search(line)
    if m:
        cur = m.group(1)
    if depth(line) == 2:
        where = None
        if 'FunctionDecl' in line and cur:
            for src in ('kernel/sched/fair.c', 'kernel/sched/sched.h'):
                if cur.endswith(src):
                    where = os.path.basename(src)
            fn = (re.findall(r" (\w+) '", line) or ['?'])[0]
        continue
    if not where:
        continue
    m = re.search(r"BinaryOperator .* '(<|>|<=|>=|-)'$", line)
    if m:
        k = kids(i)
        if len(k) == 2 and all(typ(x).rstrip().endswith('*') for x in k):
            key = (where, fn, f'pointer {m.group(1)} pointer', typ(k[0]))
            found[key] = found.get(key, 0) + 1
    if '<PointerToIntegral>' in line:
        k = kids(i)
        key = (where, fn, 'pointer cast to ' + typ(line), typ(k[0]) if k else '?')
        found[key] = found.get(key, 0) + 1
print('file\tfunction\twhat\tpointer type\tcount')
for key in sorted(found):
    print(*key, found[key], sep='\t')

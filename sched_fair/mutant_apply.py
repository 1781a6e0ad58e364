#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Reads fixtures/mutants/*.mutants and applies one mutant to a copy of
# fair.c (see the format in the mutants file). One clear line on error.
# A mutant whose code a profile does not compile ('needs: CONFIG_X ...')
# does not apply there: with FT_AUTOCONF naming the build's autoconf.h, one
# of those options off makes it "n/a", not a survivor nothing could catch.
#
# usage: mutant_apply.py --list FILE...
#        [FT_AUTOCONF=autoconf.h] mutant_apply.py NAME SRC DST FILE...
import os
import re
import sys


def die(msg):
    print('fairtest: ' + msg, file=sys.stderr)
    sys.exit(1)


def parse(files):
    mutants, cur = {}, None
    for path in files:
        with open(path) as f:
            for no, line in enumerate(f, 1):
                line = line.rstrip('\n')
                if not line.strip() or line.startswith('#'):
                    continue
                key, _, rest = line.partition(' ')
                if key == 'mutant:':
                    cur = {'name': rest.strip(), 'what': '', 'old': [], 'new': [], 'needs': []}
                    if cur['name'] in mutants:
                        die(f"{path}:{no}: mutant {cur['name']} defined twice")
                    mutants[cur['name']] = cur
                elif cur is None:
                    die(f"{path}:{no}: expected 'mutant: name' first")
                elif key == 'what:':
                    cur['what'] = rest.strip()
                elif key == 'needs:':
                    cur['needs'] += rest.split()
                elif key in ('-', '+'):
                    cur['old' if key == '-' else 'new'].append(rest.strip())
                else:
                    die(f"{path}:{no}: malformed line (want 'mutant:', 'what:', 'needs:', '- ' or '+ ')")
    for m in mutants.values():
        if not m['old']:
            die(f"mutant {m['name']}: no '-' line to match")
    return mutants


def main(argv):
    if len(argv) >= 2 and argv[0] == '--list':
        print('\n'.join(parse(argv[1:])))
        return
    if len(argv) < 4:
        die('usage: mutant_apply.py NAME SRC DST FILE...')
    name, src, dst, files = argv[0], argv[1], argv[2], argv[3:]
    mutants = parse(files)
    if name not in mutants:
        die(f'unknown mutant {name}')
    m = mutants[name]
    autoconf = os.environ.get('FT_AUTOCONF')
    if m['needs'] and autoconf:
        with open(autoconf) as f:
            on = set(re.findall(r'^#define (CONFIG_\w+) 1$', f.read(), re.M))
        off = [c for c in m['needs'] if c not in on]
        if off:
            die(f"does not apply: needs {' '.join(off)}, which this profile leaves off (PROFILE=debian has it)")
    with open(src) as f:
        lines = f.read().split('\n')
    k = len(m['old'])
    hits = [i for i in range(len(lines) - k + 1)
            if [l.strip() for l in lines[i:i + k]] == m['old']]
    if len(hits) != 1:
        die(f"does not apply: its lines occur {len(hits)} times in {src}, not once")
    i = hits[0]
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    lines[i:i + k] = [indent + l for l in m['new']]
    with open(dst, 'w') as f:
        f.write('\n'.join(lines))


main(sys.argv[1:])

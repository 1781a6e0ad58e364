#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Reads fixtures/mutants/*.mutants and applies one mutant to a copy of
# fair.c (see the format in the mutants file). One clear line on error.
# A mutant whose code a profile does not compile ('needs: CONFIG_X ...')
# does not apply there: with FT_AUTOCONF naming the build's autoconf.h, one
# of those options off makes it "n/a", not a survivor nothing could catch.
# With FT_SYMBOLS naming a file of the tree's Kconfig symbols (one a line,
# no CONFIG_), a 'needs:' option the tree does not define is an error: a
# misspelt option would otherwise make the mutant n/a everywhere.
# A mutant patches fair.c unless it names another file of kernel/sched that
# the build compiles as it is ('file: autogroup.c'); --file prints which.
# Exit: 0 applied, 3 needs an option that is off, 4 its lines do not occur
# exactly once (both: n/a, not a mutant of this build), 1 anything else.
#
# usage: mutant_apply.py --list FILE...
#        mutant_apply.py --file NAME FILE...
#        [FT_AUTOCONF=autoconf.h] [FT_SYMBOLS=file] mutant_apply.py NAME SRC DST FILE...
import os
import re
import sys


OPTION_OFF = 3
NOT_ONCE = 4


def die(msg, code=1):
    print('fairtest: ' + msg, file=sys.stderr)
    sys.exit(code)


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
                    cur = {'name': rest.strip(), 'what': '', 'old': [], 'new': [], 'needs': [],
                           'file': 'fair.c'}
                    if cur['name'] in mutants:
                        die(f"{path}:{no}: mutant {cur['name']} defined twice")
                    mutants[cur['name']] = cur
                elif cur is None:
                    die(f"{path}:{no}: expected 'mutant: name' first")
                elif key == 'what:':
                    cur['what'] = rest.strip()
                elif key == 'needs:':
                    cur['needs'] += rest.split()
                elif key == 'file:':
                    if not re.fullmatch(r'[a-z_]+\.c', rest.strip()):
                        die(f"{path}:{no}: file: names a file of kernel/sched, like autogroup.c")
                    cur['file'] = rest.strip()
                elif key in ('-', '+'):
                    cur['old' if key == '-' else 'new'].append(rest.strip())
                else:
                    die(f"{path}:{no}: malformed line (want 'mutant:', 'what:', 'needs:', 'file:', '- ' or '+ ')")
    for m in mutants.values():
        if not m['old']:
            die(f"mutant {m['name']}: no '-' line to match")
    return mutants


def main(argv):
    if len(argv) >= 2 and argv[0] == '--list':
        print('\n'.join(parse(argv[1:])))
        return
    if len(argv) >= 3 and argv[0] == '--file':
        mutants = parse(argv[2:])
        if argv[1] not in mutants:
            die(f'unknown mutant {argv[1]}')
        print(mutants[argv[1]]['file'])
        return
    if len(argv) < 4:
        die('usage: mutant_apply.py NAME SRC DST FILE...')
    name, src, dst, files = argv[0], argv[1], argv[2], argv[3:]
    mutants = parse(files)
    if name not in mutants:
        die(f'unknown mutant {name}')
    m = mutants[name]
    symbols = os.environ.get('FT_SYMBOLS')
    if m['needs'] and symbols:
        with open(symbols) as f:
            known = {'CONFIG_' + l.strip() for l in f}
        unknown = [c for c in m['needs'] if c not in known]
        if unknown:
            die(f"mutant {name}: needs: {' '.join(unknown)} is not defined by any Kconfig file of the tree; "
                "fix the option's name in its mutants file")
    autoconf = os.environ.get('FT_AUTOCONF')
    if m['needs'] and autoconf:
        try:
            f = open(autoconf)
        except OSError as e:
            die(f"FT_AUTOCONF={autoconf}: {e.strerror}; it is the build's autoconf.h (make build writes it)")
        with f:
            on = set(re.findall(r'^#define (CONFIG_\w+) 1$', f.read(), re.M))
        off = [c for c in m['needs'] if c not in on]
        if off:
            die(f"does not apply: needs {' '.join(off)}, which this profile leaves off (PROFILE=debian has it)",
                OPTION_OFF)
    with open(src) as f:
        lines = f.read().split('\n')
    k = len(m['old'])
    hits = [i for i in range(len(lines) - k + 1)
            if [l.strip() for l in lines[i:i + k]] == m['old']]
    if len(hits) != 1:
        die(f"does not apply: its lines occur {len(hits)} times in {src}, not once", NOT_ONCE)
    i = hits[0]
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    lines[i:i + k] = [indent + l for l in m['new']]
    with open(dst, 'w') as f:
        f.write('\n'.join(lines))


try:
    main(sys.argv[1:])
except OSError as e:
    die(f'{e.filename}: {e.strerror}')

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Lines of a kernel source file that a config leaves out: those inside
# preprocessor blocks whose condition is false under the build's
# autoconf.h. Conditions over CONFIG_ options (defined(), IS_ENABLED(),
# plain values, !, &&, ||, comparisons) are evaluated; a block whose
# condition names anything else (an include guard, a macro of the file) is
# counted as compiled. Prints "TOTAL COMPILED UNCOMPILED" for the file and
# one line per top-level option whose blocks were left out; with --summary,
# the sentence make coverage and make gate print instead: the count and the
# five options that leave out the most, each line after PREFIX.
#
# usage: uncompiled.py FILE AUTOCONF_H [--summary PROFILE PREFIX]
import re
import sys


def main(path, autoconf, *summary):
    conf = {}
    for line in open(autoconf):
        m = re.match(r'#define (CONFIG_\w+) (.*)', line)
        if m:
            conf[m.group(1)] = m.group(2).strip()

    def value(expr):
        e = re.sub(r'IS_ENABLED\((CONFIG_\w+)\)', lambda m: '1' if m.group(1) in conf or m.group(1) + '_MODULE' in conf else '0', expr)
        e = re.sub(r'defined\s*\(?\s*(\w+)\s*\)?', lambda m: '1' if m.group(1) in conf else ('0' if m.group(1).startswith('CONFIG_') else 'UNKNOWN'), e)
        e = re.sub(r'\bCONFIG_\w+\b', lambda m: conf.get(m.group(0), '0').strip('"') if conf.get(m.group(0), '0').lstrip('-').isdigit() or m.group(0) not in conf else '1', e)
        if re.search(r'[A-Za-z_]', e.replace('UNKNOWN', '')) or 'UNKNOWN' in e:
            return None
        e = e.replace('&&', ' and ').replace('||', ' or ')
        e = re.sub(r'!(?!=)', ' not ', e)
        try:
            return bool(eval(e))
        except Exception:
            return None

    lines = open(path).read().split('\n')
    # stack of [active_now, any_branch_taken, parent_active, option]
    stack = []
    active = True
    left = {}
    uncompiled = 0
    cont = ''
    for raw in lines:
        line = cont + raw
        if line.endswith('\\'):
            cont = line[:-1]
            if not active:
                uncompiled += 1
            continue
        cont = ''
        m = re.match(r'\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)', line)
        counted_active = active
        if m:
            d, rest = m.group(1), re.sub(r'/\*.*?\*/|//.*', '', m.group(2)).strip()
            if d in ('ifdef', 'ifndef', 'if'):
                if d == 'ifdef':
                    v = True if rest in conf else (False if rest.startswith('CONFIG_') else None)
                elif d == 'ifndef':
                    v = False if rest in conf else (True if rest.startswith('CONFIG_') else None)
                else:
                    v = value(rest)
                v = True if v is None else v
                opt = (re.findall(r'CONFIG_\w+', rest) or ['?'])[0]
                stack.append([active and v, v, active, opt])
                active = active and v
            elif d == 'elif':
                top = stack[-1]
                v = value(rest)
                v = True if v is None else v
                now = top[2] and not top[1] and v
                top[1] = top[1] or v
                top[0] = now
                top[3] = (re.findall(r'CONFIG_\w+', rest) or [top[3]])[0]
                active = now
            elif d == 'else':
                top = stack[-1]
                top[0] = top[2] and not top[1]
                top[1] = True
                active = top[0]
            else:
                top = stack.pop()
                active = top[2]
            continue
        if not active:
            uncompiled += 1
            outer = next((s[3] for s in stack if not s[0] and s[2]), '?')
            left[outer] = left.get(outer, 0) + 1
    total = len(lines) - (1 if lines and lines[-1] == '' else 0)
    ranked = sorted(left.items(), key=lambda kv: -kv[1])
    if summary:
        profile, prefix = summary[0], summary[1]
        print('%s kernel/sched/fair.c source lines compiled (%s profile): %d of %d; %d left out'
              % (prefix, profile, total - uncompiled, total, uncompiled))
        for opt, n in ranked[:5]:
            print('%s   left out under %s: %d lines' % (prefix, opt, n))
        return
    print(total, total - uncompiled, uncompiled)
    for opt, n in ranked:
        print('  %-36s %6d' % (opt, n))


if len(sys.argv) not in (3, 6) or (len(sys.argv) == 6 and sys.argv[3] != '--summary'):
    sys.exit('usage: uncompiled.py FILE AUTOCONF_H [--summary PROFILE PREFIX]')
main(sys.argv[1], sys.argv[2], *sys.argv[4:])

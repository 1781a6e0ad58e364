#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The docs against the project: every relative link of README.md and docs/*.md
resolves (a file, and a heading where the link names one), and every `make`
target and knob that their commands name (in code spans and code blocks) is
one that `make help` lists. A knob in the docs that help lacks is a bug in
one of them; so is a knob of the Makefile (VAR ?=) that help lacks. README
stays within 200 lines, each docs file within 400. Prints one KTAP-style line per file and a tally.

usage: tests/docs/check.py TOP [HELP_FILE]   (default: runs make -s -C TOP help)
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
SPAN = re.compile(r'`([^`\n]+)`')
HEAD = re.compile(r'^#{1,6}\s+(.*?)\s*#*\s*$')
VAR = re.compile(r'^([A-Z][A-Z0-9_]*)=')


def slug(title):
    """GitHub's anchor for a heading."""
    s = title.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def anchors(path):
    out, fence = set(), False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                fence = not fence
            m = None if fence else HEAD.match(line)
            if m:
                out.add(slug(m.group(1)))
    return out


def code_lines(text):
    """The lines of code blocks, and the inline code spans of the rest."""
    fence = False
    for line in text.splitlines():
        if line.startswith('```'):
            fence = not fence
            continue
        if fence:
            yield re.sub(r'(^|\s)#.*', '', line)  # a shell comment is prose
        else:
            yield from SPAN.findall(line)


def make_uses(code):
    """(targets, knobs) of each `make ...` command in a piece of code."""
    targets, knobs = [], []
    for m in re.finditer(r'(?:^|[\s(;&|])make\s+(.*)', code):
        before = code[:m.start()].split()
        for w in reversed(before):  # VAR=x make ...: the environment
            v = VAR.match(w)
            if not v:
                break
            knobs.append(v.group(1))
        words = m.group(1).split()
        skip = False
        for w in words:
            if skip:
                skip = False
                continue
            if w.startswith('#') or w in ('|', '||', '&&', ';', ')') or w.startswith('`'):
                break
            end = w.endswith(';')	# `make build KVER=$kv; done`: the command ends here
            w = w.rstrip(';')
            if w in ('-C', '-f', '-o'):
                skip = True
                continue
            if w.startswith('-') or w.startswith('...') or w.startswith('<'):
                continue
            v = VAR.match(w)
            if v:
                knobs.append(v.group(1))
            elif re.fullmatch(r'[a-z][a-z0-9-]*', w):
                targets.append(w)
            # anything else (a quoted value's second word, a path) is not ours
            if end:
                break
    return targets, knobs


def main():
    top = sys.argv[1]
    if len(sys.argv) > 2:
        with open(sys.argv[2], encoding='utf-8') as f:
            help_text = f.read()
    else:
        help_text = subprocess.run(['make', '-s', '--no-print-directory', '-C', top, 'help'],
                                   check=True, capture_output=True, text=True).stdout
    section, help_targets = None, set()
    for line in help_text.splitlines():
        if line.startswith('Targets:'):
            section = 't'
        elif line.startswith('Knobs'):
            section = 'k'
        m = re.match(r'^  ([a-z][a-z0-9-]*)\s', line)
        if section == 't' and m:
            help_targets.add(m.group(1))
    help_knobs = set(re.findall(r'\b([A-Z][A-Z0-9_]*)=', help_text))

    files = [os.path.join(top, 'README.md')]
    docs = os.path.join(top, 'docs')
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith('.md'))
    passed = failed = 0
    for path in files:
        rel = os.path.relpath(path, top)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        bad = []
        limit = 200 if rel == 'README.md' else 400  # a front door; one topic a file
        if text.count('\n') > limit:
            bad.append(f'{text.count(chr(10))} lines, more than {limit}')
        for target in LINK.findall(text):
            if re.match(r'^[a-z]+:', target):
                continue  # a URL
            file, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(dest):
                bad.append(f'link {target}: no {os.path.relpath(dest, top)}')
            elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                bad.append(f'link {target}: no heading #{anchor} in {os.path.relpath(dest, top)}')
        for code in code_lines(text):
            targets, knobs = make_uses(code)
            v = VAR.match(code)
            if v and ' ' not in code.strip() and not v.group(1).startswith('CONFIG_'):
                knobs.append(v.group(1))  # a knob named alone: `KVER=x.y`; CONFIG_ is kconfig's
            bad += [f'make {t}: not a target make help lists' for t in targets if t not in help_targets]
            bad += [f'{k}=: not a knob make help lists' for k in knobs if k not in help_knobs]
        if bad:
            failed += 1
            for b in sorted(set(bad)):
                print(f'# {rel}: {b}')
            print(f'not ok - docs: {rel}')
        else:
            passed += 1
            print(f'ok - docs: {rel}: within its length, links resolve, make targets and knobs are in make help')
    # and the other way: every knob the Makefile takes is in make help
    with open(os.path.join(top, 'Makefile'), encoding='utf-8') as f:
        mk = set(re.findall(r'^([A-Z][A-Z0-9_]*)\s*\?=', f.read(), re.M))
    missing = sorted(mk - help_knobs)
    if missing:
        failed += 1
        print(f'not ok - docs: Makefile knobs that make help does not list: {" ".join(missing)}')
    else:
        passed += 1
        print(f'ok - docs: make help lists all {len(mk)} knobs of the Makefile')
    print(f'docs: {passed} passed, {failed} failed, 0 skipped')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Coverage of the lines a patch adds or changes, which is what a reviewer
# asks of a patch: did any test execute this? From the patch's hunks (the
# new side), the lcov trace of the step's test run, and the build's -MMD
# dependencies, each changed line of each file is: covered, not covered,
# not compiled in this config (file in no object of ours, or a region the
# preprocessor drops for this config), or no code (comments, blank lines,
# declarations: not counted). Writes the text summary, listing each
# uncovered line as "file:line: source", prints "covered uncovered
# not_compiled" for the gate's table, and marks the changed lines in the
# genhtml pages given with --html.
#
# usage: changed.py PATCH TREE OBJ INFO SUMMARY [--cpp CMD...] [--html DIR]
#   TREE: the tree path the build used; OBJ: its build dir; CMD: the
#   preprocessor command line (source file appended) for region checks.
import os
import re
import subprocess
import sys


def added_lines(patch):
    """{file: {line: text}} of '+' lines, new-side numbering."""
    out, cur, line = {}, None, 0
    for raw in patch.splitlines():
        if raw.startswith('+++ '):
            p = raw[4:].split('\t')[0].strip()
            cur = None if p == '/dev/null' else (p.split('/', 1)[1] if '/' in p else p)
            if cur is not None:
                out.setdefault(cur, {})
            continue
        m = re.match(r'^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@', raw)
        if m:
            line = int(m.group(1))
            continue
        if cur is None or raw.startswith('--- '):
            continue
        if raw.startswith('+'):
            out[cur][line] = raw[1:]
            line += 1
        elif raw.startswith(' ') or raw == '':
            line += 1
    return out


def lcov_lines(info):
    """{source path: {line: count}} from an lcov trace file."""
    out, cur = {}, None
    if not os.path.exists(info):
        return out
    with open(info) as f:
        for raw in f:
            if raw.startswith('SF:'):
                cur = out.setdefault(raw[3:].strip(), {})
            elif raw.startswith('DA:') and cur is not None:
                ln, cnt = raw[3:].split(',')[:2]
                cur[int(ln)] = cur.get(int(ln), 0) + int(cnt)
    return out


def objects_using(obj, path):
    """Sources of the tree-code objects (as in step.sh) whose deps name path."""
    srcs = []
    for root in (os.path.join(obj, 'k'), os.path.join(obj, 'k', 'lib')):
        files = os.listdir(root) if os.path.isdir(root) else []
        for n in files:
            if not n.endswith('.o.d'):
                continue
            with open(os.path.join(root, n)) as f:
                text = f.read().replace('\\\n', ' ')
            head = text.split('\n', 1)[0]
            deps = head.split(':', 1)[1].split() if ':' in head else []
            if path in deps and deps:
                srcs.append(deps[0])
    return srcs


def live_lines(cpp, src, path):
    """Lines of path that survive preprocessing of src (directives only)."""
    res = subprocess.run(cpp + ['-fdirectives-only', src], capture_output=True, text=True,
                         errors='replace')
    if res.returncode != 0:
        return None
    live, cur, ln = set(), None, 0
    for raw in res.stdout.splitlines():
        m = re.match(r'^# (\d+) "(.*)"', raw)
        if m:
            ln, cur = int(m.group(1)), m.group(2)
            continue
        if cur == path:
            live.add(ln)
        ln += 1
    return live


def mark_html(html_dir, marks):
    """marks: {file: {line: state}}; highlight those lines in genhtml pages."""
    color = {'uncovered': '#ff9090', 'covered': '#a0e0a0', 'not compiled': '#c0c0c0'}
    for root, _, files in os.walk(html_dir):
        for n in files:
            if not n.endswith('.gcov.html'):
                continue
            page = os.path.join(root, n)
            rel = os.path.relpath(page, html_dir)[:-len('.gcov.html')]
            lines = next((v for k, v in marks.items() if k.endswith(rel) or rel.endswith(k)), None)
            if not lines:
                continue
            with open(page, errors='replace') as f:
                text = f.read()

            text = re.sub(r'(<a name="\d+">)<span class="lineNum">( *(\d+) *)</span>',
                          lambda m: sub_line(m, lines, color), text)
            with open(page, 'w') as f:
                f.write(text)


def sub_line(m, lines, color):
    num = m.group(2)
    ln = int(m.group(3))
    if ln not in lines:
        return m.group(0)
    st = lines[ln]
    return (f'{m.group(1)}<span class="lineNum" style="background:{color.get(st, "#ffe080")}" '
            f'title="changed by this patch: {st}">{num}</span>')


def main():
    args = sys.argv[1:]
    html = None
    cpp = []
    if '--html' in args:
        i = args.index('--html')
        html = args[i + 1]
        del args[i:i + 2]
    if '--cpp' in args:
        i = args.index('--cpp')
        cpp = args[i + 1:]
        del args[i:]
    patch, tree, obj, info, summary = args[:5]
    with open(patch, errors='replace') as f:
        changed = added_lines(f.read())
    cov = lcov_lines(info)
    counts = {'covered': 0, 'uncovered': 0, 'not compiled': 0}
    report, marks = [], {}
    for rel, lines in sorted(changed.items()):
        path = os.path.join(tree, rel)
        users = objects_using(obj, path)
        da = cov.get(path, {})
        live = None
        marks[rel] = {}
        for ln, text in sorted(lines.items()):
            if not users:
                state = 'not compiled'
            elif ln in da:
                state = 'covered' if da[ln] > 0 else 'uncovered'
            else:
                if live is None:
                    live = live_lines(cpp, users[0], path) if cpp else set(lines)
                    live = live if live is not None else set(lines)
                state = 'no code' if ln in live else 'not compiled'
            if state == 'no code':
                continue
            counts[state] += 1
            marks[rel][ln] = state
            if state != 'covered':
                report.append(f'{rel}:{ln}: {text.strip()}' +
                              ('' if state == 'uncovered' else '   (not compiled in this config)'))
    total = sum(counts.values())
    with open(summary, 'w') as f:
        f.write(f'changed lines with code: {total}; covered {counts["covered"]}, '
                f'not covered {counts["uncovered"]}, not compiled in this config '
                f'{counts["not compiled"]}\n')
        for r in report:
            f.write(r + '\n')
    if html and os.path.isdir(html):
        mark_html(html, marks)
    print(counts['covered'], counts['uncovered'], counts['not compiled'])


main()

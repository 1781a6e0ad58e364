#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Turn what the user gave as SERIES into numbered patch files for the gate:
# a directory of *.patch (name order), an mbox (git format-patch --stdout,
# b4 am), a single patch, or a revision range when KSRC is a git checkout.
# Writes OUT/NNNN.patch and prints one line per patch: number, subject,
# then the files it touches (tab separated). Bad input: one line naming
# the problem, exit 1, OUT left empty.
#
# usage: series.py SERIES KSRC OUT
import os
import re
import subprocess
import sys

FROM_LINE = re.compile(r'^From \S+ +\w{3} \w{3} +\d+ \d+:\d+:\d+ \d{4}')


def die(msg):
    print('fairtest: gate: ' + msg, file=sys.stderr)
    sys.exit(1)


def split_mbox(text, what):
    """Messages of an mbox; text without a From_ line is one message."""
    lines = text.splitlines(keepends=True)
    if not lines or not FROM_LINE.match(lines[0]):
        return [text]
    msgs, cur = [], []
    for line in lines:
        if FROM_LINE.match(line) and cur:
            msgs.append(''.join(cur))
            cur = []
        cur.append(line)
    msgs.append(''.join(cur))
    return msgs


def subject(msg, fallback):
    m = re.search(r'^Subject: *(.*(?:\n[ \t].*)*)', msg, re.M)
    if not m:
        return fallback
    s = re.sub(r'\s*\n[ \t]+', ' ', m.group(1)).strip()
    return re.sub(r'^\[[^]]*\] *', '', s) or fallback


def touched(msg):
    files = []
    for old, new in re.findall(r'^--- (\S+).*\n\+\+\+ (\S+)', msg, re.M):
        for p in (new, old):
            if p != '/dev/null':
                p = p.split('/', 1)[1] if '/' in p else p
                if p not in files:
                    files.append(p)
                break
    return files


def main():
    series, ksrc, out = sys.argv[1:4]
    msgs = []
    if os.path.isdir(series):
        names = sorted(n for n in os.listdir(series) if n.endswith('.patch'))
        if not names:
            die(f'SERIES={series} is an empty series: no *.patch files in it')
        for n in names:
            with open(os.path.join(series, n), errors='replace') as f:
                parts = split_mbox(f.read(), n)
            if len(parts) != 1:
                die(f'{n} holds {len(parts)} messages; put one patch per file, or pass the file as an mbox')
            msgs.append((parts[0], n[:-len('.patch')]))
    elif os.path.isfile(series):
        with open(series, errors='replace') as f:
            text = f.read()
        if not text.strip():
            die(f'SERIES={series} is an empty series: the file is empty')
        msgs = [(m, f'message {i + 1}') for i, m in enumerate(split_mbox(text, series))]
    elif '..' in series:
        try:
            git = subprocess.run(['git', '-C', ksrc, 'rev-parse', '--is-inside-work-tree'],
                                 capture_output=True, text=True)
        except FileNotFoundError:
            die(f'SERIES={series} is a revision range, but git is not installed (apt-get install git)')
        if git.returncode != 0 or git.stdout.strip() != 'true':
            die(f'SERIES={series} is a revision range, but KSRC={ksrc} is not a git checkout; '
                'pass a directory of patches or an mbox (git format-patch) instead')
        fp = subprocess.run(['git', '-C', ksrc, 'format-patch', '--stdout', '--no-signature', series],
                            capture_output=True, text=True, errors='replace')
        if fp.returncode != 0:
            die(f'git format-patch {series} failed in {ksrc}: '
                + (fp.stderr.strip().splitlines() or ['?'])[0])
        if not fp.stdout.strip():
            die(f'SERIES={series} is an empty series: the range has no commits')
        msgs = [(m, f'commit {i + 1}') for i, m in enumerate(split_mbox(fp.stdout, series))]
    else:
        die(f'SERIES={series} is neither a directory, a file nor a revision range')

    os.makedirs(out, exist_ok=True)
    rows = []
    for i, (msg, fallback) in enumerate(msgs, 1):
        name = subject(msg, fallback)
        files = touched(msg)
        if not files or not re.search(r'^@@ -\d+(,\d+)? \+\d+(,\d+)? @@', msg, re.M):
            die(f'step {i} ({name}): malformed: no diff with hunks in this message; '
                'give patches as git format-patch or diff -u writes them')
        rows.append((i, name, files, msg))
    for i, name, files, msg in rows:
        with open(os.path.join(out, f'{i:04d}.patch'), 'w') as f:
            f.write(msg)
        print('\t'.join([f'{i:04d}', name.replace('\t', ' ')] + files))


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The merge of a property campaign (sched_fair/campaign.sh): the KTAP of
# its shards, each a run of consecutive seeds, into the KTAP that one
# fairtest run over the whole range prints. A case passes when every shard
# passed it: its counts are the shards' sums. Otherwise it says what the
# whole run would have said: the first shard, in seed order, whose
# sequence failed (that run stops there, shrinks and names its replay), or
# else the first shard whose case failed some other way (a sequence with
# no invariant check). A shard is aligned on the property suite's batches
# of 100 seeds, so its failure reads as the whole run's would.
#
# usage: campaign_merge.py FIRST_SEED SHARD.ktap...   (in seed order)
import re
import sys

RESULT = re.compile(r'^    (not )?ok \d+ (\S+)')
HELD = re.compile(r'^(    # \S+: )(\d+) sequences, (\d+) operations, (\d+) invariant checks, all held$')


def parse(path):
    """Header lines, suite name, case blocks (lists of lines), tail."""
    with open(path) as f:
        lines = f.read().split('\n')
    head, cases, block = [], [], []
    i = 0
    while i < len(lines) and not lines[i].startswith('    # Subtest: '):
        head.append(lines[i])
        i += 1
    if i + 1 >= len(lines):
        sys.exit('fairtest: %s is no fairtest KTAP of one suite; rerun its shard' % path)
    suite = lines[i][len('    # Subtest: '):]
    i += 2	# the subtest line and its plan
    while i < len(lines) and lines[i].startswith('    '):
        block.append(lines[i])
        if RESULT.match(lines[i]):
            cases.append(block)
            block = []
        i += 1
    return head, suite, cases


def kind(block):
    if not RESULT.match(block[-1]).group(1):
        return 'pass'
    if any('; replay: fairtest --seed' in l for l in block):
        return 'sequence'
    return 'other'


def main():
    first, paths = sys.argv[1], sys.argv[2:]
    shards = [parse(p) for p in paths]
    head, suite, cases = shards[0]
    for p, s in zip(paths, shards):
        if len(s[2]) != len(cases) or s[1] != suite:
            sys.exit('fairtest: %s ran other cases than %s; rerun the campaign' % (p, paths[0]))
    merged = []
    for c in range(len(cases)):
        chosen = other = None
        sums = [0, 0, 0]
        for s in shards:
            block = s[2][c]
            k = kind(block)
            if k == 'sequence':
                chosen = block
                break
            if k == 'other':
                other = other or block
                continue
            for line in block:
                m = HELD.match(line)
                if m:
                    sums = [a + int(b) for a, b in zip(sums, m.groups()[1:])]
        if not chosen and not other:
            chosen = [HELD.sub(lambda m: '%s%d sequences, %d operations, %d invariant checks, all held'
                               % (m.group(1), *sums), l) for l in cases[c]]
        merged.append(chosen or other)
    out = []
    for line in head:
        if line.startswith('# fairtest seed: '):
            line = '# fairtest seed: ' + first
        out.append(line)
    out += ['    # Subtest: ' + suite, '    1..%d' % len(merged)]
    npass = nfail = 0
    for block in merged:
        out += block
        if kind(block) == 'pass':
            npass += 1
        else:
            nfail += 1
    counts = 'pass:%d fail:%d skip:0 total:%d' % (npass, nfail, npass + nfail)
    out += ['# %s: %s' % (suite, counts), '# Totals: ' + counts,
            '%sok 1 %s' % ('not ' if nfail else '', suite), '# Totals: ' + counts,
            'fairtest: %d passed, %d failed, 0 skipped' % (npass, nfail)]
    sys.stdout.write('\n'.join(out) + '\n')
    return 1 if nfail else 0


if __name__ == '__main__':
    sys.exit(main())

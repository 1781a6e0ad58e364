#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
Debian's rt-app as the judge of our workload files. Every file fairsim
accepts (fixtures/workloads/, tests/sim/cases/) must run under the real
rt-app for a second; every file fairsim refuses (tests/sim/bad/) must be
refused by rt-app, or break a rule rt-app's own tutorial.txt states, as
its "// rt-app:" line says:

  // rt-app: refuses: REGEX     rt-app exits non-zero, its output matches
  // rt-app: hangs: WHY          rt-app takes it and is still running a
                                 second after its one-second run
  // rt-app: erratic: WHY        rt-app takes it, then fails or not from
                                 run to run: its exit is printed
  // rt-app: documents: PHRASE   PHRASE is in rt-app's tutorial.txt
  // rt-app: runs: WHY           rt-app runs it; fairsim refuses it (WHY)
  // rt-app: limit: WHY          not run: a limit of fairsim's (WHY)

The last two are neither: "runs" is printed as such, "limit" is a
SKIP naming fairsim's limit, as is an "erratic" file's exit when rt-app
did not hang (nothing there can fail but a hang). An accepted file
carries "refuses" or "hangs" where Debian's rt-app 1.0 does not run it,
with the reason; otherwise rt-app must run it and end. Each file is
first made what workgen would hand rt-app (repeated keys numbered, a
bare or empty "suspend" given its thread's name), with the run cut to a
second, an accepted file's CPUs taken modulo the host's (rt-app refuses
a CPU the host lacks), calibration fixed (no 12 s calibration; run
events burn about a hundredth of their time: acceptance is judged here, not
timing) and logs in a temporary directory. Keys that rt-app's
tutorial.txt never names are listed (rt-app 1.0 ignores most of them:
fork, taskgroup, fairsim's pipe_*, a resource's
"target").
One more check backs the line fairsim prints for a pre-1.0 signal
"target" (followed by fairsim, ignored by rt-app 1.0). Needs root (the
files use negative nice values): skips, saying so, otherwise. Prints "rtapp: N passed, N failed, N skipped" last.

With FAIRSIM given, the other way round too: every example Debian's
rt-app ships (/usr/share/doc/rt-app/examples) that rt-app runs, fairsim
runs for a second on 8 CPUs, or refuses only for having no task of the
fair class left (SCHED_FIFO-only examples), with the line naming them.

usage: tests/sim/rtapp.py TOP [JOBS [FAIRSIM]]
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TUTORIAL = '/usr/share/doc/rt-app/tutorial.txt'
SECONDS = 1
SLOW = 5
GRACE = 60


def plain(text):
	"""Comments and trailing commas out, a bare "suspend" key given "" as workgen does."""
	out, i, n = [], 0, len(text)
	while i < n:
		c = text[i]
		if text.startswith('//', i):
			i = text.find('\n', i)
			i = n if i < 0 else i
		elif text.startswith('/*', i):
			i = text.find('*/', i + 2)
			i = n if i < 0 else i + 2
		elif c == '"':
			j = i + 1
			while j < n and text[j] != '"':
				j += 2 if text[j] == '\\' else 1
			word = text[i:j + 1]
			out.append(word)
			i = j + 1
			k = len(text) - len(text[i:].lstrip())
			if word.startswith('"suspend') and k < n and text[k] in ',}' and \
			   ''.join(out[:-1]).rstrip()[-1:] in ('{', ','):
				out.append(': ""')
		elif c == ',':
			rest = re.match(r'(\s|//[^\n]*\n|/\*.*?\*/)*', text[i + 1:], re.S)
			j = i + 1 + rest.end()
			if j >= n or text[j] not in '}]':
				out.append(c)
			i += 1
		else:
			out.append(c)
			i += 1
	return ''.join(out)


def unique(pairs):
	"""workgen's numbering of a repeated key: "run", "run1", ..."""
	obj, seen = {}, set()
	for k, v in pairs:
		key, n = k, 1
		while key in seen:
			key, n = '%s%d' % (k, n), n + 1
		seen.add(key)
		obj[key] = v
	return obj


def threads(path):
	"""The threads rt-app starts for the file at once."""
	try:
		w = json.loads(plain(open(path).read()), object_pairs_hook=unique)
		return sum(max(t.get('instance', 1), 0) for t in w['tasks'].values())
	except (ValueError, KeyError, AttributeError, TypeError):
		return 0


def for_rtapp(path, logdir, accepted, seconds=SECONDS):
	"""The file as workgen would pass it, cut to a second; None if not JSON."""
	try:
		w = json.loads(plain(open(path).read()), object_pairs_hook=unique)
	except ValueError:
		return None
	for name, t in (w.get('tasks') or {}).items():
		for obj in [t] + list((t.get('phases') or {}).values() if isinstance(t, dict) else []):
			if not isinstance(obj, dict):
				continue
			for k, v in obj.items():
				if k.startswith('suspend') and v == '':
					obj[k] = name
				if k == 'cpus' and accepted and isinstance(v, list):
					obj[k] = sorted({c % os.cpu_count() for c in v if isinstance(c, int)})
	g = w.setdefault('global', {})
	if isinstance(g, dict):
		g['duration'] = seconds
		g.update(calibration=10000, logdir=logdir, log_size='disable', ftrace=False, gnuplot=False)
	return json.dumps(w, indent=1)


def undocumented(path, tutorial):
	"""Keys of the file that rt-app's tutorial.txt does not name."""
	keys = set()
	for m in re.finditer(r'"([A-Za-z_][\w-]*)"\s*:', plain(open(path).read())):
		keys.add(re.sub(r'[0-9#]+$', '', m.group(1)))
	try:
		w = json.loads(plain(open(path).read()), object_pairs_hook=unique)
		names = set(w.get('tasks', {})) | set(w.get('resources', {}) or {})
		for t in w.get('tasks', {}).values():
			names |= set(t.get('phases', {}) or {})
	except (ValueError, AttributeError):
		names = set()
	keys -= {re.sub(r'[0-9#]+$', '', x) for x in names}
	return sorted(k for k in keys if not re.search(r'\b%s\b' % re.escape(k), tutorial))


def claim(path):
	for line in open(path):
		m = re.match(r'\s*(//|\*)\s*rt-app: (refuses|hangs|erratic|documents|runs|limit): (.*\S)', line)
		if m:
			return m.group(2), m.group(3)
	return None, None


def run_rtapp(path, work, accepted, grace, seconds=SECONDS):
	"""rt-app on the file; (exit code or 'hung', output)."""
	text = for_rtapp(path, work, accepted, seconds)
	src = path
	if text is not None:
		src = os.path.join(work, 'w.json')
		with open(src, 'w') as f:
			f.write(text)
	try:
		p = subprocess.run(['rt-app', src], cwd=work, stdout=subprocess.PIPE,
				   stderr=subprocess.STDOUT, timeout=seconds + grace)
		return p.returncode, p.stdout.decode(errors='replace')
	except subprocess.TimeoutExpired as e:
		return 'hung', (e.output or b'').decode(errors='replace')


def judge(path, rel, accepted, tutorial, tmp):
	kind, what = claim(path)
	if kind == 'documents':
		said = ' '.join(what.split())
		if said in ' '.join(tutorial.split()):
			return True, 'rt-app\'s tutorial.txt: "%s"' % said
		return False, 'no "%s" in %s' % (said, TUTORIAL)
	if kind == 'limit':
		return None, 'not run, neither refused by rt-app nor against its rules: fairsim\'s limit: ' + what
	work = tempfile.mkdtemp(dir=tmp)
	rc, out = run_rtapp(path, work, accepted, 1 if kind == 'hangs' else GRACE)
	slow = ''
	if kind in (None, 'runs') and (rc == 'hung' or (rc != 0 and rc < 0)):
		# rt-app 1.0 can crash or stall when its run ends before it
		# has started every thread (hundreds, on a loaded machine), and
		# was seen to die of SIGSEGV while its threads were starting
		# on a loaded 2-core CI run: once more, longer, judges the file
		started = out.count('starting thread')
		slow = ' (rt-app 1.0 %s in a %d s run, %d of its %d threads started; ' \
		       'run again for %d s)' % ('stalled' if rc == 'hung' else 'died of signal %d' % -rc,
						 SECONDS, min(started, threads(path)), threads(path), SLOW)
		rc, out = run_rtapp(path, work, accepted, GRACE, SLOW)
	errors = [l.strip() for l in out.splitlines() if '<crit>' in l or '<error>' in l]
	if kind == 'refuses':
		if rc not in (0, 'hung') and re.search(what, out):
			return True, 'rt-app refuses it: %s' % (errors or ['exit %s' % rc])[0]
		return False, 'rt-app was to refuse it (%s) but: exit %s %s' % (what, rc, errors[:1])
	if kind == 'hangs':
		if rc == 'hung':
			return True, 'rt-app takes it and has not ended a second after its run: %s' % what
		return False, 'rt-app was to hang (%s) but: exit %s %s' % (what, rc, errors[:1])
	if kind == 'erratic':
		if rc == 'hung':
			return False, 'rt-app was to end, with an exit that varies (%s), but hung' % what
		return None, 'rt-app took it and ended with exit %s this time; that exit varies from run ' \
			'to run: %s' % (rc, what)
	if rc != 0 or errors:
		return False, 'rt-app: exit %s %s' % (rc, ' | '.join(errors[:2]) or out[-200:].strip())
	ign = undocumented(path, tutorial)
	note = ' (keys its tutorial.txt does not name: %s)' % ', '.join(ign) if ign else ''
	if kind == 'runs':
		return True, 'rt-app runs it%s%s; neither refused by rt-app nor against its rules: ' \
			'fairsim refuses it: %s' % (note, slow, what)
	if not accepted:
		return False, 'rt-app runs it: refuse it for a rule rt-app documents, or say why'
	return True, 'rt-app runs it for %d s%s%s' % (SECONDS, note, slow)


def loops_of(path, task, tmp):
	"""The loops rt-app logs for @task of the file in its one second."""
	work = tempfile.mkdtemp(dir=tmp)
	w = json.loads(for_rtapp(path, work, True))
	del w['global']['log_size']	# the default: logged at the end
	with open(os.path.join(work, 'w.json'), 'w') as f:
		json.dump(w, f)
	subprocess.run(['rt-app', 'w.json'], cwd=work, stdout=subprocess.DEVNULL,
		       stderr=subprocess.DEVNULL, timeout=SECONDS + GRACE)
	log = glob.glob(os.path.join(work, '*-%s-*.log' % task))
	return sum(1 for l in open(log[0]) if not l.startswith('#')) if log else -1


def target_ignored(top, tmp):
	"""
	fairsim follows a pre-1.0 signal's "target" and says that rt-app 1.0
	does not: cases/old_signal.json is cases/cond.json with the signal
	declared with a target. Expect B to log loops under cond.json and none
	under old_signal.json, its waiter never woken.
	"""
	cases = os.path.join(top, 'tests/sim/cases')
	old, new = (loops_of(os.path.join(cases, f), 'b', tmp) for f in ('old_signal.json', 'cond.json'))
	return old == 0 and new > 0, 'rt-app 1.0 ignores a signal\'s "target": b logs %d loops ' \
		'in old_signal.json, %d in cond.json' % (old, new)


EXAMPLES = '/usr/share/doc/rt-app/examples'


def example(path, fairsim, tmp):
	"""An example rt-app runs must run under fairsim: (ok, why); ok None: a skip."""
	work = tempfile.mkdtemp(dir=tmp)
	rc, out = run_rtapp(path, work, True, GRACE)
	if rc != 0 or '<crit>' in out or '<error>' in out:
		# rt-app does not run it either (merge/ fragments)
		errors = [l.strip() for l in out.splitlines() if '<crit>' in l or '<error>' in l]
		return None, 'rt-app itself does not run it: exit %s%s' % (rc, ' ' + ' '.join(errors[0].split()) if errors else '')
	p = subprocess.run([fairsim, '--quiet', '--cpus', '8', '--duration', str(SECONDS), path],
			   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
	err = p.stderr.decode(errors='replace').strip()
	if p.returncode == 0:
		return True, 'rt-app and fairsim run it%s' % ('; fairsim said: ' + err if err else '')
	if p.returncode == 1 and 'no task of the fair class is left to run' in err and '\n' not in err:
		return True, 'rt-app runs it; fairsim runs only the fair class: ' + err
	return False, 'rt-app runs it, fairsim (exit %d): %s' % (p.returncode, err[:300])


def main():
	top = os.path.abspath(sys.argv[1])
	jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 6
	fairsim = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
	examples = sorted(glob.glob(EXAMPLES + '/**/*.json', recursive=True)) if fairsim else []
	files = [(f, True) for f in sorted(glob.glob(top + '/fixtures/workloads/*.json')) +
		 sorted(glob.glob(top + '/tests/sim/cases/*.json'))]
	files += [(f, False) for f in sorted(glob.glob(top + '/tests/sim/bad/*.json'))]
	why = None
	if not shutil.which('rt-app') or not os.path.exists(TUTORIAL):
		why = 'rt-app is not installed (sched_fair/deps.sh installs Debian\'s rt-app)'
	elif os.geteuid() != 0:
		why = 'not root: rt-app cannot set the files\' negative nice values'
	if why:
		print('ok - rt-app judges our workload files # SKIP %s' % why)
		print('rtapp: 0 passed, 0 failed, 1 skipped')
		return 0
	tutorial = open(TUTORIAL).read()
	tmp = tempfile.mkdtemp(prefix='fairtest-rtapp.')
	try:
		with ThreadPoolExecutor(jobs) as ex:
			target = ex.submit(target_ignored, top, tmp)
			shipped = [ex.submit(example, f, fairsim, tmp) for f in examples]
			res = list(ex.map(lambda fa: judge(fa[0], os.path.relpath(fa[0], top), fa[1],
							  tutorial, tmp), files))
			target = target.result()
			shipped = [x.result() for x in shipped]
	finally:
		shutil.rmtree(tmp, ignore_errors=True)
	counts = {True: 0, False: 0, None: 0}

	def report(ok, what, why):
		"""One KTAP line; ok None is a skip, its reason after # SKIP."""
		counts[ok] += 1
		if ok is None:
			print('ok - %s # SKIP %s' % (what, why))
		else:
			print('%s - %s: %s' % ('ok' if ok else 'not ok', what, why))

	for (f, accepted), (ok, why) in zip(files, res):
		report(ok, 'rt-app, %s %s' % ('accepted' if accepted else 'refused', os.path.relpath(f, top)), why)
	counts[target[0]] += 1
	print('%s - %s' % ('ok' if target[0] else 'not ok', target[1]))
	for f, (ok, why) in zip(examples, shipped):
		report(ok, 'rt-app\'s example %s' % os.path.relpath(f, EXAMPLES), why)
	print('rtapp: %d passed, %d failed, %d skipped' % (counts[True], counts[False], counts[None]))
	return 1 if counts[False] else 0


if __name__ == '__main__':
	sys.exit(main())

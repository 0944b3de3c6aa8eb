#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The preload fork server against runs started afresh (issue 30, item 3).

usage: python3 bench/preload.py TNORM PROG CRASHES [FILES_PER_ROUND] [ROUNDS]
       BENCH_PROG=PROG BENCH_CRASHES=CRASHES ninja -C build bench-preload

Runs `tnorm minimize --no-harness` on each of the first FILES_PER_ROUND crash files of the
folder CRASHES (default 4), then `tnorm triage --no-harness -j 1` on a folder of those files,
with `PROG @@` as the command, two ways in alternation (ROUNDS times, default 3, the order
swapped every round): TNORM_PRELOAD=off (every run starts PROG afresh) and the default (the
first run afresh, then the preload fork server).  CPU is user + system of tnorm and everything it
waited for (RUSAGE_CHILDREN of this script: the program's runs, the fork server and its
children), not wall time.  Prints per way and command: runs, wall, runs per second, CPU per run
(ms), and the ratios of the two ways; and checks that both ways end on the same minimized
files and the same buckets.  Not a test: a table for bench/README.md.
"""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def measure(cmd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p, wall, cpu


def main():
    if len(sys.argv) == 2 and os.environ.get('BENCH_PROG') and os.environ.get('BENCH_CRASHES'):
        sys.argv += [os.environ['BENCH_PROG'], os.environ['BENCH_CRASHES']]
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tnorm, prog, crashes = sys.argv[1:4]
    nfiles = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    files = sorted(f for f in os.listdir(crashes) if not f.startswith('.'))[:nfiles]
    work = tempfile.mkdtemp(prefix='bench-preload-')
    ways = {'afresh': 'off', 'preload': ''}
    tot = {(w, c): [0, 0.0, 0.0] for w in ways for c in ('minimize', 'triage')}
    results = {}
    try:
        for r in range(rounds):
            order = list(ways) if r % 2 == 0 else list(reversed(list(ways)))
            for way in order:
                env = dict(os.environ, TNORM_DB='off')
                env.pop('TNORM_PRELOAD', None)
                if ways[way]:
                    env['TNORM_PRELOAD'] = ways[way]
                for f in files:
                    out = os.path.join(work, '%s-%d-%s.min' % (way, r, f))
                    p, wall, cpu = measure([tnorm, 'minimize', '--no-harness', '--json', '-o', out,
                                            os.path.join(crashes, f), '--', prog, '@@'], env)
                    runs = json.loads(p.stdout)['runs'] if p.returncode == 0 else 0
                    if not runs:
                        sys.exit('minimize %s (%s) failed: %s' % (f, way, p.stderr[-500:]))
                    results.setdefault(('min', f), set()).add(open(out, 'rb').read())
                    t = tot[(way, 'minimize')]
                    t[0] += runs
                    t[1] += wall
                    t[2] += cpu
                d = os.path.join(work, '%s-%d' % (way, r))
                os.mkdir(d)
                for f in files:
                    shutil.copy(os.path.join(crashes, f), d)
                p, wall, cpu = measure([tnorm, 'triage', '--no-harness', '-j', '1', '--quiet', d,
                                        '--', prog, '@@'], env)
                rep = json.load(open(os.path.join(d, 'triage', 'report.json')))
                runs = sum(x.get('runs', 0) for x in rep['results']) + rep['polish']['runs']
                results.setdefault(('triage',), set()).add(
                    json.dumps(sorted((b['count'], b['signature']) for b in rep['buckets'])))
                t = tot[(way, 'triage')]
                t[0] += runs
                t[1] += wall
                t[2] += cpu
        same = all(len(v) == 1 for v in results.values())
        print('%s on %d crash files of %s, %d rounds, interleaved' % (os.path.basename(prog), len(files),
                                                                    crashes, rounds))
        print('| command  | way     |  runs |  wall s |  runs/s | CPU ms/run | runs/s ratio | CPU/run ratio |')
        print('|----------|---------|-------|---------|---------|------------|--------------|---------------|')
        for c in ('minimize', 'triage'):
            base = tot[('afresh', c)]
            for w in ways:
                runs, wall, cpu = tot[(w, c)]
                rps = runs / wall if wall else 0
                cpr = 1000 * cpu / runs if runs else 0
                brps = base[0] / base[1] if base[1] else 0
                bcpr = 1000 * base[2] / base[0] if base[0] else 0
                print('| %-8s | %-7s | %5d | %7.2f | %7.1f | %10.3f | %11.2fx | %12.2fx |' % (
                    c, w, runs, wall, rps, cpr, rps / brps if brps else 0, cpr / bcpr if bcpr else 0))
        print('same minimized files and buckets both ways: %s' % ('yes' if same else 'NO'))
        if not same:
            sys.exit(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sampled triage against --thorough and a stack hash on one labelled crash folder (issue 38).

usage: compare.py [--thorough] [--keys KEYS.json] [-j N] NAME DIR TRUTH RUNNER [ARGS...]

DIR     the crash files (left untouched: each triage writes to a folder of its own in $TMPDIR)
TRUTH   labels: a .tsv of "FILE<TAB>BUG" lines or a .json {"FILE": "BUG"} (score-buckets' format)
RUNNER  the program and its arguments, @@ for the file (as `tnorm triage DIR -- RUNNER @@`)
KEYS    optional baselines {"METHOD": {"FILE": "KEY"}} (a stack hash, the crash line), scored
        beside tnorm (their cost is one plain run per file)

Runs every file once without tnorm (the plain cost: CPU of the children, /usr/bin/time's
user+sys), then `tnorm triage --no-db` (sampled, the default) and, with --thorough, the
thorough method, and prints one Markdown row per method: buckets, impure, missed, runs per
file, CPU per file (ms) and CPU against the plain runs of every file.  The CPU is measured with
getrusage of the children, so other work on the machine changes the wall time but little the
CPU; compare the methods as ratios in one run.
"""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TNORM = os.environ.get("TNORM", os.path.join(HERE, "..", "..", "build", "core", "cli", "tnorm"))


def labels(path):
    if path.endswith(".json"):
        return {f: b for f, b in json.load(open(path)).items() if b is not None}
    out = {}
    for line in open(path):
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 2:
            out[parts[0]] = parts[1]
    return out


def score(bucket_of, truth):
    groups = defaultdict(list)
    for f, bug in truth.items():
        k = bucket_of.get(f)
        if k is not None:
            groups[k].append(bug)
    per = [Counter(v) for v in groups.values()]
    seen = {b for c in per for b in c}
    impure = sum(1 for c in per if len(c) > 1)
    majority = {c.most_common(1)[0][0] for c in per}
    return len(groups), impure, len(seen - majority), len(seen)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def plain(files, runner):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:symbolize=0")
    t0 = children_cpu()
    for f in files:
        argv = [f if a == "@@" else a for a in runner]
        try:
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                           timeout=60)
        except subprocess.TimeoutExpired:
            pass
    return children_cpu() - t0


def triage(d, runner, jobs, thorough, work):
    out = os.path.join(work, "thorough" if thorough else "sampled")
    shutil.rmtree(out, ignore_errors=True)
    argv = [TNORM, "triage", d, "-o", out, "--no-db", "-j", str(jobs), "-q"]
    if thorough:
        argv.append("--thorough")
    t0 = children_cpu()
    p = subprocess.run(argv + ["--"] + runner, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    cpu = children_cpu() - t0
    if p.returncode != 0:
        sys.exit("compare.py: %s exited %d: %s" % (" ".join(argv), p.returncode,
                                                     p.stderr.decode(errors="replace")[-500:]))
    r = json.load(open(os.path.join(out, "report.json")))
    bucket_of = {}
    for i, b in enumerate(r["buckets"]):
        for t in b["tests"]:
            bucket_of[t] = i
    runs = sum(t["runs"] for t in r["results"]) + r["polish"]["runs"]
    return bucket_of, runs, cpu, r


def main(argv):
    thorough, keys, jobs = False, None, 2
    while argv and argv[0].startswith("-"):
        a = argv.pop(0)
        if a == "--thorough":
            thorough = True
        elif a == "--keys":
            keys = json.load(open(argv.pop(0)))
        elif a == "-j":
            jobs = int(argv.pop(0))
        else:
            sys.exit(__doc__)
    if len(argv) < 4:
        sys.exit(__doc__)
    name, d, truth, runner = argv[0], argv[1], labels(argv[2]), argv[3:]
    files = sorted(f for f in os.listdir(d) if os.path.isfile(os.path.join(d, f)))
    truth = {f: b for f, b in truth.items() if f in set(files)}
    n = len(files)
    work = tempfile.mkdtemp(prefix="tnorm-compare-")
    base = plain([os.path.join(d, f) for f in files], runner)
    rows = []
    for method in [False] + ([True] if thorough else []):
        bucket_of, runs, cpu, r = triage(d, runner, jobs, method, work)
        nb, impure, missed, bugs = score(bucket_of, truth)
        extra = "" if method else " (%d minimized)" % r.get("minimized", 0)
        rows.append(("tnorm --thorough" if method else "tnorm (sampled)", nb, impure, missed,
                     runs / n, cpu * 1000 / n, cpu / base if base else 0, extra, bugs))
    for m, k in (keys or {}).items():
        nb, impure, missed, bugs = score(k, truth)
        rows.append((m, nb, impure, missed, 1.0, base * 1000 / n, 1.0, "", bugs))
    print("%s: %d files, %d bugs, plain runs %.1f ms CPU per file" % (name, n, rows[0][8],
                                                                      base * 1000 / n))
    print("| corpus | method | buckets | impure | missed | runs/file | CPU ms/file | CPU vs plain |")
    print("|---|---|---|---|---|---|---|---|")
    for m, nb, impure, missed, rpf, cpf, ratio, extra, _ in rows:
        print("| %s | %s%s | %d | %d | %d | %.2f | %.1f | %.1fx |" % (name, m, extra, nb, impure,
                                                                    missed, rpf, cpf, ratio))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])

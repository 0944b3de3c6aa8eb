#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Does each bucket's representative fail on the buggy build and pass at its fix? (issue 38)

usage: represent.py OUT TRUTH OLD_RUNNER AT_CMD

OUT         a `tnorm triage` output folder (report.json, buckets/N-NAME)
TRUTH       labels: {"FILE": "FIX"} (score-buckets' format) or "FILE<TAB>FIX" lines; a label
            that is a commit names the first commit whose build no longer crashes on FILE, a
            label that starts with "unfixed:" a bug with no fix in the library's history
OLD_RUNNER  the buggy build: OLD_RUNNER FILE crashes (non-zero exit or a signal)
AT_CMD      a command that, given a commit, prints the path of the runner built at that commit
            (building it if needed), as /work/gt/NAME/runner-at.sh does

For every bucket: its representative (the file OUT/buckets/N-NAME, the bucket's normal form),
the label most of its files carry, one run on OLD_RUNNER (must fail) and one on the runner at
that label (must pass).  Prints a row per bucket and a total; exits 1 when a representative
passes on the buggy build or fails at its fix.  A bucket whose label is "unfixed:..." is checked
on the buggy build only (there is no fixed build to check against), and said so.
"""
import json
import os
import subprocess
import sys
from collections import Counter

from compare import labels  # the same TRUTH formats as compare.py


def fails(runner, path):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:symbolize=0")
    try:
        p = subprocess.run([runner, path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env=env, timeout=60)
    except subprocess.TimeoutExpired:
        return True
    return p.returncode != 0


def runner_at(cmd, commit, cache):
    if commit not in cache:
        p = subprocess.run([cmd, commit], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        path = p.stdout.decode().strip().splitlines()
        cache[commit] = path[-1] if p.returncode == 0 and path else None
    return cache[commit]


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    out, truth, old, at = argv[0], labels(argv[1]), argv[2], argv[3]
    report = json.load(open(os.path.join(out, "report.json")))
    cache, bad, rows = {}, 0, []
    for b in report["buckets"]:
        votes = Counter(truth[t] for t in b["tests"] if t in truth)
        if not votes:
            continue
        label, n = votes.most_common(1)[0]
        rep = os.path.join(out, "buckets", os.path.basename(b["file"]))
        at_old = fails(old, rep)
        if label.startswith("unfixed:"):
            at_fix, verdict = None, "ok (no fix to check)" if at_old else "PASSES ON THE BUGGY BUILD"
        else:
            r = runner_at(at, label, cache)
            if r is None:
                sys.exit("represent.py: %s %s printed no runner" % (at, label))
            at_fix = fails(r, rep)
            verdict = "ok" if at_old and not at_fix else (
                "PASSES ON THE BUGGY BUILD" if not at_old else "FAILS AT ITS FIX")
        bad += not verdict.startswith("ok")
        rows.append((b["id"], len(b["tests"]), label[:12], "%d/%d" % (n, sum(votes.values())),
                     "fails" if at_old else "passes",
                     "-" if at_fix is None else ("fails" if at_fix else "passes"), verdict,
                     b["signature"][:70]))
    print("| bucket | files | label | of them | buggy build | at the fix | verdict | signature |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %d | %s | %s | %s | %s | %s | `%s` |" % r)
    print("%d buckets, %d representatives wrong" % (len(rows), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

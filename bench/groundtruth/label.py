#!/usr/bin/env python3
"""Ground-truth labels: for each crash file, the first commit after OLD (in
first-parent order) whose runner build does not crash on it.

usage: label.py --commits FILE --build CMD OUT.tsv CRASHFILE...
  --commits: commit ids, one per line, oldest first; line 1 is OLD.
  --build:   command that builds the runner for a commit (given as its last
             argument), prints the runner's path on stdout, exits non-zero if
             that commit does not build.
Writes OUT.tsv: file<TAB>label, label = fixing commit id, "unfixed", or
"noreproduce" (does not crash at OLD).  Binary search assumes a file crashes on
every commit before its fix; a commit that does not build is skipped (the
search moves to the next buildable commit).
"""
import argparse, os, re, subprocess, sys

SAN = re.compile(rb"ERROR: (AddressSanitizer|LeakSanitizer)")
build_cache = {}
run_cache = {}


def runner(commit, build_cmd):
    if commit not in build_cache:
        p = subprocess.run(build_cmd + [commit], stdout=subprocess.PIPE)
        path = p.stdout.decode().strip().splitlines()[-1] if p.returncode == 0 and p.stdout.strip() else None
        build_cache[commit] = path
        print(f"  build {commit[:10]}: {'ok' if path else 'FAILED'}", file=sys.stderr)
    return build_cache[commit]


def crashes(commit, f, build_cmd):
    """True/False, or None if the commit does not build."""
    key = (commit, f)
    if key in run_cache:
        return run_cache[key]
    r = runner(commit, build_cmd)
    if r is None:
        return None
    try:
        p = subprocess.run([r, f], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=30)
        res = bool(SAN.search(p.stderr)) or p.returncode < 0 or p.returncode >= 128
    except subprocess.TimeoutExpired:
        res = False  # a hang is not a sanitizer crash
    run_cache[key] = res
    return res


def first_fix(commits, f, build_cmd):
    if not crashes(commits[0], f, build_cmd):
        return "noreproduce"
    # newest buildable commit
    last = len(commits) - 1
    while last > 0 and crashes(commits[last], f, build_cmd) is None:
        last -= 1
    if last == 0 or crashes(commits[last], f, build_cmd):
        return "unfixed"
    lo, hi = 0, last  # crashes at lo, not at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        m = mid
        while m < hi and crashes(commits[m], f, build_cmd) is None:
            m += 1
        if m == hi:  # nothing buildable in [mid, hi): try below mid
            m = mid - 1
            while m > lo and crashes(commits[m], f, build_cmd) is None:
                m -= 1
            if m == lo:
                break
        if crashes(commits[m], f, build_cmd):
            lo = m
        else:
            hi = m
    return commits[hi]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--commits", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    commits = [l.strip() for l in open(a.commits) if l.strip()]
    build_cmd = a.build.split()
    rows = []
    for i, f in enumerate(sorted(a.files)):
        lab = first_fix(commits, f, build_cmd)
        print(f"[{i+1}/{len(a.files)}] {os.path.basename(f)} -> {lab}", file=sys.stderr)
        rows.append((os.path.basename(f), lab))
    with open(a.out, "w") as o:
        for r in rows:
            o.write("%s\t%s\n" % r)
    print(f"builds: {len(build_cache)} ({sum(1 for v in build_cache.values() if v is None)} failed), runs: {len(run_cache)}", file=sys.stderr)


if __name__ == "__main__":
    main()

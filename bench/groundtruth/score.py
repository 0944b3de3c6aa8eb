#!/usr/bin/env python3
"""Score a bucketing of crash files against ground-truth labels.

usage: score.py [-v] LABELS.tsv BUCKETS.tsv   (-v: also print each bucket's label counts)
  LABELS.tsv:  file<TAB>label   (label = the commit that fixed the file's bug)
  BUCKETS.tsv: file<TAB>bucket
Prints: files, bugs (distinct labels), buckets, impure buckets (files of 2+
labels), missed bugs (labels that are the majority label of no bucket).  Files
in LABELS but in no bucket are counted as "unbucketed" (and put in no bucket);
file names are compared by basename.
"""
import collections, os, sys


def read(path):
    d = {}
    for line in open(path):
        line = line.rstrip("\n")
        if not line:
            continue
        k, v = line.split("\t", 1)
        d[os.path.basename(k)] = v
    return d


def main():
    args = sys.argv[1:]
    verbose = bool(args) and args[0] == "-v"
    if verbose:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    labels, buckets = read(args[0]), read(args[1])
    members = collections.defaultdict(list)
    for f, b in buckets.items():
        if f in labels:
            members[b].append(labels[f])
    unbucketed = [f for f in labels if f not in buckets]
    extra = [f for f in buckets if f not in labels]
    bugs = set(labels.values())
    impure = 0
    majority = set()
    for b, labs in members.items():
        c = collections.Counter(labs)
        if len(c) > 1:
            impure += 1
        top = max(c.values())
        majority.update(l for l, n in c.items() if n == top)  # ties: each tied label counts
    missed = sorted(bugs - majority)
    print(f"files\t{len(labels)}")
    print(f"bugs\t{len(bugs)}")
    print(f"buckets\t{len(members)}")
    print(f"impure\t{impure}")
    print(f"missed\t{len(missed)}")
    if missed:
        print("missed_labels\t" + ",".join(m[:10] for m in missed))
    if unbucketed:
        print(f"unbucketed\t{len(unbucketed)}")
    if extra:
        print(f"unlabeled_in_buckets\t{len(extra)}")
    if verbose:
        for b in sorted(members, key=lambda b: -len(members[b])):
            c = collections.Counter(members[b])
            print("  %4d  %s  %s" % (len(members[b]), b[:110],
                                     " ".join("%s:%d" % (l[:10], n) for l, n in c.most_common())))


if __name__ == "__main__":
    main()

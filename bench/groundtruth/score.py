#!/usr/bin/env python3
"""Score a bucketing of crash files against ground-truth labels.

usage: score.py LABELS.tsv BUCKETS.tsv
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
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    labels, buckets = read(sys.argv[1]), read(sys.argv[2])
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


if __name__ == "__main__":
    main()

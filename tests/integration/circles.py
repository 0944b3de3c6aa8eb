#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No include circle and no call circle among the engine's files (issue 42, item 3).

Includes, from the sources: each `#include "X"` of a file under core/src or core/include/tnorm
that names one of those files is an edge; a circle is a file that includes itself through
others.  Calls, from the built library: `nm` of each object in libtnorm.a (the engine and the
test model, one object per core/src/NAME.c) gives the symbols it defines and those it uses;
an object that uses a symbol another defines calls that file.  Two files that call each other,
or any longer loop (a calls b calls c calls a), is a circle: the shared piece belongs in a file
below them (docs/architecture.md says which file calls which).

Each circle is printed with the calls (or includes) that make it, and fails the test.  A circle
listed in KNOWN is reported and let pass; the list is empty, and an entry there must name its
issue.  The test also fails when the archive holds no object of some core/src/*.c file, or
when it found no calls at all: a build whose objects it cannot read must not pass unseen.

usage: circles.py SOURCE_ROOT LIBTNORM_A
"""
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # (no __pycache__ in the source tree)
import callgraph  # noqa: E402 (beside this file)

# Circles let pass for now, as sorted tuples of file names, each with the issue that tracks it.
KNOWN = {
}


def circles(graph):
    """The strongly connected components of more than one node (Tarjan's, without recursion),
    and single nodes with an edge to themselves, each as a sorted list."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in graph.get(v, ()):
                    out.append(sorted(comp))
    return sorted(out)


def include_graph(root):
    src = os.path.join(root, "core", "src")
    inc = os.path.join(root, "core", "include")
    files = sorted(glob.glob(os.path.join(src, "*.[ch]")) +
                   glob.glob(os.path.join(inc, "tnorm", "*.h")))
    names = {f: os.path.relpath(f, os.path.join(root, "core")) for f in files}
    graph = {names[f]: set() for f in files}
    for f in files:
        for line in open(f, encoding="utf-8"):
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            if not m:
                continue
            for d in (os.path.dirname(f), src, inc):
                target = os.path.normpath(os.path.join(d, m.group(1)))
                if target in names:
                    graph[names[f]].add(names[target])
                    break
    return graph


def call_graph(archive):
    """{file: set of files it calls} and {(caller, callee): symbols} (callgraph.py)."""
    why, objects = callgraph.read(archive)
    graph = {name: set() for name in objects}
    for a, b in why:
        graph[a].add(b)
    return graph, why


def main():
    root, archive = sys.argv[1], sys.argv[2]
    bad = 0

    inc = include_graph(root)
    for comp in circles(inc):
        print("FAIL: include circle among %s:" % ", ".join(comp))
        for a in comp:
            for b in sorted(inc[a] & set(comp)):
                print("  %s includes %s" % (a, b))
        bad += 1

    calls, why = call_graph(archive)
    sources = {os.path.basename(c) for c in glob.glob(os.path.join(root, "core", "src", "*.c"))}
    missing = sorted(sources - set(calls))
    if missing:
        print("FAIL: no object in %s for %s (is it built from core/src?)" %
              (archive, ", ".join(missing)))
        bad += 1
    nedges = sum(len(v) for v in calls.values())
    if nedges < len(sources):
        print("FAIL: only %d calls between files found in %s: nm's output not understood" %
              (nedges, archive))
        bad += 1
    for comp in circles(calls):
        known = KNOWN.get(tuple(comp))
        print("%s: call circle among %s%s:" % ("known" if known else "FAIL", ", ".join(comp),
                                              " (%s)" % known if known else ""))
        for a in comp:
            for b in sorted(calls[a] & set(comp)):
                print("  %s calls %s: %s" % (a, b, ", ".join(sorted(why[(a, b)]))))
        bad += 0 if known else 1

    print("%d files in the include graph, %d in the call graph; %d failures" %
          (len(inc), len(calls), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

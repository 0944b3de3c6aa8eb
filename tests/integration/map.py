#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/architecture.md matches core/src (issue 42, item 6).

1. Every file under core/src (sources and internal headers) is named in architecture.md, as
   NAME or core/src/NAME (tnorm/NAME.h is the public header, not it).
2. Every arrow of the map (the first ``` block) is a call: on each line, split into columns at
   runs of three or more spaces, `a.c ──► b.c, c.c ──► d.c` says that a.c calls b.c and c.c,
   and c.c calls d.c (text in parentheses is a comment).  A call is a symbol one object of the
   built library (libtnorm.a, one object per core/src/NAME.c) uses and another defines: `nm`.
3. Every call between two core/src files is drawn, but a call into the bottom layers (BOTTOM:
   the model, signatures, JSON, allocation, errors), which nearly every file makes; from a file
   of those layers, every call is drawn too, but those into alloc.c and error.c (EVERYWHERE).

Each difference is printed and fails the test.  Without LIBTNORM_A only the first is checked.

usage: map.py SOURCE_ROOT [LIBTNORM_A]
"""
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # (no __pycache__ in the source tree)
import callgraph  # noqa: E402 (beside this file)

ARROW = "\u2500\u2500\u25ba"  # ──►
# The bottom layers of the map (architecture.md says why calls into them are not all drawn).
BOTTOM = {
    # the model
    "harness.c", "harness_lex.c", "harness_parse.c", "harness_values.c", "harness_check.c",
    "order.c", "lex.c", "test.c", "gen.c", "guard.c", "pools.c",
    # signatures
    "signature.c", "signature_process.c", "symbolize.c", "symbolize_cache.c", "symbolize_elf.c",
    "symbolize_dwarf.c", "cxxexc.c", "report.c", "severity.c", "mergetrap.c", "probe.c",
    # JSON, allocation, errors
    "json.c", "alloc.c", "env.c", "error.c",
}
# Called from every layer, drawn from none.
EVERYWHERE = {"alloc.c", "error.c"}


def named(text, name):
    """Whether `name` (a core/src file) is named in text: not as part of a longer name or path,
    but core/src/NAME counts."""
    for m in re.finditer(r"(?<![\w.\-])((?:core/src/)?)" + re.escape(name) + r"(?![\w])", text):
        start = m.start()
        if m.group(1) or start == 0 or text[start - 1] != "/":
            return True
    return False


def drawn_arrows(text, sources):
    """The calls the map draws: a set of (caller, callee), and the lines they came from."""
    m = re.search(r"^```\n(.*?)^```", text, re.M | re.S)
    if not m:
        return None, {}
    arrows, where = set(), {}
    for line in m.group(1).splitlines():
        line = re.sub(r"\([^)]*\)", " ", line)
        for column in re.split(r"\s{3,}", line):
            parts = column.split(ARROW)
            for left, right in zip(parts, parts[1:]):
                callers = [n for n in re.findall(r"[\w.]+\.c\b", left) if n in sources]
                callees = [n for n in re.findall(r"[\w.]+\.c\b", right) if n in sources]
                if not callers:
                    continue
                for callee in callees:
                    arrows.add((callers[-1], callee))
                    where[(callers[-1], callee)] = column.strip()
    return arrows, where


def main():
    root = sys.argv[1]
    archive = sys.argv[2] if len(sys.argv) > 2 else None
    doc = os.path.join(root, "docs", "architecture.md")
    text = open(doc, encoding="utf-8").read()
    files = sorted(os.path.basename(f) for f in glob.glob(os.path.join(root, "core", "src", "*"))
                   if f.endswith((".c", ".h")))
    sources = {f for f in files if f.endswith(".c")}
    bad = 0
    for f in files:
        if not named(text, f):
            print("FAIL: core/src/%s is named nowhere in docs/architecture.md" % f)
            bad += 1
    if archive:
        arrows, where = drawn_arrows(text, sources)
        if arrows is None:
            print("FAIL: docs/architecture.md has no map (a ``` block)")
            return 1
        calls, objects = callgraph.read(archive)
        if not sources <= objects or len(calls) < len(sources):
            print("FAIL: %s does not hold the objects of core/src (%d of %d; %d calls)" %
                  (archive, len(sources & objects), len(sources), len(calls)))
            return 1
        for a, b in sorted(arrows):
            if (a, b) not in calls:
                print("FAIL: the map draws %s ──► %s (in `%s`), but %s calls nothing of %s" %
                      (a, b, where[(a, b)], a, b))
                bad += 1
        for (a, b), syms in sorted(calls.items()):
            if (a, b) not in arrows and b not in EVERYWHERE and (b not in BOTTOM or a in BOTTOM):
                print("FAIL: %s calls %s (%s), which the map does not draw" %
                      (a, b, ", ".join(sorted(syms)[:4])))
                bad += 1
        print("%d arrows drawn, %d calls between files" % (len(arrows), len(calls)))
    print("%d files under core/src; %d differences" % (len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

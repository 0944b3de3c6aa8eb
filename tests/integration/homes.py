#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every public function is defined where its header says (issue 31, item 4).

A function declared in core/include/tnorm/NAME.h is defined in NAME.c (under core/src,
core/driver or core/preload), or in one of the files the header's opening comment lists on a
line "Defined in: a.c, b.c (...)".  A function defined nowhere, or in a file its header does not
name, fails the test; so does a file a header names that does not exist.

usage: homes.py SOURCE_ROOT
"""
import glob
import os
import re
import sys

root = sys.argv[1]
DECL = re.compile(r"TNORM_EXTERN[^;(]*?\b(tnorm_\w+)\s*\(")
# A definition: a line starting with a type at column 0, the name, its parameters, then `{`.
DEFN = re.compile(r"^[A-Za-z_][\w \*]*?\b(tnorm_\w+)\s*\([^;{]*?\)\s*\{", re.M | re.S)
HOMES = re.compile(r"^ \* Defined in: (.*?)\.\s*$", re.M | re.S)

defined = {}
files = set()
for d in ("src", "driver", "preload"):
    for c in glob.glob(os.path.join(root, "core", d, "*.c")):
        name = os.path.basename(c)
        files.add(name)
        text = open(c, encoding="utf-8").read()
        text = re.sub(r"__attribute__\s*\(\(.*?\)\)\s*", "", text)
        for m in DEFN.finditer(text):
            defined.setdefault(m.group(1), []).append(name)

bad = 0
headers = sorted(glob.glob(os.path.join(root, "core", "include", "tnorm", "*.h")))
for h in headers:
    base = os.path.basename(h)[:-2]
    text = open(h, encoding="utf-8").read()
    head = text[:text.find("#ifndef")]  # the opening comments
    homes = {base + ".c"}
    for m in HOMES.finditer(head):
        listed = re.sub(r"\s*\n \*\s*", " ", m.group(1))
        for part in re.split(r",\s*", re.sub(r"\([^)]*\)", "", listed)):
            if part.strip():
                homes.add(part.strip())
    for f in sorted(homes - {base + ".c"} - files):
        print("FAIL: %s.h names %s, which does not exist" % (base, f))
        bad += 1
    for m in DECL.finditer(text):
        fn = m.group(1)
        where = defined.get(fn)
        if not where:
            print("FAIL: %s (%s.h) is defined nowhere in core/" % (fn, base))
            bad += 1
        elif not set(where) & homes:
            print("FAIL: %s (%s.h) is defined in %s; the header names %s" %
                  (fn, base, ", ".join(where), ", ".join(sorted(homes))))
            bad += 1
print("%d public headers, %d functions; %d misplaced" % (
    len(headers), sum(len(DECL.findall(open(h).read())) for h in headers), bad))
sys.exit(1 if bad else 0)

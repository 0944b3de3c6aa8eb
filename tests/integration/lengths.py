#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No function over 100 lines outside generated code (issue 42).

The rule: a C function's length is counted from the line of its opening brace to the line of its
closing brace, both included (a function whose `{` is on line 10 and `}` on line 110 has 101
lines: one too many).  A Python function's length is counted from its `def` line to the last
line of its body.  Every *.c and *.h under core/src, core/cli, core/driver and core/python, and
every *.py under core/python, is measured; generated code (the harness arrays tnorm-embed
writes, in the build folder, and any file that says "generated ... do not edit" in its first
lines) is not in those folders' sources and is left out.

Each function over the limit is printed as FILE:LINE NAME LENGTH and fails the test: split it
into named pieces, each of which a reader can take in at once.

usage: lengths.py SOURCE_ROOT
"""
import ast
import glob
import os
import re
import sys

LIMIT = 100
DIRS = ("core/src", "core/cli", "core/driver", "core/python")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "__attribute__", "defined",
            "_Alignof", "alignof", "__typeof__", "typeof", "_Generic"}


def blank(m):
    """A comment, string or character literal, or preprocessor line, as spaces (newlines kept)."""
    return re.sub(r"[^\n]", " ", m.group(0))


def strip(text):
    """The text with comments, literals and preprocessor lines blanked, lines kept in place."""
    pattern = re.compile(r"""
        /\*.*?\*/                           # a block comment
      | //[^\n]*                            # a line comment
      | "(?:\\.|[^"\\\n])*"                 # a string literal
      | '(?:\\.|[^'\\\n])*'                 # a character literal
      | ^[ \t]*\#(?:[^\n]*\\\n)*[^\n]*      # a preprocessor line, with its continuations
    """, re.S | re.M | re.X)
    return pattern.sub(blank, text)


def c_functions(text):
    """(name, line of `{`, length) of each function defined in C source text."""
    s = strip(text)
    out = []
    depth = 0
    head_start = 0  # where the text before the next top-level `{` starts
    i = 0
    open_at = None
    name = None
    while i < len(s):
        ch = s[i]
        if ch == "{":
            if depth == 0:
                head = s[head_start:i]
                name = function_name(head)
                open_at = i
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if name:
                    first = s.count("\n", 0, open_at) + 1
                    last = s.count("\n", 0, i) + 1
                    out.append((name, first, last - first + 1))
                name = None
                head_start = i + 1
        elif ch == ";" and depth == 0:
            head_start = i + 1
        i += 1
    return out


def function_name(head):
    """The function a definition's head (the text before its `{`) defines, or None when the
    braces open something else (a struct, an enum, an initializer, extern "C")."""
    h = head.strip()
    if not h.endswith(")") or "=" in h:
        return None
    if re.match(r"^(typedef|struct|union|enum)\b", h) and "(" not in h.split("{")[0]:
        return None
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", h):
        if m.group(1) not in KEYWORDS and not m.group(1).startswith("__attribute"):
            return m.group(1)
    return None


def py_functions(text):
    """(name, `def` line, length) of each Python function."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append((node.name, node.lineno, node.end_lineno - node.lineno + 1))
    return out


def generated(text):
    head = "\n".join(text.splitlines()[:5]).lower()
    return "generated" in head and "do not edit" in head


def main():
    root = sys.argv[1]
    files = []
    for d in DIRS:
        for ext in ("*.c", "*.h", "*.py"):
            files += glob.glob(os.path.join(root, d, ext))
    bad = counted = 0
    for path in sorted(files):
        text = open(path, encoding="utf-8").read()
        if generated(text):
            continue
        found = py_functions(text) if path.endswith(".py") else c_functions(text)
        counted += len(found)
        for name, line, length in found:
            if length > LIMIT:
                print("FAIL: %s:%d %s is %d lines (limit %d)" %
                      (os.path.relpath(path, root), line, name, length, LIMIT))
                bad += 1
    if counted < 100:
        print("FAIL: only %d functions found: the sources were not read" % counted)
        return 1
    print("%d functions in %d files; %d over %d lines" % (counted, len(files), bad, LIMIT))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

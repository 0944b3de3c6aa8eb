#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The sanitizers' names live in one module (issue 42, item 4).

What tnorm knows about the sanitizers (their runtimes' function prefixes, libraries, report
entries, hooks, options variables, the form of their kinds) is in core/src/sanitizer.c and its
headers; the rest of the library, the CLI, the Python binding and both debugger plugins ask it
(tnorm/sanitizer.h, sanitizer_internal.h, _tnorm.sanitizers(), _tnorm.sanitizer_kind()).  This
check fails when one of the names below appears in code outside the module: in core/ (C, headers,
Python), gdb-plugin/ and lldb-plugin/.  Comments and Python docstrings are prose and are not
checked; tests and docs are outside the folders checked.  TEXT lists the strings meant for a
reader (help text, docstrings of the binding's method table) that name a variable or kind as an
example; each entry is one whole literal, so a new use in code is still caught.

usage: sanitizer_literals.py SOURCE_ROOT
"""
import io
import os
import re
import sys
import tokenize

NAMES = re.compile(r"(?<![A-Za-z0-9])_*__(?:asan|ubsan|sanitizer|interceptor)"
                   r"|\b(?:asan|ubsan):|\b(?:ASAN|UBSAN)_OPTIONS")
DIRS = ("core", "gdb-plugin", "lldb-plugin")
MODULE = {"core/src/sanitizer.c", "core/src/sanitizer_internal.h", "core/src/sanitizer_names.h",
          "core/include/tnorm/sanitizer.h"}
# Text for a reader that gives a name as an example (path -> the literals, exactly as written).
TEXT = {
    "core/cli/cmd_reduce.c": {
        '"  --env N=V      add to the program\'s environment (repeatable); ASAN_OPTIONS and\\n"'},
    "core/cli/cmd_run.c": {
        '"  --env N=V      add to the program\'s fixed environment (repeatable); ASAN_OPTIONS\\n"'},
    "core/python/_tnorm.c": {
        '"kind (such as \'SIGSEGV\' or \'asan:heap-use-after-free:READ\', or None), top (the kind and the "',
        '"program a debugger runs (ASAN_OPTIONS, UBSAN_OPTIONS), so that a sanitizer\'s report '
        'ends in "',
        '"report message (what __ubsan_get_current_report_data gives, or what follows \'runtime "',
        '"error: \'): \'ubsan:signed-integer-overflow\' for \'Signed integer overflow: 1 + ...\'; '
        'None "'},
}
# Files whose data is keyed by kinds as the user sees them (path -> why).
KEYED = {"core/src/severity.c": "the severity rules, one row per kind (docs/signatures.md)"}
C_TOKENS = re.compile(r"""/\*.*?\*/ | //[^\n]* | "(?:\\.|[^"\\\n])*" | '(?:\\.|[^'\\\n])*'
                          | [^"'/]+ | /""", re.S | re.X)


def c_code(text):
    """(line, piece) of the text's code and string literals, comments left out."""
    line = 1
    for m in C_TOKENS.finditer(text):
        piece = m.group(0)
        if not piece.startswith(("/*", "//")):
            yield line, piece
        line += piece.count("\n")


def py_code(text):
    """(line, piece) of the text's tokens, comments and docstrings (a string that is a whole
    statement) left out.  Tokens, not ast: the plugins are templates (.py.in)."""
    toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL)]
    for k, tok in enumerate(toks):
        if tok.type == tokenize.COMMENT:
            continue
        if tok.type == tokenize.STRING and (k == 0 or toks[k - 1].type in (
                tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)) and \
                (k + 1 == len(toks) or toks[k + 1].type == tokenize.NEWLINE):
            continue
        yield tok.start[0], tok.string


def main(root):
    bad = []
    for top in DIRS:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                if rel in MODULE or rel in KEYED:
                    continue
                if name.endswith((".c", ".h")):
                    pieces = c_code
                elif name.endswith((".py", ".py.in")):
                    pieces = py_code
                else:
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for line, piece in pieces(text):
                    if NAMES.search(piece) and piece not in TEXT.get(rel, ()):
                        bad.append("%s:%d: %s" % (rel, line, piece.strip()[:90]))
    for b in bad:
        print(b)
    if bad:
        print("sanitizer names outside core/src/sanitizer.c and its headers: %d (use "
              "tnorm/sanitizer.h, sanitizer_internal.h, or _tnorm.sanitizers())" % len(bad))
        return 1
    print("sanitizer names: only in the sanitizer module")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

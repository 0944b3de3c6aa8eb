# SPDX-License-Identifier: MIT
"""Mutants of the AVL example (bench/mutants): one textual change each to the fixed avl.c.

usage: /usr/bin/python3 mutate.py AVL_C OUTDIR [--max N]

Reads examples/avl/avl.c, removes the seeded fault (the #ifndef AVL_FIXED block), and writes
OUTDIR/mNNN.c, one mutant per file, plus OUTDIR/list.tsv (id, line, kind, description).  Only
the tree code is mutated (from height() to avl_new()), never the invariant checker, which is the
test oracle.  Operators: relational operator replacement, integer constant +1/-1, deletion of
one simple statement.  The order is deterministic; --max keeps an even spread over the kinds.
"""
import os
import re
import sys


def strip_fault(src):
    return re.sub(r"#ifndef AVL_FIXED\n.*?#endif\n", "", src, flags=re.S)


REL = [("<=", ["<", ">="]), (">=", [">", "<="]), ("==", ["!="]), ("!=", ["=="]),
       ("<", ["<=", ">"]), (">", [">=", "<"])]


def relational(line):
    out = []
    code = line.split("/*")[0]
    for m in re.finditer(r"<=|>=|==|!=|(?<![-<>])<(?![<=])|(?<![->])>(?![>=])", code):
        op = m.group(0)
        if code[max(0, m.start() - 1):m.start()] == "-" or "#include" in code:
            continue
        for new in dict(REL)[op]:
            out.append((line[:m.start()] + new + line[m.end():], "relational %s -> %s" % (op, new)))
    return out


def constants(line):
    out = []
    code = line.split("/*")[0]
    for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", code):
        c = int(m.group(1))
        for new in (c + 1, c - 1):
            if new >= 0:
                out.append((line[:m.start()] + str(new) + line[m.end():],
                            "constant %d -> %d" % (c, new)))
    return out


def deletion(line):
    s = line.strip()
    if (s.endswith(";") and not s.startswith(("return", "int ", "node ", "avl ", "static", "const"))
            and "=" in s or s.startswith(("update(", "free(", "abort("))):
        indent = line[:len(line) - len(line.lstrip())]
        return [(indent + ";\n", "delete statement: " + s)]
    return []


def main():
    args = sys.argv[1:]
    limit = 0
    if "--max" in args:
        i = args.index("--max")
        limit = int(args[i + 1])
        del args[i:i + 2]
    src, outdir = args
    text = strip_fault(open(src).read())
    lines = text.splitlines(keepends=True)
    first = next(i for i, l in enumerate(lines) if l.startswith("static int height"))
    last = next(i for i, l in enumerate(lines) if l.startswith("avl *avl_new"))
    by_kind = {"relational": [], "constant": [], "delete": []}
    for i in range(first, last):
        line = lines[i]
        if line.lstrip().startswith(("/*", "*", "//", "#")):
            continue
        for new, what in relational(line):
            by_kind["relational"].append((i, new, what))
        for new, what in constants(line):
            by_kind["constant"].append((i, new, what))
        for new, what in deletion(line):
            by_kind["delete"].append((i, new, what))
    chosen = []
    kinds = list(by_kind)
    if limit:
        # round-robin over the kinds, each kind's mutants spread evenly over its list
        per = {k: by_kind[k][::max(1, len(by_kind[k]) * len(kinds) // limit)] for k in kinds}
        while len(chosen) < limit and any(per.values()):
            for k in kinds:
                if per[k] and len(chosen) < limit:
                    chosen.append((k,) + per[k].pop(0))
    else:
        chosen = [(k,) + m for k in kinds for m in by_kind[k]]
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "list.tsv"), "w") as f:
        for n, (kind, i, new, what) in enumerate(chosen, 1):
            mid = "m%03d" % n
            mutated = lines[:i] + [new] + lines[i + 1:]
            with open(os.path.join(outdir, mid + ".c"), "w") as g:
                g.write("".join(mutated))
            f.write("%s\t%d\t%s\t%s\n" % (mid, i + 1, kind, what.replace("\t", " ")))
    print("%d mutants (%s)" % (len(chosen), ", ".join("%s %d" % (k, len(v)) for k, v in by_kind.items())))


if __name__ == "__main__":
    main()

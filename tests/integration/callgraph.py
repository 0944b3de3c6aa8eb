# SPDX-License-Identifier: MIT
"""Which core/src file calls which, from the built library: what circles.py and map.py share.

`nm -A` of libtnorm.a (the engine and the test model, one object per core/src/NAME.c, named
src_NAME.c.o) gives the symbols each object defines and those it uses; an object that uses a
symbol another defines calls that file.
"""
import re
import subprocess


def read(archive):
    """{(caller, callee): [symbols]} between files named NAME.c, and the set of files seen."""
    out = subprocess.run(["nm", "-A", archive], capture_output=True, text=True, check=True).stdout
    defined, used = {}, {}
    for line in out.splitlines():
        # archive:member:[value] type name
        m = re.match(r"^.*?:([^:\s]+\.c\.o):\s*(?:[0-9a-fA-F]+)?\s+([A-Za-z])\s+(\S+)$", line)
        if not m:
            continue
        member, kind, sym = m.groups()
        name = re.sub(r"^src_", "", member)[:-2]  # src_runner.c.o -> runner.c
        used.setdefault(name, set())
        if kind == "U":
            used[name].add(sym)
        elif kind.isupper() or kind in "uvw":
            defined[sym] = name
    calls = {}
    for name, syms in used.items():
        for sym in syms:
            other = defined.get(sym)
            if other and other != name:
                calls.setdefault((name, other), []).append(sym)
    return calls, set(used)

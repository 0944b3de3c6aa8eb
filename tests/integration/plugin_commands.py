# SPDX-License-Identifier: MIT
"""The plugins' command table (tnorm_shared.COMMANDS, issue 42 item 5): every subcommand is in
`tnorm help`, in the `tnorm` command's own help (the plugins' docstrings, generated from the
table), in the completion, is parsed and dispatched to its handler, and is named in docs/gdb.md
and docs/lldb.md.  Then the same in real gdb and lldb (`help tnorm`, `complete tnorm `), when
they are given (arguments: build/core/python core/python SRC BUILD GDB LLDB, GDB and LLDB
empty when not found)."""
import os
import re
import subprocess
import sys

sys.path[:0] = [sys.argv[1], sys.argv[2]]  # build/core/python, core/python
import tnorm_shared as ts  # noqa: E402
from tap import check, raises, finish  # noqa: E402  (tests/integration/tap.py)

SRC, BUILD, GDB, LLDB = sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]


def subcommands_line(text):
    """The subcommands the `tnorm` command's help lists ("Subcommands: a, b,\\nc." up to the
    period)."""
    m = re.search(r"Subcommands: ([^.]*)\.", text)
    return set(re.split(r"[,\s]+", m.group(1).strip())) if m else set()


NAMES = ts.SUBCOMMANDS


class Host(getattr(ts, "Host", object)):
    """A debugger with no program loaded: each command gets as far as it can without one."""
    doc, tty, navigating = "docs/gdb.md", False, False
    write = lambda self, s: self.out.append(s)  # noqa: E731
    flush = set_step_breaks = lambda self, *a: None  # noqa: E731
    interrupted = alive = lambda self: False  # noqa: E731
    hook_step = stop_signature_parts = lambda self: None  # noqa: E731
    stop_description = lambda self: "the program exited"  # noqa: E731

    def __init__(self):
        self.out = []

    def program(self):
        raise ts.UsageError("no program: load one first")


# ---- in Python: the table drives help, completion, parsing and dispatch ------------------------
check("the command table: tnorm_shared.COMMANDS", hasattr(ts, "COMMANDS"))
host = Host()
session = ts.Session(host)
session.command("help")
help_out = "".join(host.out)
for name in NAMES:
    check("tnorm help: %s's help" % name, ts.HELP[name] in help_out)
    check("tnorm %s: its usage line names it" % name,
          ts.HELP[name].startswith("tnorm %s" % name))
    check("completion: %s" % name, name in (ts.complete(name[:2], []) or []))
if hasattr(ts, "COMMANDS"):
    for doc in (ts.prefix_doc(True, ""), ts.prefix_doc(False, "")):
        check("the tnorm command's help lists every subcommand",
              subcommands_line(doc) == set(NAMES))
    check("the record lines only where the host records",
          "--record" in ts.prefix_doc(True, "") and "--record" not in ts.prefix_doc(False, ""))
    for cmd in ts.COMMANDS:
        after = ts.complete("", [cmd.name])
        check("completion after %s: %s" % (cmd.name, "file names" if cmd.complete else "none"),
              after is None if cmd.complete == "file" else after == [])
        args = ts.parse(cmd.name, cmd.example)
        got = []
        real, cmd.handler = cmd.handler, lambda s, a: got.append((s, a)) or "done"
        try:
            res = session.command(cmd.name + " " + cmd.example)
        finally:
            cmd.handler = real
        same = len(got) == 1 and got[0][0] is session and (
            vars(got[0][1]) == vars(args) if hasattr(args, "__dict__") else got[0][1] == args)
        check("dispatch: tnorm %s %s reaches its handler with the parsed arguments"
              % (cmd.name, cmd.example), same and res == "done")
        # The real handler, with no program: a usage error or a normal return, never a crash.
        try:
            session.command(cmd.name + " " + cmd.example)
            outcome = "returned"
        except ts.UsageError as e:
            outcome = "UsageError: %s" % str(e).splitlines()[0]
        except Exception as e:  # noqa: BLE001  (what the check is about)
            outcome = "%s: %s" % (type(e).__name__, e)
        check("handler: tnorm %s %s runs (%s)" % (cmd.name, cmd.example, outcome),
              outcome == "returned" or outcome.startswith("UsageError"))
e = raises(ts.UsageError, ts.parse, "nosuch", "")
check("an unknown subcommand is a usage error naming them all",
      e is not None and all(n in str(e) for n in NAMES))

# ---- the docs name every command ---------------------------------------------------------------
for page in ("docs/gdb.md", "docs/lldb.md"):
    with open(os.path.join(SRC, page), encoding="utf-8") as f:
        text = f.read()
    missing = [n for n in NAMES if not re.search(r"`tnorm\s+%s\b" % n, text)]
    check("%s names every command (`tnorm NAME`)%s" % (
        page, ": missing " + ", ".join(missing) if missing else ""), not missing)


# ---- in the real debuggers: the generated help and gdb's completion -----------------------------
def run(argv, env=None):
    """The output of a debugger run.  The debuggers embed the system's Python: a PATH that puts
    this interpreter's own bin first (pyenv's does) would give lldb its library path."""
    env = dict(os.environ if env is None else env)
    if sys.base_prefix not in ("/", "/usr", "/usr/local"):
        env["PATH"] = ":".join(d for d in env.get("PATH", "").split(":")
                               if not d.startswith(sys.base_prefix + "/"))
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300,
                       env=env, stdin=subprocess.DEVNULL)
    return r.stdout.decode("utf-8", "replace")


if GDB:
    ex = ["-ex", "help tnorm", "-ex", "complete tnorm "]
    for name in NAMES:
        ex += ["-ex", "help tnorm " + name]
    out = run([GDB, "-batch", "-nx", "-ex", "source " + os.path.join(BUILD, "gdb-plugin/tnorm-gdb.py")]
              + ex)
    lines = out.splitlines()
    missing = set(NAMES) - subcommands_line(out)
    check("gdb: help tnorm lists every subcommand%s" % (
        ": missing " + ", ".join(sorted(missing)) if missing else ""), not missing)
    for name in NAMES:
        check("gdb: complete tnorm: %s" % name, "tnorm " + name in lines)
        check("gdb: help tnorm %s: its usage" % name, ts.HELP[name].splitlines()[0] in lines)
if LLDB:
    env = dict(os.environ)
    env["PYTHONPATH"] = "/usr/lib/llvm-14/lib/python3.11/dist-packages" + (
        ":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    out = run([LLDB, "-b", "-o", "command script import " +
               os.path.join(BUILD, "lldb-plugin/tnorm_lldb.py"), "-o", "help tnorm",
               "-o", "tnorm help"], env)
    missing = set(NAMES) - subcommands_line(out)
    check("lldb: help tnorm lists every subcommand%s" % (
        ": missing " + ", ".join(sorted(missing)) if missing else ""), not missing)
    for name in NAMES:
        check("lldb: tnorm help: %s's usage" % name, ts.HELP[name].splitlines()[0] in out)

finish()

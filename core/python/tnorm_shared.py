# SPDX-License-Identifier: MIT
"""What the gdb and lldb plugins share: argument parsing, finding the test among the program's
arguments, finding the harness, running jobs through the _tnorm binding, printing results, and
the state of `tnorm run` / `tnorm step`.

A debugger layer supplies a small `Host` (the class below: how to write, what the inferior is,
how it stopped, how to start it and stop at the next test step, how to watch a location);
everything else lives here, so the two plugins stay thin and cannot drift apart.  The commands
are one table, COMMANDS: each entry drives its parsing, its help, its completion and its
dispatch, so adding a command is one entry and its handler.  This module imports nothing from
gdb or lldb.
"""

import argparse
import os
import re
import shlex
import shutil
import sys
import tempfile
import textwrap
import time

# The debuggers load libraries whose C symbols clash with ours: gdb links elfutils' libdw, which
# also defines dwarf_tag, dwarf_child, ... with other signatures.  RTLD_DEEPBIND makes the
# binding and its libraries (libdwarf) resolve their own symbols first.
# AddressSanitizer refuses RTLD_DEEPBIND: under a preloaded sanitizer runtime (outside the
# debuggers, for testing the binding) it is left out.
_flags = sys.getdlopenflags()
if "libasan" not in os.environ.get("LD_PRELOAD", ""):
    sys.setdlopenflags(_flags | os.RTLD_DEEPBIND)
try:
    import _tnorm
finally:
    sys.setdlopenflags(_flags)

Error = _tnorm.Error

class UsageError(Exception):
    """A bad command line: the message says what and how to use the command."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError("%s\nusage: %s" % (message, HELP[self.prog.split()[-1]].splitlines()[0]))


# ---- the subcommands' arguments ----------------------------------------------------------------
# An entry of COMMANDS (below) parses with parse(NAME, WORDS) -> what its handler takes, raising
# UsageError; most are argparse parsers (_argparsed) over a function that declares the arguments.

def _job_arguments(p, sub):
    p.add_argument("test", nargs="?")
    p.add_argument("--harness")
    p.add_argument("--match", default="line")
    p.add_argument("-o", "--output", dest="out")
    p.add_argument("-j", "--jobs", type=int, default=_tnorm.default_jobs())
    p.add_argument("--timeout", type=float, default=0.0)
    p.add_argument("--max-runs", type=int, default=0)
    p.add_argument("--max-time", type=float, default=0.0)
    p.add_argument("--db")
    p.add_argument("--no-db", action="store_true")
    p.add_argument("--quiet", action="store_true")
    if sub in ("minimize", "normalize"):
        p.add_argument("--generalize", action="store_true")
        p.add_argument("--verbose", action="store_true")
        p.add_argument("--rules", choices=("calls", "paper"), default="calls")


def _triage_arguments(p, sub):
    p.add_argument("dir")
    p.add_argument("--harness")
    p.add_argument("-j", "--jobs", type=int, default=_tnorm.default_jobs())
    p.add_argument("-o", "--output", dest="out")
    p.add_argument("--match", default="line")
    p.add_argument("--db")
    p.add_argument("--no-db", action="store_true")
    p.add_argument("--max-time-per-test", type=float, default=0.0)
    p.add_argument("--no-generalize", action="store_true")
    p.add_argument("--timeout", type=float, default=0.0)
    p.add_argument("--rules", choices=("calls", "paper"), default="calls")
    p.add_argument("--stdin", action="store_true")
    p.add_argument("--thorough", action="store_true")
    p.add_argument("--sarif")
    p.add_argument("--quiet", action="store_true")


def _test_argument(p, sub):
    p.add_argument("test", nargs="?")


def _count_argument(p, sub):
    p.add_argument("count", nargs="?", type=int, default=1)


def _no_arguments(p, sub):
    pass


def _argparsed(declare):
    """The parse function of a subcommand whose arguments declare(parser, name) declares."""
    def parse(sub, words):
        p = _Parser(prog="tnorm " + sub, add_help=False)
        declare(p, sub)
        a = p.parse_args(words)
        if getattr(a, "count", 1) < 1:
            raise UsageError("tnorm %s takes a positive count" % sub)
        if not 1 <= getattr(a, "jobs", 1) <= _tnorm.MAX_JOBS:  # as the CLI's -j (issue 39)
            raise UsageError("-j takes 1 to %d jobs" % _tnorm.MAX_JOBS)
        return a
    return parse


def parse(sub, argstring):
    """Parse the arguments of `tnorm SUB` (its entry's parse); raises UsageError."""
    if sub not in COMMAND:
        raise UsageError("unknown subcommand '%s'; one of: %s" % (sub, ", ".join(SUBCOMMANDS)))
    try:
        words = shlex.split(argstring or "")
    except ValueError as e:
        raise UsageError("%s\nusage: %s" % (e, HELP[sub].splitlines()[0]))
    return COMMAND[sub].parse(sub, words)


def complete(text, words_before):
    """Completion candidates: the subcommands for the first word; after a subcommand, None when
    file names complete there (its entry's complete), else []."""
    if not words_before:
        return [s for s in SUBCOMMANDS if s.startswith(text)]
    cmd = COMMAND.get(words_before[0])
    return None if cmd is None or cmd.complete == "file" else []


def find_test(args, explicit=None):
    """The test file and the argv template: the program argument that names an existing file
    becomes '{}'.  `explicit` (a path) wins; it replaces that argument, or is appended."""
    idx = None
    for i, a in enumerate(args):
        if os.path.isfile(a):
            idx = i
            break
    if explicit is not None:
        if not os.path.isfile(explicit):
            raise UsageError("%s: no such test file" % explicit)
        tmpl = list(args)
        if idx is None:
            tmpl.append("{}")
        else:
            tmpl[idx] = "{}"
        return os.path.abspath(explicit), tmpl
    if idx is None:
        raise UsageError("no test file among the program's arguments (%s); name one: tnorm "
                         "minimize TEST" % (" ".join(args) if args else "none"))
    tmpl = list(args)
    tmpl[idx] = "{}"
    return os.path.abspath(args[idx]), tmpl


# True when the program links the tnorm driver runtime (the library's check, nothing is run).
is_driver = _tnorm.is_driver


# Where the one step of a program that is no tnorm driver starts (Session._load's whole_run): a
# fuzz target's entry when the program has one (its main only reads the input), else main.
WHOLE_RUN_ENTRIES = ("LLVMFuzzerTestOneInput", "main")


def whole_run_entry(host):
    for name in WHOLE_RUN_ENTRIES[:-1]:
        if host.function_named(name) is not None:
            return name
    return WHOLE_RUN_ENTRIES[-1]


NOT_A_DRIVER = ("stepping needs a tnorm driver: %s does not link the tnorm driver runtime (it "
                "has no test steps to stop at).  Without one, tnorm signature, reduce, minimize, "
                "normalize and triage work on the test file's bytes; see %s")


def program_harness(program, workdir, args=()):
    """The harness the program runs with: the one its arguments give it (--harness H, the
    library's rule: tnorm_argv_harness, as the CLI), else the one compiled into a tnorm driver
    (DRIVER --print-harness), written to a file in workdir; None when the program is not a tnorm
    driver.  Only a program that links the tnorm driver runtime is asked: any other program
    could take the option for a file name."""
    named = _tnorm.argv_harness([program] + list(args))
    if named is not None:
        return named
    text = _tnorm.driver_harness(program)  # the CLI's way (tnorm_driver_harness)
    if text is None or not text.strip():
        return None
    path = os.path.join(workdir, "harness.tnh")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def breakpoint_stop(number, function, file, line):
    """How a host says that the user's breakpoint `number` stopped the program (in `function`,
    at file:line when known): a navigation it cuts short names it (issue 32, item 8)."""
    at = " (%s:%d)" % (os.path.basename(file), line) if file and line else ""
    return "the program stopped at breakpoint %d, in %s%s" % (number, function or "??", at)


def default_output(test, mode):
    """The result file of a job in `mode` on `test` when -o names none (the library's rule, as
    the CLI's)."""
    return _tnorm.default_output(test, mode)


def frames_signature(kind, pid, pcs):
    """The engine's text for a stop: its kind (stop_kind), the stopped process and the program
    counters of the stopped thread's machine frames, innermost first, no inlined frames.  The
    engine symbolizes them itself (inlined calls expanded), so the text is the CLI's."""
    return _tnorm.signature_at(kind, pid, pcs)


# ---- sanitizer builds ----------------------------------------------------------------------
# What the plugins put in the inferior's environment so that a sanitizer's report ends in an
# abort the debugger stops on (rather than exit(1)): sanitizer_environment(lookup) -> {NAME:
# VALUE}, lookup(NAME) being the value the inferior would get now (the debugger's setting, else
# the debugger's own environment), or None.  The library merges the flags
# (tnorm_sanitizer_debug_options).
sanitizer_environment = _tnorm.sanitizer_environment


# What the engine knows about the sanitizers (tnorm/sanitizer.h): {key: (name, ...)}.
SANITIZERS = _tnorm.sanitizers()
# The runtime functions a debugger calls to read a report.
(ASAN_DESCRIPTION_FN, ASAN_PRESENT_FN, ASAN_ACCESS_FN,
 UBSAN_REPORT_DATA_FN) = SANITIZERS["queries"]
# C expressions the hosts evaluate in the stopped inferior; each may fail (no such symbol).
ASAN_DESCRIPTION = "((const char *(*)(void))%s)()" % ASAN_DESCRIPTION_FN
ASAN_PRESENT = "((int (*)(void))%s)()" % ASAN_PRESENT_FN
ASAN_ACCESS = "((int (*)(void))%s)()" % ASAN_ACCESS_FN
DRIVER_FAILURE = "(const char *)&tnorm_drv_failure"
CALL_EXPRS = (ASAN_DESCRIPTION, ASAN_PRESENT, ASAN_ACCESS)  # these call into the inferior
UBSAN_REPORT_HOOK = SANITIZERS["ubsan_hook"][0]


def engine_kind(program, args):
    """The kind of the engine's own run of the program's test (what the CLI prints), or None."""
    try:
        test, tmpl = find_test(args)
        return _tnorm.run([program] + tmpl, test)["kind"]
    except (UsageError, _tnorm.Error, OSError):
        return None


def stop_kind(signal, host, ubsan_message=None, engine=None):
    """The engine's kind for a stop on `signal` (or at a sanitizer's report, signal None): a
    fatal signal keeps its name, except when the sanitizer or the tnorm driver runtime ended the
    program itself (its abort), as the engine reads it from the report on stderr.  host.evaluate(
    EXPR, as_string) returns the value of a C expression in the stopped inferior, None when it
    cannot be evaluated (the runtime is not linked in); ubsan_message is UBSan's report message
    as recorded at __ubsan_on_report in this process, or None.  When the program has a
    sanitizer's runtime but the debugger cannot call into it (gdb 13 on a CPU whose extended
    register state it cannot write: "Couldn't write extended state status"), the report cannot
    be read in the process, and engine() (the engine's own run of the test, engine_kind) gives
    the kind."""
    if signal not in (None, "SIGABRT"):
        return signal
    desc = host.evaluate(ASAN_DESCRIPTION, True)
    if desc:
        access = None
        if host.evaluate(ASAN_PRESENT, False):
            access = "WRITE" if host.evaluate(ASAN_ACCESS, False) else "READ"
        return _tnorm.sanitizer_kind("asan", desc.split()[0], access)
    kind = _tnorm.ubsan_kind(ubsan_message) if ubsan_message else None
    if kind:
        return kind
    failure = host.evaluate(DRIVER_FAILURE, True)
    if failure:
        return failure
    asan_blind = (host.symbol_address(ASAN_PRESENT_FN) is not None
                  and host.evaluate(ASAN_PRESENT, False) is None)
    ubsan_blind = ubsan_message is None and host.symbol_address(UBSAN_REPORT_HOOK) is not None
    if engine is not None and (asan_blind or ubsan_blind):
        kind = engine()
        if kind:
            return kind
    return signal or "SIGABRT"


# Steps of a test text: [(action, [notes])]; notes are the comment lines after a step
# (generalization annotations), read as the library renders them (tnorm_generalization_read).
parse_steps = _tnorm.read_steps


# ---- the Host: what a debugger gives the shared layer -------------------------------------------
class Host:
    """What a debugger layer implements for Session (GdbHost, LldbHost, subclasses of this);
    everything built on it (the commands, the watch_run loop) lives in this module, once.

    Output, the program and its stop:
      write(S), flush(); interrupted(): True when the user asked to stop (Ctrl-C);
      program(): (the program's path, [its arguments]), UsageError when none is loaded;
      stop_signature_parts(): (kind, pid, pcs) of the stop (stop_kind, frames_signature), None
        when the program is not stopped on a signal or at a sanitizer's report;
      stop_description(): one phrase on where the program is (exited, a signature, a breakpoint);
      evaluate(EXPR, AS_STRING): a C expression's value in the stopped thread (str or int), None
        when it cannot be evaluated; symbol_address(NAME): an address or None;
      read_memory(ADDR, SIZE): bytes, None when unreadable;
      function_at(ADDR), function_named(NAME): (name, file, line) or None.
    Running the test (issue 20):
      alive(): the program is running (stopped in the debugger);
      hook_step(): the step index when stopped at tnorm_step_hook, else None;
      start(ARGS): (re)start the program with ARGS, stopped before step 0: that step's index, or
        None when it did not get there (gdb's takes record=True: a run record full follows,
        and entry=FUNCTION: a program that is no tnorm driver, whose whole run is step 0, is
        stopped at that function's first instruction instead);
      next_step(): continue to the next tnorm_step_hook: its step, None when the run ended or
        stopped elsewhere; disarm(): disable the breakpoint on tnorm_step_hook that start and
        next_step arm (a plain continue then runs the test on);
      set_step_breaks(STEPS): a breakpoint on tnorm_step_hook that calls Session.break_hit(step)
        and stops when it returns True, enabled while STEPS is not empty;
      run_to_line(ARGS, FILE, LINE): (re)start and stop at FILE:LINE, True when it did.
    Watching a location, for watch_run (tnorm changed):
      watch_location(EXPR): EXPR's location at the current stop (what the other watch_ methods
        take), UsageError when EXPR cannot be evaluated or is no lvalue;
      watch_value(LOC): its value as text ("?" when unreadable);
      watch_add(LOC): a watchpoint on writes to it, UsageError when none can be set;
      watch_remove(WP); watch_continue(WP): arm the step hook's breakpoint and continue, True
        when WP stopped the program; writer(): "func file:line" of the write it stopped after.
    Process record (can_record: gdb's record full, issue 41): record_to_failure(LIMIT),
      recording(), watch_history(EXPR, STEP_NOW) (GdbHost's)."""

    doc = "docs/gdb.md"    # the page messages point at
    tty = False            # the output is a terminal (a progress line updated in place)
    navigating = False     # True while the plugin itself moves the program
    can_record = False     # the debugger has process record (tnorm goto ... --record)
    no_record = "this debugger has no process record"  # the error of --record without it

    def watch_start(self, args):
        """start(ARGS) for a run that watches a location (gdb: in the environment of a recorded
        run when the last run was one, so that a stack address is the same variable)."""
        return self.start(args)

    def watch_software(self, run, expr):
        """A hardware watchpoint stayed silent on a change: run() again with software
        watchpoints and return what it returns, or raise UsageError (no software watchpoints)."""
        raise UsageError("the watchpoint on %s never fired, yet the value changed" % expr)

    def recording(self):
        """True while the program runs in a recorded history."""
        return False

    def watch_history(self, expr, step_now):
        """tnorm changed EXPR on the recorded history: (the value where it starts, [(step, old,
        new, "func file:line", instruction number)]), or None when nothing is recorded."""
        return None


class _WatchSilent(Exception):
    """The watched value changed, and the hardware watchpoint never stopped the program."""


def watch_run(host, args, expr, entry=None):
    """`tnorm changed EXPR`: EXPR's location, taken at the current stop, watched for writes
    while the test runs again from its start (host.watch_start).  Returns (the value before
    step 0, [(step, old, new, "func file:line")]).  Where hardware watchpoints do not fire (a
    virtual machine that gives the debugger no debug registers: the value changed and the
    watchpoint never stopped the program), host.watch_software runs it again with software
    watchpoints, or says it cannot.  entry: a whole run's entry function (Session._load), the
    run then starts there (host.watch_start(args, entry=ENTRY), a host that can record)."""
    loc = host.watch_location(expr)
    try:
        return _watch_loop(host, args, loc, False, entry)
    except _WatchSilent:
        pass
    return host.watch_software(lambda: _watch_loop(host, args, loc, True, entry), expr)


def _watch_loop(host, args, loc, software, entry):
    step = host.watch_start(args) if entry is None else host.watch_start(args, entry=entry)
    writes = []
    wp = None
    old = first = host.watch_value(loc)
    try:
        wp = host.watch_add(loc)
        for _ in range(100000):
            if not host.alive():
                break
            fired = host.watch_continue(wp)
            if not host.alive():
                break
            k = host.hook_step()
            new = host.watch_value(loc)
            if k is not None:
                if new != old and not software:
                    # Changed while the hardware watchpoint stayed silent (a value that is the
                    # same again at the failure would go unseen: issue 41).
                    raise _WatchSilent()
                step = k
                continue
            if new == old:
                # another stop: the failure.  A whole run has no step boundaries to catch a
                # silent hardware watchpoint at: one that never fired may have missed writes
                # that put the value back (a heap byte that the allocator fills and the
                # program zeroes again): seen again with software watchpoints.
                if entry is not None and not writes and not software:
                    raise _WatchSilent()
                break
            if not fired and not software:
                raise _WatchSilent()
            writes.append((step, old, new, host.writer()))
            old = new
    finally:
        if wp is not None:
            host.watch_remove(wp)
        host.disarm()
    return first, writes


# ---- test steps: goto, back, pools, the failing step, step breakpoints, the source view --------
# (issue 20; the Host's part is above.)
# tnorm goto ... --record (issue 41): the instructions gdb's record full keeps.  The first
# recording of a test keeps at most RECORD_LIMIT (the examples' failing steps run 7,500 to
# 11,000, 52,000 with ASan: bench/README.md); a later one RECORD_HEADROOM times the size the last
# one measured, and not below RECORD_MIN.  record full costs some 100 to 300 bytes of gdb's
# memory per instruction kept.
RECORD_LIMIT = 1000000
RECORD_HEADROOM = 2
RECORD_MIN = 100000
PRINT_ENV = ("TNORM_DRV_PRINT", "1")  # the runtime runs the pools' print hooks
_CALLED = re.compile(r"^(?:\w+\s*=\s*)?(\w+)\s*\(")


def _nav_parse(sub, words):
    """Arguments of the navigation subcommands; raises UsageError."""
    usage = HELP[sub].splitlines()[0]

    def number(w, what):
        if not re.fullmatch(r"\d+", w):
            raise UsageError("%s takes %s, not '%s'\nusage: %s" % ("tnorm " + sub, what, w, usage))
        return int(w)

    if sub == "pools" and words:
        raise UsageError("tnorm pools takes no arguments\nusage: " + usage)
    if sub == "goto":
        record, limit, rest = False, None, []
        i = 0
        while i < len(words):
            if words[i] == "--record":
                record = True
            elif words[i] == "--limit":
                if i + 1 >= len(words):
                    raise UsageError("tnorm goto: --limit needs a count\nusage: " + usage)
                limit = number(words[i + 1], "a count of instructions after --limit")
                if limit < 1:
                    raise UsageError("tnorm goto: --limit takes a positive count")
                i += 1
            else:
                rest.append(words[i])
            i += 1
        if limit is not None and not record:
            raise UsageError("tnorm goto: --limit goes with --record\nusage: " + usage)
        if len(rest) != 1:
            raise UsageError("tnorm goto takes one step number or 'fail'\nusage: " + usage)
        k = rest[0] if rest[0] == "fail" else number(rest[0], "a step number or 'fail'")
        return k, record, limit
    if sub == "back":
        if len(words) > 1:
            raise UsageError("tnorm back takes at most one count\nusage: " + usage)
        n = number(words[0], "a positive count") if words else 1
        if n < 1:
            raise UsageError("tnorm back takes a positive count")
        return n
    return [number(w, "step numbers") for w in words]


def _why_parse(sub, words):
    """Arguments of tnorm why: (N or None, test or None, top, normal); raises UsageError."""
    usage = HELP["why"].splitlines()[0]
    n, test, top, normal = None, None, 10, False
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--normal":
            normal = True
            i += 1
            continue
        if w in ("--test", "--top"):
            if i + 1 >= len(words):
                raise UsageError("tnorm why: %s needs a value\nusage: %s" % (w, usage))
            if w == "--test":
                test = words[i + 1]
            elif re.fullmatch(r"\d+", words[i + 1]):
                top = int(words[i + 1])
            else:
                raise UsageError("tnorm why: --top takes a count\nusage: " + usage)
            i += 2
            continue
        if not re.fullmatch(r"[1-9]\d*", w) or n is not None:
            raise UsageError("tnorm why takes one line number (1, 2, ... as the list shows), "
                             "not '%s'\nusage: %s" % (w, usage))
        n = int(w)
        i += 1
    return n, test, top, normal


def _changed_parse(sub, words):
    """The argument of tnorm changed: the expression (its words joined again)."""
    if not words:
        raise UsageError("tnorm changed needs an expression\nusage: " + HELP[sub].splitlines()[0])
    return " ".join(words)


# ---- the command table --------------------------------------------------------------------------
class Command:
    """A `tnorm` subcommand of both plugins.  Its entry in COMMANDS (and its handler) is all there
    is to adding one: the entry drives the parsing (parse), the help (`tnorm help`, `help tnorm
    NAME`, the prefix command's help: prefix_doc), the completion (complete; gdb's completer of
    the subcommand) and the dispatch (Session.command)."""

    def __init__(self, name, help, handler, parse, complete="file", example=""):
        self.name = name          # the subcommand's word
        self.help = help          # its usage line, then what it does, indented by two
        self.handler = handler    # handler(session, args): runs it, args being what parse gave
        self.parse = parse        # parse(name, words) -> args; raises UsageError
        self.complete = complete  # what completes after it: "file" (file names) or None
        self.example = example    # arguments it takes (tests/integration/plugin_commands.py)


def _job(mode, help, example="t.t -j 2"):
    """reduce, minimize, normalize and generalize: a library job on the program's test."""
    return Command(mode, help, lambda s, a: s.job(mode, a), _argparsed(_job_arguments),
                   example=example)


def _nav(name, help, example):
    """goto, back, pools, break and delete: moving in the test being stepped (issue 20)."""
    return Command(name, help, lambda s, a: s.nav_command(name, a), _nav_parse, complete=None,
                   example=example)


def _print_signature(session, a):
    session.host.write(session.signature() + "\n")


COMMANDS = (
    _job("minimize",
         "tnorm minimize [TEST] [--harness H] [--match P] [--generalize] [-o OUT] [-j N]\n"
         "               [--rules calls|paper]\n"
         "  Reduce, then normalize the failing test of the current program: the one\n"
         "  short canonical test.  TEST defaults to the program argument that names an\n"
         "  existing file.  When the program stopped on a signal, that stop is compared\n"
         "  with the engine's own run of the test.  Ctrl-C keeps the best test so far.",
         "t.t --generalize --rules paper -j 2"),
    _job("reduce",
         "tnorm reduce [TEST] [--harness H] [--match P] [-o OUT]\n"
         "  Reduce the failing test to a 1-minimal one with the same signature."),
    _job("normalize",
         "tnorm normalize [TEST] [--harness H] [--match P] [--generalize] [-o OUT]\n"
         "                [--rules calls|paper]\n"
         "  Rewrite the failing test into its normal form."),
    _job("generalize",
         "tnorm generalize [TEST] [--harness H] [--match P] [-o OUT] [-j N]\n"
         "  Annotate the failing test with what in it is accidental."),
    Command("signature",
            "tnorm signature\n"
            "  Print the failure signature of the current stop, in the engine's format.",
            _print_signature, _argparsed(_no_arguments), complete=None),
    Command("run",
            "tnorm run [TEST]\n"
            "  Start the program on the last result (or TEST) and stop before step 0.",
            lambda s, a: s.run(a), _argparsed(_test_argument), example="t.t"),
    Command("step",
            "tnorm step [N]\n"
            "  Continue to the next test step (N steps) and print it with its notes.",
            lambda s, a: s.step(a), _argparsed(_count_argument), complete=None, example="2"),
    Command("steps",
            "tnorm steps\n"
            "  List the steps of the test being run; '=>' marks the current one.",
            lambda s, a: s.steps(), _argparsed(_no_arguments), complete=None),
    Command("triage",
            "tnorm triage DIR [--harness H] [-j N] [-o OUT] [--match P] [--db PATH | --no-db]\n"
            "             [--max-time-per-test T] [--no-generalize] [--timeout T]\n"
            "             [--rules calls|paper] [--stdin] [--thorough] [--sarif FILE]\n"
            "             [--quiet]\n"
            "  Run every test (*.t) in DIR once with the current program, minimize a few of\n"
            "  each signature (--thorough: every one) and group them into buckets, one per\n"
            "  fault; print the bucket table and write the report\n"
            "  (OUT/report.html, default DIR/triage; --sarif FILE: SARIF 2.1.0 too).\n"
            "  Ctrl-C stops; run it again to resume.\n"
            "  A program that is not a tnorm driver, without --harness: DIR is a fuzzer's crash\n"
            "  folder (any files, minimized as bytes).  Afterwards tnorm run starts the first\n"
            "  bucket's test (with a harness).",
            lambda s, a: s.triage(a), _argparsed(_triage_arguments), example="crashes -j 2 --quiet"),
    _nav("goto",
         "tnorm goto K|fail [--record [--limit N]]\n"
         "  (Re)start the program on the test being stepped (or the last result) and stop\n"
         "  before step K (0-based, as STEP lines print); 'fail': before the step during\n"
         "  which the test fails.  Moves forward without a restart when it can.\n"
         "  --record (gdb): from there, record the run (gdb's record full) on to the\n"
         "  failure and stop at it with the history: reverse-step, reverse-next,\n"
         "  reverse-finish and reverse-continue go back within it, and tnorm changed EXPR\n"
         "  reads it instead of running the test again.  --limit N: keep at most N\n"
         "  instructions (default: twice the size measured by the last recording of the\n"
         "  test, else %d); beyond it the oldest are dropped, and the command says so."
         % RECORD_LIMIT, "fail --record --limit 500"),
    _nav("back",
         "tnorm back [N]\n"
         "  Go back N steps (1 by default) by running the test again to the earlier step;\n"
         "  runs are deterministic, so this is the state the program had there.", "2"),
    _nav("pools",
         "tnorm pools\n"
         "  The value of every live pool instance at the current step, read from the\n"
         "  driver runtime's memory (no code runs in the program): integers and strings as\n"
         "  the test wrote them, objects by pointer and the driver's printed form, and the\n"
         "  step that assigned each one.", ""),
    _nav("break",
         "tnorm break [K...]\n"
         "  Stop before step K whenever the program runs (plain run and continue too);\n"
         "  without K, list the step breakpoints.", "1 3"),
    _nav("delete",
         "tnorm delete [K...]\n"
         "  Delete the step breakpoints on steps K (all of them without K).", "3"),
    Command("why",
            "tnorm why [N] [--test TEST] [--top K] [--normal]\n"
            "  Where is the bug: rank the source lines that make the last result (or TEST, or\n"
            "  the program's test) fail, over its neighbours' runs with line coverage (as the\n"
            "  tnorm why command, docs/why.md).  A test that is not the last result is\n"
            "  minimized first, as the command does (--normal: it is a normal form already).\n"
            "  'tnorm why N' (re)starts the program on the test of the list shown last and\n"
            "  stops at its N-th line.",
            lambda s, a: s.why(a), _why_parse, example="2 --test t.t --top 5 --normal"),
    Command("changed",
            "tnorm changed EXPR\n"
            "  Which test steps changed EXPR: EXPR is an lvalue of the current stop (a field,\n"
            "  a variable, an array element); its address is watched (a hardware watchpoint\n"
            "  where the debugger can) while the test being stepped (or the last result) runs\n"
            "  again from the start, and every write that changed it is listed: the step, old\n"
            "  -> new, and the source line that wrote it.",
            lambda s, a: s.changed(a), _changed_parse, example="t->root->height"),
)
COMMAND = {c.name: c for c in COMMANDS}
SUBCOMMANDS = tuple(c.name for c in COMMANDS)
HELP = {c.name: c.help for c in COMMANDS}

# The prefix command's help (`help tnorm`): a typical session, in its order.  A line whose third
# field is True is for a host with process record (gdb) only.
TOUR = (
    ("tnorm signature", "the failure's signature, as the engine prints it", False),
    ("tnorm minimize", "the one short canonical test that fails the same way", False),
    ("tnorm run", "start the program on it, stopped before step 0", False),
    ("tnorm step", "continue to the next test step and print it", False),
    ("tnorm goto K|fail", "(re)start and stop before step K, or the failing step", False),
    ("tnorm goto fail --record", "the same, then record on to the failure: reverse-step,\n"
     "reverse-continue, tnorm changed EXPR go back inside the step", True),
    ("tnorm back [N]", "go back N steps (the test runs again to there)", False),
    ("tnorm pools", "the live pool instances and the steps that set them", False),
    ("tnorm break K", "stop before step K whenever the program runs", False),
    ("tnorm changed EXPR", "which steps changed EXPR, and the lines that wrote it", False),
    ("tnorm why", "where is the bug: the source lines ranked, and N to stop at one", False),
    ("tnorm triage DIR", "one test per fault from a folder of failing tests", False),
)


def prefix_doc(record, more):
    """The help of the `tnorm` command itself (the plugins' docstring): what it is, every
    subcommand (from COMMANDS), a typical session (TOUR; with the process-record lines when
    `record`), then the line `more` (where each subcommand's options are)."""
    lines = ["Minimize failing tests and step through them (tnorm).", ""]
    lines += textwrap.wrap("Subcommands: " + ", ".join(SUBCOMMANDS) + ".", 79)
    lines.append("A typical session: run the program on a failing test until it crashes, then")
    for cmd, what, needs_record in TOUR:
        if record or not needs_record:
            what = what.splitlines()
            lines.append("  %s%s%s" % (cmd, " " * max(3, 21 - len(cmd)), what[0]))
            lines += ["%23s%s" % ("", w) for w in what[1:]]
    return "\n".join(lines + [more])


def help_text():
    """What `tnorm help` prints: every subcommand's help, in the table's order."""
    return ("tnorm: minimize, reduce, normalize and step through failing tests\n\n" +
            "\n".join(c.help for c in COMMANDS) + "\n")


def why_table(res, top):
    """The lines of a why result as tnorm why --top TOP prints them: the library's text
    (tnorm_why_result_text), which why(..., top=0) returns whole in res["table"]; each ranked line
    is two lines of it after the header, so the first `top` (0: all) are a prefix."""
    lines = res["table"].splitlines(True)
    if not top:
        return "".join(lines)
    head = lines.index("rank  score  fail pass  where\n") + 1
    return "".join(lines[:head + 2 * top])


def source_line(path, line):
    """Line `line` of file `path`, stripped; '' when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for k, text in enumerate(f, 1):
                if k == line:
                    return text.strip()
    except OSError:
        pass
    return ""


def read_pools(host):
    """The driver runtime's table in the stopped program (_tnorm.pools): {"step", "nsteps",
    "handler", "vars"}; each var {"name", "kind", "value" (the text to show), "assigned",
    "changed", "printed", "printed_before"}, live instances only.  Raises UsageError when there
    is nothing to read."""
    if not host.alive():
        raise UsageError("the program is not running: tnorm run or tnorm goto K starts it")
    try:
        return _tnorm.pools(host.read_memory, host.symbol_address(_tnorm.POOLS_SYMBOL) or 0)
    except Error as e:
        # No table, a test not running, an unknown layout, a table that cannot be read: the
        # library's message says which to the user.
        if e.name in ("ENOTFOUND", "ERROR", "EINVALID", "EIO"):
            raise UsageError(str(e)) from None
        raise


class _Navigation:
    """Session's part for issue 20: goto/back, pools, the failing step, step breakpoints and the
    source view.  Uses Session's stepping state (stepping, current, last_result)."""

    def _nav_init(self):
        if not hasattr(self, "breaks"):
            self.breaks = set()      # step breakpoints
            self.test_path = None    # the test `stepping` was read from
            self.run_args = None     # the program's arguments for it
            self._failures = {}      # (program, args, test, mtime, size) -> (step, top)
            self._record_sizes = {}  # (program, args, mtime, size, step) -> instructions run

    # ---- the test and its failure -----------------------------------------------------------
    def _load(self, test, whole_run=False):
        """Read the steps of `test` (a path); it becomes the test being stepped.  whole_run: a
        program that is no tnorm driver is accepted, where the host can record: its run of the
        test is one step, from its entry (whole_run_entry) to its end (issue 41)."""
        self._nav_init()
        program, args = self.host.program()
        driver = is_driver(program)
        if not driver and not (whole_run and getattr(self.host, "can_record", False)):
            raise UsageError(NOT_A_DRIVER % (program, self.host.doc))
        if not os.path.isfile(test):
            raise UsageError("%s: no such test file" % test)
        test = os.path.abspath(test)
        self.entry = None if driver else whole_run_entry(self.host)
        if driver:
            with open(test, encoding="utf-8", errors="replace") as f:
                steps = parse_steps(f.read())
        else:
            steps = [("the run of %s on %s, from %s on" % (os.path.basename(program),
                                                          os.path.basename(test), self.entry),
                      ["%s is no tnorm driver: its whole run is one step" %
                       os.path.basename(program)])]
        if not steps:
            raise UsageError("%s has no steps" % test)
        try:
            _, tmpl = find_test(args, test)
        except UsageError:
            tmpl = [test]
        self.stepping = steps
        self.test_path = test
        self.run_args = [test if x == "{}" else x for x in tmpl]
        return program, tmpl

    def _need_test(self, whole_run=False):
        """The test goto and back work on: the one being stepped, else the last result, else
        the program's test argument.  whole_run: as _load's."""
        self._nav_init()
        if self.stepping is not None and self.test_path is not None:
            if self.entry is not None and not whole_run:
                raise UsageError(NOT_A_DRIVER % (self.host.program()[0], self.host.doc))
            return
        test = self.last_result
        if test is None:
            _, args = self.host.program()
            try:
                test, _ = find_test(args)
            except UsageError:
                raise UsageError("no test loaded: start one with tnorm run TEST (or run tnorm "
                                 "minimize first)")
        self._load(test, whole_run)

    def failure(self):
        """(step, top) of the test being stepped, from the engine's run of it: the last STEP the
        driver reached before the crash, and the signature's kind and throwing frame; (None,
        None) when it does not fail."""
        self._nav_init()
        if self.test_path is None or not os.path.isfile(self.test_path):
            return None, None
        program, _ = self.host.program()
        st = os.stat(self.test_path)
        _, tmpl = find_test(self.run_args, self.test_path) if self.run_args else (None, ["{}"])
        key = (program, tuple(tmpl), self.test_path, st.st_mtime_ns, st.st_size)
        if key not in self._failures:
            if self.entry is not None:  # a whole run: it is step 0
                res = _tnorm.run([program] + tmpl, self.test_path)
                step = 0
            else:
                res = _tnorm.run([program, "--trace"] + tmpl, self.test_path)
                step = _tnorm.last_trace_step(res["stderr"])
            self._failures[key] = ((step, res["top"]) if res["outcome"] == "fail"
                                   else (None, None))
        return self._failures[key]

    def failure_note(self, k):
        """The note that marks the failing step, or None for any other step."""
        try:
            fk, top = self.failure()
        except (Error, OSError):
            return None
        if fk is None or k != fk:
            return None
        return "the test fails during this step: " + (top or "")

    # ---- moving ----------------------------------------------------------------------------
    def _position(self):
        """(step, before): where the program is, from the runtime's table (at the hook: before
        that step; anywhere else: during it); None when it is not running a test."""
        h = self.host
        k = h.hook_step() if h.alive() else None
        if k is not None:
            return k, True
        try:
            return read_pools(h)["step"], False
        except UsageError:
            return None

    def goto(self, k, record=False, limit=None):
        self._need_test(whole_run=record or k in ("fail", 0))
        h = self.host
        if record and not h.can_record:
            raise UsageError(h.no_record)
        n = len(self.stepping)
        if k == "fail" or record:
            fk, _ = self.failure()
            if fk is None:
                raise UsageError("%s does not fail: there is no failing step to %s"
                                 % (self.test_path, "record" if record else "go to"))
            k = fk if k == "fail" else k
        if not 0 <= k < n:
            raise UsageError("no step %d: the test has %d steps (0 to %d)" % (k, n, n - 1))
        if record and k > fk:
            raise UsageError("step %d comes after the failing step %d: --record records from a "
                             "step on to the failure (tnorm goto fail --record)" % (k, fk))
        _, args = h.program()
        here = h.hook_step() if h.alive() else None
        h.navigating = True
        try:
            if record:
                # a run glibc makes recordable
                here = h.start(self.run_args, record=True, entry=self.entry)
            elif here is None or here > k or args != self.run_args or self.entry is not None:
                # (entry only for a whole run: lldb's start takes no entry, nor record)
                here = (h.start(self.run_args) if self.entry is None else
                        h.start(self.run_args, entry=self.entry))
            while here is not None and here < k:
                here = h.next_step()
        finally:
            h.navigating = False
        if here != k:
            self.current = -1
            raise UsageError("the program did not reach step %d (%s)" % (k, h.stop_description()))
        self.current = k
        self.print_step(k)
        if record:
            self._record(k, limit)

    def _record(self, k, limit):
        """tnorm goto K --record: at the start of step K, record the run on to the failure and
        say what the history holds (issue 41).  The size of what was run is kept per test and
        step: the next recording's limit is RECORD_HEADROOM times it."""
        h = self.host
        w = h.write
        st = os.stat(self.test_path)
        key = (self.host.program()[0], tuple(self.run_args), st.st_mtime_ns, st.st_size, k)
        sizes = self._record_sizes
        if limit is not None:
            how = "--limit"
        elif key in sizes:
            limit = max(RECORD_MIN, RECORD_HEADROOM * sizes[key])
            how = "%d times the %d the last recording ran" % (RECORD_HEADROOM, sizes[key])
        else:
            limit, how = RECORD_LIMIT, "the first recording of this test"
        start = "step %d" % k if self.entry is None else self.entry
        w("recording from %s on: gdb's record full, at most %d instructions (%s)\n"
          % (start, limit, how))
        h.flush()
        h.navigating = True
        try:
            r = h.record_to_failure(limit)
        finally:
            h.navigating = False
        pos = self._position()
        self.current = pos[0] if pos is not None else k
        desc = h.stop_description()
        if r["error"] is not None:
            w("tnorm: record full cannot follow the program here (%s; %s): the history ends "
              "there, %d instructions after the start of step %d; see %s for what to do\n"
              % (r["error"], desc, r["total"], k, h.doc))
        elif r.get("report"):
            sizes[key] = r["total"]
            w("the history ends where the sanitizer's report starts (%s): record full cannot "
              "follow a report in reasonable time (it symbolizes the stack), so the recording "
              "stops here, at the faulty access; 'record stop' then 'continue' runs the report "
              "on to the failure (that ends the history)\n" % r["report"])
        elif desc.startswith("the program stopped: "):
            sizes[key] = r["total"]
            w("the test failed during %s: %s\n" % (
                "step %d" % self.current if self.entry is None else "the run",
                desc[len("the program stopped: "):]))
        else:
            w("the run stopped before the failure: %s\n" % desc)
        if r["first"] > 1:
            w("the history was cut: from %s on the run took %d instructions, the limit "
              "keeps the last %d (reverse execution stops at instruction %d); tnorm goto %s "
              "--record again keeps them all (its limit is then %d)\n"
              % (start, r["total"], r["count"], r["first"], k if self.entry is None else "fail",
                 max(RECORD_MIN, RECORD_HEADROOM * r["total"])))
        else:
            w("recorded %d instructions, from the start of %s: reverse-step, reverse-next, "
              "reverse-finish and reverse-continue go back to there; tnorm changed EXPR reads "
              "the history\n" % (r["count"], start))
        h.flush()
        return r

    def back(self, count):
        self._need_test()
        pos = self._position()
        if pos is None:
            raise UsageError("the program is not running a test: tnorm goto K starts it")
        k, before = pos
        target = k - count if before else k - count + 1
        if target < 0:
            if before and k == 0:
                raise UsageError("already before step 0: there is no earlier step")
            raise UsageError("cannot go back %d step%s from %s step %d" % (
                count, "s" if count > 1 else "", "before" if before else "during", k))
        self.goto(target)

    # ---- pools -------------------------------------------------------------------------------
    def pools(self):
        t = read_pools(self.host)
        w = self.host.write
        k, before = t["step"], self.host.hook_step() == t["step"]
        action = self.stepping[k][0] if self.stepping and 0 <= k < len(self.stepping) else None
        if k < 0:
            w("before the first step\n")
        else:
            w("%s step %d%s\n" % ("before" if before else "during", k,
                                   ": " + action if action else ""))
        if not t["vars"]:
            w("  (no pool instance has a value yet)\n")
        rows = []
        for v in t["vars"]:
            value = v["value"]
            if v["printed"] is not None:
                value += " " + v["printed"]
                if not before and v["printed_before"] == k + 1:
                    value += " (after step %d)" % k  # a failing check after the step
                elif not before and v["printed_before"] >= 0:
                    value += " (as before step %d)" % v["printed_before"]
            where = "assigned by step %d" % v["assigned"]
            if v["changed"] >= 0:
                where += ", changed by step %d" % v["changed"]
            rows.append(("%s = %s" % (v["name"], value), where))
        width = min(max([len(left) for left, _ in rows] + [0]), 60)
        for left, where in rows:
            w("  %s    # %s\n" % (left.ljust(width), where))
        self.host.flush()

    # ---- step breakpoints --------------------------------------------------------------------
    def breakpoints(self, sub, steps):
        self._nav_init()
        if self.stepping is None:
            try:
                self._need_test()  # the program's test, to check and name the steps
            except (UsageError, OSError):
                pass
        w = self.host.write
        n = len(self.stepping) if self.stepping else None
        if sub == "break" and steps:
            for k in steps:
                if n is not None and k >= n:
                    raise UsageError("no step %d: the test has %d steps (0 to %d)" % (k, n, n - 1))
            self.breaks.update(steps)
            self.host.set_step_breaks(sorted(self.breaks))
            w("step breakpoint%s before step %s\n" % (
                "s" if len(steps) > 1 else "", ", ".join(map(str, sorted(set(steps))))))
        elif sub == "break":
            if not self.breaks:
                w("no step breakpoints\n")
            for k in sorted(self.breaks):
                action = self.stepping[k][0] if n is not None and k < n else ""
                w("  before step %d%s\n" % (k, ": " + action if action else ""))
        else:
            missing = [k for k in steps if k not in self.breaks]
            if missing:
                raise UsageError("no step breakpoint on step %s" % ", ".join(map(str, missing)))
            gone = set(steps) if steps else set(self.breaks)
            self.breaks -= gone
            self.host.set_step_breaks(sorted(self.breaks))
            w("deleted the step breakpoint%s on step %s\n" % (
                "s" if len(gone) != 1 else "", ", ".join(map(str, sorted(gone))) or "-"))
        self.host.flush()

    def break_hit(self, k):
        """Called by the host's step breakpoint before step k: True to stop there."""
        self._nav_init()
        if self.host.navigating or k not in self.breaks:
            return False
        try:
            _, args = self.host.program()
            test, _ = find_test(args)
            if test != self.test_path:
                self._load(test)
        except (UsageError, OSError):
            pass
        self.current = k
        self.host.write("tnorm: step breakpoint\n")
        self.print_step(k)
        return True

    # ---- the source view ---------------------------------------------------------------------
    def source_view(self, k):
        """Lines that say what step k will call: the driver's handler and the SUT function named
        as the harness names it (file:line each); [] when the program cannot tell."""
        h = self.host
        if self.stepping is None or not 0 <= k < len(self.stepping) or h.hook_step() != k:
            return []
        m = _CALLED.match(self.stepping[k][0])
        if not m:
            return ["value step: the driver runtime assigns it, no handler runs"]
        try:
            handler = read_pools(h)["handler"]
        except UsageError:
            handler = None

        def where(fn):
            name, file, line = fn
            return "%s (%s:%d)" % (name, file, line) if file else name

        lines = []
        fn = h.function_at(handler) if handler else None
        if fn:
            lines.append("handler: " + where(fn))
        # A harness name that is no function of the program is the driver's own name for its
        # handler (kv_put for h_put): the handler line says it all (issue 32, item 8).
        fn = h.function_named(m.group(1))
        if fn:
            lines.append("calls:   " + where(fn))
        return lines

    # ---- why (issue 29) ----------------------------------------------------------------------
    def _why_minimize(self, program, tmpl, test):
        """Minimize `test` into the file `tnorm minimize` would write (default_output): (the
        normal form's path, the runs one edit away from it).  Not a private temporary folder:
        lldb runs no atexit handler, so one would outlive the session (issue 40, item 6a)."""
        h = self.host
        out = default_output(test, "minimize")
        h.write("tnorm why: minimizing the test first, as the tnorm why command does "
                "(--normal: it is a normal form already)\n")
        h.flush()
        res = self._with_workdir(lambda w: _tnorm.minimize(
            [program] + tmpl, test, harness=program_harness(program, w, tmpl), out=out, db=None,
            keep_near=True, progress=lambda p: h.interrupted()))
        if res["text"] is None or res["signature"] is None or not os.path.isfile(out):
            raise UsageError("tnorm why: the minimization was interrupted before the target was "
                             "confirmed")
        h.write("tnorm why: its normal form is %s\n" % out)
        return out, res.get("near") or []

    def why(self, arg):
        """tnorm why [N]: the ranked lines of the last result (computed once per test file and
        program, kept for tnorm why N), or the run of that test stopped at line N."""
        n, test, top, normal = arg
        self._nav_init()
        program, args = self.host.program()
        cache = getattr(self, "_why", None)
        if n is not None and test is None and cache is not None and cache[0][0] == program:
            key = cache[0]  # tnorm why N: a line of the list shown last
        else:
            test, tmpl = find_test(args, test if test is not None else self.last_result)
            st = os.stat(test)
            key = (program, tuple(tmpl), test, st.st_mtime_ns, st.st_size)
        program, tmpl, test = key[0], list(key[1]), key[2]
        if cache is None or cache[0] != key:
            self.host.write("tnorm why: %s -- %s\n" % (test, " ".join(
                shlex.quote(x) for x in [program] + tmpl)))
            self.host.flush()
            near = getattr(self, "_near", None)
            known = near[1] if near and near[0] == os.path.abspath(test) else None
            run_test = test
            if known is None and not normal:
                # Not the result of a tnorm minimize: minimize it first, as the command does
                # (over the raw test's neighbours the bug's line ranks far down, issue 40).
                run_test, known = self._why_minimize(program, tmpl, test)
            res = _tnorm.why([program] + tmpl, run_test, steps=is_driver(program), known=known,
                             top=0)
            self._why = cache = (key, res, run_test)
        res, test = cache[1], cache[2]
        if n is None:
            self.host.write(why_table(res, top))
            self.host.flush()
            return res
        if n > len(res["lines"]):
            raise UsageError("no line %d: the list has %d lines" % (n, len(res["lines"])))
        l = res["lines"][n - 1]
        run_args = [test if x == "{}" else x for x in tmpl]
        if not self.host.run_to_line(run_args, l["file"], l["line"]):
            raise UsageError("the program did not reach %s:%d (%s)" % (
                os.path.basename(l["file"]), l["line"], self.host.stop_description()))
        self.host.write("stopped at line %d of the list: %s:%d %s\n    %s\n" % (
            n, os.path.basename(l["file"]), l["line"], l["function"] or "",
            source_line(l["file"], l["line"])))
        self.host.flush()
        return l

    def changed(self, expr):
        """tnorm changed EXPR: the writes that changed EXPR's location during a run of the test
        from its start, with the step each happened in."""
        self._need_test(whole_run=True)
        h = self.host
        if not h.alive():
            raise UsageError("tnorm changed needs a stopped program where %s can be evaluated "
                             "(a breakpoint, tnorm goto, tnorm why N)" % expr)
        w = h.write
        if h.recording():
            writes = self._changed_in_history(expr)
            if writes:
                return writes
        h.navigating = True
        try:
            first, writes = watch_run(h, self.run_args, expr, self.entry)
        finally:
            h.navigating = False
        w("%s = %s %s\n" % (expr, first, "before step 0" if self.entry is None
                            else "at the start of " + self.entry))
        if not writes:
            w("  not changed by %s of %s\n" % ("any step" if self.entry is None else "the run",
                                               os.path.basename(self.test_path)))
        self._print_writes(expr, writes)
        h.write("(the program is stopped where the run ended: %s)\n" % h.stop_description())
        h.flush()
        return writes

    def _print_writes(self, expr, writes):
        """The lines of tnorm changed for writes [(step, old, new, where, ...)], then which
        step and line wrote the value last."""
        w = self.host.write
        whole = self.entry is not None  # a whole run: no steps to name
        for step, old, new, where in (x[:4] for x in writes):
            action = self.stepping[step][0] if self.stepping and step is not None and \
                0 <= step < len(self.stepping) and not whole else None
            w("  %s%s: %s -> %s    # written at %s\n" % (
                "the run" if whole else "step %s" % (step if step is not None else "-"),
                " (%s)" % action if action else "", old, new, where))
        if writes:
            step, _, new, where = writes[-1][:4]
            w("last written %s, at %s: %s = %s\n" % (
                "in the run" if whole else "by step %s" % (step if step is not None else "-"),
                where, expr, new))

    def _changed_in_history(self, expr):
        """tnorm changed EXPR on the recorded history of tnorm goto K --record: no re-run.
        The writes it holds (an empty list, said in one line, when the history holds none:
        the caller then runs the test again)."""
        h = self.host
        h.navigating = True
        try:
            res = h.watch_history(expr, lambda: (self._position() or (None,))[0])
        finally:
            h.navigating = False
        if res is None:
            return []
        first, writes = res
        w = h.write
        if not writes:
            w("%s: not written in the recorded history; running the test again from step 0 "
              "for the earlier writes (that ends the history)\n" % expr)
            h.flush()
            return []
        w("%s = %s where the recorded history starts (read from the history: no re-run)\n"
          % (expr, first))
        self._print_writes(expr, writes)
        w("(record goto %d goes to that write; the program is back where it was: %s)\n"
          % (writes[-1][4], h.stop_description()))
        h.flush()
        return writes

    def nav_command(self, sub, arg):
        self._nav_init()
        if sub == "goto":
            return self.goto(*arg)
        if sub == "back":
            return self.back(arg)
        if sub == "pools":
            return self.pools()
        return self.breakpoints(sub, arg)


def triage_test_line(t, unit="steps"):
    """A test as a triage finished it, as `tnorm triage` prints it (unit: "bytes" without a
    harness)."""
    if t["status"] == "ok" and t.get("stage") == "check":
        return "%s: %d %s, checked (%d run%s): %s" % (t["test"], t["original_steps"], unit,
                                                      t["runs"], "" if t["runs"] == 1 else "s",
                                                      t["signature"])
    if t["status"] == "ok":
        return "%s: %d -> %d %s (%d runs): %s" % (t["test"], t["original_steps"],
                                                  t["normal_steps"], unit, t["runs"], t["signature"])
    return "%s: %s: %s" % (t["test"], t["status"], t["message"])


def triage_table(res):
    """What a debugger prints after `tnorm triage`: what the CLI prints, the library's summary
    (tnorm_triage_summary_text: the counts, each bucket, the tests not triaged, where the report
    is), or how far an interrupted triage got."""
    if res["interrupted"] or not res["complete"] or res.get("summary") is None:
        return "interrupted: %d of %d tests done; run the same command again to resume\n" % (
            res["done"], res["tests"])
    return res["summary"]


class Session(_Navigation):
    """The plugin's state across commands: the last result, and the test being stepped."""

    def __init__(self, host):
        self.host = host
        self.last_result = None   # path of the last result file
        self.stepping = None      # [(action, notes)] of the test `tnorm run` started
        self.entry = None         # a whole run's entry function (Session._load), else None
        self.current = -1         # index of the current step, -1 before step 0

    def _with_workdir(self, fn, *args):
        """fn(workdir, *args) with a private folder for the driver's harness file, removed when
        fn returns or raises: a debugger session leaves nothing in $TMPDIR (issue 28, item 11)."""
        workdir = tempfile.mkdtemp(prefix="tnorm-plugin-")
        try:
            return fn(workdir, *args)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    # ---- jobs ------------------------------------------------------------------------------
    def job(self, mode, a):
        return self._with_workdir(self._job, mode, a)

    def _job(self, workdir, mode, a):
        h = self.host
        program, args = h.program()
        test, tmpl = find_test(args, a.test)
        harness = a.harness
        if harness is None:
            harness = program_harness(program, workdir, tmpl)
        if harness is None and mode == "generalize":
            # Without a harness the test is a plain file: reduce, minimize and normalize work on
            # its bytes (generic mode); generalization annotates harness steps.
            raise UsageError("%s needs a harness: the program is not a tnorm driver "
                             "(--print-harness); give --harness H" % mode)
        if harness is not None and not os.path.isfile(harness):
            raise UsageError("%s: no such harness file" % harness)
        out = a.out or default_output(test, mode)
        if os.path.abspath(out) == test:
            raise UsageError("-o must not name the test (it is never modified)")
        expect = h.stop_signature_parts()
        db = None if a.no_db else _tnorm.db_path(test, a.db)
        quiet = a.quiet
        state = {"t": 0.0, "shown": False}

        def progress(p):
            if h.interrupted():
                return True
            now = time.monotonic()
            # On a terminal one line updated in place; in a log a line per second.
            if not quiet and now - state["t"] >= (0.2 if h.tty else 1.0):
                state["t"] = now
                state["shown"] = h.tty
                h.write("%s%s: best %d bytes, %d runs, %d accepted, %d cached, %.1fs%s" % (
                    "\r" if h.tty else "", p["phase"], p["best"], p["runs"], p["accepted"],
                    p["cached"], p["elapsed"], "   " if h.tty else "\n"))
                h.flush()
            return False

        argv = [program] + tmpl
        fn = getattr(_tnorm, mode)
        h.write("tnorm %s: %s -- %s\n" % (mode, test, " ".join(shlex.quote(x) for x in argv)))
        h.flush()
        res = fn(argv, test, harness=harness, out=out, match=a.match,
                 generalize=getattr(a, "generalize", False), jobs=a.jobs, db=db, expect=expect,
                 progress=progress, timeout=a.timeout, max_runs=a.max_runs, max_time=a.max_time,
                 slipped_dir=_tnorm.slipped_dir(os.path.abspath(out)),
                 rules=getattr(a, "rules", "calls"), keep_near=True)
        if state["shown"]:
            h.write("\n")
        self.report(res, getattr(a, "verbose", False))
        if res["text"] is not None and res["signature"] is not None:
            self.last_result = os.path.abspath(out)
            # The job's runs one edit away from its result: tnorm why's first neighbours.
            self._near = (self.last_result, res.get("near") or [])
        return res

    def report(self, res, verbose=False):
        w = self.host.write
        if res.get("warning"):
            w("warning: %s\n" % res["warning"])
        if res["interrupted"] and res["signature"] is None:
            # No target yet: no result, and nothing was written (issue 28, item 7).
            w("interrupted before the target was confirmed; nothing written\n")
            self.host.flush()
            return
        if res["expect_matches"] is False:
            w("warning: the debugger's stop (%s) differs from the engine's run of the test (%s); "
              "working on the engine's\n" % (res["expect_signature"], res["signature"]))
        w("signature: %s\n" % res["signature"])
        if verbose:
            for line in res["log"]:
                w("  %s\n" % line)
        label = {"reduce": "reduced", "generalize": "generalized"}.get(res["mode"], "normal form")
        if res["generalization"] and res["mode"] != "generalize":
            label += ", generalized"
        if res["known"]:
            label += " (known from the database)"
        w("%s: %d -> %d %s in %d runs (%d cached), %.2f s\n" % (
            label, res["original"], res["final"], res["unit"], res["runs"], res["cache_hits"],
            res["seconds"]))
        if res["text"] is not None:
            w(res["text"] if res["text"].endswith("\n") else res["text"] + "\n")
        for s in res["slipped"]:
            w("slipped: %s (smallest test: %s)\n" % (s["signature"], s["path"] or "-"))
        if res["interrupted"]:
            w("interrupted: the best test so far is in %s\n" % res["output"])
        elif not res["complete"]:
            w("stopped (%s): the best test so far is in %s\n" % (res["stopped"], res["output"]))
        else:
            w("written to %s\n" % res["output"])
        self.host.flush()

    # ---- triage (issue 18) -------------------------------------------------------------------
    def triage(self, a):
        return self._with_workdir(self._triage, a)

    def _triage(self, workdir, a):
        """`tnorm triage DIR`: the library's triage of a folder with the current program (the
        program argument that names a file, if any, becomes the test), then the bucket table."""
        h = self.host
        program, args = h.program()
        if not os.path.isdir(a.dir):
            raise UsageError("%s: no such folder" % a.dir)
        tmpl = [x for x in args]
        files = [i for i, x in enumerate(tmpl) if os.path.isfile(x)]
        if files:
            tmpl[files[0]] = "{}"
        elif not (tmpl and _tnorm.has_placeholder(tmpl)) and not a.stdin:
            tmpl.append("{}")
        # Without a harness (the program is not a tnorm driver): a fuzzer's crash folder.
        harness = a.harness or program_harness(program, workdir, tmpl)
        if harness is not None and not os.path.isfile(harness):
            raise UsageError("%s: no such harness file" % harness)
        db = None if a.no_db else _tnorm.db_path(os.path.join(a.dir, "x"), a.db)
        argv = [program] + tmpl

        def progress(p):
            if h.interrupted():
                return True
            if a.quiet:
                return False
            if p["event"] == "start":
                h.write("tnorm triage: %d tests in %s, %d jobs, results in %s\n"
                        % (p["total"], a.dir, p["jobs"], p["out"]))
            elif p["event"] == "test":
                h.write(triage_test_line(p["test"], "steps" if harness else "bytes") + "\n")
            else:
                return False
            h.flush()
            return False

        res = _tnorm.triage(a.dir, argv, harness, out=a.out, db=db, jobs=a.jobs, match=a.match,
                            generalize=not a.no_generalize, progress=progress,
                            timeout=a.timeout, max_time_per_test=a.max_time_per_test,
                            rules=a.rules, stdin=a.stdin, thorough=a.thorough,
                            sarif=a.sarif)
        h.write(triage_table(res))
        h.flush()
        if res["buckets"] and harness is not None:
            # Triage keeps each test's normal form as minimize names its output, and a
            # representative's annotated test as generalize does.
            rep = os.path.join(res["out"], "norm", res["buckets"][0]["representative"])
            gen = default_output(rep, "generalize")
            self.last_result = os.path.abspath(gen if os.path.isfile(gen)
                                               else default_output(rep, "minimize"))
        return res

    # ---- signature -------------------------------------------------------------------------
    def signature(self):
        parts = self.host.stop_signature_parts()
        if parts is None:
            raise UsageError("the program is not stopped on a signal (run it until it crashes)")
        return frames_signature(*parts)

    # ---- stepping --------------------------------------------------------------------------
    def run(self, a):
        h = self.host
        test = a.test or self.last_result
        if test is None:
            try:
                test, _ = find_test(h.program()[1])  # the program's own test argument
            except UsageError:
                raise UsageError("no test to run: give one (tnorm run TEST) or run tnorm minimize")
        program, _ = self._load(test)
        self.current = -1
        h.navigating = True
        try:
            stopped = h.start(self.run_args)
        finally:
            h.navigating = False
        if stopped is None:
            self.current = -1
            raise UsageError("the program did not reach step 0 (is it a tnorm driver?)")
        self.current = stopped
        h.write("tnorm run: %s %s\n" % (program, " ".join(shlex.quote(x) for x in self.run_args)))
        self.print_step(self.current)

    def step(self, a):
        h = self.host
        if self.stepping is None:
            raise UsageError("no test is being stepped: start one with tnorm run")
        for _ in range(a.count):
            was = self.current
            h.navigating = True
            try:
                k = h.next_step()
            finally:
                h.navigating = False
            if k is None:
                self.current = len(self.stepping)
                pos = self._position()
                if pos is not None and h.stop_description().startswith("the program stopped: "):
                    h.write("the test failed during step %d: %s\n" % (
                        pos[0], h.stop_description()[len("the program stopped: "):]))
                else:
                    h.write("the test ended without reaching another step (%s)\n"
                            % h.stop_description())
                if was >= 0 and pos is not None:
                    self.current = pos[0]
                return
            self.current = k
        self.print_step(self.current)

    def print_step(self, k):
        w = self.host.write
        if 0 <= k < len(self.stepping):
            action, notes = self.stepping[k]
            w("STEP %d: %s\n" % (k, action))
            for n in notes + [x for x in [self.failure_note(k)] if x]:
                w("    # %s\n" % n)
            for line in self.source_view(k):
                w("    %s\n" % line)
        else:
            w("STEP %d\n" % k)
        self.host.flush()

    def steps(self):
        if self.stepping is None:
            raise UsageError("no test is being stepped: start one with tnorm run")
        for i, (action, notes) in enumerate(self.stepping):
            mark = "=>" if i == self.current else "  "
            notes = notes + [x for x in [self.failure_note(i)] if x]
            self.host.write("%s %2d  %s%s\n" % (mark, i, action,
                                                 "    # " + "; ".join(notes) if notes else ""))
        self.host.flush()

    # ---- dispatch --------------------------------------------------------------------------
    def command(self, argstring):
        """Run `tnorm ARGS`: the subcommand's entry in COMMANDS parses the rest and its handler
        runs it.  Raises UsageError or Error with a one-line message."""
        words = (argstring or "").strip().split(None, 1)
        if not words or words[0] in ("help", "--help", "-h"):
            self.host.write(help_text())
            return None
        sub, rest = words[0], words[1] if len(words) > 1 else ""
        a = parse(sub, rest)
        return COMMAND[sub].handler(self, a)



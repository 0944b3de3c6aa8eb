# SPDX-License-Identifier: MIT
"""The _tnorm binding outside any debugger (/usr/bin/python3): results, errors, bad arguments,
progress callbacks that stop or raise, and no reference leaks over repeated calls."""
import gc
import json
import os
import shutil
import struct
import sys
import tempfile

sys.path[:0] = [sys.argv[1], sys.argv[2]]  # build/core/python, core/python
import tnorm_shared  # noqa: E402
from tap import check, raises, finish  # noqa: E402  (tests/integration/tap.py)
from tnorm_shared import _tnorm  # noqa: E402

SRC, BUILD = sys.argv[3], sys.argv[4]
D = os.path.join(BUILD, "examples/avl/avl_driver")
H = os.path.join(SRC, "examples/avl/avl.tnh")
W = tempfile.mkdtemp()


for name in ("fail-1.t", "pass-1.t"):
    shutil.copy(os.path.join(SRC, "examples/avl/tests", name), W)
t1, p1 = os.path.join(W, "fail-1.t"), os.path.join(W, "pass-1.t")

r = _tnorm.run([D, "{}"], t1)
check("run: a failing test", r["outcome"] == "fail" and r["signature"]["text"].startswith("SIGABRT at check_node"))
r = _tnorm.run([D, "{}"], p1)
check("run: a passing test", r["outcome"] == "pass" and r["signature"] is None and r["exit_code"] == 0)
e = raises(_tnorm.Error, _tnorm.run, [D, "{}"], os.path.join(W, "nope.t"))
check("run: a missing file is _tnorm.Error with the engine's message",
      e is not None and "nope.t" in str(e) and e.name.startswith("E") and e.code < 0)
check("run: argv must be a list of str", isinstance(raises(TypeError, _tnorm.run, "prog {}", t1), TypeError))
check("run: argv must not be empty", isinstance(raises(ValueError, _tnorm.run, [], t1), ValueError))
check("run: argv items must be str", isinstance(raises(TypeError, _tnorm.run, [D, 3], t1), TypeError))

s = _tnorm.signature("SIGSEGV", [("raise", "raise.c", 5, "/lib/x86_64-linux-gnu/libc.so.6"),
                                 ("f", "a.c", 10), ("main", "a.c", 20)])
check("signature: runtime frames skipped", s == "SIGSEGV at f (a.c:10) <- main (a.c:20)")
check("signature: a bad frame is TypeError", isinstance(raises(TypeError, _tnorm.signature, "SIGSEGV", [("f",)]), TypeError))
check("signature: frames must be a sequence", isinstance(raises(TypeError, _tnorm.signature, "SIGSEGV", 5), TypeError))

out = os.path.join(W, "fail-1.norm")
seen = []
r = _tnorm.minimize([D, "{}"], t1, harness=H, out=out, progress=lambda p: seen.append(p["phase"]))
check("minimize: complete, 10 steps, written", r["complete"] and r["final"] == 10 and open(out).read() == r["text"])
check("minimize: progress was reported with phases", "normalize" in seen)
check("minimize: the log of rewrites", any(x.startswith("SimplifyAll: ") for x in r["log"]))
e = raises(_tnorm.Error, _tnorm.minimize, [D, "{}"], p1, harness=H, out=os.path.join(W, "p.norm"))
check("minimize: a passing test is ENOTFAIL", e is not None and e.name == "ENOTFAIL" and "does not fail" in str(e))
e = raises(_tnorm.Error, _tnorm.minimize, [D, "{}"], t1, harness=H, out=os.path.join(W, "o.norm"),
           match="output:no such text")
check("minimize: output:REGEX not matching the original is ENOTFAIL",
      e is not None and e.name == "ENOTFAIL" and "does not match --match output:no such text" in str(e))
# Bytes that are not UTF-8 (issue 14 item 5): the engine's message reaches Python as _tnorm.Error
# with file:line:col, never as a UnicodeDecodeError; program output is decoded with backslashes.
bad = os.path.join(W, "bad-utf8.t")
with open(bad, "wb") as f:
    f.write(b"avl0 = avl_new()\n\xff\n")
try:
    _tnorm.minimize([D, "{}"], bad, harness=H, out=os.path.join(W, "bad.norm"))
    e = None
except Exception as x:  # noqa: BLE001 - any other exception is the failure under test
    e = x
check("a test with a 0xff byte raises _tnorm.Error naming file:line:col (got %r)" % (e,),
      isinstance(e, _tnorm.Error) and e.name == "EPARSE" and (bad + ":2:1: found '\\xff'") in str(e))
try:
    r = _tnorm.run(["sh", "-c", "printf 'a\\377b'; printf '\\376' >&2"], t1)
    e = None
except Exception as x:  # noqa: BLE001
    r, e = None, x
check("run: output that is not UTF-8 is text with U+FFFD and its exact bytes in hex (got %r)" % (e,),
      e is None and r["stdout"] == "a\ufffdb" and r["stdout_hex"] == "61ff62"
      and r["stderr"] == "\ufffd" and r["stderr_hex"] == "fe")
r = _tnorm.run(["sh", "-c", "exit 2"], t1, invalid_exit=[2])
check("run: invalid_exit", r["outcome"] == "invalid" and r["exit_code"] == 2)
check("run: invalid_exit out of range is ValueError",
      isinstance(raises(ValueError, _tnorm.run, [D, "{}"], t1, invalid_exit=[0]), ValueError))
FIXED = os.path.join(BUILD, "examples/avl/avl_driver_fixed")
r = _tnorm.reduce([D, "{}"], t1, harness=H, out=os.path.join(W, "f.min"), fixed=[FIXED, "{}"])
check("reduce: fixed, the result passes on the fixed build", r["complete"] and r["final"] <= 10)
e = raises(_tnorm.Error, _tnorm.reduce, [D, "{}"], t1, harness=H, out=os.path.join(W, "g.min"),
           fixed=[D, "{}"])
check("reduce: fixed on which the original fails is ENOTFAIL",
      e is not None and e.name == "ENOTFAIL" and "does not pass on the fixed program" in str(e))
e = raises(_tnorm.Error, _tnorm.generalize, [D, "{}"], t1, out=os.path.join(W, "x.gen"))
check("generalize: no harness is an engine error", e is not None and "needs a harness" in str(e))
e = raises(_tnorm.Error, _tnorm.minimize, [D, "{}"], t1, harness=H, out=os.path.join(W, "x.norm"), match="nope")
check("minimize: a bad policy is an engine error", e is not None and "nope" in str(e))
check("minimize: out is required", isinstance(raises(ValueError, _tnorm.minimize, [D, "{}"], t1, harness=H), ValueError))
check("minimize: a negative timeout is ValueError",
      isinstance(raises(ValueError, _tnorm.minimize, [D, "{}"], t1, harness=H, out=out, timeout=-1), ValueError))
check("triage: a negative timeout is ValueError",
      isinstance(raises(ValueError, _tnorm.triage, W, [D, "{}"], H, timeout=-2.5), ValueError))
check("minimize: progress must be callable", isinstance(raises(TypeError, _tnorm.minimize, [D, "{}"], t1, harness=H, out=out, progress=3), TypeError))
check("minimize: the call rules by default", r["paper_rules"] is False and r["capped"] == 0)
rp = _tnorm.minimize([D, "{}"], t1, harness=H, out=os.path.join(W, "paper.norm"), rules="paper")
check("minimize: rules='paper' runs the paper's rules", rp["paper_rules"] is True and rp["complete"])
check("minimize: an unknown rule set is ValueError",
      isinstance(raises(ValueError, _tnorm.minimize, [D, "{}"], t1, harness=H, out=out, rules="fancy"), ValueError))

out2 = os.path.join(W, "stop.norm")
r = _tnorm.minimize([D, "{}"], t1, harness=H, out=out2, db=None, progress=lambda p: p["runs"] > 20)
check("minimize: a true progress return stops with the best so far",
      not r["complete"] and r["interrupted"] and os.path.getsize(out2) > 0 and "interrupted" in r["stopped"])


class Boom(Exception):
    pass


def boom(p):
    raise Boom("from progress")


e = raises(Boom, _tnorm.minimize, [D, "{}"], t1, harness=H, out=os.path.join(W, "boom.norm"), progress=boom)
check("minimize: an exception in progress propagates", e is not None and str(e) == "from progress")
r = _tnorm.generalize([D, "{}"], out, harness=H, out=os.path.join(W, "g.gen"), jobs=2)
check("generalize: annotated, JSON facts", "# STEP 0" in r["text"] and r["generalization"].startswith("{"))

# ---- triage (issue 18): the library's job, its progress on this thread, stop, resume -----------
TD = os.path.join(W, "corpus")
os.mkdir(TD)
for name in ("fail-1.t", "fail-2.t", "pass-1.t"):
    shutil.copy(os.path.join(SRC, "examples/avl/tests", name), TD)
events = []
r = _tnorm.triage(TD, [D, "{}"], H, jobs=2, thorough=True,
                  progress=lambda p: events.append(p) and False)
check("triage: complete, 3 tests, 2 failing, 1 bucket of 2",
      r["complete"] and r["tests"] == 3 and r["failing"] == 2 and len(r["buckets"]) == 1
      and r["buckets"][0]["count"] == 2 and r["buckets"][0]["tests"] == ["fail-1.t", "fail-2.t"])
check("triage: the tests as data (sorted, status, bucket, normal form)",
      [t["test"] for t in r["results"]] == ["fail-1.t", "fail-2.t", "pass-1.t"]
      and [t["status"] for t in r["results"]] == ["ok", "ok", "notfail"]
      and [t["bucket"] for t in r["results"]] == [1, 1, 0]
      and r["results"][0]["normal"] == r["buckets"][0]["normal_form"] and r["fresh"] == 3)
check("triage: the representative is annotated", "# STEP 0" in (r["buckets"][0]["annotated"] or ""))
kinds = [p["event"] for p in events]
check("triage: progress: start first, a 'test' event per test, generalize runs",
      kinds[0] == "start" and events[0]["total"] == 3 and kinds.count("test") == 3
      and "generalize" in kinds
      and sorted(p["test"]["test"] for p in events if p["event"] == "test") == [t["test"] for t in r["results"]])
check("triage: report.json and report.html are written",
      os.path.isfile(os.path.join(TD, "triage", "report.json"))
      and os.path.isfile(os.path.join(TD, "triage", "report.html")))
r2 = _tnorm.triage(TD, [D, "{}"], H, jobs=2, generalize=False)
check("triage: a second call finds every test done (no fresh ones)",
      r2["complete"] and r2["fresh"] == 0 and r2["done"] == 3)
check("triage: sampled (the default), the smallest test is minimized, the other assigned with evidence",
      r2["minimized"] == 1 and r2["assigned"] == 1 and r2["results"][0]["method"] == "minimized"
      and r2["results"][1]["method"] == "assigned" and "fail-1.t" in r2["results"][1]["evidence"]
      and r2["results"][1]["bucket"] == 1 and r2["results"][0]["evidence"] == "")
# A bucket's normal forms are its minimized tests' (an assigned test has none): the assigned
# fail-2.t is no empty form of its own, and the representative's form is listed.
check("triage: sampled, the bucket's normal forms are its minimized test's, counted once (%r)"
      % (r2["buckets"][0]["normal_forms"],),
      [(f["normal_form"], f["count"], f["first"]) for f in r2["buckets"][0]["normal_forms"]]
      == [(r2["results"][0]["normal"], 1, "fail-1.t")] and r2["results"][0]["normal"] != "")
# Issue 42 item 1: a test has one shape, the library's record (tnorm_triage_test_json): the
# binding's dicts are report.json's "results" entries, and a result file is the same record
# with the content's hash and the job's key.
with open(os.path.join(TD, "triage", "report.json"), encoding="utf-8") as f:
    _rep = json.load(f)
with open(os.path.join(TD, "triage", "results", "fail-1.t.json"), encoding="utf-8") as f:
    _file = json.load(f)
check("triage: a test's dict is its report.json entry, with its result file's keys",
      _rep["results"] == r2["results"] and "normal_bytes" not in r2["results"][0]
      and [k for k in _file if k not in ("hash", "job")] == list(r2["results"][0])
      and _file["normal"] == r2["results"][0]["normal"] and _file["key"] == r2["results"][0]["key"])
# The whole result is report.json's object, rendered once (tnorm_triage_report_json), with the
# job's state beside it: every key report.json has, with report.json's value.
_job = ("out", "folder", "complete", "interrupted", "stopped", "done", "fresh", "summary")
check("triage: the result dict is report.json's object and the job's state, nothing else",
      {k: v for k, v in r2.items() if k not in _job} == _rep
      and list(_rep) == [k for k in r2 if k not in _job]
      and r2["buckets"][0]["key"] == r2["results"][0]["key"]
      and r2["buckets"][0]["normal_form_bytes"] == r2["results"][0]["normal"].encode().hex())
TS = os.path.join(W, "corpus2")
os.mkdir(TS)
for name in ("fail-1.t", "fail-2.t", "fail-3.t"):
    shutil.copy(os.path.join(SRC, "examples/avl/tests", name), TS)
r = _tnorm.triage(TS, [D, "{}"], H, jobs=1, db=None,
                  progress=lambda p: p["event"] == "test")
check("triage: a true progress return stops: interrupted, what is done kept",
      not r["complete"] and r["interrupted"] and 1 <= r["done"] < 3 and "resume" in r["stopped"]
      and [t["status"] for t in r["results"]].count("pending") == 3 - r["done"])
before = r["done"]
r = _tnorm.triage(TS, [D, "{}"], H, jobs=2, generalize=False)
check("triage: called again, it resumes: only the rest is done (%d before)" % before,
      r["complete"] and r["fresh"] == 3 - before and r["failing"] == 3)
e = raises(Boom, _tnorm.triage, TS, [D, "{}"], H, progress=boom)
check("triage: an exception in progress propagates", e is not None and str(e) == "from progress")
os.mkdir(os.path.join(W, "empty"))
e = raises(_tnorm.Error, _tnorm.triage, os.path.join(W, "empty"), [D, "{}"], H)
check("triage: no tests is _tnorm.Error ENOTFOUND", e is not None and e.name == "ENOTFOUND" and "no tests" in str(e))
e = raises(_tnorm.Error, _tnorm.triage, os.path.join(W, "nosuch"), [D, "{}"], H)
check("triage: a missing folder is _tnorm.Error EIO", e is not None and e.name == "EIO" and "cannot read the folder" in str(e))
with open(os.path.join(W, "bad.tnh"), "w") as f:
    f.write("pool int 2\nfoo(<int>\n")
e = raises(_tnorm.Error, _tnorm.triage, TD, [D, "{}"], os.path.join(W, "bad.tnh"))
check("triage: a bad harness is EPARSE with file:line", e is not None and e.name == "EPARSE" and "bad.tnh:2:" in str(e))
check("triage: rules must be calls or paper",
      isinstance(raises(ValueError, _tnorm.triage, TD, [D, "{}"], H, rules="x"), ValueError))

# ---- triage without a harness (issue 17): a fuzzer's crash folder, normal forms as bytes --------
J = os.path.join(BUILD, "tests/suts/sut_jsonish")
if os.path.isfile(J):
    CF = os.path.join(W, "crashes")
    os.mkdir(CF)
    for name, data in (("id:000000,sig:06,src:000000,time:1,execs:2,op:havoc,rep:2",
                        b'{"a": 1, "": [{"n": 1}]}\n'),
                       ("crash-" + "0" * 40, b'{"x": [], "": [{}, 3]}'),
                       ("README.txt", b"Command line used to find this crash:\n")):
        with open(os.path.join(CF, name), "wb") as f:
            f.write(data)
    r = _tnorm.triage(CF, [J, "@@"], jobs=2, invalid_exit=[1])
    b = r["buckets"][0] if r["buckets"] else {}
    check("triage without a harness: 2 crash files (README.txt is none), 1 bucket, in bytes",
          r["complete"] and r["tests"] == 2 and len(r["buckets"]) == 1 and r["unit"] == "bytes"
          and b["count"] == 2 and b["annotated"] is None)
    check("triage without a harness: the normal form as bytes, and its representative file",
          bytes.fromhex(b["normal_form_bytes"]) == b'{"":[{}]}'
          and open(b["file"], "rb").read() == b'{"":[{}]}'
          and r["results"][0]["normal"] == '{"":[{}]}' and "normal_hex" not in r["results"][0])
    r = _tnorm.triage(CF, [J], None, jobs=1, stdin=True, invalid_exit=[1],
                      out=os.path.join(W, "crashes-stdin"))
    check("triage without a harness, stdin=True: the same bucket",
          r["complete"] and len(r["buckets"]) == 1
          and bytes.fromhex(r["buckets"][0]["normal_form_bytes"]) == b'{"":[{}]}')
# Issue 42 item 1: the plugins print what the CLI prints, the library's summary.
_tt = tnorm_shared.triage_table(r2)
check("tnorm_shared: triage_table prints the library's summary, as the CLI does",
      _tt == r2["summary"] and _tt.startswith(TD + ": 3 tests, 2 failing")
      and "\n== bucket 1: 2 tests (1 minimized, 1 assigned); " in _tt
      and "not triaged: pass-1.t: notfail" in _tt and _tt.endswith("/report.json\n"))

# Reference counts: the same calls again and again must not grow the heap of live objects.
gc.collect()
before = len(gc.get_objects())
for _ in range(30):
    _tnorm.run([D, "{}"], p1)
    _tnorm.signature("SIGABRT", [("f", "a.c", 1)])
    raises(_tnorm.Error, _tnorm.run, [D, "{}"], os.path.join(W, "nope.t"))
    raises(TypeError, _tnorm.signature, "SIGSEGV", [("f",)])
gc.collect()
check("no leaked Python objects over 120 calls (%d -> %d)" % (before, len(gc.get_objects())),
      len(gc.get_objects()) - before < 20)
# (run()'s dict is json.loads of the library's JSON, and json.loads moves None's count by itself:
# count the references to the arguments instead.)
_argv = [D, "{}"]
rc_before = (sys.getrefcount(_argv), sys.getrefcount(t1), sys.getrefcount(_argv[0]))
for _ in range(50):
    _tnorm.run(_argv, t1)
check("no reference leak on the arguments over 50 results",
      (sys.getrefcount(_argv), sys.getrefcount(t1), sys.getrefcount(_argv[0])) == rc_before)

check("tnorm_shared: find_test picks the file argument", tnorm_shared.find_test(["-v", t1])[1] == ["-v", "{}"])
check("tnorm_shared: parse_steps keeps notes", tnorm_shared.parse_steps("a = 1 # STEP 0\n# or a = 2\n# - a = 5\nf(a)\n")
      == [("a = 1", ["or a = 2 ... a = 5"]), ("f(a)", [])])
# What the plugins take from the library rather than write again (issue 31, item 1).
check("run: the signature's kind", _tnorm.run([D, "{}"], t1)["kind"] == "SIGABRT"
      and _tnorm.run([D, "{}"], p1)["kind"] is None)
env = _tnorm.sanitizer_environment(lambda n: {"UBSAN_OPTIONS": "halt_on_error=0"}.get(n))
check("sanitizer_environment: abort_on_error=1, the user's halt_on_error wins",
      env == {"ASAN_OPTIONS": "abort_on_error=1", "UBSAN_OPTIONS": "halt_on_error=0:abort_on_error=1"})
env = _tnorm.sanitizer_environment(lambda n: "detect_leaks=0:abort_on_error=0" if n == "ASAN_OPTIONS" else None)
check("sanitizer_environment: the user's flags kept, abort_on_error forced",
      env["ASAN_OPTIONS"] == "detect_leaks=0:abort_on_error=1"
      and env["UBSAN_OPTIONS"] == "halt_on_error=1:abort_on_error=1")
check("sanitizer_environment: lookup must return str or None",
      isinstance(raises(TypeError, _tnorm.sanitizer_environment, lambda n: 3), TypeError))
check("ubsan_kind: the engine's word, capital first letter read in lower case",
      _tnorm.ubsan_kind("Signed integer overflow: 1 + 2 cannot be represented") == "ubsan:signed-integer-overflow"
      and _tnorm.ubsan_kind("load of null pointer of type 'int'") == "ubsan:load-of-null-pointer-of-type"
      and _tnorm.ubsan_kind("123") is None)
# The sanitizers' names and kinds come from the library's one module (issue 42, item 4).
_san = _tnorm.sanitizers()
check("sanitizers: the library's lists", sorted(_san) == ["functions", "libraries", "namespaces",
      "option_vars", "queries", "report_entries", "ubsan_hook"]
      and _san["option_vars"][:2] == ("ASAN_OPTIONS", "UBSAN_OPTIONS")
      and _san["ubsan_hook"] == ("__ubsan_on_report",) and "__asan_report_" in _san["report_entries"]
      and "libasan" in _san["libraries"] and "__interceptor_" in _san["functions"])
check("sanitizer_kind: TOOL:TYPE[:ACCESS]",
      _tnorm.sanitizer_kind("asan", "heap-use-after-free", "READ") == "asan:heap-use-after-free:READ"
      and _tnorm.sanitizer_kind("ubsan", "signed-integer-overflow") == "ubsan:signed-integer-overflow"
      and _tnorm.sanitizer_kind("asan", "SEGV", "") == "asan:SEGV"
      and isinstance(raises(_tnorm.Error, _tnorm.sanitizer_kind, "asan", ""), _tnorm.Error))


class _AsanHost:
    """A stopped inferior whose ASan runtime reports `desc`, a bad access when `write` is not
    None (a write when true)."""
    def __init__(self, desc, write):
        self.values = {tnorm_shared.ASAN_DESCRIPTION: desc,
                       tnorm_shared.ASAN_PRESENT: 0 if write is None else 1,
                       tnorm_shared.ASAN_ACCESS: 1 if write else 0}

    def evaluate(self, expr, as_string):
        return self.values.get(expr)

    def symbol_address(self, name):
        return None


check("stop_kind: ASan's kind as the engine writes it",
      tnorm_shared.stop_kind("SIGABRT", _AsanHost("heap-use-after-free on address 0x1", True))
      == "asan:heap-use-after-free:WRITE"
      and tnorm_shared.stop_kind(None, _AsanHost("heap-buffer-overflow on", False))
      == "asan:heap-buffer-overflow:READ"
      and tnorm_shared.stop_kind(None, _AsanHost("double-free on", None)) == "asan:double-free"
      and tnorm_shared.ASAN_PRESENT == "((int (*)(void))__asan_report_present)()"
      and tnorm_shared.UBSAN_REPORT_HOOK == "__ubsan_on_report")
check("read_steps: blocks and legends", _tnorm.read_steps(
    "# how to read: ...\n#[\na = 1 # STEP 0\nb = 2 # STEP 1\n#] (steps in [] can be in any order)\n")
      == [("a = 1", []), ("b = 2", ["ends a block of steps that can be in any order"])])
check("is_driver: the avl driver is one, python is not", _tnorm.is_driver(D) and not _tnorm.is_driver(sys.executable)
      and not _tnorm.is_driver(os.path.join(W, "nope")))

# What tnorm_shared.py had copies of (issue 31, item 1, the last piece): the failing step of a
# --trace run, the signature's kind and throwing frame, and the driver runtime's table.
check("last_trace_step: the last 'STEP K: ' line, from str or bytes",
      _tnorm.last_trace_step("STEP 0: a = 1\nSTEP 1: f(a)\nx STEP 5: no\nboom\n") == 1
      and _tnorm.last_trace_step(b"STEP 12: f(a)\n\xff\n") == 12
      and _tnorm.last_trace_step("no steps") is None and _tnorm.last_trace_step("") is None)
check("last_trace_step: not str is TypeError", isinstance(raises(TypeError, _tnorm.last_trace_step, 3), TypeError))
r = _tnorm.run([D, "--trace", "{}"], t1)
check("run: top is the kind and the throwing frame (%r)" % r["top"],
      r["top"] == "SIGABRT at check_node (avl.c:191)" and r["signature"]["text"].startswith(r["top"] + " <- ")
      and _tnorm.last_trace_step(r["stderr"]) is not None)
check("run: no top for a passing test", _tnorm.run([D, "{}"], p1)["top"] is None)

# One renderer per result (issue 42, item 1): run()'s and why()'s dicts are the library's JSON,
# the object `tnorm run --json` and `tnorm why --json` print: the same keys, the same values.
import json  # noqa: E402
import subprocess  # noqa: E402
T = os.path.join(BUILD, "core/cli/tnorm")


def cli_json(*args):
    return json.loads(subprocess.run([T] + list(args), capture_output=True, text=True).stdout)


TIMES = ("wall", "child_cpu", "seconds")
for name, test in (("failing", t1), ("passing", p1)):
    r = _tnorm.run([D, "{}"], test)
    c = cli_json("run", "--json", test, "--", D, "{}")
    check("run: the dict of a %s test is `tnorm run --json`'s object (%s vs %s)" % (name, sorted(r), sorted(c)),
          list(r) == list(c) and all(r[k] == c[k] for k in r if k not in TIMES))
check("run: signal, not signo; child_cpu, key, stdout, kind and top in both",
      {"signal", "child_cpu", "key", "stdout", "kind", "top"} <= set(r) and "signo" not in r)
nf = os.path.join(W, "why.t")
shutil.copy(os.path.join(SRC, "examples/avl/tests", "fail-1.t"), nf)
w = _tnorm.why([D, "{}"], nf, steps=True, neighbours=30, top=3)
c = cli_json("why", "--json", "--normal", "--neighbours", "30", "--harness", H, nf, "--", D, "{}")
check("why: the dict is `tnorm why --json`'s object and the table (%s vs %s)" % (sorted(w), sorted(c)),
      list(w) == list(c) + ["table"] and w["lines"] == c["lines"] and w["neighbours"] == c["neighbours"]
      and all("on_stack" in l for l in c["lines"]))
table = subprocess.run([T, "why", "--normal", "--top", "3", "--neighbours", "30", "--harness", H, nf, "--", D, "{}"],
                       capture_output=True, text=True).stdout
check("why: the table is what `tnorm why` prints, from its third line on (%r)" % w["table"][:200],
      w["table"].split("\n")[2:] == table.split("\n")[2:] and w["table"].startswith("signature: "))
check("tnorm_shared.why_table: the first N lines of the whole table",
      tnorm_shared.why_table(_tnorm.why([D, "{}"], nf, steps=True, neighbours=30, top=0), 3).split("\n")[2:]
      == w["table"].split("\n")[2:])

# The front ends' rules (issue 42, item 3): the library's, for the CLI and the plugins alike.
check("default_jobs: the CPUs online, 1 to 64", _tnorm.default_jobs() == max(1, min(64, os.cpu_count() or 1)))
check("tnorm_shared: -j defaults to the library's", tnorm_shared.parse("minimize", "").jobs == _tnorm.default_jobs())
check("slipped_dir: slipped/ beside the result file, the CLI's rule (tnorm_pipeline_slipped_dir)",
      _tnorm.slipped_dir("/tmp/d/x.norm") == "/tmp/d/slipped" and _tnorm.slipped_dir("x.norm") == "./slipped")
check("argv_harness: the word after the program's own --harness",
      _tnorm.argv_harness([D, "--harness", H, "{}"]) == H and _tnorm.argv_harness([D, "{}"]) is None
      and _tnorm.argv_harness(["--harness", "x"]) is None and _tnorm.argv_harness([D, "--harness"]) is None)
check("tnorm_shared.program_harness: a --harness in the program's arguments wins",
      tnorm_shared.program_harness(D, W, ["--harness", H, "{}"]) == H)
check("has_placeholder: {} or @@ anywhere in an argument",
      _tnorm.has_placeholder([D, "--in={}"]) and _tnorm.has_placeholder([D, "@@"])
      and not _tnorm.has_placeholder([D, "x"]) and not _tnorm.has_placeholder([D, "{", "}"]))

# The driver runtime's table (core/src/drv_debug.h, version 2, 64-bit) in a fake memory.
class FakeMemory:
    def __init__(self):
        self.regions = {}
        self.next = 0x10000

    def put(self, data):
        addr, self.next = self.next, self.next + len(data) + 0x1000
        self.regions[addr] = data
        return addr

    def read(self, addr, size):
        for base, data in self.regions.items():
            if base <= addr and addr + size <= base + len(data):
                return data[addr - base:addr - base + size]
        return None


def fake_table(magic=b"tnormdb\0", version=2):
    m = FakeMemory()
    names = [m.put(n + b"\0" * 64) for n in (b"avl0", b"int0", b"str0", b"int1")]
    printed = m.put(b"{1, 2}\0" + b"\0" * 64)
    s = m.put(b"h\xffi\n")
    val = struct.Struct("=qQQQi4x")
    var = struct.Struct("=QqqIIQq")
    values = m.put(val.pack(0, 0, 0, 0x5000, 0) + val.pack(-7, 0, 0, 0, 1) + val.pack(0, s, 4, 0, 2)
                   + val.pack(0, 0, 0, 0, 0))
    infos = m.put(var.pack(names[0], 0, 2, 3, 1, printed, 3) + var.pack(names[1], 1, -1, 1, 0, 0, -1)
                  + var.pack(names[2], 2, -1, 2, 0, 0, -1) + var.pack(names[3], -1, -1, 1, 0, 0, -1))
    addr = m.put(struct.pack("=8sIIIIQQqQQQQ", magic, version, 8, val.size, var.size, 4, 9, 3,
                             values, infos, 0x401000, 0))
    return m, addr


m, addr = fake_table()
p = _tnorm.pools(m.read, addr)
check("pools: the step, the steps, the handler", (p["step"], p["nsteps"], p["handler"]) == (3, 9, 0x401000))
check("pools: the instances that have a value, as tnorm pools shows them (%r)" % p["vars"],
      p["vars"] == [
          {"name": "avl0", "kind": "object", "value": "0x5000", "assigned": 0, "changed": 2,
           "printed": "{1, 2}", "printed_before": 3},
          {"name": "int0", "kind": "int", "value": "-7", "assigned": 1, "changed": -1,
           "printed": None, "printed_before": -1},
          {"name": "str0", "kind": "string", "value": '"h\\xffi\\n"', "assigned": 2, "changed": -1,
           "printed": None, "printed_before": -1}])
check("pools: POOLS_SYMBOL names the runtime's table", _tnorm.POOLS_SYMBOL == "tnorm_drv_debug")
for what, args, name, msg in (
        ("no table", (m.read, 0), "ENOTFOUND",
         "the program has no tnorm driver runtime (no tnorm_drv_debug to read)"),
        ("a table out of reach", (m.read, 8), "ENOTFOUND",
         "the program has no tnorm driver runtime (no tnorm_drv_debug to read)"),
        ("the test not running", fake_table(magic=b"\0" * 8), "ERROR",
         "the test is not running yet (or has ended): no pool has a value"),
        ("an unknown layout", fake_table(version=7), "EINVALID",
         "the driver runtime's table has a layout this plugin does not know (version 7)")):
    if not callable(args[0]):
        args = (args[0].read, args[1])
    e = raises(_tnorm.Error, _tnorm.pools, *args)
    check("pools: %s is _tnorm.Error %s" % (what, name), e is not None and e.name == name and str(e) == msg)


class Host:
    def __init__(self, memory, addr, alive=True):
        self.memory, self.addr, self.is_alive = memory, addr, alive

    def alive(self):
        return self.is_alive

    def symbol_address(self, name):
        return self.addr if name == "tnorm_drv_debug" else None

    def read_memory(self, addr, size):
        return self.memory.read(addr, size)


check("read_pools: the table through the host", tnorm_shared.read_pools(Host(m, addr))["step"] == 3)
for what, host, msg in (
        ("not running", Host(m, addr, alive=False), "the program is not running: tnorm run or tnorm goto K starts it"),
        ("no runtime", Host(m, None), "the program has no tnorm driver runtime (no tnorm_drv_debug to read)"),
        ("not yet running", Host(*fake_table(magic=b"\0" * 8)), "the test is not running yet (or has ended): no pool has a value"),
        ("unknown layout", Host(*fake_table(version=3)), "the driver runtime's table has a layout this plugin does not know (version 3)")):
    e = raises(tnorm_shared.UsageError, tnorm_shared.read_pools, host)
    check("read_pools: %s is the UsageError it was (%s)" % (what, e), e is not None and str(e) == msg)
# Values out of reach: the table read, then "cannot read".
m2, addr2 = fake_table()
hdr = m2.regions[addr2]
m2.regions[addr2] = hdr[:48] + struct.pack("=Q", 8) + hdr[56:]  # `values`: 8, unmapped
e = raises(tnorm_shared.UsageError, tnorm_shared.read_pools, Host(m2, addr2))
check("read_pools: values out of reach is 'cannot read' (%s)" % e,
      e is not None and str(e) == "cannot read the driver runtime's table")


def boom_read(addr, size):
    raise Boom("from read")


e = raises(Boom, _tnorm.pools, boom_read, addr)
check("pools: an exception in read propagates", e is not None and str(e) == "from read")
check("pools: read returning neither bytes nor None is TypeError",
      isinstance(raises(TypeError, _tnorm.pools, lambda a, n: 3, addr), TypeError))
check("pools: read must be callable", isinstance(raises(TypeError, _tnorm.pools, 3, addr), TypeError))
gc.collect()
before = len(gc.get_objects())
for _ in range(50):
    _tnorm.pools(m.read, addr)
    raises(_tnorm.Error, _tnorm.pools, m.read, 0)
    raises(Boom, _tnorm.pools, boom_read, addr)
    _tnorm.last_trace_step("STEP 3: x\n")
gc.collect()
check("pools: no leaked Python objects over 200 calls (%d -> %d)" % (before, len(gc.get_objects())),
      len(gc.get_objects()) - before < 20)

shutil.rmtree(W)
finish()

#!/bin/bash
# SPDX-License-Identifier: MIT
# The triage report as a bug list (issue 40, items 1 and 7), loaded in headless Chromium.  Three
# small campaigns of real crash files: a binary command reader with two planted bugs (opcodes: an
# EXPLOITABLE stack-buffer-overflow WRITE, a NOT_EXPLOITABLE heap-buffer-overflow READ), file names
# and bytes that need escaping; two bugs behind one signature (tworoots, kept apart by the coverage
# split); one bug reached by two stacks (twopaths: the report shows the representative's own
# stack); and a libFuzzer target (jsonish built with -fsanitize=fuzzer): no fuzzer:: frame.  With
# --explain, each section has tnorm why's best lines and their source.  The
# DOM Chromium builds is checked: a section per bucket in severity order, the crash state, the
# normal form as escaped text and in hex, the escaping; and the summary lines of item 7.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT, TNORM_SUT_DIR (set by meson test),
# chromium and clang.
. "$(dirname "$0")/lib.sh"
S=$TNORM_SUT_DIR
cd "$W" || exit 1
if ! command -v chromium >/dev/null; then
	bad "chromium is not installed (the README's commands install it)"
	echo "$pass passed, $fail failed"
	exit 1
fi

libfuzzer() { # DIR CONTENT (printf format): a libFuzzer crash file, named by its SHA-1
	printf -- "$2" >"$1/tmp"
	mv "$1/tmp" "$1/crash-$(sha1sum <"$1/tmp" | cut -c1-40)"
}
dom() { # REPORT DOM: the page as headless Chromium builds it (no network, no console message)
	timeout 300 chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$W/chrome" \
		--enable-logging=stderr --v=0 --dump-dom "file://$W/$1" >"$2" 2>"$2.err" &&
		[ -s "$2" ] && ! grep -q CONSOLE "$2.err"
}
# The DOM's sections against report.json: one per bucket in the report's order (most severe,
# then most tests), each with its crash state, its normal form escaped and in hex, its tests.
check_dom() { # DOM REPORT.JSON [extra python]
	python3 - "$@" <<'PYEOF'
import json, sys
from html.parser import HTMLParser

class Page(HTMLParser):
    """Sections (data-* and the text of each element of interest inside them)."""
    def __init__(self):
        super().__init__()
        self.sections, self.cur, self.stack, self.text = [], None, [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and "bucket" in a.get("class", ""):
            self.cur = {"attrs": a, "frames": [], "hex": "", "text": "", "tests": "", "all": ""}
            self.sections.append(self.cur)
        self.stack.append((tag, a.get("class", "")))
    def handle_endtag(self, tag):
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break
        if tag == "section":
            self.cur = None
    def handle_data(self, d):
        self.text.append(d)
        if not self.cur:
            return
        self.cur["all"] += d
        classes = [c for _, c in self.stack]
        if "normal-hex" in classes and self.cur["hex"] is not None:
            self.cur["hex"] += d
        if "normal-text" in classes and "forms" not in classes:
            self.cur["text"] += d
        if "frames" in classes and self.stack[-1][0] == "code":
            self.cur["frames"].append(d)

dom, rep = sys.argv[1], json.load(open(sys.argv[2]))
page = Page()
page.feed(open(dom, encoding="utf-8").read())
secs = page.sections
byid = {b["id"]: b for b in rep["buckets"]}
assert len(secs) == len(rep["buckets"]), (len(secs), len(rep["buckets"]))
ids = [int(s["attrs"]["data-bucket"]) for s in secs]
assert ids == rep["bucket_order"], (ids, rep["bucket_order"])
rank = {"EXPLOITABLE": 0, "PROBABLY_EXPLOITABLE": 1, "UNKNOWN": 2, "NOT_EXPLOITABLE": 3}
keys = [(rank[s["attrs"]["data-severity"]], -int(s["attrs"]["data-tests"])) for s in secs]
assert keys == sorted(keys), keys
for s in secs:
    b = byid[int(s["attrs"]["data-bucket"])]
    assert s["attrs"]["data-severity"] == b["severity"]["class"]
    # the hex dump is every byte of the representative's file
    got = "".join(l[10:] for l in s["hex"].strip().splitlines()).split()
    want = b["normal_form_bytes"]
    assert "".join(got) == want, (got, want)
    if "\ufffd" not in b["file"]:
        assert open(b["file"], "rb").read().hex() == want, b["file"]
    assert s["text"] == b["normal_form_escaped"], (s["text"], b["normal_form_escaped"])
    assert s["frames"] == b["crash_state"]["frames"], (s["frames"], b["crash_state"])
    assert 1 <= len(s["frames"]) <= 3, s["frames"]
    assert all(n in s["all"] for n in b["tests"] if n.isascii() and "\\" not in n)
text = "".join(page.text)
assert "fuzzer::" not in text
exec(sys.argv[3] if len(sys.argv) > 3 else "")
PYEOF
}

# ---- two bugs, names and bytes to escape --------------------------------------------------------
# NAME: a backslash, markup, and the bytes 0xe9 0x80 (not UTF-8); its content is bug B's.
NAME=$'back\\slash-<b>&\xe9\x80'
mkdir c
libfuzzer c '\x01\x02\x80\x90\x07\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90\x91\x92\x00\x03'
libfuzzer c '\x07\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xc0\xc1\xc2\xc3'
libfuzzer c '\x05\x05\xa0\xff\x06\x00\x02'
printf '\xee\xff\x05\x00\xff' >"c/$NAME"
"$T" triage c -j 2 --no-db -- "$S/sut_opcodes" @@ >c.out 2>c.err; rc=$?
expect "triage of two bugs exits 0, two buckets" \
	sh -c "[ $rc = 0 ] && grep -q '^c: 4 tests, 4 failing, 2 distinct signatures, .*: 2 buckets$' c.out"
expect "report.html loads in headless Chromium without a console message" dom c/triage/report.html c.dom
expect "a section per bucket, the EXPLOITABLE write first; each with its crash state, its normal form escaped and in hex, its tests" \
	check_dom c.dom c/triage/report.json '
assert secs[0]["attrs"]["data-severity"] == "EXPLOITABLE" and secs[1]["attrs"]["data-severity"] == "NOT_EXPLOITABLE"
assert secs[0]["frames"][0].startswith("read_label (opcodes.c:") and secs[1]["frames"][0].startswith("lookup (opcodes.c:")
assert "stack-buffer-overflow" in secs[0]["all"] and "WRITE" in secs[0]["all"]
assert secs[1]["text"] == r"\xff\x04\x00", secs[1]["text"]
# the name: its backslash doubled, its bytes \xNN, its markup text (HTML-escaped in the file)
assert r"back\\slash-<b>&\xe9\x80" in secs[1]["all"], secs[1]["all"]'
expect "the page is ASCII: every byte of a name or a form escaped" \
	python3 -c "open('c/triage/report.html', 'rb').read().decode('ascii')"
markup_escaped() {
	! grep -q '<b>&' c/triage/report.html &&
		grep -qF 'back\\slash-&lt;b&gt;&amp;\xe9\x80' c/triage/report.html
}
expect "the markup of a name is text, not an element" markup_escaped
expect "the tests' names are collapsed under their bucket" \
	sh -c "[ \$(grep -c '<details class=\"tests\"><summary>2 tests</summary>' c/triage/report.html) = 2 ]"
expect "the histograms: one bar per bucket and per length range, not one per test" \
	python3 -c '
import re
h = open("c/triage/report.html").read()
bars = re.findall(r"<rect class=\"bar sev-(\w+)\"", h)
assert bars == ["EXPLOITABLE", "NOT_EXPLOITABLE"], bars
assert "id=\"lengths\"" in h and 0 < h.count("<rect class=\"len\"") <= 8'

# Item 7's summary lines: one escaping (printable ASCII, \\, \xNN), in the report's order.
expect "item 7: the summary is ASCII: no byte of 0x80 or more printed raw" \
	python3 -c "open('c.out', 'rb').read().decode('ascii')"
name_escaped() {
	grep -qF 'back\\slash-<b>&\xe9\x80: 5 bytes, checked' c.out
}
expect "item 7: a name's backslash doubled, its bytes as \\xNN, on its line" name_escaped
form_escaped() {
	grep -qxF '\xff\x04\x00' c.out
}
expect "item 7: a binary normal form escaped byte by byte" form_escaped
counts_said() {
	grep -A1 '^c: 4 tests' c.out | tail -1 | grep -q '^4 failing tests have 2 distinct signatures (.*) and make 2 buckets, one per bug\.'
}
expect "item 7: the counts in words, under the counts" counts_said
expect "the summary's buckets most severe first" \
	sh -c "grep '^== bucket' c.out | head -1 | grep -q 'severity EXPLOITABLE'"

# ---- --explain: where the fault likely is, with its source ------------------------------------
"$T" triage c -j 2 --no-db --explain -o cx -- "$S/sut_opcodes" @@ >cx.out 2>cx.err; rc=$?
expect "--explain: the summary names each bucket's best lines (tnorm why)" \
	sh -c "[ $rc = 0 ] && [ \$(grep -c '^   why: opcodes.c:[0-9]* ' cx.out) = 2 ]"
explained() {
	dom cx/report.html cx.dom && check_dom cx.dom cx/report.json '
import re
for s, want in zip(secs, ("BUG_A_LINE", "BUG_B_LINE")):
    b = byid[int(s["attrs"]["data-bucket"])]
    assert 1 <= len(b["why"]) <= 5 and any(want in (l["source"] or "") for l in b["why"]), b["why"]
    assert "Where the fault likely is" in s["all"] and want in s["all"], s["all"]
assert "\\x09" not in text  # source lines keep their tabs'
}
expect "--explain: each section lists the lines with their source, the planted bug's among them" explained
expect "without --explain, no why (it costs runs)" \
	python3 -c "import json,sys; sys.exit(any(b['why'] is not None for b in json.load(open('c/triage/report.json'))['buckets']))"

# ---- one signature, two bugs: the coverage split says so ---------------------------------------
mkdir tr
libfuzzer tr 'v3\nnabcdefghij\n'
libfuzzer tr 'nqwrtyzxcvbnm\nv1\n'
libfuzzer tr 'v-3\n'
libfuzzer tr 'nab\nv-2\n'
"$T" triage tr -j 2 --no-db -- "$S/sut_tworoots" @@ >tr.out 2>tr.err; rc=$?
expect "item 7: two buckets of one signature, and the words say why" \
	sh -c "[ $rc = 0 ] && grep -q '^tr: 4 tests, 4 failing, 1 distinct signatures, .*: 2 buckets$' tr.out && grep -q 'make 2 buckets, one per bug: 1 more than signatures, because the coverage split' tr.out"
expect "item 7: each of the two buckets names the other and the coverage split" \
	sh -c "[ \$(grep -c '^   same signature as bucket [12]: the coverage split kept them apart' tr.out) = 2 ]"
tr_page() {
	dom tr/triage/report.html tr.dom &&
		[ "$(grep -c '<p class="same-signature">Same signature as bucket <a href="#bucket-[12]">' tr.dom)" = 2 ] &&
		check_dom tr.dom tr/triage/report.json "assert sorted(b['same_signature_buckets'] for b in rep['buckets']) == [[1], [2]]"
}
expect "item 7: report.html and report.json say so too" tr_page

# ---- one bug, two stacks: the representative's own -----------------------------------------------
mkdir tp
printf '!aaaaaaaaaaaa' >tp/crash-1
printf '!bbbbbbbbbbbbbbbbb' >tp/crash-2
"$T" triage tp -j 2 --no-db -- "$S/sut_twopaths" @@ >tp.out 2>tp.err; rc=$?
expect "item 7: the files fail through from_long, their normal form '!' through from_short" \
	sh -c "[ $rc = 0 ] && grep -q '^crash-1: 13 bytes, checked (1 run): .* <- from_long ' tp.out"
tp_page() {
	grep -q '^== bucket 1: .* at peek (twopaths.c:[0-9]*) <- from_short (twopaths.c:' tp.out &&
		dom tp/triage/report.html tp.dom && check_dom tp.dom tp/triage/report.json "
b = rep['buckets'][0]
assert 'from_long' in b['signature'] and 'from_short' in b['representative_signature'], b
assert secs[0]['frames'][1].startswith('from_short ('), secs[0]['frames']"
}
expect "item 7: the bucket shows its representative's own stack, in the summary, report.json and report.html" tp_page
own_run() {
	"$T" run --json tp/triage/buckets/1-crash-1 -- "$S/sut_twopaths" @@ >tp.run &&
		python3 -c "import json,sys; j=json.load(open('tp.run')); r=json.load(open('tp/triage/report.json')); sys.exit(j['signature']['text'] != r['buckets'][0]['representative_signature'])"
}
expect "item 7: ... which is what running the representative's file gives" own_run
"$T" triage tp -j 2 --no-db --sarif tp.sarif -- "$S/sut_twopaths" @@ >/dev/null 2>&1
sarif_own() {
	python3 -c "
import json
r = json.load(open('tp.sarif'))['runs'][0]['results'][0]
m = r['message']['text']
fl = [n['name'] for l in r['codeFlows'][0]['threadFlows'][0]['locations'] for n in l['location'].get('logicalLocations', [])]
assert 'from_short' in m and 'from_long' not in m, m
assert 'from_short' in fl and 'from_long' not in fl, fl
"
}
expect "item 7: ... and the SARIF result's message and code flow are the representative's stack" sarif_own

# ---- a libFuzzer target: no engine frame ---------------------------------------------------------
if clang -g -O1 -fsanitize=fuzzer,address -DJSONISH_FUZZ -o fz "$SRC/tests/suts/jsonish.c" 2>fz.cc; then
	mkdir fzc
	printf '{"n": 123456789012345678901234567890}' >fzc/crash-1
	printf '{"id": 7, "": [{"n": 1}]}\n' >fzc/crash-2
	"$T" triage fzc --no-db -j 2 -- ./fz @@ >fzc.out 2>fzc.err; rc=$?
	fz_page() {
		[ $rc = 0 ] && dom fzc/triage/report.html fzc.dom && check_dom fzc.dom fzc/triage/report.json "
assert len(secs) == 2
assert all('fuzzer::' in b['signature'] for b in rep['buckets'])
assert any(s['frames'][-1].startswith('LLVMFuzzerTestOneInput (jsonish.c:') for s in secs), [s['frames'] for s in secs]
assert not any(f.startswith('main ') for s in secs for f in s['frames'])"
	}
	expect "libFuzzer: two buckets, each a section without fuzzer:: frames (nothing past LLVMFuzzerTestOneInput)" fz_page
else
	bad "libFuzzer: clang -fsanitize=fuzzer could not build the target: $(head -1 fz.cc)"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

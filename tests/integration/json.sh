#!/bin/bash
# SPDX-License-Identifier: MIT
# Every JSON text tnorm writes, read back by a real parser (Python's json), with string values
# that JSON must escape: quotes, backslashes, control bytes, non-ASCII, and bytes that are not
# UTF-8 (they become U+FFFD).  Covers run, reduce (harness and generic), normalize, minimize
# (with and without --generalize), generalize, and triage's results/*.json and report.json
# (issue 18, item 2).
. "$(dirname "$0")/lib.sh"
TW=$TNORM_SUT_DIR/sut_twowords # aborts when its input holds both "alpha" and "omega"
cd "$W" || exit 1

# parse FILE [PYTHON-ASSERTION]: FILE is one JSON value (strict UTF-8, nothing after it) and
# the assertion holds with the value as `j`.
parse() {
	python3 - "$1" "${2:-True}" <<'EOF'
import json, sys
with open(sys.argv[1], 'rb') as f:
    j = json.loads(f.read().decode('utf-8'))
assert eval(sys.argv[2]), sys.argv[2]
EOF
}

# A harness whose string values JSON must escape.  "\xff" is not UTF-8: tnorm prints that byte
# as it is in tests, and as U+FFFD in JSON.
cat >q.tnh <<'EOF'
pool s 2 const
<s> := {"alpha", "omega", "q\"alpha", "b\\omega", "c\x01\talpha", "é omega ünï", "\xffomega"}
use(<s>)
EOF
printf 's0 = "q\\"alpha"\ns1 = "omega"\nuse(s1)\nuse(s0)\ns1 = "b\\\\omega"\nuse(s1)\n' >q.t
expect "the test with a quote and a backslash is well-formed" sh -c "$T check q.tnh q.t >/dev/null"

# ---- run --json -------------------------------------------------------------------------------
"$T" run --json q.t -- "$TW" {} >run.json
expect "run --json parses, with the signature as an object" parse run.json \
	"j['outcome'] == 'fail' and j['signature']['text'].startswith('SIGABRT at main (twowords.c:')"
# A program whose stderr holds a quote, a backslash, control bytes, non-ASCII and a byte that is
# not UTF-8.
printf '#!/bin/sh\nprintf '"'"'say "hi"\\\\ \\001\\033[1m\\tcaf\\303\\251 \\377end\\n'"'"' >&2\nexit 3\n' >noisy.sh
chmod +x noisy.sh
"$T" run --json q.t -- "$W/noisy.sh" {} >noisy.json
expect "run --json: stderr with quotes, control bytes and non-UTF-8 parses" parse noisy.json \
	"j['stderr'] == 'say \"hi\"\\\\ \\x01\\x1b[1m\\tcafé \\ufffdend\\n'"
expect "run --json: the exact bytes of stderr, which is not all text, in hex" parse noisy.json \
	"bytes.fromhex(j['stderr_hex']).endswith(b'caf\\xc3\\xa9 \\xffend\\n') and 'stdout_hex' not in j"
# One object for the CLI and the binding (issue 42, item 1): the union of the keys, one name each.
expect "run --json: the keys of the library's object, in its order" parse run.json \
	"list(j) == ['outcome', 'exit_code', 'signal', 'wall', 'child_cpu', 'signature', 'kind', 'top', 'message', 'key', 'stdout', 'stderr'] and j['kind'] == j['signature']['kind'] == 'SIGABRT' and j['signature']['text'].startswith(j['top']) and j['key'] is None"
"$T" run --json --match stack:2 q.t -- "$TW" {} >key.json
expect "run --json --match: the key parses" parse key.json "j['key'] != ''"

# ---- reduce, normalize, minimize, generalize --json --------------------------------------------
"$T" reduce --quiet --json --harness q.tnh -o q.min q.t -- "$TW" {} >reduce.json
expect "reduce --json parses" parse reduce.json "j['reduced'] <= j['original'] and j['rules'] == 'none'"
"$T" normalize --quiet --json --harness q.tnh -o q.norm q.t -- "$TW" {} >normalize.json
expect "normalize --json parses" parse normalize.json "j['output'] == 'q.norm' and j['rules'] == 'calls'"
"$T" normalize --quiet --json --rules paper --no-db --harness q.tnh -o q.pnorm q.t -- "$TW" {} >paper.json
expect "normalize --json --rules paper: the rewrite log parses" parse paper.json \
	"j['rules'] == 'paper' and all(set(r) == {'rule', 'what'} for r in j['log'])"
"$T" minimize --quiet --json --harness q.tnh -o q.mnorm q.t -- "$TW" {} >minimize.json
expect "minimize --json parses" parse minimize.json "j['generalization'] is None"
"$T" minimize --quiet --json --generalize --harness q.tnh -o q.mgen q.t -- "$TW" {} >mgen.json
expect "minimize --generalize --json parses" parse mgen.json "len(j['generalization']['steps']) == j['reduced']"
# The normal form starts s0 = "alpha", s1 = "omega": its alternatives hold every hard string.
printf 's0 = "alpha"\ns1 = "omega"\nuse(s0)\n' >n.t
"$T" generalize --quiet --json --harness q.tnh -o n.gen n.t -- "$TW" {} >gen.json
expect "generalize --json parses" parse gen.json "[s['step'] for s in j['generalization']['steps']] == [0, 1, 2]"
expect "generalize --json: a quote and control bytes in an action come back as written" parse gen.json \
	"'s0 = \"q\\\\\"alpha\"' in j['generalization']['steps'][0]['alternatives'] and 's0 = \"c\\\\x01\\\\talpha\"' in j['generalization']['steps'][0]['alternatives']"
expect "generalize --json: a backslash, non-ASCII, and U+FFFD for a byte that is not UTF-8" parse gen.json \
	"{'s1 = \"b\\\\\\\\omega\"', 's1 = \"é omega ünï\"', 's1 = \"\\ufffdomega\"'} <= set(j['generalization']['steps'][1]['alternatives'])"
expect "generalize --json: the fresh values and swaps parse" parse gen.json \
	"'s0 = \"b\\\\\\\\omega\"' in j['generalization']['steps'][2]['fresh'] and j['generalization']['steps'][0]['swaps_with'] == [1]"
"$T" generalize --quiet --json --harness q.tnh -o n2.gen n.t -- "$TW" {} >gen2.json
expect "generalize --json is deterministic apart from the time" bash -c \
	"diff <(sed 's/\"seconds\": [0-9.e+-]*, //; s/\"output\": \"[^\"]*\", //; s/\"runs\": [0-9]*, \"accepted\": [0-9]*, \"cache_hits\": [0-9]*, //' gen.json) \
	      <(sed 's/\"seconds\": [0-9.e+-]*, //; s/\"output\": \"[^\"]*\", //; s/\"runs\": [0-9]*, \"accepted\": [0-9]*, \"cache_hits\": [0-9]*, //' gen2.json) >/dev/null"
expect "--json keeps its key order" parse gen.json \
	"list(j) == ['output', 'original', 'reduced', 'unit', 'runs', 'accepted', 'cache_hits', 'skipped', 'slice_level', 'rewrites', 'rules', 'capped', 'known_normal_form', 'seconds', 'complete', 'replay', 'signature', 'slipped', 'log', 'generalization']"

# The bug of issue 18 by itself: only a quote and a backslash, every byte ASCII.
printf 'pool s 2 const\n<s> := {"alpha", "omega", "id\\"alpha", "b\\\\omega"}\nuse(<s>)\n' >quote.tnh
"$T" generalize --quiet --json --harness quote.tnh -o nq.gen n.t -- "$TW" {} >genq.json
expect "generalize --json: a string literal with a quote (ASCII only)" parse genq.json \
	"j['generalization']['steps'][0]['alternatives'] == ['s0 = \"id\\\\\"alpha\"'] and j['generalization']['steps'][1]['alternatives'] == ['s1 = \"b\\\\\\\\omega\"']"
"$T" minimize --quiet --json --generalize --harness quote.tnh -o qq.gen n.t -- "$TW" {} >mgenq.json
expect "minimize --generalize --json: a string literal with a quote (ASCII only)" parse mgenq.json \
	"'s0 = \"id\\\\\"alpha\"' in j['generalization']['steps'][0]['alternatives']"

# Generic mode (no harness): a test of bytes, with an output path that JSON must escape.
printf 'x"\\y\001alpha\n\377zz\nomega\nqq\n' >g.bin
"$T" reduce --quiet --json -o 'out "q\.min' g.bin -- "$TW" {} >generic.json
expect "reduce --json in generic mode parses (a quote and a backslash in the output path)" parse generic.json \
	"j['output'] == 'out \"q\\\\.min' and j['unit'] != 'steps'"

# ---- triage: results/*.json and report.json -----------------------------------------------------
mkdir c
cp q.t 'c/q"1.t'
cp n.t 'c/b\2.t'
printf 's0 = "omega"\nuse(s0)\n' >'c/pass é.t'
"$T" triage c --harness q.tnh --db tri.db -j 1 --quiet --thorough -- "$TW" {} >tri.out 2>tri.err
expect "triage: report.json parses, with the test names as written" parse c/triage/report.json \
	"sorted(r['test'] for r in j['results']) == ['b\\\\2.t', 'pass é.t', 'q\"1.t'] and j['failing'] == 2"
expect "triage: every results/*.json parses" sh -c 'n=0; for f in c/triage/results/*.json; do python3 -c "import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))" "$f" || exit 1; n=$((n + 1)); done; [ $n = 3 ]'
cp c/triage/report.json report1.json
"$T" triage c --harness q.tnh --db tri.db -j 1 --quiet --thorough -- "$TW" {} >tri2.out 2>tri2.err
expect "triage: a second run reads every result back: the same report" sh -c \
	"cmp -s report1.json c/triage/report.json && ! grep -q 'interrupted' tri2.err"
expect "triage: a result file keeps the reduced test's quote and backslash" parse 'c/triage/results/q"1.t.json' \
	"j['test'] == 'q\"1.t' and 's0 = \"q\\\\\"alpha\"' in j['reduced']"

# A normal form with a byte that is not UTF-8: the JSON shows U+FFFD for it, and the bucket is
# still generalized from the test's real bytes (norm/NAME.norm), not from the JSON's copy.
mkdir cf
printf 'pool s 2 const\n<s> := {"alpha", "\\xffomega", "x"}\nuse(<s>)\n' >ff.tnh
printf 's0 = "alpha"\ns1 = "\377omega"\nuse(s0)\n' >cf/f1.t
"$T" triage cf --harness ff.tnh --db cf.db -j 1 --quiet -- "$TW" {} >/dev/null 2>&1
expect "triage: a normal form with a byte that is not UTF-8 is still annotated" parse cf/triage/report.json \
	"'# STEP 1' in j['buckets'][0]['annotated'] and '\\ufffdomega' in j['buckets'][0]['normal_form']"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: MIT
# tnorm triage without a harness (issue 17): fuzzers' crash folders as they are.  A JSON parser
# and a binary command reader, each with two planted bugs (tests/suts/jsonish.c, opcodes.c), and
# folders of crash files with several inputs per bug and noise around the crashing content,
# named as AFL++ (id:000000,sig:06,...) and libFuzzer (crash-<sha1>) name them, beside AFL++'s
# README.txt, a libFuzzer timeout-* and a hidden file.  One bucket per bug; each bucket's
# representative still crashes with the bucket's signature; normal forms with NUL bytes and bytes
# that are not UTF-8 kept exactly; resume after kill -9; --stdin; an AFL++ output folder; @@.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT, TNORM_SUT_DIR (set by meson test).
. "$(dirname "$0")/lib.sh"
S=$TNORM_SUT_DIR
if [ ! -x "$S/sut_jsonish" ] || [ ! -x "$S/sut_opcodes" ]; then
	echo "ok - skipped: no AddressSanitizer builds of the test programs"
	echo "$pass passed, $fail failed"
	exit 0
fi
cd "$W" || exit 1

afl() { # DIR N CONTENT (printf format): an AFL++ crash file
	printf -- "$3" >"$1/id:00000$2,sig:06,src:000000,time:$((100 + $2)),execs:$((4000 + $2)),op:havoc,rep:$2"
}
libfuzzer() { # DIR CONTENT (printf format): a libFuzzer crash file, named by its SHA-1
	printf -- "$2" >"$1/tmp"
	mv "$1/tmp" "$1/crash-$(sha1sum <"$1/tmp" | cut -c1-40)"
}
noise() { # DIR: what else a fuzzer leaves beside its crashes
	printf 'Command line used to find this crash:\n\n./prog @@\n' >"$1/README.txt"
	printf '[[[[[[[[' >"$1/timeout-ffffffffffffffffffffffffffffffffffffffff"
	printf '{"":[{}]}' >"$1/.cur_input"
}
# The buckets of a report: per bucket its tests (sorted) and its normal form, one line each.
buckets() {
	python3 -c "import json,sys; r=json.load(open(sys.argv[1])); [print(sorted(b['tests']), b.get('normal_form_hex', b['normal_form'])) for b in sorted(r['buckets'], key=lambda b: sorted(b['tests']))]" "$1"
}
# Each bucket's representative file holds its normal form (normal_form_hex when there is one).
reps_exact() { # REPORT
	python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(any(open(b['file'],'rb').read() != (bytes.fromhex(b['normal_form_hex']) if 'normal_form_hex' in b else b['normal_form'].encode()) for b in r['buckets']))" "$1"
}
# Each bucket's representative file exists and, run again, fails with the bucket's signature.
reps_crash() { # REPORT CMD...
	local report=$1
	shift
	python3 - "$report" "$T" "$@" <<'EOF'
import json, subprocess, sys
r = json.load(open(sys.argv[1]))
for b in r["buckets"]:
    run = subprocess.run([sys.argv[2], "run", "--json", b["file"], "--"] + sys.argv[3:],
                         capture_output=True, text=True)
    got = json.loads(run.stdout)
    if got["outcome"] != "fail" or got["signature"]["text"] != b["signature"]:
        sys.exit("%s: %s %s" % (b["file"], got["outcome"], got["signature"]))
EOF
}

# ---- a JSON parser's crashes: three per bug, AFL++ and libFuzzer names -------------------------
mkdir cj
afl cj 0 '{"id": 7, "tags": ["x", "y"], "": [{"n": 1}], "ok": true}\n'
libfuzzer cj '{\n  "meta": {"": [{}, 3]},\n  "list": [{"a": null}]\n}\n'
afl cj 2 '{"z": false, "": [ {"k": "v"}, {"k2": [1,2,3]} ], "w": "noise noise"}'
afl cj 1 '{"n": 123456789012345678901234567890, "x": [1,2]}\n'
libfuzzer cj '{"price": -3.14159265358979323846264338327950288, "tags": ["a"]}'
libfuzzer cj '{\t"big" :  99999999999999999999999999999999 ,\n "s": "str"\n}\n'
noise cj
(cd cj && sha1sum -- * .cur_input) >cj.sums
"$T" triage cj -j 2 --invalid-exit 1 -- "$S/sut_jsonish" @@ >cj.out 2>cj.err; rc=$?
expect "json: triage without --harness exits 0" [ $rc = 0 ]
expect "json: six crash files (README.txt, timeout-*, hidden files are none), two buckets" \
	grep -q '^cj: 6 tests, 6 failing, 2 distinct signatures, [0-9]* distinct reduced, 2 distinct normalized: 2 buckets$' cj.out
expect "json: lengths in bytes" grep -q '^id:000001,.*: 50 -> 25 bytes ([0-9]* runs): asan:stack-buffer-overflow:WRITE at longest_number' cj.out
buckets cj/triage/report.json >cj.buckets
expect "json: bug A's three files in one bucket, {\"\":[{}]}" \
	grep -q "^\['crash-[0-9a-f]*', 'id:000000,[^']*', 'id:000002,[^']*'\] {\"\":\[{}\]}$" cj.buckets
expect "json: bug B's three files in the other: 25 '-'" \
	grep -q "^\['crash-[0-9a-f]*', 'crash-[0-9a-f]*', 'id:000001,[^']*'\] -------------------------$" cj.buckets
expect "json: one representative file per bucket, in OUT/buckets" \
	sh -c "[ \$(ls cj/triage/buckets | wc -l) = 2 ] && grep -q '^   representative crash-[0-9a-f]* (cj/triage/buckets/[12]-crash-' cj.out"
expect "json: each representative still fails with its bucket's signature" \
	reps_crash cj/triage/report.json "$S/sut_jsonish" @@
expect "json: report.json and report.html" \
	sh -c "python3 -c \"import json; r=json.load(open('cj/triage/report.json')); assert r['unit']=='bytes' and r['tests']==6 and len(r['buckets'])==2\" && grep -q '<table id=\"buckets\">' cj/triage/report.html"
expect "json: the crash files are untouched" sh -c "cd cj && sha1sum --quiet -c ../cj.sums"
expect "json: no result for README.txt, timeout-*, .cur_input" \
	sh -c "[ \$(ls cj/triage/results | wc -l) = 6 ] && ! ls cj/triage/results | grep -q -e README -e timeout -e cur_input"
"$T" triage cj -j 2 --invalid-exit 1 -- "$S/sut_jsonish" @@ >cj2.out 2>&1; rc=$?
buckets cj/triage/report.json >cj2.buckets
expect "json: a finished triage run again redoes nothing and gives the same buckets" \
	sh -c "[ $rc = 0 ] && ! grep -q ' bytes (' cj2.out && cmp -s cj.buckets cj2.buckets"

# ---- bug B as libFuzzer finds it: many spellings of one too-long number --------------------------
# Each spelling was a normal form of its own under the one-place rules (`0000e0-`: 'e' stays a
# letter, '-' is not lowered, and any single change breaks the 25-character number); lowering
# every copy of one byte value at once (the copies rule) takes them all to one form.
mkdir cn
libfuzzer cn '0000000000000000000000e0-'
libfuzzer cn '-000000000000000000000000'
libfuzzer cn '0000000000000000000000000'
libfuzzer cn '1.5e-0000000000000000000003'
libfuzzer cn '[1, 2, 00000000000.0000000000000E+5, "x"]'
libfuzzer cn '{"k": 99999999999999999999999999.5e-7}\n'
libfuzzer cn '\t-7.7777777777777777777777777777E77 '
afl cn 0 '{"": [{}]}'
afl cn 1 '{"a": {"b": 1}, "": [{"c": [1, 2]}], "d": null}\n'
noise cn
"$T" triage cn -j 2 --invalid-exit 1 -- "$S/sut_jsonish" @@ >cn.out 2>cn.err; rc=$?
expect "bug B spellings: nine crash files, exactly two buckets" \
	grep -q '^cn: 9 tests, 9 failing, 2 distinct signatures, [0-9]* distinct reduced, 2 distinct normalized: 2 buckets$' cn.out
buckets cn/triage/report.json >cn.buckets
expect "bug B spellings: the seven of bug B in one bucket, 25 '-'" \
	grep -q "^\['crash-[0-9a-f]*', 'crash-[0-9a-f]*', 'crash-[0-9a-f]*', 'crash-[0-9a-f]*', 'crash-[0-9a-f]*', 'crash-[0-9a-f]*', 'crash-[0-9a-f]*'\] -------------------------$" cn.buckets
expect "bug B spellings: the two of bug A in the other" \
	grep -q "^\['id:000000,[^']*', 'id:000001,[^']*'\] {\"\":\[{}\]}$" cn.buckets
expect "bug B spellings: each representative still fails with its bucket's signature" \
	reps_crash cn/triage/report.json "$S/sut_jsonish" @@

# ---- integers that move together, names that end as digits (cmds: detaching one slot twice) ------
# `detach 2` twice with four devices: neither 2 can be lowered alone; names of letters stop at
# `a` under the one-place rules and names of digits at `0`.  All four end in one normal form.
mkdir cd2
afl cd2 0 'attach usb\nattach eth\nattach wlan\nattach lo\ndetach 2\ndetach 2\n'
libfuzzer cd2 'attach 7\n# two\nattach 9\ncount\ndetach 0\ndetach 0\n'
libfuzzer cd2 'attach sda\nattach sdb\nattach sdc\ndetach 1\ncount\ndetach 1\n'
afl cd2 1 'attach q_1\nattach Q\nattach 3\nattach zz\nattach y\ndetach 3\nrename 0 k\ndetach 3'
"$T" triage cd2 -j 2 --thorough --invalid-exit 1 -- "$S/sut_cmds" @@ >cd2.out 2>cd2.err
expect "cmds: four files of one fault, one bucket: attach 0, attach 0, detach 0 twice" \
	sh -c "grep -q '^cd2: 4 tests, 4 failing, 1 distinct signatures, 4 distinct reduced, 1 distinct normalized: 1 bucket$' cd2.out && python3 -c \"import json,sys; r=json.load(open('cd2/triage/report.json')); sys.exit(r['buckets'][0]['normal_form'] != 'attach 0\\nattach 0\\ndetach 0\\ndetach 0')\""

# ---- resume after kill -9: the same buckets ------------------------------------------------------
mkdir rj
find cj -maxdepth 1 -type f -exec cp {} rj/ \;
setsid "$T" triage rj -j 1 --no-db --invalid-exit 1 -- "$S/sut_jsonish" @@ >rj1.out 2>&1 &
tpid=$!
for _ in $(seq 1 1200); do ls rj/triage/results/*.json >/dev/null 2>&1 && break; sleep 0.05; done
kill -9 -- -"$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null
# (results only: a kill during an atomic write leaves its NAME.json.tmp.XXXXXX, which is no result)
first=$(cd rj/triage/results && ls -- *.json 2>/dev/null | head -1)
before=$(cd rj/triage/results && ls -- *.json | wc -l)
expect "resume: a result was written before the kill ($before of 6)" [ -n "$first" ]
"$T" triage rj -j 2 --no-db --invalid-exit 1 -- "$S/sut_jsonish" @@ >rj2.out 2>&1; rc=$?
expect "resume: the second run finishes" sh -c "[ $rc = 0 ] && grep -q '^rj: 6 tests, 6 failing' rj2.out"
# (sampled: a test checked before the kill is not checked again; one of its signature's may be
# minimized now)
expect "resume: finished tests are not redone" sh -c "! grep -q '^${first%.json}: .*checked' rj2.out && [ \$(grep -c ' bytes, checked (' rj2.out) = \$((6 - $before)) ]"
buckets rj/triage/report.json >rj.buckets
expect "resume: the same buckets as the triage in one go" cmp -s rj.buckets cj.buckets

# ---- a binary format: normal forms with NUL bytes and bytes that are not UTF-8 ------------------
mkdir cb
afl cb 0 '\x01\x02\x80\x90\x07\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90\x91\x92\x00\x03'
libfuzzer cb '\x07\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xc0\xc1\xc2\xc3'
afl cb 1 '\x05\x05\xa0\xff\x06\x00\x02'
libfuzzer cb '\xee\xff\x05\x00\xff'
libfuzzer cb '\x01\xffa\x00'
libfuzzer cb '\xff \x00\x07ab\x00'
noise cb
(cd cb && sha1sum -- * .cur_input) >cb.sums
"$T" triage cb -j 2 -- "$S/sut_opcodes" @@ >cb.out 2>cb.err; rc=$?
expect "binary: exit 0, two buckets" sh -c "[ $rc = 0 ] && grep -q '^cb: 6 tests, 6 failing, 2 distinct signatures, [0-9]* distinct reduced, 2 distinct normalized: 2 buckets$' cb.out"
buckets cb/triage/report.json >cb.buckets
expect "binary: bug A's files in one bucket: 0x07 and 17 bytes 0x01" \
	grep -q "^\['crash-[0-9a-f]*', 'id:000000,[^']*'\] $(printf '\a'; printf '\001%.0s' $(seq 17))$" cb.buckets
expect "binary: bug B's in the other (the index written as 'a' and ' ' too): ff 04 00, kept exactly (normal_form_hex)" \
	grep -q "^\['crash-[0-9a-f]*', 'crash-[0-9a-f]*', 'crash-[0-9a-f]*', 'id:000001,[^']*'\] ff0400$" cb.buckets
expect "binary: each representative has its normal form's exact bytes" reps_exact cb/triage/report.json
expect "binary: each representative still fails with its bucket's signature" \
	reps_crash cb/triage/report.json "$S/sut_opcodes" @@
# (the minimized ones: the others were checked, and carry no normal form of their own)
expect "binary: the result files carry the bytes in hex" \
	python3 -c "import glob,json,sys; r=[json.load(open(f)) for f in glob.glob('cb/triage/results/*.json')]; m=[x for x in r if x.get('stage')=='minimized']; sys.exit(not (any(x.get('normal_hex')=='ff0400' for x in m) and all(x.get('normal_hex') or x.get('normal') for x in m)))"
expect "binary: the summary and report.html show them escaped" \
	sh -c "grep -aq '\\\\x04\\\\x00\$' cb.out && grep -q '\\\\x04\\\\x00' cb/triage/report.html && python3 -c \"open('cb/triage/report.html', encoding='utf-8').read()\""
expect "binary: the crash files are untouched" sh -c "cd cb && sha1sum --quiet -c ../cb.sums"
cp cb/triage/buckets/* . 2>/dev/null
"$T" triage cb -j 2 -- "$S/sut_opcodes" @@ >cb2.out 2>&1; rc=$?
buckets cb/triage/report.json >cb2.buckets
expect "binary: resumed from the result files, the same buckets, the same bytes" \
	sh -c "[ $rc = 0 ] && ! grep -q ' bytes (' cb2.out && cmp -s cb.buckets cb2.buckets && for f in cb/triage/buckets/*; do cmp -s \"\$f\" \"\$(basename \"\$f\")\" || exit 1; done"

# ---- --stdin: a program that reads standard input -----------------------------------------------
mkdir si
cp cj/id:000000,* cj/id:000001,* si/
"$T" triage si --stdin -j 2 --invalid-exit 1 -- "$S/sut_jsonish" >si.out 2>&1; rc=$?
expect "--stdin: two files, two buckets" sh -c "[ $rc = 0 ] && grep -q '^si: 2 tests, 2 failing, 2 distinct signatures, 2 distinct reduced, 2 distinct normalized: 2 buckets$' si.out"
expect "--stdin: the normal forms are the file mode's" \
	sh -c "[ \"\$(cat si/triage/buckets/*-id:000000,*)\" = '{\"\":[{}]}' ]"

# ---- an AFL++ output folder, as it is -----------------------------------------------------------
mkdir -p out/default/crashes out/default/queue
cp cj/id:000000,* cj/id:000001,* cj/README.txt out/default/crashes/
printf 'start_time : 1\n' >out/default/fuzzer_stats
printf 'x' >out/default/queue/id:000000,time:0,execs:0,orig:seed
"$T" triage out -j 2 --invalid-exit 1 -- "$S/sut_jsonish" @@ >afl.out 2>&1; rc=$?
expect "AFL++ output folder: its default/crashes are triaged" \
	sh -c "[ $rc = 0 ] && grep -q '^out: 2 tests, 2 failing, 2 distinct signatures, 2 distinct reduced, 2 distinct normalized: 2 buckets$' afl.out && [ -f out/triage/report.json ]"

# ---- @@ is {} for every command ------------------------------------------------------------------
"$T" run cj/triage/buckets/1-* -- "$S/sut_jsonish" @@ >run.out; rc=$?
expect "@@: tnorm run" sh -c "[ $rc = 0 ] && grep -q '^outcome: fail$' run.out"
"$T" minimize --no-db --quiet --invalid-exit 1 -o j.min "$(ls cj/id:000000,*)" -- "$S/sut_jsonish" @@ >/dev/null; rc=$?
expect "@@: tnorm minimize" sh -c "[ $rc = 0 ] && [ \"\$(cat j.min)\" = '{\"\":[{}]}' ]"

# ---- buckets by root cause (issue 27) ------------------------------------------------------------
# tworoots: two bugs write out of one table at one line, with one stack (one signature key); the
# executions of their normal forms differ (the name parser or the value parser), so they are two
# buckets.  Bug A's files reduce to one canonical form (a letter at every lower letter, adjacent
# bytes swapped: "naaaabbbb" from three different names), bug B's to "v-1".
if [ -x "$S/sut_tworoots" ]; then
	mkdir tr
	libfuzzer tr 'v3\nnabcdefghij\n'
	libfuzzer tr 'nqwrtyzxcvbnm\nv1\n'
	libfuzzer tr 'nbcdfghjklmnp\n'
	libfuzzer tr 'v-3\n'
	libfuzzer tr 'nab\nv-2\n'
	libfuzzer tr 'v5\nv-1\nnx\n'
	"$T" triage tr -j 2 --no-db -- "$S/sut_tworoots" @@ >tr.out 2>&1; rc=$?
	expect "one signature, two root causes: two buckets" \
		sh -c "[ $rc = 0 ] && grep -q '^tr: 6 tests, 6 failing, 1 distinct signatures, [0-9]* distinct reduced, [0-9]* distinct normalized: 2 buckets$' tr.out"
	expect "one signature, two root causes: sampled, fewer minimized than files, each file's evidence in report.json" \
		python3 -c "import json,sys; r=json.load(open('tr/triage/report.json')); t=[x for x in r['results'] if x['status']=='ok']; sys.exit(not (2 <= r['minimized'] < 6 and r['minimized'] + r['assigned'] == 6 and all(x['method']=='minimized' or x['evidence'] for x in t)))"
	"$T" triage tr -j 2 --no-db --thorough -o tr/thorough -- "$S/sut_tworoots" @@ >trt.out 2>&1; rc=$?
	expect "one signature, two root causes: --thorough minimizes all six, the same two buckets" \
		sh -c "[ $rc = 0 ] && grep -q '^tr: 6 tests, 6 failing, 1 distinct signatures, 6 distinct reduced, 2 distinct normalized: 2 buckets$' trt.out && [ \"\$(buckets tr/thorough/report.json)\" = \"\$(buckets tr/triage/report.json)\" ]"
	buckets tr/triage/report.json | sed 's/^\[.*\] //' | sort >tr.forms
	printf 'naaaabbbb\nv-1\n' >tr.want
	expect "one signature, two root causes: each bug's files in one bucket, with its canonical form" \
		cmp -s tr.forms tr.want
	expect "one signature, two root causes: each representative fails" \
		reps_crash tr/triage/report.json "$S/sut_tworoots" @@
else
	bad "sut_tworoots is not built"
fi

# ---- the polish (issue 27, item 1) -------------------------------------------------------------
# plainkey: `ab: []` and a last byte that starts a plain scalar; the failing bytes are no interval
# and the lowest, `$`, is none of the cheap values ('0' is).  The polish tries every lower value of
# every byte of each distinct normal form once, within a budget of runs.
if [ -x "$S/sut_plainkey" ]; then
	mkdir pk
	for c in z Q 7 '('; do libfuzzer pk "ab: []$c"; done
	"$T" triage pk -j 2 --no-db --thorough -- "$S/sut_plainkey" @@ >pk1.out 2>&1; rc=$?
	expect "polish: the default budget (a quarter of the tests' runs) is too small for a form here; said so" \
		sh -c "[ $rc = 0 ] && grep -q '^pk: 4 tests, 4 failing, 1 distinct signatures, 4 distinct reduced, 2 distinct normalized: 1 bucket$' pk1.out && grep -q '^polish: 0 of 2 normal forms made canonical (0 lowered), 0 runs of a budget of [0-9]*; --polish-runs N for more$' pk1.out"
	"$T" triage pk -j 2 --no-db --thorough --polish-runs 3000 -- "$S/sut_plainkey" @@ >pk2.out 2>&1; rc=$?
	expect "polish: with a budget, every file of the bug ends in the lowest failing form, ab: []\$" \
		sh -c "[ $rc = 0 ] && grep -q '^pk: 4 tests, 4 failing, 1 distinct signatures, 4 distinct reduced, 1 distinct normalized: 1 bucket$' pk2.out && grep -q '^polish: 2 of 2 normal forms made canonical (1 lowered), [0-9]* runs of a budget of 3000$' pk2.out && [ \"\$(cat pk/triage/buckets/1-*)\" = 'ab: []\$' ]"
	python3 - "$S/sut_plainkey" pk/triage/report.json <<'PY' >pk.prop 2>&1
import json, os, subprocess, sys, tempfile
r = json.load(open(sys.argv[2]))
assert r["polish"]["complete"] == 2 and all(t["polished"] for t in r["results"]), r["polish"]
form = r["buckets"][0]["normal_form"].encode()
fd, path = tempfile.mkstemp()
os.close(fd)
def fails(data):
    open(path, "wb").write(data)
    return subprocess.run([sys.argv[1], path], capture_output=True).returncode != 0
# its last byte at every lower value, and every deletion: none fails
bad = [bytes([v]) for v in range(form[-1]) if fails(form[:-1] + bytes([v]))]
bad += [b"del%d" % i for i in range(len(form)) if fails(form[:i] + form[i + 1:])]
os.unlink(path)
print("counterexamples:", bad)
sys.exit(1 if bad else 0)
PY
	rc=$?
	expect "polish: no lower last byte and no deletion of the polished form fails" [ $rc = 0 ]
	"$T" triage pk -j 2 --no-db --thorough --polish-runs 3000 -- "$S/sut_plainkey" @@ >pk3.out 2>&1; rc=$?
	expect "polish: a finished polish is kept (OUT/polish): run again, one run (the lowered form, confirmed)" \
		sh -c "[ $rc = 0 ] && grep -q '^polish: 2 of 2 normal forms made canonical (1 lowered), 1 runs of a budget of 3000$' pk3.out"
	# OUT/polish is not trusted (issue 39, item 7): other bytes written over a record, a symlink
	# in its place, a record made for a form that passes: each is polished again, never taken.
	cp -r pk/triage/polish pk-polish.saved
	for f in pk/triage/polish/*; do printf 'x' >"$f"; done
	"$T" triage pk -j 2 --no-db --thorough --polish-runs 3000 -- "$S/sut_plainkey" @@ >pk6.out 2>&1; rc=$?
	expect "polish cache: other bytes over the records are no record: polished again, the same result" \
		sh -c "[ $rc = 0 ] && grep -q '^polish: 2 of 2 normal forms made canonical (1 lowered), [1-9][0-9]* runs of a budget of 3000$' pk6.out && ! grep -q ', 1 runs of' pk6.out && [ \"\$(cat pk/triage/buckets/1-*)\" = 'ab: []\$' ]"
	printf 'ab: []!' >pk-outside
	for f in pk/triage/polish/*; do rm -f "$f"; ln -s "$W/pk-outside" "$f"; done
	"$T" triage pk -j 2 --no-db --thorough --polish-runs 3000 -- "$S/sut_plainkey" @@ >pk7.out 2>&1; rc=$?
	expect "polish cache: a symlink there is not followed: polished again, the link replaced, its target untouched" \
		sh -c "[ $rc = 0 ] && grep -q '(1 lowered), [1-9][0-9]* runs of a budget of 3000$' pk7.out && ! grep -q ', 1 runs of' pk7.out && [ \"\$(cat pk/triage/buckets/1-*)\" = 'ab: []\$' ] && [ \"\$(cat pk-outside)\" = 'ab: []!' ] && ! find pk/triage/polish -type l | grep -q ."
	# A well-made record (its check right) of a form that passes: the one run finds it out.
	python3 - pk/triage/polish <<'PY'
import os, sys
def fnv(data, seed=0):
    h = 1469598103934665603 ^ seed
    for c in data:
        h = ((h ^ c) * 1099511628211) & (2**64 - 1)
    return h
for name in os.listdir(sys.argv[1]):
    if "." in name:
        continue
    form = b"x"
    check = "%016x" % fnv(form, fnv(name.encode()))
    open(os.path.join(sys.argv[1], name), "wb").write(b"tnorm-polish %s %s\n" % (name.encode(), check.encode()) + form)
PY
	"$T" triage pk -j 2 --no-db --thorough --polish-runs 3000 -- "$S/sut_plainkey" @@ >pk8.out 2>&1; rc=$?
	expect "polish cache: a record of a form that no longer fails is run once, refused, polished again" \
		sh -c "[ $rc = 0 ] && grep -q '(1 lowered), [1-9][0-9]* runs of a budget of 3000$' pk8.out && ! grep -q ', 1 runs of' pk8.out && [ \"\$(cat pk/triage/buckets/1-*)\" = 'ab: []\$' ]"
	"$T" triage pk -j 2 --no-db --thorough --no-polish -- "$S/sut_plainkey" @@ >pk4.out 2>&1; rc=$?
	expect "polish: --no-polish" sh -c "[ $rc = 0 ] && ! grep -q '^polish' pk4.out && grep -q '2 distinct normalized' pk4.out"
	"$T" triage pk --polish 0 -- "$S/sut_plainkey" @@ 2>pk5.err; rc=$?
	expect "polish: --polish 0 is a usage error" sh -c "[ $rc = 2 ] && grep -q 'polish takes 1 to' pk5.err"
else
	bad "sut_plainkey is not built"
fi

# ---- bad input ----------------------------------------------------------------------------------
mkdir empty readme-only
"$T" triage empty -- "$S/sut_jsonish" @@ 2>err; rc=$?
expect "an empty folder is one clear error, exit 1" sh -c "[ $rc = 1 ] && [ \$(wc -l <err) = 1 ] && grep -q 'empty: no files to triage' err"
noise readme-only
"$T" triage readme-only -- "$S/sut_jsonish" @@ 2>err; rc=$?
expect "a folder of README.txt and timeout-* alone: the same" sh -c "[ $rc = 1 ] && grep -q 'readme-only: no files to triage' err"

# ---- issue 40, item 6: a libFuzzer binary's crash state ---------------------------------------------
# Its stacks end in libFuzzer's frames (fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, ...)
# <- fuzzer::RunOneTest <- fuzzer::FuzzerDriver <- main): the lines show the crash state, at most
# 3 frames of the program's own code; the key and report.json keep the full signature.
if clang -g -O1 -fsanitize=fuzzer,address -DJSONISH_FUZZ -o fz "$SRC/tests/suts/jsonish.c" 2>fz.cc; then
	mkdir fzc
	printf '{"n": 123456789012345678901234567890}' >fzc/crash-1
	printf '{"id": 7, "": [{"n": 1}]}\n' >fzc/crash-2
	"$T" triage fzc --no-db -j 1 -- ./fz @@ >fzc.out 2>fzc.err; rc=$?
	expect "6e: each test's line and bucket header: the crash state, no fuzzer:: frame, at most 3 frames" \
		python3 -c "
import re
lines = [l for l in open('fzc.out') if re.match(r'(crash-|== bucket)', l)]
assert $rc == 0 and len(lines) == 6, lines
for l in lines:
    assert 'fuzzer::' not in l and ' <- main ' not in l and l.count(' <- ') <= 2, l
assert any(re.search(r'<- LLVMFuzzerTestOneInput \(jsonish\.c:[0-9]+\)\$', l) for l in lines), lines
"
	expect "6e: report.json keeps the whole signature" \
		python3 -c "
import json
d = json.load(open('fzc/triage/report.json'))
assert d['buckets'] and all('fuzzer::' in b['signature'] for b in d['buckets']), d['buckets']
"
else
	bad "6e: clang -fsanitize=fuzzer could not build the libFuzzer target: $(head -1 fz.cc)"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

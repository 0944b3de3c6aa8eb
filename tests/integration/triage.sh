#!/bin/bash
# SPDX-License-Identifier: MIT
# tnorm fuzz and tnorm triage on the AVL example: a corpus, known buckets, resume after kill -9,
# two triage processes on one database, and report.html in headless Chromium.
. "$(dirname "$0")/lib.sh"
AVL=$SRC/examples/avl
D=$B/examples/avl/avl_driver
H=$AVL/avl.tnh
cd "$W" || exit 1

# ---- fuzz ---------------------------------------------------------------------------------------
"$T" fuzz "$H" --runs 300 -o fz -- "$D" {} >fuzz.out 2>fuzz.err; rc=$?
expect "fuzz: exit 0 and a summary" sh -c "[ $rc = 0 ] && grep -q '^fz: 300 runs (seeds 1..300, 100 steps), 3 failing' fuzz.out"
expect "fuzz: the failing seeds are kept (30, 51, 131)" sh -c "ls fz | tr '\n' ' ' | grep -qx 'fail-131.sig fail-131.t fail-30.sig fail-30.t fail-51.sig fail-51.t '"
"$T" gen "$H" --steps 100 --seed 30 >seed30.t
expect "fuzz: a kept test is the seed's random test" cmp -s seed30.t fz/fail-30.t
expect "fuzz: its signature is kept beside it" grep -qx 'SIGABRT at check_node (avl.c:191) <- avl_check (avl.c:197) <- h_check (driver.c:41) <- main (driver.c:53)' fz/fail-30.sig
"$T" fuzz "$H" --runs 0 -o fz2 -- "$D" {} 2>err; rc=$?
expect "fuzz: no budget is a usage error" sh -c "[ $rc = 2 ] && grep -q 'needs --max-time' err"
printf 'pool int 2\nfoo(<int>\n' >bad.tnh
"$T" fuzz bad.tnh -- "$D" {} 2>err; rc=$?
expect "fuzz: a bad harness gives file:line and exit 1" sh -c "[ $rc = 1 ] && grep -q '^tnorm fuzz: bad.tnh:2:' err"

"$T" fuzz "$H" --runs 5 -o fz3 -- "$W/no-such-program" {} 2>err; rc=$?
expect "fuzz: a program that cannot start is one clear error (exit 3)" sh -c "[ $rc = 3 ] && grep -q 'no-such-program' err && [ \$(wc -l <err) = 1 ]"

# ---- triage: a small corpus with known buckets ------------------------------------------------
mkdir c
for k in 1 2 3 5; do cp "$AVL/tests/fail-$k.t" c/; done
cp "$AVL/tests/pass-1.t" c/
"$T" triage c --harness "$H" -j 2 --thorough -- "$D" {} >tri.out 2>tri.err; rc=$?
expect "triage: exit 0" [ $rc = 0 ]
expect "triage: the summary" grep -q '^c: 5 tests, 4 failing, 1 distinct signatures, 4 distinct reduced, 1 distinct normalized: 1 bucket$' tri.out
bucket_of() { python3 -c "import json,sys; r=json.load(open('$1')); print([x['bucket'] for x in r['results'] if x['test']==sys.argv[1]][0])" "$2"; }
expect "triage: fail-1 and fail-2 share a bucket" [ "$(bucket_of c/triage/report.json fail-1.t)" = "$(bucket_of c/triage/report.json fail-2.t)" ]
expect "triage: fail-3 and fail-5 share it too (one fault, one bucket)" sh -c "[ \"$(bucket_of c/triage/report.json fail-3.t)\" = \"$(bucket_of c/triage/report.json fail-5.t)\" ] && [ \"$(bucket_of c/triage/report.json fail-3.t)\" = \"$(bucket_of c/triage/report.json fail-1.t)\" ]"
expect "triage: the passing test is reported, not bucketed" sh -c "grep -q '^not triaged: pass-1.t: notfail: the original test does not fail' tri.out && [ \"$(bucket_of c/triage/report.json pass-1.t)\" = 0 ]"
expect "triage: each bucket's representative is annotated (Figure 2 style)" sh -c "[ \$(grep -c '^   representative ' tri.out) = 1 ] && grep -q '# STEP 0\$' tri.out"
expect "triage: the corpus is untouched" sh -c "for k in 1 2 3 5; do cmp -s c/fail-\$k.t '$AVL/tests/fail-'\$k.t || exit 1; done"
expect "triage: report.json is valid JSON with the counts" python3 -c "import json; r=json.load(open('c/triage/report.json')); assert r['tests']==5 and r['failing']==4 and r['distinct_normalized']==1 and len(r['buckets'])==1"
expect "triage: the bucket's representative is its normal form, in OUT/buckets" sh -c "grep -q '^   representative fail-1.t (c/triage/buckets/1-fail-1.t):' tri.out && cmp -s c/triage/buckets/1-fail-1.t c/triage/norm/fail-1.t.norm"
# Sampled (the default, issue 38): each test is checked in one run, the smallest of the signature
# (fail-1.t, first by name among equals) is minimized, the others are assigned to its bucket.
"$T" triage c --harness "$H" -j 2 -o c/sampled -- "$D" {} >tris.out 2>tris.err; rc=$?
expect "triage sampled: exit 0, one bucket, the same representative" sh -c "[ $rc = 0 ] && grep -q '^c: 5 tests, 4 failing, 1 distinct signatures, 1 distinct reduced, 1 distinct normalized: 1 bucket$' tris.out && grep -q '^   representative fail-1.t (c/sampled/buckets/1-fail-1.t):' tris.out && cmp -s c/sampled/buckets/1-fail-1.t c/triage/buckets/1-fail-1.t"
expect "triage sampled: a line per check, the summary says what was minimized and assigned" sh -c "grep -q '^fail-3.t: 100 steps, checked (1 run): SIGABRT at check_node' tris.out && grep -q '^sampled: 1 minimized, 3 assigned' tris.out"
expect "triage sampled: report.json says per test how it got its bucket, and on what evidence" python3 -c "
import json; r=json.load(open('c/sampled/report.json')); m={x['test']: x for x in r['results']}
assert m['fail-1.t']['method'] == 'minimized' and m['fail-1.t']['runs'] > 10, m['fail-1.t']
for k in (2, 3, 5):
    x = m['fail-%d.t' % k]
    assert x['method'] == 'assigned' and x['runs'] == 1 and x['bucket'] == 1 and 'fail-1.t' in x['evidence'], x
assert 'method' not in m['pass-1.t'] and r['minimized'] == 1 and r['assigned'] == 3"

# ---- report.html in headless Chromium -----------------------------------------------------------
if command -v chromium >/dev/null; then
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--dump-dom "file://$W/c/triage/report.html" >dom.html 2>chrome.err
	expect "report.html: no console messages in Chromium" sh -c "! grep -q 'CONSOLE' chrome.err"
	expect "report.html: the bucket table is in the DOM" sh -c "grep -q '<table id=\"buckets\">' dom.html && [ \$(grep -c '<tr><td><a href=\"#bucket-' dom.html) = 1 ]"
	expect "report.html: the length chart is in the DOM" grep -q '<svg' dom.html
else
	bad "report.html: chromium is not installed (the README's commands install it)"
fi

# ---- resume after kill -9 ----------------------------------------------------------------------
mkdir r
for k in 1 2 3 4 5 6; do cp "$AVL/tests/fail-$k.t" r/; done
# (--thorough: every test's own minimization is what is resumed; the sampled method's resume is
# triage-generic.sh's)
setsid "$T" triage r --harness "$H" -j 1 --no-db --thorough -- "$D" {} >res1.out 2>&1 &
tpid=$!
# (a guard against a hang, not a timing: 5 minutes)
for _ in $(seq 1 6000); do ls r/triage/results/*.json >/dev/null 2>&1 && break; sleep 0.05; done
kill -9 -- -"$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null
# (results only: a kill during an atomic write leaves its NAME.json.tmp.XXXXXX, which is no result)
first=$(cd r/triage/results && ls -- *.json 2>/dev/null | head -1)
expect "resume: a result was written before the kill" [ -n "$first" ]
before=$(cd r/triage/results && ls -- *.json | wc -l)
cp "r/triage/results/$first" first.json
"$T" triage r --harness "$H" -j 2 --no-db --thorough -- "$D" {} >res2.out 2>&1; rc=$?
expect "resume: the second run finishes" sh -c "[ $rc = 0 ] && grep -q '^r: 6 tests, 6 failing' res2.out"
expect "resume: finished tests are not redone" sh -c "! grep -q '^${first%.json}: ' res2.out && cmp -s first.json 'r/triage/results/$first'"
expect "resume: the rest were done ($before of 6 before the kill)" sh -c "[ \$(grep -c ': 100 -> ' res2.out) = \$((6 - $before)) ]"

# ---- kill -9 of triage alone (not its group): nothing it started outlives it ----------------------
# (its workers are threads of its own; the programs they run are traced with PTRACE_O_EXITKILL)
mkdir k9dir
for k in 1 2 3 4 5 6; do cp "$AVL/tests/fail-$k.t" k9dir/; done
# Each program starts a child (sleep 600), writes its own and its child's process IDs to
# k9.pids and waits: the test waits for the condition (both workers' programs started and
# waiting), never for a time, and the programs are certainly alive when triage is killed.  (It
# looked for triage's descendants with pgrep before: on a loaded machine a look took a second or
# more, the short-lived programs were gone by then, and it found none: issue 39.)
printf '#!/bin/sh\nsleep 600 &\necho "$$ $!" >>"%s/k9.pids"\nwait\nexec "%s" "$@"\n' "$W" "$D" >k9prog.sh
chmod +x k9prog.sh
setsid "$T" triage k9dir --harness "$H" -j 2 --no-db -- "$PWD/k9prog.sh" {} >k9.out 2>&1 &
tpid=$!
# (a guard against a hang, not a timing: 5 minutes)
for _ in $(seq 1 3000); do [ "$(cat k9.pids 2>/dev/null | wc -l)" = 2 ] && break; sleep 0.1; done
kids=$(cat k9.pids 2>/dev/null)
kill -9 "$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null
alive() { local p n=0; for p in $kids; do kill -0 "$p" 2>/dev/null && n=$((n + 1)); done; echo $n; }
for _ in $(seq 1 3000); do [ "$(alive)" = 0 ] && break; sleep 0.1; done
expect "kill -9 of triage: it had started programs ($(echo $kids | wc -w) processes)" [ "$(echo $kids | wc -w)" = 4 ]
expect "kill -9 of triage: none of them outlives it" [ "$(alive)" = 0 ]
for p in $kids; do kill -9 "$p" 2>/dev/null; done

# ---- Ctrl-C: triage says how far it got and resumes; fuzz keeps its corpus ------------------------
mkdir i
for k in 1 2 3 4; do cp "$AVL/tests/fail-$k.t" i/; done
# The gate holds the 401st run through it and those after it, and no run times out (--timeout
# 600): the triage cannot end before Ctrl-C, however fast the machine; Ctrl-C must stop the held
# run at once (issue 28, item 6).  The gate counts every run a driver makes, the engine's
# counts only its candidates: one of these tests alone passes it 218-283 times (a candidate that
# fails in a persistent child runs again in a fresh one; the confirm runs; how many persist
# depends on the machine's timing), the four of them about 1000.  So 400, not 200 (which the
# first result could need before it is written: then no result was there when the gate held,
# and the test waited 5 minutes and failed, under load).
gate_close "$W/gi" 400
# (--thorough: the runs of four minimizations, which the gate counts)
TMPDIR=$W/gi setsid "$T" triage i --harness "$H" -j 1 --no-db --thorough --timeout 600 -- "$GATE_D" {} >int.out 2>int.err &
tpid=$!
gate_wait "$W/gi" i/triage/results
kill -INT -- -"$tpid"
wait "$tpid"; rc=$?
expect "Ctrl-C: triage exits 130 and says how to resume" sh -c "[ $rc = 130 ] && grep -q 'tests done; run the same command again to resume' int.err"
gate_open "$W/gi"
TMPDIR=$W/gi "$T" triage i --harness "$H" -j 2 --no-db --thorough --timeout 600 -- "$GATE_D" {} >int2.out 2>&1; rc=$?
expect "Ctrl-C: the rerun finishes the triage" sh -c "[ $rc = 0 ] && grep -q '^i: 4 tests, 4 failing' int2.out"
setsid "$T" fuzz "$H" --runs 0 --max-time 600 -o fzi -- "$D" {} >fzi.out 2>fzi.err &
fpid=$!
# (a guard against a hang, not a timing: 5 minutes)
for _ in $(seq 1 6000); do [ -n "$(ls fzi 2>/dev/null)" ] && break; sleep 0.05; done
kill -INT -- -"$fpid"
wait "$fpid"; rc=$?
expect "Ctrl-C: fuzz exits 130, keeps its corpus and prints the summary" sh -c "[ $rc = 130 ] && [ -s fzi/fail-30.t ] && grep -q '^fzi: [0-9]* runs' fzi.out && grep -q 'interrupted; the corpus so far is kept' fzi.err"

# ---- two triage processes on one database -------------------------------------------------------
mkdir p q
cp "$AVL/tests/fail-1.t" "$AVL/tests/fail-3.t" p/
cp "$AVL/tests/fail-2.t" "$AVL/tests/fail-5.t" q/
"$T" triage p --harness "$H" -j 1 --db shared.db -- "$D" {} >p.out 2>&1 &
ppid=$!
"$T" triage q --harness "$H" -j 1 --db shared.db -- "$D" {} >q.out 2>&1
qrc=$?
wait "$ppid"
prc=$?
expect "shared database: both triage processes succeed" [ $prc = 0 -a $qrc = 0 ]
expect "shared database: both see 1 bucket" sh -c "grep -q 'distinct normalized: 1 bucket$' p.out && grep -q 'distinct normalized: 1 bucket$' q.out"
expect "shared database: it is consistent" sh -c "[ \"\$(sqlite3 shared.db 'PRAGMA integrity_check')\" = ok ]"

# ---- bad input -----------------------------------------------------------------------------------
mkdir empty
"$T" triage empty --harness "$H" -- "$D" {} 2>err; rc=$?
expect "triage: an empty folder is one clear error" sh -c "[ $rc = 1 ] && grep -q 'no tests' err"
# (Without --harness the folder is a fuzzer's crash folder: triage-generic.sh.)
"$T" triage nosuch --harness "$H" -- "$D" {} 2>err; rc=$?
expect "triage: a missing folder is one clear error (exit 3: cannot read)" sh -c "[ $rc = 3 ] && grep -q 'nosuch: cannot read the folder' err"

# ---- a re-run with other --rules counts what a fresh run counts (issue 32, item 5) ---------------
# The first job's result files (--rules paper) are not this job's, and no replayed path starts it
# near their normal forms: the same counts as a job that never saw them (--no-db).
mkdir rr rr2
for k in 1 2 3 5; do cp "$AVL/tests/fail-$k.t" rr/; cp "$AVL/tests/fail-$k.t" rr2/; done
"$T" triage rr --harness "$H" --no-generalize --quiet --rules paper -- "$D" {} >/dev/null 2>&1
"$T" triage rr --harness "$H" --no-generalize --quiet -- "$D" {} 2>&1 | head -1 | sed 's/^rr:/X:/' >rr.sum
"$T" triage rr2 --harness "$H" --no-generalize --quiet --no-db -- "$D" {} 2>&1 | head -1 | sed 's/^rr2:/X:/' >rr2.sum
expect "triage: a re-run with other --rules has a fresh run's counts" sh -c "grep -q 'distinct reduced' rr.sum && cmp -s rr.sum rr2.sum"
"$T" triage rr --harness "$H" --no-generalize --quiet --rules paper -- "$D" {} 2>&1 | head -1 | sed 's/^rr:/X:/' >rr3.sum
"$T" triage rr2 --harness "$H" --no-generalize --quiet --rules paper --no-db -- "$D" {} 2>&1 | head -1 | sed 's/^rr2:/X:/' >rr4.sum
expect "triage: and back to --rules paper, a fresh paper run's counts" sh -c "grep -q 'distinct reduced' rr3.sum && cmp -s rr3.sum rr4.sum"

# ---- every option that can change an outcome is in the job's key (issue 39, item 6) -------------
# A re-run with another --env, --timeout, --mem, --invalid-exit or --max-time-per-test is another
# job: its counts are a fresh run's, never the first run's results taken again.
mkdir ke
printf 'abc' >ke/crash1
bugsh='[ "$BUG" = 1 ] && kill -ABRT $$; exit 0'
"$T" triage ke --no-harness -j 1 --quiet --env BUG=1 -- sh -c "$bugsh" sh @@ >ke1.out 2>&1
"$T" triage ke --no-harness -j 1 --quiet --env BUG=0 -- sh -c "$bugsh" sh @@ >ke2.out 2>&1
expect "triage key: --env BUG=1, then BUG=0: a fresh run's counts (nothing fails)" sh -c "grep -q '^ke: 1 tests, 1 failing' ke1.out && grep -q '^ke: 1 tests, 0 failing' ke2.out"
mkdir kt
cp "$AVL/tests/fail-1.t" kt/
"$T" triage kt --harness "$H" --no-generalize -j 1 -- "$D" {} >kt1.out 2>&1
"$T" triage kt --harness "$H" --no-generalize -j 1 -- "$D" {} >kt2.out 2>&1
expect "triage key: the same job again is taken from its results (control)" sh -c "! grep -q '^fail-1.t: ' kt2.out && grep -q '^kt: 1 tests, 1 failing' kt2.out"
"$T" triage kt --harness "$H" --no-generalize -j 1 --timeout 0.001 -- "$D" {} >kt3.out 2>&1
expect "triage key: --timeout 0.001 after it: a fresh run's counts (it times out)" sh -c "grep -q '^kt: 1 tests, 0 failing' kt3.out && grep -q 'times out' kt3.out"
"$T" triage kt --harness "$H" --no-generalize -j 1 --mem 2M -- "$D" {} >kt4.out 2>&1
expect "triage key: --mem 2M: a fresh run's outcome (the program cannot start: exit 127)" sh -c "grep -q '^kt: 1 tests, 1 failing' kt4.out && grep -q '^fail-1.t: .*: exit(127)' kt4.out"
"$T" triage kt --harness "$H" --no-generalize -j 1 --mem 2M --invalid-exit 127 -- "$D" {} >kt5.out 2>&1
expect "triage key: --invalid-exit 127 with it: a fresh run's counts (invalid, not failing)" grep -q '^kt: 1 tests, 0 failing' kt5.out
"$T" triage kt --harness "$H" --no-generalize -j 1 --max-time-per-test 600 -- "$D" {} >kt6.out 2>&1
expect "triage key: --max-time-per-test: the test is done again" sh -c "grep -q '^fail-1.t: ' kt6.out && grep -q '^kt: 1 tests, 1 failing' kt6.out"

# ---- control bytes in file names reach neither the terminal nor the page (issue 39, item 13) -----
# A newline, a terminal's escape sequences and a bell, and bytes that are not UTF-8: printed as
# \xNN on the terminal (stdout and stderr), and report.html (declared UTF-8) stays valid UTF-8.
mkdir hn
printf 'a' >"hn/$(printf 'new\nline')"
printf 'b' >"hn/$(printf 'esc\033[2J\033]0;pwned\007')"
printf 'c' >"hn/$(printf 'bad\377\376')"
"$T" triage hn --no-harness -j 1 --no-polish -- sh -c 'kill -ABRT $$' sh @@ >hn.out 2>hn.err; rc=$?
clean() { # FILE...: valid UTF-8 without control characters but newline and tab
	python3 -c "import sys; sys.exit(any(any((c < 32 and c not in (9, 10)) or c == 127 for c in b) for b in (open(f, 'rb').read() for f in sys.argv[1:]) if b.decode('utf-8') is not None))" "$@" 2>/dev/null
}
expect "names: triage of hostile names succeeds (exit 0, 3 failing)" sh -c "[ $rc = 0 ] && grep -q '^hn: 3 tests, 3 failing' hn.out"
expect "names: the terminal sees no control byte and no invalid UTF-8 (stdout, stderr)" clean hn.out hn.err
expect "names: they are printed escaped" sh -c "grep -qF 'new\x0aline: ' hn.out && grep -qF 'esc\x1b[2J\x1b]0;pwned\x07: ' hn.out && grep -qF 'bad\xff\xfe: ' hn.out"
expect "names: report.html is valid UTF-8 without control bytes" clean hn/triage/report.html
expect "names: ... the names escaped there" sh -c "grep -qF 'esc\x1b[2J' hn/triage/report.html && grep -qF 'bad\xff\xfe' hn/triage/report.html"
"$T" run "$(printf 'no\033]0;pwned\007such')" -- "$D" {} >/dev/null 2>hn2.err
expect "names: an error message that quotes a name escapes it too" sh -c "grep -qF 'no\x1b]0;pwned\x07such' hn2.err"
expect "names: ... and holds no control byte" clean hn2.err

# ---- a progress line on a terminal, plain lines otherwise (issue 32, item 6) -------------------
# script(1) gives the triage a terminal: the line [DONE/TOTAL] B buckets, R tests/s, S s left is
# redrawn in place (\r) below the lines per test; in a file, or with --quiet, there is none.
mkdir pg6
for k in 1 2 3; do cp "$AVL/tests/fail-$k.t" pg6/; done
script -qec "'$T' triage pg6 --thorough --no-db -j 1 --harness '$H' -- '$D' {}" /dev/null >pg6.tty 2>&1
tr '\r' '\n' <pg6.tty | sed 's/\x1b\[K//g' >pg6.lines # each redraw on a line of its own
has_gen() { grep -qE '^\[3/3\] generalizing bucket 1 of 1: [0-9]+ runs' pg6.lines; }
expect "triage on a terminal: a progress line with count, buckets, rate and time left" sh -c "grep -qE '^\[3/3\] 1 bucket, [0-9.]+ tests/s, [0-9]+ s left' pg6.lines && grep -qE '^\[1/3\] 1 bucket, ' pg6.lines && [ \$(tr -cd '\r' <pg6.tty | wc -c) -gt 0 ]"
expect "triage on a terminal: then the representative's generalization on the same line" has_gen
expect "triage on a terminal: the lines per test and the summary still there" sh -c "grep -q '^fail-3.t: 100 -> 10 steps' pg6.lines && grep -q '^pg6: 3 tests, 3 failing' pg6.lines"
rm -rf pg6/triage
script -qec "'$T' triage pg6 --quiet --no-db --no-generalize -j 1 --harness '$H' -- '$D' {}" /dev/null >pg6q.tty 2>&1
expect "triage --quiet on a terminal: no progress line" sh -c "grep -q 'pg6: 3 tests' pg6q.tty && ! grep -q 'tests/s' pg6q.tty"
expect "triage into files: plain lines, no progress line" sh -c "grep -q 'fail-1.t: 100 -> 10 steps' tri.out && ! grep -q 'tests/s' tri.out tri.err && [ \$(cat tri.out tri.err | tr -cd '\r' | wc -c) = 0 ]"

# ---- --shard counts from 1, as Jest and Playwright users write it (issue 32, item 9) -------------
mkdir sh
for k in 1 2 3 5; do cp "$AVL/tests/fail-$k.t" sh/; done
for k in 1 2; do
	"$T" triage sh --harness "$H" --shard $k/2 --db sh.db -o sh$k --no-generalize -j 1 -- "$D" {} >sh$k.out 2>sh$k.err
	echo $? >sh$k.rc
done
expect "triage --shard 1/2 and 2/2: both run, named as given" sh -c "[ \$(cat sh1.rc) = 0 ] && [ \$(cat sh2.rc) = 0 ] && grep -q '^shard 1/2 of sh: ' sh1.out && grep -q '^shard 2/2 of sh: ' sh2.out && grep -q '^triage: shard 2/2: [0-9]* tests in sh,' sh2.err"
n1=$(sed -n 's/^shard 1\/2 of sh: \([0-9]*\) of .*/\1/p' sh1.out)
n2=$(sed -n 's/^shard 2\/2 of sh: \([0-9]*\) of .*/\1/p' sh2.out)
expect "triage --shard 1/2 and 2/2 split the folder ($n1 + $n2 = 4)" [ "$((n1 + n2))" = 4 ]
"$T" triage sh --harness "$H" --shard 0/2 --db sh.db -- "$D" {} 2>err; rc=$?
expect "triage --shard 0/2: refused, saying shards count from 1" sh -c "[ $rc = 2 ] && grep -q \"shard '0/2': K must be 1..N (shards count from 1: 1/2 .. 2/2)\" err"
expect "triage --help: --shard counts from 1" sh -c "'$T' triage --help | tr '\n' ' ' | grep -q 'K from 1 to N'"

# ---- memory: nothing definitely lost (issue 14: a forked worker leaked what it inherited) ---------
mkdir lk
cp "$AVL/tests/fail-1.t" lk/
vg() { # TNORM: triage lk under valgrind; the exit status and vg.err
	rm -rf lk/triage
	valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 -q \
		"$1" triage lk --no-db --no-generalize --quiet --harness "$H" -j 1 -- "$D" {} >/dev/null 2>vg.err
}
vg "$T"; rc=$?
if grep -q 'Possibly corrupted debuginfo' vg.err; then
	# valgrind 3.19 cannot read clang 14's DWARF 5: the same program without its debug info
	objcopy --strip-debug "$T" tnorm-nodebug && vg ./tnorm-nodebug; rc=$?
fi
expect "triage: no memory definitely lost (valgrind)" sh -c "[ $rc = 0 ] && ! grep -q 'definitely lost' vg.err"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

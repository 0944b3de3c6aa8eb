#!/bin/bash
# SPDX-License-Identifier: MIT
# Triage sharded over processes that share a PostgreSQL server (issue 19), against a real server
# started here: two shards in parallel give exactly the buckets one process gives with SQLite; a
# shard killed with -9 and started again loses nothing and redoes nothing finished; two
# processes on the same tests never both work on one; the scheduler examples of
# examples/cluster (GNU parallel, a Slurm array, a Kubernetes indexed Job) run as written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg-lib.sh"
trap 'pg_stop; rm -rf "$W"' EXIT
AVL=$SRC/examples/avl
D=$B/examples/avl/avl_driver
H=$AVL/avl.tnh
CL=$SRC/examples/cluster
cd "$W" || exit 1

pg_start || { echo "could not start a PostgreSQL server"; exit 1; }
for db in shards kill twice par slurm k8s crashes; do pg_createdb $db; done

# The corpus: the failing tests of 1,500 random AVL tests, a passing test, and one that does
# not parse (each kind of result goes through the database).
"$T" fuzz "$H" --runs 1500 -o fz -- "$D" {} >/dev/null 2>&1
mkdir c
cp fz/*.t c/
cp "$AVL/tests/pass-1.t" c/
printf 'avl0 = avl_new(\n' >c/broken.t
NT=$(ls c | wc -l)
expect "the corpus: at least 12 tests" [ "$NT" -ge 12 ]
report_key() { # REPORT.json: what must agree (buckets with their tests, each test's result)
	python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(json.dumps([[(b['count'],b['signature'],b['normal_form'],b['tests']) for b in r['buckets']], sorted((x['test'],x['status'],x['bucket'],x['signature'],x['normal_steps']) for x in r['results'])]))" "$1"
}
done_items() { # DB: tests with a finished work item (a sampled triage's check or a minimization)
	pg_psql "$1" "SELECT count(DISTINCT regexp_replace(name, '^(check/)?[0-9a-f]{16}/', '')) FROM tnorm_claim WHERE done=1"
}

# ---- the reference: one process, SQLite ----------------------------------------------------------
"$T" triage c --harness "$H" -j 2 --db ref.db -o ref --quiet -- "$D" {} >ref.out 2>ref.err
expect "one process with SQLite: exit 0" sh -c "grep -q '^c: $NT tests, ' ref.out"

# ---- two shards in parallel, then the report ---------------------------------------------------
URL=$(pg_url shards)
"$T" triage c --harness "$H" --shard 1/2 -j 1 --db "$URL" -o s0 -- "$D" {} >s0.out 2>s0.err &
p0=$!
"$T" triage c --harness "$H" --shard 2/2 -j 1 --db "$URL" -o s1 -- "$D" {} >s1.out 2>s1.err &
p1=$!
wait $p0; r0=$?
wait $p1; r1=$?
expect "two shards: both exit 0" [ $r0 = 0 ] && [ $r1 = 0 ]
n0=$(sed -n 's/^shard 1\/2 of c: \([0-9]*\) of .*/\1/p' s0.out)
n1=$(sed -n 's/^shard 2\/2 of c: \([0-9]*\) of .*/\1/p' s1.out)
expect "two shards: they split the folder ($n0 + $n1 = $NT)" [ "$((n0 + n1))" = "$NT" ]
expect "two shards: no shard writes a report" sh -c "[ ! -e s0/report.json ] && [ ! -e s1/report.json ]"
expect "two shards: every test is finished in the database" [ "$(done_items shards)" = "$NT" ]
"$T" triage c --harness "$H" -j 2 --db "$URL" -o fin -- "$D" {} >fin.out 2>fin.err
expect "the report run: exit 0, and it did no test again (no per-test line)" sh -c "grep -q '^c: $NT tests, ' fin.out && ! grep -q '^fail-[0-9]*\.t: ' fin.out"
expect "two shards + the report run give exactly the buckets of one process with SQLite" \
	[ "$(report_key fin/report.json)" = "$(report_key ref/report.json)" ]
expect "nothing on stderr but the start line" sh -c "! grep -v '^triage: ' s0.err s1.err fin.err"

# ---- kill -9 of a shard, and its restart ---------------------------------------------------------
URL=$(pg_url kill)
# The gate holds the shard's 251st run and those after it, in its third test (its first two are
# done after some 215 runs), and no run times out: the shard is in the middle of a test when it
# is killed, however fast the machine (issue 28, item 13).
gate_close "$W/gk" 250
# (--thorough: the gate counts the runs of every test's minimization)
TMPDIR=$W/gk setsid "$T" triage c --harness "$H" --shard 1/2 -j 1 --lease 3 --timeout 600 \
	--thorough --db "$URL" -o k -- "$GATE_D" {} >k1.out 2>&1 &
kp=$!
gate_wait "$W/gk"
for _ in $(seq 1 6000); do [ "$(done_items kill)" -ge 2 ] && break; sleep 0.05; done
kill -9 -- -"$kp" 2>/dev/null
wait "$kp" 2>/dev/null
before=$(pg_psql kill "SELECT string_agg(substr(name, 18), ' ' ORDER BY name) FROM tnorm_claim WHERE done=1")
nbefore=$(done_items kill)
expect "kill -9: some tests were finished before the kill ($nbefore)" [ "$nbefore" -ge 2 ]
expect "kill -9: one was held when the shard died" [ "$(pg_psql kill "SELECT count(*) FROM tnorm_claim WHERE done=0")" -ge 1 ]
gate_open "$W/gk"
TMPDIR=$W/gk "$T" triage c --harness "$H" --shard 1/2 -j 1 --lease 3 --timeout 600 --db "$URL" -o k \
	--thorough -- "$GATE_D" {} >k2.out 2>k2.err
rc=$?
again=$(sed -n 's/^\([^ :]*\.t\): .*/\1/p' k2.out | sort | tr '\n' ' ')
expect "kill -9: the restarted shard finishes (exit 0)" [ $rc = 0 ]
expect "kill -9: it loses nothing: every test of the shard is finished ($n0)" [ "$(done_items kill)" = "$n0" ]
expect "kill -9: it redoes nothing finished (did: $again; finished before: $before)" python3 -c "import sys; a=set(sys.argv[1].split()); b=set(sys.argv[2].split()); sys.exit(bool(a & b) or len(a) + len(b) != int(sys.argv[3]))" "$again" "$before" "$n0"
expect "kill -9: the restarted shard says what it did" grep -q "^shard 1/2 of c: $n0 of $NT tests ($((n0 - nbefore)) done by this run)" k2.out

# ---- two processes on the same tests: never both on one ----------------------------------------
URL=$(pg_url twice)
"$T" triage c --harness "$H" -j 2 --db "$URL" -o t1 --no-generalize -- "$D" {} >t1.out 2>t1.err &
q1=$!
"$T" triage c --harness "$H" -j 2 --db "$URL" -o t2 --no-generalize -- "$D" {} >t2.out 2>t2.err &
q2=$!
wait $q1; r1=$?
wait $q2; r2=$?
# A line per work item a process did: a sampled triage's check of a test ("checked (1 run)") and
# its minimization are two items, which two processes may share out (one checks a test, the
# other minimizes it: seen under load), so an item is the test's name and which of the two.
did() { sed -n 's/^\([^ :]*\.t\): .*, checked (1 run): .*/\1 check/p; t; s/^\([^ :]*\.t\): .*/\1 minimize/p' "$1" | sort; }
expect "two processes: both exit 0" [ $r1 = 0 ] && [ $r2 = 0 ]
both=$(comm -12 <(did t1.out) <(did t2.out) | wc -l)
all=$(sort -u <(did t1.out | cut -d' ' -f1) <(did t2.out | cut -d' ' -f1) | wc -l)
expect "two processes: no test was done by both ($both), and each was done by one ($all of $NT)" sh -c "[ $both = 0 ] && [ $all = $NT ]"
expect "two processes: they report the same buckets" sh -c "grep '^c: ' t1.out >a; grep '^c: ' t2.out >b; [ -s a ] && cmp -s a b"

# ---- the scheduler examples, run as written -------------------------------------------------------
export TNORM="$T" TNORM_CORPUS="$W/c" TNORM_HARNESS="$H" TNORM_JOBS=1
# GNU parallel, on this machine (HOSTS=":"), 3 shards, then the report.
if command -v parallel >/dev/null; then
	TNORM_DB=$(pg_url par) TNORM_OUT="$W/par" HOSTS=: bash "$CL/parallel.sh" 3 -- "$D" {} \
		>par.out 2>par.err
	expect "parallel.sh: 3 shards, then the report" sh -c \
		"grep -q 'c: $NT tests, ' par.out && [ -d '$W/par/shard-0' ] && [ -d '$W/par/shard-2' ]"
	expect "parallel.sh: every test finished in the database" [ "$(done_items par)" = "$NT" ]
	expect "parallel.sh: its report is the reference's" [ "$(report_key par/report.json)" = "$(report_key ref/report.json)" ]
else
	bad "GNU parallel is not installed (the README's commands install it)"
fi
# A Slurm array of 2 tasks: what sbatch runs, with the variables Slurm sets; then the report.
SU=$(pg_url slurm)
for k in 0 1; do
	SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=2 SLURM_SUBMIT_DIR="$CL" TNORM_DB=$SU \
		TNORM_OUT="$W/slurm" bash "$CL/slurm.sbatch" -- "$D" {} >slurm$k.out 2>&1 &
done
wait
"$T" triage c --harness "$H" --db "$SU" -o slurm-report --quiet -- "$D" {} >slurm.out 2>&1
expect "slurm.sbatch: two array tasks, then the report with the reference's buckets" sh -c \
	"grep -q '^shard 1/2 of .*/c: ' slurm0.out && grep -q '^shard 2/2 of .*/c: ' slurm1.out && [ \"\$(python3 -c \"import json; print(len(json.load(open('slurm-report/report.json'))['results']))\")\" = $NT ]"
expect "slurm.sbatch: its report is the reference's" [ "$(report_key slurm-report/report.json)" = "$(report_key ref/report.json)" ]
# A Kubernetes indexed Job of 2 pods: each pod's command from k8s-job.yaml, with its index.
cmd=$(sed -n 's/^ *command: \[\(.*\)\]$/\1/p' "$CL/k8s-job.yaml" | tr -d '"' | sed 's/, / /g')
expect "k8s-job.yaml: the pods run shard.sh" sh -c "echo '$cmd' | grep -q '^/opt/tnorm/examples/cluster/shard.sh -- '"
KU=$(pg_url k8s)
for k in 0 1; do
	JOB_COMPLETION_INDEX=$k TNORM_SHARDS=2 TNORM_DB=$KU TNORM_OUT="$W/k8s" \
		bash "$CL/shard.sh" -- "$D" {} >k8s$k.out 2>&1 &
done
wait
"$T" triage c --harness "$H" --db "$KU" -o k8s-report --quiet -- "$D" {} >k8s.out 2>&1
expect "k8s-job.yaml: two indexed pods, then the report with the reference's buckets" \
	[ "$(report_key k8s-report/report.json)" = "$(report_key ref/report.json)" ]
bash "$CL/shard.sh" -- "$D" {} >noidx.out 2>&1
rc=$?
expect "shard.sh without an index: one clear error, exit 2" sh -c "[ $rc = 2 ] && grep -q 'K is not set' noidx.out && [ \$(wc -l <noidx.out) = 1 ]"

# ---- a fuzzer's crash folder without a harness: two bugs, two shards -----------------------------
S=$TNORM_SUT_DIR
if [ -x "$S/sut_jsonish" ]; then
	mkdir cj
	printf '{"id": 7, "tags": ["x", "y"], "": [{"n": 1}], "ok": true}\n' >'cj/id:000000,sig:06,src:000000,time:100,execs:4000,op:havoc,rep:2'
	printf '{"n": 123456789012345678901234567890, "x": [1,2]}\n' >'cj/id:000001,sig:06,src:000000,time:101,execs:4001,op:havoc,rep:2'
	printf '{"z": false, "": [ {"k": "v"}, {"k2": [1,2,3]} ], "w": "noise"}' >cj/crash-0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c
	printf '{"price": -3.14159265358979323846264338327950288, "tags": ["a"]}' >cj/crash-a1b2c3d4e5f60718293a4b5c6d7e8f9012345678
	printf 'Command line used to find this crash:\n\n./prog @@\n' >cj/README.txt
	"$T" triage cj -j 2 --invalid-exit 1 --db cref.db -o cref --quiet -- "$S/sut_jsonish" @@ >cref.out 2>&1
	CU=$(pg_url crashes)
	"$T" triage cj --shard 1/2 -j 1 --invalid-exit 1 --db "$CU" -o cs0 --quiet -- "$S/sut_jsonish" @@ >cs0.out 2>&1 &
	"$T" triage cj --shard 2/2 -j 1 --invalid-exit 1 --db "$CU" -o cs1 --quiet -- "$S/sut_jsonish" @@ >cs1.out 2>&1 &
	wait
	"$T" triage cj -j 2 --invalid-exit 1 --db "$CU" -o cfin -- "$S/sut_jsonish" @@ >cfin.out 2>&1
	expect "crash folder: one process with SQLite finds the two bugs" grep -q '^cj: 4 tests, 4 failing, 2 distinct signatures, .*: 2 buckets$' cref.out
	expect "crash folder: two shards and the report run give the same buckets, byte for byte" \
		sh -c "[ \"\$(python3 -c \"import json,sys; r=json.load(open('cfin/report.json')); print(sorted((sorted(b['tests']), b.get('normal_form_hex', b['normal_form'])) for b in r['buckets']))\")\" = \"\$(python3 -c \"import json,sys; r=json.load(open('cref/report.json')); print(sorted((sorted(b['tests']), b.get('normal_form_hex', b['normal_form'])) for b in r['buckets']))\")\" ]"
	expect "crash folder: the report run redid nothing, and wrote the representatives" \
		sh -c "! grep -q ' bytes (' cfin.out && [ \$(ls cfin/buckets | wc -l) = 2 ]"
else
	ok "crash folder: skipped (no AddressSanitizer builds of the test programs)"
fi

# ---- bad shards: one clear error each ------------------------------------------------------------
"$T" triage c --harness "$H" --shard 3/2 --db "$URL" -- "$D" {} 2>e1; rc1=$?
"$T" triage c --harness "$H" --shard 1 --db "$URL" -- "$D" {} 2>e2; rc2=$?
"$T" triage c --harness "$H" --shard 1/2 --no-db -- "$D" {} 2>e3; rc3=$?
"$T" triage c --harness "$H" --shard 1/2 --db "postgresql://tnorm@/none?host=$W/nosock" -- "$D" {} 2>e4; rc4=$?
expect "--shard 3/2: a usage error naming it" sh -c "[ $rc1 = 2 ] && grep -q \"shard '3/2': K must be 1..N\" e1"
expect "--shard 1: a usage error naming it" sh -c "[ $rc2 = 2 ] && grep -q \"shard '1': expected K/N\" e2"
expect "--shard with --no-db: a usage error" sh -c "[ $rc3 = 2 ] && grep -q 'needs a database' e3"
expect "--shard with a server that does not answer: an error, not a warning" sh -c "[ $rc4 != 0 ] && grep -q 'shard 1/2: the shards. results meet in the database' e4"

# ---- the server goes away mid-job: one line per error (issue 39, item 12) -------------------------
# (last: it stops the server.)  The gate holds a run while the job holds a connection; the server
# is stopped at once (its backends warn "terminating connection ..."); then the job goes on.
pg_createdb gone
gate_close "$W/gg" 20
TMPDIR=$W/gg "$T" triage c --harness "$H" -j 1 --timeout 600 --db "$(pg_url gone)" -o gone \
	-- "$GATE_D" {} >gone.out 2>gone.err &
gp=$!
gate_wait "$W/gg"
pg_stop
gate_open "$W/gg"
wait "$gp"
expect "server gone: no raw libpq WARNING, and every line on stderr is one of tnorm's" sh -c \
	"! grep -q 'WARNING' gone.err && ! grep -qv '^\(triage: \|tnorm triage: \)' gone.err"
expect "server gone: the error names the database" grep -q '^tnorm triage: .*postgresql://tnorm@/gone' gone.err

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

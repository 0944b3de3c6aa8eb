#!/bin/bash
# SPDX-License-Identifier: MIT
# Integration tests of the tnorm command on the real examples and the SUTs in tests/suts:
# check/gen, the examples' drivers (faulty and fixed), run, reduce (1-minimal, same signature,
# slippage guard, Ctrl-C, bad programs, generic mode), and the user's files left untouched.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT, TNORM_SUT_DIR (set by meson test).
. "$(dirname "$0")/lib.sh"

S=$TNORM_SUT_DIR
AVL=$SRC/examples/avl
HT=$SRC/examples/htable
AD=$B/examples/avl
HD=$B/examples/htable

# ---- basics -------------------------------------------------------------------------------
expect "--version" sh -c "$T --version | grep -q '^tnorm 0\.'"
expect "--help lists commands" sh -c "$T --help | grep -q reduce"
"$T" frobnicate >/dev/null 2>"$W/err"; rc=$?
expect "unknown command exits 2 with a message" sh -c "[ $rc = 2 ] && grep -q \"'frobnicate' is not a command\" '$W/err'"
for c in check gen run reduce normalize minimize generalize; do
	expect "$c --help" sh -c "$T $c --help | grep -q '^usage: tnorm $c'"
done

# ---- check and gen on the examples ----------------------------------------------------------
for ex in avl/avl htable/htable trie/trie; do
	h=$SRC/examples/$ex.tnh
	expect "check $ex harness" sh -c "$T check '$h' | grep -q 'actions'"
	for t in "$SRC"/examples/${ex%/*}/tests/*.t; do
		expect "check $(basename "$t")" sh -c "$T check '$h' '$t' | grep -q 'well-formed'"
	done
	"$T" gen "$h" --steps 50 --seed 9 >"$W/g1.t" && "$T" gen "$h" --steps 50 --seed 9 >"$W/g2.t"
	expect "gen $ex is deterministic" cmp -s "$W/g1.t" "$W/g2.t"
	"$T" gen "$h" --steps 50 --seed 10 >"$W/g3.t"
	expect "gen $ex: another seed, another test" sh -c "! cmp -s '$W/g1.t' '$W/g3.t'"
	expect "gen $ex output is a valid test" sh -c "$T check '$h' '$W/g1.t' >/dev/null"
	expect "gen -o writes the file" sh -c "$T gen '$h' --steps 5 -o '$W/g4.t' && [ \$(wc -l < '$W/g4.t') = 5 ]"
done
printf 'avl0 = avl_new()\navl_insert(avl0, int1)\n' >"$W/ill.t"
"$T" check "$AVL/avl.tnh" "$W/ill.t" 2>"$W/err"; rc=$?
expect "check: ill-formed test exits 1 naming file:line" sh -c "[ $rc = 1 ] && grep -q 'ill.t:2: not well-formed: step 1 (line 2): int1 is used before it is assigned' '$W/err'"
"$T" gen "$AVL/avl.tnh" --steps x 2>"$W/err"; rc=$?
expect "gen: bad --steps exits 2" sh -c "[ $rc = 2 ] && grep -q \"expects a non-negative integer, got 'x'\" '$W/err'"
"$T" gen "$AVL/avl.tnh" --steps 0 >"$W/out" 2>"$W/err"; rc=$?
expect "gen: --steps 0 is refused as fuzz refuses it (exit 2, one line)" sh -c "[ $rc = 2 ] && grep -q '^tnorm gen: --steps takes 1 to 10000000\$' '$W/err' && [ ! -s '$W/out' ]"
"$T" fuzz "$AVL/avl.tnh" --steps 0 --runs 1 -o "$W/fz0" -- "$B/examples/avl/avl_driver" {} 2>"$W/err"; rc=$?
expect "fuzz: --steps 0 is refused (exit 2)" sh -c "[ $rc = 2 ] && grep -q '^tnorm fuzz: --steps takes 1 to 100000\$' '$W/err'"

# ---- tnorm's environment is checked as options are (issue 39, item 14) -------------------------
for bad in TNORM_MAX_INPUT=1.5G TNORM_MAX_INPUT=abc TNORM_MAX_INPUT=0 TNORM_PERSISTENT=abc \
	TNORM_FORK_SERVER=maybe TNORM_PRELOAD=lib.so; do
	env "$bad" "$T" run "$AVL/tests/fail-1.t" -- "$B/examples/avl/avl_driver" {} >"$W/out" 2>"$W/err"; rc=$?
	expect "env: $bad is refused by name (exit 2, one line)" sh -c "[ $rc = 2 ] && grep -q '^tnorm run: $bad in the environment: expects ' '$W/err' && [ \$(wc -l <'$W/err') = 1 ] && [ ! -s '$W/out' ]"
done
TNORM_MAX_INPUT=1GB "$T" check "$AVL/avl.tnh" "$AVL/tests/fail-1.t" >/dev/null 2>"$W/err"; rc=$?
expect "env: TNORM_MAX_INPUT=1GB is a size, as --mem 1GB is" [ $rc = 0 ]
head -c 2000 /dev/zero >"$W/big.t"
TNORM_MAX_INPUT=1K "$T" check "$AVL/avl.tnh" "$W/big.t" 2>"$W/err"; rc=$?
expect "env: over a TNORM_MAX_INPUT the user set, the message says it is the user's (not: set it)" sh -c "[ $rc = 1 ] && grep -q 'larger than 1024 bytes, the limit for an input file that TNORM_MAX_INPUT=1K in the environment sets' '$W/err'"

# ---- the examples' drivers -----------------------------------------------------------------
for ex in avl htable trie; do
	for t in "$SRC"/examples/$ex/tests/fail-*.t; do
		"$B/examples/$ex/${ex}_driver_faulty" "$t" 2>/dev/null; rc=$?
		expect "$ex $(basename "$t") aborts on the faulty build" [ "$rc" = 134 ]
		expect "$ex $(basename "$t") passes on the fixed build" "$B/examples/$ex/${ex}_driver_fixed" "$t"
	done
	for t in "$SRC"/examples/$ex/tests/pass-*.t; do
		expect "$ex $(basename "$t") passes on the faulty build" "$B/examples/$ex/${ex}_driver_faulty" "$t"
	done
done
"$AD/avl_driver" "$W/ill.t" 2>"$W/err"; rc=$?
expect "driver: ill-formed test exits 125" sh -c "[ $rc = 125 ] && grep -q 'int1 is used before it is assigned' '$W/err'"
printf 'avl0 = avl_new()\nfrob(avl0)\n' >"$W/bad.t"
"$AD/avl_driver" "$W/bad.t" 2>"$W/err"; rc=$?
expect "driver: unparsable test exits 125 with file:line:col" sh -c "[ $rc = 125 ] && grep -q \"bad.t:2:1: unknown action 'frob'\" '$W/err'"
"$AD/avl_driver_faulty" --trace --stdin <"$AVL/tests/fail-1.t" 2>"$W/err" >/dev/null
expect "driver: --stdin and --trace print each step" sh -c "grep -q '^STEP 0: ' '$W/err' && grep -q 'Assertion' '$W/err'"

# ---- run ---------------------------------------------------------------------------------
"$T" run "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >"$W/run.out"
expect "run prints outcome and signature" sh -c "grep -q '^outcome: fail' '$W/run.out' && grep -q '^signature: SIGABRT at check_node (avl.c:[0-9]*) <- avl_check' '$W/run.out'"
"$T" run --json "$HT/tests/fail-1.t" -- "$HD/htable_driver" {} >"$W/run.json"
expect "run --json" sh -c "grep -q '\"outcome\": \"fail\"' '$W/run.json' && grep -q 'SIGABRT at ht_check (htable.c:' '$W/run.json'"
"$T" run "$AVL/tests/fail-1.t" -- /nonexistent/prog {} >/dev/null 2>"$W/err"; rc=$?
expect "run: a command that cannot start exits 3" sh -c "[ $rc = 3 ] && grep -q \"cannot run '/nonexistent/prog'\" '$W/err'"

# ---- reduce: examples to 1-minimal tests with the same signature -------------------------------
sig_of() { "$T" run "$1" -- "$2" {} | sed -n 's/^signature: //p'; }
one_minimal() { # TEST DRIVER SIGNATURE: no single step can go
	local t=$1 d=$2 s=$3 n i
	n=$(grep -c . "$t")
	for i in $(seq 1 "$n"); do
		sed "${i}d" "$t" >"$W/drop.t"
		if "$T" check "$4" "$W/drop.t" >/dev/null 2>&1 && [ "$(sig_of "$W/drop.t" "$d")" = "$s" ]; then
			echo "step $i of $t can be removed"
			return 1
		fi
	done
}
for ex in avl htable; do
	for t in "$SRC"/examples/$ex/tests/fail-[123].t; do
		name=$ex-$(basename "$t" .t)
		sum=$(md5sum <"$t")
		orig=$(sig_of "$t" "$B/examples/$ex/${ex}_driver")
		"$T" reduce --quiet --harness "$SRC/examples/$ex/$ex.tnh" -o "$W/$name.min" "$t" -- \
			"$B/examples/$ex/${ex}_driver" {} >"$W/$name.out"; rc=$?
		expect "reduce $name exits 0" [ "$rc" = 0 ]
		expect "reduce $name leaves the input untouched" [ "$(md5sum <"$t")" = "$sum" ]
		expect "reduce $name keeps the signature" [ "$(sig_of "$W/$name.min" "$B/examples/$ex/${ex}_driver")" = "$orig" ]
		expect "reduce $name prints the signature" grep -q "^signature: $orig" "$W/$name.out"
		expect "reduce $name is short" [ "$(grep -c . "$W/$name.min")" -le 15 ]
		expect "reduce $name is 1-minimal" one_minimal "$W/$name.min" "$B/examples/$ex/${ex}_driver" "$orig" "$SRC/examples/$ex/$ex.tnh"
	done
done
"$T" reduce --quiet --json --algo ddmin --no-slice --harness "$AVL/avl.tnh" -o "$W/dd.min" \
	"$AVL/tests/fail-4.t" -- "$AD/avl_driver" {} >"$W/dd.json"
expect "reduce --json --algo ddmin" sh -c "grep -q '\"complete\": true' '$W/dd.json' && grep -q '\"slice_level\": 2' '$W/dd.json'"

# ---- slippage: two bugs; the default policy holds, --match any slips -----------------------------
printf 'x\nA\ny\nB\nz\na\nw\n' >"$W/two.txt"
"$T" reduce --quiet -o "$W/two.min" "$W/two.txt" -- "$S/sut_twobug" {} >"$W/two.out"
expect "slippage: default policy keeps bug A" sh -c "[ \"\$(cat '$W/two.min')\" = \"\$(printf 'A\na\n')\" ] && grep -q 'signature: SIGSEGV at bug_a' '$W/two.out'"
expect "slippage: bug B is reported and kept in slipped/" sh -c "grep -q '^slipped: SIGABRT at bug_b (twobug.c:' '$W/two.out' && grep -qx B '$W/slipped/slip-1.t' && [ \$(wc -c < '$W/slipped/slip-1.t') -lt 14 ] && grep -q bug_b '$W/slipped/slip-1.sig'"
"$T" reduce --quiet --match any -o "$W/any.min" "$W/two.txt" -- "$S/sut_twobug" {} >"$W/any.out"
expect "slippage: --match any slips to bug B" sh -c "[ \"\$(cat '$W/any.min')\" = B ] && \"$T\" run '$W/any.min' -- '$S/sut_twobug' {} | grep -q 'bug_b'"

# ---- bad programs ------------------------------------------------------------------------
"$T" reduce --quiet --timeout 0.3 -o "$W/h.min" "$W/two.txt" -- "$S/sut_hang" {} 2>"$W/err"; rc=$?
expect "reduce: a hanging program exits 4 (it times out)" sh -c "[ $rc = 4 ] && grep -q 'does not fail: it times out' '$W/err'"
"$T" reduce --quiet -o "$W/i.min" "$W/two.txt" -- "$S/sut_exit125" {} 2>"$W/err"; rc=$?
expect "reduce: exit 125 is invalid, exits 4" sh -c "[ $rc = 4 ] && grep -q 'calls it invalid' '$W/err'"
"$T" reduce --quiet --confirm 8 -o "$W/f.min" "$W/two.txt" -- "$S/sut_flaky" {} 2>"$W/err"; rc=$?
expect "reduce: a flaky program exits 4" sh -c "[ $rc = 4 ] && grep -q -E 'fails in only|does not fail' '$W/err'"
"$T" reduce --quiet -o "$W/n.min" "$W/two.txt" -- /nonexistent/prog {} 2>"$W/err"; rc=$?
expect "reduce: a missing program exits 3" sh -c "[ $rc = 3 ] && grep -q \"cannot run '/nonexistent/prog'\" '$W/err'"
"$T" reduce --quiet -o "$W/fl.min" "$W/two.txt" -- "$S/sut_flood" {} >/dev/null 2>"$W/err"; rc=$?
expect "reduce: an output-flooding program is reduced" [ "$rc" = 0 ]
"$T" reduce --harness "$AVL/avl.tnh" "$W/ill.t" -- "$AD/avl_driver" {} 2>"$W/err"; rc=$?
expect "reduce: an ill-formed test exits 1" sh -c "[ $rc = 1 ] && grep -q 'ill.t:2: not well-formed' '$W/err'"
"$T" reduce --match nope "$W/two.txt" -- "$S/sut_twobug" {} 2>"$W/err"; rc=$?
expect "reduce: a bad policy exits 2" sh -c "[ $rc = 2 ] && grep -q \"unknown match policy 'nope'\" '$W/err'"
"$T" reduce "$W/two.txt" 2>"$W/err"; rc=$?
expect "reduce: no command exits 2" [ "$rc" = 2 ]

# ---- generic mode: two words on distant lines of a 200-line file --------------------------------
for i in $(seq 1 200); do
	case $i in
	17) echo "the quick alpha fox" ;;
	183) echo "jumps omega over the dog" ;;
	*) echo "line $i with some filler words" ;;
	esac
done >"$W/words.txt"
"$T" reduce --quiet -o "$W/words.min" "$W/words.txt" -- "$S/sut_twowords" {} >/dev/null
expect "generic mode: the two words alone" sh -c "[ \"\$(cat '$W/words.min')\" = alphaomega ]"

# ---- normalize / minimize: one canonical test for different failing tests ----------------------
for i in 1 2; do
	"$T" minimize --quiet --harness "$AVL/avl.tnh" -o "$W/m$i.norm" "$AVL/tests/fail-$i.t" -- "$AD/avl_driver" {} >"$W/m$i.out"
done
expect "minimize: two different failing tests give the same normal form" cmp -s "$W/m1.norm" "$W/m2.norm"
expect "minimize: the normal form fails with the same signature" [ "$(sig_of "$W/m1.norm" "$AD/avl_driver")" = "$(sig_of "$AVL/tests/fail-1.t" "$AD/avl_driver")" ]
expect "minimize prints the normal form" grep -q "^normal form" "$W/m1.out"
"$T" normalize --quiet --harness "$AVL/avl.tnh" -o "$W/again.norm" "$W/m1.norm" -- "$AD/avl_driver" {} >/dev/null
expect "normalize: a normal form is a fixpoint" cmp -s "$W/m1.norm" "$W/again.norm"
"$T" minimize --quiet --harness "$AVL/avl.tnh" -o "$W/m1b.norm" "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >/dev/null
expect "minimize: deterministic, byte for byte" cmp -s "$W/m1.norm" "$W/m1b.norm"
"$T" generalize "$W/two.txt" -- "$S/sut_twobug" {} 2>"$W/err"; rc=$?
cp "$AVL/tests/fail-1.t" "$W/dbt.t"
env -u TNORM_DB "$T" minimize --quiet --json --harness "$AVL/avl.tnh" -o "$W/dbt.norm" "$W/dbt.t" -- "$AD/avl_driver" {} >"$W/db1.json"
env -u TNORM_DB "$T" minimize --quiet --json --harness "$AVL/avl.tnh" -o "$W/dbt2.norm" "$W/dbt.t" -- "$AD/avl_driver" {} >"$W/db2.json"
expect "database: beside the test, in .tnorm/" [ -s "$W/.tnorm/cache.db" ]
expect "database: a second minimize jumps to the known normal form" sh -c "grep -q '\"known_normal_form\": true' '$W/db2.json' && cmp -s '$W/dbt.norm' '$W/dbt2.norm'"
expect "database: and runs only the confirm runs" [ "$(sed -n 's/.*"runs": \([0-9]*\).*/\1/p' "$W/db2.json")" -le 3 ]
expect "generalize without a harness exits 2" sh -c "[ $rc = 2 ] && grep -q 'needs --harness' '$W/err'"
# the rule sets: fail-1 and fail-3 (the same fault) have one normal form under the call rules, and
# two under the paper's (without a database: with one, fail-3 meets a test of fail-1's path and
# jumps to its form); the database keeps normal forms per rule set
for i in 1 3; do
	for r in calls paper; do
		env -u TNORM_DB "$T" minimize --quiet --json --rules $r --harness "$AVL/avl.tnh" --db "$W/rules.db" \
			-o "$W/r$i.$r" "$AVL/tests/fail-$i.t" -- "$AD/avl_driver" {} >"$W/r$i.$r.json"
	done
done
expect "rules: --json says which rule set ran" sh -c "grep -q '\"rules\": \"calls\"' '$W/r1.calls.json' && grep -q '\"rules\": \"paper\"' '$W/r1.paper.json'"
expect "rules: the call rules give fail-1 and fail-3 one normal form" cmp -s "$W/r1.calls" "$W/r3.calls"
"$T" minimize --quiet --no-db --rules paper --harness "$AVL/avl.tnh" -o "$W/r3.paper-alone" \
	"$AVL/tests/fail-3.t" -- "$AD/avl_driver" {} >/dev/null
expect "rules: the paper's rules alone give them two (the AVL case of docs/normalization.md)" sh -c "! cmp -s '$W/r1.paper' '$W/r3.paper-alone'"
expect "rules: a normal form from one rule set is not reused for the other" sh -c "! cmp -s '$W/r1.calls' '$W/r1.paper'"
"$T" minimize --rules fancy --harness "$AVL/avl.tnh" "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} 2>"$W/err"; rc=$?
expect "rules: an unknown rule set is a usage error" sh -c "[ $rc = 2 ] && grep -q 'calls or paper' '$W/err'"

# ---- generalize: the annotated normal form is a test that still fails ---------------------------
"$T" generalize --quiet --harness "$AVL/avl.tnh" -o "$W/m1.gen" "$W/m1.norm" -- "$AD/avl_driver" {} >/dev/null
expect "generalize: Figure 2 annotations" sh -c "grep -q '# STEP 0\$' '$W/m1.gen' && grep -q '^# or ' '$W/m1.gen' && grep -q '^#\] (steps in \[\] can be in any order)' '$W/m1.gen'"
expect "generalize: the annotated test parses and still fails the same way" sh -c "$T check '$AVL/avl.tnh' '$W/m1.gen' >/dev/null && [ \"\$($T run '$W/m1.gen' -- '$AD/avl_driver' {} | sed -n 's/^signature: //p')\" = \"\$($T run '$W/m1.norm' -- '$AD/avl_driver' {} | sed -n 's/^signature: //p')\" ]"
# Replay: a rebuilt program (here: a copy, which is another context) replays the recorded path.
cp "$AD/avl_driver" "$W/avl_copy1"
cp "$AD/avl_driver" "$W/avl_copy2"
cp "$AVL/tests/fail-4.t" "$W/rp.t"
"$T" minimize --quiet --harness "$AVL/avl.tnh" --db "$W/rp.db" -o "$W/rp1.norm" "$W/rp.t" -- "$AD/avl_driver" {} >"$W/rp1.out"
"$T" minimize --quiet --harness "$AVL/avl.tnh" --db "$W/rp.db" -o "$W/rp2.norm" "$W/rp.t" -- "$W/avl_copy1" {} >"$W/rp2.out"
"$T" minimize --quiet --no-replay --harness "$AVL/avl.tnh" --db "$W/rp.db" -o "$W/rp3.norm" "$W/rp.t" -- "$W/avl_copy2" {} >"$W/rp3.out"
runs_of() { sed -n 's/.* in \([0-9]*\) runs.*/\1/p' "$1" | head -1; }
expect "replay: the recorded path is replayed under a new context" grep -q '^replayed: started from test [0-9]* of the [0-9]* this test' "$W/rp2.out"
expect "replay: same normal form, fewer runs ($(runs_of "$W/rp2.out") against $(runs_of "$W/rp3.out") with --no-replay)" sh -c "cmp -s '$W/rp1.norm' '$W/rp2.norm' && cmp -s '$W/rp1.norm' '$W/rp3.norm' && [ $(runs_of "$W/rp2.out") -lt $(runs_of "$W/rp3.out") ]"
expect "replay: --no-replay does not replay" sh -c "! grep -q '^replayed:' '$W/rp3.out'"
# Parallel experiments: -j 1 and -j 2 give the same annotated test and the same report.
"$T" generalize --harness "$AVL/avl.tnh" -j 1 --no-db -o "$W/j1.gen" "$W/m1.norm" -- "$AD/avl_driver" {} 2>/dev/null | sed 1d >"$W/j1.out"
"$T" generalize --harness "$AVL/avl.tnh" -j 2 --no-db -o "$W/j2.gen" "$W/m1.norm" -- "$AD/avl_driver" {} 2>/dev/null | sed 1d >"$W/j2.out"
expect "generalize: -j 1 and -j 2 write identical files" cmp -s "$W/j1.gen" "$W/j2.gen"
expect "generalize: -j 1 and -j 2 print identical results" cmp -s "$W/j1.out" "$W/j2.out"
expect "generalize: -j 2 output is the annotated test" grep -q '# STEP 0$' "$W/j2.gen"
"$T" generalize --harness "$AVL/avl.tnh" -j 0 "$W/m1.norm" -- "$AD/avl_driver" {} 2>"$W/err"; rc=$?
expect "generalize: -j 0 is a usage error" sh -c "[ $rc = 2 ] && grep -q 'takes 1 to 256 jobs' '$W/err'"

# ---- Ctrl-C keeps the best test so far -------------------------------------------------------
# The gate holds the 11th run and those after it (tests/driver/gate.c), so the reduction is still
# under way when Ctrl-C comes, however fast or loaded the machine (no run times out: --timeout
# 600, and Ctrl-C must stop the held run at once); no sleep of a guessed length.
gate_close "$W/gt" 10
TMPDIR=$W/gt "$T" reduce --quiet --confirm 1 --harness "$AVL/avl.tnh" --timeout 600 -o "$W/int.min" "$AVL/tests/fail-2.t" -- "$GATE_D" {} >/dev/null 2>"$W/err" &
pid=$!
gate_wait "$W/gt" "$W/int.min"
kill -INT $pid
wait $pid; rc=$?
expect "Ctrl-C: exits 130" [ "$rc" = 130 ]
expect "Ctrl-C: the best-so-far file is a valid test that still fails" sh -c "$T check '$AVL/avl.tnh' '$W/int.min' >/dev/null && ! '$AD/avl_driver' '$W/int.min' 2>/dev/null"
expect "Ctrl-C: says the best result is kept" grep -q "best result so far is kept" "$W/err"
expect "no temporary files left" sh -c "[ -z \"\$(ls -A '$W' | grep tmp)\" ]"

# ---- a newcomer's first hour (issue 32) ---------------------------------------------------------
# Item 3: a command without {} (or @@) and without --stdin is said as such, before anything runs
# (it was the driver's usage text, the last line of its complaint).
mkdir -p "$W/tri32"
cp "$AVL/tests/fail-1.t" "$W/tri32/"
for c in "run" "minimize --harness $AVL/avl.tnh --max-runs 5" "fuzz $AVL/avl.tnh --runs 1 -o $W/fz32" "triage $W/tri32 --harness $AVL/avl.tnh --no-db"; do
	"$T" ${c%% *} $(echo "$c" | cut -s -d' ' -f2-) $([ "${c%% *}" = run ] || [ "${c%% *}" = minimize ] && echo "$AVL/tests/fail-1.t") -- "$AD/avl_driver" >"$W/out" 2>"$W/err"
	expect "${c%% *}: CMD without {} or @@ nor --stdin: a warning that says so, first" sh -c "head -1 '$W/err' | grep -q '^tnorm ${c%% *}: warning: CMD has no {} or @@ and no --stdin'"
done
expect "run --stdin: a command without {} is fine then" sh -c "'$T' run --stdin '$AVL/tests/fail-1.t' -- '$AD/avl_driver' --stdin 2>'$W/err' | grep -q '^outcome: fail' && ! grep -q warning '$W/err'"

# Item 4: run --expect fail|pass: the exit status is the verdict.
"$T" run --expect fail "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >"$W/out" 2>"$W/err"; rc1=$?
"$T" run --expect pass "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >"$W/out2" 2>"$W/err2"; rc2=$?
"$T" run --expect pass "$AVL/tests/pass-1.t" -- "$AD/avl_driver" {} >/dev/null 2>&1; rc3=$?
"$T" run --expect fail --json "$AVL/tests/pass-1.t" -- "$AD/avl_driver" {} >"$W/out4" 2>/dev/null; rc4=$?
"$T" run --expect maybe "$AVL/tests/pass-1.t" -- "$AD/avl_driver" {} 2>"$W/err5"; rc5=$?
expect "run --expect fail on a failing test: exit 0" sh -c "[ $rc1 = 0 ] && grep -q '^outcome: fail' '$W/out'"
expect "run --expect pass on a failing test: exit 1, the outcome said" sh -c "[ $rc2 = 1 ] && grep -q '^outcome: fail' '$W/out2' && grep -qx 'tnorm run: expected pass, the outcome is fail' '$W/err2'"
expect "run --expect pass on a passing test: exit 0" [ $rc3 = 0 ]
expect "run --expect fail --json on a passing test: exit 1, the JSON printed" sh -c "[ $rc4 = 1 ] && grep -q '\"outcome\": \"pass\"' '$W/out4'"
expect "run --expect takes fail or pass" sh -c "[ $rc5 = 2 ] && grep -q 'expect takes fail or pass' '$W/err5'"

# Item 1: minimize without --harness on a tnorm driver asks it for its harness (as the debugger
# plugins do): the test is minimized as steps, the same normal form as with --harness.
"$T" minimize --no-db -o "$W/h1.norm" "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >"$W/out" 2>"$W/err"; rc=$?
"$T" minimize --no-db --quiet --harness "$AVL/avl.tnh" -o "$W/h2.norm" "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >/dev/null 2>&1
expect "minimize on a driver without --harness: steps, and it says whose harness" sh -c "[ $rc = 0 ] && grep -q ': 100 -> 10 steps in' '$W/out' && grep -q 'the harness is the one compiled into .*avl_driver (.*avl_driver --print-harness)' '$W/err'"
expect "minimize on a driver without --harness: the normal form of --harness" cmp -s "$W/h1.norm" "$W/h2.norm"
"$T" minimize --no-db --quiet --no-harness --max-runs 20 -o "$W/h3.norm" "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >"$W/out" 2>"$W/err"
expect "minimize --no-harness: the test's bytes, as before" grep -q ' bytes in ' "$W/out"
"$T" minimize --no-db --quiet -o "$W/h4.norm" "$AVL/tests/fail-1.t" -- "$AD/avl_driver" --harness "$AVL/avl.tnh" {} >"$W/out" 2>"$W/err"
expect "minimize of a driver run with its own --harness: that harness" grep -q ': 100 -> 10 steps in' "$W/out"
"$T" generalize --no-db --quiet -o "$W/h5.gen" "$W/h2.norm" -- "$AD/avl_driver" {} >"$W/out" 2>"$W/err"; rc=$?
expect "generalize on a driver without --harness: its harness" sh -c "[ $rc = 0 ] && grep -q '^generalized:' '$W/out'"
mkdir "$W/tri1"
cp "$AVL/tests/fail-1.t" "$AVL/tests/fail-2.t" "$W/tri1/"
"$T" triage "$W/tri1" --no-db --no-generalize -j 2 -- "$AD/avl_driver" {} >"$W/out" 2>"$W/err"; rc=$?
expect "triage on a driver without --harness: steps, its harness" sh -c "[ $rc = 0 ] && grep -q '^fail-1.t: 100 -> 10 steps' '$W/out' && grep -q 'avl_driver --print-harness' '$W/err'"

# Item 7: the annotated test starts with a legend: "# - B" ends a range ("# or A" .. B).
expect "generalize: a legend line above the annotations says # - B is a range" sh -c "head -1 '$W/h5.gen' | grep -q '^# how to read: .*\"# or A\" then \"# - B\" any action from A through B (a range, not a minus)' && grep -q '^# - ' '$W/h5.gen'"

# Item 2: a harness edited without rebuilding the driver.  fuzz gives the first invalid run's
# reason (and exit 1 when no run was valid); check --driver says the files differ.
sed 's/avl_insert/avl_add/' "$AVL/avl.tnh" >"$W/edited.tnh"
"$T" fuzz "$W/edited.tnh" --runs 20 -o "$W/fz-ed" -- "$AD/avl_driver" {} >"$W/out" 2>"$W/err"; rc=$?
expect "fuzz with every run invalid: exit 1, the first run's reason and seed" sh -c "[ $rc = 1 ] && grep -q ' 20 invalid' '$W/out' && grep -q '^tnorm fuzz: warning: 20 of 20 runs invalid; the first (seed 1: tnorm gen .*edited.tnh --steps 100 --seed 1): .*unknown action .avl_add' '$W/err' && grep -q 'tnorm check --driver' '$W/err'"
"$T" check --driver "$AD/avl_driver" "$W/edited.tnh" >/dev/null 2>"$W/err"; rc=$?
expect "check --driver: warns that the harness is not the driver's" sh -c "[ $rc = 0 ] && grep -q 'warning: .*edited.tnh is not the harness compiled into .*avl_driver' '$W/err'"
"$T" check --driver "$AD/avl_driver" "$AVL/avl.tnh" >/dev/null 2>"$W/err"
expect "check --driver: no such warning for the driver's own harness" sh -c "! grep -q 'is not the harness' '$W/err'"
"$T" fuzz "$W/edited.tnh" --runs 2 -o "$W/fz-ed2" -- "$AD/avl_driver" {} >/dev/null 2>"$W/err"
expect "fuzz: warns first that the harness is not the driver's" sh -c "head -1 '$W/err' | grep -q '^tnorm fuzz: warning: .*edited.tnh is not the harness compiled into .*avl_driver'"
"$T" minimize --no-db --harness "$W/edited.tnh" "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >/dev/null 2>"$W/err"
expect "minimize --harness: warns that the harness is not the driver's" grep -q '^tnorm minimize: warning: .*edited.tnh is not the harness compiled into' "$W/err"
"$T" run "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >/dev/null 2>"$W/err"
"$T" minimize --no-db --quiet --harness "$AVL/avl.tnh" -o "$W/same.norm" "$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >/dev/null 2>>"$W/err"
expect "no such warning with the driver's own harness" sh -c "! grep -q 'is not the harness' '$W/err'"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: MIT
# The gdb plugin, in real gdb (gdb -batch -nx) on the AVL example: crash -> tnorm minimize ->
# tnorm run -> tnorm step; the signature of the stop; Ctrl-C during minimize; bad input.
. "$(dirname "$0")/lib.sh"
PLUGIN=$B/gdb-plugin/tnorm-gdb.py
AVL=$SRC/examples/avl
D=$B/examples/avl/avl_driver
H=$AVL/avl.tnh
cp "$AVL/tests/fail-1.t" "$AVL/tests/fail-6.t" "$AVL/tests/pass-1.t" "$W/"
cd "$W" || exit 1

g() { # OUTFILE gdb-args...: gdb in batch mode with the plugin loaded
	local out=$1; shift
	timeout 300 gdb -batch -nx -ex "source $PLUGIN" "$@" >"$out" 2>&1
}

# ---- the story: crash, minimize, run, step -----------------------------------------------------
g story.log -ex run -ex 'tnorm signature' -ex 'tnorm minimize' -ex 'tnorm run' -ex 'tnorm step' \
	-ex 'tnorm step' -ex 'tnorm step' -ex 'tnorm steps' -ex 'echo ALIVE\n' --args "$D" fail-1.t
"$T" minimize --quiet --harness "$H" -o cli.norm fail-1.t -- "$D" {} >/dev/null
expect "minimize: the normal form is written beside the test" test -s fail-1.t.norm
expect "minimize: gdb's result is the CLI's normal form" cmp -s fail-1.t.norm cli.norm
expect "minimize: the normal form is printed" sh -c "grep -qx 'avl_delete(avl0, int0)' story.log && grep -q '^written to $W/fail-1.t.norm' story.log"
expect "minimize: the input test is untouched" cmp -s fail-1.t "$AVL/tests/fail-1.t"
cli_sig=$("$T" run fail-1.t -- "$D" {} | sed -n 's/^signature: //p')
gdb_sig=$(grep '^SIGABRT at ' story.log | head -1)
expect "signature: tnorm signature equals the signature tnorm run prints" [ -n "$cli_sig" -a "$cli_sig" = "$gdb_sig" ]
for k in 0 1 2 3; do
	want=$(grep -v '^#' fail-1.t.norm | sed -n "$((k + 1))p")
	expect "step: stops at step $k with its text ($want)" grep -qxF "STEP $k: $want" story.log
done
expect "steps: lists the test and marks step 3" grep -qE '^=>  3  int1 = 2$' story.log
expect "gdb keeps working after the story" grep -qx ALIVE story.log

# ---- after tnorm step, a plain continue runs the test to its crash ------------------------------
g cont.log -ex 'tnorm run fail-1.t.norm' -ex 'tnorm step' -ex continue -ex 'tnorm signature' --args "$D" fail-1.t
expect "continue: runs on to the crash (the step breakpoint is armed only by tnorm step)" sh -c "grep -q 'Program received signal SIGABRT' cont.log && grep -q '^SIGABRT at check_node (avl.c:191)' cont.log"

# ---- generalization notes while stepping -------------------------------------------------------
g gen.log -ex run -ex 'tnorm minimize --generalize -o fail-1.gen' -ex 'tnorm run' -ex 'tnorm step' \
	--args "$D" fail-1.t
expect "minimize --generalize: annotated and written" grep -q '# STEP 0$' fail-1.gen
expect "step: prints the step's generalization notes" sh -c "grep -qx 'STEP 1: int0 = 1' gen.log && grep -qE '^    # (or|swaps)' gen.log"

# ---- reduce from gdb; a stop that differs from the engine's run of the test: a warning ----------
g red.log -ex run -ex 'tnorm reduce --match stack:2 -o fail-1.min' --args "$D" fail-1.t
expect "reduce: works from gdb" sh -c "grep -q '^reduced: 100 -> ' red.log && test -s fail-1.min"
printf 'x\nA\ny\na\nz\n' >bugA.txt
printf 'x\nB\ny\n' >bugB.txt
g warn.log -ex run -ex 'tnorm reduce bugB.txt -o bugB.min' -ex 'tnorm minimize bugA.txt -o bugA.norm' -ex 'echo ALIVE\n' --args "$B/tests/suts/sut_twobug" bugA.txt
expect "reduce: a generic (no harness) program works from gdb" sh -c "grep -qx B bugB.min && grep -qx ALIVE warn.log"
expect "minimize: a generic (no harness) program is reduced and normalized from gdb (issue 17)" sh -c "grep -q '^normal form: 10 -> [0-9]* bytes' warn.log && grep -qx A bugA.norm"
expect "a stop that differs from the engine's target: a warning naming both" grep -q "^warning: the debugger's stop (SIGSEGV at bug_a (twobug.c:[0-9]*)\(.*\)) differs from the engine's run of the test (SIGABRT at bug_b" warn.log

# ---- Ctrl-C during minimize: a valid best-so-far and a working gdb ------------------------------
rm -f fail-6.t.norm
gate_close gt 40
TMPDIR=$W/gt timeout --foreground 300 gdb -batch -nx -ex "source $PLUGIN" -ex run -ex 'tnorm minimize --no-db --generalize --timeout 600' \
	-ex 'echo ALIVE\n' -ex 'tnorm signature' --args "$GATE_D" fail-6.t >int.log 2>&1 &
gpid=$!
# (the first best-so-far comes within the first 10 runs; the 41st run and those after it are
# held and none times out (--timeout 600), so the minimization is still running when Ctrl-C
# comes, however fast the machine; Ctrl-C must stop the held run at once: issue 28, item 6)
gate_wait gt fail-6.t.norm
kill -INT "$gpid"
wait "$gpid"
expect "Ctrl-C: minimize says it was interrupted" grep -q '^interrupted: the best test so far is in' int.log
expect "Ctrl-C: gdb goes on with the next command" grep -qx ALIVE int.log
expect "Ctrl-C: gdb still reads the stop afterwards" grep -q '^SIGABRT at check_node' int.log
"$T" check "$H" fail-6.t.norm >/dev/null 2>&1 && best_ok=1 || best_ok=0
expect "Ctrl-C: the best-so-far file is a valid test" [ $best_ok = 1 ]
expect "Ctrl-C: the best-so-far still fails the same way" sh -c "[ \"\$($T run fail-6.t.norm -- '$D' {} | sed -n 's/^signature: //p')\" = \"\$($T run fail-6.t -- '$D' {} | sed -n 's/^signature: //p')\" ]"

# ---- goto, back, pools, the failing step, step breakpoints, the source view (issue 20) ---------
# fail-1.t.norm (from the story above): 10 steps, the failure during step 9 (avl_delete).
g nav.log -ex 'tnorm run fail-1.t.norm' -ex 'tnorm goto 4' -ex 'tnorm pools' -ex 'tnorm back 2' \
	-ex 'tnorm pools' -ex 'tnorm goto fail' -ex 'tnorm pools' -ex 'tnorm step' -ex 'tnorm back' \
	-ex 'tnorm steps' -ex 'echo ALIVE\n' --args "$D" fail-1.t

g brk.log -ex 'tnorm break 5' -ex 'tnorm break 7' -ex 'tnorm break' -ex 'tnorm delete 7' -ex run -ex 'tnorm pools' \
	-ex run -ex 'tnorm steps' -ex 'tnorm goto 1' -ex continue -ex 'tnorm delete' -ex 'tnorm break' -ex continue \
	-ex 'echo ALIVE\n' --args "$D" fail-1.t.norm

# the string-keyed example: strings as the test wrote them, the tree printed with its keys
printf 'trie0 = trie_new()\nkey0 = "ab"\nval0 = null\ntrie_insert(trie0, key0, val0)\nkey1 = "abc"\nval1 = 7\ntrie_insert(trie0, key1, val1)\ntrie_remove(trie0, key1)\n' >trie.t
g trie.log -ex 'tnorm run trie.t' -ex 'tnorm goto fail' -ex 'tnorm pools' --args "$B/examples/trie/trie_driver_faulty" trie.t

# bad input: one clear message each, and gdb goes on
g nav-bad.log -ex 'tnorm goto 3' -ex 'tnorm pools' -ex 'tnorm run fail-1.t.norm' -ex 'tnorm goto 99' \
	-ex 'tnorm back' -ex 'tnorm goto x' -ex 'tnorm back 0' -ex 'tnorm break 10' -ex 'tnorm delete 4' \
	-ex 'tnorm pools 1' -ex 'echo ALIVE\n' --args "$D"
g nav-help.log -ex 'help tnorm goto' -ex 'help tnorm pools' -ex 'help tnorm break'
# what a newcomer tripped on (issue 32, item 8): a harness name that is the driver's own (kv_put
# is h_put), and the user's breakpoint cutting tnorm back short
printf 'kv0 = kv_new()\nkey0 = "x"\nval0 = 1\nkv_put(kv0, key0, val0)\n' >kv.t
g kvcalls.log -ex 'tnorm run kv.t' -ex 'tnorm goto 3' -ex 'echo ALIVE\n' --args "$B/tests/driver/kv_driver" kv.t
g ubrk.log -ex 'tnorm run fail-1.t.norm' -ex 'tnorm goto 8' -ex 'break avl_insert' -ex 'tnorm back 4' \
	-ex 'echo ALIVE\n' --args "$D" fail-1.t
E='' CRASH='Program received signal SIGABRT'
. "$(dirname "$0")/nav-checks.sh"

# ---- tnorm triage (issue 18): a folder of AVL tests -> the bucket table; tnorm run on bucket 1 ----
triage_folders
g tri.log -ex 'tnorm triage tri -j 2 --thorough --sarif tri.sarif' -ex 'tnorm run' -ex 'echo ALIVE\n' --args "$D" fail-1.t
triage_checks tri.log
# Ctrl-C during triage: it stops, says how to resume, and the debugger goes on; then it resumes.
gate_close gt 400
TMPDIR=$W/gt timeout --foreground 300 gdb -batch -nx -ex "source $PLUGIN" -ex 'tnorm triage trc -j 1 --no-db --thorough --timeout 600' \
	-ex 'echo ALIVE\n' --args "$GATE_D" fail-1.t >trc.log 2>&1 &
gpid=$!
# (the first test's result is written after at most some 290 runs through the gate, counting a
# persistent child's failing candidate made again fresh and the confirm runs; the 401st run and
# those after it are held and none times out, so the triage of six tests cannot end before
# Ctrl-C comes: triage.sh says why 200 was too few)
gate_wait gt trc/triage/results
kill -INT "$gpid"
wait "$gpid"
triage_ctrl_c_checks trc.log
gate_open gt
TMPDIR=$W/gt g trc2.log -ex 'tnorm triage trc -j 2 --no-db --thorough --no-generalize --quiet' --args "$GATE_D" fail-1.t
expect "Ctrl-C: the same command again finishes the triage" grep -q '^trc: 6 tests, 6 failing' trc2.log

# ---- tnorm triage without a harness (issue 17): a crash folder, the program not a tnorm driver ----
J=$TNORM_SUT_DIR/sut_jsonish
if [ -x "$J" ]; then
	crash_folder
	g gen.log -ex 'tnorm triage crashes -j 2 --no-db' -ex 'echo ALIVE\n' --args "$J" @@
	crash_folder_checks gen.log
fi

# ---- bad input: one clear error each, and gdb keeps working ------------------------------------
g bad1.log -ex 'tnorm minimize' -ex 'echo ALIVE\n'
expect "no program: one clear error" sh -c "grep -q '^tnorm: no program: load one first' bad1.log && grep -qx ALIVE bad1.log"
g bad2.log -ex 'tnorm minimize' -ex 'echo ALIVE\n' --args "$D"
expect "no test file: one clear error" sh -c "grep -q '^tnorm: no test file among the program' bad2.log && grep -qx ALIVE bad2.log"
printf 'pool int 2\nfoo(<int>\n' >bad.tnh
g bad3.log -ex 'tnorm minimize --harness bad.tnh' -ex 'echo ALIVE\n' --args "$D" fail-1.t
expect "harness error: file:line in one error" sh -c "grep -qE '^tnorm: bad.tnh:2:[0-9]+: ' bad3.log && grep -qx ALIVE bad3.log"
g bad4.log -ex 'tnorm minimize' -ex 'echo ALIVE\n' --args "$D" pass-1.t
expect "a passing test: one clear error" sh -c "grep -q '^tnorm: the original test does not fail: it passes' bad4.log && grep -qx ALIVE bad4.log"
g badj.log -ex 'tnorm minimize -j 99999999999999999999' -ex 'tnorm minimize -j 257' -ex 'tnorm triage . -j 0' \
	-ex 'echo ALIVE\n' --args "$D" fail-1.t
expect "-j out of 1-256 is refused as the CLI refuses it (issue 39)" sh -c "[ \$(grep -c '^tnorm: -j takes 1 to 256 jobs' badj.log) = 3 ] && grep -qx ALIVE badj.log"
g bad5.log -ex 'tnorm signature' -ex 'tnorm step' -ex 'tnorm frobnicate' -ex 'tnorm step 0' -ex 'echo ALIVE\n' --args "$D" fail-1.t
expect "signature without a stop: one clear error" grep -q '^tnorm: the program is not stopped on a signal' bad5.log
expect "step before run: one clear error" grep -q '^tnorm: no test is being stepped' bad5.log
expect "unknown subcommand: one clear error" grep -q "^tnorm: unknown subcommand 'frobnicate'" bad5.log
expect "bad step count: one clear error" grep -q '^tnorm: tnorm step takes a positive count' bad5.log
expect "gdb keeps working after bad input" grep -qx ALIVE bad5.log
g help.log -ex 'help tnorm' -ex 'help tnorm minimize' -ex 'complete tnorm mi' -ex 'complete tnorm run fail-'
expect "help: the prefix command lists its subcommands" sh -c "grep -q 'tnorm minimize' help.log && grep -q 'tnorm step' help.log"
expect "completion: subcommands and file names" sh -c "grep -qx 'tnorm minimize' help.log && grep -qx 'tnorm run fail-1.t' help.log"

# ---- tnorm why (issue 29): the ranked lines, and the run stopped at one of them ---------------
g why.log -ex 'tnorm why --test fail-1.t.norm --top 3' -ex 'tnorm why 1' -ex 'bt 1' -ex 'tnorm why 9999' \
	-ex 'echo ALIVE\n' --args "$D" fail-1.t
why_checks why.log '^#0 .*avl.c:%s$'
g whyre.log -ex run -ex 'tnorm minimize --no-db -o re.norm' -ex 'tnorm why --top 3' --args "$D" fail-1.t
why_reuse_checks whyre.log
mkdir -p "$W/wr"
TMPDIR=$W/wr g whyraw.log -ex run -ex 'tnorm why --top 3' --args "$D" fail-1.t
why_raw_checks whyraw.log "$W/wr"
g changed.log -ex 'tnorm why --test fail-1.t.norm --top 1' -ex 'tnorm why 1' -ex 'tnorm changed n->height' \
	-ex 'tnorm pools' -ex 'tnorm changed nosuch->x' --args "$D" fail-1.t.norm
changed_checks changed.log
expect "why 9999: one clear error" \
	sh -c "grep -q '^tnorm: no line 9999: the list has' why.log && grep -qx ALIVE why.log"

# ---- back in time inside the failing step: tnorm goto fail --record (issue 41) ------------------
# Each example's normal form, the faulty driver: record the failing step, then from the failure
# go back (software watchpoint + reverse-continue, as a user does) to the line that broke the
# invariant; tnorm changed EXPR on the history must give the re-run's writes of that step and the
# same last writer (the same session, after record stop, runs the test again).
record_case() { # NAME DRIVER TEST FRAME EXPR BACKS WANT: WANT, an ERE for `bt 1` after BACKS reverse-continues
	local name=$1 drv=$2 t=$3 fr=$4 expr=$5 backs=$6 want=$7 rc=() i hist rerun fk
	for i in $(seq "$backs"); do rc+=(-ex reverse-continue); done
	g "rec-$name.log" -ex "tnorm run $t" -ex 'tnorm goto fail --record' -ex 'echo @@BACK\n' \
		-ex "frame function $fr" -ex 'set can-use-hw-watchpoints 0' -ex "watch -l $expr" "${rc[@]}" \
		-ex 'bt 1' -ex 'delete' -ex 'echo @@HIST\n' -ex 'record goto end' -ex "frame function $fr" \
		-ex "tnorm changed $expr" -ex 'echo @@RERUN\n' -ex 'record stop' -ex 'set can-use-hw-watchpoints 1' \
		-ex "tnorm changed $expr" -ex 'echo ALIVE\n' --args "$drv" "$t"
	fk=$(sed -n 's/^STEP \([0-9]*\): .*/\1/p' "rec-$name.log" | tail -1)
	expect "record $name: records from the failing step's start to the failure" sh -c "grep -q '^recording from step $fk on: gdb.s record full, at most [0-9]* instructions' rec-$name.log &&
		grep -q '^the test failed during step $fk: SIGABRT at ' rec-$name.log && grep -q '^recorded [0-9]* instructions, from the start of step $fk' rec-$name.log"
	expect "record $name: $backs reverse-continue(s) from the failure reach the line that broke the invariant" \
		sh -c "sed -n '/^@@BACK/,/^@@HIST/p' rec-$name.log | grep -qE '$want'"
	hist=$(sed -n '/^@@HIST/,/^@@RERUN/p' "rec-$name.log")
	rerun=$(sed -n '/^@@RERUN/,$p' "rec-$name.log")
	expect "record $name: tnorm changed reads the history (no re-run)" sh -c "echo \"\$0\" | grep -q '(read from the history: no re-run)$'" "$hist"
	expect "record $name: tnorm changed with the history lists the re-run's writes of step $fk" \
		[ -n "$(echo "$hist" | grep "^  step $fk ")" -a "$(echo "$hist" | grep "^  step ")" = "$(echo "$rerun" | grep "^  step $fk ")" ]
	expect "record $name: and names the re-run's last writer" \
		[ -n "$(echo "$hist" | grep '^last written by step')" -a "$(echo "$hist" | grep '^last written by step')" = "$(echo "$rerun" | grep '^last written by step')" ]
	expect "record $name: gdb goes on" grep -qx ALIVE "rec-$name.log"
}
for ex in avl htable trie; do
	"$T" minimize --quiet --harness "$SRC/examples/$ex/$ex.tnh" -o "$ex-rec.norm" "$SRC/examples/$ex/tests/fail-1.t" \
		-- "$B/examples/$ex/${ex}_driver_faulty" {} >/dev/null
done
# the tree: the root's left child, emptied by delete without the rebalance
record_case avl "$B/examples/avl/avl_driver_faulty" avl-rec.norm check_node 'n->left' 1 '^#0 .* in delete \(.*\) at .*avl\.c:104$'
# the table: bucket 0's head, first lost by unlink_entry (the fault), then set to the new entry
record_case htable "$B/examples/htable/htable_driver_faulty" htable-rec.norm ht_check 't->bucket[0]' 2 '^#0 .*unlink_entry \(.*\) at .*htable\.c:62$'
# the radix tree: the root's child "a" (a key with a NULL value), unlinked as if it held no key
record_case trie "$B/examples/trie/trie_driver_faulty" trie-rec.norm trie_check 't->root.child' 1 '^#0 .*remove_below \(.*\) at .*trie\.c:230$'
# ASan's runtime (allocator, interceptors) inside the failing step: recorded as it runs
if [ -x "$B/tests/driver/avl_driver_faulty_asan" ]; then
	record_case avl-asan "$B/tests/driver/avl_driver_faulty_asan" avl-rec.norm check_node 'n->left' 1 '^#0 .* in delete \(.*\) at .*avl\.c:104$'
fi
# A sanitizer's report is not recorded (minutes of symbolization): the history ends where it
# starts, and goes back from there to the faulty access.
printf 'ring0 = ring_new()\nint0 = 1\nring_put(ring0, int0)\nring_put(ring0, int0)\nring_put(ring0, int0)\nring_put(ring0, int0)\nring_put(ring0, int0)\n' >ring-asan.t
printf 'ring0 = ring_new()\nint0 = 1\nring_scale(ring0, int0)\nring_scale(ring0, int0)\n' >ring-ubsan.t
for san in asan ubsan; do
	[ -x "$B/tests/driver/ring_driver_$san" ] || continue
	g "rec-$san.log" -ex "tnorm run ring-$san.t" -ex 'tnorm goto fail --record' -ex 'reverse-finish' -ex 'bt 1' \
		-ex 'record goto end' -ex 'record stop' -ex continue -ex 'tnorm signature' --args "$B/tests/driver/ring_driver_$san" "ring-$san.t"
	entry=$([ $san = asan ] && echo __asan_report_store4 || echo __ubsan_handle_mul_overflow)
	line=$([ $san = asan ] && echo 35 || echo 43)
	expect "record $san: the history ends where the report starts ($entry), and says so" \
		grep -q "^the history ends where the sanitizer's report starts ($entry, called from h_[a-z]* ring.c:$line)" "rec-$san.log"
	expect "record $san: reverse-finish goes back to the faulty line" grep -qE "^#0 .* in h_[a-z]+ \(.*\) at .*ring\.c:$line$" "rec-$san.log"
	expect "record $san: record stop then continue runs the report on to the failure" \
		grep -q "^$san:[a-z-]*\(:WRITE\)\? at h_[a-z]* (ring.c:$line)" "rec-$san.log"
done
# A program that is no tnorm driver (a fuzz target with a plain main): its whole run is one step,
# recorded from its entry (LLVMFuzzerTestOneInput) on; tnorm changed on that history gives the
# re-run's writes and last writer.  Its ASan build's report starts inside the memcpy interceptor:
# the history ends there too (without that stop, record full follows the report for minutes).
BAL=$TNORM_SUT_DIR/sut_balance
printf '(x)(!' >bal.t
g rec-whole.log -ex 'tnorm goto fail --record' -ex 'frame function check' -ex 'echo @@HIST\n' \
	-ex 'tnorm changed s->depth' -ex 'echo @@RERUN\n' -ex 'record stop' -ex 'frame function check' \
	-ex 'tnorm changed s->depth' -ex 'tnorm back 1' -ex 'echo ALIVE\n' --args "$BAL" bal.t
hist=$(sed -n '/^@@HIST/,/^@@RERUN/p' rec-whole.log)
rerun=$(sed -n '/^@@RERUN/,$p' rec-whole.log)
expect "record whole run: no driver, the run is one step, recorded from LLVMFuzzerTestOneInput to the failure" \
	sh -c "grep -q '^STEP 0: the run of sut_balance on bal.t, from LLVMFuzzerTestOneInput on' rec-whole.log &&
		grep -q '^the test failed during the run: SIGABRT at check (balance.c:38)' rec-whole.log &&
		grep -q '^recorded [0-9]* instructions, from the start of LLVMFuzzerTestOneInput' rec-whole.log"
expect "record whole run: tnorm changed reads the history (no re-run)" sh -c "echo \"\$0\" | grep -q '(read from the history: no re-run)$'" "$hist"
expect "record whole run: the history's writes are the re-run's (the struct's initialisation included)" \
	[ "$(echo "$hist" | grep -c '^  the run: ')" = 5 -a "$(echo "$hist" | grep '^  the run: ' | sed 's/.*# //')" = "$(echo "$rerun" | grep '^  the run: ' | sed 's/.*# //')" ]
expect "record whole run: the last writer is the planted bug's line, both ways" \
	[ "$(echo "$hist" | grep '^last written')" = "last written in the run, at take balance.c:31: s->depth = -1" -a \
	  "$(echo "$rerun" | grep '^last written')" = "last written in the run, at take balance.c:31: s->depth = -1" ]
expect "record whole run: steps need a driver (one clear error), gdb goes on" \
	sh -c "grep -q '^tnorm: stepping needs a tnorm driver: .*sut_balance does not link' rec-whole.log && grep -qx ALIVE rec-whole.log"
if [ -x "$TNORM_SUT_DIR/sut_balance_asan" ]; then
	printf '#((((((((((' >bal-asan.t
	g rec-whole-asan.log -ex 'tnorm goto fail --record' -ex 'reverse-finish' -ex 'bt 1' -ex 'echo ALIVE\n' \
		--args "$TNORM_SUT_DIR/sut_balance_asan" bal-asan.t
	expect "record whole run, ASan: the history ends where the report starts inside memcpy's interceptor" \
		grep -q "^the history ends where the sanitizer's report starts (__asan::ReportGenericError, called from tagged balance.c:44)" rec-whole-asan.log
	expect "record whole run, ASan: reverse-finish goes back into the interceptor's caller" \
		sh -c "grep -qE '^#0 .* in (__interceptor_memcpy|__asan_memcpy|tagged) ' rec-whole-asan.log && grep -qx ALIVE rec-whole-asan.log"
fi

# the limit: a recording cut by --limit says so, and the next one keeps the whole step
g rec-limit.log -ex 'tnorm run avl-rec.norm' -ex 'tnorm goto fail --record --limit 2000' -ex 'tnorm goto fail --record' \
	-ex 'tnorm goto 3 --record' -ex 'tnorm goto 2 --limit 9' -ex 'tnorm goto fail --record --limit x' -ex 'echo ALIVE\n' \
	--args "$B/examples/avl/avl_driver_faulty" avl-rec.norm
expect "record --limit: a history cut by the limit says so and what it keeps" \
	grep -qE '^the history was cut: from step 9 on the run took ([0-9]+) instructions, the limit keeps the last 2000 \(reverse execution stops at instruction [0-9]+\); tnorm goto 9 --record again keeps them all' rec-limit.log
expect "record: the next recording's limit is twice the measured size, and keeps the whole step" \
	sh -c "grep -qE '^recording from step 9 on: gdb.s record full, at most [0-9]+ instructions \(2 times the [0-9]+ the last recording ran\)$' rec-limit.log &&
		grep -q '^recorded [0-9]* instructions, from the start of step 9' rec-limit.log"
expect "record from an earlier step: from step 3 on to the failure" grep -q '^recorded [0-9]* instructions, from the start of step 3' rec-limit.log
expect "record: bad --limit use is one clear error each" \
	sh -c "grep -q '^tnorm: tnorm goto: --limit goes with --record' rec-limit.log && grep -q \"^tnorm: tnorm goto takes a count of instructions after --limit, not 'x'\" rec-limit.log && grep -qx ALIVE rec-limit.log"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: MIT
# The lldb plugin, in real lldb (lldb -b) on the AVL example, mirroring gdb.sh: crash -> tnorm
# minimize -> tnorm run -> tnorm step; the signature of the stop; Ctrl-C; bad input.
# lldb -b skips the -o commands after a crash (they go in -k) and after a failing command
# (bad-input checks run from a file with `command source -e false`, so lldb goes on).
. "$(dirname "$0")/lib.sh"
# Debian 12's lldb 14 finds its Python module only here (its `lldb -P` is wrong).
export PYTHONPATH=/usr/lib/llvm-14/lib/python3.11/dist-packages${PYTHONPATH:+:$PYTHONPATH}
PLUGIN=$B/lldb-plugin/tnorm_lldb.py
AVL=$SRC/examples/avl
D=$B/examples/avl/avl_driver
H=$AVL/avl.tnh
cp "$AVL/tests/fail-1.t" "$AVL/tests/fail-6.t" "$AVL/tests/pass-1.t" "$W/"
cd "$W" || exit 1

l() { # OUTFILE lldb-args...: lldb in batch mode with the plugin loaded
	local out=$1; shift
	timeout 300 lldb -b -o "command script import $PLUGIN" "$@" >"$out" 2>&1
}
cmds() { # FILE COMMAND...: a command file for `command source -e false`
	local f=$1; shift
	printf '%s\n' "$@" >"$f"
}

# ---- the story: crash, minimize, run, step -----------------------------------------------------
l story.log -o run -k 'tnorm signature' -k 'tnorm minimize' -k 'tnorm run' -k 'tnorm step' \
	-k 'tnorm step' -k 'tnorm step' -k 'tnorm steps' -k 'script print("ALIVE")' -- "$D" fail-1.t
"$T" minimize --quiet --harness "$H" -o cli.norm fail-1.t -- "$D" {} >/dev/null
expect "minimize: the normal form is written beside the test" test -s fail-1.t.norm
expect "minimize: lldb's result is the CLI's normal form" cmp -s fail-1.t.norm cli.norm
expect "minimize: the normal form is printed" sh -c "grep -qx 'avl_delete(avl0, int0)' story.log && grep -q '^written to $W/fail-1.t.norm' story.log"
expect "minimize: the input test is untouched" cmp -s fail-1.t "$AVL/tests/fail-1.t"
cli_sig=$("$T" run fail-1.t -- "$D" {} | sed -n 's/^signature: //p')
lldb_sig=$(grep '^SIGABRT at ' story.log | head -1)
expect "signature: from the SBThread's frames, equal to the signature tnorm run prints" [ -n "$cli_sig" -a "$cli_sig" = "$lldb_sig" ]
for k in 0 1 2 3; do
	want=$(grep -v '^#' fail-1.t.norm | sed -n "$((k + 1))p")
	expect "step: stops at step $k with its text ($want)" grep -qxF "STEP $k: $want" story.log
done
expect "steps: lists the test and marks step 3" grep -qE '^=>  3  int1 = 2$' story.log
expect "lldb keeps working after the story" grep -qx ALIVE story.log

# ---- after tnorm step, a plain continue runs the test to its crash ------------------------------
l cont.log -o 'tnorm run fail-1.t.norm' -o 'tnorm step' -o continue -k 'tnorm signature' -- "$D" fail-1.t
expect "continue: runs on to the crash (the step breakpoint is armed only by tnorm step)" sh -c "grep -q 'stop reason = signal SIGABRT' cont.log && grep -q '^SIGABRT at check_node (avl.c:191)' cont.log"

# ---- generalization notes while stepping -------------------------------------------------------
l gen.log -o run -k 'tnorm minimize --generalize -o fail-1.gen' -k 'tnorm run' -k 'tnorm step' \
	-- "$D" fail-1.t
expect "minimize --generalize: annotated and written" grep -q '# STEP 0$' fail-1.gen
expect "step: prints the step's generalization notes" sh -c "grep -qx 'STEP 1: int0 = 1' gen.log && grep -qE '^    # (or|swaps)' gen.log"

# ---- reduce; a stop that differs from the engine's run of the test: a warning ------------------
l red.log -o run -k 'tnorm reduce --match stack:2 -o fail-1.min' -- "$D" fail-1.t
expect "reduce: works from lldb" sh -c "grep -q '^reduced: 100 -> ' red.log && test -s fail-1.min"
printf 'x\nA\ny\na\nz\n' >bugA.txt
printf 'x\nB\ny\n' >bugB.txt
l warn.log -o run -k 'tnorm reduce bugB.txt -o bugB.min' -k 'tnorm minimize bugA.txt -o bugA.norm' -k 'script print("ALIVE")' -- "$B/tests/suts/sut_twobug" bugA.txt
expect "reduce: a generic (no harness) program works from lldb" sh -c "grep -qx B bugB.min && grep -qx ALIVE warn.log"
expect "minimize: a generic (no harness) program is reduced and normalized from lldb (issue 17)" sh -c "grep -q '^normal form: 10 -> [0-9]* bytes' warn.log && grep -qx A bugA.norm"
expect "a stop that differs from the engine's target: a warning naming both" grep -q "^warning: the debugger's stop (SIGSEGV at bug_a (twobug.c:[0-9]*).*) differs from the engine's run of the test (SIGABRT at bug_b" warn.log

# ---- Ctrl-C during minimize: a valid best-so-far and a working lldb -----------------------------
rm -f fail-6.t.norm
gate_close gt 40
TMPDIR=$W/gt timeout --foreground 300 lldb -b -o "command script import $PLUGIN" -o run -k 'tnorm minimize --no-db --generalize --timeout 600' \
	-k 'script print("ALIVE")' -k 'tnorm signature' -- "$GATE_D" fail-6.t >int.log 2>&1 &
lpid=$!
# (the first best-so-far comes within the first 10 runs; the 41st run and those after it are
# held and none times out (--timeout 600), so the minimization is still running when Ctrl-C
# comes, however fast the machine; Ctrl-C must stop the held run at once: issue 28, item 6)
gate_wait gt fail-6.t.norm
kill -INT "$lpid"
wait "$lpid"
expect "Ctrl-C: minimize says it was interrupted" grep -q '^interrupted: the best test so far is in' int.log
expect "Ctrl-C: lldb goes on with the next command" grep -qx ALIVE int.log
expect "Ctrl-C: lldb still reads the stop afterwards" grep -q '^SIGABRT at check_node' int.log
"$T" check "$H" fail-6.t.norm >/dev/null 2>&1 && best_ok=1 || best_ok=0
expect "Ctrl-C: the best-so-far file is a valid test" [ $best_ok = 1 ]
expect "Ctrl-C: the best-so-far still fails the same way" sh -c "[ \"\$($T run fail-6.t.norm -- '$D' {} | sed -n 's/^signature: //p')\" = \"\$($T run fail-6.t -- '$D' {} | sed -n 's/^signature: //p')\" ]"

# ---- goto, back, pools, the failing step, step breakpoints, the source view (issue 20) ---------
# fail-1.t.norm (from the story above): 10 steps, the failure during step 9 (avl_delete).
# (from a command file: in lldb -b, a crash inside a command ends the -o commands)
cmds cnav 'tnorm run fail-1.t.norm' 'tnorm goto 4' 'tnorm pools' 'tnorm back 2' 'tnorm pools' \
	'tnorm goto fail' 'tnorm pools' 'tnorm step' 'tnorm back' 'tnorm steps' 'script print("ALIVE")'
l nav.log -o 'command source -e false -c false cnav' -- "$D" fail-1.t

# (lldb -b ends its -o commands when `process launch` replaces a live process: kill it first)
l brk.log -o 'tnorm break 5' -o 'tnorm break 7' -o 'tnorm break' -o 'tnorm delete 7' -o 'process launch' \
	-o 'tnorm pools' -o 'process kill' -o 'process launch' -o 'tnorm steps' -o 'tnorm goto 1' -o continue \
	-o 'tnorm delete' -o 'tnorm break' -o continue -k 'script print("ALIVE")' -- "$D" fail-1.t.norm

# the string-keyed example: strings as the test wrote them, the tree printed with its keys
printf 'trie0 = trie_new()\nkey0 = "ab"\nval0 = null\ntrie_insert(trie0, key0, val0)\nkey1 = "abc"\nval1 = 7\ntrie_insert(trie0, key1, val1)\ntrie_remove(trie0, key1)\n' >trie.t
l trie.log -o 'tnorm run trie.t' -o 'tnorm goto fail' -o 'tnorm pools' -- "$B/examples/trie/trie_driver_faulty" trie.t

# bad input: one clear message each, and lldb goes on
cmds cbad 'tnorm goto 3' 'tnorm pools' 'tnorm run fail-1.t.norm' 'tnorm goto 99' 'tnorm back' \
	'tnorm goto x' 'tnorm back 0' 'tnorm break 10' 'tnorm delete 4' 'tnorm pools 1' 'script print("ALIVE")'
l nav-bad.log -o 'command source -e false cbad' -- "$D"
l nav-help.log -o 'help tnorm' -o 'tnorm help'
cmds cj 'tnorm minimize -j 99999999999999999999' 'tnorm minimize -j 257' 'tnorm triage . -j 0' \
	'script print("ALIVE")'
l badj.log -o 'command source -e false cj' -- "$D" fail-1.t
expect "-j out of 1-256 is refused as the CLI refuses it (issue 39)" sh -c "[ \$(grep -c '^error: tnorm: -j takes 1 to 256 jobs' badj.log) = 3 ] && grep -qx ALIVE badj.log"
# what a newcomer tripped on (issue 32, item 8): a harness name that is the driver's own (kv_put
# is h_put), and the user's breakpoint cutting tnorm back short
printf 'kv0 = kv_new()\nkey0 = "x"\nval0 = 1\nkv_put(kv0, key0, val0)\n' >kv.t
l kvcalls.log -o 'tnorm run kv.t' -o 'tnorm goto 3' -- "$B/tests/driver/kv_driver" kv.t
l ubrk.log -o 'tnorm run fail-1.t.norm' -o 'tnorm goto 8' -o 'breakpoint set -n avl_insert' \
	-o 'tnorm back 4' -- "$D" fail-1.t
# tnorm goto fail --record (issue 41): lldb has no reverse execution; one line says so and what to use
cmds crec 'tnorm goto fail --record' 'script print("ALIVE")'
l rec.log -o 'command source -e false crec' -- "$D" fail-1.t.norm
expect "goto fail --record: one line says lldb has no reverse execution, and what to use instead" \
	sh -c "[ \$(grep -c '^error: tnorm: lldb has no reverse execution (no process record): to step backwards in the failing step use gdb (tnorm goto fail --record, docs/gdb.md); here tnorm goto fail, tnorm back N and tnorm changed EXPR run the test again to earlier states$' rec.log) = 1 ] && grep -qx ALIVE rec.log"
E='error: ' CRASH='stop reason = signal SIGABRT'
. "$(dirname "$0")/nav-checks.sh"

# ---- tnorm triage (issue 18): a folder of AVL tests -> the bucket table; tnorm run on bucket 1 ----
triage_folders
l tri.log -o 'tnorm triage tri -j 2 --thorough --sarif tri.sarif' -o 'tnorm run' -o 'script print("ALIVE")' -- "$D" fail-1.t
triage_checks tri.log
# Ctrl-C during triage: it stops, says how to resume, and the debugger goes on; then it resumes.
gate_close gt 400
TMPDIR=$W/gt timeout --foreground 300 lldb -b -o "command script import $PLUGIN" \
	-o 'tnorm triage trc -j 1 --no-db --thorough --timeout 600' -o 'script print("ALIVE")' -- "$GATE_D" fail-1.t >trc.log 2>&1 &
lpid=$!
# (the first test's result is written after at most some 290 runs through the gate, counting a
# persistent child's failing candidate made again fresh and the confirm runs; the 401st run and
# those after it are held and none times out, so the triage of six tests cannot end before
# Ctrl-C comes: triage.sh says why 200 was too few)
gate_wait gt trc/triage/results
kill -INT "$lpid"
wait "$lpid"
triage_ctrl_c_checks trc.log
gate_open gt
TMPDIR=$W/gt l trc2.log -o 'tnorm triage trc -j 2 --no-db --thorough --no-generalize --quiet' -- "$GATE_D" fail-1.t
expect "Ctrl-C: the same command again finishes the triage" grep -q '^trc: 6 tests, 6 failing' trc2.log

# ---- tnorm triage without a harness (issue 17): a crash folder, the program not a tnorm driver ----
J=$TNORM_SUT_DIR/sut_jsonish
if [ -x "$J" ]; then
	crash_folder
	l gen.log -o 'tnorm triage crashes -j 2 --no-db --quiet' -o 'script print("ALIVE")' -- "$J" @@
	crash_folder_checks gen.log
	# issue 40, item 6: stepping a program that is not a driver points at lldb's page
	printf '{"n": 1}' >nd.json
	l nd.log -o 'tnorm run' -- "$J" nd.json
	expect "not a driver: the message points at docs/lldb.md, not gdb's" \
		sh -c "grep -q 'stepping needs a tnorm driver: .*; see docs/lldb.md' nd.log && ! grep -q 'docs/gdb.md' nd.log"
fi

# ---- bad input: one clear error each, and lldb keeps working -----------------------------------
cmds c1 'tnorm minimize' 'script print("ALIVE")'
l bad1.log -o 'command source -e false c1'
expect "no program: one clear error" sh -c "grep -q '^error: tnorm: no program: load one first' bad1.log && grep -qx ALIVE bad1.log"
l bad2.log -o 'command source -e false c1' -- "$D"
expect "no test file: one clear error" sh -c "grep -q '^error: tnorm: no test file among the program' bad2.log && grep -qx ALIVE bad2.log"
printf 'pool int 2\nfoo(<int>\n' >bad.tnh
cmds c3 'tnorm minimize --harness bad.tnh' 'script print("ALIVE")'
l bad3.log -o 'command source -e false c3' -- "$D" fail-1.t
expect "harness error: file:line in one error" sh -c "grep -qE '^error: tnorm: bad.tnh:2:[0-9]+: ' bad3.log && grep -qx ALIVE bad3.log"
l bad4.log -o 'command source -e false c1' -- "$D" pass-1.t
expect "a passing test: one clear error" sh -c "grep -q '^error: tnorm: the original test does not fail: it passes' bad4.log && grep -qx ALIVE bad4.log"
cmds c5 'tnorm signature' 'tnorm step' 'tnorm frobnicate' 'tnorm step 0' 'script print("ALIVE")'
l bad5.log -o 'command source -e false c5' -- "$D" fail-1.t
expect "signature without a stop: one clear error" grep -q '^error: tnorm: the program is not stopped on a signal' bad5.log
expect "step before run: one clear error" grep -q '^error: tnorm: no test is being stepped' bad5.log
expect "unknown subcommand: one clear error" grep -q "^error: tnorm: unknown subcommand 'frobnicate'" bad5.log
expect "bad step count: one clear error" grep -q '^error: tnorm: tnorm step takes a positive count' bad5.log
expect "lldb keeps working after bad input" grep -qx ALIVE bad5.log
l help.log -o 'help tnorm' -o 'tnorm help'
expect "help: lists the subcommands and their options" sh -c "grep -q 'Subcommands: minimize, reduce' help.log && grep -q 'tnorm minimize \[TEST\]' help.log"

# ---- tnorm why (issue 29): the ranked lines, and the run stopped at one of them ---------------
l why.log -o 'tnorm why --test fail-1.t.norm --top 3' -o 'tnorm why 1' -o 'bt 1' -o 'tnorm why 9999' \
	-- "$D" fail-1.t
why_checks why.log 'frame #0: .*avl.c:%s:'
l whyre.log -o run -k 'tnorm minimize --no-db -o re.norm' -k 'tnorm why --top 3' -- "$D" fail-1.t
why_reuse_checks whyre.log
mkdir -p "$W/wr"
TMPDIR=$W/wr l whyraw.log -o run -k 'tnorm why --top 3' -- "$D" fail-1.t
why_raw_checks whyraw.log "$W/wr"
l changed.log -o 'tnorm why --test fail-1.t.norm --top 1' -o 'tnorm why 1' -o 'tnorm changed n->height' \
	-o 'tnorm pools' -o 'tnorm changed nosuch->x' -- "$D" fail-1.t.norm
if hw_watch_fires; then
	changed_checks changed.log
else
	# (lldb -b stops at a command's error: the expression that is no location, on its own)
	l nosuch.log -o 'tnorm why --test fail-1.t.norm --top 1' -o 'tnorm why 1' \
		-o 'tnorm changed nosuch->x' -- "$D" fail-1.t.norm
	changed_lldb_no_watch_checks changed.log nosuch.log
fi
expect "why 9999: one clear error" \
	grep -q 'no line 9999: the list has' why.log

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

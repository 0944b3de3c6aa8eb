# SPDX-License-Identifier: MIT
# Sourced by gdb.sh and lldb.sh (issue 20): what the logs of goto/back/pools/break/delete must
# show, the same in both debuggers.  E is the prefix of a command's error ("" in gdb, "error: " in
# lldb), CRASH a line the debugger prints when the program gets SIGABRT.  The logs: nav.log
# (run fail-1.t.norm, goto 4, pools, back 2, pools, goto fail, pools, step, back, steps), brk.log
# (break 5 and 7, list, delete 7, run, pools, run again, steps, goto 1, continue, delete, list,
# continue), trie.log (run trie.t, goto fail, pools), nav-bad.log and nav-help.log.
sec() { # FILE FROM TO: the lines of FILE after the first line matching FROM, up to one matching TO
	awk -v a="$2" -v b="$3" 'f && $0 ~ b {exit} f {print} $0 ~ a {f=1}' "$1"
}
has() { grep -qE "$1" "$2"; }   # ERE FILE
hasx() { grep -qxF "$1" "$2"; } # LINE FILE

expect "goto: stops before step 4 (STEP line)" hasx 'STEP 4: avl_insert(avl0, int1)' nav.log
expect "goto: the source view names the handler" has '^    handler: h_insert \(driver.c:[0-9]+\)$' nav.log
expect "goto: the source view names the SUT function" has '^    calls:   avl_insert \(avl.c:[0-9]+\)$' nav.log
sec nav.log '^before step 4: ' '^STEP ' >p4.txt
expect "pools at step 4: int1 = 2, assigned by step 3" has '^  int1 = 2 +# assigned by step 3$' p4.txt
expect "pools at step 4: the tree by pointer, printed in order" has '^  avl0 = 0x[0-9a-f]+ \{1\} +# assigned by step 0, changed by step 2$' p4.txt
expect "pools at step 4: nothing that later steps assign" sh -c "! grep -q int2 p4.txt"
sec nav.log '^before step 2: ' '^STEP ' >p2.txt
expect "back 2: lands before step 2" hasx 'STEP 2: avl_insert(avl0, int0)' nav.log
expect "back 2: pools as before step 2 (an empty tree)" has '^  avl0 = 0x[0-9a-f]+ \{\} +# assigned by step 0$' p2.txt
expect "back 2: pools as before step 2 (no int1)" sh -c "! grep -q int1 p2.txt"
expect "goto fail: stops before step 9" hasx 'STEP 9: avl_delete(avl0, int0)' nav.log
expect "goto fail: the step is marked as the failing one" hasx '    # the test fails during this step: SIGABRT at check_node (avl.c:191)' nav.log
expect "goto fail: pools hold the four keys" has '^  avl0 = 0x[0-9a-f]+ \{1, 2, 3, 4\} +# assigned by step 0, changed by step 8$' nav.log
expect "step past the failing step: the failure, during step 9" has '^the test failed during step 9: SIGABRT at check_node \(avl.c:191\)' nav.log
expect "back after the failure: before step 9 again" test "$(grep -cx 'STEP 9: avl_delete(avl0, int0)' nav.log)" = 2
expect "steps: marks the failing step" has '^=>  9  avl_delete\(avl0, int0\)    # the test fails during this step: SIGABRT at check_node' nav.log
expect "the debugger keeps working after goto/back" hasx ALIVE nav.log

expect "break: lists the step breakpoints (5)" hasx '  before step 5: int2 = 3' brk.log
expect "break: lists the step breakpoints (7)" hasx '  before step 7: int3 = 4' brk.log
expect "break: run stops before step 5, again after a second run, and after goto 1" test "$(grep -cx 'tnorm: step breakpoint' brk.log)" = 3
expect "break: the stop shows the step" test "$(grep -cx 'STEP 5: int2 = 3' brk.log)" -ge 3
expect "break: pools at the breakpoint" has '^  avl0 = 0x[0-9a-f]+ \{1, 2\} +# assigned by step 0, changed by step 4$' brk.log
expect "break: steps marks the breakpoint's step" has '^=>  5  int2 = 3$' brk.log
expect "delete: no step breakpoints left" hasx 'no step breakpoints' brk.log
expect "delete: continue runs on to the crash" has "$CRASH" brk.log
expect "the debugger keeps working after the breakpoints" hasx ALIVE brk.log

expect "trie: goto fail stops before the remove" hasx 'STEP 7: trie_remove(trie0, key1)' trie.log
expect "trie: a string value quoted as the test wrote it" has '^  key0 = "ab" +# assigned by step 1$' trie.log
expect "trie: null as the test wrote it" has '^  val0 = null +# assigned by step 2$' trie.log
expect "trie: an integer value" has '^  val1 = 7 +# assigned by step 5$' trie.log
expect "trie: the tree printed with its keys and values" has '^  trie0 = 0x[0-9a-f]+ \{"ab": null, "abc": "7"\} +# assigned by step 0, changed by step 6$' trie.log

expect "goto with no test loaded: one clear error" has "^${E}tnorm: no test loaded: start one with tnorm run TEST" nav-bad.log
expect "pools with no program running: one clear error" has "^${E}tnorm: the program is not running: tnorm run or tnorm goto K starts it" nav-bad.log
expect "goto 99 on a 10-step test: one clear error" hasx "${E}tnorm: no step 99: the test has 10 steps (0 to 9)" nav-bad.log
expect "back at step 0: one clear error" hasx "${E}tnorm: already before step 0: there is no earlier step" nav-bad.log
expect "goto x: one clear error" has "^${E}tnorm: tnorm goto takes a step number or 'fail', not 'x'" nav-bad.log
expect "back 0: one clear error" has "^${E}tnorm: tnorm back takes a positive count" nav-bad.log
expect "break 10 on a 10-step test: one clear error" has "^${E}tnorm: no step 10: the test has 10 steps" nav-bad.log
expect "delete of a step without a breakpoint: one clear error" hasx "${E}tnorm: no step breakpoint on step 4" nav-bad.log
expect "pools with an argument: one clear error" has "^${E}tnorm: tnorm pools takes no arguments" nav-bad.log
expect "the debugger keeps working after bad navigation input" hasx ALIVE nav-bad.log
# issue 32, item 8: kvcalls.log (run kv.t on the kv driver, goto 3), ubrk.log (goto 8, a breakpoint
# on avl_insert, back 4), and nav.log's restarts
expect "source view: a harness name that is the driver's own says the handler, no 'not found'" sh -c \
	"grep -qxF 'STEP 3: kv_put(kv0, key0, val0)' kvcalls.log && grep -qE '^    handler: h_put \(kv.c:[0-9]+\)$' kvcalls.log && ! grep -q 'not found in the program' kvcalls.log"
expect "back stopped by the user's breakpoint: names the breakpoint" has \
	"^${E}tnorm: the program did not reach step 4 \(the program stopped at breakpoint [0-9]+, in avl_insert \(avl.c:[0-9]+\)\)$" ubrk.log
expect "a restart (back, goto) prints no 'Process N exited with status = 9'" sh -c "! grep -q 'exited with status = 9' nav.log"
expect "help: goto has help" has 'tnorm goto K\|fail' nav-help.log
expect "help: pools and break have help" sh -c "grep -q '^tnorm pools' nav-help.log && grep -q '^tnorm break \[K...\]' nav-help.log"

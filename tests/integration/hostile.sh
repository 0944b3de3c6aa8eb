#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 28: what a hostile program under test, a careless command line or an odd file must never
# do to tnorm or to the user's files.  Each check here failed before its fix.
. "$(dirname "$0")/lib.sh"
S=$TNORM_SUT_DIR
PLUGIN_GDB=$B/gdb-plugin/tnorm-gdb.py
PLUGIN_LLDB=$B/lldb-plugin/tnorm_lldb.py
export PYTHONPATH=/usr/lib/llvm-14/lib/python3.11/dist-packages${PYTHONPATH:+:$PYTHONPATH}
cd "$W" || exit 1

# ---- item 5: the program under test signals its parent --------------------------------------------
# sut_signaller sends each signal its input names to its parent (without the fork server, tnorm
# or the debugger), then aborts on "boom".  tnorm must not die, stop or take it for Ctrl-C.
SIGS="USR1 USR2 HUP PIPE ALRM INT TERM TSTP TTIN TTOU"
printf '%s\n' $SIGS x boom y >sig.txt
"$T" reduce --no-db -o sig.min sig.txt -- "$S/sut_signaller" {} >sig.out 2>sig.err; rc=$?
expect "signals from the program: reduce is neither killed nor interrupted (exit $rc)" \
	sh -c "[ $rc = 0 ] && [ \"\$(cat sig.min)\" = boom ]"
mkdir sigdir
for s in $SIGS; do printf '%s\nboom\n%s\n' "$s" "$s" >"sigdir/crash-$s"; done
"$T" triage sigdir -j 2 --no-db -- "$S/sut_signaller" @@ >sigtri.out 2>sigtri.err; rc=$?
expect "signals from the program: triage's workers are neither killed nor interrupted (exit $rc)" \
	sh -c "[ $rc = 0 ] && grep -q '^sigdir: 10 tests, 10 failing, .*: 1 bucket$' sigtri.out"
"$T" run sig.txt -- "$S/sut_signaller" {} >sigrun.out 2>&1; rc=$?
expect "signals from the program: tnorm run reports the failure (exit $rc)" \
	sh -c "[ $rc = 0 ] && grep -q '^signature: SIGABRT at boom' sigrun.out"
for s in USR1 TERM INT; do
	printf '%s\nx\nboom\n' "$s" >"g-$s.txt"
	timeout 300 gdb -batch -nx -ex "source $PLUGIN_GDB" -ex "tnorm reduce g-$s.txt -o g-$s.min" \
		-ex 'echo ALIVE\n' --args "$S/sut_signaller" "g-$s.txt" >"g-$s.log" 2>&1
	expect "signals from the program: SIG$s does not reach gdb" \
		sh -c "grep -q '^written to g-$s.min' g-$s.log && grep -qx ALIVE g-$s.log"
	timeout 300 lldb -b -o "command script import $PLUGIN_LLDB" -o "tnorm reduce g-$s.txt -o l-$s.min" \
		-o 'script print("ALIVE")' -- "$S/sut_signaller" "g-$s.txt" >"l-$s.log" 2>&1
	expect "signals from the program: SIG$s does not reach lldb" \
		sh -c "grep -q '^written to l-$s.min' l-$s.log && grep -qx ALIVE l-$s.log"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

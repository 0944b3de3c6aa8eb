#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 39: what tnorm must never do to files outside its output folder, to an earlier result, or
# leave behind; odd file names in a crash folder.  Each check here failed before its fix.
. "$(dirname "$0")/lib.sh"
AVL=$SRC/examples/avl
D=$B/examples/avl/avl_driver
H=$AVL/avl.tnh
cd "$W" || exit 1

# ---- item 1: a symbolic link for a folder tnorm writes or cleans in OUT is never followed ---------
mkdir s1
cp "$AVL/tests/fail-1.t" "$AVL/tests/fail-2.t" s1/
"$T" triage s1 --harness "$H" --no-db --quiet -- "$D" {} >/dev/null 2>&1; rc=$?
expect "item 1: a first triage" sh -c "[ $rc = 0 ] && [ -d s1/triage/buckets ]"
for sub in buckets results norm claims polish; do
	mkdir -p "else-$sub"
	echo keep >"else-$sub/1-fail-1.t"
	echo keep >"else-$sub/2-x.t"
	echo keep >"else-$sub/fail-1.t.json"
	mv "s1/triage/$sub" "s1/triage/$sub.real"
	ln -s "$W/else-$sub" "s1/triage/$sub"
	"$T" triage s1 --harness "$H" --no-db --quiet -- "$D" {} >/dev/null 2>s1.err; rc=$?
	expect "item 1: OUT/$sub a symbolic link: refused with one error, nothing outside OUT touched ($rc)" \
		sh -c "[ $rc = 1 ] && [ \$(wc -l <s1.err) = 1 ] && grep -q 'triage/$sub is a symbolic link' s1.err && [ \$(ls else-$sub | wc -l) = 3 ] && [ \$(cat else-$sub/* | grep -cx keep) = 3 ]"
	rm "s1/triage/$sub"
	mv "s1/triage/$sub.real" "s1/triage/$sub"
done

# ---- item 2: stopped right after the confirm runs, OUT keeps an earlier (better) result ----------
# The gate holds the first run after the 3 confirm runs, and none times out.
cp "$AVL/tests/fail-1.t" k.t
echo 'an earlier result' >k.min
for how in INT KILL; do
	gate_close "$W/g2$how" 3
	TMPDIR=$W/g2$how setsid "$T" minimize --no-db --harness "$H" --timeout 600 -o k.min k.t -- "$GATE_D" {} >k$how.out 2>k$how.err &
	pid=$!
	gate_wait "$W/g2$how"
	kill -$how -- -$pid
	wait $pid; rc=$?
	expect "item 2: SIG$how right after the confirm runs: the earlier k.min is kept ($rc)" \
		sh -c "grep -qx 'an earlier result' k.min && [ \$(ls k.min* | wc -l) = 1 ]"
	gate_open "$W/g2$how"
done
expect "item 2: Ctrl-C says it wrote nothing, and no 'normal form'" \
	sh -c "grep -q '^k.min: not written: stopped before any improvement' kINT.out && ! grep -q 'normal form' kINT.out"
"$T" minimize --no-db --harness "$H" -o k.min k.t -- "$D" {} >k.out 2>&1; rc=$?
expect "item 2: a complete run writes its result over it" sh -c "[ $rc = 0 ] && ! grep -q 'an earlier result' k.min && '$T' check '$H' k.min >/dev/null"
cp "$AVL/tests/fail-1.t" m.t
"$T" minimize --no-db --harness "$H" -o m.norm m.t -- "$D" {} >/dev/null 2>&1
"$T" minimize --no-db --harness "$H" -o m.again m.norm -- "$D" {} >m.out 2>&1; rc=$?
expect "item 2: a complete run on a test already normal writes it (the input itself)" \
	sh -c "[ $rc = 0 ] && cmp -s m.norm m.again"

# ---- also seen: a symbolic link in a crash folder is not followed, and is listed as not triaged ---
mkdir s6
cp "$AVL/tests/fail-1.t" s6/crash-1
ln -s /etc/passwd s6/evil
ln -s "$W/s6/crash-1" s6/crash-link
"$T" triage s6 --no-harness --no-db -- "$D" {} >s6.out 2>s6.err; rc=$?
expect "a symlink in a crash folder: not triaged, said with the reason, the rest triaged ($rc)" \
	sh -c "[ $rc = 0 ] && grep -q 'not triaged: .*: symbolic links, never followed' s6.err && grep 'not triaged' s6.err | grep -q evil && grep 'not triaged' s6.err | grep -q crash-link && grep -q '^s6: 1 tests' s6.out && ! grep -q 'evil' s6/triage/report.json && [ -z \"\$(ls s6/triage/results | grep -v crash-1)\" ]"

# ---- item 9: any valid file name can be triaged (up to 255 bytes), and triaged again -----------------
mkdir s9
long=$(printf 'crash-%0249d' 0)
cp "$AVL/tests/fail-1.t" "s9/$long"
cp "$AVL/tests/fail-2.t" s9/crash-2
"$T" triage s9 --no-harness --no-db -j 2 -- "$D" {} >s9.out 2>s9.err; rc=$?
expect "item 9: a 255-byte file name: triaged with the others ($rc)" \
	sh -c "[ $rc = 0 ] && grep -q '^s9: 2 tests, 2 failing' s9.out && grep -q '$long' s9/triage/report.json"
"$T" triage s9 --no-harness --no-db -j 2 -- "$D" {} >s9b.out 2>s9b.err; rc=$?
expect "item 9: and again: nothing redone ($rc)" \
	sh -c "[ $rc = 0 ] && grep -q '^s9: 2 tests, 2 failing' s9b.out && ! grep -q ' runs)' s9b.out"

# ---- item 10: what a killed tnorm left is removed by the next run (its PID is gone) ---------------
mkdir s10 t10
cp "$AVL/tests/fail-1.t" s10/
"$T" triage s10 --harness "$H" --no-db --quiet -- "$D" {} >/dev/null 2>&1
sh -c 'exit 0' & dead=$!
wait $dead
touch "s10/triage/norm/fail-1.t.norm.tmp.$dead.abcdef" "s10/triage/results/fail-1.t.json.tmp.$dead.abcdef" \
	"s10/triage/norm/fail-1.t.norm.tmp.$$.abcdef"
mkdir "s10/triage.tmp.$dead.abcdef"
echo marker >"s10/triage.tmp.$dead.abcdef/.tnorm-triage"
touch "t10/tnorm-harness-$dead-abcdef.tnh" "t10/tnorm-why-$dead-abcdef" "t10/tnorm-why-$$-abcdef"
mkdir "t10/tnorm-run-$dead-abcdef"
"$T" triage s10 --harness "$H" --no-db --quiet -- "$D" {} >/dev/null 2>&1; rc=$?
expect "item 10: a dead triage's temporary files in OUT and beside it are removed, a live one's kept ($rc)" \
	sh -c "[ $rc = 0 ] && [ -z \"\$(ls -d s10/triage/*/*.tmp.$dead.* s10/triage.tmp.* 2>/dev/null)\" ] && [ -e s10/triage/norm/fail-1.t.norm.tmp.$$.abcdef ]"
TMPDIR=$W/t10 "$T" run "$AVL/tests/fail-1.t" -- "$D" {} >/dev/null 2>&1
expect "item 10: a dead tnorm's files in \$TMPDIR are removed, a live one's kept ($(ls t10 | tr '\n' ' '))" \
	sh -c "[ \"\$(ls t10)\" = tnorm-why-$$-abcdef ]"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: MIT
# Integration tests of `tnorm reduce` beyond cli.sh: the candidate cache (no candidate runs twice,
# counted by a wrapper that logs a hash of every input it is given), the default output path,
# budgets (--max-runs, --max-time: exit 0, an incomplete but valid best-so-far), determinism for a
# seed, and the JSON summary's counters.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test).
. "$(dirname "$0")/lib.sh"
json_num() { # FILE KEY
	sed -n "s/.*\"$2\": \([0-9][0-9]*\).*/\1/p" "$1"
}

AVL=$SRC/examples/avl
AD=$B/examples/avl

# ---- the cache: every run sees different bytes ------------------------------------------------
cat >"$W/log.sh" <<SH
#!/bin/sh
md5sum <"\$1" | cut -c1-32 >>"$W/runs.log"
exec "$AD/avl_driver" "\$1"
SH
chmod +x "$W/log.sh"
# --timeout 600: no run is killed at its timeout.  With the derived timeout (10 times the confirm
# run, at least 1 s) a load spike after a quick confirm run made some runs time out, killed
# before the script had logged them: the engine counted runs the program never reported (138
# runs, 133 logged; issue 39).  A script is started afresh for every run (no fork server, no
# persistent child), so with no run killed each run the engine counts is one line of the log.
"$T" reduce --quiet --json --confirm 1 --timeout 600 --algo ddmin --harness "$AVL/avl.tnh" -o "$W/c.min" \
	"$AVL/tests/fail-1.t" -- "$W/log.sh" {} >"$W/c.json"; rc=$?
expect "cache: reduce exits 0" [ "$rc" = 0 ]
expect "cache: no input ran twice" [ -z "$(sort "$W/runs.log" | uniq -d)" ]
expect "cache: json runs = runs the program saw (none killed at a timeout)" [ "$(json_num "$W/c.json" runs)" = "$(wc -l <"$W/runs.log")" ]
expect "cache: ddmin met repeated candidates" [ "$(json_num "$W/c.json" cache_hits)" -gt 0 ]
expect "cache: json says complete" grep -q '"complete": true' "$W/c.json"

# ---- default output next to TEST; TEST untouched ------------------------------------------------
cp "$AVL/tests/fail-3.t" "$W/x.t"
sum=$(md5sum <"$W/x.t")
(cd / && "$T" reduce --quiet --harness "$AVL/avl.tnh" "$W/x.t" -- "$AD/avl_driver" {} >"$W/x.out"); rc=$?
expect "default output: exits 0" [ "$rc" = 0 ]
expect "default output: TEST.min next to TEST" "$T" check "$AVL/avl.tnh" "$W/x.t.min"
expect "default output: TEST unchanged" [ "$(md5sum <"$W/x.t")" = "$sum" ]
expect "default output: prints path, length and signature" sh -c "grep -q '^$W/x.t.min: 100 -> [0-9]* steps' '$W/x.out' && grep -q '^signature: SIGABRT at' '$W/x.out'"

# ---- budgets ---------------------------------------------------------------------------------
"$T" reduce --no-db --quiet --json --confirm 1 --max-runs 6 --harness "$AVL/avl.tnh" -o "$W/b.min" \
	"$AVL/tests/fail-2.t" -- "$AD/avl_driver" {} >"$W/b.json" 2>"$W/b.err"; rc=$?
expect "--max-runs: exits 0" [ "$rc" = 0 ]
expect "--max-runs: incomplete" grep -q '"complete": false' "$W/b.json"
expect "--max-runs: at most 6 runs" [ "$(json_num "$W/b.json" runs)" -le 6 ]
expect "--max-runs: best so far is valid and still fails" sh -c "'$T' check '$AVL/avl.tnh' '$W/b.min' >/dev/null && ! '$AD/avl_driver' '$W/b.min' 2>/dev/null"
cat >"$W/slow.sh" <<SH
#!/bin/sh
sleep 0.05
exec "$AD/avl_driver" "\$1"
SH
chmod +x "$W/slow.sh"
"$T" reduce --no-db --quiet --json --confirm 1 --max-time 0.5 --harness "$AVL/avl.tnh" -o "$W/t.min" \
	"$AVL/tests/fail-2.t" -- "$W/slow.sh" {} >"$W/t.json" 2>/dev/null; rc=$?
expect "--max-time: exits 0" [ "$rc" = 0 ]
expect "--max-time: incomplete" grep -q '"complete": false' "$W/t.json"
# Each run sleeps 0.05 s, so 0.5 s hold at most 10 of them (one more may be under way): a count,
# not a wall-clock bound, so that a loaded machine cannot fail it.
expect "--max-time: stops after at most 11 runs of 0.05 s" [ "$(json_num "$W/t.json" runs)" -le 11 ]
expect "--max-time: best so far still fails" sh -c "! '$AD/avl_driver' '$W/t.min' 2>/dev/null"

# ---- determinism for a seed ------------------------------------------------------------------
for k in 1 2; do
	"$T" reduce --quiet --no-slice --algo adaptive --seed 7 --harness "$AVL/avl.tnh" -o "$W/s$k.min" \
		"$AVL/tests/fail-4.t" -- "$AD/avl_driver" {} >/dev/null
done
expect "same seed, same result" cmp -s "$W/s1.min" "$W/s2.min"

# ---- -o never names an input, however spelled (issue 14: compared by device and inode) ----------
cp "$AVL/tests/fail-1.t" "$W/in.t"
cp "$AVL/avl.tnh" "$W/h.tnh"
sum_t=$(md5sum <"$W/in.t")
sum_h=$(md5sum <"$W/h.tnh")
(cd "$W" && "$T" minimize --no-db --quiet --harness h.tnh -o ./in.t in.t -- "$AD/avl_driver" {} \
	>/dev/null 2>"$W/o1.err"); rc=$?
expect "-o ./TEST: refused" sh -c "[ $rc -ne 0 ] && grep -q 'is the input test' '$W/o1.err'"
(cd "$W" && "$T" reduce --no-db --quiet --harness h.tnh -o "$W/in.t" in.t -- "$AD/avl_driver" {} \
	>/dev/null 2>"$W/o2.err"); rc=$?
expect "-o \$PWD/TEST: refused" sh -c "[ $rc -ne 0 ] && grep -q 'is the input test' '$W/o2.err'"
ln "$W/in.t" "$W/hard.t"
"$T" reduce --no-db --quiet --harness "$W/h.tnh" -o "$W/hard.t" "$W/in.t" -- "$AD/avl_driver" {} \
	>/dev/null 2>"$W/o3.err"; rc=$?
expect "-o a hard link of TEST: refused" [ $rc -ne 0 ]
"$T" minimize --no-db --quiet --harness "$W/h.tnh" -o "$W/h.tnh" "$W/in.t" -- "$AD/avl_driver" {} \
	>/dev/null 2>"$W/o4.err"; rc=$?
expect "-o HARNESS: refused" sh -c "[ $rc -ne 0 ] && grep -q 'is the harness' '$W/o4.err'"
ln -s "$W/target.t" "$W/link.t"
echo keep >"$W/target.t"
"$T" reduce --no-db --quiet --harness "$W/h.tnh" -o "$W/link.t" "$W/in.t" -- "$AD/avl_driver" {} \
	>/dev/null 2>"$W/o5.err"; rc=$?
expect "-o SYMLINK: refused, the link kept" sh -c "[ $rc -ne 0 ] && [ -L '$W/link.t' ] && grep -q 'symbolic link' '$W/o5.err'"
expect "inputs unchanged" sh -c "[ \"\$(md5sum <'$W/in.t')\" = '$sum_t' ] && [ \"\$(md5sum <'$W/h.tnh')\" = '$sum_h' ] && [ \"\$(cat '$W/target.t')\" = keep ]"

# ---- databases: somebody else's SQLite file is refused untouched; a read-only one is a warning --
sqlite3 "$W/other.db" "CREATE TABLE accounts(id INTEGER, owner TEXT); INSERT INTO accounts VALUES(1, 'x');"
sum_db=$(md5sum <"$W/other.db")
"$T" reduce --quiet --db "$W/other.db" --harness "$AVL/avl.tnh" -o "$W/db1.min" "$AVL/tests/fail-1.t" \
	-- "$AD/avl_driver" {} >/dev/null 2>"$W/db1.err"; rc=$?
expect "--db OTHER.db: refused, named, untouched" sh -c "[ $rc -ne 0 ] && grep -q 'other.db is not a tnorm result database' '$W/db1.err' && [ \"\$(md5sum <'$W/other.db')\" = '$sum_db' ] && [ \"\$(sqlite3 '$W/other.db' .tables)\" = accounts ]"
"$T" reduce --quiet --db "$W/own.db" --harness "$AVL/avl.tnh" -o "$W/db2.min" "$AVL/tests/fail-1.t" \
	-- "$AD/avl_driver" {} >/dev/null 2>&1
expect "--db NEW.db: created as tnorm's (application_id)" [ "$(sqlite3 "$W/own.db" 'PRAGMA application_id')" = 1953395309 ]
mkdir "$W/ro"
cp "$W/own.db" "$W/ro/ro.db"
chmod 0555 "$W/ro"
chmod 0444 "$W/ro/ro.db"
if [ "$(id -u)" != 0 ]; then
	"$T" reduce --quiet --db "$W/ro/ro.db" --harness "$AVL/avl.tnh" -o "$W/db3.min" \
		"$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >/dev/null 2>"$W/db3.err"; rc=$?
	expect "--db READ-ONLY.db: a warning naming it, and the job is done" sh -c "[ $rc = 0 ] && grep -q 'warning: .*ro.db.*going on without the result cache' '$W/db3.err' && [ \$(grep -c warning '$W/db3.err') = 1 ]"
fi
printf 'this is not a database at all, just text\n%.0s' $(seq 1 200) >"$W/corrupt.db"
"$T" reduce --quiet --db "$W/corrupt.db" --harness "$AVL/avl.tnh" -o "$W/db4.min" \
	"$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >/dev/null 2>"$W/db4.err"; rc=$?
expect "--db CORRUPT.db: a warning naming it, and the job is done" sh -c "[ $rc = 0 ] && grep -q 'warning: .*corrupt.db' '$W/db4.err' && test -s '$W/db4.min'"
chmod 0755 "$W/ro"

# ---- a failure helper inlined and merged (issue 27): the target keeps the helper's message ------
# clang -O1 inlines fail() into main and merges its two abort calls: faults A and B stop at one
# place, told apart by the message only.  The target used to lose it, so every candidate,
# message and all, was a slip and not one byte went.
if command -v clang >/dev/null; then
	clang -g -O1 -o "$W/twofail" "$SRC/tests/suts/twofail.c"
	printf 'aaaa zz bbb xy ccc ddd\nmore lines here\n' >"$W/tf.txt"
	"$T" reduce --no-db -o "$W/tf.min" "$W/tf.txt" -- "$W/twofail" {} >"$W/tf.out" 2>&1; rc=$?
	tf_a=$(grep -n 'fail("key stored twice")' "$SRC/tests/suts/twofail.c" | cut -d: -f1)
	tf_b=$(grep -n 'fail("size mismatch")' "$SRC/tests/suts/twofail.c" | cut -d: -f1)
	expect "inlined failure helper: fault A reduced to its trigger, at its own call of the helper" \
		sh -c "[ $rc = 0 ] && [ \"\$(cat '$W/tf.min')\" = xy ] && grep -q '^signature: SIGABRT at fail (twofail.c:[0-9]*) <- main (twofail.c:$tf_a)' '$W/tf.out'"
	expect "inlined failure helper: fault B, the other call of the merged helper, is a slip" \
		grep -q "^slipped: SIGABRT at fail (twofail.c:[0-9]*) <- main (twofail.c:$tf_b)" "$W/tf.out"
else
	bad "clang is not installed (the README's commands install it)"
fi

# Merged abort sites (issue 27): three checks of one function abort through one call that the
# compiler merged (clang: line 0; gcc: process.cold).  Each check keeps a signature of its own,
# and a reduction of fault C does not slip to fault A, which fires once 'xxx' is gone.
printf '((((((' >"$W/ma-a.txt"
printf ')))' >"$W/ma-b.txt"
printf 'qqqqqqqqqq' >"$W/ma-c.txt"
printf '((((xxxq(' >"$W/ma-ac.txt"
for cc in clang gcc; do
	command -v $cc >/dev/null || { bad "$cc is not installed"; continue; }
	$cc -g -O2 -o "$W/ma-$cc" "$SRC/tests/suts/mergedabort.c"
	for f in a b c; do
		"$T" run "$W/ma-$f.txt" -- "$W/ma-$cc" {} | sed -n 's/^signature: //p' >"$W/ma-$cc-$f.sig"
	done
	expect "merged aborts ($cc -O2): three checks, three signatures" \
		sh -c "[ \$(cat '$W/ma-$cc-a.sig' '$W/ma-$cc-b.sig' '$W/ma-$cc-c.sig' | sort -u | wc -l) = 3 ]"
	expect "merged aborts ($cc -O2): the inlined helper's check is named, with its call's line" \
		grep -q '^SIGABRT at check (mergedabort.c:[0-9]*) <- process (mergedabort.c:[0-9]*) <- main' "$W/ma-$cc-b.sig"
	"$T" reduce --no-db -o "$W/ma-$cc.min" "$W/ma-ac.txt" -- "$W/ma-$cc" {} >"$W/ma-$cc.out" 2>&1
	expect "merged aborts ($cc -O2): reducing fault C does not slip to fault A" \
		sh -c "[ \"\$(cat '$W/ma-$cc.min')\" = '((((xxxq' ] && grep -q '^slipped: ' '$W/ma-$cc.out'"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

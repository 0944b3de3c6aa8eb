#!/bin/bash
# SPDX-License-Identifier: MIT
# The shared PostgreSQL database (issue 19), against a real server started here: the database
# unit tests (record and look up, concurrent writers, kill -9, claims and leases) run unchanged
# against it, and minimize shares its cache through it as through an SQLite file.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg-lib.sh"
trap 'pg_stop; rm -rf "$W"' EXIT
AVL=$SRC/examples/avl
AD=$B/examples/avl

pg_start || { echo "could not start a PostgreSQL server"; exit 1; }
pg_createdb unit && pg_createdb foreign && pg_createdb mini
pg_psql foreign "CREATE TABLE accounts(id INTEGER)"

TNORM_TEST_DB_URL=$(pg_url unit) TNORM_TEST_DB_FOREIGN=$(pg_url foreign) \
	"$B/tests/test_db" >"$W/unit.out" 2>&1
rc=$?
expect "the database unit tests pass against PostgreSQL" [ $rc = 0 ]
[ $rc = 0 ] || cat "$W/unit.out"
expect "their tables are tnorm's: tnorm_outcome, tnorm_normal, tnorm_path, tnorm_claim" sh -c \
	"[ \"\$(. '$(dirname "$0")/pg-lib.sh'; PGSOCK='$PGSOCK'; pg_psql unit \"SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname='public'\")\" = 'tnorm_claim,tnorm_normal,tnorm_outcome,tnorm_path' ]"
expect "another program's database is left untouched" sh -c \
	"[ \"\$(. '$(dirname "$0")/pg-lib.sh'; PGSOCK='$PGSOCK'; pg_psql foreign \"SELECT count(*) FROM pg_tables WHERE schemaname='public'\")\" = 1 ]"

# minimize through the server: the second run of the same test jumps to the known normal form.
URL=$(pg_url mini)
cp "$AVL/tests/fail-1.t" "$W/f.t"
"$T" minimize --quiet --json --harness "$AVL/avl.tnh" --db "$URL" -o "$W/f1.norm" "$W/f.t" \
	-- "$AD/avl_driver" {} >"$W/m1.json" 2>"$W/m1.err"
"$T" minimize --quiet --json --harness "$AVL/avl.tnh" --db "$URL" -o "$W/f2.norm" "$W/f.t" \
	-- "$AD/avl_driver" {} >"$W/m2.json" 2>"$W/m2.err"
expect "minimize --db postgresql://: a second run jumps to the known normal form" sh -c \
	"grep -q '\"known_normal_form\": true' '$W/m2.json' && cmp -s '$W/f1.norm' '$W/f2.norm'"
expect "minimize --db postgresql://: nothing on stderr" sh -c "[ ! -s '$W/m1.err' ] && [ ! -s '$W/m2.err' ]"
"$T" minimize --quiet --harness "$AVL/avl.tnh" --db "postgresql://tnorm:pw@/none?host=$W/nosock" \
	-o "$W/f3.norm" "$W/f.t" -- "$AD/avl_driver" {} >"$W/m3.out" 2>"$W/m3.err"
rc=$?
expect "an unreachable server: a warning naming it (password hidden), and the job goes on" sh -c \
	"[ $rc = 0 ] && grep -q 'cannot connect to the result database' '$W/m3.err' && grep -q 'going on without the result cache' '$W/m3.err' && ! grep -q ':pw@' '$W/m3.err' && cmp -s '$W/f1.norm' '$W/f3.norm'"

# ---- tables named as tnorm's, made by another program (issue 39, item 11) ------------------------
pg_createdb fake
pg_psql fake "CREATE TABLE tnorm_claim(id INTEGER); CREATE TABLE tnorm_outcome(x TEXT)"
"$T" minimize --quiet --harness "$AVL/avl.tnh" --db "$(pg_url fake)" -o "$W/f4.norm" "$W/f.t" \
	-- "$AD/avl_driver" {} >"$W/m4.out" 2>"$W/m4.err"
rc=$?
expect "another program's tnorm_claim and tnorm_outcome: refused in one line" sh -c \
	"[ $rc != 0 ] && [ \$(wc -l <'$W/m4.err') = 1 ] && grep -q 'is not a tnorm result database (its table tnorm_.* is another program.s' '$W/m4.err'"
expect "... and left untouched: nothing created in it" [ "$(pg_psql fake "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname='public'")" = "tnorm_claim,tnorm_outcome" ]

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

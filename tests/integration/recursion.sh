#!/bin/bash
# SPDX-License-Identifier: MIT
# Stack exhaustion (docs/signatures.md, "Stack exhaustion"): a recursion without end dies of
# SIGSEGV wherever the stack ran out (a prologue, a store to a local, the call), at a line that
# changes with the build and, as the stack's start moves, from run to run; the signature names the
# recursion's own frame instead.  tests/suts/recurse.c (bug A: `nest` never returns; bug B: a NULL
# read in `bang`) built with gcc and clang, -O0 to -O2, with and without ASan:
#   - every run of A has the key of the recursive call's line, in every build;
#   - B keeps its own key;
#   - `tnorm reduce` of an A test ends on "(" with A's signature, its runs agreeing;
#   - `tnorm triage` of A and B files gives one bucket each, A's named by the recursion's line.
. "$(dirname "$0")/lib.sh"
cd "$W" || exit 1
S=$SRC/tests/suts/recurse.c
LA=$(grep -n '/\* bug A' "$S" | cut -d: -f1)
LB=$(grep -n '/\* bug B' "$S" | cut -d: -f1)
printf 'xy(ab)c(de!f(g' >a.t
printf 'a!b' >b.t
for v in "gcc -O0" "gcc -O2" "clang -O1 -fsanitize=address" "clang -O2"; do
	exe=rec-$(echo "$v" | tr -c 'a-zA-Z0-9\n' '_')
	$v -g -o "$exe" "$S" || { bad "$v: build"; continue; }
	keys=$(for i in 1 2 3; do "$T" run --match line a.t -- "./$exe" @@ 2>&1 | grep '^key:'; done | sort -u)
	expect "$v: A's runs have one key, the recursive call's line" \
		[ "$keys" = "key: SIGSEGV at nest (recurse.c:$LA)" ]
	[ "$keys" = "key: SIGSEGV at nest (recurse.c:$LA)" ] || echo "#   keys: $keys"
	kb=$("$T" run --match line b.t -- "./$exe" @@ 2>&1 | grep '^key:')
	expect "$v: B keeps its own frame" grep -q "at bang (recurse.c:$LB)" <<<"$kb"
done
for v in "gcc -O0" "clang -O1 -fsanitize=address"; do
	exe=rec-$(echo "$v" | tr -c 'a-zA-Z0-9\n' '_')
	"$T" reduce -o "$exe.min" a.t -- "./$exe" @@ >"$exe.log" 2>&1
	expect "$v: reduce ends on '('" [ "$(cat "$exe.min" 2>/dev/null)" = "(" ]
	expect "$v: reduce's target is the recursion's frame" grep -q "^target: SIGSEGV at nest (recurse.c:$LA)" "$exe.log"
	expect "$v: the original's runs agree" bash -c "! grep -q 'stack differs' '$exe.log'"
done
mkdir tri
printf 'x(' >tri/a1
printf '((((((' >tri/a2
printf 'ab()(cd' >tri/a3
printf '(z)(q(w' >tri/a4
printf '!' >tri/b1
printf 'zz!' >tri/b2
exe=rec-clang__O1__fsanitize_address
"$T" triage --no-db -j 2 -o tri-out tri -- "./$exe" @@ >tri.log 2>&1
expect "triage: two buckets" grep -q ': 2 buckets$' tri.log
expect "triage: A's bucket is named by the recursion's line" \
	grep -q "^== bucket .*: 4 tests (.*); SIGSEGV at nest (recurse.c:$LA)" tri.log
grep -q ': 2 buckets$' tri.log || sed 's/^/#   /' tri.log | head -30
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

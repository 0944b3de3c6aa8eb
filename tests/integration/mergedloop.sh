#!/bin/bash
# SPDX-License-Identifier: MIT
# Merged abort sites at any run length (issue 38, item 1).  tests/suts/cmdloop.c is a
# model-checking driver whose fail() helper is inlined into main's command loop; clang -O1 ASan
# merges its abort calls into one.  A short and a long (5 KB) command file of one bug must print
# one signature, naming fail()'s call site: the checks are told apart by a trap per jump, not by
# a trail of the run (which stopped once per line run and, past 200,000 stops, gave up: the long
# input printed `SIGABRT at main (cmdloop+0x...)`).  The reduction of the long input must end as
# small as the gcc build's, which has no merged call.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test).
. "$(dirname "$0")/lib.sh"

CL=$SRC/tests/suts/cmdloop.c
line_of() { grep -n "fail(\"$1" "$CL" | cut -d: -f1; }
size_line=$(line_of size)
member_line=$(line_of membership)
order_line=$(line_of 'not in order')

if ! command -v clang >/dev/null || ! command -v gcc >/dev/null; then
	bad "clang and gcc are needed (the README's commands install them)"
	echo "$pass passed, $fail failed"
	exit 1
fi
clang -g -O1 -fsanitize=address -o "$W/cl" "$CL" || bad "clang -O1 -fsanitize=address builds cmdloop.c"
gcc -g -O2 -o "$W/gc" "$CL" || bad "gcc -O2 builds cmdloop.c"
expect "clang -O1 merges the abort calls of main into one" \
	[ "$(objdump -d "$W/cl" | awk '/<main>:/,/^$/' | grep -c 'call.*<abort')" = 1 ]

# Bug A (membership) after ~100 bytes, and after 5 KB of commands that never fail.
printf 'i 40\ni 41\nd 40\nx\ni 7\nd 7\ni 5\ni 9\nd 9\nd 5\ni 1\ni 2\ni 3\ni 30\nd 30\nd 1\ni 9\ni 8\nd 8\n# end\n' \
	>"$W/short.txt"
awk 'BEGIN { x = 38; n = 0
	while (n < 5000) {
		x = (x * 1103515245 + 12345) % 2147483648; a = 10 + int(x / 65536) % 50
		x = (x * 1103515245 + 12345) % 2147483648; b = 10 + int(x / 65536) % 50
		s = sprintf("i %d\ni %d\nd %d\nd %d\n", a, b, a > b ? a : b, a > b ? b : a)
		printf "%s", s; n += length(s)
	}
	printf "i 1\ni 2\ni 3\nd 1\ni 4\n" }' >"$W/long.txt"
printf 'i 2\ni 3\ni 4\ni 5\ni 6\ni 1\n' >"$W/b.txt"
printf 'i 5\nd 63\n' >"$W/c.txt"
expect "the long input is 5 KB" [ "$(wc -c <"$W/long.txt")" -gt 5000 ]

for f in short long b c; do
	"$T" run "$W/$f.txt" -- "$W/cl" {} | sed -n 's/^signature: //p' >"$W/$f.sig"
done
want="SIGABRT at fail (cmdloop.c:[0-9]*) <- main (cmdloop.c:$member_line)"
expect "short input: fail()'s call site is named" grep -q "^$want" "$W/short.sig"
expect "long input: fail()'s call site is named" grep -q "^$want" "$W/long.sig"
expect "short and long input: one signature" cmp -s "$W/short.sig" "$W/long.sig"
expect "bug B: the order check's own call site" \
	grep -q "^SIGABRT at fail (cmdloop.c:[0-9]*) <- main (cmdloop.c:$order_line)" "$W/b.sig"
expect "bug C: the size check's own call site" \
	grep -q "^SIGABRT at fail (cmdloop.c:[0-9]*) <- main (cmdloop.c:$size_line)" "$W/c.sig"

# The reduction of the long input: no candidate judged a slip for want of a trail.
"$T" reduce --no-db -o "$W/cl.min" "$W/long.txt" -- "$W/cl" {} >"$W/cl.out" 2>&1; rc=$?
"$T" reduce --no-db -o "$W/gc.min" "$W/long.txt" -- "$W/gc" {} >"$W/gc.out" 2>&1; rc_gc=$?
expect "reduce (clang -O1 ASan): exits 0 at fail()'s call site" \
	sh -c "[ $rc = 0 ] && grep -q '^signature: $want' '$W/cl.out'"
expect "reduce (gcc -O2): exits 0" [ "$rc_gc" = 0 ]
expect "reduce: the clang build's result is as small as the gcc build's" \
	[ "$(wc -c <"$W/cl.min")" -le "$(wc -c <"$W/gc.min")" ]
expect "reduce: the result is bug A's" sh -c "'$W/gc' '$W/cl.min' 2>&1 | grep -q membership"
echo "clang: $(wc -c <"$W/cl.min") bytes, gcc: $(wc -c <"$W/gc.min") bytes"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

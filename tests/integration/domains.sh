#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 16, items 1, 2 and 4, through the kv driver (tests/driver/kv.c, kv.tnh): a failing
# command file from outside the harness becomes a test (tests/driver/import/kv-import.awk) with
# its keys as they are, thanks to the generated key domain; minimize lowers the key in shortlex
# order to the least that still fails ("aa": two letters) and keeps `null`; a step that makes no
# sense (deleting a key that is not there) makes the test invalid (exit 125), and minimize never
# keeps such a candidate.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test).
. "$(dirname "$0")/lib.sh"

D=$B/tests/driver
H=$SRC/tests/driver/kv.tnh
"$T" check "$H" >"$W/out"
expect "check: the generated key domain has 321272407 values" \
	grep -q '^  template 0 (line 7): 642544814 actions from #0, first: key0 = ""$' "$W/out"
awk -f "$SRC/tests/driver/import/kv-import.awk" "$SRC/tests/driver/import/kv-commands.txt" >"$W/in.t"
expect "import: the command file becomes a well-formed test" \
	sh -c "'$T' check '$H' '$W/in.t' | grep -q 'well-formed'"
expect "import: its keys are the command file's own" grep -qx 'key0 = "zebra"' "$W/in.t"
"$D/kv_driver" "$W/in.t" >/dev/null 2>&1; rc=$?
expect "import: the test fails as the command file did (abort)" [ "$rc" = 134 ]
"$T" minimize --quiet --harness "$H" -o "$W/in.norm" "$W/in.t" -- "$D/kv_driver" {} >/dev/null 2>"$W/err"
printf 'kv0 = kv_new()\nkey0 = "aa"\nval0 = null\nkv_put(kv0, key0, val0)\nkv_del(kv0, key0)\n' >"$W/want"
expect "minimize: the key goes down in shortlex order to \"aa\", the value stays null" \
	cmp "$W/want" "$W/in.norm"
printf 'kv0 = kv_new()\nkey0 = "x"\nkv_del(kv0, key0)\n' >"$W/bad.t"
"$D/kv_driver" "$W/bad.t" >/dev/null 2>"$W/err"; rc=$?
expect "invalid: deleting a key that is not there exits 125" [ "$rc" = 125 ]
expect "invalid: ... and says which step" grep -q 'step 2: kv_del(kv0, key0) is invalid' "$W/err"
"$T" run "$W/bad.t" -- "$D/kv_driver" {} >"$W/out"
expect "invalid: the engine reads it as invalid" grep -qx 'outcome: invalid' "$W/out"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

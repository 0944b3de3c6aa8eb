#!/bin/bash
# SPDX-License-Identifier: MIT
# Generic mode's normalization (issue 17): `tnorm minimize` and `tnorm normalize` without a
# harness.  Two crash files of one bug, which differ in content the failure does not need, end in
# byte-identical normal forms (a command interpreter whose bug needs an index rewritten, and a
# JSON parser whose bug needs well-formed text around a nested empty key); a crash file of the
# parser's other bug, which also holds the first bug's trigger, stays with its own bug (the
# signature guard) and files the other one in slipped/.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT, TNORM_SUT_DIR (set by meson test).
. "$(dirname "$0")/lib.sh"
S=$TNORM_SUT_DIR
if [ ! -x "$S/sut_cmds" ] || [ ! -x "$S/sut_jsonish" ]; then
	echo "ok - skipped: no AddressSanitizer builds of the test programs"
	echo "$pass passed, $fail failed"
	exit 0
fi
min() { # OUT IN PROG [OPTIONS...]: minimize IN without a harness; syntax errors (exit 1) are invalid
	local out=$1 in=$2 prog=$3
	shift 3
	"$T" minimize --no-db --quiet --invalid-exit 1 "$@" -o "$out" "$in" -- "$prog" {}
}

# ---- the command interpreter: `detach 2` and `detach 1` must become `detach 0` ---------------------
cp "$SRC/bench/generic/cmds-2.txt" "$W/c1.txt"
printf 'attach sda\n# spare\nattach sdb\nattach sdc\ncount\ndetach 1\nlist\n' >"$W/c2.txt"
min "$W/c1.norm" "$W/c1.txt" "$S/sut_cmds" >"$W/c1.out"; rc1=$?
min "$W/c2.norm" "$W/c2.txt" "$S/sut_cmds" >/dev/null; rc2=$?
expect "cmds: minimize without a harness exits 0" [ "$rc1$rc2" = 00 ]
expect "cmds: two crash files, one normal form" cmp -s "$W/c1.norm" "$W/c2.norm"
expect "cmds: the index lowered, the devices before it gone, the names the lowest word" \
	[ "$(cat "$W/c1.norm")" = "$(printf 'attach 0\nattach 0\ndetach 0\nlist')" ]
expect "cmds: prints the normal form and its rewrites" grep -q '^normal form ([1-9][0-9]* rewrites):$' "$W/c1.out"
expect "cmds: the normal form still fails in list_devices" \
	sh -c "'$S/sut_cmds' '$W/c1.norm' 2>&1 >/dev/null | grep -q 'heap-use-after-free.*' && '$S/sut_cmds' '$W/c1.norm' 2>&1 >/dev/null | grep -q 'in list_devices'"
expect "cmds: the inputs are untouched" cmp -s "$W/c1.txt" "$SRC/bench/generic/cmds-2.txt"
# normalize alone (no reduction first) on a normal form changes nothing
"$T" normalize --no-db --quiet --invalid-exit 1 -o "$W/again.norm" "$W/c1.norm" -- "$S/sut_cmds" {} >/dev/null
expect "cmds: a normal form is a fixpoint of normalize" cmp -s "$W/c1.norm" "$W/again.norm"

# ---- the JSON parser, bug A: an object in an array under the empty key ---------------------------
printf '{"id": 7, "tags": ["x", "y"], "": [{"n": 1}], "ok": true}\n' >"$W/j1.json"
printf '{\n  "meta": {"": [{}, 3]},\n  "list": [{"a": null}]\n}\n' >"$W/j2.json"
min "$W/j1.norm" "$W/j1.json" "$S/sut_jsonish" >/dev/null
min "$W/j2.norm" "$W/j2.json" "$S/sut_jsonish" >/dev/null
expect "json A: two crash files, one normal form" cmp -s "$W/j1.norm" "$W/j2.norm"
expect "json A: the normal form is {\"\":[{}]}" [ "$(cat "$W/j1.norm")" = '{"":[{}]}' ]

# ---- the JSON parser, bug B: a long number; the file also holds bug A's trigger, which B hides ----
printf '{"n": 123456789012345678901234567890, "": [{"k": 1}]}\n' >"$W/b.json"
mkdir "$W/b"
min "$W/b/b.norm" "$W/b.json" "$S/sut_jsonish" >"$W/b.out"; rc=$?
expect "json B: minimize exits 0" [ "$rc" = 0 ]
expect "json B: the normal form still fails in longest_number" \
	sh -c "'$S/sut_jsonish' '$W/b/b.norm' 2>&1 >/dev/null | grep -q 'stack-buffer-overflow' && '$S/sut_jsonish' '$W/b/b.norm' 2>&1 >/dev/null | grep -q 'in longest_number'"
expect "json B: bug A met on the way is filed in slipped/, not taken" \
	sh -c "grep -q '^slipped: asan:heap-buffer-overflow:WRITE at array_label' '$W/b.out' && ls '$W/b/slipped/' | grep -q ."

# ---- options ---------------------------------------------------------------------------------
"$T" generalize --no-db "$W/j1.json" -- "$S/sut_jsonish" {} 2>"$W/err"; rc=$?
expect "generalize without a harness exits 2" sh -c "[ $rc = 2 ] && grep -q 'needs --harness' '$W/err'"
"$T" reduce --no-db --quiet --no-chunks --invalid-exit 1 -o "$W/nc.min" "$W/j1.json" -- "$S/sut_jsonish" {} >/dev/null; rc=$?
expect "reduce --no-chunks: exits 0, still fails" sh -c "[ $rc = 0 ] && ! '$S/sut_jsonish' '$W/nc.min' >/dev/null 2>&1"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

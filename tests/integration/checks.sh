#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 16, item 6: two errors drivers make, caught by tools.  Checks are told apart by their
# signatures: one that returns nonzero by its name (check-failed:NAME), two that call a shared
# fail() helper by the helper's call site.  Checks that run one function cannot be: `tnorm check
# --driver` names them, and `tnorm run` warns when a check failed by returning nonzero (all of
# its failures are then one signature).  `tnorm run` on an invalid test prints the driver's
# reason, naming the user's file rather than tnorm's private copy.  Item 7: tnorm-embed's usage
# names it and says what NAME must match.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test).
. "$(dirname "$0")/lib.sh"

D=$B/tests/driver
H=$SRC/tests/driver/checks.tnh
cd "$W" || exit 1

"$T" check --driver "$D/checks_driver" "$H" >/dev/null 2>"$W/err"; rc=$?
printf '%s\n' "tnorm check: warning: checks not_three ($H:6), also_three ($H:8) run one function in the driver: a failure inside it (an assert, a fail() helper) has the same signature for each, so they cannot be told apart; give each check a name and a function of its own" >"$W/want"
expect "check --driver: names the checks that run one function, with a way out" cmp "$W/want" "$W/err"
expect "check --driver: a warning is not an error (exit 0)" [ "$rc" = 0 ]
"$T" check "$H" >/dev/null 2>"$W/err"
expect "check without --driver: the driver's table is not known, no warning" [ ! -s "$W/err" ]
printf 'pool n 1\n<n> := 0..1\ncheck inv(<n>)\ncheck inv(<n>)\n' >twice.tnh
"$T" check twice.tnh >/dev/null 2>"$W/err"
expect "check: one name declared twice is one function" grep -qx "tnorm check: warning: checks inv (twice.tnh:3), inv (twice.tnh:4) run one function in the driver: .*" "$W/err"
"$T" check --driver /bin/true "$H" >/dev/null 2>"$W/err"; rc=$?
expect "check --driver: a program that is not a driver is an error" \
	sh -c "[ $rc = 1 ] && grep -qx \"tnorm check: '/bin/true --print-hooks' listed no handlers, expected a driver built with this version of the tnorm driver runtime\" '$W/err'"
"$T" check --driver "$W/none" "$H" >/dev/null 2>"$W/err"
expect "check --driver: a program that does not exist is named" \
	grep -qx "tnorm check: cannot run '$W/none': No such file or directory" "$W/err"

for n in 7 3 5; do printf 'n0 = %s\n' $n >c$n.t; "$T" run c$n.t -- "$D/checks_driver" {} >out$n 2>err$n; done
expect "run: a check that returns nonzero fails as check-failed:NAME" grep -q '^signature: check-failed:not_seven' out7
expect "run: ... and tnorm run warns that all its failures are one signature" grep -qx "tnorm run: warning: the check not_seven failed by returning nonzero, so all its failures have this one signature and cannot be told apart; assert each property in the handler instead (docs/driver.md, \"Checks\")" err7
expect "run: two checks that call one fail() helper differ by the call site" \
	sh -c "grep -q '^signature: SIGABRT at fail (checks.c:[0-9]*) <- not_three (checks.c:' out3 && grep -q '^signature: SIGABRT at fail (checks.c:[0-9]*) <- not_five (checks.c:' out5"
expect "run: no warning for a check that aborts itself" [ ! -s err3 ]

printf 'kv0 = kv_new()\nkey0 = "x"\nval0 = 1\nkv_put(kv0, key0, val0)\nkv_del(kv0, key0)\nkv_del(kv0, key0)\n' >bad.t
"$T" run bad.t -- "$D/kv_driver" {} >out
expect "run: an invalid test's reason, from the handler (tnorm_drv_invalid), with the user's file" \
	grep -qx 'reason: bad.t:6: step 5: kv_del(kv0, key0) is invalid for this system: no key "x" to delete' out
printf 'kv0 = kv_new()\nkv_dl(kv0, key0)\n' >typo.t
"$T" run --no-fork-server typo.t -- "$D/kv_driver" {} >out
expect "run: a test that does not parse: the driver's message, with the user's file" \
	grep -qx "reason: typo.t:2:1: unknown action 'kv_dl', expected one of the harness's templates" out
"$T" run --json typo.t -- "$D/kv_driver" {} >out
expect "run --json: the reason is the message" \
	grep -q "\"message\": \"typo.t:2:1: unknown action 'kv_dl', expected one of the harness's templates\"" out

E=$B/core/driver/tnorm-embed
"$E" >/dev/null 2>"$W/err"; rc=$?
cat >"$W/want" <<'EOF'
usage: tnorm-embed INPUT OUTPUT.c NAME

Write OUTPUT.c, a C source defining 'const char NAME[]' with the bytes of INPUT
(a harness file) and a final NUL.  NAME must match the driver's declaration
'extern const char NAME[];', the harness it passes to tnorm_drv_main.
EOF
expect "tnorm-embed: its usage names it and says NAME must match the driver's extern (exit 2)" \
	sh -c "[ $rc = 2 ] && cmp '$W/want' '$W/err'"
"$E" "$H" "$W/h.c" 'my-harness' 2>"$W/err"; rc=$?
expect "tnorm-embed: a NAME that is not a C identifier is refused" \
	sh -c "[ $rc = 2 ] && grep -qxF \"tnorm-embed: NAME 'my-harness' is not a C identifier, expected the name in the driver's 'extern const char NAME[];'\" '$W/err'"
"$E" "$H" "$W/h.c" checks_harness && grep -q '^const char checks_harness\[\] = {$' "$W/h.c"
expect "tnorm-embed: writes const char NAME[]" [ $? = 0 ]

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 16, items 1, 2 and 4, through the kv driver (tests/driver/kv.c, kv.tnh): a failing
# command file from outside the harness becomes a test (tests/driver/import/kv-import.awk) with
# its keys as they are, thanks to the generated key domain; minimize lowers the key in shortlex
# order to the least that still fails ("aa": two letters) and keeps `null`; a step that makes no
# sense (deleting a key that is not there) makes the test invalid (exit 125), and minimize never
# keeps such a candidate; kv_del's guard (requires kv_put of the key) keeps tnorm gen and
# minimize from proposing deletions of keys never put, which saves their runs.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test).
. "$(dirname "$0")/lib.sh"

D=$B/tests/driver
H=$SRC/tests/driver/kv.tnh
"$T" check "$H" >"$W/out"
expect "check: the generated key domain has 321272407 values" \
	grep -q '^  template 0 (line 7): 642544814 actions from #0, first: key0 = ""$' "$W/out"
expect "check: the description names kv_del's guard" \
	grep -q '^  template 5 (line 14): 2 actions from #642544918, first: kv_del(kv0, key0), requires kv_put(<kv>, <key>, _)$' "$W/out"
"$T" check "$SRC/tests/driver/bag.tnh" >"$W/out"
expect "check: the description names the argument bag_add takes (move)" \
	grep -q '^  template 3 (line 11): 4 actions from #13, first: bag_add(bag0, item0), moves <item>$' "$W/out"
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
"$T" check "$H" "$W/bad.t" 2>"$W/err"; rc=$?
expect "guard: deleting a key never put breaks kv_del's guard (tnorm check, with file:line)" \
	sh -c "[ $rc = 1 ] && grep -qxF \"tnorm check: $W/bad.t:3: not well-formed: step 2 (line 3): kv_del(kv0, key0) breaks its guard 'requires kv_put(<kv>, <key>, _)' ($H:14): no earlier step kv_put(kv0, key0, _) with the values these instances hold now\" '$W/err'"
"$D/kv_driver" "$W/bad.t" >/dev/null 2>"$W/err"; rc=$?
expect "guard: the driver refuses the test too (exit 125)" \
	sh -c "[ $rc = 125 ] && grep -q 'kv_del(kv0, key0) breaks its guard' '$W/err'"
(cd "$W" && "$T" minimize --harness "$H" -o bad.norm bad.t -- "$D/kv_driver" {}) >/dev/null 2>"$W/err"
expect "guard: minimize refuses the test with the same message (file:line)" \
	grep -qxF "tnorm minimize: bad.t:3: not well-formed: step 2 (line 3): kv_del(kv0, key0) breaks its guard 'requires kv_put(<kv>, <key>, _)' ($H:14): no earlier step kv_put(kv0, key0, _) with the values these instances hold now" "$W/err"
printf 'kv0 = kv_new()\nkey0 = "x"\nval0 = 1\nkv_put(kv0, key0, val0)\nkv_del(kv0, key0)\nkv_del(kv0, key0)\n' >"$W/twice.t"
"$D/kv_driver" "$W/twice.t" >/dev/null 2>"$W/err"; rc=$?
expect "invalid: deleting a key deleted since keeps the guard, and the handler says invalid (125)" \
	sh -c "[ $rc = 125 ] && grep -q 'step 5: kv_del(kv0, key0) is invalid for this system: no key \"x\" to delete' '$W/err'"
"$T" run "$W/twice.t" -- "$D/kv_driver" {} >"$W/out"
expect "invalid: the engine reads it as invalid" grep -qx 'outcome: invalid' "$W/out"
ok=1
for seed in 1 2 3 4 5; do
	"$T" gen "$H" --steps 200 --seed $seed >"$W/g.t" && "$T" check "$H" "$W/g.t" >/dev/null 2>&1 || ok=0
	grep -q '^kv_del' "$W/g.t" || ok=0
done
expect "guard: tnorm gen draws kv_del only after a kv_put of its key (5 seeds)" [ $ok = 1 ]

# The guard saves runs: minimizing the imported test under the harness without it runs every
# candidate that deletes a key never put, only for the driver to say it is invalid (exit 125).
printf '#!/bin/sh\n"%s" "$@"; rc=$?; echo $rc >>"%s"; exit $rc\n' "$D/kv_driver" "$W/rcs-\$TAG" >"$W/wrap"
chmod +x "$W/wrap"
grep -v '^kv_del' "$H" >"$W/noguard.tnh"
echo 'kv_del(<kv>, <key>)' >>"$W/noguard.tnh"
for tag in guard noguard; do
	h=$H; [ $tag = noguard ] && h=$W/noguard.tnh
	TNORM_DB="$W/$tag.db" "$T" minimize --quiet --env TAG=$tag --harness "$h" -o "$W/$tag.norm" "$W/in.t" -- "$W/wrap" {} >/dev/null 2>&1
	echo "$tag: $(wc -l <"$W/rcs-$tag") runs, $(grep -cx 125 "$W/rcs-$tag") invalid"
done
expect "guard: minimize reaches the same normal form with the guard as without" cmp "$W/guard.norm" "$W/noguard.norm"
expect "guard: ... with no invalid run, and fewer runs" \
	sh -c "[ \$(grep -cx 125 '$W/rcs-guard') = 0 ] && [ \$(grep -cx 125 '$W/rcs-noguard') -gt 0 ] && [ \$(wc -l <'$W/rcs-guard') -lt \$(wc -l <'$W/rcs-noguard') ]"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

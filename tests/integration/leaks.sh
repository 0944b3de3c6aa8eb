#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 16, item 3: drivers with destructors leak nothing, and the engine checks.  The examples'
# fixed drivers and the probe driver, built with ASan (tests/driver/meson.build): every example
# test runs leak-free directly under LeakSanitizer; `tnorm run` on a passing test passes (the
# engine re-runs a pass untraced with detect_leaks=1); a destructor that forgets to free
# (PROBE_LEAK=1) makes a passing test fail as lsan:leak at the allocation; --env
# ASAN_OPTIONS=detect_leaks=0 turns the check off; a driver without destructors is not checked.
# Item 5: with `move` (tests/driver/bag.tnh: bag_add takes its item), generated tests pass
# leak-free or are invalid; the same harness without it makes tests that free an item twice.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test).
. "$(dirname "$0")/lib.sh"

D=$B/tests/driver
if [ ! -x "$D/probe_driver_asan" ]; then
	echo "1..0 # SKIP no ASan drivers (the compiler has no -fsanitize=address)"
	exit 77
fi
for ex in avl htable trie; do
	n=0 leaky=0
	for t in "$SRC/examples/$ex/tests/"*.t; do
		n=$((n + 1))
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$D/${ex}_driver_asan" "$t" >/dev/null 2>"$W/err" ||
			{ leaky=$((leaky + 1)); sed 's/^/  /' "$W/err" | head -20; }
	done
	expect "$ex: all $n example tests pass leak-free under ASan with detect_leaks=1" [ "$leaky" = 0 ]
	"$T" run "$SRC/examples/$ex/tests/pass-1.t" -- "$D/${ex}_driver_asan" {} >"$W/out" 2>&1
	expect "$ex: tnorm run on pass-1.t passes with the leak check on" grep -qx 'outcome: pass' "$W/out"
	expect "$ex: the driver names its destructor (--print-hooks)" \
		sh -c "'$D/${ex}_driver_asan' --print-hooks | grep -q '^destroy '"
done

printf 'n0 = 2\nobj0 = make(n0)\nobj1 = renew()\n' >"$W/p.t"
"$T" run "$W/p.t" -- "$D/probe_driver_asan" {} >"$W/out" 2>&1
expect "probe: a passing test that frees everything passes" grep -qx 'outcome: pass' "$W/out"
"$T" run --env PROBE_LEAK=1 "$W/p.t" -- "$D/probe_driver_asan" {} >"$W/out" 2>&1
expect "probe: a destructor that does not free fails the test as a leak" \
	grep -q '^signature: lsan:leak at \(make\|renew\) (probe.c:[0-9]*)' "$W/out"
"$T" run --env PROBE_LEAK=1 --env ASAN_OPTIONS=detect_leaks=0 "$W/p.t" -- "$D/probe_driver_asan" {} \
	>"$W/out" 2>&1
expect "probe: --env ASAN_OPTIONS=detect_leaks=0 turns the check off" grep -qx 'outcome: pass' "$W/out"
# A program that is no tnorm driver with destructors is never asked, and never checked: the
# plain probe (no ASan) passes as before, and so does a script.
"$T" run "$W/p.t" -- "$D/probe_driver" {} >"$W/out" 2>&1
expect "probe without ASan: passes" grep -qx 'outcome: pass' "$W/out"

H=$SRC/tests/driver/bag.tnh
sed 's/move <item>/<item>/' "$H" >"$W/nomove.tnh"
for v in move nomove; do
	h=$H
	[ $v = nomove ] && h=$W/nomove.tnh
	: >"$W/$v.out"
	for seed in 2 3 4 6 7 8; do
		"$T" gen "$h" --steps 30 --seed $seed >"$W/g.t"
		"$T" run --timeout 5 "$W/g.t" -- "$D/bag_driver_asan" --harness "$h" {} >>"$W/$v.out" 2>&1
	done
	echo "$v: $(grep '^outcome:' "$W/$v.out" | sort | uniq -c | tr -s ' \n' ' ')"
done
expect "move: every generated test passes leak-free, or is invalid" \
	sh -c "! grep '^outcome:' '$W/move.out' | grep -qv 'outcome: \(pass\|invalid\)'"
expect "without move: the generator makes tests that free an item twice (false failures)" \
	grep -q '^signature: asan:\(double-free\|heap-use-after-free\)' "$W/nomove.out"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

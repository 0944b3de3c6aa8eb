#!/bin/sh
# SPDX-License-Identifier: MIT
# The main job of the README: build tnorm, then tell the AVL story end to end:
#   1. a long failing test: check it, run it, show its failure signature;
#   2. reduce it to a 1-minimal test with the same signature;
#   3. minimize (reduce + normalize) two different failing tests: one canonical test;
#   4. generalize it: which values and orders in it are accidental;
#   5. the same in gdb: run -> crash -> tnorm minimize -> tnorm run -> tnorm step, then move
#      around in the test: tnorm goto fail, tnorm pools, tnorm back, tnorm steps.
# Results go to build/story/; the example's files are never modified.
# usage: sh examples/avl/story.sh [TEST]   (from the source root)
set -eu
cd "$(dirname "$0")/../.."
if [ -f build/build.ninja ]; then meson setup --reconfigure build >/dev/null; else meson setup build >/dev/null; fi
ninja -C build >/dev/null
T=build/core/cli/tnorm
D=build/examples/avl/avl_driver
H=examples/avl/avl.tnh
TEST=${1:-examples/avl/tests/fail-1.t}
OUT=build/story
rm -rf "$OUT"
mkdir -p "$OUT"

echo "== 1. a long failing test: $TEST"
$T check "$H" "$TEST"
$T run "$TEST" -- "$D" {}

echo
echo "== 2. tnorm reduce: a 1-minimal test with the same signature"
$T reduce --quiet --harness "$H" -o "$OUT/fail.min" "$TEST" -- "$D" {}
echo "-- $OUT/fail.min:"
cat "$OUT/fail.min"
echo "-- it still fails the same way:"
$T run "$OUT/fail.min" -- "$D" {} | grep '^signature:'

echo
echo "== 3. tnorm minimize: two different failing tests, one normal form"
$T minimize --quiet --harness "$H" -o "$OUT/fail-1.norm" examples/avl/tests/fail-1.t -- "$D" {} | head -1
$T minimize --quiet --harness "$H" -o "$OUT/fail-2.norm" examples/avl/tests/fail-2.t -- "$D" {} | head -1
echo "-- $OUT/fail-1.norm:"
cat "$OUT/fail-1.norm"
if cmp -s "$OUT/fail-1.norm" "$OUT/fail-2.norm"; then
	echo "-- fail-2.t normalizes to the same test"
else
	echo "-- fail-2.t normalizes to:"
	cat "$OUT/fail-2.norm"
fi

echo
echo "== 4. tnorm generalize: what in the normal form is accidental (still a runnable test)"
$T generalize --quiet --harness "$H" -o "$OUT/fail-1.gen" "$OUT/fail-1.norm" -- "$D" {} | sed 1,2d

echo
echo "== 5. in gdb: run -> crash -> tnorm signature -> tnorm minimize -> tnorm run -> tnorm step -> goto, pools, back"
cp "$TEST" "$OUT/crash.t"
gdb -batch -nx -ex "source build/gdb-plugin/tnorm-gdb.py" \
	-ex run -ex 'tnorm signature' -ex 'tnorm minimize --quiet' -ex 'tnorm run' \
	-ex 'tnorm step' -ex 'tnorm goto fail' -ex 'tnorm pools' -ex 'tnorm back 2' -ex 'tnorm pools' \
	-ex 'tnorm step' -ex 'tnorm steps' \
	--args "$D" "$OUT/crash.t" 2>&1 | grep -v -e '^\[Thread debugging' -e '^Using host libthread_db'

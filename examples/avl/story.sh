#!/bin/sh
# SPDX-License-Identifier: MIT
# The main job of the README: build tnorm, then tell the AVL story end to end:
#   1. a long failing test: check it, run it, show its failure signature;
#   2. reduce it to a 1-minimal test with the same signature.
# (Normalization and the gdb session join this story as they land.)
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

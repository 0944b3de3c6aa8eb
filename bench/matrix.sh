#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/matrix.sh: the signature matrix of issue 12 (tests/integration/matrix-lib.sh) under three
# match policies -- the default (`line`), `--match stack:3` and `--match kind` -- as one table:
# variant | program | policy | outcome | runs.  Outcomes: held (the reduced test still meets bug
# A and B was filed in slipped/), slipped (the reduction ended on B or elsewhere), no-B (A held
# but B was never told apart), split (A was also filed in slipped/: one bug counted twice),
# no-frames (held, but only because A has no frames at all and B has some), or
# build/sut/no-fail/error.  Runs: the `runs` of `tnorm reduce --json`.
#
# usage: bash bench/matrix.sh            (from anywhere, after `meson setup build && ninja -C build`;
#        BUILD=dir for another build, MATRIX_ONLY=regex to filter "VARIANT PROGRAM",
#        MATRIX_JOBS=n parallel reductions, default 2)
# Prints the table on stdout, then one summary line per policy.  Work folder: BUILD/matrix-bench.
set -u
cd "$(dirname "$0")/.." || exit 2
SRC=$PWD
B=${BUILD:-build}
T=$SRC/$B/core/cli/tnorm
W=$SRC/$B/matrix-bench
[ -x "$T" ] || { echo "build first: meson setup $B && ninja -C $B" >&2; exit 2; }
export TNORM_DB=off
. tests/integration/matrix-lib.sh
rm -rf "$W"
mkdir -p "$W"
echo "| variant | program | policy | outcome | runs |"
echo "|---|---|---|---|---|"
for policy in default stack:3 kind; do
	opts=()
	[ $policy = default ] || opts=(--match "$policy")
	start=$(date +%s)
	mx_all "$W/$policy" "${opts[@]}" | grep -v '^#' >"$W/$policy.res"
	echo "$policy: $(($(date +%s) - start)) s" >&2
	while IFS='|' read -r label o runs; do
		echo "| ${label% *} | ${label##* } | $policy | $o | $runs |"
	done <"$W/$policy.res"
done
echo
for policy in default stack:3 kind; do
	printf '%s:' "$policy"
	cut -d'|' -f2 "$W/$policy.res" | sort | uniq -c | awk '{printf " %s %s", $2, $1}'
	echo " (of $(wc -l <"$W/$policy.res"))"
done

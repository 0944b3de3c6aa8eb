#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/triage1000.sh: `tnorm triage -j 2` of 1,000 failing AVL tests (issue 15), wall and CPU.
#
# The failures come from `tnorm fuzz examples/avl/avl.tnh` (100-step tests, the faulty driver):
# two fuzzers side by side on disjoint seed ranges (1.. and 100000001..), each stopping at half
# the failures, into one temporary folder.  Then the folder is triaged with two workers and a
# fresh database, and the figures are printed: fuzz runs, runs/s and CPU; triage wall, CPU (user
# + sys of tnorm and everything it ran) and the buckets.  At the fuzzer's 0.5 % failing rate,
# 1,000 failures take about 200,000 runs.
#
# usage: bash bench/triage1000.sh        (from anywhere, after `meson setup build && ninja -C build`)
#        BUILD=dir another build; N=count failures (default 1000); JOBS=n triage workers
#        (default 2); KEEP=1 keeps the work folder (printed); TRIAGE_OPTS="--no-fork-server" etc.
set -u
cd "$(dirname "$0")/.." || exit 2
SRC=$PWD
B=${BUILD:-build}
T=$SRC/$B/core/cli/tnorm
D=$SRC/$B/examples/avl/avl_driver_faulty
N=${N:-1000}
JOBS=${JOBS:-2}
[ -x "$T" ] && [ -x "$D" ] || { echo "build first: meson setup $B && ninja -C $B" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/triage1000.XXXXXX") || exit 3
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$W"' EXIT
mkdir -p "$W/corpus"
echo "$(uptime)"
echo "== fuzz: $N failures, two fuzzers (commit $(git rev-parse --short HEAD 2>/dev/null || echo ?))"
half=$(((N + 1) / 2))
TIMEFORMAT="fuzz: %R s wall, %U s user, %S s sys"
time {
	"$T" fuzz examples/avl/avl.tnh --seed 1 --runs 0 --max-time 36000 --max-failures "$half" \
		-o "$W/corpus" --quiet -- "$D" {} >"$W/fuzz1.txt" 2>&1 &
	"$T" fuzz examples/avl/avl.tnh --seed 100000001 --runs 0 --max-time 36000 \
		--max-failures $((N - half)) -o "$W/corpus" --quiet -- "$D" {} >"$W/fuzz2.txt" 2>&1 &
	wait
}
head -1 "$W/fuzz1.txt" "$W/fuzz2.txt"
rm -f "$W"/corpus/*.sig
echo "tests: $(ls "$W"/corpus/*.t | wc -l)"
echo "== triage -j $JOBS ${TRIAGE_OPTS:-}"
TIMEFORMAT="triage: %R s wall, %U s user, %S s sys"
# shellcheck disable=SC2086
time "$T" triage "$W/corpus" --harness examples/avl/avl.tnh -j "$JOBS" --db "$W/cache.db" \
	-o "$W/triage" ${TRIAGE_OPTS:-} -- "$D" {} >"$W/triage.txt" 2>&1
echo "triage exit status: $?"
grep -E 'tests, .* failing|^== bucket' "$W/triage.txt" | sed -e 's/; SIGABRT.*//'
[ "${KEEP:-0}" = 1 ] && echo "work folder: $W"
exit 0

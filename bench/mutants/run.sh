#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/mutants: mutants of the AVL example, as in section 3.1 of the normalization paper.
# For each mutant (bench/mutants/mutate.py): build a driver, `tnorm fuzz` random 100-step tests
# until K fail (or N runs), `tnorm triage` them, and count distinct signatures and distinct
# normalized tests.  Then slippage: for pairs of killed mutants applied together, reduce failing
# tests with the signature guard (--match line) and without it (--match any), and count the
# reductions whose result no longer fails on the original test's own fault (ground truth: the
# single mutants).
#
# usage: bash bench/mutants/run.sh [MUTANTS [RUNS [KEEP [PAIRS]]]]   (from the source root,
#        SLIP_ONLY=1 for the slippage part alone on the last run's mutants; BUILD=dir for another build;
#        after `meson setup build && ninja -C build`; default 40 mutants, 300 runs, 10 tests, 10 pairs)
# Prints the tables on stdout (progress on stderr).  Work folder: build/mutants.
set -u
cd "$(dirname "$0")/../.." || exit 2
NM=${1:-40}
RUNS=${2:-300}
KEEP=${3:-10}
PAIRS=${4:-10}
B=${BUILD:-build}
T=$B/core/cli/tnorm
H=examples/avl/avl.tnh
M=$B/mutants
[ -x "$T" ] || { echo "build first: meson setup $B && ninja -C $B" >&2; exit 2; }
export TNORM_DB=off

build_driver() { # SOURCE.c OUT
	cc -O0 -g -w -DAVL_FIXED -Iexamples/avl -Icore/include -o "$2" examples/avl/driver.c examples/avl/print.c "$1" \
		"$B/examples/avl/avl_harness.c" "$B/core/driver/libtnorm_driver.a" "$B/core/libtnorm_model.a" \
		2>/dev/null
}

if [ -z "${SLIP_ONLY:-}" ]; then # SLIP_ONLY=1: only the slippage part, on the last run's mutants
rm -rf "$M"
mkdir -p "$M"
/usr/bin/python3 bench/mutants/mutate.py examples/avl/avl.c "$M/src" --max "$NM" >&2 || exit 2
echo "| mutant | line | mutation | failing / runs | signatures | distinct normalized | buckets |"
echo "|---|---|---|---|---|---|---|"
killed=0 perfect=0 perfect_bk=0 sum_norm=0 sum_bk=0 equiv=0 broken=0
: >"$M/killed.tsv"
while IFS=$'\t' read -r id line kind what; do
	d=$M/$id
	mkdir -p "$d"
	if ! build_driver "$M/src/$id.c" "$d/drv"; then
		broken=$((broken + 1)); echo "$id: does not compile" >&2; continue
	fi
	# A mutant that breaks even the empty test is not a fault of a test: skip it.
	printf '' >"$d/empty.t"
	if ! "$T" run "$d/empty.t" --timeout 2 -- "$d/drv" {} >/dev/null 2>&1; then
		broken=$((broken + 1)); echo "$id: fails on the empty test" >&2; continue
	fi
	"$T" fuzz "$H" --runs "$RUNS" --max-failures "$KEEP" --timeout 2 -o "$d/corpus" --quiet \
		-- "$d/drv" {} >"$d/fuzz.out" 2>/dev/null
	nf=$(ls "$d/corpus" 2>/dev/null | grep -c '\.t$')
	runs=$(sed -n 's/^[^:]*: \([0-9]*\) runs.*/\1/p' "$d/fuzz.out")
	if [ "$nf" = 0 ]; then
		equiv=$((equiv + 1)); echo "$id: not killed in $runs runs" >&2; continue
	fi
	"$T" triage "$d/corpus" --harness "$H" -j 2 --no-generalize --quiet --timeout 5 \
		--max-time-per-test 120 -- "$d/drv" {} >"$d/triage.out" 2>&1
	read -r nsig nnorm nok nbk < <(/usr/bin/python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))
print(r['distinct_signatures'], r['distinct_normalized'], r['failing'], len(r['buckets']))" "$d/corpus/triage/report.json" 2>/dev/null || echo "- - 0 -")
	if [ "$nok" = 0 ] || [ "$nnorm" = - ]; then
		echo "$id: triage found no confirmed failure (flaky or timeouts)" >&2; continue
	fi
	killed=$((killed + 1))
	sum_norm=$((sum_norm + nnorm))
	sum_bk=$((sum_bk + nbk))
	[ "$nnorm" = 1 ] && perfect=$((perfect + 1))
	[ "$nbk" = 1 ] && perfect_bk=$((perfect_bk + 1))
	printf '%s\t%s\t%s\n' "$id" "$line" "$d/corpus" >>"$M/killed.tsv"
	echo "| $id | $line | $what | $nf / $runs | $nsig | $nnorm | $nbk |"
	echo "$id: $nf failing, $nsig signatures, $nnorm normalized, $nbk buckets" >&2
done <"$M/src/list.tsv"
echo
if [ "$killed" -gt 0 ]; then
	/usr/bin/python3 -c "
k,s,p,b,pb=$killed,$sum_norm,$perfect,$sum_bk,$perfect_bk
print('| mutants | not compiling / failing on the empty test | not killed | killed | mean distinct normalized | exactly 1 | mean buckets | exactly 1 bucket |')
print('|---|---|---|---|---|---|---|---|')
print('| $NM | $broken | $equiv | %d | %.2f | %d (%.0f%%) | %.2f | %d (%.0f%%) |' % (k, s / k, p, 100.0 * p / k, b / k, pb, 100.0 * pb / k))"
fi
fi

# ---- slippage: pairs of killed mutants on different lines, applied together ---------------------
# Every AVL fault is caught by the same invariant check, so signatures cannot tell the two faults
# of a double mutant apart; the ground truth is which single mutant a test fails on.  A failing
# test of the double mutant that fails on exactly one of the two single mutants is reduced with
# the signature guard (--match line) and without it (--match any); the reduction slipped when the
# reduced test no longer fails on that mutant (it now shows the other fault only).
echo
echo "| pair | attributable failing tests | slipped with --match line | slipped with --match any |"
echo "|---|---|---|---|"
fails_on() { # DRIVER TEST: exit 0 when the test fails on the driver
	"$T" run "$2" --timeout 5 -- "$1" {} 2>/dev/null | grep -q '^outcome: fail'
}
np=0 tot=0 sl_line=0 sl_any=0
mapfile -t K <"$M/killed.tsv"
half=$(( (${#K[@]} + 1) / 2 ))
for ((a = 0; a < half && np < PAIRS; a++)); do
	b=$((a + half))
	[ "$b" -lt "${#K[@]}" ] || break
	IFS=$'\t' read -r ida la _ <<<"${K[a]}"
	IFS=$'\t' read -r idb lb _ <<<"${K[b]}"
	[ "$la" = "$lb" ] && continue
	p=$M/pair-$ida-$idb
	mkdir -p "$p"
	/usr/bin/python3 - "$M/src/$ida.c" "$M/src/$idb.c" "$la" "$lb" "$p/both.c" <<'PY' || continue
import sys
a, b = open(sys.argv[1]).read().splitlines(True), open(sys.argv[2]).read().splitlines(True)
la, lb = int(sys.argv[3]) - 1, int(sys.argv[4]) - 1
out = list(a)
out[lb] = b[lb]
open(sys.argv[5], "w").write("".join(out))
PY
	build_driver "$p/both.c" "$p/drv" || continue
	"$T" fuzz "$H" --runs "$RUNS" --max-failures 8 --timeout 2 -o "$p/corpus" --quiet \
		-- "$p/drv" {} >/dev/null 2>&1
	nt=0 l=0 y=0
	for t in "$p"/corpus/*.t; do
		[ -f "$t" ] || continue
		fa=0; fb=0
		fails_on "$M/$ida/drv" "$t" && fa=1
		fails_on "$M/$idb/drv" "$t" && fb=1
		[ $((fa + fb)) = 1 ] || continue # not attributable to one fault
		if [ $fa = 1 ]; then own=$M/$ida/drv; else own=$M/$idb/drv; fi
		nt=$((nt + 1))
		for m in line any; do
			"$T" reduce --quiet --no-db --harness "$H" --match "$m" --timeout 5 --max-time 120 \
				-o "$t.$m" "$t" -- "$p/drv" {} >/dev/null 2>&1
			if ! fails_on "$own" "$t.$m"; then
				if [ $m = line ]; then l=$((l + 1)); else y=$((y + 1)); fi
			fi
		done
	done
	[ "$nt" = 0 ] && continue
	np=$((np + 1)); tot=$((tot + nt)); sl_line=$((sl_line + l)); sl_any=$((sl_any + y))
	echo "| $ida+$idb | $nt | $l | $y |"
	echo "pair $ida+$idb: $nt tests, slipped $l (line) / $y (any)" >&2
done
if [ "$tot" -gt 0 ]; then
	/usr/bin/python3 -c "
t,l,y=$tot,$sl_line,$sl_any
print()
print('slippage over %d pairs, %d reductions each way: %.1f%% with the signature guard (--match line), %.1f%% without (--match any)' % ($np, t, 100.0*l/t, 100.0*y/t))"
else
	echo
	echo "slippage: no pair had a failing test attributable to one of its two faults"
fi

#!/bin/bash
# SPDX-License-Identifier: MIT
# tnorm why (issue 29): the lines that make a normal form fail, ranked over its neighbours' runs
# with line coverage.  Planted bugs whose lines are marked in tests/suts; the AVL example's seeded
# fault; the lines a program's children run (issue 39); --json; bad input.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT, TNORM_SUT_DIR (set by meson test).
. "$(dirname "$0")/lib.sh"
S=$TNORM_SUT_DIR
cd "$W" || exit 1
line_of() { grep -n -F -- "$2" "$1" | head -1 | cut -d: -f1; }

# ---- bytes: a planted bug first -----------------------------------------------------------------
if [ -x "$S/sut_opcodes" ]; then
	printf '\x05\xff\x06\x00' >ob
	"$T" why --top 3 ob -- "$S/sut_opcodes" @@ >ob.out 2>&1; rc=$?
	b=$(line_of "$SRC/tests/suts/opcodes.c" BUG_B_LINE)
	expect "opcodes bug B: its line first, with its source text" \
		sh -c "[ $rc = 0 ] && grep -A1 '^   1 ' ob.out | sed -n 1p | grep -q '^   1 .* opcodes.c:$b lookup' && grep -A1 '^   1 ' ob.out | sed -n 2p | grep -qF 'r = table[index];'"
	expect "the minimization's runs one edit away from the normal form are reused as neighbours" \
		grep -qE '^[1-9][0-9]* of the neighbours were run by the minimization too \(0 came to another outcome this time\)$' ob.out
	"$T" why --json --normal ob -- "$S/sut_opcodes" @@ >ob.json; rc=$?
	expect "--json: lines best first with file, line, function, score, failing, passing; the neighbours with outcomes" \
		python3 -c "
import json, sys
d = json.load(open('ob.json'))
l = d['lines'][0]
assert $rc == 0 and l['file'].endswith('opcodes.c') and l['line'] == $b and l['function'] == 'lookup'
assert all(k in l for k in ('score', 'failing', 'passing'))
assert [x['score'] for x in d['lines']] == sorted((x['score'] for x in d['lines']), reverse=True)
assert d['neighbours'] and {n['outcome'] for n in d['neighbours']} <= {'fail', 'pass', 'other-failure', 'invalid', 'timeout', 'error'}
assert any(n['outcome'] == 'pass' for n in d['neighbours']) and d['runs'] == len(d['neighbours']) + 1
"
	# tworoots: bug B's value parser, not the name parser that shares its crash line.
	printf 'v-3\n' >tb
	"$T" why --json tb -- "$S/sut_tworoots" @@ >tb.json; rc=$?
	expect "tworoots bug B: the value parser's lines above the name parser's" \
		python3 -c "
import json
d = json.load(open('tb.json'))
f = [l['function'] for l in d['lines']]
assert $rc == 0 and 'name_slot' not in f[:5] and 'value_slot' in f[:5], f[:8]
"
else
	bad "the AddressSanitizer test programs are not built"
fi

# ---- a harness test: the AVL example's seeded fault -------------------------------------------------
A=$B/examples/avl
fault=$(line_of "$SRC/examples/avl/avl.c" 'the fault: the height is updated')
"$T" why --json --harness "$SRC/examples/avl/avl.tnh" "$SRC/examples/avl/tests/fail-1.t" -- "$A/avl_driver_faulty" {} >avl.json; rc=$?
expect "avl: the first line is within 3 lines of the seeded fault (avl.c:$fault)" \
	python3 -c "
import json
d = json.load(open('avl.json'))
l = d['lines'][0]
assert $rc == 0 and l['file'].endswith('avl.c') and abs(l['line'] - $fault) <= 3, l
"

# ---- issue 40, item 6: a tnorm driver without --harness; the driver runtime's lines --------------
# b: the harness compiled into the driver is used (its steps edited), as minimize and triage do;
# as bytes, nearly every neighbour was invalid.
"$T" why --json "$SRC/examples/avl/tests/fail-1.t" -- "$A/avl_driver_faulty" {} >avlh.json 2>avlh.err; rc=$?
expect "6b: without --harness, the driver's own harness: few invalid neighbours, the fault first" \
	python3 -c "
import json
d = json.load(open('avlh.json'))
inv = sum(n['outcome'] == 'invalid' for n in d['neighbours'])
l = d['lines'][0]
assert $rc == 0 and 2 * inv < len(d['neighbours']), (inv, len(d['neighbours']))
assert l['file'].endswith('avl.c') and abs(l['line'] - $fault) <= 3, l
"
# c: no line of tnorm's driver runtime (core/driver, core/src, core/preload, compiled into the
# driver) is ranked; the example's own driver.c, which shares a base name with the runtime's, is.
expect "6c: the driver runtime's lines are left out by full path; the user's driver.c is kept" \
	python3 -c "
import json, os
d = json.load(open('avl.json'))
core = os.path.realpath('$SRC/core') + '/'
files = {os.path.realpath(l['file']) for l in d['lines']}
assert not [f for f in files if f.startswith(core)], sorted(f for f in files if f.startswith(core))
assert os.path.realpath('$SRC/examples/avl/driver.c') in files, files
"

# ---- issue 39, item 8: lines the program's children run are covered -------------------------------
# vforker's vfork child runs code in the memory it shares with the program (the first to hit a
# breakpoint there), its fork child in a copy; each line marked VF_ counts in every run, failing
# or passing.  Then a second vfork child execs the program again and handles an int3 of its own:
# nothing of the probe's is in its image.
vf_check() { # JSON RC MARKERS N: the N lines with a marker, each counted in every run of JSON
	python3 -c "
import json, re
src = open('$SRC/tests/suts/vforker.c').read().split('\n')
want = [i + 1 for i, t in enumerate(src) if re.search(r'/\* VF_($3)', t)]
d = json.load(open('$1'))
got = {l['line']: (l['failing'], l['passing']) for l in d['lines'] if l['file'].endswith('vforker.c')}
assert $2 == 0 and d['failing'] > 0 and d['passing'] > 0 and len(want) == $4, (d['failing'], d['passing'], want)
miss = [n for n in want if got.get(n) != (d['failing'], d['passing'])]
assert not miss, ('not counted in every run', miss, [got.get(n) for n in miss])
"
}
printf '!ab' >vf.t
"$T" why --json --normal vf.t -- "$S/sut_vforker" @@ no-exec >vf.json 2>vf.err; rc=$?
expect "item 8: every line a vfork or fork child ran is covered, in every run ($rc)" \
	vf_check vf.json $rc 'VFORK|FORK|MAIN' 13
"$T" why --json --normal vf.t -- "$S/sut_vforker" @@ >vfx.json 2>vfx.err; rc=$?
expect "item 8: a vfork child that exec'd the program runs its own int3; the lines before its exec are covered ($rc)" \
	vf_check vfx.json $rc 'VFORK|FORK|MAIN|EXEC' 16

# ---- bad input --------------------------------------------------------------------------------------
printf 'x' >pass.t
"$T" why --normal pass.t -- "$S/sut_opcodes" @@ >/dev/null 2>err; rc=$?
expect "a test that does not fail: exit 4, one clear line" sh -c "[ $rc = 4 ] && [ \$(wc -l <err) = 1 ] && grep -q 'does not fail' err"
cp "$SRC/tests/suts/twowords.c" tw.c && gcc -O0 -o tw tw.c
printf 'alpha omega' >tw.t
"$T" why --normal tw.t -- ./tw {} >/dev/null 2>err; rc=$?
expect "a program without a line table: exit 1, says to build with -g" sh -c "[ $rc = 1 ] && [ \$(wc -l <err) = 1 ] && grep -q -- 'with -g' err"
"$T" why --no-db --normal --top 1 ob -- "$S/sut_opcodes" @@ >nodb.out 2>err; rc=$?
expect "issue 40, item 6: why takes --no-db as every other command does (it uses no database)" \
	sh -c "[ $rc = 0 ] && grep -q '^   1 ' nodb.out"
"$T" why tw.t >/dev/null 2>err; rc=$?
expect "no command: usage, exit 2" sh -c "[ $rc = 2 ] && grep -q 'missing the command' err"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

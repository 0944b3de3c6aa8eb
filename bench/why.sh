#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 29's ground truth for `tnorm why`: programs whose faulty lines are known (the examples'
# seeded faults, tests/suts' planted bugs).  For each case, `tnorm why --json` on a failing test,
# and the rank of the first line within 3 lines of a faulty line: tnorm's ranking, and plain
# Ochiai over the same runs (ties in Ochiai's score counted at their average position, what a
# random order among them gives).  Prints one table.
#   bash bench/why.sh [BUILD]         (BUILD: a build with -Dtests=true, default build)
# The real-library cases (md4c's fixed bugs) are in bench/groundtruth/README.md: their
# builds are not made by anything in this repository.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-build}" && pwd)
T=$B/core/cli/tnorm
S=$B/tests/suts
W=$(mktemp -d "${TMPDIR:-/tmp}/tnorm-why-bench-XXXXXX")
trap 'rm -rf "$W"' EXIT

# line_of FILE MARKER: the line of MARKER in FILE
line_of() { grep -n -F -- "$2" "$1" | head -1 | cut -d: -f1; }

# rank JSON FILE LINES...: "tnorm-rank ochiai-rank lines runs seconds" for the first ranked line
# within 3 lines of one of LINES in a file named FILE
rank() {
	python3 - "$@" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
base, faults = sys.argv[2], [int(x) for x in sys.argv[3:]]
def near(l):
    return os.path.basename(l["file"]) == base and any(abs(l["line"] - f) <= 3 for f in faults)
lines = d["lines"]
tn = next((i + 1 for i, l in enumerate(lines) if near(l)), None)
och = None
best = None
for i, l in enumerate(lines):
    if near(l) and (best is None or l["ochiai"] > best):
        best = l["ochiai"]
if best is not None:
    above = sum(1 for l in lines if l["ochiai"] > best)
    ties = sum(1 for l in lines if l["ochiai"] == best)
    och = above + (ties + 1) / 2
print(tn if tn else "-", ("%.1f" % och) if och else "-", len(lines), d["runs"], d.get("reused", 0), d["seconds"])
PY
}

# case NAME FILE "LINES" [--harness H] TEST -- CMD...
row() {
	local name=$1 file=$2 lines=$3 out
	shift 3
	out=$W/$(echo "$name" | tr -c 'a-zA-Z0-9\n' _)
	if "$T" why --json "$@" >"$out.json" 2>"$out.err"; then
		read -r tn och n runs reused secs < <(rank "$out.json" "$file" $lines)
		printf '| %s | %s:%s | %s | %s | %s | %s | %s | %s |\n' "$name" "$file" "${lines// /,}" "$tn" "$och" "$n" "$runs" "$reused" "$secs"
	else
		printf '| %s | %s:%s | error: %s |  |  |  |  |  |\n' "$name" "$file" "${lines// /,}" "$(tail -1 "$out.err")"
	fi
}

echo "| case | faulty lines | rank (tnorm why) | rank (plain Ochiai, ties averaged) | lines ranked | runs | of them reused from the minimization | seconds |"
echo "|---|---|---|---|---|---|---|---|"
for ex in avl htable trie; do
	case $ex in
	avl) f=avl.c; l="$(line_of "$SRC/examples/avl/avl.c" 'the fault: the height is updated')" ;;
	htable) f=htable.c; l="$(line_of "$SRC/examples/htable/htable.c" 'the fault: the entries before e')" ;;
	trie) f=trie.c; l="$(line_of "$SRC/examples/trie/trie.c" 'the fault: a key with a NULL value')" ;;
	esac
	row "$ex/fail-1.t" "$f" "$l" --harness "$SRC/examples/$ex/$ex.tnh" "$SRC/examples/$ex/tests/fail-1.t" \
		-- "$B/examples/$ex/${ex}_driver_faulty" {}
done
printf '{"":[{}]}' >"$W/ja"
row "jsonish bug A" jsonish.c "$(line_of "$SRC/tests/suts/jsonish.c" 'BUG A:') $(line_of "$SRC/tests/suts/jsonish.c" 'BUG_A_LINE')" \
	--invalid-exit 1 "$W/ja" -- "$S/sut_jsonish" @@
printf '{"n": 123456789012345678901234567890}' >"$W/jb"
row "jsonish bug B" jsonish.c "$(line_of "$SRC/tests/suts/jsonish.c" 'BUG_B_LINE')" --invalid-exit 1 "$W/jb" -- "$S/sut_jsonish" @@
printf '\x07\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90\x91\x92\x00' >"$W/oa"
row "opcodes bug A" opcodes.c "$(line_of "$SRC/tests/suts/opcodes.c" 'BUG_A_LINE')" "$W/oa" -- "$S/sut_opcodes" @@
printf '\x05\xff\x06\x00' >"$W/ob"
row "opcodes bug B" opcodes.c "$(line_of "$SRC/tests/suts/opcodes.c" 'BUG_B_LINE')" "$W/ob" -- "$S/sut_opcodes" @@
printf 'attach usb\nattach eth\ndetach 0\nrename 0 k\n' >"$W/cm"
row "cmds" cmds.c "$(line_of "$SRC/tests/suts/cmds.c" 'BUG: any other slot')" "$W/cm" -- "$S/sut_cmds" @@
printf 'nqwrtyzxcvbnm\n' >"$W/ta"
row "tworoots bug A" tworoots.c "$(line_of "$SRC/tests/suts/tworoots.c" '/* bug A:')" "$W/ta" -- "$S/sut_tworoots" @@
printf 'v-3\n' >"$W/tb"
row "tworoots bug B" tworoots.c "$(line_of "$SRC/tests/suts/tworoots.c" '/* bug B:')" "$W/tb" -- "$S/sut_tworoots" @@

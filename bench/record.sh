#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 41: what `tnorm goto fail --record` costs in gdb.  For each case (an example's normal form
# on its faulty driver, the AVL tree built with ASan, and the ring whose failing step ends in an
# ASan or a UBSan report), one real `gdb -batch -nx` session: tnorm goto fail then continue
# (no record: the baseline), tnorm goto fail --record, tnorm changed EXPR on the history, then
# record stop and tnorm changed EXPR by re-running the test (which stops where a sanitizer's
# report starts, as the recording does; not for ring-ubsan, see bench/README.md).  CPU is gdb's own user+sys (the
# recording and the replay are gdb's work) plus its reaped children's (the re-runs'), from
# getrusage inside gdb; wall is shown too (the machine is shared).  Prints one table.
# Cases of programs that are no tnorm driver (a fuzz target with a plain main: the whole run is
# the failing step, recorded from LLVMFuzzerTestOneInput on), e.g. the real bugs of the
# ground-truth corpora (bench/groundtruth), come from RECORD_CASES: one case a line,
# "NAME PROGRAM TEST FRAME EXPR" (the normal form TEST is run as PROGRAM TEST).
#   bash bench/record.sh [BUILD]     (BUILD: a build with the tests' drivers, default build)
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-build}" && pwd)
T=$B/core/cli/tnorm
W=$(mktemp -d "${TMPDIR:-/tmp}/tnorm-record-bench-XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

# `timed LABEL COMMAND`: run a gdb command, print "@@ LABEL cpu wall"
cat >timed.py <<'PY'
import resource, time
import gdb


def _cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


class Timed(gdb.Command):
    def __init__(self):
        super().__init__("timed", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        label, cmd = arg.split(None, 1)
        c0, w0 = _cpu(), time.monotonic()
        try:
            gdb.execute(cmd)
        finally:
            gdb.write("@@ %s %.2f %.2f\n" % (label, _cpu() - c0, time.monotonic() - w0))


Timed()
PY

for ex in avl htable trie; do
	"$T" minimize --quiet --harness "$SRC/examples/$ex/$ex.tnh" -o "$ex.norm" \
		"$SRC/examples/$ex/tests/fail-1.t" -- "$B/examples/$ex/${ex}_driver_faulty" {} >/dev/null
done
printf 'ring0 = ring_new()\nint0 = 1\nring_put(ring0, int0)\nring_put(ring0, int0)\nring_put(ring0, int0)\nring_put(ring0, int0)\nring_put(ring0, int0)\n' >ring-asan.t
printf 'ring0 = ring_new()\nint0 = 1\nring_scale(ring0, int0)\nring_scale(ring0, int0)\n' >ring-ubsan.t

# case NAME DRIVER TEST FRAME EXPR [norerun]
cases=(
	"avl $B/examples/avl/avl_driver_faulty avl.norm check_node n->left"
	"htable $B/examples/htable/htable_driver_faulty htable.norm ht_check t->bucket[0]"
	"trie $B/examples/trie/trie_driver_faulty trie.norm trie_check t->root.child"
	"avl-asan $B/tests/driver/avl_driver_faulty_asan avl.norm check_node n->left"
	"ring-asan $B/tests/driver/ring_driver_asan ring-asan.t h_put at"
	"ring-ubsan $B/tests/driver/ring_driver_ubsan ring-ubsan.t h_scale - norerun"
	"balance $B/tests/suts/sut_balance $SRC/bench/record-balance.t check s->depth whole"
)
while read -r line; do
	[ -n "$line" ] && cases+=("$line whole")
done <<<"${RECORD_CASES-}"
printf '%-11s %6s %12s %16s %19s %18s %9s\n' case steps instructions "goto+continue s" "goto --record s" "changed, history" "re-run s"
printf '%-11s %6s %12s %16s %19s %18s %9s\n' "" "" "" "cpu (wall)" "cpu (wall)" "cpu (wall)" "cpu"
for c in "${cases[@]}"; do
	set -- $c
	name=$1 drv=$2 t=$3 fr=$4 expr=$5 rerun=(-ex 'record stop' -ex "frame function $fr" -ex "timed rerun tnorm changed $expr")
	[ "${6-}" = norerun ] && rerun=()
	load=(-ex "tnorm run $t")
	[ "${6-}" = whole ] && load=()  # (no steps to load: the program's argument is the test)
	# (EXPR "-": no tnorm changed.  The UBSan ring's handler has no location that the step
	# changes before the report: its local r holds the pointer of the step before, so tnorm
	# changed found nothing in the history and ran the test again, report and all.)
	history=(-ex "frame function $fr" -ex "timed history tnorm changed $expr")
	[ "$expr" = - ] && history=()
	[ -x "$drv" ] || continue
	log=$name.log
	timeout 1200 gdb -batch -nx -ex "source $B/gdb-plugin/tnorm-gdb.py" -ex "source timed.py" \
		"${load[@]}" -ex 'timed plain tnorm goto fail' -ex 'timed cont continue' \
		-ex 'timed record tnorm goto fail --record' -ex 'info record' "${history[@]}" "${rerun[@]}" \
		--args "$drv" "$t" >"$log" 2>&1
	get() { awk -v k="$1" '$1 == "@@" && $2 == k {printf "%s", $'"$2"'}' "$log"; }
	steps=$(grep -vc '^#' "$t")
	[ "${6-}" = whole ] && steps=whole
	insns=$(sed -n 's/^Log contains \([0-9]*\) instructions.*/\1/p' "$log" | head -1)
	plain_cpu=$(python3 -c "print('%.2f' % ($(get plain 3) + $(get cont 3)))")
	plain_wall=$(python3 -c "print('%.2f' % ($(get plain 4) + $(get cont 4)))")
	printf '%-11s %6s %12s %16s %19s %18s %9s\n' "$name" "$steps" "${insns:-?}" \
		"$plain_cpu ($plain_wall)" "$(get record 3) ($(get record 4))" \
		"$(h=$(get history 3); [ -n "$h" ] && echo "$h ($(get history 4))" || echo -)" \
		"$(r=$(get rerun 3); echo "${r:--}")"
	[ "$expr" = - ] || grep -q '^last written \(by step\|in the run\)' "$log" || echo "    ($name: no 'last written' line)"
done

# SPDX-License-Identifier: MIT
# Shared by the integration scripts (sourced): the environment meson test sets, a scratch folder
# removed on exit, and a tiny TAP-like reporter ending in "N passed, N failed".
set -u
T=$TNORM_EXE
SRC=$TNORM_SOURCE_ROOT
B=$TNORM_BUILD_ROOT
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# The cross-test database of this run only: the source tree stays clean and runs stay independent.
export TNORM_DB="$W/tests-cache.db"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }
expect() { # DESCRIPTION COMMAND...: the command must succeed
	local d=$1; shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}

# Interrupt and kill tests wait for a condition, never for a time (issue 28, item 13).  GATE_D is
# the AVL driver behind a gate (tests/driver/gate.c): with `gate_close DIR N`, every run after the
# N-th of an engine whose TMPDIR is DIR blocks until it is killed, so the job is still running
# when the test acts.  gate_wait DIR [PATH...] waits until a run is held and each PATH is a
# non-empty file or a folder with a .json result in it (it fails after 5 minutes: a guard against
# a hang, not a timing); gate_open DIR lets the held runs and all after them go on.
GATE_D=$B/tests/driver/avl_driver_gate
gate_close() {
	mkdir -p "$1" && rm -f "$1"/tnorm-gate* && echo "$2" >"$1/tnorm-gate"
}
gate_wait() {
	local d=$1 f ready
	shift
	for _ in $(seq 1 3000); do
		ready=1
		[ -e "$d/tnorm-gate.held" ] || ready=0
		for f in "$@"; do
			if [ -d "$f" ]; then ls "$f"/*.json >/dev/null 2>&1 || ready=0; else [ -s "$f" ] || ready=0; fi
		done
		[ $ready = 1 ] && return 0
		sleep 0.1
	done
	echo "gate_wait: no held run in $d after 5 minutes" >&2
	return 1
}
gate_open() {
	rm -f "$1/tnorm-gate"
}

# Ctrl-C in a debugger (gdb.sh, lldb.sh) is `kill -INT` of a `timeout --foreground 300 DEBUGGER`:
# without --foreground, timeout passes the signal on twice (to its child, then to its process
# group), and lldb 14 ends at once (_exit) on a second SIGINT that comes, on another thread,
# while it still handles the first; a terminal's Ctrl-C is one SIGINT.

# `tnorm triage` in a debugger (gdb.sh, lldb.sh; issue 18).  triage_folders: tri/ (fail-1..3 and
# pass-1) and its copy cli-tri/, trc/ (fail-1..6) for the Ctrl-C check.  triage_checks LOG: what
# the debugger printed for `tnorm triage tri -j 2` then `tnorm run`, and its report against the
# CLI's.  triage_ctrl_c_checks LOG: what it printed when Ctrl-C stopped `tnorm triage trc`.
triage_folders() {
	mkdir tri cli-tri trc
	for k in 1 2 3; do cp "$AVL/tests/fail-$k.t" tri/; done
	cp "$AVL/tests/pass-1.t" tri/
	cp tri/*.t cli-tri/
	for k in 1 2 3 4 5 6; do cp "$AVL/tests/fail-$k.t" trc/; done
}
triage_checks() {
	# (the plugins print the library's summary, as the CLI does: issue 42 items 1 and 5)
	expect "triage: the counts and the buckets, as the CLI prints them" sh -c "grep -q '^tri: 4 tests, 3 failing, 1 distinct signatures, 3 distinct reduced, 1 distinct normalized: 1 bucket$' $1 &&
		grep -q '^== bucket 1: 3 tests; SIGABRT at check_node (avl.c:191) <- ' $1 && grep -q '^   representative fail-1.t (tri/triage/buckets/1-fail-1.t)' $1"
	expect "triage: a line per test as it is done" sh -c "[ \$(grep -c ': 100 -> 10 steps' $1) = 3 ] && grep -q '^not triaged: pass-1.t: notfail' $1"
	"$T" triage cli-tri --quiet --thorough --harness "$H" -j 2 --sarif cli-tri.sarif -- "$D" {} >/dev/null 2>&1
	expect "triage --sarif FILE: the CLI's SARIF, one result per bucket, the same fingerprints" python3 -c "import json,sys; k=lambda f:[(r['ruleId'],r['partialFingerprints'],r['locations']) for r in json.load(open(f))['runs'][0]['results']]; a,b=k(sys.argv[1]),k(sys.argv[2]); sys.exit(not (len(a)==1 and a==b))" tri.sarif cli-tri.sarif
	expect "triage: the report is the CLI's (same buckets, normal forms, tests)" python3 -c "import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); k=lambda r:[(x['count'],x['signature'],x['normal_form'],x['tests']) for x in r['buckets']]; sys.exit(k(a)!=k(b))" tri/triage/report.json cli-tri/triage/report.json
	expect "triage: tnorm run then starts bucket 1's annotated test" sh -c "grep -q 'tnorm run: .*tri/triage/norm/fail-1.t.gen' $1 && grep -q '^STEP 0: ' $1"
}
triage_ctrl_c_checks() {
	expect "Ctrl-C: triage says how far it got and how to resume" grep -q '^interrupted: [0-9]* of 6 tests done; run the same command again to resume' "$1"
	expect "Ctrl-C: the debugger goes on with the next command" grep -qx ALIVE "$1"
}
# `tnorm triage` without a harness in a debugger (gdb.sh, lldb.sh; issue 17): crash_folder makes
# crashes/ (one crash file per bug of sut_jsonish, AFL++ and libFuzzer names, a README.txt);
# crash_folder_checks LOG: what the debugger printed for `tnorm triage crashes` and the buckets.
crash_folder() {
	mkdir crashes
	printf '{"id": 7, "": [{"n": 1}]}\n' >'crashes/id:000000,sig:06,src:000000,time:1,execs:2,op:havoc,rep:2'
	printf '{"n": 123456789012345678901234567890}' >crashes/crash-0123456789abcdef0123456789abcdef01234567
	printf 'Command line used to find this crash:\n' >crashes/README.txt
}
crash_folder_checks() {
	expect "triage without a harness: two crash files (README.txt is none), two buckets, in bytes" \
		sh -c "grep -q '^crashes: 2 tests, 2 failing, 2 distinct signatures, 2 distinct reduced, 2 distinct normalized: 2 buckets$' $1 && grep -q '^== bucket 2: 1 tests; asan:heap-buffer-overflow:WRITE at array_label' $1 && grep -qx ALIVE $1"
	expect "triage without a harness: each bucket's representative file" \
		sh -c "[ \"\$(cat crashes/triage/buckets/2-id:000000,*)\" = '{\"\":[{}]}' ] && [ \"\$(cat crashes/triage/buckets/1-crash-*)\" = ------------------------- ]"
}

# The plugins' tnorm why (issue 29), the same checks in gdb.sh and lldb.sh: LOG holds
# `tnorm why --test fail-1.t.norm` and `tnorm why 1` on the AVL driver $D (harness $H);
# STOP is a grep pattern for the debugger's frame 0 with %s for the line.
why_checks() { # LOG STOP
	local log=$1 stop=$2 wfirst wline fault
	"$T" why --json --normal --harness "$H" fail-1.t.norm -- "$D" {} >why.json
	wfirst=$(python3 -c "import json; l = json.load(open('why.json'))['lines'][0]; print('%s:%d' % (l['file'].split('/')[-1], l['line']))")
	wline=${wfirst#avl.c:}
	fault=$(grep -n 'the fault: the height is updated' "$SRC/examples/avl/avl.c" | cut -d: -f1)
	expect "why: the list's first line is the CLI's ($wfirst), within 3 lines of the seeded fault (avl.c:$fault)" \
		sh -c "grep -q '^   1  .* $wfirst delete' $log && [ \$(( $wline - $fault )) -le 3 ] && [ \$(( $fault - $wline )) -le 3 ]"
	expect "why: each line with its source text" grep -q '^                        } else if (key > n->key) {' "$log"
	# shellcheck disable=SC2059
	expect "why 1: the program restarted and stopped at that line" grep -q "$(printf "$stop" "$wline")" "$log"
}

# tnorm why right after `run`, on the test as it is (issue 40, item 6a): minimized first, as the
# tnorm why command does (over the raw test's neighbours the fault ranked far down), into the
# file tnorm minimize writes (TEST.norm), and nothing is left in TMPDIR when the debugger exits.
why_raw_checks() { # LOG DIR (the debugger's TMPDIR)
	local fault
	fault=$(grep -n 'the fault: the height is updated' "$SRC/examples/avl/avl.c" | cut -d: -f1)
	expect "why after run: the test is minimized first, as the command does" \
		grep -q '^tnorm why: minimizing the test first, as the tnorm why command does' "$1"
	expect "why after run: the first line is within 3 lines of the seeded fault (avl.c:$fault)" \
		sh -c "l=\$(sed -n 's/^   1  .* avl\.c:\([0-9]*\) .*/\1/p' '$1'); [ -n \"\$l\" ] && [ \$((l - $fault)) -le 3 ] && [ \$(($fault - l)) -le 3 ]"
	expect "why after run: the normal form is where tnorm minimize writes it" \
		grep -q '^tnorm why: its normal form is .*fail-1\.t\.norm$' "$1"
	expect "why after run: nothing left in TMPDIR" sh -c "[ -z \"\$(ls -A '$2')\" ]"
}

# tnorm why right after tnorm minimize in one debugger session: the minimization's runs one edit
# away from the normal form are its first neighbours (issue 29: reused, run again for coverage).
why_reuse_checks() { # LOG
	expect "why after minimize: the minimization's runs near the normal form are reused as neighbours" \
		grep -qE '^[1-9][0-9]* of the neighbours were run by the minimization too \([0-9]+ came to another outcome this time\)$' "$1"
	expect "why after minimize: the ranked list follows" grep -q '^   1  .* avl.c:' "$1"
}

# tnorm changed (issue 29) after `tnorm why 1` stopped in delete(n, key): LOG lists the writes to
# that node's height during a run from step 0; the same in gdb and lldb.
# hw_watch_fires: 0 when a hardware watchpoint stops a program on this machine (a virtual machine
# may give the debugger no debug registers: then gdb's watchpoints never fire and tnorm changed
# falls back to software watchpoints; lldb has none, and says so).
hw_watch_fires() {
	[ -n "${HW_WATCH-}" ] && return "$HW_WATCH"
	printf 'int g;\nint main(void) { for (int i = 0; i < 5; i++) g += i; return g; }\n' >"$W/hwwatch.c"
	cc -g -O0 -o "$W/hwwatch" "$W/hwwatch.c" 2>/dev/null &&
		gdb -batch -nx -ex 'break main' -ex run -ex 'watch g' -ex continue --args "$W/hwwatch" 2>&1 |
		grep -q '^New value = 1'
	HW_WATCH=$?
	return "$HW_WATCH"
}
changed_lldb_no_watch_checks() { # LOG NOSUCH_LOG: lldb on a machine whose hardware watchpoints never fire
	expect "changed: lldb says in one line that this machine's watchpoints do not fire (and what to use)" \
		grep -q "tnorm: the hardware watchpoint on n->height never fired, yet the value changed: .*gdb's tnorm changed falls back to software watchpoints" "$1"
	expect "changed: an expression that is no location here is one clear error" \
		grep -q 'tnorm: cannot evaluate nosuch->x here' "$2"
}
changed_checks() { # LOG
	expect "changed: the field's value before step 0, then each write with its step and writer" \
		sh -c "grep -q '^n->height = .* before step 0' $1 &&
			grep -q '^  step 2 (avl_insert(avl0, int0)): 0 -> 1    # written at insert avl.c:' $1 &&
			grep -q '^  step 4 (avl_insert(avl0, int1)): 1 -> 2    # written at update avl.c:' $1"
	expect "changed: the program ends stopped at the failure" \
		grep -q '^(the program is stopped where the run ended: the program stopped: SIGABRT at check_node' "$1"
	expect "pools at the failure: the printed form the failing step left (after step 9)" \
		grep -qE '^  avl0 = 0x[0-9a-f]+ \{2, 3, 4\} \(after step 9\) +# assigned by step 0, changed by step 9$' "$1"
	expect "changed: an expression that is no location here is one clear error" \
		grep -q 'tnorm: cannot evaluate nosuch->x here' "$1"
}

#!/bin/bash
# SPDX-License-Identifier: MIT
# Integration tests of the run options that decide what counts as the failure (issue 12, item 7):
# --match output:REGEX checked at the confirm step, sanitizer options merged with tnorm's
# defaults (from --env and from tnorm's own environment), --invalid-exit, and the differential
# oracle --fixed (confirm, reduction, database keys).  Real programs from tests/suts.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT, TNORM_SUT_DIR (set by meson test).
. "$(dirname "$0")/lib.sh"

S=$TNORM_SUT_DIR
AVL=$SRC/examples/avl
AD=$B/examples/avl

# ---- --match output:REGEX is checked on the original ----------------------------------------
printf 'x\nA\ny\nB\nz\na\nw\n' >"$W/two.txt"
"$T" reduce --quiet --match 'output:no such text' -o "$W/o.min" "$W/two.txt" -- "$S/sut_twobug" {} \
	>"$W/out" 2>"$W/err"; rc=$?
expect "output: a regex the original's output does not match is refused with exit 4" sh -c \
	"[ $rc = 4 ] && grep -q 'does not fail as the match policy asks: it fails (SIGSEGV), but its output (stdout and stderr) does not match --match output:no such text' '$W/err'"
expect "output: ... before any reduction (no result, nothing slipped)" sh -c "[ ! -e '$W/o.min' ] && [ ! -e '$W/slipped' ]"
printf 'x\nB\ny\n' >"$W/b.txt"
"$T" reduce --quiet --match 'output:Assertion .* failed' -o "$W/ob.min" "$W/b.txt" -- "$S/sut_twobug" {} >/dev/null 2>"$W/err"; rc=$?
expect "output: a regex the original's output matches reduces" sh -c "[ $rc = 0 ] && [ \"\$(cat '$W/ob.min')\" = B ]"
for mode in normalize minimize generalize; do
	"$T" $mode --quiet --harness "$AVL/avl.tnh" --match 'output:no such text' -o "$W/$mode.out" \
		"$AVL/tests/fail-1.t" -- "$AD/avl_driver" {} >/dev/null 2>"$W/err"; rc=$?
	expect "output: $mode refuses a regex that does not match, exit 4" sh -c \
		"[ $rc = 4 ] && grep -q 'does not match --match output:no such text' '$W/err'"
done

# ---- sanitizer options: merged with the defaults, not replaced ----------------------------------
if [ -x "$S/sut_asan_overflow" ]; then
	"$T" run --env ASAN_OPTIONS=malloc_context_size=2 "$W/two.txt" -- "$S/sut_asan_overflow" >"$W/out"
	expect "env: --env ASAN_OPTIONS keeps abort_on_error (the report still ends in an abort)" \
		grep -q '^signature: asan:heap-buffer-overflow:READ at overflow (asan_overflow.c:' "$W/out"
	# (clang's static runtime holds UBSan too and reads the common flags from both variables,
	# UBSAN_OPTIONS last: a flag common to both is given in both.)
	"$T" run --json --env ASAN_OPTIONS=abort_on_error=0 --env UBSAN_OPTIONS=abort_on_error=0 \
		"$W/two.txt" -- "$S/sut_asan_overflow" >"$W/out"
	expect "env: a default the user names explicitly is the user's (ASan exits 1)" \
		grep -q '"exit_code": 1, .*"kind": "asan:heap-buffer-overflow:READ"' "$W/out"
fi
env_of() { sed -n "s/^$1=//p" "$W/env.txt"; } # VAR: the value the program saw
"$T" run --env ASAN_OPTIONS=malloc_context_size=2:symbolize=1 \
	--env 'UBSAN_OPTIONS=print_stacktrace=1,report_error_type=1' "$W/two.txt" -- \
	sh -c "env >'$W/env.txt'" >/dev/null
expect "env: ASAN_OPTIONS from --env merges key by key" \
	[ "$(env_of ASAN_OPTIONS)" = "abort_on_error=1:detect_leaks=0:symbolize=1:handle_abort=0:malloc_context_size=2" ]
expect "env: UBSAN_OPTIONS too" \
	[ "$(env_of UBSAN_OPTIONS)" = "halt_on_error=1:abort_on_error=1:print_stacktrace=1:report_error_type=1" ]
ASAN_OPTIONS='detect_leaks=1 allocator_may_return_null=1' LSAN_OPTIONS=report_objects=1 \
	"$T" run --env LSAN_OPTIONS=max_leaks=3 "$W/two.txt" -- sh -c "env >'$W/env.txt'" >/dev/null
expect "env: tnorm's own ASAN_OPTIONS reach the program; the defaults win over them" \
	[ "$(env_of ASAN_OPTIONS)" = "detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:symbolize=0:handle_abort=0" ]
expect "env: tnorm's own LSAN_OPTIONS reach the program, merged with --env" \
	[ "$(env_of LSAN_OPTIONS)" = "report_objects=1:max_leaks=3" ]

# ---- --invalid-exit: a program's "bad input" status is not a failure -----------------------------
printf 'push 1\npop\npush 7\npop\npop\npush 2\n' >"$W/st.txt"
printf 'push 1\nfrob\n' >"$W/bad.txt"
"$T" run --invalid-exit 2 "$W/bad.txt" -- "$S/sut_strict" {} >"$W/out"
expect "invalid-exit: run says invalid" grep -q '^outcome: invalid' "$W/out"
"$T" run "$W/bad.txt" -- "$S/sut_strict" {} >"$W/out"
expect "invalid-exit: without it, exit 2 is a failure" grep -q '^outcome: fail' "$W/out"
mkdir "$W/st1" "$W/st2"
"$T" reduce --quiet -o "$W/st1/st.min" "$W/st.txt" -- "$S/sut_strict" {} >"$W/st1.out"
expect "invalid-exit: without it, cut commands fill slipped/ with exit(2)" sh -c \
	"grep -q '^slipped: exit(2) at bad_command' '$W/st1.out' && [ -d '$W/st1/slipped' ]"
"$T" reduce --quiet --invalid-exit 2 --invalid-exit 3 -o "$W/st2/st.min" "$W/st.txt" -- "$S/sut_strict" {} >"$W/st2.out"; rc=$?
expect "invalid-exit: with it, the same reduction and nothing slipped" sh -c \
	"[ $rc = 0 ] && [ \"\$(cat '$W/st2/st.min')\" = pop ] && ! grep -q slipped '$W/st2.out' && [ ! -d '$W/st2/slipped' ]"
"$T" reduce --quiet --invalid-exit 2 -o "$W/bad.min" "$W/bad.txt" -- "$S/sut_strict" {} 2>"$W/err"; rc=$?
expect "invalid-exit: an original that exits with it is refused, exit 4, naming the code" sh -c \
	"[ $rc = 4 ] && grep -q 'the program calls it invalid (exit 2)' '$W/err'"
for bad in 0 256 x; do
	"$T" reduce --invalid-exit $bad "$W/st.txt" -- "$S/sut_strict" {} 2>"$W/err"; rc=$?
	expect "invalid-exit: '$bad' is a usage error" sh -c "[ $rc = 2 ] && grep -q -- '--invalid-exit' '$W/err'"
done
for c in run fuzz triage reduce normalize minimize generalize; do
	expect "invalid-exit: $c --help lists it" sh -c "$T $c --help | grep -q -- '--invalid-exit'"
done

# ---- --fixed: the differential oracle --------------------------------------------------------
# samesite has two bugs that crash at the same line; its fixed build fixes bug A only.
printf 'b\nx\nA\ny\na\nB\n' >"$W/ss.txt"
export TNORM_DB="$W/fixed.db"
mkdir "$W/f1" "$W/f2"
"$T" reduce --quiet -o "$W/f1/ss.min" "$W/ss.txt" -- "$S/sut_samesite" {} >/dev/null
expect "fixed: without it, the reduction moves to bug B at the same site (no policy sees it)" sh -c \
	"[ \"\$(cat '$W/f1/ss.min')\" = B ] && ! '$S/sut_samesite_fixed' '$W/f1/ss.min' 2>/dev/null"
"$T" reduce --quiet --fixed "$S/sut_samesite_fixed" -o "$W/f2/ss.min" "$W/ss.txt" -- "$S/sut_samesite" {} >"$W/f2.out"; rc=$?
expect "fixed: with it, bug A is kept: fails on the program, passes on the fixed one" sh -c \
	"[ $rc = 0 ] && [ \"\$(cat '$W/f2/ss.min')\" = \"\$(printf 'A\na\n')\" ] && '$S/sut_samesite_fixed' '$W/f2/ss.min'"
expect "fixed: the database answers of the run without --fixed were not reused" \
	sh -c "grep -q '^signature: SIGSEGV at store' '$W/f2.out'"
"$T" reduce --quiet --fixed "$S/sut_samesite_fixed {}" -o "$W/f2/ss2.min" "$W/ss.txt" -- "$S/sut_samesite" {} >/dev/null; rc=$?
expect "fixed: a whole command line (split like a shell) works too" sh -c \
	"[ $rc = 0 ] && [ \"\$(cat '$W/f2/ss2.min')\" = \"\$(printf 'A\na\n')\" ]"
"$T" reduce --quiet --fixed "$S/sut_samesite" -o "$W/f3.min" "$W/ss.txt" -- "$S/sut_samesite" {} 2>"$W/err"; rc=$?
expect "fixed: an original that fails on the fixed program is refused, exit 4" sh -c \
	"[ $rc = 4 ] && grep -q 'does not pass on the fixed program (--fixed): it fails (SIGSEGV)' '$W/err' && [ ! -e '$W/f3.min' ]"
"$T" reduce --quiet --fixed "$S/sut_samesite_fixed --verbose" "$W/ss.txt" -- "$S/sut_samesite" {} 2>"$W/err"; rc=$?
expect "fixed: a whole command without {} is a usage error" sh -c "[ $rc = 2 ] && grep -q 'has no {}' '$W/err'"
"$T" reduce --quiet --fixed "'$S/sut_samesite_fixed {}" "$W/ss.txt" -- "$S/sut_samesite" {} 2>"$W/err"; rc=$?
expect "fixed: an unterminated quote is a usage error" sh -c "[ $rc = 2 ] && grep -q 'unterminated quote' '$W/err'"
"$T" run --fixed x "$W/ss.txt" -- "$S/sut_samesite" {} 2>/dev/null; rc=$?
expect "fixed: run does not take it" [ "$rc" = 2 ]
"$T" minimize --quiet --harness "$AVL/avl.tnh" --fixed "$AD/avl_driver_fixed" -o "$W/avl.norm" \
	"$AVL/tests/fail-1.t" -- "$AD/avl_driver_faulty" {} >/dev/null; rc=$?
expect "fixed: minimize with the example's fixed build: the normal form passes on it" sh -c \
	"[ $rc = 0 ] && '$AD/avl_driver_fixed' '$W/avl.norm' && ! '$AD/avl_driver_faulty' '$W/avl.norm' 2>/dev/null"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: MIT
# The signature matrix of issue 12: small programs with two bugs each (tests/suts/matrix), built
# with gcc and clang, -O0 and -O2, plain, ASan and UBSan, static and shared sanitizer runtimes,
# stripped and not (the list, and what is left out and why: tests/integration/matrix-lib.sh).
# For every variant, `tnorm reduce` with the default policy must keep bug A (the reduced test
# still prints BUG-A and fails, run directly) and file bug B in slipped/ (a slip-N.t that meets
# B), without filing A there too.  One check per variant, "VARIANT PROGRAM: held"; a failing one
# is followed by "#" lines with the signatures of A and B, what the reduction ended on and what
# was filed in slipped/.
# MATRIX_ONLY=regex runs only the variants whose "VARIANT PROGRAM" matches; MATRIX_POLICY=P
# passes `--match P` to every reduction; MATRIX_JOBS=n reductions at a time (default 2).
# Run both ways (issue 30): by default the programs, none of them a tnorm driver, are served by
# the preload fork server (libtnorm_preload.so) after their first run; with --preload=off (the
# test 'matrix-no-preload') every run starts the program afresh.  The variants must hold alike.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test), gcc and clang.
[ "${1:-}" = --preload=off ] && export TNORM_PRELOAD=off
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"
# A `static inline` helper is a plain call at -O0 (nothing is inlined): its two callers are then
# one site under the default policy, by design (one fault reached from two callers is one fault:
# docs/signatures.md), and `--match stack:2` is the policy that tells them apart.  Those variants
# run with it; at -O2, where the helper is inlined, the default must hold.
opts=()
[ -n "${MATRIX_POLICY:-}" ] && opts=(--match "$MATRIX_POLICY")
start=$(date +%s)
if [ -z "${MATRIX_POLICY:-}" ]; then
	MATRIX_ONLY="${MATRIX_ONLY:-.}" MX_EXCLUDE='-O0-.* inline$' mx_all "$W/matrix" >"$W/results"
	[[ "gcc-O0-plain inline" =~ ${MATRIX_ONLY:-.} ]] &&
		MATRIX_ONLY='-O0-.* inline$' mx_all "$W/matrix-o0" --match stack:2 | sed 's/^\([^#|]*\)|/\1 (stack:2)|/' >>"$W/results"
else
	mx_all "$W/matrix" "${opts[@]}" >"$W/results"
fi
while IFS= read -r line; do
	case $line in
	'#'*) echo "$line" ;;
	*)
		IFS='|' read -r label o runs <<<"$line"
		case $o in held | held-nob | split) ok=1 ;; *) ok=0 ;; esac
		expect "$label: held ($o)" [ $ok = 1 ]
		[ $ok = 1 ] || echo "#   outcome: $o ($runs runs)"
		;;
	esac
done <"$W/results"
echo "# $(($(date +%s) - start)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

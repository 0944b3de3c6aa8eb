#!/bin/bash
# SPDX-License-Identifier: MIT
# tnorm export (issue 40, item 4): a regression test per bug.  A harness test of the AVL example
# (its normal form, and the bucket of a triage) is exported as a cmocka C test; a project built
# with meson links it against the example's sources: built as the faulty driver (avl.c's seeded
# fault) the test fails, built with -DAVL_FIXED it passes.  A crash file of a small program is
# exported as a libFuzzer corpus entry with a meson test() and a CTest add_test: run on the
# faulty program they fail, on the fixed one (which rejects the input, exit 3 under
# --invalid-exit 3) they pass; the same for a triage's bucket and for --stdin.  Then the errors:
# a test that does not parse (file:line:col), a test that does not fail, files that exist
# (nothing written without --force), a symbolic link, a report.json that does not parse, bad
# names and command lines.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test), meson, ninja, cmake,
# pkg-config and cmocka.
. "$(dirname "$0")/lib.sh"
AVL=$SRC/examples/avl
DF=$B/examples/avl/avl_driver_faulty
export PKG_CONFIG_PATH=$B/meson-uninstalled
cd "$W" || exit 1

# ---- a harness test: the AVL example's normal form -----------------------------------------------
"$T" minimize --quiet -o f1.norm "$AVL/tests/fail-1.t" -- "$DF" {} >/dev/null 2>&1
mkdir proj
"$T" export f1.norm -o proj/one -- "$DF" {} >one.out 2>one.err; rc=$?
expect "export TEST: exits 0, one test from the normal form, its signature printed" \
	sh -c "[ $rc = 0 ] && grep -q '^f1: SIGABRT at check_node (avl.c:191)' one.out"
expect "export TEST: NAME.c and meson.build written, nothing else" \
	sh -c "[ \"\$(ls proj/one | tr '\n' ' ')\" = 'f1.c meson.build ' ]"
expect "the C test holds the normal form's steps, one a string, and the signature" \
	python3 -c "
import sys
c = open('proj/one/f1.c').read()
steps = [l for l in open('f1.norm').read().splitlines() if l]
sys.exit(not (all('\t\"%s\",' % s in c for s in steps) and 'SIGABRT at check_node (avl.c:191)' in c))"
strict="-std=c99 -pedantic -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
strict="$strict -Wformat=2 -Wconversion -Wsign-conversion -Wcast-qual -Wwrite-strings -Wundef -Werror"
expect "the C test compiles alone as C99 with a project's strict warnings as errors (gcc, clang)" \
	sh -c "gcc $strict -fsyntax-only proj/one/f1.c && clang $strict -fsyntax-only proj/one/f1.c"

# The same bug from a triage: its bucket's representative, named bucket_N (--from OUT).
mkdir tri
cp "$AVL/tests/fail-2.t" "$AVL/tests/fail-3.t" tri/
"$T" triage tri --quiet -j 2 -- "$DF" {} >/dev/null 2>&1
"$T" export --from tri/triage -o proj/from -- "$DF" {} >from.out 2>from.err; rc=$?
expect "export --from OUT: one test per bucket, bucket_1.c" \
	sh -c "[ $rc = 0 ] && [ -f proj/from/bucket_1.c ] && grep -q '^bucket_1: SIGABRT at check_node' from.out"
expect "export --from OUT: its steps are the bucket's normal form" \
	python3 -c "
import json, sys
r = json.load(open('tri/triage/report.json'))
c = open('proj/from/bucket_1.c').read()
sys.exit(not all('\t\"%s\",' % s in c for s in r['buckets'][0]['normal_form'].splitlines()))"

# A project of the user's: the example's sources, built faulty or fixed, and the exported folders.
mkdir proj/avl
cp "$AVL"/*.c "$AVL"/*.h "$AVL/avl.tnh" proj/avl/
cat >proj/meson.build <<EOF
project('avl-regress', 'c')
embed = find_program('$B/core/driver/tnorm-embed')
harness_c = custom_target('avl_harness.c', input : 'avl/avl.tnh', output : 'avl_harness.c',
  command : [embed, '@INPUT@', '@OUTPUT@', 'avl_harness'])
tnorm_export_driver = files('avl/driver.c', 'avl/print.c', 'avl/avl.c') + [harness_c]
tnorm_export_driver_args = get_option('fixed') ? ['-DAVL_FIXED'] : []
subdir('one')
subdir('from')
EOF
echo "option('fixed', type : 'boolean', value : false)" >proj/meson_options.txt
build_and_test() { # BUILD_DIR [MESON OPTIONS...]: the project built and its tests run
	local d=$1
	shift
	meson setup "$d" proj "$@" >"$d.setup" 2>&1 && ninja -C "$d" >"$d.ninja" 2>&1 || return 100
	meson test -C "$d" --num-processes 1 >"$d.test" 2>&1
}
build_and_test faulty; rc=$?
expect "built against the faulty AVL tree, both exported tests fail" \
	sh -c "[ $rc != 0 ] && grep -q '^ *[12]/2 f1 *FAIL' faulty.test && grep -q '^ *[12]/2 bucket_1 *FAIL' faulty.test && grep -q '^Fail: *2 *$' faulty.test"
expect "... because the driver aborts in the check: the bug" \
	sh -c "grep -q 'avl.c:191: check_node: Assertion' faulty/meson-logs/testlog.txt && grep -q 'the driver died of signal 6' faulty/meson-logs/testlog.txt"
build_and_test fixed -Dfixed=true; rc=$?
expect "built against the fixed AVL tree (-DAVL_FIXED), both pass" \
	sh -c "[ $rc = 0 ] && grep -q '^ *[12]/2 f1 *OK' fixed.test && grep -q '^ *[12]/2 bucket_1 *OK' fixed.test && grep -q '^Ok: *2 *$' fixed.test"

# ---- a file: a program that crashes on some bytes, fixed: it rejects them (exit 3) -------------
cat >prog.c <<'EOF'
#include <stdio.h>
#include <string.h>
static void __attribute__((noinline)) boom(volatile int *p)
{
	*p = 1;
}
int main(int argc, char **argv)
{
	static char buf[4096];
	FILE *f = argc > 1 ? fopen(argv[1] + (strncmp(argv[1], "--in=", 5) ? 0 : 5), "rb") : stdin;
	size_t n, i;
	if (!f)
		return 2;
	n = fread(buf, 1, sizeof(buf), f);
	for (i = 0; i + 2 < n; i++)
		if (!memcmp(buf + i, "BUG", 3)) {
#ifdef FIXED
			fprintf(stderr, "prog: no bugs allowed\n");
			return 3;
#else
			boom(NULL);
#endif
		}
	return 0;
}
EOF
cc -g -O0 -o prog_faulty prog.c && cc -g -O0 -DFIXED -o prog_fixed prog.c
printf 'noise BUG more noise\n' >crash.bin
sum=$(sha1sum <crash.bin | cut -c1-40)
mkdir fproj
"$T" export crash.bin -o fproj/one --invalid-exit 3 -- ./prog_faulty --in=@@ >fone.out 2>fone.err; rc=$?
expect "export FILE: exits 0, the signature printed" \
	sh -c "[ $rc = 0 ] && grep -q '^crash: SIGSEGV at boom' fone.out"
expect "export FILE: corpus/SHA1 (libFuzzer's name: the SHA-1 of its bytes) holds its bytes" \
	cmp crash.bin "fproj/one/corpus/$sum"
expect "export FILE: meson.build and CMakeLists.txt written" \
	sh -c "[ -f fproj/one/meson.build ] && [ -f fproj/one/CMakeLists.txt ]"
"$T" export crash.bin -o fproj/stdin --name crash_stdin --stdin --invalid-exit 3 \
	--env ASAN_OPTIONS=malloc_context_size=2 --env PROG_MODE=strict -- ./prog_faulty >fstdin.out 2>&1; rc=$?
expect "export FILE --stdin --name: exits 0" sh -c "[ $rc = 0 ] && [ -f fproj/stdin/corpus/$sum ]"
expect "--env: merged with the sanitizer defaults flag by flag, the others as they are (meson, CTest)" \
	sh -c "grep -qF \"_tnorm_export_env.set('ASAN_OPTIONS', 'abort_on_error=1:detect_leaks=0:malloc_context_size=2')\" fproj/stdin/meson.build &&
	       grep -qF \"_tnorm_export_env.set('PROG_MODE', 'strict')\" fproj/stdin/meson.build &&
	       grep -qF 'ENVIRONMENT \"ASAN_OPTIONS=abort_on_error=1:detect_leaks=0:malloc_context_size=2;UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1;PROG_MODE=strict\"' fproj/stdin/CMakeLists.txt"
mkdir crashes
printf 'xxBUGxx' >crashes/id:000000,sig:11
printf '{"a": "BUG"}\n' >crashes/id:000001,sig:11
"$T" triage crashes --quiet -j 2 -o crashes-out --invalid-exit 3 -- ./prog_faulty @@ >/dev/null 2>&1
"$T" export --from crashes-out --name bug -o fproj/from --invalid-exit 3 -- ./prog_faulty @@ \
	>ffrom.out 2>&1; rc=$?
expect "export --from OUT of files: bug_1, its corpus entry the bucket's normal form" \
	python3 -c "
import hashlib, json, sys
r = json.load(open('crashes-out/report.json'))
form = r['buckets'][0]['normal_form'].encode()
sys.exit(not ($rc == 0 and len(r['buckets']) == 1 and
              open('fproj/from/corpus/' + hashlib.sha1(form).hexdigest(), 'rb').read() == form))"

cat >fproj/meson.build <<'EOF'
project('prog-regress')
tnorm_export_program = find_program(get_option('prog'))
subdir('one')
subdir('stdin')
subdir('from')
EOF
echo "option('prog', type : 'string')" >fproj/meson_options.txt
meson setup fm-faulty fproj -Dprog="$W/prog_faulty" >fm-faulty.setup 2>&1 &&
	meson test -C fm-faulty --num-processes 1 >fm-faulty.test 2>&1; rc=$?
expect "meson test() entries on the faulty program: all three fail (signal 11)" \
	sh -c "[ $rc != 0 ] && grep -q '^Fail: *3 *$' fm-faulty.test && [ \$(grep -c 'the program fails on the bug.s input (exit status 139' fm-faulty/meson-logs/testlog.txt) = 3 ]"
meson setup fm-fixed fproj -Dprog="$W/prog_fixed" >fm-fixed.setup 2>&1 &&
	meson test -C fm-fixed --num-processes 1 >fm-fixed.test 2>&1; rc=$?
expect "meson test() entries on the fixed program (exit 3, an --invalid-exit code): all pass" \
	sh -c "[ $rc = 0 ] && grep -q '^Ok: *3 *$' fm-fixed.test"
cat >fproj/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(prog_regress NONE)
enable_testing()
add_subdirectory(one)
add_subdirectory(stdin)
add_subdirectory(from)
EOF
ctest_run() { # BUILD_DIR PROGRAM
	cmake -S fproj -B "$1" -DTNORM_EXPORT_PROGRAM="$2" >"$1.cmake" 2>&1 &&
		(cd "$1" && ctest --output-on-failure) >"$1.test" 2>&1
}
ctest_run fc-faulty "$W/prog_faulty"; rc=$?
expect "CTest add_test entries on the faulty program: all three fail" \
	sh -c "[ $rc != 0 ] && grep -q '0% tests passed, 3 tests failed out of 3' fc-faulty.test"
ctest_run fc-fixed "$W/prog_fixed"; rc=$?
expect "CTest add_test entries on the fixed program: all pass" \
	sh -c "[ $rc = 0 ] && grep -q '100% tests passed, 0 tests failed out of 3' fc-fixed.test"

# ---- errors -----------------------------------------------------------------------------------
printf 'avl0 = avl_new()\nint0 = 99\n' >bad.t
"$T" export bad.t -o e1 -- "$DF" {} >bad.out 2>bad.err; rc=$?
expect "a test that does not parse: exit 1, one line with file:line:col, nothing written" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <bad.err) -le 2 ] && grep -q '^tnorm export: bad.t:2:[0-9]*: ' bad.err && [ ! -e e1 ]"
"$T" export "$AVL/tests/pass-1.t" -o e2 -- "$DF" {} >pass.out 2>pass.err; rc=$?
expect "a test that does not fail: exit 4, said, nothing written" \
	sh -c "[ $rc = 4 ] && grep -q 'pass-1.t does not fail on .*: it passes' pass.err && [ ! -e e2 ]"
cp proj/one/f1.c f1.c.before
echo "# mine" >proj/one/meson.build
"$T" export f1.norm -o proj/one -- "$DF" {} >exists.out 2>exists.err; rc=$?
expect "files that exist: exit 2, named, and none of them touched" \
	sh -c "[ $rc = 2 ] && grep -q 'proj/one/f1.c exists: nothing written (--force' exists.err && cmp -s f1.c.before proj/one/f1.c && [ \"\$(cat proj/one/meson.build)\" = '# mine' ]"
"$T" export f1.norm -o proj/one --force -- "$DF" {} >force.out 2>force.err; rc=$?
expect "--force replaces them" sh -c "[ $rc = 0 ] && grep -q '^foreach _tnorm_export_test' proj/one/meson.build"
ln -sf "$W/elsewhere" proj/one/f1.c
"$T" export f1.norm -o proj/one --force -- "$DF" {} >link.out 2>link.err; rc=$?
expect "a symbolic link is never replaced, even with --force" \
	sh -c "[ $rc = 2 ] && grep -q 'f1.c exists and is a symbolic link' link.err && [ -L proj/one/f1.c ] && [ ! -e elsewhere ]"
"$T" export f1.norm -o crash.bin -- "$DF" {} >notdir.out 2>notdir.err; rc=$?
expect "-o naming a file: exit 2" sh -c "[ $rc = 2 ] && grep -q 'crash.bin is a file, not a folder' notdir.err"
mkdir badrep
printf '{"unit": "steps", "buckets": [\n' >badrep/report.json
"$T" export --from badrep -o e3 -- "$DF" {} >badrep.out 2>badrep.err; rc=$?
expect "a report.json that does not parse: exit 1, file:line:col" \
	sh -c "[ $rc = 1 ] && grep -q '^tnorm export: badrep/report.json:[0-9]*:[0-9]*: not a triage' badrep.err"
"$T" export --from crashes-out -o e4 -- "$DF" {} >unit.out 2>unit.err; rc=$?
expect "a triage of files with a driver's harness: exit 1, says to give --no-harness" \
	sh -c "[ $rc = 1 ] && grep -q 'files (bytes), but a harness is given (--no-harness)' unit.err"
"$T" export f1.norm --name 1bad -o e5 -- "$DF" {} >name.out 2>name.err; rc=$?
expect "a bad --name: exit 1" sh -c "[ $rc = 1 ] && grep -q \"the name '1bad' is not one\" name.err"
"$T" export f1.norm -- "$DF" {} >noout.out 2>noout.err; rc=$?
expect "no -o: a usage error" sh -c "[ $rc = 2 ] && grep -q 'missing -o DIR' noout.err"
"$T" export f1.norm --from tri/triage -o e6 -- "$DF" {} >both.out 2>both.err; rc=$?
expect "TEST and --from: a usage error" sh -c "[ $rc = 2 ] && grep -q 'not both' both.err"

echo "$pass passed, $fail failed"
[ $fail = 0 ]

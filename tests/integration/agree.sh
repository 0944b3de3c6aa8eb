#!/bin/bash
# SPDX-License-Identifier: MIT
# The plugins agree with the CLI (issue 12): for real programs built here with gcc and clang at
# -O0 and -O2 (tests/suts/agree/agree.c) -- an ASan heap-buffer-overflow (clang's static runtime,
# gcc's shared one), a fault inside an inlined helper, a fault in a second thread, a UBSan signed
# overflow (gcc), an uncaught C++ exception (tests/suts/exceptions.cc, g++ and clang++) -- and the
# probe driver's failing `check`, the text `tnorm signature` prints in real gdb and real lldb
# equals the `signature:` line of `tnorm run TEST -- PROG {}`.  Prints the table (variant, gdb,
# lldb).  The CLI's signature is also taken with every run served by the preload fork server
# (TNORM_PRELOAD=always, issue 30) and must be the same.  Also: the sanitizer options the plugins
# put in the environment.
. "$(dirname "$0")/lib.sh"
export PYTHONPATH=/usr/lib/llvm-14/lib/python3.11/dist-packages${PYTHONPATH:+:$PYTHONPATH}
GDB_PLUGIN=$B/gdb-plugin/tnorm-gdb.py
LLDB_PLUGIN=$B/lldb-plugin/tnorm_lldb.py
SUT=$SRC/tests/suts/agree/agree.c
PROBE=$B/tests/driver/probe_driver
cd "$W" || exit 1

# The user's own sanitizer options must not hide the plugins' (the engine's runs set their own).
unset ASAN_OPTIONS UBSAN_OPTIONS

sig_cli() { "$T" run "$2" -- "$1" {} 2>/dev/null | sed -n 's/^signature: //p'; }
sig_gdb() {
	timeout 120 gdb -batch -nx -ex "source $GDB_PLUGIN" -ex run -ex 'echo @@\n' -ex 'tnorm signature' \
		--args "$1" "$2" 2>&1 | sed -n '/^@@$/{n;p;q}'
}
sig_lldb() { # in batch mode lldb runs -k after what it takes for a crash, else the -o that follow
	timeout 120 lldb -b -o "command script import $LLDB_PLUGIN" -o run -o 'script print("@@")' \
		-o 'tnorm signature' -k 'script print("@@")' -k 'tnorm signature' -- "$1" "$2" 2>&1 |
		awk 'f && !/^\(lldb\) / {print; exit} /^@@$/ {f = 1}'
}

printf 'hbo\n' >hbo.t
printf 'inline\n' >inline.t
printf 'thread\n' >thread.t
printf 'overflow\n' >overflow.t
printf 'n0 = -2\nobj0 = make(n0)\n' >check.t
printf 'a k1\n' >badkey.t
printf 'i\n' >int.t

variants=()
for cc in gcc clang; do
	command -v $cc >/dev/null || { bad "$cc is not installed"; continue; }
	for o in O0 O2; do
		$cc -g -$o -o "plain-$cc-$o" "$SUT" -lpthread &&
			$cc -g -$o -fsanitize=address -o "asan-$cc-$o" "$SUT" -lpthread ||
			{ bad "build with $cc -$o"; continue; }
		variants+=("asan-$cc-$o hbo" "plain-$cc-$o inline" "plain-$cc-$o thread")
		# clang's static UBSan runtime: its handler frame (handleIntegerOverflowImpl) is not
		# recognised as a runtime frame by the engine yet, so lldb's stop at the report and the
		# abort show different offsets in it; gcc's runtime is a library and agrees.
		if [ $cc = gcc ]; then
			$cc -g -$o -fsanitize=undefined -o "ubsan-$cc-$o" "$SUT" -lpthread &&
				variants+=("ubsan-$cc-$o overflow")
		fi
	done
done
for cxx in g++ clang++; do
	for o in O0 O2; do
		$cxx -g -$o -w -o "exc-$cxx-$o" "$SRC/tests/suts/exceptions.cc" ||
			{ bad "build exceptions.cc with $cxx -$o"; continue; }
		variants+=("exc-$cxx-$o badkey" "exc-$cxx-$o int")
	done
done
ln -s "$PROBE" probe-driver
variants+=("probe-driver check")

printf '%-22s %-9s %-6s %-6s %s\n' variant test gdb lldb "CLI signature" >table.txt
for v in "${variants[@]}"; do
	set -- $v
	prog=./$1 test=$2.t
	cli=$(sig_cli "$prog" "$test")
	gs=$(sig_gdb "$prog" "$test")
	ls=$(sig_lldb "$prog" "$test")
	expect "$1 $2: the CLI gives a signature" [ -n "$cli" ]
	# Both ways (issue 30): the run served by the preload fork server (TNORM_PRELOAD=always:
	# the one run is a served child) gives the signature of the run started afresh.
	pre=$(TNORM_PRELOAD=always sig_cli "$prog" "$test")
	expect "$1 $2: the CLI's signature served by the preload fork server is the same ($pre)" [ "$pre" = "$cli" ]
	expect "$1 $2: gdb's tnorm signature equals the CLI's ($gs)" [ "$gs" = "$cli" ]
	expect "$1 $2: lldb's tnorm signature equals the CLI's ($ls)" [ "$ls" = "$cli" ]
	printf '%-22s %-9s %-6s %-6s %s\n' "$1" "$2" "$([ "$gs" = "$cli" ] && echo equal || echo DIFF)" \
		"$([ "$ls" = "$cli" ] && echo equal || echo DIFF)" "$cli" >>table.txt
	[ "$gs" = "$cli" ] || echo "    gdb:  $gs" >>table.txt
	[ "$ls" = "$cli" ] || echo "    lldb: $ls" >>table.txt
done
cat table.txt

# ---- the kinds: the sanitizer's and the driver runtime's, not SIGABRT ---------------------------
expect "kind: ASan's bug type and access" grep -q '^asan-gcc-O0 .*asan:heap-buffer-overflow:WRITE at hbo_fill' table.txt
expect "kind: UBSan's message" grep -q '^ubsan-gcc-O0 .*ubsan:signed-integer-overflow at overflow_add' table.txt
expect "kind: the uncaught exception's type and what()" grep -q '^exc-g++-O2 *badkey .*uncaught std::invalid_argument ("bad key k1") at lookup' table.txt
expect "kind: the uncaught exception's type" grep -q '^exc-clang++-O0 *int .*uncaught int at main' table.txt
expect "kind: the driver runtime's failed check" grep -q '^probe-driver .*check-failed:positive' table.txt
expect "inlined: the crash is named inside the inlined helper at -O2" grep -q '^plain-clang-O2 *inline .*at helper_read (agree.c:[0-9]*) <- inline_caller' table.txt

# ---- the environment: the user's options merged, abort_on_error forced ---------------------------
ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	gdb -batch -nx -ex "source $GDB_PLUGIN" -ex 'show environment ASAN_OPTIONS' \
	-ex 'set environment UBSAN_OPTIONS=halt_on_error=0' -ex 'python _host.set_sanitizer_environment()' \
	-ex 'show environment UBSAN_OPTIONS' --args ./plain-gcc-O0 >env-gdb.log 2>&1
expect "gdb: the user's ASAN_OPTIONS keep their keys, abort_on_error=1" grep -qx 'ASAN_OPTIONS = detect_leaks=0:abort_on_error=1' env-gdb.log
expect "gdb: a later set environment is merged, the user's halt_on_error wins" grep -qx 'UBSAN_OPTIONS = halt_on_error=0:abort_on_error=1' env-gdb.log
ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 lldb -b -o 'settings set target.env-vars UBSAN_OPTIONS=print_stacktrace=1 FOO=1' \
	-o "command script import $LLDB_PLUGIN" -o 'settings show target.env-vars' -- ./plain-gcc-O0 >env-lldb.log 2>&1
expect "lldb: the user's ASAN_OPTIONS keep their keys, abort_on_error=1" grep -qx '  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1' env-lldb.log
expect "lldb: target.env-vars merged, the user's other variables kept" sh -c "grep -qx '  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1' env-lldb.log && grep -qx '  FOO=1' env-lldb.log"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/sh
# SPDX-License-Identifier: MIT
# Build tnorm and run every test: the normal build (gcc), then the unit tests and the Python
# binding's test again under AddressSanitizer + UBSan (the binding with the sanitizer runtimes
# preloaded into /usr/bin/python3), then every test again in a clang -O2 build.  The other
# integration tests run the example drivers directly; under LeakSanitizer those report the
# examples' own never-freed trees, so they run in the gcc and clang builds only.
# Ends with one line "N passed, N failed" (the totals over all runs).
#
# usage: sh tests/run-all.sh            (from the source root; build dirs: build, build-asan, build-clang,
#                                       build-release, build-release-clang)
set -u
cd "$(dirname "$0")/.." || exit 2

passed=0
failed=0
status=0

setup() { # DIR [meson options...]
	dir=$1; shift
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >"$dir.setup.log" 2>&1
	else
		meson setup "$dir" "$@" >"$dir.setup.log" 2>&1
	fi || { cat "$dir.setup.log"; echo "meson setup $dir failed"; return 1; }
}

count() { # DIR: add the counts of the last `meson test` run in DIR
	log="$1/meson-logs/testlog.json"
	[ -f "$log" ] || return 0
	p=$(grep -c '"result": "OK"' "$log")
	f=$(grep -c -E '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' "$log")
	passed=$((passed + p))
	failed=$((failed + f))
}

suite() { # DIR LABEL [meson test options...]
	dir=$1; label=$2; shift 2
	echo "== $label =="
	if ! ninja -C "$dir" >"$dir.build.log" 2>&1; then
		cat "$dir.build.log"
		echo "build in $dir failed"
		failed=$((failed + 1)); status=1
		return
	fi
	rm -f "$dir/meson-logs/testlog.json"
	# The tests' time limits (tests/meson.build) catch hangs; they are not speed checks.  On a
	# loaded machine (a fresh clone's run beside other work: a load of 10 on 2 cores) the
	# signature matrix took longer than its 900 s, so each limit counts three times here
	# (TNORM_TIMEOUT_MULTIPLIER): a quiet run is far inside them, and a hang still ends.
	meson test -C "$dir" --print-errorlogs --timeout-multiplier "${TNORM_TIMEOUT_MULTIPLIER:-3}" \
		"$@" || status=1
	count "$dir"
}

if setup build; then
	suite build "gcc build: all tests"
	# The fork server is the default for driver programs; the command-line tests run again with
	# every program started afresh (issue 15: every test passes both ways).
	TNORM_FORK_SERVER=off suite build "gcc build: the command-line tests without the fork server" \
		cli reduce-cli options triage triage-generic escape generic-cli json
	# Persistent mode is the default for driver programs' fork servers (issue 30, item 2): the
	# same tests again with a fresh child for every run.
	TNORM_PERSISTENT=off suite build "gcc build: the command-line tests without persistent mode" \
		cli reduce-cli options triage escape json
else
	failed=$((failed + 1)); status=1
fi

if setup build-asan -Db_sanitize=address,undefined -Db_lundef=false; then
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		suite build-asan "ASan+UBSan build: unit tests and the Python binding" --suite unit --suite binding
else
	failed=$((failed + 1)); status=1
fi

# clang at -O2 (debugoptimized: -O2 -g), warnings as errors, every test: the examples, drivers
# and test programs are then optimized, inlined clang code, as users build theirs.
if CC=clang setup build-clang --buildtype=debugoptimized; then
	suite build-clang "clang -O2 build: all tests (the matrix and agree tests build their own gcc and clang programs: once, above)" --no-suite realbuilds
else
	failed=$((failed + 1)); status=1
fi

# Release builds (-O3, no -g), as users and packagers build tnorm, with gcc and with clang:
# they must compile with warnings as errors (issue 28, item 12: gcc 12's maybe-uninitialized
# at -O3).  Built only; the tests ran above.
release() { # DIR LABEL [env]
	dir=$1; label=$2
	echo "== $label =="
	if setup "$dir" --buildtype=release && ninja -C "$dir" >"$dir.build.log" 2>&1; then
		passed=$((passed + 1))
		echo "ok - $label"
	else
		[ -f "$dir.build.log" ] && cat "$dir.build.log"
		echo "FAIL - $label"
		failed=$((failed + 1)); status=1
	fi
}
release build-release "gcc --buildtype=release builds"
CC=clang release build-release-clang "clang --buildtype=release builds"

echo "$passed passed, $failed failed"
exit $status

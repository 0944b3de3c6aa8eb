#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 14, item 7: no process a run starts outlives the run, not even one that leaves the
# program's process group.  tests/suts/escaper.c (a plain program) and escaper_driver.c (a tnorm
# driver, so a fork server) start children that call setsid(), and double-fork daemons, which
# sleep 60 s and append their pids to $ESCAPER_PIDS (--env); after each `tnorm run`, `reduce` and
# `minimize` (with and without the fork server) none of those pids may still be running.
. "$(dirname "$0")/lib.sh"
S=$TNORM_SUT_DIR
# Whatever this test's runs left behind goes when it ends, pass or fail.
trap 'cat "$W"/*.pids 2>/dev/null | while read -r p; do [ -n "$(alive "$p")" ] && kill -9 "$p"; done; rm -rf "$W"' EXIT

# Prints PID when it is an escaper process still running (a zombie is dead; a pid reused by
# another program is not ours).
alive() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 0
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ] &&
		tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q sut_escaper && echo "$1 "
}
# NAME MIN: at least MIN escaped pids were recorded in $W/NAME.pids, and none is running.
none_alive() {
	local f="$W/$1.pids" n left=""
	n=$(wc -l <"$f" 2>/dev/null || echo 0)
	while read -r p; do left+="$(alive "$p")"; done <"$f"
	[ "$n" -ge "$2" ] || { echo "# $1: only $n escaped pids recorded (expected $2 or more)"; return 1; }
	[ -z "$left" ] || { echo "# $1: still running: $left (of $n)"; return 1; }
}
# NAME COMMAND TNORM-ARGS...: tnorm COMMAND with the program's $ESCAPER_PIDS=$W/NAME.pids, its
# output in $W/NAME.out.
tn() {
	local name=$1 cmd=$2; shift 2
	"$T" "$cmd" --env "ESCAPER_PIDS=$W/$name.pids" "$@" >"$W/$name.out" 2>&1
}

printf 'setsid\ndaemon\ncrash\n' >"$W/crash.txt"
printf 'setsid\ndaemon\n' >"$W/pass.txt"
tn run-crash run "$W/crash.txt" -- "$S/sut_escaper" {}
expect "run: the program crashes (SIGABRT)" grep -q 'SIGABRT' "$W/run-crash.out"
expect "run, crash: the setsid child and the daemon are gone" none_alive run-crash 2
tn run-pass run "$W/pass.txt" -- "$S/sut_escaper" {}
expect "run: the program passes" grep -q 'pass' "$W/run-pass.out"
expect "run, pass: the setsid child and the daemon are gone" none_alive run-pass 2

# A reduction: many runs, each starting escapers until the reduced test is just 'crash'.
for i in 1 2 3 4 5 6; do printf 'line%d\nsetsid\ndaemon\n' "$i"; done >"$W/many.txt"
echo crash >>"$W/many.txt"
tn reduce reduce --quiet -o "$W/many.min" "$W/many.txt" -- "$S/sut_escaper" {}
expect "reduce: reduced to the crash" [ "$(cat "$W/many.min" 2>/dev/null)" = crash ]
expect "reduce: no escaped process of any run is left" none_alive reduce 6

# The driver: its runs are the fork server's children (or, with --no-fork-server, programs run
# afresh each time).
H="$SRC/tests/suts/escaper.tnh"
printf 'escape(0)\nescape(1)\ncrash()\n' >"$W/drv.t"
for fs in "" --no-fork-server; do
	tag=drv${fs:+-nofs}
	tn "$tag-run" run $fs "$W/drv.t" -- "$S/sut_escaper_driver" {}
	expect "$tag run: the driver crashes (SIGABRT)" grep -q 'SIGABRT' "$W/$tag-run.out"
	expect "$tag run: its escaped processes are gone" none_alive "$tag-run" 2
	for i in 1 2 3 4 5; do printf 'noop()\nescape(0)\nescape(1)\n'; done >"$W/$tag.t"
	echo 'crash()' >>"$W/$tag.t"
	tn "$tag-reduce" reduce --quiet $fs --harness "$H" -o "$W/$tag.min" "$W/$tag.t" -- \
		"$S/sut_escaper_driver" {}
	expect "$tag reduce: reduced to the crash" [ "$(grep -v '^#' "$W/$tag.min" 2>/dev/null)" = 'crash()' ]
	expect "$tag reduce: no escaped process of any run is left" none_alive "$tag-reduce" 6
	tn "$tag-minimize" minimize --quiet $fs --harness "$H" -o "$W/$tag.norm" "$W/$tag.t" -- \
		"$S/sut_escaper_driver" {}
	expect "$tag minimize: no escaped process of any run is left" none_alive "$tag-minimize" 6
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

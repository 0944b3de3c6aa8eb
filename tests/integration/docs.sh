#!/bin/bash
# SPDX-License-Identifier: MIT
# The man pages and the bash completion that docs/docgen.py generates from docs/ (issue 18), and
# `tnorm --version`.  The completion is sourced and called as bash calls it (COMP_WORDS,
# COMP_CWORD); its commands and options are checked against the CLI itself, so that the docs
# they come from cannot drift from it: every command `tnorm --help` lists has a page, every
# option a page's SYNOPSIS gives is one the command accepts, every option in a command's usage
# lines is in its SYNOPSIS, and the --match policies are the ones the CLI parses.
. "$(dirname "$0")/lib.sh"
D=$B/docs
COMPLETION=$D/tnorm

# --- tnorm --version names each library with its version ---
ver=$($T --version)
echo "$ver" | sed 's/^/    /'
expect "--version: tnorm's own version first" sh -c "echo '$ver' | head -1 | grep -qx 'tnorm [0-9.]*'"
for lib in libunwind libdwarf capstone SQLite jansson libpq Python; do
	expect "--version: $lib and a version" sh -c "echo '$ver' | grep -qE '^$lib +[0-9][0-9.]* \\((compiled|running)\\)'"
done
proj=$(meson introspect --projectinfo "$B" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
expect "--version: the project's version in meson.build ($proj; TNORM_VERSION in tnorm/common.h)" \
	sh -c "echo '$ver' | head -1 | grep -qx 'tnorm $proj'"
sqlite_rt=$(python3 -c 'import sqlite3; print(sqlite3.sqlite_version)')
expect "--version: the SQLite it runs with is the system's ($sqlite_rt)" \
	sh -c "echo '$ver' | grep -qE '^SQLite .* $sqlite_rt \\(running\\)'"
jansson_pc=$(pkg-config --modversion jansson 2>/dev/null || echo unknown)
expect "--version: the jansson it was compiled with is the system's ($jansson_pc)" \
	sh -c "echo '$ver' | grep -qE '^jansson +$jansson_pc \\(compiled\\)'"

# --- commands: tnorm --help, the completion and the man pages agree ---
cli_cmds=$($T --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' | sort | tr '\n' ' ')
comp_cmds=$(bash -c ". '$COMPLETION'; echo \$_tnorm_commands" | tr ' ' '\n' | sort | tr '\n' ' ')
if [ "$cli_cmds" = "$comp_cmds" ]; then
	ok "the completion knows every command: $cli_cmds"
else
	bad "commands: tnorm --help lists '$cli_cmds', the completion '$comp_cmds' (a command needs docs/commands/NAME.md; after adding one, meson setup --reconfigure)"
fi
pages=$(python3 "$SRC/docs/docgen.py" list "$SRC/docs")
for c in $cli_cmds; do
	# The page of tnorm-c (its own, or the one whose second name it is) is built.
	page=$(awk -v n="tnorm-$c" '{for (i = 2; i <= NF; i++) if ($i == n) print $2}' <<<"$pages")
	if [ -n "$page" ] && [ -f "$D/$page.1" ]; then
		ok "tnorm-$c(1) is built ($page.1)"
	else
		bad "no man page for tnorm $c in $D (docs/commands/$c.md, then meson setup --reconfigure)"
	fi
done

# --- man pages: each renders without a warning, and its NAME line is what whatis reads ---
if command -v man >/dev/null && command -v lexgrog >/dev/null; then
	for page in "$D"/tnorm*.[15]; do
		name=$(basename "$page")
		warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null | grep -v "can't break line")
		if [ -z "$warn" ]; then ok "$name renders without warnings"; else bad "$name: $warn"; fi
		expect "$name: whatis reads its NAME line" sh -c "lexgrog '$page' | grep -q 'tnorm.* - [a-z]'"
	done
	expect "tnorm(1) refers to every command's page and to tnorm-harness(5)" sh -c \
		"LC_ALL=C.UTF-8 MANWIDTH=200 man -l '$D/tnorm.1' 2>/dev/null | tr -d '\\n ' > '$W/see' &&
		 for c in $cli_cmds; do grep -q \"tnorm-\$c(1)\" '$W/see' || exit 1; done && grep -q 'tnorm-harness(5)' '$W/see'"
	expect "tnorm-run(1) shows the SYNOPSIS of docs/commands/run.md" sh -c \
		"LC_ALL=C.UTF-8 MANWIDTH=300 man -l '$D/tnorm-run.1' 2>/dev/null | grep -q -- 'tnorm run \\[--json\\] \\[--match P\\]'"
else
	bad "man pages not rendered: man and lexgrog are not installed (apt-get install man-db)"
fi

# --- the completion, called as bash calls it ---
. "$COMPLETION"
complete_words() { # WORD... (the last one is being completed): print the candidates, one a line
	(
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_tnorm
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"
	)
}
has() { # CANDIDATES WORD...: every WORD is a candidate
	local c=$1 w
	shift
	for w in "$@"; do grep -qxF -- "$w" <<<"$c" || return 1; done
}
out=$(complete_words tnorm "")
expect "tnorm <TAB>: every command, --help and --version" has "$out" $cli_cmds --help --version
out=$(complete_words tnorm mi)
expect "tnorm mi<TAB>: minimize" test "$out" = minimize
out=$(complete_words tnorm reduce --m)
expect "tnorm reduce --m<TAB>: --match --max-runs --max-time --mem" test "$(echo $out)" = "--match --max-runs --max-time --mem"
out=$(complete_words tnorm minimize --harness h.tnh --no-)
expect "tnorm minimize --no-<TAB>: its own --no-replay, and the runner's" has "$out" --no-replay --no-db --no-fork-server --no-rewire
out=$(complete_words tnorm normalize --no-)
lacks() { ! grep -qxF -- "$2" <<<"$1"; } # CANDIDATES WORD: WORD is not one
expect "tnorm normalize --no-<TAB>: no --no-replay (minimize only)" lacks "$out" --no-replay
out=$(complete_words tnorm reduce --match "")
expect "tnorm reduce --match <TAB>: the policies" test "$(echo $out)" = "line stack: kind any output:"
out=$(complete_words tnorm run --match st)
expect "tnorm run --match st<TAB>: stack:" test "$out" = "stack:"
out=$(complete_words tnorm minimize --rules "")
expect "tnorm minimize --rules <TAB>: calls paper" test "$(echo $out)" = "calls paper"
out=$(complete_words tnorm reduce --algo "")
expect "tnorm reduce --algo <TAB>: adaptive ddmin" test "$(echo $out | tr ' ' '\n' | sort | tr '\n' ' ')" = "adaptive ddmin "
out=$(cd "$SRC" && complete_words tnorm check examples/avl/avl.t)
expect "tnorm check examples/avl/avl.t<TAB>: the harness file" has "$out" examples/avl/avl.tnh
out=$(cd "$SRC" && complete_words tnorm minimize --harness examples/avl/)
expect "tnorm minimize --harness examples/avl/<TAB>: *.tnh and folders" has "$out" examples/avl/avl.tnh examples/avl/tests
expect "tnorm minimize --harness examples/avl/<TAB>: no other files" lacks "$out" examples/avl/avl.c
out=$(complete_words tnorm run t.t -- ls)
expect "after --: the program (a command name)" has "$out" ls
out=$(complete_words tnorm run t.t -- ./d "")
expect "after -- PROG: {} among the arguments" has "$out" "{}"
out=$(complete_words tnorm gen --steps "")
expect "tnorm gen --steps <TAB>: nothing (a number)" test -z "$out"

# --- the completion's options against the CLI ---
for c in $cli_cmds; do
	opts=$(_tnorm_options "$c")
	# Each option the SYNOPSIS gives is one the command accepts.
	refused=
	for o in $opts; do
		kind=$(_tnorm_value "$c" "$o")
		case $o:$kind in
		--env:*) v=A=1 ;;
		--mem:*) v=1M ;;
		*:match) v=line ;;
		*:words:*) v=${kind#words:}; v=${v%% *} ;;
		*:) v= ;;
		*) v=1 ;;
		esac
		if $T "$c" "$o" $v 2>&1 | grep -q "unknown option"; then refused="$refused $o"; fi
	done
	if [ -z "$refused" ]; then ok "tnorm $c accepts each option of its SYNOPSIS"; else bad "tnorm $c refuses$refused (docs/commands: SYNOPSIS)"; fi
	# Each option of its usage lines (tnorm CMD --help, up to the first blank line) is completed.
	usage=$($T "$c" --help | sed '/^$/q' | grep -oE '(^|[][ (|])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[][ (|]//' | sort -u)
	missing=
	for o in $usage; do
		case " $opts --help -- " in *" $o "*) ;; *) missing="$missing $o" ;; esac
	done
	if [ -z "$missing" ]; then ok "tnorm $c: every option of its usage is completed"; else bad "tnorm $c --help has$missing, its SYNOPSIS in docs/commands does not"; fi
done
# The policies are the ones the CLI names when it refuses one.
msg=$($T run --match nosuchpolicy t -- true 2>&1)
cli_pol=$(echo "$msg" | sed -n 's/.*expected \(.*\)/\1/p' | sed 's/, / /g; s/ or / /; s/:[A-Z]*/:/g')
comp_pol=$_tnorm_policies
expect "--match policies: the completion's ($comp_pol) are the CLI's ($cli_pol)" test "$comp_pol" = "$cli_pol"

# --- what a newcomer missed or found contradicted (issue 32, item 7) ---
R=$SRC/README.md
expect "README: its first two commands are still the main and the test command, first" sh -c \
	"grep -n '^<!-- [a-z-]*command -->\$' '$R' | head -2 | sed 's/^[0-9]*://' | tr '\n' ' ' | grep -qx '<!-- main-command --> <!-- test-command --> ' && [ \$(grep -n '^<!-- main-command -->' '$R' | cut -d: -f1) -lt \$(grep -n '^\`\`\`' '$R' | head -1 | cut -d: -f1) ]"
expect "README: a plain build line" grep -qx 'meson setup build && ninja -C build' "$R"
expect "generalization.md agrees with normalize.md: -j runs the experiments in parallel" sh -c \
	"! grep -q 'Not yet.*-j' '$SRC/docs/generalization.md' && grep -q '^\`-j N\` (default: the number of cores) runs the experiments on N workers' '$SRC/docs/generalization.md' && grep -q 'runs the$' '$SRC/docs/commands/normalize.md'"
expect "generalization.md: the legend line, and # - B is a range" sh -c \
	"grep -q '^# how to read: ' '$SRC/docs/generalization.md' && grep -q 'a range, not a minus' '$SRC/docs/generalization.md'"
expect "driver.md: how long tnorm_value.s lives, and the print hook's rules" sh -c \
	"grep -q '^### How long a string lives: \`tnorm_value.s\` is borrowed' '$SRC/docs/driver.md' && grep -q 'return 0 when it printed, nonzero when it cannot' '$SRC/docs/driver.md'"
# The uninstalled .pc that driver.md documents builds a driver with no install step.
mkdir "$W/pc" && (cd "$W/pc" && "$B/core/driver/tnorm-embed" "$SRC/tests/driver/kv.tnh" kv_harness.c kv_harness &&
	PKG_CONFIG_PATH=$B/meson-uninstalled cc -O0 -g -o kv_driver "$SRC/tests/driver/kv.c" kv_harness.c \
		$(PKG_CONFIG_PATH=$B/meson-uninstalled pkg-config --cflags --libs tnorm-driver)) >"$W/pc.log" 2>&1
printf 'kv0 = kv_new()\nkey0 = "x"\nval0 = 1\nkv_put(kv0, key0, val0)\n' >"$W/pc/ok.t"
expect "driver.md: a driver built with build/meson-uninstalled (pkg-config tnorm-driver) runs" sh -c \
	"grep -q 'tnorm_drv_main' '$SRC/tests/driver/kv.c' && '$W/pc/kv_driver' '$W/pc/ok.t' && grep -q 'meson-uninstalled/tnorm-driver-uninstalled.pc' '$SRC/docs/driver.md'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

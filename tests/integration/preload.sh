#!/bin/bash
# SPDX-License-Identifier: MIT
# The preload fork server (issue 30, item 3): a program that is not a tnorm driver is served by
# libtnorm_preload.so (core/preload/), and each served run starts exactly as a fresh one would.
# A test program (below) writes what it started with into a log: argv, the environment, the
# folder, its descriptors, rlimits, signal masks and dispositions, its own process group, what
# its own constructor read from the candidate, and whether its parent was a fork server.  Checked:
# served and fresh runs see the same (plain, clang ASan with its static runtime, gcc ASan with
# its shared one) and give the same outcome and signature; by default the first run is a plain
# one, the same candidate is run again served, and later runs are served; TNORM_PRELOAD=off and
# --no-fork-server never preload; a program whose served run differs, a static binary and a
# set-user-ID one run afresh every time; the user's LD_PRELOAD (--env) is kept; a served run
# that hangs times out; `tnorm reduce` ends on the same test either way.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test), gcc and clang.
. "$(dirname "$0")/lib.sh"
cd "$W" || exit 1
# This test is about the served run itself: an execution mode chosen for the whole suite
# (TNORM_FORK_SERVER=off, TNORM_PERSISTENT=off, as tests/run-all.sh passes) does not apply to it.
unset TNORM_PRELOAD TNORM_FORK_SERVER TNORM_PERSISTENT LD_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS

cat >state.c <<'CEOF'
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
extern char **environ;
static char early[64] = "none";
__attribute__((constructor)) static void early_read(void)
{
	/* The program's own constructor reads its input: it must see each run's candidate. */
	FILE *f;
	char cmd[4096];
	size_t n;
	f = fopen("/proc/self/cmdline", "r");
	n = f ? fread(cmd, 1, sizeof(cmd) - 1, f) : 0;
	if (f)
		fclose(f);
	cmd[n] = '\0';
	f = fopen(cmd + strlen(cmd) + 1, "r");
	if (f && fgets(early, sizeof(early), f))
		early[strcspn(early, "\n")] = '\0';
	if (f)
		fclose(f);
}
int main(int argc, char **argv)
{
	FILE *log = fopen(argv[2], "a"), *in = fopen(argv[1], "r");
	char line[256] = "", exe[4096], path[64], cwd[4096];
	struct rlimit rl;
	struct dirent *e;
	DIR *d;
	int i, served;
	ssize_t n;
	if (!log || !in)
		return 2;
	if (!fgets(line, sizeof(line), in))
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)getppid());
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	served = n > 0 && !strcmp(strrchr(exe, '/'), strrchr(argv[0], '/'));
	fprintf(log, "served: %s\n", served ? "yes" : "no");
	fprintf(log, "input: %s early: %s\n", line, early);
	for (i = 0; i < argc; i++)
		fprintf(log, "argv[%d] = %s\n", i, i == 1 ? "(the candidate)" : argv[i]);
	for (i = 0; environ[i]; i++)
		fprintf(log, "env: %s\n", environ[i]);
	fprintf(log, "cwd: %s\n", getcwd(cwd, sizeof(cwd)) ? "(the run folder)" : "?");
	if ((d = opendir("/proc/self/fd"))) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d))
				fprintf(log, "fd: %s\n", e->d_name);
		closedir(d);
	}
	for (i = 0; i < RLIM_NLIMITS; i++)
		if (getrlimit(i, &rl) == 0)
			fprintf(log, "rlimit %d: %llu %llu\n", i, (unsigned long long)rl.rlim_cur,
			        (unsigned long long)rl.rlim_max);
	{
		FILE *st = fopen("/proc/self/status", "r");
		char s[256];
		while (st && fgets(s, sizeof(s), st))
			if (!strncmp(s, "Sig", 3) || !strncmp(s, "Shd", 3))
				fprintf(log, "%s", s);
		if (st)
			fclose(st);
	}
	fprintf(log, "pgid is pid: %d\n", getpgrp() == getpid());
	fprintf(log, "--\n");
	fclose(log);
#ifdef DIFFER
	if (served)
		return 4; /* a program that is not the same when served */
#endif
	if (!strcmp(line, "hang"))
		for (;;)
			pause();
	if (strstr(line, "crash"))
		*(volatile int *)0 = 1;
	if (!strcmp(line, "abort"))
		abort();
	return !strcmp(line, "exit3") ? 3 : 0;
}
CEOF
T() { "$TNORM_EXE" "$@"; }
cc -g -O1 -w -o state state.c &&
	clang -g -O1 -w -fsanitize=address -fno-omit-frame-pointer -o state-clang-asan state.c &&
	gcc -g -O1 -w -fsanitize=address -fno-omit-frame-pointer -o state-gcc-asan state.c &&
	cc -g -O1 -w -DDIFFER -o state-differ state.c || { bad "build the test program"; exit 1; }
cc -O1 -w -static -o state-static state.c 2>/dev/null || rm -f state-static
cp state state-suid && chmod u+s state-suid
printf 'crash\n' >crash.t
printf 'hang\n' >hang.t
printf 'abc crash def\nghi\njkl\n' >big.t

# What a run saw, without what may differ between two runs: the log's path, the fork-server
# variable and its socket a program that is not a driver gets on its first run (not a served
# one), the system-wide queued-signal count.
states() { # LOG: the runs' entries, one file each: LOG.1, LOG.2 ...
	awk -v p="$1" 'BEGIN{k=1} /^--$/{k++; next} {print > (p "." k)}' "$1"
	for f in "$1".[0-9]*; do
		grep -v -e '^argv\[2\]' -e '^env: TNORM_FORK_SERVER=' -e '^SigQ:' "$f" |
			grep -v -x "fd: $(sed -n 's/^env: TNORM_FORK_SERVER=//p' "$f")" >"$f.s"
	done
}
served() { grep '^served:' "$1" | cut -d' ' -f2 | tr '\n' ' '; } # LOG: "no yes yes ..."
sig() { sed -n 's/^signature: //p; s/^outcome: //p' "$1" | tr '\n' ' '; }

for p in state state-clang-asan state-gcc-asan; do
	TNORM_PRELOAD=off T run crash.t -- ./$p {} "$W/$p-off.log" >$p-off.out 2>&1
	TNORM_PRELOAD=always T run crash.t -- ./$p {} "$W/$p-on.log" >$p-on.out 2>&1
	states $p-off.log
	states $p-on.log
	expect "$p: TNORM_PRELOAD=off starts it afresh, always serves it" \
		[ "$(served $p-off.log)" = "no " ] && [ "$(served $p-on.log)" = "yes " ]
	expect "$p: the same outcome and signature served and afresh ($(sig $p-on.out))" \
		[ "$(sig $p-off.out)" = "$(sig $p-on.out)" ] && grep -q '^signature: SIGSEGV at main (state.c:' $p-on.out
	expect "$p: the served run starts as a fresh one (argv, environment, folder, fds, rlimits, signals)" \
		diff <(grep -v '^served:' $p-off.log.1.s) <(grep -v '^served:' $p-on.log.1.s)
	expect "$p: its own constructor read the run's candidate" grep -q '^input: crash early: crash$' $p-on.log
done
expect "gcc's shared ASan runtime: ASAN_OPTIONS is the run's own again (verify_asan_link_order taken out)" \
	sh -c "grep -q '^env: ASAN_OPTIONS=' state-gcc-asan-on.log && ! grep -q verify_asan_link_order state-gcc-asan-on.log && ! grep -q '^env: LD_PRELOAD' state-gcc-asan-on.log"

# The default: the first run afresh, the same candidate again served (the confirmation).
T run crash.t -- ./state {} "$W/default.log" >default.out 2>&1
states default.log
expect "default: the first run afresh, then the same candidate served" [ "$(served default.log)" = "no yes " ]
expect "default: the run's result is the plain run's" [ "$(sig default.out)" = "$(sig state-off.out)" ]
expect "default: the two runs saw the same" diff <(grep -v '^served:' default.log.1.s) <(grep -v '^served:' default.log.2.s)

# A reduction: served from the confirmation on, and the same result either way.
T reduce --no-db --quiet -o red-on.t big.t -- ./state {} "$W/red-on.log" >/dev/null 2>&1
TNORM_PRELOAD=off T reduce --no-db --quiet -o red-off.t big.t -- ./state {} "$W/red-off.log" >/dev/null 2>&1
expect "reduce: every run after the first served ($(grep -c . <(served red-on.log | tr ' ' '\n')) runs)" \
	eval "[ \"\$(served red-on.log | cut -d' ' -f1-2)\" = 'no yes' ] && ! served red-on.log | cut -d' ' -f3- | grep -q no"
expect "reduce: the same test with and without the preload ($(cat red-on.t 2>/dev/null))" cmp red-on.t red-off.t

# Off: TNORM_PRELOAD=off, --no-fork-server.
T reduce --no-db --quiet --no-fork-server -o red-nofs.t big.t -- ./state {} "$W/nofs.log" >/dev/null 2>&1
TNORM_PRELOAD=off T run crash.t -- ./state {} "$W/off.log" >/dev/null 2>&1
expect "--no-fork-server and TNORM_PRELOAD=off: never served" \
	eval "! grep -q 'served: yes' nofs.log && ! grep -q 'served: yes' off.log && cmp red-nofs.t red-off.t"

# Fallback: a program whose served run differs, a static one, a set-user-ID one.
T reduce --no-db --quiet -o red-differ.t big.t -- ./state-differ {} "$W/differ.log" >/dev/null 2>&1
expect "a program that differs when served: confirmed once, then afresh every run" \
	eval "[ \"\$(served differ.log | cut -d' ' -f1-2)\" = 'no yes' ] && ! served differ.log | cut -d' ' -f3- | grep -q yes && cmp red-differ.t red-off.t"
if [ -x state-static ]; then
	T run crash.t -- ./state-static {} "$W/static.log" >static.out 2>&1
	expect "a static program: started afresh (one run)" eval "[ \"\$(served static.log)\" = 'no ' ] && grep -q '^outcome: fail' static.out"
fi
T run crash.t -- ./state-suid {} "$W/suid.log" >suid.out 2>&1
expect "a set-user-ID program: started afresh (one run)" eval "[ \"\$(served suid.log)\" = 'no ' ] && grep -q '^outcome: fail' suid.out"

# The user's LD_PRELOAD stays, first.
TNORM_PRELOAD=always T run --env LD_PRELOAD=/nonexistent/libnone.so crash.t -- ./state {} "$W/user.log" >/dev/null 2>&1
expect "--env LD_PRELOAD=...: the program sees the user's value, and is served" \
	eval "grep -qx 'env: LD_PRELOAD=/nonexistent/libnone.so' user.log && [ \"\$(served user.log)\" = 'yes ' ]"

# A served run that hangs: its timeout (the child's process group is killed, not the server).
TNORM_PRELOAD=always T run --timeout 0.5 hang.t -- ./state {} "$W/hang.log" >hang.out 2>&1
expect "a served run that hangs times out" \
	eval "grep -q '^outcome: timeout' hang.out && [ \"\$(served hang.log)\" = 'yes ' ]"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

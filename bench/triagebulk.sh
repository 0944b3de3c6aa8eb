#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/triagebulk.sh: triage's cost per file on a large folder of duplicate crashes (issue 38,
# item 3: a 100,000-file folder of mostly duplicate crashes in 10 minutes on 2 cores).
#
# N files (default 100000) of 6-43 random bytes whose second byte is 'A', 'B' or 'C' pick one of
# the three bugs of bench/bulk/bulk.c (built here with gcc -O1 -g, no sanitizer), so every file
# crashes and the folder holds three bugs.  Prints, in one table: PLAIN files (default 5000, an
# even sample of the folder) run once each by a C loop (fork + exec + wait: the plain cost per
# file; a process costs 10-20 ms here, so all 100,000 would take longer than the triage), and `tnorm triage --no-db -j JOBS` of the folder
# (the default, sampled method): wall, CPU (user + sys of everything, from the shell's `times`),
# CPU per file, files per second, and the buckets.  On a loaded machine the CPU per file is the
# figure to compare; the wall time is what the user waits.
#
# usage: bash bench/triagebulk.sh        (after `meson setup build && ninja -C build`)
#        BUILD=dir another build; N=files; PLAIN=files run plainly; JOBS=workers (default 2);
#        KEEP=1 keeps the folder
set -u
cd "$(dirname "$0")/.." || exit 2
N=${N:-100000} PLAIN=${PLAIN:-5000} JOBS=${JOBS:-2} B=$(realpath -m "${BUILD:-build}")
T=$B/core/cli/tnorm
[ -x "$T" ] || { echo "build first: meson setup $B && ninja -C $B" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/triagebulk.XXXXXX") || exit 3
[ "${KEEP:-0}" = 1 ] && echo "work folder: $W" || trap 'rm -rf "$W"' EXIT
gcc -O1 -g -o "$W/bulk" bench/bulk/bulk.c || exit 3
cat >"$W/loop.c" <<'LOOP'
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	DIR *d = opendir(argv[2]);
	struct dirent *e;
	char path[4096];
	long every = atol(argv[3]), k = 0;
	while (d && (e = readdir(d))) {
		pid_t pid;
		if (e->d_name[0] == '.' || k++ % every)
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[2], e->d_name);
		if ((pid = fork()) == 0) {
			execl(argv[1], argv[1], path, (char *)0);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
	}
	return 0;
}
LOOP
gcc -O2 -o "$W/loop" "$W/loop.c" || exit 3
python3 - "$W/crashes" "$N" <<'GEN' || exit 3
import os, random, sys
random.seed(38)
os.makedirs(sys.argv[1])
for i in range(int(sys.argv[2])):
    data = bytes([random.randrange(256), random.choice(b"ABC")]) + os.urandom(random.randrange(4, 42))
    with open(os.path.join(sys.argv[1], "crash-%06d" % i), "wb") as f:
        f.write(data)
GEN
# CPU of the shell's children: `times` in the shell itself (in a subshell, $(...) or a pipeline,
# it would start again from zero), read back at the end.
cpu() { times >"$W/times.$1"; }
secs() { awk 'END { split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$W/times.$1"; }
echo "$(uptime)"
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo ?), $N files, $(nproc) cores"
cpu 0; t0=$(date +%s.%N)
every=$(( N > PLAIN ? N / PLAIN : 1 )); nplain=$(( (N + every - 1) / every ))
"$W/loop" "$W/bulk" "$W/crashes" "$every" 2>/dev/null
t1=$(date +%s.%N); cpu 1
"$T" triage "$W/crashes" -o "$W/out" --no-db -j "$JOBS" --quiet -- "$W/bulk" @@ >"$W/triage.txt" 2>&1
rc=$?
t2=$(date +%s.%N); cpu 2
[ $rc = 0 ] || { echo "triage exited $rc:"; tail -5 "$W/triage.txt"; exit 1; }
buckets=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(len(r["buckets"]), r.get("minimized", "?"), r.get("assigned", "?"))' "$W/out/report.json")
echo "$(uptime)"
awk -v n="$N" -v np="$nplain" -v t0="$t0" -v t1="$t1" -v t2="$t2" -v c0="$(secs 0)" -v c1="$(secs 1)" -v c2="$(secs 2)" \
	-v b="$buckets" 'BEGIN {
	pw = t1 - t0; pc = c1 - c0; tw = t2 - t1; tc = c2 - c1
	split(b, x, " ")
	printf "| what | wall s | CPU s | CPU ms/file | files/s (wall) |\n|---|---|---|---|---|\n"
	printf "| %d files run once each (fork + exec + wait) | %.1f | %.1f | %.2f | %.0f |\n", np, pw, pc, pc * 1000 / np, np / pw
	printf "| tnorm triage (sampled, %s buckets, %s minimized, %s assigned) | %.1f | %.1f | %.2f | %.0f |\n", x[1], x[2], x[3], tw, tc, tc * 1000 / n, n / tw
	printf "triage CPU / plain CPU, per file: %.2fx; projected for 100,000 files on 2 idle cores: %.0f s\n", (tc / n) / (pc / np), tc / n * 100000 / 2
}'

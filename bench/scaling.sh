#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/scaling.sh: what a triage costs per failure, and what it asks of the shared database
# (issue 19, docs/scaling.md).  N failing AVL tests (100 steps, from `tnorm fuzz`) are triaged
# three ways on this machine:
#   1. one process, -j JOBS, a SQLite file (the default);
#   2. two shards in parallel (-j 1 each), a PostgreSQL server (a throwaway one, as in
#      tests/integration/pg.sh), then the unsharded report run;
#   3. the same two shards again on a fresh server database, with the server's counters
#      reset first: rows written, transactions and index lookups per test.
# Prints wall and CPU seconds (tnorm and everything it ran), runs per test, and the database
# work per test, as a table.  On a loaded machine compare the rows of one run with each other.
#
# usage: bash bench/scaling.sh           (after `meson setup build && ninja -C build`)
#        BUILD=dir another build; N=failures (default 60); JOBS=workers for row 1 (default 2)
set -u
cd "$(dirname "$0")/.." || exit 2
SRC=$PWD
B=${BUILD:-build}
case $B in /*) ;; *) B=$SRC/$B ;; esac
T=$B/core/cli/tnorm
D=$B/examples/avl/avl_driver_faulty
H=$SRC/examples/avl/avl.tnh
N=${N:-60}
JOBS=${JOBS:-2}
[ -x "$T" ] && [ -x "$D" ] || { echo "build first: meson setup $B && ninja -C $B" >&2; exit 2; }
. "$SRC/tests/integration/pg-lib.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/scaling.XXXXXX") || exit 3
trap 'pg_stop; rm -rf "$W"' EXIT
pg_start || exit 1
pg_createdb shards && pg_createdb counted || exit 1
echo "$(uptime)"
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo ?), $N failures"
"$T" fuzz "$H" --seed 1 --runs 0 --max-time 3600 --max-failures "$N" -o "$W/c" --quiet \
	-- "$D" {} >/dev/null 2>&1
rm -f "$W"/c/*.sig
NT=$(ls "$W"/c | wc -l)

# cpu_of CMD...: run it; prints "WALL CPU" (CPU = user + sys of it and its children).
cpu_of() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys, time
t0 = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.1f %.1f" % (time.monotonic() - t0, r.ru_utime + r.ru_stime))
EOF
}
runs_per_test() {
	python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; f=[x['runs'] for x in r if x['status']=='ok']; print('%.0f' % (sum(f)/max(1,len(f))))" "$1"
}
# Two shards in parallel, then the report: prints "WALL CPU".
shards() { # URL OUT
	python3 - "$T" "$H" "$W/c" "$1" "$2" "$D" <<'EOF'
import resource, subprocess, sys, time
t, h, c, url, out, d = sys.argv[1:]
t0 = time.monotonic()
ps = [subprocess.Popen([t, "triage", c, "--harness", h, "--shard", "%d/2" % k, "-j", "1",
                        "--db", url, "-o", "%s-%d" % (out, k), "--quiet", "--", d, "{}"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for k in (0, 1)]
for p in ps:
    p.wait()
t1 = time.monotonic()
subprocess.run([t, "triage", c, "--harness", h, "--db", url, "-o", out, "--quiet", "--", d, "{}"],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.1f %.1f %.1f" % (t1 - t0, time.monotonic() - t1, r.ru_utime + r.ru_stime))
EOF
}

read -r w1 c1 < <(cpu_of "$T" triage "$W/c" --harness "$H" -j "$JOBS" --db "$W/one.db" \
	-o "$W/one" --quiet -- "$D" {})
read -r w2 wr2 c2 < <(shards "$(pg_url shards)" "$W/two")
# The server's CPU: its processes' and their reaped children's (each connection is a process
# that ends with it), in clock ticks, from /proc.
server_cpu() {
	python3 -c "import os,sys; f=open('/proc/%s/stat' % sys.argv[1]).read().rsplit(')',1)[1].split(); print(sum(int(x) for x in f[11:15]) / os.sysconf('SC_CLK_TCK'))" "$(head -1 "$PGDIR/data/postmaster.pid")"
}
pg_psql counted "SELECT pg_stat_reset()" >/dev/null
s0=$(server_cpu)
read -r w3 wr3 c3 < <(shards "$(pg_url counted)" "$W/three")
sleep 1 # the server's statistics are sent at most twice a second
sdb=$(python3 -c "print('%.1f' % ($(server_cpu) - $s0))")
read -r rows commits lookups < <(pg_psql counted "SELECT (SELECT sum(n_tup_ins + n_tup_upd) FROM pg_stat_user_tables), (SELECT xact_commit FROM pg_stat_database WHERE datname = 'counted'), (SELECT sum(coalesce(idx_scan, 0)) FROM pg_stat_user_tables)" | tr '|' ' ')
per() { python3 -c "print('%.1f' % ($1 / $NT))"; }
echo
echo "| way | tests | wall s | report run s | CPU s | CPU s/test | runs/test |"
echo "| --- | ----- | ------ | ------------ | ----- | ---------- | --------- |"
echo "| 1 process -j $JOBS, SQLite | $NT | $w1 | - | $c1 | $(per "$c1") | $(runs_per_test "$W/one/report.json") |"
echo "| 2 shards -j 1, PostgreSQL | $NT | $w2 | $wr2 | $c2 | $(per "$c2") | $(runs_per_test "$W/two/report.json") |"
echo "| 2 shards again, counted | $NT | $w3 | $wr3 | $c3 | $(per "$c3") | $(runs_per_test "$W/three/report.json") |"
echo
echo "| database work (PostgreSQL, shards + report run) | total | per test |"
echo "| ------------------------------------------------ | ----- | -------- |"
echo "| rows written (inserts + updates) | $rows | $(per "$rows") |"
echo "| transactions committed | $commits | $(per "$commits") |"
echo "| index lookups | $lookups | $(per "$lookups") |"
echo "| server CPU s (all its processes) | $sdb | $(python3 -c "print('%.3f' % ($sdb / $NT))") |"
same=$(python3 -c "import json,sys; k=lambda f:[(b['count'],b['normal_form'],b['tests']) for b in json.load(open(f))['buckets']]; print('yes' if k(sys.argv[1])==k(sys.argv[2])==k(sys.argv[3]) else 'NO')" "$W/one/report.json" "$W/two/report.json" "$W/three/report.json")
echo
echo "same buckets all three ways: $same"

#!/bin/bash
# SPDX-License-Identifier: MIT
# Persistent mode (issue 30, item 2): a driver's fork-server child runs candidates one after
# another while they pass.  A test driver built here (with the build's uninstalled tnorm-driver
# .pc) appends its process id to a log at every test, so the log shows how many processes ran
# the runs of one `tnorm fuzz`.  Checked: with persistent mode (the default) a few processes
# run many tests, with TNORM_PERSISTENT=off, --no-fork-server or a driver that opts out
# (TNORM_DRV_NOT_PERSISTENT) one process runs each, and TNORM_PERSISTENT=N starts a fresh child
# after N; the failures found, and their signatures, are the same every way; a driver whose
# global state makes a reused child fail has that failure confirmed in a fresh child, where it
# passes, so nothing is reported; `tnorm minimize` of the examples' failing tests ends on the
# same normal form either way; a driver whose tests leave a process or a thread running has its
# child end after such a test (no test runs after it there) and leaves nothing behind.
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test) and a C compiler.
. "$(dirname "$0")/lib.sh"
cd "$W" || exit 1
unset TNORM_PERSISTENT TNORM_FORK_SERVER

cat >ctr.tnh <<'HEOF'
pool c 2
<c> := c_new()
c_tick(<c>)
check c_ok(<c>)
HEOF
cat >ctr.c <<'CEOF'
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "tnorm/driver.h"
extern const char ctr_harness[];
#ifdef OPT_OUT
TNORM_DRV_NOT_PERSISTENT;
#endif
static long total; /* state the pools do not own: every tick this process made */
static int h_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	FILE *f = fopen(LOG, "a");
	(void)d, (void)a;
	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	res->p = calloc(1, sizeof(long));
	return 0;
}
static int h_tick(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d, (void)res;
	++*(long *)a[0]->p;
	total++;
	return 0;
}
static int h_ok(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d, (void)res;
#ifdef STATEFUL
	assert(total < 8); /* fails only in a process that ran earlier tests */
#endif
	assert(*(long *)a[0]->p < 4); /* the real bug: four ticks on one counter */
	return 0;
}
static void destroy(tnorm_drv *d, tnorm_value *v)
{
	(void)d;
	free(v->p);
}
static const tnorm_drv_handler handlers[] = {
	{"c_new", h_new}, {"c_tick", h_tick}, {"c_ok", h_ok}, {NULL, NULL}};
static const tnorm_drv_pool pools[] = {{"c", destroy, NULL}, {NULL, NULL, NULL}};
int main(int argc, char **argv)
{
	return tnorm_drv_main_pools(argc, argv, ctr_harness, handlers, pools);
}
CEOF
build() { # NAME [CFLAGS...]
	local n=$1
	shift
	cc -O0 -g -DLOG="\"$W/$n.log\"" "$@" -o "$n" ctr.c ctr_harness.c \
		$(PKG_CONFIG_PATH=$B/meson-uninstalled pkg-config --cflags --libs tnorm-driver)
}
if ! { "$B/core/driver/tnorm-embed" ctr.tnh ctr_harness.c ctr_harness && build plain &&
	build optout -DOPT_OUT && build stateful -DSTATEFUL; } >build.log 2>&1; then
	cat build.log
	bad "the test drivers build"
	echo "$pass passed, $fail failed"
	exit 1
fi

# fuzz NAME DRIVER [tnorm options...]: 60 random tests of 6 steps; the failures (their
# signatures) in NAME.sigs, the distinct process ids that ran tests in NAME.pids (c_new logs
# its process's id, once or more per test).
fuzz() {
	local n=$1 d=$2
	shift 2
	rm -f "$W/$d.log"
	"$T" fuzz ctr.tnh --steps 6 --runs 60 --seed 1 -o "fz-$n" --quiet "$@" -- "./$d" {} \
		>"$n.out" 2>&1
	cat "fz-$n"/*.sig 2>/dev/null | sort >"$n.sigs"
	sort -u "$W/$d.log" | wc -l >"$n.pids"
}
fuzz on plain
TNORM_PERSISTENT=off fuzz off plain
TNORM_PERSISTENT=5 fuzz five plain
fuzz nofs plain --no-fork-server
fuzz optout optout
fuzz stateful stateful
TNORM_PERSISTENT=off fuzz stateful-off stateful

expect "fuzz found failures (the real bug)" test -s on.sigs
expect "the same failures and signatures with TNORM_PERSISTENT=off" cmp -s on.sigs off.sigs
expect "... with TNORM_PERSISTENT=5" cmp -s on.sigs five.sigs
expect "... with --no-fork-server" cmp -s on.sigs nofs.sigs
expect "... with a driver that opted out" cmp -s on.sigs optout.sigs
expect "... with a driver whose global state fails in a reused child (confirmed fresh)" \
	cmp -s on.sigs stateful.sigs
expect "... and that driver without persistent mode" cmp -s stateful.sigs stateful-off.sigs
pids_on=$(cat on.pids)
echo "# processes that ran the 60 tests: persistent $pids_on, off $(cat off.pids), N=5" \
	"$(cat five.pids), opted out $(cat optout.pids), stateful $(cat stateful.pids)"
expect "persistent mode: fewer processes than tests ($pids_on < 30)" test "$pids_on" -lt 30
expect "TNORM_PERSISTENT=off: a process per test" test "$(cat off.pids)" = 60
expect "--no-fork-server: a process per test" test "$(cat nofs.pids)" = 60
expect "TNORM_DRV_NOT_PERSISTENT: a process per test" test "$(cat optout.pids)" = 60
expect "TNORM_PERSISTENT=5: at most 5 tests per process" \
	test "$(cat five.pids)" -ge 12 -a "$(cat five.pids)" -gt "$pids_on"

# What a candidate leaves running (issue 30, item 2: the child persists only when its candidate
# left no process and no thread; otherwise it exits and the tracer kills what is left).  A
# driver whose steps, on a counter ticked exactly once, start a process that outlives the test
# (fork and exec, not waited for), an orphan (a double fork: the grandchild outlives its parent)
# or a thread that never ends; each step logs "S pid" or "T pid", c_new logs "N pid".  No
# process may run a test after it ran one that left something (the tests after it are a fresh
# child's), persistent mode must still reuse processes for the others, the failures are the same
# as without persistent mode, and nothing the tests started is left once the job is over.
cat >lv.tnh <<'HEOF'
pool c 2
<c> := c_new()
c_tick(<c>)
c_spawn(<c>)
c_orphan(<c>)
c_thread(<c>)
check c_ok(<c>)
HEOF
cat >lv.c <<'CEOF'
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tnorm/driver.h"
extern const char lv_harness[];
static void note(const char *what) /* what, the process, the run (its stdout pipe, new each run) */
{
	FILE *f = fopen(LOG, "a");
	struct stat st;
	if (f) {
		fprintf(f, "%s %d %lu\n", what, (int)getpid(),
		        fstat(1, &st) == 0 ? (unsigned long)st.st_ino : 0UL);
		fclose(f);
	}
}
static void sleeper(void)
{
	execl("/bin/sleep", "sleep", STRAY, (char *)NULL);
	_exit(127);
}
static int h_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d, (void)a;
	note("N");
	res->p = calloc(1, sizeof(long));
	return 0;
}
static int h_tick(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d, (void)res;
	++*(long *)a[0]->p;
	return 0;
}
static int h_spawn(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d, (void)res;
	if (*(long *)a[0]->p != 1)
		return 0;
	note("S");
	if (fork() == 0)
		sleeper();
	return 0;
}
static int h_orphan(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	pid_t p;
	(void)d, (void)res;
	if (*(long *)a[0]->p != 1)
		return 0;
	note("S");
	if ((p = fork()) == 0) {
		setsid();
		if (fork() == 0)
			sleeper();
		_exit(0);
	}
	waitpid(p, NULL, 0);
	return 0;
}
static void *forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}
static int h_thread(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	pthread_t th;
	(void)d, (void)res;
	if (*(long *)a[0]->p != 1)
		return 0;
	note("T");
	pthread_create(&th, NULL, forever, NULL);
	pthread_detach(th);
	return 0;
}
static int h_ok(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d, (void)res;
	assert(*(long *)a[0]->p < 4);
	return 0;
}
static void destroy(tnorm_drv *d, tnorm_value *v)
{
	(void)d;
	free(v->p);
}
static const tnorm_drv_handler handlers[] = {{"c_new", h_new}, {"c_tick", h_tick},
	{"c_spawn", h_spawn}, {"c_orphan", h_orphan}, {"c_thread", h_thread}, {"c_ok", h_ok},
	{NULL, NULL}};
static const tnorm_drv_pool pools[] = {{"c", destroy, NULL}, {NULL, NULL, NULL}};
int main(int argc, char **argv)
{
	return tnorm_drv_main_pools(argc, argv, lv_harness, handlers, pools);
}
CEOF
stray="31.$$"
if ! { "$B/core/driver/tnorm-embed" lv.tnh lv_harness.c lv_harness &&
	cc -O0 -g -DLOG="\"$W/lv.log\"" -DSTRAY="\"$stray\"" -o lv lv.c lv_harness.c -pthread \
		$(PKG_CONFIG_PATH=$B/meson-uninstalled pkg-config --cflags --libs tnorm-driver); } \
	>lvbuild.log 2>&1; then
	cat lvbuild.log
	bad "the leftover driver builds"
else
	lvfuzz() { # NAME [env...]
		local n=$1
		shift
		rm -f "$W/lv.log"
		env "$@" "$T" fuzz lv.tnh --steps 6 --runs 120 --seed 1 -o "fz-$n" --quiet -- ./lv {} \
			>"$n.out" 2>&1
		cat "fz-$n"/*.sig 2>/dev/null | sort >"$n.sigs"
		cp "$W/lv.log" "$n.log"
	}
	lvfuzz lv-on
	lvfuzz lv-off TNORM_PERSISTENT=off
	# After a test that left something, its process runs no other test (a run is a process and
	# the inode of its stdout pipe).
	after=$(awk '$1 != "N" { left[$2] = $3 } $1 == "N" && ($2 in left) && left[$2] != $3 { n++ }
		END { print n + 0 }' lv-on.log)
	tests=$(awk '{ print $2, $3 }' lv-on.log | sort -u | wc -l)
	left=$(awk '$1 != "N" { print $2, $3 }' lv-on.log | sort -u | wc -l)
	procs=$(awk '{ print $2 }' lv-on.log | sort -u | wc -l)
	echo "# leftover driver: $tests tests, $left left a process or thread, $procs processes ran them"
	expect "leftovers: some tests left a process or a thread" test "$left" -gt 0
	expect "leftovers: no process ran a test after one that left something" test "$after" = 0
	expect "leftovers: the other tests still share processes ($procs < $tests)" \
		test "$procs" -lt "$tests"
	expect "leftovers: fuzz found the failures" test -s lv-on.sigs
	expect "leftovers: the same failures and signatures with TNORM_PERSISTENT=off" \
		cmp -s lv-on.sigs lv-off.sigs
	expect "leftovers: no process a test started outlives the job" \
		sh -c "! pgrep -f '^sleep $stray\$' >/dev/null"
fi

# A failure seen in a reused child is made again fresh: `tnorm run` of a failing test right
# after passing ones (one runner: tnorm fuzz's) gave the same signatures above; here the
# examples' normal forms, with and without persistent mode.
for t in avl/tests/fail-1.t htable/tests/fail-1.t trie/tests/fail-2.t; do
	d=${t%%/*}
	cp "$SRC/examples/$t" "$d.t"
	"$T" minimize --no-db -o "$d.on.norm" --quiet "$d.t" -- "$B/examples/$d/${d}_driver_faulty" {} \
		>/dev/null 2>&1
	TNORM_PERSISTENT=off "$T" minimize --no-db -o "$d.off.norm" --quiet "$d.t" -- \
		"$B/examples/$d/${d}_driver_faulty" {} >/dev/null 2>&1
	expect "minimize $t: the same normal form with and without persistent mode" \
		sh -c "test -s $d.on.norm && cmp -s $d.on.norm $d.off.norm"
done

# Issue 39, items 4 and 5: a candidate that writes to the descriptors it finds reaches the control
# socket.  What it writes there is dropped and the socket still read: a pass stays a pass (it was
# a timeout: the child's "TNPS" was never read), and a handler that writes a line there at the
# first run and to stderr at the second no longer hangs fuzz (tests/driver/gate.c).
for m in 4 line; do
	mkdir -p "$W/sock-$m"
	echo "$m" >"$W/sock-$m/tnorm-gate.sockets"
	TMPDIR=$W/sock-$m timeout 300 "$T" fuzz "$SRC/examples/avl/avl.tnh" --runs 2 --timeout 5 \
		-o "sock-$m.fz" -- "$GATE_D" {} >"sock-$m.out" 2>&1; rc=$?
	expect "a candidate that writes '$m' to its sockets: its runs pass, none times out (exit $rc)" \
		sh -c "[ $rc = 0 ] && grep -q ' 0 timeouts' sock-$m.out"
done

# Issue 39, item 5: a candidate that forges its child's "my candidate passed" on the control
# socket (32 bytes; 40 with a guessed request number) before it fails: the forgery does not know
# the request's number, so the run stays the failure it is (it was a pass).
mkdir -p "$W/sock-forge"
echo forge >"$W/sock-forge/tnorm-gate.sockets"
TMPDIR=$W/sock-forge timeout 300 "$T" run --timeout 30 "$SRC/examples/avl/tests/fail-1.t" -- "$GATE_D" {} \
	>sock-forge.out 2>&1; rc=$?
expect "a forged 'passed' message does not turn a failing test into a pass (exit $rc)" \
	sh -c "grep -q '^outcome: fail' sock-forge.out && grep -q '^signature: SIGABRT at check_node' sock-forge.out"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

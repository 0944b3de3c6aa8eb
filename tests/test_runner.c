/* SPDX-License-Identifier: MIT */
/*
 * test_runner.c - the runner against real programs (tests/suts): every outcome, the exact
 * throwing frame of each failure, timeouts that kill the whole group, capped output, no leaked
 * descriptors or temporary files, clear errors.
 */
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "options.h"
#include "tnorm/tnorm.h"

static char sut_path[4096];

static const char *sut(const char *name)
{
	snprintf(sut_path, sizeof(sut_path), "%s/sut_%s", getenv("TNORM_SUT_DIR"), name);
	return sut_path;
}

/* The line of `marker` in tests/suts/FILE. */
static unsigned marker_line(const char *file, const char *marker)
{
	char path[4096], line[512];
	unsigned n = 0;
	FILE *f;
	snprintf(path, sizeof(path), "%s/tests/suts/%s", getenv("TNORM_SOURCE_ROOT"), file);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, marker)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	fail_msg("no %s in %s", marker, file);
	return 0;
}

static void run_once(const char *name, const char *arg, const tnorm_run_options *o,
                     const char *data, size_t len, tnorm_run_result *res)
{
	const char *argv[3] = {sut(name), arg, NULL};
	tnorm_runner *r = NULL;
	assert_int_equal(tnorm_runner_new(&r, argv, o), 0);
	assert_int_equal(tnorm_runner_run(r, data, len, res), 0);
	tnorm_runner_free(r);
}

static void expect_throwing(const tnorm_run_result *res, const char *kind, const char *fn,
                            const char *file, unsigned line)
{
	const tnorm_frame *f;
	char *text = NULL;
	assert_int_equal(res->outcome, TNORM_OUTCOME_FAIL);
	assert_non_null(res->sig);
	assert_string_equal(tnorm_signature_kind(res->sig), kind);
	f = tnorm_signature_frame(res->sig, tnorm_signature_throwing(res->sig));
	assert_non_null(f);
	tnorm_signature_format(res->sig, 0, &text);
	if (strcmp(f->function, fn) || strcmp(f->file, file) || f->line != line)
		fail_msg("expected %s at %s (%s:%u), got: %s", kind, fn, file, line, text);
	tnorm_free(text);
}

static void test_runner__segv_line(void **state)
{
	tnorm_run_result res;
	char *text = NULL;
	(void)state;
	run_once("crash_line", NULL, NULL, "", 0, &res);
	expect_throwing(&res, "SIGSEGV", "deref", "crash_line.c", marker_line("crash_line.c", "CRASH_LINE"));
	assert_int_equal(res.signo, SIGSEGV);
	assert_string_equal(res.out, "about to crash\n");
	assert_int_equal(tnorm_signature_format(res.sig, 0, &text), 0);
	assert_non_null(strstr(text, "SIGSEGV at deref (crash_line.c:"));
	assert_non_null(strstr(text, "<- middle (crash_line.c:"));
	assert_non_null(strstr(text, "<- main (crash_line.c:"));
	tnorm_free(text);
	tnorm_run_result_dispose(&res);
}

static void test_runner__assert_skips_libc(void **state)
{
	tnorm_run_result res;
	(void)state;
	run_once("abort_assert", NULL, NULL, "", 0, &res);
	expect_throwing(&res, "SIGABRT", "check", "abort_assert.c",
	                marker_line("abort_assert.c", "ASSERT_LINE"));
	/* The frames below the throwing one are libc's (abort, raise, __assert_fail ...). */
	assert_true(tnorm_signature_throwing(res.sig) > 0);
	assert_true(tnorm_signature_frame(res.sig, 0)->is_runtime);
	tnorm_run_result_dispose(&res);
}

static void test_runner__exit_code_has_a_stack(void **state)
{
	tnorm_run_result res;
	(void)state;
	run_once("exit3", NULL, NULL, "", 0, &res);
	assert_int_equal(res.exit_code, 3);
	expect_throwing(&res, "exit(3)", "give_up", "exit3.c", marker_line("exit3.c", "EXIT_LINE"));
	tnorm_run_result_dispose(&res);
}

static void test_runner__pass_invalid_sigkill(void **state)
{
	tnorm_run_result res;
	(void)state;
	run_once("catfile", "{}", NULL, "hello", 5, &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_PASS);
	assert_null(res.sig);
	assert_string_equal(res.out, "hello");
	tnorm_run_result_dispose(&res);
	run_once("exit125", NULL, NULL, "", 0, &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_INVALID);
	assert_null(res.sig);
	tnorm_run_result_dispose(&res);
	run_once("sigkill_self", NULL, NULL, "", 0, &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_FAIL);
	assert_string_equal(tnorm_signature_kind(res.sig), "SIGKILL");
	tnorm_run_result_dispose(&res);
}

static void test_runner__binary_candidate_intact(void **state)
{
	static const char data[] = "a\0b\0\xff\x01zz\n\0";
	tnorm_run_result res;
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	(void)state;
	run_once("catfile", "{}", NULL, data, sizeof(data), &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_PASS);
	assert_int_equal(res.out_len, sizeof(data));
	assert_memory_equal(res.out, data, sizeof(data));
	tnorm_run_result_dispose(&res);
	/* The same through standard input. */
	o.use_stdin = 1;
	run_once("catfile", "-", &o, data, sizeof(data), &res);
	assert_int_equal(res.out_len, sizeof(data));
	assert_memory_equal(res.out, data, sizeof(data));
	tnorm_run_result_dispose(&res);
}

static void test_runner__timeout_kills_the_group(void **state)
{
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_run_result res;
	(void)state;
	o.timeout = 0.3;
	run_once("hang", NULL, &o, "", 0, &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_TIMEOUT);
	assert_true(res.wall >= 0.3 && res.wall < 5);
	tnorm_run_result_dispose(&res);
}

/* Options structs (issue 31, item 4): TNORM_RUN_OPTIONS_INIT sets only the version, and each
 * field's 0 resolves to what the INIT macro used to list (timeout 10 s, output cap 65536, unwind
 * and fork server on); a negative value is the "off" spelling. */
static void test_runner__zero_options_are_the_defaults(void **state)
{
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT, off = TNORM_RUN_OPTIONS_INIT;
	tnorm_run_result res;
	char *text = NULL;
	(void)state;
	assert_int_equal(o.version, TNORM_RUN_OPTIONS_VERSION);
	assert_true(o.timeout == 0 && o.output_cap == 0 && o.unwind == 0 && o.fork_server == 0);
	tnorm__run_options_resolve(&o);
	assert_true(o.timeout == 10.0);
	assert_int_equal(o.mem_limit, 0);
	assert_int_equal(o.output_cap, 65536);
	assert_int_equal(o.use_stdin, 0);
	assert_int_equal(o.unwind, 1);
	assert_int_equal(o.fork_server, 1);
	assert_int_equal(o.persistent, 0);
	/* Off: unwind and fork server -1, no time limit -1 (resolved to the internals' 0). */
	off.unwind = -1;
	off.fork_server = -1;
	off.timeout = -1;
	tnorm__run_options_resolve(&off);
	assert_int_equal(off.unwind, 0);
	assert_int_equal(off.fork_server, 0);
	assert_true(off.timeout == 0);
	/* Explicit values stay. */
	o = (tnorm_run_options)TNORM_RUN_OPTIONS_INIT;
	o.timeout = 2.5;
	o.unwind = o.fork_server = 1;
	o.output_cap = 100;
	tnorm__run_options_resolve(&o);
	assert_true(o.timeout == 2.5 && o.unwind == 1 && o.fork_server == 1 && o.output_cap == 100);
	/* What runs: a zeroed struct unwinds the crash into its throwing frame; unwind -1 does not. */
	o = (tnorm_run_options)TNORM_RUN_OPTIONS_INIT;
	run_once("crash_line", NULL, &o, "", 0, &res);
	expect_throwing(&res, "SIGSEGV", "deref", "crash_line.c", marker_line("crash_line.c", "CRASH_LINE"));
	tnorm_run_result_dispose(&res);
	o.unwind = -1;
	run_once("crash_line", NULL, &o, "", 0, &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_FAIL);
	assert_int_equal(res.signo, SIGSEGV);
	if (res.sig)
		assert_int_equal(tnorm_signature_format(res.sig, 0, &text), 0);
	assert_true(!text || !strstr(text, "deref"));
	tnorm_free(text);
	tnorm_run_result_dispose(&res);
}

/* tnorm's environment is checked as options are (issue 39, item 14): a bad TNORM_* value is
 * refused by name, where it used to be the default in silence; sizes parse as --mem's do. */
static void test_runner__environment_checked(void **state)
{
	static const char *const argv[] = {"/bin/true", NULL};
	static const char *const bad[][2] = {
		{"TNORM_MAX_INPUT", "1.5G"}, {"TNORM_MAX_INPUT", "abc"}, {"TNORM_MAX_INPUT", "0"},
		{"TNORM_PERSISTENT", "abc"}, {"TNORM_PERSISTENT", "-3"}, {"TNORM_PERSISTENT", "2000000"},
		{"TNORM_FORK_SERVER", "maybe"}, {"TNORM_PRELOAD", "relative.so"},
	};
	static const char *const names[] = {"TNORM_MAX_INPUT", "TNORM_PERSISTENT",
	                                    "TNORM_FORK_SERVER", "TNORM_PRELOAD"};
	char *saved[4];
	tnorm_runner *r = NULL;
	uint64_t v = 0;
	char *text = NULL;
	size_t i;
	(void)state;
	for (i = 0; i < 4; i++) { /* the suite runs both ways (TNORM_PERSISTENT=off): kept */
		saved[i] = getenv(names[i]) ? strdup(getenv(names[i])) : NULL;
		unsetenv(names[i]);
	}
	assert_int_equal(tnorm_size_parse("1GB", &v), 0);
	assert_true(v == (uint64_t)1 << 30);
	assert_int_equal(tnorm_size_parse("512K", &v), 0);
	assert_true(v == 512 << 10);
	assert_int_equal(tnorm_size_parse("7", &v), 0);
	assert_true(v == 7);
	assert_int_equal(tnorm_size_parse("1.5G", &v), TNORM_EINVALID);
	assert_int_equal(tnorm_size_parse("7B", &v), TNORM_EINVALID);
	assert_int_equal(tnorm_size_parse("-1", &v), TNORM_EINVALID);
	assert_int_equal(tnorm_size_parse("99999999999999999999", &v), TNORM_EINVALID);
	assert_int_equal(tnorm_size_parse("99999999999G", &v), TNORM_EINVALID);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];
		setenv(bad[i][0], bad[i][1], 1);
		snprintf(want, sizeof(want), "%s=%s in the environment", bad[i][0], bad[i][1]);
		assert_int_equal(tnorm_env_check(), TNORM_EINVALID);
		assert_non_null(strstr(tnorm_error_last()->message, want));
		assert_int_equal(tnorm_runner_new(&r, argv, NULL), TNORM_EINVALID);
		assert_null(r);
		assert_non_null(strstr(tnorm_error_last()->message, want));
		unsetenv(bad[i][0]);
	}
	setenv("TNORM_MAX_INPUT", "1.5G", 1);
	assert_int_equal(tnorm_file_read("/etc/hostname", &text, NULL), TNORM_EINVALID);
	assert_null(text);
	setenv("TNORM_MAX_INPUT", "1GB", 1);
	setenv("TNORM_PERSISTENT", "off", 1);
	setenv("TNORM_FORK_SERVER", "", 1); /* empty: unset */
	assert_int_equal(tnorm_env_check(), 0);
	assert_int_equal(tnorm_runner_new(&r, argv, NULL), 0);
	tnorm_runner_free(r);
	for (i = 0; i < 4; i++) {
		if (saved[i])
			setenv(names[i], saved[i], 1);
		else
			unsetenv(names[i]);
		free(saved[i]);
	}
}

static void test_runner__children_do_not_survive(void **state)
{
	tnorm_run_result res;
	char *p;
	int n = 0;
	(void)state;
	run_once("forker", NULL, NULL, "", 0, &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_FAIL);
	for (p = res.out; *p; p = strchr(p, '\n') + 1) {
		pid_t pid = (pid_t)atoi(p);
		int tries;
		assert_true(pid > 0);
		/* Killed with the group; give the kernel a moment to finish them. */
		for (tries = 0; tries < 100 && kill(pid, 0) == 0; tries++) {
			char path[64], st[256] = "";
			FILE *f;
			snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
			if ((f = fopen(path, "r"))) {
				if (!fgets(st, sizeof(st), f))
					st[0] = '\0';
				fclose(f);
			}
			if (strstr(st, ") Z "))
				break; /* a zombie of init: dead */
			usleep(10000);
		}
		if (tries == 100)
			fail_msg("child %d outlived its group", (int)pid);
		n++;
		if (!strchr(p, '\n'))
			break;
	}
	assert_int_equal(n, 3);
	tnorm_run_result_dispose(&res);
}

static void test_runner__flood_is_capped(void **state)
{
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_run_result res;
	(void)state;
	o.output_cap = 1000;
	run_once("flood", NULL, &o, "", 0, &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_FAIL);
	assert_int_equal(res.out_len, 1000);
	assert_int_equal(res.err_len, 1000);
	assert_int_equal(res.out_total, 100u << 20);
	assert_int_equal(res.err_total, 10u << 20);
	assert_string_equal(tnorm_signature_kind(res.sig), "SIGABRT");
	tnorm_run_result_dispose(&res);
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d)))
		n++;
	closedir(d);
	return n;
}

static int count_tmp(void)
{
	DIR *d = opendir(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "tnorm-run-", 10);
	closedir(d);
	return n;
}

static void run_abort_assert(tnorm_runner *r)
{
	tnorm_run_result res;
	assert_int_equal(tnorm_runner_run(r, "x", 1, &res), 0);
	assert_int_equal(res.outcome, TNORM_OUTCOME_FAIL);
	tnorm_run_result_dispose(&res);
}

/* What a runner keeps between runs (its tracer thread's eventfd, its run folder) it makes at
 * the first run and frees with the runner; runs themselves leave nothing behind. */
static void test_runner__no_leaks_across_runs(void **state)
{
	const char *argv[3] = {NULL, NULL, NULL};
	char tmpdir[] = "/tmp/tnorm-test-tmp-XXXXXX";
	tnorm_runner *r = NULL;
	int fds0, fds, tmps, i;
	(void)state;
	/* A private TMPDIR: other tests running in parallel make their own temporary folders. */
	assert_non_null(mkdtemp(tmpdir));
	setenv("TMPDIR", tmpdir, 1);
	argv[0] = sut("abort_assert");
	fds0 = count_fds();
	assert_int_equal(tnorm_runner_new(&r, argv, NULL), 0);
	run_abort_assert(r);
	fds = count_fds();
	tmps = count_tmp();
	assert_true(tmps <= 1);
	for (i = 0; i < 50; i++)
		run_abort_assert(r);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(count_tmp(), tmps);
	tnorm_runner_free(r);
	assert_int_equal(count_fds(), fds0);
	assert_int_equal(count_tmp(), 0);
	unsetenv("TMPDIR");
	assert_int_equal(rmdir(tmpdir), 0); /* empty: nothing was left behind */
}

static void test_runner__cannot_start(void **state)
{
	const char *argv[] = {"/nonexistent/program", "{}", NULL};
	const char *empty[] = {NULL};
	tnorm_runner *r = NULL;
	tnorm_run_result res;
	(void)state;
	assert_int_equal(tnorm_runner_new(&r, argv, NULL), 0);
	assert_int_equal(tnorm_runner_run(r, "", 0, &res), 0);
	assert_int_equal(res.outcome, TNORM_OUTCOME_ERROR);
	assert_string_equal(res.message, "cannot run '/nonexistent/program': No such file or directory");
	tnorm_run_result_dispose(&res);
	tnorm_runner_free(r);
	assert_int_equal(tnorm_runner_new(&r, empty, NULL), TNORM_EINVALID);
}

static void test_runner__asan_points_at_the_user_line(void **state)
{
	char path[4096];
	tnorm_run_result res;
	(void)state;
	snprintf(path, sizeof(path), "%s/sut_asan_overflow", getenv("TNORM_SUT_DIR"));
	if (access(path, X_OK) != 0)
		fail_msg("sut_asan_overflow was not built");
	run_once("asan_overflow", NULL, NULL, "", 0, &res);
	expect_throwing(&res, "asan:heap-buffer-overflow:READ", "overflow", "asan_overflow.c",
	                marker_line("asan_overflow.c", "OVERFLOW_LINE"));
	tnorm_run_result_dispose(&res);
}

/* A crash or an exit() in a thread other than main: that thread's stack, not main's. */
static void test_runner__other_threads(void **state)
{
	tnorm_run_result res;
	const tnorm_frame *f;
	(void)state;
	run_once("threads", "crash", NULL, "", 0, &res);
	expect_throwing(&res, "SIGSEGV", "crasher", "threads.c", marker_line("threads.c", "CRASH_LINE"));
	tnorm_run_result_dispose(&res);
	run_once("threads", "exit", NULL, "", 0, &res);
	expect_throwing(&res, "exit(3)", "give_up", "threads.c",
	                marker_line("threads.c", "GIVE_UP_LINE"));
	f = tnorm_signature_frame(res.sig, tnorm_signature_throwing(res.sig) + 1);
	assert_non_null(f);
	assert_string_equal(f->function, "quitter");
	assert_int_equal(f->line, marker_line("threads.c", "QUIT_LINE"));
	tnorm_run_result_dispose(&res);
}

/* SIGPIPE at its default kills where the program wrote: unwound like the other fatal signals;
 * ignored, it is no failure (and must not hide a later one). */
static void test_runner__sigpipe(void **state)
{
	tnorm_run_result res;
	(void)state;
	run_once("sigpipe", NULL, NULL, "", 0, &res);
	expect_throwing(&res, "SIGPIPE", "write_all", "sigpipe.c", marker_line("sigpipe.c", "PIPE_LINE"));
	tnorm_run_result_dispose(&res);
	run_once("sigpipe", "ignore", NULL, "", 0, &res);
	assert_int_equal(res.outcome, TNORM_OUTCOME_PASS);
	assert_null(res.sig);
	tnorm_run_result_dispose(&res);
}

/* A $TMPDIR that does not exist is named in the message. */
static void test_runner__missing_tmpdir(void **state)
{
	const char *argv[3] = {sut("exit3"), NULL, NULL};
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	tnorm_runner *r = NULL;
	tnorm_run_result res;
	(void)state;
	setenv("TMPDIR", "/nonexistent-tnorm-tmp", 1);
	assert_int_equal(tnorm_runner_new(&r, argv, NULL), 0);
	assert_int_equal(tnorm_runner_run(r, "", 0, &res), TNORM_EIO);
	assert_non_null(strstr(tnorm_error_last()->message, "/nonexistent-tnorm-tmp ($TMPDIR)"));
	tnorm_runner_free(r);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

/* A folder left by a killed engine (its pid gone) is removed by the next runner; a live one's is
 * not; and what a program writes into its run folder goes with the folder. */
static void test_runner__stale_folders(void **state)
{
	char root[] = "/tmp/tnorm-stale-XXXXXX", stale[128], live[128], cmd[600];
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	const char *argv[4] = {"/bin/sh", "-c", "mkdir sub && echo x > sub/f && echo y > g", NULL};
	tnorm_runner *r = NULL;
	tnorm_run_result res;
	pid_t dead = fork();
	DIR *d;
	struct dirent *e;
	int n = 0;
	(void)state;
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	assert_non_null(mkdtemp(root));
	snprintf(stale, sizeof(stale), "%s/tnorm-run-%d-abcdef", root, (int)dead);
	snprintf(live, sizeof(live), "%s/tnorm-run-%d-ghijkl", root, (int)getppid());
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/deep %s && echo x > %s/deep/f", stale, live, stale);
	assert_int_equal(system(cmd), 0);
	setenv("TMPDIR", root, 1);
	assert_int_equal(tnorm_runner_new(&r, argv, NULL), 0);
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(access(live, F_OK), 0);
	assert_int_equal(tnorm_runner_run(r, "", 0, &res), 0);
	assert_int_equal(res.outcome, TNORM_OUTCOME_PASS);
	tnorm_run_result_dispose(&res);
	tnorm_runner_free(r);
	/* Only the live folder is left: the run's own folder went, with what the program wrote. */
	assert_non_null(d = opendir(root));
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 1);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

/* The run folder is reused, but every run finds it holding only its candidate: what the last
 * program wrote is gone, and a folder the program removed is made again. */
static void test_runner__folder_reused_empty(void **state)
{
	const char *argv[4] = {"/bin/sh", "-c",
	                       "ls -A; echo x > junk; mkdir -p sub/deep && echo y > sub/deep/f; "
	                       "ln -s /etc/passwd link; "
	                       "if grep -q rm {}; then cd .. && rm -rf \"$OLDPWD\"; fi", NULL};
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	tnorm_run_result res;
	int i;
	(void)state;
	o.suffix = ".t";
	assert_int_equal(tnorm_runner_new(&r, argv, &o), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(tnorm_runner_run(r, i == 1 ? "rm" : "keep", i == 1 ? 2 : 4, &res), 0);
		assert_int_equal(res.outcome, TNORM_OUTCOME_PASS);
		assert_string_equal(res.out, "candidate.t\n");
		tnorm_run_result_dispose(&res);
	}
	tnorm_runner_free(r);
}

/* Our live children (the fork servers among them): the processes whose parent we are. */
static int count_children(pid_t *first)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[300], line[512], *p;
		long ppid = 0;
		FILE *f;
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		fclose(f);
		if (!p || sscanf(p + 2, "%*c %ld", &ppid) != 1 || ppid != (long)getpid() ||
		    p[2] == 'Z')
			continue;
		if (n++ == 0 && first)
			*first = (pid_t)atol(e->d_name);
	}
	closedir(d);
	return n;
}

/* What a run came to, as one string: outcome, exit code, signal, signature, output. */
static char *run_text(tnorm_runner *r, const char *data, size_t len)
{
	tnorm_run_result res;
	char *sig = NULL, *text;
	assert_int_equal(tnorm_runner_run(r, data, len, &res), 0);
	if (res.sig)
		assert_int_equal(tnorm_signature_format(res.sig, 0, &sig), 0);
	text = malloc(strlen(sig ? sig : "") + res.out_len + res.err_len + 64);
	assert_non_null(text);
	sprintf(text, "%s %d %d %s\n%s\n%s", tnorm_outcome_name(res.outcome), res.exit_code,
	        res.signo, sig ? sig : "-", res.out, res.err);
	tnorm_free(sig);
	tnorm_run_result_dispose(&res);
	return text;
}

static const char *const no_leak_check[] = {"ASAN_OPTIONS=detect_leaks=0", NULL};

/* A driver run by its fork server gives what it gives started afresh, run after run: outcome,
 * signature, output; a server that dies is replaced; and it goes with the runner. */
static void test_runner__fork_server(void **state)
{
	static const char *const examples[] = {"avl", "htable"};
	static const char *const tests[] = {"pass-1.t", "fail-1.t", "fail-2.t", "pass-1.t"};
	size_t e, k;
	(void)state;
	for (e = 0; e < 2; e++) {
		char driver[4096];
		const char *argv[3] = {driver, "{}", NULL};
		tnorm_run_options plain = TNORM_RUN_OPTIONS_INIT, served = TNORM_RUN_OPTIONS_INIT;
		tnorm_runner *rp = NULL, *rs = NULL;
		pid_t server = 0, again = 0;
		snprintf(driver, sizeof(driver), "%s/examples/%s/%s_driver_faulty",
		         getenv("TNORM_BUILD_ROOT"), examples[e], examples[e]);
		plain.fork_server = -1;
		served.fork_server = 1;
		plain.suffix = served.suffix = ".t";
		/* In a sanitized build the examples are ASan drivers with destructors, whose passes
		 * the runner checks again for leaks (issue 16), restarting the server: off here. */
		plain.env = served.env = no_leak_check;
		assert_int_equal(tnorm_runner_new(&rp, argv, &plain), 0);
		assert_int_equal(tnorm_runner_new(&rs, argv, &served), 0);
		for (k = 0; k < 2 * sizeof(tests) / sizeof(*tests); k++) {
			char path[4096], *data = NULL, *a, *b;
			size_t len = 0;
			snprintf(path, sizeof(path), "%s/examples/%s/tests/%s", getenv("TNORM_SOURCE_ROOT"),
			         examples[e], tests[k % 4]);
			assert_int_equal(tnorm_file_read(path, &data, &len), 0);
			if (k == 5) {
				/* The server dies between runs: the next run gets a new one. */
				assert_int_equal(count_children(&server), 1);
				kill(server, SIGKILL);
			}
			a = run_text(rp, data, len);
			b = run_text(rs, data, len);
			if (strcmp(a, b))
				fail_msg("%s: started afresh:\n%s\nby the fork server:\n%s", path, a, b);
			assert_int_equal(count_children(&again), 1); /* the server, between runs */
			if (k == 5)
				assert_true(again != server);
			free(a);
			free(b);
			tnorm_free(data);
		}
		tnorm_runner_free(rs);
		tnorm_runner_free(rp);
		assert_int_equal(count_children(NULL), 0);
	}
}

/* Whether line `line` of a file named `base` is among `n` covered lines. */
static int covered(const tnorm_covered_line *v, size_t n, const char *base, unsigned line)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const char *slash = strrchr(v[i].file, '/');
		if (!strcmp(slash ? slash + 1 : v[i].file, base) && v[i].line == line)
			return 1;
	}
	return 0;
}

/* Line coverage: the lines a run ran, and only those; the same through the fork server (whose
 * start, before it forks the run's child, counts as the run's, as it does for a program
 * started afresh). */
static void test_runner__coverage(void **state)
{
	const char *argv[3] = {NULL, "{}", NULL};
	unsigned abort_line = marker_line("twowords.c", "abort();");
	unsigned pass_line = marker_line("twowords.c", "return 0;");
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	tnorm_run_result res;
	tnorm_covered_line *v = NULL;
	size_t n = 0;
	(void)state;
	argv[0] = sut("twowords");
	assert_int_equal(tnorm_runner_new(&r, argv, &o), 0);
	assert_int_equal(tnorm_runner_coverage(r, &v, &n), 0); /* off: nothing */
	assert_null(v);
	assert_int_equal(tnorm_runner_set_coverage(r, 1), 0);
	assert_int_equal(tnorm_runner_run(r, "alpha omega", 11, &res), 0);
	assert_int_equal(res.outcome, TNORM_OUTCOME_FAIL);
	tnorm_run_result_dispose(&res);
	assert_int_equal(tnorm_runner_coverage(r, &v, &n), 0);
	assert_true(covered(v, n, "twowords.c", abort_line));
	assert_false(covered(v, n, "twowords.c", pass_line));
	tnorm_free(v);
	assert_int_equal(tnorm_runner_run(r, "beta", 4, &res), 0);
	assert_int_equal(res.outcome, TNORM_OUTCOME_PASS);
	tnorm_run_result_dispose(&res);
	assert_int_equal(tnorm_runner_coverage(r, &v, &n), 0);
	assert_false(covered(v, n, "twowords.c", abort_line));
	assert_true(covered(v, n, "twowords.c", pass_line));
	tnorm_free(v);
	tnorm_runner_free(r);

	/* A driver: its fork server's children are covered as a program started afresh is. */
	{
		char driver[4096], path[4096], *data = NULL;
		size_t len = 0, k, nv[2];
		tnorm_covered_line *cv[2];
		tnorm_runner *rk[2];
		const char *dargv[3] = {driver, "{}", NULL};
		snprintf(driver, sizeof(driver), "%s/examples/avl/avl_driver_faulty",
		         getenv("TNORM_BUILD_ROOT"));
		snprintf(path, sizeof(path), "%s/examples/avl/tests/fail-1.t", getenv("TNORM_SOURCE_ROOT"));
		assert_int_equal(tnorm_file_read(path, &data, &len), 0);
		for (k = 0; k < 2; k++) {
			tnorm_run_options d = TNORM_RUN_OPTIONS_INIT;
			int runs;
			d.fork_server = k ? 1 : -1;
			d.suffix = ".t";
			d.env = no_leak_check;
			assert_int_equal(tnorm_runner_new(&r, dargv, &d), 0);
			assert_int_equal(tnorm_runner_set_coverage(r, 1), 0);
			for (runs = 0; runs < 2; runs++) { /* the second run is a server's child */
				assert_int_equal(tnorm_runner_run(r, data, len, &res), 0);
				assert_int_equal(res.outcome, TNORM_OUTCOME_FAIL);
				tnorm_run_result_dispose(&res);
			}
			assert_int_equal(tnorm_runner_coverage(r, &cv[k], &nv[k]), 0);
			rk[k] = r; /* the lines' strings are the runner's */
		}
		/* The example's own lines are the same; the driver runtime's differ (a server's loop). */
		{
			size_t i0 = 0, i1 = 0, same = 0;
			for (;;) {
				while (i0 < nv[0] && !strstr(cv[0][i0].file, "/examples/"))
					i0++;
				while (i1 < nv[1] && !strstr(cv[1][i1].file, "/examples/"))
					i1++;
				if (i0 == nv[0] || i1 == nv[1])
					break;
				if (strcmp(cv[0][i0].file, cv[1][i1].file) || cv[0][i0].line != cv[1][i1].line)
					fail_msg("%s:%u started afresh, %s:%u served", cv[0][i0].file,
					         cv[0][i0].line, cv[1][i1].file, cv[1][i1].line);
				i0++, i1++, same++;
			}
			assert_true(i0 == nv[0] && i1 == nv[1]);
			assert_true(same > 20);
		}
		tnorm_runner_free(rk[0]);
		tnorm_runner_free(rk[1]);
		tnorm_free(cv[0]);
		tnorm_free(cv[1]);
		tnorm_free(data);
	}
}

/* The text of one run of `argv` on `data` by a runner with fork_server on or off. */
static char *run_with(const char *const *argv, int fork_server, const char *data, size_t len,
                      int times)
{
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	char *text = NULL;
	int k;
	o.fork_server = fork_server ? 1 : -1;
	o.timeout = 5;
	assert_int_equal(tnorm_runner_new(&r, argv, &o), 0);
	for (k = 0; k < times; k++) {
		char *got = run_text(r, data, len);
		if (text && strcmp(text, got))
			fail_msg("run %d of %s: %s, then %s", k, argv[2], text, got);
		free(text);
		text = got;
	}
	tnorm_runner_free(r);
	return text;
}

/* A program that starts a driver, by exec or as its child, is no driver: every run is the
 * program's own (its side effects happen every time), with what it gives without the server. */
static void test_runner__fork_server_wrapped(void **state)
{
	char driver[4096], log[] = "/tmp/tnorm-wrap-XXXXXX", script[2][8400], test[4096];
	char *data = NULL;
	size_t len = 0, n;
	int fd, w;
	(void)state;
	snprintf(driver, sizeof(driver), "%s/examples/avl/avl_driver_faulty", getenv("TNORM_BUILD_ROOT"));
	snprintf(test, sizeof(test), "%s/examples/avl/tests/fail-1.t", getenv("TNORM_SOURCE_ROOT"));
	assert_int_equal(tnorm_file_read(test, &data, &len), 0);
	assert_true((fd = mkstemp(log)) >= 0);
	close(fd);
	snprintf(script[0], sizeof(script[0]), "echo run >> %s; exec %s \"$1\"", log, driver);
	snprintf(script[1], sizeof(script[1]), "echo run >> %s; %s \"$1\"; exit $?", log, driver);
	for (w = 0; w < 2; w++) {
		const char *argv[] = {"/bin/sh", "-c", script[w], "sh", "{}", NULL};
		char *plain = run_with(argv, 0, data, len, 1), *served, *lines = NULL;
		assert_int_equal(truncate(log, 0), 0);
		served = run_with(argv, 1, data, len, 3);
		if (strcmp(plain, served))
			fail_msg("%s: without the fork server:\n%s\nwith:\n%s", script[w], plain, served);
		assert_int_equal(tnorm_file_read(log, &lines, &n), 0);
		assert_int_equal(n, 3 * strlen("run\n"));
		tnorm_free(lines);
		free(plain);
		free(served);
	}
	unlink(log);
	tnorm_free(data);
}

/* A fork server's child that runs past the timeout is killed, not the server: the next run is
 * served by the same server. */
static void test_runner__fork_server_timeout(void **state)
{
	char driver[4096], harness[4096], test[4096];
	const char *argv[3] = {driver, "{}", NULL};
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL;
	tnorm_runner *r = NULL;
	tnorm_run_result res;
	char *big = NULL, *small = NULL;
	size_t blen = 0, slen = 0;
	pid_t server = 0, after = 0;
	(void)state;
	snprintf(driver, sizeof(driver), "%s/examples/avl/avl_driver_fixed", getenv("TNORM_BUILD_ROOT"));
	snprintf(harness, sizeof(harness), "%s/examples/avl/avl.tnh", getenv("TNORM_SOURCE_ROOT"));
	snprintf(test, sizeof(test), "%s/examples/avl/tests/pass-1.t", getenv("TNORM_SOURCE_ROOT"));
	/* 100,000 steps: tens of milliseconds to parse and run, far more than a 5 ms timeout. */
	assert_int_equal(tnorm_harness_load(&h, harness), 0);
	assert_int_equal(tnorm_test_generate(&t, h, 100000, 7), 0);
	assert_int_equal(tnorm_test_format(t, &big, &blen), 0);
	assert_int_equal(tnorm_file_read(test, &small, &slen), 0);
	o.fork_server = 1;
	o.env = no_leak_check; /* as in test_runner__fork_server */
	assert_int_equal(tnorm_runner_new(&r, argv, &o), 0);
	assert_int_equal(tnorm_runner_run(r, small, slen, &res), 0);
	assert_int_equal(res.outcome, TNORM_OUTCOME_PASS);
	tnorm_run_result_dispose(&res);
	assert_int_equal(count_children(&server), 1);
	tnorm_runner_set_timeout(r, 0.005);
	assert_int_equal(tnorm_runner_run(r, big, blen, &res), 0);
	assert_int_equal(res.outcome, TNORM_OUTCOME_TIMEOUT);
	assert_true(res.wall >= 0.005 && res.wall < 5);
	tnorm_run_result_dispose(&res);
	tnorm_runner_set_timeout(r, 10);
	assert_int_equal(tnorm_runner_run(r, small, slen, &res), 0);
	assert_int_equal(res.outcome, TNORM_OUTCOME_PASS);
	tnorm_run_result_dispose(&res);
	assert_int_equal(count_children(&after), 1);
	assert_int_equal(after, server);
	tnorm_runner_free(r);
	tnorm_free(big);
	tnorm_free(small);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runner__segv_line),
		cmocka_unit_test(test_runner__coverage),
		cmocka_unit_test(test_runner__assert_skips_libc),
		cmocka_unit_test(test_runner__exit_code_has_a_stack),
		cmocka_unit_test(test_runner__pass_invalid_sigkill),
		cmocka_unit_test(test_runner__binary_candidate_intact),
		cmocka_unit_test(test_runner__timeout_kills_the_group),
		cmocka_unit_test(test_runner__zero_options_are_the_defaults),
		cmocka_unit_test(test_runner__environment_checked),
		cmocka_unit_test(test_runner__children_do_not_survive),
		cmocka_unit_test(test_runner__flood_is_capped),
		cmocka_unit_test(test_runner__no_leaks_across_runs),
		cmocka_unit_test(test_runner__cannot_start),
		cmocka_unit_test(test_runner__asan_points_at_the_user_line),
		cmocka_unit_test(test_runner__other_threads),
		cmocka_unit_test(test_runner__sigpipe),
		cmocka_unit_test(test_runner__missing_tmpdir),
		cmocka_unit_test(test_runner__stale_folders),
		cmocka_unit_test(test_runner__folder_reused_empty),
		cmocka_unit_test(test_runner__fork_server),
		cmocka_unit_test(test_runner__fork_server_wrapped),
		cmocka_unit_test(test_runner__fork_server_timeout),
	};
	return cmocka_run_group_tests_name("runner", tests, NULL, NULL);
}

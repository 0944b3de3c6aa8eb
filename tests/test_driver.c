/* SPDX-License-Identifier: MIT */
/*
 * test_driver.c - the driver runtime, through real driver processes: arguments and stored
 * results reach handlers, checks run after each step on live instances only, the step hook and
 * --trace see every step, and the exit convention (0, abort, 125) holds for good, failing and
 * invalid tests, from a file or standard input.  Also the examples: their failing tests abort
 * on the faulty builds and pass on the fixed ones.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

typedef struct {
	int status; /* as from waitpid */
	char out[8192], err[8192];
} proc;

/* Run argv with `input` on stdin; capture stdout and stderr (small outputs only). */
static void run(const char *const *argv, const char *input, proc *p)
{
	char outf[] = "/tmp/tnorm-drv-out-XXXXXX", errf[] = "/tmp/tnorm-drv-err-XXXXXX";
	char inf[] = "/tmp/tnorm-drv-in-XXXXXX";
	int fo = mkstemp(outf), fe = mkstemp(errf), fi = mkstemp(inf);
	pid_t pid;
	FILE *f;
	size_t n;
	assert_true(fo >= 0 && fe >= 0 && fi >= 0);
	if (input)
		assert_int_equal(write(fi, input, strlen(input)), (ssize_t)strlen(input));
	lseek(fi, 0, SEEK_SET);
	pid = fork();
	if (pid == 0) {
		dup2(fi, 0);
		dup2(fo, 1);
		dup2(fe, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &p->status, 0), pid);
	close(fo);
	close(fe);
	close(fi);
	f = fopen(outf, "r");
	n = fread(p->out, 1, sizeof(p->out) - 1, f);
	p->out[n] = '\0';
	fclose(f);
	f = fopen(errf, "r");
	n = fread(p->err, 1, sizeof(p->err) - 1, f);
	p->err[n] = '\0';
	fclose(f);
	unlink(outf);
	unlink(errf);
	unlink(inf);
}

static const char *probe(void)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/tests/driver/probe_driver", getenv("TNORM_BUILD_ROOT"));
	return path;
}

static void run_probe(const char *test, proc *p)
{
	const char *argv[] = {probe(), "--trace", "--stdin", NULL};
	run(argv, test, p);
}

static void test_driver__arguments_and_results(void **state)
{
	proc p;
	(void)state;
	run_probe("n0 = 2\nobj1 = make(n0)\ns0 = \"q\\\"x\"\nput(obj1, s0, 9)\nn1 = size(obj1)\n"
	          "obj0 = make(n1)\nshow(obj0)\n",
	          &p);
	assert_true(WIFEXITED(p.status));
	assert_int_equal(WEXITSTATUS(p.status), 0);
	/* Checks run after each step on live instances only: obj1 from step 1, obj0 from step 5. */
	assert_string_equal(p.out, "make(2)\n"
	                           "check 2\n"
	                           "check 2\n"
	                           "put(11, \"q\"x\"/3, 9)\n"
	                           "check 11\n"
	                           "size -> 110\n"
	                           "check 11\n"
	                           "make(110)\n"
	                           "check 110\n"
	                           "check 11\n"
	                           "show 110 at step 6\n"
	                           "check 110\n"
	                           "check 11\n"
	                           /* at exit, the destructor: the latest assigned first */
	                           "destroy 110\n"
	                           "destroy 11\n");
	/* --trace shows every step, in order, with its canonical text. */
	assert_string_equal(p.err, "STEP 0: n0 = 2\n"
	                           "STEP 1: obj1 = make(n0)\n"
	                           "STEP 2: s0 = \"q\\\"x\"\n"
	                           "STEP 3: put(obj1, s0, 9)\n"
	                           "STEP 4: n1 = size(obj1)\n"
	                           "STEP 5: obj0 = make(n1)\n"
	                           "STEP 6: show(obj0)\n");
}

static void test_driver__failing_check_aborts(void **state)
{
	proc p;
	(void)state;
	run_probe("n0 = -2\nobj0 = make(n0)\n", &p);
	assert_true(WIFSIGNALED(p.status));
	assert_int_equal(WTERMSIG(p.status), SIGABRT);
	assert_non_null(strstr(p.err, "tnorm driver: check positive(obj0) failed after step 1\n"));
}

static void test_driver__invalid_tests_exit_125(void **state)
{
	static const char *const cases[][2] = {
		{"obj0 = make(n0)\n", "<stdin>: step 0 (line 1): n0 is used before it is assigned"},
		{"n0 = 1\nfrob(n0)\n", "<stdin>:2:1: unknown action 'frob'"},
		{"n0 = 3\n", "<stdin>:1:6: value 3 is out of range, expected -2..2"},
		{"n0 = 1\nobj0 = make(n0)\nput(obj0, s0, 7)\n", "s0 is used before it is assigned"},
		{"n0 = 2\nobj0 = make(n0)\nput(obj0, s0, 7)\n", "s0 is used before"},
	};
	size_t i;
	proc p;
	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_probe(cases[i][0], &p);
		assert_true(WIFEXITED(p.status));
		assert_int_equal(WEXITSTATUS(p.status), 125);
		if (!strstr(p.err, cases[i][1]))
			fail_msg("case %zu: stderr '%s' lacks '%s'", i, p.err, cases[i][1]);
	}
	/* A handler returning TNORM_DRV_INVALID. */
	run_probe("n0 = 1\nobj0 = make(n0)\nfail_if(obj0, 3)\nn1 = 2\nobj1 = make(n1)\n", &p);
	assert_int_equal(WEXITSTATUS(p.status), 0);
	run_probe("n0 = 2\nobj0 = make(n0)\ns0 = \"a b\"\nput(obj0, s0, 7)\nfail_if(obj0, 9)\n", &p);
	assert_int_equal(WEXITSTATUS(p.status), 125);
	assert_non_null(strstr(p.err, "step 4: fail_if(obj0, 9) is invalid for this system"));
}

static void test_driver__harness_override_and_usage(void **state)
{
	char hpath[4096];
	const char *noargs[] = {probe(), NULL};
	proc p;
	(void)state;
	snprintf(hpath, sizeof(hpath), "%s/examples/avl/avl.tnh", getenv("TNORM_SOURCE_ROOT"));
	{
		const char *argv[] = {probe(), "--harness", hpath, "-", NULL};
		/* The AVL harness needs handlers this driver does not have. */
		run(argv, "avl0 = avl_new()\n", &p);
		assert_int_equal(WEXITSTATUS(p.status), 125);
		assert_non_null(strstr(p.err, "the driver has no handler for 'avl_new' (harness line 6)"));
	}
	run(noargs, NULL, &p);
	assert_int_equal(WEXITSTATUS(p.status), 125);
	assert_non_null(strstr(p.err, "usage:"));
}

static void test_driver__examples_fail_on_faulty_pass_on_fixed(void **state)
{
	static const char *const ex[] = {"avl", "htable", "trie"};
	size_t e, i, nfail = 0;
	(void)state;
	for (e = 0; e < sizeof(ex) / sizeof(ex[0]); e++) {
		char pattern[4096], faulty[4096], fixed[4096];
		glob_t g;
		snprintf(pattern, sizeof(pattern), "%s/examples/%s/tests/*.t", getenv("TNORM_SOURCE_ROOT"),
		         ex[e]);
		snprintf(faulty, sizeof(faulty), "%s/examples/%s/%s_driver_faulty",
		         getenv("TNORM_BUILD_ROOT"), ex[e], ex[e]);
		snprintf(fixed, sizeof(fixed), "%s/examples/%s/%s_driver_fixed", getenv("TNORM_BUILD_ROOT"),
		         ex[e], ex[e]);
		assert_int_equal(glob(pattern, 0, NULL, &g), 0);
		for (i = 0; i < g.gl_pathc; i++) {
			const char *a1[] = {faulty, g.gl_pathv[i], NULL}, *a2[] = {fixed, g.gl_pathv[i], NULL};
			int failing = strstr(g.gl_pathv[i], "/fail-") != NULL;
			proc p;
			run(a1, NULL, &p);
			if (failing) {
				assert_true(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGABRT);
				nfail++;
			} else {
				assert_true(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0);
			}
			run(a2, NULL, &p);
			if (!WIFEXITED(p.status) || WEXITSTATUS(p.status) != 0)
				fail_msg("%s fails on the fixed build", g.gl_pathv[i]);
		}
		globfree(&g);
	}
	assert_true(nfail >= 8);
}

/* Issue 16: a constructor sees the value it overwrites (tnorm_drv_old), the destructor frees
 * it after the handler, values of value templates are never destroyed, everything a call made
 * is destroyed at exit (the latest first), also when the test turns out invalid; literals from
 * a list that mixes kinds carry their kind; --print-hooks names the pools with destructors
 * and each handler with the first row of the same function. */
static void test_driver__teardown_and_kinds(void **state)
{
	const char *hooks[] = {probe(), "--print-hooks", NULL};
	proc p;
	(void)state;
	run_probe("n0 = 2\nobj0 = make(n0)\nobj1 = renew()\nobj0 = renew()\nn0 = 1\n"
	          "kinds(null)\nkinds(4)\nkinds(\"s\")\nkinds(\"\")\n",
	          &p);
	assert_true(WIFEXITED(p.status));
	assert_int_equal(WEXITSTATUS(p.status), 0);
	assert_string_equal(p.out, "make(2)\ncheck 2\n"
	                           "renew\ncheck 2\ncheck 100\n"
	                           "renew over 2\ndestroy 2\ncheck 100\ncheck 100\n"
	                           "check 100\ncheck 100\n"
	                           "kind null i=0 s=(null) len=0\ncheck 100\ncheck 100\n"
	                           "kind int i=4 s=(null) len=0\ncheck 100\ncheck 100\n"
	                           "kind string i=0 s=s len=1\ncheck 100\ncheck 100\n"
	                           "kind string i=0 s= len=0\ncheck 100\ncheck 100\n"
	                           "destroy 100\ndestroy 100\n");
	/* an invalid step: what was made is still freed */
	run_probe("n0 = 2\nobj0 = make(n0)\ns0 = \"a b\"\nput(obj0, s0, 7)\nfail_if(obj0, 9)\n", &p);
	assert_true(WIFEXITED(p.status));
	assert_int_equal(WEXITSTATUS(p.status), 125);
	assert_non_null(strstr(p.out, "destroy 9\n"));
	run(hooks, NULL, &p);
	assert_true(WIFEXITED(p.status));
	assert_int_equal(WEXITSTATUS(p.status), 0);
	assert_string_equal(p.out, "destroy obj\nhandler make 0\nhandler size 1\nhandler put 2\n"
	                           "handler show 3\nhandler fail_if 4\nhandler positive 5\n"
	                           "handler renew 6\nhandler kinds 7\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver__arguments_and_results),
		cmocka_unit_test(test_driver__failing_check_aborts),
		cmocka_unit_test(test_driver__invalid_tests_exit_125),
		cmocka_unit_test(test_driver__harness_override_and_usage),
		cmocka_unit_test(test_driver__examples_fail_on_faulty_pass_on_fixed),
		cmocka_unit_test(test_driver__teardown_and_kinds),
	};
	/* In a sanitized build the drivers are sanitized too; like every test driver they keep
	 * their objects until exit, which is not a leak worth failing on. */
	setenv("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1", 1);
	return cmocka_run_group_tests_name("driver", tests, NULL, NULL);
}

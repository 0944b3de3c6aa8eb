/* SPDX-License-Identifier: MIT */
/*
 * test_pipeline.c - tnorm_pipeline_run end to end on real failing tests: a file without a harness
 * for tests/suts/twobug (generic mode: lines "A" and "a" crash in bug_a, a line "B" aborts in
 * bug_b), and an example AVL test on the faulty driver (harness mode).  The cases assert on the
 * result's fields, on the output file (the result, written before the job returns, also when a
 * budget stops it), on the input file (never modified) and on the slipped folder; the refusals
 * of bad options; and, last, every allocation of a whole job made to fail in turn.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "common.h"
#include "options.h"
#include "tnorm/tnorm.h"
#include "unit_util.h"

typedef struct {
	char dir[1100];    /* a fresh folder, removed by teardown */
	char test[1200];   /* the input */
	char out[1200];    /* the result */
	char slips[1200];  /* the slipped folder */
	char prog[1200];   /* the program */
	const char *argv[3];
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	if (unit_mkdtemp(f->dir, sizeof(f->dir), "pipeline") < 0) {
		free(f);
		return -1;
	}
	snprintf(f->test, sizeof(f->test), "%s/in.txt", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/out.txt", f->dir);
	snprintf(f->slips, sizeof(f->slips), "%s/slipped", f->dir);
	snprintf(f->prog, sizeof(f->prog), "%.1100s/sut_twobug", getenv("TNORM_SUT_DIR"));
	f->argv[0] = f->prog;
	f->argv[1] = "{}";
	f->argv[2] = NULL;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	unit_rmtree(f->dir);
	free(f);
	return 0;
}

/* The example drivers in an ASan build check every passing run for leaks with one more run
 * (runner.h): not what these tests are about, and the runs are twice as many without this. */
static const char *const no_leak_check[] = {"ASAN_OPTIONS=detect_leaks=0", NULL};

/* Options for a job on the fixture's test and program, one confirm run. */
static tnorm_pipeline_options job(const fixture *f, tnorm_mode mode)
{
	tnorm_pipeline_options o = TNORM_PIPELINE_OPTIONS_INIT;
	o.mode = mode;
	o.test = f->test;
	o.out = f->out;
	o.slipped_dir = f->slips;
	o.argv = f->argv;
	o.session.confirm = 1;
	return o;
}

static void put(const char *path, const char *text)
{
	assert_int_equal(tnorm_file_write_atomic(path, text, strlen(text)), 0);
}

/* `path` holds exactly `len` bytes `want`. */
static void holds(const char *path, const char *want, size_t len)
{
	char *data = NULL;
	size_t n = 0;
	assert_int_equal(tnorm_file_read(path, &data, &n), 0);
	assert_int_equal(n, len);
	assert_memory_equal(data, want, len);
	tnorm_free(data);
}

/* The twobug input: bug A (an "A" and an "a" line) among noise, and a "B" line, so that the
 * reduction meets bug B on the way. */
static const char twobug_in[] = "x\nB\nA\ny\nb\na\nz\n";

/* Reduce a file without a harness: the smallest test of bug A, its facts, the files. */
static void test_pipeline__generic_reduce(void **state)
{
	fixture *f = *state;
	tnorm_pipeline_options o = job(f, TNORM_MODE_REDUCE);
	tnorm_pipeline_result r;
	size_t i;

	put(f->test, twobug_in);
	assert_int_equal(tnorm_pipeline_run(&o, &r), 0);
	assert_int_equal(r.complete, 1);
	assert_non_null(r.text);
	assert_int_equal(r.text_len, 3);
	assert_memory_equal(r.text, "A\na", 3);
	assert_int_equal(r.final, 3);
	assert_int_equal(r.original, strlen(twobug_in));
	assert_string_equal(r.unit, "bytes");
	assert_non_null(r.signature);
	assert_non_null(strstr(r.signature, "bug_a"));
	assert_non_null(r.match_key);
	assert_int_equal(r.stable, 1);
	assert_int_equal(r.expect_matches, -1);
	assert_null(r.reduced);
	assert_null(r.plain);
	assert_null(r.generalization);
	assert_null(r.warning);
	assert_int_equal(r.known, 0);
	assert_true(r.stats.runs > 1);
	assert_true(r.stats.accepted >= 1);
	assert_int_equal(r.stats.best_len, 3);
	holds(f->out, "A\na", 3);
	holds(f->test, twobug_in, strlen(twobug_in));
	/* Bug B was met (a "B" line without "A" and "a"): kept, with its smallest test. */
	assert_int_equal(r.nslipped, 1);
	for (i = 0; i < r.nslipped; i++) {
		assert_non_null(strstr(r.slipped[i].signature, "bug_b"));
		assert_non_null(r.slipped[i].path);
		assert_non_null(strstr(r.slipped[i].path, f->slips));
		{
			char *data = NULL;
			size_t n = 0;
			assert_int_equal(tnorm_file_read(r.slipped[i].path, &data, &n), 0);
			assert_int_equal(n, r.slipped[i].size);
			assert_non_null(strstr(data, "B"));
			tnorm_free(data);
		}
	}
	tnorm_pipeline_result_dispose(&r);
	assert_null(r.text);
	tnorm_pipeline_result_dispose(&r); /* twice: a no-op */
}

/* keep_near (tnorm why's reuse, issue 29): the job's runs one edit away from its result, each
 * with the outcome it had: for "A\na", up to two bytes changed, or one deleted or inserted; none
 * without keep_near. */
static void test_pipeline__keep_near(void **state)
{
	fixture *f = *state;
	tnorm_pipeline_options o = job(f, TNORM_MODE_MINIMIZE);
	tnorm_pipeline_result r;
	size_t i, k, same = 0;

	put(f->test, twobug_in);
	assert_int_equal(tnorm_pipeline_run(&o, &r), 0);
	assert_null(r.near);
	assert_int_equal(r.nnear, 0);
	tnorm_pipeline_result_dispose(&r);
	o.keep_near = 1;
	assert_int_equal(tnorm_pipeline_run(&o, &r), 0);
	assert_memory_equal(r.text, "A\na", 3);
	assert_true(r.nnear > 0);
	for (i = 0; i < r.nnear; i++) {
		const tnorm_tested *t = &r.near[i];
		size_t diff = 0;
		assert_non_null(t->test);
		assert_int_equal(t->test[t->len], '\0');
		if (t->len == 3) { /* up to two bytes changed */
			for (k = 0; k < 3; k++)
				diff += t->test[k] != r.text[k];
			assert_true(diff >= 1 && diff <= 2);
		} else if (t->len == 2) { /* one byte deleted: "A\n", "Aa", "\na" */
			assert_true(!memcmp(t->test, "A\n", 2) || !memcmp(t->test, "Aa", 2) ||
			            !memcmp(t->test, "\na", 2));
		} else { /* one byte inserted: one of its bytes deleted gives "A\na" */
			int found = 0;
			assert_int_equal(t->len, 4);
			for (k = 0; k < 4 && !found; k++) {
				char c[3];
				memcpy(c, t->test, k);
				memcpy(c + k, t->test + k + 1, 3 - k);
				found = !memcmp(c, "A\na", 3);
			}
			assert_true(found);
		}
		/* Its outcome as the run gave it: a deletion loses the A line or the a line, so it
		 * does not fail as bug A; whatever fails as bug A failed. */
		if (t->len == 2)
			assert_false(t->same);
		if (t->same)
			assert_int_equal(t->outcome, TNORM_OUTCOME_FAIL);
		same += t->same;
	}
	assert_true(same < r.nnear); /* and some did not */
	tnorm_pipeline_result_dispose(&r);
	assert_null(r.near);
}

/* A run budget stops the job: TNORM_ETIMEOUT, not complete, and the best test so far is the
 * result and the output file, a test that still fails as the original. */
static void test_pipeline__budget_keeps_best(void **state)
{
	fixture *f = *state;
	tnorm_pipeline_options o = job(f, TNORM_MODE_MINIMIZE);
	tnorm_pipeline_result r;

	put(f->test, twobug_in);
	o.session.max_runs = 4;
	assert_int_equal(tnorm_pipeline_run(&o, &r), TNORM_ETIMEOUT);
	assert_int_equal(tnorm_error_last()->code, TNORM_ETIMEOUT);
	assert_int_equal(r.complete, 0);
	assert_int_equal(r.stats.runs, 4);
	assert_non_null(r.signature);
	assert_non_null(r.text);
	assert_true(r.text_len < strlen(twobug_in));
	assert_non_null(strstr(r.text, "A\n"));
	assert_non_null(strstr(r.text, "a\n"));
	holds(f->out, r.text, r.text_len);
	holds(f->test, twobug_in, strlen(twobug_in));
	tnorm_pipeline_result_dispose(&r);
}

/* Minimize an example AVL test on the faulty driver: fewer steps, the same failure (checked by
 * a new job on the result: its target has the same match key), the reduced test kept, and the
 * result generalized. */
static void test_pipeline__harness_minimize(void **state)
{
	fixture *f = *state;
	tnorm_pipeline_options o = job(f, TNORM_MODE_MINIMIZE);
	tnorm_pipeline_result r, again;
	char harness[1200], input[1200], *orig = NULL, *plain = NULL;
	size_t olen = 0;

	snprintf(harness, sizeof(harness), "%.1100s/examples/avl/avl.tnh", getenv("TNORM_SOURCE_ROOT"));
	snprintf(input, sizeof(input), "%.1100s/examples/avl/tests/fail-1.t", getenv("TNORM_SOURCE_ROOT"));
	snprintf(f->prog, sizeof(f->prog), "%.1100s/examples/avl/avl_driver_faulty",
	         getenv("TNORM_BUILD_ROOT"));
	assert_int_equal(tnorm_file_read(input, &orig, &olen), 0);
	put(f->test, orig);
	o.harness = harness;
	o.run.env = no_leak_check;
	o.generalize = 1;
	o.jobs = 2;
	assert_int_equal(tnorm_pipeline_run(&o, &r), 0);
	assert_int_equal(r.complete, 1);
	assert_string_equal(r.unit, "steps");
	assert_int_equal(r.original, 100);
	assert_true(r.final >= 1 && r.final < 15);
	assert_non_null(r.reduced);
	assert_int_equal(r.reduced_len, strlen(r.reduced));
	assert_non_null(r.text);
	assert_non_null(r.plain);
	assert_non_null(r.generalization);
	assert_int_equal(r.generalization[0], '{');
	assert_true(strlen(r.plain) <= r.reduced_len);
	assert_non_null(r.signature);
	assert_non_null(r.match_key);
	assert_true(r.stats.runs > 1);
	assert_true(r.stats.accepted >= 1);
	assert_true(r.reduce.calls > 0);
	holds(f->out, r.text, r.text_len);
	holds(f->test, orig, olen);

	/* The result (without its annotations) fails as the original did. */
	assert_non_null(plain = strdup(r.plain));
	put(f->test, plain);
	o.mode = TNORM_MODE_REDUCE;
	o.generalize = 0;
	assert_int_equal(tnorm_pipeline_run(&o, &again), 0);
	assert_string_equal(again.match_key, r.match_key);
	assert_int_equal(again.original, r.final);
	assert_int_equal(again.final, r.final);
	tnorm_pipeline_result_dispose(&again);
	tnorm_pipeline_result_dispose(&r);
	free(plain);
	tnorm_free(orig);
}

/* Bad jobs are refused before anything runs, with the documented codes and the result zeroed
 * but for what the header says. */
/* Options structs (issue 31, item 4): TNORM_PIPELINE_OPTIONS_INIT sets only the version; the
 * structs it holds take theirs (0: the current one), and every field's 0 resolves to what the
 * INIT macros used to list.  A negative value is the "off" spelling. */
static void test_pipeline__zero_options_are_the_defaults(void **state)
{
	tnorm_pipeline_options o = TNORM_PIPELINE_OPTIONS_INIT;
	tnorm_generalize_options g = TNORM_GENERALIZE_OPTIONS_INIT;
	(void)state;
	assert_int_equal(o.mode, TNORM_MODE_MINIMIZE);
	assert_int_equal(o.generalize, 0);
	assert_int_equal(o.run.version, 0);
	tnorm__pipeline_options_versions(&o);
	assert_int_equal(o.version, TNORM_PIPELINE_OPTIONS_VERSION);
	assert_int_equal(o.run.version, TNORM_RUN_OPTIONS_VERSION);
	assert_int_equal(o.session.version, TNORM_SESSION_OPTIONS_VERSION);
	assert_int_equal(o.reduce.version, TNORM_REDUCE_OPTIONS_VERSION);
	assert_int_equal(o.normalize.version, TNORM_NORMALIZE_OPTIONS_VERSION);
	assert_int_equal(o.normalize.reduce.version, TNORM_REDUCE_OPTIONS_VERSION);
	assert_int_equal(o.generic.version, TNORM_GENERIC_OPTIONS_VERSION);
	tnorm__session_options_resolve(&o.session);
	assert_int_equal(o.session.confirm, 3);
	tnorm__reduce_options_resolve(&o.reduce, TNORM_ALGO_ADAPTIVE);
	assert_int_equal(o.reduce.algo, TNORM_ALGO_ADAPTIVE);
	assert_true(o.reduce.prefix == 1 && o.reduce.slice == 1 && o.reduce.seed == 1);
	tnorm__normalize_options_resolve(&o.normalize);
	assert_int_equal(o.normalize.wide, 0);
	assert_int_equal(o.normalize.max_alternatives, 256);
	assert_int_equal(o.normalize.max_edit, 0);
	assert_int_equal(o.normalize.max_reduce_alternatives, 16);
	assert_int_equal(o.normalize.reduce.algo, TNORM_ALGO_DDMIN); /* ddmin in normalization */
	assert_int_equal(o.normalize.rewire, 1);
	assert_int_equal(o.normalize.rules, TNORM_RULES_CALLS);
	tnorm__generic_options_resolve(&o.generic);
	assert_int_equal(o.generic.algo, TNORM_ALGO_ADAPTIVE);
	assert_true(o.generic.seed == 1 && o.generic.views == TNORM_VIEW_ALL && o.generic.chunks == 1);
	assert_int_equal(o.generic.rules, TNORM_GENERIC_ALL_RULES);
	assert_int_equal(o.generic.scan_full, 0);
	tnorm__generalize_options_resolve(&g);
	assert_true(g.max_alternatives == 4096 && g.fresh == 1 && g.sample == 16);
	/* Off (-1), resolved to the internals' 0; other versions than 0 are left to be checked. */
	o = (tnorm_pipeline_options)TNORM_PIPELINE_OPTIONS_INIT;
	o.run.version = 1;
	o.reduce.prefix = o.reduce.slice = -1;
	o.reduce.algo = TNORM_ALGO_DDMIN;
	o.normalize.rewire = -1;
	o.generic.chunks = -1;
	tnorm__pipeline_options_versions(&o);
	assert_int_equal(o.run.version, 1);
	tnorm__reduce_options_resolve(&o.reduce, TNORM_ALGO_ADAPTIVE);
	assert_true(o.reduce.prefix == 0 && o.reduce.slice == 0 && o.reduce.algo == TNORM_ALGO_DDMIN);
	tnorm__normalize_options_resolve(&o.normalize);
	assert_int_equal(o.normalize.rewire, 0);
	tnorm__generic_options_resolve(&o.generic);
	assert_int_equal(o.generic.chunks, 0);
	g = (tnorm_generalize_options)TNORM_GENERALIZE_OPTIONS_INIT;
	g.fresh = g.sample = -1;
	tnorm__generalize_options_resolve(&g);
	assert_true(g.fresh == 0 && g.sample == 0); /* no fresh values; try every value */
}

static void test_pipeline__refusals(void **state)
{
	fixture *f = *state;
	tnorm_pipeline_options o = job(f, TNORM_MODE_REDUCE);
	tnorm_pipeline_result r;

	put(f->test, "x\n");
	assert_int_equal(tnorm_pipeline_run(NULL, &r), TNORM_EINVALID);
	tnorm_pipeline_result_dispose(&r);
	assert_int_equal(tnorm_pipeline_run(&o, NULL), TNORM_EINVALID);
	o.out = f->test;
	assert_int_equal(tnorm_pipeline_run(&o, &r), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "input test"));
	assert_null(r.text);
	assert_int_equal(r.expect_matches, -1);
	tnorm_pipeline_result_dispose(&r);
	o.out = f->out;
	o.version = TNORM_PIPELINE_OPTIONS_VERSION - 1;
	assert_int_equal(tnorm_pipeline_run(&o, &r), TNORM_EINVALID);
	tnorm_pipeline_result_dispose(&r);
	o.version = TNORM_PIPELINE_OPTIONS_VERSION;
	o.mode = TNORM_MODE_GENERALIZE;
	assert_int_equal(tnorm_pipeline_run(&o, &r), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "harness"));
	tnorm_pipeline_result_dispose(&r);
	assert_int_equal(access(f->out, F_OK), -1);

	/* A test that passes: not failing, no target, and no output written. */
	o.mode = TNORM_MODE_REDUCE;
	assert_int_equal(tnorm_pipeline_run(&o, &r), TNORM_ENOTFAIL);
	assert_non_null(strstr(tnorm_error_last()->message, "passes"));
	assert_null(r.signature);
	assert_null(r.match_key);
	assert_int_equal(r.complete, 0);
	assert_int_equal(r.stats.runs, 1);
	tnorm_pipeline_result_dispose(&r);
	assert_int_equal(access(f->out, F_OK), -1);
}

/* Make the k-th allocation of the job `o` fail, for k = 0, 1, 2, ..., until one goes through
 * without reaching it.  A job that meets the failure returns TNORM_ENOMEM with the error set and
 * a result that disposes cleanly, or goes on without the allocation and still gives the result
 * of a job without failures; ASan finds leaks.  An allocation after the job tells whether the
 * failure was reached (once reached, every later one fails too).  Returns the number of
 * allocation points. */
static long sweep(const tnorm_pipeline_options *o, const char *label)
{
	tnorm_pipeline_result want;
	long k;
	size_t i;
	unsigned enomem = 0, absorbed = 0;
	long last_absorbed = -1;

	assert_int_equal(tnorm_pipeline_run(o, &want), 0);
	for (k = 0; k < 100000; k++) {
		tnorm_pipeline_result r;
		char message[512];
		int err, reached, code;

		tnorm_error_clear();
		tnorm__alloc_fail_after(k);
		err = tnorm_pipeline_run(o, &r);
		reached = unit_oom_end(&code, message, sizeof(message));
		if (err != 0) {
			if (err != TNORM_ENOMEM)
				fail_msg("%s, allocation %ld: %s (%s), expected TNORM_ENOMEM", label, k,
				         tnorm_error_name(err), message);
			assert_true(reached);
			assert_int_equal(code, TNORM_ENOMEM);
			assert_true(message[0] != '\0');
			enomem++;
		} else {
			/* Whole, whether or not a failure was met and done without. */
			assert_int_equal(r.complete, 1);
			assert_int_equal(r.text_len, want.text_len);
			assert_memory_equal(r.text, want.text, want.text_len);
			assert_string_equal(r.signature, want.signature);
			assert_string_equal(r.match_key, want.match_key);
			assert_int_equal(r.final, want.final);
			assert_int_equal(r.nslipped, want.nslipped);
			for (i = 0; i < r.nslipped; i++) {
				assert_non_null(r.slipped[i].signature);
				assert_string_equal(r.slipped[i].signature, want.slipped[i].signature);
				assert_non_null(r.slipped[i].path);
			}
			if (reached) {
				absorbed++;
				last_absorbed = k;
			}
		}
		tnorm_pipeline_result_dispose(&r);
		if (err == 0 && !reached)
			break;
	}
	tnorm_pipeline_result_dispose(&want);
	assert_true(k < 100000);
	/* The call makes k - 1 allocations: with k - 1 the counter ran out exactly at its end, which
	 * the probe cannot tell from a failure met and done without. */
	if (last_absorbed == k - 1)
		absorbed--;
	k--;
	assert_true(enomem > 20);
	print_message("%s: %ld allocation points, %u gave TNORM_ENOMEM, %u went on without\n", label,
	              k, enomem, absorbed);
	return k;
}

/* The sweep over minimize without a harness (reduce, then normalize with two rules, to keep the
 * runs few), with a slip kept. */
/* The file names a front end takes from the library: TEST.min/.norm/.gen and slipped/ beside the
 * result file (issue 42 item 1: one rule for the CLI and the debuggers). */
static void test_pipeline__default_names(void **state)
{
	static const struct {
		const char *out, *want;
	} slipped[] = {{"a/b/x.norm", "a/b/slipped"}, {"x.norm", "./slipped"},
	               {"/x.norm", "/slipped"}, {"/tmp/d/y.min", "/tmp/d/slipped"}};
	char *p = NULL;
	size_t k;
	(void)state;
	for (k = 0; k < sizeof(slipped) / sizeof(slipped[0]); k++) {
		assert_int_equal(tnorm_pipeline_slipped_dir(&p, slipped[k].out), 0);
		assert_string_equal(p, slipped[k].want);
		tnorm_free(p);
	}
	assert_int_equal(tnorm_pipeline_slipped_dir(&p, NULL), TNORM_EINVALID);
	assert_null(p);
	assert_int_equal(tnorm_pipeline_slipped_dir(NULL, "x"), TNORM_EINVALID);
	assert_int_equal(tnorm_pipeline_default_output(&p, "t/a.t", TNORM_MODE_REDUCE), 0);
	assert_string_equal(p, "t/a.t.min");
	tnorm_free(p);
	tnorm_error_clear();
}

static void test_pipeline__oom_sweep_generic(void **state)
{
	fixture *f = *state;
	tnorm_pipeline_options o = job(f, TNORM_MODE_MINIMIZE);
	put(f->test, "A\nB\na\n");
	o.generic.rules = (1u << TNORM_GENERIC_RULE_DELETE) | (1u << TNORM_GENERIC_RULE_SORT_LINES);
	sweep(&o, "minimize without a harness");
}

/* A failing AVL test (the 1-minimal test of examples/avl/tests/fail-1.t) with two steps more. */
static const char avl_test[] = "int0 = 1\navl0 = avl_new()\navl_insert(avl0, int0)\n"
                               "int1 = 2\navl_insert(avl0, int1)\navl_find(avl0, int1)\n"
                               "int2 = 3\navl_insert(avl0, int2)\nint3 = 4\n"
                               "avl_insert(avl0, int3)\navl_inorder(avl0)\navl_delete(avl0, int0)\n";

/* The sweep over reduce with a harness: the harness, the test, the reduction. */
static void test_pipeline__oom_sweep_harness(void **state)
{
	fixture *f = *state;
	tnorm_pipeline_options o = job(f, TNORM_MODE_REDUCE);
	char harness[1200];
	snprintf(harness, sizeof(harness), "%.1100s/examples/avl/avl.tnh", getenv("TNORM_SOURCE_ROOT"));
	snprintf(f->prog, sizeof(f->prog), "%.1100s/examples/avl/avl_driver_faulty",
	         getenv("TNORM_BUILD_ROOT"));
	put(f->test, avl_test);
	o.harness = harness;
	o.run.env = no_leak_check;
	{
		tnorm_pipeline_result r;
		assert_int_equal(tnorm_pipeline_run(&o, &r), 0);
		assert_int_equal(r.original, 12);
		assert_int_equal(r.final, 10);
		assert_null(strstr(r.text, "avl_find"));
		assert_null(strstr(r.text, "avl_inorder"));
		tnorm_pipeline_result_dispose(&r);
	}
	sweep(&o, "reduce with a harness");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pipeline__generic_reduce, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipeline__keep_near, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipeline__budget_keeps_best, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipeline__harness_minimize, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipeline__refusals, setup, teardown),
		cmocka_unit_test(test_pipeline__zero_options_are_the_defaults),
		cmocka_unit_test(test_pipeline__default_names),
		cmocka_unit_test_setup_teardown(test_pipeline__oom_sweep_generic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipeline__oom_sweep_harness, setup, teardown),
	};
	return cmocka_run_group_tests_name("pipeline", tests, NULL, NULL);
}

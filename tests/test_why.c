/* SPDX-License-Identifier: MIT */
/*
 * test_why.c - tnorm_why (why.c) on real programs with known faults: the planted bug B of
 * tests/suts/opcodes.c (an unbounded table index; its line is marked BUG_B_LINE), and the AVL
 * example's seeded fault (examples/avl/avl.c, "the fault: the height is updated").  As the
 * command does, each test is minimized first (tnorm_pipeline_run, keep_near) and its normal form
 * ranked: the faulty line must come first (the AVL fault: within three lines, as
 * tests/integration/why.sh asks of the command).  The cases also check the result's own
 * arithmetic (runs, failing and passing counts, scores best first, the neighbours' outcomes),
 * the minimization's runs reused as the first neighbours, the neighbour budget, and the errors.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common.h"
#include "tnorm/tnorm.h"
#include "unit_util.h"

typedef struct {
	char dir[1100];   /* a fresh folder, removed by teardown */
	char test[1200];  /* the input of the minimization */
	char out[1200];   /* its normal form */
	char prog[1200];  /* the program */
	const char *argv[3];
	tnorm_pipeline_result min; /* the minimization (disposed by teardown) */
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	if (unit_mkdtemp(f->dir, sizeof(f->dir), "why") < 0) {
		free(f);
		return -1;
	}
	snprintf(f->test, sizeof(f->test), "%s/in.t", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/out.t", f->dir);
	f->argv[0] = f->prog;
	f->argv[1] = "{}";
	f->argv[2] = NULL;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	tnorm_pipeline_result_dispose(&f->min);
	unit_rmtree(f->dir);
	free(f);
	return 0;
}

/* The example drivers in an ASan build check every passing run for leaks with one more run:
 * not what these tests are about. */
static const char *const no_leak_check[] = {"ASAN_OPTIONS=detect_leaks=0", NULL};

/* The number of the first line of `path` (under the source root) that holds `mark`. */
static uint32_t line_of(const char *path, const char *mark)
{
	char full[1200], line[1024];
	uint32_t n = 0;
	FILE *fp;
	snprintf(full, sizeof(full), "%.1100s/%s", getenv("TNORM_SOURCE_ROOT"), path);
	fp = fopen(full, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (strstr(line, mark)) {
			fclose(fp);
			return n;
		}
	}
	fclose(fp);
	fail_msg("%s: no line holds '%s'", full, mark);
	return 0;
}

/* Minimize the fixture's test (written from `data`) with the fixture's program, as `tnorm why`
 * does before it ranks: the normal form in f->min.plain or f->min.text, its near runs kept. */
static void minimize(fixture *f, const char *harness, const char *data, size_t len)
{
	tnorm_pipeline_options o = TNORM_PIPELINE_OPTIONS_INIT;
	assert_int_equal(tnorm_file_write_atomic(f->test, data, len), 0);
	o.mode = TNORM_MODE_MINIMIZE;
	o.test = f->test;
	o.out = f->out;
	o.harness = harness;
	o.argv = f->argv;
	o.session.confirm = 1;
	o.run.env = no_leak_check;
	o.keep_near = 1;
	assert_int_equal(tnorm_pipeline_run(&o, &f->min), 0);
	assert_int_equal(f->min.complete, 1);
	assert_non_null(f->min.text);
}

static tnorm_why_options why_options(const fixture *f, int steps)
{
	tnorm_why_options o = TNORM_WHY_OPTIONS_INIT;
	o.argv = f->argv;
	o.text_steps = steps;
	o.run.env = no_leak_check;
	return o;
}

/* What holds of every result: runs, counts, order, outcomes. */
static void check_result(const tnorm_why_result *r)
{
	size_t i, same = 0, pass = 0;
	assert_non_null(r->signature);
	assert_true(r->nlines > 0);
	assert_int_equal(r->runs, r->nneighbours + 1); /* the normal form, then each neighbour */
	for (i = 0; i < r->nneighbours; i++) {
		const char *w = tnorm_why_outcome(&r->neighbours[i]);
		same += r->neighbours[i].same;
		pass += r->neighbours[i].outcome == TNORM_OUTCOME_PASS;
		assert_true(!strcmp(w, "fail") || !strcmp(w, "other-failure") || !strcmp(w, "pass") ||
		            !strcmp(w, "invalid") || !strcmp(w, "timeout") || !strcmp(w, "error"));
		assert_int_equal(!strcmp(w, "fail"), r->neighbours[i].same);
		assert_non_null(r->neighbours[i].test);
	}
	assert_int_equal(r->failing, same + 1);
	assert_int_equal(r->passing, pass);
	assert_true(r->passing > 0); /* a neighbour that passes is what separates the lines */
	for (i = 0; i < r->nlines; i++) {
		const tnorm_why_line *l = &r->lines[i];
		assert_non_null(l->file);
		assert_true(l->line > 0);
		assert_true(l->failing >= 1 && l->failing <= r->failing); /* the form ran every line */
		assert_true(l->passing <= r->passing);
		assert_true(fabs(l->ochiai - l->failing / sqrt((double)r->failing *
		                                               (l->failing + l->passing))) < 1e-9);
		if (i > 0)
			assert_true(r->lines[i - 1].score >= l->score);
	}
}

/* Bytes: the opcodes parser's bug B.  Its line is first; the minimization's runs one edit away
 * are the first neighbours, each run again (`reused`). */
static void test_why__bytes_planted_bug(void **state)
{
	fixture *f = *state;
	static const char input[] = "\x05\xff\x06\x00";
	uint32_t bug = line_of("tests/suts/opcodes.c", "BUG_B_LINE");
	tnorm_why_options o;
	tnorm_why_result r;
	size_t i;

	snprintf(f->prog, sizeof(f->prog), "%.1100s/sut_opcodes", getenv("TNORM_SUT_DIR"));
	assert_int_equal(access(f->prog, X_OK), 0); /* built with the tests when ASan is there */
	minimize(f, NULL, input, sizeof(input) - 1);
	assert_true(f->min.nnear > 0);
	o = why_options(f, 0);
	o.known = f->min.near;
	o.nknown = f->min.nnear;
	assert_int_equal(tnorm_why(&o, f->min.text, f->min.text_len, &r), 0);
	check_result(&r);
	assert_string_equal(r.signature, f->min.signature);
	assert_non_null(strstr(r.lines[0].file, "opcodes.c"));
	assert_int_equal(r.lines[0].line, bug);
	assert_string_equal(r.lines[0].function, "lookup");
	assert_int_equal(r.lines[0].on_stack, 2); /* the line the failure stopped at */
	/* The known runs come first, once each, marked; then why's own. */
	assert_true(r.reused > 0 && r.reused <= f->min.nnear && r.reused < r.nneighbours);
	for (i = 0; i < r.nneighbours; i++)
		assert_int_equal(r.neighbours[i].reused, i < r.reused);
	assert_true(r.disagreed <= r.reused);
	tnorm_why_result_dispose(&r);
	assert_null(r.lines);
	assert_int_equal(r.nlines, 0);
	tnorm_why_result_dispose(&r); /* twice: a no-op */
}

/* A harness test (lines are steps): the AVL example's seeded fault ranks first, within three
 * lines; no line of tnorm's driver runtime, compiled into the driver, is ranked. */
static void test_why__harness_seeded_fault(void **state)
{
	fixture *f = *state;
	char harness[1200], *input = NULL, core[1200], *real_core;
	size_t len = 0, i;
	uint32_t fault = line_of("examples/avl/avl.c", "the fault: the height is updated");
	tnorm_why_options o;
	tnorm_why_result r;

	snprintf(harness, sizeof(harness), "%.1100s/examples/avl/avl.tnh", getenv("TNORM_SOURCE_ROOT"));
	snprintf(f->prog, sizeof(f->prog), "%.1100s/examples/avl/avl_driver_faulty",
	         getenv("TNORM_BUILD_ROOT"));
	snprintf(core, sizeof(core), "%.1100s/examples/avl/tests/fail-1.t",
	         getenv("TNORM_SOURCE_ROOT"));
	assert_int_equal(tnorm_file_read(core, &input, &len), 0);
	minimize(f, harness, input, len);
	tnorm_free(input);
	o = why_options(f, 1);
	assert_int_equal(tnorm_why(&o, f->min.text, f->min.text_len, &r), 0);
	check_result(&r);
	assert_int_equal(r.reused, 0); /* none known */
	assert_non_null(strstr(r.lines[0].file, "avl.c"));
	assert_true(r.lines[0].line + 3 >= fault && r.lines[0].line <= fault + 3);
	snprintf(core, sizeof(core), "%.1100s/core", getenv("TNORM_SOURCE_ROOT"));
	real_core = realpath(core, NULL);
	assert_non_null(real_core);
	for (i = 0; i < r.nlines; i++) {
		char *real = realpath(r.lines[i].file, NULL);
		if (real)
			assert_false(!strncmp(real, real_core, strlen(real_core)));
		free(real);
	}
	free(real_core);
	tnorm_why_result_dispose(&r);
}

/* max_neighbours bounds the runs; the normal form alone is run once more than its neighbours. */
static void test_why__neighbour_budget(void **state)
{
	fixture *f = *state;
	static const char form[] = "\xff\x04\x00"; /* a lookup at index 4: bug B */
	tnorm_why_options o;
	tnorm_why_result r;

	snprintf(f->prog, sizeof(f->prog), "%.1100s/sut_opcodes", getenv("TNORM_SUT_DIR"));
	o = why_options(f, 0);
	o.max_neighbours = 3;
	assert_int_equal(tnorm_why(&o, form, 3, &r), 0);
	assert_int_equal(r.nneighbours, 3);
	assert_int_equal(r.runs, 4);
	assert_true(r.nlines > 0);
	tnorm_why_result_dispose(&r);
}

/* The errors the header promises, each with its code and a message. */
static void test_why__errors(void **state)
{
	fixture *f = *state;
	tnorm_why_options o;
	tnorm_why_result r;
	static const char *const no_lines[] = {"/bin/false", NULL};
	volatile int stop = 1;

	snprintf(f->prog, sizeof(f->prog), "%.1100s/sut_opcodes", getenv("TNORM_SUT_DIR"));
	o = why_options(f, 0);
	assert_int_equal(tnorm_why(&o, "x", 1, NULL), TNORM_EINVALID);
	assert_int_equal(tnorm_why(NULL, "x", 1, &r), TNORM_EINVALID);
	assert_int_equal(tnorm_why(&o, NULL, 1, &r), TNORM_EINVALID);
	o.version = TNORM_WHY_OPTIONS_VERSION - 1;
	assert_int_equal(tnorm_why(&o, "x", 1, &r), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "another version"));
	o = why_options(f, 0);
	o.argv = NULL;
	assert_int_equal(tnorm_why(&o, "x", 1, &r), TNORM_EINVALID);
	tnorm_why_result_dispose(&r);

	/* A test that passes is no normal form of a failure. */
	o = why_options(f, 0);
	assert_int_equal(tnorm_why(&o, "\x01", 1, &r), TNORM_ENOTFAIL);
	assert_int_equal(r.nlines, 0);
	tnorm_why_result_dispose(&r);

	/* A program without a line table cannot be covered. */
	o.argv = (const char *const *)no_lines;
	assert_int_equal(tnorm_why(&o, "x", 1, &r), TNORM_ENOTFOUND);
	assert_non_null(strstr(tnorm_error_last()->message, "line table"));
	tnorm_why_result_dispose(&r);

	/* Stopped before it starts. */
	o = why_options(f, 0);
	o.cancel = &stop;
	assert_int_equal(tnorm_why(&o, "\xff\x04\x00", 3, &r), TNORM_EINTERRUPTED);
	tnorm_why_result_dispose(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_why__bytes_planted_bug, setup, teardown),
		cmocka_unit_test_setup_teardown(test_why__harness_seeded_fault, setup, teardown),
		cmocka_unit_test_setup_teardown(test_why__neighbour_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_why__errors, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

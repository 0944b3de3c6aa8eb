/* SPDX-License-Identifier: MIT */
/*
 * test_fuzz.c - tnorm_fuzz_run (fuzz.c) on the hash-table example: its faulty driver has a
 * planted bug that random tests of its harness meet within a few dozen seeds (ht_check aborts),
 * its fixed driver none.  The cases check what is found and what is written (DIR/fail-SEED.t is
 * the seed's random test and fails again with DIR/fail-SEED.sig's signature), the budgets (runs,
 * failures, time), the progress callback and a stop, runs the program calls invalid, and the
 * errors the header promises.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "common.h"
#include "tnorm/tnorm.h"
#include "unit_util.h"

/* Seeds the planted bug is looked for in: the faulty driver fails on several of them. */
#define SEEDS 40

typedef struct {
	char dir[1100];      /* a fresh folder, removed by teardown */
	char corpus[1200];   /* the job's folder, inside it */
	char harness[1200];  /* examples/htable/htable.tnh */
	char prog[1200];     /* the program */
	const char *argv[3];
} fixture;

static const char *const no_leak_check[] = {"ASAN_OPTIONS=detect_leaks=0", NULL};

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	if (unit_mkdtemp(f->dir, sizeof(f->dir), "fuzz") < 0) {
		free(f);
		return -1;
	}
	snprintf(f->corpus, sizeof(f->corpus), "%s/corpus", f->dir);
	snprintf(f->harness, sizeof(f->harness), "%.1100s/examples/htable/htable.tnh",
	         getenv("TNORM_SOURCE_ROOT"));
	snprintf(f->prog, sizeof(f->prog), "%.1100s/examples/htable/htable_driver_faulty",
	         getenv("TNORM_BUILD_ROOT"));
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

static tnorm_fuzz_options job(const fixture *f)
{
	tnorm_fuzz_options o = TNORM_FUZZ_OPTIONS_INIT;
	o.harness = f->harness;
	o.dir = f->corpus;
	o.argv = f->argv;
	o.runs = SEEDS;
	o.run.env = no_leak_check;
	return o;
}

/* The names in `dir` that end in `suffix`. */
static size_t count_files(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, sl = strlen(suffix);
	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		n += l > sl && !strcmp(e->d_name + l - sl, suffix);
	}
	closedir(d);
	return n;
}

/* The file's bytes (NUL-terminated); tnorm_free them. */
static char *slurp(const char *path, size_t *len)
{
	char *data = NULL;
	assert_int_equal(tnorm_file_read(path, &data, len), 0);
	return data;
}

/* The bug is found: each failing seed's test kept with its signature, one distinct signature at
 * the planted check, and the kept test is that seed's random test and fails again so. */
static void test_fuzz__finds_planted_bug(void **state)
{
	fixture *f = *state;
	tnorm_fuzz_options o = job(f);
	tnorm_fuzz_result r;
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL;
	tnorm_runner *runner = NULL;
	tnorm_run_result run;
	tnorm_run_options ro = TNORM_RUN_OPTIONS_INIT;
	char path[1300], *kept, *sig, *text = NULL, *again = NULL;
	size_t klen, slen, tlen = 0;

	assert_int_equal(tnorm_fuzz_run(&o, &r), 0);
	assert_int_equal(r.runs, SEEDS);
	assert_true(r.failing >= 1);
	assert_int_equal(r.invalid, 0);
	assert_null(r.invalid_reason);
	assert_int_equal(r.nsignatures, 1);
	assert_non_null(strstr(r.signatures[0].signature, "SIGABRT at ht_check (htable.c:"));
	assert_int_equal(r.signatures[0].count, r.failing);
	assert_true(r.signatures[0].first_seed < SEEDS);
	assert_int_equal(count_files(f->corpus, ".t"), r.failing);
	assert_int_equal(count_files(f->corpus, ".sig"), r.failing);

	/* DIR/fail-SEED.sig: the signature and a newline. */
	snprintf(path, sizeof(path), "%s/fail-%llu.sig", f->corpus, r.signatures[0].first_seed);
	sig = slurp(path, &slen);
	assert_int_equal(slen, strlen(r.signatures[0].signature) + 1);
	assert_memory_equal(sig, r.signatures[0].signature, slen - 1);
	assert_int_equal(sig[slen - 1], '\n');
	tnorm_free(sig);

	/* DIR/fail-SEED.t: that seed's random test of the harness (100 steps, the default) ... */
	snprintf(path, sizeof(path), "%s/fail-%llu.t", f->corpus, r.signatures[0].first_seed);
	kept = slurp(path, &klen);
	assert_int_equal(tnorm_harness_load(&h, f->harness), 0);
	assert_int_equal(tnorm_test_generate(&t, h, 100, r.signatures[0].first_seed), 0);
	assert_int_equal(tnorm_test_format(t, &text, &tlen), 0);
	assert_int_equal(klen, tlen);
	assert_memory_equal(kept, text, tlen);
	/* ... which fails again with the signature kept. */
	ro.env = no_leak_check;
	ro.suffix = ".t";
	assert_int_equal(tnorm_runner_new(&runner, f->argv, &ro), 0);
	assert_int_equal(tnorm_runner_run(runner, kept, klen, &run), 0);
	assert_int_equal(run.outcome, TNORM_OUTCOME_FAIL);
	assert_int_equal(tnorm_signature_format(run.sig, 0, &again), 0);
	assert_string_equal(again, r.signatures[0].signature);
	tnorm_free(again);
	tnorm_run_result_dispose(&run);
	tnorm_runner_free(runner);
	tnorm_free(text);
	tnorm_free(kept);
	tnorm_test_free(t);
	tnorm_harness_free(h);
	tnorm_fuzz_result_dispose(&r);
	assert_null(r.signatures);
	assert_int_equal(r.nsignatures, 0);
	tnorm_fuzz_result_dispose(&r); /* twice: a no-op */

	/* The fixed program, the same seeds: nothing fails, nothing is written. */
	snprintf(f->prog, sizeof(f->prog), "%.1100s/examples/htable/htable_driver_fixed",
	         getenv("TNORM_BUILD_ROOT"));
	snprintf(f->corpus, sizeof(f->corpus), "%s/fixed", f->dir);
	o = job(f);
	assert_int_equal(tnorm_fuzz_run(&o, &r), 0);
	assert_int_equal(r.runs, SEEDS);
	assert_int_equal(r.failing, 0);
	assert_int_equal(r.nsignatures, 0);
	assert_int_equal(count_files(f->corpus, ".t"), 0);
	tnorm_fuzz_result_dispose(&r);
}

typedef struct {
	size_t starts, runs, news, stop_after;
	unsigned long long next_seed;
	unsigned long long failing;
	int order_ok;
} watch;

static int on_progress(void *ctx, const tnorm_fuzz_progress *p)
{
	watch *w = ctx;
	if (p->event == TNORM_FUZZ_EVENT_START) {
		w->starts++;
		w->order_ok &= w->runs == 0 && p->so_far->runs == 0;
		return 0;
	}
	w->runs++;
	/* Seed after seed, the counts so far including this run, a path and signature for a
	 * failing run only, new at a signature's first seed only. */
	w->order_ok &= p->seed == w->next_seed++ && p->so_far->runs == w->runs;
	if (p->outcome == TNORM_OUTCOME_FAIL) {
		w->failing++;
		w->order_ok &= p->path && p->signature && strstr(p->path, "/fail-");
		w->news += p->new_signature;
	} else {
		w->order_ok &= !p->path && !p->signature && !p->new_signature;
	}
	w->order_ok &= p->so_far->failing == w->failing;
	return w->stop_after && w->runs == w->stop_after;
}

/* The progress callback sees the start and every run in order; a true return stops the job,
 * which then holds what was done. */
static void test_fuzz__progress_and_stop(void **state)
{
	fixture *f = *state;
	tnorm_fuzz_options o = job(f);
	tnorm_fuzz_result r;
	watch w;

	memset(&w, 0, sizeof(w));
	w.order_ok = 1;
	w.next_seed = 7;
	o.seed = 7;
	o.progress = on_progress;
	o.progress_ctx = &w;
	assert_int_equal(tnorm_fuzz_run(&o, &r), 0);
	assert_int_equal(w.starts, 1);
	assert_int_equal(w.runs, SEEDS);
	assert_int_equal(w.failing, r.failing);
	assert_int_equal(w.news, r.nsignatures);
	assert_true(w.order_ok);
	tnorm_fuzz_result_dispose(&r);

	memset(&w, 0, sizeof(w));
	w.order_ok = 1;
	w.stop_after = 5;
	o.seed = 0;
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EINTERRUPTED);
	assert_int_equal(r.runs, 5);
	assert_int_equal(w.runs, 5);
	assert_true(w.order_ok);
	tnorm_fuzz_result_dispose(&r);

	/* A cancel flag set before the job: no run, and the job says it was stopped. */
	{
		volatile int stop = 1;
		o = job(f);
		o.cancel = &stop;
		assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EINTERRUPTED);
		assert_int_equal(r.runs, 0);
		tnorm_fuzz_result_dispose(&r);
	}
}

/* max_failures stops at that many failing runs: the job ends on the first failing seed. */
static void test_fuzz__failure_budget(void **state)
{
	fixture *f = *state;
	tnorm_fuzz_options o = job(f);
	tnorm_fuzz_result r;

	o.max_failures = 1;
	assert_int_equal(tnorm_fuzz_run(&o, &r), 0);
	assert_int_equal(r.failing, 1);
	assert_int_equal(r.nsignatures, 1);
	assert_int_equal(r.runs, r.signatures[0].first_seed + 1); /* seeds 0 .. the first failing */
	assert_int_equal(count_files(f->corpus, ".t"), 1);
	tnorm_fuzz_result_dispose(&r);
}

/* No limit on the runs, a time budget: the job runs at least once and stops past the budget. */
static void test_fuzz__time_budget(void **state)
{
	fixture *f = *state;
	tnorm_fuzz_options o = job(f);
	tnorm_fuzz_result r;

	o.runs = 0;
	o.max_time = 0.3;
	o.steps = 5;
	assert_int_equal(tnorm_fuzz_run(&o, &r), 0);
	assert_true(r.runs >= 1);
	assert_true(r.elapsed >= o.max_time);
	tnorm_fuzz_result_dispose(&r);
}

/* Every run invalid (a harness whose action the driver does not know): counted, the first seed
 * and the driver's reason kept; nothing is a failure.  Other files of the folder stay. */
static void test_fuzz__invalid_runs(void **state)
{
	fixture *f = *state;
	tnorm_fuzz_options o = job(f);
	tnorm_fuzz_result r;
	char edited[1200], other[1300], *text = NULL, *p, *data;
	size_t len = 0, n;

	assert_int_equal(tnorm_file_read(f->harness, &text, &len), 0);
	p = strstr(text, "ht_put");
	assert_non_null(p);
	memcpy(p, "ht_pux", 6); /* the template ht_put(...) renamed: the driver knows no ht_pux */
	snprintf(edited, sizeof(edited), "%s/edited.tnh", f->dir);
	assert_int_equal(tnorm_file_write_atomic(edited, text, len), 0);
	tnorm_free(text);
	assert_int_equal(mkdir(f->corpus, 0755), 0);
	snprintf(other, sizeof(other), "%s/fail-3.txt", f->corpus);
	assert_int_equal(tnorm_file_write_atomic(other, "mine", 4), 0);
	o.harness = edited;
	o.runs = 5;
	o.seed = 3;
	assert_int_equal(tnorm_fuzz_run(&o, &r), 0);
	assert_int_equal(r.runs, 5);
	assert_int_equal(r.failing, 0);
	assert_true(r.invalid >= 1);
	assert_true(r.invalid_seed >= 3 && r.invalid_seed < 8);
	assert_non_null(r.invalid_reason);
	assert_non_null(strstr(r.invalid_reason, "ht_pux"));
	data = slurp(other, &n);
	assert_int_equal(n, 4);
	assert_memory_equal(data, "mine", 4);
	tnorm_free(data);
	tnorm_fuzz_result_dispose(&r);
}

/* The errors the header promises, each with its code. */
static void test_fuzz__errors(void **state)
{
	fixture *f = *state;
	tnorm_fuzz_options o = job(f);
	tnorm_fuzz_result r;
	char bad[1200], file[1200];

	assert_int_equal(tnorm_fuzz_run(&o, NULL), TNORM_EINVALID);
	assert_int_equal(tnorm_fuzz_run(NULL, &r), TNORM_EINVALID);
	o.harness = NULL;
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EINVALID);
	o = job(f);
	o.dir = NULL;
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EINVALID);
	o = job(f);
	o.argv = NULL;
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EINVALID);
	o = job(f);
	o.version = TNORM_FUZZ_OPTIONS_VERSION + 1;
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EINVALID);
	o = job(f);
	o.runs = 0; /* and no time budget: it would never end */
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "max_time"));

	/* A harness that does not parse: FILE:LINE, nothing run. */
	snprintf(bad, sizeof(bad), "%s/bad.tnh", f->dir);
	assert_int_equal(tnorm_file_write_atomic(bad, "pool int 2\n<int> := \n", 21), 0);
	o = job(f);
	o.harness = bad;
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EPARSE);
	assert_non_null(strstr(tnorm_error_last()->message, "bad.tnh:"));
	assert_int_equal(r.runs, 0);

	/* A program that cannot be started: the runner's message, after the run that found it. */
	o = job(f);
	snprintf(f->prog, sizeof(f->prog), "%s/no-such-program", f->dir);
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_ERROR);
	assert_non_null(strstr(tnorm_error_last()->message, "no-such-program"));
	assert_int_equal(r.runs, 1);
	tnorm_fuzz_result_dispose(&r);

	/* A folder that cannot be made (a file is in the way of its parent). */
	snprintf(f->prog, sizeof(f->prog), "%.1100s/examples/htable/htable_driver_faulty",
	         getenv("TNORM_BUILD_ROOT"));
	snprintf(file, sizeof(file), "%s/plain", f->dir);
	assert_int_equal(tnorm_file_write_atomic(file, "x", 1), 0);
	snprintf(f->corpus, sizeof(f->corpus), "%s/plain/corpus", f->dir);
	o = job(f);
	assert_int_equal(tnorm_fuzz_run(&o, &r), TNORM_EIO);
	assert_int_equal(r.runs, 0);
	tnorm_fuzz_result_dispose(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fuzz__finds_planted_bug, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz__progress_and_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz__failure_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz__time_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz__invalid_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz__errors, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

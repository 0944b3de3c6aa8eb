/* SPDX-License-Identifier: MIT */
/*
 * cmd_fuzz.c - `tnorm fuzz HARNESS -- CMD ARGS {}`: random testing from the harness.
 *
 * Seed after seed, a well-formed random test of the harness is run; each failing test is kept in
 * the corpus folder with its signature (fail-SEED.t, fail-SEED.sig), until the run or time budget
 * runs out or Ctrl-C.  The corpus is what `tnorm triage` takes.  The loop is the library's
 * (tnorm_fuzz_run, fuzz.h); this file parses the options and prints what it reports.
 */
#include <string.h>
#include <unistd.h>

#include "cli.h"


static void help(FILE *f)
{
	fprintf(f, "usage: tnorm fuzz HARNESS [--steps N] [--seed S] [--runs N] [--max-time T]\n"
	           "                  [--max-failures N] [-o DIR] [--timeout T] [--mem SIZE] [--stdin] [--no-fork-server] [--env N=V]...\n"
	           "                  [--invalid-exit N]... [--quiet] -- CMD ARGS...\n\n"
	           "Random testing: run well-formed random tests of HARNESS (seeds S, S+1, ...; N steps\n"
	           "each, default 100) and keep every failing test in DIR (default: corpus) as\n"
	           "fail-SEED.t with its signature in fail-SEED.sig.  Stops after --runs tests\n"
	           "(default 1000; 0 = no limit), after --max-time, after --max-failures failing\n"
	           "tests, or on Ctrl-C.  Then:\n"
	           "tnorm triage DIR --harness HARNESS -- CMD ARGS {}\n\n"
	           "Invalid runs: the first one's reason is printed, with its seed.\n\n"
	           "exit status: 0 done (failures found or not), 1 bad harness or every run\n"
	           "invalid (nothing tested), 2 usage, 3 system\n"
	           "error, 130 interrupted (the corpus so far is kept)\n");
}

/* What the library's progress reports become on the terminal. */
typedef struct {
	const char *harness;
	char **rest;
	int tty;
} fuzz_view;

static int progress(void *ctx, const tnorm_fuzz_progress *p)
{
	const fuzz_view *v = ctx;
	const tnorm_fuzz_result *r = p->so_far;
	if (p->event == TNORM_FUZZ_EVENT_START)
		cli_warn_stale_harness("fuzz", v->harness, v->rest[0], v->rest);
	else if (v->tty && r->runs % 50 == 0)
		fprintf(stderr, "\rfuzz: %llu runs, %llu failing, %zu signatures, %.1fs   ", r->runs,
		        r->failing, r->nsignatures, r->elapsed);
	return 0;
}

/* The summary: counts on stdout, a line per signature; why runs were invalid on stderr.  The
 * exit status for a job that ran to its end (or was interrupted). */
static int summary(const tnorm_fuzz_options *o, const tnorm_fuzz_result *r, int err)
{
	size_t s;
	int rc = EXIT_OK;
	printf("%s: %llu runs (seeds %llu..%llu, %llu steps), %llu failing (%.2f%%), %zu distinct "
	       "signatures, %llu invalid, %llu timeouts, %.1f s\n",
	       o->dir, r->runs, o->seed, o->seed + (r->runs ? r->runs - 1 : 0), o->steps, r->failing,
	       r->runs ? 100.0 * (double)r->failing / (double)r->runs : 0.0, r->nsignatures,
	       r->invalid, r->timeouts, r->elapsed);
	for (s = 0; s < r->nsignatures; s++)
		printf("%6llu  %s  (first: %s/fail-%llu.t)\n", r->signatures[s].count,
		       r->signatures[s].signature, o->dir, r->signatures[s].first_seed);
	if (r->invalid) {
		/* A harness edited without rebuilding the driver makes every run invalid: say why. */
		fprintf(stderr, "tnorm fuzz: %s%llu of %llu runs invalid; the first (seed %llu: tnorm gen "
		        "%s --steps %llu --seed %llu): %s\n", r->invalid == r->runs ? "warning: " : "",
		        r->invalid, r->runs, r->invalid_seed, o->harness, o->steps, r->invalid_seed,
		        r->invalid_reason ? r->invalid_reason : "(out of memory)");
		if (r->invalid == r->runs) {
			fprintf(stderr, "tnorm fuzz: no run was valid, so nothing was tested: is %s the "
			        "harness the program was built with? (tnorm check --driver PROG %s)\n",
			        o->harness, o->harness);
			rc = EXIT_BADINPUT;
		}
	}
	if (err == TNORM_EINTERRUPTED) {
		fprintf(stderr, "tnorm fuzz: interrupted; the corpus so far is kept\n");
		rc = EXIT_INTERRUPTED;
	}
	return rc;
}

int cmd_fuzz(int argc, char **argv)
{
	static const cli_spec spec = {"fuzz", CLI_FUZZ, 1, 1, help};
	tnorm_fuzz_options fo = TNORM_FUZZ_OPTIONS_INIT;
	tnorm_fuzz_result res;
	fuzz_view view = {NULL, NULL, 0};
	int rc = EXIT_OK, err = 0;
	cli_args a;
	cli_cancel sigs_in;

	memset(&res, 0, sizeof(res));
	cli_args_init(&a);
	a.steps = 100;
	a.seed = 1;
	a.runs = 1000;
	a.out = "corpus";
	if ((err = cli_parse(&spec, &a, argc, argv)) != CLI_GO_ON) {
		rc = err;
		goto done;
	}
	if (a.noperands == 0) {
		rc = cli_usage_error("fuzz", "missing HARNESS");
		goto done;
	}
	if (cli_check_command(&a.run, "fuzz", a.rest, a.nrest, "tnorm fuzz HARNESS -- CMD ARGS {}") < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (a.runs == 0 && a.max_time <= 0) {
		rc = cli_usage_error("fuzz", "--runs 0 needs --max-time (a budget)");
		goto done;
	}
	cli_run_args_apply(&a.run, &fo.run);
	if (fo.run.timeout == 0)
		fo.run.timeout = -1; /* --timeout 0: no limit */
	fo.steps = a.steps;
	fo.seed = a.seed;
	fo.runs = a.runs;
	fo.max_time = a.max_time;
	fo.max_failures = a.max_failures;
	fo.harness = a.operands[0];
	fo.dir = a.out;
	fo.argv = (const char *const *)a.rest;
	fo.cancel = &cli_cancel_flag;
	fo.progress = progress;
	fo.progress_ctx = &view;
	view.harness = fo.harness;
	view.rest = a.rest;
	view.tty = isatty(2) && !a.quiet;

	cli_cancel_begin(&sigs_in);
	err = tnorm_fuzz_run(&fo, &res);
	if (err < 0 && err != TNORM_EINTERRUPTED) {
		rc = cli_fail("fuzz", err);
	} else {
		if (view.tty)
			fprintf(stderr, "\n");
		rc = summary(&fo, &res, err);
	}
	cli_cancel_end(&sigs_in);
done:
	tnorm_fuzz_result_dispose(&res);
	cli_args_dispose(&a);
	return rc;
}

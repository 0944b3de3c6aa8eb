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
	tnorm_fuzz_options fo = TNORM_FUZZ_OPTIONS_INIT;
	tnorm_fuzz_result res;
	fuzz_view view = {NULL, NULL, 0};
	const char *harness = NULL, *dir = "corpus";
	unsigned long long v;
	int rc = EXIT_OK, err = 0, k, nrest = 0, quiet = 0;
	char **rest = NULL;
	cli_run_args ra;
	cli_cancel sigs_in;

	memset(&res, 0, sizeof(res));
	fo.steps = 100;
	fo.seed = 1;
	fo.runs = 1000;
	if (cli_run_args_init(&ra) < 0)
		return EXIT_SYSTEM;
	for (k = 1; k < argc; k++) {
		const char *a = argv[k];
		int used;
		if (!strcmp(a, "--")) {
			rest = argv + k + 1;
			nrest = argc - k - 1;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			help(stdout);
			goto done;
		}
		if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else if (!strcmp(a, "--steps") || !strcmp(a, "--seed") || !strcmp(a, "--runs") ||
		           !strcmp(a, "-o") || !strcmp(a, "--max-time") || !strcmp(a, "--max-failures")) {
			if (k + 1 >= argc) {
				rc = cli_usage_error("fuzz", "%s needs a value", a);
				goto done;
			}
			if (!strcmp(a, "-o")) {
				dir = argv[++k];
			} else if (!strcmp(a, "--max-time")) {
				if (cli_parse_seconds("fuzz", a, argv[++k], &fo.max_time) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
			} else {
				if (cli_parse_u64("fuzz", a, argv[++k], &v) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
				if (!strcmp(a, "--steps")) {
					if (v < 1 || v > 100000) {
						rc = cli_usage_error("fuzz", "--steps takes 1 to 100000");
						goto done;
					}
					fo.steps = v;
				} else if (!strcmp(a, "--seed")) {
					fo.seed = v;
				} else if (!strcmp(a, "--max-failures")) {
					fo.max_failures = v;
				} else {
					fo.runs = v;
				}
			}
		} else if ((used = cli_run_args_parse(&ra, "fuzz", argc, argv, k)) != 0) {
			if (used < 0) {
				rc = EXIT_USAGE;
				goto done;
			}
			k += used - 1;
		} else if (a[0] == '-' && a[1]) {
			rc = cli_usage_error("fuzz", "unknown option '%s'", a);
			goto done;
		} else if (harness) {
			rc = cli_usage_error("fuzz", "unexpected argument '%s' (put the command after --)", a);
			goto done;
		} else {
			harness = a;
		}
	}
	if (!harness) {
		rc = cli_usage_error("fuzz", "missing HARNESS");
		goto done;
	}
	if (cli_check_command(&ra, "fuzz", rest, nrest, "tnorm fuzz HARNESS -- CMD ARGS {}") < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (fo.runs == 0 && fo.max_time <= 0) {
		rc = cli_usage_error("fuzz", "--runs 0 needs --max-time (a budget)");
		goto done;
	}
	cli_run_args_apply(&ra, &fo.run);
	fo.harness = harness;
	fo.dir = dir;
	fo.argv = (const char *const *)rest;
	fo.cancel = &cli_cancel_flag;
	fo.progress = progress;
	fo.progress_ctx = &view;
	view.harness = harness;
	view.rest = rest;
	view.tty = isatty(2) && !quiet;

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
	cli_run_args_dispose(&ra);
	return rc;
}

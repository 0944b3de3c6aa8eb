/* SPDX-License-Identifier: MIT */
/*
 * cmd_fuzz.c - `tnorm fuzz HARNESS -- CMD ARGS {}`: random testing from the harness.
 *
 * Seed after seed, a well-formed random test of the harness is run; each failing test is kept in
 * the corpus folder with its signature (fail-SEED.t, fail-SEED.sig), until the run or time budget
 * runs out or Ctrl-C.  The corpus is what `tnorm triage` takes.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
	char *sig;
	unsigned long long count, first_seed;
} sig_count;

int cmd_fuzz(int argc, char **argv)
{
	const char *harness = NULL, *dir = "corpus";
	unsigned long long steps = 100, seed = 1, runs = 1000, v, i, nfail = 0, ninvalid = 0;
	unsigned long long max_failures = 0;
	unsigned long long ntimeout = 0, done = 0, invalid_seed = 0;
	char *invalid_reason = NULL; /* the first invalid run's (issue 32, item 2) */
	double max_time = 0, start;
	int quiet = 0, rc = EXIT_OK, err = 0, k, nrest = 0, tty;
	char **rest = NULL;
	cli_run_args ra;
	tnorm_run_options ro = TNORM_RUN_OPTIONS_INIT;
	tnorm_harness *h = NULL;
	tnorm_runner *r = NULL;
	sig_count *sigs = NULL;
	size_t nsigs = 0, s;
	cli_cancel sigs_in;

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
				if (cli_parse_seconds("fuzz", a, argv[++k], &max_time) < 0) {
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
					steps = v;
				} else if (!strcmp(a, "--seed")) {
					seed = v;
				} else if (!strcmp(a, "--max-failures")) {
					max_failures = v;
				} else {
					runs = v;
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
	if (runs == 0 && max_time <= 0) {
		rc = cli_usage_error("fuzz", "--runs 0 needs --max-time (a budget)");
		goto done;
	}
	if ((err = tnorm_harness_load(&h, harness)) < 0) {
		rc = cli_fail("fuzz", err);
		goto done;
	}
	cli_warn_stale_harness("fuzz", harness, rest[0], rest);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "tnorm fuzz: %s: cannot create: %s\n", dir, strerror(errno));
		rc = EXIT_SYSTEM;
		goto done;
	}
	cli_run_args_apply(&ra, &ro);
	ro.suffix = ".t";
	if ((err = tnorm_runner_new(&r, (const char *const *)rest, &ro)) < 0) {
		rc = cli_fail("fuzz", err);
		goto done;
	}
	cli_cancel_begin(&sigs_in);
	tnorm_runner_set_cancel(r, &cli_cancel_flag);
	tty = isatty(2) && !quiet;
	start = mono();
	for (i = 0; (runs == 0 || i < runs) && !cli_cancel_flag &&
	            (max_failures == 0 || nfail < max_failures);
	     i++) {
		tnorm_test *t = NULL;
		tnorm_run_result res;
		char *text = NULL;
		size_t len = 0;
		if (max_time > 0 && mono() - start > max_time)
			break;
		memset(&res, 0, sizeof(res));
		if ((err = tnorm_test_generate(&t, h, (size_t)steps, seed + i)) < 0 ||
		    (err = tnorm_test_format(t, &text, &len)) < 0 ||
		    (err = tnorm_runner_run(r, text, len, &res)) < 0) {
			tnorm_test_free(t);
			tnorm_free(text);
			tnorm_run_result_dispose(&res);
			if (err == TNORM_EINTERRUPTED)
				break; /* Ctrl-C stopped the run under way: the summary follows */
			rc = cli_fail("fuzz", err);
			goto restore;
		}
		done++;
		if (res.outcome == TNORM_OUTCOME_ERROR) {
			fprintf(stderr, "tnorm fuzz: %s\n", res.message);
			tnorm_test_free(t);
			tnorm_free(text);
			tnorm_run_result_dispose(&res);
			rc = EXIT_SYSTEM;
			goto restore;
		}
		if (res.outcome == TNORM_OUTCOME_INVALID && !ninvalid++) {
			invalid_seed = seed + i;
			invalid_reason = strdup(res.message[0] ? res.message : "no reason given");
		}
		if (res.outcome == TNORM_OUTCOME_TIMEOUT)
			ntimeout++;
		if (res.outcome == TNORM_OUTCOME_FAIL && res.sig) {
			char path[4096], *sig = NULL;
			nfail++;
			err = tnorm_signature_format(res.sig, 0, &sig);
			snprintf(path, sizeof(path), "%s/fail-%llu.t", dir, seed + i);
			if (err == 0)
				err = tnorm_file_write_atomic(path, text, len);
			snprintf(path, sizeof(path), "%s/fail-%llu.sig", dir, seed + i);
			if (err == 0) {
				size_t sl = strlen(sig);
				char *line = malloc(sl + 2);
				if (!line) {
					err = TNORM_ENOMEM;
				} else {
					memcpy(line, sig, sl);
					line[sl] = '\n';
					err = tnorm_file_write_atomic(path, line, sl + 1);
					free(line);
				}
			}
			for (s = 0; err == 0 && s < nsigs; s++)
				if (!strcmp(sigs[s].sig, sig))
					break;
			if (err == 0 && s == nsigs) {
				sig_count *n = realloc(sigs, (nsigs + 1) * sizeof(*n));
				if (!n) {
					err = TNORM_ENOMEM;
				} else {
					sigs = n;
					sigs[nsigs].sig = strdup(sig);
					sigs[nsigs].count = 0;
					sigs[nsigs].first_seed = seed + i;
					if (!sigs[nsigs].sig)
						err = TNORM_ENOMEM;
					else
						nsigs++;
				}
			}
			if (err == 0)
				sigs[s].count++;
			tnorm_free(sig);
		}
		tnorm_test_free(t);
		tnorm_free(text);
		tnorm_run_result_dispose(&res);
		if (err < 0) {
			rc = cli_fail("fuzz", err);
			goto restore;
		}
		if (tty && (done % 50 == 0))
			fprintf(stderr, "\rfuzz: %llu runs, %llu failing, %zu signatures, %.1fs   ", done,
			        nfail, nsigs, mono() - start);
	}
	if (tty)
		fprintf(stderr, "\n");
	printf("%s: %llu runs (seeds %llu..%llu, %llu steps), %llu failing (%.2f%%), %zu distinct "
	       "signatures, %llu invalid, %llu timeouts, %.1f s\n",
	       dir, done, seed, seed + (done ? done - 1 : 0), steps, nfail,
	       done ? 100.0 * (double)nfail / (double)done : 0.0, nsigs, ninvalid, ntimeout,
	       mono() - start);
	for (s = 0; s < nsigs; s++)
		printf("%6llu  %s  (first: %s/fail-%llu.t)\n", sigs[s].count, sigs[s].sig, dir,
		       sigs[s].first_seed);
	if (ninvalid) {
		/* A harness edited without rebuilding the driver makes every run invalid: say why. */
		fprintf(stderr, "tnorm fuzz: %s%llu of %llu runs invalid; the first (seed %llu: tnorm gen "
		        "%s --steps %llu --seed %llu): %s\n", ninvalid == done ? "warning: " : "",
		        ninvalid, done, invalid_seed, harness, steps, invalid_seed,
		        invalid_reason ? invalid_reason : "(out of memory)");
		if (ninvalid == done) {
			fprintf(stderr, "tnorm fuzz: no run was valid, so nothing was tested: is %s the "
			        "harness the program was built with? (tnorm check --driver PROG %s)\n",
			        harness, harness);
			rc = EXIT_BADINPUT;
		}
	}
	if (cli_cancel_flag) {
		fprintf(stderr, "tnorm fuzz: interrupted; the corpus so far is kept\n");
		rc = EXIT_INTERRUPTED;
	}
restore:
	cli_cancel_end(&sigs_in);
done:
	for (s = 0; s < nsigs; s++)
		free(sigs[s].sig);
	free(sigs);
	free(invalid_reason);
	tnorm_runner_free(r);
	tnorm_harness_free(h);
	cli_run_args_dispose(&ra);
	return rc;
}

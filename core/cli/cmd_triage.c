/* SPDX-License-Identifier: MIT */
/*
 * cmd_triage.c - `tnorm triage DIR [--harness H] -- CMD ARGS {}`: one test per fault.  Without
 * --harness DIR is a fuzzer's crash folder (any files; `@@` as AFL++ writes it works as `{}`).
 *
 * The options, a line per test as the workers finish them, and the summary; the work itself
 * (worker threads, claims, result files, buckets, generalization, the report) is the library's
 * tnorm_triage_run (core/src/triage.c, triage_report.c), which the debugger plugins call too.
 * Ctrl-C and SIGTERM set the job's cancel flag: it stops, keeping every finished test, and the
 * same command resumes it.
 */
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"


static void help(FILE *f)
{
	fprintf(f, "usage: tnorm triage DIR [--harness H | --no-harness] [-j N] [-o OUT] [--match P] [--db PATH |\n"
	           "                   --no-db] [--max-time-per-test T] [--no-generalize] [--timeout T]\n"
	           "                   [--mem SIZE] [--stdin] [--no-fork-server] [--env N=V]...\n"
	           "                   [--invalid-exit N]... [--fixed CMD] [--rules calls|paper]\n"
	           "                   [--shard K/N] [--lease S] [--polish N | --no-polish]\n"
	           "                   [--polish-runs R] [--quiet] -- CMD ARGS...\n\n"
	           "Confirm, reduce and normalize every test (*.t) in DIR on N worker threads\n"
	           "(default: the number of cores) sharing one database (default DIR/.tnorm/cache.db),\n"
	           "then group them into buckets of (signature, normal form): one test per fault.\n"
	           "Without --harness, when CMD is a tnorm driver, its compiled-in harness is used\n"
	           "(CMD --print-harness); else (or with --no-harness) DIR is a fuzzer's crash\n"
	           "folder (AFL++'s crashes/ or its output folder, libFuzzer's crash-* files):\n"
	           "every file but README.txt, timeout-* and slow-unit-* is a test, minimized as\n"
	           "bytes; {} or @@ in ARGS is its path (or\n"
	           "--stdin).  Prints the summary, writes each bucket's representative to\n"
	           "OUT/buckets/N-NAME, and OUT/report.json and OUT/report.html (OUT defaults to\n"
	           "DIR/triage).  Resumable: rerun after Ctrl-C or a crash and only the tests not\n"
	           "done yet are worked on.  --invalid-exit and --fixed as for tnorm reduce; --rules\n"
	           "as for tnorm minimize.  --shard K/N does only the K-th of N parts of DIR, K from\n"
	           "1 to N (1/3, 2/3, 3/3, as Jest and Playwright count; 0/N is refused),\n"
	           "and writes no report: run it on N machines with a shared --db URL, then once\n"
	           "without --shard for the report.  --lease S: seconds a claim lasts unless renewed\n"
	           "(default 5 for a file database, 30 for a server).  Without a harness each\n"
	           "distinct normal form of up to N bytes (default %d) is polished once at the end:\n"
	           "every lower value of every byte, until no single byte can be lowered and still\n"
	           "fail, in at most R runs in all (default: a quarter of the tests' runs; the forms\n"
	           "cheapest per test first); --no-polish: none.\n\n"
	           "exit status: 0 done, 1 bad harness, 2 usage, 3 system error, 130 interrupted\n",
	        TNORM_TRIAGE_POLISH_MAX);
}

/* A line per test as it is done (unless --quiet): what it became, or why it is not triaged.  On
 * a terminal, below them, one progress line redrawn in place (issue 32, item 6). */
typedef struct shown {
	const char *dir;
	int quiet;
	const char *unit; /* "steps", or "bytes" without a harness */
	unsigned shard, shards;
	int tty;          /* standard error is a terminal: draw the progress line */
	int drawn;        /* the progress line is on the screen */
	double drawn_at;  /* when it was last drawn (the job's elapsed seconds) */
	char **keys;      /* the distinct signature keys of the tests this job did: its buckets */
	size_t nkeys;
	size_t gen_shown; /* the bucket whose generalization the line shows (1-based), or 0 */
} shown;

/* Count t's key among the buckets so far. */
static void add_key(shown *s, const tnorm_triage_test *t)
{
	size_t i;
	char **n;
	if (t->status != TNORM_TRIAGE_OK || !t->key)
		return;
	for (i = 0; i < s->nkeys; i++)
		if (!strcmp(s->keys[i], t->key))
			return;
	if (!(n = realloc(s->keys, (s->nkeys + 1) * sizeof(*n))) || !(n[s->nkeys] = strdup(t->key))) {
		if (n)
			s->keys = n;
		return; /* out of memory: the count is only shown */
	}
	s->keys = n;
	s->nkeys++;
}

/* `[17/116] 2 buckets, 3.1 tests/s, 35 s left`, over the line drawn before. */
static void draw(shown *s, const tnorm_triage_progress *p)
{
	double rate = p->elapsed > 0 ? (double)p->fresh / p->elapsed : 0;
	fprintf(stderr, "\r\033[K[%zu/%zu] %zu bucket%s, ", p->done, p->total, s->nkeys,
	        s->nkeys == 1 ? "" : "s");
	if (p->fresh == 0)
		fprintf(stderr, "%.0f s", p->elapsed);
	else
		fprintf(stderr, "%.1f tests/s, %.0f s left", rate,
		        (double)(p->total - p->done) / rate);
	fflush(stderr);
	s->drawn = 1;
	s->drawn_at = p->elapsed;
}

/* Take the progress line off the screen (before other output). */
static void undraw(shown *s)
{
	if (!s->drawn)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	s->drawn = 0;
}

static int on_progress(void *ctx, const tnorm_triage_progress *p)
{
	shown *s = ctx;
	const tnorm_triage_test *t = p->test;
	int bar = s->tty && !s->quiet && (p->event == TNORM_TRIAGE_EVENT_TEST ||
	                                  p->event == TNORM_TRIAGE_EVENT_TICK);
	int after = p->event == TNORM_TRIAGE_EVENT_GENERALIZE || p->event == TNORM_TRIAGE_EVENT_POLISH;
	if (bar && p->event == TNORM_TRIAGE_EVENT_TEST)
		add_key(s, t);
	if (bar && p->event == TNORM_TRIAGE_EVENT_TICK) {
		if (!s->drawn || p->elapsed - s->drawn_at >= 0.5)
			draw(s, p);
		return 0;
	}
	if (s->tty && !s->quiet && after && p->runs &&
	    (s->gen_shown != p->bucket || p->elapsed - s->drawn_at >= 0.5)) {
		/* After the tests, the polish of the normal forms and the representatives'
		 * generalization: the same line, their runs. */
		fprintf(stderr, "\r\033[K[%zu/%zu] %s %zu of %zu: %llu runs", p->done, p->total,
		        p->event == TNORM_TRIAGE_EVENT_POLISH ? "polishing normal form"
		                                              : "generalizing bucket",
		        p->bucket, p->nbuckets, (unsigned long long)p->runs->runs);
		fflush(stderr);
		s->drawn = 1;
		s->drawn_at = p->elapsed;
		s->gen_shown = p->bucket;
		return 0;
	}
	if (s->drawn && !s->quiet && !after)
		undraw(s);
	if (p->event == TNORM_TRIAGE_EVENT_START && !s->quiet) {
		char shard[48] = "";
		if (s->shards > 1)
			snprintf(shard, sizeof(shard), " shard %u/%u:", s->shard + 1, s->shards);
		fprintf(stderr, "triage:%s %zu tests in %s, %u jobs, results in %s\n", shard, p->total,
		        s->dir, p->jobs, p->out);
	}
	if (p->event != TNORM_TRIAGE_EVENT_TEST || s->quiet)
		return 0;
	if (t->status == TNORM_TRIAGE_OK)
		printf("%s: %ld -> %ld %s (%llu runs): %s\n", t->name, t->original_steps,
		       t->normal_steps, s->unit, (unsigned long long)t->runs, t->signature);
	else
		printf("%s: %s: %s\n", t->name, tnorm_triage_status_name(t->status), t->message);
	fflush(stdout);
	if (bar)
		draw(s, p);
	return 0;
}

/* A normal form without a harness: any bytes; those a terminal would not show as they are (NUL
 * and other control characters but newline and tab) as \xNN, and a last newline. */
static void print_bytes(const char *s, size_t len)
{
	size_t i;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	if (len == 0 || s[len - 1] != '\n')
		putchar('\n');
}

static void print_summary(const tnorm_triage_result *r)
{
	size_t i, b;
	printf("%s: %zu tests, %zu failing, %zu distinct signatures, %zu distinct reduced, %zu "
	       "distinct normalized: %zu bucket%s\n",
	       r->corpus, r->ntests, r->failing, r->signatures, r->distinct_reduced,
	       r->distinct_normalized, r->nbuckets, r->nbuckets == 1 ? "" : "s");
	if (r->polish_forms)
		printf("polish: %zu of %zu normal form%s made canonical (%zu lowered), %llu runs of a "
		       "budget of %llu%s\n",
		       r->polish_complete, r->polish_forms, r->polish_forms == 1 ? "" : "s",
		       r->polish_lowered, (unsigned long long)r->polish_runs,
		       (unsigned long long)r->polish_budget,
		       r->polish_complete < r->polish_forms ? "; --polish-runs N for more" : "");
	for (b = 0; b < r->nbuckets; b++) {
		const tnorm_triage_bucket *bk = &r->buckets[b];
		printf("\n== bucket %zu: %zu tests", b + 1, bk->count);
		if (bk->nforms > 1)
			printf(" in %zu normal forms (report.json lists them)", bk->nforms);
		printf("; %s\n   representative %s (%s):\n", bk->signature,
		       r->tests[bk->representative].name, bk->file);
		if (bk->annotated)
			fputs(bk->annotated, stdout);
		else
			print_bytes(bk->normal, bk->normal_len);
	}
	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].status != TNORM_TRIAGE_OK)
			printf("not triaged: %s: %s: %s\n", r->tests[i].name,
			       tnorm_triage_status_name(r->tests[i].status), r->tests[i].message);
	printf("\nreport: %s/report.html, %s/report.json\n", r->out, r->out);
}

/* A shard's summary: its part done, and how to get the report. */
static void print_shard(const tnorm_triage_options *o, const tnorm_triage_result *r)
{
	printf("shard %u/%u of %s: %zu of %zu tests (%zu done by this run), %zu failing, %zu "
	       "bucket%s in this shard\n",
	       o->shard + 1, o->shards, r->corpus, r->ntests, r->total, r->fresh, r->failing, r->nbuckets,
	       r->nbuckets == 1 ? "" : "s");
	printf("the report: run the same command without --shard once every shard is done\n");
}

int cmd_triage(int argc, char **argv)
{
	tnorm_triage_options o = TNORM_TRIAGE_OPTIONS_INIT;
	tnorm_triage_result res;
	cli_run_args ra;
	char **rest = NULL, *dbfile = NULL, *probe = NULL, *tmp_harness = NULL;
	const char *dbpath = NULL;
	unsigned long long v;
	int k, nrest = 0, no_db = 0, no_harness = 0, rc = EXIT_OK, err;
	shown sh = {NULL, 0, "steps", 0, 0, 0, 0, 0, NULL, 0, 0};
	cli_cancel sigs_in;

	memset(&res, 0, sizeof(res));
	o.jobs = cli_default_jobs();
	o.job.session.match = "line";
	if (cli_run_args_init(&ra) < 0)
		return EXIT_SYSTEM;
	ra.timeout = 0; /* derived from each test's confirm runs unless given */
	ra.fixed_ok = 1;
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
			sh.quiet = 1;
		} else if (!strcmp(a, "--no-db")) {
			no_db = 1;
		} else if (!strcmp(a, "--no-harness")) {
			no_harness = 1;
		} else if (!strcmp(a, "--no-generalize")) {
			o.generalize = 0;
		} else if (!strcmp(a, "--no-polish")) {
			o.polish = -1;
		} else if (!strcmp(a, "--rules")) {
			if (k + 1 >= argc || (strcmp(argv[k + 1], "calls") && strcmp(argv[k + 1], "paper"))) {
				rc = cli_usage_error("triage", "--rules takes calls or paper");
				goto done;
			}
			o.job.normalize.rules =
			        strcmp(argv[++k], "paper") ? TNORM_RULES_CALLS : TNORM_RULES_PAPER;
		} else if (!strcmp(a, "--harness") || !strcmp(a, "-o") || !strcmp(a, "--match") ||
		           !strcmp(a, "--db") || !strcmp(a, "-j") || !strcmp(a, "--jobs") ||
		           !strcmp(a, "--max-time-per-test") || !strcmp(a, "--shard") ||
		           !strcmp(a, "--lease") || !strcmp(a, "--polish") || !strcmp(a, "--polish-runs")) {
			const char *val;
			if (k + 1 >= argc) {
				rc = cli_usage_error("triage", "%s needs a value", a);
				goto done;
			}
			val = argv[++k];
			if (!strcmp(a, "--harness")) {
				o.harness = val;
			} else if (!strcmp(a, "-o")) {
				o.out = val;
			} else if (!strcmp(a, "--db")) {
				dbpath = val;
			} else if (!strcmp(a, "--shard")) {
				if (tnorm_triage_shard_parse(val, &o.shard, &o.shards) < 0) {
					rc = cli_usage_error("triage", "%s", tnorm_error_last()->message);
					goto done;
				}
			} else if (!strcmp(a, "--lease")) {
				if (cli_parse_u64_in("triage", a, val, 1, 86400, "seconds", &v) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
				o.lease = (unsigned)v;
			} else if (!strcmp(a, "--polish")) {
				if (cli_parse_u64_in("triage", a, val, 1, 1000000, "bytes", &v) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
				o.polish = (long)v;
			} else if (!strcmp(a, "--polish-runs")) {
				if (cli_parse_u64_in("triage", a, val, 1, ULLONG_MAX, "", &v) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
				o.polish_runs = v;
			} else if (!strcmp(a, "--max-time-per-test")) {
				if (cli_parse_seconds("triage", a, val, &o.job.session.max_time) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
			} else if (!strcmp(a, "--match")) {
				tnorm_match *m = NULL;
				if (tnorm_match_parse(&m, val) < 0) {
					rc = cli_usage_error("triage", "%s", tnorm_error_last()->message);
					goto done;
				}
				tnorm_match_free(m);
				o.job.session.match = val;
			} else {
				if (cli_parse_u64("triage", a, val, &v) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
				if (v < 1 || v > 256) {
					rc = cli_usage_error("triage", "%s takes 1 to 256 jobs", a);
					goto done;
				}
				o.jobs = (unsigned)v;
			}
		} else if ((used = cli_run_args_parse(&ra, "triage", argc, argv, k)) != 0) {
			if (used < 0) {
				rc = EXIT_USAGE;
				goto done;
			}
			k += used - 1;
		} else if (a[0] == '-' && a[1]) {
			rc = cli_usage_error("triage", "unknown option '%s'", a);
			goto done;
		} else if (o.dir) {
			rc = cli_usage_error("triage", "unexpected argument '%s' (put the command after --)", a);
			goto done;
		} else {
			o.dir = a;
		}
	}
	if (!o.dir) {
		rc = cli_usage_error("triage", "missing DIR (a folder of failing tests, e.g. from tnorm fuzz)");
		goto done;
	}
	if (o.shards > 1 && no_db) {
		rc = cli_usage_error("triage", "--shard needs a database where the shards' results meet "
		                     "(--db URL), not --no-db");
		goto done;
	}
	if (cli_check_command(&ra, "triage", rest, nrest,
	                      "tnorm triage DIR -- CMD ARGS {} (or @@)") < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (o.harness)
		cli_warn_stale_harness("triage", o.harness, rest[0], rest);
	else if (!no_harness &&
	         cli_driver_harness("triage", rest, sh.quiet, &o.harness, &tmp_harness) < 0) {
		rc = EXIT_SYSTEM;
		goto done;
	}
	if (!o.harness)
		sh.unit = "bytes";
	o.argv = (const char *const *)rest;
	if (cli_run_args_fixed(&ra, "triage", rest, &o.job.session.fixed) < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	cli_run_args_apply(&ra, &o.job.run);
	if (!no_db) {
		/* The database goes beside the tests. */
		size_t n = strlen(o.dir) + 3;
		if (!(probe = malloc(n))) {
			rc = EXIT_SYSTEM;
			goto done;
		}
		snprintf(probe, n, "%s/x", o.dir);
		if ((err = tnorm_db_path(probe, dbpath, &dbfile)) < 0) {
			rc = cli_fail("triage", err);
			goto done;
		}
	}
	o.db = dbfile;
	o.cancel = &cli_cancel_flag;
	o.progress = on_progress;
	sh.dir = o.dir;
	sh.shard = o.shard;
	sh.shards = o.shards;
	sh.tty = isatty(2);
	o.progress_ctx = &sh;
	cli_cancel_begin(&sigs_in);
	fflush(stdout);
	fflush(stderr);
	err = tnorm_triage_run(&o, &res);
	cli_cancel_end(&sigs_in);
	undraw(&sh);
	if (res.warning)
		fprintf(stderr, "tnorm triage: warning: %s\n", res.warning);
	if (err < 0) {
		rc = cli_fail("triage", err);
		goto done;
	}
	if (o.shards > 1)
		print_shard(&o, &res);
	else
		print_summary(&res);
done:
	tnorm_triage_result_dispose(&res);
	free(probe);
	for (k = 0; k < (int)sh.nkeys; k++)
		free(sh.keys[k]);
	free(sh.keys);
	if (tmp_harness)
		unlink(tmp_harness);
	free(tmp_harness);
	tnorm_free(dbfile);
	cli_run_args_dispose(&ra);
	return rc;
}

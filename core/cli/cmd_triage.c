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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"


/* --explain: the lines of tnorm why shown per bucket. */
#define TRIAGE_EXPLAIN_LINES 5

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm triage DIR [--harness H | --no-harness] [-j N] [-o OUT] [--match P] [--db PATH |\n"
	           "                   --no-db] [--max-time-per-test T] [--no-generalize] [--timeout T]\n"
	           "                   [--mem SIZE] [--stdin] [--no-fork-server] [--env N=V]...\n"
	           "                   [--invalid-exit N]... [--fixed CMD] [--rules calls|paper]\n"
	           "                   [--shard K/N] [--lease S] [--polish N | --no-polish]\n"
	           "                   [--polish-runs R] [--thorough] [--explain] [--sarif FILE]\n"
	           "                   [--quiet]\n"
	           "                   -- CMD ARGS...\n\n"
	           "Run every test (*.t) in DIR once for its signature, on N worker threads\n"
	           "(default: the number of cores) sharing one database (default DIR/.tnorm/cache.db);\n"
	           "confirm, reduce and normalize a few tests of each signature (the smallest, one\n"
	           "of another stack, more where their buckets disagree), and put the others in the\n"
	           "bucket of the minimized test of their signature and stack: one test per fault.\n"
	           "--thorough minimizes every test (about a hundred runs each instead of one).\n"
	           "Without --harness, when CMD is a tnorm driver, its compiled-in harness is used\n"
	           "(CMD --print-harness); else (or with --no-harness) DIR is a fuzzer's crash\n"
	           "folder (AFL++'s crashes/ or its output folder, libFuzzer's crash-* files):\n"
	           "every file but README.txt, timeout-* and slow-unit-* is a test, minimized as\n"
	           "bytes; {} or @@ in ARGS is its path (or\n"
	           "--stdin).  Prints the summary, writes each bucket's representative to\n"
	           "OUT/buckets/N-NAME, and OUT/report.json and OUT/report.html (OUT defaults to\n"
	           "DIR/triage); --sarif FILE also writes the buckets as SARIF 2.1.0, one result\n"
	           "per bucket, for code-scanning tools.  Each bucket has a severity class\n"
	           "(EXPLOITABLE, PROBABLY_EXPLOITABLE, NOT_EXPLOITABLE, UNKNOWN).  --explain also\n"
	           "ranks each bucket's lines as tnorm why does (its representative and up to 400\n"
	           "neighbours run with line coverage: costly) and shows the best 5 with their\n"
	           "source.  Resumable: rerun after Ctrl-C or a crash and only the tests not\n"
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

/* A signature as the lines show it: a fuzzing engine's frames left out (the crash state,
 * tnorm_signature_text_shown); the key and the report keep the full text. */
static void put_signature(const char *sig)
{
	char *text = NULL;
	if (tnorm_signature_text_shown(sig, &text) < 0) {
		tnorm_error_clear();
		cli_put(stdout, sig);
		return;
	}
	cli_put(stdout, text);
	tnorm_free(text);
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
		fprintf(stderr, "triage:%s %zu tests in ", shard, p->total);
		cli_put(stderr, s->dir);
		fprintf(stderr, ", %u jobs, results in ", p->jobs);
		cli_put(stderr, p->out);
		fputc('\n', stderr);
	}
	if (p->event != TNORM_TRIAGE_EVENT_TEST || s->quiet)
		return 0;
	cli_put(stdout, t->name); /* any bytes: escaped for the terminal (issue 39, item 13) */
	if (t->status == TNORM_TRIAGE_OK && !t->minimized) {
		printf(": %ld %s, checked (%llu run%s): ", t->original_steps, s->unit,
		       (unsigned long long)t->runs, t->runs == 1 ? "" : "s");
		put_signature(t->signature);
	} else if (t->status == TNORM_TRIAGE_OK) {
		printf(": %ld -> %ld %s (%llu runs): ", t->original_steps, t->normal_steps, s->unit,
		       (unsigned long long)t->runs);
		put_signature(t->signature);
	} else {
		printf(": %s: ", tnorm_triage_status_name(t->status));
		cli_put(stdout, t->message);
	}
	putchar('\n');
	fflush(stdout);
	if (bar)
		draw(s, p);
	return 0;
}

/* The library's summary (tnorm_triage_summary_text), which the plugins print too. */
static void print_summary(const tnorm_triage_result *r)
{
	char *text = NULL;
	if (tnorm_triage_summary_text(r, &text) < 0) {
		fprintf(stderr, "tnorm triage: %s\n", tnorm_error_last()->message);
		return;
	}
	fputs(text, stdout);
	tnorm_free(text);
}

/* A shard's summary: its part done, and how to get the report. */
static void print_shard(const tnorm_triage_options *o, const tnorm_triage_result *r)
{
	printf("shard %u/%u of ", o->shard + 1, o->shards);
	cli_put(stdout, r->corpus);
	printf(": %zu of %zu tests (%zu done by this run), %zu failing, %zu bucket%s in this shard\n",
	       r->ntests, r->total, r->fresh, r->failing, r->nbuckets,
	       r->nbuckets == 1 ? "" : "s");
	printf("the report: run the same command without --shard once every shard is done\n");
}

/* The command line into `a` and `o`: CLI_GO_ON, or the exit status. */
static int parse(cli_args *a, tnorm_triage_options *o, int argc, char **argv)
{
	static const cli_spec spec = {"triage", CLI_TRIAGE, 1, 1, help};
	int rc;
	a->run.timeout = 0; /* derived from each test's confirm runs unless given */
	a->jobs = tnorm_default_jobs();
	a->match = "line";
	a->lease = o->lease;
	a->polish = o->polish;
	a->polish_runs = o->polish_runs;
	a->max_time = o->job.session.max_time;
	a->shard = o->shard;
	a->shards = o->shards;
	if ((rc = cli_parse(&spec, a, argc, argv)) != CLI_GO_ON)
		return rc;
	o->harness = a->harness;
	o->out = a->out;
	o->jobs = (unsigned)a->jobs;
	o->job.session.match = a->match;
	o->job.session.max_time = a->max_time;
	if (a->rules)
		o->job.normalize.rules = strcmp(a->rules, "paper") ? TNORM_RULES_CALLS : TNORM_RULES_PAPER;
	if (a->no_generalize)
		o->generalize = -1;
	o->thorough = a->thorough;
	o->explain = a->explain ? TRIAGE_EXPLAIN_LINES : 0;
	o->polish = a->polish;
	o->polish_runs = a->polish_runs;
	o->lease = (unsigned)a->lease;
	o->shard = a->shard;
	o->shards = a->shards;
	if (a->noperands == 0)
		return cli_usage_error("triage", "missing DIR (a folder of failing tests, e.g. from "
		                       "tnorm fuzz)");
	o->dir = a->operands[0];
	if (o->shards > 1 && a->no_db)
		return cli_usage_error("triage", "--shard needs a database where the shards' results "
		                       "meet (--db URL), not --no-db");
	if (o->shards > 1 && a->sarif)
		return cli_usage_error("triage", "--sarif writes the report's buckets, which a shard "
		                       "does not make: give it to the run without --shard");
	if (cli_check_command(&a->run, "triage", a->rest, a->nrest,
	                      "tnorm triage DIR -- CMD ARGS {} (or @@)") < 0)
		return EXIT_USAGE;
	return CLI_GO_ON;
}

/* The harness, the fixed program, the runs' options and the database (beside the tests):
 * CLI_GO_ON, or the exit status.  *probe and *dbfile are the caller's to free. */
static int prepare(cli_args *a, tnorm_triage_options *o, shown *sh, char **tmp_harness,
                   char **probe, char **dbfile)
{
	size_t n = strlen(o->dir) + 3;
	int err;
	if (cli_harness("triage", a, sh->quiet, &o->harness, tmp_harness) < 0)
		return EXIT_SYSTEM;
	if (!o->harness)
		sh->unit = "bytes";
	o->argv = (const char *const *)a->rest;
	if (cli_run_args_fixed(&a->run, "triage", a->rest, &o->job.session.fixed) < 0)
		return EXIT_USAGE;
	cli_run_args_apply(&a->run, &o->job.run);
	if (!a->no_db) {
		if (!(*probe = malloc(n)))
			return EXIT_SYSTEM;
		snprintf(*probe, n, "%s/x", o->dir);
		if ((err = tnorm_db_path(*probe, a->db, dbfile)) < 0)
			return cli_fail("triage", err);
	}
	o->db = *dbfile;
	return CLI_GO_ON;
}

int cmd_triage(int argc, char **argv)
{
	tnorm_triage_options o = TNORM_TRIAGE_OPTIONS_INIT;
	tnorm_triage_result res;
	cli_args a;
	char *dbfile = NULL, *probe = NULL, *tmp_harness = NULL;
	size_t k;
	int rc, err;
	shown sh = {NULL, 0, "steps", 0, 0, 0, 0, 0, NULL, 0, 0};
	cli_cancel sigs_in;

	memset(&res, 0, sizeof(res));
	cli_args_init(&a);
	if ((rc = parse(&a, &o, argc, argv)) != CLI_GO_ON)
		goto done;
	sh.quiet = a.quiet;
	if ((rc = prepare(&a, &o, &sh, &tmp_harness, &probe, &dbfile)) != CLI_GO_ON)
		goto done;
	rc = EXIT_OK;
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
	err = tnorm_triage_report_finish(&o, &res, tnorm_triage_run(&o, &res), a.sarif);
	cli_cancel_end(&sigs_in);
	undraw(&sh);
	if (res.warning)
		fprintf(stderr, "tnorm triage: warning: %s\n", res.warning);
	if (err < 0)
		rc = cli_fail("triage", err);
	else if (o.shards > 1)
		print_shard(&o, &res);
	else
		print_summary(&res);
done:
	tnorm_triage_result_dispose(&res);
	free(probe);
	for (k = 0; k < sh.nkeys; k++)
		free(sh.keys[k]);
	free(sh.keys);
	if (tmp_harness)
		unlink(tmp_harness);
	free(tmp_harness);
	tnorm_free(dbfile);
	cli_args_dispose(&a);
	return rc;
}

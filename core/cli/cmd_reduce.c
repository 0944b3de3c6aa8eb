/* SPDX-License-Identifier: MIT */
/*
 * cmd_reduce.c - the commands that judge candidates by running the program:
 *   `tnorm reduce [--harness H] TEST -- CMD ARGS {}`    a 1-minimal test that fails the same way;
 *   `tnorm normalize [--harness H] TEST -- CMD ARGS {}` its canonical form (rewriting + reduction);
 *   `tnorm minimize [--harness H] TEST -- CMD ARGS {}`  confirm, reduce, then normalize.
 * Without --harness, TEST is any file (generic mode, generic.h).
 * They share one option set and one session (one cache, one best-so-far file, one slipped/).
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"


enum {
	MODE_REDUCE = TNORM_MODE_REDUCE,
	MODE_NORMALIZE = TNORM_MODE_NORMALIZE,
	MODE_MINIMIZE = TNORM_MODE_MINIMIZE,
	MODE_GENERALIZE = TNORM_MODE_GENERALIZE
};

/* Where accepted rewrites go: stderr lines (--verbose) and/or a list for the JSON (--json).  A
 * rewrite that cannot be added (out of memory) marks the list bad: no JSON rather than a
 * partial log. */
typedef struct {
	int print;
	int collect;
	tnorm_pipeline_rewrite *v; /* `what` strings owned (free) */
	size_t n;
	int bad;
} log_sink;

static void log_rewrite(void *ctx, tnorm_rule rule, const char *what)
{
	log_sink *l = ctx;
	tnorm_pipeline_rewrite *nv;
	if (l->print)
		fprintf(stderr, "  %s: %s\n", tnorm_rule_name(rule), what);
	if (!l->collect || l->bad)
		return;
	if (!(nv = realloc(l->v, (l->n + 1) * sizeof(*nv))) || !(what = strdup(what))) {
		if (nv)
			l->v = nv;
		l->bad = 1;
		return;
	}
	l->v = nv;
	l->v[l->n].rule = rule;
	l->v[l->n++].what = what;
}

static void log_dispose(log_sink *l)
{
	size_t k;
	for (k = 0; k < l->n; k++)
		free((char *)l->v[k].what);
	free(l->v);
}

/* The --json object of reduce, normalize, minimize and generalize: the library's
 * (tnorm_pipeline_result_json; docs/commands/reduce.md), on one line. */
static int print_json(const tnorm_pipeline_options *po, const tnorm_pipeline_result *res,
                      const log_sink *log)
{
	char *text = NULL;
	if (log->bad || tnorm_pipeline_result_json(&text, po, res, log->v, log->n) < 0) {
		fprintf(stderr, "tnorm %s: out of memory while writing JSON\n", tnorm_mode_name(po->mode));
		return EXIT_SYSTEM;
	}
	printf("%s\n", text);
	tnorm_free(text);
	return EXIT_OK;
}

/* generalize takes the options of the whole job (pipeline.h) but none of the rewrite rules'. */
static void help_generalize(FILE *f)
{
	fprintf(f, "usage: tnorm generalize [--harness H] [--match P] [-o OUT] [-j N] [--db PATH | --no-db]\n"
	           "                    [--confirm N] [--allow-flaky] [--max-runs N] [--max-time T]\n"
	           "                    [--timeout T] [--mem SIZE] [--stdin] [--no-fork-server]\n"
	           "                    [--env N=V]... [--invalid-exit N]... [--fixed CMD] [--json]\n"
	           "                    [--quiet] TEST -- CMD ARGS...\n\n"
	           "Run experiments on TEST (best: a normal form) and print it annotated: which\n"
	           "other actions each step could be (# or ...), which steps it swaps with, and\n"
	           "blocks of steps in any order (#[ ... #]).  The annotated test is still a test,\n"
	           "written to OUT (default TEST.gen).  Without --harness, CMD must be a tnorm\n"
	           "driver: its compiled-in harness is used (CMD --print-harness).\n\n"
	           "  -j N           run the experiments on N workers (default: the number of cores)\n"
	           "  --db PATH      the cross-test cache (default .tnorm/cache.db beside TEST); --no-db\n"
	           "  (other options as for tnorm reduce)\n\n"
	           "exit status: 0 done, 1 bad harness or test, 2 usage, 3 system error,\n"
	           "4 the test does not fail (or is flaky), 130 interrupted\n");
}

static void help_norm(FILE *f, int mode)
{
	fprintf(f, "usage: tnorm %s [--harness H | --no-harness] [--match P] [-o OUT] [--verbose]\n"
	           "                    [--rules calls|paper] [--wide] [--max-edit N] [--confirm N]\n"
	           "                    [--allow-flaky] [--max-runs N] [--max-time T] [--timeout T]\n"
	           "                    [--mem SIZE] [--stdin] [--no-fork-server]\n"
	           "                    [--env N=V]... [--invalid-exit N]... [--fixed CMD] [--json]\n"
	           "                    [--quiet] TEST -- CMD ARGS...\n\n",
	        tnorm_mode_name((tnorm_mode)mode));
	if (mode == MODE_MINIMIZE)
		fprintf(f, "Confirm that CMD fails on TEST, reduce it, then normalize it: the command to\n"
		           "run on a failing test (--generalize: annotate the result).");
	else
		fprintf(f, "Rewrite TEST into its normal form: the lowest test the rewrite rules reach\n"
		           "that still fails with the same signature.");
	if (mode != MODE_GENERALIZE)
		fprintf(f, "\nWithout --harness, when CMD is a tnorm driver, its compiled-in harness is\n"
		           "used (CMD --print-harness); else (or with --no-harness) TEST is any file: it\n"
		           "is reduced by lines, tokens and bytes, then rewritten down in shortlex order\n"
		           "(integers, characters, words, sorted lines; docs/normalization.md).");
	fprintf(f, "\nThe result is written to OUT (default TEST.norm); Ctrl-C keeps the best so far.\n\n"
	           "  --verbose      print every accepted rewrite (rule: before -> after)\n"
	           "  --rules R      calls (default): rewrite what each call receives, values\n"
	           "                 inlined, and print one canonical lowering; paper: the\n"
	           "                 paper's rules over the pool program (docs/normalization.md)\n"
	           "  --wide         (paper rules) try every lower action as a replacement, not\n"
	           "                 just those of the same template (slower, sometimes lower)\n"
	           "  --max-edit N   (paper rules) only replacements within edit distance N\n"
	           "  --no-rewire    without the Rewire rule (rewiring one argument to another\n"
	           "                 instance assigned earlier)\n"
	           "  --db PATH      the cross-test cache (default .tnorm/cache.db beside TEST);\n"
	           "                 a test seen before jumps to its known normal form; --no-db\n"
	           "  -j N           workers for the generalization (minimize --generalize)\n");
	if (mode == MODE_MINIMIZE)
		fprintf(f, "  --generalize   annotate the normal form (as tnorm generalize does)\n"
		           "  --no-replay    do not replay the path a minimization of this test took\n"
		           "                 before (with another program build, say)\n");
	fprintf(f, "  (other options as for tnorm reduce)\n\n"
	           "exit status: 0 done, 1 bad harness or test, 2 usage, 3 system error,\n"
	           "4 the test does not fail (or is flaky), 130 interrupted (best so far written)\n");
}

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm reduce [--harness H | --no-harness] [--match P] [--algo ddmin|adaptive]\n"
	           "                    [--no-slice] [--no-chunks]\n"
	           "                    [-o OUT] [--confirm N] [--allow-flaky] [--max-runs N]\n"
	           "                    [--max-time T] [--timeout T] [--mem SIZE] [--stdin] [--no-fork-server]\n"
	           "                    [--env N=V]... [--invalid-exit N]... [--fixed CMD]\n"
	           "                    [--seed S] [--json] [--quiet] TEST -- CMD ARGS...\n\n"
	           "Reduce TEST to a 1-minimal test on which CMD fails with the same signature.\n"
	           "With --harness, TEST is a harness test reduced step by step (shortest failing\n"
	           "prefix, slicing, then the algorithm); without, the harness compiled into CMD\n"
	           "when it is a tnorm driver (CMD --print-harness), else (or with --no-harness)\n"
	           "TEST is any file, reduced by lines, then tokens, then bytes.  The best test so\n"
	           "far is written to OUT (default TEST.min) after every improvement; Ctrl-C stops\n"
	           "and keeps it.  Other failures met on the way are kept, smallest first, in a\n"
	           "slipped/ folder beside OUT.\n\n"
	           "  --match P      line (default), stack:N, kind, any, output:REGEX\n"
	           "  --algo A       adaptive (default) or ddmin\n"
	           "  --no-chunks    (no harness) without the chunk pass: runs of 2..8, 16, ...\n"
	           "                 tokens or bytes tried where no single one can go\n"
	           "  --confirm N    runs of the original to confirm the failure (default 3)\n"
	           "  --timeout T    per run (default: 10x the original's run, at least 1s)\n"
	           "  --max-runs N, --max-time T   budgets; the best so far is kept when they run out\n"
	           "  --env N=V      add to the program's environment (repeatable); ASAN_OPTIONS and\n"
	           "                 the other *SAN_OPTIONS merge flag by flag with tnorm's defaults\n"
	           "  --invalid-exit N  exit status N means \"not a valid test\", like 125: such\n"
	           "                 candidates are dropped, not filed as slipped (repeatable)\n"
	           "  --fixed CMD    differential oracle: a candidate counts only if it also passes\n"
	           "                 (exit 0) on the fixed program; one word replaces the program in\n"
	           "                 CMD ARGS, several are the whole command (split like a shell)\n"
	           "  --db PATH      the cross-test cache (default: $TNORM_DB, else .tnorm/cache.db\n"
	           "                 beside TEST; TNORM_DB=off disables it)\n"
	           "  --no-db        do not use it\n\n"
	           "exit status: 0 reduced, 1 bad harness or test, 2 usage, 3 system error,\n"
	           "4 the test does not fail (or is flaky), 130 interrupted (best so far written)\n");
}

static int progress(void *ctx, const tnorm_progress *p)
{
	(void)ctx;
	fprintf(stderr, "\r%s: best %zu bytes, %llu runs, %llu accepted, %llu cached, %.1fs   ",
	        p->phase, p->best_len, (unsigned long long)p->runs, (unsigned long long)p->accepted,
	        (unsigned long long)p->cache_hits, p->elapsed);
	fflush(stderr);
	return 0;
}

/* 1 when a result can go to a terminal as it is: text without control characters. */
static int printable(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\n' && s[i] != '\t') || s[i] == 0x7f)
			return 0;
	return 1;
}

static void on_target(void *ctx, const char *sig, int stable)
{
	const int *show = ctx;
	if (!*show)
		return;
	fprintf(stderr, "target: %s\n", sig);
	if (!stable)
		fprintf(stderr, "note: the stack differs between runs of the original; matching on the "
		                "part they share\n");
}

/* One command's job, from its options to what it prints. */
typedef struct job {
	int mode;
	const char *cmd;
	cli_args a;
	tnorm_pipeline_options po;
	tnorm_pipeline_result res;
	log_sink lsink;
	char *tmp_harness, *outbuf, *slipdir, *dbfile;
	int show_target;
} job;

static void help_normalize(FILE *f)
{
	help_norm(f, MODE_NORMALIZE);
}

static void help_minimize(FILE *f)
{
	help_norm(f, MODE_MINIMIZE);
}

static const cli_spec specs[] = {
	[MODE_REDUCE] = {"reduce", CLI_REDUCE, 1, 1, help},
	[MODE_NORMALIZE] = {"normalize", CLI_NORMALIZE, 1, 1, help_normalize},
	[MODE_MINIMIZE] = {"minimize", CLI_MINIMIZE, 1, 1, help_minimize},
	[MODE_GENERALIZE] = {"generalize", CLI_GENERALIZE, 1, 1, help_generalize},
};

/* The command line into j->a and j->po: CLI_GO_ON, or the exit status. */
static int parse(job *j, int argc, char **argv)
{
	cli_args *a = &j->a;
	tnorm_pipeline_options *po = &j->po;
	int rc;
	a->run.timeout = 0; /* derived from the confirm runs unless given */
	a->jobs = tnorm_default_jobs();
	a->match = "line";
	a->max_edit = po->normalize.max_edit;
	a->confirm = po->session.confirm;
	a->max_runs = po->session.max_runs;
	a->max_time = po->session.max_time;
	a->seed = po->reduce.seed;
	if ((rc = cli_parse(&specs[j->mode], a, argc, argv)) != CLI_GO_ON)
		return rc;
	po->harness = a->harness;
	po->generalize |= a->generalize;
	po->normalize.wide |= a->wide;
	if (a->no_rewire)
		po->normalize.rewire = -1;
	if (a->rules)
		po->normalize.rules = strcmp(a->rules, "paper") ? TNORM_RULES_CALLS : TNORM_RULES_PAPER;
	po->normalize.max_edit = (unsigned)a->max_edit;
	po->jobs = (unsigned)a->jobs;
	if (a->no_replay)
		po->replay = -1;
	if (a->no_slice)
		po->reduce.slice = -1;
	if (a->no_chunks)
		po->generic.chunks = -1;
	po->session.allow_flaky |= a->allow_flaky;
	if (a->algo)
		tnorm_reduce_algo_parse(a->algo, &po->reduce.algo); /* checked as it was read */
	po->session.confirm = (unsigned)a->confirm;
	po->session.max_runs = a->max_runs;
	po->session.max_time = a->max_time;
	po->reduce.seed = a->seed;
	return CLI_GO_ON;
}

/* TEST, the command, the harness, the fixed program, the output, slipped/ and the database:
 * CLI_GO_ON, or the exit status (the message printed). */
static int prepare(job *j)
{
	cli_args *a = &j->a;
	tnorm_pipeline_options *po = &j->po;
	const char *outp = a->out;
	char synopsis[64];
	int err;
	if (a->noperands == 0)
		return cli_usage_error(j->cmd, "missing TEST");
	snprintf(synopsis, sizeof(synopsis), "tnorm %s TEST -- CMD ARGS {}", j->cmd);
	if (cli_check_command(&a->run, j->cmd, a->rest, a->nrest, synopsis) < 0)
		return EXIT_USAGE;
	if (cli_harness(j->cmd, a, a->quiet || a->json, &po->harness, &j->tmp_harness) < 0)
		return EXIT_SYSTEM;
	if (j->mode == MODE_GENERALIZE && !po->harness)
		return cli_usage_error(j->cmd, "generalize needs --harness (or a tnorm driver as CMD): "
		                       "it annotates harness tests");
	if (cli_run_args_fixed(&a->run, j->cmd, a->rest, &po->session.fixed) < 0)
		return EXIT_USAGE;
	po->test = a->operands[0];
	if (!outp) {
		if ((err = tnorm_pipeline_default_output(&j->outbuf, po->test, po->mode)) < 0)
			return cli_fail(j->cmd, err);
		outp = j->outbuf;
	}
	if ((err = tnorm_pipeline_slipped_dir(&j->slipdir, outp)) < 0)
		return cli_fail(j->cmd, err);
	if (!a->no_db && (err = tnorm_db_path(po->test, a->db, &j->dbfile)) < 0)
		return cli_fail(j->cmd, err);
	po->out = outp;
	return CLI_GO_ON;
}

/* The rest of the job's options: where it runs, what it reports on the way. */
static int setup(job *j)
{
	cli_args *a = &j->a;
	tnorm_pipeline_options *po = &j->po;
	cli_run_args_apply(&a->run, &po->run);
	po->slipped_dir = j->slipdir;
	po->db = j->dbfile;
	po->argv = (const char *const *)a->rest;
	po->session.match = a->match;
	po->session.cancel = &cli_cancel_flag;
	/* A mistake in -o is a command-line mistake: said before anything runs (issue 28, item 9). */
	if (tnorm_pipeline_check_output(po) < 0)
		return cli_usage_error(j->cmd, "%s", tnorm_error_last()->message);
	if (!a->quiet && isatty(2))
		po->session.progress = progress;
	j->show_target = !a->quiet && !a->json;
	po->on_target = on_target;
	po->target_ctx = &j->show_target;
	j->lsink.print = a->verbose && !a->json;
	j->lsink.collect = a->json;
	if (a->verbose || a->json) {
		po->log = log_rewrite;
		po->log_ctx = &j->lsink;
	}
	if (a->verbose && !a->json && j->mode != MODE_REDUCE && j->mode != MODE_GENERALIZE)
		fprintf(stderr, "rewrites:\n");
	return CLI_GO_ON;
}

/* The result as text: sizes, signature, the normal form or the annotated test, what slipped. */
static void print_text(const job *j)
{
	const tnorm_pipeline_result *res = &j->res;
	int mode = j->mode;
	const char *outp = j->po.out;
	size_t k;
	if (!res->written) {
		/* Stopped before any improvement: OUT is as it was (issue 39, item 2). */
		printf("%s: not written: stopped before any improvement on the test (%zu %s, %llu runs)\n",
		       outp, res->original, res->unit, (unsigned long long)res->stats.runs);
		printf("signature: %s\n", res->signature);
		return;
	}
	printf("%s: %zu -> %zu %s in %llu runs (%llu cached), %.2f s\n", outp, res->original,
	       res->final, res->unit, (unsigned long long)res->stats.runs,
	       (unsigned long long)res->stats.cache_hits, res->stats.elapsed);
	printf("signature: %s\n", res->signature);
	if (res->replayed)
		printf("replayed: started from test %zu of the %zu this test's last minimization "
		       "passed through\n", res->replayed, res->replay_len);
	if (res->generalization && res->text)
		printf("%s:\n%s", mode == MODE_GENERALIZE ? "generalized" : "normal form, generalized",
		       res->text);
	else if (mode != MODE_REDUCE && res->text && res->known)
		printf("normal form (known from the database):\n%s", res->text);
	else if (mode != MODE_REDUCE && res->text && printable(res->text, res->text_len))
		printf("normal form (%llu rewrites):\n%s%s", (unsigned long long)res->normalize.rewrites,
		       res->text, res->text_len && res->text[res->text_len - 1] != '\n' ? "\n" : "");
	else if (mode != MODE_REDUCE && res->text)
		printf("normal form (%llu rewrites): %zu bytes, not text: see %s\n",
		       (unsigned long long)res->normalize.rewrites, res->text_len, outp);
	if (mode != MODE_REDUCE && res->normalize.capped)
		printf("note: %llu searches were cut short by a cap (%s); the normal form may not be "
		       "the lowest\n",
		       (unsigned long long)res->normalize.capped,
		       res->normalize.paper ? "--wide for every lower action; see docs/normalization.md"
		                            : "the first 8 characters of a string are lowered");
	for (k = 0; k < res->nslipped; k++)
		printf("slipped: %s (smallest test, %zu bytes: %s)\n", res->slipped[k].signature,
		       res->slipped[k].size, res->slipped[k].path ? res->slipped[k].path : "-");
}

/* Run the job (Ctrl-C keeps the best so far) and print what it found: the exit status. */
static int run(job *j)
{
	const tnorm_pipeline_result *res = &j->res;
	int err, rc = EXIT_OK;
	cli_cancel sigs_in;
	cli_cancel_begin(&sigs_in);
	err = tnorm_pipeline_run(&j->po, &j->res);
	if (j->po.session.progress && res->signature)
		fprintf(stderr, "\n");
	if (res->warning)
		fprintf(stderr, "tnorm %s: warning: %s\n", j->cmd, res->warning);
	if (err < 0 && err != TNORM_EINTERRUPTED && err != TNORM_ETIMEOUT) {
		rc = cli_fail(j->cmd, err);
	} else if (err == TNORM_EINTERRUPTED && !res->signature) {
		/* No target yet: there is no result, and none was written (issue 28, item 7). */
		fprintf(stderr, "tnorm %s: interrupted before the target was confirmed; nothing "
		        "written\n", j->cmd);
		rc = EXIT_INTERRUPTED;
	} else {
		if (err == TNORM_EINTERRUPTED || err == TNORM_ETIMEOUT) {
			fprintf(stderr, "tnorm %s: %s\n", j->cmd, tnorm_error_last()->message);
			rc = err == TNORM_EINTERRUPTED ? EXIT_INTERRUPTED : EXIT_OK;
		}
		if (!j->a.json)
			print_text(j);
		else if ((err = print_json(&j->po, res, &j->lsink)) != EXIT_OK)
			rc = err;
	}
	cli_cancel_end(&sigs_in);
	return rc;
}

static int pipeline(int argc, char **argv, int mode)
{
	job j;
	int rc;

	memset(&j, 0, sizeof(j));
	j.mode = mode;
	j.cmd = tnorm_mode_name((tnorm_mode)mode);
	j.po = (tnorm_pipeline_options)TNORM_PIPELINE_OPTIONS_INIT;
	j.po.mode = (tnorm_mode)mode;
	cli_args_init(&j.a);
	if ((rc = parse(&j, argc, argv)) == CLI_GO_ON && (rc = prepare(&j)) == CLI_GO_ON &&
	    (rc = setup(&j)) == CLI_GO_ON)
		rc = run(&j);
	log_dispose(&j.lsink);
	tnorm_pipeline_result_dispose(&j.res);
	tnorm_free(j.dbfile);
	if (j.tmp_harness)
		unlink(j.tmp_harness);
	free(j.tmp_harness);
	tnorm_free(j.outbuf);
	tnorm_free(j.slipdir);
	cli_args_dispose(&j.a);
	return rc;
}

int cmd_reduce(int argc, char **argv)
{
	return pipeline(argc, argv, MODE_REDUCE);
}

int cmd_normalize(int argc, char **argv)
{
	return pipeline(argc, argv, MODE_NORMALIZE);
}

int cmd_minimize(int argc, char **argv)
{
	return pipeline(argc, argv, MODE_MINIMIZE);
}

int cmd_generalize(int argc, char **argv)
{
	return pipeline(argc, argv, MODE_GENERALIZE);
}

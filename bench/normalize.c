/* SPDX-License-Identifier: MIT */
/*
 * bench/normalize.c - one test per fault, measured: for each example (AVL, hash table, radix
 * tree), random 100-step tests on the faulty driver -> the failing ones -> for each, reduced and
 * normalized under the call rules (the default) and under the paper's rules (`--rules paper`),
 * each in a fresh session (no cache shared between tests), the two interleaved so that the
 * machine's load falls on both alike; then the call rules' normal form is generalized, as
 * `minimize --generalize` does.  Prints, per example and rule set: failing tests, distinct
 * reduced, distinct normal forms, runs and seconds per test (mean and max, reduction included),
 * the generalization's runs, the candidates asked per rule, and the normal forms with counts.
 *
 * usage: bench_normalize SOURCE_ROOT BUILD_ROOT [--tests N] [--seeds S] [--only NAME]
 *                        [--generalize-paper]
 *        (ninja -C build bench-normalize; defaults: 20 failing tests per example, seeds 1..4000;
 *        --generalize-paper: also generalize the paper's normal forms)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tnorm/tnorm.h"

#define MAXF 256

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	const tnorm_error *e = tnorm_error_last();
	fprintf(stderr, "bench_normalize: %s: %s\n", what, e ? e->message : "?");
	exit(1);
}

/* Distinct strings with counts. */
typedef struct {
	char *text[MAXF];
	int count[MAXF];
	size_t n;
} bag;

static void add(bag *b, const char *s)
{
	size_t i;
	for (i = 0; i < b->n; i++)
		if (!strcmp(b->text[i], s)) {
			b->count[i]++;
			return;
		}
	if (b->n < MAXF) {
		b->text[b->n] = strdup(s);
		b->count[b->n++] = 1;
	}
}

/* What one rule set did over the failing tests of one example. */
typedef struct {
	bag reduced, normal;
	double runs, runs_max, secs, secs_max, gen_runs, gen_max;
	double asked[TNORM_RULE_COUNT];
	unsigned tests, paper_fallbacks;
} tally;

static void note(double *sum, double *max, double v)
{
	*sum += v;
	if (v > *max)
		*max = v;
}

/* Reduce and normalize one failing test in a fresh session; generalize when asked. */
static void one(const tnorm_test *t, const char *text, size_t len, const char **args,
                tnorm_rules rules, int generalize, tally *y)
{
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_reduce_options ro = TNORM_REDUCE_OPTIONS_INIT;
	tnorm_normalize_options no = TNORM_NORMALIZE_OPTIONS_INIT;
	tnorm_normalize_stats nst;
	tnorm_session *s = NULL;
	tnorm_test *r = NULL, *nf = NULL;
	tnorm_progress p;
	char *rt = NULL, *nt = NULL;
	double t0 = now(), runs;
	size_t i;
	no.rules = rules;
	so.confirm = 1;
	if (tnorm_session_new(&s, args, NULL, &so) < 0 || tnorm_session_confirm(s, text, len) < 0)
		die("confirm");
	if (tnorm_reduce_test(&r, t, &ro, tnorm_session_test_oracle, s, NULL) < 0)
		die("reduce");
	if (tnorm_normalize(&nf, r, &no, tnorm_session_test_oracle, s, NULL, NULL, &nst) < 0)
		die("normalize");
	tnorm_session_stats(s, &p);
	runs = (double)p.runs;
	note(&y->runs, &y->runs_max, runs);
	note(&y->secs, &y->secs_max, now() - t0);
	for (i = 0; i < TNORM_RULE_COUNT; i++)
		y->asked[i] += (double)nst.asked[i];
	y->paper_fallbacks += rules == TNORM_RULES_CALLS && nst.paper;
	y->tests++;
	if (generalize) {
		tnorm_generalization *g = NULL;
		if (tnorm_generalize_batch(&g, nf, NULL, tnorm_session_test_batch_oracle, s) < 0)
			die("generalize");
		tnorm_generalization_free(g);
		tnorm_session_stats(s, &p);
		note(&y->gen_runs, &y->gen_max, (double)p.runs - runs);
	}
	if (tnorm_test_format(r, &rt, NULL) < 0 || tnorm_test_format(nf, &nt, NULL) < 0)
		die("format");
	add(&y->reduced, rt);
	add(&y->normal, nt);
	tnorm_free(rt);
	tnorm_free(nt);
	tnorm_test_free(r);
	tnorm_test_free(nf);
	tnorm_session_free(s);
}

static void row(const char *name, const char *rules, const tally *y, int generalize)
{
	double n = y->tests ? (double)y->tests : 1;
	printf("| %s | %s | %u | %zu | %zu | %.0f | %.0f | %.2f | %.2f |", name, rules, y->tests,
	       y->reduced.n, y->normal.n, y->runs / n, y->runs_max, y->secs / n, y->secs_max);
	if (generalize)
		printf(" %.0f | %.0f |\n", y->gen_runs / n, y->gen_max);
	else
		printf(" - | - |\n");
}

static void example(const char *src, const char *bld, const char *name, unsigned want,
                    unsigned long seeds, int gen_paper)
{
	char harness[4096], driver[4096];
	const char *args[3];
	tnorm_harness *h = NULL;
	tnorm_runner *screen = NULL;
	tally calls, paper;
	unsigned long seed;
	size_t i, k;

	memset(&calls, 0, sizeof(calls));
	memset(&paper, 0, sizeof(paper));
	snprintf(harness, sizeof(harness), "%s/examples/%s/%s.tnh", src, name, name);
	snprintf(driver, sizeof(driver), "%s/examples/%s/%s_driver_faulty", bld, name, name);
	args[0] = driver;
	args[1] = "{}";
	args[2] = NULL;
	if (tnorm_harness_load(&h, harness) < 0 || tnorm_runner_new(&screen, args, NULL) < 0)
		die("setup");
	for (seed = 1; seed <= seeds && calls.tests < want; seed++) {
		tnorm_test *t = NULL;
		tnorm_run_result res;
		char *text = NULL;
		size_t len = 0;
		int fails;
		if (tnorm_test_generate(&t, h, 100, seed) < 0 || tnorm_test_format(t, &text, &len) < 0)
			die("generate");
		if (tnorm_runner_run(screen, text, len, &res) < 0)
			die("run");
		fails = res.outcome == TNORM_OUTCOME_FAIL;
		tnorm_run_result_dispose(&res);
		if (fails) {
			/* Alternate which rule set goes first, so that neither always runs on a warm cache
			 * of the file system or a quieter machine. */
			int first = calls.tests % 2;
			for (k = 0; k < 2; k++) {
				if ((k == 0) == (first == 0))
					one(t, text, len, args, TNORM_RULES_CALLS, 1, &calls);
				else
					one(t, text, len, args, TNORM_RULES_PAPER, gen_paper, &paper);
			}
			fprintf(stderr, "%s seed %lu: calls %.0f runs, paper %.0f runs so far\n", name, seed,
			        calls.runs, paper.runs);
		}
		tnorm_free(text);
		tnorm_test_free(t);
	}
	row(name, "calls", &calls, 1);
	row(name, "paper", &paper, gen_paper);
	fprintf(stdout, "<!-- %s: %lu seeds screened", name, seed - 1);
	if (calls.paper_fallbacks)
		printf("; the call rules fell back to the paper's on %u tests", calls.paper_fallbacks);
	printf(" -->\n");
	for (k = 0; k < 2; k++) {
		const tally *y = k ? &paper : &calls;
		double n = y->tests ? (double)y->tests : 1;
		fprintf(stderr, "%s %s: candidates asked per test, per rule:", name, k ? "paper" : "calls");
		for (i = 0; i < TNORM_RULE_COUNT; i++)
			if (y->asked[i] > 0)
				fprintf(stderr, " %s %.0f", tnorm_rule_name((tnorm_rule)i), y->asked[i] / n);
		fprintf(stderr, "\n");
		for (i = 0; i < y->normal.n; i++)
			fprintf(stderr, "%s %s normal form %zu (%d of %u tests):\n%s", name,
			        k ? "paper" : "calls", i + 1, y->normal.count[i], y->tests, y->normal.text[i]);
	}
	tnorm_runner_free(screen);
	tnorm_harness_free(h);
}

int main(int argc, char **argv)
{
	static const char *const names[] = {"avl", "htable", "trie"};
	const char *only = NULL;
	unsigned want = 20;
	unsigned long seeds = 4000;
	size_t i;
	int a, gen_paper = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_normalize SOURCE_ROOT BUILD_ROOT [--tests N] [--seeds S] "
		                "[--only NAME] [--generalize-paper]\n");
		return 2;
	}
	for (a = 3; a < argc; a += 2) {
		if (!strcmp(argv[a], "--generalize-paper")) {
			gen_paper = 1;
			a--;
		} else if (a + 1 >= argc) {
			fprintf(stderr, "bench_normalize: %s needs a value\n", argv[a]);
			return 2;
		} else if (!strcmp(argv[a], "--tests"))
			want = (unsigned)strtoul(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "--seeds"))
			seeds = strtoul(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "--only"))
			only = argv[a + 1];
		else {
			fprintf(stderr, "bench_normalize: unknown option %s\n", argv[a]);
			return 2;
		}
	}
	printf("| example | rules | failing tests | distinct reduced | distinct normal forms | "
	       "runs/test mean | runs/test max | s/test mean | s/test max | generalize runs mean | "
	       "generalize runs max |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
	fflush(stdout);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!only || !strcmp(only, names[i])) {
			example(argv[1], argv[2], names[i], want, seeds, gen_paper);
			fflush(stdout);
		}
	return 0;
}

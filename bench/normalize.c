/* SPDX-License-Identifier: MIT */
/*
 * bench/normalize.c - the AVL experiment of the normalization paper (section 3.1), in small:
 * N random tests of length 100 on the faulty AVL tree -> the failing ones -> reduced ->
 * normalized.  Prints failing tests, distinct reduced and normalized tests, mean lengths, runs
 * and wall time per test, the cache hit rate, and each distinct normal form with its count.
 *
 * usage: bench_normalize SOURCE_ROOT BUILD_ROOT [N]     (ninja -C build bench-normalize)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tnorm/tnorm.h"

#define MAXF 4096

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

int main(int argc, char **argv)
{
	char harness[4096], driver[4096];
	const char *args[3];
	tnorm_harness *h = NULL;
	tnorm_runner *screen = NULL;
	bag reduced, normal;
	unsigned long n = 1000, seed, failing = 0;
	double sum_red = 0, sum_norm = 0, sum_runs = 0, sum_hits = 0, sum_time = 0;
	double asked[TNORM_RULE_COUNT] = {0}, reduce_runs = 0;
	size_t i;
	int rewire = 1;

	if (argc > 1 && !strcmp(argv[argc - 1], "--no-rewire")) {
		rewire = 0;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: bench_normalize SOURCE_ROOT BUILD_ROOT [N] [--no-rewire]\n");
		return 2;
	}
	if (argc > 3)
		n = strtoul(argv[3], NULL, 10);
	memset(&reduced, 0, sizeof(reduced));
	memset(&normal, 0, sizeof(normal));
	snprintf(harness, sizeof(harness), "%s/examples/avl/avl.tnh", argv[1]);
	snprintf(driver, sizeof(driver), "%s/examples/avl/avl_driver_faulty", argv[2]);
	args[0] = driver;
	args[1] = "{}";
	args[2] = NULL;
	if (tnorm_harness_load(&h, harness) < 0 || tnorm_runner_new(&screen, args, NULL) < 0)
		die("setup");
	for (seed = 1; seed <= n; seed++) {
		tnorm_test *t = NULL, *r = NULL, *nf = NULL;
		tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
		tnorm_reduce_options ro = TNORM_REDUCE_OPTIONS_INIT;
		tnorm_normalize_options no = TNORM_NORMALIZE_OPTIONS_INIT;
		tnorm_normalize_stats nst;
		no.rewire = rewire;
		tnorm_session *s = NULL;
		tnorm_run_result res;
		tnorm_progress p;
		char *text = NULL, *rt = NULL, *nt = NULL;
		size_t len = 0;
		double t0;
		if (tnorm_test_generate(&t, h, 100, seed) < 0 || tnorm_test_format(t, &text, &len) < 0)
			die("generate");
		if (tnorm_runner_run(screen, text, len, &res) < 0)
			die("run");
		if (res.outcome != TNORM_OUTCOME_FAIL) {
			tnorm_run_result_dispose(&res);
			tnorm_free(text);
			tnorm_test_free(t);
			continue;
		}
		tnorm_run_result_dispose(&res);
		failing++;
		t0 = now();
		so.confirm = 1;
		if (tnorm_session_new(&s, args, NULL, &so) < 0 || tnorm_session_confirm(s, text, len) < 0)
			die("confirm");
		if (tnorm_reduce_test(&r, t, &ro, tnorm_session_test_oracle, s, NULL) < 0)
			die("reduce");
		tnorm_session_stats(s, &p);
		reduce_runs += (double)p.runs;
		if (tnorm_normalize(&nf, r, &no, tnorm_session_test_oracle, s, NULL, NULL, &nst) < 0)
			die("normalize");
		for (i = 0; i < TNORM_RULE_COUNT; i++)
			asked[i] += (double)nst.asked[i];
		tnorm_session_stats(s, &p);
		sum_time += now() - t0;
		sum_runs += (double)p.runs;
		sum_hits += (double)p.cache_hits;
		sum_red += (double)tnorm_test_len(r);
		sum_norm += (double)tnorm_test_len(nf);
		tnorm_test_format(r, &rt, NULL);
		tnorm_test_format(nf, &nt, NULL);
		add(&reduced, rt);
		add(&normal, nt);
		fprintf(stderr, "seed %lu: %zu -> %zu -> %zu steps, %llu runs\n", seed, tnorm_test_len(t),
		        tnorm_test_len(r), tnorm_test_len(nf), (unsigned long long)p.runs);
		tnorm_free(rt);
		tnorm_free(nt);
		tnorm_free(text);
		tnorm_test_free(t);
		tnorm_test_free(r);
		tnorm_test_free(nf);
		tnorm_session_free(s);
	}
	printf("| random tests | failing | distinct reduced | distinct normalized | mean len reduced | "
	       "mean len normalized | runs/test | s/test | cache hit rate |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	if (failing)
		printf("| %lu | %lu | %zu | %zu | %.1f | %.1f | %.0f | %.2f | %.0f%% |\n", n, failing, reduced.n,
		       normal.n, sum_red / (double)failing, sum_norm / (double)failing,
		       sum_runs / (double)failing, sum_time / (double)failing,
		       100.0 * sum_hits / (sum_hits + sum_runs));
	else
		printf("| %lu | 0 | - | - | - | - | - | - | - |\n", n);
	if (failing) {
		printf("\nper test: %.0f runs in the first reduction; candidates asked per rule:", reduce_runs / (double)failing);
		for (i = 0; i < TNORM_RULE_COUNT; i++)
			printf(" %s %.0f", tnorm_rule_name((tnorm_rule)i), asked[i] / (double)failing);
		printf(" (each accepted candidate also costs a reduction)\n");
	}
	for (i = 0; i < normal.n; i++)
		printf("\nnormal form %zu (%d of %lu tests):\n%s", i + 1, normal.count[i], failing,
		       normal.text[i]);
	tnorm_runner_free(screen);
	tnorm_harness_free(h);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * nfcheck - the property test of issue 27 on normal forms of a crash corpus: no single-place
 * lowering and no deletion of one byte still fails with the same signature (--match line).
 *
 *   bench_nfcheck [--timeout S] FILE... -- CMD ARGS @@
 *
 * Each FILE is a normal form, byte for byte (bench/groundtruth/property.sh writes them from a
 * triage's report.json).  For each: one run gives its signature; then every lower value of every
 * byte (all 255 of them: the property, not what normalization tries) and every one-byte deletion
 * is run.  A candidate that fails with the same signature is printed as a counterexample.
 * Prints a table: file, bytes, runs, counterexamples; exits 1 when there is any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tnorm/tnorm.h"

static void die(const char *what)
{
	const tnorm_error *e = tnorm_error_last();
	fprintf(stderr, "bench_nfcheck: %s: %s\n", what, e ? e->message : "failed");
	exit(2);
}

/* 1 when data fails with a signature the target's policy calls the same. */
static int same_failure(tnorm_runner *r, const tnorm_match *m, const tnorm_signature *target,
                        const char *data, size_t len, size_t *runs)
{
	tnorm_run_result res;
	int yes;
	if (tnorm_runner_run(r, data, len, &res) < 0)
		die("run");
	(*runs)++;
	yes = res.outcome == TNORM_OUTCOME_FAIL &&
	      tnorm_match_test(m, target, res.sig, res.out, res.err);
	tnorm_run_result_dispose(&res);
	return yes;
}

static void show(const char *what, const char *d, size_t n)
{
	size_t i;
	printf("  counterexample (%s): ", what);
	for (i = 0; i < n; i++)
		if ((unsigned char)d[i] >= 0x20 && (unsigned char)d[i] < 0x7f && d[i] != '\\')
			putchar(d[i]);
		else
			printf("\\x%02x", (unsigned char)d[i]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_match *m = NULL;
	tnorm_runner *r = NULL;
	int i, sep = 0, first = 1, bad_total = 0;
	if (argc > 2 && !strcmp(argv[1], "--timeout")) {
		o.timeout = atof(argv[2]);
		if (o.timeout == 0)
			o.timeout = -1; /* 0: no limit */
		first = 3;
	}
	for (i = first; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	if (!sep || sep + 1 >= argc) {
		fprintf(stderr, "usage: bench_nfcheck [--timeout S] FILE... -- CMD ARGS @@\n");
		return 2;
	}
	if (tnorm_match_parse(&m, "line") < 0 ||
	    tnorm_runner_new(&r, (const char *const *)argv + sep + 1, &o) < 0)
		die("setup");
	printf("| normal form | bytes | runs | counterexamples |\n|---|---|---|---|\n");
	for (i = first; i < sep; i++) {
		char *data = NULL, *cand;
		size_t len = 0, runs = 0, k;
		int bad = 0;
		tnorm_run_result res;
		tnorm_signature *target;
		if (tnorm_file_read(argv[i], &data, &len) < 0)
			die(argv[i]);
		if (tnorm_runner_run(r, data, len, &res) < 0)
			die("run");
		runs++;
		if (res.outcome != TNORM_OUTCOME_FAIL || !res.sig) {
			printf("| %s | %zu | %zu | does not fail |\n", argv[i], len, runs);
			tnorm_run_result_dispose(&res);
			tnorm_free(data);
			bad_total++;
			continue;
		}
		target = res.sig;
		res.sig = NULL;
		tnorm_run_result_dispose(&res);
		if (!(cand = malloc(len + 1)))
			die("malloc");
		for (k = 0; k < len; k++) {
			unsigned v;
			for (v = 0; v < (unsigned char)data[k]; v++) {
				memcpy(cand, data, len);
				cand[k] = (char)v;
				if (same_failure(r, m, target, cand, len, &runs) && ++bad <= 3)
					show("lowered", cand, len);
			}
			memcpy(cand, data, k);
			memcpy(cand + k, data + k + 1, len - k - 1);
			if (same_failure(r, m, target, cand, len - 1, &runs) && ++bad <= 3)
				show("deleted", cand, len - 1);
		}
		printf("| %s | %zu | %zu | %d |\n", argv[i], len, runs, bad);
		fflush(stdout);
		bad_total += bad > 0;
		free(cand);
		tnorm_signature_free(target);
		tnorm_free(data);
	}
	tnorm_runner_free(r);
	tnorm_match_free(m);
	return bad_total ? 1 : 0;
}

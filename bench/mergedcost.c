/* SPDX-License-Identifier: MIT */
/*
 * bench/mergedcost.c - what a merged abort site's traps cost a run (issue 38, item 1).
 *
 * `bench_mergedcost PROGRAM TEST RUNS MODE [OTHER]`: one run of TEST (PROGRAM {}), which fails
 * at a merged abort site (the runner meets the site, decodes its function, runs TEST again with
 * the traps), then RUNS runs of OTHER (default: TEST), by a runner that has the site's traps,
 * then by one that knows the site but has no traps (tnorm__mtrap_untrap: the same runs without
 * them).  MODE 0: a process per run; 1: the fork server (a child per run).  Prints each runner's
 * first signature of OTHER and CPU per run, user + system, ms: the engine's (this process, the
 * tracer thread's stops included) and the programs' (the reaped runs, the fork server's children
 * with it once it is freed), from before the runner was made to after it was freed: the two
 * runs of TEST are in both (the same), spread over RUNS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "runner_internal.h"

static void cpu(int who, double *user, double *sys)
{
	struct rusage u;
	getrusage(who, &u);
	*user = (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6;
	*sys = (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

static int measure(const char *prog, const char *test, size_t tlen, const char *other,
                   size_t olen, size_t n, int mode, int traps)
{
	const char *argv[] = {prog, "{}", NULL};
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	tnorm_run_result res;
	double eu0, es0, pu0, ps0, eu1, es1, pu1, ps1;
	char *sig = NULL;
	size_t i;
	o.fork_server = mode ? 1 : -1;
	cpu(RUSAGE_SELF, &eu0, &es0);
	cpu(RUSAGE_CHILDREN, &pu0, &ps0);
	if (tnorm_runner_new(&r, argv, &o) < 0 || tnorm_runner_run(r, test, tlen, &res) < 0)
		goto fail;
	tnorm_run_result_dispose(&res);
	if (!traps)
		tnorm__mtrap_untrap(r->mtrap);
	for (i = 0; i < n; i++) {
		if (tnorm_runner_run(r, other, olen, &res) < 0)
			goto fail;
		if (i == 0 && res.sig && tnorm_signature_format(res.sig, 3, &sig) < 0)
			sig = NULL;
		if (i == 0 && !res.sig)
			printf("%-9s %s\n", traps ? "traps" : "no traps", tnorm_outcome_name(res.outcome));
		tnorm_run_result_dispose(&res);
	}
	tnorm_runner_free(r);
	cpu(RUSAGE_SELF, &eu1, &es1);
	cpu(RUSAGE_CHILDREN, &pu1, &ps1);
	if (sig)
		printf("%-9s %s\n", traps ? "traps" : "no traps", sig);
	printf("%-9s engine user %.2f sys %.2f ms, programs user %.2f sys %.2f ms, "
	       "total %.2f ms per run\n", "", (eu1 - eu0) * 1e3 / (double)n, (es1 - es0) * 1e3 / (double)n,
	       (pu1 - pu0) * 1e3 / (double)n, (ps1 - ps0) * 1e3 / (double)n,
	       (eu1 - eu0 + es1 - es0 + pu1 - pu0 + ps1 - ps0) * 1e3 / (double)n);
	tnorm_free(sig);
	return 0;
fail:
	fprintf(stderr, "bench_mergedcost: %s\n", tnorm_error_last()->message);
	tnorm_runner_free(r);
	return 1;
}

int main(int argc, char **argv)
{
	char *test = NULL, *other = NULL;
	size_t tlen = 0, olen = 0, n;
	int rc = 1;
	if ((argc != 5 && argc != 6) || (n = (size_t)strtoul(argv[3], NULL, 10)) == 0) {
		fprintf(stderr, "usage: bench_mergedcost PROGRAM TEST RUNS MODE(0|1) [OTHER]\n");
		return 2;
	}
	if (tnorm_file_read(argv[2], &test, &tlen) < 0 ||
	    tnorm_file_read(argc == 6 ? argv[5] : argv[2], &other, &olen) < 0) {
		fprintf(stderr, "bench_mergedcost: %s\n", tnorm_error_last()->message);
		goto done;
	}
	/* Twice each, in the order ABBA, so that what warms up with time favours neither. */
	rc = measure(argv[1], test, tlen, other, olen, n, atoi(argv[4]), 1) ||
	     measure(argv[1], test, tlen, other, olen, n, atoi(argv[4]), 0) ||
	     measure(argv[1], test, tlen, other, olen, n, atoi(argv[4]), 0) ||
	     measure(argv[1], test, tlen, other, olen, n, atoi(argv[4]), 1);
done:
	tnorm_free(test);
	tnorm_free(other);
	return rc;
}

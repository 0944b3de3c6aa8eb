/* SPDX-License-Identifier: MIT */
/*
 * bench/runloop.c - N runs of one test through tnorm's runner, nothing else: a process to
 * profile (`perf record -g build/bench/bench_runloop DRIVER TEST N MODE`; MODE 0: a process per
 * run, 1: the fork server, a child per run, 2: the fork server in persistent mode).  Prints the
 * first run's outcome, then the engine's CPU (this process) and the programs' CPU (its reaped
 * descendants: the fork server, once freed, with its children) per run, in ms, then how many
 * runs came to each outcome and how many distinct texts the runs printed on standard output
 * (tests/integration/persistent.sh: a driver that prints its process id shows how many
 * processes ran the runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "tnorm/tnorm.h"

static double cpu(int who)
{
	struct rusage u;
	getrusage(who, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	const char *run_argv[] = {argc > 1 ? argv[1] : "", "{}", NULL};
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	char *text = NULL, **outs = NULL;
	size_t len = 0, n, i, k, nouts = 0, count[TNORM_OUTCOME_ERROR + 1] = {0};
	if (argc != 5 || (n = (size_t)strtoul(argv[3], NULL, 10)) == 0) {
		fprintf(stderr, "usage: bench_runloop DRIVER TEST RUNS MODE(0|1|2)\n");
		return 2;
	}
	o.suffix = ".t";
	o.fork_server = atoi(argv[4]) > 0 ? 1 : -1;
	o.persistent = atoi(argv[4]) == 2 ? 0 : 1;
	if (tnorm_runner_new(&r, run_argv, &o) < 0 || tnorm_file_read(argv[2], &text, &len) < 0) {
		fprintf(stderr, "bench_runloop: %s\n", tnorm_error_last()->message);
		return 1;
	}
	for (i = 0; i < n; i++) {
		tnorm_run_result res;
		if (tnorm_runner_run(r, text, len, &res) < 0) {
			fprintf(stderr, "bench_runloop: %s\n", tnorm_error_last()->message);
			return 1;
		}
		if (i == 0)
			printf("%s\n", tnorm_outcome_name(res.outcome));
		count[res.outcome]++;
		for (k = 0; k < nouts && strcmp(outs[k], res.out ? res.out : ""); k++)
			;
		if (k == nouts && (outs = realloc(outs, (nouts + 1) * sizeof(*outs))))
			outs[nouts++] = strdup(res.out ? res.out : "");
		tnorm_run_result_dispose(&res);
	}
	tnorm_runner_free(r);
	tnorm_free(text);
	printf("CPU per run: engine %.3f ms, programs %.3f ms\n",
	       cpu(RUSAGE_SELF) * 1e3 / (double)n, cpu(RUSAGE_CHILDREN) * 1e3 / (double)n);
	printf("outcomes: pass %zu fail %zu timeout %zu invalid %zu error %zu; distinct outputs %zu\n",
	       count[TNORM_OUTCOME_PASS], count[TNORM_OUTCOME_FAIL], count[TNORM_OUTCOME_TIMEOUT],
	       count[TNORM_OUTCOME_INVALID], count[TNORM_OUTCOME_ERROR], nouts);
	for (k = 0; k < nouts; k++)
		free(outs[k]);
	free(outs);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * bench/engine.c - the engine's own CPU per candidate on long tests: what a reduction pays for
 * each candidate besides the run, at 10^3, 10^4 and 10^5 steps of the AVL harness.
 *
 * usage: bench_engine SOURCE_ROOT BUILD_ROOT [REPS]      (meson: ninja -C build bench-engine)
 *
 * For each length a random test is generated (tnorm_test_generate, a fixed seed) and a session
 * is set up on the AVL driver (confirmed on examples/avl/tests/fail-1.t).  Two costs per
 * candidate, each the median over REPS interleaved batches of CPU time (user + sys, this
 * process) per call:
 *
 *  - *format*: tnorm_test_format, the candidate's canonical text;
 *  - *oracle*: tnorm_session_test_oracle on a candidate whose answer is cached (its first call
 *    ran the program; the bench makes that call before timing): format, hash, cache lookup.
 *    This is the engine's work per candidate that is not the run, and at 10^5 steps it is what
 *    the engine's time is made of.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "tnorm/tnorm.h"

#include "bench.h"

#define MAX_REPS 64

static void die(const char *what)
{
	const tnorm_error *e = tnorm_error_last();
	fprintf(stderr, "bench_engine: %s: %s\n", what, e && e->message[0] ? e->message : "failed");
	exit(1);
}

static double cpu_self(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	static const size_t lengths[] = {1000, 10000, 100000};
	char harness[4096], driver[4096], fail[4096];
	const char *run_argv[] = {driver, "{}", NULL};
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_harness *h = NULL;
	tnorm_session *s = NULL;
	tnorm_test *ft = NULL;
	char *text = NULL;
	size_t len = 0, reps = 7, li, k;
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: bench_engine SOURCE_ROOT BUILD_ROOT [REPS]\n");
		return 2;
	}
	if (argc > 3)
		reps = (size_t)strtoul(argv[3], NULL, 10);
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "bench_engine: REPS is 1..%d\n", MAX_REPS);
		return 2;
	}
	snprintf(harness, sizeof(harness), "%s/examples/avl/avl.tnh", argv[1]);
	snprintf(fail, sizeof(fail), "%s/examples/avl/tests/fail-1.t", argv[1]);
	snprintf(driver, sizeof(driver), "%s/examples/avl/avl_driver_faulty", argv[2]);
	so.confirm = 1;
	if (tnorm_harness_load(&h, harness) < 0 || tnorm_test_load(&ft, h, fail) < 0 ||
	    tnorm_test_format(ft, &text, &len) < 0)
		die(fail);
	if (tnorm_session_new(&s, run_argv, NULL, &so) < 0 ||
	    tnorm_session_confirm(s, text, len) < 0)
		die(driver);
	tnorm_free(text);
	printf("median of %zu interleaved batches; CPU (user + sys) per candidate in ms\n\n", reps);
	printf("| %7s | %9s | %9s | %9s |\n", "steps", "bytes", "format", "oracle");
	printf("|---------|-----------|-----------|-----------|\n");
	for (li = 0; li < sizeof(lengths) / sizeof(*lengths); li++) {
		/* Batches of about 10^6 steps: every figure well above the clock's tick. */
		size_t calls = 1000000 / lengths[li] < 5 ? 5 : 1000000 / lengths[li];
		double fmt[MAX_REPS], orc[MAX_REPS];
		tnorm_test *t = NULL;
		int yes = 0;
		if (tnorm_test_generate(&t, h, lengths[li], 15) < 0 ||
		    tnorm_test_format(t, &text, &len) < 0)
			die("generate");
		tnorm_free(text);
		/* The one run: the calls timed below hit the cache. */
		if (tnorm_session_test_oracle(s, t, &yes) < 0)
			die("oracle");
		for (k = 0; k < reps; k++) {
			double t0 = cpu_self();
			size_t c;
			for (c = 0; c < calls; c++) {
				if (tnorm_test_format(t, &text, NULL) < 0)
					die("format");
				tnorm_free(text);
			}
			fmt[k] = (cpu_self() - t0) / (double)calls;
			t0 = cpu_self();
			for (c = 0; c < calls; c++)
				if (tnorm_session_test_oracle(s, t, &yes) < 0)
					die("oracle");
			orc[k] = (cpu_self() - t0) / (double)calls;
		}
		printf("| %7zu | %9zu | %9.3f | %9.3f |\n", lengths[li], len,
		       bench_median(fmt, reps) * 1e3, bench_median(orc, reps) * 1e3);
		fflush(stdout);
		tnorm_test_free(t);
	}
	tnorm_test_free(ft);
	tnorm_session_free(s);
	tnorm_harness_free(h);
	return 0;
}

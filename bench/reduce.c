/* SPDX-License-Identifier: MIT */
/*
 * bench/reduce.c - reduction on the examples' failures and on generic text: runs, wall time,
 * engine overhead per run and final size, for ddmin, adaptive deletion, and slicing + adaptive.
 *
 * usage: bench_reduce SOURCE_ROOT BUILD_ROOT      (meson: ninja -C build bench-reduce)
 *
 * Engine overhead per run is the wall time of a run (fork to reaping) minus the CPU time the
 * program used, per run, median over the runs of a reduction: what tnorm adds to each run.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tnorm/tnorm.h"

#include "bench.h"

typedef struct {
	double last_wall, last_cpu;
	double *over;
	size_t n, cap;
} rec;

static int on_progress(void *ctx, const tnorm_progress *p)
{
	rec *r = ctx;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->over = realloc(r->over, r->cap * sizeof(*r->over));
		if (!r->over)
			return TNORM_ENOMEM;
	}
	r->over[r->n++] = (p->run_wall - r->last_wall) - (p->child_cpu - r->last_cpu);
	r->last_wall = p->run_wall;
	r->last_cpu = p->child_cpu;
	return 0;
}

static void die(const char *what)
{
	const tnorm_error *e = tnorm_error_last();
	fprintf(stderr, "bench_reduce: %s: %s\n", what, e ? e->message : "?");
	exit(1);
}

/* One reduction of a harness test; prints a row. */
static void row_harness(const char *label, const char *harness, const char *test, const char *driver,
                        const char *config, tnorm_reduce_algo algo, int slice)
{
	const char *argv[] = {driver, "{}", NULL};
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_reduce_options ro = TNORM_REDUCE_OPTIONS_INIT;
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL, *out = NULL;
	tnorm_session *s = NULL;
	tnorm_progress p;
	char *text = NULL;
	size_t len = 0;
	rec r;
	memset(&r, 0, sizeof(r));
	so.confirm = 1;
	so.progress = on_progress;
	so.progress_ctx = &r;
	ro.algo = algo;
	ro.slice = slice ? 1 : -1;
	ro.prefix = 1;
	if (tnorm_harness_load(&h, harness) < 0 || tnorm_test_load(&t, h, test) < 0 ||
	    tnorm_test_format(t, &text, &len) < 0)
		die(test);
	if (tnorm_session_new(&s, argv, NULL, &so) < 0 || tnorm_session_confirm(s, text, len) < 0)
		die(test);
	if (tnorm_reduce_test(&out, t, &ro, tnorm_session_test_oracle, s, NULL) < 0)
		die(test);
	tnorm_session_stats(s, &p);
	printf("| %-18s | %-16s | %6zu | %6zu | %6llu | %8.3f | %8.3f |\n", label, config,
	       tnorm_test_len(t), tnorm_test_len(out), (unsigned long long)p.runs, p.elapsed,
	       bench_median(r.over, r.n) * 1000);
	free(r.over);
	tnorm_free(text);
	tnorm_test_free(out);
	tnorm_test_free(t);
	tnorm_session_free(s);
	tnorm_harness_free(h);
}

static void row_generic(const char *label, const char *file, const char *prog, const char *config,
                        tnorm_reduce_algo algo, unsigned views, int two_step_ddmin)
{
	const char *argv[] = {prog, "{}", NULL};
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_session *s = NULL;
	tnorm_progress p;
	char *data = NULL, *out = NULL;
	size_t len = 0, olen = 0;
	rec r;
	memset(&r, 0, sizeof(r));
	so.confirm = 1;
	so.progress = on_progress;
	so.progress_ctx = &r;
	if (tnorm_file_read(file, &data, &len) < 0)
		die(file);
	if (tnorm_session_new(&s, argv, NULL, &so) < 0 || tnorm_session_confirm(s, data, len) < 0)
		die(file);
	if (two_step_ddmin) {
		/* Line-then-byte ddmin: the classic two-level reduction. */
		char *mid = NULL;
		size_t mlen = 0;
		if (tnorm_session_reduce_bytes(s, data, len, TNORM_ALGO_DDMIN, 1, TNORM_VIEW_LINES, &mid,
		                               &mlen) < 0 ||
		    tnorm_session_reduce_bytes(s, mid, mlen, TNORM_ALGO_DDMIN, 1, TNORM_VIEW_BYTES, &out,
		                               &olen) < 0)
			die(file);
		tnorm_free(mid);
	} else if (tnorm_session_reduce_bytes(s, data, len, algo, 1, views, &out, &olen) < 0) {
		die(file);
	}
	tnorm_session_stats(s, &p);
	printf("| %-18s | %-16s | %6zu | %6zu | %6llu | %8.3f | %8.3f |  -> \"%.*s\"\n", label, config,
	       len, olen, (unsigned long long)p.runs, p.elapsed, bench_median(r.over, r.n) * 1000,
	       (int)(olen > 30 ? 30 : olen), out);
	free(r.over);
	tnorm_free(data);
	tnorm_free(out);
	tnorm_session_free(s);
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {"avl", "htable"};
	char pattern[4096], harness[4096], driver[4096], words[4096], prog[4096];
	size_t e, i;
	FILE *f;
	if (argc != 3) {
		fprintf(stderr, "usage: bench_reduce SOURCE_ROOT BUILD_ROOT\n");
		return 2;
	}
	printf("| %-18s | %-16s | %6s | %6s | %6s | %8s | %8s |\n", "test", "algorithm", "orig", "final",
	       "runs", "wall s", "ovh ms");
	printf("|--------------------|------------------|--------|--------|--------|----------|----------|\n");
	for (e = 0; e < 2; e++) {
		glob_t g;
		snprintf(pattern, sizeof(pattern), "%s/examples/%s/tests/fail-*.t", argv[1], examples[e]);
		snprintf(harness, sizeof(harness), "%s/examples/%s/%s.tnh", argv[1], examples[e], examples[e]);
		snprintf(driver, sizeof(driver), "%s/examples/%s/%s_driver_faulty", argv[2], examples[e],
		         examples[e]);
		if (glob(pattern, 0, NULL, &g) != 0)
			continue;
		for (i = 0; i < g.gl_pathc; i++) {
			char label[64];
			const char *base = strrchr(g.gl_pathv[i], '/') + 1;
			snprintf(label, sizeof(label), "%s/%s", examples[e], base);
			row_harness(label, harness, g.gl_pathv[i], driver, "ddmin", TNORM_ALGO_DDMIN, 0);
			row_harness(label, harness, g.gl_pathv[i], driver, "adaptive", TNORM_ALGO_ADAPTIVE, 0);
			row_harness(label, harness, g.gl_pathv[i], driver, "slice+adaptive", TNORM_ALGO_ADAPTIVE, 1);
		}
		globfree(&g);
	}
	/* Generic mode: a 200-line file whose failure needs two words on distant lines. */
	snprintf(words, sizeof(words), "%s/bench-words.txt", argv[2]);
	snprintf(prog, sizeof(prog), "%s/tests/suts/sut_twowords", argv[2]);
	if (!(f = fopen(words, "w")))
		return 1;
	for (i = 1; i <= 200; i++) {
		if (i == 17)
			fprintf(f, "the quick alpha fox\n");
		else if (i == 183)
			fprintf(f, "jumps omega over the dog\n");
		else
			fprintf(f, "line %zu with some filler words\n", i);
	}
	fclose(f);
	row_generic("200-line text", words, prog, "ddmin line+byte", TNORM_ALGO_DDMIN, 0, 1);
	row_generic("200-line text", words, prog, "ddmin l+t+b", TNORM_ALGO_DDMIN, TNORM_VIEW_ALL, 0);
	row_generic("200-line text", words, prog, "adaptive l+t+b", TNORM_ALGO_ADAPTIVE, TNORM_VIEW_ALL, 0);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * bench/generic.c - generic mode (no harness) against two reference reducers, on failing files.
 *
 * usage: bench_generic SOURCE_ROOT BUILD_ROOT [NAME-SUBSTRING...]   (ninja -C build bench-generic)
 *
 * For each input, five jobs, each in a fresh session (so no job profits from another's cache):
 *   today      tnorm_generic_reduce without the chunk pass (adaptive deletion, lines, tokens,
 *              bytes): generic reduction as it was before issue 17;
 *   chunks     the same with the chunk pass (the default of `tnorm reduce`);
 *   normalize  chunks, then tnorm_generic_normalize (`tnorm minimize` without a harness);
 *   lithium    a reference of lithium's default strategy, line mode then char mode, written here
 *              from lithium's published algorithm (lithium is a Python package, not installable
 *              from Debian): chunk sizes from the largest power of two below the length down to
 *              1; at each size, remove aligned chunks from the start, staying at a position after a
 *              removal; at size 1 repeat until a round removes nothing (lithium's
 *              --repeat=last);
 *   ddmin      Zeller-Hildebrandt ddmin on lines, then on bytes (reduce.c).
 * "runs" counts the program's runs; every job here goes through the session's cache, so a
 * candidate met twice runs once.  Lithium itself has no cache: its own run count is the "calls"
 * column.  The goal (issue 17): chunks no larger than lithium's result, at no more runs.
 * BENCH_JOBS=tcnld (the default: today, chunks, normalize, lithium, ddmin) picks the jobs; the
 * others print as "-".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tnorm/tnorm.h"

typedef struct {
	const char *name;   /* label */
	const char *file;   /* relative to SOURCE_ROOT, or NULL: generated (the 200-line text) */
	const char *prog;   /* relative to BUILD_ROOT */
	int invalid1;       /* exit 1 means "not a valid input" */
} input;

static const input inputs[] = {
    {"json-a1", "bench/generic/json-a1.json", "tests/suts/sut_jsonish", 1},
    {"json-a2", "bench/generic/json-a2.json", "tests/suts/sut_jsonish", 1},
    {"json-b", "bench/generic/json-b.json", "tests/suts/sut_jsonish", 1},
    {"cmds-1", "bench/generic/cmds-1.txt", "tests/suts/sut_cmds", 1},
    {"cmds-2", "bench/generic/cmds-2.txt", "tests/suts/sut_cmds", 1},
    {"avl/fail-1.t", "examples/avl/tests/fail-1.t", "examples/avl/avl_driver_faulty", 0},
    {"htable/fail-2.t", "examples/htable/tests/fail-2.t", "examples/htable/htable_driver_faulty", 0},
    {"words-200", NULL, "tests/suts/sut_twowords", 0},
};

static void die(const char *what)
{
	const tnorm_error *e = tnorm_error_last();
	fprintf(stderr, "bench_generic: %s: %s\n", what, e ? e->message : "?");
	exit(1);
}

/* ---- the lithium reference ------------------------------------------------------------------ */

typedef struct {
	tnorm_session *s;
	uint64_t calls;
} lctx;

/* Units of `d`: lines (with their newline) or bytes. */
static size_t units(const char *d, size_t len, int lines, size_t *st, size_t *en)
{
	size_t i = 0, n = 0;
	while (i < len) {
		size_t j = i;
		if (lines) {
			while (j < len && d[j] != '\n')
				j++;
			if (j < len)
				j++;
		} else {
			j++;
		}
		st[n] = i;
		en[n++] = j;
		i = j;
	}
	return n;
}

static size_t largest_pow2_below(size_t n)
{
	size_t r = 1;
	while (r * 2 < n)
		r *= 2;
	return r;
}

/* lithium's Minimize strategy over the units of *d (lines or chars); *d is replaced. */
static void lithium_minimize(lctx *c, char **d, size_t *len, int lines)
{
	size_t *st = malloc((*len + 1) * sizeof(*st)), *en = malloc((*len + 1) * sizeof(*en));
	size_t n = units(*d, *len, lines, st, en), chunk = largest_pow2_below(n);
	char *cand = malloc(*len + 1);
	for (;;) {
		size_t start = 0;
		int removed = 0;
		while (start < n) {
			size_t end = start + chunk < n ? start + chunk : n, cl;
			int yes = 0;
			cl = st[start];
			memcpy(cand, *d, st[start]);
			memcpy(cand + cl, *d + (end < n ? st[end] : *len), *len - (end < n ? st[end] : *len));
			cl += *len - (end < n ? st[end] : *len);
			cand[cl] = '\0';
			c->calls++;
			if (tnorm_session_check(c->s, cand, cl, &yes) < 0)
				die("lithium");
			if (yes) {
				memcpy(*d, cand, cl + 1);
				*len = cl;
				n = units(*d, *len, lines, st, en);
				removed = 1;
			} else {
				start += chunk;
			}
		}
		if (removed && chunk == 1)
			continue; /* --repeat=last */
		if (chunk == 1)
			break;
		chunk /= 2;
	}
	free(cand);
	free(st);
	free(en);
}

/* ---- one job --------------------------------------------------------------------------------- */

enum { JOB_TODAY, JOB_CHUNKS, JOB_NORMALIZE, JOB_LITHIUM, JOB_DDMIN, NJOBS };
static const char *const job_names[] = {"today", "chunks", "normalize", "lithium", "ddmin"};

typedef struct {
	size_t size;
	uint64_t runs, calls;
	double secs;
	char *out;
} result;

static void run_job(const input *in, const char *prog, const char *data, size_t len, int job,
                    result *r)
{
	const char *argv[] = {prog, "{}", NULL};
	static const int inv[] = {1};
	tnorm_run_options ro = TNORM_RUN_OPTIONS_INIT;
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_generic_options go = TNORM_GENERIC_OPTIONS_INIT;
	tnorm_generic_stats gs;
	tnorm_session *s = NULL;
	tnorm_progress p;
	char *out = NULL, *mid = NULL;
	size_t olen = 0, mlen = 0;
	so.confirm = 1;
	ro.timeout = 60; /* not derived from a confirm run: the machine may be loaded */
	if (in->invalid1) {
		ro.invalid_exits = inv;
		ro.ninvalid_exits = 1;
	}
	memset(&gs, 0, sizeof(gs));
	if (tnorm_session_new(&s, argv, &ro, &so) < 0 || tnorm_session_confirm(s, data, len) < 0)
		die(in->name);
	r->calls = 0;
	switch (job) {
	case JOB_TODAY:
	case JOB_CHUNKS:
		go.chunks = job == JOB_CHUNKS;
		if (tnorm_generic_reduce(data, len, &go, tnorm_session_bytes_oracle, s, &out, &olen, &gs) < 0)
			die(in->name);
		r->calls = gs.calls;
		break;
	case JOB_NORMALIZE:
		if (tnorm_generic_reduce(data, len, &go, tnorm_session_bytes_oracle, s, &mid, &mlen, &gs) < 0)
			die(in->name);
		r->calls = gs.calls;
		if (tnorm_generic_normalize(mid, mlen, &go, tnorm_session_bytes_oracle, s, &out, &olen,
		                            &gs) < 0)
			die(in->name);
		r->calls += gs.calls;
		break;
	case JOB_LITHIUM: {
		lctx c = {s, 0};
		out = malloc(len + 1);
		memcpy(out, data, len + 1);
		olen = len;
		lithium_minimize(&c, &out, &olen, 1);
		lithium_minimize(&c, &out, &olen, 0);
		r->calls = c.calls;
		break;
	}
	default:
		go.algo = TNORM_ALGO_DDMIN;
		go.chunks = 0;
		go.views = TNORM_VIEW_LINES;
		if (tnorm_generic_reduce(data, len, &go, tnorm_session_bytes_oracle, s, &mid, &mlen, &gs) < 0)
			die(in->name);
		r->calls = gs.calls;
		go.views = TNORM_VIEW_BYTES;
		if (tnorm_generic_reduce(mid, mlen, &go, tnorm_session_bytes_oracle, s, &out, &olen, &gs) < 0)
			die(in->name);
		r->calls += gs.calls;
	}
	tnorm_session_stats(s, &p);
	r->size = olen;
	r->runs = p.runs - 1; /* without the confirm run */
	r->secs = p.elapsed;
	r->out = out;
	tnorm_free(mid);
	tnorm_session_free(s);
}

/* The result, escaped for one table cell. */
static void cell(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n && i < 40; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '|')
			fputs("\\|", stdout);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	if (n > 40)
		fputs("...", stdout);
}

int main(int argc, char **argv)
{
	enum { NIN = sizeof(inputs) / sizeof(inputs[0]) };
	static result all[NIN][NJOBS];
	static int ran[NIN];
	char path[4096], prog[4096];
	size_t k;
	int j;
	if (argc < 3) {
		fprintf(stderr, "usage: bench_generic SOURCE_ROOT BUILD_ROOT [NAME-SUBSTRING...]\n");
		return 2;
	}
	printf("| input | orig B | today B / runs | chunks B / runs | normalize B / runs | lithium B / "
	       "runs (calls) | ddmin B / runs | chunks vs lithium |\n");
	printf("|---|---|---|---|---|---|---|---|\n");
	for (k = 0; k < NIN; k++) {
		const input *in = &inputs[k];
		result *r = all[k];
		char *data = NULL;
		size_t len = 0;
		if (argc > 3) {
			int a, want = 0;
			for (a = 3; a < argc; a++)
				want |= strstr(in->name, argv[a]) != NULL;
			if (!want)
				continue;
		}
		snprintf(prog, sizeof(prog), "%s/%s", argv[2], in->prog);
		if (in->file) {
			snprintf(path, sizeof(path), "%s/%s", argv[1], in->file);
			if (tnorm_file_read(path, &data, &len) < 0)
				die(path);
		} else {
			/* A 200-line text whose failure needs two words on lines 17 and 183. */
			size_t i, cap = 1 << 14;
			if (!(data = malloc(cap)))
				die("malloc");
			for (i = 1; i <= 200; i++)
				len += (size_t)snprintf(data + len, cap - len, "%s\n",
				                        i == 17    ? "the quick alpha fox"
				                        : i == 183 ? "jumps omega over the dog"
				                                   : "line with some filler words");
		}
		for (j = 0; j < NJOBS; j++) {
			const char *pick = getenv("BENCH_JOBS");
			if (pick && !strchr(pick, "tcnld"[j])) {
				memset(&r[j], 0, sizeof(r[j]));
				continue;
			}
			run_job(in, prog, data, len, j, &r[j]);
			fprintf(stderr, "%s %s: %zu B, %llu runs, %.1f s\n", in->name, job_names[j], r[j].size,
			        (unsigned long long)r[j].runs, r[j].secs);
		}
		ran[k] = 1;
		printf("| %s | %zu | %zu / %llu | %zu / %llu | %zu / %llu | %zu / %llu (%llu) | %zu / %llu "
		       "| %s |\n",
		       in->name, len, r[0].size, (unsigned long long)r[0].runs, r[1].size,
		       (unsigned long long)r[1].runs, r[2].size, (unsigned long long)r[2].runs, r[3].size,
		       (unsigned long long)r[3].runs, (unsigned long long)r[3].calls, r[4].size,
		       (unsigned long long)r[4].runs,
		       r[1].size <= r[3].size && r[1].runs <= r[3].runs ? "met"
		       : r[1].size <= r[3].size                        ? "size met, more runs"
		                                                       : "larger");
		fflush(stdout);
		tnorm_free(data);
	}
	printf("\n| input | job | result |\n|---|---|---|\n");
	for (k = 0; k < NIN; k++)
		for (j = 0; ran[k] && j < NJOBS; j++) {
			printf("| %s | %s | `", inputs[k].name, job_names[j]);
			cell(all[k][j].out, all[k][j].size);
			printf("` |\n");
			tnorm_free(all[k][j].out);
		}
	return 0;
}

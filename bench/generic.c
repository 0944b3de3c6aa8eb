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
 * others print as 0.  "CPU s" is the job's CPU time, user + system (getrusage of this process,
 * with the tracer thread, and of its waited-for children: the program's runs, and a fork
 * server's runs once the session has reaped the server), not wall time.
 * words-200 and words-1M are generated: 200 and 35,700 lines (999,589 bytes) of filler, one word
 * of the failure on the line at 17/200 of the text and the other at 183/200 (issue 30: a 1 MB
 * file against lithium's two passes).
 *
 * Then the triage table (issue 17): `tnorm triage` without a harness (tnorm_triage_run, harness
 * NULL, 2 worker threads, no database) on crash folders made here as fuzzers name their files,
 * several files per planted bug with noise around the crashing content: files -> buckets ->
 * bugs, "pure" when no bucket mixes two bugs, the program runs and the wall time.  Its name for
 * the filter is "triage".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tnorm/tnorm.h"

typedef struct {
	const char *name;   /* label */
	const char *file;   /* relative to SOURCE_ROOT, or NULL: generated (the two-word text) */
	const char *prog;   /* relative to BUILD_ROOT */
	int invalid1;       /* exit 1 means "not a valid input" */
	size_t lines;       /* generated: its number of lines */
} input;

static const input inputs[] = {
    {"json-a1", "bench/generic/json-a1.json", "tests/suts/sut_jsonish", 1, 0},
    {"json-a2", "bench/generic/json-a2.json", "tests/suts/sut_jsonish", 1, 0},
    {"json-b", "bench/generic/json-b.json", "tests/suts/sut_jsonish", 1, 0},
    {"cmds-1", "bench/generic/cmds-1.txt", "tests/suts/sut_cmds", 1, 0},
    {"cmds-2", "bench/generic/cmds-2.txt", "tests/suts/sut_cmds", 1, 0},
    {"avl/fail-1.t", "examples/avl/tests/fail-1.t", "examples/avl/avl_driver_faulty", 0, 0},
    {"htable/fail-2.t", "examples/htable/tests/fail-2.t", "examples/htable/htable_driver_faulty", 0, 0},
    {"words-200", NULL, "tests/suts/sut_twowords", 0, 200},
    /* 35,700 lines, 999,589 bytes: under sut_twowords' 1 MiB buffer. */
    {"words-1M", NULL, "tests/suts/sut_twowords", 0, 35700},
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
	double secs, cpu;
	char *out;
} result;

/* CPU seconds (user + system) of this process, its threads, and its waited-for children: the
 * program's runs and the tracer that watches them. */
static double cpu_now(void)
{
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
	                kids.ru_stime.tv_sec) +
	       (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
	                kids.ru_stime.tv_usec) /
	           1e6;
}

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
	double cpu0 = cpu_now();
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
		go.chunks = -1;
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
	/* After the session is freed: a fork server's children count once it is reaped. */
	r->cpu = cpu_now() - cpu0;
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

/* ---- the triage table ------------------------------------------------------------------------ */

typedef struct {
	const char *name; /* the file name, as AFL++ or libFuzzer gives it */
	const char *data; /* its content (len bytes: binary ones hold NUL bytes) */
	size_t len;
	char bug;         /* the planted bug it triggers */
} crash_file;

#define CF(name, text, bug) {name, text, sizeof(text) - 1, bug}

static const crash_file json_crashes[] = {
    CF("id:000000,sig:06,src:000000,time:123,execs:456,op:havoc,rep:2",
       "{\"id\": 7, \"tags\": [\"x\", \"y\"], \"\": [{\"n\": 1}], \"ok\": true}\n", 'A'),
    CF("crash-3ba1e3e5e2b9d0a1c0a2fe7b36a2fb1e0cb1f4e2",
       "{\n  \"meta\": {\"\": [{}, 3]},\n  \"list\": [{\"a\": null}]\n}\n", 'A'),
    CF("id:000002,sig:06,src:000001,time:999,execs:5000,op:arith8,pos:12,val:-3",
       "{\"z\": false, \"\": [ {\"k\": \"v\"}, {\"k2\": [1,2,3]} ], \"w\": \"noise noise\"}", 'A'),
    CF("crash-6f0c2ad0b1d14bb6ab1c4b1e1c0d2a9f9e8d7c6b",
       "{\"items\": [1, 2, 3], \"meta\": {\"page\": 4, \"\": [{\"q\": null}]}, \"next\": \"x\"}", 'A'),
    CF("id:000001,sig:06,src:000000,time:200,execs:900,op:flip1,pos:3",
       "{\"n\": 123456789012345678901234567890, \"x\": [1,2]}\n", 'B'),
    CF("crash-0d6e1f5a8c7b9e2d4f1a3c5b7d9e0f2a4c6b8d0e",
       "{\"price\": -3.14159265358979323846264338327950288, \"tags\": [\"a\"]}", 'B'),
    CF("crash-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b",
       "{\t\"big\" :  99999999999999999999999999999999 ,\n \"s\": \"str\"\n}\n", 'B'),
    CF("id:000003,sig:06,src:000002,time:1500,execs:8000,op:havoc,rep:4",
       "{\"id\": 12, \"total\": 1234567890123456789012345678901234, \"list\": [{\"a\": 1}], "
       "\"note\": \"x\"}\n", 'B'),
};

static const crash_file opcodes_crashes[] = {
    CF("id:000000,sig:06,src:000000,time:100,execs:4000,op:havoc,rep:0",
       "\x01\x02\x80\x90\x07\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90"
       "\x91\x92\x00\x03", 'A'),
    CF("crash-c524ab61503711ea75895ac584bc3fcfd4a66947",
       "\x07\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xc0\xc1\xc2\xc3", 'A'),
    CF("crash-1f2e3d4c5b6a79880f1e2d3c4b5a69788f9e0d1c",
       "\x03\x03\x07\x99\x98\x97\x96\x95\x94\x93\x92\x91\x90\x8f\x8e\x8d\x8c\x8b\x8a\x89\x88"
       "\x87\x86\x00\xfe\x05", 'A'),
    CF("id:000001,sig:06,src:000000,time:101,execs:4001,op:havoc,rep:1",
       "\x05\x05\xa0\xff\x06\x00\x02", 'B'),
    CF("crash-d4398abb00f6ef3025d7cea64fdcbccf0ad2d437", "\xee\xff\x05\x00\xff", 'B'),
    CF("id:000002,sig:06,src:000001,time:300,execs:9000,op:flip8,pos:2",
       "\x01\x07\x01\x00\x02\xff\x07\x00\x06\x06", 'B'),
};

static const crash_file cmds_crashes[] = {
    CF("id:000000,sig:06,src:000000,time:50,execs:70,op:havoc,rep:2",
       "attach alpha\nattach beta\nattach gamma\nattach delta\ndetach 2\nlist\ncount\n", 'A'),
    CF("crash-5c4b3a29180f7e6d5c4b3a2918f0e7d6c5b4a392",
       "attach sda\n# spare\nattach sdb\nattach sdc\ncount\ndetach 1\nlist\n", 'A'),
    CF("id:000001,sig:06,src:000000,time:80,execs:120,op:havoc,rep:4",
       "# bring up the rack\nattach eth0\nattach eth1\nattach disk0\ncount\nattach disk1\n"
       "rename 2 scratch\nattach usb0\nlist\ndetach 3\ncount\nlist\n", 'A'),
};

typedef struct {
	const char *name;
	const char *prog; /* relative to BUILD_ROOT */
	const crash_file *files;
	size_t nfiles;
} crash_folder;

static const crash_folder folders[] = {
    {"jsonish", "tests/suts/sut_jsonish", json_crashes,
     sizeof(json_crashes) / sizeof(*json_crashes)},
    {"opcodes", "tests/suts/sut_opcodes", opcodes_crashes,
     sizeof(opcodes_crashes) / sizeof(*opcodes_crashes)},
    {"cmds", "tests/suts/sut_cmds", cmds_crashes, sizeof(cmds_crashes) / sizeof(*cmds_crashes)},
};

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The planted bug of test `name` in folder f ('?' when unknown). */
static char bug_of(const crash_folder *f, const char *name)
{
	size_t i;
	for (i = 0; i < f->nfiles; i++)
		if (!strcmp(f->files[i].name, name))
			return f->files[i].bug;
	return '?';
}

/* Triage folder f in a fresh temporary folder; print its row. */
static void triage_row(const crash_folder *f, const char *build)
{
	tnorm_triage_options o = TNORM_TRIAGE_OPTIONS_INIT;
	tnorm_triage_result r;
	char dir[] = "/tmp/bench-triage-XXXXXX", path[4096], prog[4096], bugs[8] = "";
	const char *argv[] = {prog, "@@", NULL};
	static const int invalid[] = {1};
	unsigned long long runs = 0;
	size_t i, b, nbugs = 0;
	int pure = 1, err;
	double t0;
	memset(&r, 0, sizeof(r));
	if (!mkdtemp(dir))
		die("mkdtemp");
	for (i = 0; i < f->nfiles; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, f->files[i].name);
		if (tnorm_file_write_atomic(path, f->files[i].data, f->files[i].len) < 0)
			die(path);
		if (!strchr(bugs, f->files[i].bug) && nbugs + 1 < sizeof(bugs))
			bugs[nbugs++] = f->files[i].bug;
	}
	snprintf(path, sizeof(path), "%s/README.txt", dir);
	if (tnorm_file_write_atomic(path, "Command line used to find this crash:\n", 38) < 0)
		die(path);
	snprintf(prog, sizeof(prog), "%s/%s", build, f->prog);
	o.dir = dir;
	o.argv = argv;
	o.jobs = 2;
	o.job.run.invalid_exits = invalid;
	o.job.run.ninvalid_exits = 1;
	t0 = wall();
	err = tnorm_triage_run(&o, &r);
	if (err < 0)
		die(f->name);
	for (i = 0; i < r.ntests; i++)
		runs += r.tests[i].runs;
	for (b = 0; b < r.nbuckets; b++)
		for (i = 0; i < r.ntests; i++)
			if (r.tests[i].bucket == b + 1 &&
			    bug_of(f, r.tests[i].name) !=
			        bug_of(f, r.tests[r.buckets[b].representative].name))
				pure = 0;
	printf("| %s | %zu | %zu | %zu | %s | %llu | %.1f |\n", f->name, r.ntests, r.nbuckets,
	       nbugs, pure ? "yes" : "no", runs, wall() - t0);
	fflush(stdout);
	tnorm_triage_result_dispose(&r);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		die("rm");
}

static void triage_table(const char *build)
{
	size_t k;
	printf("\n| crash folder | files | buckets | bugs | pure | runs | s |\n"
	       "|---|---|---|---|---|---|---|\n");
	for (k = 0; k < sizeof(folders) / sizeof(*folders); k++)
		triage_row(&folders[k], build);
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
	printf("| input | orig B | today B / runs / CPU s | chunks B / runs / CPU s | normalize B / "
	       "runs / CPU s | lithium B / runs (calls) / CPU s | ddmin B / runs / CPU s | chunks vs "
	       "lithium |\n");
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
			/* A text whose failure needs two words, on lines 17 and 183 of 200 (and at those
			 * places in a longer text). */
			size_t i, n = in->lines, cap = 32 * n;
			if (!(data = malloc(cap)))
				die("malloc");
			for (i = 1; i <= n; i++)
				len += (size_t)snprintf(data + len, cap - len, "%s\n",
				                        i == 17 * n / 200    ? "the quick alpha fox"
				                        : i == 183 * n / 200 ? "jumps omega over the dog"
				                                             : "line with some filler words");
		}
		for (j = 0; j < NJOBS; j++) {
			const char *pick = getenv("BENCH_JOBS");
			if (pick && !strchr(pick, "tcnld"[j])) {
				memset(&r[j], 0, sizeof(r[j]));
				continue;
			}
			run_job(in, prog, data, len, j, &r[j]);
			fprintf(stderr, "%s %s: %zu B, %llu runs, %.1f s, %.2f s CPU\n", in->name,
			        job_names[j], r[j].size, (unsigned long long)r[j].runs, r[j].secs, r[j].cpu);
		}
		ran[k] = 1;
		printf("| %s | %zu |", in->name, len);
		for (j = 0; j < NJOBS; j++) {
			printf(" %zu / %llu", r[j].size, (unsigned long long)r[j].runs);
			if (j == JOB_LITHIUM)
				printf(" (%llu)", (unsigned long long)r[j].calls);
			printf(" / %.2f |", r[j].cpu);
		}
		printf(" %s |\n",
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
	for (j = 3; j < argc && argc > 3; j++)
		if (strstr("triage", argv[j]))
			break;
	if (argc == 3 || j < argc)
		triage_table(argv[2]);
	return 0;
}

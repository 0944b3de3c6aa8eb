/* SPDX-License-Identifier: MIT */
/*
 * test_session.c - the oracle's core against a real program: tests/suts/twobug, run through a
 * small shell wrapper that appends a line to a log at every start, so that "did it run?" is
 * answered by the program, not by the session's own counters.  Each promise of session.h has a
 * case here: check_many answers, counts and writes exactly as checking one by one; the cache
 * never runs the same bytes twice; the run and time budgets and the cancel flag stop before a
 * run; the best-so-far file holds the smallest accepted candidate, replaced atomically; a
 * candidate failing another way is refused and kept as a slip.  Last, every allocation of the
 * entry points is made to fail in turn.
 *
 * twobug (tests/suts/twobug.c): lines "A" and "a" crash in bug_a; a line "B" aborts in bug_b;
 * A is checked first.  The target here is bug A.
 */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "common.h"
#include "tnorm/tnorm.h"
#include "unit_util.h"

/* The original test: bug A (A and a), with bug B's line too (A wins). */
static const char orig[] = "A\na\nB\nb\n";

/* Candidates with their answers under the target bug A; some repeat (within the list and the
 * original), some slip to bug B, some pass.  The order makes the best improve three times. */
static const char *const cands[] = {
	"A\na\nB\nb\n", /* the original: answered from the cache */
	"B\nb\n",       /* bug B: a slip */
	"A\na\nB\n",    /* bug A, smaller than the original: the new best */
	"x\n",          /* passes */
	"B\nb\n",       /* the same bytes as cands[1] */
	"a\nA\n",       /* bug A: the new best */
	"B\n",          /* bug B, smaller: the slip's new test */
	"A\na",         /* bug A: the new best */
	"A\n",          /* passes */
	"a\nA",         /* bug A, as long as the best but after it bytewise: not the best */
	"A\na\nB\n",    /* the same bytes as cands[2] */
};
static const int answers[] = {1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 1};
#define NCANDS (sizeof(cands) / sizeof(cands[0]))
/* Distinct candidates not in the cache after the confirm run: the ones that run. */
#define NRUN 8

typedef struct {
	char dir[1100];    /* a fresh folder, removed by teardown */
	char log[1200];    /* one line per start of the program */
	char out[1200];    /* the best-so-far file */
	char slips[1200];  /* the slipped folder */
	char sut[4200];
	const char *argv[7];
	size_t len[NCANDS];
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	size_t i;
	if (!f)
		return -1;
	if (unit_mkdtemp(f->dir, sizeof(f->dir), "session") < 0) {
		free(f);
		return -1;
	}
	snprintf(f->log, sizeof(f->log), "%s/starts.log", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/best.txt", f->dir);
	snprintf(f->slips, sizeof(f->slips), "%s/slipped", f->dir);
	snprintf(f->sut, sizeof(f->sut), "%s/sut_twobug", getenv("TNORM_SUT_DIR"));
	f->argv[0] = "/bin/sh";
	f->argv[1] = "-c";
	f->argv[2] = "echo run >> \"$0\"; exec \"$1\" \"$2\"";
	f->argv[3] = f->log;
	f->argv[4] = f->sut;
	f->argv[5] = "{}";
	f->argv[6] = NULL;
	for (i = 0; i < NCANDS; i++)
		f->len[i] = strlen(cands[i]);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	unit_rmtree(f->dir);
	free(f);
	return 0;
}

/* How many times the program started (lines in the log). */
static unsigned starts(const fixture *f)
{
	FILE *fp = fopen(f->log, "r");
	unsigned n = 0;
	int c;
	if (!fp)
		return 0;
	while ((c = getc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

/* The whole content of `path` (NULL when it does not exist); free with free(). */
static char *slurp(const char *path)
{
	char *data = NULL;
	size_t len = 0;
	if (tnorm_file_read(path, &data, &len) < 0) {
		tnorm_error_clear();
		return NULL;
	}
	return data;
}

/* A session on the fixture's program with its options, confirmed on `orig` with one run. */
static tnorm_session *confirmed(const fixture *f, tnorm_session_options *so)
{
	tnorm_session *s = NULL;
	so->confirm = 1;
	assert_int_equal(tnorm_session_new(&s, f->argv, NULL, so), 0);
	assert_int_equal(tnorm_session_confirm(s, orig, strlen(orig)), 0);
	return s;
}

/* Check cands[] one by one as check_many promises to: stop at the first error, answers after it
 * 0.  Returns that error or 0. */
static int check_each(tnorm_session *s, const fixture *f, int *got)
{
	size_t i;
	int err = 0;
	for (i = 0; i < NCANDS; i++)
		got[i] = 0;
	for (i = 0; i < NCANDS && err == 0; i++)
		err = tnorm_session_check(s, cands[i], f->len[i], &got[i]);
	return err;
}

static void same_stats(const tnorm_session *a, const tnorm_session *b)
{
	tnorm_progress pa, pb;
	tnorm_session_stats(a, &pa);
	tnorm_session_stats(b, &pb);
	assert_int_equal(pa.runs, pb.runs);
	assert_int_equal(pa.accepted, pb.accepted);
	assert_int_equal(pa.cache_hits, pb.cache_hits);
	assert_int_equal(pa.best_len, pb.best_len);
}

/* The slips of two sessions are the same failures with the same smallest tests on disk. */
static void same_slips(const tnorm_session *a, const tnorm_session *b)
{
	size_t i, n = tnorm_session_slipped_count(a);
	assert_int_equal(n, tnorm_session_slipped_count(b));
	for (i = 0; i < n; i++) {
		const char *sa, *sb, *pa, *pb;
		size_t za, zb;
		char *da, *db;
		assert_int_equal(tnorm_session_slipped(a, i, &sa, &pa, &za), 0);
		assert_int_equal(tnorm_session_slipped(b, i, &sb, &pb, &zb), 0);
		assert_string_equal(sa, sb);
		assert_int_equal(za, zb);
		assert_non_null(pa);
		assert_non_null(pb);
		assert_string_equal(strrchr(pa, '/'), strrchr(pb, '/'));
		assert_non_null(da = slurp(pa));
		assert_non_null(db = slurp(pb));
		assert_string_equal(da, db);
		free(da);
		free(db);
	}
}

/* check_many on the session's jobs gives the answers, counters, program starts, best-so-far
 * file, slips and cache of checking the same list one by one. */
static void test_session__check_many_is_one_by_one(void **state)
{
	fixture *f = *state, g;
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_session *one = NULL, *many = NULL;
	int got1[NCANDS], gotn[NCANDS], again[NCANDS];
	unsigned s1, sn;
	char *b1, *bn;
	size_t i;

	/* One by one, in the fixture's folder. */
	so.out_path = f->out;
	so.slipped_dir = f->slips;
	one = confirmed(f, &so);
	assert_int_equal(check_each(one, f, got1), 0);
	s1 = starts(f);
	assert_int_equal(s1, 1 + NRUN);

	/* The batch, on three jobs, in a second folder (same candidates, another log). */
	memcpy(&g, f, sizeof(g));
	snprintf(g.dir, sizeof(g.dir), "%.1000s/many", f->dir);
	assert_int_equal(mkdir(g.dir, 0755), 0);
	snprintf(g.log, sizeof(g.log), "%s/starts.log", g.dir);
	snprintf(g.out, sizeof(g.out), "%s/best.txt", g.dir);
	snprintf(g.slips, sizeof(g.slips), "%s/slipped", g.dir);
	g.argv[3] = g.log;
	so.out_path = g.out;
	so.slipped_dir = g.slips;
	many = confirmed(&g, &so);
	tnorm_session_set_jobs(many, 3);
	assert_int_equal(tnorm_session_jobs(many), 3);
	assert_int_equal(tnorm_session_check_many(many, cands, g.len, NCANDS, gotn), 0);
	sn = starts(&g);

	for (i = 0; i < NCANDS; i++) {
		if (got1[i] != answers[i] || gotn[i] != answers[i])
			fail_msg("candidate %zu (%s): one by one %d, check_many %d, expected %d", i,
			         cands[i], got1[i], gotn[i], answers[i]);
	}
	assert_int_equal(sn, s1);
	same_stats(one, many);
	same_slips(one, many);
	assert_int_equal(tnorm_session_slipped_count(one), 1);
	assert_non_null(b1 = slurp(f->out));
	assert_non_null(bn = slurp(g.out));
	assert_string_equal(b1, "A\na");
	assert_string_equal(bn, b1);
	free(b1);
	free(bn);

	/* The cache is the same: everything again, one by one and as a batch, runs nothing. */
	assert_int_equal(check_each(one, f, again), 0);
	assert_memory_equal(again, got1, sizeof(again));
	assert_int_equal(tnorm_session_check_many(many, cands, g.len, NCANDS, again), 0);
	assert_memory_equal(again, gotn, sizeof(again));
	same_stats(one, many);
	assert_int_equal(starts(f), s1);
	assert_int_equal(starts(&g), sn);
	{
		tnorm_progress p;
		tnorm_session_stats(many, &p);
		assert_int_equal(p.runs, 1 + NRUN);
		assert_int_equal(p.cache_hits, (NCANDS - NRUN) + NCANDS);
		assert_int_equal(p.accepted, 4);
	}
	tnorm_session_free(one);
	tnorm_session_free(many);
}

/* A run budget stops both ways at the same candidate, with the same answers before it, and
 * the batch starts no more programs than the budget allows. */
static void test_session__check_many_budget(void **state)
{
	fixture *f = *state;
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_session *one = NULL, *many = NULL;
	int got1[NCANDS], gotn[NCANDS];
	static const int before_stop[NCANDS] = {1, 0, 1, 0, 0};
	tnorm_progress p;

	so.max_runs = 4; /* the confirm run, then cands[1], [2] and [3]; cands[5] is refused */
	one = confirmed(f, &so);
	assert_int_equal(check_each(one, f, got1), TNORM_ETIMEOUT);
	assert_non_null(strstr(tnorm_error_last()->message, "run budget (4 runs)"));
	assert_int_equal(starts(f), 4);
	assert_memory_equal(got1, before_stop, sizeof(got1));

	assert_int_equal(truncate(f->log, 0), 0);
	many = confirmed(f, &so);
	tnorm_session_set_jobs(many, 3);
	assert_int_equal(tnorm_session_check_many(many, cands, f->len, NCANDS, gotn), TNORM_ETIMEOUT);
	assert_int_equal(tnorm_error_last()->code, TNORM_ETIMEOUT);
	assert_non_null(strstr(tnorm_error_last()->message, "run budget (4 runs)"));
	assert_memory_equal(gotn, before_stop, sizeof(gotn));
	same_stats(one, many);
	tnorm_session_stats(many, &p);
	assert_int_equal(p.runs, 4);
	/* Real starts, not just counted runs: the workers do not run past the budget. */
	assert_int_equal(starts(f), 4);
	tnorm_session_free(one);
	tnorm_session_free(many);
}

/* The same bytes never run twice; the original is known from the confirm runs; a candidate
 * of the same length and other bytes is not taken for another. */
static void test_session__cache(void **state)
{
	fixture *f = *state;
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_session *s = NULL;
	tnorm_progress p;
	int yes = -1, k;

	so.confirm = 3;
	assert_int_equal(tnorm_session_new(&s, f->argv, NULL, &so), 0);
	assert_int_equal(tnorm_session_check(s, "x", 1, &yes), TNORM_EINVALID); /* no target yet */
	assert_int_equal(tnorm_session_confirm(s, orig, strlen(orig)), 0);
	assert_int_equal(starts(f), 3);
	assert_non_null(tnorm_session_target(s, &k));
	assert_int_equal(k, 1);

	assert_int_equal(tnorm_session_check(s, orig, strlen(orig), &yes), 0);
	assert_int_equal(yes, 1);
	assert_int_equal(starts(f), 3);
	for (k = 0; k < 3; k++) {
		assert_int_equal(tnorm_session_check(s, "A\na\n", 4, &yes), 0);
		assert_int_equal(yes, 1);
		assert_int_equal(tnorm_session_check(s, "A\nb\n", 4, &yes), 0);
		assert_int_equal(yes, 0);
		assert_int_equal(tnorm_session_check(s, "", 0, &yes), 0);
		assert_int_equal(yes, 0);
	}
	assert_int_equal(starts(f), 3 + 3);
	tnorm_session_stats(s, &p);
	assert_int_equal(p.runs, 3 + 3);
	assert_int_equal(p.cache_hits, 1 + 2 * 3);
	assert_int_equal(p.accepted, 1);
	tnorm_session_free(s);
}

/* The run budget, the time budget and the cancel flag stop before a run, with the documented
 * code and a message; the cache still answers what it knows. */
static void test_session__budgets(void **state)
{
	fixture *f = *state;
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_session *s = NULL;
	tnorm_progress p;
	volatile int cancel = 0;
	int yes = -1;

	/* Runs: the confirm run and two more. */
	so.max_runs = 3;
	s = confirmed(f, &so);
	assert_int_equal(tnorm_session_check(s, "A\na", 3, &yes), 0);
	assert_int_equal(yes, 1);
	assert_int_equal(tnorm_session_check(s, "B\n", 2, &yes), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(tnorm_session_check(s, "x\n", 2, &yes), TNORM_ETIMEOUT);
	assert_int_equal(yes, 0);
	assert_int_equal(tnorm_error_last()->code, TNORM_ETIMEOUT);
	assert_non_null(strstr(tnorm_error_last()->message, "run budget (3 runs)"));
	assert_int_equal(tnorm_session_check(s, "a\nA\n", 4, &yes), TNORM_ETIMEOUT);
	assert_int_equal(starts(f), 3);
	assert_int_equal(tnorm_session_check(s, "A\na", 3, &yes), 0); /* from the cache */
	assert_int_equal(yes, 1);
	tnorm_session_stats(s, &p);
	assert_int_equal(p.runs, 3);
	tnorm_session_free(s);

	/* Time: once the session is older than max_time, no more runs. */
	assert_int_equal(truncate(f->log, 0), 0);
	so.max_runs = 0;
	/* (5 s: the confirm and one check must fit in it on a loaded machine; issue 39) */
	so.max_time = 5;
	s = confirmed(f, &so);
	assert_int_equal(tnorm_session_check(s, "A\na", 3, &yes), 0);
	assert_int_equal(yes, 1);
	do {
		usleep(50000);
		tnorm_session_stats(s, &p);
	} while (p.elapsed <= 5);
	assert_int_equal(tnorm_session_check(s, "x\n", 2, &yes), TNORM_ETIMEOUT);
	assert_non_null(strstr(tnorm_error_last()->message, "time budget (5 s)"));
	assert_int_equal(starts(f), 2);
	assert_int_equal(tnorm_session_check(s, "A\na", 3, &yes), 0);
	assert_int_equal(yes, 1);
	tnorm_session_free(s);

	/* The cancel flag. */
	assert_int_equal(truncate(f->log, 0), 0);
	so.max_time = 0;
	so.cancel = &cancel;
	s = confirmed(f, &so);
	cancel = 1;
	assert_int_equal(tnorm_session_check(s, "x\n", 2, &yes), TNORM_EINTERRUPTED);
	assert_non_null(strstr(tnorm_error_last()->message, "interrupted"));
	{
		const char *const two[] = {"y\n", "z\n"};
		const size_t twolen[] = {2, 2};
		int ans[2] = {-1, -1};
		tnorm_session_set_jobs(s, 2);
		assert_int_equal(tnorm_session_check_many(s, two, twolen, 2, ans), TNORM_EINTERRUPTED);
		assert_int_equal(ans[0], 0);
		assert_int_equal(ans[1], 0);
	}
	assert_int_equal(starts(f), 1);
	tnorm_session_free(s);
}

/* Each better accepted candidate replaces the best-so-far file whole, by a rename: a reader
 * that opened it before still reads the complete old content; no temporary file stays. */
static void test_session__best_so_far(void **state)
{
	fixture *f = *state;
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_session *s = NULL;
	struct stat st1, st2;
	char buf[64], *best;
	int yes = -1, fd;
	ssize_t n;
	struct dirent *e;
	DIR *d;

	so.out_path = f->out;
	s = confirmed(f, &so);
	/* The confirm step does not write it (the pipeline writes the original itself). */
	assert_int_equal(access(f->out, F_OK), -1);
	/* Accepted but not smaller than the original: not written. */
	assert_int_equal(tnorm_session_check(s, "A\na\nB\nbb\n", 9, &yes), 0);
	assert_int_equal(yes, 1);
	assert_int_equal(access(f->out, F_OK), -1);
	/* Smaller: written. */
	assert_int_equal(tnorm_session_check(s, "A\na\nB\n", 6, &yes), 0);
	assert_int_equal(yes, 1);
	assert_non_null(best = slurp(f->out));
	assert_string_equal(best, "A\na\nB\n");
	free(best);
	assert_int_equal(stat(f->out, &st1), 0);
	assert_int_equal(st1.st_mode & 0777, 0644);
	assert_true((fd = open(f->out, O_RDONLY)) >= 0);
	/* Slips and passes, even small ones, leave it alone. */
	assert_int_equal(tnorm_session_check(s, "B\n", 2, &yes), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(tnorm_session_check(s, "\n", 1, &yes), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(stat(f->out, &st2), 0);
	assert_int_equal(st1.st_ino, st2.st_ino);
	/* Smaller again; then as small but after it bytewise, and larger: neither replaces it. */
	assert_int_equal(tnorm_session_check(s, "A\na", 3, &yes), 0);
	assert_int_equal(yes, 1);
	assert_int_equal(tnorm_session_check(s, "a\nA", 3, &yes), 0);
	assert_int_equal(yes, 1);
	assert_int_equal(tnorm_session_check(s, "a\nA\n", 4, &yes), 0);
	assert_int_equal(yes, 1);
	assert_non_null(best = slurp(f->out));
	assert_string_equal(best, "A\na");
	free(best);
	assert_int_equal(stat(f->out, &st2), 0);
	assert_true(st1.st_ino != st2.st_ino);
	n = read(fd, buf, sizeof(buf));
	assert_int_equal(n, 6);
	assert_memory_equal(buf, "A\na\nB\n", 6);
	close(fd);
	{
		tnorm_progress p;
		tnorm_session_stats(s, &p);
		assert_int_equal(p.best_len, 3);
		assert_int_equal(p.accepted, 5);
	}
	assert_non_null(d = opendir(f->dir));
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp."))
			fail_msg("a temporary file stayed: %s", e->d_name);
	closedir(d);
	tnorm_session_free(s);
}

/* A candidate that fails another way is refused and kept: its signature, and its smallest test
 * in the slipped folder with the signature beside it. */
static void test_session__slippage(void **state)
{
	fixture *f = *state;
	tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
	tnorm_session *s = NULL;
	const char *sig = NULL, *path = NULL;
	char *data, *sigfile, sigpath[4300], *target = NULL;
	size_t size = 0;
	int yes = -1;

	so.out_path = f->out;
	so.slipped_dir = f->slips;
	s = confirmed(f, &so);
	assert_int_equal(tnorm_session_slipped_count(s), 0);
	assert_int_equal(tnorm_session_slipped(s, 0, &sig, &path, &size), TNORM_EINVALID);

	assert_int_equal(tnorm_session_check(s, "B\nb\nB\n", 6, &yes), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(tnorm_session_slipped_count(s), 1);
	assert_int_equal(tnorm_session_slipped(s, 0, &sig, &path, &size), 0);
	assert_non_null(strstr(sig, "bug_b"));
	assert_null(strstr(sig, "bug_a"));
	assert_int_equal(tnorm_signature_format(tnorm_session_target(s, NULL), 0, &target), 0);
	assert_non_null(strstr(target, "bug_a"));
	assert_int_equal(size, 6);
	assert_non_null(path);
	snprintf(sigpath, sizeof(sigpath), "%s/slip-1.t", f->slips);
	assert_string_equal(path, sigpath);
	assert_non_null(data = slurp(path));
	assert_string_equal(data, "B\nb\nB\n");
	free(data);
	snprintf(sigpath, sizeof(sigpath), "%s/slip-1.sig", f->slips);
	assert_non_null(sigfile = slurp(sigpath));
	assert_int_equal(strlen(sigfile), strlen(sig) + 1);
	assert_memory_equal(sigfile, sig, strlen(sig));
	free(sigfile);

	/* A smaller test of the same failure replaces it; a larger one and passes do not. */
	assert_int_equal(tnorm_session_check(s, "B\n", 2, &yes), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(tnorm_session_check(s, "B\nB\nB\nB\n", 8, &yes), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(tnorm_session_check(s, "b\n", 2, &yes), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(tnorm_session_slipped_count(s), 1);
	assert_int_equal(tnorm_session_slipped(s, 0, &sig, &path, &size), 0);
	assert_int_equal(size, 2);
	assert_non_null(data = slurp(path));
	assert_string_equal(data, "B\n");
	free(data);
	/* The slip is no best-so-far. */
	assert_int_equal(access(f->out, F_OK), -1);
	{
		tnorm_progress p;
		tnorm_session_stats(s, &p);
		assert_int_equal(p.accepted, 0);
		assert_int_equal(p.best_len, strlen(orig));
	}
	tnorm_free(target);
	tnorm_session_free(s);
}

/* The confirm step refuses a test that does not fail, and says what happened. */
static void test_session__confirm_refuses_a_pass(void **state)
{
	fixture *f = *state;
	tnorm_session *s = NULL;
	assert_int_equal(tnorm_session_new(&s, f->argv, NULL, NULL), 0);
	assert_int_equal(tnorm_session_confirm(s, "x\n", 2), TNORM_ENOTFAIL);
	assert_non_null(strstr(tnorm_error_last()->message, "it passes (exit 0)"));
	assert_null(tnorm_session_target(s, NULL));
	assert_int_equal(starts(f), 3);
	tnorm_session_free(s);
}

/* Make the k-th allocation fail, for k = 0, 1, 2, ..., in new, confirm, check (a slip, a new
 * best) and check_many on two jobs, until the whole goes through without reaching it.  A call
 * that meets the failure returns TNORM_ENOMEM with the error set, or goes on without the
 * allocation and still answers right (a worker runner that cannot be made is done without);
 * ASan finds leaks.  An allocation after the sequence tells whether the failure was reached
 * (once reached, every later one fails too). */
static void test_session__oom_sweep(void **state)
{
	fixture *f = *state;
	static const char *const one[] = {"B\nb\n", "A\na\nB\n", "x\n"};
	static const char *const batch[] = {"a\nA\n", "B\n", "A\na\nB\n", "A\na"};
	static const size_t onelen[] = {4, 6, 2}, batchlen[] = {4, 2, 6, 3};
	static const int oneans[] = {0, 1, 0}, batchans[] = {1, 0, 1, 1};
	long k;
	unsigned enomem = 0, absorbed = 0;
	long last_absorbed = -1;

	for (k = 0; k < 100000; k++) {
		tnorm_session_options so = TNORM_SESSION_OPTIONS_INIT;
		tnorm_session *s = NULL;
		int err, yes[4] = {-1, -1, -1, -1}, reached, code;
		char message[512];
		size_t i;

		so.confirm = 1;
		so.out_path = f->out;
		so.slipped_dir = f->slips;
		tnorm_error_clear();
		tnorm__alloc_fail_after(k);
		err = tnorm_session_new(&s, f->argv, NULL, &so);
		if (err != 0)
			assert_null(s);
		if (err == 0) {
			tnorm_session_set_jobs(s, 2);
			err = tnorm_session_confirm(s, orig, strlen(orig));
		}
		for (i = 0; err == 0 && i < 3; i++) {
			err = tnorm_session_check(s, one[i], onelen[i], &yes[0]);
			if (err == 0)
				assert_int_equal(yes[0], oneans[i]);
		}
		if (err == 0) {
			err = tnorm_session_check_many(s, batch, batchlen, 4, yes);
			if (err == 0)
				assert_memory_equal(yes, batchans, sizeof(yes));
		}
		reached = unit_oom_end(&code, message, sizeof(message));
		if (err != 0) {
			if (err != TNORM_ENOMEM)
				fail_msg("allocation %ld: %s (%s), expected TNORM_ENOMEM", k,
				         tnorm_error_name(err), message);
			assert_true(reached);
			assert_int_equal(code, TNORM_ENOMEM);
			assert_true(message[0] != '\0');
			enomem++;
		} else if (reached) {
			absorbed++;
			last_absorbed = k;
		}
		tnorm_session_free(s);
		if (err == 0 && !reached)
			break;
	}
	assert_true(k < 100000);
	/* The call makes k - 1 allocations: with k - 1 the counter ran out exactly at its end, which
	 * the probe cannot tell from a failure met and done without. */
	if (last_absorbed == k - 1)
		absorbed--;
	k--;
	assert_true(enomem > 20);
	print_message("session: %ld allocation points, %u gave TNORM_ENOMEM, %u went on without\n",
	              k, enomem, absorbed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_session__check_many_is_one_by_one, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session__check_many_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session__cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session__budgets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session__best_so_far, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session__slippage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session__confirm_refuses_a_pass, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session__oom_sweep, setup, teardown),
	};
	return cmocka_run_group_tests_name("session", tests, NULL, NULL);
}

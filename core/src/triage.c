/* SPDX-License-Identifier: MIT */
/*
 * triage.c - a folder of failing tests, one test per fault (triage.h): the job itself.
 *
 * One call does the whole job, in this order, each step in a file of its own:
 *
 *   triage_folder.c  the tests of DIR, OUT made (or recognised as tnorm's), claims.
 *   triage_record.c  a test's record: the result file, its JSON, read back by every pass.
 *   triage_work.c    a pass of worker threads over the tests, leases renewed meanwhile.
 *   triage_sample.c  which tests to minimize, round by round (sampled, issue 38).
 *   triage_polish.c  each distinct normal form polished once more (without a harness).
 *   triage_bucket.c  the buckets, their coverage split, the representatives.
 *   triage_report.c  report.json and report.html from the result (the caller renders them).
 *
 * The first pass runs each test once for its signature (by default: sampled, issue 38), and
 * triage_sample.c then plans which tests to minimize, round by round (a pass of the workers
 * each); with `thorough` the one pass minimizes every test with the pipeline.  The rest runs on
 * the calling thread: the polish, the buckets, their split by coverage, the tests left
 * unminimized assigned to the bucket of a minimized test of their key and stack
 * (triage_sample.c), and each representative generalized (the database makes a resumed job's
 * runs free), run once more for its own signature, with `explain` ranked by tnorm_why, and
 * written to OUT/buckets.  This file holds the options (their versions, the job's key that
 * decides which results are this job's, the database probed), the shards, the sampled rounds
 * and tnorm_triage_run, which strings them together.  The report is not written here: the
 * caller has it rendered from the result (tnorm_triage_report_finish, triage_output.c), so
 * triage_report.c and sarif.c do not call back.
 *
 * Without a harness (generic mode) the tests are any files of the folder (fuzzers' crash files:
 * triage_folder.c says which), minimized as bytes; their normal forms may hold any byte, so the
 * result files carry them exactly (hex beside the readable text), buckets compare lengths and
 * bytes, and each bucket's representative is written byte for byte to OUT/buckets/N-NAME.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tnorm/db.h"
#include "tnorm/generic.h"
#include "tnorm/harness.h"
#include "tnorm/triage.h"

#include "common.h"
#include "json.h"
#include "options.h"
#include "triage_internal.h"
#include "triage_sample.h"

void tnorm_triage_result_dispose(tnorm_triage_result *res)
{
	size_t i;
	if (!res)
		return;
	for (i = 0; res->tests && i < res->ntests; i++)
		tnorm__triage_test_dispose(&res->tests[i]);
	tnorm__triage_unmake_buckets(res);
	tnorm_free(res->tests);
	tnorm_free(res->corpus);
	tnorm_free(res->out);
	tnorm_free(res->warning);
	tnorm_free(res->folder);
	memset(res, 0, sizeof(*res));
}

/* ---- shards -------------------------------------------------------------------------------- */

unsigned tnorm_triage_shard_of(const char *name, unsigned shards)
{
	if (!name || shards <= 1)
		return 0;
	return (unsigned)(tnorm__hash64(name, strlen(name), 0x5eed5eedULL) % shards);
}

/* A decimal number of up to 9 digits at *p (advanced past it); -1 when there is none. */
static long shard_number(const char **p)
{
	long v = 0;
	int digits = 0;
	while (**p >= '0' && **p <= '9' && digits < 10) {
		v = v * 10 + (**p - '0');
		(*p)++;
		digits++;
	}
	return digits == 0 || digits > 9 ? -1 : v;
}

int tnorm_triage_shard_parse(const char *text, unsigned *shard, unsigned *shards)
{
	const char *p = text;
	long k, n;
	if (!text || !shard || !shards)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_shard_parse: NULL argument");
	k = shard_number(&p);
	if (k < 0 || *p++ != '/' || (n = shard_number(&p)) < 0 || *p)
		return tnorm__error_set(TNORM_EINVALID, "shard '%s': expected K/N, two numbers such as 1/4",
		                        text);
	/* 1-based, as Jest, Playwright and Vitest write it (issue 32, item 9): 1/3 .. 3/3.  0/N,
	 * the old 0-based spelling's first shard, is refused rather than read another way. */
	if (n < 1 || k < 1 || k > n)
		return tnorm__error_set(TNORM_EINVALID, "shard '%s': K must be 1..N (shards count from "
		                        "1: 1/%ld .. %ld/%ld)", text, n < 1 ? 1 : n, n < 1 ? 1 : n,
		                        n < 1 ? 1 : n);
	*shard = (unsigned)(k - 1);
	*shards = (unsigned)n;
	return 0;
}

/* ---- the job ------------------------------------------------------------------------------- */

/* The options as this version has them: an older struct (version 1 without shard, shards and
 * lease; version 2 without polish) is copied with those zero.  0, or TNORM_EINVALID for another version. */
static int take_options(const tnorm_triage_options *in, tnorm_triage_options *o)
{
	memset(o, 0, sizeof(*o));
	if (!in || in->version < 1 || in->version > TNORM_TRIAGE_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_run: options of another version");
	memcpy(o, in, in->version == 1   ? offsetof(tnorm_triage_options, shard)
	              : in->version == 2 ? offsetof(tnorm_triage_options, polish)
	              : in->version <= 4 ? offsetof(tnorm_triage_options, thorough)
	              : in->version == 5 ? offsetof(tnorm_triage_options, explain)
	                                 : sizeof(*o));
	/* Defaults (options.h): before version 4, a generalize of 0 was off. */
	if (in->version < 4 && !o->generalize)
		o->generalize = -1;
	o->generalize = o->generalize >= 0;
	if (!o->job.version) /* held in the triage's options: 0 is the current one */
		o->job.version = TNORM_PIPELINE_OPTIONS_VERSION;
	tnorm__pipeline_options_versions(&o->job);
	o->version = TNORM_TRIAGE_OPTIONS_VERSION;
	return 0;
}

/* The file's content hashed into b (or its name when it cannot be read: a program found on the
 * PATH); the hash, not the time it was built, so that machines with their own copies of one
 * program agree. */
static int put_file_hash(tnorm__buf *b, const char *path)
{
	char *text = NULL, hex[17];
	size_t len = 0;
	int err;
	if (tnorm_file_read(path, &text, &len) < 0) {
		tnorm_error_clear();
		return tnorm__buf_put(b, path, strlen(path) + 1);
	}
	tnorm__triage_hash_hex(text, len, hex);
	tnorm_free(text);
	if ((err = tnorm__buf_put(b, hex, sizeof(hex))) < 0)
		return err;
	return 0;
}

/* What the reduction and normalization passes give for a test: bumped with every change that
 * can give another result for the same input (revision 2: generic normalization's copies rule
 * and binary bytes, the chunk pass leaving calls alone; 3: the scan of short forms; 4: the target
 * keeps the message, issue 27; 5: merged abort sites trailed, the scan's class and swap passes;
 * 6: merged abort sites by a trap per check, at any run length),
 * so that finished results of an older tnorm in a shared database are not taken as this one's. */
#define TRIAGE_REVISION "6"

/* The options of every test's job that can change its outcome, defaults resolved (so that 0 and
 * the default it stands for give one key) and in a fixed order: the runs' (--timeout, whose 0 is
 * "derived from the confirm runs" and stays 0; --mem, --env in order, the --invalid-exit codes as
 * a set, the output kept, unwinding), the session's (--confirm, flaky, --max-time-per-test, the
 * run budget) and the reduction's and normalization's.  Not here: what cannot change a result —
 * the fork server and persistent mode (a failure is always a fresh process's, docs/driver.md),
 * -j, the database, the lease, the shard, the polish (its cache has its own key) and
 * generalization (done again by every run). */
static int put_outcome_options(tnorm__buf *b, const tnorm_pipeline_options *po, int generic)
{
	tnorm_run_options run = po->run;
	tnorm_session_options ses = po->session;
	tnorm_reduce_options red = po->reduce;
	tnorm_normalize_options nor = po->normalize;
	tnorm_generic_options gen = po->generic;
	const char *const *e;
	int codes[256] = {0}, err, c;
	size_t i;
	if (run.output_cap == 0)
		run.output_cap = 65536;
	tnorm__session_options_resolve(&ses);
	tnorm__reduce_options_resolve(&red, TNORM_ALGO_ADAPTIVE);
	tnorm__normalize_options_resolve(&nor);
	tnorm__reduce_options_resolve(&nor.reduce, TNORM_ALGO_DDMIN);
	tnorm__generic_options_resolve(&gen);
	if ((err = tnorm__buf_printf(b, "%ctimeout=%.17g%cmem=%llu%ccap=%zu%cunwind=%d%cenv", 1,
	                             run.timeout < 0 ? -1.0 : run.timeout, 1,
	                             (unsigned long long)run.mem_limit, 1, run.output_cap, 1,
	                             run.unwind >= 0, 1)) < 0)
		return err;
	for (e = run.env; e && *e; e++)
		if ((err = tnorm__buf_put(b, *e, strlen(*e) + 1)) < 0)
			return err;
	for (i = 0; i < run.ninvalid_exits && run.invalid_exits; i++)
		if (run.invalid_exits[i] >= 1 && run.invalid_exits[i] <= 255)
			codes[run.invalid_exits[i]] = 1;
	if ((err = tnorm__buf_printf(b, "%cinvalid", 1)) < 0)
		return err;
	for (c = 1; c <= 255; c++)
		if (codes[c] && (err = tnorm__buf_printf(b, " %d", c)) < 0)
			return err;
	if ((err = tnorm__buf_printf(b, "%cconfirm=%u flaky=%d runs=%llu time=%.17g", 1, ses.confirm,
	                             ses.allow_flaky, (unsigned long long)ses.max_runs,
	                             ses.max_time)) < 0 ||
	    (err = tnorm__buf_printf(b, "%creduce=%d,%d,%d,%llu", 1, (int)red.algo, red.prefix,
	                             red.slice, (unsigned long long)red.seed)) < 0 ||
	    (err = tnorm__buf_printf(b, "%cnormalize=%d,%u,%u,%u,%d,%d,%d,%d,%llu", 1, nor.wide,
	                             nor.max_alternatives, nor.max_edit,
	                             nor.max_reduce_alternatives, nor.rewire, (int)nor.reduce.algo,
	                             nor.reduce.prefix, nor.reduce.slice,
	                             (unsigned long long)nor.reduce.seed)) < 0)
		return err;
	if (generic)
		err = tnorm__buf_printf(b, "%cgeneric=%u,%d,%u,%zu", 1, gen.views, gen.chunks, gen.rules,
		                        gen.scan_full);
	return err;
}

/* The job's name in the database: "triage-HEX", a hash of all that decides a test's result,
 * the same on every machine that runs the same job with the same tnorm. */
static int job_key(const tnorm_triage_options *o, char key[40])
{
	const tnorm_pipeline_options *po = &o->job;
	tnorm__buf b = TNORM__BUF_INIT;
	const char *const *a;
	char hex[17];
	int err = tnorm__buf_printf(&b, "tnorm triage %s %s%c", TNORM_VERSION, TRIAGE_REVISION, 1);
	if (err == 0)
		err = o->harness ? put_file_hash(&b, o->harness) : tnorm__buf_put(&b, "-", 2);
	if (err == 0)
		err = put_file_hash(&b, o->argv[0]);
	for (a = o->argv; err == 0 && *a; a++)
		err = tnorm__buf_put(&b, *a, strlen(*a) + 1);
	if (err == 0 && po->session.fixed) {
		err = put_file_hash(&b, po->session.fixed[0]);
		for (a = po->session.fixed; err == 0 && *a; a++)
			err = tnorm__buf_put(&b, *a, strlen(*a) + 1);
	}
	if (err == 0)
		err = tnorm__buf_printf(&b, "%c%s%crules=%d%cstdin=%d", 1,
		                        po->session.match ? po->session.match : "line", 1,
		                        (int)po->normalize.rules, 1, po->run.use_stdin);
	if (err == 0)
		err = put_outcome_options(&b, po, !o->harness);
	if (err == 0) {
		tnorm__triage_hash_hex(b.ptr, b.len, hex);
		snprintf(key, 40, "triage-%s", hex);
	}
	tnorm__buf_dispose(&b);
	return err;
}

/* Keep the tests of this job's shard (all of them without shards). */
static void keep_shard(const tnorm_triage_options *o, tnorm_triage_result *res)
{
	size_t i, k = 0;
	res->total = res->ntests;
	for (i = 0; i < res->ntests; i++) {
		if (tnorm_triage_shard_of(res->tests[i].name, o->shards) == (o->shards > 1 ? o->shard : 0))
			res->tests[k++] = res->tests[i];
		else
			tnorm__triage_test_dispose(&res->tests[i]);
	}
	res->ntests = k;
}

/*
 * Whether the workers claim in the database: *use set to o->db when it opens.  One that cannot
 * be opened (read-only, corrupt, a server that does not answer) is a warning in res, and claims
 * are files, unless this is a shard (whose results must meet the others' there): an error.
 * Somebody else's database is refused (EINVALID) either way.
 */
static int probe_db(const tnorm_triage_options *o, tnorm_triage_result *res, const char **use)
{
	tnorm_db *db = NULL;
	int err;
	*use = NULL;
	if (!o->db)
		return 0;
	if ((err = tnorm_db_open(&db, o->db)) == 0) {
		tnorm_db_close(db);
		*use = o->db;
		return 0;
	}
	if (err != TNORM_EDB)
		return err;
	if (o->shards > 1)
		return tnorm__error_set(err, "shard %u/%u: the shards' results meet in the database: %s",
		                        o->shard + 1, o->shards, tnorm_error_last()->message);
	{
		tnorm__buf w = TNORM__BUF_INIT;
		if (tnorm__buf_printf(&w, "%s; going on without it (claims are files in the output "
		                      "folder)", tnorm_error_last()->message) < 0 ||
		    (res->warning && tnorm__buf_printf(&w, "; %s", res->warning) < 0)) {
			tnorm__buf_dispose(&w);
			return TNORM_ENOMEM;
		}
		tnorm_free(res->warning);
		if (!(res->warning = tnorm__buf_detach(&w))) {
			tnorm__buf_dispose(&w);
			return TNORM_ENOMEM;
		}
	}
	tnorm_error_clear();
	return 0;
}

static int check_options(const tnorm_triage_options *o)
{
	if (o->shards > 1 && o->shard >= o->shards)
		return tnorm__error_set(TNORM_EINVALID, "shard index %u of %u shards: it must be "
		                        "0..shards-1", o->shard, o->shards);
	if (o->shards > 1 && !o->db)
		return tnorm__error_set(TNORM_EINVALID, "shard %u/%u: shards need a database (--db URL) "
		                        "where their results meet", o->shard + 1, o->shards);
	if (o->lease > 86400)
		return tnorm__error_set(TNORM_EINVALID, "a lease of %u s is more than a day", o->lease);
	if (o->jobs > TNORM_MAX_JOBS)
		return tnorm__error_set(TNORM_EINVALID, "jobs: 1 to %d, not %u", TNORM_MAX_JOBS, o->jobs);
	if (!o->dir)
		return tnorm__error_set(TNORM_EINVALID, "triage needs a folder of failing tests");
	if (!o->argv || !o->argv[0])
		return tnorm__error_set(TNORM_EINVALID, "triage needs the command that runs a test");
	if (o->job.log || o->job.on_target || o->job.expect)
		return tnorm__error_set(TNORM_EINVALID,
		                        "triage: the job's log, on_target and expect must be NULL");
	return 0;
}

/* A sampled triage's rounds (triage_sample.c): after the checks, minimize what the plan asks
 * for, bucket the minimized tests (their coverage split included), and ask the plan again,
 * until it asks for nothing. */
static int sample(const tnorm_triage_options *o, triage_job *j, tnorm_triage_progress *p, double t0)
{
	tnorm_triage_result *res = j->res;
	unsigned char *want = tnorm__calloc(res->ntests + 1, 1);
	unsigned char *planned = tnorm__calloc(res->ntests + 1, 1);
	size_t n, i, total = p->total, fresh = p->fresh;
	unsigned round;
	int err = 0;
	if (!want || !planned) {
		tnorm_free(want);
		tnorm_free(planned);
		return TNORM_ENOMEM;
	}
	j->check = 0;
	for (round = 0;; round++) {
		/* Minimized is what this plan asked for: a test minimized by an earlier job (a thorough
		 * one, a shard's plan) is taken as checked, so that the buckets are those of a fresh
		 * job whatever the folder's history; its result still saves the runs when asked for. */
		for (i = 0; i < res->ntests; i++)
			if (!planned[i])
				res->tests[i].minimized = 0;
		memset(want, 0, res->ntests + 1);
		if (round > 0 && ((err = tnorm__triage_make_buckets(res)) < 0 ||
		                  (err = tnorm__triage_split_by_coverage(o, res)) < 0))
			break;
		n = tnorm__sample_plan(res, want);
		tnorm__triage_unmake_buckets(res);
		if (n == 0)
			break;
		for (i = 0; i < res->ntests; i++)
			planned[i] |= want[i];
		j->want = want;
		p->total = n;
		p->done = p->fresh = 0;
		if ((err = tnorm__triage_pass(j, p, t0)) < 0)
			break;
	}
	j->want = NULL;
	p->total = total;
	p->done = res->done;
	p->fresh = fresh;
	tnorm_free(want);
	tnorm_free(planned);
	if (err == TNORM_EINTERRUPTED && !strstr(tnorm_error_last()->message, "run "))
		err = tnorm__error_set(err, "interrupted while comparing executions; run again to "
		                       "finish");
	return err;
}

/* After the passes (and the polish): the buckets made (a shard stops there), split by
 * coverage, the tests left unminimized assigned, and the representatives generalized, run for
 * their own signature, explained and written to OUT/buckets. */
static int buckets(const tnorm_triage_options *o, tnorm_triage_result *res, gen_ctx *g,
                   tnorm_triage_progress *p)
{
	size_t b;
	int err;
	if ((err = tnorm__triage_make_buckets(res)) < 0 || o->shards > 1)
		return err; /* a shard's report is the unsharded job's (which polishes) */
	if ((err = tnorm__triage_split_by_coverage(o, res)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while comparing executions; run again "
		                                   "to finish")
		           : err;
	if ((err = tnorm__sample_assign(res)) < 0)
		return err;
	p->nbuckets = res->nbuckets;
	for (b = 0; b < res->nbuckets && o->generalize && o->harness; b++)
		if ((err = tnorm__triage_generalize_bucket(o, res, b, g)) < 0)
			return err == TNORM_EINTERRUPTED
			           ? tnorm__error_set(err, "interrupted while generalizing; run again to finish")
			           : err;
	if ((err = tnorm__triage_sign_representatives(o, res)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while running the representatives; run "
		                                   "again to finish")
		           : err;
	if ((err = tnorm__triage_explain_buckets(o, res)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while explaining the buckets; run again "
		                                   "to finish")
		           : err;
	if ((err = tnorm__triage_write_representatives(res)) < 0)
		return err;
	return 0;
}

int tnorm_triage_run(const tnorm_triage_options *given, tnorm_triage_result *res)
{
	tnorm_triage_options opts;
	const tnorm_triage_options *o = &opts;
	tnorm_triage_progress p;
	tnorm_harness *h = NULL;
	triage_job j;
	gen_ctx g;
	double t0 = tnorm__now();
	int err;

	if (!res)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_run: no result");
	memset(res, 0, sizeof(*res));
	memset(&j, 0, sizeof(j));
	memset(&p, 0, sizeof(p));
	if ((err = take_options(given, &opts)) < 0 || (err = check_options(o)) < 0)
		return err;
	/* A bad harness is one error now, rather than the same error for every test. */
	if (o->harness && (err = tnorm_harness_load(&h, o->harness)) < 0)
		return err;
	tnorm_harness_free(h);
	res->unit = o->harness ? "steps" : "bytes";
	if (!(res->corpus = tnorm__strdup(o->dir)) ||
	    !(res->out =
	          o->out ? tnorm__strdup(o->out) : tnorm__triage_path_of(o->dir, "triage", NULL)))
		return TNORM_ENOMEM;
	if ((err = tnorm__triage_find_tests(o, res)) < 0 ||
	    (err = tnorm__triage_make_dirs(res->folder, res->out)) < 0 ||
	    (err = probe_db(o, res, &j.dbpath)) < 0 || (err = job_key(o, j.jobkey)) < 0)
		return err;
	keep_shard(o, res);
	tnorm__triage_clear_claims(res->out);
	j.lease = (int)(o->lease ? o->lease : tnorm_db_is_url(o->db ? o->db : "") ? 30 : 5);

	p.total = res->ntests;
	p.jobs = o->jobs ? o->jobs : 1;
	p.out = res->out;
	p.event = TNORM_TRIAGE_EVENT_START;
	if (tnorm__triage_tell(o, &p, t0))
		return tnorm__error_set(TNORM_EINTERRUPTED, "interrupted: 0 of %zu tests done; run the "
		                        "same command again to resume", res->ntests);
	j.o = o;
	j.res = res;
	j.check = !o->thorough;
	pthread_mutex_init(&j.lock, NULL);
	pthread_cond_init(&j.cv, NULL);
	err = tnorm__triage_pass(&j, &p, t0);
	/* Sampled: the tests the plan asks for are minimized, round by round (a shard plans over
	 * its own tests: the report run plans over all of them again, and finds most of what it
	 * asks for done by the shards). */
	if (err == 0 && !o->thorough)
		err = sample(o, &j, &p, t0);
	pthread_mutex_destroy(&j.lock);
	pthread_cond_destroy(&j.cv);
	tnorm_free(j.errmsg);
	if (err < 0)
		return err;

	g.o = o;
	g.p = &p;
	g.t0 = t0;
	if (o->shards <= 1 && (err = tnorm__triage_polish(o, res, j.jobkey, &g)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while polishing normal forms; run again "
		                                   "to finish")
		           : err;
	if ((err = buckets(o, res, &g, &p)) < 0)
		return err;
	res->complete = 1;
	return 0;
}

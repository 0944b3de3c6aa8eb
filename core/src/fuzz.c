/* SPDX-License-Identifier: MIT */
/*
 * fuzz.c - random testing from a harness (fuzz.h): seed after seed, a well-formed random test is
 * run once, and each failing one is kept in the corpus folder with its signature.
 *
 * It lived in the CLI (cmd_fuzz.c) until issue 31: a loop only a command can run cannot be run
 * from gdb.  Here it only counts and writes the corpus; what a person sees of it (a progress
 * line, the summary, why runs were invalid) is the caller's, through the progress callback and
 * the result.  One runner serves every run, so the fork server (when the program is a tnorm
 * driver) starts once.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common.h"
#include "tnorm/fuzz.h"
#include "tnorm/test.h"

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void tnorm_fuzz_result_dispose(tnorm_fuzz_result *r)
{
	size_t i;
	if (!r)
		return;
	for (i = 0; i < r->nsignatures; i++)
		tnorm_free(r->signatures[i].signature);
	tnorm_free(r->signatures);
	tnorm_free(r->invalid_reason);
	memset(r, 0, sizeof(*r));
}

/* Count a failure with signature `sig`: its entry (made at its first seed) gets one more.
 * *isnew says whether it was made now.  0 or TNORM_ENOMEM. */
static int count_signature(tnorm_fuzz_result *r, const char *sig, unsigned long long seed,
                           int *isnew)
{
	tnorm_fuzz_signature *n;
	size_t s;
	for (s = 0; s < r->nsignatures; s++)
		if (!strcmp(r->signatures[s].signature, sig))
			break;
	*isnew = s == r->nsignatures;
	if (*isnew) {
		if (!(n = tnorm__reallocarray(r->signatures, r->nsignatures + 1, sizeof(*n))))
			return TNORM_ENOMEM;
		r->signatures = n;
		n[s].count = 0;
		n[s].first_seed = seed;
		if (!(n[s].signature = tnorm__strdup(sig)))
			return TNORM_ENOMEM;
		r->nsignatures++;
	}
	r->signatures[s].count++;
	return 0;
}

/* Keep a failing test: DIR/fail-SEED.t (its text) and DIR/fail-SEED.sig (its signature and a
 * newline), each written atomically; *path receives the test's path (tnorm_free). */
static int keep_failure(const char *dir, unsigned long long seed, const char *text, size_t len,
                        const char *sig, char **path)
{
	tnorm__buf p = TNORM__BUF_INIT, line = TNORM__BUF_INIT;
	int err;
	*path = NULL;
	if ((err = tnorm__buf_printf(&p, "%s/fail-%llu.t", dir, seed)) < 0 ||
	    (err = tnorm_file_write_atomic(p.ptr, text, len)) < 0)
		goto done;
	*path = tnorm__buf_detach(&p);
	if (!*path) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if ((err = tnorm__buf_printf(&p, "%s/fail-%llu.sig", dir, seed)) < 0 ||
	    (err = tnorm__buf_printf(&line, "%s\n", sig)) < 0)
		goto done;
	err = tnorm_file_write_atomic(p.ptr, line.ptr, line.len);
done:
	tnorm__buf_dispose(&p);
	tnorm__buf_dispose(&line);
	return err;
}

/* Run the test of one seed and count it; a failing test is kept and reported with its path. */
static int run_seed(const tnorm_fuzz_options *o, const tnorm_harness *h, tnorm_runner *runner,
                    unsigned long long seed, size_t steps, tnorm_fuzz_result *r, double start)
{
	tnorm_fuzz_progress p;
	tnorm_test *t = NULL;
	tnorm_run_result res;
	char *text = NULL, *sig = NULL, *path = NULL;
	size_t len = 0;
	int err;

	memset(&res, 0, sizeof(res));
	memset(&p, 0, sizeof(p));
	if ((err = tnorm_test_generate(&t, h, steps, seed)) < 0 ||
	    (err = tnorm_test_format(t, &text, &len)) < 0 ||
	    (err = tnorm_runner_run(runner, text, len, &res)) < 0)
		goto done;
	r->runs++;
	if (res.outcome == TNORM_OUTCOME_ERROR) {
		err = tnorm__error_set(TNORM_ERROR, "%s", res.message);
		goto done;
	}
	if (res.outcome == TNORM_OUTCOME_INVALID && !r->invalid++) {
		r->invalid_seed = seed;
		if (!(r->invalid_reason = tnorm__strdup(res.message[0] ? res.message
		                                                       : "no reason given"))) {
			err = TNORM_ENOMEM;
			goto done;
		}
	}
	if (res.outcome == TNORM_OUTCOME_TIMEOUT)
		r->timeouts++;
	if (res.outcome == TNORM_OUTCOME_FAIL && res.sig) {
		r->failing++;
		if ((err = tnorm_signature_format(res.sig, 0, &sig)) < 0 ||
		    (err = keep_failure(o->dir, seed, text, len, sig, &path)) < 0 ||
		    (err = count_signature(r, sig, seed, &p.new_signature)) < 0)
			goto done;
	}
	r->elapsed = mono() - start;
	p.event = TNORM_FUZZ_EVENT_RUN;
	p.seed = seed;
	p.outcome = res.outcome;
	p.signature = path ? sig : NULL;
	p.path = path;
	p.so_far = r;
	if (o->progress && o->progress(o->progress_ctx, &p))
		err = tnorm__error_set(TNORM_EINTERRUPTED, "interrupted");
done:
	tnorm_test_free(t);
	tnorm_free(text);
	tnorm_free(sig);
	tnorm_free(path);
	tnorm_run_result_dispose(&res);
	return err;
}

static int check_options(const tnorm_fuzz_options *o)
{
	if (!o || !o->harness || !o->dir || !o->argv || !o->argv[0])
		return tnorm__error_set(TNORM_EINVALID, "tnorm_fuzz_run: missing harness, folder or "
		                        "command");
	if (o->version != TNORM_FUZZ_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_fuzz_run: options version %u, expected "
		                        "%u (rebuild against this tnorm)", o->version,
		                        TNORM_FUZZ_OPTIONS_VERSION);
	if (o->runs == 0 && o->max_time <= 0)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_fuzz_run: no limit on the runs needs a "
		                        "time budget (max_time)");
	return 0;
}

int tnorm_fuzz_run(const tnorm_fuzz_options *o, tnorm_fuzz_result *r)
{
	tnorm_run_options ro;
	tnorm_harness *h = NULL;
	tnorm_runner *runner = NULL;
	unsigned long long i;
	size_t steps;
	double start;
	int err;

	if (!r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_fuzz_run: NULL argument");
	memset(r, 0, sizeof(*r));
	if ((err = check_options(o)) < 0)
		return err;
	steps = o->steps ? (size_t)o->steps : 100;
	if ((err = tnorm_harness_load(&h, o->harness)) < 0)
		goto done;
	if (o->progress) {
		tnorm_fuzz_progress p;
		memset(&p, 0, sizeof(p));
		p.event = TNORM_FUZZ_EVENT_START;
		p.so_far = r;
		if (o->progress(o->progress_ctx, &p)) {
			err = tnorm__error_set(TNORM_EINTERRUPTED, "interrupted");
			goto done;
		}
	}
	if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot create", o->dir);
		goto done;
	}
	ro = o->run;
	if (!ro.version)
		ro.version = TNORM_RUN_OPTIONS_VERSION; /* held in another struct: 0 is the current one */
	ro.suffix = ".t";
	if ((err = tnorm_runner_new(&runner, o->argv, &ro)) < 0)
		goto done;
	if (o->cancel)
		tnorm_runner_set_cancel(runner, o->cancel);
	start = mono();
	for (i = 0; (o->runs == 0 || i < o->runs) && !(o->cancel && *o->cancel) &&
	            (o->max_failures == 0 || r->failing < o->max_failures);
	     i++) {
		if (o->max_time > 0 && mono() - start > o->max_time)
			break;
		if ((err = run_seed(o, h, runner, o->seed + i, steps, r, start)) < 0)
			break;
	}
	r->elapsed = mono() - start;
	/* A stop between runs is a stop too: the caller asked for it. */
	if (err == 0 && o->cancel && *o->cancel)
		err = tnorm__error_set(TNORM_EINTERRUPTED, "interrupted");
done:
	tnorm_runner_free(runner);
	tnorm_harness_free(h);
	return err;
}

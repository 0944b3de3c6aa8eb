/* SPDX-License-Identifier: MIT */
/*
 * session.c - the run-driven oracle: confirm, calibrate, cache, budgets, best-so-far, slippage.
 *
 * Everything that reduction and normalization learn from running the program passes through
 * tnorm_session_check(), so the guarantees live in one place: the same bytes never run twice
 * (an open-addressing table keyed by two independent 64-bit hashes of the content), every run is
 * classified (same failure, other failure, pass, timeout, invalid), a better candidate is on disk
 * before the next run starts, and the smallest test of every other failure is kept.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common.h"
#include "model.h"
#include "options.h"
#include "tnorm/session.h"

typedef struct {
	uint64_t h1, h2;
	unsigned char used, interesting;
} slot;

typedef struct {
	char *sig;   /* the slipped failure's signature text */
	char *data;  /* its smallest test */
	size_t len;
	char *path;  /* where it was written, or NULL */
} slip;

struct tnorm_session {
	tnorm_runner *runner;
	tnorm_runner *fixed; /* the fixed program (the differential oracle), or NULL */
	tnorm_run_options run;
	tnorm_session_options o;
	tnorm_match *match;
	tnorm_signature *target;
	int stable;
	slot *cache;
	size_t cap, used;
	char *best;
	size_t best_len;
	int have_best;
	slip *slips;
	size_t nslips;
	char *target_text;  /* the target as printed (for the look-alike guard), made at first use */
	uint64_t lookalikes; /* failures that print as the target does but did not match it */
	uint64_t runs, accepted, hits;
	double child_cpu, run_wall;
	tnorm_db *db;
	uint64_t db_ctx;
	double start;
	const char *phase;
	/* Parallel checks (tnorm_session_check_many): the program's argv, the timeout in force, and
	 * one runner per extra worker, created on first use. */
	char **argv;
	double timeout;
	int derive_timeout; /* the run options' timeout was 0: derived from the confirm runs */
	unsigned jobs;
	tnorm_runner **workers;
	unsigned nworkers;
	/* The candidates' texts (tnorm_session_test_oracle uses the first), kept from call to call:
	 * a long test's text is megabytes, formatted once per candidate. */
	tnorm__buf *texts;
	size_t ntexts;
};

static void set_timeout(tnorm_session *s, double t)
{
	s->timeout = t;
	tnorm_runner_set_timeout(s->runner, t);
	if (s->fixed)
		tnorm_runner_set_timeout(s->fixed, t);
}

static int remember(tnorm_session *s, uint64_t h1, uint64_t h2, int interesting);

void tnorm__session_options_resolve(tnorm_session_options *o)
{
	if (!o->confirm)
		o->confirm = 3;
}

int tnorm_session_new(tnorm_session **out, const char *const *argv, const tnorm_run_options *run,
                      const tnorm_session_options *o)
{
	tnorm_run_options rdef = TNORM_RUN_OPTIONS_INIT;
	tnorm_session_options sdef = TNORM_SESSION_OPTIONS_INIT;
	tnorm_session *s;
	int err;
	if (!out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_new: NULL argument");
	*out = NULL;
	if (o && o->version != TNORM_SESSION_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_new: options version %u, expected "
		                        "%u", o->version, TNORM_SESSION_OPTIONS_VERSION);
	/* Checked before the copy below: a struct of another version has another size. */
	if (run && run->version != TNORM_RUN_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_new: run options version %u, "
		                        "expected %u", run->version, TNORM_RUN_OPTIONS_VERSION);
	if (!(s = tnorm__calloc(1, sizeof(*s))))
		return TNORM_ENOMEM;
	s->run = run ? *run : rdef;
	s->o = o ? *o : sdef;
	tnorm__session_options_resolve(&s->o);
	s->phase = "reduce";
	s->start = tnorm__now();
	s->cap = 1024;
	if (!(s->cache = tnorm__calloc(s->cap, sizeof(*s->cache)))) {
		tnorm_session_free(s);
		return TNORM_ENOMEM;
	}
	s->jobs = 1;
	/* Until the confirm runs derive it, a timeout of 0 is none (the runners' 0 is 10 s). */
	s->derive_timeout = s->run.timeout == 0;
	if (s->run.timeout == 0)
		s->run.timeout = -1;
	s->timeout = s->run.timeout > 0 ? s->run.timeout : 0;
	if ((err = tnorm_match_parse(&s->match, s->o.match ? s->o.match : "line")) < 0 ||
	    (err = tnorm_runner_new(&s->runner, argv, &s->run)) < 0) {
		tnorm_session_free(s);
		return err;
	}
	tnorm_runner_set_cancel(s->runner, s->o.cancel);
	if (s->o.fixed) {
		/* Only its exit status counts: no tracing, no unwinding. */
		tnorm_run_options fr = s->run;
		fr.unwind = -1;
		if (!s->o.fixed[0]) {
			tnorm_session_free(s);
			return tnorm__error_set(TNORM_EINVALID, "the fixed program's command is empty");
		}
		if ((err = tnorm_runner_new(&s->fixed, s->o.fixed, &fr)) < 0) {
			tnorm_session_free(s);
			return err;
		}
		tnorm_runner_set_cancel(s->fixed, s->o.cancel);
	}
	{
		size_t n = 0, i;
		while (argv[n])
			n++;
		if (!(s->argv = tnorm__calloc(n + 1, sizeof(*s->argv)))) {
			tnorm_session_free(s);
			return TNORM_ENOMEM;
		}
		for (i = 0; i < n; i++)
			if (!(s->argv[i] = tnorm__strdup(argv[i]))) {
				tnorm_session_free(s);
				return TNORM_ENOMEM;
			}
	}
	*out = s;
	return 0;
}

void tnorm_session_free(tnorm_session *s)
{
	size_t i;
	if (!s)
		return;
	tnorm_runner_free(s->runner);
	tnorm_runner_free(s->fixed);
	for (i = 0; i < s->nworkers; i++)
		tnorm_runner_free(s->workers[i]);
	free(s->workers);
	for (i = 0; s->argv && s->argv[i]; i++)
		free(s->argv[i]);
	free(s->argv);
	tnorm_match_free(s->match);
	tnorm_signature_free(s->target);
	free(s->cache);
	free(s->best);
	for (i = 0; i < s->nslips; i++) {
		free(s->slips[i].sig);
		free(s->slips[i].data);
		free(s->slips[i].path);
	}
	free(s->slips);
	free(s->target_text);
	for (i = 0; i < s->ntexts; i++)
		tnorm__buf_dispose(&s->texts[i]);
	free(s->texts);
	free(s);
}

void tnorm_session_observe(tnorm_session *s, tnorm_run_observer fn, void *ctx)
{
	if (!s)
		return;
	s->o.observe = fn;
	s->o.observe_ctx = ctx;
}

void tnorm_session_set_phase(tnorm_session *s, const char *phase)
{
	if (s && phase)
		s->phase = phase;
}

const char *tnorm__run_describe(const tnorm_run_result *r, char *buf, size_t size)
{
	switch (r->outcome) {
	case TNORM_OUTCOME_PASS: return "it passes (exit 0)";
	case TNORM_OUTCOME_TIMEOUT: snprintf(buf, size, "it times out (%s)", r->message); return buf;
	case TNORM_OUTCOME_INVALID:
		snprintf(buf, size, "the program calls it invalid (exit %d)", r->exit_code);
		return buf;
	case TNORM_OUTCOME_ERROR: snprintf(buf, size, "%s", r->message); return buf;
	default:
		if (r->exit_code > 0)
			snprintf(buf, size, "it fails (exit %d)", r->exit_code);
		else if (r->signo > 0 && sigabbrev_np(r->signo))
			snprintf(buf, size, "it fails (SIG%s)", sigabbrev_np(r->signo));
		else
			snprintf(buf, size, "it fails");
		return buf;
	}
}

/*
 * Run `data` on the fixed program: *passes is 1 when it exits 0.  TNORM_ERROR when the fixed
 * program cannot be started; `why` (may be NULL) receives what happened otherwise.
 */
/* A run stopped by the cancel flag (TNORM_EINTERRUPTED from the runner, whose message may be
 * another thread's): the session's own message.  Other codes pass through. */
static int stopped(int err)
{
	if (err == TNORM_EINTERRUPTED)
		return tnorm__error_set(err, "interrupted; the best result so far is kept");
	return err;
}

static int run_fixed(tnorm_session *s, const void *data, size_t len, int *passes, char *why,
                     size_t whysize, double *wall)
{
	tnorm_run_result res;
	char tmp[300];
	int err;
	*passes = 0;
	memset(&res, 0, sizeof(res));
	if ((err = tnorm_runner_run(s->fixed, data, len, &res)) < 0)
		return stopped(err);
	s->child_cpu += res.child_cpu;
	s->run_wall += res.wall;
	if (wall)
		*wall = res.wall;
	if (res.outcome == TNORM_OUTCOME_ERROR)
		err = tnorm__error_set(TNORM_ERROR, "the fixed program: %s", res.message);
	*passes = res.outcome == TNORM_OUTCOME_PASS;
	if (why)
		snprintf(why, whysize, "%s", tnorm__run_describe(&res, tmp, sizeof(tmp)));
	tnorm_run_result_dispose(&res);
	return err;
}

/*
 * The confirm runs of tnorm_session_confirm: `data` run s->o.confirm times.  Each failure that
 * meets the match policy has its signature in sigs[*nfail] (owned by the caller); *nunmatched
 * counts the failures the policy refused; `why` says what the last run that did not count did;
 * *slowest is the longest run's wall time.  0, or the error that stopped the runs.
 */
static int confirm_runs(tnorm_session *s, const void *data, size_t len, tnorm_signature **sigs,
                        unsigned *nfail, unsigned *nunmatched, double *slowest, char *why,
                        size_t whysize)
{
	tnorm_run_result res;
	unsigned i, n = s->o.confirm;
	int err = 0;
	memset(&res, 0, sizeof(res));
	for (i = 0; i < n; i++) {
		if (s->o.cancel && *s->o.cancel) {
			err = tnorm__error_set(TNORM_EINTERRUPTED, "interrupted while confirming the failure");
			break;
		}
		if ((err = tnorm_runner_run(s->runner, data, len, &res)) < 0) {
			if (err == TNORM_EINTERRUPTED)
				tnorm__error_set(err, "interrupted while confirming the failure");
			break;
		}
		s->runs++;
		s->child_cpu += res.child_cpu;
		s->run_wall += res.wall;
		if (res.wall > *slowest)
			*slowest = res.wall;
		if (res.outcome == TNORM_OUTCOME_ERROR) {
			err = tnorm__error_set(TNORM_ERROR, "%s", res.message);
			break;
		}
		/* A failure counts when it meets the policy on its own: output:REGEX asks something of
		 * the run itself (the other policies compare with the target these runs make). */
		if (res.outcome == TNORM_OUTCOME_FAIL && res.sig &&
		    !tnorm_match_test(s->match, res.sig, res.sig, res.out, res.err)) {
			char tmp[300];
			(*nunmatched)++;
			snprintf(why, whysize, "%s, but its output (stdout and stderr) does not match "
			         "--match %s", tnorm__run_describe(&res, tmp, sizeof(tmp)), s->o.match);
		} else if (res.outcome == TNORM_OUTCOME_FAIL && res.sig) {
			sigs[(*nfail)++] = res.sig;
			res.sig = NULL;
		} else {
			char tmp[300];
			snprintf(why, whysize, "%s", tnorm__run_describe(&res, tmp, sizeof(tmp)));
		}
		tnorm_run_result_dispose(&res);
	}
	tnorm_run_result_dispose(&res);
	return err;
}

int tnorm_session_confirm(tnorm_session *s, const void *data, size_t len)
{
	tnorm_signature **sigs = NULL;
	unsigned i, nfail = 0, nunmatched = 0, n;
	double slowest = 0;
	char why[300], *text = NULL;
	int err = 0;
	if (!s || (!data && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_confirm: NULL argument");
	n = s->o.confirm;
	if (!(sigs = tnorm__calloc(n, sizeof(*sigs))))
		return TNORM_ENOMEM;
	/* The original may be slow: the confirm runs get a generous limit unless one was set (or
	 * none: a negative timeout). */
	if (s->derive_timeout)
		set_timeout(s, 300);
	if ((err = confirm_runs(s, data, len, sigs, &nfail, &nunmatched, &slowest, why,
	                        sizeof(why))) < 0)
		goto done;
	if (nfail == 0 && nunmatched == n) {
		err = tnorm__error_set(TNORM_ENOTFAIL, "the original test does not fail as the match "
		                       "policy asks: %s", why);
		goto done;
	}
	if (nfail == 0) {
		err = tnorm__error_set(TNORM_ENOTFAIL, "the original test does not fail: %s", why);
		goto done;
	}
	if (nfail < n && !s->o.allow_flaky) {
		err = tnorm__error_set(TNORM_EFLAKY, "the original test fails in only %u of %u runs (the "
		                       "other runs: %s); use --allow-flaky to reduce it anyway", nfail, n,
		                       why);
		goto done;
	}
	if (s->fixed) {
		int passes = 0;
		double wall = 0;
		if ((err = run_fixed(s, data, len, &passes, why, sizeof(why), &wall)) < 0) {
			if (err == TNORM_EINTERRUPTED)
				tnorm__error_set(err, "interrupted while confirming the failure");
			goto done;
		}
		if (wall > slowest)
			slowest = wall;
		if (!passes) {
			err = tnorm__error_set(TNORM_ENOTFAIL, "the original test does not pass on the fixed "
			                       "program (--fixed): %s; a candidate must fail on the program "
			                       "and pass on the fixed one", why);
			goto done;
		}
	}
	if ((err = tnorm_signature_calibrate(&s->target, &s->stable, sigs, nfail)) < 0)
		goto done;
	if (s->derive_timeout) {
		double t = slowest * 10;
		set_timeout(s, t < 1 ? 1 : t);
	} else if (s->run.timeout > 0) {
		set_timeout(s, s->run.timeout);
	}
	s->best_len = len;
	if (!(s->best = tnorm__malloc(len + 1))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	memcpy(s->best, data, len);
	s->best[len] = '\0';
	s->have_best = 1;
	/* The original is interesting: remember it so that no pass runs it again. */
	{
		uint64_t h1, h2;
		tnorm__hash64_pair(data, len, TNORM__H1_SEED, TNORM__H2_SEED, &h1, &h2);
		err = remember(s, h1, h2 ^ len, 1);
	}
done:
	for (i = 0; i < nfail; i++)
		tnorm_signature_free(sigs[i]);
	free(sigs);
	tnorm_free(text);
	return err;
}

int tnorm_session_set_target(tnorm_session *s, const tnorm_signature *target)
{
	if (!s || !target)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_set_target: NULL argument");
	tnorm_signature_free(s->target);
	s->target = NULL;
	s->stable = 1;
	if (s->run.timeout > 0)
		set_timeout(s, s->run.timeout);
	return tnorm_signature_dup(&s->target, target);
}

const tnorm_signature *tnorm_session_target(const tnorm_session *s, int *stable)
{
	if (stable)
		*stable = s ? s->stable : 0;
	return s ? s->target : NULL;
}

static slot *lookup(tnorm_session *s, uint64_t h1, uint64_t h2)
{
	size_t i = (size_t)(h1 & (s->cap - 1));
	while (s->cache[i].used && (s->cache[i].h1 != h1 || s->cache[i].h2 != h2))
		i = (i + 1) & (s->cap - 1);
	return &s->cache[i];
}

static int remember(tnorm_session *s, uint64_t h1, uint64_t h2, int interesting)
{
	slot *e;
	if ((s->used + 1) * 2 > s->cap) {
		slot *old = s->cache;
		size_t oldcap = s->cap, i;
		slot *n = tnorm__calloc(oldcap * 2, sizeof(*n));
		if (!n)
			return TNORM_ENOMEM;
		s->cache = n;
		s->cap = oldcap * 2;
		for (i = 0; i < oldcap; i++)
			if (old[i].used)
				*lookup(s, old[i].h1, old[i].h2) = old[i];
		free(old);
	}
	e = lookup(s, h1, h2);
	if (!e->used)
		s->used++;
	e->used = 1;
	e->h1 = h1;
	e->h2 = h2;
	e->interesting = (unsigned char)interesting;
	return 0;
}

/* Shorter first, then bytewise: the order in which a candidate counts as better. */
static int better(const char *a, size_t alen, const char *b, size_t blen)
{
	int c;
	if (alen != blen)
		return alen < blen;
	c = memcmp(a, b, alen);
	return c < 0;
}

static int note_slip(tnorm_session *s, const tnorm_signature *sig, const char *data, size_t len)
{
	char *text = NULL;
	size_t i;
	int err;
	slip *sl = NULL;
	/* Slipped failures are told apart as the default policy tells failures apart (its key: the
	 * kind, the throwing frame, and where they count the call site, free site and message). */
	{
		tnorm_match *line = NULL;
		if ((err = tnorm_match_parse(&line, "line")) < 0)
			return err;
		err = tnorm_match_key(line, sig, &text);
		tnorm_match_free(line);
		if (err < 0)
			return err;
	}
	for (i = 0; i < s->nslips; i++)
		if (!strcmp(s->slips[i].sig, text)) {
			sl = &s->slips[i];
			break;
		}
	if (sl) {
		free(text);
		if (!better(data, len, sl->data, sl->len))
			return 0;
		free(sl->data);
		sl->data = NULL;
	} else {
		slip *n = tnorm__reallocarray(s->slips, s->nslips + 1, sizeof(*n));
		if (!n) {
			free(text);
			return TNORM_ENOMEM;
		}
		s->slips = n;
		sl = &s->slips[s->nslips++];
		memset(sl, 0, sizeof(*sl));
		sl->sig = text;
	}
	if (!(sl->data = tnorm__malloc(len + 1)))
		return TNORM_ENOMEM;
	memcpy(sl->data, data, len);
	sl->data[len] = '\0';
	sl->len = len;
	if (s->o.slipped_dir) {
		tnorm__buf p = TNORM__BUF_INIT;
		size_t idx = (size_t)(sl - s->slips) + 1;
		if (mkdir(s->o.slipped_dir, 0755) < 0 && errno != EEXIST)
			return tnorm__error_errno(TNORM_EIO, "%s: cannot create", s->o.slipped_dir);
		if ((err = tnorm__buf_printf(&p, "%s/slip-%zu.sig", s->o.slipped_dir, idx)) < 0)
			return err;
		{
			tnorm__buf t = TNORM__BUF_INIT;
			if ((err = tnorm__buf_printf(&t, "%s\n", sl->sig)) == 0)
				err = tnorm__write_file_atomic(p.ptr, t.ptr, t.len);
			tnorm__buf_dispose(&t);
		}
		p.len -= 4;
		if (err == 0)
			err = tnorm__buf_puts(&p, ".t");
		if (err == 0)
			err = tnorm__write_file_atomic(p.ptr, sl->data, sl->len);
		if (err == 0 && !sl->path)
			sl->path = tnorm__buf_detach(&p);
		tnorm__buf_dispose(&p);
		if (err < 0)
			return err;
	}
	return 0;
}

static int report(tnorm_session *s)
{
	tnorm_progress p;
	int rc;
	if (!s->o.progress)
		return 0;
	tnorm_session_stats(s, &p);
	if ((rc = s->o.progress(s->o.progress_ctx, &p)) < 0)
		return tnorm__error_set(rc, rc == TNORM_EINTERRUPTED
		                                ? "interrupted; the best result so far is kept"
		                                : "stopped by the progress callback");
	return 0;
}

/*
 * Before a run: answer from the cache or the database (*answered = 1, *yes), or check that the
 * budgets and the cancel flag allow one more run.
 */
static int pre_check(tnorm_session *s, const void *data, size_t len, uint64_t h1, uint64_t h2,
                     int *answered, int *yes)
{
	slot *e = lookup(s, h1, h2);
	int err;
	*answered = 0;
	*yes = 0;
	if (e->used) {
		s->hits++;
		*answered = 1;
		*yes = e->interesting;
		return 0;
	}
	if (s->db) {
		int found = 0, was = 0;
		/* h2 is the key's second hash xor the length (the database keeps them apart). */
		if ((err = tnorm__db_get_outcome_hashed(s->db, s->db_ctx, h1, h2 ^ len, len, &found,
		                                        &was)) < 0)
			return err;
		if (found) {
			s->hits++;
			*answered = 1;
			*yes = was;
			return remember(s, h1, h2, was);
		}
	}
	if (s->o.cancel && *s->o.cancel)
		return tnorm__error_set(TNORM_EINTERRUPTED, "interrupted; the best result so far is kept");
	if (s->o.max_runs && s->runs >= s->o.max_runs)
		return tnorm__error_set(TNORM_ETIMEOUT, "the run budget (%llu runs) is used up; the best "
		                        "result so far is kept", (unsigned long long)s->o.max_runs);
	if (s->o.max_time > 0 && tnorm__now() - s->start > s->o.max_time)
		return tnorm__error_set(TNORM_ETIMEOUT, "the time budget (%g s) is used up; the best "
		                        "result so far is kept", s->o.max_time);
	return 0;
}

/*
 * The look-alike guard.  A failure that the policy calls another failure than the target's,
 * though it prints exactly as the target does, is not a slip a user can see: when the first
 * LOOKALIKE_LIMIT failures of a reduction are all such and none matched, the comparison is
 * broken (a bug of tnorm's: the radix-tree case of issue 27, where the target lacked a message
 * every candidate had, ran 6,134 runs and removed nothing).  The reduction stops and says so.
 */
#define LOOKALIKE_LIMIT 20

static int lookalike(tnorm_session *s, const tnorm_signature *sig)
{
	char *text = NULL;
	int same, kind = tnorm_match_get_kind(s->match);
	if (kind != TNORM_MATCH_LINE && kind != TNORM_MATCH_STACK)
		return 0;
	if (!s->target_text && tnorm_signature_format(s->target, 0, &s->target_text) < 0)
		return 0;
	if (tnorm_signature_format(sig, 0, &text) < 0)
		return 0;
	same = !strcmp(text, s->target_text);
	tnorm_free(text);
	if (!same || ++s->lookalikes < LOOKALIKE_LIMIT || s->accepted)
		return 0;
	return tnorm__error_set(TNORM_ERROR, "stopped: %llu failures print as the target "
	                        "does (%s) but did not match it, and none matched: tnorm's signature "
	                        "comparison is at fault, not the test (please report it with the "
	                        "test and the program)", (unsigned long long)s->lookalikes,
	                        s->target_text);
}

/* After a run: classify it, remember it, keep the best and the slipped, report progress. */
static int judge(tnorm_session *s, const void *data, size_t len, uint64_t h1, uint64_t h2,
                 const tnorm_run_result *res, int *interesting)
{
	int err = 0, yes = 0;
	s->runs++;
	s->child_cpu += res->child_cpu;
	s->run_wall += res->wall;
	if (res->outcome == TNORM_OUTCOME_ERROR)
		return tnorm__error_set(TNORM_ERROR, "%s", res->message);
	if (res->outcome == TNORM_OUTCOME_FAIL) {
		yes = tnorm_match_test(s->match, s->target, res->sig, res->out, res->err);
		if (!yes && res->sig && (err = note_slip(s, res->sig, data, len)) < 0)
			return err;
		if (!yes && res->sig && (err = lookalike(s, res->sig)) < 0)
			return err;
		/* The differential oracle: the same failure counts only if the fixed program passes. */
		if (yes && s->fixed && (err = run_fixed(s, data, len, &yes, NULL, 0, NULL)) < 0)
			return err;
	}
	if ((err = remember(s, h1, h2, yes)) < 0)
		return err;
	if (s->o.observe)
		s->o.observe(s->o.observe_ctx, data, len, res->outcome, yes);
	/* Timeouts and invalid runs may depend on the machine's load: only clear answers persist. */
	if (s->db && (res->outcome == TNORM_OUTCOME_FAIL || res->outcome == TNORM_OUTCOME_PASS) &&
	    (err = tnorm__db_put_outcome_hashed(s->db, s->db_ctx, h1, h2 ^ len, len, yes)) < 0)
		return err;
	if (yes) {
		s->accepted++;
		if (!s->have_best || better(data, len, s->best, s->best_len)) {
			char *copy = tnorm__malloc(len + 1);
			if (!copy)
				return TNORM_ENOMEM;
			memcpy(copy, data, len);
			copy[len] = '\0';
			free(s->best);
			s->best = copy;
			s->best_len = len;
			s->have_best = 1;
			if (s->o.out_path && (err = tnorm__write_file_atomic(s->o.out_path, data, len)) < 0)
				return err;
		}
	}
	*interesting = yes;
	return report(s);
}

int tnorm_session_check(tnorm_session *s, const void *data, size_t len, int *interesting)
{
	uint64_t h1, h2;
	tnorm_run_result res;
	int err = 0, answered = 0, yes = 0;

	if (!s || !interesting || (!data && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_check: NULL argument");
	*interesting = 0;
	if (!s->target)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_check: no target (confirm first)");
	tnorm__hash64_pair(data, len, TNORM__H1_SEED, TNORM__H2_SEED, &h1, &h2);
	h2 ^= len;
	if ((err = pre_check(s, data, len, h1, h2, &answered, &yes)) < 0 || answered) {
		*interesting = yes;
		return err;
	}
	memset(&res, 0, sizeof(res));
	if ((err = stopped(tnorm_runner_run(s->runner, data, len, &res))) == 0)
		err = judge(s, data, len, h1, h2, &res, interesting);
	tnorm_run_result_dispose(&res);
	return err;
}

void tnorm_session_set_jobs(tnorm_session *s, unsigned jobs)
{
	if (s)
		s->jobs = jobs ? jobs : 1;
}

unsigned tnorm_session_jobs(const tnorm_session *s)
{
	return s ? s->jobs : 1;
}

/* A batch in flight: the candidates to run, their results, and who is done. */
typedef struct {
	tnorm_session *s;
	const char *const *data;
	const size_t *len;
	const size_t *todo; /* indices into data[] that need a run, in order */
	size_t ntodo, next;
	tnorm_run_result *res; /* per todo entry */
	int *rc;               /* per todo entry: tnorm_runner_run's code; 1 = not run yet */
	int stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
} batch;

static void batch_work(batch *b, tnorm_runner *r)
{
	for (;;) {
		size_t k;
		int rc;
		pthread_mutex_lock(&b->mu);
		if (b->stop || b->next >= b->ntodo || (b->s->o.cancel && *b->s->o.cancel)) {
			pthread_mutex_unlock(&b->mu);
			return;
		}
		k = b->next++;
		pthread_mutex_unlock(&b->mu);
		rc = tnorm_runner_run(r, b->data[b->todo[k]], b->len[b->todo[k]], &b->res[k]);
		pthread_mutex_lock(&b->mu);
		b->rc[k] = rc < 0 ? rc : 0;
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
	}
}

typedef struct {
	batch *b;
	tnorm_runner *r;
} worker_arg;

static void *batch_thread(void *p)
{
	worker_arg *w = p;
	batch_work(w->b, w->r);
	return NULL;
}

/* Which candidates of a batch need a run: not in the cache or the database, not the same bytes
 * as an earlier candidate of the batch (dup[i] = that one's index + 1), not past the run budget
 * (the judging refuses those, as one by one).  Their indexes into todo, their count in *ntodo;
 * the hashes into h1, h2. */
static int plan_batch(tnorm_session *s, const char *const *data, const size_t *len, size_t n,
                      uint64_t *h1, uint64_t *h2, size_t *dup, size_t *todo, int *rc,
                      size_t *ntodo)
{
	size_t i, k;
	int err;
	*ntodo = 0;
	for (i = 0; i < n; i++) {
		tnorm__hash64_pair(data[i], len[i], TNORM__H1_SEED, TNORM__H2_SEED, &h1[i], &h2[i]);
		h2[i] ^= len[i];
		for (k = 0; k < i; k++)
			if (h1[k] == h1[i] && h2[k] == h2[i]) {
				dup[i] = k + 1;
				break;
			}
		if (dup[i] || lookup(s, h1[i], h2[i])->used)
			continue;
		if (s->db) {
			int found = 0, was = 0;
			if ((err = tnorm__db_get_outcome_hashed(s->db, s->db_ctx, h1[i], h2[i] ^ len[i],
			                                        len[i], &found, &was)) < 0)
				return err;
			if (found)
				continue;
		}
		if (s->o.max_runs && s->runs + *ntodo >= s->o.max_runs)
			continue;
		rc[*ntodo] = 1;
		todo[(*ntodo)++] = i;
	}
	return 0;
}

/* Up to `want` worker threads on the batch, each with a runner of its own (the session's for
 * the first, the others made once and kept); their ids in tids, how many started in
 * *nthreads. */
static void start_workers(tnorm_session *s, batch *b, unsigned want, pthread_t *tids,
                          worker_arg *args, unsigned *nthreads)
{
	unsigned t;
	*nthreads = 0;
	for (t = 0; t < want; t++) {
		tnorm_runner *r = NULL;
		if (t == 0) {
			r = s->runner;
		} else {
			if (t - 1 >= s->nworkers) {
				tnorm_runner **nw = tnorm__reallocarray(s->workers, t, sizeof(*nw));
				if (!nw)
					break;
				s->workers = nw;
				if (tnorm_runner_new(&nw[t - 1], (const char *const *)s->argv, &s->run) < 0)
					break;
				s->nworkers = t;
			}
			r = s->workers[t - 1];
			tnorm_runner_set_timeout(r, s->timeout);
			tnorm_runner_set_cancel(r, s->o.cancel);
		}
		args[t].b = b;
		args[t].r = r;
		if (pthread_create(&tids[t], NULL, batch_thread, &args[t]) != 0)
			break;
		(*nthreads)++;
	}
}

/* The batch's answers, judged in order on the calling thread as one by one would: duplicates
 * from their first copy, candidates that ran from the workers' results (waited for), the others
 * from the cache, the database or the budgets. */
static int judge_batch(tnorm_session *s, batch *b, const char *const *data, const size_t *len,
                       size_t n, const uint64_t *h1, const uint64_t *h2, const size_t *dup,
                       int *interesting)
{
	size_t i, k;
	int err = 0;
	for (i = 0, k = 0; i < n && err == 0; i++) {
		int answered = 0, yes = 0;
		if (dup[i]) {
			s->hits++;
			interesting[i] = interesting[dup[i] - 1];
			continue;
		}
		/* Budgets and the cancel flag are checked as if the runs were one by one. */
		if ((err = pre_check(s, data[i], len[i], h1[i], h2[i], &answered, &yes)) < 0)
			break;
		if (!(k < b->ntodo && b->todo[k] == i)) {
			interesting[i] = yes;
			continue;
		}
		pthread_mutex_lock(&b->mu);
		while (b->rc[k] == 1 && !(s->o.cancel && *s->o.cancel))
			pthread_cond_wait(&b->cv, &b->mu);
		pthread_mutex_unlock(&b->mu);
		if (b->rc[k] == 1)
			return tnorm__error_set(TNORM_EINTERRUPTED,
			                        "interrupted; the best result so far is kept");
		if ((err = stopped(b->rc[k])) < 0)
			break;
		err = judge(s, data[i], len[i], h1[i], h2[i], &b->res[k], &interesting[i]);
		k++;
	}
	return err;
}

int tnorm_session_check_many(tnorm_session *s, const char *const *data, const size_t *len,
                             size_t n, int *interesting)
{
	uint64_t *h1 = NULL, *h2 = NULL;
	size_t *todo = NULL, *dup = NULL, i, k, ntodo = 0;
	worker_arg *args = NULL;
	pthread_t *tids = NULL;
	unsigned nthreads = 0, t, want;
	batch b;
	int err = 0;

	if (!s || (!data && n) || (!len && n) || (!interesting && n))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_check_many: NULL argument");
	for (i = 0; i < n; i++)
		interesting[i] = 0;
	if (s->jobs <= 1 || n < 2) {
		for (i = 0; i < n && err == 0; i++)
			err = tnorm_session_check(s, data[i], len[i], &interesting[i]);
		return err;
	}
	if (!s->target)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_check_many: no target (confirm first)");
	memset(&b, 0, sizeof(b));
	if (!(h1 = tnorm__calloc(n, sizeof(*h1))) || !(h2 = tnorm__calloc(n, sizeof(*h2))) ||
	    !(todo = tnorm__calloc(n, sizeof(*todo))) || !(dup = tnorm__calloc(n, sizeof(*dup))) ||
	    !(b.res = tnorm__calloc(n, sizeof(*b.res))) || !(b.rc = tnorm__calloc(n, sizeof(*b.rc)))) {
		err = TNORM_ENOMEM;
		goto out;
	}
	if ((err = plan_batch(s, data, len, n, h1, h2, dup, todo, b.rc, &ntodo)) < 0)
		goto out;
	b.s = s;
	b.data = data;
	b.len = len;
	b.todo = todo;
	b.ntodo = ntodo;
	pthread_mutex_init(&b.mu, NULL);
	pthread_cond_init(&b.cv, NULL);
	/* Workers: the session's own runner works in the calling thread's stead only through the
	 * threads; the caller judges the results in order, so the outcome is the same as -j 1. */
	want = s->jobs;
	if (want > ntodo)
		want = (unsigned)ntodo;
	if (want && (!(tids = tnorm__calloc(want, sizeof(*tids))) ||
	             !(args = tnorm__calloc(want, sizeof(*args))))) {
		err = TNORM_ENOMEM;
		goto joined;
	}
	start_workers(s, &b, want, tids, args, &nthreads);
	if (nthreads == 0 && ntodo) {
		err = tnorm__error_set(TNORM_EIO, "cannot start worker threads");
		goto joined;
	}
	err = judge_batch(s, &b, data, len, n, h1, h2, dup, interesting);
joined:
	pthread_mutex_lock(&b.mu);
	b.stop = 1;
	pthread_cond_broadcast(&b.cv);
	pthread_mutex_unlock(&b.mu);
	for (t = 0; t < nthreads; t++)
		pthread_join(tids[t], NULL);
	pthread_mutex_destroy(&b.mu);
	pthread_cond_destroy(&b.cv);
out:
	for (k = 0; b.res && k < n; k++)
		tnorm_run_result_dispose(&b.res[k]);
	free(b.res);
	free(b.rc);
	free(h1);
	free(h2);
	free(todo);
	free(dup);
	free(tids);
	free(args);
	return err;
}

/* At least n reusable text buffers in s->texts. */
static int reserve_texts(tnorm_session *s, size_t n)
{
	tnorm__buf *grown;
	if (n <= s->ntexts)
		return 0;
	if (!(grown = tnorm__reallocarray(s->texts, n, sizeof(*grown))))
		return TNORM_ENOMEM;
	memset(grown + s->ntexts, 0, (n - s->ntexts) * sizeof(*grown));
	s->texts = grown;
	s->ntexts = n;
	return 0;
}

int tnorm_session_test_oracle(void *ctx, const tnorm_test *cand, int *interesting)
{
	tnorm_session *s = ctx;
	int err;
	if (!s || !cand || !interesting)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_test_oracle: NULL argument");
	if ((err = reserve_texts(s, 1)) < 0 ||
	    (err = tnorm__test_format_into(&s->texts[0], cand)) < 0)
		return err;
	return tnorm_session_check(s, s->texts[0].ptr, s->texts[0].len, interesting);
}

int tnorm_session_test_batch_oracle(void *ctx, const tnorm_test *const *cands, size_t n,
                                    int *interesting)
{
	tnorm_session *s = ctx;
	const char **text;
	size_t *len, i;
	int err = 0;
	if (!s || (!cands && n) || (!interesting && n))
		return tnorm__error_set(TNORM_EINVALID,
		                        "tnorm_session_test_batch_oracle: NULL argument");
	if ((err = reserve_texts(s, n)) < 0)
		return err;
	if (!(text = tnorm__calloc(n + 1, sizeof(*text))) || !(len = tnorm__calloc(n + 1, sizeof(*len)))) {
		free(text);
		return TNORM_ENOMEM;
	}
	for (i = 0; i < n && err == 0; i++) {
		err = tnorm__test_format_into(&s->texts[i], cands[i]);
		text[i] = s->texts[i].ptr;
		len[i] = s->texts[i].len;
	}
	if (err == 0)
		err = tnorm_session_check_many(s, text, len, n, interesting);
	free(text);
	free(len);
	return err;
}

void tnorm_session_set_db(tnorm_session *s, tnorm_db *db, uint64_t context)
{
	if (!s)
		return;
	s->db = db;
	s->db_ctx = context;
}

void tnorm_session_stats(const tnorm_session *s, tnorm_progress *p)
{
	memset(p, 0, sizeof(*p));
	if (!s)
		return;
	p->phase = s->phase;
	p->best_len = s->best_len;
	p->runs = s->runs;
	p->accepted = s->accepted;
	p->cache_hits = s->hits;
	p->elapsed = tnorm__now() - s->start;
	p->child_cpu = s->child_cpu;
	p->run_wall = s->run_wall;
}

size_t tnorm_session_slipped_count(const tnorm_session *s)
{
	return s ? s->nslips : 0;
}

int tnorm_session_slipped(const tnorm_session *s, size_t i, const char **signature,
                          const char **path, size_t *size)
{
	if (!s || i >= s->nslips)
		return tnorm__error_set(TNORM_EINVALID, "no slipped failure %zu", i);
	if (signature)
		*signature = s->slips[i].sig;
	if (path)
		*path = s->slips[i].path;
	if (size)
		*size = s->slips[i].len;
	return 0;
}

/* ---- generic mode ------------------------------------------------------------------------ */

int tnorm_session_bytes_oracle(void *ctx, const char *data, size_t len, int *interesting)
{
	return tnorm_session_check(ctx, data, len, interesting);
}

int tnorm_session_reduce_bytes(tnorm_session *s, const char *data, size_t len,
                               tnorm_reduce_algo algo, uint64_t seed, unsigned views, char **out,
                               size_t *outlen)
{
	tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
	if (!s || !out || (!data && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_session_reduce_bytes: NULL argument");
	o.algo = algo;
	o.seed = seed;
	o.views = views;
	o.chunks = -1;
	return tnorm_generic_reduce(data, len, &o, tnorm_session_bytes_oracle, s, out, outlen, NULL);
}

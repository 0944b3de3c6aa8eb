/* SPDX-License-Identifier: MIT */
/*
 * triage_work.c - the workers and their leases: one pass of worker threads over the tests.
 *
 * Workers take the tests in name order; a test whose result file parses and carries the hash of
 * the test's content is done already, and so is one the database holds a result for (written to
 * its result file then); any other is claimed (in the database, else OUT/claims/NAME with
 * O_EXCL, triage_folder.c), run once (check_file: a pass of checks) or minimized with the
 * pipeline, its result recorded in the database and its result file written atomically
 * (triage_record.c).  A test another worker holds is put aside and looked at again every second
 * until it is finished (by that worker) or its lease runs out (the worker died: this one takes
 * it over).  The calling thread meanwhile waits for finished tests and hands each to the
 * progress callback (supervise), so callbacks never run on a worker, and renews the workers'
 * leases every quarter lease.  After the pass every result file is read back (gather).
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

/* A worker's error that stops the job: recorded once, with the test's name. */
static void job_fail(triage_job *j, const char *name, int err)
{
	const tnorm_error *e = tnorm_error_last();
	pthread_mutex_lock(&j->lock);
	if (j->err == 0) {
		tnorm__buf m = TNORM__BUF_INIT;
		j->err = err;
		if (tnorm__buf_printf(&m, "%s: %s", name, e ? e->message : tnorm_error_name(err)) == 0)
			j->errmsg = tnorm__buf_detach(&m);
		tnorm__buf_dispose(&m);
	}
	j->stop = 1;
	pthread_mutex_unlock(&j->lock);
}

/* A copy of `len` bytes (NULL: none), NUL-terminated, freed with tnorm_free; NULL when out of
 * memory. */
char *tnorm__triage_dup_bytes(const char *p, size_t len)
{
	char *b = tnorm__malloc(len + 1);
	if (b) {
		if (len)
			memcpy(b, p, len);
		b[len] = '\0';
	}
	return b;
}

/* Fill t's texts and lengths from the pipeline's result (generic mode: any bytes). */
static int take_texts(tnorm_triage_test *t, const tnorm_pipeline_result *pr, int generic)
{
	int ok = t->status == TNORM_TRIAGE_OK && pr->text;
	t->reduced_len = pr->reduced ? pr->reduced_len : 0;
	t->normal_len = ok ? pr->text_len : 0;
	t->reduced = tnorm__triage_dup_bytes(pr->reduced, t->reduced_len);
	t->normal = tnorm__triage_dup_bytes(pr->text, t->normal_len);
	t->original_steps = (long)pr->original;
	t->reduced_steps = !generic      ? tnorm__triage_count_steps(pr->reduced)
	                   : pr->reduced ? (long)pr->reduced_len
	                                 : -1;
	t->normal_steps = (long)pr->final;
	return t->reduced && t->normal ? 0 : TNORM_ENOMEM;
}

/* The pipeline options of one of the job's runs of the pipeline: the job's own (o->job) with
 * `mode` on `test` into `out`, the job's database and command, one run at a time, no
 * generalization and no replay (the callers set what differs: cancel, progress, budgets). */
tnorm_pipeline_options tnorm__triage_job_options(const tnorm_triage_options *o, tnorm_mode mode,
                                                 const char *test, const char *out)
{
	tnorm_pipeline_options po = o->job;
	po.mode = mode;
	po.harness = o->harness;
	po.test = test;
	po.out = out;
	po.slipped_dir = NULL;
	po.db = o->db;
	po.generalize = 0;
	/* No replay: a replayed path starts near the normal form of another job (other --rules),
	 * so the "reduced" test would be that form and the counts would depend on what the
	 * database saw before (issue 32, item 5).  Finished results are reused by job instead. */
	po.replay = -1;
	po.jobs = 1;
	po.argv = o->argv;
	return po;
}

/* The check of one file on the worker's own runner, without a harness or a fixed program: the
 * one run a session's confirm would make (tnorm_session_confirm with one run: its signature is
 * the target, its key the policy's), at no exec of the program per file.  Fills t. */
static int check_file(triage_job *j, worker_state *w, tnorm_triage_test *t, const char *data,
                      size_t len)
{
	const tnorm_triage_options *o = j->o;
	const char *match = o->job.session.match ? o->job.session.match : "line";
	tnorm_run_result res;
	char why[300], tmp[300];
	int err;
	memset(&res, 0, sizeof(res));
	if (!w->runner) {
		tnorm_run_options ro = o->job.run;
		if (ro.timeout == 0)
			ro.timeout = 300; /* as the confirm runs' generous limit */
		if ((err = tnorm_match_parse(&w->match, match)) < 0 ||
		    (err = tnorm_runner_new(&w->runner, o->argv, &ro)) < 0)
			return err;
		tnorm_runner_set_cancel(w->runner, &j->stop);
	}
	if ((err = tnorm_runner_run(w->runner, data, len, &res)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while confirming the failure")
		           : err;
	t->runs++;
	t->seconds = res.wall;
	t->complete = 1;
	t->fresh = 1;
	t->minimized = 0;
	t->original_steps = (long)len;
	t->reduced_steps = t->normal_steps = -1;
	t->status = TNORM_TRIAGE_NOTFAIL;
	why[0] = '\0';
	if (res.outcome == TNORM_OUTCOME_ERROR) {
		t->status = TNORM_TRIAGE_ERROR;
		snprintf(why, sizeof(why), "%s", res.message);
	} else if (res.outcome == TNORM_OUTCOME_FAIL && res.sig &&
	           !tnorm_match_test(w->match, res.sig, res.sig, res.out, res.err)) {
		snprintf(why, sizeof(why), "the original test does not fail as the match policy asks: "
		         "%s, but its output (stdout and stderr) does not match --match %s",
		         tnorm__run_describe(&res, tmp, sizeof(tmp)), match);
	} else if (res.outcome == TNORM_OUTCOME_FAIL && res.sig) {
		t->status = TNORM_TRIAGE_OK;
		if ((err = tnorm_signature_format(res.sig, 0, &t->signature)) < 0 ||
		    (err = tnorm_match_key(w->match, res.sig, &t->key)) < 0)
			goto done;
	} else {
		snprintf(why, sizeof(why), "the original test does not fail: %s",
		         tnorm__run_describe(&res, tmp, sizeof(tmp)));
	}
	if (!t->signature)
		t->signature = tnorm__strdup("");
	if (!t->key)
		t->key = tnorm__strdup("");
	t->message = tnorm__strdup(why);
	t->reduced = tnorm__triage_dup_bytes("", 0);
	t->normal = tnorm__triage_dup_bytes("", 0);
	if (!t->message || !t->signature || !t->key || !t->reduced || !t->normal)
		err = TNORM_ENOMEM;
done:
	tnorm_run_result_dispose(&res);
	return err;
}

/* Minimize one test (its content `text`): fills t from the pipeline's result. */
static int minimize(triage_job *j, tnorm_triage_test *t)
{
	const tnorm_triage_options *o = j->o;
	tnorm_pipeline_options po;
	tnorm_pipeline_result pr;
	char *test = tnorm__triage_path_of(j->res->folder, t->name, NULL), *norm = NULL;
	tnorm__buf n = TNORM__BUF_INIT;
	char key[FILE_KEY_MAX];
	int err;
	memset(&pr, 0, sizeof(pr));
	if (!test || tnorm__buf_printf(&n, "%s/norm/%s.norm", j->res->out,
	                               tnorm__triage_file_key(t->name, key)) < 0) {
		err = TNORM_ENOMEM;
		goto done;
	}
	norm = n.ptr;
	po = tnorm__triage_job_options(o, j->check ? TNORM_MODE_CHECK : TNORM_MODE_MINIMIZE, test,
	                               norm);
	if (j->check)
		po.session.confirm = 1; /* one run: its signature is the evidence */
	po.session.cancel = &j->stop;
	po.session.progress = NULL;
	po.session.progress_ctx = NULL;
	err = tnorm_pipeline_run(&po, &pr);
	if (err == TNORM_EINTERRUPTED)
		goto done; /* not done: a resumed triage does it again */
	t->status = err == TNORM_ENOTFAIL ? TNORM_TRIAGE_NOTFAIL
	            : err == TNORM_EFLAKY ? TNORM_TRIAGE_FLAKY
	            : err < 0 && err != TNORM_ETIMEOUT ? TNORM_TRIAGE_ERROR : TNORM_TRIAGE_OK;
	t->message = tnorm__strdup(err < 0 ? tnorm_error_last()->message : "");
	t->signature = tnorm__strdup(pr.signature ? pr.signature : "");
	t->key = tnorm__strdup(pr.match_key ? pr.match_key : "");
	t->runs += pr.stats.runs; /* after its check's run, when it had one */
	t->complete = pr.complete;
	t->seconds = pr.stats.elapsed;
	t->fresh = 1;
	t->minimized = !j->check;
	err = take_texts(t, &pr, !o->harness);
	if (j->check) {
		t->original_steps = (long)pr.original;
		t->reduced_steps = t->normal_steps = -1;
	}
	if (err == 0 && !(t->message && t->signature && t->key))
		err = TNORM_ENOMEM;
done:
	tnorm_pipeline_result_dispose(&pr);
	tnorm_free(test);
	tnorm__buf_dispose(&n);
	return err;
}

/* work_on's outcome for a test another live worker holds. */
#define HELD_ELSEWHERE 2

/* A finished test into the queue the calling thread reports from. */
static void hand_over(triage_job *j, done_item *d)
{
	pthread_mutex_lock(&j->lock);
	if (j->tail)
		j->tail->next = d;
	else
		j->head = d;
	j->tail = d;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->lock);
}

static void count_earlier(triage_job *j)
{
	pthread_mutex_lock(&j->lock);
	j->earlier++;
	pthread_mutex_unlock(&j->lock);
}

/* Minimize a test that this worker holds (w->held, in the database) and record its result:
 * in the database if the lease is still ours, and in OUT/results in any case. */
static int do_claimed(triage_job *j, worker_state *w, done_item *d, const char *hex, const char *data,
                      size_t len)
{
	char *text = NULL;
	int err, ok = 0;
	/* A harness test is loaded and checked by the pipeline, and a fixed program is run too:
	 * those checks take the pipeline's way. */
	if (j->check && !j->o->harness && !j->o->job.session.fixed)
		err = check_file(j, w, &d->test, data, len);
	else
		err = minimize(j, &d->test);
	if (err < 0) {
		if (err == TNORM_EINTERRUPTED && w->db) {
			/* Let another worker have it soon (a lease of one second is as good as none), and
			 * first take it from the leases the calling thread renews. */
			char *item;
			int got;
			pthread_mutex_lock(&j->lock);
			item = w->held;
			w->held = NULL;
			pthread_mutex_unlock(&j->lock);
			tnorm_db_claim(w->db, j->jobkey, item, w->name, 1, &got);
			tnorm_free(item);
			tnorm_error_clear();
		}
		return err;
	}
	if ((err = tnorm__triage_result_text(&d->test, hex, j->jobkey, &text)) < 0)
		return err;
	/* Not ours any more (our lease ran out and another worker took it): its result will be
	 * recorded by that worker; ours is as good for this job's folder. */
	if (w->held && (err = tnorm_db_finish(w->db, j->jobkey, w->held, w->name, text, &ok)) < 0) {
		tnorm_free(text);
		return err;
	}
	err = tnorm__triage_write_result_text(j->res->out, d->test.name, text);
	tnorm_free(text);
	return err;
}

/* A test's result from an earlier job (or an earlier pass) in OUT/results, in d->test: 1 when
 * it is done and there is nothing to do, 0 when it is to be done (a check that is now to be
 * minimized starts afresh, its check's runs counted), or TNORM_ENOMEM. */
static int done_before(triage_job *j, done_item *d, const char *name, const char *hex)
{
	uint64_t checked;
	if (!tnorm__triage_load_result(j->res->out, &d->test, hex, j->jobkey))
		return 0;
	if (j->check || d->test.minimized || d->test.status != TNORM_TRIAGE_OK) {
		count_earlier(j); /* done by an earlier job */
		return 1;
	}
	/* Checked, and now to be minimized: its runs count the check's. */
	checked = d->test.runs;
	tnorm__triage_test_dispose(&d->test);
	if (!(d->test.name = tnorm__strdup(name)))
		return TNORM_ENOMEM;
	d->test.runs = checked;
	return 0;
}

/* Claim the test in the database (item "[check/]HEX/NAME"): 0 when this worker holds it now
 * (w->held) or is to redo a record that does not parse, unclaimed; 1 when another worker
 * finished it (its copy written in OUT); HELD_ELSEWHERE when another live worker has it. */
static int claim_in_db(triage_job *j, worker_state *w, done_item *d, const char *hex)
{
	const char *name = d->test.name;
	tnorm__buf item = TNORM__BUF_INIT;
	char *rec = NULL;
	int err, got = 0;
	/* A check and a minimization are two items: a finished check is no minimization. */
	if ((err = tnorm__buf_printf(&item, "%s%s/%s", j->check ? "check/" : "", hex, name)) < 0 ||
	    (err = tnorm_db_result(w->db, j->jobkey, item.ptr, &rec)) < 0)
		goto done;
	if (rec && tnorm__triage_parse_result(rec, &d->test, hex, j->jobkey)) {
		/* Finished by another worker, here or on another machine: its copy in OUT. */
		if ((err = tnorm__triage_write_result_text(j->res->out, name, rec)) == 0)
			err = 1;
		count_earlier(j);
		goto done;
	}
	if (!rec && (err = tnorm_db_claim(w->db, j->jobkey, item.ptr, w->name, j->lease, &got)) < 0)
		goto done;
	/* A record that does not parse (another version wrote it) is redone here, unclaimed. */
	if (!rec && !got) {
		err = HELD_ELSEWHERE;
		goto done;
	}
	pthread_mutex_lock(&j->lock);
	w->held = got ? tnorm__buf_detach(&item) : NULL;
	pthread_mutex_unlock(&j->lock);
done:
	tnorm__buf_dispose(&item);
	tnorm_free(rec);
	return err;
}

/* Claim the test with OUT/claims/NAME (no database): 0 when this worker made the claim (in
 * *claim, to delete when done); 1 when another worker of this job has it; HELD_ELSEWHERE when
 * another process has it, or had it and is gone (its void claim deleted: look again later). */
static int claim_file(triage_job *j, const char *name, char **claim)
{
	char *claims = tnorm__triage_path_of(j->res->out, "claims", NULL), key[FILE_KEY_MAX];
	long owner;
	int mine;
	if (!claims ||
	    !(*claim = tnorm__triage_path_of(j->res->out, "claims", tnorm__triage_file_key(name, key)))) {
		tnorm_free(claims);
		return TNORM_ENOMEM;
	}
	mine = tnorm__triage_take_claim(claims, tnorm__triage_file_key(name, key), *claim);
	tnorm_free(claims);
	if (mine)
		return mine < 0 ? mine : 0;
	owner = tnorm__triage_claim_owner(*claim);
	if (owner == (long)getpid())
		return 1; /* another worker of this job has it */
	if (owner < 0)
		return tnorm__error_set(TNORM_EIO, "%s is not a claim of tnorm's: a file of yours in "
		                        "tnorm's output folder? move it away", *claim);
	/* Another process has it (look again later: its result will be there), or had it and is
	 * gone (its claim is void). */
	if (tnorm__triage_void_claim(owner))
		unlink(*claim);
	return HELD_ELSEWHERE;
}

/* Claim test i and do it, unless it is done already (here, or anywhere the database knows of) or
 * another worker has it (HELD_ELSEWHERE: look again later). */
static int work_on(triage_job *j, worker_state *w, size_t i)
{
	const char *name = j->res->tests[i].name;
	char *file = tnorm__triage_path_of(j->res->folder, name, NULL), *text = NULL, *claim = NULL;
	char hex[17];
	done_item *d = NULL;
	size_t len = 0;
	int err = 0;
	if (j->want && !j->want[i])
		goto done; /* not this pass's */
	if (!file) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if (tnorm_file_read(file, &text, &len) < 0) {
		tnorm_error_clear();
		goto done; /* gone since it was listed: it stays pending (see unfinished()) */
	}
	tnorm__triage_hash_hex(text, len, hex);
	if (!(d = tnorm__calloc(1, sizeof(*d))) || !(d->test.name = tnorm__strdup(name))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if ((err = done_before(j, d, name, hex)) != 0)
		goto done;
	err = w->db ? claim_in_db(j, w, d, hex) : claim_file(j, name, &claim);
	if (err != 0)
		goto done; /* (a claim file not ours is freed, not deleted) */
	err = do_claimed(j, w, d, hex, text, len);
	/* Done (or stopped): the claim goes now, not at the end of the pass, so that claims/ holds
	 * only the tests being worked on and the end of a pass does not read and delete one claim
	 * per test (issue 38, item 3: 100,000 of them took minutes).  A worker elsewhere that looked
	 * for the result just before it was written may take the test again: it redoes it, as after
	 * a lost lease. */
	if (claim)
		unlink(claim);
	pthread_mutex_lock(&j->lock);
	tnorm_free(w->held);
	w->held = NULL;
	pthread_mutex_unlock(&j->lock);
	if (err < 0)
		goto done;
	j->res->tests[i].fresh = 1; /* test i is this worker's alone until the workers are joined */
	hand_over(j, d);
	d = NULL;
done:
	if (d) {
		tnorm__triage_test_dispose(&d->test);
		tnorm_free(d);
	}
	tnorm_free(file);
	tnorm_free(text);
	tnorm_free(claim);
	return err == 1 ? 0 : err; /* 1: done elsewhere, nothing to do */
}

/* The next test for a worker: a new one, else one put aside (*retry set), else the test count
 * (the worker is done). */
static size_t next_test(triage_job *j, int *retry)
{
	size_t n = j->res->ntests, i = n;
	*retry = 0;
	pthread_mutex_lock(&j->lock);
	if (!j->stop && j->next < n) {
		i = j->next++;
	} else if (!j->stop && j->naside > 0) {
		i = j->aside[--j->naside];
		*retry = 1;
	}
	pthread_mutex_unlock(&j->lock);
	return i;
}

/* A second's pause in tenths, cut short when the job stops. */
static void pause_second(triage_job *j)
{
	int k;
	for (k = 0; k < 10 && !j->stop; k++) {
		struct timespec ts = {0, 100000000L};
		nanosleep(&ts, NULL);
	}
}

static void *worker(void *arg)
{
	worker_state *w = arg;
	triage_job *j = w->j;
	for (;;) {
		int retry, err;
		size_t i = next_test(j, &retry);
		if (i == j->res->ntests)
			break;
		if (retry)
			pause_second(j);
		if ((err = work_on(j, w, i)) == HELD_ELSEWHERE) {
			pthread_mutex_lock(&j->lock);
			j->aside[j->naside++] = i; /* room for every test: each is aside at most once */
			pthread_mutex_unlock(&j->lock);
		} else if (err < 0 && err != TNORM_EINTERRUPTED) {
			job_fail(j, j->res->tests[i].name, err);
		}
	}
	pthread_mutex_lock(&j->lock);
	j->running--;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/* Nonzero when the caller asks to stop (its flag, or its callback). */
int tnorm__triage_tell(const tnorm_triage_options *o, tnorm_triage_progress *p, double t0)
{
	p->elapsed = tnorm__now() - t0;
	if (o->cancel && *o->cancel)
		return 1;
	return o->progress ? o->progress(o->progress_ctx, p) != 0 : 0;
}

/* Renew the leases of the items the workers hold (on the calling thread's own connection).  A
 * renewal that fails is not an error: the worker goes on, and at worst another worker does the
 * same test again once the lease has run out. */
static void renew_leases(triage_job *j, tnorm_db *db)
{
	unsigned k;
	for (k = 0; db && k < j->nworkers; k++) {
		char *item;
		int got;
		pthread_mutex_lock(&j->lock);
		item = j->workers[k].held ? tnorm__strdup(j->workers[k].held) : NULL;
		pthread_mutex_unlock(&j->lock);
		if (item)
			tnorm_db_claim(db, j->jobkey, item, j->workers[k].name, j->lease, &got);
		tnorm_free(item);
	}
	tnorm_error_clear();
}

/* The calling thread while the workers work: report finished tests, ticks, and renew leases. */
static void supervise(triage_job *j, tnorm_triage_progress *p, double t0, tnorm_db *db)
{
	double renewed = tnorm__now();
	pthread_mutex_lock(&j->lock);
	for (;;) {
		done_item *d = j->head;
		int finished = j->running == 0;
		j->head = j->tail = NULL;
		if (!d && !finished) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&j->cv, &j->lock, &ts);
			d = j->head;
			finished = j->running == 0;
			j->head = j->tail = NULL;
		}
		p->done = p->fresh + j->earlier;
		pthread_mutex_unlock(&j->lock);
		if (db && tnorm__now() - renewed >= j->lease / 4.0) {
			renew_leases(j, db);
			renewed = tnorm__now();
		}
		p->event = TNORM_TRIAGE_EVENT_TICK;
		p->test = NULL;
		if (!d && tnorm__triage_tell(j->o, p, t0))
			j->stop = 1;
		while (d) {
			done_item *next = d->next;
			p->done++;
			p->fresh++;
			p->event = TNORM_TRIAGE_EVENT_TEST;
			p->test = &d->test;
			if (tnorm__triage_tell(j->o, p, t0))
				j->stop = 1;
			tnorm__triage_test_dispose(&d->test);
			tnorm_free(d);
			d = next;
		}
		p->test = NULL; /* borrowed for the callback only */
		if (finished)
			return;
		pthread_mutex_lock(&j->lock);
	}
}

/* Name the workers ("HOST:PID:tK") and open their connections (and the caller's, for renewals,
 * in *sup): 0, or the database's error. */
static int open_workers(triage_job *j, unsigned jobs, tnorm_db **sup)
{
	char host[64];
	unsigned k;
	int err = 0;
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	for (k = 0; k < jobs; k++) {
		j->workers[k].j = j;
		snprintf(j->workers[k].name, sizeof(j->workers[k].name), "%s:%ld:t%u", host,
		         (long)getpid(), k);
		if (j->dbpath && err == 0)
			err = tnorm_db_open(&j->workers[k].db, j->dbpath);
	}
	if (j->dbpath && err == 0)
		err = tnorm_db_open(sup, j->dbpath);
	return err;
}

/* Run `jobs` workers until every test is done or the job is stopped. */
static int work(triage_job *j, unsigned jobs, tnorm_triage_progress *p, double t0)
{
	sigset_t all, old;
	tnorm_db *sup = NULL;
	unsigned k, started = 0;
	int err;
	if (!(j->workers = tnorm__calloc(jobs, sizeof(*j->workers))) ||
	    !(j->aside = tnorm__calloc(j->res->ntests + 1, sizeof(*j->aside))))
		return TNORM_ENOMEM;
	j->nworkers = jobs;
	if ((err = open_workers(j, jobs, &sup)) < 0)
		goto done;
	/* The workers (and the tracers they start) block every signal: the caller's threads get
	 * them, and stop the job through its cancel flag or callback. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	j->running = jobs;
	for (k = 0; k < jobs; k++) {
		if (pthread_create(&j->workers[k].tid, NULL, worker, &j->workers[k]) != 0)
			break;
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* The workers started may be done already: count off only those that never started. */
	pthread_mutex_lock(&j->lock);
	j->running -= jobs - started;
	pthread_mutex_unlock(&j->lock);
	if (started == 0) {
		err = tnorm__error_set(TNORM_EIO, "cannot start the triage's worker threads");
		goto done;
	}
	supervise(j, p, t0, sup);
	for (k = 0; k < started; k++)
		pthread_join(j->workers[k].tid, NULL);
done:
	for (k = 0; k < jobs; k++) {
		tnorm_db_close(j->workers[k].db);
		tnorm_runner_free(j->workers[k].runner);
		tnorm_match_free(j->workers[k].match);
	}
	tnorm_db_close(sup);
	tnorm_free(j->workers);
	tnorm_free(j->aside);
	j->workers = NULL;
	j->aside = NULL;
	return err;
}

/* 1 when test `name` has a result file in OUT/results (whatever it holds). */
static int result_exists(const char *out, const char *name)
{
	tnorm__buf p = TNORM__BUF_INIT;
	char key[FILE_KEY_MAX];
	int there = tnorm__buf_printf(&p, "%s/results/%s.json", out,
	                              tnorm__triage_file_key(name, key)) == 0 &&
	            access(p.ptr, F_OK) == 0;
	tnorm__buf_dispose(&p);
	return there;
}

/* Read every test's result back (the files are what a resumed job sees). */
static int gather(tnorm_triage_result *r, const char *dir, const char *jobkey)
{
	size_t i;
	r->done = 0;
	for (i = 0; i < r->ntests; i++) {
		tnorm_triage_test *t = &r->tests[i];
		char *file = tnorm__triage_path_of(dir, t->name, NULL), *text = NULL, hex[17];
		size_t len = 0;
		int fresh = t->fresh, loaded = 0;
		char *name = t->name;
		if (!file)
			return TNORM_ENOMEM;
		/* What an earlier pass read back goes first (a sampled job gathers after each pass). */
		t->name = NULL;
		tnorm__triage_test_dispose(t);
		t->name = name;
		/* (the test's bytes only for a test with a result: a job stopped early has few, and
		 * reading 10,000 crash files to find that out held a Ctrl-C for 18 s, issue 39) */
		if (result_exists(r->out, name) && tnorm_file_read(file, &text, &len) == 0) {
			tnorm__triage_hash_hex(text, len, hex);
			loaded = tnorm__triage_load_result(r->out, t, hex, jobkey);
		}
		tnorm_error_clear();
		tnorm_free(file);
		tnorm_free(text);
		t->fresh = fresh;
		r->done += loaded;
	}
	return 0;
}

/*
 * Why the job ended with tests pending although nobody stopped it (issue 28, item 8): the first
 * pending test whose file is gone, or that another live process holds.  TNORM_EIO with a
 * message that names the test and the cause; 0 when neither explains it.
 */
static int unfinished(const tnorm_triage_result *res)
{
	size_t i;
	for (i = 0; i < res->ntests; i++) {
		const char *name = res->tests[i].name;
		char *file, *claim, key[FILE_KEY_MAX];
		int gone, held;
		if (res->tests[i].status != TNORM_TRIAGE_PENDING)
			continue;
		file = tnorm__triage_path_of(res->folder, name, NULL);
		claim =
		    tnorm__triage_path_of(res->out, "claims", tnorm__triage_file_key(name, key));
		gone = file && access(file, R_OK) < 0;
		held = claim && tnorm__triage_held_by(tnorm__triage_claim_owner(claim));
		if (gone || held) {
			int err =
			    gone ? tnorm__error_set(TNORM_EIO,
			                            "%s: the file was deleted (or became "
			                            "unreadable) while the triage ran; %zu of %zu "
			                            "tests done",
			                            file, res->done, res->ntests)
			         : tnorm__error_set(
			               TNORM_EIO,
			               "%s: another tnorm triage (pid %ld) "
			               "is working on this test in %s; %zu of %zu tests "
			               "done: run the same command again once it is "
			               "done",
			               file, tnorm__triage_claim_owner(claim), res->out, res->done,
			               res->ntests);
			tnorm_free(file);
			tnorm_free(claim);
			return err;
		}
		tnorm_free(file);
		tnorm_free(claim);
	}
	return 0;
}

/* One pass of the workers over the tests (j->check: their one-run checks; else the
 * minimization of those j->want asks for), then every result read back: 0 when every test of
 * the pass is done; TNORM_EINTERRUPTED (stopped), or why tests are left (unfinished). */
int tnorm__triage_pass(triage_job *j, tnorm_triage_progress *p, double t0)
{
	tnorm_triage_result *res = j->res;
	size_t i, left = 0;
	int err;
	j->next = 0;
	j->naside = 0;
	j->earlier = 0;
	j->head = j->tail = NULL;
	err = work(j, p->jobs, p, t0);
	tnorm__triage_clear_claims(res->out);
	if (err < 0 || (err = gather(res, res->folder, j->jobkey)) < 0)
		return err;
	if (!j->want)
		res->fresh = p->fresh; /* tests done by this job: counted at their check */
	for (i = 0; j->want && i < res->ntests; i++) /* a wanted test still only checked */
		left += j->want[i] && res->tests[i].status == TNORM_TRIAGE_OK && !res->tests[i].minimized;
	if (j->err)
		return tnorm__error_set(j->err, "%s", j->errmsg ? j->errmsg : tnorm_error_name(j->err));
	if (!j->stop && res->done < res->ntests && (err = unfinished(res)) < 0)
		return err; /* a test file deleted, or another triage on the same folder: said as such */
	if (j->stop || res->done < res->ntests)
		return tnorm__error_set(TNORM_EINTERRUPTED, "interrupted: %zu of %zu tests done; run "
		                        "the same command again to resume", res->done, res->ntests);
	if (left)
		return tnorm__error_set(TNORM_EINTERRUPTED, "interrupted: %zu tests to minimize are "
		                        "left; run the same command again to resume", left);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * triage_polish.c - the polish: each distinct normal form normalized once more with every
 * lower value of every byte, on a budget, after the tests are done (generic mode).
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

/*
 * The polish (issue 27, item 1): the normal forms of files made canonical in fact.  Generic
 * normalization tries each byte's cheap values and its class, and every lower value only in
 * forms of up to 4 bytes, because each test pays for its own normalization; a parser's failing
 * bytes need not be any of those (libyaml's ` - "\n"0` still fails as ` - "\n"$`).  Once the
 * tests are done, each distinct normal form of one signature key is normalized once more with
 * the scan's full pass (generic.h, scan_full): every lower value of every byte, lowest first,
 * then deletion after each success, until no single byte can be lowered and still fail the
 * same way.  Many files share a form, so a folder pays once per form, not per file.  It costs
 * up to a run per lower value of each byte (about 60 per byte of text), so it has a budget:
 * by default a quarter of the runs the tests took, spent on the forms whose full pass costs
 * least per test first (a form of many tests, a short form); a form whose one pass costs more
 * than is left is skipped, and one the budget cuts all the same (a polish that lowers runs its
 * pass again) keeps what was lowered so far.  A finished polish is kept in OUT/polish/HASH, so
 * that a resumed or repeated job does not pay again.  A
 * form whose polish fails (flaky, another fault now) stays as it was.
 */
typedef struct polish_ctx {
	gen_ctx *g;
	size_t form, forms;
} polish_ctx;

static int on_polish_progress(void *ctx, const tnorm_progress *runs)
{
	polish_ctx *c = ctx;
	c->g->p->event = TNORM_TRIAGE_EVENT_POLISH;
	c->g->p->test = NULL;
	c->g->p->runs = runs;
	c->g->p->bucket = c->form;
	c->g->p->nbuckets = c->forms;
	return tnorm__triage_tell(c->g->o, c->g->p, c->g->t0) ? TNORM_EINTERRUPTED : 0;
}

/*
 * OUT/polish/HASH, a finished polish (issue 39, item 7: it was believed as it was read, and a
 * symlink there was followed).  A record is the line "tnorm-polish HASH CHECK" and then the
 * polished form's bytes, CHECK the hash of HASH's bytes and the form's, so that other bytes
 * written over it, or another HASH's record copied there, are no record.  It is opened without
 * following a symlink, and must be a regular file; what is not a record is polished again and
 * written over.  Written atomically (a rename, which replaces a symlink rather than follow it).
 */
#define POLISH_MAGIC "tnorm-polish "

static void polish_check(const char *id, const char *p, size_t len, char check[17])
{
	uint64_t h = tnorm__hash64(id, strlen(id), 0);
	snprintf(check, 17, "%016llx", (unsigned long long)tnorm__hash64(p, len, h));
}

static int polish_write(const char *path, const char *id, const char *p, size_t len)
{
	tnorm__buf b = TNORM__BUF_INIT;
	char check[17];
	int err;
	polish_check(id, p, len, check);
	if ((err = tnorm__buf_printf(&b, POLISH_MAGIC "%s %s\n", id, check)) == 0 &&
	    (err = tnorm__buf_put(&b, p, len)) == 0)
		err = tnorm_file_write_atomic(path, b.ptr, b.len);
	tnorm__buf_dispose(&b);
	return err;
}

/* The form a record holds into *out (*outlen): 1, or 0 when there is none (no file, a symlink,
 * not a regular file, not a record of `id`, more than `max` bytes: it is done again). */
static int polish_read(const char *path, const char *id, size_t max, char **out, size_t *outlen)
{
	tnorm__buf b = TNORM__BUF_INIT;
	char check[17], want[80], buf[4096];
	struct stat st;
	size_t head;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), ok = 0;
	*out = NULL;
	if (fd < 0)
		return 0;
	head = (size_t)snprintf(want, sizeof(want), POLISH_MAGIC "%s ", id);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= head + 17 + max) {
		while ((n = read(fd, buf, sizeof(buf))) > 0 && b.len <= head + 17 + max)
			if (tnorm__buf_put(&b, buf, (size_t)n) < 0)
				break;
		ok = n == 0 && b.len >= head + 17 && b.len <= head + 17 + max &&
		     !memcmp(b.ptr, want, head) && b.ptr[head + 16] == '\n';
	}
	close(fd);
	if (ok) {
		polish_check(id, b.ptr + head + 17, b.len - head - 17, check);
		ok = !memcmp(b.ptr + head, check, 16) &&
		     (*out = tnorm__triage_dup_bytes(b.ptr + head + 17, b.len - head - 17)) != NULL;
		*outlen = b.len - head - 17;
	}
	tnorm__buf_dispose(&b);
	return ok;
}

/* Whether p, a polished form read back from OUT/polish, still fails as test t did: run once as
 * the job runs (its run and session options, one confirm run), its target's key under the match
 * policy t's key.  *same 1 or 0; the run added to *runs.  Errors: Ctrl-C, out of memory. */
static int polish_still_fails(const tnorm_triage_options *o, const tnorm_triage_test *t,
                              const char *p, size_t len, uint64_t *runs, int *same)
{
	tnorm_run_options ro = o->job.run;
	tnorm_session_options so = o->job.session;
	tnorm_session *s = NULL;
	tnorm_match *m = NULL;
	tnorm_progress st;
	char *key = NULL;
	int err;
	*same = 0;
	so.confirm = 1;
	so.max_runs = 0;
	so.max_time = 0;
	so.out_path = NULL;
	so.slipped_dir = NULL;
	so.cancel = o->cancel;
	so.progress = NULL;
	so.observe = NULL;
	if ((err = tnorm_session_new(&s, o->argv, &ro, &so)) < 0)
		goto done;
	err = tnorm_session_confirm(s, p, len);
	tnorm_session_stats(s, &st);
	*runs += st.runs;
	if (err == TNORM_EINTERRUPTED || err == TNORM_ENOMEM)
		goto done;
	if (err == 0 && (err = tnorm_match_parse(&m, so.match ? so.match : "line")) == 0 &&
	    (err = tnorm_match_key(m, tnorm_session_target(s, NULL), &key)) == 0)
		*same = !strcmp(key, t->key);
	if (err != TNORM_ENOMEM)
		err = 0; /* it does not fail (or not so): polished again */
	tnorm_error_clear();
done:
	tnorm_free(key);
	tnorm_match_free(m);
	tnorm_session_free(s);
	return err;
}

/* Test t's normal form polished into *out (*outlen; NULL: keep it as it is), from OUT/polish or
 * by the pipeline in at most `budget` runs (its runs added to *runs); *done set when the polish
 * finished. */
static int polish_one(polish_ctx *c, const tnorm_triage_result *r, const tnorm_triage_test *t,
                      const char *jobkey, size_t max, uint64_t budget, char **out,
                      size_t *outlen, uint64_t *runs, int *done)
{
	const tnorm_triage_options *o = c->g->o;
	tnorm_pipeline_options po;
	tnorm_pipeline_result pr;
	tnorm__buf id = TNORM__BUF_INIT, in = TNORM__BUF_INIT, res = TNORM__BUF_INIT,
	           tmp = TNORM__BUF_INIT;
	char hex[17];
	int err;
	*out = NULL;
	*done = 0;
	memset(&pr, 0, sizeof(pr));
	if ((err = tnorm__buf_put(&id, jobkey, strlen(jobkey) + 1)) < 0 ||
	    (err = tnorm__buf_printf(&id, "%zu%c%s%c", max, 0, t->key, 0)) < 0 ||
	    (err = tnorm__buf_put(&id, t->normal, t->normal_len)) < 0)
		goto end;
	tnorm__triage_hash_hex(id.ptr, id.len, hex);
	if ((err = tnorm__buf_printf(&res, "%s/polish/%s", r->out, hex)) < 0 ||
	    (err = tnorm__buf_printf(&in, "%s/polish/%s.in", r->out, hex)) < 0 ||
	    (err = tnorm__buf_printf(&tmp, "%s/polish/%s.out", r->out, hex)) < 0)
		goto end;
	if (polish_read(res.ptr, hex, max, out, outlen)) {
		/* An earlier job's: the form itself when it could not be lowered; a lower form is
		 * taken once it is seen to fail as the test did, run again. */
		int same = 1;
		if (tnorm__triage_same_bytes(*out, *outlen, t->normal, t->normal_len)) {
			tnorm_free(*out);
			*out = NULL;
		} else if ((err = polish_still_fails(o, t, *out, *outlen, runs, &same)) < 0) {
			goto end;
		}
		if (same) {
			*done = 1;
			goto end;
		}
		tnorm_free(*out);
		*out = NULL;
	}
	tnorm_error_clear();
	if ((err = tnorm_file_write_atomic(in.ptr, t->normal, t->normal_len)) < 0)
		goto end;
	po = tnorm__triage_job_options(o, TNORM_MODE_NORMALIZE, in.ptr, tmp.ptr);
	po.session.confirm = 1; /* the form failed so when its test was done */
	po.session.max_time = 0;
	po.session.max_runs = budget;
	po.session.cancel = o->cancel;
	po.session.progress = on_polish_progress;
	po.session.progress_ctx = c;
	po.generic.rules = (1u << TNORM_GENERIC_RULE_DELETE) | (1u << TNORM_GENERIC_RULE_SCAN);
	po.generic.scan_full = max;
	err = tnorm_pipeline_run(&po, &pr);
	*runs += pr.stats.runs;
	if (err == TNORM_EINTERRUPTED || err == TNORM_ENOMEM)
		goto end;
	*done = err == 0;
	tnorm_error_clear();
	/* Taken: a lower form that fails as the test did (the guard kept to the target's key; a
	 * different key means the confirm run saw another fault), finished or cut by the budget. */
	err = 0;
	if (pr.text && pr.match_key && !strcmp(pr.match_key, t->key) &&
	    tnorm_shortlex_cmp(pr.text, pr.text_len, t->normal, t->normal_len) < 0) {
		if (!(*out = tnorm__triage_dup_bytes(pr.text, pr.text_len))) {
			err = TNORM_ENOMEM;
			goto end;
		}
		*outlen = pr.text_len;
	} else if (*done && !(pr.match_key && !strcmp(pr.match_key, t->key))) {
		*done = 0; /* not polished: it did not fail as before */
	}
	if (*done)
		err = *out ? polish_write(res.ptr, hex, *out, *outlen)
		           : polish_write(res.ptr, hex, t->normal, t->normal_len);
end:
	if (err == 0) {
		unlink(in.ptr);
		unlink(tmp.ptr);
	}
	tnorm_pipeline_result_dispose(&pr);
	tnorm__buf_dispose(&id);
	tnorm__buf_dispose(&in);
	tnorm__buf_dispose(&res);
	tnorm__buf_dispose(&tmp);
	return err;
}

/* A distinct (key, normal form), how many tests have it, and what one full pass over it costs at
 * most: a run per lower value of each byte. */
typedef struct polish_form {
	size_t test, count;
	uint64_t cost;
	const tnorm_triage_result *r;
} polish_form;

/* The cheapest per test first (cost / count, compared without division), then the lowest. */
static int form_order(const void *x, const void *y)
{
	const polish_form *a = x, *b = y;
	const tnorm_triage_test *ta = &a->r->tests[a->test], *tb = &b->r->tests[b->test];
	uint64_t ca = a->cost * b->count, cb = b->cost * a->count;
	int c;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	c = tnorm_shortlex_cmp(ta->normal, ta->normal_len, tb->normal, tb->normal_len);
	return c ? c : (a->test > b->test) - (a->test < b->test);
}

/* Every test of test i's key and normal form (old, oldlen) takes p (a copy each, and in its
 * OUT/norm/NAME.norm), and the mark `done`. */
static int take_polish(tnorm_triage_result *r, size_t i, const char *old, size_t oldlen,
                       const char *p, size_t len, int done)
{
	size_t k;
	int err;
	for (k = 0; k < r->ntests; k++) {
		tnorm_triage_test *t = &r->tests[k];
		tnorm__buf norm = TNORM__BUF_INIT;
		char *mine;
		if (t->status != TNORM_TRIAGE_OK || !t->minimized ||
		    strcmp(t->key, r->tests[i].key) ||
		    !tnorm__triage_same_bytes(t->normal, t->normal_len, old, oldlen))
			continue;
		t->polished = done;
		if (!p)
			continue;
		if (!(mine = tnorm__triage_dup_bytes(p, len)))
			return TNORM_ENOMEM;
		if (t->normal != old)
			tnorm_free(t->normal);
		t->normal = mine; /* test i's old form is freed by the caller */
		t->normal_len = len;
		t->normal_steps = (long)len;
		if ((err = tnorm__buf_printf(&norm, "%s/norm/%s.norm", r->out, t->name)) == 0)
			err = tnorm__triage_write_unless_same(norm.ptr, p, len);
		tnorm__buf_dispose(&norm);
		if (err < 0)
			return err;
	}
	return 0;
}

int tnorm__triage_polish(const tnorm_triage_options *o, tnorm_triage_result *r, const char *jobkey,
                         gen_ctx *g)
{
	size_t max = o->polish > 0 ? (size_t)o->polish : TNORM_TRIAGE_POLISH_MAX, i, k, n = 0;
	uint64_t spent = 0, tests = 0;
	polish_form *f;
	polish_ctx c;
	int err = 0;
	if (o->harness || o->polish < 0 || !o->argv)
		return 0;
	if (!(f = tnorm__calloc(r->ntests + 1, sizeof(*f))))
		return TNORM_ENOMEM;
	for (i = 0; i < r->ntests; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		if (t->status != TNORM_TRIAGE_OK || !t->key || !t->normal)
			continue;
		tests += t->runs;
		if (!t->minimized)
			continue; /* no normal form of its own */
		if (t->normal_len > max)
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(r->tests[f[k].test].key, t->key) &&
			    tnorm__triage_same_bytes(r->tests[f[k].test].normal,
			                             r->tests[f[k].test].normal_len, t->normal,
			                             t->normal_len))
				break;
		if (k == n) {
			f[n].test = i;
			f[n].r = r;
			for (k = 0; k < t->normal_len; k++)
				f[n].cost += (unsigned char)t->normal[k];
			k = n++;
		}
		f[k].count++;
	}
	qsort(f, n, sizeof(*f), form_order);
	r->polish_forms = n;
	r->polish_budget = o->polish_runs ? o->polish_runs : tests / 4;
	c.g = g;
	c.forms = n;
	for (k = 0; k < n && err == 0 && spent < r->polish_budget; k++) {
		tnorm_triage_test *t = &r->tests[f[k].test];
		char *old = t->normal, *p = NULL;
		size_t len = 0, oldlen = t->normal_len;
		int done;
		if (f[k].cost > r->polish_budget - spent)
			continue; /* more than is left: cheaper forms may still fit */
		c.form = k + 1;
		err = polish_one(&c, r, t, jobkey, max, r->polish_budget - spent, &p, &len, &spent,
		                 &done);
		if (err < 0)
			break;
		r->polished++;
		r->polish_complete += done;
		r->polish_lowered += p != NULL;
		err = take_polish(r, f[k].test, old, oldlen, p, len, done);
		if (p && t->normal != old)
			tnorm_free(old);
		tnorm_free(p);
	}
	r->polish_runs = spent;
	tnorm_free(f);
	return err;
}

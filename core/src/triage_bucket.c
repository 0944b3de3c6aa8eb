/* SPDX-License-Identifier: MIT */
/*
 * triage_bucket.c - the buckets, their split by coverage, and their representatives.
 *
 * One bucket per signature key, its normal forms merged, the lowest form its representative
 * (make_buckets); a key whose normal forms execute different lines is split (split_by_coverage,
 * issue 27); each representative is generalized (with a harness), run once more for its own
 * signature (sign_representatives: the report shows what its file does), with `explain`
 * ranked by tnorm_why, and written byte for byte to OUT/buckets/N-NAME.
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

/* 1 when two byte strings are the same (length and bytes). */
int tnorm__triage_same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (alen == 0 || !memcmp(a, b, alen));
}

static int same_text(const tnorm_triage_test *a, const tnorm_triage_test *b, int normal)
{
	return normal ? tnorm__triage_same_bytes(a->normal, a->normal_len, b->normal, b->normal_len)
	              : tnorm__triage_same_bytes(a->reduced, a->reduced_len, b->reduced,
	                                         b->reduced_len);
}

static size_t count_distinct(const tnorm_triage_result *r, int normal)
{
	size_t i, k, d = 0;
	for (i = 0; i < r->ntests; i++) {
		if (r->tests[i].status != TNORM_TRIAGE_OK || !r->tests[i].minimized)
			continue;
		for (k = 0; k < i; k++)
			if (r->tests[k].status == TNORM_TRIAGE_OK && r->tests[k].minimized &&
			    same_text(&r->tests[k], &r->tests[i], normal))
				break;
		d += k == i;
	}
	return d;
}

/* Buckets: (signature key, normal form), in order of first appearance; and the counts. */
/*
 * Buckets by fault (issue 27, item 3): one per signature key.  Inside one key the normal forms
 * are merged: files of one fault that normalization could not bring to the same bytes (a byte
 * whose failing values are no interval in a longer form, two places that must change together)
 * are still one fault, as the stack hash and the crash line say; what tells two faults apart is
 * the key (kind, throwing frame, call site, message).  The representative is the test with the
 * lowest normal form in shortlex (the shortest), the first by name among equals; the bucket's
 * other normal forms are listed in the report with their counts (bucket_forms).
 */
int tnorm__triage_make_buckets(tnorm_triage_result *r)
{
	size_t i, k, b;
	if (!(r->buckets = tnorm__calloc(r->ntests + 1, sizeof(*r->buckets))))
		return TNORM_ENOMEM;
	for (i = 0; i < r->ntests; i++) {
		tnorm_triage_test *t = &r->tests[i];
		tnorm_triage_bucket *bk;
		if (t->status != TNORM_TRIAGE_OK)
			continue;
		r->failing++;
		for (k = 0; k < i; k++)
			if (r->tests[k].status == TNORM_TRIAGE_OK && !strcmp(r->tests[k].key, t->key))
				break;
		r->signatures += k == i;
		if (!t->minimized)
			continue; /* assigned to a bucket later, on evidence (triage_sample.c) */
		for (b = 0; b < r->nbuckets; b++)
			if (!strcmp(r->buckets[b].key, t->key))
				break;
		bk = &r->buckets[b];
		if (b == r->nbuckets) {
			r->nbuckets++;
		} else if (tnorm_shortlex_cmp(t->normal, t->normal_len, bk->normal, bk->normal_len) >= 0) {
			bk->count++;
			t->bucket = b + 1;
			continue;
		}
		bk->signature = t->signature;
		bk->key = t->key;
		bk->normal = t->normal;
		bk->normal_len = t->normal_len;
		bk->representative = i;
		bk->count++;
		t->bucket = b + 1;
	}
	for (i = 0; i < r->ntests; i++) { /* a normal form counts at its first test in the bucket */
		const tnorm_triage_test *t = &r->tests[i];
		if (!t->bucket)
			continue;
		for (k = 0; k < i; k++)
			if (r->tests[k].bucket == t->bucket &&
			    tnorm__triage_same_bytes(r->tests[k].normal, r->tests[k].normal_len,
			                             t->normal, t->normal_len))
				break;
		r->buckets[t->bucket - 1].nforms += k == i;
	}
	r->distinct_reduced = count_distinct(r, 0);
	r->distinct_normalized = count_distinct(r, 1);
	return 0;
}

/*
 * Buckets by root cause (issue 27).  A signature is one bucket unless the executions of its
 * normal forms say otherwise: each distinct normal form of a bucket that has several is run
 * once more with line coverage (tnorm_runner_set_coverage), and normal forms whose executed
 * lines overlap by at least SPLIT_SIMILARITY (Jaccard: shared lines over all lines of the two)
 * are linked; the bucket splits along the linked groups (single linkage), each group with its
 * own lowest normal form as representative.  Minimized executions of one bug look alike (Igor,
 * CCS 2021): on the md4c corpus, normal forms of one bug share 0.90 to 0.99 of their lines, and
 * two different bugs at neighbouring lines of one function share 0.90 as well, so coverage can
 * only split what the signature joined, never join what it split, and only where the paths
 * clearly differ.  A normal form whose covered run does not fail, or a program without a line
 * table, leaves its bucket as it is.
 */
#define SPLIT_SIMILARITY 0.6

typedef struct {
	size_t test;            /* the first test with this normal form */
	tnorm_covered_line *v;  /* its executed lines (strings borrowed from the runner) */
	size_t n;
	size_t group;
} form_cov;

static double jaccard(const form_cov *a, const form_cov *b)
{
	size_t i = 0, k = 0, both = 0;
	while (i < a->n && k < b->n) {
		int c = tnorm__line_cmp(a->v[i].file, a->v[i].line, b->v[k].file, b->v[k].line);
		if (c < 0) {
			i++;
		} else if (c > 0) {
			k++;
		} else {
			both++;
			i++;
			k++;
		}
	}
	return a->n + b->n - both ? (double)both / (double)(a->n + b->n - both) : 1.0;
}

static size_t group_root(form_cov *f, size_t i)
{
	while (f[i].group != i)
		i = f[i].group = f[f[i].group].group;
	return i;
}

/* Cover each distinct normal form of bucket b (bucket numbers are 1-based in tests). */
static int cover_forms(tnorm_runner *run, tnorm_triage_result *r, size_t b, form_cov **out,
                       size_t *nout, int *usable)
{
	form_cov *f = NULL;
	size_t i, k, n = 0;
	int err = 0;
	*usable = 1;
	if (!(f = tnorm__calloc(r->buckets[b].nforms + 1, sizeof(*f))))
		return TNORM_ENOMEM;
	for (i = 0; i < r->ntests && n < r->buckets[b].nforms; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		tnorm_run_result res;
		if (t->bucket != b + 1)
			continue;
		for (k = 0; k < n; k++)
			if (tnorm__triage_same_bytes(r->tests[f[k].test].normal,
			                             r->tests[f[k].test].normal_len, t->normal,
			                             t->normal_len))
				break;
		if (k < n)
			continue;
		f[n].test = i;
		f[n].group = n;
		if ((err = tnorm_runner_run(run, t->normal, t->normal_len, &res)) < 0)
			break;
		if (res.outcome != TNORM_OUTCOME_FAIL)
			*usable = 0;
		tnorm_run_result_dispose(&res);
		if ((err = tnorm_runner_coverage(run, &f[n].v, &f[n].n)) < 0)
			break;
		if (!f[n].n)
			*usable = 0;
		n++;
	}
	*out = f;
	*nout = n;
	return err;
}

static void free_forms(form_cov *f, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		tnorm_free(f[i].v);
	free(f);
}

static int split_bucket(tnorm_runner *run, tnorm_triage_result *r, size_t b)
{
	form_cov *f = NULL;
	size_t n = 0, i, k, g, ngroups = 0;
	int usable = 0, err;
	if ((err = cover_forms(run, r, b, &f, &n, &usable)) < 0 || !usable || n < 2) {
		free_forms(f, n);
		return err;
	}
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (group_root(f, i) != group_root(f, k) && jaccard(&f[i], &f[k]) >= SPLIT_SIMILARITY)
				f[group_root(f, k)].group = group_root(f, i);
	for (i = 0; i < n; i++)
		ngroups += group_root(f, i) == i;
	if (ngroups > 1) {
		/* Every group but the bucket's representative's goes to a bucket of its own. */
		size_t keep = n, first = r->nbuckets;
		for (i = 0; i < n; i++)
			if (f[i].test == r->buckets[b].representative ||
			    tnorm__triage_same_bytes(
			        r->tests[f[i].test].normal, r->tests[f[i].test].normal_len,
			        r->buckets[b].normal, r->buckets[b].normal_len))
				keep = group_root(f, i);
		for (g = 0; g < n; g++) {
			size_t nb;
			if (group_root(f, g) != g || g == keep)
				continue;
			nb = r->nbuckets++;
			memset(&r->buckets[nb], 0, sizeof(r->buckets[nb]));
			for (i = 0; i < r->ntests; i++) {
				tnorm_triage_test *t = &r->tests[i];
				if (t->bucket != b + 1)
					continue;
				for (k = 0; k < n; k++)
					if (group_root(f, k) == g &&
					    tnorm__triage_same_bytes(r->tests[f[k].test].normal,
					                             r->tests[f[k].test].normal_len,
					                             t->normal, t->normal_len))
						break;
				if (k == n)
					continue;
				t->bucket = nb + 1;
			}
		}
		/* Each bucket's count, representative (its lowest normal form) and forms anew. */
		for (g = b; g < r->nbuckets; g = g == b ? first : g + 1) {
			tnorm_triage_bucket *bk = &r->buckets[g];
			bk->count = bk->nforms = 0;
			bk->normal = NULL;
			for (i = 0; i < r->ntests; i++) {
				tnorm_triage_test *t = &r->tests[i];
				if (t->bucket != g + 1)
					continue;
				for (k = 0; k < i; k++)
					if (r->tests[k].bucket == g + 1 &&
					    tnorm__triage_same_bytes(r->tests[k].normal,
					                             r->tests[k].normal_len,
					                             t->normal, t->normal_len))
						break;
				bk->nforms += k == i;
				bk->count++;
				if (!bk->normal || tnorm_shortlex_cmp(t->normal, t->normal_len, bk->normal,
				                                      bk->normal_len) < 0) {
					bk->signature = t->signature;
					bk->key = t->key;
					bk->normal = t->normal;
					bk->normal_len = t->normal_len;
					bk->representative = i;
				}
			}
		}
	}
	free_forms(f, n);
	return 0;
}

int tnorm__triage_split_by_coverage(const tnorm_triage_options *o, tnorm_triage_result *r)
{
	tnorm_run_options ro = o->job.run;
	tnorm_runner *run = NULL;
	size_t b, nb = r->nbuckets;
	int err = 0;
	for (b = 0; b < nb && r->buckets[b].nforms < 2; b++)
		;
	if (b == nb || !o->argv)
		return 0;
	if ((err = tnorm_runner_new(&run, o->argv, &ro)) < 0)
		return err;
	tnorm_runner_set_cancel(run, o->job.session.cancel);
	if (tnorm_runner_set_coverage(run, 1) < 0) { /* no line table: buckets by signature */
		tnorm_error_clear();
		tnorm_runner_free(run);
		return 0;
	}
	for (b = 0; b < nb && err == 0; b++)
		if (r->buckets[b].nforms >= 2)
			err = split_bucket(run, r, b);
	tnorm_runner_free(run);
	return err;
}

/* Write `len` bytes to `path` (atomically) unless the file holds them already. */
int tnorm__triage_write_unless_same(const char *path, const char *p, size_t len)
{
	char *file = NULL;
	size_t flen = 0;
	int same = tnorm_file_read(path, &file, &flen) == 0 &&
	           tnorm__triage_same_bytes(file, flen, p, len);
	tnorm_error_clear();
	tnorm_free(file);
	return same ? 0 : tnorm_file_write_atomic(path, p, len);
}

static int on_gen_progress(void *ctx, const tnorm_progress *runs)
{
	gen_ctx *g = ctx;
	g->p->event = TNORM_TRIAGE_EVENT_GENERALIZE;
	g->p->test = NULL;
	g->p->runs = runs;
	return tnorm__triage_tell(g->o, g->p, g->t0) ? TNORM_EINTERRUPTED : 0;
}

/*
 * Generalize bucket b's representative's normal form into OUT/norm/NAME.gen and keep the text
 * in the bucket.  A failure to generalize leaves the bucket without its annotated test (the
 * report shows the normal form), as before; only a stop is returned.
 */
int tnorm__triage_generalize_bucket(const tnorm_triage_options *o, tnorm_triage_result *r, size_t b,
                                    gen_ctx *g)
{
	const tnorm_triage_test *rep = &r->tests[r->buckets[b].representative];
	tnorm_pipeline_options po;
	tnorm_pipeline_result pr;
	tnorm__buf in = TNORM__BUF_INIT, out = TNORM__BUF_INIT;
	char key[FILE_KEY_MAX];
	int err = 0;
	memset(&pr, 0, sizeof(pr));
	if (tnorm__buf_printf(&in, "%s/norm/%s.norm", r->out,
	                      tnorm__triage_file_key(rep->name, key)) < 0 ||
	    tnorm__buf_printf(&out, "%s/norm/%s.gen", r->out,
	                      tnorm__triage_file_key(rep->name, key)) < 0) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if (tnorm__triage_write_unless_same(in.ptr, rep->normal, rep->normal_len) < 0)
		goto done;
	po = tnorm__triage_job_options(o, TNORM_MODE_GENERALIZE, in.ptr, out.ptr);
	po.replay = o->job.replay;
	po.jobs = o->jobs ? o->jobs : 1;
	po.session.max_time = 0;
	po.session.cancel = o->cancel;
	po.session.progress = on_gen_progress;
	po.session.progress_ctx = g;
	g->p->bucket = b + 1;
	err = tnorm_pipeline_run(&po, &pr);
	if (err == 0 && pr.text && !(r->buckets[b].annotated = tnorm__strdup(pr.text)))
		err = TNORM_ENOMEM;
	if (err != TNORM_EINTERRUPTED && err != TNORM_ENOMEM)
		err = 0;
done:
	tnorm_pipeline_result_dispose(&pr);
	tnorm__buf_dispose(&in);
	tnorm__buf_dispose(&out);
	tnorm_error_clear();
	return err;
}

/*
 * Each bucket's representative run once more, as its file (the normal form) is run by a user
 * (issue 40, item 7): a test's signature is its original's, and a normal form that fails with
 * the same key may fail by another stack (a frame below the throwing one, a call site), so the
 * report would show one stack and the representative's file crash at another.  One run per
 * bucket; a run that does not fail with the bucket's key leaves own_signature NULL (the report
 * shows the test's signature then).  And how many buckets share each key (the coverage split).
 */
int tnorm__triage_sign_representatives(const tnorm_triage_options *o, tnorm_triage_result *r)
{
	const char *match = o->job.session.match ? o->job.session.match : "line";
	tnorm_run_options ro = o->job.run;
	tnorm_runner *run = NULL;
	tnorm_match *m = NULL;
	size_t b, k;
	int err = 0;
	for (b = 0; b < r->nbuckets; b++)
		for (k = 0, r->buckets[b].same_key = 0; k < r->nbuckets; k++)
			r->buckets[b].same_key += !strcmp(r->buckets[k].key, r->buckets[b].key);
	if (!o->argv || r->nbuckets == 0)
		return 0;
	if (ro.timeout == 0)
		ro.timeout = 300; /* as the confirm runs' generous limit */
	if ((err = tnorm_match_parse(&m, match)) < 0 || (err = tnorm_runner_new(&run, o->argv, &ro)) < 0)
		goto done;
	tnorm_runner_set_cancel(run, o->job.session.cancel);
	for (b = 0; b < r->nbuckets && err == 0; b++) {
		tnorm_triage_bucket *bk = &r->buckets[b];
		tnorm_run_result res;
		char *text = NULL, *key = NULL;
		if ((err = tnorm_runner_run(run, bk->normal, bk->normal_len, &res)) < 0)
			break;
		if (res.outcome == TNORM_OUTCOME_FAIL && res.sig &&
		    (err = tnorm_signature_format(res.sig, 0, &text)) == 0 &&
		    (err = tnorm_match_key(m, res.sig, &key)) == 0 && !strcmp(key, bk->key)) {
			bk->own_signature = text;
			text = NULL;
		}
		tnorm_free(text);
		tnorm_free(key);
		tnorm_run_result_dispose(&res);
	}
done:
	tnorm_runner_free(run);
	tnorm_match_free(m);
	if (err != TNORM_EINTERRUPTED && err != TNORM_ENOMEM) {
		tnorm_error_clear(); /* the program cannot be run now: the tests' signatures stay */
		err = 0;
	}
	return err;
}

/*
 * --explain (issue 40, item 1): where the fault likely is, for each bucket, from tnorm_why on its
 * representative's normal form (why.h).  Opt-in: why runs the form and up to 400 neighbours
 * with line coverage, 20 to 50 times a plain run each, where a sampled triage spends about ten
 * plain runs per file.  A bucket why cannot rank (no line table, the form passes now) has none;
 * only a stop or a lack of memory ends the job.
 */
int tnorm__triage_explain_buckets(const tnorm_triage_options *o, tnorm_triage_result *r)
{
	size_t b, k;
	int err = 0;
	for (b = 0; b < r->nbuckets && o->explain && o->argv && err == 0; b++) {
		tnorm_triage_bucket *bk = &r->buckets[b];
		tnorm_why_options wo = TNORM_WHY_OPTIONS_INIT;
		tnorm_why_result *w = tnorm__calloc(1, sizeof(*w));
		if (!w)
			return TNORM_ENOMEM;
		wo.argv = o->argv;
		wo.run = o->job.run;
		wo.text_steps = o->harness != NULL;
		wo.cancel = o->cancel;
		if ((err = tnorm_why(&wo, bk->normal, bk->normal_len, w)) < 0) {
			tnorm_why_result_dispose(w);
			tnorm_free(w);
			if (err != TNORM_EINTERRUPTED && err != TNORM_ENOMEM) {
				tnorm_error_clear();
				err = 0;
			}
			continue;
		}
		for (k = o->explain; k < w->nlines; k++) { /* the best `explain` lines kept */
			free(w->lines[k].file); /* as tnorm_why_result_dispose frees them */
			free(w->lines[k].function);
		}
		if (w->nlines > o->explain)
			w->nlines = o->explain;
		bk->why = w;
	}
	return err;
}

/* Empty OUT/buckets of the representatives an earlier job wrote there (N-NAME: its buckets may
 * have been others); nothing else is deleted. */
static void clear_buckets_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t n = strspn(e->d_name, "0123456789");
		if (n > 0 && e->d_name[n] == '-')
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
}

/* Each bucket's representative, byte for byte, as OUT/buckets/N-NAME (bucket->file). */
int tnorm__triage_write_representatives(tnorm_triage_result *r)
{
	char *dir = tnorm__triage_path_of(r->out, "buckets", NULL);
	size_t b;
	int err = 0;
	if (!dir)
		return TNORM_ENOMEM;
	clear_buckets_dir(dir);
	for (b = 0; b < r->nbuckets && err == 0; b++) {
		tnorm_triage_bucket *bk = &r->buckets[b];
		tnorm__buf p = TNORM__BUF_INIT;
		/* At most 200 bytes of the name: with "N-" it is a valid file name (NAME_MAX). */
		if ((err = tnorm__buf_printf(&p, "%s/%zu-%.200s", dir, b + 1,
		                             r->tests[bk->representative].name)) == 0 &&
		    (err = tnorm_file_write_atomic(p.ptr, bk->normal, bk->normal_len)) == 0)
			bk->file = tnorm__buf_detach(&p);
		tnorm__buf_dispose(&p);
		if (err == 0 && !bk->file)
			err = TNORM_ENOMEM;
	}
	tnorm_free(dir);
	return err;
}

/* The buckets undone (before the next round of the plan makes them again). */
void tnorm__triage_unmake_buckets(tnorm_triage_result *r)
{
	size_t i;
	for (i = 0; r->buckets && i < r->nbuckets; i++) {
		tnorm_free(r->buckets[i].annotated);
		tnorm_free(r->buckets[i].file);
		tnorm_free(r->buckets[i].own_signature);
		tnorm_why_result_dispose(r->buckets[i].why);
		tnorm_free(r->buckets[i].why);
	}
	tnorm_free(r->buckets);
	r->buckets = NULL;
	r->nbuckets = 0;
	r->failing = r->signatures = r->distinct_reduced = r->distinct_normalized = 0;
	for (i = 0; r->tests && i < r->ntests; i++)
		r->tests[i].bucket = 0;
}

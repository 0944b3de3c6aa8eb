/* SPDX-License-Identifier: MIT */
/*
 * triage_sample.c - which tests a sampled triage minimizes, and where the others go
 * (triage_sample.h).
 *
 * Minimizing every crash file is what makes a thorough triage cost a hundred runs or more per
 * file, and most files of a campaign are one bug at one crash site.  So a sampled triage runs
 * each file once, for its signature, and spends minimizations only where they can change the
 * answer.  The evidence it goes by is what one run gives: the signature key (kind, throwing
 * frame, call site, free site: the bucket of a thorough triage is a key split by coverage) and
 * the stack above it.  Minimized executions of one bug look alike (Igor, CCS 2021), and two
 * bugs behind one key show up as minimized tests of that key that the coverage split puts in
 * different buckets; files of a second bug at one key usually reach it by another stack.  So,
 * per key: the smallest file is minimized; while the key's minimized files agree, one file of a
 * second stack is minimized too (a second opinion); once they disagree, every stack gets a
 * minimized file, then a second one, and a stack whose two disagree is minimized whole.  A file
 * that is not minimized goes to the bucket of the minimized file of its stack, else of its key
 * (when that key's minimized files agree), else of the minimized file with the nearest stack.
 *
 * The plan reads only the result, so it is the same for every order in which the tests were
 * done, and for a resumed or sharded job.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "triage_sample.h"

/* A failing test as the plan sees it: its key, its stack with the recursion collapsed, its
 * length. */
typedef struct item {
	size_t test;
	const char *key;
	char *stack; /* owned */
	long len;
	const char *name;
} item;

/* The end of the frame that starts at s (the next " <- ", or the end). */
static const char *frame_end(const char *s)
{
	const char *e = strstr(s, " <- ");
	return e ? e : s + strlen(s);
}

/* The length of a frame's function part: up to its " (" (the whole frame without one). */
static size_t function_len(const char *f, size_t len)
{
	size_t i;
	for (i = 0; i + 1 < len; i++)
		if (f[i] == ' ' && f[i + 1] == '(')
			return i;
	return len;
}

/* The next frame of a collapsed stack from *p (NULL at the end), and past the frames of the
 * same function that follow it (a recursion is one frame). */
static int next_frame(const char **p, const char **f, size_t *len)
{
	const char *s = *p, *e;
	size_t fn;
	if (!s)
		return 0;
	e = frame_end(s);
	*f = s;
	*len = (size_t)(e - s);
	fn = function_len(s, *len);
	*p = *e ? e + 4 : NULL;
	while (*p) {
		const char *s2 = *p, *e2 = frame_end(s2);
		if (function_len(s2, (size_t)(e2 - s2)) != fn || memcmp(s2, s, fn))
			break;
		*p = *e2 ? e2 + 4 : NULL;
	}
	return 1;
}

size_t tnorm__sample_common_frames(const char *a, const char *b)
{
	const char *pa = a && *a ? a : NULL, *pb = b && *b ? b : NULL, *fa, *fb;
	size_t la, lb, n = 0;
	while (next_frame(&pa, &fa, &la) && next_frame(&pb, &fb, &lb) && la == lb &&
	       !memcmp(fa, fb, la))
		n++;
	return n;
}

/* The collapsed stack of a signature, as one string (owned; NULL when out of memory). */
static char *collapsed(const char *sig)
{
	const char *p = sig && *sig ? sig : NULL, *f;
	size_t len, total = 0;
	char *out, *w;
	while (next_frame(&p, &f, &len))
		total += len + 1;
	if (!(out = tnorm__malloc(total + 1)))
		return NULL;
	w = out;
	p = sig && *sig ? sig : NULL;
	while (next_frame(&p, &f, &len)) {
		memcpy(w, f, len);
		w += len;
		*w++ = '\n';
	}
	*w = '\0';
	return out;
}

/* Key, then stack, then the shortest first, then by name. */
static int item_order(const void *x, const void *y)
{
	const item *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	if (c == 0)
		c = strcmp(a->stack, b->stack);
	if (c == 0 && a->len != b->len)
		c = a->len < b->len ? -1 : 1;
	return c ? c : strcmp(a->name, b->name);
}

/* The failing tests, sorted (item_order); *n set.  NULL with *n 0 when there are none or
 * memory ran out (*oom set). */
static item *items_of(const tnorm_triage_result *r, size_t *n, int *oom)
{
	item *v;
	size_t i;
	*n = 0;
	*oom = 0;
	if (!(v = tnorm__calloc(r->ntests + 1, sizeof(*v)))) {
		*oom = 1;
		return NULL;
	}
	for (i = 0; i < r->ntests; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		if (t->status != TNORM_TRIAGE_OK || !t->key)
			continue;
		v[*n].test = i;
		v[*n].key = t->key;
		v[*n].len = t->original_steps;
		v[*n].name = t->name;
		if (!(v[*n].stack = collapsed(t->signature))) {
			*oom = 1;
			break;
		}
		++*n;
	}
	if (!*oom)
		qsort(v, *n, sizeof(*v), item_order);
	return v;
}

static void items_free(item *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		tnorm_free(v[i].stack);
	free(v);
}

/* The end of the run of items from a with a's key (stack too when `stack`). */
static size_t run_end(const item *v, size_t n, size_t a, int stack)
{
	size_t b = a + 1;
	while (b < n && !strcmp(v[b].key, v[a].key) && (!stack || !strcmp(v[b].stack, v[a].stack)))
		b++;
	return b;
}

/* Distinct buckets among the minimized tests of items [a, b) (counted up to 2), the first in
 * *first (0: none). */
static int buckets_in(const tnorm_triage_result *r, const item *v, size_t a, size_t b,
                      size_t *first, size_t *nmin)
{
	size_t i;
	int nb = 0;
	*first = 0;
	*nmin = 0;
	for (i = a; i < b; i++) {
		const tnorm_triage_test *t = &r->tests[v[i].test];
		if (!t->minimized)
			continue;
		++*nmin;
		if (*first == 0) {
			*first = t->bucket;
			nb = 1;
		} else if (t->bucket != *first) {
			nb = 2;
		}
	}
	return nb;
}

/* Plan one key, items [a, b): want[] marks; returns how many. */
static size_t plan_key(const tnorm_triage_result *r, const item *v, size_t a, size_t b,
                       unsigned char *want)
{
	size_t first, nmin, s, e, marked = 0, best = b, bestn = 0, stacks_min = 0, i;
	int nb = buckets_in(r, v, a, b, &first, &nmin);
	if (nmin == 0) { /* the key's smallest test */
		size_t m = a;
		for (i = a + 1; i < b; i++)
			if (v[i].len < v[m].len || (v[i].len == v[m].len && strcmp(v[i].name, v[m].name) < 0))
				m = i;
		want[v[m].test] = 1;
		return 1;
	}
	for (s = a; s < b; s = e) {
		size_t sfirst, smin;
		int sb;
		e = run_end(v, b, s, 1);
		sb = buckets_in(r, v, s, e, &sfirst, &smin);
		stacks_min += smin > 0;
		if (nb == 1) {
			/* Agreeing so far: the biggest stack without a minimized test, once. */
			if (smin == 0 && e - s > bestn) {
				best = s;
				bestn = e - s;
			}
			continue;
		}
		/* The key's minimized tests disagree: look at every stack. */
		if (smin == 0) {
			want[v[s].test] = 1;
			marked++;
		} else if (smin == 1 && smin < e - s) {
			for (i = e; i-- > s;) /* its longest test: the farthest from the first */
				if (!r->tests[v[i].test].minimized)
					break;
			want[v[i].test] = 1;
			marked++;
		} else if (sb > 1) {
			for (i = s; i < e; i++)
				if (!r->tests[v[i].test].minimized) {
					want[v[i].test] = 1;
					marked++;
				}
		}
	}
	if (nb == 1 && stacks_min == 1 && best < b) {
		want[v[best].test] = 1;
		marked++;
	}
	return marked;
}

size_t tnorm__sample_plan(const tnorm_triage_result *r, unsigned char *want)
{
	size_t n, a, marked = 0;
	int oom;
	item *v = items_of(r, &n, &oom);
	for (a = 0; a < n && !oom; a = run_end(v, n, a, 0))
		marked += plan_key(r, v, a, run_end(v, n, a, 0), want);
	if (v)
		items_free(v, n);
	return marked;
}

/* Test t's bucket and evidence: from the minimized test m ("why" says on what ground). */
static int assign_to(tnorm_triage_result *r, tnorm_triage_test *t, const tnorm_triage_test *m,
                     const char *why)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err;
	t->bucket = m->bucket;
	if (m->bucket)
		r->buckets[m->bucket - 1].count++;
	if ((err = tnorm__buf_printf(&b, "%s %s", why, m->name)) == 0 &&
	    !(t->evidence = tnorm__buf_detach(&b)))
		err = TNORM_ENOMEM;
	tnorm__buf_dispose(&b);
	return err;
}

int tnorm__sample_assign(tnorm_triage_result *r)
{
	size_t n, a, b, s, e, i, k;
	int oom, err = 0;
	item *v = items_of(r, &n, &oom);
	if (oom) {
		if (v)
			items_free(v, n);
		return TNORM_ENOMEM;
	}
	r->minimized = r->assigned = 0;
	for (a = 0; a < n && err == 0; a = b) {
		size_t kfirst, kmin;
		int nb;
		b = run_end(v, n, a, 0);
		nb = buckets_in(r, v, a, b, &kfirst, &kmin);
		for (s = a; s < b && err == 0; s = e) {
			const tnorm_triage_test *own = NULL;
			e = run_end(v, b, s, 1);
			for (i = s; i < e && !own; i++)
				if (r->tests[v[i].test].minimized)
					own = &r->tests[v[i].test];
			for (i = s; i < e && err == 0; i++) {
				tnorm_triage_test *t = &r->tests[v[i].test], *m = NULL;
				size_t bestc = 0;
				if (t->minimized) {
					r->minimized++;
					continue;
				}
				if (kmin == 0)
					continue; /* none of its key could be minimized: no bucket */
				r->assigned++;
				tnorm_free(t->evidence);
				t->evidence = NULL;
				if (own) {
					err = assign_to(r, t, own, "same signature and stack as");
					continue;
				}
				if (nb == 1) {
					for (k = a; k < b && !m; k++)
						if (r->tests[v[k].test].minimized)
							m = &r->tests[v[k].test];
					err = assign_to(r, t, m, "same signature as (its minimized tests are one "
					                         "bucket; another stack)");
					continue;
				}
				for (k = a; k < b; k++) {
					tnorm_triage_test *c = &r->tests[v[k].test];
					size_t common;
					if (!c->minimized)
						continue;
					common = tnorm__sample_common_frames(t->signature, c->signature);
					if (!m || common > bestc) {
						m = c;
						bestc = common;
					}
				}
				err = assign_to(r, t, m, "same signature, the nearest stack, as");
			}
		}
	}
	items_free(v, n);
	return err;
}

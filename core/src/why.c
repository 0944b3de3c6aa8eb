/* SPDX-License-Identifier: MIT */
/*
 * why.c - rank the source lines that make a normal form fail (see tnorm/why.h, docs/why.md).
 *
 * Neighbours.  A normal form is the lowest failing test of its fault; what separates it from
 * tests one small edit away is what decides the failure (nearest-neighbour localization,
 * Renieris and Reiss 2003).  First the tests the caller knows were run near it (the options'
 * `known`: what its minimization ran one edit away from it, tnorm_pipeline_options.keep_near),
 * which are the edits normalization and generalization found worth trying, then ours.  Bytes:
 * each byte deleted, then each byte set to a few values (NUL, space, '0', 'a', 'A', one less,
 * one more).  Harness tests (lines are steps): each line deleted, then each decimal integer set
 * to one less, one more and 0.  Each runs once with coverage (a known test's outcome is its
 * coverage run's; one that differs from the known one is counted in `disagreed`).  Neighbours that fail otherwise
 * (another signature), are invalid or time out say nothing about this failure and are left out.
 *
 * Score.  Over the failing runs (the normal form and the neighbours that fail with its
 * signature) and the passing ones, each line the normal form executed gets Ochiai's
 * ef / sqrt(F * (ef + ep)) (ef, ep: failing and passing runs that executed it; F: failing runs).
 * Spectra from one neighbourhood tie often (a function's lines run together), and among equal
 * scores the failure itself says where to look first: the line it stopped at, then the lines of
 * its other frames, then the others in file and line order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildinfo.h"
#include "common.h"
#include "tnorm/signature.h"
#include "tnorm/why.h"

typedef struct {
	char *data;
	size_t len;
	const tnorm_tested *known; /* the known run it came from, or NULL (ours) */
} blob;

typedef struct {
	blob *v;
	size_t n, cap, max;
} blobs;

/* Add a candidate unless it is the normal form itself or one already made. */
static int add_blob(blobs *b, const char *orig, size_t olen, const char *d, size_t n)
{
	size_t i;
	if (b->n >= b->max || (n == olen && !memcmp(d, orig, n)))
		return 0;
	for (i = 0; i < b->n; i++)
		if (b->v[i].len == n && !memcmp(b->v[i].data, d, n))
			return 0;
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 64;
		blob *nv = tnorm__reallocarray(b->v, nc, sizeof(*nv));
		if (!nv)
			return TNORM_ENOMEM;
		b->v = nv;
		b->cap = nc;
	}
	if (!(b->v[b->n].data = tnorm__malloc(n + 1)))
		return TNORM_ENOMEM;
	memcpy(b->v[b->n].data, d, n);
	b->v[b->n].data[n] = '\0';
	b->v[b->n].len = n;
	b->v[b->n].known = NULL;
	b->n++;
	return 0;
}

/* d with [a, e) replaced by t[0..tn). */
static int add_edit(blobs *b, const char *d, size_t len, size_t a, size_t e, const char *t,
                    size_t tn)
{
	char *c = tnorm__malloc(len - (e - a) + tn + 1);
	int err;
	if (!c)
		return TNORM_ENOMEM;
	memcpy(c, d, a);
	memcpy(c + a, t, tn);
	memcpy(c + a + tn, d + e, len - e);
	err = add_blob(b, d, len, c, len - (e - a) + tn);
	free(c);
	return err;
}

static int byte_neighbours(blobs *b, const char *d, size_t len)
{
	size_t i, k;
	int err = 0;
	for (i = 0; i < len && err == 0; i++)
		err = add_edit(b, d, len, i, i + 1, "", 0);
	for (i = 0; i < len && err == 0; i++) {
		unsigned char c = (unsigned char)d[i];
		unsigned char vals[7];
		vals[0] = 0;
		vals[1] = ' ';
		vals[2] = '0';
		vals[3] = 'a';
		vals[4] = 'A';
		vals[5] = (unsigned char)(c - 1);
		vals[6] = (unsigned char)(c + 1);
		for (k = 0; k < sizeof(vals) && err == 0; k++)
			if (vals[k] != c)
				err = add_edit(b, d, len, i, i + 1, (const char *)&vals[k], 1);
	}
	return err;
}

static int step_neighbours(blobs *b, const char *d, size_t len)
{
	size_t i = 0, e;
	int err = 0;
	/* Each line (a step) deleted. */
	while (i < len && err == 0) {
		for (e = i; e < len && d[e] != '\n'; e++)
			;
		if (e < len)
			e++;
		err = add_edit(b, d, len, i, e, "", 0);
		i = e;
	}
	/* Each decimal integer one less, one more, 0. */
	for (i = 0; i < len && err == 0; i = e) {
		long long v;
		char num[32];
		int k;
		if (d[i] < '0' || d[i] > '9' || (i > 0 && ((d[i - 1] >= '0' && d[i - 1] <= '9') ||
		                                           (d[i - 1] >= 'a' && d[i - 1] <= 'z') ||
		                                           (d[i - 1] >= 'A' && d[i - 1] <= 'Z') ||
		                                           d[i - 1] == '_'))) {
			e = i + 1;
			continue;
		}
		for (e = i, v = 0; e < len && d[e] >= '0' && d[e] <= '9' && e - i < 18; e++)
			v = v * 10 + (d[e] - '0');
		for (k = 0; k < 3 && err == 0; k++) {
			long long nv = k == 0 ? v - 1 : k == 1 ? v + 1 : 0;
			int n;
			if (nv < 0 || nv == v)
				continue;
			n = snprintf(num, sizeof(num), "%lld", nv);
			err = add_edit(b, d, len, i, e, num, (size_t)n);
		}
	}
	return err;
}

/* A line the normal form executed, with its spectrum. */
typedef struct {
	const char *file, *function; /* borrowed from the runner until the result is built */
	uint32_t line;
	unsigned ef, ep;
	int stack; /* 2: the line the failure stopped at; 1: another frame's; 0 */
} spec;

/* Count one run's coverage into the spectra (both sorted by file and line). */
static void count_run(spec *s, size_t ns, const tnorm_covered_line *v, size_t n, int failing)
{
	size_t i = 0, k = 0;
	while (i < ns && k < n) {
		int c = tnorm__line_cmp(s[i].file, s[i].line, v[k].file, v[k].line);
		if (c < 0) {
			i++;
		} else if (c > 0) {
			k++;
		} else {
			if (failing)
				s[i].ef++;
			else
				s[i].ep++;
			i++;
			k++;
		}
	}
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p ? p : "";
}

/* Where the failure's frames are: 2 at the throwing frame's line, 1 at another's. */
static int stack_rank(const tnorm_signature *sig, const char *file, uint32_t line)
{
	size_t i, n = tnorm_signature_frame_count(sig), t = tnorm_signature_throwing(sig);
	int best = 0;
	for (i = t; i < n; i++) {
		const tnorm_frame *f = tnorm_signature_frame(sig, i);
		if (f->line == line && f->file && !strcmp(f->file, base_name(file)))
			best = best > (i == t ? 2 : 1) ? best : (i == t ? 2 : 1);
	}
	return best;
}

static double ochiai(unsigned ef, unsigned ep, unsigned f)
{
	return ef && f ? (double)ef / sqrt((double)f * (double)(ef + ep)) : 0.0;
}

static int cmp_rank(const void *a, const void *b)
{
	const tnorm_why_line *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	if (x->on_stack != y->on_stack)
		return x->on_stack < y->on_stack ? 1 : -1;
	return tnorm__line_cmp(x->file, x->line, y->file, y->line);
}

/* One covered run: its outcome, whether it fails with `target`'s signature, its lines. */
static int covered_run(tnorm_runner *r, const tnorm_match *m, const tnorm_signature *target,
                       const char *d, size_t n, tnorm_run_result *res, int *same,
                       tnorm_covered_line **v, size_t *nv)
{
	int err;
	*same = 0;
	*v = NULL;
	*nv = 0;
	if ((err = tnorm_runner_run(r, d, n, res)) < 0)
		return err;
	if (target && res->outcome == TNORM_OUTCOME_FAIL)
		*same = tnorm_match_test(m, target, res->sig, res->out, res->err);
	return tnorm_runner_coverage(r, v, nv);
}

/* 1 when `file` (a line table's path, perhaps "BUILD/../core/src/order.c") is one of the driver
 * runtime's sources (TNORM_BUILD_RUNTIME_SOURCES: their full paths, ':' between them).  The
 * full path, not the base name: a user's own driver.c is no runtime source. */
static int runtime_source(const char *file)
{
	char path[4096], *w = path;
	const char *p = file, *list = TNORM_BUILD_RUNTIME_SOURCES;
	size_t n;
	if (!file || file[0] != '/' || strlen(file) >= sizeof(path))
		return 0;
	/* Lexically: the source tree may be gone (an installed runtime), the names stay. */
	while (*p) {
		const char *e;
		while (*p == '/')
			p++;
		e = p + strcspn(p, "/");
		if ((e - p == 1 && p[0] == '.') || e == p) {
			/* nothing */
		} else if (e - p == 2 && p[0] == '.' && p[1] == '.') {
			while (w > path && *--w != '/')
				;
		} else {
			*w++ = '/';
			memcpy(w, p, (size_t)(e - p));
			w += e - p;
		}
		p = e;
	}
	*w = '\0';
	n = (size_t)(w - path);
	while (*list) {
		size_t k = strcspn(list, ":");
		if (k == n && !memcmp(list, path, n))
			return 1;
		list += k + (list[k] == ':');
	}
	return 0;
}

/* The normal form's covered run: it must fail; its lines (but the driver runtime's own) are the
 * candidates, in *spectra (*ns of them, each executed by this one failing run); its signature is
 * the target (*target, owned by the caller) and its text goes in res->signature. */
static int run_normal_form(const tnorm_why_options *o, tnorm_runner *r, const tnorm_match *m,
                           const char *test, size_t len, tnorm_why_result *res,
                           tnorm_signature **target, spec **spectra, size_t *ns)
{
	tnorm_run_result rr;
	tnorm_covered_line *v = NULL;
	size_t i, k, n = 0;
	int err, same;
	memset(&rr, 0, sizeof(rr));
	if ((err = covered_run(r, m, NULL, test, len, &rr, &same, &v, &n)) < 0)
		goto done;
	res->runs++;
	if (rr.outcome != TNORM_OUTCOME_FAIL || !rr.sig) {
		err = tnorm__error_set(TNORM_ENOTFAIL, "the test does not fail: it %s%s%s",
		                       rr.outcome == TNORM_OUTCOME_PASS ? "passes"
		                                                        : tnorm_outcome_name(rr.outcome),
		                       rr.message[0] ? ": " : "", rr.message);
		goto done;
	}
	if (!n) {
		err = tnorm__error_set(TNORM_ENOTFOUND, "%s: no line of the program was covered "
		                       "(is it the program itself, built with -g?)", o->argv[0]);
		goto done;
	}
	*target = rr.sig;
	rr.sig = NULL;
	if ((err = tnorm_signature_format(*target, 0, &res->signature)) < 0)
		goto done;
	if (!(*spectra = tnorm__calloc(n, sizeof(**spectra)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = k = 0; i < n; i++) {
		/* The tnorm driver runtime's own lines (its harness parser, its loop, their static
		 * helpers) are no user's bug: they are left out of the ranking. */
		if ((v[i].function && !strncmp(v[i].function, "tnorm_", 6)) ||
		    runtime_source(v[i].file))
			continue;
		(*spectra)[k].file = v[i].file;
		(*spectra)[k].line = v[i].line;
		(*spectra)[k].function = v[i].function;
		(*spectra)[k].ef = 1;
		(*spectra)[k].stack = stack_rank(*target, v[i].file, v[i].line);
		k++;
	}
	*ns = k;
	res->failing = 1;
done:
	tnorm_free(v);
	tnorm_run_result_dispose(&rr);
	return err;
}

/* The neighbours (the known ones first, then ours), each run with coverage into the spectra and
 * kept in res->neighbours. */
static int run_neighbours(const tnorm_why_options *o, tnorm_runner *r, const tnorm_match *m,
                          const tnorm_signature *target, const char *test, size_t len,
                          spec *spectra, size_t ns, tnorm_why_result *res)
{
	tnorm_run_result rr;
	tnorm_covered_line *v = NULL;
	blobs nb = {NULL, 0, 0, 0};
	size_t i;
	int err = 0, same;
	memset(&rr, 0, sizeof(rr));
	nb.max = o->max_neighbours ? o->max_neighbours : 400;
	for (i = 0; i < o->nknown && o->known; i++) {
		size_t before = nb.n;
		if ((err = add_blob(&nb, test, len, o->known[i].test, o->known[i].len)) < 0)
			goto done;
		if (nb.n > before)
			nb.v[nb.n - 1].known = &o->known[i];
	}
	if ((err = o->text_steps ? step_neighbours(&nb, test, len) : byte_neighbours(&nb, test, len)) < 0)
		goto done;
	if (!(res->neighbours = tnorm__calloc(nb.n + 1, sizeof(*res->neighbours)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = 0; i < nb.n; i++) {
		tnorm_why_neighbour *w = &res->neighbours[res->nneighbours++];
		size_t n = 0;
		w->test = nb.v[i].data;
		w->len = nb.v[i].len;
		nb.v[i].data = NULL;
		if ((err = covered_run(r, m, target, w->test, w->len, &rr, &same, &v, &n)) < 0)
			goto done;
		res->runs++;
		w->outcome = rr.outcome;
		w->same = same;
		if (nb.v[i].known) {
			w->reused = 1;
			res->reused++;
			res->disagreed += nb.v[i].known->outcome != rr.outcome || !nb.v[i].known->same != !same;
		}
		if (same || rr.outcome == TNORM_OUTCOME_PASS) {
			count_run(spectra, ns, v, n, same);
			if (same)
				res->failing++;
			else
				res->passing++;
		}
		tnorm_free(v);
		v = NULL;
		tnorm_run_result_dispose(&rr);
	}
done:
	for (i = 0; i < nb.n; i++)
		free(nb.v[i].data);
	free(nb.v);
	tnorm_free(v);
	tnorm_run_result_dispose(&rr);
	return err;
}

/* The lines, scored and sorted best first, into res->lines. */
static int rank_lines(const spec *spectra, size_t ns, tnorm_why_result *res)
{
	size_t i;
	if (!(res->lines = tnorm__calloc(ns + 1, sizeof(*res->lines))))
		return TNORM_ENOMEM;
	for (i = 0; i < ns; i++) {
		tnorm_why_line *l = &res->lines[i];
		if (!(l->file = tnorm__strdup(spectra[i].file)) ||
		    (spectra[i].function && !(l->function = tnorm__strdup(spectra[i].function)))) {
			res->nlines = i + 1;
			return TNORM_ENOMEM;
		}
		l->line = spectra[i].line;
		l->failing = spectra[i].ef;
		l->passing = spectra[i].ep;
		l->ochiai = l->score = ochiai(spectra[i].ef, spectra[i].ep, res->failing);
		l->on_stack = spectra[i].stack;
	}
	res->nlines = ns;
	qsort(res->lines, res->nlines, sizeof(*res->lines), cmp_rank);
	return 0;
}

int tnorm_why(const tnorm_why_options *o, const char *test, size_t len, tnorm_why_result *res)
{
	tnorm_run_options ro;
	tnorm_runner *r = NULL;
	tnorm_match *m = NULL;
	tnorm_signature *target = NULL;
	spec *s = NULL;
	size_t ns = 0;
	double t0 = tnorm__now();
	int err;

	if (!res)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_why: NULL result");
	memset(res, 0, sizeof(*res));
	if (!o || (!test && len) || o->version != TNORM_WHY_OPTIONS_VERSION || !o->argv ||
	    !o->argv[0])
		return tnorm__error_set(TNORM_EINVALID, "tnorm_why: NULL argument, no command, or "
		                        "options of another version");
	ro = o->run;
	if (!ro.version)
		ro.version = TNORM_RUN_OPTIONS_VERSION; /* held in another struct: 0 is the current one */
	if ((err = tnorm_match_parse(&m, "line")) < 0 || (err = tnorm_runner_new(&r, o->argv, &ro)) < 0)
		goto done;
	tnorm_runner_set_cancel(r, o->cancel);
	if ((err = tnorm_runner_set_coverage(r, 1)) < 0 ||
	    (err = run_normal_form(o, r, m, test, len, res, &target, &s, &ns)) < 0 ||
	    (err = run_neighbours(o, r, m, target, test, len, s, ns, res)) < 0)
		goto done;
	err = rank_lines(s, ns, res);
done:
	res->seconds = tnorm__now() - t0;
	free(s);
	tnorm_signature_free(target);
	tnorm_runner_free(r);
	tnorm_match_free(m);
	return err;
}

const char *tnorm_why_outcome(const tnorm_why_neighbour *n)
{
	if (n->same)
		return "fail";
	return n->outcome == TNORM_OUTCOME_FAIL ? "other-failure" : tnorm_outcome_name(n->outcome);
}

void tnorm_why_result_dispose(tnorm_why_result *res)
{
	size_t i;
	if (!res)
		return;
	for (i = 0; i < res->nlines; i++) {
		free(res->lines[i].file);
		free(res->lines[i].function);
	}
	for (i = 0; i < res->nneighbours; i++)
		free(res->neighbours[i].test);
	free(res->lines);
	free(res->neighbours);
	tnorm_free(res->signature);
	memset(res, 0, sizeof(*res));
}

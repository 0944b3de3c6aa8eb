/* SPDX-License-Identifier: MIT */
/*
 * generalize.c - Algorithm 2 (replacements and swaps) and the Figure 2 rendering.
 *
 * The test is assumed normalized, so only actions above a step's own can keep the failure;
 * they are tried lowest first within the step's template.  A swap of steps i < j is tried when
 * step j's action is above step i's and both orders are well-formed.  Rendering folds runs of
 * consecutive action indices (the same instances, consecutive values) into "# or A" / "# - B",
 * as the paper prints value ranges (a legend line above the annotations says so), and brackets
 * maximal runs of steps that can all be swapped with one another.  The JSON form carries the
 * same facts, built as jansson values (json.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "json.h"
#include "options.h"
#include "tnorm/generalize.h"
#include "tnorm/order.h"

struct tnorm_generalization {
	tnorm_test *t;
	uint64_t **alt; /* per step */
	size_t *nalt;
	uint64_t **fresh; /* per step: assignments that can be inserted right before it (Algorithm 3) */
	size_t *nfresh;
	unsigned char *swap; /* n x n */
	size_t n;
	/* per step: failing replacements that were tried (folding ranges across values not tried),
	 * and how many replacements / fresh values were tried of how many (a sample when fewer) */
	uint64_t **altno, **freshno;
	size_t *naltno, *nfreshno;
	size_t *alt_tried, *alt_domain, *fresh_tried, *fresh_domain;
	size_t asked[3]; /* well-formed experiments asked about, by exp_kind */
};

void tnorm_generalization_free(tnorm_generalization *g)
{
	size_t i;
	if (!g)
		return;
	for (i = 0; i < g->n; i++) {
		free(g->alt ? g->alt[i] : NULL);
		free(g->fresh ? g->fresh[i] : NULL);
		free(g->altno ? g->altno[i] : NULL);
		free(g->freshno ? g->freshno[i] : NULL);
	}
	free(g->altno);
	free(g->naltno);
	free(g->freshno);
	free(g->nfreshno);
	free(g->alt_tried);
	free(g->alt_domain);
	free(g->fresh_tried);
	free(g->fresh_domain);
	free(g->alt);
	free(g->nalt);
	free(g->fresh);
	free(g->nfresh);
	free(g->swap);
	tnorm_test_free(g->t);
	free(g);
}

/* One experiment: the candidate, and what its answer would add to the result. */
typedef enum { EXP_ALT, EXP_SWAP, EXP_FRESH } exp_kind;

typedef struct {
	exp_kind kind;
	size_t i, j;   /* the step (and, for swaps, the later step) */
	uint64_t k;    /* the action index (alternative or fresh assignment) */
	tnorm_test *c; /* the candidate; NULL when it is not well-formed (answer: no) */
} experiment;

typedef struct {
	experiment *e;
	size_t n;
} exp_list;

static void exps_clear(exp_list *l)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		tnorm_test_free(l->e[i].c);
	free(l->e);
	l->e = NULL;
	l->n = 0;
}

/*
 * Add an experiment: `t` with step i replaced by *x (and, if y, step j by *y), or with *x
 * inserted before step i (insert = 1).
 */
static int exps_add(exp_list *l, exp_kind kind, size_t i, size_t j, uint64_t k, const tnorm_test *t,
                    const tnorm_action *x, const tnorm_action *y, int insert)
{
	experiment *ne = tnorm__reallocarray(l->e, l->n + 1, sizeof(*ne));
	tnorm_test *c = NULL;
	int err;
	if (!ne)
		return TNORM_ENOMEM;
	l->e = ne;
	if ((err = tnorm_test_dup(&c, t)) < 0)
		return err;
	if (insert)
		tnorm_test_insert(c, i, x);
	else
		tnorm_test_set(c, i, x);
	if (y)
		tnorm_test_set(c, j, y);
	if (!tnorm_test_is_wellformed(c)) {
		tnorm_test_free(c);
		c = NULL;
	}
	l->e[l->n].kind = kind;
	l->e[l->n].i = i;
	l->e[l->n].j = j;
	l->e[l->n].k = k;
	l->e[l->n].c = c;
	l->n++;
	return 0;
}

/*
 * Large domains: of the well-formed experiments l->e[from..], keep at most `sample` (0: all) —
 * the lowest half, then the rest spread evenly up to the highest — and drop the others' tests
 * (not asked, so neither kept nor failing).  Adds what was kept and what there was to *tried and
 * *domain.
 */
static void thin(exp_list *l, size_t from, unsigned sample, size_t *tried, size_t *domain)
{
	size_t d = 0, i, pos = 0, half, j = 0, next;
	for (i = from; i < l->n; i++)
		d += l->e[i].c != NULL;
	*domain += d;
	if (!sample || d <= 2 * (size_t)sample) {
		*tried += d;
		return;
	}
	half = sample / 2;
	/* the j-th spread one sits at half + (j + 1) (d - half) / (sample - half) - 1: the last at d - 1 */
	next = half + (d - half) / (sample - half) - 1;
	for (i = from; i < l->n; i++) {
		if (!l->e[i].c)
			continue;
		if (pos == next && pos >= half) {
			j++;
			next = half + ((j + 1) * (d - half)) / (sample - half) - 1;
		} else if (pos >= half) {
			tnorm_test_free(l->e[i].c);
			l->e[i].c = NULL;
		}
		pos++;
	}
	*tried += sample;
}

static int push(uint64_t **arr, size_t *n, uint64_t v)
{
	uint64_t *na = tnorm__reallocarray(*arr, *n + 1, sizeof(*na));
	if (!na)
		return TNORM_ENOMEM;
	*arr = na;
	(*arr)[(*n)++] = v;
	return 0;
}

static int listed(const uint64_t *arr, size_t n, uint64_t v)
{
	size_t k;
	for (k = 0; k < n; k++)
		if (arr[k] == v)
			return 1;
	return 0;
}

/*
 * Ask about every well-formed candidate of the list at once, then record the answers in list
 * order (so the result never depends on how many candidates ran in parallel).
 */
static int exps_run(tnorm_generalization *g, exp_list *l, tnorm_test_batch_oracle batch, void *ctx)
{
	const tnorm_test **cands = NULL;
	size_t *which = NULL, m = 0, i;
	int *yes = NULL, err = 0;
	if (!l->n)
		return 0;
	if (!(cands = tnorm__calloc(l->n, sizeof(*cands))) || !(which = tnorm__calloc(l->n, sizeof(*which))) ||
	    !(yes = tnorm__calloc(l->n, sizeof(*yes)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = 0; i < l->n; i++)
		if (l->e[i].c) {
			which[m] = i;
			cands[m++] = l->e[i].c;
		}
	if (m && (err = batch(ctx, (const tnorm_test *const *)cands, m, yes)) < 0)
		goto done;
	for (i = 0; i < m && err == 0; i++) {
		const experiment *e = &l->e[which[i]];
		size_t n = g->n;
		g->asked[e->kind]++;
		if (e->kind == EXP_ALT) {
			if (yes[i])
				err = push(&g->alt[e->i], &g->nalt[e->i], e->k);
			else
				err = push(&g->altno[e->i], &g->naltno[e->i], e->k);
		} else if (e->kind == EXP_SWAP) {
			g->swap[e->i * n + e->j] = g->swap[e->j * n + e->i] = (unsigned char)yes[i];
		} else if (yes[i] && !listed(g->fresh[e->i], g->nfresh[e->i], e->k)) {
			err = push(&g->fresh[e->i], &g->nfresh[e->i], e->k);
		} else if (!yes[i]) {
			err = push(&g->freshno[e->i], &g->nfreshno[e->i], e->k);
		}
	}
done:
	free(cands);
	free(which);
	free(yes);
	return err;
}

/*
 * Algorithm 3: for each step i and each pool instance p it uses (not on its left-hand side), try
 * inserting right before step i each action that assigns p anew.  Pruned as section 2.2.2 says:
 * for a const pool, re-assigning the value p already holds — or a value the replacement
 * experiments already listed for the step that assigned it — says nothing new; a pool that calls
 * modify gets a genuinely fresh object, so nothing is pruned there unless no call touched p since
 * its assignment.  The experiments are only listed here; exps_run asks about them.
 */
static int fresh_values(tnorm_generalization *g, const tnorm_test *t,
                        const tnorm_generalize_options *opts, exp_list *l)
{
	const tnorm_harness *h = tnorm_test_harness(t);
	uint32_t nt = tnorm_harness_template_count(h);
	size_t i;
	int err = 0;
	for (i = 0; i < g->n && err == 0; i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		tnorm_template_info info;
		uint32_t s;
		tnorm_harness_template(h, a->tmpl, &info);
		for (s = info.has_lhs ? 1 : 0; s < info.nslots && err == 0; s++) {
			tnorm_pool_info pi;
			uint32_t pool = info.slot[s].pool, inst = a->choice[s], ti;
			size_t last = (size_t)-1, m, first;
			int modified = 0;
			if (info.slot[s].kind != TNORM_SLOT_POOL)
				continue;
			tnorm_harness_pool(h, pool, &pi);
			/* The step that last assigned p before i, and whether a call touched p since. */
			for (m = 0; m < i; m++) {
				const tnorm_action *b = tnorm_test_step(t, m);
				tnorm_template_info bi;
				uint32_t bs;
				tnorm_harness_template(h, b->tmpl, &bi);
				if (bi.has_lhs && bi.slot[0].pool == pool && b->choice[0] == inst) {
					last = m;
					modified = 0;
					continue;
				}
				for (bs = 0; bs < bi.nslots; bs++)
					if (bi.slot[bs].kind == TNORM_SLOT_POOL && bi.slot[bs].pool == pool &&
					    b->choice[bs] == inst && !pi.is_const && !bi.is_pure)
						modified = 1;
			}
			first = l->n;
			for (ti = 0; ti < nt && err == 0; ti++) {
				tnorm_template_info ai;
				uint64_t k, tried = 0;
				tnorm_harness_template(h, ti, &ai);
				if (!ai.has_lhs || ai.slot[0].pool != pool)
					continue;
				for (k = ai.first; k < ai.first + ai.count && tried < opts->max_alternatives && err == 0;
				     k++) {
					tnorm_action na;
					uint64_t lastidx = 0;
					tnorm_harness_unrank(h, k, &na);
					if (na.choice[0] != inst)
						continue;
					tried++;
					if (last != (size_t)-1 && !modified) {
						tnorm_harness_rank(h, tnorm_test_step(t, last), &lastidx);
						if (k == lastidx || listed(g->alt[last], g->nalt[last], k))
							continue; /* redundant: p holds that value already */
					}
					err = exps_add(l, EXP_FRESH, i, 0, k, t, &na, NULL, 1);
				}
			}
			if (err == 0)
				thin(l, first, (unsigned)opts->sample, &g->fresh_tried[i], &g->fresh_domain[i]);
		}
	}
	return err;
}

/* The single oracle as a batch oracle: one candidate after another. */
typedef struct {
	tnorm_test_oracle oracle;
	void *ctx;
} seq_ctx;

static int seq_batch(void *vctx, const tnorm_test *const *cands, size_t n, int *yes)
{
	seq_ctx *c = vctx;
	size_t i;
	int err = 0;
	for (i = 0; i < n && err == 0; i++)
		err = c->oracle(c->ctx, cands[i], &yes[i]);
	return err;
}

int tnorm_generalize(tnorm_generalization **out, const tnorm_test *t,
                     const tnorm_generalize_options *opts, tnorm_test_oracle oracle, void *ctx)
{
	seq_ctx c;
	if (!oracle)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generalize: NULL argument");
	c.oracle = oracle;
	c.ctx = ctx;
	return tnorm_generalize_batch(out, t, opts, seq_batch, &c);
}

void tnorm__generalize_options_resolve(tnorm_generalize_options *o)
{
	if (!o->max_alternatives)
		o->max_alternatives = 4096;
	o->fresh = o->fresh >= 0;
	if (o->sample == 0)
		o->sample = 16;
	else if (o->sample < 0)
		o->sample = 0;
}

int tnorm_generalize_batch(tnorm_generalization **out, const tnorm_test *t,
                           const tnorm_generalize_options *opts, tnorm_test_batch_oracle batch,
                           void *ctx)
{
	tnorm_generalize_options own = TNORM_GENERALIZE_OPTIONS_INIT; /* the options, resolved */
	const tnorm_harness *h;
	tnorm_generalization *g = NULL;
	exp_list l = {NULL, 0};
	size_t i, j, n;
	int err = 0;

	if (!out || !t || !batch)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generalize: NULL argument");
	*out = NULL;
	if (opts && opts->version != TNORM_GENERALIZE_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generalize: options version %u, expected "
		                        "%u", opts->version, TNORM_GENERALIZE_OPTIONS_VERSION);
	if (opts)
		own = *opts;
	tnorm__generalize_options_resolve(&own);
	opts = &own;
	h = tnorm_test_harness(t);
	n = tnorm_test_len(t);
	if (!(g = tnorm__calloc(1, sizeof(*g))))
		return TNORM_ENOMEM;
	g->n = n;
	if ((err = tnorm_test_dup(&g->t, t)) < 0 || !(g->alt = tnorm__calloc(n + 1, sizeof(*g->alt))) ||
	    !(g->nalt = tnorm__calloc(n + 1, sizeof(*g->nalt))) ||
	    !(g->fresh = tnorm__calloc(n + 1, sizeof(*g->fresh))) ||
	    !(g->nfresh = tnorm__calloc(n + 1, sizeof(*g->nfresh))) ||
	    !(g->swap = tnorm__calloc(n * n + 1, 1)) ||
	    !(g->altno = tnorm__calloc(n + 1, sizeof(*g->altno))) ||
	    !(g->naltno = tnorm__calloc(n + 1, sizeof(*g->naltno))) ||
	    !(g->freshno = tnorm__calloc(n + 1, sizeof(*g->freshno))) ||
	    !(g->nfreshno = tnorm__calloc(n + 1, sizeof(*g->nfreshno))) ||
	    !(g->alt_tried = tnorm__calloc(n + 1, sizeof(size_t))) ||
	    !(g->alt_domain = tnorm__calloc(n + 1, sizeof(size_t))) ||
	    !(g->fresh_tried = tnorm__calloc(n + 1, sizeof(size_t))) ||
	    !(g->fresh_domain = tnorm__calloc(n + 1, sizeof(size_t)))) {
		err = err ? err : TNORM_ENOMEM;
		goto done;
	}
	/* Algorithm 2: all its experiments are independent of each other. */
	for (i = 0; i < n; i++) {
		const tnorm_action a = *tnorm_test_step(t, i);
		tnorm_template_info info;
		uint64_t idx = 0, k, end;
		size_t tried = 0, first;
		tnorm_harness_rank(h, &a, &idx);
		tnorm_harness_template(h, a.tmpl, &info);
		end = info.first + info.count;
		/* Replacements: every action of the template above this one (a sample of a large
		 * template's). */
		first = l.n;
		for (k = idx + 1; k < end && tried < opts->max_alternatives; k++, tried++) {
			tnorm_action b;
			tnorm_harness_unrank(h, k, &b);
			if ((err = exps_add(&l, EXP_ALT, i, 0, k, t, &b, NULL, 0)) < 0)
				goto done;
		}
		thin(&l, first, (unsigned)opts->sample, &g->alt_tried[i], &g->alt_domain[i]);
		/* Swaps with later steps holding a different action. */
		for (j = i + 1; j < n; j++) {
			const tnorm_action b = *tnorm_test_step(t, j);
			uint64_t jdx = 0;
			tnorm_harness_rank(h, &b, &jdx);
			if (jdx == idx)
				continue;
			if ((err = exps_add(&l, EXP_SWAP, i, j, 0, t, &b, &a, 0)) < 0)
				goto done;
		}
	}
	if ((err = exps_run(g, &l, batch, ctx)) < 0)
		goto done;
	exps_clear(&l);
	/* Algorithm 3 prunes with Algorithm 2's answers, so it comes second. */
	if (opts->fresh && (err = fresh_values(g, t, opts, &l)) == 0)
		err = exps_run(g, &l, batch, ctx);
done:
	exps_clear(&l);
	if (err < 0) {
		tnorm_generalization_free(g);
		return err;
	}
	*out = g;
	return 0;
}

size_t tnorm_generalization_alternatives(const tnorm_generalization *g, size_t i)
{
	return g && i < g->n ? g->nalt[i] : 0;
}

uint64_t tnorm_generalization_alternative(const tnorm_generalization *g, size_t i, size_t k)
{
	return g && i < g->n && k < g->nalt[i] ? g->alt[i][k] : 0;
}

int tnorm_generalization_swaps(const tnorm_generalization *g, size_t i, size_t j)
{
	return g && i < g->n && j < g->n && i != j && g->swap[i * g->n + j];
}

static int put_action(tnorm__buf *b, const tnorm_harness *h, uint64_t idx)
{
	tnorm_action a;
	char text[512];
	tnorm_harness_unrank(h, idx, &a);
	tnorm_harness_format_action(h, &a, text, sizeof(text));
	return tnorm__buf_puts(b, text);
}

/*
 * May actions a < b (consecutive in a list of those that kept the failure) print as one range?
 * When they are consecutive; or, when the experiments were a sample, when they are of the same
 * template and instances and no experiment tried between them failed (`no`: those that did).
 */
static int foldable(const tnorm_harness *h, int sampled, const uint64_t *no, size_t nno, uint64_t a,
                    uint64_t b)
{
	tnorm_action x, y;
	tnorm_template_info ti;
	size_t k;
	uint32_t s;
	if (b == a + 1)
		return 1;
	if (!sampled)
		return 0;
	tnorm_harness_unrank(h, a, &x);
	tnorm_harness_unrank(h, b, &y);
	if (x.tmpl != y.tmpl)
		return 0;
	tnorm_harness_template(h, x.tmpl, &ti);
	for (s = 0; s < ti.nslots; s++)
		if (ti.slot[s].kind == TNORM_SLOT_POOL && x.choice[s] != y.choice[s])
			return 0;
	for (k = 0; k < nno; k++)
		if (no[k] > a && no[k] < b)
			return 0;
	return 1;
}

/* Is every pair of steps in [s, e] swappable? */
static int all_swap(const tnorm_generalization *g, size_t s, size_t e)
{
	size_t i, j;
	for (i = s; i <= e; i++)
		for (j = i + 1; j <= e; j++)
			if (!g->swap[i * g->n + j])
				return 0;
	return 1;
}

/* 1 when the rendering has an annotation to explain: an alternative, a fresh value or a swap. */
static int annotated(const tnorm_generalization *g)
{
	size_t i, j;
	for (i = 0; i < g->n; i++) {
		if (g->nalt[i] || g->nfresh[i])
			return 1;
		for (j = 0; j < g->n; j++)
			if (j != i && g->swap[i * g->n + j])
				return 1;
	}
	return 0;
}

/* Step i's replacements, "# or A" each, a run of them that folds into a range as "# or A" then
 * "# - B". */
static int put_alternatives(tnorm__buf *b, const tnorm_harness *h, const tnorm_generalization *g,
                            size_t i)
{
	size_t k, r;
	int err = 0;
	for (k = 0; k < g->nalt[i] && err == 0;) {
		r = k;
		while (r + 1 < g->nalt[i] &&
		       foldable(h, g->alt_tried[i] < g->alt_domain[i], g->altno[i], g->naltno[i],
		                g->alt[i][r], g->alt[i][r + 1]))
			r++;
		err = tnorm__buf_puts(b, "# or ");
		if (err == 0)
			err = put_action(b, h, g->alt[i][k]);
		if (err == 0)
			err = tnorm__buf_putc(b, '\n');
		if (r > k && err == 0) {
			err = tnorm__buf_puts(b, "# - ");
			if (err == 0)
				err = put_action(b, h, g->alt[i][r]);
			if (err == 0)
				err = tnorm__buf_putc(b, '\n');
		}
		k = r + 1;
	}
	return err;
}

/* Step i's fresh values: "# or (" the action that makes the fresh value (or a range of them)
 * " ;" the step ")". */
static int put_fresh(tnorm__buf *b, const tnorm_harness *h, const tnorm_generalization *g, size_t i)
{
	size_t k, r;
	int err = 0;
	for (k = 0; k < g->nfresh[i] && err == 0;) {
		char steptext[512];
		r = k;
		tnorm_harness_format_action(h, tnorm_test_step(g->t, i), steptext, sizeof(steptext));
		while (r + 1 < g->nfresh[i] &&
		       foldable(h, g->fresh_tried[i] < g->fresh_domain[i], g->freshno[i], g->nfreshno[i],
		                g->fresh[i][r], g->fresh[i][r + 1]))
			r++;
		err = tnorm__buf_puts(b, "# or (\n# ");
		if (err == 0)
			err = put_action(b, h, g->fresh[i][k]);
		if (err == 0 && r > k) {
			err = tnorm__buf_puts(b, " ;\n# - ");
			if (err == 0)
				err = put_action(b, h, g->fresh[i][r]);
		}
		if (err == 0)
			err = tnorm__buf_printf(b, " ;\n# %s\n# )\n", steptext);
		k = r + 1;
	}
	return err;
}

/* The line above the annotations (issue 32, item 7): "# - B" closes a range that "# or A" opens
 * (every action from A through B, consecutive values of the same instances), which reads as
 * "minus" to whoever has not been told. */
#define LEGEND "# how to read: \"# or A\" the step could be A (same failure); \"# or A\" then " \
               "\"# - B\" any action from A through B (a range, not a minus); \"#[\" ... " \
               "\"#]\" steps in any order\n"

int tnorm_generalization_format(const tnorm_generalization *g, char **out)
{
	const tnorm_harness *h;
	tnorm__buf b = TNORM__BUF_INIT;
	size_t i = 0, block_end = 0;
	int in_block = 0, err = 0;
	if (!g || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generalization_format: NULL argument");
	*out = NULL;
	h = tnorm_test_harness(g->t);
	if (annotated(g))
		err = tnorm__buf_puts(&b, LEGEND);
	else /* say what was tried: a test without a note reads as if nothing was (issue 40) */
		err = tnorm__buf_printf(&b, "# generalized: none of the %zu replacement%s, %zu swap%s and "
		                        "%zu fresh value%s tried kept the failure\n",
		                        g->asked[EXP_ALT], g->asked[EXP_ALT] == 1 ? "" : "s",
		                        g->asked[EXP_SWAP], g->asked[EXP_SWAP] == 1 ? "" : "s",
		                        g->asked[EXP_FRESH], g->asked[EXP_FRESH] == 1 ? "" : "s");
	for (i = 0; i < g->n && err == 0; i++) {
		uint64_t idx = 0;
		size_t k, j, nsw = 0;
		if (!in_block) {
			size_t e = i;
			while (e + 1 < g->n && all_swap(g, i, e + 1))
				e++;
			if (e > i) {
				in_block = 1;
				block_end = e;
				err = tnorm__buf_puts(&b, "#[\n");
			}
		}
		tnorm_harness_rank(h, tnorm_test_step(g->t, i), &idx);
		if (err == 0)
			err = put_action(&b, h, idx);
		if (err == 0)
			err = tnorm__buf_printf(&b, " # STEP %zu\n", i);
		if (err == 0)
			err = put_alternatives(&b, h, g, i);
		if (err == 0)
			err = put_fresh(&b, h, g, i);
		if (g->alt_tried[i] < g->alt_domain[i] && err == 0)
			err = tnorm__buf_printf(&b, "# (a sample: %zu of %zu replacements tried; a range may hold "
			                            "values not tried)\n",
			                        g->alt_tried[i], g->alt_domain[i]);
		if (g->fresh_tried[i] < g->fresh_domain[i] && err == 0)
			err = tnorm__buf_printf(&b, "# (a sample: %zu of %zu fresh values tried; a range may hold "
			                            "values not tried)\n",
			                        g->fresh_tried[i], g->fresh_domain[i]);
		for (j = 0; j < g->n; j++)
			nsw += j != i && g->swap[i * g->n + j];
		if (nsw && err == 0)
			err = tnorm__buf_puts(&b, nsw > 1 ? "# swaps with steps " : "# swaps with step ");
		for (j = 0, k = 0; j < g->n && err == 0; j++)
			if (j != i && g->swap[i * g->n + j])
				err = tnorm__buf_printf(&b, k++ ? ", %zu" : "%zu", j);
		if (nsw && err == 0)
			err = tnorm__buf_putc(&b, '\n');
		if (in_block && i == block_end && err == 0) {
			err = tnorm__buf_puts(&b, "#] (steps in [] can be in any order)\n");
			in_block = 0;
		}
	}
	if (err < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
}

/* The actions of `idx[0..n)` as a JSON array of their texts. */
static json_t *action_array(const tnorm_harness *h, const uint64_t *idx, size_t n)
{
	json_t *a = json_array();
	char text[512];
	size_t k;
	int bad = !a;
	for (k = 0; k < n && !bad; k++) {
		tnorm_action act;
		tnorm_harness_unrank(h, idx[k], &act);
		tnorm_harness_format_action(h, &act, text, sizeof(text));
		bad |= json_array_append_new(a, tnorm__json_str(text));
	}
	return tnorm__json_done(a, bad);
}

int tnorm_generalization_json(const tnorm_generalization *g, char **out)
{
	const tnorm_harness *h;
	json_t *root, *steps;
	size_t i, j;
	int bad = 0;
	char text[512];
	if (!g || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generalization_json: NULL argument");
	h = tnorm_test_harness(g->t);
	root = json_object();
	steps = json_array();
	/* A set or append takes the value's reference even when it fails, so a step is appended
	 * once complete: nothing is touched after a failed add released it.  (`steps` grows inside
	 * `root`, which keeps it alive.) */
	bad |= json_object_set_new(root, "steps", steps);
	for (i = 0; i < g->n && !bad; i++) {
		json_t *step = json_object(), *swaps = json_array();
		for (j = 0; j < g->n && swaps && !bad; j++)
			if (j != i && g->swap[i * g->n + j])
				bad |= json_array_append_new(swaps, json_integer((json_int_t)j));
		tnorm_harness_format_action(h, tnorm_test_step(g->t, i), text, sizeof(text));
		bad |= json_object_set_new(step, "step", json_integer((json_int_t)i));
		bad |= json_object_set_new(step, "action", tnorm__json_str(text));
		bad |= json_object_set_new(step, "alternatives", action_array(h, g->alt[i], g->nalt[i]));
		bad |= json_object_set_new(step, "fresh", action_array(h, g->fresh[i], g->nfresh[i]));
		bad |= json_object_set_new(step, "swaps_with", swaps);
		bad |= json_array_append_new(steps, tnorm__json_done(step, bad));
	}
	return tnorm__json_dump(out, root, bad);
}

/* ---- reading an annotated test back -------------------------------------------------------
 *
 * A debugger stepping through a generalized test shows each step with its notes; the steps and
 * notes are read from the rendering above, so the two are kept here side by side. */

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* s[0..len) without leading and trailing blanks, as a new string (NULL when out of memory). */
static char *stripped(const char *s, size_t len)
{
	char *out;
	while (len && is_blank(*s))
		s++, len--;
	while (len && is_blank(s[len - 1]))
		len--;
	if (!(out = tnorm__malloc(len + 1)))
		return NULL;
	memcpy(out, s, len);
	out[len] = '\0';
	return out;
}

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && !memcmp(s, prefix, n);
}

/* Add the note line[1..len) (a comment) to step `st`. */
static int add_note(tnorm_annotated_step *st, const char *line, size_t len)
{
	char *note = stripped(line + 1, len - 1), **grown, *joined;
	size_t nlen;
	if (!note)
		return TNORM_ENOMEM;
	nlen = strlen(note);
	if (note[0] == ']') {
		tnorm_free(note);
		if (!(note = tnorm__strdup("ends a block of steps that can be in any order")))
			return TNORM_ENOMEM;
	} else if (starts(note, nlen, "- ") && st->nnotes &&
	           starts(st->notes[st->nnotes - 1], strlen(st->notes[st->nnotes - 1]), "or ")) {
		/* A run of values: "or A" then "- B" read "or A ... B". */
		char *last = st->notes[st->nnotes - 1];
		size_t llen = strlen(last);
		if (!(joined = tnorm__malloc(llen + 5 + nlen - 2 + 1))) {
			tnorm_free(note);
			return TNORM_ENOMEM;
		}
		memcpy(joined, last, llen);
		memcpy(joined + llen, " ... ", 5);
		memcpy(joined + llen + 5, note + 2, nlen - 2 + 1);
		tnorm_free(note);
		tnorm_free(last);
		st->notes[st->nnotes - 1] = joined;
		return 0;
	}
	if (!(grown = tnorm__realloc(st->notes, (st->nnotes + 1) * sizeof(*grown)))) {
		tnorm_free(note);
		return TNORM_ENOMEM;
	}
	st->notes = grown;
	st->notes[st->nnotes++] = note;
	return 0;
}

/* Add the step line[0..len) (up to its comment) to *steps. */
static int add_step(tnorm_annotated_step **steps, size_t *n, const char *line, size_t len)
{
	tnorm_annotated_step *grown;
	size_t k;
	for (k = 0; k + 1 < len; k++)
		if (line[k] == ' ' && line[k + 1] == '#')
			break;
	if (k + 1 < len)
		len = k;
	if (!(grown = tnorm__realloc(*steps, (*n + 1) * sizeof(*grown))))
		return TNORM_ENOMEM;
	*steps = grown;
	memset(&grown[*n], 0, sizeof(grown[*n]));
	if (!(grown[*n].action = stripped(line, len)))
		return TNORM_ENOMEM;
	(*n)++;
	return 0;
}

int tnorm_generalization_read(tnorm_annotated_step **out, size_t *n, const char *text, size_t len)
{
	tnorm_annotated_step *steps = NULL;
	size_t nsteps = 0, pos = 0;
	int err = 0;
	if (!out || !n || (!text && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generalization_read: NULL argument");
	*out = NULL;
	*n = 0;
	while (pos < len && err == 0) {
		const char *line = text + pos;
		size_t l = 0;
		while (pos + l < len && text[pos + l] != '\n' && text[pos + l] != '\r')
			l++;
		pos += l + 1;
		while (l && is_blank(*line))
			line++, l--;
		while (l && is_blank(line[l - 1]))
			l--;
		if (!l)
			continue;
		if (line[0] != '#')
			err = add_step(&steps, &nsteps, line, l);
		else if (nsteps && !starts(line, l, "#[") && !starts(line, l, "# generated"))
			err = add_note(&steps[nsteps - 1], line, l);
	}
	if (err < 0) {
		/* (A step whose action could not be copied was not counted, and holds nothing.) */
		tnorm_annotated_steps_free(steps, nsteps);
		return err;
	}
	*out = steps;
	*n = nsteps;
	return 0;
}

void tnorm_annotated_steps_free(tnorm_annotated_step *steps, size_t n)
{
	size_t i, k;
	if (!steps)
		return;
	for (i = 0; i < n; i++) {
		tnorm_free(steps[i].action);
		for (k = 0; k < steps[i].nnotes; k++)
			tnorm_free(steps[i].notes[k]);
		tnorm_free(steps[i].notes);
	}
	tnorm_free(steps);
}

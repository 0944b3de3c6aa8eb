/* SPDX-License-Identifier: MIT */
/*
 * rewrite.c - the rewrite core both rule sets of tnorm_normalize() run on (internal_normalize.h):
 * Algorithm 1's loop over an ordered list of rules, and the set of candidates one rule
 * application has asked about.  The paper's rules (normalize.c) and the call-level rules
 * (callnorm.c) each give it their own apply function, and each context starts with the same
 * base (tnorm__rewrite_base); normalize.c picks the rule set and calls callnorm.c, and neither
 * is called back by the other: what they share lives here.
 */
#include <string.h>

#include "common.h"
#include "internal_normalize.h"

int tnorm__seen_add(tnorm__seen *s, uint64_t hv)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		if (s->h[i] == hv)
			return 1;
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 256;
		uint64_t *n = tnorm__reallocarray(s->h, nc, sizeof(*n));
		if (!n)
			return TNORM_ENOMEM;
		s->h = n;
		s->cap = nc;
	}
	s->h[s->n++] = hv;
	return 0;
}

int tnorm__rule_loop(const tnorm_normalize_options *o, tnorm_test **cur, tnorm_normalize_stats *st,
                     const tnorm_rule *first, size_t nrules, int (*apply_rule)(void *z, tnorm_rule rule),
                     void *z)
{
	tnorm_rule order[TNORM_RULE_COUNT], snapshot[TNORM_RULE_COUNT];
	int err = 0, modified = 1;
	size_t k;
	memcpy(order, first, nrules * sizeof(*order));
	while (modified && err == 0) {
		if (o->visited && (err = o->visited(o->hook_ctx, *cur)) < 0)
			break;
		if (o->known) {
			tnorm_test *known = NULL;
			if ((err = o->known(o->hook_ctx, *cur, &known)) < 0)
				break;
			if (known) {
				tnorm_test_free(*cur);
				*cur = known;
				st->jumped = 1;
				break;
			}
		}
		modified = 0;
		memcpy(snapshot, order, nrules * sizeof(*order));
		for (k = 0; k < nrules; k++) {
			tnorm_rule rest[TNORM_RULE_COUNT];
			size_t a, b = 0;
			int r = apply_rule(z, snapshot[k]);
			if (r < 0) {
				err = r;
				break;
			}
			if (r == 1) {
				modified = 1;
				break;
			}
			/* The rule produced nothing: to the end of the order. */
			for (a = 0; a < nrules; a++)
				if (order[a] != snapshot[k])
					rest[b++] = order[a];
			rest[b] = snapshot[k];
			memcpy(order, rest, nrules * sizeof(*order));
		}
	}
	return err;
}

void tnorm__rewrite_base_init(tnorm__rewrite_base *b, const tnorm_test *t,
                              const tnorm_normalize_options *o, tnorm_test_oracle fn, void *ctx,
                              tnorm_normalize_log log, void *lctx, tnorm_normalize_stats *st)
{
	memset(b, 0, sizeof(*b));
	b->h = tnorm_test_harness(t);
	b->o = o;
	b->fn = fn;
	b->ctx = ctx;
	b->log = log;
	b->lctx = lctx;
	b->st = st;
}

/* SPDX-License-Identifier: MIT */
/*
 * guard.c - guards (issue 16): `kv_del(<kv>, <key>) requires kv_put(<kv>, <key>, _)` lets a
 * step run only after an earlier step that the guard matches, with the same values where the
 * guard names a pool.  The engine does not see the system's state, only the test's own history,
 * so a guard is about that: which values the instances held when.  A value template's literal
 * is a value wherever it is stored (key0 = "x" and key1 = "x" hold one value); a call's result
 * is one object, held by the instance it was stored in until that is assigned again.
 *
 * The parser (harness_check.c) resolves each guard to the templates it matches; this file answers
 * "may this step come next?" for the test checker (test.c: a test that breaks a guard is not
 * well-formed, so reduction and normalization drop such candidates without running them) and
 * for the generator (gen.c: it draws only steps that keep their guards).
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

int tnorm__guards_init(tnorm__guards *g, const tnorm_harness *h)
{
	memset(g, 0, sizeof(*g));
	g->h = h;
	if (!(g->id = tnorm__calloc((size_t)h->nvars + 1, sizeof(*g->id))))
		return TNORM_ENOMEM;
	return 0;
}

void tnorm__guards_dispose(tnorm__guards *g)
{
	free(g->id);
	free(g->args);
	free(g->tmpl);
	memset(g, 0, sizeof(*g));
}

static uint32_t var_of(const tnorm_harness *h, const tnorm__tmpl *t, uint32_t s, uint32_t choice)
{
	return h->pools[t->info.slot[s].pool].info.first_var + choice;
}

int tnorm__guards_allow(const tnorm__guards *g, const tnorm_action *a)
{
	const tnorm_harness *h = g->h;
	const tnorm__tmpl *t = &h->tmpls[a->tmpl];
	uint64_t want[TNORM_MAX_SLOTS];
	uint32_t k, m;
	size_t j;
	if (!t->guard_name)
		return 1;
	for (k = 0; k < t->guard_nargs; k++)
		if (t->guard_slot[k] >= 0)
			want[k] = g->id[var_of(h, t, (uint32_t)t->guard_slot[k], a->choice[t->guard_slot[k]])];
	for (j = g->len; j-- > 0;) {
		const tnorm__tmpl *e = &h->tmpls[g->tmpl[j]];
		uint32_t off = e->info.has_lhs ? 1 : 0;
		for (m = 0; m < t->guard_ntmpls && t->guard_tmpls[m] != g->tmpl[j]; m++)
			;
		if (m == t->guard_ntmpls)
			continue;
		for (k = 0; k < t->guard_nargs; k++)
			if (t->guard_slot[k] >= 0 && g->args[j * TNORM_MAX_SLOTS + k + off] != want[k])
				break;
		if (k == t->guard_nargs)
			return 1;
	}
	return 0;
}

int tnorm__guards_push(tnorm__guards *g, const tnorm_action *a)
{
	const tnorm_harness *h = g->h;
	const tnorm__tmpl *t = &h->tmpls[a->tmpl];
	uint64_t *row;
	uint32_t s;
	if (g->len == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		uint64_t *args = tnorm__reallocarray(g->args, cap, TNORM_MAX_SLOTS * sizeof(*args));
		uint32_t *tmpl;
		if (!args)
			return TNORM_ENOMEM;
		g->args = args;
		if (!(tmpl = tnorm__reallocarray(g->tmpl, cap, sizeof(*tmpl))))
			return TNORM_ENOMEM;
		g->tmpl = tmpl;
		g->cap = cap;
	}
	row = g->args + g->len * TNORM_MAX_SLOTS;
	memset(row, 0, TNORM_MAX_SLOTS * sizeof(*row));
	for (s = t->info.has_lhs ? 1 : 0; s < t->info.nslots; s++)
		if (t->info.slot[s].kind == TNORM_SLOT_POOL)
			row[s] = g->id[var_of(h, t, s, a->choice[s])];
	g->tmpl[g->len] = a->tmpl;
	for (s = t->info.has_lhs ? 1 : 0; s < t->info.nslots; s++)
		if (t->info.slot[s].moves)
			g->id[var_of(h, t, s, a->choice[s])] = 0; /* the call took it (move) */
	if (t->info.has_lhs)
		g->id[var_of(h, t, 0, a->choice[0])] =
			t->info.kind == TNORM_TMPL_VALUE
				? (UINT64_C(1) << 63) | ((uint64_t)a->tmpl << 32) | a->choice[1]
				: (uint64_t)g->len + 1;
	g->len++;
	return 0;
}

int tnorm__guards_first_broken(const tnorm_test *t, size_t *out)
{
	tnorm__guards g;
	size_t i;
	int err = 0;
	*out = SIZE_MAX;
	if (t->h->nguards == 0)
		return 0;
	if ((err = tnorm__guards_init(&g, t->h)) < 0)
		goto done;
	for (i = 0; i < t->len; i++) {
		if (!tnorm__guards_allow(&g, &t->steps[i])) {
			*out = i;
			break;
		}
		if ((err = tnorm__guards_push(&g, &t->steps[i])) < 0)
			break;
	}
done:
	tnorm__guards_dispose(&g);
	return err;
}

int tnorm__guard_text(tnorm__buf *b, const tnorm_harness *h, const tnorm__tmpl *tm,
                      const tnorm_action *a)
{
	uint32_t k;
	int err = tnorm__buf_printf(b, "%s%s(", a ? "" : "requires ", tm->guard_name);
	for (k = 0; k < tm->guard_nargs && err == 0; k++) {
		int32_t s = tm->guard_slot[k];
		const char *pool = s >= 0 ? h->pools[tm->info.slot[s].pool].name : NULL;
		const char *sep = k ? ", " : "";
		if (s < 0)
			err = tnorm__buf_printf(b, "%s_", sep);
		else if (a)
			err = tnorm__buf_printf(b, "%s%s%u", sep, pool, a->choice[s]);
		else
			err = tnorm__buf_printf(b, "%s<%s>", sep, pool);
	}
	return err ? err : tnorm__buf_printf(b, ")");
}

/* SPDX-License-Identifier: MIT */
/*
 * gen.c - random well-formed tests from a harness (for `tnorm gen` and fuzzing).
 *
 * The generator keeps which instances hold a value and which were assigned but not used since,
 * like TSTL: a test that assigns int0 twice in a row says nothing the second assignment does not.
 * Randomness comes from a splitmix64 state local to the call, so the same seed always gives the
 * same test and concurrent calls share nothing.
 *
 * The value templates of one pool count as one template: when it is drawn, the value is drawn
 * uniformly from the union of their sets (each template weighted by its number of values).  So
 * `<val> := null` next to `<val> := 1..999` gives null one time in 1000, not one time in two, and
 * splitting a set into several templates does not change how often the pool is assigned.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t *s, uint64_t n)
{
	return n ? next(s) % n : 0;
}

/* The first value template of t's pool, or t itself when t is no value template. */
static uint32_t group_of(const tnorm_harness *h, uint32_t t)
{
	uint32_t i;
	if (h->tmpls[t].info.kind != TNORM_TMPL_VALUE)
		return t;
	for (i = 0; i < t; i++)
		if (h->tmpls[i].info.kind == TNORM_TMPL_VALUE &&
		    h->tmpls[i].info.slot[0].pool == h->tmpls[t].info.slot[0].pool)
			return i;
	return t;
}

/* A value template of the group led by `lead`, drawn with weight = its number of values. */
static uint32_t draw_value_template(const tnorm_harness *h, uint32_t lead, uint64_t *st)
{
	uint32_t pool = h->tmpls[lead].info.slot[0].pool, i, ntmpl = 0;
	uint64_t total = 0, r;
	for (i = lead; i < h->ntmpls; i++)
		if (h->tmpls[i].info.kind == TNORM_TMPL_VALUE &&
		    h->tmpls[i].info.slot[0].pool == pool) {
			total += tnorm__slot_count(&h->tmpls[i], 1); /* sums to <= 2^64-1: the action count */
			ntmpl++;
		}
	if (ntmpl == 1)
		return lead; /* no draw: a harness with one value template per pool gets the tests
		              * (and seeds) it got before the weighting */
	r = below(st, total);
	for (i = lead; i < h->ntmpls; i++) {
		uint64_t n;
		if (h->tmpls[i].info.kind != TNORM_TMPL_VALUE || h->tmpls[i].info.slot[0].pool != pool)
			continue;
		n = tnorm__slot_count(&h->tmpls[i], 1);
		if (r < n)
			return i;
		r -= n;
	}
	return lead;
}

/* Can template t run now (every non-LHS pool slot has an assigned instance)? */
static int fillable(const tnorm_harness *h, const tnorm__tmpl *t, const unsigned char *assigned)
{
	uint32_t s, k;
	for (s = t->info.has_lhs ? 1 : 0; s < t->info.nslots; s++) {
		const tnorm__pool *p;
		if (t->info.slot[s].kind != TNORM_SLOT_POOL)
			continue;
		p = &h->pools[t->info.slot[s].pool];
		for (k = 0; k < p->info.instances && !assigned[p->info.first_var + k]; k++)
			;
		if (k == p->info.instances)
			return 0;
	}
	return 1;
}

/* Draws of a guarded template's slots before it is left out of the step (gen's loop). */
#define GUARD_TRIES 16

/* Choose every slot of template tm for action a: values uniformly; a left-hand side among the
 * instances that hold no unused value (all when none), a pool argument among the assigned ones.
 * `inst` has room for a pool's instances. */
static void draw_slots(const tnorm_harness *h, const tnorm__tmpl *tm, tnorm_action *a,
                       const unsigned char *assigned, const unsigned char *fresh, uint32_t *inst,
                       uint64_t *st)
{
	uint32_t s;
	for (s = 0; s < tm->info.nslots; s++) {
		const tnorm__pool *p;
		uint32_t k, m = 0;
		if (tm->info.slot[s].kind == TNORM_SLOT_VALUE) {
			a->choice[s] = (uint32_t)below(st, tnorm__slot_count(tm, s));
			continue;
		}
		p = &h->pools[tm->info.slot[s].pool];
		if (tm->info.has_lhs && s == 0) {
			/* Prefer instances that are not holding an unused value. */
			for (k = 0; k < p->info.instances; k++)
				if (!fresh[p->info.first_var + k])
					inst[m++] = k;
			if (m == 0)
				for (k = 0; k < p->info.instances; k++)
					inst[m++] = k;
		} else {
			for (k = 0; k < p->info.instances; k++)
				if (assigned[p->info.first_var + k])
					inst[m++] = k;
		}
		a->choice[s] = inst[below(st, m)];
	}
}

int tnorm_test_generate(tnorm_test **out, const tnorm_harness *h, size_t steps, uint64_t seed)
{
	tnorm__guards guards;
	tnorm_test *t = NULL;
	unsigned char *assigned = NULL, *fresh = NULL;
	uint32_t *cands = NULL, *inst = NULL, *lead = NULL;
	uint64_t st = seed;
	size_t i;
	int err = 0;

	if (!out || !h)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_generate: NULL argument");
	*out = NULL;
	if ((err = tnorm__guards_init(&guards, h)) < 0 || (err = tnorm_test_new(&t, h)) < 0) {
		tnorm__guards_dispose(&guards);
		return err;
	}
	assigned = tnorm__calloc(h->nvars + 1, 1);
	fresh = tnorm__calloc(h->nvars + 1, 1);
	cands = tnorm__calloc(h->ntmpls + 1, sizeof(*cands));
	inst = tnorm__calloc(1001, sizeof(*inst));
	lead = tnorm__calloc(h->ntmpls + 1, sizeof(*lead));
	if (!assigned || !fresh || !cands || !inst || !lead) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = 0; i < h->ntmpls; i++)
		lead[i] = group_of(h, (uint32_t)i);
	for (i = 0; i < steps; i++) {
		uint32_t n = 0, ti, s;
		tnorm_action a;
		const tnorm__tmpl *tm;
		for (ti = 0; ti < h->ntmpls; ti++)
			if (lead[ti] == ti && fillable(h, &h->tmpls[ti], assigned))
				cands[n++] = ti;
		if (n == 0) {
			err = tnorm__error_set(TNORM_EINVALID, "%s: no template can start a test (every "
			                       "template needs a pool that nothing assigns)", h->name);
			goto done;
		}
		for (;;) {
			uint32_t c = (uint32_t)below(&st, n), tries;
			memset(&a, 0, sizeof(a));
			a.tmpl = cands[c];
			if (h->tmpls[a.tmpl].info.kind == TNORM_TMPL_VALUE)
				a.tmpl = draw_value_template(h, a.tmpl, &st);
			tm = &h->tmpls[a.tmpl];
			draw_slots(h, tm, &a, assigned, fresh, inst, &st);
			/* A step that breaks its guard is drawn again (its slots, a few times), then its
			 * template is left out of this step's draw; an unguarded template is drawn as
			 * before, so harnesses without guards give the tests (and seeds) they gave. */
			for (tries = 1; !tnorm__guards_allow(&guards, &a) && tries < GUARD_TRIES; tries++)
				draw_slots(h, tm, &a, assigned, fresh, inst, &st);
			if (tnorm__guards_allow(&guards, &a))
				break;
			cands[c] = cands[--n];
			if (n == 0) {
				err = tnorm__error_set(TNORM_EINVALID, "%s: no step can come next (every "
				                       "template that could run breaks its guard)", h->name);
				goto done;
			}
		}
		for (s = tm->info.has_lhs ? 1 : 0; s < tm->info.nslots; s++)
			if (tm->info.slot[s].kind == TNORM_SLOT_POOL) {
				uint32_t v = h->pools[tm->info.slot[s].pool].info.first_var + a.choice[s];
				fresh[v] = 0;
				if (tm->info.slot[s].moves)
					assigned[v] = 0; /* the call took its value (move) */
			}
		if (tm->info.has_lhs) {
			uint32_t v = h->pools[tm->info.slot[0].pool].info.first_var + a.choice[0];
			assigned[v] = 1;
			fresh[v] = 1;
		}
		if ((err = tnorm__guards_push(&guards, &a)) < 0 || (err = tnorm_test_append(t, &a)) < 0)
			goto done;
	}
	*out = t;
	t = NULL;
done:
	tnorm__guards_dispose(&guards);
	tnorm_test_free(t);
	free(assigned);
	free(fresh);
	free(cands);
	free(inst);
	free(lead);
	return err;
}

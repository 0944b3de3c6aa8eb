/* SPDX-License-Identifier: MIT */
/*
 * callnorm.c - normalization of what the calls receive (the default rule set, `--rules calls`).
 *
 * The pool program of a test (`int1 = 13`, `avl_insert(avl0, int1)`) says where each value
 * lives; which instance holds it is an accident of the random generator.  Here a test is seen as
 * the sequence of its calls with what each receives:
 *
 *   - a slot of a *value pool* (const, assigned only by value templates, not used by a check)
 *     holds the value itself: a key (value template index << 32 | choice), ordered by the
 *     template's place in the harness, then by the value's place in its set;
 *   - a slot of any other pool holds an *object*: the k-th object of that pool the test creates
 *     (ids follow the order of creation, so renaming instances changes nothing);
 *   - an inline value slot holds its choice.
 *
 * The rules rewrite that sequence (lower a value everywhere or once, give an object's uses to an
 * earlier object, swap adjacent calls, move a call earlier, replace a call by one of a lower
 * template, rewire one use), and a candidate is accepted when it is lower in the order
 * (number of calls, then the calls lexicographically: template, then each argument) and the
 * program still fails the same way.  The test that runs, and that is printed, is derived from the
 * sequence by one deterministic lowering: objects go to the lowest instance never used, else to
 * the lowest whose object is not used again; a value is assigned just before the call that needs
 * it, into an instance that holds nothing yet, else into the one whose value is needed furthest
 * ahead (Belady's rule, which makes the fewest assignments).  One sequence has one printed test.
 *
 * After an accepted rewrite the calls are reduced one at a time (a call, or an object's creation
 * with every call that uses the object), until none can go.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "internal_normalize.h"
#include "model.h"

#define NONE UINT64_MAX

enum { K_LHS, K_VAL, K_OBJ, K_CH };

typedef struct {
	uint32_t tmpl;
	uint64_t arg[TNORM_MAX_SLOTS]; /* K_LHS: the object defined; K_VAL: value key; K_OBJ: object
	                                  id; K_CH: choice */
} ccall;

typedef struct {
	ccall *c;
	size_t n;
} cseq;

typedef struct {
	tnorm__rewrite_base b; /* what both rule sets have (internal_normalize.h) */
	uint32_t ntmpl, npool, nvars;
	tnorm_template_info *ti;
	tnorm_pool_info *pi;
	unsigned char *inl;   /* per pool: 1 when its values are inlined */
	unsigned char *alpha; /* per pool, 256 each: the bytes its string values are made of */
	cseq cur;
	tnorm_test *cur_test; /* the lowered form of cur */
} cz;

static int slot_kind(const cz *z, uint32_t tmpl, uint32_t s)
{
	const tnorm_template_info *t = &z->ti[tmpl];
	if (s == 0 && t->has_lhs)
		return K_LHS;
	if (t->slot[s].kind == TNORM_SLOT_VALUE)
		return K_CH;
	return z->inl[t->slot[s].pool] ? K_VAL : K_OBJ;
}

static uint64_t vkey(uint32_t tmpl, uint32_t choice)
{
	return (uint64_t)tmpl << 32 | choice;
}

static void seq_free(cseq *s)
{
	free(s->c);
	s->c = NULL;
	s->n = 0;
}

static int seq_copy(cseq *d, const cseq *s)
{
	d->n = s->n;
	d->c = tnorm__calloc(s->n ? s->n : 1, sizeof(*d->c));
	if (!d->c)
		return TNORM_ENOMEM;
	if (s->n)
		memcpy(d->c, s->c, s->n * sizeof(*d->c));
	return 0;
}

static void seq_remove(cseq *s, size_t i)
{
	memmove(&s->c[i], &s->c[i + 1], (s->n - i - 1) * sizeof(*s->c));
	s->n--;
}

/* ---- from a pool program and back ----------------------------------------------------------- */

/* The calls of a well-formed test.  TNORM_EINVALID when a step uses an unassigned instance. */
static int lift(cz *z, const tnorm_test *t, cseq *out)
{
	size_t n = tnorm_test_len(t), i;
	uint64_t *val = tnorm__malloc((z->nvars ? z->nvars : 1) * sizeof(*val));
	uint64_t *made = tnorm__calloc(z->npool ? z->npool : 1, sizeof(*made));
	int err = 0;
	out->n = 0;
	out->c = tnorm__calloc(n ? n : 1, sizeof(*out->c));
	if (!val || !made || !out->c) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = 0; i < z->nvars; i++)
		val[i] = NONE;
	for (i = 0; i < n; i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		const tnorm_template_info *ti = &z->ti[a->tmpl];
		ccall *c = &out->c[out->n];
		uint32_t s;
		if (ti->kind == TNORM_TMPL_VALUE && z->inl[ti->slot[0].pool]) {
			val[z->pi[ti->slot[0].pool].first_var + a->choice[0]] = vkey(a->tmpl, a->choice[1]);
			continue;
		}
		memset(c, 0, sizeof(*c));
		c->tmpl = a->tmpl;
		for (s = 0; s < ti->nslots; s++) {
			int k = slot_kind(z, a->tmpl, s);
			if (k == K_CH) {
				c->arg[s] = a->choice[s];
			} else if (k != K_LHS) {
				c->arg[s] = val[z->pi[ti->slot[s].pool].first_var + a->choice[s]];
				if (c->arg[s] == NONE) {
					err = tnorm__error_set(TNORM_EINVALID, "step %zu uses an unassigned instance",
					                       i + 1);
					goto done;
				}
			}
		}
		if (ti->has_lhs) {
			uint32_t p = ti->slot[0].pool;
			c->arg[0] = made[p]++;
			val[z->pi[p].first_var + a->choice[0]] = c->arg[0];
		}
		out->n++;
	}
done:
	free(val);
	free(made);
	if (err < 0)
		seq_free(out);
	return err;
}

/*
 * Renumber the objects in order of creation.  1 when every use names an object created by an
 * earlier call, 0 when not (the candidate is not a test), <0 on OOM.
 */
static int canon(cz *z, cseq *q)
{
	uint64_t maxid = 0, *map, *next;
	size_t i, width;
	uint32_t s;
	int ok = 1;
	for (i = 0; i < q->n; i++)
		for (s = 0; s < z->ti[q->c[i].tmpl].nslots; s++) {
			int k = slot_kind(z, q->c[i].tmpl, s);
			if ((k == K_LHS || k == K_OBJ) && q->c[i].arg[s] + 1 > maxid)
				maxid = q->c[i].arg[s] + 1;
		}
	width = (size_t)maxid;
	map = tnorm__malloc((width ? width : 1) * (z->npool ? z->npool : 1) * sizeof(*map));
	next = tnorm__calloc(z->npool ? z->npool : 1, sizeof(*next));
	if (!map || !next) {
		free(map);
		free(next);
		return TNORM_ENOMEM;
	}
	for (i = 0; i < width * z->npool; i++)
		map[i] = NONE;
	for (i = 0; i < q->n && ok; i++) {
		ccall *c = &q->c[i];
		const tnorm_template_info *ti = &z->ti[c->tmpl];
		for (s = 0; s < ti->nslots && ok; s++) {
			if (slot_kind(z, c->tmpl, s) != K_OBJ)
				continue;
			c->arg[s] = map[ti->slot[s].pool * width + c->arg[s]];
			ok = c->arg[s] != NONE;
		}
		if (ok && ti->has_lhs) {
			uint64_t *m = &map[ti->slot[0].pool * width + c->arg[0]];
			*m = next[ti->slot[0].pool]++;
			c->arg[0] = *m;
		}
	}
	free(map);
	free(next);
	return ok;
}

/* Next use of value `v` at or after call i, slot `from` (in this call), as a distance. */
static uint64_t next_use(const cz *z, const cseq *q, size_t i, uint32_t from, uint64_t v)
{
	size_t j;
	uint32_t s;
	for (j = i; j < q->n; j++)
		for (s = j == i ? from : 0; s < z->ti[q->c[j].tmpl].nslots; s++)
			if (slot_kind(z, q->c[j].tmpl, s) == K_VAL && q->c[j].arg[s] == v)
				return (uint64_t)j * TNORM_MAX_SLOTS + s;
	return NONE;
}

/* Is object `id` of pool p used by a call after call i? */
static int used_after(const cz *z, const cseq *q, size_t i, uint32_t p, uint64_t id)
{
	size_t j;
	uint32_t s;
	for (j = i + 1; j < q->n; j++)
		for (s = 0; s < z->ti[q->c[j].tmpl].nslots; s++)
			if (slot_kind(z, q->c[j].tmpl, s) == K_OBJ && z->ti[q->c[j].tmpl].slot[s].pool == p &&
			    q->c[j].arg[s] == id)
				return 1;
	return 0;
}

/*
 * The instance (of the `ninst` whose held objects and ever-used flags are held[] and ever[]) a
 * new object of pool p made by call i goes to: the lowest instance never used, else one whose
 * object is not used again (an argument of this very call is read before it is replaced).
 * UINT32_MAX when every instance holds an object used later.
 */
static uint32_t new_object_instance(const cz *z, const cseq *q, size_t i, uint32_t p,
                                    const uint64_t *held, const unsigned char *ever, uint32_t ninst)
{
	uint32_t k;
	for (k = 0; k < ninst; k++)
		if (!ever[k])
			return k;
	for (k = 0; k < ninst; k++)
		if (!used_after(z, q, i, p, held[k]))
			return k;
	return UINT32_MAX;
}

/*
 * The instance a value of slot s of call i that no instance holds goes to: the lowest instance
 * never used, else by Belady's rule the unpinned one whose value is next used farthest away.
 * UINT32_MAX when every instance is pinned by this call.
 */
static uint32_t value_instance(const cz *z, const cseq *q, size_t i, uint32_t s,
                               const uint64_t *held, const unsigned char *ever,
                               const unsigned char *pin, uint32_t ninst)
{
	uint32_t k, best = UINT32_MAX;
	uint64_t far = 0;
	for (k = 0; k < ninst; k++)
		if (!ever[k])
			return k;
	for (k = 0; k < ninst; k++) {
		uint64_t d;
		if (pin[k])
			continue;
		d = next_use(z, q, i, s + 1, held[k]);
		if (best == UINT32_MAX || d > far) {
			best = k;
			far = d;
			if (d == NONE)
				break;
		}
	}
	return best;
}

/*
 * The pool program of a canonical sequence (see the top of the file).  *out is NULL when it does
 * not fit the pools' instances.  0 or <0.
 */
static int lower(cz *z, const cseq *q, tnorm_test **out)
{
	uint64_t *held = tnorm__malloc((z->nvars ? z->nvars : 1) * sizeof(*held));
	unsigned char *pin = tnorm__calloc(z->nvars ? z->nvars : 1, 1);
	unsigned char *ever = tnorm__calloc(z->nvars ? z->nvars : 1, 1);
	tnorm_test *t = NULL;
	size_t i;
	int err = 0, fits = 1;
	*out = NULL;
	if (!held || !pin || !ever || (err = tnorm_test_new(&t, z->b.h)) < 0) {
		err = err < 0 ? err : TNORM_ENOMEM;
		goto done;
	}
	for (i = 0; i < z->nvars; i++)
		held[i] = NONE;
	for (i = 0; i < q->n && fits && err == 0; i++) {
		const ccall *c = &q->c[i];
		const tnorm_template_info *ti = &z->ti[c->tmpl];
		tnorm_action a;
		uint32_t s, k;
		memset(&a, 0, sizeof(a));
		memset(pin, 0, z->nvars);
		a.tmpl = c->tmpl;
		for (s = 0; s < ti->nslots && fits && err == 0; s++) {
			int kind = slot_kind(z, c->tmpl, s);
			uint32_t p = ti->slot[s].pool, base = kind == K_CH ? 0 : z->pi[p].first_var;
			uint32_t ninst = kind == K_CH ? 0 : z->pi[p].instances, best = UINT32_MAX;
			if (kind == K_CH) {
				a.choice[s] = (uint32_t)c->arg[s];
				continue;
			}
			if (kind == K_LHS) {
				/* A new object: the lowest instance never used, else one whose object is not
				 * used again (an argument of this very call is read before it is replaced). */
				best = new_object_instance(z, q, i, p, held + base, ever + base, ninst);
				if (best == UINT32_MAX) {
					fits = 0;
					break;
				}
				a.choice[0] = best; /* held[] is updated after the arguments are read */
				continue;
			}
			for (k = 0; k < ninst; k++)
				if (ever[base + k] && held[base + k] == c->arg[s])
					break;
			if (kind == K_OBJ) {
				if (k == ninst)
					fits = 0;
				a.choice[s] = k;
				continue;
			}
			if (k < ninst) {
				a.choice[s] = k;
				pin[base + k] = 1;
				continue;
			}
			/* A value not in any instance: assign it, evicting by Belady's rule. */
			best = value_instance(z, q, i, s, held + base, ever + base, pin + base, ninst);
			if (best == UINT32_MAX) {
				fits = 0;
				break;
			}
			{
				tnorm_action set;
				memset(&set, 0, sizeof(set));
				set.tmpl = (uint32_t)(c->arg[s] >> 32);
				set.choice[0] = best;
				set.choice[1] = (uint32_t)(c->arg[s] & 0xffffffffu);
				err = tnorm_test_append(t, &set);
			}
			held[base + best] = c->arg[s];
			ever[base + best] = 1;
			pin[base + best] = 1;
			a.choice[s] = best;
		}
		if (fits && err == 0 && ti->has_lhs) {
			uint32_t b = z->pi[ti->slot[0].pool].first_var + a.choice[0];
			held[b] = c->arg[0];
			ever[b] = 1;
		}
		if (fits && err == 0)
			err = tnorm_test_append(t, &a);
	}
	if (fits && err == 0) {
		*out = t;
		t = NULL;
	}
done:
	tnorm_test_free(t);
	free(held);
	free(pin);
	free(ever);
	return err;
}

/* ---- the order ------------------------------------------------------------------------------- */

static int call_cmp(const cz *z, const ccall *a, const ccall *b)
{
	uint32_t s;
	if (a->tmpl != b->tmpl)
		return a->tmpl < b->tmpl ? -1 : 1;
	for (s = 0; s < z->ti[a->tmpl].nslots; s++)
		if (slot_kind(z, a->tmpl, s) != K_LHS && a->arg[s] != b->arg[s])
			return a->arg[s] < b->arg[s] ? -1 : 1;
	return 0;
}

/* Fewer calls first, then the calls lexicographically.  Both canonical. */
static int seq_cmp(const cz *z, const cseq *a, const cseq *b)
{
	size_t i;
	int c;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = 0; i < a->n; i++)
		if ((c = call_cmp(z, &a->c[i], &b->c[i])) != 0)
			return c;
	return 0;
}

/* ---- text for the log ---------------------------------------------------------------------- */

static void put_literal(tnorm__buf *b, const cz *z, uint32_t tmpl, uint32_t slot, uint64_t v)
{
	tnorm_literal lit;
	if (tnorm_harness_value(z->b.h, tmpl, slot, v, &lit) < 0)
		tnorm__buf_puts(b, "?");
	else if (lit.kind == TNORM_LIT_INT)
		tnorm__buf_printf(b, "%lld", (long long)lit.i);
	else if (lit.kind == TNORM_LIT_NULL)
		tnorm__buf_puts(b, "null");
	else
		tnorm__buf_put_quoted(b, lit.s, lit.len);
}

static void put_value(tnorm__buf *b, const cz *z, uint64_t key)
{
	put_literal(b, z, (uint32_t)(key >> 32), 1, key & 0xffffffffu);
}

static void put_call(tnorm__buf *b, const cz *z, const ccall *c)
{
	const tnorm_template_info *ti = &z->ti[c->tmpl];
	uint32_t s;
	if (ti->has_lhs)
		tnorm__buf_printf(b, "%s#%llu = ", z->pi[ti->slot[0].pool].name,
		                  (unsigned long long)c->arg[0]);
	if (ti->kind == TNORM_TMPL_VALUE) {
		put_literal(b, z, c->tmpl, 1, c->arg[1]);
		return;
	}
	tnorm__buf_printf(b, "%s(", ti->name);
	for (s = ti->has_lhs ? 1 : 0; s < ti->nslots; s++) {
		int k = slot_kind(z, c->tmpl, s);
		if (s > (ti->has_lhs ? 1u : 0u))
			tnorm__buf_puts(b, ", ");
		if (k == K_OBJ)
			tnorm__buf_printf(b, "%s#%llu", z->pi[ti->slot[s].pool].name,
			                  (unsigned long long)c->arg[s]);
		else if (k == K_VAL)
			put_value(b, z, c->arg[s]);
		else
			put_literal(b, z, c->tmpl, s, c->arg[s]);
	}
	tnorm__buf_putc(b, ')');
}

/* ---- asking ------------------------------------------------------------------------------- */

static int seen_before(cz *z, const tnorm_test *t)
{
	return tnorm__seen_add(&z->b.seen, tnorm_test_hash(t));
}

/* Ask the oracle about a lowered test.  One that breaks a guard (issue 16) is invalid without a
 * run: lowering keeps every use after its definition, but knows nothing of guards. */
static int ask_oracle(cz *z, const tnorm_test *t, int *yes)
{
	*yes = 0;
	if (!tnorm_test_is_wellformed(t))
		return 0;
	return z->b.fn(z->b.ctx, t, yes);
}

/* Does the lowered form of canonical `q` fail?  *lowered receives it when it does (else NULL). */
static int ask(cz *z, const cseq *q, int *yes, tnorm_test **lowered)
{
	tnorm_test *t = NULL;
	int err;
	*yes = 0;
	if (lowered)
		*lowered = NULL;
	if ((err = lower(z, q, &t)) < 0 || !t)
		return err;
	if ((err = ask_oracle(z, t, yes)) < 0 || !*yes || !lowered)
		tnorm_test_free(t);
	else
		*lowered = t;
	return err;
}

/* Remove calls one at a time (an object's creation together with its uses too) while the test
 * still fails.  q is canonical and fails; on return it is reduced. */
static int reduce_calls(cz *z, cseq *q)
{
	int changed = 1, err = 0;
	while (changed && err == 0) {
		size_t i;
		changed = 0;
		for (i = q->n; i-- > 0 && err == 0;) {
			cseq c = {NULL, 0};
			int ok, yes = 0, pass;
			for (pass = 0; pass < 2 && err == 0; pass++) {
				const tnorm_template_info *ti = &z->ti[q->c[i].tmpl];
				if ((err = seq_copy(&c, q)) < 0)
					break;
				if (pass == 1) {
					/* The creation with every call that uses its object. */
					uint32_t p = ti->slot[0].pool;
					uint64_t id = q->c[i].arg[0];
					size_t j, removed = 0;
					if (!ti->has_lhs) {
						seq_free(&c);
						break;
					}
					for (j = c.n; j-- > i + 1;) {
						uint32_t s;
						int uses = 0;
						for (s = 0; s < z->ti[c.c[j].tmpl].nslots; s++)
							uses |= slot_kind(z, c.c[j].tmpl, s) == K_OBJ &&
							        z->ti[c.c[j].tmpl].slot[s].pool == p && c.c[j].arg[s] == id;
						if (uses) {
							seq_remove(&c, j);
							removed++;
						}
					}
					if (!removed) {
						seq_free(&c);
						break;
					}
				}
				seq_remove(&c, i);
				if ((ok = canon(z, &c)) < 0) {
					err = ok;
				} else if (ok) {
					tnorm_test *t = NULL;
					if ((err = lower(z, &c, &t)) == 0 && t) {
						int dup = seen_before(z, t);
						if (dup < 0)
							err = dup;
						else if (!dup)
							err = ask_oracle(z, t, &yes);
					}
					tnorm_test_free(t);
				}
				if (err == 0 && yes) {
					seq_free(q);
					*q = c;
					changed = 1;
					if (i > q->n)
						i = q->n;
					break;
				}
				seq_free(&c);
			}
		}
	}
	return err;
}

/*
 * Ask about a candidate (not yet canonical; consumed).  Accept it, reduced, when it is lower than
 * the current test (or, with `shorten`, when its reduction is shorter) and still fails.
 * 1 accepted, 0 not, <0 error.
 */
static int try_cand(cz *z, cseq *c, tnorm_rule rule, int shorten, const char *what)
{
	tnorm_test *t = NULL;
	int ok, yes = 0, err, dup = 0;
	if ((ok = canon(z, c)) <= 0 || (!shorten && seq_cmp(z, c, &z->cur) >= 0)) {
		seq_free(c);
		return ok < 0 ? ok : 0;
	}
	if ((err = lower(z, c, &t)) < 0 || !t) {
		seq_free(c);
		return err;
	}
	if (!tnorm_test_is_wellformed(t) || (dup = seen_before(z, t)) != 0) {
		tnorm_test_free(t);
		seq_free(c);
		return dup < 0 ? dup : 0;
	}
	z->b.st->candidates++;
	z->b.st->asked[rule]++;
	err = z->b.fn(z->b.ctx, t, &yes);
	tnorm_test_free(t);
	if (err < 0 || !yes) {
		seq_free(c);
		return err;
	}
	if ((err = reduce_calls(z, c)) < 0 || seq_cmp(z, c, &z->cur) >= 0 ||
	    (shorten && c->n >= z->cur.n)) {
		seq_free(c);
		return err;
	}
	if ((err = lower(z, c, &t)) < 0 || !t) {
		seq_free(c);
		return err < 0 ? err : 0;
	}
	seq_free(&z->cur);
	z->cur = *c;
	tnorm_test_free(z->cur_test);
	z->cur_test = t;
	z->b.st->rewrites++;
	z->b.st->per_rule[rule]++;
	if (z->b.log)
		z->b.log(z->b.lctx, rule, what);
	return 1;
}

/* ---- the rules ------------------------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* ---- values of a pool, by their literal ---------------------------------------------------- */

static const tnorm__vset *vset_of(const cz *z, uint32_t tmpl)
{
	return &z->b.h->tmpls[tmpl].vset[1];
}

/* The key of literal `lit` in pool p: in template `prefer` if it is there, else the first value
 * template of p that has it.  NONE when no value set of the pool holds it. */
static uint64_t find_value(const cz *z, uint32_t p, uint32_t prefer, const tnorm_literal *lit)
{
	uint32_t t, pass;
	for (pass = 0; pass < 2; pass++)
		for (t = pass ? 0 : prefer; t < (pass ? z->ntmpl : prefer + 1); t++) {
			const tnorm__vset *v;
			uint64_t k;
			if (z->ti[t].kind != TNORM_TMPL_VALUE || z->ti[t].slot[0].pool != p)
				continue;
			v = vset_of(z, t);
			if (v->is_range) {
				if (lit->kind == TNORM_LIT_INT && lit->i >= v->lo && lit->i <= v->hi)
					return vkey(t, (uint32_t)(lit->i - v->lo));
				continue;
			}
			if (v->gen) {
				/* a generated domain: its rank is its place in shortlex order */
				if (lit->kind == TNORM_LIT_STRING &&
				    (k = tnorm__gen_rank(v->gen, lit->s, lit->len)) != UINT64_MAX)
					return vkey(t, (uint32_t)k);
				continue;
			}
			for (k = 0; k < v->nlits; k++)
				if (v->lits[k].kind == lit->kind &&
				    (lit->kind == TNORM_LIT_NULL ||
				     (lit->kind == TNORM_LIT_INT
				          ? v->lits[k].i == lit->i
				          : v->lits[k].len == lit->len && !memcmp(v->lits[k].s, lit->s, lit->len))))
					return vkey(t, (uint32_t)k);
		}
	return NONE;
}

enum { MAP_SUB, MAP_CHAR, MAP_DROP_FIRST, MAP_DROP_LAST };

/* Apply a map to one value; NONE when the result is in no value set of the pool. */
static uint64_t map_value(const cz *z, uint32_t p, uint64_t key, int how, int64_t d,
                          unsigned char from, unsigned char to)
{
	uint32_t vt = (uint32_t)(key >> 32);
	tnorm_literal lit;
	char buf[512];
	size_t j;
	if (tnorm_harness_value(z->b.h, vt, 1, key & 0xffffffffu, &lit) < 0)
		return NONE;
	if (how == MAP_SUB) {
		if (lit.kind != TNORM_LIT_INT)
			return key;
		lit.i -= d;
		return find_value(z, p, vt, &lit);
	}
	if (lit.kind != TNORM_LIT_STRING)
		return key;
	if (lit.len > sizeof(buf))
		return NONE;
	memcpy(buf, lit.s, lit.len);
	if (how == MAP_CHAR) {
		for (j = 0; j < lit.len; j++)
			if ((unsigned char)buf[j] == from)
				buf[j] = (char)to;
	} else if (lit.len == 0) {
		return NONE;
	} else if (how == MAP_DROP_FIRST) {
		memmove(buf, buf + 1, lit.len - 1);
		lit.len--;
	} else {
		lit.len--;
	}
	lit.s = buf;
	return find_value(z, p, vt, &lit);
}

/*
 * Values below `v` of its pool to try, lowest first: the lowest value of each lower value
 * template of the pool, then within v's own set the lowest, then v - 2^k for k from 30 down to 0
 * (Hypothesis's integer shrinking: asked lowest first and again after each accepted rewrite, it
 * converges like a binary search).  Returns the count (at most 64).
 */
static size_t lower_values(cz *z, uint32_t pool, uint64_t v, uint64_t *out)
{
	uint32_t vt = (uint32_t)(v >> 32), ch = (uint32_t)(v & 0xffffffffu), t, step;
	size_t n = 0, i, m = 0;
	int how, c;
	for (t = 0; t < vt; t++)
		if (z->ti[t].kind == TNORM_TMPL_VALUE && z->ti[t].slot[0].pool == pool)
			out[n++] = vkey(t, 0);
	/* a string shortened at either end, or a character of it lowered to the alphabet's first,
	 * wherever in the pool's sets that string is */
	for (how = MAP_DROP_FIRST; how <= MAP_DROP_LAST; how++) {
		uint64_t w = map_value(z, pool, v, how, 0, 0, 0);
		if (w != NONE && w < v)
			out[n++] = w;
	}
	for (c = 0; c < 256 && !z->alpha[pool * 256 + c]; c++)
		;
	for (i = 0; c < 256; i++) {
		tnorm_literal lit;
		uint64_t w;
		if (tnorm_harness_value(z->b.h, vt, 1, ch, &lit) < 0 || lit.kind != TNORM_LIT_STRING ||
		    i >= lit.len)
			break;
		if (i == 8) {
			z->b.st->capped++;
			break;
		}
		w = map_value(z, pool, v, MAP_CHAR, 0, (unsigned char)lit.s[i], (unsigned char)c);
		if (w != NONE && w < v)
			out[n++] = w;
	}
	if (ch > 0)
		out[n++] = vkey(vt, 0);
	for (step = 1u << 30; step; step >>= 1)
		if (step < ch)
			out[n++] = vkey(vt, ch - step);
	qsort(out, n, sizeof(*out), cmp_u64);
	for (i = 0; i < n; i++)
		if (m == 0 || out[m - 1] != out[i])
			out[m++] = out[i];
	return m;
}

/* Lower inline choices (K_CH) the same way. */
static size_t lower_choices(uint64_t ch, uint64_t *out)
{
	size_t n = 0;
	uint64_t step;
	if (ch > 0)
		out[n++] = 0;
	for (step = 1u << 30; step; step >>= 1)
		if (step < ch)
			out[n++] = ch - step;
	qsort(out, n, sizeof(*out), cmp_u64);
	return n;
}

/* SimplifyAll (a value everywhere) and SimplifySingle (one argument, value or inline choice). */
static int simplify(cz *z, int all)
{
	size_t i, k, nl;
	uint32_t s;
	uint64_t lo[80];
	int r = 0;
	for (i = 0; r == 0 && i < z->cur.n; i++) {
		for (s = 0; r == 0 && s < z->ti[z->cur.c[i].tmpl].nslots; s++) {
			uint32_t tmpl = z->cur.c[i].tmpl, pool = z->ti[tmpl].slot[s].pool;
			int kind = slot_kind(z, tmpl, s);
			uint64_t v = z->cur.c[i].arg[s];
			if (kind == K_LHS || kind == K_OBJ || (all && kind == K_CH))
				continue;
			if (all) {
				/* each value once, at its first use */
				size_t j;
				uint32_t u;
				int before = 0;
				for (j = 0; j <= i && !before; j++)
					for (u = 0; u < z->ti[z->cur.c[j].tmpl].nslots && !before; u++)
						before = (j < i || u < s) &&
						         slot_kind(z, z->cur.c[j].tmpl, u) == K_VAL &&
						         z->cur.c[j].arg[u] == v;
				if (before)
					continue;
			}
			nl = kind == K_VAL ? lower_values(z, pool, v, lo) : lower_choices(v, lo);
			for (k = 0; r == 0 && k < nl; k++) {
				cseq c;
				tnorm__buf what = TNORM__BUF_INIT;
				size_t j;
				if ((r = seq_copy(&c, &z->cur)) < 0)
					break;
				if (all) {
					uint32_t u;
					for (j = 0; j < c.n; j++)
						for (u = 0; u < z->ti[c.c[j].tmpl].nslots; u++)
							if (slot_kind(z, c.c[j].tmpl, u) == K_VAL && c.c[j].arg[u] == v)
								c.c[j].arg[u] = lo[k];
					put_value(&what, z, v);
					tnorm__buf_puts(&what, " -> ");
					put_value(&what, z, lo[k]);
					tnorm__buf_puts(&what, " (every use)");
				} else {
					c.c[i].arg[s] = lo[k];
					tnorm__buf_printf(&what, "(call %zu: ", i);
					put_call(&what, z, &z->cur.c[i]);
					tnorm__buf_puts(&what, ") -> (");
					put_call(&what, z, &c.c[i]);
					tnorm__buf_putc(&what, ')');
				}
				r = try_cand(z, &c, all ? TNORM_RULE_SIMPLIFY_ALL : TNORM_RULE_SIMPLIFY_SINGLE, 0,
				             what.ptr ? what.ptr : "");
				tnorm__buf_dispose(&what);
			}
		}
	}
	return r;
}

/* Every use of an object given to an earlier object of its pool (then its creation can go). */
static int replace_object(cz *z)
{
	uint32_t p;
	int r = 0;
	for (p = 0; r == 0 && p < z->npool; p++) {
		uint64_t made = 0, a, b;
		size_t i;
		if (z->inl[p])
			continue;
		for (i = 0; i < z->cur.n; i++)
			if (z->ti[z->cur.c[i].tmpl].has_lhs && z->ti[z->cur.c[i].tmpl].slot[0].pool == p)
				made++;
		for (b = 1; r == 0 && b < made; b++) {
			for (a = 0; r == 0 && a < b; a++) {
				cseq c;
				tnorm__buf what = TNORM__BUF_INIT;
				uint32_t s;
				if ((r = seq_copy(&c, &z->cur)) < 0)
					break;
				for (i = 0; i < c.n; i++)
					for (s = 0; s < z->ti[c.c[i].tmpl].nslots; s++)
						if (slot_kind(z, c.c[i].tmpl, s) == K_OBJ &&
						    z->ti[c.c[i].tmpl].slot[s].pool == p && c.c[i].arg[s] == b)
							c.c[i].arg[s] = a;
				tnorm__buf_printf(&what, "%s#%llu -> %s#%llu (every use)", z->pi[p].name,
				                  (unsigned long long)b, z->pi[p].name, (unsigned long long)a);
				r = try_cand(z, &c, TNORM_RULE_REPLACE_POOL, 0, what.ptr);
				tnorm__buf_dispose(&what);
			}
		}
	}
	return r;
}

/* Swap adjacent calls, or move a call further up, when that lowers the sequence. */
static int move_calls(cz *z, int adjacent)
{
	size_t i, j;
	int r = 0;
	for (j = 1; r == 0 && j < z->cur.n; j++) {
		for (i = adjacent ? j - 1 : 0; r == 0 && i + (adjacent ? 0 : 1) < j; i++) {
			cseq c;
			ccall moved;
			tnorm__buf what = TNORM__BUF_INIT;
			if ((r = seq_copy(&c, &z->cur)) < 0)
				break;
			moved = c.c[j];
			memmove(&c.c[i + 1], &c.c[i], (j - i) * sizeof(*c.c));
			c.c[i] = moved;
			tnorm__buf_printf(&what, "(call %zu: ", j);
			put_call(&what, z, &moved);
			tnorm__buf_printf(&what, adjacent ? ") <-> (call %zu)" : ") moved to call %zu", i);
			r = try_cand(z, &c, adjacent ? TNORM_RULE_SWAP_ACTION : TNORM_RULE_MOVE_ACTION, 0,
			             what.ptr);
			tnorm__buf_dispose(&what);
		}
	}
	return r;
}

/* The `r`-th value template of pool p (clipped to its last); ntmpl when it has none. */
static uint32_t nth_value_template(const cz *z, uint32_t p, uint32_t r)
{
	uint32_t t, last = z->ntmpl;
	for (t = 0; t < z->ntmpl; t++)
		if (z->ti[t].kind == TNORM_TMPL_VALUE && z->ti[t].slot[0].pool == p) {
			last = t;
			if (r-- == 0)
				break;
		}
	return last;
}

/*
 * A call replaced by one of a lower template of compatible shape: the same left-hand-side pool
 * (or none); each pool argument taken from the call's own arguments of that pool, in order, or
 * else the pool's first object, or for a value pool the lowest value of its first value template,
 * then of its second, ... (so `f(t, k, null)` can become `f(t, k, <v>)` with v = null);
 * inline values their lowest.
 */
static int replace_call(cz *z)
{
	size_t i;
	int r = 0;
	for (i = 0; r == 0 && i < z->cur.n; i++) {
		const ccall *c0 = &z->cur.c[i];
		const tnorm_template_info *t0 = &z->ti[c0->tmpl];
		uint32_t t;
		for (t = 0; r == 0 && t < c0->tmpl; t++) {
			const tnorm_template_info *t1 = &z->ti[t];
			uint32_t variant, nvariants = 1;
			if (t1->has_lhs != t0->has_lhs || (t1->has_lhs && t1->slot[0].pool != t0->slot[0].pool))
				continue;
			if (t1->kind == TNORM_TMPL_VALUE && z->inl[t1->slot[0].pool])
				continue;
			for (variant = 0; r == 0 && variant < nvariants; variant++) {
				unsigned char taken[TNORM_MAX_SLOTS] = {0};
				cseq c;
				ccall nc;
				uint32_t s, u;
				int fits = 1;
				tnorm__buf what = TNORM__BUF_INIT;
				memset(&nc, 0, sizeof(nc));
				nc.tmpl = t;
				if (t1->has_lhs)
					nc.arg[0] = c0->arg[0];
				for (s = t1->has_lhs ? 1 : 0; s < t1->nslots && fits; s++) {
					int k = slot_kind(z, t, s);
					uint32_t vt, nv = 0;
					if (k == K_CH) {
						nc.arg[s] = 0;
						continue;
					}
					for (u = t0->has_lhs ? 1 : 0; u < t0->nslots; u++)
						if (!taken[u] && t0->slot[u].kind == TNORM_SLOT_POOL &&
						    t0->slot[u].pool == t1->slot[s].pool)
							break;
					if (u < t0->nslots) {
						taken[u] = 1;
						nc.arg[s] = c0->arg[u];
						continue;
					}
					if (k == K_OBJ) {
						nc.arg[s] = 0;
						continue;
					}
					vt = nth_value_template(z, t1->slot[s].pool, variant);
					fits = vt < z->ntmpl;
					nc.arg[s] = vkey(vt, 0);
					while (nth_value_template(z, t1->slot[s].pool, nv) !=
					       nth_value_template(z, t1->slot[s].pool, nv + 1))
						nv++;
					if (nv + 1 > nvariants)
						nvariants = nv + 1;
				}
				if (!fits || (r = seq_copy(&c, &z->cur)) < 0)
					continue;
				c.c[i] = nc;
				tnorm__buf_printf(&what, "(call %zu: ", i);
				put_call(&what, z, c0);
				tnorm__buf_puts(&what, ") -> (");
				put_call(&what, z, &nc);
				tnorm__buf_putc(&what, ')');
				r = try_cand(z, &c, TNORM_RULE_REPLACE_CALL, 0, what.ptr);
				tnorm__buf_dispose(&what);
			}
		}
	}
	return r;
}

/*
 * ShiftValues: the values of one pool lowered together, keeping what relates them.  Two values
 * exchanged at every use (the first used gets the lower name).  Integers:
 * every one minus the same amount (the largest that keeps each in its set first, then halves),
 * which keeps their order and differences.  Strings: one character replaced by a lower one of
 * the pool's alphabet in every value, or the first or the last character dropped from every
 * value, which keeps prefixes prefixes.  Each new value must be in a value set of the pool.
 */
static int try_map(cz *z, uint32_t p, int how, int64_t d, unsigned char from, unsigned char to)
{
	cseq c;
	size_t i;
	uint32_t s;
	int r, changed = 0;
	tnorm__buf what = TNORM__BUF_INIT;
	if ((r = seq_copy(&c, &z->cur)) < 0)
		return r;
	for (i = 0; i < c.n; i++)
		for (s = 0; s < z->ti[c.c[i].tmpl].nslots; s++) {
			uint64_t w;
			if (slot_kind(z, c.c[i].tmpl, s) != K_VAL || z->ti[c.c[i].tmpl].slot[s].pool != p)
				continue;
			if ((w = map_value(z, p, c.c[i].arg[s], how, d, from, to)) == NONE) {
				seq_free(&c);
				return 0;
			}
			changed |= w != c.c[i].arg[s];
			c.c[i].arg[s] = w;
		}
	if (!changed) {
		seq_free(&c);
		return 0;
	}
	if (how == MAP_SUB)
		tnorm__buf_printf(&what, "every %s value minus %lld", z->pi[p].name, (long long)d);
	else if (how == MAP_CHAR)
		tnorm__buf_printf(&what, "'%c' -> '%c' in every %s value", from, to, z->pi[p].name);
	else
		tnorm__buf_printf(&what, "the %s character of every %s value dropped",
		                  how == MAP_DROP_FIRST ? "first" : "last", z->pi[p].name);
	r = try_cand(z, &c, TNORM_RULE_SHIFT_VALUES, 0, what.ptr ? what.ptr : "");
	tnorm__buf_dispose(&what);
	return r;
}

/* Two values of pool p exchanged at every use (the values' roles kept, their names swapped). */
static int exchange_values(cz *z, uint32_t p)
{
	uint64_t vals[64];
	size_t nv = 0, i, a, b, j;
	uint32_t s;
	int r = 0;
	for (i = 0; i < z->cur.n; i++)
		for (s = 0; s < z->ti[z->cur.c[i].tmpl].nslots; s++) {
			if (slot_kind(z, z->cur.c[i].tmpl, s) != K_VAL || z->ti[z->cur.c[i].tmpl].slot[s].pool != p)
				continue;
			for (j = 0; j < nv && vals[j] != z->cur.c[i].arg[s]; j++)
				;
			if (j == nv && nv < sizeof(vals) / sizeof(vals[0]))
				vals[nv++] = z->cur.c[i].arg[s];
		}
	for (a = 0; r == 0 && a < nv; a++)
		for (b = a + 1; r == 0 && b < nv; b++) {
			cseq c;
			tnorm__buf what = TNORM__BUF_INIT;
			if (vals[b] > vals[a])
				continue; /* a later value that is higher: exchanging cannot lower the test */
			if ((r = seq_copy(&c, &z->cur)) < 0)
				break;
			for (i = 0; i < c.n; i++)
				for (s = 0; s < z->ti[c.c[i].tmpl].nslots; s++)
					if (slot_kind(z, c.c[i].tmpl, s) == K_VAL && z->ti[c.c[i].tmpl].slot[s].pool == p)
						c.c[i].arg[s] = c.c[i].arg[s] == vals[a]   ? vals[b]
						                : c.c[i].arg[s] == vals[b] ? vals[a]
						                                           : c.c[i].arg[s];
			put_value(&what, z, vals[a]);
			tnorm__buf_puts(&what, " <-> ");
			put_value(&what, z, vals[b]);
			tnorm__buf_puts(&what, " (every use)");
			r = try_cand(z, &c, TNORM_RULE_SHIFT_VALUES, 0, what.ptr);
			tnorm__buf_dispose(&what);
		}
	return r;
}

static int shift_values(cz *z)
{
	uint32_t p;
	int r = 0;
	for (p = 0; r == 0 && p < z->npool; p++) {
		unsigned char used[256] = {0};
		const unsigned char *alpha = &z->alpha[p * 256];
		int64_t least = INT64_MAX, lowest = INT64_MAX, d;
		size_t i, nvals = 0;
		uint32_t s, t;
		int c, c2;
		if (!z->inl[p])
			continue;
		for (i = 0; i < z->cur.n; i++)
			for (s = 0; s < z->ti[z->cur.c[i].tmpl].nslots; s++) {
				tnorm_literal lit;
				uint64_t key = z->cur.c[i].arg[s];
				size_t j;
				if (slot_kind(z, z->cur.c[i].tmpl, s) != K_VAL || z->ti[z->cur.c[i].tmpl].slot[s].pool != p ||
				    tnorm_harness_value(z->b.h, (uint32_t)(key >> 32), 1, key & 0xffffffffu, &lit) < 0)
					continue;
				nvals++;
				if (lit.kind == TNORM_LIT_INT && lit.i < least)
					least = lit.i;
				for (j = 0; lit.kind == TNORM_LIT_STRING && j < lit.len; j++)
					used[(unsigned char)lit.s[j]] = 1;
			}
		if (nvals < 2)
			continue; /* one value: SimplifyAll lowers it */
		if ((r = exchange_values(z, p)) != 0)
			break;
		for (t = 0; t < z->ntmpl; t++) {
			const tnorm__vset *v;
			uint64_t k;
			if (z->ti[t].kind != TNORM_TMPL_VALUE || z->ti[t].slot[0].pool != p)
				continue;
			v = vset_of(z, t);
			if (v->is_range && v->lo < lowest)
				lowest = v->lo;
			for (k = 0; !v->is_range && k < v->nlits; k++)
				if (v->lits[k].kind == TNORM_LIT_INT && v->lits[k].i < lowest)
					lowest = v->lits[k].i;
		}
		/* integers: the largest shift first, then halves */
		if (least != INT64_MAX && lowest < least)
			for (d = least - lowest; r == 0 && d > 0; d /= 2)
				r = try_map(z, p, MAP_SUB, d, 0, 0);
		/* strings: a character by the alphabet's lowest, or by the next lower one */
		for (c = 255; r == 0 && c > 0; c--) {
			int lo = -1, below = -1;
			if (!used[c])
				continue;
			for (c2 = 0; c2 < c; c2++)
				if (alpha[c2]) {
					if (lo < 0)
						lo = c2;
					below = c2;
				}
			if (lo >= 0)
				r = try_map(z, p, MAP_CHAR, 0, (unsigned char)c, (unsigned char)lo);
			if (r == 0 && below > lo)
				r = try_map(z, p, MAP_CHAR, 0, (unsigned char)c, (unsigned char)below);
		}
		if (r == 0)
			r = try_map(z, p, MAP_DROP_FIRST, 0, 0, 0);
		if (r == 0)
			r = try_map(z, p, MAP_DROP_LAST, 0, 0, 0);
	}
	return r;
}

/* One use of an object given to another object created before the call (SimpleTest's rewiring):
 * kept when lower, or when the reduction after it is shorter. */
static int rewire(cz *z)
{
	size_t i;
	int r = 0;
	for (i = z->cur.n; r == 0 && i-- > 0;) {
		const ccall *c0 = &z->cur.c[i];
		uint32_t s;
		for (s = 0; r == 0 && s < z->ti[c0->tmpl].nslots; s++) {
			uint32_t p = z->ti[c0->tmpl].slot[s].pool;
			uint64_t made = 0, b;
			size_t j;
			if (slot_kind(z, c0->tmpl, s) != K_OBJ)
				continue;
			for (j = 0; j < i; j++)
				if (z->ti[z->cur.c[j].tmpl].has_lhs && z->ti[z->cur.c[j].tmpl].slot[0].pool == p)
					made++;
			for (b = 0; r == 0 && b < made; b++) {
				cseq c;
				tnorm__buf what = TNORM__BUF_INIT;
				if (b == c0->arg[s] || (r = seq_copy(&c, &z->cur)) < 0)
					continue;
				c.c[i].arg[s] = b;
				tnorm__buf_printf(&what, "(call %zu: ", i);
				put_call(&what, z, c0);
				tnorm__buf_puts(&what, ") -> (");
				put_call(&what, z, &c.c[i]);
				tnorm__buf_putc(&what, ')');
				r = try_cand(z, &c, TNORM_RULE_REWIRE, b > c0->arg[s], what.ptr);
				tnorm__buf_dispose(&what);
			}
		}
	}
	return r;
}

/* DeletePair: two calls removed at once, where no single one can go (a 1-minimal test need not be
 * 2-minimal: a deeper tree may fail in a subtree where a smaller one fails at the root).  Last in
 * the order: it costs n(n-1)/2 candidates once nothing else applies. */
static int delete_pair(cz *z)
{
	size_t i, j;
	int r = 0;
	for (i = 0; r == 0 && i + 1 < z->cur.n; i++)
		for (j = i + 1; r == 0 && j < z->cur.n; j++) {
			cseq c;
			tnorm__buf what = TNORM__BUF_INIT;
			if ((r = seq_copy(&c, &z->cur)) < 0)
				break;
			seq_remove(&c, j);
			seq_remove(&c, i);
			tnorm__buf_printf(&what, "calls %zu (", i);
			put_call(&what, z, &z->cur.c[i]);
			tnorm__buf_printf(&what, ") and %zu (", j);
			put_call(&what, z, &z->cur.c[j]);
			tnorm__buf_puts(&what, ") removed");
			r = try_cand(z, &c, TNORM_RULE_DELETE_PAIR, 0, what.ptr);
			tnorm__buf_dispose(&what);
		}
	return r;
}

static int apply(void *zp, tnorm_rule rule)
{
	cz *z = zp;
	z->b.seen.n = 0;
	switch (rule) {
	case TNORM_RULE_SIMPLIFY_ALL: return simplify(z, 1);
	case TNORM_RULE_REPLACE_POOL: return replace_object(z);
	case TNORM_RULE_SIMPLIFY_SINGLE: return simplify(z, 0);
	case TNORM_RULE_SWAP_ACTION: return move_calls(z, 1);
	case TNORM_RULE_MOVE_ACTION: return move_calls(z, 0);
	case TNORM_RULE_REPLACE_CALL: return replace_call(z);
	case TNORM_RULE_SHIFT_VALUES: return shift_values(z);
	case TNORM_RULE_DELETE_PAIR: return delete_pair(z);
	case TNORM_RULE_REWIRE: return z->b.o->rewire ? rewire(z) : 0;
	default: return 0;
	}
}

static const tnorm_rule call_order[] = {
	TNORM_RULE_SIMPLIFY_ALL, TNORM_RULE_REPLACE_POOL, TNORM_RULE_SIMPLIFY_SINGLE,
	TNORM_RULE_SWAP_ACTION,  TNORM_RULE_MOVE_ACTION,  TNORM_RULE_REPLACE_CALL,
	TNORM_RULE_SHIFT_VALUES, TNORM_RULE_REWIRE,      TNORM_RULE_DELETE_PAIR,
};
#define NRULES (sizeof(call_order) / sizeof(call_order[0]))

/* Which pools are value pools: const, assigned only by value templates, checked by no check. */
static int classify(cz *z)
{
	uint32_t i, s, nchk = tnorm_harness_check_count(z->b.h);
	z->ntmpl = tnorm_harness_template_count(z->b.h);
	z->npool = tnorm_harness_pool_count(z->b.h);
	z->nvars = tnorm_harness_var_count(z->b.h);
	z->ti = tnorm__calloc(z->ntmpl ? z->ntmpl : 1, sizeof(*z->ti));
	z->pi = tnorm__calloc(z->npool ? z->npool : 1, sizeof(*z->pi));
	z->inl = tnorm__calloc(z->npool ? z->npool : 1, 1);
	z->alpha = tnorm__calloc(z->npool ? z->npool : 1, 256);
	if (!z->ti || !z->pi || !z->inl || !z->alpha)
		return TNORM_ENOMEM;
	for (i = 0; i < z->npool; i++) {
		tnorm_harness_pool(z->b.h, i, &z->pi[i]);
		z->inl[i] = (unsigned char)(z->pi[i].is_const != 0);
	}
	for (i = 0; i < z->ntmpl; i++) {
		tnorm_harness_template(z->b.h, i, &z->ti[i]);
		if (z->ti[i].has_lhs && z->ti[i].kind != TNORM_TMPL_VALUE)
			z->inl[z->ti[i].slot[0].pool] = 0;
		if (z->ti[i].kind == TNORM_TMPL_VALUE) {
			const tnorm__vset *v = vset_of(z, i);
			uint64_t k;
			size_t j;
			for (k = 0; !v->is_range && k < v->nlits; k++)
				for (j = 0; v->lits[k].kind == TNORM_LIT_STRING && j < v->lits[k].len; j++)
					z->alpha[z->ti[i].slot[0].pool * 256 + (unsigned char)v->lits[k].s[j]] = 1;
			for (j = 0; v->gen && j < v->gen->nalpha; j++)
				z->alpha[z->ti[i].slot[0].pool * 256 + v->gen->alpha[j]] = 1;
		}
	}
	for (i = 0; i < nchk; i++) {
		tnorm_template_info ci;
		tnorm_harness_check(z->b.h, i, &ci);
		for (s = 0; s < ci.nslots; s++)
			if (ci.slot[s].kind == TNORM_SLOT_POOL)
				z->inl[ci.slot[s].pool] = 0;
	}
	return 0;
}

int tnorm__normalize_calls(tnorm_test **out, const tnorm_test *t, const tnorm_normalize_options *o,
                           tnorm_test_oracle oracle, void *ctx, tnorm_normalize_log log,
                           void *log_ctx, tnorm_normalize_stats *st, int *unsuitable)
{
	cz z;
	int err, yes = 0;

	*out = NULL;
	*unsuitable = 0;
	memset(&z, 0, sizeof(z));
	tnorm__rewrite_base_init(&z.b, t, o, oracle, ctx, log, log_ctx, st);
	if ((err = classify(&z)) < 0 || (err = lift(&z, t, &z.cur)) < 0)
		goto done;
	if ((err = canon(&z, &z.cur)) < 0)
		goto done;
	/* The lowered input must fail as the input does (a `const` pool that a call does modify
	 * would not): otherwise the caller uses the paper's rules. */
	if ((err = ask(&z, &z.cur, &yes, &z.cur_test)) < 0)
		goto done;
	if (!yes) {
		*unsuitable = 1;
		goto done;
	}
	err = tnorm__rule_loop(o, &z.cur_test, st, call_order, NRULES, apply, &z);
done:
	if (z.cur_test) {
		*out = z.cur_test;
		z.cur_test = NULL;
	}
	seq_free(&z.cur);
	free(z.b.seen.h);
	free(z.ti);
	free(z.pi);
	free(z.inl);
	free(z.alpha);
	return err;
}

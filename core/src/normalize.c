/* SPDX-License-Identifier: MIT */
/*
 * normalize.c - Algorithm 1 of test normalization, with the seven rewrite rules of Figure 4.
 *
 * Each rule enumerates its candidate rewrites of the current test in a fixed order, simplest
 * first.  A candidate is only asked about when it is well-formed and strictly lower than the
 * current test in the (length, then action indices) order — the property that makes the rewrite
 * system terminate — and when the same rule has not produced the same candidate already in this
 * round (candidates are deduplicated by content hash; the session below also caches outcomes
 * across rounds).  The first interesting candidate is reduced (ddmin by default) and becomes the
 * new test; the rule order then restarts from the top.  A rule that produces nothing moves to the
 * end of the order, the cheap optimization of section 2.1.2.
 *
 * ReplacePool and ReplaceMovePool are checked in the same loop (for every pair of instances, both
 * rules), as the paper does; ReduceAction accepts a replacement only if reducing it then yields a
 * shorter test.  MoveAction, our extension, comes last: it moves one step earlier when that
 * lowers the test (a rotation that SwapAction cannot do through an ill-formed swap).
 * Replacement actions are, by default, those of the same template (option `wide`
 * for every lower action of the harness), at most `max_alternatives` per action, lowest first, and
 * optionally within an edit distance of the replaced action's text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "internal_normalize.h"
#include "options.h"
#include "tnorm/order.h"

static const char *const rule_names[TNORM_RULE_COUNT] = {
	"SimplifyAll", "ReplacePool", "SimplifySingle", "SwapPool", "SwapAction", "ReduceAction",
	"MoveAction", "Rewire", "ReplaceCall", "ShiftValues", "DeletePair",
};

/* The default order: Rewire is cheaper than ReduceAction and often makes it unnecessary. */
#define NPAPER 8
static const tnorm_rule default_order[NPAPER] = {
	TNORM_RULE_SIMPLIFY_ALL, TNORM_RULE_REPLACE_POOL, TNORM_RULE_SIMPLIFY_SINGLE,
	TNORM_RULE_SWAP_POOL,    TNORM_RULE_SWAP_ACTION,  TNORM_RULE_REWIRE,
	TNORM_RULE_REDUCE_ACTION, TNORM_RULE_MOVE_ACTION,
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * The order every accepted rewrite must descend: length, then the multiset of action indices
 * (sorted, compared lexicographically), then the sequence of indices.  Replacing an action by a
 * lower one lowers the multiset; swapping or moving steps keeps it and lowers the sequence;
 * SwapPool is accepted when it lowers either (the paper's "the minimum changed action gets
 * lower").  A well-founded order, so normalization terminates.
 */
static int norm_compare(const tnorm_test *a, const tnorm_test *b)
{
	const tnorm_harness *h = tnorm_test_harness(a);
	size_t n = tnorm_test_len(a), i;
	uint64_t sa[256], sb[256];
	int c;
	if (n != tnorm_test_len(b))
		return n < tnorm_test_len(b) ? -1 : 1;
	if (n <= 256) {
		for (i = 0; i < n; i++) {
			tnorm_harness_rank(h, tnorm_test_step(a, i), &sa[i]);
			tnorm_harness_rank(h, tnorm_test_step(b, i), &sb[i]);
		}
		qsort(sa, n, sizeof(*sa), cmp_u64);
		qsort(sb, n, sizeof(*sb), cmp_u64);
		for (i = 0; i < n; i++)
			if (sa[i] != sb[i])
				return sa[i] < sb[i] ? -1 : 1;
	}
	c = tnorm_test_compare(a, b);
	return c;
}

const char *tnorm_rule_name(tnorm_rule r)
{
	return (unsigned)r < TNORM_RULE_COUNT ? rule_names[r] : "?";
}

typedef struct {
	tnorm__rewrite_base b; /* what both rule sets have (internal_normalize.h) */
	tnorm_test *cur;
	const char *rule_detail; /* ReplaceMovePool shows under ReplacePool */
} nz;

static uint64_t rank_of(const tnorm_harness *h, const tnorm_action *a)
{
	uint64_t r = 0;
	tnorm_harness_rank(h, a, &r);
	return r;
}

static int seen_before(nz *z, const tnorm_test *t)
{
	return tnorm__seen_add(&z->b.seen, tnorm_test_hash(t));
}

static size_t action_text(const tnorm_harness *h, const tnorm_action *a, char *buf, size_t n)
{
	int len = tnorm_harness_format_action(h, a, buf, n);
	return len < 0 ? 0 : (size_t)len;
}

static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned row[256], prev, tmp;
	if (lb >= 256)
		lb = 255;
	for (j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			unsigned best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

static int cmp_action_rank(const void *x, const void *y, void *h)
{
	uint64_t a = rank_of(h, x), b = rank_of(h, y);
	return a < b ? -1 : a > b;
}

/* Keep `cand` (rank below `idx`, not seen in out[0..n)) and return the new count. */
static size_t push_lower(nz *z, const tnorm_action *cand, uint64_t idx, tnorm_action *out, size_t n,
                         size_t max)
{
	uint64_t r;
	size_t i;
	if (n >= max || tnorm_harness_rank(z->b.h, cand, &r) < 0 || r >= idx)
		return n;
	for (i = 0; i < n; i++)
		if (rank_of(z->b.h, &out[i]) == r)
			return n;
	out[n] = *cand;
	return n + 1;
}

/*
 * Lower actions of a large template (more actions than the alternatives cap): enumerating the
 * lowest ranks would only ever vary the first slots (for `<val> := 1..999` with 2 instances,
 * every one of the first 256 actions is an instance-0 assignment).  Instead each slot is lowered
 * on its own, over its own domain, as Hypothesis shrinks an integer: the lowest value, then the
 * current one minus 2^k, ..., minus 2, minus 1.  Asked lowest first and repeated after each
 * accepted rewrite (answers are cached), this converges like a binary search per slot.  The
 * template's lowest few actions come first, for the slots lowered together.
 */
static size_t slot_lowerings(nz *z, const tnorm_action *a, const tnorm_template_info *info,
                             uint64_t idx, tnorm_action *out, size_t max)
{
	size_t n = 0, s;
	uint64_t k;
	for (k = info->first; k < info->first + info->count && k < info->first + 16 && k < idx; k++)
		if (tnorm_harness_unrank(z->b.h, k, &out[n]) == 0 && ++n >= max)
			return n;
	for (s = 0; s < info->nslots; s++) {
		uint32_t cur = a->choice[s], step;
		tnorm_action c = *a;
		if (cur == 0)
			continue;
		c.choice[s] = 0;
		n = push_lower(z, &c, idx, out, n, max);
		for (step = 1u << 30; step; step >>= 1) {
			if (step >= cur)
				continue;
			c.choice[s] = cur - step;
			n = push_lower(z, &c, idx, out, n, max);
		}
	}
	qsort_r(out, n, sizeof(*out), cmp_action_rank, (void *)z->b.h);
	return n;
}

/*
 * The replacement actions for `a`, lowest first: below = 1 for those lower than a (SimplifyAll,
 * SimplifySingle), 0 for any other (ReduceAction).  Writes at most max into out.
 */
static size_t alternatives(nz *z, const tnorm_action *a, int below, tnorm_action *out, size_t max)
{
	tnorm_template_info info;
	uint64_t idx = rank_of(z->b.h, a), lo, hi, k;
	size_t n = 0;
	char ta[512], tb[512];
	tnorm_harness_template(z->b.h, a->tmpl, &info);
	if (below && !z->b.o->wide && !z->b.o->max_edit && info.count > max)
		return slot_lowerings(z, a, &info, idx, out, max);
	if (z->b.o->wide) {
		lo = 0;
		hi = below ? idx : tnorm_harness_action_count(z->b.h);
	} else {
		lo = info.first;
		hi = below ? idx : info.first + info.count;
	}
	if (z->b.o->max_edit)
		action_text(z->b.h, a, ta, sizeof(ta));
	for (k = lo; k < hi; k++) {
		if (k == idx)
			continue;
		if (n >= max) {
			z->b.st->capped++;
			break;
		}
		if (tnorm_harness_unrank(z->b.h, k, &out[n]) < 0)
			break;
		if (z->b.o->max_edit) {
			action_text(z->b.h, &out[n], tb, sizeof(tb));
			if (edit_distance(ta, tb) > z->b.o->max_edit)
				continue;
		}
		n++;
	}
	return n;
}

/* Ask about a candidate; accept it (reduced) when interesting.  1 accepted, 0 not, <0 error. */
static int try_cand(nz *z, tnorm_test *cand, tnorm_rule rule, const char *what)
{
	tnorm_test *red = NULL;
	int yes = 0, err, dup;
	int is_reduce_action = rule == TNORM_RULE_REDUCE_ACTION;
	if (!tnorm_test_is_wellformed(cand))
		return 0;
	/* A rewiring to a higher instance is not lower by itself: like ReduceAction, it is kept only
	 * when the reduction after it makes the test shorter. */
	if (rule == TNORM_RULE_REWIRE && norm_compare(cand, z->cur) >= 0)
		is_reduce_action = 1;
	if (!is_reduce_action && norm_compare(cand, z->cur) >= 0)
		return 0;
	if ((dup = seen_before(z, cand)) != 0)
		return dup < 0 ? dup : 0;
	z->b.st->candidates++;
	z->b.st->asked[rule]++;
	if ((err = z->b.fn(z->b.ctx, cand, &yes)) < 0)
		return err;
	if (!yes)
		return 0;
	{
		/* Reduce the accepted candidate.  A rewrite of a reduced test rarely makes steps
		 * removable, so look first for one step that can go (k cheap, often cached runs) and run
		 * the whole reduction only then; ReduceAction is worth nothing without it. */
		size_t k, n = tnorm_test_len(cand);
		int any = 0;
		for (k = 0; k < n && !any; k++) {
			tnorm_test *d = NULL;
			if ((err = tnorm_test_dup(&d, cand)) < 0)
				return err;
			tnorm_test_remove(d, k);
			if (tnorm_test_is_wellformed(d) && (err = z->b.fn(z->b.ctx, d, &any)) < 0) {
				tnorm_test_free(d);
				return err;
			}
			tnorm_test_free(d);
		}
		if (!any && is_reduce_action)
			return 0;
		if (!any)
			err = tnorm_test_dup(&red, cand);
		else
			err = tnorm_reduce_test(&red, cand, &z->b.o->reduce, z->b.fn, z->b.ctx, NULL);
	}
	if (err < 0) {
		tnorm_test_free(red);
		return err;
	}
	/* Every accepted rewrite goes strictly down in the order; ReduceAction must also shorten. */
	if (norm_compare(red, z->cur) >= 0 ||
	    (is_reduce_action && tnorm_test_len(red) >= tnorm_test_len(z->cur))) {
		tnorm_test_free(red);
		return 0;
	}
	tnorm_test_free(z->cur);
	z->cur = red;
	z->b.st->rewrites++;
	z->b.st->per_rule[rule]++;
	if (z->b.log)
		z->b.log(z->b.lctx, rule, what);
	return 1;
}

static int copy(tnorm_test **out, const tnorm_test *t)
{
	return tnorm_test_dup(out, t);
}

/* ---- the rules ----------------------------------------------------------------------------- */

static int simplify(nz *z, int all)
{
	const tnorm_test *t = z->cur;
	size_t n = tnorm_test_len(t), i, k, na, max = z->b.o->max_alternatives;
	tnorm_action *alt = tnorm__calloc(max, sizeof(*alt));
	char what[1200], ta[512], tb[512];
	int r = 0;
	if (!alt)
		return TNORM_ENOMEM;
	for (i = 0; i < n && r == 0; i++) {
		tnorm_action a = *tnorm_test_step(t, i);
		size_t j;
		if (all) {
			/* Each distinct action once, at its first occurrence. */
			for (j = 0; j < i; j++)
				if (rank_of(z->b.h, tnorm_test_step(t, j)) == rank_of(z->b.h, &a))
					break;
			if (j < i)
				continue;
		}
		na = alternatives(z, &a, 1, alt, max);
		action_text(z->b.h, &a, ta, sizeof(ta));
		for (k = 0; k < na && r == 0; k++) {
			tnorm_test *c = NULL;
			if ((r = copy(&c, t)) < 0)
				break;
			for (j = all ? 0 : i; j < (all ? n : i + 1); j++)
				if (rank_of(z->b.h, tnorm_test_step(c, j)) == rank_of(z->b.h, &a))
					tnorm_test_set(c, j, &alt[k]);
			action_text(z->b.h, &alt[k], tb, sizeof(tb));
			if (all)
				snprintf(what, sizeof(what), "%s -> %s", ta, tb);
			else
				snprintf(what, sizeof(what), "(%zu: %s) -> (%zu: %s)", i, ta, i, tb);
			r = try_cand(z, c, all ? TNORM_RULE_SIMPLIFY_ALL : TNORM_RULE_SIMPLIFY_SINGLE, what);
			tnorm_test_free(c);
			if (r == 1 || r < 0)
				break;
		}
		t = z->cur;
		n = tnorm_test_len(t);
	}
	free(alt);
	return r;
}

/* Does step s mention instance `inst` of pool `pool` in any slot? */
static int mentions(const tnorm_harness *h, const tnorm_action *a, uint32_t pool, uint32_t inst)
{
	tnorm_template_info info;
	uint32_t s;
	tnorm_harness_template(h, a->tmpl, &info);
	for (s = 0; s < info.nslots; s++)
		if (info.slot[s].kind == TNORM_SLOT_POOL && info.slot[s].pool == pool && a->choice[s] == inst)
			return 1;
	return 0;
}

/* In steps i..j, map instance `from` of `pool` to `to` (and, if swap, `to` to `from`). */
static void remap(tnorm_test *c, uint32_t pool, uint32_t from, uint32_t to, size_t i, size_t j,
                  int swap)
{
	const tnorm_harness *h = tnorm_test_harness(c);
	size_t k;
	for (k = i; k <= j && k < tnorm_test_len(c); k++) {
		tnorm_action a = *tnorm_test_step(c, k);
		tnorm_template_info info;
		uint32_t s;
		int changed = 0;
		tnorm_harness_template(h, a.tmpl, &info);
		for (s = 0; s < info.nslots; s++) {
			if (info.slot[s].kind != TNORM_SLOT_POOL || info.slot[s].pool != pool)
				continue;
			if (a.choice[s] == from) {
				a.choice[s] = to;
				changed = 1;
			} else if (swap && a.choice[s] == to) {
				a.choice[s] = from;
				changed = 1;
			}
		}
		if (changed)
			tnorm_test_set(c, k, &a);
	}
}

static int pool_rules(nz *z, int swap)
{
	uint32_t pool, np = tnorm_harness_pool_count(z->b.h);
	char what[256];
	int r = 0;
	for (pool = 0; pool < np && r == 0; pool++) {
		tnorm_pool_info pi;
		uint32_t p, q;
		tnorm_harness_pool(z->b.h, pool, &pi);
		for (q = 1; q < pi.instances && r == 0; q++) {
			for (p = 0; p < q && r == 0; p++) {
				const tnorm_test *t = z->cur;
				size_t n = tnorm_test_len(t), i, j, k;
				int used_q = 0;
				for (k = 0; k < n; k++)
					used_q |= mentions(z->b.h, tnorm_test_step(t, k), pool, q);
				if (!used_q)
					continue;
				/* Ranges i..j, the whole test first, then shorter ones. */
				for (i = 0; i < n && r == 0; i++) {
					for (j = n; j-- > i && r == 0;) {
						tnorm_test *c = NULL;
						if (j == i && n > 1)
							continue;
						if ((r = copy(&c, t)) < 0)
							break;
						remap(c, pool, q, p, i, j, swap);
						if (swap)
							snprintf(what, sizeof(what), "%s%u <-> %s%u (steps %zu..%zu)", pi.name,
							         p, pi.name, q, i, j);
						else
							snprintf(what, sizeof(what), "%s%u -> %s%u (steps %zu..%zu)", pi.name, q,
							         pi.name, p, i, j);
						r = try_cand(z, c, swap ? TNORM_RULE_SWAP_POOL : TNORM_RULE_REPLACE_POOL,
						             what);
						tnorm_test_free(c);
					}
				}
				if (swap || r != 0)
					continue;
				/* ReplaceMovePool: move the steps mentioning p that come before step i to
				 * step i, then replace q by p everywhere. */
				for (i = 1; i < n && r == 0; i++) {
					tnorm_test *c = NULL, *moved = NULL;
					size_t m;
					if ((r = tnorm_test_new(&moved, z->b.h)) < 0)
						break;
					for (m = 0; m < i; m++)
						if (!mentions(z->b.h, tnorm_test_step(t, m), pool, p))
							tnorm_test_append(moved, tnorm_test_step(t, m));
					for (m = 0; m < i; m++)
						if (mentions(z->b.h, tnorm_test_step(t, m), pool, p))
							tnorm_test_append(moved, tnorm_test_step(t, m));
					for (m = i; m < n; m++)
						tnorm_test_append(moved, tnorm_test_step(t, m));
					c = moved;
					remap(c, pool, q, p, 0, n - 1, 0);
					snprintf(what, sizeof(what), "%s%u -> %s%u, moving %s%u's steps to step %zu",
					         pi.name, q, pi.name, p, pi.name, p, i);
					r = try_cand(z, c, TNORM_RULE_REPLACE_POOL, what);
					tnorm_test_free(c);
				}
			}
		}
	}
	return r;
}

static int swap_action(nz *z)
{
	const tnorm_test *t = z->cur;
	size_t n = tnorm_test_len(t), i, j;
	char what[1200], ta[512], tb[512];
	int r = 0;
	for (i = 0; i < n && r == 0; i++) {
		for (j = i + 1; j < n && r == 0; j++) {
			tnorm_action a = *tnorm_test_step(t, i), b = *tnorm_test_step(t, j);
			tnorm_test *c = NULL;
			if (rank_of(z->b.h, &b) >= rank_of(z->b.h, &a))
				continue;
			if ((r = copy(&c, t)) < 0)
				break;
			tnorm_test_set(c, i, &b);
			tnorm_test_set(c, j, &a);
			action_text(z->b.h, &a, ta, sizeof(ta));
			action_text(z->b.h, &b, tb, sizeof(tb));
			snprintf(what, sizeof(what), "(%zu: %s) <-> (%zu: %s)", i, ta, j, tb);
			r = try_cand(z, c, TNORM_RULE_SWAP_ACTION, what);
			tnorm_test_free(c);
		}
	}
	return r;
}

/* MoveAction (an extension, after the paper's rules): move step j to an earlier position i
 * when its action is lower than the one at i — the rotation SwapAction cannot do when the swap's
 * intermediate would not be well-formed. */
static int move_action(nz *z)
{
	const tnorm_test *t = z->cur;
	size_t n = tnorm_test_len(t), i, j;
	char what[600], ta[512];
	int r = 0;
	for (i = 0; i < n && r == 0; i++) {
		for (j = i + 2; j < n && r == 0; j++) {
			tnorm_action b = *tnorm_test_step(t, j);
			tnorm_test *c = NULL;
			if (rank_of(z->b.h, &b) >= rank_of(z->b.h, tnorm_test_step(t, i)))
				continue;
			if ((r = copy(&c, t)) < 0)
				break;
			tnorm_test_remove(c, j);
			tnorm_test_insert(c, i, &b);
			action_text(z->b.h, &b, ta, sizeof(ta));
			snprintf(what, sizeof(what), "(%zu: %s) moved to step %zu", j, ta, i);
			r = try_cand(z, c, TNORM_RULE_MOVE_ACTION, what);
			tnorm_test_free(c);
		}
	}
	return r;
}

static int reduce_action(nz *z)
{
	const tnorm_test *t = z->cur;
	size_t n = tnorm_test_len(t), i, k, na;
	size_t max = z->b.o->max_reduce_alternatives;
	tnorm_action *alt = tnorm__calloc(max, sizeof(*alt));
	char what[1200], ta[512], tb[512];
	int r = 0;
	if (!alt)
		return TNORM_ENOMEM;
	for (i = 0; i < n && r == 0; i++) {
		tnorm_action a = *tnorm_test_step(t, i);
		na = alternatives(z, &a, 0, alt, max);
		action_text(z->b.h, &a, ta, sizeof(ta));
		for (k = 0; k < na && r == 0; k++) {
			tnorm_test *c = NULL;
			if ((r = copy(&c, t)) < 0)
				break;
			tnorm_test_set(c, i, &alt[k]);
			action_text(z->b.h, &alt[k], tb, sizeof(tb));
			snprintf(what, sizeof(what), "(%zu: %s) -> (%zu: %s), then reduced", i, ta, i, tb);
			r = try_cand(z, c, TNORM_RULE_REDUCE_ACTION, what);
			tnorm_test_free(c);
		}
	}
	free(alt);
	return r;
}

/*
 * Rewire (SimpleTest, seed 002): for each step, last first, and each pool argument of it (not its
 * left-hand side), use instead each other instance of the same pool that some earlier step
 * assigned, lowest first.  The data flow changes, not the action's template: a step that used a
 * value built by a long chain may work as well on one built early, and then reduction drops the
 * chain.
 */
static int rewire(nz *z)
{
	const tnorm_test *t = z->cur;
	size_t n = tnorm_test_len(t), i;
	char what[1200], ta[512], tb[512];
	int r = 0;
	for (i = n; i-- > 0 && r == 0;) {
		tnorm_action a = *tnorm_test_step(t, i);
		tnorm_template_info info;
		uint32_t s;
		tnorm_harness_template(z->b.h, a.tmpl, &info);
		for (s = info.has_lhs ? 1 : 0; s < info.nslots && r == 0; s++) {
			tnorm_pool_info pi;
			uint32_t pool = info.slot[s].pool, q;
			if (info.slot[s].kind != TNORM_SLOT_POOL)
				continue;
			tnorm_harness_pool(z->b.h, pool, &pi);
			for (q = 0; q < pi.instances && r == 0; q++) {
				tnorm_action b = a;
				tnorm_test *c = NULL;
				size_t m;
				int assigned = 0;
				if (q == a.choice[s])
					continue;
				for (m = 0; m < i && !assigned; m++) {
					const tnorm_action *d = tnorm_test_step(t, m);
					tnorm_template_info di;
					tnorm_harness_template(z->b.h, d->tmpl, &di);
					assigned = di.has_lhs && di.slot[0].pool == pool && d->choice[0] == q;
				}
				if (!assigned)
					continue;
				b.choice[s] = q;
				if ((r = copy(&c, t)) < 0)
					break;
				tnorm_test_set(c, i, &b);
				action_text(z->b.h, &a, ta, sizeof(ta));
				action_text(z->b.h, &b, tb, sizeof(tb));
				snprintf(what, sizeof(what), "(%zu: %s) -> (%zu: %s)", i, ta, i, tb);
				r = try_cand(z, c, TNORM_RULE_REWIRE, what);
				tnorm_test_free(c);
			}
		}
	}
	return r;
}

static int apply(void *zp, tnorm_rule rule)
{
	nz *z = zp;
	z->b.seen.n = 0;
	switch (rule) {
	case TNORM_RULE_SIMPLIFY_ALL: return simplify(z, 1);
	case TNORM_RULE_REPLACE_POOL: return pool_rules(z, 0);
	case TNORM_RULE_SIMPLIFY_SINGLE: return simplify(z, 0);
	case TNORM_RULE_SWAP_POOL: return pool_rules(z, 1);
	case TNORM_RULE_SWAP_ACTION: return swap_action(z);
	case TNORM_RULE_REDUCE_ACTION: return reduce_action(z);
	case TNORM_RULE_MOVE_ACTION: return move_action(z);
	case TNORM_RULE_REWIRE: return z->b.o->rewire ? rewire(z) : 0;
	default: return 0;
	}
}

static int normalize_paper(tnorm_test **out, const tnorm_test *t, const tnorm_normalize_options *o,
                           tnorm_test_oracle oracle, void *ctx, tnorm_normalize_log log,
                           void *log_ctx, tnorm_normalize_stats *st)
{
	nz z;
	int err;

	st->paper = 1;
	memset(&z, 0, sizeof(z));
	tnorm__rewrite_base_init(&z.b, t, o, oracle, ctx, log, log_ctx, st);
	if ((err = tnorm_test_dup(&z.cur, t)) < 0)
		return err;
	err = tnorm__rule_loop(o, &z.cur, st, default_order, NPAPER, apply, &z);
	free(z.b.seen.h);
	*out = z.cur;
	return err;
}

void tnorm__normalize_options_resolve(tnorm_normalize_options *o)
{
	if (!o->max_alternatives)
		o->max_alternatives = 256;
	if (!o->max_reduce_alternatives)
		o->max_reduce_alternatives = 16;
	o->rewire = o->rewire >= 0;
	if (!o->reduce.version)
		o->reduce.version = TNORM_REDUCE_OPTIONS_VERSION;
	if (o->reduce.algo == TNORM_ALGO_DEFAULT)
		o->reduce.algo = TNORM_ALGO_DDMIN;
}

int tnorm_normalize(tnorm_test **out, const tnorm_test *t, const tnorm_normalize_options *opts,
                    tnorm_test_oracle oracle, void *ctx, tnorm_normalize_log log, void *log_ctx,
                    tnorm_normalize_stats *stp)
{
	tnorm_normalize_options own = TNORM_NORMALIZE_OPTIONS_INIT; /* the options, resolved */
	const tnorm_normalize_options *o = &own;
	tnorm_normalize_stats st;
	int err, unsuitable = 1;

	if (!out || !t || !oracle)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_normalize: NULL argument");
	*out = NULL;
	if (opts && opts->version != TNORM_NORMALIZE_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_normalize: options version %u, expected "
		                        "%u", opts->version, TNORM_NORMALIZE_OPTIONS_VERSION);
	if (opts)
		own = *opts;
	tnorm__normalize_options_resolve(&own);
	memset(&st, 0, sizeof(st));
	if (o->rules == TNORM_RULES_CALLS) {
		err = tnorm__normalize_calls(out, t, o, oracle, ctx, log, log_ctx, &st, &unsuitable);
		if (err < 0 || !unsuitable)
			goto done;
	}
	err = normalize_paper(out, t, o, oracle, ctx, log, log_ctx, &st);
done:
	if (stp)
		*stp = st;
	return err;
}

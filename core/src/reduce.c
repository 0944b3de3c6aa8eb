/* SPDX-License-Identifier: MIT */
/*
 * reduce.c - ddmin and adaptive deletion over abstract units, and their use on harness tests.
 *
 * ddmin follows Zeller and Hildebrandt: split the current set into n chunks, try each chunk,
 * then each complement, and double n when neither helps, until n reaches the set's size; the
 * result is 1-minimal.  Adaptive deletion (as practical reducers do it) visits units in a random
 * order fixed by the seed; where deleting one unit keeps the failure it probes exponentially
 * larger runs starting there (2, 4, 8, ...) and bisects between the last success and the first
 * failure, then extends the run backwards the same way, so long deletable runs cost O(log n)
 * calls wherever the random order lands in them; no unit is retried within a pass, and
 * passes repeat until one deletes nothing, which makes the result 1-minimal too.
 *
 * On harness tests both run behind a filter that drops candidates that are not well-formed
 * before the oracle sees them, after two pre-passes: the shortest failing prefix (steps after
 * the failure never run, so failing is monotone in the prefix length) and slicing.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "options.h"
#include "tnorm/reduce.h"

int tnorm_reduce_algo_parse(const char *s, tnorm_reduce_algo *out)
{
	if (s && !strcmp(s, "ddmin")) {
		*out = TNORM_ALGO_DDMIN;
		return 0;
	}
	if (s && !strcmp(s, "adaptive")) {
		*out = TNORM_ALGO_ADAPTIVE;
		return 0;
	}
	return tnorm__error_set(TNORM_EINVALID, "unknown algorithm '%s', expected ddmin or adaptive",
	                        s ? s : "");
}

typedef struct {
	tnorm_unit_oracle fn;
	void *ctx;
	uint64_t calls;
	size_t *tmp;
} oracle_t;

static int ask(oracle_t *o, const size_t *keep, size_t n, int *yes)
{
	o->calls++;
	*yes = 0;
	return o->fn(o->ctx, keep, n, yes);
}

/* ---- ddmin --------------------------------------------------------------------------------- */

static int ddmin(oracle_t *o, size_t *cur, size_t *n_io)
{
	size_t n = *n_io, gran = 2, i, k;
	int err = 0, yes;
	while (n >= 2) {
		size_t chunk, start, found = 0;
		if (gran > n)
			gran = n;
		chunk = (n + gran - 1) / gran;
		/* Try each chunk alone. */
		for (start = 0; start < n && !found; start += chunk) {
			size_t len = start + chunk > n ? n - start : chunk;
			if (len == n)
				continue;
			if ((err = ask(o, cur + start, len, &yes)) < 0)
				goto done;
			if (yes) {
				memmove(cur, cur + start, len * sizeof(*cur));
				n = len;
				gran = 2;
				found = 1;
			}
		}
		/* Then each complement. */
		for (start = 0; start < n && !found; start += chunk) {
			size_t len = start + chunk > n ? n - start : chunk;
			k = 0;
			for (i = 0; i < n; i++)
				if (i < start || i >= start + len)
					o->tmp[k++] = cur[i];
			if (k == 0)
				continue;
			if ((err = ask(o, o->tmp, k, &yes)) < 0)
				goto done;
			if (yes) {
				memcpy(cur, o->tmp, k * sizeof(*cur));
				n = k;
				gran = gran > 2 ? gran - 1 : 2;
				found = 1;
			}
		}
		if (!found) {
			if (gran >= n)
				break;
			gran = gran * 2 > n ? n : gran * 2;
		}
	}
done:
	*n_io = n;
	return err;
}

/* ---- adaptive deletion --------------------------------------------------------------------- */

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Can cur[i, i+len) be deleted? */
static int try_delete(oracle_t *o, const size_t *cur, size_t n, size_t i, size_t len, int *yes)
{
	size_t k = 0, j;
	if (len >= n) {
		*yes = 0;
		return 0;
	}
	for (j = 0; j < n; j++)
		if (j < i || j >= i + len)
			o->tmp[k++] = cur[j];
	return ask(o, o->tmp, k, yes);
}

/* cur[pos] alone can be deleted: *good becomes the length of the longest run from pos found
 * deletable, by an exponential probe, then bisection between deletable and not. */
static int grow_forward(oracle_t *o, const size_t *cur, size_t n, size_t pos, size_t *good_out)
{
	size_t good = 1, bad = 0, len;
	int err, yes;
	for (len = 2; pos + len <= n; len *= 2) {
		if ((err = try_delete(o, cur, n, pos, len, &yes)) < 0)
			return err;
		if (!yes) {
			bad = len;
			break;
		}
		good = len;
	}
	if (!bad && pos + good < n) {
		/* Ran past the end: the remainder is the upper bound. */
		size_t rest = n - pos;
		if (rest > good) {
			if ((err = try_delete(o, cur, n, pos, rest, &yes)) < 0)
				return err;
			if (yes)
				good = rest;
			else
				bad = rest;
		}
	}
	/* Bisect between good (deletable) and bad (not). */
	while (bad && bad - good > 1) {
		size_t mid = good + (bad - good) / 2;
		if ((err = try_delete(o, cur, n, pos, mid, &yes)) < 0)
			return err;
		if (yes)
			good = mid;
		else
			bad = mid;
	}
	*good_out = good;
	return 0;
}

/* cur[*pos, *pos + *good) can be deleted: extend the run backwards from *pos the same way. */
static int grow_backward(oracle_t *o, const size_t *cur, size_t n, size_t *pos_io, size_t *good_io)
{
	size_t pos = *pos_io, good = *good_io, back, bgood = 0, bbad = 0;
	int err, yes;
	for (back = 1; back <= pos; back *= 2) {
		if ((err = try_delete(o, cur, n, pos - back, good + back, &yes)) < 0)
			return err;
		if (!yes) {
			bbad = back;
			break;
		}
		bgood = back;
	}
	if (!bbad && bgood < pos) {
		if ((err = try_delete(o, cur, n, 0, good + pos, &yes)) < 0)
			return err;
		if (yes)
			bgood = pos;
		else
			bbad = pos;
	}
	while (bbad && bbad - bgood > 1) {
		size_t mid = bgood + (bbad - bgood) / 2;
		if ((err = try_delete(o, cur, n, pos - mid, good + mid, &yes)) < 0)
			return err;
		if (yes)
			bgood = mid;
		else
			bbad = mid;
	}
	*pos_io = pos - bgood;
	*good_io = good + bgood;
	return 0;
}

static int adaptive(oracle_t *o, size_t *cur, size_t *n_io, size_t total, uint64_t seed)
{
	size_t n = *n_io, i, *order = NULL;
	unsigned char *tried = NULL;
	uint64_t st = seed;
	int err = 0, progress = 1;

	if (!(order = tnorm__calloc(total + 1, sizeof(*order))) || !(tried = tnorm__calloc(total + 1, 1))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	while (progress && n > 0) {
		size_t m = n, oi;
		progress = 0;
		memset(tried, 0, total);
		/* A random visiting order of the units present at the start of the pass. */
		memcpy(order, cur, n * sizeof(*order));
		for (i = m; i > 1; i--) {
			size_t j = (size_t)(mix(&st) % i), t = order[i - 1];
			order[i - 1] = order[j];
			order[j] = t;
		}
		for (oi = 0; oi < m && n > 0; oi++) {
			size_t u = order[oi], pos, good;
			int yes;
			if (tried[u])
				continue;
			tried[u] = 1;
			for (pos = 0; pos < n && cur[pos] != u; pos++)
				;
			if (pos == n)
				continue; /* deleted with a run earlier in this pass */
			if ((err = try_delete(o, cur, n, pos, 1, &yes)) < 0)
				goto done;
			if (!yes)
				continue;
			if ((err = grow_forward(o, cur, n, pos, &good)) < 0 ||
			    (err = grow_backward(o, cur, n, &pos, &good)) < 0)
				goto done;
			for (i = pos; i < pos + good; i++)
				tried[cur[i]] = 1;
			memmove(cur + pos, cur + pos + good, (n - pos - good) * sizeof(*cur));
			n -= good;
			progress = 1;
		}
	}
done:
	*n_io = n;
	free(order);
	free(tried);
	return err;
}

int tnorm_reduce_units(size_t n, tnorm_reduce_algo algo, uint64_t seed, tnorm_unit_oracle fn,
                       void *ctx, size_t **keep, size_t *nkeep, uint64_t *calls)
{
	oracle_t o;
	size_t *cur = NULL, i, m = n;
	int err;
	if (!fn || !keep || !nkeep)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_reduce_units: NULL argument");
	*keep = NULL;
	*nkeep = 0;
	memset(&o, 0, sizeof(o));
	o.fn = fn;
	o.ctx = ctx;
	if (!(cur = tnorm__calloc(n + 1, sizeof(*cur))) || !(o.tmp = tnorm__calloc(n + 1, sizeof(*o.tmp)))) {
		free(cur);
		return TNORM_ENOMEM;
	}
	for (i = 0; i < n; i++)
		cur[i] = i;
	err = algo == TNORM_ALGO_DDMIN ? ddmin(&o, cur, &m) : adaptive(&o, cur, &m, n, seed);
	free(o.tmp);
	*keep = cur;
	*nkeep = m;
	if (calls)
		*calls = o.calls;
	return err;
}

/* ---- harness tests ------------------------------------------------------------------------- */

typedef struct {
	const tnorm_test *base;
	tnorm_test *cand;
	tnorm_test_oracle fn;
	void *ctx;
	tnorm_reduce_stats *st;
} test_ctx;

static int build(test_ctx *c, const size_t *keep, size_t n)
{
	size_t i;
	int err;
	tnorm_test_clear(c->cand);
	for (i = 0; i < n; i++)
		if ((err = tnorm_test_append(c->cand, tnorm_test_step(c->base, keep[i]))) < 0)
			return err;
	return 0;
}

static int test_oracle(void *vctx, const size_t *keep, size_t n, int *yes)
{
	test_ctx *c = vctx;
	int err;
	*yes = 0;
	if ((err = build(c, keep, n)) < 0)
		return err;
	if (!tnorm_test_is_wellformed(c->cand)) {
		c->st->skipped++;
		return 0;
	}
	c->st->calls++;
	return c->fn(c->ctx, c->cand, yes);
}

/* Ask the oracle about a whole test (counted). */
static int ask_test(test_ctx *c, const tnorm_test *t, int *yes)
{
	*yes = 0;
	if (!tnorm_test_is_wellformed(t)) {
		c->st->skipped++;
		return 0;
	}
	c->st->calls++;
	return c->fn(c->ctx, t, yes);
}

/* Cut `cur` (which fails) to its shortest failing prefix, by bisection on the prefix's length. */
static int cut_to_prefix(test_ctx *c, tnorm_test *cur)
{
	size_t lo = 0, hi = tnorm_test_len(cur); /* prefix of length hi fails; lo unknown/passes */
	tnorm_test *tmp = NULL;
	int err = 0, yes;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		tnorm_test_free(tmp);
		tmp = NULL;
		if ((err = tnorm_test_dup(&tmp, cur)) < 0)
			break;
		while (tnorm_test_len(tmp) > mid)
			tnorm_test_remove(tmp, tnorm_test_len(tmp) - 1);
		if ((err = ask_test(c, tmp, &yes)) < 0)
			break;
		if (yes)
			hi = mid;
		else
			lo = mid;
	}
	tnorm_test_free(tmp);
	if (err < 0)
		return err;
	while (tnorm_test_len(cur) > hi)
		tnorm_test_remove(cur, tnorm_test_len(cur) - 1);
	return 0;
}

void tnorm__deletion_resolve(tnorm_reduce_algo *algo, uint64_t *seed, tnorm_reduce_algo dflt)
{
	if (*algo == TNORM_ALGO_DEFAULT)
		*algo = dflt;
	if (!*seed)
		*seed = 1;
}

void tnorm__reduce_options_resolve(tnorm_reduce_options *o, tnorm_reduce_algo algo)
{
	tnorm__deletion_resolve(&o->algo, &o->seed, algo);
	o->prefix = o->prefix >= 0;
	o->slice = o->slice >= 0;
}

int tnorm_reduce_test(tnorm_test **out, const tnorm_test *t, const tnorm_reduce_options *opts,
                      tnorm_test_oracle fn, void *ctx, tnorm_reduce_stats *stp)
{
	tnorm_reduce_options own = TNORM_REDUCE_OPTIONS_INIT; /* the options, resolved */
	tnorm_reduce_stats stats;
	tnorm_test *cur = NULL, *tmp = NULL;
	test_ctx c;
	size_t *keep = NULL, nkeep = 0;
	int err = 0, yes;

	if (!out || !t || !fn)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_reduce_test: NULL argument");
	*out = NULL;
	if (opts && opts->version != TNORM_REDUCE_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_reduce_test: options version %u, expected "
		                        "%u", opts->version, TNORM_REDUCE_OPTIONS_VERSION);
	if (opts)
		own = *opts;
	tnorm__reduce_options_resolve(&own, TNORM_ALGO_ADAPTIVE);
	opts = &own;
	memset(&stats, 0, sizeof(stats));
	stats.slice_level = TNORM_SLICE_L2;
	memset(&c, 0, sizeof(c));
	c.fn = fn;
	c.ctx = ctx;
	c.st = &stats;
	if ((err = tnorm_test_dup(&cur, t)) < 0)
		goto done;

	/* 1. The shortest failing prefix, by bisection on its length. */
	if (opts->prefix && tnorm_test_len(cur) > 1 && (err = cut_to_prefix(&c, cur)) < 0)
		goto done;
	stats.after_prefix = tnorm_test_len(cur);

	/* 2. Slicing: ℓ0, then ℓ1, each verified by one run; ℓ2 is no slicing. */
	if (opts->slice && tnorm_test_len(cur) > 1) {
		int level;
		for (level = TNORM_SLICE_L0; level <= TNORM_SLICE_L1; level++) {
			tnorm_test_free(tmp);
			tmp = NULL;
			if ((err = tnorm_slice(&tmp, cur, (tnorm_slice_level)level)) < 0)
				goto done;
			if (tnorm_test_len(tmp) == tnorm_test_len(cur)) {
				stats.slice_level = level;
				break; /* nothing to cut at this level: no run needed */
			}
			if ((err = ask_test(&c, tmp, &yes)) < 0)
				goto done;
			if (yes) {
				tnorm_test_free(cur);
				cur = tmp;
				tmp = NULL;
				stats.slice_level = level;
				break;
			}
		}
	}
	stats.after_slice = tnorm_test_len(cur);

	/* 3. The deletion algorithm over the remaining steps. */
	c.base = cur;
	if ((err = tnorm_test_new(&c.cand, tnorm_test_harness(t))) < 0)
		goto done;
	err = tnorm_reduce_units(tnorm_test_len(cur), opts->algo, opts->seed, test_oracle, &c, &keep,
	                         &nkeep, NULL);
	if (keep) {
		int e2 = build(&c, keep, nkeep);
		if (e2 < 0 && err == 0)
			err = e2;
		if (e2 == 0) {
			tnorm_test *t2 = NULL;
			if (tnorm_test_dup(&t2, c.cand) == 0) {
				tnorm_test_free(cur);
				cur = t2;
			}
		}
	}
done:
	free(keep);
	tnorm_test_free(c.cand);
	tnorm_test_free(tmp);
	if (stp)
		*stp = stats;
	if (cur)
		*out = cur;
	return err;
}

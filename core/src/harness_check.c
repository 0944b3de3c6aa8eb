/* SPDX-License-Identifier: MIT */
/*
 * harness_check.c - what a harness is refused for, and its counts (harness_internal.h
 * lists the rooms).
 *
 * After parsing, each template's slot counts are multiplied out with overflow checks so that
 * rank/unrank (order.c) can work arithmetically, and a harness in which two actions would print
 * as the same step is refused, so that text -> test -> text is the identity for every harness
 * that loads; so is a guard that no other template meets.  A list that names a value twice is
 * refused as it is read (harness_values.c calls in here).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

/* ---- values that would print alike ----------------------------------------------------------
 *
 * A test is text, so two different actions that print as the same step would make text -> test
 * -> text other than the identity (the parser reads the step back as the first of them).  Only
 * value slots can do that: instance names never collide (a pool name does not end in a digit and
 * an instance number has no leading zero), and a value (a number or a quoted string) never looks
 * like an instance.  So two actions print alike exactly when they come from templates of the same
 * shape (left-hand side pool, value or call, name, arguments' pools) whose value slots have a
 * value in common, slot by slot; or from one template whose list names one value twice.  Sets
 * are compared sorted, so the check stays near-linear however long the lists. */

typedef struct {
	tnorm_literal lit;
	uint64_t idx; /* position in the list */
	uint32_t col; /* where it was written (lists being parsed only) */
} vitem;

/* The order printing agrees with: a string and an integer never print alike. */
static int lit_cmp(const tnorm_literal *a, const tnorm_literal *b)
{
	int c;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == TNORM_LIT_INT)
		return a->i < b->i ? -1 : a->i > b->i;
	if (a->kind == TNORM_LIT_NULL)
		return 0;
	c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

static int vitem_cmp(const void *x, const void *y)
{
	const vitem *a = x, *b = y;
	int c = lit_cmp(&a->lit, &b->lit);
	if (c)
		return c;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* A sorted copy of a list's values (NULL for a range).  0 or TNORM_ENOMEM. */
static int sorted_values(const tnorm__vset *vs, const uint32_t *cols, vitem **out)
{
	uint64_t i;
	*out = NULL;
	if (vs->is_range || vs->gen)
		return 0;
	if (!(*out = tnorm__calloc((size_t)vs->nlits, sizeof(**out))))
		return TNORM_ENOMEM;
	for (i = 0; i < vs->nlits; i++) {
		(*out)[i].lit = vs->lits[i];
		(*out)[i].idx = i;
		(*out)[i].col = cols ? cols[i] : 0;
	}
	qsort(*out, (size_t)vs->nlits, sizeof(**out), vitem_cmp);
	return 0;
}

/* Print a literal for a message (strings quoted and escaped, cut at 40 bytes). */
const char *tnorm__tnh_lit_text(const tnorm_literal *l, char *buf, size_t size)
{
	tnorm__buf b = TNORM__BUF_INIT;
	if (l->kind == TNORM_LIT_INT) {
		snprintf(buf, size, "%lld", (long long)l->i);
		return buf;
	}
	if (l->kind == TNORM_LIT_NULL)
		return "null";
	if (tnorm__buf_put_quoted(&b, l->s, l->len > 40 ? 40 : l->len) < 0) {
		tnorm__buf_dispose(&b);
		return "a string";
	}
	snprintf(buf, size, "%s%s", b.ptr, l->len > 40 ? "..." : "");
	tnorm__buf_dispose(&b);
	return buf;
}

/* A list that names one value twice makes two choices print alike: refuse it, at both places. */
int tnorm__tnh_check_list_duplicates(parser *ps, const tnorm__vset *vs, const uint32_t *cols,
                                            const token *open)
{
	vitem *v = NULL;
	uint64_t i;
	int err;
	if ((err = sorted_values(vs, cols, &v)) < 0)
		return err;
	for (i = 1; i < vs->nlits; i++)
		if (!lit_cmp(&v[i - 1].lit, &v[i].lit)) {
			token at = *open;
			char b[96];
			at.col = v[i].col;
			err = tnorm__tnh_perr(
			    ps, &at,
			    "value %s is listed twice in one set (columns %u and %u), expected "
			    "each value once",
			    tnorm__tnh_lit_text(&v[i].lit, b, sizeof(b)), v[i - 1].col, v[i].col);
			break;
		}
	free(v);
	return err;
}

static int mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return 0;
	*out = a * b;
	return 1;
}

/* Do sets a and b (sorted copies sa, sb; NULL for ranges) share a value?  Its positions in each
 * go to *ia and *ib. */
static int vsets_meet(const tnorm__vset *a, const vitem *sa, const tnorm__vset *b, const vitem *sb,
                      uint64_t *ia, uint64_t *ib)
{
	uint64_t i = 0, j = 0;
	if (b->gen && !a->gen)
		return vsets_meet(b, sb, a, sa, ib, ia);
	if (a->gen) {
		if (b->is_range)
			return 0; /* strings and integers never print alike */
		if (b->gen) {
			/* a common length; at length 0 the empty string, else a common letter repeated */
			uint32_t lo = a->gen->minlen > b->gen->minlen ? a->gen->minlen : b->gen->minlen;
			uint32_t hi = a->gen->maxlen < b->gen->maxlen ? a->gen->maxlen : b->gen->maxlen;
			char str[TNORM_MAX_GEN_LEN + 1];
			uint32_t c;
			if (lo > hi)
				return 0;
			for (c = 0; c < 256 && lo > 0; c++)
				if (a->gen->pos[c] >= 0 && b->gen->pos[c] >= 0)
					break;
			if (lo > 0 && c == 256)
				return 0;
			memset(str, (int)c, lo);
			*ia = tnorm__gen_rank(a->gen, str, lo);
			*ib = tnorm__gen_rank(b->gen, str, lo);
			return 1;
		}
		for (j = 0; j < b->nlits; j++)
			if (b->lits[j].kind == TNORM_LIT_STRING &&
			    (i = tnorm__gen_rank(a->gen, b->lits[j].s, b->lits[j].len)) != UINT64_MAX) {
				*ia = i;
				*ib = j;
				return 1;
			}
		return 0;
	}
	if (a->is_range && b->is_range) {
		int64_t lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
		if (lo > hi)
			return 0;
		*ia = (uint64_t)lo - (uint64_t)a->lo;
		*ib = (uint64_t)lo - (uint64_t)b->lo;
		return 1;
	}
	if (b->is_range)
		return vsets_meet(b, sb, a, sa, ib, ia);
	if (a->is_range) {
		/* The first integer of the sorted list at or above the range's low end. */
		uint64_t lo = 0, hi = b->nlits;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (sb[mid].lit.kind == TNORM_LIT_INT && sb[mid].lit.i < a->lo)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == b->nlits || sb[lo].lit.kind != TNORM_LIT_INT || sb[lo].lit.i > a->hi)
			return 0;
		*ia = (uint64_t)sb[lo].lit.i - (uint64_t)a->lo;
		*ib = sb[lo].idx;
		return 1;
	}
	while (i < a->nlits && j < b->nlits) {
		int c = lit_cmp(&sa[i].lit, &sb[j].lit);
		if (c == 0) {
			*ia = sa[i].idx;
			*ib = sb[j].idx;
			return 1;
		}
		if (c < 0)
			i++;
		else
			j++;
	}
	return 0;
}

/* Same left-hand side pool, same kind and name, and the same pool in every pool slot: then the
 * two templates print alike exactly when every value slot's sets meet. */
static int same_shape(const tnorm__tmpl *a, const tnorm__tmpl *b)
{
	uint32_t s;
	if (a->info.kind != b->info.kind || a->info.has_lhs != b->info.has_lhs ||
	    a->info.nslots != b->info.nslots || strcmp(a->name, b->name))
		return 0;
	for (s = 0; s < a->info.nslots; s++) {
		if (a->info.slot[s].kind != b->info.slot[s].kind)
			return 0;
		if (a->info.slot[s].kind == TNORM_SLOT_POOL &&
		    a->info.slot[s].pool != b->info.slot[s].pool)
			return 0;
	}
	return 1;
}

/* Refuse two action templates that print some action alike (see above). */
static int check_ambiguity(parser *ps)
{
	tnorm_harness *h = ps->h;
	vitem **sorted = NULL;
	uint32_t i, j, s;
	int err = 0;
	if (!(sorted = tnorm__calloc((size_t)h->ntmpls * TNORM_MAX_SLOTS, sizeof(*sorted))))
		return TNORM_ENOMEM;
	for (i = 0; i < h->ntmpls; i++)
		for (s = 0; s < h->tmpls[i].info.nslots; s++)
			if (h->tmpls[i].info.slot[s].kind == TNORM_SLOT_VALUE &&
			    (err = sorted_values(&h->tmpls[i].vset[s], NULL,
			                         &sorted[i * TNORM_MAX_SLOTS + s])) < 0)
				goto done;
	for (j = 1; j < h->ntmpls; j++) {
		for (i = 0; i < j; i++) {
			const tnorm__tmpl *a = &h->tmpls[i], *b = &h->tmpls[j];
			tnorm_action ex;
			uint64_t ia, ib;
			tnorm__buf text = TNORM__BUF_INIT;
			if (!same_shape(a, b))
				continue;
			memset(&ex, 0, sizeof(ex));
			ex.tmpl = j;
			for (s = 0; s < b->info.nslots; s++) {
				if (b->info.slot[s].kind != TNORM_SLOT_VALUE)
					continue;
				if (!vsets_meet(&a->vset[s], sorted[i * TNORM_MAX_SLOTS + s],
				                &b->vset[s], sorted[j * TNORM_MAX_SLOTS + s], &ia,
				                &ib))
					break;
				ex.choice[s] = (uint32_t)ib;
			}
			if (s < b->info.nslots)
				continue;
			if ((err = tnorm__format_action(&text, h, &ex)) < 0) {
				tnorm__buf_dispose(&text);
				goto done;
			}
			err = tnorm__error_set(
			    TNORM_EPARSE,
			    "%s:%u:1: this template prints steps exactly as "
			    "the template at %s:%u does (both write '%.*s%s'), so such a "
			    "step would not read back as written; expected templates whose "
			    "steps differ",
			    ps->name, b->info.line, ps->name, a->info.line,
			    (int)(text.len > 80 ? 80 : text.len), text.ptr,
			    text.len > 80 ? "..." : "");
			tnorm__buf_dispose(&text);
			goto done;
		}
	}
done:
	for (i = 0; i < h->ntmpls * TNORM_MAX_SLOTS; i++)
		free(sorted[i]);
	free(sorted);
	return err;
}

/* Does template m fit the guard of t: a call of the guard's NAME with as many arguments, and
 * the guarded argument's pool wherever the guard writes <POOL>? */
static int guard_matches(const tnorm_harness *h, const tnorm__tmpl *t, const tnorm__tmpl *m)
{
	uint32_t k, off = m->info.has_lhs ? 1 : 0;
	if (m->info.kind != TNORM_TMPL_CALL || strcmp(m->name, t->guard_name) ||
	    m->info.nslots - off != t->guard_nargs)
		return 0;
	for (k = 0; k < t->guard_nargs; k++) {
		const tnorm_slot_info *ms = &m->info.slot[k + off];
		if (t->guard_slot[k] >= 0 &&
		    (ms->kind != TNORM_SLOT_POOL || ms->pool != t->info.slot[t->guard_slot[k]].pool))
			return 0;
	}
	(void)h;
	return 1;
}

/* The templates each guard matches.  A guard that matches none, or only its own template, is
 * refused: no step of the template could ever run. */
static int resolve_guards(parser *ps)
{
	tnorm_harness *h = ps->h;
	uint32_t i, m;
	for (i = 0; i < h->ntmpls; i++) {
		tnorm__tmpl *t = &h->tmpls[i];
		tnorm__buf text = TNORM__BUF_INIT;
		token at;
		int err;
		if (!t->guard_name)
			continue;
		if (!(t->guard_tmpls = tnorm__calloc(h->ntmpls, sizeof(*t->guard_tmpls))))
			return TNORM_ENOMEM;
		for (m = 0; m < h->ntmpls; m++)
			if (guard_matches(h, t, &h->tmpls[m]))
				t->guard_tmpls[t->guard_ntmpls++] = m;
		if ((err = tnorm__guard_text(&text, h, t, NULL)) < 0)
			return err;
		if (t->guard_ntmpls > 0 && !(t->guard_ntmpls == 1 && t->guard_tmpls[0] == i)) {
			/* "requires NAME(...)": info.guard is what follows the keyword. */
			t->guard_text = tnorm__strdup(text.ptr + 9);
			tnorm__buf_dispose(&text);
			if (!t->guard_text)
				return TNORM_ENOMEM;
			t->info.guard = t->guard_text;
			continue;
		}
		memset(&at, 0, sizeof(at));
		at.line = t->guard_line;
		at.col = t->guard_col;
		if (t->guard_ntmpls == 0)
			err = tnorm__tnh_perr(
			    ps, &at,
			    "'%s' matches no template, expected a call template of '%s' with "
			    "%u argument%s, holding the guard's pools where it names them",
			    text.ptr + 9, t->guard_name, t->guard_nargs,
			    t->guard_nargs == 1 ? "" : "s");
		else
			err = tnorm__tnh_perr(ps, &at, "'%s' matches only this template, so no step of it could ever "
			                      "run; expected a guard that another template meets", text.ptr + 9);
		tnorm__buf_dispose(&text);
		return err;
	}
	return 0;
}

int tnorm__tnh_finish(parser *ps)
{
	tnorm_harness *h = ps->h;
	uint32_t i, s;
	uint64_t total = 0;
	int err;

	if (h->ntmpls == 0) {
		token t;
		memset(&t, 0, sizeof(t));
		t.line = ps->line;
		t.col = 1;
		return tnorm__tnh_perr(ps, &t, "the harness declares no action templates, expected at least one "
		                       "template such as '<pool> := 1..10' or 'f(<pool>)'");
	}
	/* Checks were appended interleaved with templates: stable-partition so actions come first. */
	{
		tnorm__tmpl *sorted = tnorm__calloc((size_t)h->ntmpls + h->nchecks, sizeof(*sorted));
		uint32_t a = 0, c = h->ntmpls;
		if (!sorted)
			return TNORM_ENOMEM;
		for (i = 0; i < h->ntmpls + h->nchecks; i++) {
			int is_check = h->tmpls[i].info.first == UINT64_MAX;
			sorted[is_check ? c++ : a++] = h->tmpls[i];
		}
		free(h->tmpls);
		h->tmpls = sorted;
	}
	for (i = 0; i < h->npools; i++) {
		h->pools[i].info.first_var = h->nvars;
		h->nvars += h->pools[i].info.instances;
	}
	for (i = 0; i < h->ntmpls + h->nchecks; i++) {
		tnorm__tmpl *t = &h->tmpls[i];
		uint64_t pc = 1, vc = 1, cnt;
		t->info.name = t->name;
		for (s = 0; s < t->info.nslots; s++) {
			uint64_t n = tnorm__slot_count(t, s);
			assert(n >= 1 && n <= TNORM_MAX_VALUES); /* parse_vset and add_literal see to it */
			t->info.slot[s].count = (uint32_t)n;
			if (!mul_ok(t->info.slot[s].kind == TNORM_SLOT_POOL ? pc : vc, n,
			            t->info.slot[s].kind == TNORM_SLOT_POOL ? &pc : &vc))
				goto overflow;
		}
		t->pool_combos = pc;
		t->value_combos = vc;
		if (!mul_ok(pc, vc, &cnt))
			goto overflow;
		if (i < h->ntmpls) {
			t->info.first = total;
			t->info.count = cnt;
			if (total > UINT64_MAX - cnt)
				goto overflow;
			total += cnt;
		} else {
			t->info.first = 0;
			t->info.count = 0;
		}
		continue;
overflow:
		return tnorm__error_set(TNORM_EOVERFLOW, "%s:%u:1: the harness defines more than 2^64-1 "
		                        "actions, expected fewer slots or smaller pools and ranges",
		                        ps->name, t->info.line);
	}
	h->total = total;
	if ((err = check_ambiguity(ps)) < 0)
		return err;
	return resolve_guards(ps);
}

/* SPDX-License-Identifier: MIT */
/*
 * test.c - tests as arrays of actions: parse, print, compare, well-formedness, def/use.
 *
 * A test is kept as a plain array of tnorm_action (template + slot choices), which makes the
 * candidate tests that reducers and normalizers build cheap to copy and compare.  Text exists
 * only at the edges: parsing a file (one step a line, comments and blank lines ignored) and
 * printing the canonical form.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

int tnorm_test_new(tnorm_test **out, const tnorm_harness *h)
{
	if (!out || !h)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_new: NULL argument");
	if (!(*out = tnorm__calloc(1, sizeof(**out))))
		return TNORM_ENOMEM;
	(*out)->h = h;
	return 0;
}

void tnorm_test_free(tnorm_test *t)
{
	if (!t)
		return;
	free(t->steps);
	free(t->lines);
	free(t);
}

static int reserve(tnorm_test *t, size_t n)
{
	tnorm_action *s;
	uint32_t *l;
	size_t cap;
	if (n <= t->cap)
		return 0;
	cap = t->cap ? t->cap * 2 : 16;
	while (cap < n)
		cap *= 2;
	if (!(s = tnorm__reallocarray(t->steps, cap, sizeof(*s))))
		return TNORM_ENOMEM;
	t->steps = s;
	if (!(l = tnorm__reallocarray(t->lines, cap, sizeof(*l))))
		return TNORM_ENOMEM;
	t->lines = l;
	t->cap = cap;
	return 0;
}

static int valid(const tnorm_harness *h, const tnorm_action *a)
{
	const tnorm__tmpl *tm;
	uint32_t s;
	if (!a || a->tmpl >= h->ntmpls)
		return 0;
	tm = &h->tmpls[a->tmpl];
	for (s = 0; s < tm->info.nslots; s++)
		if (a->choice[s] >= tnorm__slot_count(tm, s))
			return 0;
	return 1;
}

static int append_line(tnorm_test *t, const tnorm_action *a, uint32_t line)
{
	int err;
	if ((err = reserve(t, t->len + 1)) < 0)
		return err;
	t->steps[t->len] = *a;
	/* Unused slots are zero so that tests compare and hash by content. */
	{
		uint32_t s;
		for (s = t->h->tmpls[a->tmpl].info.nslots; s < TNORM_MAX_SLOTS; s++)
			t->steps[t->len].choice[s] = 0;
	}
	t->lines[t->len] = line;
	t->len++;
	return 0;
}

int tnorm_test_append(tnorm_test *t, const tnorm_action *a)
{
	if (!t || !valid(t->h, a))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_append: not an action of this harness");
	return append_line(t, a, 0);
}

int tnorm_test_set(tnorm_test *t, size_t i, const tnorm_action *a)
{
	uint32_t s;
	if (!t || i >= t->len || !valid(t->h, a))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_set: bad step or action");
	t->steps[i] = *a;
	for (s = t->h->tmpls[a->tmpl].info.nslots; s < TNORM_MAX_SLOTS; s++)
		t->steps[i].choice[s] = 0;
	t->lines[i] = 0;
	return 0;
}

void tnorm_test_clear(tnorm_test *t)
{
	if (t)
		t->len = 0;
}

int tnorm_test_dup(tnorm_test **out, const tnorm_test *t)
{
	int err;
	if (!out || !t)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_dup: NULL argument");
	if ((err = tnorm_test_new(out, t->h)) < 0)
		return err;
	if ((err = reserve(*out, t->len)) < 0) {
		tnorm_test_free(*out);
		*out = NULL;
		return err;
	}
	if (t->len) {
		memcpy((*out)->steps, t->steps, t->len * sizeof(*t->steps));
		memcpy((*out)->lines, t->lines, t->len * sizeof(*t->lines));
	}
	(*out)->len = t->len;
	return 0;
}

const tnorm_harness *tnorm_test_harness(const tnorm_test *t)
{
	return t ? t->h : NULL;
}

size_t tnorm_test_len(const tnorm_test *t)
{
	return t ? t->len : 0;
}

const tnorm_action *tnorm_test_step(const tnorm_test *t, size_t i)
{
	return t && i < t->len ? &t->steps[i] : NULL;
}

uint32_t tnorm_test_step_line(const tnorm_test *t, size_t i)
{
	return t && i < t->len ? t->lines[i] : 0;
}

int tnorm_test_remove(tnorm_test *t, size_t i)
{
	if (!t || i >= t->len)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_remove: no step %zu", i);
	memmove(&t->steps[i], &t->steps[i + 1], (t->len - i - 1) * sizeof(*t->steps));
	memmove(&t->lines[i], &t->lines[i + 1], (t->len - i - 1) * sizeof(*t->lines));
	t->len--;
	return 0;
}

int tnorm_test_insert(tnorm_test *t, size_t i, const tnorm_action *a)
{
	int err;
	if (!t || i > t->len || !valid(t->h, a))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_insert: bad position or action");
	if ((err = append_line(t, a, 0)) < 0)
		return err;
	memmove(&t->steps[i + 1], &t->steps[i], (t->len - 1 - i) * sizeof(*t->steps));
	memmove(&t->lines[i + 1], &t->lines[i], (t->len - 1 - i) * sizeof(*t->lines));
	t->steps[i] = *a;
	{
		uint32_t s;
		for (s = t->h->tmpls[a->tmpl].info.nslots; s < TNORM_MAX_SLOTS; s++)
			t->steps[i].choice[s] = 0;
	}
	t->lines[i] = 0;
	return 0;
}

int tnorm_test_parse(tnorm_test **out, const tnorm_harness *h, const char *name, const char *text,
                     size_t len)
{
	tnorm_test *t = NULL;
	const char *p = text, *end = text + len;
	uint32_t line = 0;
	int err;

	if (!out || !h || (!text && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_parse: NULL argument");
	*out = NULL;
	if (!name)
		name = "<test>";
	if ((err = tnorm_test_new(&t, h)) < 0)
		return err;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *q = p;
		tnorm_action a;
		size_t col = 0;
		line++;
		while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < e && *q != '#') {
			if (memchr(p, '\0', (size_t)(e - p))) {
				err = tnorm__error_set(TNORM_EPARSE, "%s:%u: contains a NUL byte, expected a "
				                       "text line", name, line);
				goto fail;
			}
			if ((err = tnorm_harness_parse_action(h, p, (size_t)(e - p), &a, &col)) < 0) {
				if (err == TNORM_EPARSE)
					tnorm__error_prefix("%s:%u:%zu", name, line, col ? col : 1);
				goto fail;
			}
			if ((err = append_line(t, &a, line)) < 0)
				goto fail;
		}
		p = nl ? nl + 1 : end;
	}
	*out = t;
	return 0;
fail:
	tnorm_test_free(t);
	return err;
}

int tnorm_test_load(tnorm_test **out, const tnorm_harness *h, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int err;
	if (!out || !h || !path)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_load: NULL argument");
	*out = NULL;
	if ((err = tnorm__read_file(path, &text, &len)) < 0)
		return err;
	err = tnorm_test_parse(out, h, path, text, len);
	free(text);
	return err;
}

int tnorm__test_format_into(tnorm__buf *b, const tnorm_test *t)
{
	size_t i;
	int err;
	b->len = 0;
	if ((err = tnorm__buf_grow(b, 0)) < 0)
		return err;
	b->ptr[0] = '\0';
	for (i = 0; i < t->len; i++)
		if ((err = tnorm__format_action(b, t->h, &t->steps[i])) < 0 ||
		    (err = tnorm__buf_putc(b, '\n')) < 0)
			return err;
	return 0;
}

int tnorm_test_format(const tnorm_test *t, char **out, size_t *len)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err = 0;
	if (!t || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_format: NULL argument");
	*out = NULL;
	if ((err = tnorm__test_format_into(&b, t)) < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	if (len)
		*len = b.len;
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
}

int tnorm_test_compare(const tnorm_test *a, const tnorm_test *b)
{
	size_t i;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	for (i = 0; i < a->len; i++) {
		uint64_t x = 0, y = 0;
		tnorm_harness_rank(a->h, &a->steps[i], &x);
		tnorm_harness_rank(b->h, &b->steps[i], &y);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

uint64_t tnorm_test_hash(const tnorm_test *t)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;
	if (!t)
		return 0;
	for (i = 0; i < t->len; i++) {
		uint64_t r = 0;
		tnorm_harness_rank(t->h, &t->steps[i], &r);
		h = tnorm__hash64(&r, sizeof(r), h);
	}
	return tnorm__hash64(&t->len, sizeof(t->len), h);
}

int tnorm_harness_defuse(const tnorm_harness *h, const tnorm_action *a, tnorm_defuse_level level,
                         uint32_t *def, size_t *ndef, uint32_t *use, size_t *nuse)
{
	const tnorm__tmpl *t;
	uint32_t s;
	size_t nd = 0, nu = 0, k;
	if (!h || !a || !def || !ndef || !use || !nuse || !valid(h, a))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_harness_defuse: bad argument");
	t = &h->tmpls[a->tmpl];
	for (s = 0; s < t->info.nslots; s++) {
		const tnorm__pool *p;
		uint32_t var;
		int is_lhs = t->info.has_lhs && s == 0;
		if (t->info.slot[s].kind != TNORM_SLOT_POOL)
			continue;
		p = &h->pools[t->info.slot[s].pool];
		var = p->info.first_var + a->choice[s];
		if (is_lhs) {
			def[nd++] = var;
			continue;
		}
		for (k = 0; k < nu && use[k] != var; k++)
			;
		if (k == nu)
			use[nu++] = var;
		/* A call that takes the value (move) changes the variable at every level. */
		if (!t->info.slot[s].moves && (p->info.is_const || t->info.is_pure ||
		                               (level == TNORM_DEFUSE_L0 && t->info.has_lhs)))
			continue;
		for (k = 0; k < nd && def[k] != var; k++)
			;
		if (k == nd)
			def[nd++] = var;
	}
	*ndef = nd;
	*nuse = nu;
	return 0;
}

/* The message for step i, which uses POOLk after step m took its value (move). */
static int used_after_move(const tnorm_test *t, size_t i, const char *pool, uint32_t k, size_t m)
{
	char li[32] = "", lm[32] = "";
	if (t->lines[i])
		snprintf(li, sizeof(li), " (line %u)", t->lines[i]);
	if (t->lines[m])
		snprintf(lm, sizeof(lm), " (line %u)", t->lines[m]);
	return tnorm__error_set(TNORM_EINVALID, "step %zu%s: %s%u is used after step %zu%s took its "
	                        "value (move), expected an assignment to %s%u first", i, li, pool, k,
	                        m, lm, pool, k);
}

/* The message for step i, which breaks its template's guard. */
static int guard_broken(const tnorm_test *t, size_t i)
{
	const tnorm__tmpl *tm = &t->h->tmpls[t->steps[i].tmpl];
	tnorm__buf step = TNORM__BUF_INIT, want = TNORM__BUF_INIT, guard = TNORM__BUF_INIT;
	char line[32] = "";
	int err;
	if (t->lines[i])
		snprintf(line, sizeof(line), " (line %u)", t->lines[i]);
	if ((err = tnorm__format_action(&step, t->h, &t->steps[i])) < 0 ||
	    (err = tnorm__guard_text(&want, t->h, tm, &t->steps[i])) < 0 ||
	    (err = tnorm__guard_text(&guard, t->h, tm, NULL)) < 0)
		goto done;
	err = tnorm__error_set(TNORM_EINVALID, "step %zu%s: %s breaks its guard '%s' (%s:%u): no "
	                       "earlier step %s with the values these instances hold now",
	                       i, line, step.ptr, guard.ptr, t->h->name, tm->info.line, want.ptr);
done:
	tnorm__buf_dispose(&step);
	tnorm__buf_dispose(&want);
	tnorm__buf_dispose(&guard);
	return err;
}

int tnorm_test_check(const tnorm_test *t, size_t *bad_step)
{
	const tnorm_harness *h;
	unsigned char *assigned = NULL;
	size_t i, broken = SIZE_MAX, *moved = NULL;
	int err = 0;
	if (!t)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_test_check: NULL test");
	h = t->h;
	/* Per variable: assigned now?  And the step (+1) that last took its value (move), if any. */
	if (!(assigned = tnorm__calloc(h->nvars ? h->nvars : 1, 1)) ||
	    !(moved = tnorm__calloc(h->nvars ? h->nvars : 1, sizeof(*moved)))) {
		free(assigned);
		return TNORM_ENOMEM;
	}
	if ((err = tnorm__guards_first_broken(t, &broken)) < 0)
		goto done;
	for (i = 0; i < t->len; i++) {
		const tnorm__tmpl *tm = &h->tmpls[t->steps[i].tmpl];
		uint32_t s;
		for (s = tm->info.has_lhs ? 1 : 0; s < tm->info.nslots; s++) {
			const tnorm__pool *p;
			if (tm->info.slot[s].kind != TNORM_SLOT_POOL)
				continue;
			p = &h->pools[tm->info.slot[s].pool];
			if (!assigned[p->info.first_var + t->steps[i].choice[s]]) {
				size_t m = moved[p->info.first_var + t->steps[i].choice[s]];
				if (bad_step)
					*bad_step = i;
				if (m)
					err = used_after_move(t, i, p->name, t->steps[i].choice[s], m - 1);
				else if (t->lines[i])
					err = tnorm__error_set(TNORM_EINVALID, "step %zu (line %u): %s%u is used "
					                       "before it is assigned", i, t->lines[i], p->name,
					                       t->steps[i].choice[s]);
				else
					err = tnorm__error_set(TNORM_EINVALID, "step %zu: %s%u is used before it is "
					                       "assigned", i, p->name, t->steps[i].choice[s]);
				goto done;
			}
		}
		if (i == broken) {
			err = guard_broken(t, i);
			if (bad_step)
				*bad_step = i;
			goto done;
		}
		for (s = tm->info.has_lhs ? 1 : 0; s < tm->info.nslots; s++)
			if (tm->info.slot[s].moves) {
				uint32_t v = h->pools[tm->info.slot[s].pool].info.first_var + t->steps[i].choice[s];
				assigned[v] = 0;
				moved[v] = i + 1;
			}
		if (tm->info.has_lhs)
			assigned[h->pools[tm->info.slot[0].pool].info.first_var + t->steps[i].choice[0]] = 1;
	}
done:
	free(assigned);
	free(moved);
	return err;
}

int tnorm_test_is_wellformed(const tnorm_test *t)
{
	const tnorm_harness *h;
	unsigned char stackbuf[256], *assigned = stackbuf;
	size_t i;
	int ok = 1;
	if (!t)
		return 0;
	h = t->h;
	if (h->nvars > sizeof(stackbuf) && !(assigned = tnorm__calloc(h->nvars, 1)))
		return 0;
	if (assigned == stackbuf)
		memset(stackbuf, 0, sizeof(stackbuf));
	for (i = 0; i < t->len && ok; i++) {
		const tnorm__tmpl *tm = &h->tmpls[t->steps[i].tmpl];
		uint32_t s;
		for (s = tm->info.has_lhs ? 1 : 0; s < tm->info.nslots; s++)
			if (tm->info.slot[s].kind == TNORM_SLOT_POOL &&
			    !assigned[h->pools[tm->info.slot[s].pool].info.first_var + t->steps[i].choice[s]]) {
				ok = 0;
				break;
			}
		for (s = tm->info.has_lhs ? 1 : 0; ok && s < tm->info.nslots; s++)
			if (tm->info.slot[s].moves)
				assigned[h->pools[tm->info.slot[s].pool].info.first_var + t->steps[i].choice[s]] = 0;
		if (ok && tm->info.has_lhs)
			assigned[h->pools[tm->info.slot[0].pool].info.first_var + t->steps[i].choice[0]] = 1;
	}
	if (assigned != stackbuf)
		free(assigned);
	if (ok && h->nguards) {
		size_t broken;
		ok = tnorm__guards_first_broken(t, &broken) == 0 && broken == SIZE_MAX;
	}
	return ok;
}

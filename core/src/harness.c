/* SPDX-License-Identifier: MIT */
/*
 * harness.c - parse a harness (*.tnh) into pools and action templates: the public API.
 *
 * The language is line oriented: each non-blank line declares a pool, an action template or a
 * check (docs/harness.md has the grammar).  The parser is a small hand-written lexer plus one
 * recursive-descent function per line kind; it stops at the first error and reports it as
 * "NAME:LINE:COL: what was found, expected what", because a person reads these messages (often
 * as a Python exception inside gdb).  Every limit (docs/harness.md) is enforced at load, so that
 * the test parser, rank/unrank and the generator never meet a harness they cannot serve.
 *
 * This file drives the parse, a line at a time, then the checks, and answers the accessors; the
 * rest is in rooms of its own (harness_internal.h says who calls whom): harness_lex.c (tokens
 * and error messages), harness_parse.c (one line), harness_values.c (a value set) and
 * harness_check.c (values that print alike, guards, counts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

void tnorm_harness_free(tnorm_harness *h)
{
	uint32_t i;
	size_t k;
	if (!h)
		return;
	for (i = 0; i < h->npools; i++)
		free(h->pools[i].name);
	free(h->pools);
	for (i = 0; i < h->ntmpls + h->nchecks; i++) {
		uint32_t s;
		free(h->tmpls[i].name);
		free(h->tmpls[i].guard_name);
		free(h->tmpls[i].guard_text);
		free(h->tmpls[i].guard_tmpls);
		for (s = 0; s < TNORM_MAX_SLOTS; s++) {
			free(h->tmpls[i].vset[s].lits);
			free(h->tmpls[i].vset[s].gen);
		}
	}
	free(h->tmpls);
	for (k = 0; k < h->nstrings; k++)
		free(h->strings[k]);
	free(h->strings);
	free(h->name);
	free(h);
}

int tnorm_harness_parse(tnorm_harness **out, const char *name, const char *text, size_t len)
{
	parser ps;
	tnorm_harness *h = NULL;
	int err = 0;

	memset(&ps, 0, sizeof(ps));
	if (!out || (!text && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_harness_parse: NULL argument");
	*out = NULL;
	if (!name)
		name = "<harness>";
	if (memchr(text, '\0', len))
		return tnorm__error_set(TNORM_EPARSE, "%s: contains a NUL byte, expected a text file", name);
	if (!(h = tnorm__calloc(1, sizeof(*h))))
		return TNORM_ENOMEM;
	if (!(h->name = tnorm__strdup(name))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	ps.h = h;
	ps.name = h->name;
	ps.p = text;
	ps.end = text + len;
	ps.line = 1;
	ps.line_start = text;
	for (;;) {
		token *t;
		uint32_t before = h->ntmpls + h->nchecks, nch = h->nchecks;
		if ((err = tnorm__tnh_peek(&ps, &t)) < 0)
			goto done;
		if (t->kind == T_EOF)
			break;
		if ((err = tnorm__tnh_parse_line(&ps)) < 0)
			goto done;
		/* Mark checks so tnorm__tnh_finish() can partition them after the action
		 * templates. */
		if (h->ntmpls + h->nchecks > before)
			h->tmpls[before].info.first = h->nchecks > nch ? UINT64_MAX : 0;
	}
	err = tnorm__tnh_finish(&ps);
done:
	if (ps.have)
		tnorm__tnh_tok_dispose(&ps.tok);
	if (err < 0) {
		tnorm_harness_free(h);
		return err;
	}
	*out = h;
	return 0;
}

int tnorm_harness_load(tnorm_harness **out, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int err;
	if (!out || !path)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_harness_load: NULL argument");
	*out = NULL;
	if ((err = tnorm__read_file(path, &text, &len)) < 0)
		return err;
	err = tnorm_harness_parse(out, path, text, len);
	free(text);
	return err;
}

const char *tnorm_harness_name(const tnorm_harness *h)
{
	return h ? h->name : "";
}

uint32_t tnorm_harness_pool_count(const tnorm_harness *h)
{
	return h ? h->npools : 0;
}

int tnorm_harness_pool(const tnorm_harness *h, uint32_t i, tnorm_pool_info *out)
{
	if (!h || !out || i >= h->npools)
		return tnorm__error_set(TNORM_EINVALID, "pool index %u out of range", i);
	*out = h->pools[i].info;
	return 0;
}

int tnorm_harness_pool_find(const tnorm_harness *h, const char *name, uint32_t *out)
{
	if (!h || !name || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_harness_pool_find: NULL argument");
	if (tnorm__tnh_find_pool(h, name, strlen(name), out) < 0)
		return tnorm__error_set(TNORM_ENOTFOUND, "%s: no pool named '%s'", h->name, name);
	return 0;
}

uint32_t tnorm_harness_var_count(const tnorm_harness *h)
{
	return h ? h->nvars : 0;
}

uint32_t tnorm_harness_template_count(const tnorm_harness *h)
{
	return h ? h->ntmpls : 0;
}

int tnorm_harness_template(const tnorm_harness *h, uint32_t i, tnorm_template_info *out)
{
	if (!h || !out || i >= h->ntmpls)
		return tnorm__error_set(TNORM_EINVALID, "template index %u out of range", i);
	*out = h->tmpls[i].info;
	return 0;
}

uint32_t tnorm_harness_check_count(const tnorm_harness *h)
{
	return h ? h->nchecks : 0;
}

int tnorm_harness_check(const tnorm_harness *h, uint32_t i, tnorm_template_info *out)
{
	if (!h || !out || i >= h->nchecks)
		return tnorm__error_set(TNORM_EINVALID, "check index %u out of range", i);
	*out = h->tmpls[h->ntmpls + i].info;
	return 0;
}

int tnorm_harness_value(const tnorm_harness *h, uint32_t tmpl, uint32_t slot, uint64_t v,
                        tnorm_literal *out)
{
	const tnorm__tmpl *t;
	if (!h || !out || tmpl >= h->ntmpls + h->nchecks)
		return tnorm__error_set(TNORM_EINVALID, "template index %u out of range", tmpl);
	t = &h->tmpls[tmpl];
	if (slot >= t->info.nslots || t->info.slot[slot].kind != TNORM_SLOT_VALUE ||
	    v >= tnorm__slot_count(t, slot))
		return tnorm__error_set(TNORM_EINVALID, "no value %llu in slot %u of template %u",
		                        (unsigned long long)v, slot, tmpl);
	if (t->vset[slot].is_range) {
		memset(out, 0, sizeof(*out));
		out->kind = TNORM_LIT_INT;
		out->i = (int64_t)((uint64_t)t->vset[slot].lo + v);
	} else if (t->vset[slot].gen) {
		memset(out, 0, sizeof(*out));
		out->kind = TNORM_LIT_STRING;
		out->len = tnorm__gen_unrank(t->vset[slot].gen, v, out->text);
		out->s = out->text;
	} else {
		*out = t->vset[slot].lits[v];
	}
	return 0;
}

uint64_t tnorm_harness_action_count(const tnorm_harness *h)
{
	return h ? h->total : 0;
}


/* SPDX-License-Identifier: MIT */
/*
 * harness_values.c - a value set of a harness template (harness_internal.h lists the rooms).
 *
 * A value slot, or the right-hand side of `<pool> :=`, takes an integer range LO..HI, a list
 * {LIT, ...} of integers, strings and null (mixed), one literal, or a generated domain:
 * strings(ALPHABET, LO..HI) or bytes(LO..HI), the strings of LO to HI letters in shortlex order.
 * Every set must fit a 32-bit choice (TNORM_MAX_VALUES), refused here at load otherwise, so that
 * rank/unrank, the test parser and the generator never meet a set they cannot serve.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

static int keep_string(tnorm_harness *h, char *s)
{
	char **n = tnorm__reallocarray(h->strings, h->nstrings + 1, sizeof(*n));
	if (!n)
		return TNORM_ENOMEM;
	h->strings = n;
	h->strings[h->nstrings++] = s;
	return 0;
}

/* The number of values of LO..HI in decimal: it may be 2^64, one more than a uint64_t holds. */
static const char *range_count_text(int64_t lo, int64_t hi, char *buf, size_t size)
{
	uint64_t n = (uint64_t)hi - (uint64_t)lo;
	if (n == UINT64_MAX)
		snprintf(buf, size, "18446744073709551616");
	else
		snprintf(buf, size, "%llu", (unsigned long long)n + 1);
	return buf;
}

static int add_literal(parser *ps, tnorm__vset *vs, const token *t)
{
	tnorm_literal *n;
	tnorm_literal *l;
	if (vs->nlits >= TNORM_MAX_VALUES)
		return tnorm__tnh_perr(ps, t, "value list has more than %u values, expected at most %u values in "
		                       "one set", TNORM_MAX_VALUES, TNORM_MAX_VALUES);
	n = tnorm__reallocarray(vs->lits, vs->nlits + 1, sizeof(*n));
	if (!n)
		return TNORM_ENOMEM;
	vs->lits = n;
	l = &vs->lits[vs->nlits];
	memset(l, 0, sizeof(*l));
	if (t->kind == T_INT) {
		l->kind = TNORM_LIT_INT;
		l->i = t->ival;
	} else if (t->kind == T_IDENT) {
		l->kind = TNORM_LIT_NULL; /* the caller saw `null` */
	} else {
		int err = keep_string(ps->h, t->sval);
		if (err < 0)
			return err;
		l->kind = TNORM_LIT_STRING;
		l->s = t->sval;
		l->len = t->slen;
		ps->tok.sval = NULL; /* moved into the harness */
	}
	vs->nlits++;
	return 0;
}

/* {LIT, ...} with the cursor on '{'.  A list may mix integers, strings and null. */
static int parse_list(parser *ps, tnorm__vset *vs)
{
	uint32_t *cols = NULL, *nc;
	token *t, open;
	char b[64];
	int err;
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	open = *t;
	open.sval = NULL;
	tnorm__tnh_consume(ps);
	for (;;) {
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			goto done;
		if (t->kind != T_INT && t->kind != T_STRING && !tnorm__tnh_is_kw(t, "null")) {
			err = tnorm__tnh_perr(ps, t,
			                      "found %s in a value list, expected an integer, a string or null",
			                      tnorm__tnh_tok_desc(t, b, sizeof(b)));
			goto done;
		}
		if (!(nc = tnorm__reallocarray(cols, (size_t)vs->nlits + 1, sizeof(*cols)))) {
			err = TNORM_ENOMEM;
			goto done;
		}
		cols = nc;
		cols[vs->nlits] = t->col;
		if ((err = add_literal(ps, vs, t)) < 0)
			goto done;
		tnorm__tnh_consume(ps);
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			goto done;
		if (t->kind == T_RBRACE) {
			tnorm__tnh_consume(ps);
			err = tnorm__tnh_check_list_duplicates(ps, vs, cols, &open);
			goto done;
		}
		if (t->kind != T_COMMA) {
			err =
			    tnorm__tnh_perr(ps, t, "found %s in a value list, expected ',' or '}'",
			                    tnorm__tnh_tok_desc(t, b, sizeof(b)));
			goto done;
		}
		tnorm__tnh_consume(ps);
	}
done:
	free(cols);
	return err;
}

/* One byte of an alphabet: a string of exactly one byte. */
static int alpha_byte(parser *ps, const token *t, unsigned char *out)
{
	char b[64];
	if (t->kind != T_STRING || t->slen != 1)
		return tnorm__tnh_perr(
		    ps, t,
		    "found %s in the alphabet, expected a string of letters or a range "
		    "of one-byte strings such as \"a\"..\"z\"",
		    tnorm__tnh_tok_desc(t, b, sizeof(b)));
	*out = (unsigned char)t->sval[0];
	return 0;
}

/* Add letter c to the alphabet; a letter given twice would make two strings print alike. */
static int alpha_add(parser *ps, tnorm__gen *g, const token *at, unsigned char c)
{
	if (g->pos[c] >= 0) {
		tnorm_literal l;
		char b[96], ch = (char)c;
		memset(&l, 0, sizeof(l));
		l.kind = TNORM_LIT_STRING;
		l.s = &ch;
		l.len = 1;
		return tnorm__tnh_perr(
		    ps, at, "letter %s is in the alphabet twice, expected each letter once",
		    tnorm__tnh_lit_text(&l, b, sizeof(b)));
	}
	g->pos[c] = (int16_t)g->nalpha;
	g->alpha[g->nalpha++] = c;
	return 0;
}

/* strings(...)'s alphabet, after its '(': one-byte ranges "x".."y" and strings of letters, one
 * after another, then the ',' before the lengths.  Each letter once. */
static int parse_alphabet(parser *ps, tnorm__gen *g)
{
	token *t, at;
	uint32_t i;
	int err;
	for (;;) {
		unsigned char first = 0, last = 0;
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			return err;
		at = *t;
		at.sval = NULL;
		if (t->kind != T_STRING)
			return alpha_byte(ps, t, &first);
		if (t->slen == 1) {
			first = (unsigned char)t->sval[0];
			tnorm__tnh_consume(ps);
			if ((err = tnorm__tnh_peek(ps, &t)) < 0)
				return err;
			if (t->kind == T_DOTDOT) {
				tnorm__tnh_consume(ps);
				if ((err = tnorm__tnh_peek(ps, &t)) < 0 || (err = alpha_byte(ps, t, &last)) < 0)
					return err;
				if (last < first)
					return tnorm__tnh_perr(ps, t, "letter range is empty, expected the lower "
					                       "letter first");
				tnorm__tnh_consume(ps);
				for (i = first; i <= last; i++)
					if ((err = alpha_add(ps, g, &at, (unsigned char)i)) < 0)
						return err;
			} else if ((err = alpha_add(ps, g, &at, first)) < 0) {
				return err;
			}
		} else {
			for (i = 0; i < t->slen; i++)
				if ((err = alpha_add(ps, g, &at, (unsigned char)t->sval[i])) < 0)
					return err;
			tnorm__tnh_consume(ps);
		}
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			return err;
		if (t->kind != T_STRING)
			break; /* several pieces may follow each other: "a".."z" "_" */
	}
	if (g->nalpha == 0)
		return tnorm__tnh_perr(ps, &at,
		                       "the alphabet is empty, expected at least one letter");
	if ((err = tnorm__tnh_expect(ps, T_COMMA, "',' and the lengths LO..HI after the alphabet",
	                             "found")) < 0)
		return err;
	return 0;
}

/*
 * strings(ALPHABET, LO..HI) | bytes(LO..HI), with the cursor on the keyword: the strings of
 * LO to HI letters (ALPHABET: a string, or "x".."y" for a range of bytes), in shortlex order.
 * The domain must fit a 32-bit choice, as every set does.
 */
static int parse_domain(parser *ps, tnorm__vset *vs)
{
	token *t, kw, at;
	tnorm__gen *g;
	char b[64];
	int64_t lo, hi;
	uint64_t count = 0, pw = 1;
	uint32_t i, len;
	int err, is_bytes;
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	kw = *t;
	kw.sval = NULL;
	is_bytes = tnorm__tnh_is_kw(t, "bytes");
	tnorm__tnh_consume(ps);
	if (!(vs->gen = g = tnorm__calloc(1, sizeof(*g))))
		return TNORM_ENOMEM;
	memset(g->pos, 0xff, sizeof(g->pos));
	if ((err = tnorm__tnh_expect(ps, T_LPAREN,
	                             is_bytes ? "'(' after 'bytes'" : "'(' after 'strings'",
	                             "found")) < 0)
		return err;
	if (is_bytes) {
		for (i = 0; i < 256; i++)
			alpha_add(ps, g, &kw, (unsigned char)i);
	} else if ((err = parse_alphabet(ps, g)) < 0) {
		return err;
	}
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	at = *t;
	at.sval = NULL;
	if (t->kind != T_INT)
		return tnorm__tnh_perr(ps, t, "found %s, expected the lengths LO..HI", tnorm__tnh_tok_desc(t, b, sizeof(b)));
	lo = t->ival;
	tnorm__tnh_consume(ps);
	if ((err = tnorm__tnh_expect(ps, T_DOTDOT, "'..' between the lengths", "found")) < 0 ||
	    (err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind != T_INT)
		return tnorm__tnh_perr(ps, t, "found %s after '..', expected the longest length",
		                       tnorm__tnh_tok_desc(t, b, sizeof(b)));
	hi = t->ival;
	if (lo < 0 || hi < lo || hi > TNORM_MAX_GEN_LEN)
		return tnorm__tnh_perr(ps, &at, "lengths %lld..%lld are out of range, expected 0 <= LO <= HI <= %d",
		                       (long long)lo, (long long)hi, TNORM_MAX_GEN_LEN);
	tnorm__tnh_consume(ps);
	if ((err = tnorm__tnh_expect(ps, T_RPAREN, "')' after the lengths", "found")) < 0)
		return err;
	g->minlen = (uint32_t)lo;
	g->maxlen = (uint32_t)hi;
	for (len = 0; len <= g->maxlen; len++) {
		if (len >= g->minlen) {
			count += pw;
			if (count > TNORM_MAX_VALUES)
				break;
		}
		if (pw > (uint64_t)TNORM_MAX_VALUES / g->nalpha + 1)
			pw = (uint64_t)TNORM_MAX_VALUES + 1; /* saturated: more than any set may hold */
		else
			pw *= g->nalpha;
	}
	if (count > TNORM_MAX_VALUES)
		return tnorm__tnh_perr(ps, &kw, "%s has more than %u values (at length %u), expected at most %u "
		                       "values in one set: fewer letters or shorter strings", is_bytes ? "bytes(...)"
		                       : "strings(...)", TNORM_MAX_VALUES, len, TNORM_MAX_VALUES);
	g->count = count;
	return 0;
}

/* LO..HI | {LIT, ...} | LIT | strings(...) | bytes(...) */
int tnorm__tnh_parse_vset(parser *ps, tnorm__vset *vs, const char *context)
{
	token *t;
	char b[64];
	int err;
	memset(vs, 0, sizeof(*vs));
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind == T_INT) {
		token lo = *t;
		lo.sval = NULL;
		tnorm__tnh_consume(ps);
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			return err;
		if (t->kind != T_DOTDOT) {
			/* a single integer literal */
			return add_literal(ps, vs, &lo);
		}
		tnorm__tnh_consume(ps);
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			return err;
		if (t->kind != T_INT)
			return tnorm__tnh_perr(ps, t, "found %s after '..', expected the range's upper bound (an integer)",
			                       tnorm__tnh_tok_desc(t, b, sizeof(b)));
		if (t->ival < lo.ival)
			return tnorm__tnh_perr(ps, t, "range %lld..%lld is empty, expected the lower bound first",
			                       (long long)lo.ival, (long long)t->ival);
		vs->is_range = 1;
		vs->lo = lo.ival;
		vs->hi = t->ival;
		tnorm__tnh_consume(ps);
		/* Choices are 32-bit (tnorm_action): a larger set would unrank, parse and generate
		 * wrongly, so it is refused here rather than truncated later. */
		if ((uint64_t)vs->hi - (uint64_t)vs->lo >= TNORM_MAX_VALUES)
			return tnorm__tnh_perr(ps, &lo, "range %lld..%lld has %s values, expected at most %u values "
			                       "in one set", (long long)vs->lo, (long long)vs->hi,
			                       range_count_text(vs->lo, vs->hi, b, sizeof(b)), TNORM_MAX_VALUES);
		return 0;
	}
	if (t->kind == T_STRING || tnorm__tnh_is_kw(t, "null")) {
		if ((err = add_literal(ps, vs, t)) < 0)
			return err;
		tnorm__tnh_consume(ps);
		return 0;
	}
	if (t->kind == T_LBRACE)
		return parse_list(ps, vs);
	if (tnorm__tnh_is_kw(t, "strings") || tnorm__tnh_is_kw(t, "bytes"))
		return parse_domain(ps, vs);
	return tnorm__tnh_perr(ps, t, "found %s %s, expected a value (an integer, a string, null, LO..HI, {...}, "
	                       "strings(...) or bytes(...))",
	                       tnorm__tnh_tok_desc(t, b, sizeof(b)), context);
}

/* SPDX-License-Identifier: MIT */
/*
 * harness.c - parse a harness (*.tnh) into pools and action templates.
 *
 * The language is line oriented: each non-blank line declares a pool, an action template or a
 * check (docs/harness.md has the grammar).  The parser is a small hand-written lexer plus one
 * recursive-descent function per line kind; it stops at the first error and reports it as
 * "NAME:LINE:COL: what was found, expected what", because a person reads these messages (often
 * as a Python exception inside gdb).  After parsing, each template's slot counts are multiplied
 * out with overflow checks so that rank/unrank (order.c) can work arithmetically, and a harness
 * in which two actions would print as the same step is refused, so that text -> test -> text is
 * the identity for every harness that loads.  Every limit (docs/harness.md) is enforced here, at
 * load, so that the test parser, rank/unrank and the generator never meet a harness they cannot
 * serve.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define MAX_POOL_INSTANCES 1000

typedef enum {
	T_EOF, T_NL, T_IDENT, T_INT, T_STRING, T_LT, T_GT, T_ASSIGN, T_DOTDOT, T_LBRACE, T_RBRACE,
	T_LPAREN, T_RPAREN, T_COMMA, T_BAD
} tok_kind;

typedef struct {
	tok_kind kind;
	const char *start;
	size_t len;
	uint32_t line, col;
	int64_t ival;
	char *sval; /* decoded string (owned by the parser until moved into the harness) */
	size_t slen;
} token;

typedef struct {
	tnorm_harness *h;
	const char *name;
	const char *p, *end;
	uint32_t line;
	const char *line_start;
	token tok;
	int have;
} parser;

static int perr(parser *ps, const token *t, const char *fmt, ...) TNORM__PRINTF(3, 4);

static int perr(parser *ps, const token *t, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tnorm__error_set(TNORM_EPARSE, "%s:%u:%u: %s", ps->name, t->line, t->col, msg);
}

static const char *tok_desc(const token *t, char *buf, size_t size)
{
	switch (t->kind) {
	case T_EOF: return "end of file";
	case T_NL: return "end of line";
	case T_STRING: return "a string";
	default:
		snprintf(buf, size, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->start);
		return buf;
	}
}

static void tok_dispose(token *t)
{
	free(t->sval);
	t->sval = NULL;
}

static int lex(parser *ps, token *t)
{
	const char *p = ps->p;
	memset(t, 0, sizeof(*t));
	while (p < ps->end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	if (p < ps->end && *p == '#')
		while (p < ps->end && *p != '\n')
			p++;
	t->start = p;
	t->line = ps->line;
	t->col = (uint32_t)(p - ps->line_start) + 1;
	if (p >= ps->end) {
		t->kind = T_EOF;
		ps->p = p;
		return 0;
	}
	if (*p == '\n') {
		t->kind = T_NL;
		t->len = 1;
		ps->p = p + 1;
		ps->line++;
		ps->line_start = ps->p;
		return 0;
	}
	if (isalpha((unsigned char)*p) || *p == '_') {
		const char *s = p;
		while (p < ps->end && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
		t->kind = T_IDENT;
		t->len = (size_t)(p - s);
		ps->p = p;
		return 0;
	}
	if (isdigit((unsigned char)*p) || (*p == '-' && p + 1 < ps->end && isdigit((unsigned char)p[1]))) {
		const char *s = p;
		char tmp[32];
		char *e;
		if (*p == '-')
			p++;
		while (p < ps->end && isdigit((unsigned char)*p))
			p++;
		t->len = (size_t)(p - s);
		ps->p = p;
		/* One message however long the number: a 20-digit and a 40-digit one read alike. */
		errno = 0;
		if (t->len < sizeof(tmp)) {
			memcpy(tmp, s, t->len);
			tmp[t->len] = '\0';
			t->ival = strtoll(tmp, &e, 10);
		}
		if (t->len >= sizeof(tmp) || errno == ERANGE)
			return perr(ps, t, "integer '%.*s%s' is out of range, expected %s..%s",
			            (int)(t->len > 40 ? 40 : t->len), s, t->len > 40 ? "..." : "",
			            TNORM__INT64_MIN_TEXT, TNORM__INT64_MAX_TEXT);
		t->kind = T_INT;
		return 0;
	}
	if (*p == '"') {
		const char *after = NULL, *bad = NULL;
		int r = tnorm__lex_string(p, ps->end, &t->sval, &t->slen, &after, &bad);
		if (r < 0)
			return r;
		if (r == 1) {
			token bt = *t;
			bt.col = (uint32_t)(bad - ps->line_start) + 1;
			return perr(ps, &bt, "bad escape in string, expected one of \\n \\t \\r \\0 \\\\ \\\" \\xHH");
		}
		if (r == 2)
			return perr(ps, t, "unterminated string, expected a closing '\"' on the same line");
		t->kind = T_STRING;
		t->len = (size_t)(after - p);
		ps->p = after;
		return 0;
	}
	t->len = 1;
	ps->p = p + 1;
	switch (*p) {
	case '<': t->kind = T_LT; return 0;
	case '>': t->kind = T_GT; return 0;
	case '{': t->kind = T_LBRACE; return 0;
	case '}': t->kind = T_RBRACE; return 0;
	case '(': t->kind = T_LPAREN; return 0;
	case ')': t->kind = T_RPAREN; return 0;
	case ',': t->kind = T_COMMA; return 0;
	case ':':
		if (p + 1 < ps->end && p[1] == '=') {
			t->kind = T_ASSIGN;
			t->len = 2;
			ps->p = p + 2;
			return 0;
		}
		break;
	case '.':
		if (p + 1 < ps->end && p[1] == '.') {
			t->kind = T_DOTDOT;
			t->len = 2;
			ps->p = p + 2;
			return 0;
		}
		break;
	default:
		break;
	}
	t->kind = T_BAD;
	{
		/* The character as the user wrote it: a whole UTF-8 character, else \xHH. */
		char shown[8];
		size_t u = tnorm__utf8_len(p, (size_t)(ps->end - p));
		if (u > 1)
			snprintf(shown, sizeof(shown), "%.*s", (int)u, p);
		else if (u == 1 && isprint((unsigned char)*p))
			snprintf(shown, sizeof(shown), "%c", *p);
		else
			snprintf(shown, sizeof(shown), "\\x%02x", (unsigned char)*p);
		return perr(ps, t, "unexpected character '%s', expected a name, a number, a string or "
		            "one of < > := .. { } ( ) ,", shown);
	}
}

/* Peek/next over a one-token lookahead. */
static int peek(parser *ps, token **out)
{
	int err;
	if (!ps->have) {
		if ((err = lex(ps, &ps->tok)) < 0)
			return err;
		ps->have = 1;
	}
	*out = &ps->tok;
	return 0;
}

static void consume(parser *ps)
{
	ps->have = 0;
	tok_dispose(&ps->tok);
}

static int is_kw(const token *t, const char *kw)
{
	return t->kind == T_IDENT && t->len == strlen(kw) && !memcmp(t->start, kw, t->len);
}

/* Words that start a value rather than a call: `null`, and the domains `strings(...)` and
 * `bytes(...)`. */
static int is_value_kw(const token *t)
{
	return is_kw(t, "null") || is_kw(t, "strings") || is_kw(t, "bytes");
}

static int expect(parser *ps, tok_kind k, const char *what, const char *context)
{
	token *t;
	char b[64];
	int err;
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (t->kind != k)
		return perr(ps, t, "%s %s, expected %s", context, tok_desc(t, b, sizeof(b)), what);
	consume(ps);
	return 0;
}

static int find_pool(const tnorm_harness *h, const char *s, size_t len, uint32_t *out)
{
	uint32_t i;
	for (i = 0; i < h->npools; i++)
		if (strlen(h->pools[i].name) == len && !memcmp(h->pools[i].name, s, len)) {
			*out = i;
			return 0;
		}
	return TNORM_ENOTFOUND;
}

static int keep_string(tnorm_harness *h, char *s)
{
	char **n = tnorm__reallocarray(h->strings, h->nstrings + 1, sizeof(*n));
	if (!n)
		return TNORM_ENOMEM;
	h->strings = n;
	h->strings[h->nstrings++] = s;
	return 0;
}

/* <POOL> */
static int parse_pool_ref(parser *ps, uint32_t *pool, token *where)
{
	token *t;
	char b[64];
	int err;
	if ((err = peek(ps, &t)) < 0)
		return err;
	*where = *t;
	where->sval = NULL;
	consume(ps); /* the '<' */
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (t->kind != T_IDENT)
		return perr(ps, t, "found %s after '<', expected a pool name", tok_desc(t, b, sizeof(b)));
	if (find_pool(ps->h, t->start, t->len, pool) < 0)
		return perr(ps, t, "unknown pool '%.*s', expected a pool declared earlier with 'pool'",
		            (int)t->len, t->start);
	consume(ps);
	return expect(ps, T_GT, "'>' after the pool name", "found");
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
		return perr(ps, t, "value list has more than %u values, expected at most %u values in "
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
static const char *lit_text(const tnorm_literal *l, char *buf, size_t size)
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
static int check_list_duplicates(parser *ps, const tnorm__vset *vs, const uint32_t *cols,
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
			err = perr(
			    ps, &at,
			    "value %s is listed twice in one set (columns %u and %u), expected "
			    "each value once",
			    lit_text(&v[i].lit, b, sizeof(b)), v[i - 1].col, v[i].col);
			break;
		}
	free(v);
	return err;
}

/* {LIT, ...} with the cursor on '{'.  A list may mix integers, strings and null. */
static int parse_list(parser *ps, tnorm__vset *vs)
{
	uint32_t *cols = NULL, *nc;
	token *t, open;
	char b[64];
	int err;
	if ((err = peek(ps, &t)) < 0)
		return err;
	open = *t;
	open.sval = NULL;
	consume(ps);
	for (;;) {
		if ((err = peek(ps, &t)) < 0)
			goto done;
		if (t->kind != T_INT && t->kind != T_STRING && !is_kw(t, "null")) {
			err = perr(ps, t,
			           "found %s in a value list, expected an integer, a string or null",
			           tok_desc(t, b, sizeof(b)));
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
		consume(ps);
		if ((err = peek(ps, &t)) < 0)
			goto done;
		if (t->kind == T_RBRACE) {
			consume(ps);
			err = check_list_duplicates(ps, vs, cols, &open);
			goto done;
		}
		if (t->kind != T_COMMA) {
			err = perr(ps, t, "found %s in a value list, expected ',' or '}'",
			           tok_desc(t, b, sizeof(b)));
			goto done;
		}
		consume(ps);
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
		return perr(ps, t, "found %s in the alphabet, expected a string of letters or a range "
		            "of one-byte strings such as \"a\"..\"z\"", tok_desc(t, b, sizeof(b)));
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
		return perr(ps, at, "letter %s is in the alphabet twice, expected each letter once",
		            lit_text(&l, b, sizeof(b)));
	}
	g->pos[c] = (int16_t)g->nalpha;
	g->alpha[g->nalpha++] = c;
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
	if ((err = peek(ps, &t)) < 0)
		return err;
	kw = *t;
	kw.sval = NULL;
	is_bytes = is_kw(t, "bytes");
	consume(ps);
	if (!(vs->gen = g = tnorm__calloc(1, sizeof(*g))))
		return TNORM_ENOMEM;
	memset(g->pos, 0xff, sizeof(g->pos));
	if ((err = expect(ps, T_LPAREN, is_bytes ? "'(' after 'bytes'" : "'(' after 'strings'",
	                  "found")) < 0)
		return err;
	if (is_bytes) {
		for (i = 0; i < 256; i++)
			alpha_add(ps, g, &kw, (unsigned char)i);
	} else {
		for (;;) {
			unsigned char first = 0, last = 0;
			if ((err = peek(ps, &t)) < 0)
				return err;
			at = *t;
			at.sval = NULL;
			if (t->kind != T_STRING)
				return alpha_byte(ps, t, &first);
			if (t->slen == 1) {
				first = (unsigned char)t->sval[0];
				consume(ps);
				if ((err = peek(ps, &t)) < 0)
					return err;
				if (t->kind == T_DOTDOT) {
					consume(ps);
					if ((err = peek(ps, &t)) < 0 || (err = alpha_byte(ps, t, &last)) < 0)
						return err;
					if (last < first)
						return perr(ps, t, "letter range is empty, expected the lower "
						            "letter first");
					consume(ps);
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
				consume(ps);
			}
			if ((err = peek(ps, &t)) < 0)
				return err;
			if (t->kind != T_STRING)
				break; /* several pieces may follow each other: "a".."z" "_" */
		}
		if (g->nalpha == 0)
			return perr(ps, &at, "the alphabet is empty, expected at least one letter");
		if ((err = expect(ps, T_COMMA, "',' and the lengths LO..HI after the alphabet",
		                  "found")) < 0)
			return err;
	}
	if ((err = peek(ps, &t)) < 0)
		return err;
	at = *t;
	at.sval = NULL;
	if (t->kind != T_INT)
		return perr(ps, t, "found %s, expected the lengths LO..HI", tok_desc(t, b, sizeof(b)));
	lo = t->ival;
	consume(ps);
	if ((err = expect(ps, T_DOTDOT, "'..' between the lengths", "found")) < 0 ||
	    (err = peek(ps, &t)) < 0)
		return err;
	if (t->kind != T_INT)
		return perr(ps, t, "found %s after '..', expected the longest length",
		            tok_desc(t, b, sizeof(b)));
	hi = t->ival;
	if (lo < 0 || hi < lo || hi > TNORM_MAX_GEN_LEN)
		return perr(ps, &at, "lengths %lld..%lld are out of range, expected 0 <= LO <= HI <= %d",
		            (long long)lo, (long long)hi, TNORM_MAX_GEN_LEN);
	consume(ps);
	if ((err = expect(ps, T_RPAREN, "')' after the lengths", "found")) < 0)
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
		return perr(ps, &kw, "%s has more than %u values (at length %u), expected at most %u "
		            "values in one set: fewer letters or shorter strings", is_bytes ? "bytes(...)"
		            : "strings(...)", TNORM_MAX_VALUES, len, TNORM_MAX_VALUES);
	g->count = count;
	return 0;
}

/* LO..HI | {LIT, ...} | LIT | strings(...) | bytes(...) */
static int parse_vset(parser *ps, tnorm__vset *vs, const char *context)
{
	token *t;
	char b[64];
	int err;
	memset(vs, 0, sizeof(*vs));
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (t->kind == T_INT) {
		token lo = *t;
		lo.sval = NULL;
		consume(ps);
		if ((err = peek(ps, &t)) < 0)
			return err;
		if (t->kind != T_DOTDOT) {
			/* a single integer literal */
			return add_literal(ps, vs, &lo);
		}
		consume(ps);
		if ((err = peek(ps, &t)) < 0)
			return err;
		if (t->kind != T_INT)
			return perr(ps, t, "found %s after '..', expected the range's upper bound (an integer)",
			            tok_desc(t, b, sizeof(b)));
		if (t->ival < lo.ival)
			return perr(ps, t, "range %lld..%lld is empty, expected the lower bound first",
			            (long long)lo.ival, (long long)t->ival);
		vs->is_range = 1;
		vs->lo = lo.ival;
		vs->hi = t->ival;
		consume(ps);
		/* Choices are 32-bit (tnorm_action): a larger set would unrank, parse and generate
		 * wrongly, so it is refused here rather than truncated later. */
		if ((uint64_t)vs->hi - (uint64_t)vs->lo >= TNORM_MAX_VALUES)
			return perr(ps, &lo, "range %lld..%lld has %s values, expected at most %u values "
			            "in one set", (long long)vs->lo, (long long)vs->hi,
			            range_count_text(vs->lo, vs->hi, b, sizeof(b)), TNORM_MAX_VALUES);
		return 0;
	}
	if (t->kind == T_STRING || is_kw(t, "null")) {
		if ((err = add_literal(ps, vs, t)) < 0)
			return err;
		consume(ps);
		return 0;
	}
	if (t->kind == T_LBRACE)
		return parse_list(ps, vs);
	if (is_kw(t, "strings") || is_kw(t, "bytes"))
		return parse_domain(ps, vs);
	return perr(ps, t, "found %s %s, expected a value (an integer, a string, null, LO..HI, {...}, "
	            "strings(...) or bytes(...))",
	            tok_desc(t, b, sizeof(b)), context);
}

static int new_template(parser *ps, tnorm__tmpl **out, uint32_t line)
{
	tnorm_harness *h = ps->h;
	tnorm__tmpl *n = tnorm__reallocarray(h->tmpls, (size_t)h->ntmpls + h->nchecks + 1, sizeof(*n));
	if (!n)
		return TNORM_ENOMEM;
	h->tmpls = n;
	*out = &h->tmpls[h->ntmpls + h->nchecks];
	memset(*out, 0, sizeof(**out));
	(*out)->info.line = line;
	return 0;
}

static int add_slot(parser *ps, tnorm__tmpl *t, const token *where, tnorm_slot_kind kind,
                    uint32_t pool, const tnorm__vset *vs)
{
	uint32_t s = t->info.nslots;
	if (s >= TNORM_MAX_SLOTS)
		return perr(ps, where, "too many slots in one template, expected at most %d "
		            "(left-hand side included)", TNORM_MAX_SLOTS);
	t->info.slot[s].kind = kind;
	if (kind == TNORM_SLOT_POOL) {
		t->info.slot[s].pool = pool;
		t->info.slot[s].count = ps->h->pools[pool].info.instances;
	} else {
		t->vset[s] = *vs;
		t->info.slot[s].count = (uint32_t)(vs->is_range ? 0 : vs->nlits); /* set below */
	}
	t->info.nslots++;
	return 0;
}

/* After a call's NAME (`name`): its '(', and its ')' at once when the list is empty (*empty). */
static int open_args(parser *ps, const token *name, int *empty)
{
	token *tk;
	char b[64];
	int err;
	*empty = 0;
	if ((err = peek(ps, &tk)) < 0)
		return err;
	if (tk->kind != T_LPAREN)
		return perr(ps, tk, "found %s after '%.*s', expected '(' to start the argument list",
		            tok_desc(tk, b, sizeof(b)), (int)name->len, name->start);
	consume(ps);
	if ((err = peek(ps, &tk)) < 0)
		return err;
	if (tk->kind == T_RPAREN) {
		consume(ps);
		*empty = 1;
	}
	return 0;
}

/* After an argument: ')' ends the list (*done), ',' goes on; `list` names the list. */
static int after_arg(parser *ps, const char *list, int *done)
{
	token *tk;
	char b[64];
	int err;
	if ((err = peek(ps, &tk)) < 0)
		return err;
	*done = tk->kind == T_RPAREN;
	if (tk->kind != T_RPAREN && tk->kind != T_COMMA)
		return perr(ps, tk, "found %s in %s, expected ',' or ')'", tok_desc(tk, b, sizeof(b)),
		            list);
	consume(ps);
	return 0;
}

/*
 * `move <POOL>`, an argument whose value the call takes (issue 16), with the cursor on 'move':
 * after the step the instance holds no value until a step assigns it again.  Not in a check or
 * a pure call (they change nothing), nor of a const pool (calls never change those).
 */
static int parse_move(parser *ps, tnorm__tmpl *t, int is_check)
{
	token *tk, kw, where;
	char b[64];
	uint32_t pool;
	int err;
	if ((err = peek(ps, &tk)) < 0)
		return err;
	kw = *tk;
	kw.sval = NULL;
	if (is_check)
		return perr(ps, &kw, "a check cannot take a value with 'move', expected <pool>");
	if (t->info.is_pure)
		return perr(ps, &kw, "a pure call changes none of its arguments, so it cannot take one "
		            "with 'move'; expected <pool>, or no 'pure'");
	consume(ps);
	if ((err = peek(ps, &tk)) < 0)
		return err;
	if (tk->kind != T_LT)
		return perr(ps, tk, "found %s after 'move', expected <pool>", tok_desc(tk, b, sizeof(b)));
	if ((err = parse_pool_ref(ps, &pool, &where)) < 0)
		return err;
	if (ps->h->pools[pool].info.is_const)
		return perr(ps, &where, "pool '%s' is const, so no call can take its value; expected "
		            "'move' on a pool that is not const", ps->h->pools[pool].name);
	if ((err = add_slot(ps, t, &where, TNORM_SLOT_POOL, pool, NULL)) < 0)
		return err;
	t->info.slot[t->info.nslots - 1].moves = 1;
	return 0;
}

/* NAME(ARGS) with the cursor on NAME. */
static int parse_call(parser *ps, tnorm__tmpl *t, int is_check)
{
	token *tk, name;
	char b[64];
	int err, empty;
	if ((err = peek(ps, &tk)) < 0)
		return err;
	if (tk->kind != T_IDENT)
		return perr(ps, tk, "found %s, expected a function name", tok_desc(tk, b, sizeof(b)));
	name = *tk;
	name.sval = NULL;
	if (!(t->name = tnorm__strndup(name.start, name.len)))
		return TNORM_ENOMEM;
	t->info.name = t->name;
	t->info.kind = TNORM_TMPL_CALL;
	consume(ps);
	if ((err = open_args(ps, &name, &empty)) < 0 || empty)
		return err;
	for (;;) {
		token where;
		if ((err = peek(ps, &tk)) < 0)
			return err;
		where = *tk;
		where.sval = NULL;
		if (is_kw(tk, "move")) {
			if ((err = parse_move(ps, t, is_check)) < 0)
				return err;
		} else if (tk->kind == T_LT) {
			uint32_t pool;
			if ((err = parse_pool_ref(ps, &pool, &where)) < 0)
				return err;
			if ((err = add_slot(ps, t, &where, TNORM_SLOT_POOL, pool, NULL)) < 0)
				return err;
		} else {
			tnorm__vset vs;
			if ((err = parse_vset(ps, &vs, "as an argument")) < 0) {
				free(vs.lits);
				free(vs.gen);
				if (err == TNORM_EPARSE && where.kind != T_INT && where.kind != T_STRING &&
				    where.kind != T_LBRACE && !is_value_kw(&where))
					return perr(ps, &where, "found %s in the argument list, expected "
					            "<pool> or a value", tok_desc(&where, b, sizeof(b)));
				return err;
			}
			if ((err = add_slot(ps, t, &where, TNORM_SLOT_VALUE, 0, &vs)) < 0) {
				free(vs.lits);
				free(vs.gen);
				return err;
			}
		}
		if ((err = after_arg(ps, "the argument list", &empty)) < 0 || empty)
			return err;
	}
}

static int end_of_line(parser *ps, const char *what)
{
	token *t;
	char b[64];
	int err;
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (t->kind == T_NL) {
		consume(ps);
		return 0;
	}
	if (t->kind == T_EOF)
		return 0;
	return perr(ps, t, "found %s after %s, expected the end of the line", tok_desc(t, b, sizeof(b)),
	            what);
}

/*
 * `requires NAME(ARG, ...)` after a call template, the cursor on 'requires' (issue 16): each ARG
 * is <POOL>, naming the one argument of the template that holds that pool, or `_` (any).  Which
 * templates NAME stands for is settled once the whole file is read (resolve_guards).
 */
static int parse_guard(parser *ps, tnorm__tmpl *tm)
{
	token *tk, name;
	char b[64];
	int err, empty;
	consume(ps); /* 'requires' */
	if ((err = peek(ps, &tk)) < 0)
		return err;
	if (tk->kind != T_IDENT || is_value_kw(tk))
		return perr(ps, tk, "found %s after 'requires', expected the call that must come "
		            "before, such as 'put(<pool>, _)'", tok_desc(tk, b, sizeof(b)));
	name = *tk;
	name.sval = NULL;
	if (!(tm->guard_name = tnorm__strndup(name.start, name.len)))
		return TNORM_ENOMEM;
	tm->guard_line = name.line;
	tm->guard_col = name.col;
	consume(ps);
	if ((err = open_args(ps, &name, &empty)) < 0 || empty)
		return err;
	for (;;) {
		token where;
		if ((err = peek(ps, &tk)) < 0)
			return err;
		if (tm->guard_nargs == TNORM_MAX_SLOTS)
			return perr(ps, tk, "too many arguments in the guard, expected at most %d",
			            TNORM_MAX_SLOTS);
		if (tk->kind == T_LT) {
			uint32_t pool, s, found = UINT32_MAX;
			const char *pname;
			if ((err = parse_pool_ref(ps, &pool, &where)) < 0)
				return err;
			pname = ps->h->pools[pool].name;
			for (s = tm->info.has_lhs ? 1 : 0; s < tm->info.nslots; s++) {
				if (tm->info.slot[s].kind != TNORM_SLOT_POOL || tm->info.slot[s].pool != pool)
					continue;
				if (found != UINT32_MAX)
					return perr(ps, &where, "pool '%s' is in two arguments of this template, so "
					            "<%s> in the guard could mean either; expected a pool that is "
					            "one argument, or _", pname, pname);
				found = s;
			}
			if (found == UINT32_MAX)
				return perr(ps, &where, "pool '%s' is not an argument of this template, expected "
				            "one of its <pool> arguments, or _", pname);
			tm->guard_slot[tm->guard_nargs++] = (int32_t)found;
		} else if (is_kw(tk, "_")) {
			consume(ps);
			tm->guard_slot[tm->guard_nargs++] = -1;
		} else {
			return perr(ps, tk, "found %s in the guard's argument list, expected <pool> or _",
			            tok_desc(tk, b, sizeof(b)));
		}
		if ((err = after_arg(ps, "the guard's argument list", &empty)) < 0 || empty)
			return err;
	}
}

static int parse_pool_decl(parser *ps, const token *kw)
{
	tnorm_harness *h = ps->h;
	token *t, name;
	char b[64];
	uint32_t dummy;
	tnorm__pool *np, *p;
	int err;

	if ((err = peek(ps, &t)) < 0)
		return err;
	if (t->kind != T_IDENT)
		return perr(ps, t, "found %s after 'pool', expected a pool name", tok_desc(t, b, sizeof(b)));
	name = *t;
	name.sval = NULL;
	if (isdigit((unsigned char)name.start[name.len - 1]))
		return perr(ps, &name, "pool name '%.*s' ends in a digit, expected a name whose instances "
		            "(NAME0, NAME1, ...) cannot be confused", (int)name.len, name.start);
	if (is_kw(&name, "pool") || is_kw(&name, "pure") || is_kw(&name, "check") || is_kw(&name, "const"))
		return perr(ps, &name, "'%.*s' is a keyword, expected a pool name", (int)name.len, name.start);
	if (find_pool(h, name.start, name.len, &dummy) == 0)
		return perr(ps, &name, "pool '%.*s' is already declared (line %u), expected a new name",
		            (int)name.len, name.start, h->pools[dummy].info.line);
	consume(ps);
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (t->kind != T_INT)
		return perr(ps, t, "found %s after the pool name, expected the number of instances",
		            tok_desc(t, b, sizeof(b)));
	if (t->ival < 1 || t->ival > MAX_POOL_INSTANCES)
		return perr(ps, t, "pool size %lld is out of range, expected 1 to %d instances",
		            (long long)t->ival, MAX_POOL_INSTANCES);
	if (!(np = tnorm__reallocarray(h->pools, h->npools + 1, sizeof(*np))))
		return TNORM_ENOMEM;
	h->pools = np;
	p = &h->pools[h->npools];
	memset(p, 0, sizeof(*p));
	if (!(p->name = tnorm__strndup(name.start, name.len)))
		return TNORM_ENOMEM;
	p->info.name = p->name;
	p->info.instances = (uint32_t)t->ival;
	p->info.line = kw->line;
	h->npools++;
	consume(ps);
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (is_kw(t, "const")) {
		p->info.is_const = 1;
		consume(ps);
	} else if (t->kind == T_IDENT) {
		return perr(ps, t, "found %s after the pool size, expected 'const' or the end of the line",
		            tok_desc(t, b, sizeof(b)));
	}
	return end_of_line(ps, "the pool declaration");
}

/* After `<pool>`: `:=`, then a call (`pure` may come here too) or a value set, into tm. */
static int parse_assignment(parser *ps, tnorm__tmpl *tm, const token *first, int is_check,
                            int *is_pure)
{
	token *t, vw;
	tnorm__vset vs;
	char b[64];
	uint32_t pool;
	int err;
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (is_check)
		return perr(ps, t, "a check cannot assign a pool, expected 'check NAME(<pool>, ...)'");
	if ((err = parse_pool_ref(ps, &pool, &vw)) < 0 ||
	    (err = add_slot(ps, tm, &vw, TNORM_SLOT_POOL, pool, NULL)) < 0)
		return err;
	tm->info.has_lhs = 1;
	if ((err = expect(ps, T_ASSIGN, "':=' after the left-hand side", "found")) < 0 ||
	    (err = peek(ps, &t)) < 0)
		return err;
	/* The grammar's second place for 'pure': '<pool> := pure call'. */
	if (is_kw(t, "pure")) {
		if (*is_pure)
			return perr(ps, t, "'pure' is given twice, expected it once, before the line or "
			            "after ':='");
		*is_pure = 1;
		tm->info.is_pure = 1;
		consume(ps);
		if ((err = peek(ps, &t)) < 0)
			return err;
		if (t->kind != T_IDENT)
			return perr(ps, t, "found %s after 'pure', expected a call", tok_desc(t, b, sizeof(b)));
	}
	if (t->kind == T_IDENT && !is_value_kw(t))
		return parse_call(ps, tm, is_check);
	vw = *t;
	vw.sval = NULL;
	if (*is_pure)
		return perr(ps, first, "'pure' applies to calls, expected a call after ':='");
	if ((err = parse_vset(ps, &vs, "after ':='")) < 0)
		goto fail;
	tm->info.kind = TNORM_TMPL_VALUE;
	if (!(tm->name = tnorm__strdup(""))) {
		err = TNORM_ENOMEM;
		goto fail;
	}
	tm->info.name = tm->name;
	if ((err = add_slot(ps, tm, &vw, TNORM_SLOT_VALUE, 0, &vs)) < 0)
		goto fail;
	return 0;
fail:
	free(vs.lits);
	free(vs.gen);
	return err;
}

/* The end of a template or check line: a check needs a <pool> argument; a call template may have
 * a guard (`requires ...`); then the line must end. */
static int finish_line(parser *ps, tnorm__tmpl *tm, const token *first, int is_check)
{
	token *t;
	uint32_t s, npool = 0;
	int err;
	if (is_check) {
		for (s = 0; s < tm->info.nslots; s++)
			npool += tm->info.slot[s].kind == TNORM_SLOT_POOL;
		if (!npool)
			return perr(ps, first, "check '%s' has no <pool> argument, expected at least one",
			            tm->name);
	}
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (!is_kw(t, "requires"))
		return end_of_line(ps, is_check ? "the check" : "the template");
	if (is_check)
		return perr(ps, t, "a check cannot have a guard, expected 'requires' after a call "
		            "template");
	if (tm->info.kind == TNORM_TMPL_VALUE)
		return perr(ps, t, "a value template cannot have a guard, expected 'requires' "
		            "after a call template");
	if ((err = parse_guard(ps, tm)) < 0)
		return err;
	ps->h->nguards++;
	return end_of_line(ps, "the guard");
}

/* `pure` or `check` at the start of a line (not both): *is_pure, *is_check. */
static int parse_line_kind(parser *ps, int *is_pure, int *is_check)
{
	token *t;
	int err;
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (is_kw(t, "pure")) {
		*is_pure = 1;
		consume(ps);
		if ((err = peek(ps, &t)) < 0)
			return err;
		if (is_kw(t, "check"))
			return perr(ps, t, "'pure check' is redundant, expected either 'pure' or 'check'");
	} else if (is_kw(t, "check")) {
		*is_check = 1;
		consume(ps);
		if ((err = peek(ps, &t)) < 0)
			return err;
		if (is_kw(t, "pure"))
			return perr(ps, t, "'check pure' is redundant, expected either 'pure' or 'check'");
	}
	return 0;
}

static int parse_line(parser *ps)
{
	tnorm_harness *h = ps->h;
	token *t, first;
	char b[64];
	tnorm__tmpl *tm = NULL;
	int err, is_pure = 0, is_check = 0;

	if ((err = peek(ps, &t)) < 0)
		return err;
	if (t->kind == T_NL) {
		consume(ps);
		return 0;
	}
	first = *t;
	first.sval = NULL;
	if (is_kw(t, "pool")) {
		consume(ps);
		if (h->ntmpls + h->nchecks > 0)
			return perr(ps, &first, "pool declared after a template, expected all 'pool' lines first");
		return parse_pool_decl(ps, &first);
	}
	if ((err = parse_line_kind(ps, &is_pure, &is_check)) < 0 ||
	    (err = new_template(ps, &tm, first.line)) < 0)
		return err;
	if (is_check)
		h->nchecks++;
	else
		h->ntmpls++;
	tm->info.is_pure = is_pure;
	if ((err = peek(ps, &t)) < 0)
		return err;
	if (t->kind == T_LT) {
		if ((err = parse_assignment(ps, tm, &first, is_check, &is_pure)) < 0)
			return err;
	} else if (t->kind == T_IDENT) {
		if ((err = parse_call(ps, tm, is_check)) < 0)
			return err;
		if (is_check && tm->info.nslots == 0)
			return perr(ps, &first, "check '%s' has no arguments, expected at least one <pool> to check",
			            tm->name);
	} else {
		return perr(ps, t, "found %s at the start of a line, expected 'pool', 'pure', 'check', "
		            "'<pool> :=' or a call", tok_desc(t, b, sizeof(b)));
	}
	return finish_line(ps, tm, &first, is_check);
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
			err = perr(ps, &at, "'%s' matches no template, expected a call template of '%s' with "
			           "%u argument%s, holding the guard's pools where it names them",
			           text.ptr + 9, t->guard_name, t->guard_nargs, t->guard_nargs == 1 ? "" : "s");
		else
			err = perr(ps, &at, "'%s' matches only this template, so no step of it could ever "
			           "run; expected a guard that another template meets", text.ptr + 9);
		tnorm__buf_dispose(&text);
		return err;
	}
	return 0;
}

static int finish(parser *ps)
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
		return perr(ps, &t, "the harness declares no action templates, expected at least one "
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
		if ((err = peek(&ps, &t)) < 0)
			goto done;
		if (t->kind == T_EOF)
			break;
		if ((err = parse_line(&ps)) < 0)
			goto done;
		/* Mark checks so finish() can partition them after the action templates. */
		if (h->ntmpls + h->nchecks > before)
			h->tmpls[before].info.first = h->nchecks > nch ? UINT64_MAX : 0;
	}
	err = finish(&ps);
done:
	if (ps.have)
		tok_dispose(&ps.tok);
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
	if (find_pool(h, name, strlen(name), out) < 0)
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

/* SPDX-License-Identifier: MIT */
/*
 * harness_lex.c - the harness parser's tokens (harness_internal.h lists its rooms).
 *
 * The lexer is hand-written: names, integers (out of range is an error here, however long the
 * number), strings (escapes decoded by lex.c), and the punctuation < > := .. { } ( ) ,; a # starts
 * a comment to the end of the line, and the end of a line is a token, since the language is line
 * oriented.  Every room reports errors through tnorm__tnh_perr, as "NAME:LINE:COL: what was
 * found, expected what", because a person reads these messages (often as a Python exception
 * inside gdb).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

int tnorm__tnh_perr(parser *ps, const token *t, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tnorm__error_set(TNORM_EPARSE, "%s:%u:%u: %s", ps->name, t->line, t->col, msg);
}

const char *tnorm__tnh_tok_desc(const token *t, char *buf, size_t size)
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

void tnorm__tnh_tok_dispose(token *t)
{
	free(t->sval);
	t->sval = NULL;
}

/* An integer at p (a digit, or '-' and a digit): T_INT, or out of range an error. */
static int lex_int(parser *ps, token *t, const char *p)
{
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
		return tnorm__tnh_perr(ps, t, "integer '%.*s%s' is out of range, expected %s..%s",
		                       (int)(t->len > 40 ? 40 : t->len), s,
		                       t->len > 40 ? "..." : "", TNORM__INT64_MIN_TEXT,
		                       TNORM__INT64_MAX_TEXT);
	t->kind = T_INT;
	return 0;
}

/* A string at p (its '"'), its escapes decoded into t->sval. */
static int lex_string(parser *ps, token *t, const char *p)
{
	const char *after = NULL, *bad = NULL;
	int r = tnorm__lex_string(p, ps->end, &t->sval, &t->slen, &after, &bad);
	if (r < 0)
		return r;
	if (r == 1) {
		token bt = *t;
		bt.col = (uint32_t)(bad - ps->line_start) + 1;
		return tnorm__tnh_perr(ps, &bt, "bad escape in string, expected one of \\n \\t \\r \\0 \\\\ \\\" \\xHH");
	}
	if (r == 2)
		return tnorm__tnh_perr(ps, t, "unterminated string, expected a closing '\"' on the same line");
	t->kind = T_STRING;
	t->len = (size_t)(after - p);
	ps->p = after;
	return 0;
}

/* T_BAD at p, a character no token starts with: the error names it. */
static int lex_bad(parser *ps, token *t, const char *p)
{
	/* The character as the user wrote it: a whole UTF-8 character, else \xHH. */
	char shown[8];
	size_t u = tnorm__utf8_len(p, (size_t)(ps->end - p));
	t->kind = T_BAD;
	if (u > 1)
		snprintf(shown, sizeof(shown), "%.*s", (int)u, p);
	else if (u == 1 && isprint((unsigned char)*p))
		snprintf(shown, sizeof(shown), "%c", *p);
	else
		snprintf(shown, sizeof(shown), "\\x%02x", (unsigned char)*p);
	return tnorm__tnh_perr(ps, t, "unexpected character '%s', expected a name, a number, a string or "
	                       "one of < > := .. { } ( ) ,", shown);
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
	if (isdigit((unsigned char)*p) ||
	    (*p == '-' && p + 1 < ps->end && isdigit((unsigned char)p[1])))
		return lex_int(ps, t, p);
	if (*p == '"')
		return lex_string(ps, t, p);
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
	return lex_bad(ps, t, p);
}

/* Peek/next over a one-token lookahead. */
int tnorm__tnh_peek(parser *ps, token **out)
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

void tnorm__tnh_consume(parser *ps)
{
	ps->have = 0;
	tnorm__tnh_tok_dispose(&ps->tok);
}

int tnorm__tnh_is_kw(const token *t, const char *kw)
{
	return t->kind == T_IDENT && t->len == strlen(kw) && !memcmp(t->start, kw, t->len);
}

/* Words that start a value rather than a call: `null`, and the domains `strings(...)` and
 * `bytes(...)`. */
int tnorm__tnh_is_value_kw(const token *t)
{
	return tnorm__tnh_is_kw(t, "null") || tnorm__tnh_is_kw(t, "strings") ||
	       tnorm__tnh_is_kw(t, "bytes");
}

int tnorm__tnh_expect(parser *ps, tok_kind k, const char *what, const char *context)
{
	token *t;
	char b[64];
	int err;
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind != k)
		return tnorm__tnh_perr(ps, t, "%s %s, expected %s", context,
		                       tnorm__tnh_tok_desc(t, b, sizeof(b)), what);
	tnorm__tnh_consume(ps);
	return 0;
}

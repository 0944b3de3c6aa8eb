/* SPDX-License-Identifier: MIT */
/*
 * harness_internal.h (internal) - the harness parser's rooms and what they share.
 *
 * A harness (*.tnh) is read in four files, each calling only those below it:
 *
 *   harness.c         the public API (harness.h): the parse's driver, one line at a time, then
 *                     the checks; loading a file; freeing; the accessors.
 *   harness_parse.c   one line: a pool declaration, an action template or a check, with its
 *                     arguments, its left-hand side and its guard (`requires`).
 *   harness_values.c  a value set: LO..HI, {LIT, ...}, one literal, strings(...), bytes(...).
 *   harness_check.c   what is refused once read or while read: values that would print alike
 *                     (a list that names a value twice, two templates that print a step alike),
 *                     a guard no other template meets, more than 2^64-1 actions; and the slot
 *                     counts multiplied out for rank/unrank (order.c).
 *   harness_lex.c     the tokens, a one-token lookahead, and the error message every room
 *                     writes ("NAME:LINE:COL: what was found, expected what").
 *
 * harness.c calls harness_parse.c, harness_check.c and harness_lex.c; harness_parse.c calls
 * harness_values.c and harness_lex.c; harness_values.c calls harness_check.c and harness_lex.c;
 * harness_check.c calls harness_lex.c; harness_lex.c calls none of them.  The functions they
 * share are named tnorm__tnh_NAME (a driver links this code: no short global names).
 */
#ifndef TNORM__HARNESS_INTERNAL_H
#define TNORM__HARNESS_INTERNAL_H

#include "model.h"

/* A token's kind: T_NL ends a line (the language is line oriented); T_BAD is a character no
 * token starts with. */
typedef enum {
	T_EOF, T_NL, T_IDENT, T_INT, T_STRING, T_LT, T_GT, T_ASSIGN, T_DOTDOT, T_LBRACE, T_RBRACE,
	T_LPAREN, T_RPAREN, T_COMMA, T_BAD
} tok_kind;

/* A token: where it starts (line and column, for messages) and, for T_INT and T_STRING, its
 * value. */
typedef struct {
	tok_kind kind;
	const char *start;
	size_t len;
	uint32_t line, col;
	int64_t ival;
	char *sval; /* decoded string (owned by the parser until moved into the harness) */
	size_t slen;
} token;

/* The parser: the harness being built, the text being read (named `name` in messages), the
 * current line, and a one-token lookahead (tok, when `have`). */
typedef struct {
	tnorm_harness *h;
	const char *name;
	const char *p, *end;
	uint32_t line;
	const char *line_start;
	token tok;
	int have;
} parser;

/* ---- harness_lex.c ---- */

/* Set the parse error "NAME:LINE:COL: MESSAGE" at token t.  Returns TNORM_EPARSE. */
int tnorm__tnh_perr(parser *ps, const token *t, const char *fmt, ...) TNORM__PRINTF(3, 4);

/* Token t for a message: "end of line", "a string", or its text quoted (into buf). */
const char *tnorm__tnh_tok_desc(const token *t, char *buf, size_t size);

/* Free the string a token holds (its sval), if any. */
void tnorm__tnh_tok_dispose(token *t);

/* The next token, read if not yet (*out points into ps: valid until tnorm__tnh_consume).  0, or
 * the lexer's error. */
int tnorm__tnh_peek(parser *ps, token **out);

/* Drop the token tnorm__tnh_peek gave. */
void tnorm__tnh_consume(parser *ps);

/* Whether t is the word kw; whether it is a word that starts a value rather than a call
 * (`null`, `strings`, `bytes`). */
int tnorm__tnh_is_kw(const token *t, const char *kw);
int tnorm__tnh_is_value_kw(const token *t);

/* Consume a token of kind k, or fail with "CONTEXT FOUND, expected WHAT". */
int tnorm__tnh_expect(parser *ps, tok_kind k, const char *what, const char *context);

/* ---- harness_values.c ---- */

/* A value set with the cursor on its first token, into *vs (zeroed first; on error the caller
 * frees vs->lits and vs->gen).  `context` says where it stands, for messages. */
int tnorm__tnh_parse_vset(parser *ps, tnorm__vset *vs, const char *context);

/* ---- harness_parse.c ---- */

/* One line (a blank one too), with the cursor at its start.  0 or an error. */
int tnorm__tnh_parse_line(parser *ps);

/* The pool named s[0..len): 0 and *out its index, or TNORM_ENOTFOUND (no error set). */
int tnorm__tnh_find_pool(const tnorm_harness *h, const char *s, size_t len, uint32_t *out);

/* ---- harness_check.c ---- */

/* A literal for a message (strings quoted and escaped, cut at 40 bytes), into buf. */
const char *tnorm__tnh_lit_text(const tnorm_literal *l, char *buf, size_t size);

/* Refuse a list that names one value twice (cols: where each value was written; open: its
 * '{'). */
int tnorm__tnh_check_list_duplicates(parser *ps, const tnorm__vset *vs, const uint32_t *cols,
                                     const token *open);

/* Once every line is read: actions before checks, the counts multiplied out, ambiguity and
 * guards checked.  0, TNORM_EPARSE, TNORM_EOVERFLOW or TNORM_ENOMEM. */
int tnorm__tnh_finish(parser *ps);

#endif

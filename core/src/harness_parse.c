/* SPDX-License-Identifier: MIT */
/*
 * harness_parse.c - one line of a harness (harness_internal.h lists the rooms).
 *
 * The language is line oriented: each non-blank line declares a pool, an action template or a
 * check (docs/harness.md has the grammar).  One recursive-descent function per line kind and
 * per part of a line (a call's arguments, `move`, a left-hand side, a guard); the value sets are
 * harness_values.c's.  The parser stops at the first error.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

#define MAX_POOL_INSTANCES 1000

int tnorm__tnh_find_pool(const tnorm_harness *h, const char *s, size_t len, uint32_t *out)
{
	uint32_t i;
	for (i = 0; i < h->npools; i++)
		if (strlen(h->pools[i].name) == len && !memcmp(h->pools[i].name, s, len)) {
			*out = i;
			return 0;
		}
	return TNORM_ENOTFOUND;
}

/* <POOL> */
static int parse_pool_ref(parser *ps, uint32_t *pool, token *where)
{
	token *t;
	char b[64];
	int err;
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	*where = *t;
	where->sval = NULL;
	tnorm__tnh_consume(ps); /* the '<' */
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind != T_IDENT)
		return tnorm__tnh_perr(ps, t, "found %s after '<', expected a pool name", tnorm__tnh_tok_desc(t, b, sizeof(b)));
	if (tnorm__tnh_find_pool(ps->h, t->start, t->len, pool) < 0)
		return tnorm__tnh_perr(ps, t, "unknown pool '%.*s', expected a pool declared earlier with 'pool'",
		                       (int)t->len, t->start);
	tnorm__tnh_consume(ps);
	return tnorm__tnh_expect(ps, T_GT, "'>' after the pool name", "found");
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
		return tnorm__tnh_perr(ps, where,
		                       "too many slots in one template, expected at most %d "
		                       "(left-hand side included)",
		                       TNORM_MAX_SLOTS);
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
	if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
		return err;
	if (tk->kind != T_LPAREN)
		return tnorm__tnh_perr(
		    ps, tk, "found %s after '%.*s', expected '(' to start the argument list",
		    tnorm__tnh_tok_desc(tk, b, sizeof(b)), (int)name->len, name->start);
	tnorm__tnh_consume(ps);
	if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
		return err;
	if (tk->kind == T_RPAREN) {
		tnorm__tnh_consume(ps);
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
	if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
		return err;
	*done = tk->kind == T_RPAREN;
	if (tk->kind != T_RPAREN && tk->kind != T_COMMA)
		return tnorm__tnh_perr(ps, tk, "found %s in %s, expected ',' or ')'", tnorm__tnh_tok_desc(tk, b, sizeof(b)),
		                       list);
	tnorm__tnh_consume(ps);
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
	if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
		return err;
	kw = *tk;
	kw.sval = NULL;
	if (is_check)
		return tnorm__tnh_perr(ps, &kw,
		                       "a check cannot take a value with 'move', expected <pool>");
	if (t->info.is_pure)
		return tnorm__tnh_perr(ps, &kw, "a pure call changes none of its arguments, so it cannot take one "
		                       "with 'move'; expected <pool>, or no 'pure'");
	tnorm__tnh_consume(ps);
	if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
		return err;
	if (tk->kind != T_LT)
		return tnorm__tnh_perr(ps, tk, "found %s after 'move', expected <pool>", tnorm__tnh_tok_desc(tk, b, sizeof(b)));
	if ((err = parse_pool_ref(ps, &pool, &where)) < 0)
		return err;
	if (ps->h->pools[pool].info.is_const)
		return tnorm__tnh_perr(
		    ps, &where,
		    "pool '%s' is const, so no call can take its value; expected "
		    "'move' on a pool that is not const",
		    ps->h->pools[pool].name);
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
	if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
		return err;
	if (tk->kind != T_IDENT)
		return tnorm__tnh_perr(ps, tk, "found %s, expected a function name", tnorm__tnh_tok_desc(tk, b, sizeof(b)));
	name = *tk;
	name.sval = NULL;
	if (!(t->name = tnorm__strndup(name.start, name.len)))
		return TNORM_ENOMEM;
	t->info.name = t->name;
	t->info.kind = TNORM_TMPL_CALL;
	tnorm__tnh_consume(ps);
	if ((err = open_args(ps, &name, &empty)) < 0 || empty)
		return err;
	for (;;) {
		token where;
		if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
			return err;
		where = *tk;
		where.sval = NULL;
		if (tnorm__tnh_is_kw(tk, "move")) {
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
			if ((err = tnorm__tnh_parse_vset(ps, &vs, "as an argument")) < 0) {
				free(vs.lits);
				free(vs.gen);
				if (err == TNORM_EPARSE && where.kind != T_INT && where.kind != T_STRING &&
				    where.kind != T_LBRACE && !tnorm__tnh_is_value_kw(&where))
					return tnorm__tnh_perr(ps, &where, "found %s in the argument list, expected "
					                       "<pool> or a value", tnorm__tnh_tok_desc(&where, b, sizeof(b)));
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
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind == T_NL) {
		tnorm__tnh_consume(ps);
		return 0;
	}
	if (t->kind == T_EOF)
		return 0;
	return tnorm__tnh_perr(ps, t, "found %s after %s, expected the end of the line", tnorm__tnh_tok_desc(t, b, sizeof(b)),
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
	tnorm__tnh_consume(ps); /* 'requires' */
	if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
		return err;
	if (tk->kind != T_IDENT || tnorm__tnh_is_value_kw(tk))
		return tnorm__tnh_perr(
		    ps, tk,
		    "found %s after 'requires', expected the call that must come "
		    "before, such as 'put(<pool>, _)'",
		    tnorm__tnh_tok_desc(tk, b, sizeof(b)));
	name = *tk;
	name.sval = NULL;
	if (!(tm->guard_name = tnorm__strndup(name.start, name.len)))
		return TNORM_ENOMEM;
	tm->guard_line = name.line;
	tm->guard_col = name.col;
	tnorm__tnh_consume(ps);
	if ((err = open_args(ps, &name, &empty)) < 0 || empty)
		return err;
	for (;;) {
		token where;
		if ((err = tnorm__tnh_peek(ps, &tk)) < 0)
			return err;
		if (tm->guard_nargs == TNORM_MAX_SLOTS)
			return tnorm__tnh_perr(
			    ps, tk, "too many arguments in the guard, expected at most %d",
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
					return tnorm__tnh_perr(ps, &where, "pool '%s' is in two arguments of this template, so "
					                       "<%s> in the guard could mean either; expected a pool that is "
					                       "one argument, or _", pname, pname);
				found = s;
			}
			if (found == UINT32_MAX)
				return tnorm__tnh_perr(ps, &where, "pool '%s' is not an argument of this template, expected "
				                       "one of its <pool> arguments, or _", pname);
			tm->guard_slot[tm->guard_nargs++] = (int32_t)found;
		} else if (tnorm__tnh_is_kw(tk, "_")) {
			tnorm__tnh_consume(ps);
			tm->guard_slot[tm->guard_nargs++] = -1;
		} else {
			return tnorm__tnh_perr(ps, tk, "found %s in the guard's argument list, expected <pool> or _",
			                       tnorm__tnh_tok_desc(tk, b, sizeof(b)));
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

	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind != T_IDENT)
		return tnorm__tnh_perr(ps, t, "found %s after 'pool', expected a pool name", tnorm__tnh_tok_desc(t, b, sizeof(b)));
	name = *t;
	name.sval = NULL;
	if (isdigit((unsigned char)name.start[name.len - 1]))
		return tnorm__tnh_perr(
		    ps, &name,
		    "pool name '%.*s' ends in a digit, expected a name whose instances "
		    "(NAME0, NAME1, ...) cannot be confused",
		    (int)name.len, name.start);
	if (tnorm__tnh_is_kw(&name, "pool") || tnorm__tnh_is_kw(&name, "pure") || tnorm__tnh_is_kw(&name, "check") || tnorm__tnh_is_kw(&name, "const"))
		return tnorm__tnh_perr(ps, &name, "'%.*s' is a keyword, expected a pool name", (int)name.len, name.start);
	if (tnorm__tnh_find_pool(h, name.start, name.len, &dummy) == 0)
		return tnorm__tnh_perr(ps, &name, "pool '%.*s' is already declared (line %u), expected a new name",
		                       (int)name.len, name.start, h->pools[dummy].info.line);
	tnorm__tnh_consume(ps);
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind != T_INT)
		return tnorm__tnh_perr(
		    ps, t, "found %s after the pool name, expected the number of instances",
		    tnorm__tnh_tok_desc(t, b, sizeof(b)));
	if (t->ival < 1 || t->ival > MAX_POOL_INSTANCES)
		return tnorm__tnh_perr(ps, t,
		                       "pool size %lld is out of range, expected 1 to %d instances",
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
	tnorm__tnh_consume(ps);
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (tnorm__tnh_is_kw(t, "const")) {
		p->info.is_const = 1;
		tnorm__tnh_consume(ps);
	} else if (t->kind == T_IDENT) {
		return tnorm__tnh_perr(ps, t, "found %s after the pool size, expected 'const' or the end of the line",
		                       tnorm__tnh_tok_desc(t, b, sizeof(b)));
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
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (is_check)
		return tnorm__tnh_perr(ps, t, "a check cannot assign a pool, expected 'check NAME(<pool>, ...)'");
	if ((err = parse_pool_ref(ps, &pool, &vw)) < 0 ||
	    (err = add_slot(ps, tm, &vw, TNORM_SLOT_POOL, pool, NULL)) < 0)
		return err;
	tm->info.has_lhs = 1;
	if ((err = tnorm__tnh_expect(ps, T_ASSIGN, "':=' after the left-hand side", "found")) < 0 ||
	    (err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	/* The grammar's second place for 'pure': '<pool> := pure call'. */
	if (tnorm__tnh_is_kw(t, "pure")) {
		if (*is_pure)
			return tnorm__tnh_perr(ps, t, "'pure' is given twice, expected it once, before the line or "
			                       "after ':='");
		*is_pure = 1;
		tm->info.is_pure = 1;
		tnorm__tnh_consume(ps);
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			return err;
		if (t->kind != T_IDENT)
			return tnorm__tnh_perr(ps, t, "found %s after 'pure', expected a call", tnorm__tnh_tok_desc(t, b, sizeof(b)));
	}
	if (t->kind == T_IDENT && !tnorm__tnh_is_value_kw(t))
		return parse_call(ps, tm, is_check);
	vw = *t;
	vw.sval = NULL;
	if (*is_pure)
		return tnorm__tnh_perr(ps, first,
		                       "'pure' applies to calls, expected a call after ':='");
	if ((err = tnorm__tnh_parse_vset(ps, &vs, "after ':='")) < 0)
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
			return tnorm__tnh_perr(ps, first, "check '%s' has no <pool> argument, expected at least one",
			                       tm->name);
	}
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (!tnorm__tnh_is_kw(t, "requires"))
		return end_of_line(ps, is_check ? "the check" : "the template");
	if (is_check)
		return tnorm__tnh_perr(
		    ps, t,
		    "a check cannot have a guard, expected 'requires' after a call "
		    "template");
	if (tm->info.kind == TNORM_TMPL_VALUE)
		return tnorm__tnh_perr(ps, t,
		                       "a value template cannot have a guard, expected 'requires' "
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
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (tnorm__tnh_is_kw(t, "pure")) {
		*is_pure = 1;
		tnorm__tnh_consume(ps);
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			return err;
		if (tnorm__tnh_is_kw(t, "check"))
			return tnorm__tnh_perr(ps, t, "'pure check' is redundant, expected either 'pure' or 'check'");
	} else if (tnorm__tnh_is_kw(t, "check")) {
		*is_check = 1;
		tnorm__tnh_consume(ps);
		if ((err = tnorm__tnh_peek(ps, &t)) < 0)
			return err;
		if (tnorm__tnh_is_kw(t, "pure"))
			return tnorm__tnh_perr(ps, t, "'check pure' is redundant, expected either 'pure' or 'check'");
	}
	return 0;
}

int tnorm__tnh_parse_line(parser *ps)
{
	tnorm_harness *h = ps->h;
	token *t, first;
	char b[64];
	tnorm__tmpl *tm = NULL;
	int err, is_pure = 0, is_check = 0;

	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind == T_NL) {
		tnorm__tnh_consume(ps);
		return 0;
	}
	first = *t;
	first.sval = NULL;
	if (tnorm__tnh_is_kw(t, "pool")) {
		tnorm__tnh_consume(ps);
		if (h->ntmpls + h->nchecks > 0)
			return tnorm__tnh_perr(ps, &first, "pool declared after a template, expected all 'pool' lines first");
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
	if ((err = tnorm__tnh_peek(ps, &t)) < 0)
		return err;
	if (t->kind == T_LT) {
		if ((err = parse_assignment(ps, tm, &first, is_check, &is_pure)) < 0)
			return err;
	} else if (t->kind == T_IDENT) {
		if ((err = parse_call(ps, tm, is_check)) < 0)
			return err;
		if (is_check && tm->info.nslots == 0)
			return tnorm__tnh_perr(ps, &first, "check '%s' has no arguments, expected at least one <pool> to check",
			                       tm->name);
	} else {
		return tnorm__tnh_perr(
		    ps, t,
		    "found %s at the start of a line, expected 'pool', 'pure', 'check', "
		    "'<pool> :=' or a call",
		    tnorm__tnh_tok_desc(t, b, sizeof(b)));
	}
	return finish_line(ps, tm, &first, is_check);
}

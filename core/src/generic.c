/* SPDX-License-Identifier: MIT */
/*
 * generic.c - reduction and normalization of plain files (no harness), in the shortlex order.
 *
 * Everything here works on one current string, the lowest interesting one found so far, and
 * asks the caller's oracle about candidates derived from it; a candidate that is interesting
 * becomes the current string.  Deletion uses the unit algorithms of reduce.c on three views of
 * the string (lines, tokens, bytes).  Adaptive deletion only grows a run from a unit that can go
 * on its own, so in structured text, where each token of `"a":[{}],` is needed for the rest to
 * parse, it stops early.  The chunk pass then tries runs of 2..8 tokens, then 16, 32, ..., at
 * every position, but only those that could be a whole member, element or statement: balanced
 * (brackets nest, quotes pair), within one line, starting and ending at the structure's seams
 * (after an opening bracket or a separator `,` `;` newline; at a separator or before a closing
 * bracket), and not a call's arguments (`f(a, b)`: deleting one changes the arity) nor a line
 * without its newline.  Each success sends the tokens view back to single-token deletion.  Only tokens: a
 * run of tokens is the run of bytes that matters in structured text, at a fraction of the
 * candidates; sizes 2..8 are all tried because members of small structured inputs are mostly 3
 * to 8 tokens long, and a run of one size does not delete a member of another.  Without the
 * filters the pass cost more runs than it saved on line-oriented text (bench/generic.c).  The
 * hoisting pass then replaces a bracketed value by one of its pieces: deleting runs can never take
 * an opening bracket and its closing one away together.
 *
 * Normalization (after Hypothesis's shrinker and shrinkray, and the design's "generic mode
 * normalizes too") rewrites the current string into lower strings of the same or a smaller
 * length: integers by binary search, word characters toward the lowest of their class, other
 * bytes toward a space or NUL, a word by an earlier lower word, adjacent lines or words sorted,
 * and at the fixed point of those, every copy of one integer, then of one byte value, at once.
 * Each candidate is checked to be lower in shortlex before it is asked about, so normalization
 * terminates: below any string lie finitely many.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "options.h"
#include "tnorm/generic.h"

const char *tnorm_generic_rule_name(tnorm_generic_rule r)
{
	static const char *const names[] = {"delete",     "integer",    "word",   "byte", "replace",
	                                    "sort-lines", "sort-words", "copies", "scan"};
	return (unsigned)r < TNORM_GENERIC_RULE_COUNT ? names[r] : "?";
}

int tnorm_shortlex_cmp(const void *a, size_t alen, const void *b, size_t blen)
{
	int c;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	if (alen == 0)
		return 0;
	c = memcmp(a, b, alen);
	return c < 0 ? -1 : c > 0;
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(unsigned char c)
{
	return c == '_' || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

static int is_word(unsigned char c)
{
	return is_alpha(c) || is_digit(c);
}

static int is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* The state of one job: the current (lowest interesting) string and a scratch candidate. */
typedef struct {
	tnorm_bytes_oracle fn;
	void *ctx;
	const tnorm_generic_options *o; /* &own */
	tnorm_generic_options own;       /* the options, resolved */
	tnorm_generic_stats *st;
	char *cur; /* NUL terminated, owned */
	size_t len, cap;
	tnorm__buf cand;
} gen;

/* Ask the oracle about d[0, n), which must be NUL terminated at n. */
static int call(gen *g, const char *d, size_t n, int *yes)
{
	*yes = 0;
	g->st->calls++;
	return g->fn(g->ctx, d, n, yes);
}

/* Ask about the candidate in g->cand; when interesting it becomes the current string. */
static int ask(gen *g, tnorm_generic_rule rule, int *yes)
{
	int err;
	if (!g->cand.ptr && (err = tnorm__buf_grow(&g->cand, 1)) < 0)
		return err;
	if ((err = call(g, g->cand.ptr, g->cand.len, yes)) < 0 || !*yes)
		return err;
	{
		char *t = g->cur;
		size_t tc = g->cap;
		g->cur = g->cand.ptr;
		g->len = g->cand.len;
		g->cap = g->cand.cap;
		g->cand.ptr = t;
		g->cand.cap = tc;
		g->cand.len = 0;
	}
	g->st->per_rule[rule]++;
	if (rule != TNORM_GENERIC_RULE_DELETE)
		g->st->rewrites++;
	return 0;
}

/* Ask about the candidate in g->cand when it is lower than the current string (*yes = 0 when
 * it is not: normalization only goes down). */
static int ask_lower(gen *g, tnorm_generic_rule rule, int *yes)
{
	*yes = 0;
	if (tnorm_shortlex_cmp(g->cand.ptr, g->cand.len, g->cur, g->len) >= 0)
		return 0;
	return ask(g, rule, yes);
}

/* The candidate "cur with [a, b) replaced by t[0, tn)", asked about only when it is lower than
 * the current string.  `t` may point into the current string. */
static int try_replace(gen *g, tnorm_generic_rule rule, size_t a, size_t b, const char *t,
                       size_t tn, int *yes)
{
	int err;
	*yes = 0;
	g->cand.len = 0;
	if ((err = tnorm__buf_put(&g->cand, g->cur, a)) < 0 ||
	    (err = tnorm__buf_put(&g->cand, t, tn)) < 0 ||
	    (err = tnorm__buf_put(&g->cand, g->cur + b, g->len - b)) < 0)
		return err;
	return ask_lower(g, rule, yes);
}

/* ---- deletion ------------------------------------------------------------------------------ */

/* Split d into units: view 0 lines (with their newline), 1 tokens (a run of word characters, or
 * one other character, each with the blanks that follow it), 2 bytes.  Unit i is
 * d[st[i], en[i]); the arrays (len + 1 entries) are the caller's to free. */
static int split(const char *d, size_t len, int view, size_t **st, size_t **en, size_t *n)
{
	size_t i = 0, k = 0;
	*st = tnorm__calloc(len + 1, sizeof(**st));
	*en = tnorm__calloc(len + 1, sizeof(**en));
	if (!*st || !*en)
		return TNORM_ENOMEM;
	while (i < len) {
		size_t j = i;
		if (view == 0) {
			while (j < len && d[j] != '\n')
				j++;
			if (j < len)
				j++;
		} else if (view == 1) {
			if (is_word((unsigned char)d[j])) {
				while (j < len && is_word((unsigned char)d[j]))
					j++;
			} else {
				j++;
			}
			while (j < len && is_blank((unsigned char)d[j]))
				j++;
		} else {
			j++;
		}
		(*st)[k] = i;
		(*en)[k] = j;
		k++;
		i = j;
	}
	*n = k;
	return 0;
}

typedef struct {
	gen *g;
	const size_t *st, *en;
} units_ctx;

static int units_oracle(void *vctx, const size_t *keep, size_t n, int *yes)
{
	units_ctx *c = vctx;
	gen *g = c->g;
	size_t i;
	int err;
	g->cand.len = 0;
	if ((err = tnorm__buf_grow(&g->cand, 1)) < 0)
		return err;
	g->cand.ptr[0] = '\0';
	for (i = 0; i < n; i++)
		if ((err = tnorm__buf_put(&g->cand, g->cur + c->st[keep[i]],
		                          c->en[keep[i]] - c->st[keep[i]])) < 0)
			return err;
	if ((err = call(g, g->cand.ptr, g->cand.len, yes)) == 0 && *yes)
		g->st->per_rule[TNORM_GENERIC_RULE_DELETE]++;
	return err;
}

/* A view of at least this many units is reduced by the halving pass (halve()) instead of adaptive
 * deletion.  Adaptive deletion starts from a random unit inside a run that can go and finds the
 * run's two ends by an exponential probe and a bisection each: about 4 log2(run) runs per run
 * deleted, where halving pays about 2 runs per level for each unit the failure needs.  On a big
 * file that needs a few lines, that is twice the runs (a 1 MB file that needs 2 of its 35,700
 * lines: 126 runs of the lines view against 62).  On small inputs of the real parsers of
 * bench/generic.c halving in a view costs 3 to 40 % more runs (views of 1 to 16 lines, 11 to 57
 * tokens, 10 to 170 bytes: a parser's oracle is not monotone) and saves 1 to 16 % at 101 to
 * 200 lines, and adaptive's results are the tests' normal forms; on needed units spread evenly, with a monotone oracle, halving wins at
 * every size from 16 units (ties when half are needed), by 1.3 to 3 times at 1024 when at most a tenth are needed.  1024
 * is six times the largest view where halving lost. */
#define HALVE_MIN 1024

/* The halving pass, lithium's schedule over units 0..n-1: runs of `chunk` units, chunk from the
 * largest power of two below n down to 1, are deleted in turn from the start (after a deletion
 * the next run starts at the same place), and at size 1 the round repeats until it deletes
 * nothing.  So it ends where adaptive deletion ends: no single unit can go.  *keep (n + 1
 * entries, the caller's to free) receives the units left, *nkeep their number, also when an
 * oracle error stopped it.  A candidate never deletes every unit, as adaptive deletion does
 * not. */
static int halve(units_ctx *c, size_t n, size_t **keep, size_t *nkeep)
{
	size_t *cur = tnorm__calloc(n + 1, sizeof(*cur)), *tmp = tnorm__calloc(n + 1, sizeof(*tmp));
	size_t m = n, chunk = 1, start, i, k;
	int err = 0, yes, removed;
	*keep = NULL;
	*nkeep = 0;
	if (!cur || !tmp) {
		free(cur);
		free(tmp);
		return TNORM_ENOMEM;
	}
	*keep = cur;
	for (i = 0; i < n; i++)
		cur[i] = i;
	while (chunk * 2 < n)
		chunk *= 2;
	for (;;) {
		removed = 0;
		for (start = 0; start < m;) {
			size_t end = start + chunk < m ? start + chunk : m;
			if (end - start == m)
				break;
			k = 0;
			for (i = 0; i < m; i++)
				if (i < start || i >= end)
					tmp[k++] = cur[i];
			if ((err = units_oracle(c, tmp, k, &yes)) < 0)
				goto done;
			if (!yes) {
				start = end;
				continue;
			}
			memcpy(cur, tmp, k * sizeof(*cur));
			m = k;
			removed = 1;
		}
		if (chunk == 1 && !removed)
			break;
		if (chunk > 1)
			chunk /= 2;
	}
done:
	*nkeep = m;
	free(tmp);
	return err;
}

/* One view with the deletion algorithm: the kept units become the current string, also when
 * an oracle error stopped the algorithm (what it kept is interesting). */
static int delete_view(gen *g, int view)
{
	units_ctx c;
	size_t *st = NULL, *en = NULL, n = 0, *keep = NULL, nkeep = 0, i;
	tnorm__buf nb = TNORM__BUF_INIT;
	int err, e2 = 0;
	if ((err = split(g->cur, g->len, view, &st, &en, &n)) < 0)
		goto done;
	c.g = g;
	c.st = st;
	c.en = en;
	if (g->o->algo == TNORM_ALGO_ADAPTIVE && n >= HALVE_MIN)
		err = halve(&c, n, &keep, &nkeep);
	else
		err = tnorm_reduce_units(n, g->o->algo, g->o->seed, units_oracle, &c, &keep, &nkeep,
		                         NULL);
	if (keep && nkeep < n) {
		if ((e2 = tnorm__buf_grow(&nb, 1)) == 0)
			for (i = 0; i < nkeep && e2 == 0; i++)
				e2 = tnorm__buf_put(&nb, g->cur + st[keep[i]], en[keep[i]] - st[keep[i]]);
		if (e2 == 0) {
			free(g->cur);
			g->cur = nb.ptr;
			g->len = nb.len;
			g->cap = nb.cap;
			nb.ptr = NULL;
		} else if (err == 0) {
			err = e2;
		}
	}
done:
	tnorm__buf_dispose(&nb);
	free(keep);
	free(st);
	free(en);
	return err;
}

/* The next chunk size after k: 2, 3, ..., 8, then 16, 32, ... */
static size_t next_chunk(size_t k)
{
	return k < 8 ? k + 1 : k * 2;
}

/* Brackets and quotes of one token (its first byte): +1 opens, -1 closes, 2 a quote, 0 other. */
static int bracket(char c)
{
	switch (c) {
	case '(':
	case '[':
	case '{':
		return 1;
	case ')':
	case ']':
	case '}':
		return -1;
	case '"':
	case '\'':
		return 2;
	default:
		return 0;
	}
}

/* Is the run of tokens [pos, pos + k) balanced: its brackets nest (each closes the latest open
 * one, and none is left open) and it holds an even number of each quote?  Only such runs can go
 * from text that parses and leave text that parses, so only they are tried; and only runs within
 * one line (a newline may end the run): the lines view deals with lines. */
static int balanced(const char *d, const size_t *st, size_t pos, size_t k)
{
	char stack[16];
	size_t depth = 0, i, dq = 0, sq = 0;
	for (i = pos; i < pos + k; i++) {
		char c = d[st[i]];
		int b = bracket(c);
		if (c == '\n' && i + 1 < pos + k)
			return 0; /* runs of lines are the lines view's */
		if (b == 1) {
			if (depth == sizeof(stack))
				return 0;
			stack[depth++] = c;
		} else if (b == -1) {
			if (depth == 0 || stack[depth - 1] != (c == ')' ? '(' : c == ']' ? '[' : '{'))
				return 0;
			depth--;
		} else if (b == 2) {
			if (c == '"')
				dq++;
			else
				sq++;
		}
	}
	return depth == 0 && dq % 2 == 0 && sq % 2 == 0;
}

/* Does the run of tokens [pos, pos + k) (of n) fit the structure around it: does it start at the
 * beginning, after an opening bracket or a separator, or with a separator, and end with a
 * separator, or before a closing bracket, a separator or the end?  These are the runs that are
 * whole members, elements or statements (`"a":[{}],`, `2, ` in `[1, 2, 3]`, `, "b":1` before `}`),
 * but not all of a line but its newline. */
static int aligned(const char *d, const size_t *st, size_t n, size_t pos, size_t k)
{
	static const char sep[] = ",;\n";
	char first = d[st[pos]], last = d[st[pos + k - 1]];
	int start = pos == 0 || bracket(d[st[pos - 1]]) == 1 || strchr(sep, d[st[pos - 1]]) ||
	            strchr(sep, first);
	int end = pos + k == n || strchr(sep, last) || bracket(d[st[pos + k]]) == -1 ||
	          strchr(sep, d[st[pos + k]]);
	/* A line's content without its newline: the lines view tried the line. */
	int line = (pos == 0 || d[st[pos - 1]] == '\n') && (pos + k == n || d[st[pos + k]] == '\n');
	return start && end && !line;
}

/* Is the '(' at d[a] a call's: right after a word (`f(`)?  A call's arguments are not members
 * or elements: deleting one, or hoisting one out, changes the call's arity, which a program with
 * calls in its input (a test script, source code) rejects. */
static int call_paren(const char *d, size_t a)
{
	return d[a] == '(' && a > 0 && is_word((unsigned char)d[a - 1]);
}

/* in_call[i]: is token i directly inside a call's parentheses (call_paren)?  Brackets nest as in
 * balanced(); deeper than its stack, the answer is 0. */
static int mark_calls(const char *d, const size_t *st, size_t n, unsigned char **in_call)
{
	size_t open[16], depth = 0, i;
	if (!(*in_call = tnorm__malloc(n ? n : 1)))
		return TNORM_ENOMEM;
	for (i = 0; i < n; i++) {
		int b = bracket(d[st[i]]);
		(*in_call)[i] = depth > 0 && depth <= 16 && call_paren(d, open[depth - 1]);
		if (b == 1) {
			if (depth < 16)
				open[depth] = st[i];
			depth++;
		} else if (b == -1 && depth > 0) {
			depth--;
		}
	}
	return 0;
}

/* The chunk pass over the tokens view: balanced runs of 2..8, 16, ... tokens that fit the
 * structure around them (aligned()), at every position, when the text has brackets or quotes at
 * all (structured text; in plain text a run of tokens that can go is found from a single one by
 * adaptive deletion); not a call's arguments (mark_calls).  *found is set when a run was
 * deleted. */
static int chunk_pass(gen *g, int view, int *found)
{
	size_t *st = NULL, *en = NULL, n = 0, k, pos, i;
	unsigned char *in_call = NULL;
	int err = 0, yes, structured = 0;
	*found = 0;
	for (i = 0; i < g->len && !structured; i++)
		structured = bracket(g->cur[i]) != 0;
	if (!structured)
		return 0;
	if ((err = split(g->cur, g->len, view, &st, &en, &n)) < 0 ||
	    (err = mark_calls(g->cur, st, n, &in_call)) < 0)
		goto done;
	for (k = 2; k < n; k = next_chunk(k)) {
		for (pos = 0; pos + k <= n && k < n;) {
			if (in_call[pos] || !aligned(g->cur, st, n, pos, k) ||
			    !balanced(g->cur, st, pos, k)) {
				pos++;
				continue;
			}
			if ((err = try_replace(g, TNORM_GENERIC_RULE_DELETE, st[pos], en[pos + k - 1], "", 0,
			                       &yes)) < 0)
				goto done;
			if (!yes) {
				pos++;
				continue;
			}
			*found = 1;
			g->st->chunks++;
			free(st);
			free(en);
			free(in_call);
			st = en = NULL;
			in_call = NULL;
			if ((err = split(g->cur, g->len, view, &st, &en, &n)) < 0 ||
			    (err = mark_calls(g->cur, st, n, &in_call)) < 0)
				goto done;
		}
	}
done:
	free(st);
	free(en);
	free(in_call);
	return err;
}

/* Where the opening bracket at d[a] closes (the index of its closing bracket), brackets of any
 * kind nesting and those inside double-quoted strings skipped; len when it does not close. */
static size_t closing(const char *d, size_t len, size_t a)
{
	size_t i, depth = 0;
	int quoted = 0;
	for (i = a; i < len; i++) {
		if (quoted) {
			if (d[i] == '\\')
				i++;
			else if (d[i] == '"')
				quoted = 0;
		} else if (d[i] == '"') {
			quoted = 1;
		} else if (bracket(d[i]) == 1) {
			depth++;
		} else if (bracket(d[i]) == -1 && --depth == 0) {
			return i;
		}
	}
	return len;
}

/* The next piece of the inside of a bracketed value, from p to the closing bracket at c: the run
 * up to a separator (`,` `:` `;`) at its own level, without its surrounding blanks, in [*ps,
 * *pe); returns where the piece after it starts (c when it was the last). */
static size_t next_piece(const char *d, size_t p, size_t c, size_t *ps, size_t *pe)
{
	size_t i = p;
	while (i < c && (is_blank((unsigned char)d[i]) || d[i] == '\n'))
		i++;
	*ps = i;
	while (i < c && !strchr(",:;", d[i])) {
		if (bracket(d[i]) == 1 || d[i] == '"') {
			size_t e = d[i] == '"' ? i + 1 : closing(d, c, i);
			while (d[i] == '"' && e < c && d[e] != '"')
				e += d[e] == '\\' ? 2 : 1;
			i = e < c ? e + 1 : c;
		} else {
			i++;
		}
	}
	*pe = i;
	while (*pe > *ps && (is_blank((unsigned char)d[*pe - 1]) || d[*pe - 1] == '\n'))
		(*pe)--;
	return i < c ? i + 1 : c;
}

/* The hoisting pass, over bracketed text: a bracketed value replaced by one of its pieces (an
 * element, a member's key or value), outermost first.  A fault reached through an enclosing
 * structure the program does not need (`{"a":{"":[{}]}}`, `[long-number]`) is thus found through
 * the least structure, which deletion of runs cannot do (it would have to delete the opening and
 * the closing bracket at once).  Each candidate is shorter than the current string.  *found is
 * set when one was taken.  A call's parentheses are left alone (call_paren). */
static int hoist_pass(gen *g, int *found)
{
	size_t a, c, p, ps, pe;
	int err = 0, yes;
	*found = 0;
	for (a = 0; a < g->len;) {
		yes = 0;
		if (bracket(g->cur[a]) == 1 && !call_paren(g->cur, a) &&
		    (c = closing(g->cur, g->len, a)) < g->len)
			for (p = a + 1; p < c && !yes;) {
				p = next_piece(g->cur, p, c, &ps, &pe);
				if (pe > ps && (err = try_replace(g, TNORM_GENERIC_RULE_DELETE, a, c + 1,
				                                  g->cur + ps, pe - ps, &yes)) < 0)
					return err;
			}
		if (!yes) {
			a++;
			continue;
		}
		/* The hoisted piece, now at a, may be a bracketed value in turn. */
		*found = 1;
		g->st->chunks++;
	}
	return 0;
}

/* Deletion over the selected views, each to a fixpoint, with the chunk pass in the tokens view
 * when asked.  `lazy` (normalization, after a rewrite): the chunk pass only when single tokens
 * went, and the bytes view only when the lines or tokens views deleted something, since a
 * lowered value frees whole lines or tokens. */
static int delete_all(gen *g, int lazy)
{
	unsigned views = g->o->views;
	uint64_t before = g->st->per_rule[TNORM_GENERIC_RULE_DELETE];
	int view, err = 0, found;
	for (view = 0; view < 3 && err == 0; view++) {
		if (!(views & (1u << view)))
			continue;
		if (view == 2 && lazy && g->st->per_rule[TNORM_GENERIC_RULE_DELETE] == before)
			break;
		for (;;) {
			uint64_t view_before = g->st->per_rule[TNORM_GENERIC_RULE_DELETE];
			if ((err = delete_view(g, view)) < 0)
				break;
			if (!g->o->chunks || view != 1 ||
			    (lazy && g->st->per_rule[TNORM_GENERIC_RULE_DELETE] == view_before))
				break;
			if ((err = chunk_pass(g, view, &found)) < 0 ||
			    (!found && (err = hoist_pass(g, &found)) < 0) || !found)
				break;
		}
	}
	return err;
}

/* ---- normalization rewrites ---------------------------------------------------------------- */

/* A decimal integer of the current string: [a, e), its digits from s (a < s when it has a '-'). */
typedef struct {
	size_t a, s, e;
	int neg;
	uint64_t v;
} int_tok;

/* The next decimal integer at or after p: a run of digits not inside a word, with a '-' before it
 * that is not preceded by a word character; at most 18 digits.  0 when there is none. */
static int next_int(const gen *g, size_t p, int_tok *t)
{
	while (p < g->len) {
		size_t s = p, e, k;
		if (!is_digit((unsigned char)g->cur[p]) || (p > 0 && is_word((unsigned char)g->cur[p - 1]))) {
			p++;
			continue;
		}
		for (e = s; e < g->len && is_digit((unsigned char)g->cur[e]); e++)
			;
		p = e;
		if ((e < g->len && is_alpha((unsigned char)g->cur[e])) || e - s > 18)
			continue;
		t->s = t->a = s;
		t->e = e;
		t->v = 0;
		for (k = s; k < e; k++)
			t->v = t->v * 10 + (uint64_t)(g->cur[k] - '0');
		t->neg = s > 0 && g->cur[s - 1] == '-' && (s == 1 || !is_word((unsigned char)g->cur[s - 2]));
		if (t->neg)
			t->a = s - 1;
		return 1;
	}
	return 0;
}

/* Where lower_int rewrites an integer: at one place, cur[a, e) (`from` empty), or at every copy
 * of the integer written `from` (the copies rule).  Both follow the integer as it is rewritten. */
typedef struct {
	size_t a, e;
	char from[24];
} int_site;

/* The candidate "the integer of `s` written `to`"; when interesting, `s` follows it. */
static int try_int_copies(gen *g, const char *from, const char *to, int *yes);

static int try_int(gen *g, int_site *s, const char *to, int *yes)
{
	int err = s->from[0] ? try_int_copies(g, s->from, to, yes)
	                     : try_replace(g, TNORM_GENERIC_RULE_INTEGER, s->a, s->e, to, strlen(to), yes);
	if (err == 0 && *yes) {
		s->e = s->a + strlen(to);
		snprintf(s->from, sizeof(s->from), "%s", s->from[0] ? to : "");
	}
	return err;
}

/* Lower the integer of `s` (`neg`: written with a '-'; magnitude v): 0 first, then without its
 * sign, then the lowest magnitude that keeps the failure, by binary search. */
static int lower_int(gen *g, int_site *s, int neg, uint64_t v)
{
	char t[32];
	uint64_t lo = 0, hi = v;
	int err, yes;
	if ((err = try_int(g, s, "0", &yes)) < 0 || yes)
		return err;
	if (neg) {
		snprintf(t, sizeof(t), "%llu", (unsigned long long)v);
		if ((err = try_int(g, s, t, &yes)) < 0)
			return err;
		neg = !yes;
	}
	/* Binary search for the lowest magnitude that keeps the failure (0 does not). */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		snprintf(t, sizeof(t), "%s%llu", neg ? "-" : "", (unsigned long long)mid);
		if ((err = try_int(g, s, t, &yes)) < 0)
			return err;
		if (yes)
			hi = mid;
		else
			lo = mid;
	}
	return 0;
}

/* Decimal integers (next_int), each lowered on its own. */
static int rule_integer(gen *g)
{
	size_t i = 0;
	int_tok t;
	int err;
	while (next_int(g, i, &t)) {
		int_site site = {t.a, t.e, ""};
		i = t.e;
		if (t.v == 0 && !t.neg && t.e - t.s == 1)
			continue;
		err = lower_int(g, &site, t.neg, t.v);
		i = site.e;
		if (err < 0)
			return err;
	}
	return 0;
}

/* The lowest character of c's class: '0' for digits, 'A', 'a', '_' for itself; for other bytes
 * ' ' when printable, 0 otherwise; whitespace (and ' ' itself) is left alone (returns c). */
static unsigned char class_min(unsigned char c)
{
	if (is_digit(c))
		return '0';
	if (c >= 'A' && c <= 'Z')
		return 'A';
	if (c >= 'a' && c <= 'z')
		return 'a';
	if (c == '_' || c == ' ' || c == '\t' || c == '\n' || c == '\r')
		return c;
	if (c > ' ' && c < 0x7f)
		return ' ';
	return 0;
}

/* Is the current string binary: does it hold a control byte other than whitespace, DEL, or a
 * byte that is not part of well-formed UTF-8?  In binary data bytes are numbers, not characters
 * of a class: a byte of a command reader's index is 0x04 at its lowest whether the fuzzer wrote
 * it as `a`, `0` or a space. */
static int is_binary(const gen *g)
{
	size_t i = 0;
	while (i < g->len) {
		unsigned char c = (unsigned char)g->cur[i];
		size_t k, more = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2
		                             : (c & 0xf8) == 0xf0 ? 3 : 4;
		if ((c < 0x20 && (c < '\t' || c > '\r')) || c == 0x7f)
			return 1; /* a control byte other than \t \n \v \f \r */
		if (more > 3 || (more && c < 0xc2) || (more && i + more >= g->len))
			return 1; /* not a lead byte, an overlong lead, or a cut sequence */
		for (k = 1; k <= more; k++)
			if (((unsigned char)g->cur[i + k] & 0xc0) != 0x80)
				return 1;
		i += more + 1;
	}
	return 0;
}

/* Lower the byte at cur[i]: its class minimum, then, for control and high bytes (`search`), a
 * binary search between the two.  Letters and digits only try the minimum: in a word that is not
 * free to change (a keyword) each character would cost five runs for nothing.  In binary data
 * (`search` 2) every byte is a number: 0 first, then a binary search below it. */
static int lower_byte(gen *g, tnorm_generic_rule rule, size_t i, int search)
{
	unsigned char c = (unsigned char)g->cur[i], lo = search == 2 ? 0 : class_min(c), hi = c;
	char t;
	int err, yes;
	if (lo >= c)
		return 0;
	t = (char)lo;
	if ((err = try_replace(g, rule, i, i + 1, &t, 1, &yes)) < 0 || yes)
		return err;
	if (!search || (lo == ' ' && search == 1))
		return 0; /* punctuation: only the space is tried */
	while (hi - lo > 1) {
		unsigned char mid = (unsigned char)(lo + (hi - lo) / 2);
		t = (char)mid;
		if ((err = try_replace(g, rule, i, i + 1, &t, 1, &yes)) < 0)
			return err;
		if (yes)
			hi = mid;
		else
			lo = mid;
	}
	return 0;
}

/* Words (runs of word characters that are not decimal integers the integer rule handles): the
 * whole word at its class minimum first (a word already there: all '0'), then each character. */
static int rule_word(gen *g)
{
	size_t i = 0, e, k;
	char t[64];
	int err, yes;
	if (is_binary(g))
		return 0; /* no words in binary data: the byte rule lowers every byte */
	while (i < g->len) {
		int digits = 1, lowered = 0;
		if (!is_word((unsigned char)g->cur[i])) {
			i++;
			continue;
		}
		for (e = i; e < g->len && is_word((unsigned char)g->cur[e]); e++)
			digits &= is_digit((unsigned char)g->cur[e]);
		if (digits && e - i <= 18) {
			i = e;
			continue;
		}
		if (e - i <= sizeof(t)) {
			for (k = i; k < e; k++) {
				t[k - i] = (char)class_min((unsigned char)g->cur[k]);
				lowered |= t[k - i] != g->cur[k];
			}
			if (!lowered && !digits) {
				/* At its class minimum (`a`, `A0`): then as digits, the lowest word characters
				 * (a name `a` and a name `0` are one name to a program that takes both). */
				memset(t, '0', e - i);
				lowered = 1;
			}
			if (lowered) {
				if ((err = try_replace(g, TNORM_GENERIC_RULE_WORD, i, e, t, e - i, &yes)) < 0)
					return err;
				if (yes) {
					i = e;
					continue;
				}
			}
		}
		for (k = i; k < e; k++)
			if ((err = lower_byte(g, TNORM_GENERIC_RULE_WORD, k, 0)) < 0)
				return err;
		i = e;
	}
	return 0;
}

/* Other bytes: printable punctuation toward a space, control and high bytes toward 0; in binary
 * data (is_binary) every byte, toward 0 by binary search.  In a run
 * of three or more copies of one punctuation byte (`-----`, `=====`, what the copies rule makes)
 * only the two ends are tried: a space inside such a run is rarely the same input, and trying
 * each byte cost a run per byte (25 of a 25-byte crash file's 36 runs). */
static int rule_byte(gen *g)
{
	size_t i, e;
	int err;
	if (is_binary(g)) {
		for (i = 0; i < g->len; i++)
			if ((err = lower_byte(g, TNORM_GENERIC_RULE_BYTE, i, 2)) < 0)
				return err;
		return 0;
	}
	for (i = 0; i < g->len; i++) {
		unsigned char c = (unsigned char)g->cur[i];
		if (is_word(c))
			continue;
		for (e = i + 1; e < g->len && (unsigned char)g->cur[e] == c; e++)
			;
		if ((err = lower_byte(g, TNORM_GENERIC_RULE_BYTE, i, 1)) < 0)
			return err;
		if (e - i >= 3 && class_min(c) == ' ') { /* a run: its other end, then past it */
			if ((err = lower_byte(g, TNORM_GENERIC_RULE_BYTE, e - 1, 1)) < 0)
				return err;
			i = e - 1;
		}
	}
	return 0;
}

/* The word at or after *p: [*s, *e), or 0 when there is none. */
static int next_word(const gen *g, size_t p, size_t *s, size_t *e)
{
	while (p < g->len && !is_word((unsigned char)g->cur[p]))
		p++;
	if (p >= g->len)
		return 0;
	*s = p;
	while (p < g->len && is_word((unsigned char)g->cur[p]))
		p++;
	*e = p;
	return 1;
}

static int all_digits(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!is_digit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* A word replaced by an earlier word of its class (numbers, names) that is lower: the lowest
 * such word first, at most two tried per word. */
static int rule_replace(gen *g)
{
	size_t p = 0, s, e;
	int err, yes;
	while (next_word(g, p, &s, &e)) {
		int num = all_digits(g->cur + s, e - s), tries;
		size_t bs = 0, be = 0, q;
		/* Candidates in increasing order: each round finds the lowest earlier word above the
		 * last one tried. */
		for (tries = 0; tries < 2; tries++) {
			size_t ws, we, cs = 0, ce = 0;
			int have = 0;
			for (q = 0; next_word(g, q, &ws, &we) && we <= s; q = we) {
				if (all_digits(g->cur + ws, we - ws) != num)
					continue;
				if (tnorm_shortlex_cmp(g->cur + ws, we - ws, g->cur + s, e - s) >= 0)
					continue;
				if (tries > 0 && tnorm_shortlex_cmp(g->cur + ws, we - ws, g->cur + bs, be - bs) <= 0)
					continue;
				if (!have || tnorm_shortlex_cmp(g->cur + ws, we - ws, g->cur + cs, ce - cs) < 0) {
					cs = ws;
					ce = we;
					have = 1;
				}
			}
			if (!have)
				break;
			if ((err = try_replace(g, TNORM_GENERIC_RULE_REPLACE, s, e, g->cur + cs, ce - cs,
			                       &yes)) < 0)
				return err;
			if (yes) {
				e = s + (ce - cs);
				break;
			}
			bs = cs;
			be = ce;
		}
		p = e;
	}
	return 0;
}

/* Swap cur[a, b) and cur[c, d) (b <= c, the separator cur[b, c) kept) when that is lower. */
static int try_swap(gen *g, tnorm_generic_rule rule, size_t a, size_t b, size_t c, size_t d,
                    int *yes)
{
	tnorm__buf t = TNORM__BUF_INIT;
	int err;
	*yes = 0;
	if ((err = tnorm__buf_put(&t, g->cur + c, d - c)) == 0 &&
	    (err = tnorm__buf_put(&t, g->cur + b, c - b)) == 0 &&
	    (err = tnorm__buf_put(&t, g->cur + a, b - a)) == 0)
		err = try_replace(g, rule, a, d, t.ptr, t.len, yes);
	tnorm__buf_dispose(&t);
	return err;
}

/* Adjacent lines swapped, the lower first (one bubble pass). */
static int rule_sort_lines(gen *g)
{
	size_t a = 0;
	int err, yes;
	while (a < g->len) {
		size_t b = a, d;
		while (b < g->len && g->cur[b] != '\n')
			b++;
		if (b >= g->len)
			break;
		for (d = b + 1; d < g->len && g->cur[d] != '\n'; d++)
			;
		if ((err = try_swap(g, TNORM_GENERIC_RULE_SORT_LINES, a, b, b + 1, d, &yes)) < 0)
			return err;
		/* After a swap the higher line moved down: go on from it. */
		a = yes ? a + (d - b - 1) + 1 : b + 1;
	}
	return 0;
}

/* Adjacent words separated by blanks only, swapped when that is lower (one bubble pass). */
static int rule_sort_words(gen *g)
{
	size_t s1, e1, s2, e2, p = 0, k;
	int err, yes;
	while (next_word(g, p, &s1, &e1) && next_word(g, e1, &s2, &e2)) {
		int blanks = s2 > e1;
		for (k = e1; k < s2; k++)
			blanks &= is_blank((unsigned char)g->cur[k]);
		p = e1;
		if (!blanks)
			continue;
		if ((err = try_swap(g, TNORM_GENERIC_RULE_SORT_WORDS, s1, e1, s2, e2, &yes)) < 0)
			return err;
		if (yes)
			p = s1 + (e2 - s2) + (s2 - e1);
	}
	return 0;
}

/* Every copy of one byte value lowered at once (after Hypothesis's shrinker and shrinkray).  A
 * value that the one-place rules cannot move, because every single change breaks the failure (a
 * run of number characters that must stay one token: `0000e0-` -> `0000-0-` -> `-------`, each
 * step invalid one byte at a time), moves with all its copies.  For each byte value X in the
 * string, highest first, all its copies are replaced by a lower Y: the lowest value in the string
 * below X that is not whitespace, then the next one up (whitespace separates tokens: turning
 * every copy of a byte into one is almost never the same input).  When the string holds at most
 * two values and neither worked, a binary search over [0, X) for the lowest Y that keeps the
 * failure, then the four values just below the one it found: the predicate need not be
 * monotonic, so the search is a heuristic that ends on some interesting Y, and characters that
 * act alike sit side by side.  At most two runs per value, plus about log2(X) + 4 when the
 * string is down to one or two values.  Each candidate is lower in shortlex: same length, X
 * replaced by Y < X. */
static int try_copies(gen *g, unsigned char x, unsigned char y, int *yes)
{
	size_t i;
	int err;
	*yes = 0;
	g->cand.len = 0;
	if ((err = tnorm__buf_put(&g->cand, g->cur, g->len)) < 0)
		return err;
	for (i = 0; i < g->len; i++)
		if ((unsigned char)g->cand.ptr[i] == x)
			g->cand.ptr[i] = (char)y;
	return ask_lower(g, TNORM_GENERIC_RULE_COPIES, yes);
}

/* The binary search of the rule's comment, for a string of at most two values, X among them.
 * `tried1` and `tried2` were asked already. */
static int copies_search(gen *g, int x, int tried1, int tried2)
{
	int lo = -1, hi = x, y, err, yes;
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (mid == tried1 || mid == tried2) {
			lo = mid; /* already asked: it does not fail */
			continue;
		}
		if ((err = try_copies(g, (unsigned char)hi, (unsigned char)mid, &yes)) < 0)
			return err;
		if (yes)
			hi = mid;
		else
			lo = mid;
	}
	for (y = hi - 1; y >= 0 && y >= hi - 4; y--) {
		if (y == tried1 || y == tried2)
			continue;
		if ((err = try_copies(g, (unsigned char)hi, (unsigned char)y, &yes)) < 0)
			return err;
		if (yes)
			hi = y;
	}
	return 0;
}

/* The candidate "every integer written `from` (sign included) rewritten `to`". */
static int try_int_copies(gen *g, const char *from, const char *to, int *yes)
{
	size_t p = 0, fl = strlen(from);
	int_tok t;
	int err;
	*yes = 0;
	g->cand.len = 0;
	for (; next_int(g, p, &t); p = t.e) {
		int same = t.e - t.a == fl && memcmp(g->cur + t.a, from, fl) == 0;
		if ((err = tnorm__buf_put(&g->cand, g->cur + p, t.a - p)) < 0 ||
		    (err = tnorm__buf_put(&g->cand, same ? to : g->cur + t.a,
		                          same ? strlen(to) : t.e - t.a)) < 0)
			return err;
	}
	if ((err = tnorm__buf_put(&g->cand, g->cur + p, g->len - p)) < 0)
		return err;
	return ask_lower(g, TNORM_GENERIC_RULE_COPIES, yes);
}

/* One integer of the current string, as written, for int_copies's sort. */
typedef struct {
	const char *p;
	size_t n, at; /* its length, and the how-manyth integer it is */
	int neg;
	uint64_t v;
} int_text;

/* By text, then by place: the copies of one integer side by side, the first one first. */
static int int_text_cmp(const void *x, const void *y)
{
	const int_text *a = x, *b = y;
	int c = a->n != b->n ? (a->n < b->n ? -1 : 1) : memcmp(a->p, b->p, a->n);
	return c ? c : (a->at > b->at) - (a->at < b->at);
}

static int int_text_at(const void *x, const void *y)
{
	const int_text *a = *(const int_text *const *)x, *b = *(const int_text *const *)y;
	return (a->at > b->at) - (a->at < b->at);
}

/* Every copy of one integer lowered at once, as ShiftValues does for harness tests: `detach 2`
 * twice, where detaching one slot twice is the fault, cannot lower either 2 alone.  For each value
 * written at least twice (the first 64 such), in the order of first appearance, lower_int with
 * every copy together.  The integers are found in one pass and their copies by a sort. */
static int int_copies(gen *g)
{
	int_text *all = NULL, **firsts = NULL;
	size_t n = 0, cap = 0, nf = 0, i, j, p = 0;
	int_tok t;
	int err = 0;
	for (; next_int(g, p, &t); p = t.e) {
		if (n == cap) {
			int_text *m = tnorm__reallocarray(all, cap = cap ? 2 * cap : 16, sizeof(*all));
			if (!m) {
				err = TNORM_ENOMEM;
				goto done;
			}
			all = m;
		}
		all[n].p = g->cur + t.a;
		all[n].n = t.e - t.a;
		all[n].at = n;
		all[n].neg = t.neg;
		all[n++].v = t.v;
	}
	if (n < 2)
		goto done;
	if (!(firsts = tnorm__calloc(n, sizeof(*firsts)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	qsort(all, n, sizeof(*all), int_text_cmp);
	/* Each run of one text, of two or more copies and not "0", gives its first copy. */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && all[j].n == all[i].n && !memcmp(all[j].p, all[i].p, all[i].n); j++)
			;
		if (j - i >= 2 && !(all[i].n == 1 && all[i].v == 0))
			firsts[nf++] = &all[i];
	}
	qsort(firsts, nf, sizeof(*firsts), int_text_at);
	if (nf > 64)
		nf = 64;
	{
		int_site sites[64];
		memset(sites, 0, sizeof(sites));
		for (i = 0; i < nf; i++) /* the texts, before the first rewrite moves them */
			snprintf(sites[i].from, sizeof(sites[i].from), "%.*s", (int)firsts[i]->n, firsts[i]->p);
		for (i = 0; i < nf && err == 0; i++)
			err = lower_int(g, &sites[i], firsts[i]->neg, firsts[i]->v);
	}
done:
	free(firsts);
	free(all);
	return err;
}

/* The byte values of the current string, and how many there are. */
static int byte_values(const gen *g, unsigned char seen[256])
{
	size_t i;
	int y, distinct = 0;
	memset(seen, 0, 256);
	for (i = 0; i < g->len; i++)
		seen[(unsigned char)g->cur[i]] = 1;
	for (y = 0; y < 256; y++)
		distinct += seen[y];
	return distinct;
}

static int rule_copies(gen *g)
{
	unsigned char seen[256];
	int x, y, err, yes, distinct;
	uint64_t accepted;
	if ((err = int_copies(g)) < 0)
		return err;
	distinct = byte_values(g, seen);
	for (x = 255; x > 0; x--) {
		int cand[2] = {-1, -1}, k;
		if (!seen[x])
			continue;
		for (y = 0; y < x && cand[1] < 0; y++)
			if (seen[y] && !is_blank((unsigned char)y) && y != '\n' && y != '\r')
				cand[cand[0] < 0 ? 0 : 1] = y;
		accepted = g->st->per_rule[TNORM_GENERIC_RULE_COPIES];
		for (k = 0, yes = 0; k < 2 && cand[k] >= 0 && !yes; k++)
			if ((err = try_copies(g, (unsigned char)x, (unsigned char)cand[k], &yes)) < 0)
				return err;
		if (!yes && distinct <= 2 && (err = copies_search(g, x, cand[0], cand[1])) < 0)
			return err;
		if (g->st->per_rule[TNORM_GENERIC_RULE_COPIES] != accepted)
			distinct = byte_values(g, seen); /* only a rewrite changes them */
	}
	return 0;
}

/* ---- the scan: canonical in fact (issue 27) ------------------------------------------------ */

/* The longest form the scan's cheap pass works on, and the longest its full pass does: that one
 * costs up to a run per lower value of each byte (bench/generic.c's triage table). */
#define SCAN_MAX 16
#define SCAN_FULL_MAX 4

/*
 * In a short form, each byte at every lower value, lowest first: the first value that keeps the
 * failure is the lowest one, whatever the set of such values looks like.  The class minimum and
 * the binary search of the one-place rules assume that the failing values form an interval; a
 * parser's do not (`[](` then one of 219 bytes: `!` is the lowest, and `0`, `*` and `.` are each
 * a local minimum of the search).  Two passes: first the cheap values (NUL, space, `!`, `0`, `A`,
 * `a`) at every place, which brings most files of one fault to the same string, so that the
 * last pass, every value below each byte, is asked about once for all of them (the caller's
 * cache and database answer the rest).  Between them, in text: each letter or digit at every
 * lower value of its class, then adjacent bytes swapped, the lower first (two places changed
 * together, where each alone cannot move: "naabbabab" to "naaaabbbb" when what fails is a count
 * of consonants).  The cheap, class and swap passes run on forms of up to SCAN_MAX bytes, the
 * full one on text of up to SCAN_FULL_MAX bytes: in binary data bytes are numbers, whose failing
 * values the byte rule's binary search finds as a range, and a byte of 0xff would cost 255 runs
 * (bench/generic.c: the opcodes folder took twice its runs).  Runs only at a fixed point of the
 * other rules.  A polish (options' scan_full, what tnorm triage runs once per distinct normal
 * form) runs the full pass on any form up to that length, text or binary, then the swap: after
 * it no single byte of the form can be lowered and still fail.
 */
/* The lowest byte of c's class of ASCII: control characters, punctuation runs, digits, upper and
 * lower case letters; c itself for space and bytes over 0x7e (no class to search). */
static unsigned class_low(unsigned c)
{
	static const unsigned char lows[] = {0x00, 0x21, 0x30, 0x3a, 0x41, 0x5b, 0x61, 0x7b, 0x7f};
	size_t k;
	if (c == ' ' || c >= 0x7f)
		return c;
	for (k = sizeof(lows) - 1; k > 0 && c < lows[k]; k--)
		;
	return lows[k];
}

static int rule_scan(gen *g)
{
	static const unsigned char cheap[] = {0, ' ', '!', '0', 'A', 'a'};
	/* The passes in order: cheap, class, swap, full; a polish (o->scan_full) runs the full pass
	 * first, which tries what the cheap and class passes would, and then the swap. */
	static const int usual[] = {0, 1, 2, 3}, polish[] = {3, 2};
	const int *order = usual;
	size_t i, k, npass = 4, q;
	int err, yes, pass, text;
	if (g->o->scan_full && g->len <= g->o->scan_full) {
		order = polish;
		npass = 2;
	} else if (g->len > SCAN_MAX) {
		return 0;
	}
	for (q = 0; q < npass; q++) {
		pass = order[q];
		text = !is_binary(g); /* a pass may have made it binary (a NUL) */
		if (pass == 2 && !text)
			continue;
		if (pass == 3 && order == usual && (g->len > SCAN_FULL_MAX || !text))
			break;
		for (i = 0; i < g->len; i++) {
			unsigned v, c = (unsigned char)g->cur[i], lo = c;
			for (k = 0, yes = 0; pass == 0 && k < sizeof(cheap) && cheap[k] < c && !yes; k++) {
				char t = (char)cheap[k];
				if ((err = try_replace(g, TNORM_GENERIC_RULE_SCAN, i, i + 1, &t, 1, &yes)) < 0)
					return err;
			}
			/* Within its class: a letter at every lower letter of its case, a digit at every
			 * lower digit, a control character or a punctuation mark at every lower one of
			 * its run of ASCII (a letter can matter as a letter: a vowel, a consonant; a line
			 * end as a line end: CR down to LF).  The cheap pass tried each lower class's
			 * lowest member. */
			if (pass == 1)
				lo = class_low(c);
			for (v = lo, yes = 0; pass == 1 && v < c && !yes; v++) {
				char t = (char)v;
				if ((err = try_replace(g, TNORM_GENERIC_RULE_SCAN, i, i + 1, &t, 1, &yes)) < 0)
					return err;
			}
			/* Two places at once: a byte and the next swapped, the lower first, where
			 * lowering either alone loses the failure (a count of vowels kept). */
			if (pass == 2 && i + 1 < g->len && (unsigned char)g->cur[i + 1] < c) {
				char t[2];
				t[0] = g->cur[i + 1];
				t[1] = g->cur[i];
				if ((err = try_replace(g, TNORM_GENERIC_RULE_SCAN, i, i + 2, t, 2, &yes)) < 0)
					return err;
				if (yes && i > 0)
					i -= 2; /* the lower byte may move further left */
			}
			for (v = 0, yes = 0; pass == 3 && v < c && !yes; v++) {
				char t = (char)v;
				if ((err = try_replace(g, TNORM_GENERIC_RULE_SCAN, i, i + 1, &t, 1, &yes)) < 0)
					return err;
			}
		}
	}
	return 0;
}

/* ---- the public functions ------------------------------------------------------------------ */

void tnorm__generic_options_resolve(tnorm_generic_options *o)
{
	tnorm__deletion_resolve(&o->algo, &o->seed, TNORM_ALGO_ADAPTIVE);
	if (!o->views)
		o->views = TNORM_VIEW_ALL;
	o->chunks = o->chunks >= 0;
	if (!o->rules)
		o->rules = TNORM_GENERIC_ALL_RULES;
}

static int start(gen *g, const char *data, size_t len, const tnorm_generic_options *o,
                 tnorm_bytes_oracle fn, void *ctx, char **out, tnorm_generic_stats *st)
{
	memset(g, 0, sizeof(*g));
	if (!fn || !out || (!data && len) || !st || !o)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generic: NULL argument");
	*out = NULL;
	if (o->version != TNORM_GENERIC_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generic: options version %u, expected %u",
		                        o->version, TNORM_GENERIC_OPTIONS_VERSION);
	if (o->algo != TNORM_ALGO_DEFAULT && o->algo != TNORM_ALGO_DDMIN &&
	    o->algo != TNORM_ALGO_ADAPTIVE)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_generic: unknown algorithm %d", (int)o->algo);
	g->fn = fn;
	g->ctx = ctx;
	g->own = *o;
	tnorm__generic_options_resolve(&g->own);
	g->o = &g->own;
	g->st = st;
	memset(st, 0, sizeof(*st));
	if (!(g->cur = tnorm__malloc(len + 1)))
		return TNORM_ENOMEM;
	if (len)
		memcpy(g->cur, data, len);
	g->cur[len] = '\0';
	g->len = len;
	g->cap = len + 1;
	return 0;
}

static void finish(gen *g, char **out, size_t *outlen)
{
	*out = g->cur;
	if (outlen)
		*outlen = g->len;
	tnorm__buf_dispose(&g->cand);
}

int tnorm_generic_reduce(const char *data, size_t len, const tnorm_generic_options *o,
                         tnorm_bytes_oracle fn, void *ctx, char **out, size_t *outlen,
                         tnorm_generic_stats *stp)
{
	tnorm_generic_options defaults = TNORM_GENERIC_OPTIONS_INIT;
	tnorm_generic_stats st;
	gen g;
	int err;
	if ((err = start(&g, data, len, o ? o : &defaults, fn, ctx, out, &st)) < 0)
		return err;
	err = delete_all(&g, 0);
	finish(&g, out, outlen);
	if (stp)
		*stp = st;
	return err;
}

typedef int (*rule_fn)(gen *g);

int tnorm_generic_normalize(const char *data, size_t len, const tnorm_generic_options *o,
                            tnorm_bytes_oracle fn, void *ctx, char **out, size_t *outlen,
                            tnorm_generic_stats *stp)
{
	static const rule_fn rules[TNORM_GENERIC_RULE_COUNT] = {
	    NULL,         rule_integer,    rule_word,       rule_byte,  rule_replace,
	    rule_sort_lines, rule_sort_words, rule_copies, rule_scan};
	tnorm_generic_options defaults = TNORM_GENERIC_OPTIONS_INIT;
	tnorm_generic_stats st;
	gen g;
	int err, r, del;
	if ((err = start(&g, data, len, o ? o : &defaults, fn, ctx, out, &st)) < 0)
		return err;
	o = g.o;
	/* Rounds of every rule in turn, until a round lowers nothing.  A lowered value can free what
	 * it needed before (an index, a count): deletion runs after the integer rule when it lowered
	 * one, and at the end of every round that rewrote anything after that.  The copies rule, two
	 * runs per byte value that mostly fail, and the scan only run in a round where the one-place
	 * rules lowered nothing: once per fixed point of theirs. */
	del = (o->rules & (1u << TNORM_GENERIC_RULE_DELETE)) != 0;
	for (;;) {
		int round = 0, since = 0;
		for (r = 1; r < TNORM_GENERIC_RULE_COUNT; r++) {
			uint64_t before = st.per_rule[r];
			if (!(o->rules & (1u << r)) ||
			    ((r == TNORM_GENERIC_RULE_COPIES || r == TNORM_GENERIC_RULE_SCAN) && round))
				continue;
			if ((err = rules[r](&g)) < 0)
				goto done;
			if (st.per_rule[r] == before)
				continue;
			round = since = 1;
			if (r == TNORM_GENERIC_RULE_INTEGER && del) {
				if ((err = delete_all(&g, 1)) < 0)
					goto done;
				since = 0;
			}
		}
		if (since && del && (err = delete_all(&g, 1)) < 0)
			goto done;
		if (!round)
			break;
	}
done:
	finish(&g, out, outlen);
	if (stp)
		*stp = st;
	return err;
}

/* SPDX-License-Identifier: MIT */
/*
 * order.c - the total order of actions (order.h): rank, unrank, render and parse one action.
 *
 * An action's index is its template's first index plus a mixed-radix number whose digits are the
 * slot choices: all pool slots first (the left-hand side, then arguments left to right, the
 * earliest slot most significant), then all value slots in the same way.  So within a template,
 * pool-instance choices order lexicographically and values follow their natural order, as the
 * design requires, and nothing ever enumerates the universe.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* The choices slot s of template t has. */
uint64_t tnorm__slot_count(const tnorm__tmpl *t, uint32_t s)
{
	if (t->info.slot[s].kind == TNORM_SLOT_POOL)
		return t->info.slot[s].count;
	if (t->vset[s].is_range)
		return (uint64_t)t->vset[s].hi - (uint64_t)t->vset[s].lo + 1;
	if (t->vset[s].gen)
		return t->vset[s].gen->count;
	return t->vset[s].nlits;
}

static int check_action(const tnorm_harness *h, const tnorm_action *a)
{
	const tnorm__tmpl *t;
	uint32_t s;
	if (!h || !a || a->tmpl >= h->ntmpls)
		return tnorm__error_set(TNORM_EINVALID, "action has no template %u", a ? a->tmpl : 0);
	t = &h->tmpls[a->tmpl];
	for (s = 0; s < t->info.nslots; s++)
		if (a->choice[s] >= tnorm__slot_count(t, s))
			return tnorm__error_set(TNORM_EINVALID, "choice %u of slot %u is out of range",
			                        a->choice[s], s);
	return 0;
}

int tnorm_harness_rank(const tnorm_harness *h, const tnorm_action *a, uint64_t *out)
{
	const tnorm__tmpl *t;
	uint64_t pi = 0, vi = 0;
	uint32_t s;
	int err;
	if ((err = check_action(h, a)) < 0)
		return err;
	if (!out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_harness_rank: NULL out");
	t = &h->tmpls[a->tmpl];
	for (s = 0; s < t->info.nslots; s++) {
		uint64_t n = tnorm__slot_count(t, s);
		if (t->info.slot[s].kind == TNORM_SLOT_POOL)
			pi = pi * n + a->choice[s];
		else
			vi = vi * n + a->choice[s];
	}
	*out = t->info.first + pi * t->value_combos + vi;
	return 0;
}

int tnorm_harness_unrank(const tnorm_harness *h, uint64_t idx, tnorm_action *out)
{
	uint32_t lo, hi, s;
	const tnorm__tmpl *t;
	uint64_t within, pi, vi;
	if (!h || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_harness_unrank: NULL argument");
	if (idx >= h->total)
		return tnorm__error_set(TNORM_EINVALID, "action index %" PRIu64 " is out of range "
		                        "(the harness has %" PRIu64 " actions)", idx, h->total);
	/* Binary search for the template whose [first, first+count) holds idx. */
	lo = 0;
	hi = h->ntmpls;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (h->tmpls[mid].info.first <= idx)
			lo = mid;
		else
			hi = mid;
	}
	while (h->tmpls[lo].info.count == 0 || idx >= h->tmpls[lo].info.first + h->tmpls[lo].info.count)
		lo++;
	t = &h->tmpls[lo];
	memset(out, 0, sizeof(*out));
	out->tmpl = lo;
	within = idx - t->info.first;
	pi = within / t->value_combos;
	vi = within % t->value_combos;
	for (s = t->info.nslots; s-- > 0;) {
		uint64_t n = tnorm__slot_count(t, s);
		if (t->info.slot[s].kind == TNORM_SLOT_POOL) {
			out->choice[s] = (uint32_t)(pi % n);
			pi /= n;
		} else {
			out->choice[s] = (uint32_t)(vi % n);
			vi /= n;
		}
	}
	return 0;
}

/* ---- generated domains: shortlex rank and unrank ---------------------------------------------
 *
 * strings(A, LO..HI) holds, for each length L from LO to HI, the |A|^L strings of length L; a
 * string's rank is the number of shorter strings in the domain plus its own digits read as a
 * number in base |A| (the alphabet's order as written).  So ranks follow shortlex order, and
 * lowering a choice, which is all normalization does to a value, shortens or lowers the string. */

size_t tnorm__gen_unrank(const tnorm__gen *g, uint64_t v, char *buf)
{
	uint32_t len = g->minlen, i;
	uint64_t n = 1;
	for (i = 0; i < len; i++)
		n *= g->nalpha;
	/* the domain's size fits 32 bits, so n and the sums below never overflow */
	while (v >= n && len < g->maxlen) {
		v -= n;
		n *= g->nalpha;
		len++;
	}
	for (i = len; i-- > 0;) {
		buf[i] = (char)g->alpha[v % g->nalpha];
		v /= g->nalpha;
	}
	buf[len] = '\0';
	return len;
}

uint64_t tnorm__gen_rank(const tnorm__gen *g, const char *s, size_t len)
{
	uint64_t r = 0, n = 1, digits = 0;
	size_t i;
	if (len < g->minlen || len > g->maxlen)
		return UINT64_MAX;
	for (i = 0; i < g->minlen; i++)
		n *= g->nalpha;
	for (i = g->minlen; i < len; i++) {
		r += n;
		n *= g->nalpha;
	}
	for (i = 0; i < len; i++) {
		int16_t p = g->pos[(unsigned char)s[i]];
		if (p < 0)
			return UINT64_MAX;
		digits = digits * g->nalpha + (uint64_t)p;
	}
	return r + digits;
}

/* Decimal numbers without printf: formatting a candidate of 10^5 steps writes 10^5 and more of
 * them, and vsnprintf (called twice by tnorm__buf_printf) was most of a reduction's own time. */
static int put_u64(tnorm__buf *b, uint64_t v)
{
	char d[20];
	size_t n = 0;
	do {
		d[sizeof(d) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return tnorm__buf_put(b, d + sizeof(d) - n, n);
}

static int put_i64(tnorm__buf *b, int64_t v)
{
	int err;
	if (v >= 0)
		return put_u64(b, (uint64_t)v);
	if ((err = tnorm__buf_putc(b, '-')) < 0)
		return err;
	return put_u64(b, 0 - (uint64_t)v);
}

static int put_slot(tnorm__buf *b, const tnorm_harness *h, const tnorm__tmpl *t, uint32_t s,
                    uint32_t choice)
{
	int err;
	if (t->info.slot[s].kind == TNORM_SLOT_POOL) {
		if ((err = tnorm__buf_puts(b, h->pools[t->info.slot[s].pool].name)) < 0)
			return err;
		return put_u64(b, choice);
	}
	if (t->vset[s].is_range)
		return put_i64(b, (int64_t)((uint64_t)t->vset[s].lo + choice));
	if (t->vset[s].gen) {
		char text[TNORM_MAX_GEN_LEN + 1];
		size_t n = tnorm__gen_unrank(t->vset[s].gen, choice, text);
		return tnorm__buf_put_quoted(b, text, n);
	}
	if (t->vset[s].lits[choice].kind == TNORM_LIT_INT)
		return put_i64(b, t->vset[s].lits[choice].i);
	if (t->vset[s].lits[choice].kind == TNORM_LIT_NULL)
		return tnorm__buf_puts(b, "null");
	return tnorm__buf_put_quoted(b, t->vset[s].lits[choice].s, t->vset[s].lits[choice].len);
}

/* Render into a buffer (appending). */
int tnorm__format_action(tnorm__buf *b, const tnorm_harness *h, const tnorm_action *a)
{
	const tnorm__tmpl *t;
	uint32_t s, first = 0;
	int err;
	if ((err = check_action(h, a)) < 0)
		return err;
	t = &h->tmpls[a->tmpl];
	if (t->info.has_lhs) {
		if ((err = put_slot(b, h, t, 0, a->choice[0])) < 0 || (err = tnorm__buf_puts(b, " = ")) < 0)
			return err;
		first = 1;
	}
	if (t->info.kind == TNORM_TMPL_VALUE)
		return put_slot(b, h, t, 1, a->choice[1]);
	if ((err = tnorm__buf_puts(b, t->name)) < 0 || (err = tnorm__buf_putc(b, '(')) < 0)
		return err;
	for (s = first; s < t->info.nslots; s++) {
		if (s > first && (err = tnorm__buf_puts(b, ", ")) < 0)
			return err;
		if ((err = put_slot(b, h, t, s, a->choice[s])) < 0)
			return err;
	}
	return tnorm__buf_putc(b, ')');
}

int tnorm_harness_format_action(const tnorm_harness *h, const tnorm_action *a, char *buf,
                                size_t size)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err = tnorm__format_action(&b, h, a);
	if (err < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	if (b.len > INT32_MAX) {
		tnorm__buf_dispose(&b);
		return tnorm__error_set(TNORM_EOVERFLOW, "action text too long");
	}
	if (buf && size) {
		size_t n = b.len < size - 1 ? b.len : size - 1;
		memcpy(buf, b.ptr, n);
		buf[n] = '\0';
	}
	err = (int)b.len;
	tnorm__buf_dispose(&b);
	return err;
}

/* ---- parsing one step ---------------------------------------------------------------------- */

typedef struct {
	const char *s, *p, *end;
	size_t col; /* of the last error */
} cur;

static void skip_ws(cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static int at_end(cur *c)
{
	skip_ws(c);
	return c->p >= c->end || *c->p == '#';
}

static int fail(cur *c, const char *at, const char *fmt, ...) TNORM__PRINTF(3, 4);

static int fail(cur *c, const char *at, const char *fmt, ...)
{
	va_list ap;
	c->col = (size_t)(at - c->s) + 1;
	va_start(ap, fmt);
	tnorm__error_setv(TNORM_EPARSE, fmt, ap);
	va_end(ap);
	return TNORM_EPARSE;
}

static size_t ident_len(const char *p, const char *end)
{
	const char *s = p;
	if (p >= end || !(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	return (size_t)(p - s);
}

static const char *shown(const char *p, const char *end, char *buf, size_t size)
{
	size_t n = 0;
	if (p >= end || *p == '#')
		return "the end of the line";
	if (isalpha((unsigned char)*p) || *p == '_') {
		n = ident_len(p, end);
	} else if (isdigit((unsigned char)*p) || *p == '-') {
		n = 1;
		while (p + n < end && isdigit((unsigned char)p[n]))
			n++;
	} else if ((unsigned char)*p < 0x20 || *p == 0x7f) {
		snprintf(buf, size, "'\\x%02x'", (unsigned char)*p);
		return buf;
	} else {
		/* A whole UTF-8 character; a byte that starts none is escaped with the message. */
		n = tnorm__utf8_len(p, (size_t)(end - p));
		n = n ? n : 1;
	}
	snprintf(buf, size, "'%.*s'", (int)(n > 40 ? 40 : n), p);
	return buf;
}

/* Parse a pool instance NAMEk of pool `pool`. */
static int parse_instance(cur *c, const tnorm_harness *h, uint32_t pool, uint32_t *out)
{
	const tnorm__pool *p = &h->pools[pool];
	size_t n, nl = strlen(p->name);
	unsigned long long v = 0;
	const char *s;
	char b[64];
	skip_ws(c);
	s = c->p;
	n = ident_len(s, c->end);
	if (n <= nl || memcmp(s, p->name, nl) != 0 || !isdigit((unsigned char)s[nl])) {
		return fail(c, s, "found %s, expected an instance of pool '%s' (%s0..%s%u)",
		            shown(s, c->end, b, sizeof(b)), p->name, p->name, p->name,
		            p->info.instances - 1);
	}
	{
		size_t k;
		if (s[nl] == '0' && n > nl + 1)
			return fail(c, s, "instance '%.*s' has a leading zero, expected %s0..%s%u", (int)n, s,
			            p->name, p->name, p->info.instances - 1);
		for (k = nl; k < n; k++) {
			if (!isdigit((unsigned char)s[k]))
				return fail(c, s, "found '%.*s', expected an instance of pool '%s'", (int)n, s,
				            p->name);
			v = v * 10 + (unsigned)(s[k] - '0');
			if (v > 1000000)
				break;
		}
	}
	if (v >= p->info.instances)
		return fail(c, s, "pool '%s' has no instance '%.*s', expected %s0..%s%u", p->name, (int)n, s,
		            p->name, p->name, p->info.instances - 1);
	*out = (uint32_t)v;
	c->p = s + n;
	return 0;
}

/* Does the text at p start with the word `null`? */
static int is_null(const char *p, const char *end)
{
	return ident_len(p, end) == 4 && !memcmp(p, "null", 4);
}

/* Parse a value of value slot `s` of `t`. */
static int parse_value(cur *c, const tnorm__tmpl *t, uint32_t s, uint32_t *out)
{
	const tnorm__vset *vs = &t->vset[s];
	const char *start;
	char b[64];
	skip_ws(c);
	start = c->p;
	if (is_null(c->p, c->end)) {
		uint64_t i;
		for (i = 0; !vs->is_range && i < vs->nlits; i++)
			if (vs->lits[i].kind == TNORM_LIT_NULL) {
				*out = (uint32_t)i;
				c->p += 4;
				return 0;
			}
		return fail(c, start, "value null is not allowed here, expected one of the values the "
		            "harness lists for this slot");
	}
	if (c->p < c->end && *c->p == '"') {
		char *str = NULL;
		size_t len = 0;
		const char *after = NULL, *bad = NULL;
		uint64_t i;
		int r = tnorm__lex_string(c->p, c->end, &str, &len, &after, &bad);
		if (r < 0)
			return r;
		if (r == 1)
			return fail(c, bad, "bad escape in string, expected one of \\n \\t \\r \\0 \\\\ \\\" \\xHH");
		if (r == 2)
			return fail(c, start, "unterminated string, expected a closing '\"'");
		if (vs->gen && (i = tnorm__gen_rank(vs->gen, str, len)) != UINT64_MAX) {
			free(str);
			*out = (uint32_t)i;
			c->p = after;
			return 0;
		}
		for (i = 0; !vs->is_range && i < vs->nlits; i++)
			if (vs->lits[i].kind == TNORM_LIT_STRING && vs->lits[i].len == len &&
			    !memcmp(vs->lits[i].s, str, len)) {
				free(str);
				*out = (uint32_t)i;
				c->p = after;
				return 0;
			}
		free(str);
		return fail(c, start, "value %.*s is not allowed here, expected one of the values the "
		            "harness lists for this slot", (int)(after - start), start);
	}
	if (c->p < c->end && (isdigit((unsigned char)*c->p) || *c->p == '-')) {
		char tmp[48];
		const char *p = c->p;
		char *e;
		long long v = 0;
		size_t n;
		int fits;
		if (*p == '-')
			p++;
		while (p < c->end && isdigit((unsigned char)*p))
			p++;
		n = (size_t)(p - c->p);
		if (n == 0 || (n == 1 && *c->p == '-'))
			return fail(c, start, "found %s, expected an integer", shown(start, c->end, b, sizeof(b)));
		/* A number too long for strtoll is out of range like one it saturates (a 40-digit and
		 * a 20-digit number give one message), and never matches a value by saturating. */
		snprintf(tmp, sizeof(tmp), "%.*s%s", (int)(n > 40 ? 40 : n), c->p, n > 40 ? "..." : "");
		errno = 0;
		if ((fits = n <= 40))
			v = strtoll(tmp, &e, 10);
		fits = fits && errno != ERANGE;
		if (vs->is_range) {
			if (!fits || v < vs->lo || v > vs->hi)
				return fail(c, start, "value %s is out of range, expected %" PRId64 "..%" PRId64,
				            tmp, vs->lo, vs->hi);
			/* The harness parser refuses sets of more than TNORM_MAX_VALUES values. */
			assert((uint64_t)v - (uint64_t)vs->lo < TNORM_MAX_VALUES);
			*out = (uint32_t)((uint64_t)v - (uint64_t)vs->lo);
			c->p = p;
			return 0;
		} else {
			uint64_t i;
			for (i = 0; fits && i < vs->nlits; i++)
				if (vs->lits[i].kind == TNORM_LIT_INT && vs->lits[i].i == v) {
					*out = (uint32_t)i;
					c->p = p;
					return 0;
				}
			return fail(c, start, "value %s is not allowed here, expected one of the values the "
			            "harness lists for this slot", tmp);
		}
	}
	return fail(c, start, "found %s, expected a value", shown(start, c->end, b, sizeof(b)));
}

static int expect_ch(cur *c, char ch, const char *what)
{
	char b[64];
	skip_ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return 0;
	}
	return fail(c, c->p, "found %s, expected %s", shown(c->p, c->end, b, sizeof(b)), what);
}

/* Try to parse the text as template t; returns 0, or TNORM_EPARSE with c->col set. */
static int parse_as(cur *c, const tnorm_harness *h, uint32_t ti, tnorm_action *out)
{
	const tnorm__tmpl *t = &h->tmpls[ti];
	uint32_t s, first = 0;
	int err;
	memset(out, 0, sizeof(*out));
	out->tmpl = ti;
	if (t->info.has_lhs) {
		if ((err = parse_instance(c, h, t->info.slot[0].pool, &out->choice[0])) < 0)
			return err;
		if ((err = expect_ch(c, '=', "'=' after the left-hand side")) < 0)
			return err;
		first = 1;
	}
	if (t->info.kind == TNORM_TMPL_VALUE) {
		if ((err = parse_value(c, t, 1, &out->choice[1])) < 0)
			return err;
	} else {
		size_t nl = strlen(t->name), n;
		char b[64];
		skip_ws(c);
		n = ident_len(c->p, c->end);
		if (n != nl || memcmp(c->p, t->name, nl))
			return fail(c, c->p, "found %s, expected '%s'", shown(c->p, c->end, b, sizeof(b)), t->name);
		c->p += n;
		if ((err = expect_ch(c, '(', "'('")) < 0)
			return err;
		for (s = first; s < t->info.nslots; s++) {
			if (s > first) {
				skip_ws(c);
				if (c->p < c->end && *c->p == ')')
					return fail(c, c->p, "too few arguments to '%s', expected %u", t->name,
					            t->info.nslots - first);
				if ((err = expect_ch(c, ',', "','")) < 0)
					return err;
			}
			if (t->info.slot[s].kind == TNORM_SLOT_POOL)
				err = parse_instance(c, h, t->info.slot[s].pool, &out->choice[s]);
			else
				err = parse_value(c, t, s, &out->choice[s]);
			if (err < 0)
				return err;
		}
		skip_ws(c);
		if (c->p < c->end && *c->p == ',' && t->info.nslots > first)
			return fail(c, c->p, "too many arguments to '%s', expected %u", t->name,
			            t->info.nslots - first);
		if ((err = expect_ch(c, ')', "')'")) < 0)
			return err;
	}
	if (!at_end(c)) {
		char b[64];
		return fail(c, c->p, "found %s after the step, expected the end of the line or a # comment",
		            shown(c->p, c->end, b, sizeof(b)));
	}
	return 0;
}

/*
 * Could the step at `p` (its first word `n` bytes long; lhs_end: just past its '=', NULL when it
 * is no assignment) be an action of template t?  Its shape: an assignment to an instance of t's
 * left-hand side pool, of a call of t's name (or of a value), or a call of t's name.
 */
static int shape_matches(const tnorm_harness *h, const tnorm__tmpl *t, const cur *c,
                         const char *p, size_t n, const char *lhs_end)
{
	int is_assign = lhs_end != NULL;
	cur d = *c;
	if (t->info.has_lhs != is_assign)
		return 0;
	if (!is_assign)
		return strlen(t->name) == n && !memcmp(t->name, p, n);
	/* lhs pool must match and, for calls, the callee name */
	{
		const tnorm__pool *pl = &h->pools[t->info.slot[0].pool];
		size_t pn = strlen(pl->name);
		if (n <= pn || memcmp(p, pl->name, pn) || !isdigit((unsigned char)p[pn]))
			return 0;
	}
	d.p = lhs_end;
	skip_ws(&d);
	if (t->info.kind == TNORM_TMPL_CALL) {
		size_t m = ident_len(d.p, d.end);
		return m == strlen(t->name) && !memcmp(d.p, t->name, m);
	}
	return !(ident_len(d.p, d.end) > 0 && !is_null(d.p, d.end));
}

/* The error for a step at `p` (as shape_matches has it; `name` its first word, for messages)
 * that no template's shape matches.  TNORM_EPARSE. */
static int no_template(cur *c, const tnorm_harness *h, const char *p, size_t n,
                       const char *lhs_end, const char *name)
{
	uint32_t i;
	cur d = *c;
	if (!lhs_end)
		return fail(c, p, "unknown action '%s', expected one of the harness's templates", name);
	for (i = 0; i < h->npools; i++) {
		size_t pn = strlen(h->pools[i].name);
		if (n > pn && !memcmp(p, h->pools[i].name, pn) && isdigit((unsigned char)p[pn]))
			break;
	}
	if (i == h->npools)
		return fail(c, p, "unknown pool instance '%s', expected an instance of a pool the "
		            "harness declares", name);
	d.p = lhs_end;
	skip_ws(&d);
	return fail(c, d.p, "no template assigns '%s' like this, expected a value or a call "
	            "the harness allows for pool '%s'", name, h->pools[i].name);
}

int tnorm_harness_parse_action(const tnorm_harness *h, const char *text, size_t len,
                               tnorm_action *out, size_t *col)
{
	cur c;
	const char *p, *lhs_end = NULL;
	size_t n;
	uint32_t ti, tried = 0, best_col = 0;
	int err = TNORM_EPARSE;
	char best_msg[512] = "";
	char name[128];

	if (!h || !text || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_harness_parse_action: NULL argument");
	c.s = text;
	c.p = text;
	c.end = text + len;
	c.col = 0;
	skip_ws(&c);
	p = c.p;
	n = ident_len(p, c.end);
	if (n == 0) {
		char b[64];
		fail(&c, p, "found %s, expected a step such as 'NAME(...)' or 'POOLk = ...'",
		     shown(p, c.end, b, sizeof(b)));
		goto out_err;
	}
	/* Is it an assignment "x = ..."? */
	{
		cur d = c;
		d.p = p + n;
		skip_ws(&d);
		if (d.p < d.end && *d.p == '=')
			lhs_end = d.p + 1;
	}
	/* `name` is for messages only: names of any length are compared in full below. */
	snprintf(name, sizeof(name), "%.*s%s", (int)(n < 100 ? n : 100), p, n > 100 ? "..." : "");
	/* Try every template of the matching shape; keep the error that got furthest. */
	for (ti = 0; ti < h->ntmpls; ti++) {
		if (!shape_matches(h, &h->tmpls[ti], &c, p, n, lhs_end))
			continue;
		tried++;
		c.p = text;
		if ((err = parse_as(&c, h, ti, out)) == 0) {
			if (col)
				*col = 0;
			return 0;
		}
		if (err != TNORM_EPARSE)
			return err;
		if (c.col > best_col) {
			best_col = (uint32_t)c.col;
			snprintf(best_msg, sizeof(best_msg), "%s", tnorm_error_last()->message);
		}
	}
	if (!tried) {
		no_template(&c, h, p, n, lhs_end, name);
		goto out_err;
	}
	tnorm__error_set(TNORM_EPARSE, "%s", best_msg);
	c.col = best_col;
out_err:
	if (col)
		*col = c.col;
	return TNORM_EPARSE;
}

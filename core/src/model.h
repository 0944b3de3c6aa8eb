/* SPDX-License-Identifier: MIT */
/*
 * model.h (internal) - the in-memory shape of a harness and of a test, shared by harness*.c
 * (parsing, harness_internal.h), order.c (rank/unrank/render, slot counts), lex.c (string
 * literals, both ways) and test.c (tests).  harness*.c and test.c call order.c and lex.c;
 * order.c calls lex.c; lex.c calls neither.
 */
#ifndef TNORM__MODEL_H
#define TNORM__MODEL_H

#include "common.h"
#include "tnorm/harness.h"
#include "tnorm/order.h"
#include "tnorm/test.h"

/* A generated domain (issue 16): the strings over an alphabet with lengths minlen..maxlen, in
 * shortlex order (shorter first, then by the alphabet's order as written). */
typedef struct tnorm__gen {
	unsigned char alpha[256]; /* the letters, in order */
	int16_t pos[256];         /* each byte's place in alpha, or -1 */
	uint32_t nalpha, minlen, maxlen;
	uint64_t count;           /* <= TNORM_MAX_VALUES */
} tnorm__gen;

/* A set of values for a value slot: an integer range, a list of literals (integers, strings and
 * null, mixed), or a generated domain. */
typedef struct tnorm__vset {
	int is_range;
	int64_t lo, hi;         /* range, inclusive */
	tnorm_literal *lits;    /* list (strings point into the harness's own copies) */
	uint64_t nlits;
	tnorm__gen *gen;        /* a generated domain (owned), else NULL */
} tnorm__vset;

/* The string of rank v of a generated domain, into buf (TNORM_MAX_GEN_LEN + 1 bytes, NUL-ended);
 * returns its length.  v < g->count. */
size_t tnorm__gen_unrank(const tnorm__gen *g, uint64_t v, char *buf);

/* The rank of s[0..len) in g, or UINT64_MAX when it is not one of g's strings. */
uint64_t tnorm__gen_rank(const tnorm__gen *g, const char *s, size_t len);

typedef struct tnorm__tmpl {
	tnorm_template_info info; /* info.name points at `name` */
	char *name;
	tnorm__vset vset[TNORM_MAX_SLOTS]; /* for value slots */
	uint64_t pool_combos;              /* product of the pool slots' counts */
	uint64_t value_combos;             /* product of the value slots' counts */
	/* The guard (issue 16), `requires NAME(ARG, ...)`: guard_name is NULL when there is none.
	 * Per guard argument, the slot of this template whose value it names (<POOL>), or -1 for
	 * `_`; where NAME is written; and, once the file is read, the templates the guard matches
	 * (call templates of NAME with guard_nargs arguments and the same pools where it names
	 * them). */
	char *guard_name;
	char *guard_text; /* info.guard: `NAME(<POOL>, _)` as written, once the file is read */
	uint32_t guard_nargs, guard_line, guard_col;
	int32_t guard_slot[TNORM_MAX_SLOTS];
	uint32_t *guard_tmpls, guard_ntmpls;
} tnorm__tmpl;

typedef struct tnorm__pool {
	tnorm_pool_info info; /* info.name points at `name` */
	char *name;
} tnorm__pool;

struct tnorm_harness {
	char *name;
	tnorm__pool *pools;
	uint32_t npools;
	tnorm__tmpl *tmpls; /* action templates, then checks */
	uint32_t ntmpls, nchecks;
	uint64_t total;
	uint32_t nvars;
	char **strings; /* decoded string literals, owned */
	size_t nstrings;
	uint32_t nguards; /* templates with a guard */
};

struct tnorm_test {
	const tnorm_harness *h;
	tnorm_action *steps;
	uint32_t *lines;
	size_t len, cap;
};

/*
 * Guards (issue 16, guard.c).  A step of a template with a guard `requires NAME(ARGS)` may run
 * only after an earlier step of a template the guard matches whose slots held, where the guard
 * writes <POOL>, the same values as the guarded step's slots of those pools hold now.  A value
 * is what an instance holds: a value template's literal (equal literals are equal values, in
 * any instance), or the result of one call (the same object only: the same instance, not
 * assigned since).  The engine knows no more of the system's state than that.
 */
typedef struct tnorm__guards {
	const tnorm_harness *h;
	uint64_t *id;    /* per variable, what it holds: 0 nothing; a literal 1<<63 | tmpl<<32 |
	                  * choice; a call's result its step + 1 */
	uint64_t *args;  /* per step pushed, TNORM_MAX_SLOTS identities (0 for non-pool slots) */
	uint32_t *tmpl;  /* per step pushed, its template */
	size_t len, cap;
} tnorm__guards;

/* Start with no step.  0 or TNORM_ENOMEM (g is then disposable). */
int tnorm__guards_init(tnorm__guards *g, const tnorm_harness *h);
void tnorm__guards_dispose(tnorm__guards *g);

/* 1 when `a` may be the next step (no guard, or an earlier step meets it), else 0. */
int tnorm__guards_allow(const tnorm__guards *g, const tnorm_action *a);

/* Record `a` as the next step.  0 or TNORM_ENOMEM. */
int tnorm__guards_push(tnorm__guards *g, const tnorm_action *a);

/* The first step of `t` that breaks its guard into *out, SIZE_MAX when none does (always so for
 * a harness without guards).  0 or TNORM_ENOMEM. */
int tnorm__guards_first_broken(const tnorm_test *t, size_t *out);

/* The guard of template `tm` as written, `requires NAME(<POOL>, _)`, into b (appended); with
 * `a` (a step of tm), the step's instances in place of <POOL>: `NAME(kv0, _)`.  0 or ENOMEM. */
int tnorm__guard_text(tnorm__buf *b, const tnorm_harness *h, const tnorm__tmpl *tm,
                      const tnorm_action *a);

/* The bounds of a 64-bit integer, as messages about out-of-range integers print them. */
#define TNORM__INT64_MIN_TEXT "-9223372036854775808"
#define TNORM__INT64_MAX_TEXT "9223372036854775807"

/* Number of choices of slot `s` of template `t` (order.c). */
uint64_t tnorm__slot_count(const tnorm__tmpl *t, uint32_t s);

/* Action `a` of harness h in its canonical text (a test's step), appended to b (order.c).  0,
 * TNORM_EINVALID (no such template, a choice out of range), TNORM_ENOMEM. */
int tnorm__format_action(tnorm__buf *b, const tnorm_harness *h, const tnorm_action *a);

/* The canonical text of `t` (tnorm_test_format) into `b`, replacing what it held: a caller that
 * formats one candidate after another keeps one buffer.  0 or TNORM_ENOMEM (b keeps its memory,
 * for tnorm__buf_dispose). */
int tnorm__test_format_into(tnorm__buf *b, const tnorm_test *t);

/* String literals (lex.c).  Append the C-escaped, quoted form of s (len bytes, any) to b: 0 or
 * TNORM_ENOMEM. */
int tnorm__buf_put_quoted(tnorm__buf *b, const char *s, size_t len);

/* Decode the C-style string literal at p (on its opening quote) up to `end`: 0 with its bytes in
 * *out (*outlen of them; free with tnorm_free) and *after past the closing quote; 1 with *bad at
 * a bad escape or a line end after a backslash; 2 when it is not closed on its line (*bad NULL);
 * TNORM_ENOMEM. */
int tnorm__lex_string(const char *p, const char *end, char **out, size_t *outlen,
                      const char **after, const char **bad);

#endif

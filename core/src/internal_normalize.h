/* SPDX-License-Identifier: MIT */
/*
 * internal_normalize.h (internal) - the two rule sets behind tnorm_normalize(): the paper's
 * (normalize.c, which picks the set) and the call-level one (callnorm.c), and the rewrite core
 * both run on (rewrite.c).  normalize.c calls callnorm.c and rewrite.c; callnorm.c calls
 * rewrite.c; rewrite.c calls neither.
 */
#ifndef TNORM__INTERNAL_NORMALIZE_H
#define TNORM__INTERNAL_NORMALIZE_H

#include "tnorm/normalize.h"

/*
 * The call-level rules (callnorm.c).  Arguments as tnorm_normalize(); `st` must be zeroed by the
 * caller.  *unsuitable is set to 1 (and *out left NULL, 0 returned) when the input's canonical
 * lowering does not fail as the input does: the caller then uses the paper's rules.
 */
int tnorm__normalize_calls(tnorm_test **out, const tnorm_test *t, const tnorm_normalize_options *o,
                           tnorm_test_oracle oracle, void *ctx, tnorm_normalize_log log,
                           void *log_ctx, tnorm_normalize_stats *st, int *unsuitable);

/* Hashes of the candidates one rule application has asked about (both rule sets). */
typedef struct tnorm__seen {
	uint64_t *h;
	size_t n, cap;
} tnorm__seen;

/* 1 when `hv` was added before (since the last reset), else add it and return 0; TNORM_ENOMEM
 * (rewrite.c). */
int tnorm__seen_add(tnorm__seen *s, uint64_t hv);

/* What both rule sets' contexts start with: the harness, the options, the oracle, the log, the
 * statistics (all borrowed from tnorm_normalize's caller) and the candidates one rule
 * application has asked about (owned: its array is freed by the rule set). */
typedef struct tnorm__rewrite_base {
	const tnorm_harness *h;
	const tnorm_normalize_options *o;
	tnorm_test_oracle fn;
	void *ctx;
	tnorm_normalize_log log;
	void *lctx;
	tnorm_normalize_stats *st;
	tnorm__seen seen;
} tnorm__rewrite_base;

/* Fill b for a rewrite of test t (rewrite.c); `seen` starts empty. */
void tnorm__rewrite_base_init(tnorm__rewrite_base *b, const tnorm_test *t,
                              const tnorm_normalize_options *o, tnorm_test_oracle fn, void *ctx,
                              tnorm_normalize_log log, void *lctx, tnorm_normalize_stats *st);

/*
 * Algorithm 1's loop, shared by both rule sets: before each round the hooks see *cur (a known
 * normal form replaces it and ends the loop, stats->jumped = 1); the rules are applied in order
 * until one rewrites (apply returns 1; it updates *cur itself), then the order restarts; a rule
 * that rewrites nothing moves to the end.  Ends when no rule rewrites.  0 or <0 (rewrite.c).
 */
int tnorm__rule_loop(const tnorm_normalize_options *o, tnorm_test **cur, tnorm_normalize_stats *st,
                     const tnorm_rule *order, size_t nrules, int (*apply)(void *z, tnorm_rule rule),
                     void *z);

#endif

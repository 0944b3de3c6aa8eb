/* SPDX-License-Identifier: MIT */
/*
 * reduce.h - delete what a failing test does not need.
 *
 * Two layers.  The algorithms (ddmin, adaptive deletion) work on an abstract sequence of n units
 * and ask an oracle whether a subset is still "interesting" (fails the same way); they know
 * nothing of tests or processes.  tnorm_reduce_test() applies them to the steps of a harness test,
 * after two cheap pre-passes (shortest failing prefix; convention-aware slicing ℓ0/ℓ1/ℓ2, each
 * level verified by one oracle call), and only ever asks the oracle about well-formed candidates.
 * The process-running side (confirming the original, caching, best-so-far files, slippage) is in
 * session.h.
 *
 * Defined in: reduce.c (the algorithms and the test layer), slice.c (tnorm_slice).
 */
#ifndef TNORM_REDUCE_H
#define TNORM_REDUCE_H

#include "test.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Oracle over units: is the subset `keep` (nkeep unit indices, ascending) interesting?  Set
 * *interesting to 1 or 0 and return 0; return a negative code to stop the reduction (the code is
 * passed up: e.g. TNORM_EINTERRUPTED on Ctrl-C, TNORM_ETIMEOUT when a budget ran out).
 */
typedef int (*tnorm_unit_oracle)(void *ctx, const size_t *keep, size_t nkeep, int *interesting);

typedef enum tnorm_reduce_algo {
	TNORM_ALGO_DEFAULT = 0,  /**< the default where it is used: adaptive deletion, but ddmin for
	                              normalization's reductions (normalize.h) */
	TNORM_ALGO_DDMIN = 1,    /**< Zeller–Hildebrandt ddmin */
	TNORM_ALGO_ADAPTIVE = 2  /**< adaptive deletion: random order, exponential probe, bisection */
} tnorm_reduce_algo;

/** Parse "ddmin" or "adaptive".  0 or TNORM_EINVALID. */
TNORM_EXTERN int tnorm_reduce_algo_parse(const char *s, tnorm_reduce_algo *out);

/**
 * Reduce n units (the whole set is assumed interesting) to a 1-minimal interesting subset.
 * *keep receives the kept unit indices, ascending (free with tnorm_free), *nkeep their count,
 * *calls (may be NULL) how many oracle calls were made.  `seed` fixes adaptive deletion's order.
 * On an oracle error the best subset found so far is still returned in *keep together with the
 * error code.  TNORM_ENOMEM, TNORM_EINVALID.
 */
TNORM_EXTERN int tnorm_reduce_units(size_t n, tnorm_reduce_algo algo, uint64_t seed,
                                    tnorm_unit_oracle oracle, void *ctx, size_t **keep,
                                    size_t *nkeep, uint64_t *calls);

/** Oracle over tests: is this (well-formed) candidate interesting?  As tnorm_unit_oracle. */
typedef int (*tnorm_test_oracle)(void *ctx, const tnorm_test *cand, int *interesting);

/**
 * A batch oracle: the same question for `n` independent candidates at once (so that they can run
 * in parallel); interesting[i] answers cands[i].  Answers must not depend on how many run at
 * once.  Returns 0 or the first error, as the single oracle does.
 */
typedef int (*tnorm_test_batch_oracle)(void *ctx, const tnorm_test *const *cands, size_t n,
                                       int *interesting);

/** Slicing levels (001's ℓ0, ℓ1, ℓ2). */
typedef enum tnorm_slice_level {
	TNORM_SLICE_L0 = 0, /**< pure calls and calls whose result is stored modify nothing */
	TNORM_SLICE_L1 = 1, /**< every non-pure call modifies its non-const arguments */
	TNORM_SLICE_L2 = 2  /**< no slicing */
} tnorm_slice_level;

/**
 * The backward slice of `t` from its last step at `level`: a new test with the steps that the
 * last step depends on through def/use (free with tnorm_test_free).  At TNORM_SLICE_L2 a copy.
 */
TNORM_EXTERN int tnorm_slice(tnorm_test **out, const tnorm_test *t, tnorm_slice_level level);

/* Version 2: 0 is the default in every field (TNORM_ALGO_DEFAULT is 0).  As in every tnorm
 * options struct, 0 in a field means its default and a negative number turns off what is on by
 * default (docs/architecture.md, "Options structs"); held in another options struct (pipeline,
 * normalize), its version may be 0: the current one. */
#define TNORM_REDUCE_OPTIONS_VERSION 2

typedef struct tnorm_reduce_options {
	unsigned version;
	tnorm_reduce_algo algo; /**< 0: TNORM_ALGO_DEFAULT (adaptive) */
	int prefix;             /**< first cut to the shortest failing prefix: 0 (default) or 1;
	                             -1: not */
	int slice;              /**< slicing pre-pass ℓ0 → ℓ1 → ℓ2: 0 (default) or 1; -1: none */
	uint64_t seed;          /**< for adaptive deletion (0: the default, 1) */
} tnorm_reduce_options;

#define TNORM_REDUCE_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_reduce_options, TNORM_REDUCE_OPTIONS_VERSION)

/** What a test reduction did. */
typedef struct tnorm_reduce_stats {
	uint64_t calls;          /**< oracle calls */
	uint64_t skipped;        /**< candidates rejected as not well-formed (no call made) */
	int slice_level;         /**< level the slicing pre-pass settled on (2 = none) */
	size_t after_prefix;     /**< length after the prefix pre-pass */
	size_t after_slice;      /**< length after slicing */
} tnorm_reduce_stats;

/**
 * Reduce a harness test to a 1-minimal one (no single step can be removed) that the oracle
 * still calls interesting.  `t` itself is assumed interesting.  *out receives the result (free
 * with tnorm_test_free); on an oracle error it holds the best test so far and the error code is
 * returned.  `st` may be NULL.
 */
TNORM_EXTERN int tnorm_reduce_test(tnorm_test **out, const tnorm_test *t,
                                   const tnorm_reduce_options *opts, tnorm_test_oracle oracle,
                                   void *ctx, tnorm_reduce_stats *st);

#ifdef __cplusplus
}
#endif
#endif

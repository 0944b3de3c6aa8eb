/* SPDX-License-Identifier: MIT */
/*
 * normalize.h - rewrite a failing test into a canonical form (term rewriting over test actions).
 *
 * Algorithm 1 of Groce et al.'s normalization: try the rewrite rules in order; the first
 * candidate that still fails (the oracle says "interesting") becomes the new test, reduced again;
 * a rule that yields nothing moves to the end of the order; stop when no rule applies.  Every
 * accepted rewrite moves the test strictly down in the order (length, then the sorted multiset of
 * action indices, then the sequence of action indices), which guarantees termination; the candidates are enumerated in a fixed order, so the same test,
 * program and policy always give the same normal form.
 */
#ifndef TNORM_NORMALIZE_H
#define TNORM_NORMALIZE_H

#include "reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The rewrite rules.  The default order is this one, except that Rewire comes before
 *  ReduceAction (see docs/normalization.md). */
typedef enum tnorm_rule {
	TNORM_RULE_SIMPLIFY_ALL = 0,  /**< t[a -> a'], a' < a: every occurrence of an action */
	TNORM_RULE_REPLACE_POOL = 1,  /**< t(i,j)[q -> p], p < q: an instance by a lower one in a range;
	                                   also ReplaceMovePool, checked in the same loop */
	TNORM_RULE_SIMPLIFY_SINGLE = 2, /**< one step's action by a lower one */
	TNORM_RULE_SWAP_POOL = 3,     /**< swap two instances within a range of steps */
	TNORM_RULE_SWAP_ACTION = 4,   /**< swap two steps, the lower action first */
	TNORM_RULE_REDUCE_ACTION = 5, /**< replace one step by another action if reduction then
	                                   makes the test shorter */
	TNORM_RULE_MOVE_ACTION = 6,   /**< (extension) move a step earlier, before a higher action */
	TNORM_RULE_REWIRE = 7,        /**< (extension, SimpleTest) one use of an instance rewired to
	                                   another instance of its pool assigned earlier, kept when
	                                   the test gets lower (or, then reduced, shorter) */
	TNORM_RULE_REPLACE_CALL = 8,  /**< (call rules) a call by one of a lower template of compatible
	                                   shape, arguments carried over */
	TNORM_RULE_SHIFT_VALUES = 9,  /**< (call rules) the values of one pool lowered together: integers
	                                   minus one amount, a character lowered in every string */
	TNORM_RULE_DELETE_PAIR = 10,  /**< (call rules) two calls removed at once where no single one can
	                                   go */
	TNORM_RULE_COUNT = 11
} tnorm_rule;

/** Which rewrite system tnorm_normalize() runs. */
typedef enum tnorm_rules {
	/** (default) Rules over what each call receives: values inlined, objects numbered in order
	 *  of creation, the printed test derived by one canonical lowering (docs/normalization.md). */
	TNORM_RULES_CALLS = 0,
	/** The paper's seven rules over the pool program, plus MoveAction and Rewire. */
	TNORM_RULES_PAPER = 1
} tnorm_rules;

/** The rule's name as in the paper ("SimplifyAll", ...).  Static; never free it. */
TNORM_EXTERN const char *tnorm_rule_name(tnorm_rule r);

/* Version 2: 0 is the default in every field (max_alternatives, max_reduce_alternatives, reduce,
 * rewire).  As in every tnorm options struct, 0 in a field means its default and a negative
 * number turns off what is on by default (docs/architecture.md, "Options structs"); `reduce`
 * needs no version of its own (0 there is the current one), and so does this struct held in a
 * pipeline's options. */
#define TNORM_NORMALIZE_OPTIONS_VERSION 2

typedef struct tnorm_normalize_options {
	unsigned version;
	/** Which replacement actions SimplifyAll/SimplifySingle/ReduceAction try for an action:
	 *  0 (default) those of the same template, 1 every lower action of the harness. */
	int wide;
	/** At most this many replacement actions per action, lowest first (0: the default, 256). */
	unsigned max_alternatives;
	/** If nonzero, only replacements whose text is within this edit distance. */
	unsigned max_edit;
	/** ReduceAction tries at most this many replacements per step, lowest first (default 16):
	 *  each interesting one costs a reduction, so this bounds the final, fruitless pass.  0: the
	 *  default. */
	unsigned max_reduce_alternatives;
	/** Options for the reduction after each accepted rewrite (its TNORM_ALGO_DEFAULT, 0, is
	 *  ddmin here). */
	tnorm_reduce_options reduce;
	/** Optional: a known normal form for `t` (e.g. from the cross-test database): set *normal
	 *  to a new test (the normalizer frees it) and return 0, or leave it NULL.  Asked for the
	 *  input and after every accepted rewrite; a known form ends the normalization there. */
	int (*known)(void *hook_ctx, const tnorm_test *t, tnorm_test **normal);
	/** Optional: called with the input and every test the normalization passes through. */
	int (*visited)(void *hook_ctx, const tnorm_test *t);
	void *hook_ctx;
	/** 0 (default) or 1: use the Rewire rule (002's SimpleTest as a rewrite rule); -1: not. */
	int rewire;
	/** The rule set (0: the default, TNORM_RULES_CALLS).  `wide`, `max_alternatives`, `max_edit` and
	 *  `max_reduce_alternatives` apply to TNORM_RULES_PAPER only. */
	tnorm_rules rules;
} tnorm_normalize_options;

#define TNORM_NORMALIZE_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_normalize_options, TNORM_NORMALIZE_OPTIONS_VERSION)

/**
 * Called for every accepted rewrite: the rule and a one-line description
 * ("int0 = 10 -> int0 = 2", "avl1 -> avl0 (steps 0..9)", ...).  Strings are borrowed for the call.
 */
typedef void (*tnorm_normalize_log)(void *ctx, tnorm_rule rule, const char *what);

/** Counters of one normalization. */
typedef struct tnorm_normalize_stats {
	uint64_t candidates;  /**< well-formed, lower candidates asked about */
	uint64_t rewrites;    /**< accepted rewrites */
	uint64_t per_rule[TNORM_RULE_COUNT]; /**< accepted rewrites per rule */
	uint64_t asked[TNORM_RULE_COUNT];    /**< candidates asked about, per rule */
	int jumped;           /**< 1 when a known normal form (the `known` hook) ended it */
	int paper;            /**< 1 when the paper's rules ran: asked for, or the call rules' lowering
	                           of the input did not fail as the input does */
	uint64_t capped;      /**< searches a cap cut short: replacement lists at max_alternatives or
	                           max_reduce_alternatives (paper), characters of a string past the
	                           8th not lowered (calls) */
} tnorm_normalize_stats;

/**
 * Normalize `t` (which the oracle must find interesting).  *out receives the normal form (free
 * with tnorm_test_free); when the oracle stops early (Ctrl-C, a budget) *out holds the best test so
 * far and the oracle's code is returned.  `log` and `st` may be NULL.
 */
TNORM_EXTERN int tnorm_normalize(tnorm_test **out, const tnorm_test *t,
                                 const tnorm_normalize_options *opts, tnorm_test_oracle oracle,
                                 void *ctx, tnorm_normalize_log log, void *log_ctx,
                                 tnorm_normalize_stats *st);

#ifdef __cplusplus
}
#endif
#endif

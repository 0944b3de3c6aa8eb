/* SPDX-License-Identifier: MIT */
/*
 * generic.h - failing files without a harness: reduction and normalization of plain bytes.
 *
 * A generic test is any file, text or binary.  Both operations only ever move it down in one
 * total order, **shortlex**: a shorter string is lower, and among strings of one length the one
 * with the smaller byte at the first difference is lower.  The order is well-founded (finitely
 * many strings lie below any string), so both terminate.
 *
 * Reduction deletes: the file viewed as lines, then tokens (a run of letters, digits and '_', or
 * one other character, each with the blanks that follow it), then bytes, each view with the
 * chosen deletion algorithm to a fixpoint (no single unit can go), the lines before any finer
 * view.  With adaptive deletion, a view of 1024 units or more (a big file's lines) is reduced
 * by lithium's halving schedule instead: runs of a power of two units, halved down to single
 * units, deleted from the start; on a file that needs a few of many lines this takes about
 * half the runs of adaptive deletion, whose probes pay for both ends of every run it deletes
 * (a 1 MB file that needs 2 of 35,700 lines: 97 runs in all, lithium's two passes 101).  With `chunks`, in text with brackets or quotes, once
 * no single token can go, the balanced runs (brackets nest, quotes pair) of 2..8, 16, 32, ...
 * tokens that start and end at seams (after an opening bracket or a separator `,` `;` newline;
 * at a separator or before a closing bracket), not inside a call's parentheses (a `(` right
 * after a word) and not all of a line but its newline, are tried at every position, and each
 * success sends the tokens view back to
 * single-token deletion.  This is what removes a chunk such
 * as `"a":[{}],` from structured text, where every single token is needed for the text to parse.
 * Then (also with `chunks`) the hoisting pass replaces a bracketed value by one of its pieces (the
 * runs between `,` `:` `;` at its level), outermost first: `{"m":{"":[{}]}}` becomes `{"":[{}]}`,
 * which deleting runs cannot do; each success goes back to deletion.
 *
 * Normalization rewrites what reduction left, every rewrite going down in shortlex: decimal
 * integers lowered by binary search (`8` -> `0`, `-17` -> `0`), a word's characters lowered
 * to `a`, `A` or `0` (the whole word at once, then one character at a time; a word already at
 * those, to all `0`), other printable
 * characters to a space, control and high bytes toward 0x00 by binary search (in binary data,
 * a string with a control byte or bytes that are not UTF-8, every byte so), a
 * word replaced by an earlier, lower word of the same class (number or name), adjacent
 * lines, or adjacent blank-separated words, sorted, and, once those lower nothing, every copy
 * of one integer lowered at once (`detach 2` twice), then every copy of one byte value replaced
 * at once by a lower value (which no change at one place can do when
 * each single change breaks the failure: `0000e0-` -> `-------` in a number), and, in a form of
 * at most 16 bytes, each byte at every lower value, lowest first (the scan: the values that keep
 * a failure need not form an interval, so neither a class minimum nor a binary search finds the
 * lowest; `[](0`, `[](*` and `[](.` of one bug all end as `[](!`).  The rules run in that order, in rounds;
 * deletion runs again after the integer rule lowered something (a lowered index can free the
 * lines it needed) and at the end of a round that rewrote anything after that (the bytes view
 * only when lines or tokens went); normalization stops after a round that lowered nothing.  Two files of one fault that differ only in
 * content the failure does not need thus end in the same bytes.
 *
 * Every candidate goes through the caller's oracle (in tnorm, tnorm_session_check: the
 * signature guard, cache, budgets and best-so-far file).  Both functions are deterministic for a
 * given input, seed and oracle.
 */
#ifndef TNORM_GENERIC_H
#define TNORM_GENERIC_H

#include "reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Views for generic reduction, as bits. */
#define TNORM_VIEW_LINES 1u
#define TNORM_VIEW_TOKENS 2u
#define TNORM_VIEW_BYTES 4u
#define TNORM_VIEW_ALL 7u

/** Generic normalization's rewrites, as bits (TNORM_GENERIC_RULE_* numbers them). */
typedef enum tnorm_generic_rule {
	TNORM_GENERIC_RULE_DELETE = 0,      /**< deletion (the reduction, rerun after rewrites) */
	TNORM_GENERIC_RULE_INTEGER = 1,     /**< a decimal integer lowered (binary search) */
	TNORM_GENERIC_RULE_WORD = 2,        /**< a word's characters lowered toward a / A / 0 */
	TNORM_GENERIC_RULE_BYTE = 3,        /**< another byte lowered: printable to ' ', else to 0 */
	TNORM_GENERIC_RULE_REPLACE = 4,     /**< a word replaced by an earlier, lower word of its class */
	TNORM_GENERIC_RULE_SORT_LINES = 5,  /**< two adjacent lines swapped, the lower first */
	TNORM_GENERIC_RULE_SORT_WORDS = 6,  /**< two adjacent blank-separated words swapped */
	TNORM_GENERIC_RULE_COPIES = 7,      /**< every copy of one integer, or one byte value, at once */
	TNORM_GENERIC_RULE_SCAN = 8,        /**< in a short form, a byte at every lower value, lowest first */
	TNORM_GENERIC_RULE_COUNT = 9
} tnorm_generic_rule;

/** "delete", "integer", "word", "byte", "replace", "sort-lines", "sort-words", "copies",
 * "scan".  Static. */
TNORM_EXTERN const char *tnorm_generic_rule_name(tnorm_generic_rule r);

#define TNORM_GENERIC_ALL_RULES 0x1ffu

/**
 * Oracle over byte strings: is `data` (len bytes; data[len] is readable and 0) interesting?  Set
 * *interesting and return 0, or return a negative code to stop (it is passed up).
 */
typedef int (*tnorm_bytes_oracle)(void *ctx, const char *data, size_t len, int *interesting);

/**
 * Compare two byte strings in shortlex order: <0 when a is lower, 0 when equal, >0 when higher.
 */
TNORM_EXTERN int tnorm_shortlex_cmp(const void *a, size_t alen, const void *b, size_t blen);

/* Version 2: `scan_full`; version 3: 0 is the default in every field (algo, seed, chunks,
 * rules).  As in every tnorm options struct, 0 in a field means its default and a negative number
 * turns off what is on by default (docs/architecture.md, "Options structs"); held in a pipeline's
 * options, its version may be 0: the current one. */
#define TNORM_GENERIC_OPTIONS_VERSION 3

typedef struct tnorm_generic_options {
	unsigned version;       /**< TNORM_GENERIC_OPTIONS_VERSION */
	tnorm_reduce_algo algo; /**< deletion in each view (0: TNORM_ALGO_DEFAULT, adaptive) */
	uint64_t seed;          /**< adaptive deletion's order (0: the default, 1) */
	unsigned views;         /**< TNORM_VIEW_* bits (0: the default, TNORM_VIEW_ALL) */
	int chunks;             /**< the chunk and hoisting passes in the tokens view: 0 (default)
	                         *   or 1; -1: not */
	unsigned rules;         /**< normalization: bits (1u << TNORM_GENERIC_RULE_*) (0: the
	                         *   default, TNORM_GENERIC_ALL_RULES) */
	size_t scan_full;       /**< 0 (default): the scan tries every lower value only in text of at
	                         *   most 4 bytes; N: in any form of at most N bytes, text or binary,
	                         *   every lower value of every byte, lowest first, in place of the
	                         *   cheaper passes (the polish of tnorm triage: a form no single-byte
	                         *   lowering still fails in; up to a run per lower value of a byte) */
} tnorm_generic_options;

#define TNORM_GENERIC_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_generic_options, TNORM_GENERIC_OPTIONS_VERSION)

/** What a generic reduction or normalization did. */
typedef struct tnorm_generic_stats {
	uint64_t calls;    /**< oracle calls (a caching oracle answers some without a run) */
	uint64_t rewrites; /**< accepted rewrites other than deletions (normalization) */
	uint64_t chunks;   /**< runs of units the chunk pass deleted, and values hoisted */
	uint64_t per_rule[TNORM_GENERIC_RULE_COUNT]; /**< accepted candidates per rule */
} tnorm_generic_stats;

/**
 * Reduce `data` (len bytes, assumed interesting) by deletion.  *out receives the result, NUL
 * terminated (free with tnorm_free), *outlen its length; on an oracle error (a budget, Ctrl-C)
 * *out still holds the best result so far and the error is returned.  `o` and `st` may be NULL
 * (defaults; no statistics).  0, the oracle's error, TNORM_EINVALID (another options version,
 * NULL arguments), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_generic_reduce(const char *data, size_t len, const tnorm_generic_options *o,
                                      tnorm_bytes_oracle oracle, void *ctx, char **out,
                                      size_t *outlen, tnorm_generic_stats *st);

/**
 * Normalize `data` (assumed interesting): the rewrites selected in o->rules, with deletion
 * after every pass that accepted one, until no rule lowers it.  The result is never higher in
 * shortlex than `data`.  Output, errors and ownership as tnorm_generic_reduce.
 */
TNORM_EXTERN int tnorm_generic_normalize(const char *data, size_t len,
                                         const tnorm_generic_options *o, tnorm_bytes_oracle oracle,
                                         void *ctx, char **out, size_t *outlen,
                                         tnorm_generic_stats *st);

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: MIT */
/*
 * generalize.h - say what in a (normalized) failing test is accidental.
 *
 * Algorithm 2 of Groce et al.: for every step, which other actions could stand there with the
 * failure kept (replacements), and which later steps it can swap with.  The result renders as the
 * annotated test of the paper's Figure 2 — still a valid test, since annotations are comments.
 * Algorithm 3 adds fresh values: an instance a step uses, assigned anew right before it.  The
 * experiments of each algorithm are independent: tnorm_generalize_batch() asks about them in
 * batches (run in parallel by tnorm_session_test_batch_oracle), and records the answers in a fixed
 * order, so the result does not depend on the number of jobs.
 */
#ifndef TNORM_GENERALIZE_H
#define TNORM_GENERALIZE_H

#include "reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tnorm_generalization tnorm_generalization;

/* Version 2: 0 is the default in every field (max_alternatives, fresh, sample: now an int).  As in
 * every tnorm options struct, 0 in a field means its default and a negative number turns off
 * what is on by default (docs/architecture.md, "Options structs"). */
#define TNORM_GENERALIZE_OPTIONS_VERSION 2

typedef struct tnorm_generalize_options {
	unsigned version;
	/** Replacements tried per step: actions of the same template above the step's own (lower
	 *  ones are not tried: the test is normalized, so normalization tried them and none kept
	 *  the failure), at most this many, lowest first (0: the default, 4096). */
	unsigned max_alternatives;
	/** 0 (default) or 1: also Algorithm 3, fresh values: a used instance assigned anew right
	 *  before a step, pruned of redundant ones (section 2.2.2).  -1: not. */
	int fresh;
	/** Large domains: when a step has more than twice this many well-formed replacements, or an
	 *  instance more than twice this many fresh values, only this many are tried — the lowest half, then the rest spread evenly
	 *  up to the highest — and the rendering says so ("# (a sample: 16 of 998 ...)"); a range is
	 *  then folded across values not tried when no value tried between its ends failed.  0: the
	 *  default, 16.  -1: try them all (up to max_alternatives). */
	int sample;
} tnorm_generalize_options;

#define TNORM_GENERALIZE_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_generalize_options, TNORM_GENERALIZE_OPTIONS_VERSION)

/**
 * Run the experiments on `t` (which the oracle must find interesting).  *out receives the result
 * (free with tnorm_generalization_free); it borrows `t`'s harness.  Oracle errors are returned.
 */
TNORM_EXTERN int tnorm_generalize(tnorm_generalization **out, const tnorm_test *t,
                                  const tnorm_generalize_options *opts, tnorm_test_oracle oracle,
                                  void *ctx);

/**
 * The same with a batch oracle: each algorithm's experiments are asked about in one batch (the
 * answers of Algorithm 2 prune those of Algorithm 3).  Same result as tnorm_generalize with the
 * equivalent single oracle.
 */
TNORM_EXTERN int tnorm_generalize_batch(tnorm_generalization **out, const tnorm_test *t,
                                        const tnorm_generalize_options *opts,
                                        tnorm_test_batch_oracle batch, void *ctx);

/** Free a result.  NULL is a no-op. */
TNORM_EXTERN void tnorm_generalization_free(tnorm_generalization *g);

/** Number of alternative actions found for step i, and alternative k (action index). */
TNORM_EXTERN size_t tnorm_generalization_alternatives(const tnorm_generalization *g, size_t i);
TNORM_EXTERN uint64_t tnorm_generalization_alternative(const tnorm_generalization *g, size_t i,
                                                       size_t k);

/** 1 when steps i and j (i != j) can be swapped with the failure kept. */
TNORM_EXTERN int tnorm_generalization_swaps(const tnorm_generalization *g, size_t i, size_t j);

/**
 * The annotated test in the style of the paper's Figure 2: each step followed by `# STEP k`, its
 * alternatives as `# or ...` (runs of consecutive values folded as `# or A` / `# - B`), `# swaps
 * with step(s) ...`, `#[` ... `#] (steps in [] can be in any order)` around maximal runs of
 * mutually swappable steps, and fresh values as `# or (` / `# x = v ;` / `# STEP TEXT` / `# )`.  It parses as the same test.  *out is freed with tnorm_free().
 */
TNORM_EXTERN int tnorm_generalization_format(const tnorm_generalization *g, char **out);

/**
 * The same facts as JSON: `{"steps": [{"step": k, "action": TEXT, "alternatives": [TEXT...],
 * "fresh": [TEXT...], "swaps_with": [j...]}...]}`, keys in that order, one line, valid UTF-8
 * (a byte of a string literal that is not UTF-8 becomes U+FFFD; see tnorm_text_utf8).
 * On success *out is a new NUL-terminated string owned by the caller, freed with tnorm_free();
 * on error *out is NULL.  0, TNORM_EINVALID (NULL argument) or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_generalization_json(const tnorm_generalization *g, char **out);

/** One step of a test text and the notes under it (tnorm_generalization_read). */
typedef struct tnorm_annotated_step {
	char *action;  /**< the step's text, without its trailing comment ("# STEP k") */
	char **notes;  /**< the comment lines under the step, each without its '#' and blanks */
	size_t nnotes; /**< number of notes */
} tnorm_annotated_step;

/**
 * Read back the steps of a test text and the notes that tnorm_generalization_format writes under
 * each (a plain test has steps without notes), as a debugger shows them while stepping: blank
 * lines and comments before the first step (the legend), `#[` and `# generated...` lines are
 * skipped; `#]` becomes the note "ends a block of steps that can be in any order"; a `# - B`
 * under a note `or A` joins it ("or A ... B", a range); any other comment line under a step is
 * a note as written.  Steps are not parsed against a harness: any line that is not a comment is
 * a step.
 * @param out  receives an array of *n steps (NULL when there are none), each string
 *             NUL-terminated; free it with tnorm_annotated_steps_free(*out, *n).
 * @param text the test text, `len` bytes (NUL bytes are kept within a line).
 * @return 0; TNORM_EINVALID (NULL argument); TNORM_ENOMEM (*out NULL, *n 0).
 */
TNORM_EXTERN int tnorm_generalization_read(tnorm_annotated_step **out, size_t *n, const char *text,
                                           size_t len);

/** Free what tnorm_generalization_read returned (`n` steps); NULL is a no-op. */
TNORM_EXTERN void tnorm_annotated_steps_free(tnorm_annotated_step *steps, size_t n);

#ifdef __cplusplus
}
#endif
#endif

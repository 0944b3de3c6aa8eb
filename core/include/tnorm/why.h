/* SPDX-License-Identifier: MIT */
/*
 * why.h - where is the bug?  Rank the source lines that make a normal form fail (issue 29).
 *
 * The normal form and its neighbours (tests one small edit away: a line or a byte deleted, a
 * byte or an integer changed) are run with line coverage (tnorm_runner_set_coverage): the ones
 * that still fail with the normal form's signature, and the ones that pass.  Each line the normal
 * form executed is scored by how well executing it separates the two (Ochiai: ef / sqrt(F *
 * (ef + ep))); among equal scores, a line on the failure's stack comes first, then the line the
 * failure stopped at.  docs/why.md has the reasons and the limits.
 *
 * Defined in: why.c (the job), why_output.c (its result as JSON and as the table of lines).
 */
#ifndef TNORM_WHY_H
#define TNORM_WHY_H

#include "common.h"
#include "runner.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2: `known`, `nknown`; version 3: 0 is the default in every field (`run`'s too). */
#define TNORM_WHY_OPTIONS_VERSION 3

/** Options.  Initialize with TNORM_WHY_OPTIONS_INIT.  As in every tnorm options struct, 0 in a
 *  field means its default (docs/architecture.md, "Options structs"); `run` needs no version of
 *  its own: 0 there is the current one. */
typedef struct tnorm_why_options {
	unsigned version;         /**< TNORM_WHY_OPTIONS_VERSION */
	const char *const *argv;  /**< CMD ARGS..., NULL-terminated ({} or @@: the test's path) */
	tnorm_run_options run;    /**< how the program runs (a zero timeout: 10 s; negative: none) */
	int text_steps;           /**< 1: the test is a harness test (lines are steps): neighbours
	                               delete a line or change an integer; 0: bytes (a byte
	                               deleted or changed) */
	size_t max_neighbours;    /**< at most this many neighbours are run (0: 400) */
	const volatile int *cancel; /**< stops the job (TNORM_EINTERRUPTED); may be NULL */
	/** Tests already run near the normal form, with their outcomes: what its minimization ran
	 *  one edit away from it (tnorm_pipeline_options.keep_near), borrowed.  They are the first
	 *  neighbours, before those tnorm_why makes itself (duplicates once), each run once more
	 *  for its coverage; `reused` in the result counts them.  NULL: none. */
	const tnorm_tested *known;
	size_t nknown;
} tnorm_why_options;

#define TNORM_WHY_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_why_options, TNORM_WHY_OPTIONS_VERSION)

/** One ranked line. */
typedef struct tnorm_why_line {
	char *file;        /**< the source file as the line table names it (owned) */
	uint32_t line;
	char *function;    /**< the function the line's code is in (owned), NULL if unknown */
	double score;      /**< tnorm's score: Ochiai, ties broken as described above */
	double ochiai;     /**< plain Ochiai */
	unsigned failing;  /**< failing runs that executed it (the normal form's included) */
	unsigned passing;  /**< passing runs that executed it */
	int on_stack;      /**< 2: the failure stopped at this line (the throwing frame's); 1:
	                        another frame of the failure's signature is at it; 0: neither */
} tnorm_why_line;

/** One neighbour that was run. */
typedef struct tnorm_why_neighbour {
	char *test;            /**< its bytes (owned, NUL-terminated) */
	size_t len;
	tnorm_outcome outcome; /**< what the run came to */
	int same;              /**< 1: failed with the normal form's signature */
	int reused;            /**< 1: one of the options' `known` tests */
} tnorm_why_neighbour;

/** A neighbour's outcome as a word: "fail" (with the normal form's signature),
 *  "other-failure", or tnorm_outcome_name's ("pass", "invalid", "timeout", "error").  Static. */
TNORM_EXTERN const char *tnorm_why_outcome(const tnorm_why_neighbour *n);

/** What tnorm_why found.  Dispose with tnorm_why_result_dispose(). */
typedef struct tnorm_why_result {
	char *signature;              /**< the normal form's signature text (owned) */
	tnorm_why_line *lines;        /**< best first (owned) */
	size_t nlines;
	tnorm_why_neighbour *neighbours; /**< in the order they were made (owned) */
	size_t nneighbours;
	unsigned failing, passing;    /**< failing runs (the normal form's included), passing runs */
	size_t runs;                  /**< runs made */
	double seconds;               /**< wall time of the job */
	size_t reused;                /**< neighbours taken from `known` (the first ones) */
	size_t disagreed;             /**< of them, those whose coverage run came to another
	                                   outcome than the one known (a flaky neighbour: its new
	                                   outcome is the one counted) */
} tnorm_why_result;

/**
 * Rank the lines of `test` (its bytes, `len` of them: the normal form).  Fills *res (dispose it,
 * whatever the return).
 * @return 0; TNORM_EINVALID (NULL argument, another options version, no argv); TNORM_ENOTFAIL
 *         (the test does not fail); TNORM_ENOTFOUND (the program has no line table: build it
 *         with -g); TNORM_EINTERRUPTED; TNORM_EIO; TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_why(const tnorm_why_options *o, const char *test, size_t len,
                           tnorm_why_result *res);

/** Free what a result owns and zero it. */
TNORM_EXTERN void tnorm_why_result_dispose(tnorm_why_result *res);

/**
 * The result as one JSON object on one line (no newline): what `tnorm why --json` prints and the
 * Python binding's why() returns (docs/commands/why.md lists the keys): signature, lines (file,
 * line, function, score, ochiai, failing, passing, on_stack; best first), neighbours (test,
 * with test_hex when its bytes are not all text, outcome, reused), failing, passing, runs,
 * reused, seconds.
 * @param out receives the text; free it with tnorm_free()
 * @return 0; TNORM_EINVALID (NULL argument); TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_why_result_json(char **out, const tnorm_why_result *res);

/**
 * The result as the text `tnorm why` prints and the plugins' `tnorm why` shows: the signature,
 * the runs, then the `top` best lines (0: all), each with its rank, score, counts, place and its
 * source text (read from the file the line table names; blank when it cannot be read).  Each
 * ranked line is two lines of the text, after the header line "rank  score  fail pass  where", so
 * the text for a smaller `top` is a prefix of the text for a larger one (the plugins cut it).
 * @param out receives the text, lines ending in newlines; free it with tnorm_free()
 * @return 0; TNORM_EINVALID (NULL argument, a result without a signature); TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_why_result_text(char **out, const tnorm_why_result *res, size_t top);

#ifdef __cplusplus
}
#endif
#endif

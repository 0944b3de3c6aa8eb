/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - random testing from a harness: run well-formed random tests, keep the failing ones.
 *
 * Seed after seed (seed, seed+1, ...), the random test of the harness with that seed
 * (tnorm_test_generate) is run once; each failing test is written to the corpus folder as
 * DIR/fail-SEED.t, with its signature on one line in DIR/fail-SEED.sig, until the run budget,
 * the time budget or the failure budget runs out, or the caller stops it.  The folder is what
 * tnorm_triage_run takes.  This is what `tnorm fuzz` runs; the caller keeps the user interface
 * (a progress callback sees every run), the job returns facts.  Existing files of the folder
 * other than the fail-SEED files it writes are left alone.
 */
#ifndef TNORM_FUZZ_H
#define TNORM_FUZZ_H

#include "runner.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a progress report is about. */
typedef enum tnorm_fuzz_event {
	TNORM_FUZZ_EVENT_START = 0, /**< the harness is loaded; nothing is run or written yet */
	TNORM_FUZZ_EVENT_RUN = 1    /**< a run is done (its test kept when it failed) */
} tnorm_fuzz_event;

/** One distinct signature among the failing runs.  The string is owned by the result. */
typedef struct tnorm_fuzz_signature {
	char *signature;              /**< its text (tnorm_signature_format, full depth) */
	unsigned long long count;     /**< failing runs with it */
	unsigned long long first_seed; /**< the first seed that gave it: DIR/fail-SEED.t */
} tnorm_fuzz_signature;

/** What the job found.  Dispose of it with tnorm_fuzz_result_dispose(). */
typedef struct tnorm_fuzz_result {
	unsigned long long runs;      /**< tests run (seeds seed .. seed+runs-1) */
	unsigned long long failing;   /**< runs that failed (each kept in DIR) */
	unsigned long long invalid;   /**< runs the program called invalid (tnorm_run_options) */
	unsigned long long timeouts;  /**< runs that timed out */
	unsigned long long invalid_seed; /**< the first invalid run's seed (when invalid > 0) */
	char *invalid_reason;         /**< owned; the first invalid run's reason, or NULL */
	tnorm_fuzz_signature *signatures; /**< owned; distinct signatures, in order of first seed */
	size_t nsignatures;
	double elapsed;               /**< seconds from the first run to the end */
} tnorm_fuzz_result;

/** A progress report.  Everything in it is borrowed for the duration of the callback. */
typedef struct tnorm_fuzz_progress {
	tnorm_fuzz_event event;
	unsigned long long seed;      /**< EVENT_RUN: the run's seed */
	tnorm_outcome outcome;        /**< EVENT_RUN: its outcome */
	const char *signature;        /**< EVENT_RUN, a failing run: its signature text; else NULL */
	const char *path;             /**< EVENT_RUN, a failing run: DIR/fail-SEED.t; else NULL */
	int new_signature;            /**< EVENT_RUN: 1 when no earlier run failed this way */
	const tnorm_fuzz_result *so_far; /**< the counts so far (this run included) */
} tnorm_fuzz_progress;

/**
 * Progress callback, called on the calling thread: once with EVENT_START, then after every run.
 * Return 0 to go on, nonzero to stop the job as `cancel` would.
 */
typedef int (*tnorm_fuzz_progress_fn)(void *ctx, const tnorm_fuzz_progress *p);

/* Version 2: `run` needs no version of its own (0 there is the current one), and 0 is the default
 * in its fields too. */
#define TNORM_FUZZ_OPTIONS_VERSION 2

/** Zero means "the default" in every field but `seed` (0 is a seed like any other), as in every
 *  tnorm options struct (docs/architecture.md, "Options structs"). */
typedef struct tnorm_fuzz_options {
	unsigned version;          /**< TNORM_FUZZ_OPTIONS_VERSION */
	const char *harness;       /**< the harness file (required) */
	const char *dir;           /**< the corpus folder (required; created when missing) */
	const char *const *argv;   /**< CMD ARGS..., NULL-terminated ({} or @@ = the test's path) */
	tnorm_run_options run;     /**< each run's options; `suffix` is set to ".t" */
	unsigned long long steps;  /**< steps of each random test (0: 100) */
	unsigned long long seed;   /**< the first seed */
	unsigned long long runs;   /**< tests to run (0: no limit; then max_time is required) */
	double max_time;           /**< seconds (0: no limit) */
	unsigned long long max_failures; /**< stop after this many failing runs (0: no limit) */
	const volatile int *cancel; /**< set nonzero (e.g. from a SIGINT handler) to stop */
	tnorm_fuzz_progress_fn progress; /**< may be NULL */
	void *progress_ctx;
} tnorm_fuzz_options;

#define TNORM_FUZZ_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_fuzz_options, TNORM_FUZZ_OPTIONS_VERSION)

/**
 * Run the job.  Fills *res (dispose it whatever the return): 0 when a budget ran out.
 * TNORM_EINTERRUPTED when stopped (cancel or the progress callback): *res and the folder hold
 * what was done (a run the stop cut short is not counted).  Other errors, after which *res holds
 * the runs before the error: TNORM_EINVALID (bad options, another options version, no budget),
 * TNORM_EPARSE (the harness; FILE:LINE in the message), TNORM_ERROR (the program cannot be
 * started; the runner's message), TNORM_EIO (the folder cannot be made or written),
 * TNORM_ENOMEM.  The message is in tnorm_error_last().
 */
TNORM_EXTERN int tnorm_fuzz_run(const tnorm_fuzz_options *o, tnorm_fuzz_result *res);

/** Free what a result owns and zero it.  Safe on a zeroed or disposed result. */
TNORM_EXTERN void tnorm_fuzz_result_dispose(tnorm_fuzz_result *res);

#ifdef __cplusplus
}
#endif
#endif

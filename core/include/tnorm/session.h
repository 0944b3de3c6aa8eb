/* SPDX-License-Identifier: MIT */
/*
 * session.h - judge candidates by running the program: the oracle behind reduce and normalize.
 *
 * A session owns a runner and a target failure.  tnorm_session_confirm() runs the original test
 * a few times, refuses a test that does not fail (or fails only sometimes), calibrates the target
 * signature to the part that every run shares, and sets the timeout to 10x the slowest confirm
 * run (at least 1 s) unless one was given.  tnorm_session_check() then answers "does this
 * candidate fail the same way?" for any candidate: never running the same bytes twice (a cache
 * keyed by content hash), stopping on the budgets and on the cancel flag, writing every new best
 * candidate atomically to the output file (anytime: Ctrl-C loses nothing), and keeping, for each
 * *other* failure met on the way, the smallest candidate that showed it (slippage is recorded,
 * not just refused).
 */
#ifndef TNORM_SESSION_H
#define TNORM_SESSION_H

#include "generic.h"
#include "reduce.h"
#include "runner.h"
#include "signature.h"
#include "db.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tnorm_session tnorm_session;

/** A progress report, passed to the progress callback after each run. */
typedef struct tnorm_progress {
	const char *phase;   /**< "confirm", "reduce", "normalize", ... (borrowed) */
	size_t best_len;     /**< size of the best candidate so far (bytes, or steps when known) */
	uint64_t runs;       /**< candidates run */
	uint64_t accepted;   /**< runs that kept the failure */
	uint64_t cache_hits; /**< candidates answered from the cache */
	double elapsed;      /**< seconds since the session started */
	double child_cpu;    /**< CPU seconds the program itself used, over all runs */
	double run_wall;     /**< wall seconds from fork to reaping, over all runs */
} tnorm_progress;

/**
 * Progress callback.  Return 0 to go on, or a negative code (e.g. TNORM_EINTERRUPTED) to stop:
 * the debugger plugins use this to poll for Ctrl-C.
 */
typedef int (*tnorm_progress_fn)(void *ctx, const tnorm_progress *p);

/**
 * Observer of the runs (version 3): called on the session's calling thread after each candidate
 * the session ran (not those the cache or database answered), with its bytes (borrowed for the
 * call), its outcome and whether it failed the target's way (`same`).  tnorm why keeps the runs
 * of a minimization near its result this way (why.h).
 */
typedef void (*tnorm_run_observer)(void *ctx, const void *data, size_t len, tnorm_outcome outcome,
                                   int same);

/** A test that was run and what it came to: `same` when it failed the target's way (the
 *  bytes are owned by whoever holds the struct). */
typedef struct tnorm_tested {
	char *test; /**< its bytes, NUL-terminated */
	size_t len;
	tnorm_outcome outcome;
	int same;
} tnorm_tested;

/* Version 4: 0 is the default in every field (confirm).  A struct of another version is refused
 * with TNORM_EINVALID; held in a pipeline's options, its version may be 0: the current one.  As
 * in every tnorm options struct, 0 means the default (docs/architecture.md, "Options structs"). */
#define TNORM_SESSION_OPTIONS_VERSION 4

typedef struct tnorm_session_options {
	unsigned version;            /**< TNORM_SESSION_OPTIONS_VERSION */
	const char *match;           /**< policy (signature.h); NULL = "line" */
	unsigned confirm;            /**< runs of the original (0: the default, 3) */
	int allow_flaky;             /**< 1: go on when the original fails only sometimes */
	uint64_t max_runs;           /**< stop after this many runs (0 = no limit) */
	double max_time;             /**< stop after this many seconds (0 = no limit) */
	const char *out_path;        /**< best-so-far file (NULL = none) */
	const char *slipped_dir;     /**< folder for other failures' tests (NULL = none) */
	const volatile int *cancel;  /**< set nonzero (e.g. from a SIGINT handler) to stop */
	tnorm_progress_fn progress;  /**< may be NULL */
	void *progress_ctx;
	/** The differential oracle (version 2): the fixed program's CMD ARGS..., NULL-terminated,
	 *  `{}` as in the main command; NULL = none.  A candidate then counts only when it fails
	 *  the same way AND passes (exits 0) on the fixed program; the confirm step requires the
	 *  original to pass on it.  The fixed program runs with the same run options. */
	const char *const *fixed;
	tnorm_run_observer observe; /**< may be NULL (version 3) */
	void *observe_ctx;
} tnorm_session_options;

#define TNORM_SESSION_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_session_options, TNORM_SESSION_OPTIONS_VERSION)

/**
 * Create a session for `argv` (see tnorm_runner_new) with run options `run` (NULL: defaults;
 * a session's default timeout, 0, is derived from the confirm runs: 300 s for those, then 10
 * times the slowest of them, at least 1 s; a negative one is no limit).  Strings in `o` and what `run`
 * points to must stay valid for the session's life (extra runners for parallel jobs are made
 * from them later).  Free with tnorm_session_free().  0, TNORM_EINVALID (bad options, another
 * options version, an invalid match policy), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_session_new(tnorm_session **out, const char *const *argv,
                                   const tnorm_run_options *run, const tnorm_session_options *o);

/** Set (or, with NULL, remove) the observer of the runs after the session was made: the options'
 *  `observe` and `observe_ctx` are replaced. */
TNORM_EXTERN void tnorm_session_observe(tnorm_session *s, tnorm_run_observer fn, void *ctx);

/** Free a session.  NULL is a no-op. */
TNORM_EXTERN void tnorm_session_free(tnorm_session *s);

/**
 * Run the original test `confirm` times and set the target.  A run counts as failing only when
 * its failure also meets the match policy on its own: under output:REGEX, its output must match
 * REGEX.  With a fixed program, the original then runs once on it and must pass.  0;
 * TNORM_ENOTFAIL when it does not fail (message says what happened: pass, timeout, invalid,
 * cannot run, fails but its output does not match, does not pass on the fixed program);
 * TNORM_EFLAKY when it fails (as the policy asks) only in some runs (unless allow_flaky);
 * TNORM_ERROR when a program cannot be started; TNORM_EINTERRUPTED; I/O errors.
 */
TNORM_EXTERN int tnorm_session_confirm(tnorm_session *s, const void *data, size_t len);

/**
 * Use a given target signature instead of confirming (e.g. the debugger's current stop).  The
 * signature is copied.  The timeout must then be set in the run options (a derived one, 0, is
 * then no limit).
 */
TNORM_EXTERN int tnorm_session_set_target(tnorm_session *s, const tnorm_signature *target);

/** The target (borrowed; NULL before confirm), and whether the confirm runs agreed fully. */
TNORM_EXTERN const tnorm_signature *tnorm_session_target(const tnorm_session *s, int *stable);

/**
 * Does the program fail on `data` the same way (under the match policy), and, with a fixed
 * program, pass on that one?  Sets *interesting.
 * 0, or TNORM_EINTERRUPTED (cancel flag or progress callback), TNORM_ETIMEOUT (a budget ran
 * out), TNORM_ERROR (the program could not be started), I/O errors.
 */
TNORM_EXTERN int tnorm_session_check(tnorm_session *s, const void *data, size_t len,
                                     int *interesting);

/**
 * tnorm_session_check as a tnorm_test_oracle: `ctx` is the session; the candidate is formatted
 * to its canonical text and checked.  The text goes into a buffer the session keeps from call to
 * call (and frees with the session), as do the batch oracle's texts below.
 */
TNORM_EXTERN int tnorm_session_test_oracle(void *ctx, const tnorm_test *cand, int *interesting);

/**
 * Run independent candidates on up to `jobs` worker processes at once (default 1): used by
 * tnorm_session_check_many().  Each worker has its own runner (created on first use).
 */
TNORM_EXTERN void tnorm_session_set_jobs(tnorm_session *s, unsigned jobs);

/** The number of jobs set. */
TNORM_EXTERN unsigned tnorm_session_jobs(const tnorm_session *s);

/**
 * tnorm_session_check for `n` independent candidates: interesting[i] answers data[i].  The runs
 * happen on the session's jobs in parallel, but the results are judged in order in the calling
 * thread (cache, database, best-so-far, slippage, progress callback), so answers, counters and
 * files are exactly those of checking them one by one.  Errors as for tnorm_session_check (the
 * first one stops the batch; answers after it are 0).
 */
TNORM_EXTERN int tnorm_session_check_many(tnorm_session *s, const char *const *data,
                                          const size_t *len, size_t n, int *interesting);

/** tnorm_session_check_many as a tnorm_test_batch_oracle (`ctx` is the session). */
TNORM_EXTERN int tnorm_session_test_batch_oracle(void *ctx, const tnorm_test *const *cands,
                                                 size_t n, int *interesting);

/** Set the phase name shown in progress reports (static string). */
TNORM_EXTERN void tnorm_session_set_phase(tnorm_session *s, const char *phase);

/**
 * Generic mode as it was before the chunk pass (tnorm_generic_reduce with chunks = 0, the
 * session as the oracle): reduce arbitrary bytes viewed as lines, then tokens (a run of letters,
 * digits and '_', or one other character, with the blanks after it), then bytes — the views
 * selected in `views` (generic.h; 0 = all) — with the chosen algorithm, each view to a fixpoint.
 * *out (free with tnorm_free) receives the result even when an error (budget, Ctrl-C) stopped it
 * early; the error code is returned.
 */
TNORM_EXTERN int tnorm_session_reduce_bytes(tnorm_session *s, const char *data, size_t len,
                                            tnorm_reduce_algo algo, uint64_t seed, unsigned views,
                                            char **out, size_t *outlen);

/** tnorm_session_check as a tnorm_bytes_oracle (generic.h): `ctx` is the session. */
TNORM_EXTERN int tnorm_session_bytes_oracle(void *ctx, const char *data, size_t len,
                                            int *interesting);

/**
 * Also remember outcomes in a cross-test database (db.h) under the context key `context` (see
 * tnorm_db_context: the program, its arguments, the policy and the target).  The database is
 * borrowed: it must outlive the session.  Lookups that hit count as cache hits.
 */
TNORM_EXTERN void tnorm_session_set_db(tnorm_session *s, tnorm_db *db, uint64_t context);

/** Counters so far. */
TNORM_EXTERN void tnorm_session_stats(const tnorm_session *s, tnorm_progress *out);

/** Number of other failures met (slipped signatures). */
TNORM_EXTERN size_t tnorm_session_slipped_count(const tnorm_session *s);

/**
 * Slipped failure i: its signature text and the path of its smallest test (NULL when no
 * slipped_dir was set).  Borrowed: valid until the session is freed.
 */
TNORM_EXTERN int tnorm_session_slipped(const tnorm_session *s, size_t i, const char **signature,
                                       const char **path, size_t *size);

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: MIT */
/*
 * pipeline.h - the whole job on one failing test file: confirm, reduce, normalize, generalize.
 *
 * This is what `tnorm reduce|normalize|minimize|generalize` and the debugger plugins run: one
 * session (one cache, one best-so-far file, one slipped/ folder), the cross-test database when
 * one is given, and the steps the mode asks for.  The caller keeps the user interface (options,
 * printing); the pipeline returns facts.  The input file is never modified; the output file holds
 * the best test so far from the start of the reduction on, and the final result at the end, even
 * when Ctrl-C or a budget stopped the work early.
 *
 * Defined in: pipeline.c (the job), pipeline_output.c (the result as JSON, output naming).
 */
#ifndef TNORM_PIPELINE_H
#define TNORM_PIPELINE_H

#include "generalize.h"
#include "normalize.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What to do. */
typedef enum tnorm_mode {
	TNORM_MODE_MINIMIZE = 0,  /**< confirm, reduce, normalize (the default) */
	TNORM_MODE_REDUCE = 1,    /**< confirm, reduce (a harness test, or any file without one) */
	TNORM_MODE_NORMALIZE = 2, /**< confirm, normalize (no first reduction) */
	TNORM_MODE_GENERALIZE = 3, /**< confirm, generalize the test as it is */
	TNORM_MODE_CHECK = 4       /**< confirm only: the target's signature and match key (no
	                                result text; `out` is not written) */
} tnorm_mode;

/** "reduce", "normalize", "minimize", "generalize", "check".  Static. */
TNORM_EXTERN const char *tnorm_mode_name(tnorm_mode m);

/* Version 2: tnorm_run_options and tnorm_session_options, which it holds, grew (invalid exits,
 * the fixed program); version 3: tnorm_run_options grew again (fork_server); version 4: `generic`;
 * version 5: `keep_near` (and the session options' observer); version 6: 0 is the default in
 * every field (replay, and the structs it holds; TNORM_MODE_MINIMIZE is 0).  A struct of another
 * version is refused with TNORM_EINVALID.
 *
 * As in every tnorm options struct, 0 in a field means its default and a negative number turns
 * off what is on by default (docs/architecture.md, "Options structs"); the structs it holds
 * (run, session, reduce, normalize, generic) need no version of their own: 0 there is the
 * current one. */
#define TNORM_PIPELINE_OPTIONS_VERSION 6

/** The most parallel runs or worker threads a job takes (`-j` of the CLI and the plugins):
 *  more is refused (TNORM_EINVALID). */
#define TNORM_MAX_JOBS 256

typedef struct tnorm_pipeline_options {
	unsigned version;
	tnorm_mode mode;
	const char *harness;      /**< harness file; NULL = any file (generic mode: reduce,
	                               normalize and minimize; not generalize) */
	const char *test;         /**< the failing test file (never modified) */
	const char *out;          /**< the result file (required; must differ from test) */
	const char *slipped_dir;  /**< where other failures' tests go (NULL = not kept on disk) */
	const char *db;           /**< cross-test database file (NULL = none; see tnorm_db_path) */
	int generalize;           /**< 1: annotate the result (modes other than reduce); 0 (default)
	                               or -1: not */
	unsigned jobs;            /**< parallel runs for generalization (0 or 1 = one at a time; at
	                               most TNORM_MAX_JOBS) */
	const char *const *argv;  /**< CMD ARGS..., NULL-terminated ({} or @@ = the candidate's path) */
	tnorm_run_options run;    /**< a zero timeout (the default) = derived from the confirm runs */
	tnorm_session_options session; /**< match, confirm, budgets, cancel, progress, fixed;
	                                     out_path and slipped_dir are set from the fields above */
	tnorm_reduce_options reduce;
	tnorm_normalize_options normalize; /**< the database hooks are set by the pipeline */
	tnorm_normalize_log log;  /**< accepted rewrites (may be NULL) */
	void *log_ctx;
	/** Called once the target is known (after the confirm runs): its text, and whether all runs
	 *  agreed.  May be NULL. */
	void (*on_target)(void *ctx, const char *signature, int stable);
	void *target_ctx;
	/** Optional: the failure as someone else saw it (a debugger's stop).  It is compared with
	 *  the engine's own target under the match policy; the result says whether they agree. */
	const tnorm_signature *expect;
	/** 0 (default) or 1: with a database, minimize first replays the path a minimization of the
	 *  same test took before (under any context: a rebuilt program too), smallest test first.
	 *  -1: no replay. */
	int replay;
	/** Generic mode (no harness, version 4): the chunk pass and normalization's rules.  Its
	 *  `algo` and `seed` are ignored: those of `reduce` apply. */
	tnorm_generic_options generic;
	/** Version 5: 1 to keep, in the result's `near`, the job's runs one edit away from its
	 *  result (one step changed or deleted with a harness; without one, one byte deleted or
	 *  inserted, or up to two changed): what tnorm why ranks lines with (why.h).  0 (default):
	 *  none kept. */
	int keep_near;
} tnorm_pipeline_options;

#define TNORM_PIPELINE_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_pipeline_options, TNORM_PIPELINE_OPTIONS_VERSION)

/** One other failure met on the way (strings owned by the result). */
typedef struct tnorm_slip_info {
	char *signature; /**< its kind and throwing frame */
	char *path;      /**< its smallest test, or NULL when not kept on disk */
	size_t size;     /**< that test's size in bytes */
} tnorm_slip_info;

/** What the pipeline found.  Dispose of it with tnorm_pipeline_result_dispose(). */
typedef struct tnorm_pipeline_result {
	char *text;             /**< the result (annotated when generalized); NULL if none yet */
	size_t text_len;
	char *plain;            /**< the result without annotations (NULL unless generalized) */
	char *reduced;          /**< the test after the reduction, before normalization (minimize,
	                             and reduce with a harness; NULL otherwise) */
	char *signature;        /**< the target's text; NULL when the confirm runs did not finish */
	char *generalization;   /**< generalization as JSON, or NULL */
	char *expect_signature; /**< the `expect` signature's text, or NULL */
	int stable;             /**< 1 when all confirm runs agreed on the whole stack */
	int expect_matches;     /**< -1 no `expect`; 1 it matches the target; 0 it does not */
	int complete;           /**< 1 when the job ran to the end (no interrupt, no budget) */
	int known;              /**< 1 when the normal form came from the database */
	size_t replay_len;      /**< tests in the recorded path of this test (0: none recorded) */
	size_t replayed;        /**< k when the k-th recorded test (1-based) still failed and the
	                             job started from it; 0 when none did */
	size_t original;        /**< size of the input (steps, or bytes without a harness) */
	size_t final;           /**< size of the result */
	const char *unit;       /**< "steps" or "bytes" (static) */
	tnorm_progress stats;   /**< the session's counters at the end */
	tnorm_reduce_stats reduce;
	tnorm_normalize_stats normalize;
	tnorm_slip_info *slipped;
	size_t nslipped;
	char *match_key;        /**< the target as the match policy compares it (tnorm_match_key):
	                             equal keys, same fault; NULL when the confirm runs did not finish */
	char *warning;          /**< something the user should hear once (the database could not be
	                             used, so the job went on without it), or NULL */
	size_t reduced_len;     /**< the length of `reduced` (without a harness it is any bytes, NUL
	                             included) */
	tnorm_tested *near;     /**< with keep_near: the job's runs one edit away from the result
	                             (without annotations), in the order they ran; owned */
	size_t nnear;
	int written;            /**< 1 when the output file holds `text`; 0 when the job stopped
	                             before it improved on the input: the output file was left as it
	                             was (absent, or an earlier run's) */
} tnorm_pipeline_result;

/**
 * Run the job.  Fills *res (dispose it whatever the return).  0 when complete; when the work was
 * stopped (TNORM_EINTERRUPTED: cancel flag or progress callback; TNORM_ETIMEOUT: a budget), the
 * code is returned, and res->text holds the best result so far, which is also in the output file
 * when it is an improvement on the input (res->written).
 * Other errors: TNORM_EINVALID (bad options), TNORM_EPARSE (harness or test; the message has
 * FILE:LINE), TNORM_ENOTFAIL, TNORM_EFLAKY, TNORM_ERROR (the program cannot be started),
 * TNORM_EIO, TNORM_EDB, TNORM_ENOMEM.  The message is in tnorm_error_last().
 */
TNORM_EXTERN int tnorm_pipeline_run(const tnorm_pipeline_options *o, tnorm_pipeline_result *res);

/**
 * The rules for the output file, which tnorm_pipeline_run checks first (a front end may check
 * them before anything else, to report a command-line mistake as one): `o->out` is named; it
 * is not the test, the harness, the database nor the program (by device and inode, however it
 * is spelled); it is not a symbolic link; if it exists it is a regular file (never a device, a
 * FIFO, a socket or a folder, which the atomic write would replace with a file); its folder
 * exists.  Reads o->out, o->test, o->harness, o->db and o->argv[0] (each may be NULL but out).
 * 0, TNORM_EINVALID (the message says which rule), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_pipeline_check_output(const tnorm_pipeline_options *o);

/** Free what a result owns and zero it.  Safe on a zeroed or disposed result. */
TNORM_EXTERN void tnorm_pipeline_result_dispose(tnorm_pipeline_result *res);

/**
 * The result file a job on `test` writes when the caller names none: TEST.min (reduce),
 * TEST.norm (normalize, minimize) or TEST.gen (generalize).  What the CLI's -o and the
 * debuggers' -o default to, and the name triage gives its normal forms (OUT/norm/NAME.norm,
 * NAME.gen).  *out is freed with tnorm_free().  0, TNORM_EINVALID (NULL test or unknown mode),
 * TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_pipeline_default_output(char **out, const char *test, tnorm_mode mode);

/**
 * The folder a job files its slipped tests in (tnorm_pipeline_options.slipped_dir): `slipped`
 * beside its result file out_path (DIR/slipped for DIR/NAME, ./slipped for a bare NAME).  The
 * CLI's and the debuggers' one rule.  *out is freed with tnorm_free().  0, TNORM_EINVALID (NULL
 * argument), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_pipeline_slipped_dir(char **out, const char *out_path);

/** One accepted rewrite, as the `log` callback reported it (for tnorm_pipeline_result_json). */
typedef struct tnorm_pipeline_rewrite {
	tnorm_rule rule;
	const char *what; /**< borrowed for the call */
} tnorm_pipeline_rewrite;

/**
 * The result of a job as one JSON object: what `tnorm reduce|normalize|minimize|generalize
 * --json` prints and the Python binding returns (docs/commands/reduce.md).  Its keys, in order:
 * output (o->out), original, reduced (the result's size: the `final` field), unit, runs,
 * accepted, cache_hits, skipped, slice_level, rewrites, rules ("none" in modes reduce and
 * generalize, else "calls" or "paper"), capped, known_normal_form, seconds (rounded to
 * milliseconds), complete, replay {recorded, replayed}, signature ("" when the target was not
 * confirmed), slipped [{signature, path ("" when not kept), size}], log [{rule, what}] (the
 * `nlog` entries of `log`, which may be NULL when nlog is 0), generalization (the
 * generalization's JSON object, or null).  Strings are made valid UTF-8 (U+FFFD).  Reads
 * o->mode and o->out only.  *out, one line without a newline, is freed with tnorm_free().
 * 0, TNORM_EINVALID (a NULL argument), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_pipeline_result_json(char **out, const tnorm_pipeline_options *o,
                                            const tnorm_pipeline_result *r,
                                            const tnorm_pipeline_rewrite *log, size_t nlog);

/**
 * The database a job on `test` uses by default: `$TNORM_DB` when set ("off": none), else
 * `.tnorm/cache.db` in the test's folder (created; none when it cannot be).  `explicit_path`, when
 * not NULL, wins.  *out (NULL for none) is freed with tnorm_free().  0 or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_db_path(const char *test, const char *explicit_path, char **out);

#ifdef __cplusplus
}
#endif
#endif

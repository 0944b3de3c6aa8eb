/* SPDX-License-Identifier: MIT */
/*
 * triage.h - many failing tests, one test per fault: minimize a folder of tests and group them.
 *
 * Every test in a folder is confirmed, reduced and normalized (tnorm_pipeline_run, mode
 * minimize) by worker *threads* of the calling process, which share the cross-test database
 * (each worker its own connection).  The tests are then put in buckets, (signature as the match
 * policy compares it, normal form); each bucket's representative is generalized, and the report
 * (triage_report.h) is written.  This is what `tnorm triage` and the debuggers' `tnorm triage`
 * run; the caller keeps the user interface, the job returns facts.
 *
 * Defined in: triage.c (the job), triage_record.c (tnorm_triage_status_name, tnorm_triage_test_json:
 * a test's record).
 *
 * Why threads and not processes: inside gdb or lldb the calling process is the debugger, which
 * a library must not fork (a fork of a multi-threaded process copies its locks held, and the
 * copy of a debugger is no place to run an engine), and a library cannot assume where a `tnorm`
 * executable is.  The engine keeps no global state (errors and the allocation hook are per
 * thread), every runner has its own tracer thread that sees only its own programs, and each
 * worker makes its own session, runner and database connection: N threads do what N processes
 * did.  Every program a worker runs is traced with PTRACE_O_EXITKILL, so none outlives the
 * calling process, even after a kill -9.  The worker threads block every signal: a Ctrl-C goes
 * to the caller's threads, which stop the job through `cancel` or the progress callback.
 *
 * Without a harness (generic mode, issue 17) the tests are any files, as a fuzzer leaves them:
 * every regular, non-hidden file of the folder is a test except README.txt (AFL++ writes one
 * into crashes/), the other files of an AFL++ output folder (fuzzer_stats, plot_data, ...) and
 * libFuzzer's artifacts that are not crashes (timeout-*, slow-unit-*); crash-*, leak-*, oom-*
 * and AFL++'s id:... files are all tests.  An AFL++ output folder may be given as it is: when
 * DIR has crashes/ (or default/crashes/), that is the folder read (tnorm_triage_result.folder).
 * Each file is reduced and normalized as bytes (generic.h); the buckets are not generalized
 * (generalization annotates harness steps).
 *
 * On disk (OUT, default DIR/triage): results/NAME.json, each test's result, written atomically
 * when the test is done; norm/NAME.norm its normal form, norm/NAME.gen a representative's
 * annotated test; buckets/N-NAME, bucket N's representative (its test NAME's normal form, byte
 * for byte: the file to run the program on, or to debug; NAME cut at 200 bytes); report.json and
 * report.html at the end.  A NAME over 200 bytes is, in results/, norm/ and claims/, its first
 * 100 bytes, '~' and 16 hex digits of a hash of the whole name.  A result file keeps a normal form (and a reduced test) that is not
 * UTF-8 text, or that holds a NUL byte, exactly: in hex as `normal_hex` (`reduced_hex`), beside
 * the readable `normal` (U+FFFD for the bytes that are not UTF-8); buckets compare the exact
 * bytes, of a fresh or a resumed job alike.  A job stopped at any point (cancel, a crash, kill
 * -9) is resumed by running it again with the same options (with or without a harness alike: a
 * result file does not say which): a test whose result file parses and was made from the same
 * content is not done again.  The input files are never modified.
 *
 * Claims.  Without a database, a worker claims a test with OUT/claims/NAME (O_EXCL), and the
 * claims of a dead job are cleared at the start: only one job may use an OUT folder.  With a
 * database (`db`: a SQLite file, or a PostgreSQL server that many machines share), each test is
 * a work item of the database (tnorm_db_claim): item "HEX/NAME" (HEX the hash of the test's
 * content) of a job named by a hash of what decides a result: the harness's text, the command,
 * the match policy, the fixed program, the rules and --stdin.  Every process that runs the same
 * job, on any machine, shares its items: a test finished anywhere is loaded (and written to
 * OUT/results) rather than done again, and a test another live worker holds is left to it and
 * looked at again until it is finished.  A claim is a lease of `lease` seconds of the database's
 * clock that the calling thread renews every quarter lease while the worker works; a worker
 * killed with -9 stops renewing, and its test is taken over when the lease runs out.
 *
 * Shards.  With `shards` = N > 1, the job works only on the tests whose name hashes to `shard`
 * (0-based here; users write it 1-based, tnorm_triage_shard_parse) modulo N, so that N
 * processes on N machines, started by any scheduler with the same options and shard =
 * 0..N-1, split the folder without talking to each other: a shard needs a database (the
 * shards' results meet there).  A shard makes its own buckets for its summary, but neither
 * generalizes nor writes a report: the same job run without shards afterwards finds every test
 * finished in the database and writes the report (it also does any test no shard finished).
 */
#ifndef TNORM_TRIAGE_H
#define TNORM_TRIAGE_H

#include "pipeline.h"
#include "why.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A test's state in the triage. */
typedef enum tnorm_triage_status {
	TNORM_TRIAGE_PENDING = 0, /**< no result yet (the job was stopped before it) */
	TNORM_TRIAGE_OK = 1,      /**< it fails: reduced, normalized and in a bucket */
	TNORM_TRIAGE_NOTFAIL = 2, /**< the original does not fail (or not as the policy asks) */
	TNORM_TRIAGE_FLAKY = 3,   /**< the original fails only sometimes */
	TNORM_TRIAGE_ERROR = 4    /**< its minimization failed (a test that does not parse, ...) */
} tnorm_triage_status;

/** "pending", "ok", "notfail", "flaky", "error" (the words of the result files).  Static. */
TNORM_EXTERN const char *tnorm_triage_status_name(tnorm_triage_status s);

/** One test of the corpus.  Strings are owned by the result (or the progress report) holding
 *  it; NULL when unknown (a pending test). */
typedef struct tnorm_triage_test {
	char *name;                 /**< file name in the folder */
	tnorm_triage_status status;
	char *message;              /**< why it is not OK ("" when it is) */
	char *signature;            /**< the target's text ("" when there is none) */
	char *key;                  /**< the target as the match policy compares it (tnorm_match_key):
	                                 what buckets compare */
	char *reduced;              /**< the test after reduction */
	char *normal;               /**< its normal form ("" unless OK) */
	long original_steps;        /**< steps of the input, -1 when unknown */
	long reduced_steps;         /**< steps after reduction, -1 when unknown */
	long normal_steps;          /**< steps of the normal form, -1 when unknown */
	int polished;               /**< 1 when its normal form is the result of a finished polish
	                                 (tnorm_triage_options.polish): canonical in fact */
	int complete;               /**< 1 when its minimization ran to its end (no budget stopped
	                                 it: --max-time-per-test) */
	uint64_t runs;              /**< program runs its minimization took */
	double seconds;             /**< and the time */
	size_t bucket;              /**< 1-based index of its bucket; 0: none */
	int fresh;                  /**< 1 when this job did it, 0 when an earlier job had */
	size_t reduced_len;         /**< the length of `reduced` (generic mode: any bytes, NUL
	                                 included; the string is NUL-terminated all the same) */
	size_t normal_len;          /**< the length of `normal` (likewise) */
	/** 1 when this test was minimized (its `reduced` and `normal` are its own); 0 when one
	 *  run gave its signature and its bucket was assigned on evidence (then `reduced` and
	 *  `normal` are empty, and `evidence` says why).  Every failing test is minimized with
	 *  `thorough`. */
	int minimized;
	/** Why an assigned test is in its bucket (owned; NULL for a minimized test, or before
	 *  the buckets are made): the minimized test it was judged by, and on what ground. */
	char *evidence;
} tnorm_triage_test;

/** One fault: the tests whose (signature key, normal form) are the same. */
/**
 * One bucket: one fault.  Tests are bucketed by their signature key (the match policy's key:
 * kind, throwing frame, call site, message); inside a key their normal forms are merged (issue
 * 27), and the representative is the test with the lowest normal form in shortlex, the first by
 * name among equals.  The bucket's tests (tnorm_triage_test.bucket) may have other normal forms:
 * `nforms` counts them, report.json lists them.
 */
typedef struct tnorm_triage_bucket {
	const char *signature; /**< the representative's signature (borrowed from its test) */
	const char *key;       /**< the shared key (borrowed from the representative) */
	const char *normal;    /**< the representative's normal form, the bucket's lowest (borrowed) */
	char *annotated;       /**< the generalized representative (owned), NULL when not done */
	size_t count;          /**< tests in the bucket */
	size_t representative; /**< index in tnorm_triage_result.tests of the representative */
	size_t normal_len;     /**< the length of `normal`, which may hold any bytes */
	char *file;            /**< OUT/buckets/N-NAME: the normal form, byte for byte (owned) */
	size_t nforms;         /**< distinct normal forms among the bucket's tests (1 or more) */
	/** The signature of one run of the representative's own file (OUT/buckets/N-NAME, its
	 *  normal form), owned: what a user who runs that file sees, which may be another stack
	 *  than `signature` (its original's) under the same key.  NULL when that run did not fail
	 *  with the bucket's key, or was not made; the report shows `signature` then. */
	char *own_signature;
	/** Buckets whose key is this bucket's (1, or more when the coverage split told their
	 *  executions apart: issue 27), so that a report can say why one signature is two bugs. */
	size_t same_key;
	/** With tnorm_triage_options.explain: tnorm_why on the representative's normal form, its
	 *  lines cut to the `explain` best (owned; freed by tnorm_triage_result_dispose).  NULL
	 *  when not asked for, or when why could not rank (no line table, the form passed). */
	tnorm_why_result *why;
} tnorm_triage_bucket;

/** What the job found.  Dispose of it with tnorm_triage_result_dispose(). */
typedef struct tnorm_triage_result {
	char *corpus;                 /**< the folder, as given */
	char *out;                    /**< the output folder used */
	tnorm_triage_test *tests;     /**< every test, sorted by name (pending ones included) */
	size_t ntests;
	tnorm_triage_bucket *buckets; /**< in order of their first test; empty unless complete */
	size_t nbuckets;
	size_t done;                  /**< tests with a result */
	size_t fresh;                 /**< tests this job did (the others were done before) */
	size_t failing;               /**< tests that fail (status OK) */
	size_t signatures;            /**< distinct signature keys among them */
	size_t distinct_reduced;      /**< distinct reduced tests among them */
	size_t distinct_normalized;   /**< distinct normal forms among them */
	int complete;                 /**< 1 when every test is done and bucketed, ready for the
	                                   report (a shard: every test of the shard done and
	                                   bucketed) */
	char *warning;                /**< owned; NULL, or why the job went on without its database
	                                   (it could not be opened: claims are files then) */
	size_t total;                 /**< tests in the folder (ntests: those of this shard) */
	char *folder;                 /**< the folder the tests are read from: the corpus, or its
	                                   crashes/ (default/crashes/) for an AFL++ output folder */
	const char *unit;             /**< the tests' length: "steps" (a harness) or "bytes" (static) */
	size_t polish_forms;          /**< distinct normal forms short enough to polish */
	size_t polished;              /**< of them, those the polish worked on (see options) */
	size_t polish_complete;       /**< of them, those it finished: no single byte of the form
	                                   can be lowered and still fail (the others: budget) */
	size_t polish_lowered;        /**< of them, those it lowered */
	uint64_t polish_runs;         /**< program runs of the polish (not in any test's runs) */
	uint64_t polish_budget;       /**< the runs it could take */
	size_t minimized;             /**< failing tests that were minimized (all with `thorough`) */
	size_t assigned;              /**< failing tests bucketed on evidence, from one run each */
	uint64_t check_runs;          /**< program runs of the one-run checks (in no test's runs
	                                   when the test was then minimized as well: these are
	                                   counted in its own `runs`) */
} tnorm_triage_result;

/** What a progress report is about. */
typedef enum tnorm_triage_event {
	TNORM_TRIAGE_EVENT_START = 0,      /**< the tests are listed: `total` is known */
	TNORM_TRIAGE_EVENT_TEST = 1,       /**< a worker finished `test` */
	TNORM_TRIAGE_EVENT_TICK = 2,       /**< nothing new (about ten a second): a chance to stop */
	TNORM_TRIAGE_EVENT_GENERALIZE = 3, /**< a run while generalizing bucket `bucket` */
	TNORM_TRIAGE_EVENT_POLISH = 4      /**< a run while polishing normal form `bucket` of
	                                        `nbuckets` (the distinct forms polished) */
} tnorm_triage_event;

/** A progress report.  Everything in it is borrowed for the duration of the callback. */
typedef struct tnorm_triage_progress {
	tnorm_triage_event event;
	size_t total;                  /**< tests in the folder */
	size_t done;                   /**< tests with a result, this job's and earlier ones' */
	size_t fresh;                  /**< tests done by this job so far */
	unsigned jobs;                 /**< worker threads */
	const char *out;               /**< the output folder */
	const tnorm_triage_test *test; /**< EVENT_TEST: the test just done (its bucket is 0) */
	size_t bucket;                 /**< EVENT_GENERALIZE: 1-based, of nbuckets (EVENT_POLISH:
	                                    the form, of the forms polished) */
	size_t nbuckets;
	const tnorm_progress *runs;    /**< EVENT_GENERALIZE, EVENT_POLISH: the job's counters */
	double elapsed;                /**< seconds since the job started */
} tnorm_triage_progress;

/**
 * Progress callback, always called on the thread that called tnorm_triage_run (never on a
 * worker).  Return 0 to go on, nonzero to stop the job as `cancel` would.
 */
typedef int (*tnorm_triage_progress_fn)(void *ctx, const tnorm_triage_progress *p);

/* Version 2 (issue 19) added shard, shards and lease at the end; version 3 (issue 27) polish;
 * version 4: 0 is the default in every field (generalize); version 5 (issue 38): thorough;
 * version 6 (issue 40, item 1): explain.  Older structs are still accepted
 * (the fields they lack taken as 0; their generalize 0 is off).  As in every tnorm options
 * struct, 0 in a field means its default and a negative number turns off what is on by default
 * (docs/architecture.md, "Options structs"); `job` needs no version of its own: 0 there is the
 * current one. */
#define TNORM_TRIAGE_OPTIONS_VERSION 6

typedef struct tnorm_triage_options {
	unsigned version;        /**< TNORM_TRIAGE_OPTIONS_VERSION */
	const char *dir;         /**< the folder of failing tests: with a harness its files named
	                              *.t (not .*); without, any file (see above) */
	const char *harness;     /**< the harness file; NULL: generic mode (any files, no
	                              generalization) */
	const char *out;         /**< the output folder (NULL: DIR/triage; created) */
	const char *db;          /**< the cross-test database file (NULL: none; tnorm_db_path gives
	                              the default one) */
	const char *const *argv; /**< CMD ARGS..., NULL-terminated ({} or @@ = the candidate's path) */
	unsigned jobs;           /**< worker threads (0 = 1; at most TNORM_MAX_JOBS); also the
	                              parallel runs of each representative's generalization */
	int generalize;          /**< 0 (default) or 1: annotate each bucket's representative; -1:
	                              not */
	/** Each test's job: run options (a zero timeout: derived from each test's confirm runs),
	 *  session.match (NULL = "line"), session.fixed, session.confirm, session.max_time (the time
	 *  per test), normalize.rules, reduce, generic (without a harness).  The triage sets mode,
	 *  harness, test, out, db, jobs, argv, generalize, slipped_dir and the session's cancel and
	 *  progress; log, on_target and expect must be NULL.  Strings it points to must stay valid
	 *  during the call. */
	tnorm_pipeline_options job;
	const volatile int *cancel;        /**< set nonzero (e.g. from a SIGINT handler) to stop */
	tnorm_triage_progress_fn progress; /**< may be NULL */
	void *progress_ctx;
	unsigned shard;          /**< with shards > 1: the part this job does, 0..shards-1 */
	unsigned shards;         /**< 0 or 1: the whole folder; N > 1: one of N parts (needs db) */
	unsigned lease;          /**< seconds a claim in the database lasts unless renewed (0: 5
	                              for a SQLite file, 30 for a server) */
	/** Without a harness, each distinct normal form (of one signature key) is polished once
	 *  after the tests are done: every lower value of every byte, lowest first, until no single
	 *  byte can be lowered and still fail the same way (the scan's full pass, see generic.h's
	 *  scan_full), and the tests that had it take the result.  0 (default): forms of up to
	 *  TNORM_TRIAGE_POLISH_MAX bytes; N > 0: up to N bytes; -1: no polish. */
	long polish;
	/** The polish's runs in all: 0 (default) a quarter of the runs the tests' minimizations
	 *  took, so that a triage costs at most 1.25 times its tests' runs; the forms whose full
	 *  pass costs least per test go first, a form whose pass costs more than is left is
	 *  skipped, and a form the budget cuts keeps what its polish lowered so far. */
	uint64_t polish_runs;
	/** 0 (default): every test is run once for its signature; within each signature key a
	 *  few tests are minimized (the smallest, and one of each other stack while their
	 *  buckets disagree) and the rest are assigned to the bucket of the minimized test with
	 *  their key and stack (docs/commands/triage.md, "Sampled triage").  1: every failing
	 *  test is minimized (the method of tnorm before issue 38). */
	int thorough;
	/** 0 (default): no more.  N > 0: after the buckets, tnorm_why ranks the lines of each
	 *  bucket's representative (its normal form and up to 400 neighbours run with line
	 *  coverage: some 20 to 50 times a plain run each, per bucket), and the report shows the N
	 *  best with their source (tnorm_triage_bucket.why). */
	unsigned explain;
} tnorm_triage_options;

/** The default longest normal form the polish works on: a byte costs up to a run per lower
 *  value, so a form of 64 bytes up to about 8,000 runs (once for all its tests). */
#define TNORM_TRIAGE_POLISH_MAX 64

#define TNORM_TRIAGE_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_triage_options, TNORM_TRIAGE_OPTIONS_VERSION)

/**
 * Parse a shard "K/N" as users write it, counting from 1 (1 <= K <= N, decimal, nothing else:
 * 1/3 .. 3/3, as Jest and Playwright do) into *shard = K - 1 (the 0-based index of the options)
 * and *shards = N: 0, or TNORM_EINVALID with a message that quotes it (0/N included).
 */
TNORM_EXTERN int tnorm_triage_shard_parse(const char *text, unsigned *shard, unsigned *shards);

/** The shard (0..shards-1) a test named `name` belongs to (shards 0 or 1: 0). */
TNORM_EXTERN unsigned tnorm_triage_shard_of(const char *name, unsigned shards);

/**
 * Triage the folder.  Fills *res (dispose it whatever the return): 0 when complete (every test
 * done, the normal forms polished, the buckets made, the representatives generalized and
 * written to OUT/buckets; a shard: its tests done and bucketed).  The report is the caller's:
 * tnorm_triage_report_finish(o, res, err, sarif) writes OUT/report.json and report.html
 * (triage_report.h) after a complete job that is not a shard, as the CLI and the binding do.  TNORM_EINTERRUPTED when stopped (cancel or
 * the progress callback): the tests done so far are on disk and in res (the others PENDING),
 * and running the job again resumes it.  Other errors: TNORM_EINVALID (bad options, another
 * options version, a shard without a database), TNORM_EPARSE (the harness; FILE:LINE in the
 * message), TNORM_ENOTFOUND (no tests in the folder: no *.t, or without a
 * harness no file), TNORM_EIO (the folder cannot be read, OUT
 * cannot be made or written), TNORM_EDB (a shard's database cannot be opened, or the database
 * fails during the job), TNORM_ENOMEM.  A test whose minimization fails
 * is not an error of the job: it is reported with its status.  The message is in
 * tnorm_error_last().
 */
TNORM_EXTERN int tnorm_triage_run(const tnorm_triage_options *o, tnorm_triage_result *res);

/** Free what a result owns and zero it.  Safe on a zeroed or disposed result. */
TNORM_EXTERN void tnorm_triage_result_dispose(tnorm_triage_result *res);

/**
 * A test's record as one line of JSON (no newline) in *out, freed with tnorm_free: the one shape
 * of a test that a result file (OUT/results/NAME.json, which adds "hash" and "job"), report.json's
 * "results" and the binding's dicts share.  Keys: test, status, complete, stage ("minimized" or
 * "check": one run), message, signature, key, original_steps, reduced_steps, normal_steps, runs,
 * seconds, reduced and normal (readable text; with reduced_hex and normal_hex, every byte in hex,
 * when the bytes are not UTF-8 text or hold a NUL), bucket (0: none), polished, and for a test
 * that fails, method ("minimized" or "assigned") and evidence (docs/commands/triage.md).
 * 0, TNORM_EINVALID (NULL argument) or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_test_json(const tnorm_triage_test *t, char **out);

#ifdef __cplusplus
}
#endif
#endif

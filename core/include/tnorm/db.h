/* SPDX-License-Identifier: MIT */
/*
 * db.h - the cross-test cache: a database of candidate outcomes and normal forms, and the work
 * items that triage workers claim.  An embedded SQLite file by default; a PostgreSQL server that
 * many machines share when the path is a URL (postgresql://USER@HOST/DB?..., or postgres://).
 *
 * Normalizing many failing tests of one program repeats work: the same candidates come up again,
 * and different tests pass through the same intermediate tests on their way to one normal form.
 * The database remembers, per *context* (the program and its arguments, the match policy and the
 * target signature), whether a test's content was interesting, and which normal form a test
 * leads to.  Every write is its own transaction in WAL mode, so a process killed at any point
 * (kill -9) leaves a consistent database; several processes may share one file (busy timeout).
 */
#ifndef TNORM_DB_H
#define TNORM_DB_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tnorm_db tnorm_db;

/**
 * Open (creating if needed) the database at `path`; its folder must exist.  A `path` that starts
 * with postgresql:// or postgres:// is a libpq connection URL: the server's database gets
 * tnorm's tables (named tnorm_*) on first use.  Either kind is refused untouched when it already
 * holds another program's tables (TNORM_EINVALID).  Free with tnorm_db_close().  0, or TNORM_EDB
 * with the file (or the URL without its password) and the database's message.
 */
TNORM_EXTERN int tnorm_db_open(tnorm_db **out, const char *path);

/** Close the database.  NULL is a no-op. */
TNORM_EXTERN void tnorm_db_close(tnorm_db *db);

/** A context key from its parts (hashing the NUL-separated strings; NULL entries end the list). */
TNORM_EXTERN uint64_t tnorm_db_context(const char *const *parts);

/** Look up an outcome.  *found is 0 or 1; when 1, *interesting says what was recorded. */
TNORM_EXTERN int tnorm_db_get_outcome(tnorm_db *db, uint64_t context, const void *test,
                                      size_t len, int *found, int *interesting);

/** Record an outcome (replacing an older one). */
TNORM_EXTERN int tnorm_db_put_outcome(tnorm_db *db, uint64_t context, const void *test,
                                      size_t len, int interesting);

/**
 * The normal form recorded for a test, or NULL in *normal when none.  *normal is freed with
 * tnorm_free().
 */
TNORM_EXTERN int tnorm_db_get_normal(tnorm_db *db, uint64_t context, const void *test, size_t len,
                                     char **normal);

/** Record that `test` normalizes to `normal`. */
TNORM_EXTERN int tnorm_db_put_normal(tnorm_db *db, uint64_t context, const void *test, size_t len,
                                     const char *normal);

/**
 * Record the path a test's minimization took: the tests it passed through, first to last (the
 * reduced test, each accepted rewrite, the normal form).  Keyed by the test's content alone, not
 * by context, so that a run under another context (a rebuilt program) can replay it: try the
 * recorded tests, smallest first, before searching (the example database of Hypothesis).
 */
TNORM_EXTERN int tnorm_db_put_path(tnorm_db *db, const void *test, size_t len,
                                   const char *const *forms, size_t n);

/**
 * The recorded path of a test: *forms receives *n strings (0 when none is recorded); free each
 * string and the array with tnorm_free().
 */
TNORM_EXTERN int tnorm_db_get_path(tnorm_db *db, const void *test, size_t len, char ***forms,
                                   size_t *n);

/**
 * Work items shared by many processes and machines (triage): item `name` of job `job` is
 * claimed by `worker` (any string that names the process, e.g. "host:pid" or "shard 3/8") for
 * `lease_s` seconds of the database's clock.  *got is 1 when the worker now holds the item: it
 * was never claimed, its last lease expired (its worker died), or this worker held it already
 * (the lease is renewed).  A finished item is never claimed again.  Each claim is one atomic
 * statement, so two workers never both hold an item.
 */
TNORM_EXTERN int tnorm_db_claim(tnorm_db *db, const char *job, const char *name,
                                const char *worker, int lease_s, int *got);

/**
 * Record an item's result (any text) and mark it finished, if `worker` still holds it: *ok is 1
 * then, and 0 when another worker has taken it over after the lease expired (nothing is written;
 * that worker will record its own).
 */
TNORM_EXTERN int tnorm_db_finish(tnorm_db *db, const char *job, const char *name,
                                 const char *worker, const char *result, int *ok);

/** A finished work item.  Both strings belong to the array. */
typedef struct tnorm_db_item {
	char *name;
	char *result;
} tnorm_db_item;

/**
 * The finished items of a job, sorted by name (bytewise).  *items receives *n items (NULL when
 * none); free them with tnorm_db_items_free().
 */
TNORM_EXTERN int tnorm_db_results(tnorm_db *db, const char *job, tnorm_db_item **items,
                                  size_t *n);

/**
 * One item's result: *result receives a copy (free with tnorm_free()) when the item is
 * finished, NULL when it is not (never claimed, or held by a worker).
 */
TNORM_EXTERN int tnorm_db_result(tnorm_db *db, const char *job, const char *name, char **result);

/** Free an array from tnorm_db_results().  NULL is a no-op. */
TNORM_EXTERN void tnorm_db_items_free(tnorm_db_item *items, size_t n);

/** True when `path` names a PostgreSQL server (postgresql:// or postgres://) rather than a file. */
TNORM_EXTERN int tnorm_db_is_url(const char *path);

/** Counters of this handle's lookups: hits and misses (outcomes and normal forms together). */
TNORM_EXTERN void tnorm_db_stats(const tnorm_db *db, uint64_t *hits, uint64_t *misses);

#ifdef __cplusplus
}
#endif
#endif

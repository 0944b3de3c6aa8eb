/* SPDX-License-Identifier: MIT */
/*
 * db.h - the cross-test cache: an embedded SQLite database of candidate outcomes and normal forms.
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
 * Open (creating if needed) the database at `path`; its folder must exist.  Free with
 * tnorm_db_close().  0, or TNORM_EDB with SQLite's message.
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

/** Counters of this handle's lookups: hits and misses (outcomes and normal forms together). */
TNORM_EXTERN void tnorm_db_stats(const tnorm_db *db, uint64_t *hits, uint64_t *misses);

#ifdef __cplusplus
}
#endif
#endif

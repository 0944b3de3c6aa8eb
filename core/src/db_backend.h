/* SPDX-License-Identifier: MIT */
/*
 * db_backend.h - the storage interface behind tnorm/db.h, with two implementations: an embedded
 * SQLite file (db_sqlite.c, the default) and a PostgreSQL server shared by many machines
 * (db_pg.c, for a path of the form postgresql://...).  db.c owns everything both have in common:
 * argument checks, content keys, the hit and miss counters, the encoding of recorded paths and
 * the arrays handed to the caller.  A backend stores and returns rows; it never hashes, counts,
 * allocates what the caller gets or prints, and calls nothing of db.c's (rows go back through
 * the callback db.c gives it).
 */
#ifndef TNORM_DB_BACKEND_H
#define TNORM_DB_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "tnorm/db.h"

/* A row key: the context (0 for paths, which are keyed by content alone) and the test's content
 * as two independent 64-bit hashes plus its length. */
typedef struct tnorm__db_key {
	int64_t ctx, h1, h2, len;
} tnorm__db_key;

typedef struct tnorm__db_ops {
	/* *found is 0 or 1; *interesting set when found. */
	int (*get_outcome)(void *be, const tnorm__db_key *k, int *found, int *interesting);
	int (*put_outcome)(void *be, const tnorm__db_key *k, int interesting);
	/* *normal: a malloc'd copy, or NULL when none is recorded. */
	int (*get_normal)(void *be, const tnorm__db_key *k, char **normal);
	int (*put_normal)(void *be, const tnorm__db_key *k, const char *normal);
	/* *blob: a malloc'd copy of *len bytes (never NULL when found), *found 0 or 1. */
	int (*get_path)(void *be, const tnorm__db_key *k, void **blob, size_t *len, int *found);
	int (*put_path)(void *be, const tnorm__db_key *k, const void *blob, size_t len);
	/* Work items: see tnorm_db_claim, tnorm_db_finish and tnorm_db_results. */
	int (*claim)(void *be, const char *job, const char *name, const char *worker, int lease_s,
	             int *got);
	int (*finish)(void *be, const char *job, const char *name, const char *worker,
	              const char *result, int *ok);
	/* Each finished item of the job as a row handed to `row` (its strings borrowed for the
	 * call); a nonzero return of `row` stops and is returned. */
	int (*results)(void *be, const char *job,
	               int (*row)(void *ctx, const char *name, const char *result), void *ctx);
	/* *result: a malloc'd copy of a finished item's result, NULL when it is not finished. */
	int (*result)(void *be, const char *job, const char *name, char **result);
	void (*close)(void *be);
} tnorm__db_ops;

/* Open a backend: 0 with *be and *ops set, or a negative code with the error set (the message
 * names `where`: the file, or the URL without its password). */
int tnorm__db_sqlite_open(const char *path, void **be, const tnorm__db_ops **ops);
int tnorm__db_pg_open(const char *url, void **be, const tnorm__db_ops **ops);


#endif

/* SPDX-License-Identifier: MIT */
/*
 * db_sqlite.c - the storage backend in an embedded SQLite file (the default).
 *
 * WAL journaling and one implicit transaction per statement make every write atomic, which is
 * what "survives kill -9" needs; a busy timeout lets several triage processes share the file.
 * Statements are prepared once per handle.  A file is used only when it is tnorm's own: a new,
 * empty file gets tnorm's application_id; one that holds other tables, or another application's
 * id, is refused untouched.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "db_backend.h"

typedef struct sq {
	sqlite3 *db;
	sqlite3_stmt *get_out, *put_out, *get_norm, *put_norm, *get_path, *put_path, *claim, *finish, *result,
		*results;
} sq;

static int dberr(sq *d, const char *what)
{
	return tnorm__error_set(TNORM_EDB, "result database: %s: %s", what,
	                        d && d->db ? sqlite3_errmsg(d->db) : "cannot open");
}

static void sq_close(void *be)
{
	sq *d = be;
	if (!d)
		return;
	sqlite3_finalize(d->get_out);
	sqlite3_finalize(d->put_out);
	sqlite3_finalize(d->get_norm);
	sqlite3_finalize(d->put_norm);
	sqlite3_finalize(d->get_path);
	sqlite3_finalize(d->put_path);
	sqlite3_finalize(d->claim);
	sqlite3_finalize(d->result);
	sqlite3_finalize(d->finish);
	sqlite3_finalize(d->results);
	sqlite3_close(d->db);
	free(d);
}

/* The database's clock, in seconds: leases are compared with it, never with a worker's clock. */
#define SQ_NOW "CAST(strftime('%s','now') AS INTEGER)"
/* One atomic statement: take a new item, an expired lease, or renew one's own. */
#define CLAIM_SQL                                                                                   \
	"INSERT INTO claim(job, name, worker, expires, done, result) VALUES(?1, ?2, ?3, " SQ_NOW     \
	" + ?4, 0, NULL) ON CONFLICT(job, name) DO UPDATE SET worker=excluded.worker, "             \
	"expires=excluded.expires WHERE claim.done=0 AND (claim.expires < " SQ_NOW                   \
	" OR claim.worker=excluded.worker) RETURNING worker"

static void bind_key(sqlite3_stmt *st, const tnorm__db_key *k, int first)
{
	if (first == 1)
		sqlite3_bind_int64(st, 1, k->ctx);
	sqlite3_bind_int64(st, first + 1, k->h1);
	sqlite3_bind_int64(st, first + 2, k->h2);
	sqlite3_bind_int64(st, first + 3, k->len);
}

/* Run a statement that returns at most one row: 1 with the row current, 0 for none. */
static int step_row(sq *d, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	dberr(d, "lookup");
	sqlite3_reset(st);
	return TNORM_EDB;
}

static int step_done(sq *d, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : dberr(d, "write");
}

static int sq_get_outcome(void *be, const tnorm__db_key *k, int *found, int *interesting)
{
	sq *d = be;
	int r;
	sqlite3_reset(d->get_out);
	bind_key(d->get_out, k, 1);
	if ((r = step_row(d, d->get_out)) < 0)
		return r;
	if ((*found = r))
		*interesting = sqlite3_column_int(d->get_out, 0);
	sqlite3_reset(d->get_out);
	return 0;
}

static int sq_put_outcome(void *be, const tnorm__db_key *k, int interesting)
{
	sq *d = be;
	sqlite3_reset(d->put_out);
	bind_key(d->put_out, k, 1);
	sqlite3_bind_int(d->put_out, 5, interesting);
	return step_done(d, d->put_out);
}

static int sq_get_normal(void *be, const tnorm__db_key *k, char **normal)
{
	sq *d = be;
	int r;
	sqlite3_reset(d->get_norm);
	bind_key(d->get_norm, k, 1);
	if ((r = step_row(d, d->get_norm)) < 0)
		return r;
	if (r) {
		const char *t = (const char *)sqlite3_column_text(d->get_norm, 0);
		if (!(*normal = tnorm__strdup(t ? t : "")))
			r = TNORM_ENOMEM;
	}
	sqlite3_reset(d->get_norm);
	return r < 0 ? r : 0;
}

static int sq_put_normal(void *be, const tnorm__db_key *k, const char *normal)
{
	sq *d = be;
	sqlite3_reset(d->put_norm);
	bind_key(d->put_norm, k, 1);
	sqlite3_bind_text(d->put_norm, 5, normal, -1, SQLITE_TRANSIENT);
	return step_done(d, d->put_norm);
}

static int sq_get_path(void *be, const tnorm__db_key *k, void **blob, size_t *len, int *found)
{
	sq *d = be;
	int r;
	sqlite3_reset(d->get_path);
	bind_key(d->get_path, k, 0);
	if ((r = step_row(d, d->get_path)) < 0)
		return r;
	if ((*found = r)) {
		const void *p = sqlite3_column_blob(d->get_path, 0);
		*len = (size_t)sqlite3_column_bytes(d->get_path, 0);
		if ((*blob = tnorm__malloc(*len + 1)))
			memcpy(*blob, p ? p : "", *len);
		else
			r = TNORM_ENOMEM;
	}
	sqlite3_reset(d->get_path);
	return r < 0 ? r : 0;
}

static int sq_put_path(void *be, const tnorm__db_key *k, const void *blob, size_t len)
{
	sq *d = be;
	sqlite3_reset(d->put_path);
	bind_key(d->put_path, k, 0);
	sqlite3_bind_blob(d->put_path, 4, blob, (int)len, SQLITE_TRANSIENT);
	return step_done(d, d->put_path);
}

static int sq_claim(void *be, const char *job, const char *name, const char *worker, int lease_s,
                    int *got)
{
	sq *d = be;
	int r;
	sqlite3_reset(d->claim);
	sqlite3_bind_text(d->claim, 1, job, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(d->claim, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(d->claim, 3, worker, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(d->claim, 4, lease_s);
	if ((r = step_row(d, d->claim)) < 0)
		return r;
	*got = r;
	/* Step to the end so that the statement's write is complete before the reset. */
	if (r && sqlite3_step(d->claim) != SQLITE_DONE) {
		r = dberr(d, "claim");
		sqlite3_reset(d->claim);
		return r;
	}
	sqlite3_reset(d->claim);
	return 0;
}

static int sq_finish(void *be, const char *job, const char *name, const char *worker,
                     const char *result, int *ok)
{
	sq *d = be;
	int err;
	sqlite3_reset(d->finish);
	sqlite3_bind_text(d->finish, 1, job, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(d->finish, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(d->finish, 3, worker, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(d->finish, 4, result, -1, SQLITE_TRANSIENT);
	if ((err = step_done(d, d->finish)) < 0)
		return err;
	*ok = sqlite3_changes(d->db) == 1;
	return 0;
}

static int sq_results(void *be, const char *job,
                      int (*row)(void *ctx, const char *name, const char *result), void *ctx)
{
	sq *d = be;
	int rc, err = 0;
	sqlite3_reset(d->results);
	sqlite3_bind_text(d->results, 1, job, -1, SQLITE_TRANSIENT);
	while (err == 0 && (rc = sqlite3_step(d->results)) == SQLITE_ROW)
		err = row(ctx, (const char *)sqlite3_column_text(d->results, 0),
		          (const char *)sqlite3_column_text(d->results, 1));
	if (err == 0 && rc != SQLITE_DONE)
		err = dberr(d, "results");
	sqlite3_reset(d->results);
	return err;
}

static int sq_result(void *be, const char *job, const char *name, char **result)
{
	sq *d = be;
	int r, err = 0;
	sqlite3_reset(d->result);
	sqlite3_bind_text(d->result, 1, job, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(d->result, 2, name, -1, SQLITE_TRANSIENT);
	if ((r = step_row(d, d->result)) < 0)
		return r;
	if (r && !(*result = tnorm__strdup((const char *)sqlite3_column_text(d->result, 0))))
		err = TNORM_ENOMEM;
	sqlite3_reset(d->result);
	return err;
}

static const tnorm__db_ops sq_ops = {
	sq_get_outcome, sq_put_outcome, sq_get_normal, sq_put_normal, sq_get_path, sq_put_path,
	sq_claim,       sq_finish,      sq_results,    sq_result,     sq_close,
};

/* "tnrm": the SQLite application_id that marks a file as tnorm's result database. */
#define TNORM__DB_APPLICATION_ID 0x746e726d
#define TNORM__DB_APPLICATION_ID_TEXT "1953395309"

int tnorm__db_sqlite_open(const char *path, void **out, const tnorm__db_ops **ops)
{
	static const char schema[] =
		"PRAGMA journal_mode=WAL;"
		"PRAGMA synchronous=NORMAL;"
		"CREATE TABLE IF NOT EXISTS outcome(ctx INTEGER, h1 INTEGER, h2 INTEGER, len INTEGER,"
		" interesting INTEGER, PRIMARY KEY(ctx, h1, h2, len));"
		"CREATE TABLE IF NOT EXISTS normal(ctx INTEGER, h1 INTEGER, h2 INTEGER, len INTEGER,"
		" form TEXT, PRIMARY KEY(ctx, h1, h2, len));"
		"CREATE TABLE IF NOT EXISTS path(h1 INTEGER, h2 INTEGER, len INTEGER, forms BLOB,"
		" PRIMARY KEY(h1, h2, len));"
		"CREATE TABLE IF NOT EXISTS claim(job TEXT, name TEXT, worker TEXT, expires INTEGER,"
		" done INTEGER, result TEXT, PRIMARY KEY(job, name));";
	sq *d;
	char *msg = NULL;
	*out = NULL;
	if (!(d = tnorm__calloc(1, sizeof(*d))))
		return TNORM_ENOMEM;
	if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK) {
		int err = tnorm__error_set(TNORM_EDB, "%s: cannot open the result database: %s", path,
		                           d->db ? sqlite3_errmsg(d->db) : "out of memory");
		sq_close(d);
		return err;
	}
	sqlite3_busy_timeout(d->db, 10000);
	{
		/* Only a database of tnorm's own is used and extended: a new, empty file gets tnorm's
		 * application_id; one that holds other tables, or another application's id, is
		 * somebody else's file and is refused untouched. */
		int app = -1, ntables = -1, ours = 0, err;
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(d->db, "PRAGMA application_id", -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			app = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		st = NULL;
		if (sqlite3_prepare_v2(d->db, "SELECT count(*), sum(name IN ('outcome','normal','path','claim')) "
		                       "FROM sqlite_master WHERE type='table'", -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW) {
			ntables = sqlite3_column_int(st, 0);
			ours = sqlite3_column_int(st, 1);
		}
		sqlite3_finalize(st);
		if (app < 0 || ntables < 0) {
			err = tnorm__error_set(TNORM_EDB, "%s: cannot read the result database: %s (a corrupt "
			                       "file? remove it, name another with --db, or use --no-db)",
			                       path, sqlite3_errmsg(d->db));
			sq_close(d);
			return err;
		}
		if ((app != 0 && app != TNORM__DB_APPLICATION_ID) ||
		    (app == 0 && ntables > 0 && ours != ntables)) {
			err = tnorm__error_set(TNORM_EINVALID, "%s is not a tnorm result database (it belongs "
			                       "to another program: application_id %d, %d tables); it is left "
			                       "untouched: name another file with --db, or use --no-db", path,
			                       app, ntables);
			sq_close(d);
			return err;
		}
		if (app == 0)
			sqlite3_exec(d->db, "PRAGMA application_id=" TNORM__DB_APPLICATION_ID_TEXT, NULL, NULL,
			             NULL);
	}
	if (sqlite3_exec(d->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
		int err = tnorm__error_set(TNORM_EDB, "%s: not a usable result database: %s (read-only "
		                           "or corrupt? name another file with --db, or use --no-db)",
		                           path, msg ? msg : "?");
		sqlite3_free(msg);
		sq_close(d);
		return err;
	}
	if (sqlite3_prepare_v2(d->db, "SELECT interesting FROM outcome WHERE ctx=? AND h1=? AND h2=? AND len=?",
	                       -1, &d->get_out, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "INSERT OR REPLACE INTO outcome VALUES(?,?,?,?,?)", -1, &d->put_out,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "SELECT form FROM normal WHERE ctx=? AND h1=? AND h2=? AND len=?", -1,
	                       &d->get_norm, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "INSERT OR REPLACE INTO normal VALUES(?,?,?,?,?)", -1, &d->put_norm,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "SELECT forms FROM path WHERE h1=? AND h2=? AND len=?", -1,
	                       &d->get_path, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "INSERT OR REPLACE INTO path VALUES(?,?,?,?)", -1, &d->put_path,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, CLAIM_SQL, -1, &d->claim, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "UPDATE claim SET done=1, result=?4 WHERE job=?1 AND name=?2 AND "
	                       "worker=?3 AND done=0", -1, &d->finish, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "SELECT name, result FROM claim WHERE job=? AND done=1 ORDER BY "
	                       "name", -1, &d->results, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "SELECT coalesce(result, '') FROM claim WHERE job=? AND name=? AND "
	                       "done=1", -1, &d->result, NULL) != SQLITE_OK) {
		int err = dberr(d, path);
		sq_close(d);
		return err;
	}
	*out = d;
	*ops = &sq_ops;
	return 0;
}

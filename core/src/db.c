/* SPDX-License-Identifier: MIT */
/*
 * db.c - the cross-test cache in SQLite.
 *
 * Two tables keyed by (context, content hash of the test): outcomes (was this candidate
 * interesting?) and normal forms (what does this test normalize to?).  A third, keyed by the
 * content alone, keeps the path each test's minimization took, for replay under a new context.  The content hash is two
 * independent 64-bit hashes stored as one 128-bit key, so distinct tests practically never
 * collide.  WAL journaling and one implicit transaction per statement make every write atomic,
 * which is what "survives kill -9" needs; a busy timeout lets several triage processes share the
 * file.  Statements are prepared once per handle.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "tnorm/db.h"

struct tnorm_db {
	sqlite3 *db;
	sqlite3_stmt *get_out, *put_out, *get_norm, *put_norm, *get_path, *put_path;
	uint64_t hits, misses;
};

static int dberr(tnorm_db *d, const char *what)
{
	return tnorm__error_set(TNORM_EDB, "result database: %s: %s", what,
	                        d && d->db ? sqlite3_errmsg(d->db) : "cannot open");
}

void tnorm_db_close(tnorm_db *d)
{
	if (!d)
		return;
	sqlite3_finalize(d->get_out);
	sqlite3_finalize(d->put_out);
	sqlite3_finalize(d->get_norm);
	sqlite3_finalize(d->put_norm);
	sqlite3_finalize(d->get_path);
	sqlite3_finalize(d->put_path);
	sqlite3_close(d->db);
	free(d);
}

/* "tnrm": the SQLite application_id that marks a file as tnorm's result database. */
#define TNORM__DB_APPLICATION_ID 0x746e726d
#define TNORM__DB_APPLICATION_ID_TEXT "1953395309"

int tnorm_db_open(tnorm_db **out, const char *path)
{
	static const char schema[] =
		"PRAGMA journal_mode=WAL;"
		"PRAGMA synchronous=NORMAL;"
		"CREATE TABLE IF NOT EXISTS outcome(ctx INTEGER, h1 INTEGER, h2 INTEGER, len INTEGER,"
		" interesting INTEGER, PRIMARY KEY(ctx, h1, h2, len));"
		"CREATE TABLE IF NOT EXISTS normal(ctx INTEGER, h1 INTEGER, h2 INTEGER, len INTEGER,"
		" form TEXT, PRIMARY KEY(ctx, h1, h2, len));"
		"CREATE TABLE IF NOT EXISTS path(h1 INTEGER, h2 INTEGER, len INTEGER, forms BLOB,"
		" PRIMARY KEY(h1, h2, len));";
	tnorm_db *d;
	char *msg = NULL;
	if (!out || !path)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_open: NULL argument");
	*out = NULL;
	if (!(d = tnorm__calloc(1, sizeof(*d))))
		return TNORM_ENOMEM;
	if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK) {
		int err = tnorm__error_set(TNORM_EDB, "%s: cannot open the result database: %s", path,
		                           d->db ? sqlite3_errmsg(d->db) : "out of memory");
		tnorm_db_close(d);
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
		if (sqlite3_prepare_v2(d->db, "SELECT count(*), sum(name IN ('outcome','normal','path')) "
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
			tnorm_db_close(d);
			return err;
		}
		if ((app != 0 && app != TNORM__DB_APPLICATION_ID) ||
		    (app == 0 && ntables > 0 && ours != ntables)) {
			err = tnorm__error_set(TNORM_EINVALID, "%s is not a tnorm result database (it belongs "
			                       "to another program: application_id %d, %d tables); it is left "
			                       "untouched: name another file with --db, or use --no-db", path,
			                       app, ntables);
			tnorm_db_close(d);
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
		tnorm_db_close(d);
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
	                       NULL) != SQLITE_OK) {
		int err = dberr(d, path);
		tnorm_db_close(d);
		return err;
	}
	*out = d;
	return 0;
}

uint64_t tnorm_db_context(const char *const *parts)
{
	uint64_t h = 0x74636f6e74657874ULL;
	size_t i;
	for (i = 0; parts && parts[i]; i++)
		h = tnorm__hash64(parts[i], strlen(parts[i]) + 1, h);
	return h;
}

/* The content key, columns first..first+2: two hashes of the test and its length. */
static void bind_hashed(sqlite3_stmt *st, int first, uint64_t h1, uint64_t h2, size_t len)
{
	sqlite3_bind_int64(st, first, (sqlite3_int64)h1);
	sqlite3_bind_int64(st, first + 1, (sqlite3_int64)h2);
	sqlite3_bind_int64(st, first + 2, (sqlite3_int64)len);
}

static void bind_hashes(sqlite3_stmt *st, int first, const void *test, size_t len)
{
	uint64_t h1, h2;
	tnorm__hash64_pair(test, len, TNORM__H1_SEED, TNORM__H2_SEED, &h1, &h2);
	bind_hashed(st, first, h1, h2, len);
}

static void bind_key(sqlite3_stmt *st, uint64_t ctx, const void *test, size_t len)
{
	sqlite3_bind_int64(st, 1, (sqlite3_int64)ctx);
	bind_hashes(st, 2, test, len);
}

int tnorm_db_get_outcome(tnorm_db *d, uint64_t ctx, const void *test, size_t len, int *found,
                         int *interesting)
{
	uint64_t h1, h2;
	if (!d || !found || !interesting)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_get_outcome: NULL argument");
	tnorm__hash64_pair(test, len, TNORM__H1_SEED, TNORM__H2_SEED, &h1, &h2);
	return tnorm__db_get_outcome_hashed(d, ctx, h1, h2, len, found, interesting);
}

int tnorm__db_get_outcome_hashed(tnorm_db *d, uint64_t ctx, uint64_t h1, uint64_t h2, size_t len,
                                 int *found, int *interesting)
{
	int rc;
	*found = *interesting = 0;
	sqlite3_reset(d->get_out);
	sqlite3_bind_int64(d->get_out, 1, (sqlite3_int64)ctx);
	bind_hashed(d->get_out, 2, h1, h2, len);
	rc = sqlite3_step(d->get_out);
	if (rc == SQLITE_ROW) {
		*found = 1;
		*interesting = sqlite3_column_int(d->get_out, 0);
		d->hits++;
	} else if (rc == SQLITE_DONE) {
		d->misses++;
	} else {
		return dberr(d, "lookup");
	}
	sqlite3_reset(d->get_out);
	return 0;
}

int tnorm_db_put_outcome(tnorm_db *d, uint64_t ctx, const void *test, size_t len, int interesting)
{
	uint64_t h1, h2;
	if (!d)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_put_outcome: NULL db");
	tnorm__hash64_pair(test, len, TNORM__H1_SEED, TNORM__H2_SEED, &h1, &h2);
	return tnorm__db_put_outcome_hashed(d, ctx, h1, h2, len, interesting);
}

int tnorm__db_put_outcome_hashed(tnorm_db *d, uint64_t ctx, uint64_t h1, uint64_t h2, size_t len,
                                 int interesting)
{
	sqlite3_reset(d->put_out);
	sqlite3_bind_int64(d->put_out, 1, (sqlite3_int64)ctx);
	bind_hashed(d->put_out, 2, h1, h2, len);
	sqlite3_bind_int(d->put_out, 5, interesting ? 1 : 0);
	if (sqlite3_step(d->put_out) != SQLITE_DONE)
		return dberr(d, "write");
	sqlite3_reset(d->put_out);
	return 0;
}

int tnorm_db_get_normal(tnorm_db *d, uint64_t ctx, const void *test, size_t len, char **normal)
{
	int rc;
	if (!d || !normal)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_get_normal: NULL argument");
	*normal = NULL;
	sqlite3_reset(d->get_norm);
	bind_key(d->get_norm, ctx, test, len);
	rc = sqlite3_step(d->get_norm);
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(d->get_norm, 0);
		if (!(*normal = tnorm__strdup(t ? t : ""))) {
			sqlite3_reset(d->get_norm);
			return TNORM_ENOMEM;
		}
		d->hits++;
	} else if (rc == SQLITE_DONE) {
		d->misses++;
	} else {
		return dberr(d, "lookup");
	}
	sqlite3_reset(d->get_norm);
	return 0;
}

int tnorm_db_put_normal(tnorm_db *d, uint64_t ctx, const void *test, size_t len, const char *normal)
{
	if (!d || !normal)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_put_normal: NULL argument");
	sqlite3_reset(d->put_norm);
	bind_key(d->put_norm, ctx, test, len);
	sqlite3_bind_text(d->put_norm, 5, normal, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(d->put_norm) != SQLITE_DONE)
		return dberr(d, "write");
	sqlite3_reset(d->put_norm);
	return 0;
}

/* The path key: the content hash alone (columns 1..3). */
static void bind_content(sqlite3_stmt *st, const void *test, size_t len)
{
	bind_hashes(st, 1, test, len);
}

/* A path is stored as one blob: for each form, its length in decimal, ':', its bytes. */
int tnorm_db_put_path(tnorm_db *d, const void *test, size_t len, const char *const *forms,
                      size_t n)
{
	tnorm__buf b = TNORM__BUF_INIT;
	size_t i;
	int err = 0;
	if (!d || (!forms && n))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_put_path: NULL argument");
	for (i = 0; i < n && err == 0; i++)
		if ((err = tnorm__buf_printf(&b, "%zu:", strlen(forms[i]))) == 0)
			err = tnorm__buf_puts(&b, forms[i]);
	if (err < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	sqlite3_reset(d->put_path);
	bind_content(d->put_path, test, len);
	sqlite3_bind_blob(d->put_path, 4, b.ptr ? b.ptr : "", (int)b.len, SQLITE_TRANSIENT);
	tnorm__buf_dispose(&b);
	if (sqlite3_step(d->put_path) != SQLITE_DONE)
		return dberr(d, "write");
	sqlite3_reset(d->put_path);
	return 0;
}

int tnorm_db_get_path(tnorm_db *d, const void *test, size_t len, char ***forms, size_t *n)
{
	const char *p, *end;
	char **arr = NULL;
	size_t cnt = 0;
	int rc, err = 0;
	if (!d || !forms || !n)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_get_path: NULL argument");
	*forms = NULL;
	*n = 0;
	sqlite3_reset(d->get_path);
	bind_content(d->get_path, test, len);
	rc = sqlite3_step(d->get_path);
	if (rc == SQLITE_DONE) {
		d->misses++;
		sqlite3_reset(d->get_path);
		return 0;
	}
	if (rc != SQLITE_ROW)
		return dberr(d, "lookup");
	d->hits++;
	p = sqlite3_column_blob(d->get_path, 0);
	end = p ? p + sqlite3_column_bytes(d->get_path, 0) : p;
	while (p && p < end && err == 0) {
		char *colon = memchr(p, ':', (size_t)(end - p)), **na;
		size_t l = (size_t)strtoull(p, NULL, 10);
		if (!colon || l > (size_t)(end - colon - 1))
			break; /* a damaged record: keep what parsed */
		if (!(na = tnorm__reallocarray(arr, cnt + 1, sizeof(*na))) ||
		    !((na[cnt] = tnorm__malloc(l + 1)))) {
			if (na)
				arr = na;
			err = TNORM_ENOMEM;
			break;
		}
		arr = na;
		memcpy(arr[cnt], colon + 1, l);
		arr[cnt][l] = '\0';
		cnt++;
		p = colon + 1 + l;
	}
	sqlite3_reset(d->get_path);
	if (err < 0) {
		while (cnt)
			free(arr[--cnt]);
		free(arr);
		return err;
	}
	*forms = arr;
	*n = cnt;
	return 0;
}

void tnorm_db_stats(const tnorm_db *d, uint64_t *hits, uint64_t *misses)
{
	if (hits)
		*hits = d ? d->hits : 0;
	if (misses)
		*misses = d ? d->misses : 0;
}

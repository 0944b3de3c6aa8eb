/* SPDX-License-Identifier: MIT */
/*
 * db_pg.c - the storage backend on a PostgreSQL server (libpq), for many machines that share one
 * cache and one set of triage work items.
 *
 * The same rows as the SQLite file, in tables named tnorm_* so that they can live in a database
 * that is not tnorm's alone.  Every statement is one implicit transaction; upserts
 * (INSERT ... ON CONFLICT) make writes from concurrent workers safe without locks, and a claim is
 * one statement that only succeeds on a free item, an expired lease or the worker's own, so two
 * workers never both hold an item.  Leases use the server's clock, never a worker's.  The schema
 * is created under a transaction-level advisory lock, so that workers starting together do not
 * race on CREATE TABLE.  A database that already holds tables of another program (tables not
 * named tnorm_*) is refused untouched, as an SQLite file with another application_id is.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "db_backend.h"

typedef struct pg {
	PGconn *c;
	char *where; /* the URL without its password, for messages */
} pg;

enum {
	Q_GET_OUT,
	Q_PUT_OUT,
	Q_GET_NORM,
	Q_PUT_NORM,
	Q_GET_PATH,
	Q_PUT_PATH,
	Q_CLAIM,
	Q_FINISH,
	Q_RESULTS,
	Q_RESULT,
	Q_COUNT
};

#define PG_NOW "CAST(extract(epoch FROM clock_timestamp()) AS BIGINT)"

static const struct {
	const char *sql;
	int nparams;
} queries[Q_COUNT] = {
	{"SELECT interesting FROM tnorm_outcome WHERE ctx=$1 AND h1=$2 AND h2=$3 AND len=$4", 4},
	{"INSERT INTO tnorm_outcome VALUES($1,$2,$3,$4,$5) ON CONFLICT(ctx,h1,h2,len) DO UPDATE SET "
	 "interesting=excluded.interesting",
	 5},
	{"SELECT form FROM tnorm_normal WHERE ctx=$1 AND h1=$2 AND h2=$3 AND len=$4", 4},
	{"INSERT INTO tnorm_normal VALUES($1,$2,$3,$4,$5) ON CONFLICT(ctx,h1,h2,len) DO UPDATE SET "
	 "form=excluded.form",
	 5},
	{"SELECT forms FROM tnorm_path WHERE h1=$1 AND h2=$2 AND len=$3", 3},
	{"INSERT INTO tnorm_path VALUES($1,$2,$3,$4) ON CONFLICT(h1,h2,len) DO UPDATE SET "
	 "forms=excluded.forms",
	 4},
	{"INSERT INTO tnorm_claim(job,name,worker,expires,done,result) VALUES($1,$2,$3," PG_NOW
	 "+$4,0,NULL) ON CONFLICT(job,name) DO UPDATE SET worker=excluded.worker, "
	 "expires=excluded.expires WHERE tnorm_claim.done=0 AND (tnorm_claim.expires < " PG_NOW
	 " OR tnorm_claim.worker=excluded.worker) RETURNING worker",
	 4},
	{"UPDATE tnorm_claim SET done=1, result=$4 WHERE job=$1 AND name=$2 AND worker=$3 AND done=0",
	 4},
	{"SELECT name, result FROM tnorm_claim WHERE job=$1 AND done=1 ORDER BY name COLLATE \"C\"", 1},
	{"SELECT coalesce(result, '') FROM tnorm_claim WHERE job=$1 AND name=$2 AND done=1", 2},
};

/* The schema is checked and created in one transaction, under the lock. */
static const char schema_begin[] =
	"BEGIN;"
	"SELECT pg_advisory_xact_lock(1953395309);"; /* "tnrm", as the SQLite application_id */

/* Each table's columns as information_schema says them, in order: a table of that name with
 * other columns is another program's (issue 39, item 11). */
static const char *const schema_columns[][2] = {
	{"tnorm_outcome", "ctx bigint,h1 bigint,h2 bigint,len bigint,interesting integer"},
	{"tnorm_normal", "ctx bigint,h1 bigint,h2 bigint,len bigint,form text"},
	{"tnorm_path", "h1 bigint,h2 bigint,len bigint,forms bytea"},
	{"tnorm_claim", "job text,name text,worker text,expires bigint,done integer,result text"},
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS tnorm_outcome(ctx BIGINT, h1 BIGINT, h2 BIGINT, len BIGINT,"
	" interesting INTEGER, PRIMARY KEY(ctx, h1, h2, len));"
	"CREATE TABLE IF NOT EXISTS tnorm_normal(ctx BIGINT, h1 BIGINT, h2 BIGINT, len BIGINT,"
	" form TEXT, PRIMARY KEY(ctx, h1, h2, len));"
	"CREATE TABLE IF NOT EXISTS tnorm_path(h1 BIGINT, h2 BIGINT, len BIGINT, forms BYTEA,"
	" PRIMARY KEY(h1, h2, len));"
	"CREATE TABLE IF NOT EXISTS tnorm_claim(job TEXT, name TEXT, worker TEXT, expires BIGINT,"
	" done INTEGER, result TEXT, PRIMARY KEY(job, name));"
	"COMMIT;";

/* The URL for messages: the password (user:PASSWORD@ or password=...) replaced by "***". */
static char *redact(const char *url)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *at = strchr(url, '@'), *scheme = strstr(url, "://"), *pw;
	const char *q = strchr(url, '?');
	int err;
	if (scheme && at && (!q || at < q)) {
		const char *colon = memchr(scheme + 3, ':', (size_t)(at - scheme - 3));
		if (colon) {
			err = tnorm__buf_put(&b, url, (size_t)(colon - url + 1));
			if (err == 0)
				err = tnorm__buf_puts(&b, "***");
			url = at;
			if (err < 0) {
				tnorm__buf_dispose(&b);
				return NULL;
			}
		}
	}
	if ((pw = strstr(url, "password=")) != NULL) {
		const char *end = strchr(pw, '&');
		if (tnorm__buf_put(&b, url, (size_t)(pw - url + 9)) < 0 || tnorm__buf_puts(&b, "***") < 0 ||
		    (end && tnorm__buf_puts(&b, end) < 0)) {
			tnorm__buf_dispose(&b);
			return NULL;
		}
		return tnorm__buf_detach(&b);
	}
	if (tnorm__buf_puts(&b, url) < 0) {
		tnorm__buf_dispose(&b);
		return NULL;
	}
	return tnorm__buf_detach(&b);
}

/* libpq's messages end with a newline, and many have several lines ("server closed the
 * connection unexpectedly\n\tThis probably means ...", "ERROR: ...\nLINE 1: SELECT ...\n  ^"):
 * the error object's are one line (issue 39, item 12).  The lines are joined by a blank, each
 * trimmed, without the statement's text and its caret (LINE N: ..., ^), which a user cannot act
 * on. */
static int pgerr(pg *d, const char *what, const char *msg)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *p = msg ? msg : "unknown error";
	int err;
	while (*p) {
		const char *end = strchr(p, '\n'), *q;
		size_t n = end ? (size_t)(end - p) : strlen(p);
		while (n && (*p == ' ' || *p == '\t'))
			p++, n--;
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
			n--;
		for (q = p; q < p + n && (*q == '^' || *q == ' '); q++)
			;
		if (n && q < p + n && strncmp(p, "LINE ", 5) &&
		    ((b.len && tnorm__buf_putc(&b, ' ') < 0) || tnorm__buf_put(&b, p, n) < 0))
			break;
		p = end ? end + 1 : p + strlen(p);
	}
	err = tnorm__error_set(TNORM_EDB, "%s: %s: %.*s", d->where, what, (int)b.len,
	                       b.ptr ? b.ptr : "");
	tnorm__buf_dispose(&b);
	return err;
}

/* The server's notices and warnings (WARNING: terminating connection because of crash of
 * another server process, ...) are not printed: a library does not print, and what they warn
 * of comes back as the next statement's error. */
static void pg_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static void pg_close(void *be)
{
	pg *d = be;
	if (!d)
		return;
	if (d->c)
		PQfinish(d->c);
	free(d->where);
	free(d);
}

/*
 * Run prepared query q.  `vals` are text parameters; a parameter with a nonzero length in `lens`
 * is sent as binary (bytea).  Returns the result (the caller clears it) or NULL with the error
 * set; `want` is the status that counts as success.
 */
static PGresult *run(pg *d, int q, const char *const *vals, const int *lens, int binary_result,
                     ExecStatusType want)
{
	int formats[8] = {0}, i;
	char name[2] = {(char)('a' + q), 0}; /* statements are named a, b, c, ... by index */
	PGresult *r;
	for (i = 0; lens && i < queries[q].nparams; i++)
		formats[i] = lens[i] > 0;
	r = PQexecPrepared(d->c, name, queries[q].nparams, vals, lens, formats, binary_result);
	if (!r || PQresultStatus(r) != want) {
		pgerr(d, q == Q_CLAIM ? "claim" : (want == PGRES_TUPLES_OK ? "lookup" : "write"),
		      r ? PQresultErrorMessage(r) : PQerrorMessage(d->c));
		PQclear(r);
		return NULL;
	}
	return r;
}

typedef struct keytext {
	char v[4][24];
	const char *p[5];
} keytext;

/* The key as text parameters: ctx first when `with_ctx`, then h1, h2, len. */
static void key_params(keytext *kt, const tnorm__db_key *k, int with_ctx)
{
	int n = 0;
	if (with_ctx)
		snprintf(kt->v[n++], sizeof(kt->v[0]), "%lld", (long long)k->ctx);
	snprintf(kt->v[n++], sizeof(kt->v[0]), "%lld", (long long)k->h1);
	snprintf(kt->v[n++], sizeof(kt->v[0]), "%lld", (long long)k->h2);
	snprintf(kt->v[n++], sizeof(kt->v[0]), "%lld", (long long)k->len);
	for (int i = 0; i < n; i++)
		kt->p[i] = kt->v[i];
	kt->p[n] = NULL;
}

static int pg_get_outcome(void *be, const tnorm__db_key *k, int *found, int *interesting)
{
	keytext kt;
	PGresult *r;
	key_params(&kt, k, 1);
	if (!(r = run(be, Q_GET_OUT, kt.p, NULL, 0, PGRES_TUPLES_OK)))
		return TNORM_EDB;
	if ((*found = PQntuples(r) > 0))
		*interesting = atoi(PQgetvalue(r, 0, 0)) != 0;
	PQclear(r);
	return 0;
}

static int pg_put_outcome(void *be, const tnorm__db_key *k, int interesting)
{
	keytext kt;
	PGresult *r;
	key_params(&kt, k, 1);
	kt.p[4] = interesting ? "1" : "0";
	if (!(r = run(be, Q_PUT_OUT, kt.p, NULL, 0, PGRES_COMMAND_OK)))
		return TNORM_EDB;
	PQclear(r);
	return 0;
}

static int pg_get_normal(void *be, const tnorm__db_key *k, char **normal)
{
	keytext kt;
	PGresult *r;
	int err = 0;
	key_params(&kt, k, 1);
	if (!(r = run(be, Q_GET_NORM, kt.p, NULL, 0, PGRES_TUPLES_OK)))
		return TNORM_EDB;
	if (PQntuples(r) > 0 && !(*normal = tnorm__strdup(PQgetvalue(r, 0, 0))))
		err = TNORM_ENOMEM;
	PQclear(r);
	return err;
}

static int pg_put_normal(void *be, const tnorm__db_key *k, const char *normal)
{
	keytext kt;
	PGresult *r;
	key_params(&kt, k, 1);
	kt.p[4] = normal;
	if (!(r = run(be, Q_PUT_NORM, kt.p, NULL, 0, PGRES_COMMAND_OK)))
		return TNORM_EDB;
	PQclear(r);
	return 0;
}

static int pg_get_path(void *be, const tnorm__db_key *k, void **blob, size_t *len, int *found)
{
	keytext kt;
	PGresult *r;
	int err = 0;
	key_params(&kt, k, 0);
	if (!(r = run(be, Q_GET_PATH, kt.p, NULL, 1, PGRES_TUPLES_OK)))
		return TNORM_EDB;
	if ((*found = PQntuples(r) > 0)) {
		*len = (size_t)PQgetlength(r, 0, 0);
		if ((*blob = tnorm__malloc(*len + 1)))
			memcpy(*blob, PQgetvalue(r, 0, 0), *len);
		else
			err = TNORM_ENOMEM;
	}
	PQclear(r);
	return err;
}

static int pg_put_path(void *be, const tnorm__db_key *k, const void *blob, size_t len)
{
	keytext kt;
	PGresult *r;
	int lens[4] = {0, 0, 0, 0};
	key_params(&kt, k, 0);
	if (len > 0x7fffffff)
		return tnorm__error_set(TNORM_EOVERFLOW, "%s: a recorded path of %zu bytes is too large",
		                        ((pg *)be)->where, len);
	/* An empty blob is sent as text: the empty string is a valid bytea literal. */
	kt.p[3] = len ? blob : "";
	lens[3] = (int)len;
	if (!(r = run(be, Q_PUT_PATH, kt.p, lens, 0, PGRES_COMMAND_OK)))
		return TNORM_EDB;
	PQclear(r);
	return 0;
}

static int pg_claim(void *be, const char *job, const char *name, const char *worker, int lease_s,
                    int *got)
{
	char lease[16];
	const char *p[4];
	PGresult *r;
	snprintf(lease, sizeof(lease), "%d", lease_s);
	p[0] = job, p[1] = name, p[2] = worker, p[3] = lease;
	if (!(r = run(be, Q_CLAIM, p, NULL, 0, PGRES_TUPLES_OK)))
		return TNORM_EDB;
	*got = PQntuples(r) > 0;
	PQclear(r);
	return 0;
}

static int pg_finish(void *be, const char *job, const char *name, const char *worker,
                     const char *result, int *ok)
{
	const char *p[4];
	PGresult *r;
	p[0] = job, p[1] = name, p[2] = worker, p[3] = result;
	if (!(r = run(be, Q_FINISH, p, NULL, 0, PGRES_COMMAND_OK)))
		return TNORM_EDB;
	*ok = !strcmp(PQcmdTuples(r), "1");
	PQclear(r);
	return 0;
}

static int pg_results(void *be, const char *job,
                      int (*row)(void *ctx, const char *name, const char *result), void *ctx)
{
	const char *p[1];
	PGresult *r;
	int i, err = 0;
	p[0] = job;
	if (!(r = run(be, Q_RESULTS, p, NULL, 0, PGRES_TUPLES_OK)))
		return TNORM_EDB;
	for (i = 0; i < PQntuples(r) && err == 0; i++)
		err = row(ctx, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
	PQclear(r);
	return err;
}

static int pg_result(void *be, const char *job, const char *name, char **result)
{
	const char *p[2];
	PGresult *r;
	int err = 0;
	p[0] = job, p[1] = name;
	if (!(r = run(be, Q_RESULT, p, NULL, 0, PGRES_TUPLES_OK)))
		return TNORM_EDB;
	if (PQntuples(r) > 0 && !(*result = tnorm__strdup(PQgetvalue(r, 0, 0))))
		err = TNORM_ENOMEM;
	PQclear(r);
	return err;
}

static const tnorm__db_ops pg_ops = {
	pg_get_outcome, pg_put_outcome, pg_get_normal, pg_put_normal, pg_get_path, pg_put_path,
	pg_claim,       pg_finish,      pg_results,    pg_result,     pg_close,
};

/* 0 when r has the status `want`, else the error `what`; r is cleared either way. */
static int want_status(pg *d, PGresult *r, ExecStatusType want, const char *what)
{
	int err = 0;
	if (!r || PQresultStatus(r) != want)
		err = pgerr(d, what, r ? PQresultErrorMessage(r) : PQerrorMessage(d->c));
	PQclear(r);
	return err;
}

/* Refuse tables named as tnorm's but made by another program (other columns); 0 when each of
 * tnorm's tables is missing or has tnorm's columns. */
static int check_columns(pg *d)
{
	PGresult *r = PQexec(d->c, "SELECT table_name, string_agg(column_name || ' ' || data_type, "
	                           "',' ORDER BY ordinal_position) FROM information_schema.columns "
	                           "WHERE table_schema = current_schema() AND table_name IN "
	                           "('tnorm_outcome', 'tnorm_normal', 'tnorm_path', 'tnorm_claim') "
	                           "GROUP BY table_name");
	int i, t, err = 0;
	if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
		err = pgerr(d, "cannot read the database's tables",
		            r ? PQresultErrorMessage(r) : PQerrorMessage(d->c));
		PQclear(r);
		return err;
	}
	for (i = 0; i < PQntuples(r) && err == 0; i++)
		for (t = 0; t < 4; t++)
			if (!strcmp(PQgetvalue(r, i, 0), schema_columns[t][0]) &&
			    strcmp(PQgetvalue(r, i, 1), schema_columns[t][1]))
				err = tnorm__error_set(TNORM_EINVALID, "%s is not a tnorm result database (its "
				                       "table %s is another program's: other columns); it is "
				                       "left untouched: name a database of its own with --db, "
				                       "or use --no-db", d->where, schema_columns[t][0]);
	PQclear(r);
	return err;
}

/* Refuse a database that holds another program's tables; 0 when it is empty or tnorm's. */
static int check_owner(pg *d)
{
	PGresult *r = PQexec(d->c, "SELECT count(*), count(*) FILTER (WHERE tablename LIKE 'tnorm\\_%') "
	                           "FROM pg_tables WHERE schemaname = current_schema()");
	long all, ours;
	int err = 0;
	if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
		err = pgerr(d, "cannot read the database's tables",
		            r ? PQresultErrorMessage(r) : PQerrorMessage(d->c));
		PQclear(r);
		return err;
	}
	all = atol(PQgetvalue(r, 0, 0));
	ours = atol(PQgetvalue(r, 0, 1));
	PQclear(r);
	if (all != ours)
		err = tnorm__error_set(TNORM_EINVALID, "%s is not a tnorm result database (it holds %ld "
		                       "tables of another program); it is left untouched: name a database "
		                       "of its own with --db, or use --no-db", d->where, all - ours);
	return err;
}

int tnorm__db_pg_open(const char *url, void **out, const tnorm__db_ops **ops)
{
	pg *d;
	PGresult *r;
	int q, err;
	*out = NULL;
	if (!(d = tnorm__calloc(1, sizeof(*d))) || !(d->where = redact(url))) {
		free(d);
		return TNORM_ENOMEM;
	}
	d->c = PQconnectdb(url);
	if (!d->c || PQstatus(d->c) != CONNECTION_OK) {
		err = pgerr(d, "cannot connect to the result database (is the server running, and the "
		               "URL right? or use --no-db)",
		            d->c ? PQerrorMessage(d->c) : "out of memory");
		pg_close(d);
		return err;
	}
	/* Quiet the server's NOTICEs ("relation ... already exists, skipping"): libpq would print
	 * them on stderr, and a library does not print. */
	PQsetNoticeProcessor(d->c, pg_notice, NULL);
	r = PQexec(d->c, "SET client_min_messages TO warning");
	PQclear(r);
	/* Checked, then created, in one transaction under the lock: a database found to be
	 * another program's is left as it was (ROLLBACK), nothing created in it. */
	if ((err = want_status(d, PQexec(d->c, schema_begin), PGRES_TUPLES_OK,
	                       "cannot start a transaction")) < 0 ||
	    (err = check_owner(d)) < 0 || (err = check_columns(d)) < 0 ||
	    (err = want_status(d, PQexec(d->c, schema), PGRES_COMMAND_OK,
	                       "cannot create tnorm's tables (does the user have the right to? or "
	                       "use --no-db)")) < 0) {
		PQclear(PQexec(d->c, "ROLLBACK"));
		pg_close(d);
		return err;
	}
	for (q = 0; q < Q_COUNT; q++) {
		char name[2] = {(char)('a' + q), 0}; /* as in run() */
		if ((err = want_status(d, PQprepare(d->c, name, queries[q].sql, queries[q].nparams, NULL),
		                       PGRES_COMMAND_OK, "cannot prepare a statement")) < 0) {
			pg_close(d);
			return err;
		}
	}
	*out = d;
	*ops = &pg_ops;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * test_db.c - the cross-test cache: record and look up, persistence across handles and
 * processes, two writers on one database, a writer killed with SIGKILL in the middle of writing,
 * and work items claimed by concurrent workers with leases.
 *
 * By default against an SQLite file in a temporary folder.  With TNORM_TEST_DB_URL set (a
 * postgresql:// URL of an empty database; tests/integration/pg.sh starts a throwaway server),
 * the same tests run against PostgreSQL, and TNORM_TEST_DB_FOREIGN names a database that holds
 * another program's table, which must be refused.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "tnorm/tnorm.h"

static char dir[64], path[1024];
static const char *url; /* TNORM_TEST_DB_URL, or NULL for SQLite */

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/tnorm-db-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	url = getenv("TNORM_TEST_DB_URL");
	if (url && *url)
		snprintf(path, sizeof(path), "%s", url);
	else
		snprintf(path, sizeof(path), "%s/cache.db", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_db__record_and_lookup(void **state)
{
	const char *ctx_parts[] = {"./driver", "{}", "line", "SIGABRT at f (a.c:1)", NULL};
	const char *other_parts[] = {"./driver", "{}", "any", "SIGABRT at f (a.c:1)", NULL};
	uint64_t ctx = tnorm_db_context(ctx_parts), other = tnorm_db_context(other_parts), hits, misses;
	tnorm_db *db = NULL;
	char *form = NULL;
	int found = -1, yes = -1;
	(void)state;
	assert_true(ctx != other);
	assert_int_equal(tnorm_db_open(&db, path), 0);
	assert_int_equal(tnorm_db_get_outcome(db, ctx, "a\n", 2, &found, &yes), 0);
	assert_int_equal(found, 0);
	assert_int_equal(tnorm_db_put_outcome(db, ctx, "a\n", 2, 1), 0);
	assert_int_equal(tnorm_db_put_outcome(db, ctx, "b\n", 2, 0), 0);
	assert_int_equal(tnorm_db_get_outcome(db, ctx, "a\n", 2, &found, &yes), 0);
	assert_true(found && yes);
	assert_int_equal(tnorm_db_get_outcome(db, ctx, "b\n", 2, &found, &yes), 0);
	assert_true(found && !yes);
	/* Another context does not see it. */
	assert_int_equal(tnorm_db_get_outcome(db, other, "a\n", 2, &found, &yes), 0);
	assert_int_equal(found, 0);
	assert_int_equal(tnorm_db_put_normal(db, ctx, "long\ntest\n", 10, "short\n"), 0);
	assert_int_equal(tnorm_db_get_normal(db, ctx, "long\ntest\n", 10, &form), 0);
	assert_string_equal(form, "short\n");
	tnorm_free(form);
	assert_int_equal(tnorm_db_get_normal(db, ctx, "other\n", 6, &form), 0);
	assert_null(form);
	tnorm_db_stats(db, &hits, &misses);
	assert_int_equal(hits, 3);
	assert_int_equal(misses, 3);
	tnorm_db_close(db);
	/* Persistence: a new handle sees everything. */
	assert_int_equal(tnorm_db_open(&db, path), 0);
	assert_int_equal(tnorm_db_get_outcome(db, ctx, "a\n", 2, &found, &yes), 0);
	assert_true(found && yes);
	tnorm_db_close(db);
	tnorm_db_close(NULL);
}

/* The replay path: keyed by content only, any bytes in the forms, replaced on a second put. */
static void test_db__paths(void **state)
{
	const char *forms[] = {"a = 1\nf(a)\n", "", "x:12:y\n\n", "last\n"};
	char **got = NULL;
	size_t n = 99, k;
	tnorm_db *db = NULL;
	(void)state;
	assert_int_equal(tnorm_db_open(&db, path), 0);
	assert_int_equal(tnorm_db_get_path(db, "t\n", 2, &got, &n), 0);
	assert_int_equal(n, 0);
	assert_null(got);
	assert_int_equal(tnorm_db_put_path(db, "t\n", 2, forms, 4), 0);
	tnorm_db_close(db);
	assert_int_equal(tnorm_db_open(&db, path), 0);
	assert_int_equal(tnorm_db_get_path(db, "t\n", 2, &got, &n), 0);
	assert_int_equal(n, 4);
	for (k = 0; k < n; k++) {
		assert_string_equal(got[k], forms[k]);
		tnorm_free(got[k]);
	}
	tnorm_free(got);
	assert_int_equal(tnorm_db_put_path(db, "t\n", 2, forms + 3, 1), 0);
	assert_int_equal(tnorm_db_get_path(db, "t\n", 2, &got, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(got[0], "last\n");
	tnorm_free(got[0]);
	tnorm_free(got);
	assert_int_equal(tnorm_db_get_path(db, "u\n", 2, &got, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(tnorm_db_get_path(NULL, "u\n", 2, &got, &n), TNORM_EINVALID);
	tnorm_db_close(db);
}

/* A PostgreSQL server that is not there, and a database of another program: clear errors. */
static void bad_urls(void)
{
	const char *foreign = getenv("TNORM_TEST_DB_FOREIGN");
	tnorm_db *db = NULL;
	assert_int_equal(tnorm_db_open(&db, "postgresql://tnorm:secret@/nodb?host=/nonexistent"),
	                 TNORM_EDB);
	assert_non_null(strstr(tnorm_error_last()->message, "cannot connect to the result database"));
	/* The password is never echoed. */
	assert_null(strstr(tnorm_error_last()->message, "secret"));
	assert_non_null(strstr(tnorm_error_last()->message, "postgresql://tnorm:***@/nodb"));
	assert_non_null(foreign);
	assert_int_equal(tnorm_db_open(&db, foreign), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "is not a tnorm result database"));
	assert_null(db);
}

static void test_db__bad_paths(void **state)
{
	tnorm_db *db = NULL;
	char notdb[192];
	FILE *f;
	(void)state;
	if (url) {
		bad_urls();
		return;
	}
	assert_int_equal(tnorm_db_open(&db, "/nonexistent/dir/cache.db"), TNORM_EDB);
	assert_non_null(strstr(tnorm_error_last()->message, "/nonexistent/dir/cache.db: cannot open"));
	snprintf(notdb, sizeof(notdb), "%s/notadb", dir);
	f = fopen(notdb, "w");
	assert_non_null(f);
	fputs("this is not a database, just some text that is long enough to matter ..........\n", f);
	fclose(f);
	assert_int_equal(tnorm_db_open(&db, notdb), TNORM_EDB);
	assert_non_null(strstr(tnorm_error_last()->message, "notadb: cannot read the result database"));
	assert_non_null(strstr(tnorm_error_last()->message, "--no-db"));
	/* Somebody else's SQLite file: refused, not extended with tnorm's tables. */
	snprintf(notdb, sizeof(notdb), "%s/other.db", dir);
	{
		sqlite3 *o = NULL;
		assert_int_equal(sqlite3_open(notdb, &o), SQLITE_OK);
		assert_int_equal(sqlite3_exec(o, "CREATE TABLE accounts(id INTEGER)", NULL, NULL, NULL),
		                 SQLITE_OK);
		sqlite3_close(o);
	}
	assert_int_equal(tnorm_db_open(&db, notdb), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "is not a tnorm result database"));
}

static void writer(uint64_t ctx, int from, int n)
{
	tnorm_db *db = NULL;
	int i;
	char key[32];
	if (tnorm_db_open(&db, path) < 0)
		_exit(2);
	for (i = from; i < from + n; i++) {
		snprintf(key, sizeof(key), "test %d\n", i);
		if (tnorm_db_put_outcome(db, ctx, key, strlen(key), i % 2) < 0)
			_exit(3);
	}
	tnorm_db_close(db);
}

static void test_db__two_writers_and_kill9(void **state)
{
	const char *parts[] = {"ctx", NULL};
	uint64_t ctx = tnorm_db_context(parts);
	pid_t a, b, k;
	int st, i, found, yes;
	tnorm_db *db = NULL;
	char key[32];
	(void)state;
	/* Two processes writing to one file at once. */
	if ((a = fork()) == 0) {
		writer(ctx, 0, 300);
		_exit(0);
	}
	if ((b = fork()) == 0) {
		writer(ctx, 1000, 300);
		_exit(0);
	}
	assert_int_equal(waitpid(a, &st, 0), a);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(waitpid(b, &st, 0), b);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* A writer killed in the middle of its writes. */
	if ((k = fork()) == 0) {
		writer(ctx, 5000, 1000000);
		_exit(0);
	}
	/* Killed once it has written its first outcome: waited for, not a time (a loaded machine
	 * may not have run the writer at all 300 ms after the fork; issue 39). */
	assert_int_equal(tnorm_db_open(&db, path), 0);
	snprintf(key, sizeof(key), "test %d\n", 5000);
	for (i = 0, found = 0; !found && i < 60000; i++) {
		assert_int_equal(tnorm_db_get_outcome(db, ctx, key, strlen(key), &found, &yes), 0);
		if (!found)
			usleep(1000);
	}
	tnorm_db_close(db);
	db = NULL;
	kill(k, SIGKILL);
	assert_int_equal(waitpid(k, &st, 0), k);
	assert_true(WIFSIGNALED(st));
	/* Everything the finished writers wrote is there; the database is consistent. */
	assert_int_equal(tnorm_db_open(&db, path), 0);
	for (i = 0; i < 300; i++) {
		snprintf(key, sizeof(key), "test %d\n", i);
		assert_int_equal(tnorm_db_get_outcome(db, ctx, key, strlen(key), &found, &yes), 0);
		assert_true(found);
		assert_int_equal(yes, i % 2);
		snprintf(key, sizeof(key), "test %d\n", 1000 + i);
		assert_int_equal(tnorm_db_get_outcome(db, ctx, key, strlen(key), &found, &yes), 0);
		assert_true(found);
	}
	snprintf(key, sizeof(key), "test %d\n", 5000);
	assert_int_equal(tnorm_db_get_outcome(db, ctx, key, strlen(key), &found, &yes), 0);
	assert_true(found); /* the killed writer got some way */
	assert_int_equal(tnorm_db_put_outcome(db, ctx, "after\n", 6, 1), 0);
	tnorm_db_close(db);
}

/* One worker holds an item at a time; a finished item is never claimed again; results sorted. */
static void test_db__claims(void **state)
{
	tnorm_db *a = NULL, *b = NULL;
	tnorm_db_item *items = NULL;
	char *res = (char *)"x";
	size_t n = 9;
	int got = -1, ok = -1;
	(void)state;
	assert_int_equal(tnorm_db_open(&a, path), 0);
	assert_int_equal(tnorm_db_open(&b, path), 0);
	assert_int_equal(tnorm_db_results(a, "job1", &items, &n), 0);
	assert_int_equal(n, 0);
	assert_null(items);
	assert_int_equal(tnorm_db_claim(a, "job1", "t-b", "A", 60, &got), 0);
	assert_int_equal(got, 1);
	assert_int_equal(tnorm_db_claim(b, "job1", "t-b", "B", 60, &got), 0);
	assert_int_equal(got, 0); /* A holds it */
	assert_int_equal(tnorm_db_claim(b, "job2", "t-b", "B", 60, &got), 0);
	assert_int_equal(got, 1); /* another job's item of the same name */
	assert_int_equal(tnorm_db_claim(a, "job1", "t-b", "A", 60, &got), 0);
	assert_int_equal(got, 1); /* a renewal */
	assert_int_equal(tnorm_db_result(b, "job1", "t-b", &res), 0);
	assert_null(res); /* held, not finished */
	assert_int_equal(tnorm_db_result(b, "job1", "t-zz", &res), 0);
	assert_null(res); /* never claimed */
	assert_int_equal(tnorm_db_finish(b, "job1", "t-b", "B", "wrong", &ok), 0);
	assert_int_equal(ok, 0);
	assert_int_equal(tnorm_db_finish(a, "job1", "t-b", "A", "bucket 1\n", &ok), 0);
	assert_int_equal(ok, 1);
	assert_int_equal(tnorm_db_claim(b, "job1", "t-b", "B", 60, &got), 0);
	assert_int_equal(got, 0); /* finished */
	assert_int_equal(tnorm_db_claim(a, "job1", "t-b", "A", 60, &got), 0);
	assert_int_equal(got, 0); /* finished, even for its own worker */
	assert_int_equal(tnorm_db_result(b, "job1", "t-b", &res), 0);
	assert_non_null(res);
	assert_string_equal(res, "bucket 1\n");
	tnorm_free(res);
	assert_int_equal(tnorm_db_result(b, "job2", "t-b", &res), 0);
	assert_null(res); /* the other job's item is only claimed */
	assert_int_equal(tnorm_db_result(NULL, "job1", "t-b", &res), TNORM_EINVALID);
	/* A lease that expires (its worker died) is taken over; the old worker's result is dropped. */
	assert_int_equal(tnorm_db_claim(a, "job1", "t-a", "A", 1, &got), 0);
	assert_int_equal(got, 1);
	sleep(3);
	assert_int_equal(tnorm_db_claim(b, "job1", "t-a", "B", 60, &got), 0);
	assert_int_equal(got, 1);
	assert_int_equal(tnorm_db_finish(a, "job1", "t-a", "A", "late", &ok), 0);
	assert_int_equal(ok, 0);
	assert_int_equal(tnorm_db_finish(b, "job1", "t-a", "B", "bucket 2", &ok), 0);
	assert_int_equal(ok, 1);
	assert_int_equal(tnorm_db_results(b, "job1", &items, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(items[0].name, "t-a");
	assert_string_equal(items[0].result, "bucket 2");
	assert_string_equal(items[1].name, "t-b");
	assert_string_equal(items[1].result, "bucket 1\n");
	tnorm_db_items_free(items, n);
	assert_int_equal(tnorm_db_claim(a, "job1", "x", "A", 0, &got), TNORM_EINVALID);
	assert_int_equal(tnorm_db_claim(NULL, "job1", "x", "A", 5, &got), TNORM_EINVALID);
	tnorm_db_items_free(NULL, 0);
	tnorm_db_close(a);
	tnorm_db_close(b);
}

/* Four processes race over the same 200 items: each item is taken exactly once. */
static void test_db__concurrent_claims(void **state)
{
	enum { WORKERS = 4, ITEMS = 200 };
	pid_t pid[WORKERS];
	int w, st, total = 0;
	tnorm_db *db = NULL;
	tnorm_db_item *items = NULL;
	size_t n = 0, i;
	(void)state;
	for (w = 0; w < WORKERS; w++) {
		if ((pid[w] = fork()) == 0) {
			char worker[16], name[16];
			int k, got, ok, mine = 0;
			snprintf(worker, sizeof(worker), "w%d", w);
			if (tnorm_db_open(&db, path) < 0)
				_exit(255);
			for (k = 0; k < ITEMS; k++) {
				snprintf(name, sizeof(name), "item%03d", k);
				if (tnorm_db_claim(db, "race", name, worker, 600, &got) < 0)
					_exit(254);
				if (!got)
					continue;
				if (tnorm_db_finish(db, "race", name, worker, worker, &ok) < 0 || !ok)
					_exit(253);
				mine++;
			}
			tnorm_db_close(db);
			_exit(mine);
		}
		assert_true(pid[w] > 0);
	}
	for (w = 0; w < WORKERS; w++) {
		assert_int_equal(waitpid(pid[w], &st, 0), pid[w]);
		assert_true(WIFEXITED(st));
		assert_true(WEXITSTATUS(st) <= ITEMS);
		total += WEXITSTATUS(st);
	}
	assert_int_equal(total, ITEMS);
	assert_int_equal(tnorm_db_open(&db, path), 0);
	assert_int_equal(tnorm_db_results(db, "race", &items, &n), 0);
	assert_int_equal(n, ITEMS);
	for (i = 0; i < n; i++)
		assert_true(items[i].result[0] == 'w');
	tnorm_db_items_free(items, n);
	tnorm_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_db__record_and_lookup),
		cmocka_unit_test(test_db__paths),
		cmocka_unit_test(test_db__bad_paths),
		cmocka_unit_test(test_db__two_writers_and_kill9),
		cmocka_unit_test(test_db__claims),
		cmocka_unit_test(test_db__concurrent_claims),
	};
	return cmocka_run_group_tests_name("db", tests, setup, teardown);
}

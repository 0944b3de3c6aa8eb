/* SPDX-License-Identifier: MIT */
/*
 * test_db.c - the cross-test SQLite cache: record and look up, persistence across handles and
 * processes, two writers on one file, and a writer killed with SIGKILL in the middle of writing.
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

static char dir[64], path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/tnorm-db-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
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

static void test_db__bad_paths(void **state)
{
	tnorm_db *db = NULL;
	char notdb[192];
	FILE *f;
	(void)state;
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
	usleep(300000);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_db__record_and_lookup),
		cmocka_unit_test(test_db__paths),
		cmocka_unit_test(test_db__bad_paths),
		cmocka_unit_test(test_db__two_writers_and_kill9),
	};
	return cmocka_run_group_tests_name("db", tests, setup, teardown);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_error.c - the last-error slot, the allocator's fault injection, buffers and atomic writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common.h"

static void test_error__set_and_read(void **state)
{
	const tnorm_error *e;
	(void)state;
	tnorm_error_clear();
	assert_null(tnorm_error_last());
	assert_int_equal(tnorm__error_set(TNORM_EPARSE, "f.tnh:%d:%d: expected ')'", 3, 7),
	                 TNORM_EPARSE);
	e = tnorm_error_last();
	assert_non_null(e);
	assert_int_equal(e->code, TNORM_EPARSE);
	assert_string_equal(e->message, "f.tnh:3:7: expected ')'");
	tnorm__error_prefix("while loading %s", "x");
	assert_string_equal(tnorm_error_last()->message, "while loading x: f.tnh:3:7: expected ')'");
	assert_string_equal(tnorm_error_name(TNORM_EPARSE), "EPARSE");
	assert_string_equal(tnorm_error_name(12345), "EUNKNOWN");
}

/* A message may quote the last one to say where it happened (pipeline.c: "TEST:LINE: not
 * well-formed: %s"); it used to be formatted into its own argument and came out garbled. */
static void test_error__quotes_the_last(void **state)
{
	(void)state;
	tnorm__error_set(TNORM_EINVALID, "step 0 (line 1): kv0 is used before it is assigned");
	tnorm__error_set(TNORM_EINVALID, "%s:%u: not well-formed: %s", "u.t", 1u,
	                 tnorm_error_last()->message);
	assert_string_equal(tnorm_error_last()->message,
	                    "u.t:1: not well-formed: step 0 (line 1): kv0 is used before it is assigned");
}

static void test_error__oom_injection(void **state)
{
	void *p;
	(void)state;
	tnorm__alloc_fail_after(1);
	p = tnorm__malloc(10);
	assert_non_null(p);
	free(p);
	assert_null(tnorm__malloc(10));
	assert_int_equal(tnorm_error_last()->code, TNORM_ENOMEM);
	tnorm__alloc_fail_after(-1);
	p = tnorm__malloc(10);
	assert_non_null(p);
	free(p);
}

static void test_error__buf(void **state)
{
	tnorm__buf b = TNORM__BUF_INIT;
	char *s;
	int i;
	(void)state;
	for (i = 0; i < 1000; i++)
		assert_int_equal(tnorm__buf_printf(&b, "%d,", i), 0);
	assert_int_equal(strncmp(b.ptr, "0,1,2,", 6), 0);
	assert_int_equal(b.ptr[b.len], '\0');
	s = tnorm__buf_detach(&b);
	assert_non_null(s);
	assert_null(b.ptr);
	tnorm_free(s);
	s = tnorm__buf_detach(&b);
	assert_string_equal(s, "");
	tnorm_free(s);
}

static void test_error__atomic_write(void **state)
{
	char dir[] = "/tmp/tnorm-test-XXXXXX", path[512], *data = NULL;
	size_t len = 0;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	assert_int_equal(tnorm__write_file_atomic(path, "hello\n", 6), 0);
	assert_int_equal(tnorm__read_file(path, &data, &len), 0);
	assert_int_equal(len, 6);
	assert_string_equal(data, "hello\n");
	tnorm_free(data);
	assert_int_equal(tnorm__read_file("/nonexistent/x", &data, &len), TNORM_EIO);
	assert_non_null(strstr(tnorm_error_last()->message, "/nonexistent/x: cannot open"));
	snprintf(path, sizeof(path), "%s/missing-dir/out.txt", dir);
	assert_int_equal(tnorm__write_file_atomic(path, "x", 1), TNORM_EIO);
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error__set_and_read),
		cmocka_unit_test(test_error__quotes_the_last),
		cmocka_unit_test(test_error__oom_injection),
		cmocka_unit_test(test_error__buf),
		cmocka_unit_test(test_error__atomic_write),
	};
	return cmocka_run_group_tests_name("error", tests, NULL, NULL);
}

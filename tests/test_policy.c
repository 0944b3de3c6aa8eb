/* SPDX-License-Identifier: MIT */
/*
 * test_policy.c - the front ends' shared rules (policy.c): the default -j, the harness a
 * command names, the test's placeholder (issue 42, item 3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

static void test_policy__default_jobs(void **state)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	(void)state;
	assert_int_equal(tnorm_default_jobs(), n < 1 ? 1 : n > 64 ? 64 : n);
	assert_true(tnorm_default_jobs() >= 1 && tnorm_default_jobs() <= TNORM_MAX_JOBS);
}

static void test_policy__argv_harness(void **state)
{
	const char *const named[] = {"./drv", "-v", "--harness", "h.tnh", "{}", NULL};
	const char *const none[] = {"./drv", "{}", NULL};
	const char *const last[] = {"./drv", "{}", "--harness", NULL};
	const char *const program[] = {"--harness", "x", NULL}; /* argv[0] is the program */
	(void)state;
	assert_string_equal(tnorm_argv_harness(named), "h.tnh");
	assert_null(tnorm_argv_harness(none));
	assert_null(tnorm_argv_harness(last));
	assert_null(tnorm_argv_harness(program));
	assert_null(tnorm_argv_harness(NULL));
}

static void test_policy__placeholder(void **state)
{
	const char *const whole[] = {"./prog", "{}", NULL};
	const char *const inside[] = {"./prog", "--input={}.txt", NULL};
	const char *const afl[] = {"./prog", "@@", NULL};
	const char *const none[] = {"./prog", "{", "}", "@", NULL};
	(void)state;
	assert_true(tnorm_argv_has_placeholder(whole));
	assert_true(tnorm_argv_has_placeholder(inside));
	assert_true(tnorm_argv_has_placeholder(afl));
	assert_false(tnorm_argv_has_placeholder(none));
	assert_false(tnorm_argv_has_placeholder(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy__default_jobs),
		cmocka_unit_test(test_policy__argv_harness),
		cmocka_unit_test(test_policy__placeholder),
	};
	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_order.c - the total order of actions: rank/unrank round trips, the order's properties,
 * rendering and parsing one action, and huge universes handled without materializing them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

static const char small[] = "pool int 2 const\n"
                            "pool t 2\n"
                            "<int> := 1..3\n"
                            "<t> := mk()\n"
                            "f(<t>, {5, 6}, <int>)\n"
                            "<int> := g(<t>, \"q\\n\")\n";

static tnorm_harness *load(const char *text)
{
	tnorm_harness *h = NULL;
	assert_int_equal(tnorm_harness_parse(&h, "o.tnh", text, strlen(text)), 0);
	return h;
}

static char *render(const tnorm_harness *h, uint64_t idx)
{
	tnorm_action a;
	static char buf[256];
	assert_int_equal(tnorm_harness_unrank(h, idx, &a), 0);
	assert_true(tnorm_harness_format_action(h, &a, buf, sizeof(buf)) > 0);
	return buf;
}

static void test_order__exhaustive_round_trip(void **state)
{
	tnorm_harness *h = load(small);
	uint64_t i, n = tnorm_harness_action_count(h), r;
	(void)state;
	/* 2*3 + 2 + 2*2*2 + 2*2 = 20 */
	assert_int_equal(n, 20);
	for (i = 0; i < n; i++) {
		tnorm_action a, b;
		char text[256];
		size_t col = 0;
		int len;
		assert_int_equal(tnorm_harness_unrank(h, i, &a), 0);
		assert_int_equal(tnorm_harness_rank(h, &a, &r), 0);
		assert_int_equal(r, i);
		len = tnorm_harness_format_action(h, &a, text, sizeof(text));
		assert_true(len > 0 && (size_t)len < sizeof(text));
		assert_int_equal(tnorm_harness_parse_action(h, text, (size_t)len, &b, &col), 0);
		assert_int_equal(tnorm_harness_rank(h, &b, &r), 0);
		assert_int_equal(r, i);
	}
	assert_int_equal(tnorm_harness_unrank(h, n, NULL), TNORM_EINVALID);
	tnorm_harness_free(h);
}

static void test_order__properties(void **state)
{
	tnorm_harness *h = load(small);
	(void)state;
	/* Templates in file order; the left-hand side is the most significant slot; values last. */
	assert_string_equal(render(h, 0), "int0 = 1");
	assert_string_equal(render(h, 2), "int0 = 3");
	assert_string_equal(render(h, 3), "int1 = 1");
	assert_string_equal(render(h, 6), "t0 = mk()");
	assert_string_equal(render(h, 7), "t1 = mk()");
	/* f(<t>, {5,6}, <int>): pool slots t then int, then the value. */
	assert_string_equal(render(h, 8), "f(t0, 5, int0)");
	assert_string_equal(render(h, 9), "f(t0, 6, int0)");
	assert_string_equal(render(h, 10), "f(t0, 5, int1)");
	assert_string_equal(render(h, 12), "f(t1, 5, int0)");
	assert_string_equal(render(h, 16), "int0 = g(t0, \"q\\n\")");
	assert_string_equal(render(h, 19), "int1 = g(t1, \"q\\n\")");
	tnorm_harness_free(h);
}

static void test_order__parse_is_whitespace_insensitive(void **state)
{
	tnorm_harness *h = load(small);
	tnorm_action a;
	uint64_t r;
	size_t col;
	const char *text = "  f( t1 ,6,  int1 )   # a comment";
	(void)state;
	assert_int_equal(tnorm_harness_parse_action(h, text, strlen(text), &a, &col), 0);
	assert_int_equal(tnorm_harness_rank(h, &a, &r), 0);
	assert_int_equal(r, 15);
	text = "int1=g(t0,\"q\\n\")";
	assert_int_equal(tnorm_harness_parse_action(h, text, strlen(text), &a, &col), 0);
	assert_int_equal(tnorm_harness_rank(h, &a, &r), 0);
	assert_int_equal(r, 18);
	text = "f(t1, 7, int1)";
	assert_int_equal(tnorm_harness_parse_action(h, text, strlen(text), &a, &col), TNORM_EPARSE);
	assert_int_equal(col, 7);
	tnorm_harness_free(h);
}

static void test_order__huge_universe(void **state)
{
	/* 1000 * (2^32-1) + 1000^3 actions (the largest set a slot may hold): ranked
	 * arithmetically, never listed. */
	const char *text = "pool a 1000\n<a> := 0..4294967294\nf(<a>, <a>, <a>)\n";
	tnorm_harness *h = load(text);
	uint64_t n = tnorm_harness_action_count(h), idx, r;
	tnorm_action a;
	uint64_t seed = 12345;
	int k;
	(void)state;
	assert_true(n > (1ULL << 40));
	for (k = 0; k < 10000; k++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		idx = seed % n;
		assert_int_equal(tnorm_harness_unrank(h, idx, &a), 0);
		assert_int_equal(tnorm_harness_rank(h, &a, &r), 0);
		assert_int_equal(r, idx);
	}
	assert_int_equal(tnorm_harness_unrank(h, n - 1, &a), 0);
	assert_int_equal(a.tmpl, 1);
	assert_int_equal(a.choice[0], 999);
	assert_int_equal(a.choice[2], 999);
	tnorm_harness_free(h);
}

static void test_order__format_truncates_like_snprintf(void **state)
{
	tnorm_harness *h = load(small);
	tnorm_action a;
	char buf[5];
	(void)state;
	assert_int_equal(tnorm_harness_unrank(h, 8, &a), 0);
	assert_int_equal(tnorm_harness_format_action(h, &a, buf, sizeof(buf)), 14);
	assert_string_equal(buf, "f(t0");
	a.choice[0] = 7;
	assert_int_equal(tnorm_harness_format_action(h, &a, buf, sizeof(buf)), TNORM_EINVALID);
	tnorm_harness_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order__exhaustive_round_trip),
		cmocka_unit_test(test_order__properties),
		cmocka_unit_test(test_order__parse_is_whitespace_insensitive),
		cmocka_unit_test(test_order__huge_universe),
		cmocka_unit_test(test_order__format_truncates_like_snprintf),
	};
	return cmocka_run_group_tests_name("order", tests, NULL, NULL);
}

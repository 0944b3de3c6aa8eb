/* SPDX-License-Identifier: MIT */
/*
 * test_harness.c - harness parsing: every malformed harness gives its exact message; good
 * harnesses describe their pools, templates, checks and values; allocation failures clean up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common.h"
#include "tnorm/tnorm.h"

#include "model_cases.h"

static const char avl_tnh[] = "# AVL\n"
                              "pool int 4 const\n"
                              "pool avl 3\n"
                              "<int> := 1..20   # values\n"
                              "<avl> := avl_new()\n"
                              "avl_insert(<avl>, <int>)\n"
                              "check avl_check(<avl>)\n"
                              "avl_delete(<avl>, <int>)\n"
                              "pure avl_find(<avl>, <int>)\n"
                              "<int> := avl_size(<avl>)\n"
                              "tag(<avl>, {3, -1}, {\"x\", \"a\\\"b\"})\n";

static void test_harness__malformed_messages(void **state)
{
	size_t i;
	(void)state;
	assert_true(sizeof(bad_harnesses) / sizeof(bad_harnesses[0]) >= 30);
	for (i = 0; i < sizeof(bad_harnesses) / sizeof(bad_harnesses[0]); i++) {
		const struct bad_case *c = &bad_harnesses[i];
		tnorm_harness *h = (tnorm_harness *)1;
		int err = tnorm_harness_parse(&h, "h.tnh", c->text, c->len);
		if (err >= 0)
			fail_msg("case '%s' parsed", c->name);
		assert_null(h);
		assert_true(err == TNORM_EPARSE || err == TNORM_EOVERFLOW);
		if (strcmp(tnorm_error_last()->message, c->message))
			fail_msg("case '%s':\n  got:      %s\n  expected: %s", c->name,
			         tnorm_error_last()->message, c->message);
	}
}

static void test_harness__describes_itself(void **state)
{
	tnorm_harness *h = NULL;
	tnorm_pool_info p;
	tnorm_template_info t;
	tnorm_literal lit;
	uint32_t idx;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&h, "avl.tnh", avl_tnh, strlen(avl_tnh)), 0);
	assert_string_equal(tnorm_harness_name(h), "avl.tnh");
	assert_int_equal(tnorm_harness_pool_count(h), 2);
	assert_int_equal(tnorm_harness_pool(h, 0, &p), 0);
	assert_string_equal(p.name, "int");
	assert_int_equal(p.instances, 4);
	assert_true(p.is_const);
	assert_int_equal(p.first_var, 0);
	assert_int_equal(tnorm_harness_pool(h, 1, &p), 0);
	assert_false(p.is_const);
	assert_int_equal(p.first_var, 4);
	assert_int_equal(tnorm_harness_var_count(h), 7);
	assert_int_equal(tnorm_harness_pool_find(h, "avl", &idx), 0);
	assert_int_equal(idx, 1);
	assert_int_equal(tnorm_harness_pool_find(h, "nope", &idx), TNORM_ENOTFOUND);
	assert_int_equal(tnorm_harness_pool(h, 2, &p), TNORM_EINVALID);

	/* The check on line 7 is not an action template: 7 templates, 1 check. */
	assert_int_equal(tnorm_harness_template_count(h), 7);
	assert_int_equal(tnorm_harness_check_count(h), 1);
	assert_int_equal(tnorm_harness_check(h, 0, &t), 0);
	assert_string_equal(t.name, "avl_check");
	assert_int_equal(t.line, 7);
	assert_int_equal(tnorm_harness_template(h, 0, &t), 0);
	assert_int_equal(t.kind, TNORM_TMPL_VALUE);
	assert_true(t.has_lhs);
	assert_int_equal(t.count, 80);
	assert_int_equal(t.first, 0);
	assert_int_equal(tnorm_harness_template(h, 3, &t), 0);
	assert_string_equal(t.name, "avl_delete");
	assert_int_equal(t.line, 8);
	assert_int_equal(tnorm_harness_template(h, 4, &t), 0);
	assert_true(t.is_pure);
	assert_int_equal(tnorm_harness_template(h, 5, &t), 0);
	assert_true(t.has_lhs);
	assert_int_equal(t.kind, TNORM_TMPL_CALL);
	assert_int_equal(t.count, 12);
	assert_int_equal(tnorm_harness_template(h, 6, &t), 0);
	assert_int_equal(t.nslots, 3);
	assert_int_equal(t.slot[1].kind, TNORM_SLOT_VALUE);
	assert_int_equal(t.count, 3 * 2 * 2);
	/* 80 + 3 + 12 + 12 + 12 + 12 + 12 */
	assert_int_equal(tnorm_harness_action_count(h), 143);
	assert_int_equal(tnorm_harness_value(h, 6, 1, 1, &lit), 0);
	assert_int_equal(lit.kind, TNORM_LIT_INT);
	assert_int_equal(lit.i, -1);
	assert_int_equal(tnorm_harness_value(h, 6, 2, 1, &lit), 0);
	assert_int_equal(lit.kind, TNORM_LIT_STRING);
	assert_string_equal(lit.s, "a\"b");
	assert_int_equal(lit.len, 3);
	assert_int_equal(tnorm_harness_value(h, 0, 1, 19, &lit), 0);
	assert_int_equal(lit.i, 20);
	assert_int_equal(tnorm_harness_value(h, 0, 1, 20, &lit), TNORM_EINVALID);
	assert_int_equal(tnorm_harness_value(h, 0, 0, 0, &lit), TNORM_EINVALID);
	tnorm_harness_free(h);
	tnorm_harness_free(NULL);
}

static void test_harness__load_errors(void **state)
{
	tnorm_harness *h = NULL;
	(void)state;
	assert_int_equal(tnorm_harness_load(&h, "/nonexistent/x.tnh"), TNORM_EIO);
	assert_string_equal(tnorm_error_last()->message,
	                    "/nonexistent/x.tnh: cannot open: No such file or directory");
	assert_int_equal(tnorm_harness_parse(&h, "n.tnh", "pool a 1\x00", 9), TNORM_EPARSE);
	assert_string_equal(tnorm_error_last()->message, "n.tnh: contains a NUL byte, expected a text file");
	assert_int_equal(tnorm_harness_parse(NULL, "x", "", 0), TNORM_EINVALID);
}

static void test_harness__oom_every_allocation(void **state)
{
	long n;
	int ok = 0;
	(void)state;
	/* Fail the first, second, ... allocation until parsing succeeds; every failure must come
	 * back as TNORM_ENOMEM with nothing leaked (ASan checks the leaks). */
	for (n = 0; n < 100000 && !ok; n++) {
		tnorm_harness *h = NULL;
		int err;
		tnorm__alloc_fail_after(n);
		err = tnorm_harness_parse(&h, "avl.tnh", avl_tnh, strlen(avl_tnh));
		tnorm__alloc_fail_after(-1);
		if (err == 0) {
			ok = 1;
			tnorm_harness_free(h);
		} else {
			assert_int_equal(err, TNORM_ENOMEM);
			assert_null(h);
		}
	}
	assert_true(ok);
	assert_true(n > 10);
}

/* Both places the grammar gives 'pure' parse, to the same template (issue 14: the second was
 * rejected); 'pure' twice or before something that is not a call is refused. */
static void test_harness__pure_after_assign(void **state)
{
	static const char a[] = "pool n 2 const\npool t 1\n<t> := mk()\n<n> := pure size(<t>)\n";
	static const char b[] = "pool n 2 const\npool t 1\n<t> := mk()\npure <n> := size(<t>)\n";
	static const char twice[] = "pool n 2 const\npool t 1\n<t> := mk()\npure <n> := pure size(<t>)\n";
	static const char value[] = "pool n 2 const\n<n> := pure 1..3\n";
	tnorm_harness *ha = NULL, *hb = NULL, *hc = NULL;
	tnorm_template_info ta, tb;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&ha, "a.tnh", a, sizeof(a) - 1), 0);
	assert_int_equal(tnorm_harness_parse(&hb, "b.tnh", b, sizeof(b) - 1), 0);
	assert_int_equal(tnorm_harness_template(ha, 1, &ta), 0);
	assert_int_equal(tnorm_harness_template(hb, 1, &tb), 0);
	assert_true(ta.is_pure);
	assert_true(tb.is_pure);
	assert_true(ta.has_lhs && tb.has_lhs);
	assert_string_equal(ta.name, "size");
	assert_int_equal(tnorm_harness_parse(&hc, "c.tnh", twice, sizeof(twice) - 1), TNORM_EPARSE);
	assert_string_equal(tnorm_error_last()->message,
	                    "c.tnh:4:13: 'pure' is given twice, expected it once, before the line or after ':='");
	assert_int_equal(tnorm_harness_parse(&hc, "d.tnh", value, sizeof(value) - 1), TNORM_EPARSE);
	assert_string_equal(tnorm_error_last()->message,
	                    "d.tnh:2:13: found '1' after 'pure', expected a call");
	tnorm_harness_free(ha);
	tnorm_harness_free(hb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_harness__malformed_messages),
		cmocka_unit_test(test_harness__pure_after_assign),
		cmocka_unit_test(test_harness__describes_itself),
		cmocka_unit_test(test_harness__load_errors),
		cmocka_unit_test(test_harness__oom_every_allocation),
	};
	return cmocka_run_group_tests_name("harness", tests, NULL, NULL);
}

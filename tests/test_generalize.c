/* SPDX-License-Identifier: MIT */
/*
 * test_generalize.c - Algorithm 2 on hand-made tests with in-process predicates: replacements
 * folded into ranges, swaps, blocks of steps in any order, and the annotated text parsing back to
 * the same test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

static const char harness[] = "pool int 2 const\n"
                              "pool t 2\n"
                              "<int> := 1..9\n"
                              "<t> := mk()\n"
                              "put(<t>, <int>)\n"
                              "look(<t>)\n";

/* Interesting iff some put stores a value >= 3 and (when `need_look`) a later look follows. */
static int need_look;

static int oracle(void *ctx, const tnorm_test *t, int *yes)
{
	const tnorm_harness *h = tnorm_test_harness(t);
	int64_t val[2] = {0, 0};
	int big = 0;
	size_t i;
	(*(int *)ctx)++;
	*yes = 0;
	for (i = 0; i < tnorm_test_len(t); i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		tnorm_literal lit;
		if (a->tmpl == 0) {
			tnorm_harness_value(h, 0, 1, a->choice[1], &lit);
			val[a->choice[0]] = lit.i;
		} else if (a->tmpl == 2 && val[a->choice[1]] >= 3) {
			big = 1;
			if (!need_look)
				*yes = 1;
		} else if (a->tmpl == 3 && big) {
			*yes = 1;
		}
	}
	return 0;
}

static char *annotate(const char *text, char **json)
{
	static char out[4096];
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL, *back = NULL;
	tnorm_generalization *g = NULL;
	char *s = NULL;
	int calls = 0;
	assert_int_equal(tnorm_harness_parse(&h, "g.tnh", harness, strlen(harness)), 0);
	assert_int_equal(tnorm_test_parse(&t, h, "g.t", text, strlen(text)), 0);
	assert_int_equal(tnorm_generalize(&g, t, NULL, oracle, &calls), 0);
	assert_true(calls > 0);
	assert_int_equal(tnorm_generalization_format(g, &s), 0);
	/* The annotated test is the same test. */
	assert_int_equal(tnorm_test_parse(&back, h, "annotated", s, strlen(s)), 0);
	assert_int_equal(tnorm_test_compare(back, t), 0);
	snprintf(out, sizeof(out), "%s", s);
	tnorm_free(s);
	if (json)
		assert_int_equal(tnorm_generalization_json(g, json), 0);
	tnorm_generalization_free(g);
	tnorm_test_free(back);
	tnorm_test_free(t);
	tnorm_harness_free(h);
	return out;
}

static void test_generalize__ranges_swaps_blocks(void **state)
{
	char *json = NULL;
	(void)state;
	need_look = 0;
	/* The legend line first (issue 32, item 7): "# - B" is the end of a range. */
	assert_string_equal(annotate("int0 = 3\nt0 = mk()\nput(t0, int0)\n", &json),
	                    "# how to read: \"# or A\" the step could be A (same failure); \"# or A\" "
	                    "then \"# - B\" any action from A through B (a range, not a minus); \"#[\" "
	                    "... \"#]\" steps in any order\n"
	                    "#[\n"
	                    "int0 = 3 # STEP 0\n"
	                    "# or int0 = 4\n"
	                    "# - int0 = 9\n"
	                    "# swaps with step 1\n"
	                    "t0 = mk() # STEP 1\n"
	                    "# swaps with step 0\n"
	                    "#] (steps in [] can be in any order)\n"
	                    "put(t0, int0) # STEP 2\n");
	assert_non_null(strstr(json, "\"alternatives\": [\"int0 = 4\", \"int0 = 5\""));
	assert_non_null(strstr(json, "\"swaps_with\": [1]"));
	tnorm_free(json);
}

static void test_generalize__essential_order(void **state)
{
	char *text;
	(void)state;
	/* The look must come after the put: the two never swap, and no block holds both. */
	need_look = 1;
	text = annotate("int0 = 3\nt0 = mk()\nput(t0, int0)\nlook(t0)\n", NULL);
	assert_non_null(strstr(text, "put(t0, int0) # STEP 2\nlook(t0) # STEP 3\n"));
	assert_null(strstr(text, "swaps with step 3"));
}

static void test_generalize__fresh_values(void **state)
{
	char *text, *json = NULL;
	(void)state;
	/* The failure is in the global state (any big put, then any look): the look works on a fresh
	 * object too, which Algorithm 3 reports; re-assigning int0 its own value is pruned. */
	need_look = 1;
	text = annotate("int0 = 3\nt0 = mk()\nput(t0, int0)\nlook(t0)\n", &json);
	assert_non_null(strstr(text, "look(t0) # STEP 3\n# or (\n# t0 = mk() ;\n# look(t0)\n# )\n"));
	assert_null(strstr(text, "# int0 = 3 ;"));
	assert_non_null(strstr(json, "\"fresh\": [\"t0 = mk()\"]"));
	tnorm_free(json);
}

/* Interesting iff the test is the one in ctx: no other value or order keeps the failure. */
static int only_itself(void *ctx, const tnorm_test *t, int *yes)
{
	*yes = tnorm_test_compare(t, (const tnorm_test *)ctx) == 0;
	return 0;
}

/* Nothing found (issue 40, item 6): the rendering says what was tried, and still parses. */
static void test_generalize__nothing_found(void **state)
{
	static const char text[] = "int0 = 3\nt0 = mk()\nput(t0, int0)\n";
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL, *back = NULL;
	tnorm_generalization *g = NULL;
	char *s = NULL;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&h, "g.tnh", harness, strlen(harness)), 0);
	assert_int_equal(tnorm_test_parse(&t, h, "g.t", text, strlen(text)), 0);
	assert_int_equal(tnorm_generalize(&g, t, NULL, only_itself, t), 0);
	assert_int_equal(tnorm_generalization_format(g, &s), 0);
	/* 6 values above 3; 1 well-formed swap (the put needs both before it); 8 fresh values of
	 * int0 before the put (its own, 3, is pruned; a fresh mk() too: no call touched t0) */
	assert_string_equal(s, "# generalized: none of the 6 replacements, 1 swap and 8 fresh values "
	                       "tried kept the failure\n"
	                       "int0 = 3 # STEP 0\n"
	                       "t0 = mk() # STEP 1\n"
	                       "put(t0, int0) # STEP 2\n");
	assert_int_equal(tnorm_test_parse(&back, h, "annotated", s, strlen(s)), 0);
	assert_int_equal(tnorm_test_compare(back, t), 0);
	tnorm_free(s);
	tnorm_generalization_free(g);
	tnorm_test_free(back);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

/* Large domains: a sample of 16 replacements of 998, said so, and folded into one range. */
static int put_at_least(void *ctx, const tnorm_test *t, int *yes)
{
	const tnorm_harness *h = tnorm_test_harness(t);
	int64_t v = 0;
	size_t i;
	(*(int *)ctx)++;
	*yes = 0;
	for (i = 0; i < tnorm_test_len(t); i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		tnorm_literal lit;
		if (a->tmpl == 0) {
			tnorm_harness_value(h, 0, 1, a->choice[1], &lit);
			v = lit.i;
		} else if (a->tmpl == 2 && v >= 5) {
			*yes = 1;
		}
	}
	return 0;
}

static void test_generalize__large_domain_sample(void **state)
{
	static const char big[] = "pool v 1 const\npool t 1\n<v> := 1..999\n<t> := mk()\nput(<t>, <v>)\n";
	static const char text[] = "v0 = 5\nt0 = mk()\nput(t0, v0)\n";
	tnorm_generalize_options o = TNORM_GENERALIZE_OPTIONS_INIT;
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL;
	tnorm_generalization *g = NULL;
	char *s = NULL;
	int calls = 0;
	(void)state;
	o.fresh = -1;
	assert_int_equal(tnorm_harness_parse(&h, "big.tnh", big, strlen(big)), 0);
	assert_int_equal(tnorm_test_parse(&t, h, "big.t", text, strlen(text)), 0);
	assert_int_equal(tnorm_generalize(&g, t, &o, put_at_least, &calls), 0);
	assert_true(calls <= 16 + 3); /* the sample and the swaps */
	assert_int_equal(tnorm_generalization_format(g, &s), 0);
	assert_non_null(strstr(s, "v0 = 5 # STEP 0\n# or v0 = 6\n# - v0 = 999\n"
	                          "# (a sample: 16 of 994 replacements tried; a range may hold values "
	                          "not tried)\n"));
	tnorm_free(s);
	tnorm_generalization_free(g);
	/* sample 0: every one of them */
	calls = 0;
	o.sample = -1;
	assert_int_equal(tnorm_generalize(&g, t, &o, put_at_least, &calls), 0);
	assert_true(calls >= 994);
	assert_int_equal(tnorm_generalization_format(g, &s), 0);
	assert_null(strstr(s, "a sample"));
	tnorm_free(s);
	tnorm_generalization_free(g);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generalize__ranges_swaps_blocks),
		cmocka_unit_test(test_generalize__essential_order),
		cmocka_unit_test(test_generalize__fresh_values),
		cmocka_unit_test(test_generalize__nothing_found),
		cmocka_unit_test(test_generalize__large_domain_sample),
	};
	return cmocka_run_group_tests_name("generalize", tests, NULL, NULL);
}

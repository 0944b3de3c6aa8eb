/* SPDX-License-Identifier: MIT */
/*
 * test_slice.c - convention-aware slicing (001's ℓ0/ℓ1/ℓ2) on hand-made harness tests with known
 * def/use, and the reducer's verify-and-fall-back: one verifying oracle call per level, ℓ0 when
 * its slice still fails, ℓ1 when only the more conservative slice does, no slicing otherwise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

/* int is a const pool (calls never modify it); look is pure; size stores its result. */
static const char harness[] = "pool int 2 const\n"
                              "pool t 2\n"
                              "<int> := 1..9\n"
                              "<t> := mk()\n"
                              "put(<t>, <int>)\n"
                              "pure look(<t>, <int>)\n"
                              "<int> := size(<t>)\n";

static tnorm_harness *load(void)
{
	tnorm_harness *h = NULL;
	assert_int_equal(tnorm_harness_parse(&h, "s.tnh", harness, strlen(harness)), 0);
	return h;
}

static tnorm_test *parse(const tnorm_harness *h, const char *text)
{
	tnorm_test *t = NULL;
	assert_int_equal(tnorm_test_parse(&t, h, "s.t", text, strlen(text)), 0);
	return t;
}

/* The slice of `text` at `level`, formatted; caller frees with tnorm_free. */
static char *slice_text(const tnorm_harness *h, const char *text, tnorm_slice_level level)
{
	tnorm_test *t = parse(h, text), *s = NULL;
	char *out = NULL;
	assert_int_equal(tnorm_slice(&s, t, level), 0);
	assert_true(tnorm_test_is_wellformed(s));
	assert_int_equal(tnorm_test_format(s, &out, NULL), 0);
	tnorm_test_free(s);
	tnorm_test_free(t);
	return out;
}

static void expect_slice(const tnorm_harness *h, const char *text, tnorm_slice_level level,
                         const char *want)
{
	char *got = slice_text(h, text, level);
	assert_string_equal(got, want);
	tnorm_free(got);
}

static void test_slice__unrelated_instances_go(void **state)
{
	tnorm_harness *h = load();
	const char *t = "int0 = 4\nt1 = mk()\nput(t1, int0)\nt0 = mk()\nput(t0, int0)\n";
	(void)state;
	/* put(t0, int0) needs t0 and int0; t1's steps define nothing it uses, at either level. */
	expect_slice(h, t, TNORM_SLICE_L0, "int0 = 4\nt0 = mk()\nput(t0, int0)\n");
	expect_slice(h, t, TNORM_SLICE_L1, "int0 = 4\nt0 = mk()\nput(t0, int0)\n");
	expect_slice(h, t, TNORM_SLICE_L2, t);
	tnorm_harness_free(h);
}

static void test_slice__pure_calls_modify_nothing(void **state)
{
	tnorm_harness *h = load();
	const char *t = "int0 = 2\nt0 = mk()\nlook(t0, int0)\nlook(t0, int0)\nput(t0, int0)\n";
	(void)state;
	/* look is pure: it defines nothing even at ℓ1, so neither look is in any slice. */
	expect_slice(h, t, TNORM_SLICE_L0, "int0 = 2\nt0 = mk()\nput(t0, int0)\n");
	expect_slice(h, t, TNORM_SLICE_L1, "int0 = 2\nt0 = mk()\nput(t0, int0)\n");
	tnorm_harness_free(h);
}

static void test_slice__stored_result_differs_by_level(void **state)
{
	tnorm_harness *h = load();
	const char *t = "int0 = 2\nt0 = mk()\nint1 = size(t0)\nlook(t0, int0)\n";
	(void)state;
	/* At ℓ0 a call whose result is stored modifies only its left-hand side (int1, unused); at
	 * ℓ1 size(t0) may modify t0, which the last step uses. */
	expect_slice(h, t, TNORM_SLICE_L0, "int0 = 2\nt0 = mk()\nlook(t0, int0)\n");
	expect_slice(h, t, TNORM_SLICE_L1, "int0 = 2\nt0 = mk()\nint1 = size(t0)\nlook(t0, int0)\n");
	tnorm_harness_free(h);
}

static void test_slice__const_pool_is_never_modified(void **state)
{
	tnorm_harness *h = load();
	const char *t = "int0 = 2\nint1 = 3\nt1 = mk()\nput(t1, int1)\nput(t1, int0)\nt0 = mk()\n"
	                "look(t0, int0)\n";
	(void)state;
	/* put(t1, int0) uses int0 but int is const: it does not define int0, so it stays out. */
	expect_slice(h, t, TNORM_SLICE_L1, "int0 = 2\nt0 = mk()\nlook(t0, int0)\n");
	tnorm_harness_free(h);
}

static void test_slice__assignment_ends_liveness(void **state)
{
	tnorm_harness *h = load();
	const char *t = "int0 = 1\nt0 = mk()\nput(t0, int0)\nt0 = mk()\nint0 = 5\nput(t0, int0)\n";
	(void)state;
	/* The second t0 = mk() and int0 = 5 redefine both variables: nothing before them matters. */
	expect_slice(h, t, TNORM_SLICE_L1, "t0 = mk()\nint0 = 5\nput(t0, int0)\n");
	/* A modification keeps the older value live: put(t0, int1) modifies t0 at ℓ1, so the t0 it
	 * modified and int1 stay in. */
	expect_slice(h, "int1 = 7\nt0 = mk()\nput(t0, int1)\nint0 = 1\nput(t0, int0)\n", TNORM_SLICE_L1,
	             "int1 = 7\nt0 = mk()\nput(t0, int1)\nint0 = 1\nput(t0, int0)\n");
	tnorm_harness_free(h);
}

static void test_slice__edges(void **state)
{
	tnorm_harness *h = load();
	tnorm_test *t = NULL, *s = NULL;
	(void)state;
	assert_int_equal(tnorm_test_new(&t, h), 0);
	assert_int_equal(tnorm_slice(&s, t, TNORM_SLICE_L0), 0);
	assert_int_equal(tnorm_test_len(s), 0);
	tnorm_test_free(s);
	assert_int_equal(tnorm_slice(NULL, t, TNORM_SLICE_L0), TNORM_EINVALID);
	assert_int_equal(tnorm_slice(&s, NULL, TNORM_SLICE_L0), TNORM_EINVALID);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

/* ---- verify and fall back ------------------------------------------------------------------ */

/* Interesting iff every line of `need` is a line of the candidate; records candidate lengths. */
typedef struct {
	const char *const *need;
	size_t lens[256];
	size_t ncalls;
} lines_oracle;

static int lines_fn(void *ctx, const tnorm_test *t, int *yes)
{
	lines_oracle *o = ctx;
	char *s = NULL, *w;
	size_t i;
	assert_true(tnorm_test_is_wellformed(t));
	if (o->ncalls < 256)
		o->lens[o->ncalls] = tnorm_test_len(t);
	o->ncalls++;
	assert_int_equal(tnorm_test_format(t, &s, NULL), 0);
	*yes = 1;
	for (i = 0; o->need[i]; i++) {
		char line[128];
		snprintf(line, sizeof(line), "\n%s\n", o->need[i]);
		w = malloc(strlen(s) + 2);
		assert_non_null(w);
		w[0] = '\n';
		strcpy(w + 1, s);
		if (!strstr(w, line))
			*yes = 0;
		free(w);
	}
	tnorm_free(s);
	return 0;
}

static const char fallback_test[] = "int0 = 3\nt0 = mk()\nput(t0, int0)\nint1 = size(t0)\nt1 = mk()\n"
                                    "put(t1, int0)\nlook(t0, int0)\n";

static void run_fallback(const char *const *need, int want_level, size_t want_slice,
                         const char *want_final)
{
	tnorm_harness *h = load();
	tnorm_test *t = parse(h, fallback_test), *out = NULL;
	tnorm_reduce_options o = TNORM_REDUCE_OPTIONS_INIT;
	tnorm_reduce_stats st;
	lines_oracle lo;
	char *s = NULL;
	int algo;
	for (algo = TNORM_ALGO_DDMIN; algo <= TNORM_ALGO_ADAPTIVE; algo++) {
		memset(&lo, 0, sizeof(lo));
		lo.need = need;
		o.prefix = -1;
		o.algo = (tnorm_reduce_algo)algo;
		assert_int_equal(tnorm_reduce_test(&out, t, &o, lines_fn, &lo, &st), 0);
		assert_int_equal(st.slice_level, want_level);
		assert_int_equal(st.after_slice, want_slice);
		assert_int_equal(st.calls, lo.ncalls);
		/* One verifying call per level tried: ℓ0's slice has 4 steps, ℓ1's 5. */
		assert_int_equal(lo.lens[0], 4);
		if (want_level >= 1)
			assert_int_equal(lo.lens[1], 5);
		assert_int_equal(tnorm_test_format(out, &s, NULL), 0);
		assert_string_equal(s, want_final);
		tnorm_free(s);
		tnorm_test_free(out);
		out = NULL;
	}
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

static void test_slice__l0_when_it_holds(void **state)
{
	static const char *const need[] = {"put(t0, int0)", "look(t0, int0)", NULL};
	(void)state;
	run_fallback(need, 0, 4, "int0 = 3\nt0 = mk()\nput(t0, int0)\nlook(t0, int0)\n");
}

static void test_slice__falls_back_to_l1(void **state)
{
	/* The failure needs size(t0): ℓ0 drops it, ℓ1 keeps it. */
	static const char *const need[] = {"int1 = size(t0)", "look(t0, int0)", NULL};
	(void)state;
	run_fallback(need, 1, 5, "int0 = 3\nt0 = mk()\nint1 = size(t0)\nlook(t0, int0)\n");
}

static void test_slice__falls_back_to_no_slicing(void **state)
{
	/* The failure needs put(t1, int0), which no slice of look(t0, int0) contains (an alias the
	 * conventions cannot see): both verifications fail and the whole test goes to deletion. */
	static const char *const need[] = {"put(t1, int0)", "look(t0, int0)", NULL};
	(void)state;
	run_fallback(need, 2, 7, "int0 = 3\nt0 = mk()\nt1 = mk()\nput(t1, int0)\nlook(t0, int0)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slice__unrelated_instances_go),
		cmocka_unit_test(test_slice__pure_calls_modify_nothing),
		cmocka_unit_test(test_slice__stored_result_differs_by_level),
		cmocka_unit_test(test_slice__const_pool_is_never_modified),
		cmocka_unit_test(test_slice__assignment_ends_liveness),
		cmocka_unit_test(test_slice__edges),
		cmocka_unit_test(test_slice__l0_when_it_holds),
		cmocka_unit_test(test_slice__falls_back_to_l1),
		cmocka_unit_test(test_slice__falls_back_to_no_slicing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_reduce.c - ddmin and adaptive deletion against in-process oracles with known answers,
 * 1-minimality, call counts, determinism, errors; slicing and the test-level reducer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

/* Interesting iff every unit of `need` is kept, and (if min_of > 0) at least min_of of `some`. */
typedef struct {
	const size_t *need;
	size_t nneed;
	const size_t *some;
	size_t nsome, min_of;
	long fail_after; /* return an error after this many calls (-1: never) */
	uint64_t calls;
} set_oracle;

static int has(const size_t *keep, size_t n, size_t u)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (keep[i] == u)
			return 1;
	return 0;
}

static int set_fn(void *ctx, const size_t *keep, size_t n, int *yes)
{
	set_oracle *o = ctx;
	size_t i, c = 0;
	o->calls++;
	if (o->fail_after >= 0 && o->calls > (uint64_t)o->fail_after)
		return TNORM_EINTERRUPTED;
	for (i = 1; i < n; i++)
		assert_true(keep[i - 1] < keep[i]);
	*yes = 1;
	for (i = 0; i < o->nneed; i++)
		if (!has(keep, n, o->need[i]))
			*yes = 0;
	for (i = 0; i < o->nsome; i++)
		c += has(keep, n, o->some[i]);
	if (o->min_of && c < o->min_of)
		*yes = 0;
	return 0;
}

static void check_one_minimal(set_oracle *o, const size_t *keep, size_t n)
{
	size_t skip, i, k;
	size_t tmp[256];
	for (skip = 0; skip < n; skip++) {
		int yes = 0;
		k = 0;
		for (i = 0; i < n; i++)
			if (i != skip)
				tmp[k++] = keep[i];
		set_fn(o, tmp, k, &yes);
		assert_false(yes);
	}
}

static void test_reduce__two_distant_units(void **state)
{
	static const size_t need[] = {3, 170};
	int algo;
	(void)state;
	for (algo = TNORM_ALGO_DDMIN; algo <= TNORM_ALGO_ADAPTIVE; algo++) {
		set_oracle o = {need, 2, NULL, 0, 0, -1, 0};
		size_t *keep = NULL, n = 0;
		uint64_t calls = 0;
		assert_int_equal(tnorm_reduce_units(200, (tnorm_reduce_algo)algo, 7, set_fn, &o, &keep, &n,
		                                    &calls), 0);
		assert_int_equal(n, 2);
		assert_int_equal(keep[0], 3);
		assert_int_equal(keep[1], 170);
		assert_int_equal(calls, o.calls);
		/* Far fewer calls than trying subsets: a generous bound that ddmin and adaptive meet. */
		assert_true(calls < 200);
		free(keep);
	}
}

static void test_reduce__threshold_is_one_minimal(void **state)
{
	static const size_t some[] = {5, 9, 17, 33, 40, 41, 77};
	int algo;
	(void)state;
	for (algo = TNORM_ALGO_DDMIN; algo <= TNORM_ALGO_ADAPTIVE; algo++) {
		set_oracle o = {NULL, 0, some, 7, 3, -1, 0};
		size_t *keep = NULL, n = 0;
		assert_int_equal(tnorm_reduce_units(100, (tnorm_reduce_algo)algo, 1, set_fn, &o, &keep, &n,
		                                    NULL), 0);
		assert_int_equal(n, 3);
		check_one_minimal(&o, keep, n);
		free(keep);
	}
}

static void test_reduce__adaptive_beats_ddmin_on_long_runs(void **state)
{
	/* Everything but one unit at the end is deletable: adaptive deletion's exponential probe
	 * removes long runs in O(log n) calls. */
	static const size_t need[] = {999};
	set_oracle a = {need, 1, NULL, 0, 0, -1, 0}, d = a;
	size_t *keep = NULL, n = 0;
	(void)state;
	assert_int_equal(tnorm_reduce_units(1000, TNORM_ALGO_ADAPTIVE, 3, set_fn, &a, &keep, &n, NULL), 0);
	assert_int_equal(n, 1);
	free(keep);
	assert_int_equal(tnorm_reduce_units(1000, TNORM_ALGO_DDMIN, 3, set_fn, &d, &keep, &n, NULL), 0);
	assert_int_equal(n, 1);
	free(keep);
	assert_true(a.calls > 0 && d.calls > 0);
}

static void test_reduce__deterministic_for_a_seed(void **state)
{
	static const size_t some[] = {1, 2, 3, 50, 51, 52, 90};
	size_t *k1 = NULL, *k2 = NULL, n1 = 0, n2 = 0;
	set_oracle o1 = {NULL, 0, some, 7, 2, -1, 0}, o2 = o1;
	(void)state;
	assert_int_equal(tnorm_reduce_units(100, TNORM_ALGO_ADAPTIVE, 42, set_fn, &o1, &k1, &n1, NULL), 0);
	assert_int_equal(tnorm_reduce_units(100, TNORM_ALGO_ADAPTIVE, 42, set_fn, &o2, &k2, &n2, NULL), 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(k1, k2, n1 * sizeof(*k1));
	assert_int_equal(o1.calls, o2.calls);
	free(k1);
	free(k2);
}

static void test_reduce__errors_stop_and_keep_the_best(void **state)
{
	static const size_t need[] = {10};
	set_oracle o = {need, 1, NULL, 0, 0, 5, 0};
	size_t *keep = NULL, n = 0;
	(void)state;
	assert_int_equal(tnorm_reduce_units(64, TNORM_ALGO_DDMIN, 1, set_fn, &o, &keep, &n, NULL),
	                 TNORM_EINTERRUPTED);
	assert_non_null(keep);
	assert_true(n >= 1 && n <= 64);
	assert_true(has(keep, n, 10));
	free(keep);
	assert_int_equal(tnorm_reduce_algo_parse("fast", &(tnorm_reduce_algo){0}), TNORM_EINVALID);
}

/* ---- tests over a harness -------------------------------------------------------------- */

static const char harness[] = "pool int 2 const\n"
                              "pool t 2\n"
                              "<int> := 1..9\n"
                              "<t> := mk()\n"
                              "put(<t>, <int>)\n"
                              "pure look(<t>, <int>)\n"
                              "<int> := size(<t>)\n";

static tnorm_test *parse(const tnorm_harness *h, const char *text)
{
	tnorm_test *t = NULL;
	assert_int_equal(tnorm_test_parse(&t, h, "r.t", text, strlen(text)), 0);
	return t;
}

static char *fmt(const tnorm_test *t)
{
	static char buf[2048];
	char *s = NULL;
	assert_int_equal(tnorm_test_format(t, &s, NULL), 0);
	snprintf(buf, sizeof(buf), "%s", s);
	tnorm_free(s);
	return buf;
}

static void test_reduce__slice_levels(void **state)
{
	tnorm_harness *h = NULL;
	tnorm_test *t, *s = NULL;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&h, "r.tnh", harness, strlen(harness)), 0);
	t = parse(h, "int0 = 1\nt0 = mk()\nt1 = mk()\nput(t1, int0)\nint1 = 2\nput(t0, int1)\n"
	             "look(t0, int0)\nint1 = size(t0)\nput(t0, int0)\n");
	/* From put(t0, int0): t0 and int0, and what modified t0 before (put(t0, int1), and at L1
	 * the stored-result call size(t0)); never t1's steps. */
	assert_int_equal(tnorm_slice(&s, t, TNORM_SLICE_L1), 0);
	assert_string_equal(fmt(s), "int0 = 1\nt0 = mk()\nint1 = 2\nput(t0, int1)\nint1 = size(t0)\n"
	                            "put(t0, int0)\n");
	tnorm_test_free(s);
	assert_int_equal(tnorm_slice(&s, t, TNORM_SLICE_L0), 0);
	assert_string_equal(fmt(s), "int0 = 1\nt0 = mk()\nint1 = 2\nput(t0, int1)\nput(t0, int0)\n");
	tnorm_test_free(s);
	assert_int_equal(tnorm_slice(&s, t, TNORM_SLICE_L2), 0);
	assert_int_equal(tnorm_test_compare(s, t), 0);
	tnorm_test_free(s);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

/* Interesting iff some t instance gets put(v >= 5) and later a look at the same instance. */
static int model_oracle(void *ctx, const tnorm_test *t, int *yes)
{
	const tnorm_harness *h = tnorm_test_harness(t);
	int64_t vals[2] = {0, 0};
	int big[2] = {0, 0};
	size_t i;
	(*(int *)ctx)++;
	assert_true(tnorm_test_is_wellformed(t));
	*yes = 0;
	for (i = 0; i < tnorm_test_len(t); i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		tnorm_literal lit;
		switch (a->tmpl) {
		case 0:
			tnorm_harness_value(h, 0, 1, a->choice[1], &lit);
			vals[a->choice[0]] = lit.i;
			break;
		case 2:
			if (vals[a->choice[1]] >= 5)
				big[a->choice[0]] = 1;
			break;
		case 3:
			if (big[a->choice[0]])
				*yes = 1;
			break;
		default:
			break;
		}
	}
	return 0;
}

static void test_reduce__test_reducer(void **state)
{
	tnorm_harness *h = NULL;
	tnorm_test *t, *out = NULL;
	tnorm_reduce_options o = TNORM_REDUCE_OPTIONS_INIT;
	tnorm_reduce_stats st;
	int calls = 0, algo;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&h, "r.tnh", harness, strlen(harness)), 0);
	t = parse(h, "int0 = 3\nt0 = mk()\nt1 = mk()\nput(t0, int0)\nint1 = 7\nput(t1, int1)\n"
	             "put(t0, int1)\nint0 = 2\nlook(t1, int0)\nlook(t0, int0)\nput(t1, int0)\n");
	for (algo = TNORM_ALGO_DDMIN; algo <= TNORM_ALGO_ADAPTIVE; algo++) {
		o.algo = (tnorm_reduce_algo)algo;
		calls = 0;
		assert_int_equal(tnorm_reduce_test(&out, t, &o, model_oracle, &calls, &st), 0);
		/* The prefix pass cuts after look(t1, int0); what remains needs int0 assigned, t1 made,
		 * int1 = 7 put into it, and the look: 5 steps, whichever int0 assignment is kept. */
		assert_int_equal(tnorm_test_len(out), 5);
		assert_int_equal(st.calls, (uint64_t)calls);
		assert_int_equal(st.after_prefix, 9);
		assert_non_null(strstr(fmt(out), "t1 = mk()\nint1 = 7\nput(t1, int1)\n"));
		{
			/* 1-minimal: removing any step makes it ill-formed or not interesting. */
			size_t k;
			for (k = 0; k < tnorm_test_len(out); k++) {
				tnorm_test *c = NULL;
				int yes = 0;
				assert_int_equal(tnorm_test_dup(&c, out), 0);
				assert_int_equal(tnorm_test_remove(c, k), 0);
				if (tnorm_test_is_wellformed(c))
					model_oracle(&calls, c, &yes);
				assert_false(yes);
				tnorm_test_free(c);
			}
		}
		tnorm_test_free(out);
		out = NULL;
	}
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduce__two_distant_units),
		cmocka_unit_test(test_reduce__threshold_is_one_minimal),
		cmocka_unit_test(test_reduce__adaptive_beats_ddmin_on_long_runs),
		cmocka_unit_test(test_reduce__deterministic_for_a_seed),
		cmocka_unit_test(test_reduce__errors_stop_and_keep_the_best),
		cmocka_unit_test(test_reduce__slice_levels),
		cmocka_unit_test(test_reduce__test_reducer),
	};
	return cmocka_run_group_tests_name("reduce", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_gen.c - the random test generator: same seed gives the same test, every generated test
 * is well-formed and parses back from its own text, every template is reachable, the first
 * step can only be one that needs no assigned instance, and fresh (assigned, unused) instances
 * are not overwritten while another instance is available.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

static const char avl_tnh[] = "pool int 4 const\n"
                              "pool avl 3\n"
                              "<int> := 1..20\n"
                              "<avl> := avl_new()\n"
                              "avl_insert(<avl>, <int>)\n"
                              "check avl_check(<avl>)\n"
                              "avl_delete(<avl>, <int>)\n"
                              "pure avl_find(<avl>, <int>)\n"
                              "<int> := avl_size(<avl>)\n"
                              "tag(<avl>, {3, -1}, {\"x\", \"a#b\"})\n";

static tnorm_harness *load(const char *text)
{
	tnorm_harness *h = NULL;
	assert_int_equal(tnorm_harness_parse(&h, "g.tnh", text, strlen(text)), 0);
	return h;
}

static void test_gen__deterministic_and_well_formed(void **state)
{
	tnorm_harness *h = load(avl_tnh);
	uint64_t seed;
	size_t distinct = 0;
	uint64_t prev = 0;
	(void)state;
	for (seed = 0; seed < 1000; seed++) {
		tnorm_test *a = NULL, *b = NULL, *c = NULL;
		char *sa = NULL;
		size_t la = 0;
		assert_int_equal(tnorm_test_generate(&a, h, 40, seed), 0);
		assert_int_equal(tnorm_test_generate(&b, h, 40, seed), 0);
		assert_int_equal(tnorm_test_len(a), 40);
		assert_int_equal(tnorm_test_compare(a, b), 0);
		assert_true(tnorm_test_hash(a) == tnorm_test_hash(b));
		assert_int_equal(tnorm_test_check(a, NULL), 0);
		assert_int_equal(tnorm_test_format(a, &sa, &la), 0);
		assert_int_equal(tnorm_test_parse(&c, h, "g.t", sa, la), 0);
		assert_int_equal(tnorm_test_compare(a, c), 0);
		if (tnorm_test_hash(a) != prev)
			distinct++;
		prev = tnorm_test_hash(a);
		tnorm_free(sa);
		tnorm_test_free(a);
		tnorm_test_free(b);
		tnorm_test_free(c);
	}
	/* Different seeds give different tests (hash changes between consecutive seeds). */
	assert_true(distinct > 990);
	tnorm_harness_free(h);
}

static void test_gen__reaches_every_template_and_starts_fillable(void **state)
{
	tnorm_harness *h = load(avl_tnh);
	uint32_t nt = tnorm_harness_template_count(h), i;
	unsigned seen[16] = {0};
	uint64_t seed;
	(void)state;
	assert_true(nt <= 16);
	for (seed = 0; seed < 200; seed++) {
		tnorm_test *t = NULL;
		const tnorm_action *first;
		tnorm_template_info ti;
		size_t k;
		assert_int_equal(tnorm_test_generate(&t, h, 30, seed), 0);
		first = tnorm_test_step(t, 0);
		assert_int_equal(tnorm_harness_template(h, first->tmpl, &ti), 0);
		/* Nothing is assigned yet: the first step has no pool arguments besides its LHS. */
		for (k = ti.has_lhs ? 1 : 0; k < ti.nslots; k++)
			assert_int_equal(ti.slot[k].kind, TNORM_SLOT_VALUE);
		for (k = 0; k < tnorm_test_len(t); k++)
			seen[tnorm_test_step(t, k)->tmpl]++;
		tnorm_test_free(t);
	}
	for (i = 0; i < nt; i++)
		if (!seen[i])
			fail_msg("template %u never generated", i);
	tnorm_harness_free(h);
}

/* An instance assigned and not read since is not reassigned while some instance of its pool is
 * not in that state. */
static void test_gen__avoids_overwriting_unused_values(void **state)
{
	tnorm_harness *h = load(avl_tnh);
	uint32_t nv = tnorm_harness_var_count(h);
	uint64_t seed;
	(void)state;
	for (seed = 0; seed < 300; seed++) {
		tnorm_test *t = NULL;
		unsigned char *fresh = calloc(nv, 1);
		size_t k;
		assert_non_null(fresh);
		assert_int_equal(tnorm_test_generate(&t, h, 50, seed), 0);
		for (k = 0; k < tnorm_test_len(t); k++) {
			const tnorm_action *a = tnorm_test_step(t, k);
			tnorm_template_info ti;
			tnorm_pool_info p;
			uint32_t s, j, nfresh = 0;
			assert_int_equal(tnorm_harness_template(h, a->tmpl, &ti), 0);
			for (s = ti.has_lhs ? 1 : 0; s < ti.nslots; s++)
				if (ti.slot[s].kind == TNORM_SLOT_POOL) {
					assert_int_equal(tnorm_harness_pool(h, ti.slot[s].pool, &p), 0);
					fresh[p.first_var + a->choice[s]] = 0;
				}
			if (!ti.has_lhs)
				continue;
			assert_int_equal(tnorm_harness_pool(h, ti.slot[0].pool, &p), 0);
			for (j = 0; j < p.instances; j++)
				nfresh += fresh[p.first_var + j];
			if (fresh[p.first_var + a->choice[0]] && nfresh < p.instances)
				fail_msg("seed %llu step %zu overwrote an unused instance",
				         (unsigned long long)seed, k);
			fresh[p.first_var + a->choice[0]] = 1;
		}
		free(fresh);
		tnorm_test_free(t);
	}
	tnorm_harness_free(h);
}

static void test_gen__edge_cases(void **state)
{
	tnorm_harness *h = load(avl_tnh), *stuck = load("pool avl 2\nuse(<avl>)\n");
	tnorm_test *t = (tnorm_test *)1;
	(void)state;
	assert_int_equal(tnorm_test_generate(&t, h, 0, 7), 0);
	assert_int_equal(tnorm_test_len(t), 0);
	tnorm_test_free(t);
	t = (tnorm_test *)1;
	assert_int_equal(tnorm_test_generate(&t, stuck, 3, 7), TNORM_EINVALID);
	assert_null(t);
	assert_string_equal(tnorm_error_last()->message,
	                    "g.tnh: no template can start a test (every template needs a pool that "
	                    "nothing assigns)");
	/* Zero steps of a stuck harness is still the (well-formed) empty test. */
	assert_int_equal(tnorm_test_generate(&t, stuck, 0, 7), 0);
	assert_int_equal(tnorm_test_len(t), 0);
	tnorm_test_free(t);
	assert_int_equal(tnorm_test_generate(NULL, h, 1, 0), TNORM_EINVALID);
	tnorm_harness_free(h);
	tnorm_harness_free(stuck);
}

/* Issue 16 item 1: the value templates of one pool are drawn as one, each value equally likely
 * (`<v> := null` next to `<v> := 1..999` is not half of all assignments), and the pool is as
 * likely as any other template. */
static void test_gen__values_weighted_across_templates(void **state)
{
	static const char text[] = "pool v 1 const\n"
	                           "<v> := null\n"
	                           "<v> := 1..999\n"
	                           "use(<v>)\n";
	tnorm_harness *h = load(text);
	tnorm_test *t = NULL;
	size_t i, nulls = 0, values = 0, uses = 0;
	(void)state;
	assert_int_equal(tnorm_test_generate(&t, h, 20000, 7), 0);
	for (i = 0; i < tnorm_test_len(t); i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		nulls += a->tmpl == 0;
		values += a->tmpl <= 1;
		uses += a->tmpl == 2;
	}
	/* about 10,000 assignments and 10,000 uses; null about 10 of the assignments */
	assert_true(values > 9000 && values < 11000);
	assert_true(uses > 9000 && uses < 11000);
	assert_true(nulls < 40);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen__deterministic_and_well_formed),
		cmocka_unit_test(test_gen__reaches_every_template_and_starts_fillable),
		cmocka_unit_test(test_gen__avoids_overwriting_unused_values),
		cmocka_unit_test(test_gen__edge_cases),
		cmocka_unit_test(test_gen__values_weighted_across_templates),
	};
	return cmocka_run_group_tests_name("gen", tests, NULL, NULL);
}

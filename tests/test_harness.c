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
	/* Issue 16: guards and moves, with a test checked against them. */
	static const char guarded[] = "pool n 1 const\npool i 2\npool b 2\n<n> := 1..9\n"
	                              "<i> := mk(<n>)\n<b> := bag()\nadd(<b>, move <i>)\n"
	                              "<i> := take(<b>) requires add(<b>, _)\n";
	static const char test[] = "b0 = bag()\nn0 = 1\ni0 = mk(n0)\nadd(b0, i0)\ni1 = take(b0)\n";
	const char *texts[] = {avl_tnh, guarded};
	size_t k;
	/* Fail the first, second, ... allocation until parsing succeeds; every failure must come
	 * back as TNORM_ENOMEM with nothing leaked (ASan checks the leaks). */
	for (k = 0; k < 2; k++) {
		for (n = 0, ok = 0; n < 100000 && !ok; n++) {
			tnorm_harness *h = NULL;
			tnorm_test *t = NULL;
			int err;
			tnorm__alloc_fail_after(n);
			err = tnorm_harness_parse(&h, "h.tnh", texts[k], strlen(texts[k]));
			if (err == 0 && k == 1 && (err = tnorm_test_parse(&t, h, "t.t", test, strlen(test))) == 0)
				err = tnorm_test_check(t, NULL);
			tnorm__alloc_fail_after(-1);
			if (err == 0) {
				ok = 1;
			} else {
				assert_int_equal(err, TNORM_ENOMEM);
				assert_true(h == NULL || k == 1);
			}
			tnorm_test_free(t);
			tnorm_harness_free(h);
		}
		assert_true(ok);
		assert_true(n > 10);
	}
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

/* ---- text -> action -> text is the identity for every harness the parser accepts ----------- */

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Action `idx` printed (a new string), checked to parse back to the same index and text. */
static char *round_trip_one(const tnorm_harness *h, uint64_t idx)
{
	tnorm_action a, b;
	uint64_t r;
	size_t col = 0;
	char *text, *again;
	int len;
	assert_int_equal(tnorm_harness_unrank(h, idx, &a), 0);
	len = tnorm_harness_format_action(h, &a, NULL, 0);
	assert_true(len > 0);
	text = malloc((size_t)len + 1);
	again = malloc((size_t)len + 1);
	assert_non_null(text);
	assert_non_null(again);
	assert_int_equal(tnorm_harness_format_action(h, &a, text, (size_t)len + 1), len);
	if (tnorm_harness_parse_action(h, text, (size_t)len, &b, &col) < 0)
		fail_msg("%s: action %llu '%s' does not parse back: %s", tnorm_harness_name(h),
		         (unsigned long long)idx, text, tnorm_error_last()->message);
	assert_int_equal(tnorm_harness_rank(h, &b, &r), 0);
	if (r != idx)
		fail_msg("%s: action %llu '%s' reads back as action %llu", tnorm_harness_name(h),
		         (unsigned long long)idx, text, (unsigned long long)r);
	assert_int_equal(tnorm_harness_format_action(h, &b, again, (size_t)len + 1), len);
	assert_string_equal(again, text);
	free(again);
	return text;
}

/* Every action of a small harness, a sample of a large one; and a generated test. */
static void round_trip_all(const tnorm_harness *h)
{
	uint64_t n = tnorm_harness_action_count(h), i, seed = n;
	tnorm_test *t = NULL, *u = NULL;
	char *out = NULL, *out2 = NULL;
	size_t len = 0;
	if (n <= 200000) {
		for (i = 0; i < n; i++)
			free(round_trip_one(h, i));
	} else {
		free(round_trip_one(h, 0));
		free(round_trip_one(h, n - 1));
		for (i = 0; i < 100000; i++)
			free(round_trip_one(h, rnd(&seed) % n));
	}
	if (tnorm_test_generate(&t, h, 200, 7) == 0) {
		assert_int_equal(tnorm_test_format(t, &out, &len), 0);
		assert_int_equal(tnorm_test_parse(&u, h, "g.t", out, len), 0);
		assert_int_equal(tnorm_test_compare(t, u), 0);
		assert_int_equal(tnorm_test_format(u, &out2, NULL), 0);
		assert_string_equal(out, out2);
	}
	tnorm_free(out);
	tnorm_free(out2);
	tnorm_test_free(t);
	tnorm_test_free(u);
}

static void test_harness__round_trip_examples(void **state)
{
	static const char *files[] = {"examples/avl/avl.tnh", "examples/htable/htable.tnh",
	                              "examples/trie/trie.tnh", "tests/driver/probe.tnh"};
	static const char huge[] = "pool a 1000\n<a> := 0..4294967294\nf(<a>, <a>, \"s\", <a>)\n"
	                           "f(<a>, <a>, \"t\", <a>)\ng({-9223372036854775808, 1}, 0..7)\n"
	                           "g(-9223372036854775808..-9223372036854775000, 8..9)\n"
	                           "h(9223372036854775000..9223372036854775807)\n";
	const char *root = getenv("TNORM_SOURCE_ROOT");
	tnorm_harness *h = NULL;
	char path[4096];
	size_t i;
	(void)state;
	assert_non_null(root);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[i]);
		if (tnorm_harness_load(&h, path) < 0)
			fail_msg("%s", tnorm_error_last()->message);
		round_trip_all(h);
		tnorm_harness_free(h);
	}
	assert_int_equal(tnorm_harness_parse(&h, "avl.tnh", avl_tnh, strlen(avl_tnh)), 0);
	round_trip_all(h);
	tnorm_harness_free(h);
	assert_int_equal(tnorm_harness_parse(&h, "t.tnh", test_harness_text, strlen(test_harness_text)), 0);
	round_trip_all(h);
	tnorm_harness_free(h);
	assert_int_equal(tnorm_harness_parse(&h, "huge.tnh", huge, strlen(huge)), 0);
	round_trip_all(h);
	tnorm_harness_free(h);
}

/* A random small harness: pools a and b, templates that often share a shape and values. */
static void random_harness(uint64_t *seed, char *pools, size_t psize, char lines[][160], size_t *nlines)
{
	/* Strings that print escaped, raw or as a comment character, and one spelled two ways. */
	static const char *strs[] = {"\"x\"", "\"\\x78\"", "\"xy\"", "\"\"", "\"\\xff\"",
	                             "\"#\"", "\"\\0\\n\"", "\"a\\\"b\\\\\""};
	size_t k, npools = 1 + rnd(seed) % 2;
	snprintf(pools, psize, "pool a %u\n%s", (unsigned)(1 + rnd(seed) % 2), npools > 1 ? "pool b 1\n" : "");
	*nlines = 1 + rnd(seed) % 4;
	for (k = 0; k < *nlines; k++) {
		char *l = lines[k];
		size_t n = 0, kind = rnd(seed) % 3, nargs, j;
		const char *pool = npools > 1 && rnd(seed) % 2 ? "b" : "a";
		if (kind != 1)
			n += (size_t)snprintf(l + n, 160 - n, "<%s> := ", pool);
		nargs = kind == 0 ? 1 : rnd(seed) % 3;
		if (kind != 0)
			n += (size_t)snprintf(l + n, 160 - n, "%s(", rnd(seed) % 2 ? "f" : "g");
		for (j = 0; j < nargs; j++) {
			size_t vk = rnd(seed) % (kind == 0 ? 5 : 6), m, q;
			if (j)
				n += (size_t)snprintf(l + n, 160 - n, ", ");
			if (vk == 0) {
				int lo = (int)(rnd(seed) % 5) - 2;
				n += (size_t)snprintf(l + n, 160 - n, "%d..%d", lo, lo + (int)(rnd(seed) % 4));
			} else if (vk == 1 || vk == 2) {
				m = 1 + rnd(seed) % 3;
				n += (size_t)snprintf(l + n, 160 - n, "{");
				for (q = 0; q < m; q++) {
					if (vk == 1) {
						int v = (int)(rnd(seed) % 6) - 2;
						n += (size_t)snprintf(l + n, 160 - n, "%s%s%d", q ? ", " : "",
						                      v == 0 && rnd(seed) % 2 ? "-" : "", v);
					} else {
						n += (size_t)snprintf(l + n, 160 - n, "%s%s", q ? ", " : "",
						                      strs[rnd(seed) % 8]);
					}
				}
				n += (size_t)snprintf(l + n, 160 - n, "}");
			} else if (vk == 3) {
				n += (size_t)snprintf(l + n, 160 - n, "%d", (int)(rnd(seed) % 4));
			} else if (vk == 4) {
				n += (size_t)snprintf(l + n, 160 - n, "%s", strs[rnd(seed) % 8]);
			} else {
				n += (size_t)snprintf(l + n, 160 - n, "<%s>", npools > 1 && rnd(seed) % 2 ? "b" : "a");
			}
		}
		if (kind != 0)
			n += (size_t)snprintf(l + n, 160 - n, ")");
		snprintf(l + n, 160 - n, "\n");
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The parser refuses exactly the harnesses in which two actions print alike: the texts of each
 * template's actions are listed from a harness of that template alone, so this does not trust
 * the check it tests. */
static void test_harness__ambiguity_is_exact(void **state)
{
	uint64_t seed = 42;
	int iter, refused = 0, accepted = 0;
	(void)state;
	for (iter = 0; iter < 3000; iter++) {
		char pools[64], lines[4][160], text[800];
		char *texts[4096];
		size_t nlines, k, ntexts = 0;
		int alone_refused = 0, dup = 0, err;
		tnorm_harness *h = NULL;
		random_harness(&seed, pools, sizeof(pools), lines, &nlines);
		for (k = 0; k < nlines; k++) {
			uint64_t i, n;
			snprintf(text, sizeof(text), "%s%s", pools, lines[k]);
			if (tnorm_harness_parse(&h, "one.tnh", text, strlen(text)) < 0) {
				assert_non_null(strstr(tnorm_error_last()->message, "is listed twice in one set"));
				alone_refused = 1;
				continue;
			}
			n = tnorm_harness_action_count(h);
			for (i = 0; i < n && ntexts < 4096; i++) {
				tnorm_action a;
				char buf[160];
				assert_int_equal(tnorm_harness_unrank(h, i, &a), 0);
				assert_true(tnorm_harness_format_action(h, &a, buf, sizeof(buf)) > 0);
				texts[ntexts++] = strdup(buf);
			}
			tnorm_harness_free(h);
			h = NULL;
		}
		qsort(texts, ntexts, sizeof(texts[0]), cmp_str);
		for (k = 1; k < ntexts; k++)
			dup |= !strcmp(texts[k - 1], texts[k]);
		for (k = 0; k < ntexts; k++)
			free(texts[k]);
		snprintf(text, sizeof(text), "%s%s%s%s%s", pools, lines[0], nlines > 1 ? lines[1] : "",
		         nlines > 2 ? lines[2] : "", nlines > 3 ? lines[3] : "");
		err = tnorm_harness_parse(&h, "r.tnh", text, strlen(text));
		if ((err < 0) != (alone_refused || dup))
			fail_msg("harness %s\n%s: %s", err < 0 ? "refused but no two actions print alike:" :
			         "accepted but two actions print alike:", text,
			         err < 0 ? tnorm_error_last()->message : "");
		if (err < 0) {
			assert_int_equal(err, TNORM_EPARSE);
			refused++;
		} else {
			round_trip_all(h);
			tnorm_harness_free(h);
			accepted++;
		}
	}
	/* Both outcomes are common, so both directions are tested. */
	assert_true(refused > 300 && accepted > 300);
}

/* Issue 16 item 1: `null` and lists that mix integers, strings and null; each value keeps its
 * kind, prints as written and parses back; null is refused where a slot does not list it. */
static void test_harness__null_and_mixed_lists(void **state)
{
	static const char text[] = "pool v 2 const\n"
	                           "pool o 1\n"
	                           "<v> := {null, 1, \"x\", \"\", -3}\n"
	                           "<o> := mk(null)\n"
	                           "put(<o>, {\"k\", 2, null})\n";
	static const char *const steps[] = {"v0 = null", "v1 = 1", "v0 = \"x\"", "v0 = \"\"",
	                                    "v1 = -3", "o0 = mk(null)", "put(o0, \"k\")",
	                                    "put(o0, 2)", "put(o0, null)"};
	tnorm_harness *h = NULL;
	tnorm_literal lit;
	tnorm_action a;
	char buf[64];
	size_t i, col = 0;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&h, "n.tnh", text, strlen(text)), 0);
	assert_int_equal(tnorm_harness_value(h, 0, 1, 0, &lit), 0);
	assert_int_equal(lit.kind, TNORM_LIT_NULL);
	assert_int_equal(tnorm_harness_value(h, 0, 1, 1, &lit), 0);
	assert_int_equal(lit.kind, TNORM_LIT_INT);
	assert_int_equal(tnorm_harness_value(h, 0, 1, 2, &lit), 0);
	assert_int_equal(lit.kind, TNORM_LIT_STRING);
	assert_int_equal(tnorm_harness_value(h, 2, 1, 2, &lit), 0);
	assert_int_equal(lit.kind, TNORM_LIT_NULL);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		assert_int_equal(tnorm_harness_parse_action(h, steps[i], strlen(steps[i]), &a, &col), 0);
		assert_true(tnorm_harness_format_action(h, &a, buf, sizeof(buf)) > 0);
		assert_string_equal(buf, steps[i]);
	}
	assert_int_equal(tnorm_harness_parse_action(h, "put(o0, 3)", 10, &a, &col), TNORM_EPARSE);
	tnorm_harness_free(h);
	h = NULL;
	/* null where the slot has no null */
	assert_int_equal(tnorm_harness_parse(&h, "n.tnh", "pool v 1\n<v> := 1..3\n", 21), 0);
	assert_int_equal(tnorm_harness_parse_action(h, "v0 = null", 9, &a, &col), TNORM_EPARSE);
	assert_string_equal(tnorm_error_last()->message, "value null is not allowed here, expected one "
	                    "of the values the harness lists for this slot");
	assert_int_equal(col, 6);
	tnorm_harness_free(h);
}

/* Issue 16 item 2: generated domains.  strings(A, LO..HI) in shortlex order (shorter first, then
 * the alphabet's order as written), bytes(LO..HI); each value prints and parses back to its own
 * choice; the test parser takes any string of the domain, and no other. */
static void test_harness__generated_domains(void **state)
{
	static const char text[] = "pool k 1 const\n"
	                           "<k> := strings(\"ba\", 1..3)\n"
	                           "f(bytes(0..2))\n"
	                           "g(strings(\"a\"..\"c\" \"_\", 0..2))\n";
	static const char *const first[] = {"k0 = \"b\"", "k0 = \"a\"", "k0 = \"bb\"",
	                                    "k0 = \"ba\"", "k0 = \"ab\"", "k0 = \"aa\"",
	                                    "k0 = \"bbb\""};
	tnorm_harness *h = NULL;
	tnorm_template_info ti;
	tnorm_literal lit;
	tnorm_action a;
	char buf[64];
	size_t col = 0;
	uint64_t i, idx;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&h, "d.tnh", text, strlen(text)), 0);
	assert_int_equal(tnorm_harness_template(h, 0, &ti), 0);
	assert_int_equal(ti.count, 2 + 4 + 8);
	assert_int_equal(tnorm_harness_template(h, 1, &ti), 0);
	assert_int_equal(ti.count, 1 + 256 + 65536);
	assert_int_equal(tnorm_harness_template(h, 2, &ti), 0);
	assert_int_equal(ti.count, 1 + 4 + 16);
	for (i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		assert_int_equal(tnorm_harness_unrank(h, i, &a), 0);
		assert_true(tnorm_harness_format_action(h, &a, buf, sizeof(buf)) > 0);
		assert_string_equal(buf, first[i]);
	}
	/* every action: text -> action -> rank is the identity */
	for (idx = 0; idx < tnorm_harness_action_count(h); idx += idx < 600 ? 1 : 97) {
		uint64_t back;
		tnorm_action b;
		assert_int_equal(tnorm_harness_unrank(h, idx, &a), 0);
		assert_true(tnorm_harness_format_action(h, &a, buf, sizeof(buf)) > 0);
		assert_int_equal(tnorm_harness_parse_action(h, buf, strlen(buf), &b, &col), 0);
		assert_int_equal(tnorm_harness_rank(h, &b, &back), 0);
		assert_true(back == idx);
	}
	assert_int_equal(tnorm_harness_value(h, 1, 0, 1 + 256 + 0x41 * 256 + 0x42, &lit), 0);
	assert_int_equal(lit.kind, TNORM_LIT_STRING);
	assert_int_equal(lit.len, 2);
	assert_memory_equal(lit.s, "AB", 2);
	assert_ptr_equal(lit.s, lit.text);
	assert_int_equal(tnorm_harness_parse_action(h, "g(\"c_\")", 7, &a, &col), 0);
	assert_int_equal(tnorm_harness_parse_action(h, "g(\"d\")", 6, &a, &col), TNORM_EPARSE);
	assert_int_equal(tnorm_harness_parse_action(h, "g(\"aaa\")", 8, &a, &col), TNORM_EPARSE);
	assert_int_equal(tnorm_harness_parse_action(h, "k0 = \"\"", 7, &a, &col), TNORM_EPARSE);
	tnorm_harness_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_harness__malformed_messages),
		cmocka_unit_test(test_harness__pure_after_assign),
		cmocka_unit_test(test_harness__describes_itself),
		cmocka_unit_test(test_harness__load_errors),
		cmocka_unit_test(test_harness__oom_every_allocation),
		cmocka_unit_test(test_harness__round_trip_examples),
		cmocka_unit_test(test_harness__ambiguity_is_exact),
		cmocka_unit_test(test_harness__null_and_mixed_lists),
		cmocka_unit_test(test_harness__generated_domains),
	};
	return cmocka_run_group_tests_name("harness", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_generic.c - generic mode (generic.h) against in-process oracles with known answers: the
 * shortlex order, deletion with and without the chunk pass, and each normalization rewrite on
 * its own; errors and the best-so-far on an oracle error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

/* ---- oracles ------------------------------------------------------------------------------- */

/* Both words "alpha" and "omega" somewhere. */
static int two_words(void *ctx, const char *d, size_t n, int *yes)
{
	(void)ctx;
	(void)n;
	*yes = strstr(d, "alpha") && strstr(d, "omega");
	return 0;
}

/* A comma-separated list of members `"KEY":[{}]` (KEY lowercase letters), one of them with the
 * empty key: a tiny structured format where no single token of a member can go alone. */
static int members(void *ctx, const char *d, size_t n, int *yes)
{
	const char *p = d, *end = d + n;
	int empty = 0;
	(void)ctx;
	*yes = 0;
	for (;;) {
		const char *k;
		if (p >= end || *p++ != '"')
			return 0;
		for (k = p; p < end && *p >= 'a' && *p <= 'z'; p++)
			;
		empty |= p == k;
		if (end - p < 6 || memcmp(p, "\":[{}]", 6) != 0)
			return 0;
		p += 6;
		if (p == end)
			break;
		if (*p++ != ',')
			return 0;
	}
	*yes = empty;
	return 0;
}

/* Balanced brackets (each closes the latest open one) and the element [7] somewhere: what a
 * parser that needs well-formed input and one nested value asks for. */
static int nested_seven(void *ctx, const char *d, size_t n, int *yes)
{
	char stack[64];
	size_t i, depth = 0;
	(void)ctx;
	*yes = 0;
	for (i = 0; i < n; i++) {
		if (d[i] == '[' || d[i] == '{') {
			if (depth == sizeof(stack))
				return 0;
			stack[depth++] = d[i];
		} else if (d[i] == ']' || d[i] == '}') {
			if (!depth || stack[--depth] != (d[i] == ']' ? '[' : '{'))
				return 0;
		}
	}
	*yes = depth == 0 && memmem(d, n, "[7]", 3) != NULL;
	return 0;
}

/* The hoisting pass: a bracketed value replaced by one of its pieces, which deletion of runs
 * cannot do (it would have to delete `{"a":` and the last `}` at once); not without chunks. */
static void test_generic__hoist(void **state)
{
	static const char in[] = "{\"a\": {\"b\": [7], \"c\": 1}}";
	tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
	tnorm_generic_stats st;
	char *out = NULL;
	size_t len = 0;
	(void)state;
	assert_int_equal(
	        tnorm_generic_reduce(in, strlen(in), &o, nested_seven, NULL, &out, &len, &st), 0);
	assert_string_equal(out, "[7]");
	assert_true(st.chunks >= 1);
	tnorm_free(out);
	o.chunks = 0;
	assert_int_equal(
	        tnorm_generic_reduce(in, strlen(in), &o, nested_seven, NULL, &out, &len, &st), 0);
	assert_true(len > 3 && out[0] == '{');
	tnorm_free(out);
}

/* "detach N" with N >= 3 somewhere (N decimal). */
static int detach_ge3(void *ctx, const char *d, size_t n, int *yes)
{
	const char *p = strstr(d, "detach ");
	(void)ctx;
	(void)n;
	*yes = p && p[7] >= '0' && p[7] <= '9' && strtol(p + 7, NULL, 10) >= 3;
	return 0;
}

/* "x=N" with N <= -5. */
static int x_le_minus5(void *ctx, const char *d, size_t n, int *yes)
{
	(void)ctx;
	(void)n;
	*yes = !strncmp(d, "x=", 2) && (d[2] == '-' || (d[2] >= '0' && d[2] <= '9')) &&
	       strtol(d + 2, NULL, 10) <= -5;
	return 0;
}

/* "set NAME": NAME three characters, not starting with 'a'. */
static int set_name(void *ctx, const char *d, size_t n, int *yes)
{
	(void)ctx;
	*yes = n == 7 && !strncmp(d, "set ", 4) && d[4] != 'a';
	return 0;
}

/* Two bytes: 'k' then a byte >= 3. */
static int byte_ge3(void *ctx, const char *d, size_t n, int *yes)
{
	(void)ctx;
	*yes = n == 2 && d[0] == 'k' && (unsigned char)d[1] >= 3;
	return 0;
}

/* Two words separated by one space. */
static int two_any_words(void *ctx, const char *d, size_t n, int *yes)
{
	const char *sp = memchr(d, ' ', n);
	(void)ctx;
	*yes = sp && sp > d && sp < d + n - 1 && !memchr(sp + 1, ' ', n - (size_t)(sp + 1 - d));
	return 0;
}

/* The same multiset of bytes as ctx (a string): any permutation is interesting. */
static int permutation(void *ctx, const char *d, size_t n, int *yes)
{
	const char *want = ctx;
	size_t c1[256] = {0}, c2[256] = {0}, i;
	if (n != strlen(want)) {
		*yes = 0;
		return 0;
	}
	for (i = 0; i < n; i++) {
		c1[(unsigned char)d[i]]++;
		c2[(unsigned char)want[i]]++;
	}
	*yes = !memcmp(c1, c2, sizeof(c1));
	return 0;
}

/* Like two_words, but fails with an error after *ctx calls. */
static int two_words_limited(void *ctx, const char *d, size_t n, int *yes)
{
	long *left = ctx;
	if ((*left)-- <= 0)
		return TNORM_ETIMEOUT;
	return two_words(NULL, d, n, yes);
}

/* ---- helpers ------------------------------------------------------------------------------- */

static char *norm(const char *in, unsigned rules, tnorm_bytes_oracle fn, void *ctx,
                  tnorm_generic_stats *st)
{
	tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
	char *out = NULL;
	size_t len = 0;
	o.rules = rules;
	assert_int_equal(tnorm_generic_normalize(in, strlen(in), &o, fn, ctx, &out, &len, st), 0);
	assert_non_null(out);
	assert_int_equal(strlen(out), len);
	assert_true(tnorm_shortlex_cmp(out, len, in, strlen(in)) <= 0);
	return out;
}

#define RULE(r) (1u << TNORM_GENERIC_RULE_##r)

/* ---- tests --------------------------------------------------------------------------------- */

static void test_generic__shortlex(void **state)
{
	(void)state;
	assert_true(tnorm_shortlex_cmp("zz", 2, "aaa", 3) < 0); /* shorter first */
	assert_true(tnorm_shortlex_cmp("aaa", 3, "zz", 2) > 0);
	assert_true(tnorm_shortlex_cmp("ab", 2, "ac", 2) < 0); /* then smaller bytes */
	assert_true(tnorm_shortlex_cmp("b\x80", 2, "b\x7f", 2) > 0); /* bytes compare unsigned */
	assert_int_equal(tnorm_shortlex_cmp("abc", 3, "abc", 3), 0);
	assert_int_equal(tnorm_shortlex_cmp("", 0, "", 0), 0);
	assert_true(tnorm_shortlex_cmp("", 0, "\0", 1) < 0);
	assert_string_equal(tnorm_generic_rule_name(TNORM_GENERIC_RULE_INTEGER), "integer");
	assert_string_equal(tnorm_generic_rule_name(TNORM_GENERIC_RULE_COUNT), "?");
}

static void test_generic__reduce_words(void **state)
{
	static const char in[] = "line one\nthe quick alpha fox\nline three\njumps omega over\nend\n";
	tnorm_generic_stats st;
	char *out = NULL;
	size_t len = 0;
	(void)state;
	assert_int_equal(tnorm_generic_reduce(in, strlen(in), NULL, two_words, NULL, &out, &len, &st), 0);
	assert_string_equal(out, "alphaomega");
	assert_int_equal(len, 10);
	assert_true(st.calls > 0);
	assert_int_equal(st.rewrites, 0);
	tnorm_free(out);
}

static void test_generic__chunk_pass(void **state)
{
	static const char in[] = "\"ab\":[{}],\"\":[{}],\"c\":[{}]";
	tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
	tnorm_generic_stats st;
	char *out = NULL;
	size_t len = 0;
	int yes = 0;
	(void)state;
	members(NULL, in, strlen(in), &yes);
	assert_true(yes);
	/* Without the chunk pass, every member stays: no single token of one can go. */
	o.chunks = 0;
	assert_int_equal(tnorm_generic_reduce(in, strlen(in), &o, members, NULL, &out, &len, &st), 0);
	assert_int_equal(len, strlen("\"\":[{}],\"\":[{}],\"\":[{}]"));
	assert_int_equal(st.chunks, 0);
	tnorm_free(out);
	/* With it, runs of tokens take whole members away. */
	o.chunks = 1;
	assert_int_equal(tnorm_generic_reduce(in, strlen(in), &o, members, NULL, &out, &len, &st), 0);
	assert_string_equal(out, "\"\":[{}]");
	assert_true(st.chunks >= 1);
	tnorm_free(out);
}

static void test_generic__integer(void **state)
{
	tnorm_generic_stats st;
	char *out;
	(void)state;
	out = norm("attach x\ndetach 17\n", RULE(INTEGER), detach_ge3, NULL, &st);
	assert_string_equal(out, "attach x\ndetach 3\n"); /* binary search: 0 fails, 3 is the lowest */
	assert_int_equal(st.per_rule[TNORM_GENERIC_RULE_INTEGER], st.rewrites);
	assert_true(st.rewrites >= 1);
	tnorm_free(out);
	out = norm("x=-17", RULE(INTEGER), x_le_minus5, NULL, &st);
	assert_string_equal(out, "x=-5"); /* 0 and 17 fail; then the magnitude by binary search */
	tnorm_free(out);
	/* Digits inside a word are not integers. */
	out = norm("detach x17", RULE(INTEGER), two_any_words, NULL, &st);
	assert_string_equal(out, "detach x17");
	assert_int_equal(st.rewrites, 0);
	tnorm_free(out);
}

static void test_generic__word_and_byte(void **state)
{
	tnorm_generic_stats st;
	char *out;
	(void)state;
	/* The whole word "aaa" fails (it starts with 'a'); then each character on its own. */
	out = norm("set xyz", RULE(WORD), set_name, NULL, &st);
	assert_string_equal(out, "set xaa");
	tnorm_free(out);
	out = norm("set Q7z", RULE(WORD), set_name, NULL, &st);
	assert_string_equal(out, "set A0a");
	tnorm_free(out);
	/* A control byte goes down by binary search to the lowest that keeps the failure. */
	out = norm("k\x1f", RULE(BYTE), byte_ge3, NULL, &st);
	assert_string_equal(out, "k\x03");
	tnorm_free(out);
}

static void test_generic__replace_and_sort(void **state)
{
	tnorm_generic_stats st;
	char *out;
	(void)state;
	/* A word becomes an earlier, lower word of its class. */
	out = norm("b c", RULE(REPLACE), two_any_words, NULL, &st);
	assert_string_equal(out, "b b");
	assert_int_equal(st.per_rule[TNORM_GENERIC_RULE_REPLACE], 1);
	tnorm_free(out);
	/* Lines sort over rounds of adjacent swaps, the last one without its newline. */
	out = norm("c\nb\na", RULE(SORT_LINES), permutation, (void *)"c\nb\na", &st);
	assert_string_equal(out, "a\nb\nc");
	tnorm_free(out);
	out = norm("zeta alpha", RULE(SORT_WORDS), permutation, (void *)"zeta alpha", &st);
	assert_string_equal(out, "alpha zeta");
	tnorm_free(out);
}

/* Two inputs of one "fault" with different irrelevant content end in the same bytes. */
static void test_generic__same_normal_form(void **state)
{
	static const char a[] = "# first\nattach disk\ndetach 12\nlist\n";
	static const char b[] = "attach foo\nnoise noise\ndetach 5\n\nmore noise\n";
	char *na, *nb;
	(void)state;
	na = norm(a, TNORM_GENERIC_ALL_RULES, detach_ge3, NULL, NULL);
	nb = norm(b, TNORM_GENERIC_ALL_RULES, detach_ge3, NULL, NULL);
	assert_string_equal(na, "detach 3");
	assert_string_equal(na, nb);
	tnorm_free(na);
	tnorm_free(nb);
}

static void test_generic__errors(void **state)
{
	static const char in[] = "x\nthe alpha\ny\nz\nomega w\n";
	tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
	char *out = NULL;
	size_t len = 0;
	long left = 3;
	int yes = 0;
	(void)state;
	/* An oracle error stops the job; what it returns is the best so far, still interesting. */
	assert_int_equal(tnorm_generic_normalize(in, strlen(in), NULL, two_words_limited, &left, &out,
	                                         &len, NULL),
	                 TNORM_ETIMEOUT);
	assert_non_null(out);
	two_words(NULL, out, len, &yes);
	assert_true(yes);
	tnorm_free(out);
	out = NULL;
	o.version = 99;
	assert_int_equal(tnorm_generic_reduce(in, strlen(in), &o, two_words, NULL, &out, &len, NULL),
	                 TNORM_EINVALID);
	assert_null(out);
	assert_int_equal(tnorm_generic_reduce(in, strlen(in), NULL, NULL, NULL, &out, &len, NULL),
	                 TNORM_EINVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_generic__shortlex),
	    cmocka_unit_test(test_generic__reduce_words),
	    cmocka_unit_test(test_generic__chunk_pass),
	    cmocka_unit_test(test_generic__hoist),
	    cmocka_unit_test(test_generic__integer),
	    cmocka_unit_test(test_generic__word_and_byte),
	    cmocka_unit_test(test_generic__replace_and_sort),
	    cmocka_unit_test(test_generic__same_normal_form),
	    cmocka_unit_test(test_generic__errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

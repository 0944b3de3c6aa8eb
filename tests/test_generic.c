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
	o.chunks = -1;
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

/* Bug B of tests/suts/jsonish.c as the brief models it: a run of at least 25 characters of
 * `0-9 + - . e E` anywhere (a number token too long for its buffer).  With ctx non-NULL, also
 * as the parser has it: the run must start with '-' or a digit (else it is no number). */
static int bug_b(void *ctx, const char *d, size_t n, int *yes)
{
	size_t i, run = 0;
	*yes = 0;
	for (i = 0; i < n && !*yes; i++) {
		if (!d[i] || !strchr("0123456789+-.eE", d[i])) {
			run = 0;
			continue;
		}
		if (run == 0 && ctx && d[i] != '-' && (d[i] < '0' || d[i] > '9'))
			continue;
		*yes = ++run >= 25;
	}
	return 0;
}

/* Accepts some candidates (a hash of their bytes decides) and checks that each one asked about is
 * lower in shortlex than the last accepted one, the current string. */
typedef struct {
	char cur[64];
	size_t len;
	int bad, asked;
} lower_ctx;

static int always_lower(void *vctx, const char *d, size_t n, int *yes)
{
	lower_ctx *c = vctx;
	uint32_t h = 2166136261u;
	size_t i;
	c->asked++;
	if (n > sizeof(c->cur) || tnorm_shortlex_cmp(d, n, c->cur, c->len) >= 0)
		c->bad = 1;
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)d[i]) * 16777619u;
	*yes = (h >> 7) % 3 != 0 && n <= sizeof(c->cur);
	if (*yes) {
		memcpy(c->cur, d, n);
		c->len = n;
	}
	return 0;
}

/* Interesting while the string holds an 'x'. */
static int has_x(void *ctx, const char *d, size_t n, int *yes)
{
	(void)ctx;
	*yes = memchr(d, 'x', n) != NULL;
	return 0;
}

/* A script of calls, as a test script is: interesting while it holds the line `bad(x, y)`.  ctx
 * counts the candidates that changed that call's arguments as a whole (one deleted, or the call
 * replaced by one of them): what the chunk and hoisting passes must not try. */
static int bad_call(void *ctx, const char *d, size_t n, int *yes)
{
	static const char *const arity[] = {"bad(x)\n", "bad(y)\n", "bad()\n", "badx\n", "bady\n"};
	size_t i;
	(void)n;
	for (i = 0; i < sizeof(arity) / sizeof(arity[0]); i++)
		*(int *)ctx += strstr(d, arity[i]) != NULL;
	*yes = strstr(d, "bad(x, y)\n") != NULL;
	return 0;
}

/* opcodes' bug B as a model: 0xff, an index of 4 or more, then a NUL. */
static int index_ge4(void *ctx, const char *d, size_t n, int *yes)
{
	(void)ctx;
	*yes = n == 3 && (unsigned char)d[0] == 0xff && (unsigned char)d[1] >= 4 && d[2] == 0;
	return 0;
}

/* Lines `attach NAME` and `detach N`, and two `detach N` with one N below the last device's index:
 * cmds's double free, where neither N can be lowered alone. */
static int detach_twice(void *ctx, const char *d, size_t n, int *yes)
{
	long seen[16];
	size_t ns = 0, k;
	long attached = 0;
	const char *p = d, *end = d + n;
	(void)ctx;
	*yes = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[64], name[32];
		long v;
		if (len >= sizeof(line))
			return 0;
		memcpy(line, p, len);
		line[len] = '\0';
		if (sscanf(line, "attach %31[a-z0-9]", name) == 1 && strlen(line) == 7 + strlen(name))
			attached++;
		else if (sscanf(line, "detach %ld", &v) == 1 && v >= 0 && ns < 16 &&
		         (size_t)snprintf(name, sizeof(name), "detach %ld", v) == len)
			seen[ns++] = v;
		else
			return 0;
		p += len + 1;
	}
	for (k = 0; k + 1 < ns; k++)
		*yes |= seen[k] == seen[k + 1] && seen[k] + 1 < attached;
	return 0;
}

/* ---- helpers ------------------------------------------------------------------------------- */

/* `[](` then one byte of 219 (issue 27): every byte but the 33 up to the space and `#`, `$`, `+`,
 * `-`, so that the failing values are no interval and `!` is the lowest. */
static int paren_byte(void *ctx, const char *d, size_t n, int *yes)
{
	unsigned char c = n == 4 ? (unsigned char)d[3] : 0;
	(void)ctx;
	*yes = n == 4 && !memcmp(d, "[](", 3) && c > ' ' && !strchr("#$+-", c);
	return 0;
}

/* tworoots' bug A (tests/suts/tworoots.c): 'n' then a name of 8 letters with at most 4 vowels
 * (exactly 9 bytes: the reduction's minimum).  Single-place lowering stops in local minima
 * ("naabbabab": each b to a adds a vowel); swapping two neighbours does not. */
static int name_len(void *ctx, const char *d, size_t n, int *yes)
{
	size_t i, vowels = 0;
	(void)ctx;
	*yes = n == 9 && d[0] == 'n';
	for (i = 1; *yes && i < n; i++) {
		*yes = d[i] >= 'a' && d[i] <= 'z';
		vowels += strchr("aeiou", d[i]) != NULL;
	}
	*yes = *yes && vowels <= 4;
	return 0;
}

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

/* Reduce the text `in` with options `o`; the result, NUL terminated, is the caller's to free. */
static char *red(const char *in, const tnorm_generic_options *o, tnorm_bytes_oracle fn, void *ctx,
                 tnorm_generic_stats *st)
{
	char *out = NULL;
	size_t len = 0;
	assert_int_equal(tnorm_generic_reduce(in, strlen(in), o, fn, ctx, &out, &len, st), 0);
	assert_non_null(out);
	assert_int_equal(strlen(out), len);
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

/* A 1 MB file that needs two of its 35,700 lines (bench/generic.c's words-1M): the lines view,
 * over HALVE_MIN lines, halves as lithium does, in no more oracle calls than lithium's line and
 * character passes make on it (104; adaptive deletion made 167). */
static void test_generic__big_lines(void **state)
{
	const size_t lines = 35700;
	tnorm_generic_stats st;
	char *in = NULL, *out = NULL;
	size_t i, len = 0, cap = 32 * lines, olen = 0;
	(void)state;
	in = malloc(cap);
	assert_non_null(in);
	for (i = 1; i <= lines; i++)
		len += (size_t)snprintf(in + len, cap - len, "%s\n",
		                        i == 17 * lines / 200    ? "the quick alpha fox"
		                        : i == 183 * lines / 200 ? "jumps omega over the dog"
		                                                 : "line with some filler words");
	assert_int_equal(len, 999589);
	assert_int_equal(tnorm_generic_reduce(in, len, NULL, two_words, NULL, &out, &olen, &st), 0);
	assert_string_equal(out, "alphaomega");
	assert_true(st.calls <= 104);
	tnorm_free(out);
	free(in);
}

static void test_generic__chunk_pass(void **state)
{
	static const char in[] = "\"ab\":[{}],\"\":[{}],\"c\":[{}]";
	tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
	tnorm_generic_stats st;
	char *out;
	int yes = 0;
	(void)state;
	members(NULL, in, strlen(in), &yes);
	assert_true(yes);
	/* Without the chunk pass, every member stays: no single token of one can go. */
	o.chunks = -1;
	out = red(in, &o, members, NULL, &st);
	assert_int_equal(strlen(out), strlen("\"\":[{}],\"\":[{}],\"\":[{}]"));
	assert_int_equal(st.chunks, 0);
	tnorm_free(out);
	/* With it, runs of tokens take whole members away. */
	o.chunks = 1;
	out = red(in, &o, members, NULL, &st);
	assert_string_equal(out, "\"\":[{}]");
	assert_true(st.chunks >= 1);
	tnorm_free(out);
}

/* A call's arguments are not members: the chunk and hoisting passes leave them (and the pass
 * still runs: the list's members go). */
static void test_generic__chunk_calls(void **state)
{
	static const char in[] = "f(a, b)\nbad(x, y)\nl = [1, (2), 3]\ng(c, d)\n";
	tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
	char *out;
	int arity = 0;
	(void)state;
	o.views = TNORM_VIEW_TOKENS;
	out = red(in, &o, bad_call, &arity, NULL);
	assert_string_equal(out, "bad(x, y)\n");
	assert_int_equal(arity, 0);
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
	/* All at once to the class minima, then, a word already there, to digits. */
	out = norm("set Q7z", RULE(WORD), set_name, NULL, &st);
	assert_string_equal(out, "set 000");
	assert_int_equal(st.per_rule[TNORM_GENERIC_RULE_WORD], 2);
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

/* Every copy of one byte value at once: the variants of jsonish's bug B, each a local minimum
 * for the one-place rules (`0000000000000000000000e0-`: 'e' stays a letter, '-' is not
 * lowered), all end in one normal form. */
static void test_generic__copies(void **state)
{
	static const char *const variants[] = {
	    "0000000000000000000000e0-",   "-000000000000000000000000",
	    "0000000000000000000000000",   "1.5e-0000000000000000000003",
	    "x 9.9E+99999999999999999999999 y", "00000000000.0000000000000E",
	    "[7777777777777777777777777.5]",
	};
	size_t i;
	char *out;
	tnorm_generic_stats st;
	(void)state;
	/* Without the rule they stay apart. */
	out = norm(variants[0], TNORM_GENERIC_ALL_RULES & ~RULE(COPIES), bug_b, NULL, &st);
	assert_string_equal(out, "0000000000000000000000e0-");
	tnorm_free(out);
	out = norm(variants[1], TNORM_GENERIC_ALL_RULES & ~RULE(COPIES), bug_b, NULL, &st);
	assert_string_equal(out, "-000000000000000000000000");
	tnorm_free(out);
	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		/* Any run: '+' is the lowest number character. */
		out = norm(variants[i], TNORM_GENERIC_ALL_RULES, bug_b, NULL, &st);
		assert_string_equal(out, "+++++++++++++++++++++++++");
		assert_true(st.per_rule[TNORM_GENERIC_RULE_COPIES] >= 1 || i == 2 || i == 4);
		tnorm_free(out);
		/* A number starts with '-' or a digit: '-' is the lowest that can. */
		out = norm(variants[i], TNORM_GENERIC_ALL_RULES, bug_b, (void *)"", &st);
		assert_string_equal(out, "-------------------------");
		tnorm_free(out);
	}
	/* The rule alone, two values: 'b' -> 'a' everywhere, then 'a' by binary search. */
	out = norm("abba", RULE(COPIES), permutation, (void *)"abba", &st);
	assert_string_equal(out, "abba");
	assert_int_equal(st.rewrites, 0);
	tnorm_free(out);
}

/* Every copy of one integer at once: `detach 2` twice cannot lower either 2 alone; together
 * they go to 0, the devices they no longer need go, and the names go to the lowest word. */
static void test_generic__integer_copies(void **state)
{
	char *out;
	tnorm_generic_stats st;
	(void)state;
	out = norm("attach usb\nattach b\nattach c\nattach d\ndetach 2\ndetach 2\n",
	           TNORM_GENERIC_ALL_RULES & ~RULE(COPIES), detach_twice, NULL, &st);
	assert_string_equal(out, "attach 0\nattach 0\nattach 0\nattach 0\ndetach 2\ndetach 2");
	tnorm_free(out);
	out = norm("attach usb\nattach b\nattach c\nattach d\ndetach 2\ndetach 2\n",
	           TNORM_GENERIC_ALL_RULES, detach_twice, NULL, &st);
	assert_string_equal(out, "attach 0\nattach 0\ndetach 0\ndetach 0");
	assert_true(st.per_rule[TNORM_GENERIC_RULE_COPIES] >= 1);
	tnorm_free(out);
}

/* A run of one punctuation byte: the byte rule tries its two ends, not each byte; the rounds still
 * lower every byte that can go. */
static void test_generic__byte_runs(void **state)
{
	char *out;
	tnorm_generic_stats st;
	(void)state;
	out = norm("-------------------------", RULE(BYTE), bug_b, (void *)"", &st);
	assert_string_equal(out, "-------------------------");
	assert_int_equal(st.calls, 2);
	tnorm_free(out);
	out = norm("x=-----,,", RULE(BYTE), has_x, NULL, &st);
	assert_string_equal(out, "x        ");
	tnorm_free(out);
}

/* In binary data a byte is a number: the index byte reaches 0x04 whichever character the fuzzer
 * wrote, a letter, a digit, a space, a newline or a high byte. */
static void test_generic__binary(void **state)
{
	static const char *const ins[] = {"\xff" "a" "\0", "\xff" "0" "\0", "\xff" " " "\0",
	                                  "\xff" "\n" "\0", "\xff" "\xee" "\0"};
	size_t i;
	(void)state;
	for (i = 0; i < sizeof(ins) / sizeof(ins[0]); i++) {
		tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
		char *out = NULL;
		size_t len = 0;
		assert_int_equal(tnorm_generic_normalize(ins[i], 3, &o, index_ge4, NULL, &out, &len, NULL),
		                 0);
		assert_int_equal(len, 3);
		assert_memory_equal(out, "\xff\x04\0", 3);
		tnorm_free(out);
	}
}

/* The rule only ever asks about strings lower than the current one, whatever the oracle says. */
static void test_generic__copies_lower(void **state)
{
	static const char *const ins[] = {"zyx", "hello, world\n", "\xff\x80\x01\x00\xff", "aaaa",
	                                  "b", "{\"k\": [1, 2, 3]}"};
	static const size_t lens[] = {3, 13, 5, 4, 1, 16};
	tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
	size_t i;
	(void)state;
	o.rules = RULE(COPIES);
	for (i = 0; i < sizeof(ins) / sizeof(ins[0]); i++) {
		lower_ctx c;
		char *out = NULL;
		size_t len = 0;
		memset(&c, 0, sizeof(c));
		memcpy(c.cur, ins[i], lens[i]);
		c.len = lens[i];
		assert_int_equal(tnorm_generic_normalize(ins[i], lens[i], &o, always_lower, &c, &out,
		                                         &len, NULL),
		                 0);
		assert_false(c.bad);
		assert_true(c.asked > 0 || lens[i] == 1);
		assert_true(tnorm_shortlex_cmp(out, len, ins[i], lens[i]) <= 0);
		assert_int_equal(len, c.len);
		assert_memory_equal(out, c.cur, len);
		tnorm_free(out);
	}
}

/* The scan (issue 27): the failing values of a byte need not form an interval; every file of
 * the fault ends at the lowest value, and the normal form is a local minimum: no single byte
 * lowered, and no byte deleted, still fails. */
static void test_generic__scan(void **state)
{
	static const char *const ins[] = {"[](0", "[](!", "[](*", "[](\"", "[](.", "[](z", "[](\x7f",
	                                  "[](%"};
	size_t k, i;
	(void)state;
	for (k = 0; k < sizeof(ins) / sizeof(*ins); k++) {
		tnorm_generic_stats st;
		char *out = norm(ins[k], TNORM_GENERIC_ALL_RULES, paren_byte, NULL, &st), cand[8];
		assert_string_equal(out, "[](!");
		for (i = 0; i < 4; i++) {
			int v, yes;
			for (v = 0; v < (unsigned char)out[i]; v++) {
				memcpy(cand, out, 5);
				cand[i] = (char)v;
				paren_byte(NULL, cand, 4, &yes);
				assert_false(yes);
			}
			memcpy(cand, out, i);
			memcpy(cand + i, out + i + 1, 4 - i);
			paren_byte(NULL, cand, 3, &yes);
			assert_false(yes);
		}
		tnorm_free(out);
		/* Without the scan the class minimum and the search stop at a local minimum. */
		out = norm(ins[k], TNORM_GENERIC_ALL_RULES & ~RULE(SCAN), paren_byte, NULL, &st);
		if (strchr("0*.z", ins[k][3]))
			assert_string_not_equal(out, "[](!");
		tnorm_free(out);
	}
}

static void test_generic__scan_two_places(void **state)
{
	static const char *const ins[] = {"naabbabab", "nqwrtyzxc", "naccacaci", "nbcdfghjk",
	                                  "nzzzzzzzz"};
	size_t k;
	(void)state;
	for (k = 0; k < sizeof(ins) / sizeof(*ins); k++) {
		tnorm_generic_stats st;
		char *out = norm(ins[k], TNORM_GENERIC_ALL_RULES, name_len, NULL, &st);
		assert_string_equal(out, "naaaabbbb");
		tnorm_free(out);
	}
}

/* Fails for `ab: []` and one last byte of a set that is no interval and has no cheap value
 * but '0' (as libyaml's plain scalars after a flow sequence), and for three binary bytes whose
 * middle one is 0x05 or 0x40. */
static int yaml_like(void *ctx, const char *d, size_t len, int *yes)
{
	(void)ctx;
	*yes = (len == 7 && !memcmp(d, "ab: []", 6) && strchr("$0(z", d[6]) && d[6]) ||
	       (len == 3 && d[0] == 1 && (d[1] == 5 || d[1] == 0x40) && d[2] == 0x7f);
	return 0;
}

/* No single byte of d lowered, and no byte deleted, still fails. */
static void assert_local_minimum(tnorm_bytes_oracle fn, const char *d, size_t len)
{
	char cand[64];
	size_t i;
	int v, yes;
	assert_true(len < sizeof(cand));
	for (i = 0; i < len; i++) {
		for (v = 0; v < (unsigned char)d[i]; v++) {
			memcpy(cand, d, len);
			cand[i] = (char)v;
			fn(NULL, cand, len, &yes);
			assert_false(yes);
		}
		memcpy(cand, d, i);
		memcpy(cand + i, d + i + 1, len - i - 1);
		fn(NULL, cand, len - 1, &yes);
		assert_false(yes);
	}
}

/* yaml_like's normal form of the n bytes `in` under `o` (its length in *len). */
static char *norm_yaml(const char *in, size_t n, const tnorm_generic_options *o, size_t *len)
{
	char *out = NULL;
	assert_int_equal(tnorm_generic_normalize(in, n, o, yaml_like, NULL, &out, len, NULL), 0);
	assert_non_null(out);
	return out;
}

/* The polish (scan_full, what tnorm triage runs once per distinct normal form): every lower value
 * of every byte in forms over the scan's usual 4 bytes, and in binary forms, where the usual
 * passes stop at a local minimum of theirs. */
static void test_generic__scan_full(void **state)
{
	static const struct {
		const char *in, *want;
		size_t n, scan_full;
	} cases[] = {
	    {"ab: []z", "ab: []0", 7, 0},          /* the cheap value; '$' is lower */
	    {"ab: []z", "ab: []$", 7, 16},         /* the polish finds it */
	    {"ab: []z", "ab: []0", 7, 6},          /* a longer form is left to the usual passes */
	    {"\x01\x40\x7f", "\x01\x40\x7f", 3, 0}, /* binary: the search stops at 0x40 */
	    {"\x01\x40\x7f", "\x01\x05\x7f", 3, 3}, /* the polish finds 0x05 */
	};
	size_t k, len;
	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		tnorm_generic_options o = TNORM_GENERIC_OPTIONS_INIT;
		char *out;
		o.scan_full = cases[k].scan_full;
		out = norm_yaml(cases[k].in, cases[k].n, &o, &len);
		assert_int_equal(len, cases[k].n);
		assert_memory_equal(out, cases[k].want, len);
		if (o.scan_full >= len)
			assert_local_minimum(yaml_like, out, len);
		tnorm_free(out);
	}
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
	    cmocka_unit_test(test_generic__big_lines),
	    cmocka_unit_test(test_generic__chunk_pass),
	    cmocka_unit_test(test_generic__hoist),
	    cmocka_unit_test(test_generic__integer),
	    cmocka_unit_test(test_generic__word_and_byte),
	    cmocka_unit_test(test_generic__replace_and_sort),
	    cmocka_unit_test(test_generic__same_normal_form),
	    cmocka_unit_test(test_generic__copies),
	    cmocka_unit_test(test_generic__copies_lower),
	    cmocka_unit_test(test_generic__byte_runs),
	    cmocka_unit_test(test_generic__chunk_calls),
	    cmocka_unit_test(test_generic__binary),
	    cmocka_unit_test(test_generic__integer_copies),
	    cmocka_unit_test(test_generic__scan),
	    cmocka_unit_test(test_generic__scan_two_places),
	    cmocka_unit_test(test_generic__scan_full),
	    cmocka_unit_test(test_generic__errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

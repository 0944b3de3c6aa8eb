/* SPDX-License-Identifier: MIT */
/*
 * test_test.c - tests over a harness: malformed lines with their exact messages, byte-identical
 * round trips, comments, well-formedness, def/use at both levels, the generator, OOM.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common.h"
#include "model.h"
#include "tnorm/tnorm.h"

#include "model_cases.h"

static int setup(void **state)
{
	tnorm_harness *h = NULL;
	if (tnorm_harness_parse(&h, "t.tnh", test_harness_text, strlen(test_harness_text)) < 0)
		return -1;
	*state = h;
	return 0;
}

static int teardown(void **state)
{
	tnorm_harness_free(*state);
	return 0;
}

static void test_test__malformed_messages(void **state)
{
	const tnorm_harness *h = *state;
	size_t i;
	assert_true(sizeof(bad_tests) / sizeof(bad_tests[0]) >= 30);
	for (i = 0; i < sizeof(bad_tests) / sizeof(bad_tests[0]); i++) {
		const struct bad_case *c = &bad_tests[i];
		tnorm_test *t = (tnorm_test *)1;
		int err = tnorm_test_parse(&t, h, "c.t", c->text, c->len);
		if (err >= 0)
			fail_msg("case '%s' parsed", c->name);
		assert_int_equal(err, TNORM_EPARSE);
		assert_null(t);
		if (strcmp(tnorm_error_last()->message, c->message))
			fail_msg("case '%s':\n  got:      %s\n  expected: %s", c->name,
			         tnorm_error_last()->message, c->message);
	}
}

static const char canonical[] = "avl0 = avl_new()\n"
                                "int2 = 13\n"
                                "avl_insert(avl0, int2)\n"
                                "s1 = \"b c\"\n"
                                "s0 = \"#\"\n"
                                "tag(avl0, -3, s0)\n"
                                "int0 = avl_size(avl0)\n"
                                "avl_find(avl0, int0)\n"
                                "avl_inorder(avl0)\n";

static void test_test__round_trip_is_byte_identical(void **state)
{
	const tnorm_harness *h = *state;
	tnorm_test *t = NULL;
	char *out = NULL;
	size_t len = 0;
	assert_int_equal(tnorm_test_parse(&t, h, "x.t", canonical, strlen(canonical)), 0);
	assert_int_equal(tnorm_test_len(t), 9);
	assert_int_equal(tnorm_test_format(t, &out, &len), 0);
	assert_int_equal(len, strlen(canonical));
	assert_string_equal(out, canonical);
	tnorm_free(out);
	tnorm_test_free(t);
}

static void test_test__comments_and_blanks(void **state)
{
	const tnorm_harness *h = *state;
	const char *text = "# header\n\n  avl0 = avl_new()   # make one\n\t\n"
	                   "s0 = \"#\"  # a '#' inside a string is not a comment\n"
	                   "int1 = 4\r\navl_insert(avl0,int1)";
	tnorm_test *t = NULL;
	char *out = NULL;
	assert_int_equal(tnorm_test_parse(&t, h, "x.t", text, strlen(text)), 0);
	assert_int_equal(tnorm_test_len(t), 4);
	assert_int_equal(tnorm_test_step_line(t, 0), 3);
	assert_int_equal(tnorm_test_step_line(t, 3), 7);
	assert_int_equal(tnorm_test_format(t, &out, NULL), 0);
	assert_string_equal(out, "avl0 = avl_new()\ns0 = \"#\"\nint1 = 4\navl_insert(avl0, int1)\n");
	tnorm_free(out);
	tnorm_test_free(t);
}

static void test_test__wellformedness(void **state)
{
	const tnorm_harness *h = *state;
	const char *text = "int0 = 3\navl_new_ok_line_is_next\n";
	tnorm_test *t = NULL;
	size_t bad = 99;
	(void)text;
	text = "int0 = 3\navl1 = avl_new()\navl_insert(avl1, int0)\navl_delete(avl0, int0)\n";
	assert_int_equal(tnorm_test_parse(&t, h, "w.t", text, strlen(text)), 0);
	assert_int_equal(tnorm_test_check(t, &bad), TNORM_EINVALID);
	assert_int_equal(bad, 3);
	assert_string_equal(tnorm_error_last()->message,
	                    "step 3 (line 4): avl0 is used before it is assigned");
	assert_false(tnorm_test_is_wellformed(t));
	assert_int_equal(tnorm_test_remove(t, 3), 0);
	assert_int_equal(tnorm_test_check(t, &bad), 0);
	assert_true(tnorm_test_is_wellformed(t));
	/* A call that stores into a pool assigns it: int3 = avl_size(avl1) makes int3 usable. */
	tnorm_test_free(t);
	text = "avl1 = avl_new()\nint3 = avl_size(avl1)\navl_find(avl1, int3)\n";
	assert_int_equal(tnorm_test_parse(&t, h, "w.t", text, strlen(text)), 0);
	assert_int_equal(tnorm_test_check(t, NULL), 0);
	tnorm_test_free(t);
	/* Using the instance on its own left-hand side before it exists is not allowed. */
	text = "int3 = avl_size(avl1)\n";
	assert_int_equal(tnorm_test_parse(&t, h, "w.t", text, strlen(text)), 0);
	assert_int_equal(tnorm_test_check(t, NULL), TNORM_EINVALID);
	tnorm_test_free(t);
}

static void defuse_of(const tnorm_harness *h, const char *step, tnorm_defuse_level lv, const char *want)
{
	tnorm_action a;
	uint32_t def[TNORM_MAX_SLOTS], use[TNORM_MAX_SLOTS];
	size_t nd, nu, col, i;
	char got[128];
	int n = 0;
	assert_int_equal(tnorm_harness_parse_action(h, step, strlen(step), &a, &col), 0);
	assert_int_equal(tnorm_harness_defuse(h, &a, lv, def, &nd, use, &nu), 0);
	n += snprintf(got + n, sizeof(got) - (size_t)n, "def");
	for (i = 0; i < nd; i++)
		n += snprintf(got + n, sizeof(got) - (size_t)n, " %u", def[i]);
	n += snprintf(got + n, sizeof(got) - (size_t)n, " use");
	for (i = 0; i < nu; i++)
		n += snprintf(got + n, sizeof(got) - (size_t)n, " %u", use[i]);
	if (strcmp(got, want))
		fail_msg("%s at L%d: got '%s', expected '%s'", step, (int)lv, got, want);
}

static void test_test__defuse(void **state)
{
	const tnorm_harness *h = *state;
	/* Variables: int0..3 = 0..3, avl0..2 = 4..6, s0..1 = 7..8. */
	defuse_of(h, "int2 = 13", TNORM_DEFUSE_L1, "def 2 use");
	defuse_of(h, "avl1 = avl_new()", TNORM_DEFUSE_L0, "def 5 use");
	/* A call modifies its non-const arguments (int is const). */
	defuse_of(h, "avl_insert(avl1, int2)", TNORM_DEFUSE_L1, "def 5 use 5 2");
	defuse_of(h, "avl_insert(avl1, int2)", TNORM_DEFUSE_L0, "def 5 use 5 2");
	/* pure: modifies nothing. */
	defuse_of(h, "avl_find(avl2, int0)", TNORM_DEFUSE_L1, "def use 6 0");
	/* A stored result: at L1 the argument is modified too, at L0 only the left-hand side. */
	defuse_of(h, "int1 = avl_size(avl0)", TNORM_DEFUSE_L1, "def 1 4 use 4");
	defuse_of(h, "int1 = avl_size(avl0)", TNORM_DEFUSE_L0, "def 1 use 4");
	defuse_of(h, "tag(avl0, 7, s1)", TNORM_DEFUSE_L1, "def 4 8 use 4 8");
}

static void test_test__edit_and_compare(void **state)
{
	const tnorm_harness *h = *state;
	tnorm_test *a = NULL, *b = NULL;
	tnorm_action act;
	size_t col;
	assert_int_equal(tnorm_test_parse(&a, h, "a.t", "int0 = 2\nint1 = 3\n", 18), 0);
	assert_int_equal(tnorm_test_dup(&b, a), 0);
	assert_int_equal(tnorm_test_compare(a, b), 0);
	assert_int_equal(tnorm_test_hash(a), tnorm_test_hash(b));
	assert_int_equal(tnorm_harness_parse_action(h, "int0 = 1", 8, &act, &col), 0);
	assert_int_equal(tnorm_test_set(b, 1, &act), 0);
	assert_true(tnorm_test_compare(b, a) < 0);
	assert_true(tnorm_test_hash(a) != tnorm_test_hash(b));
	assert_int_equal(tnorm_test_insert(b, 0, &act), 0);
	assert_true(tnorm_test_compare(b, a) > 0); /* longer */
	assert_int_equal(tnorm_test_len(b), 3);
	assert_int_equal(tnorm_test_remove(b, 5), TNORM_EINVALID);
	act.choice[0] = 9;
	assert_int_equal(tnorm_test_append(b, &act), TNORM_EINVALID);
	tnorm_test_free(a);
	tnorm_test_free(b);
}

static void test_test__generator(void **state)
{
	const tnorm_harness *h = *state;
	uint64_t seed;
	for (seed = 0; seed < 1000; seed++) {
		tnorm_test *t1 = NULL, *t2 = NULL, *t3 = NULL;
		char *s1 = NULL, *s2 = NULL;
		assert_int_equal(tnorm_test_generate(&t1, h, 60, seed), 0);
		assert_int_equal(tnorm_test_generate(&t2, h, 60, seed), 0);
		assert_int_equal(tnorm_test_len(t1), 60);
		assert_int_equal(tnorm_test_check(t1, NULL), 0);
		assert_int_equal(tnorm_test_format(t1, &s1, NULL), 0);
		assert_int_equal(tnorm_test_format(t2, &s2, NULL), 0);
		assert_string_equal(s1, s2);
		/* What it prints parses back to the same test. */
		assert_int_equal(tnorm_test_parse(&t3, h, "g.t", s1, strlen(s1)), 0);
		assert_int_equal(tnorm_test_compare(t1, t3), 0);
		tnorm_free(s1);
		tnorm_free(s2);
		tnorm_test_free(t1);
		tnorm_test_free(t2);
		tnorm_test_free(t3);
	}
	{
		tnorm_test *a = NULL, *b = NULL;
		assert_int_equal(tnorm_test_generate(&a, h, 60, 1), 0);
		assert_int_equal(tnorm_test_generate(&b, h, 60, 2), 0);
		assert_true(tnorm_test_compare(a, b) != 0);
		tnorm_test_free(a);
		tnorm_test_free(b);
	}
}

/* A test, and the step tnorm_test_check finds bad (SIZE_MAX: well-formed). */
typedef struct {
	const char *text;
	size_t bad;
} wf_case;

/* Check each case against `h`: the bad step, tnorm_test_is_wellformed agreeing, and the message
 * of the first case. */
static void check_wf_cases(const tnorm_harness *h, const wf_case *cases, size_t n,
                           const char *first_message)
{
	size_t i;
	for (i = 0; i < n; i++) {
		tnorm_test *t = NULL;
		size_t bad = SIZE_MAX;
		int err;
		assert_int_equal(tnorm_test_parse(&t, h, "c.t", cases[i].text, strlen(cases[i].text)), 0);
		err = tnorm_test_check(t, &bad);
		if (bad != cases[i].bad)
			fail_msg("case %zu: bad step %zu, expected %zu", i, bad, cases[i].bad);
		assert_int_equal(err, cases[i].bad == SIZE_MAX ? 0 : TNORM_EINVALID);
		if (i == 0)
			assert_string_equal(tnorm_error_last()->message, first_message);
		assert_int_equal(tnorm_test_is_wellformed(t), cases[i].bad == SIZE_MAX);
		tnorm_test_free(t);
	}
}

/* Steps of template `tmpl` in 300 tests of 40 steps generated over h, each well-formed. */
static size_t generated_steps_of(const tnorm_harness *h, uint32_t tmpl)
{
	size_t i, n = 0;
	uint64_t seed;
	for (seed = 0; seed < 300; seed++) {
		tnorm_test *t = NULL;
		assert_int_equal(tnorm_test_generate(&t, h, 40, seed), 0);
		assert_int_equal(tnorm_test_len(t), 40);
		assert_int_equal(tnorm_test_check(t, NULL), 0);
		for (i = 0; i < tnorm_test_len(t); i++)
			n += tnorm_test_step(t, i)->tmpl == tmpl;
		tnorm_test_free(t);
	}
	return n;
}

/* Issue 16: guards.  A step of a guarded template needs an earlier step that the guard
 * matches, with the same values where the guard names a pool: a literal is one value in any
 * instance; a call's result is one object, in the instance it was stored in until that is
 * assigned again.  Generation draws only steps that keep their guards. */
static void test_test__guards(void **state)
{
	static const char htext[] = "pool k 2 const\npool t 2\n<k> := 1..9\n<t> := mk()\n"
	                            "put(<t>, <k>)\n<t> := copy(<t>)\n"
	                            "del(<t>, <k>) requires put(<t>, <k>)\n";
	static const wf_case cases[] = {
		{"t0 = mk()\nk0 = 3\ndel(t0, k0)\n", 2},
		{"t0 = mk()\nk0 = 3\nput(t0, k0)\ndel(t0, k0)\n", SIZE_MAX},
		{"t0 = mk()\nk0 = 3\nput(t0, k0)\nk1 = 3\ndel(t0, k1)\n", SIZE_MAX}, /* one literal */
		{"t0 = mk()\nk0 = 3\nput(t0, k0)\nk0 = 4\ndel(t0, k0)\n", 4},        /* another value */
		{"t0 = mk()\nt1 = mk()\nk0 = 3\nput(t0, k0)\ndel(t1, k0)\n", 4},     /* another object */
		{"t0 = mk()\nk0 = 3\nput(t0, k0)\nt0 = mk()\ndel(t0, k0)\n", 4},     /* t0 made again */
		{"t0 = mk()\nk0 = 3\nput(t0, k0)\nt1 = copy(t0)\ndel(t1, k0)\n", 4}, /* a copy is new */
		/* A guard asks for an earlier step; it does not count them (the driver does). */
		{"t0 = mk()\nk0 = 3\nput(t0, k0)\ndel(t0, k0)\ndel(t0, k0)\n", SIZE_MAX},
		/* Used before assigned, at step 1, comes before the broken guard at step 2. */
		{"k0 = 3\nput(t0, k0)\ndel(t0, k0)\n", 1},
	};
	tnorm_harness *h = NULL;
	tnorm_template_info ti;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&h, "g.tnh", htext, strlen(htext)), 0);
	assert_int_equal(tnorm_harness_template(h, 4, &ti), 0);
	assert_string_equal(ti.guard, "put(<t>, <k>)");
	assert_int_equal(tnorm_harness_template(h, 2, &ti), 0);
	assert_null(ti.guard);
	check_wf_cases(h, cases, sizeof(cases) / sizeof(cases[0]),
	               "step 2 (line 3): del(t0, k0) breaks its guard 'requires put(<t>, <k>)' "
	               "(g.tnh:7): no earlier step put(t0, k0) with the values these instances hold now");
	/* del is drawn, and kept whenever its guard holds */
	assert_true(generated_steps_of(h, 4) > 300);
	tnorm_harness_free(h);
}

/* Issue 16: `move <pool>`.  The call takes the instance's value: until a step assigns it
 * again, a use of it makes the test not well-formed (so a step that would free it twice is never
 * generated or proposed); a moved argument is defined at every def/use level. */
static void test_test__moves(void **state)
{
	static const char htext[] = "pool t 1\npool i 2\n<t> := mk()\n<i> := it()\n"
	                            "add(<t>, move <i>)\npure size(<t>)\n<i> := take(<t>)\n";
	static const wf_case cases[] = {
		{"t0 = mk()\ni0 = it()\nadd(t0, i0)\nadd(t0, i0)\n", 3},
		{"t0 = mk()\ni0 = it()\nadd(t0, i0)\ni0 = it()\nadd(t0, i0)\n", SIZE_MAX},
		{"t0 = mk()\ni0 = it()\nadd(t0, i0)\ni0 = take(t0)\nadd(t0, i0)\n", SIZE_MAX},
		{"t0 = mk()\ni0 = it()\ni1 = it()\nadd(t0, i0)\nadd(t0, i1)\n", SIZE_MAX},
	};
	tnorm_harness *h = NULL;
	tnorm_action a;
	uint32_t def[TNORM_MAX_SLOTS], use[TNORM_MAX_SLOTS];
	size_t nd, nu, col;
	(void)state;
	assert_int_equal(tnorm_harness_parse(&h, "m.tnh", htext, strlen(htext)), 0);
	check_wf_cases(h, cases, sizeof(cases) / sizeof(cases[0]),
	               "step 3 (line 4): i0 is used after step 2 (line 3) took its value (move), "
	               "expected an assignment to i0 first");
	/* add(t0, move i1) defines i1 (and t0) even at l0. */
	assert_int_equal(tnorm_harness_parse_action(h, "add(t0, move i1)", 16, &a, &col),
	                 TNORM_EPARSE); /* a step is written without 'move' */
	assert_int_equal(tnorm_harness_parse_action(h, "add(t0, i1)", 11, &a, &col), 0);
	assert_int_equal(tnorm_harness_defuse(h, &a, TNORM_DEFUSE_L0, def, &nd, use, &nu), 0);
	assert_int_equal(nd, 2);
	assert_int_equal(def[1], 2);
	assert_true(generated_steps_of(h, 2) > 300);
	tnorm_harness_free(h);
}

/* Parse `text` against the harness `htext`; the message (or "") goes to msg. */
static int parse_with(const char *htext, const char *text, tnorm_test **out)
{
	tnorm_harness *h = NULL;
	int err;
	*out = NULL;
	assert_int_equal(tnorm_harness_parse(&h, "l.tnh", htext, strlen(htext)), 0);
	err = tnorm_test_parse(out, h, "l.t", text, strlen(text));
	if (err == 0) {
		char *back = NULL;
		/* Whatever parses prints back identically (the text here is canonical). */
		assert_int_equal(tnorm_test_format(*out, &back, NULL), 0);
		assert_string_equal(back, text);
		tnorm_free(back);
		tnorm_test_free(*out);
		*out = NULL;
	}
	tnorm_harness_free(h);
	return err;
}

static void test_test__limits_agree(void **state)
{
	char name[301], htext[700], text[700];
	tnorm_test *t = NULL;
	tnorm_harness *h = NULL;
	tnorm_action a;
	uint64_t r;
	(void)state;

	/* A function name of any length the harness accepts, the test parser accepts in full
	 * (it used to compare only the first 100 characters, so no step of it parsed). */
	memset(name, 'f', 300);
	name[300] = '\0';
	snprintf(htext, sizeof(htext), "pool n 1\n<n> := 0\n%s(<n>)\n%.*sg(<n>)\n", name, 150, name);
	snprintf(text, sizeof(text), "n0 = 0\n%s(n0)\n%.*sg(n0)\n", name, 150, name);
	assert_int_equal(parse_with(htext, text, &t), 0);
	snprintf(text, sizeof(text), "n0 = 0\n%.*s(n0)\n", 299, name);
	assert_int_equal(parse_with(htext, text, &t), TNORM_EPARSE);
	assert_non_null(strstr(tnorm_error_last()->message, "l.t:2:1: unknown action 'fff"));
	/* Pool names too. */
	snprintf(htext, sizeof(htext), "pool %.*sp 2\n<%.*sp> := 0..1\n", 200, name, 200, name);
	snprintf(text, sizeof(text), "%.*sp1 = 1\n", 200, name);
	assert_int_equal(parse_with(htext, text, &t), 0);

	/* A 20-digit value never saturates into the top of a range. */
	assert_int_equal(parse_with("pool n 1\n<n> := 9223372036854775000..9223372036854775807\n",
	                            "n0 = 99999999999999999999\n", &t), TNORM_EPARSE);
	assert_string_equal(tnorm_error_last()->message,
	                    "l.t:1:6: value 99999999999999999999 is out of range, expected "
	                    "9223372036854775000..9223372036854775807");
	assert_int_equal(parse_with("pool n 1\n<n> := 9223372036854775000..9223372036854775807\n",
	                            "n0 = 9223372036854775807\n", &t), 0);
	assert_int_equal(parse_with("pool n 1\n<n> := {9223372036854775807}\n",
	                            "n0 = 99999999999999999999\n", &t), TNORM_EPARSE);

	/* The largest set a slot may hold: its last value unranks, prints and parses back. */
	snprintf(htext, sizeof(htext), "pool n 1\n<n> := -5..4294967289\n");
	assert_int_equal(tnorm_harness_parse(&h, "l.tnh", htext, strlen(htext)), 0);
	assert_int_equal(tnorm_harness_action_count(h), 4294967295u);
	assert_int_equal(tnorm_harness_unrank(h, 4294967294u, &a), 0);
	assert_int_equal(a.choice[1], 4294967294u);
	assert_int_equal(tnorm_test_parse(&t, h, "l.t", "n0 = 4294967289\n", 16), 0);
	assert_int_equal(tnorm_harness_rank(h, tnorm_test_step(t, 0), &r), 0);
	assert_int_equal(r, 4294967294u);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

/* Strict UTF-8 (RFC 3629), written apart from the engine's own check. */
static int is_utf8(const char *str)
{
	const unsigned char *p = (const unsigned char *)str;
	while (*p) {
		unsigned cp, n, i;
		if (*p < 0x80) {
			p++;
			continue;
		}
		if ((*p & 0xe0) == 0xc0)
			n = 1, cp = *p & 0x1f;
		else if ((*p & 0xf0) == 0xe0)
			n = 2, cp = *p & 0x0f;
		else if ((*p & 0xf8) == 0xf0)
			n = 3, cp = *p & 0x07;
		else
			return 0;
		for (i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		p += n + 1;
	}
	return 1;
}

/* Whatever bytes a test holds, its message is valid UTF-8 and names file:line:col (it is read as
 * a Python str in gdb: a raw byte used to turn it into a UnicodeDecodeError). */
static void test_test__messages_are_utf8(void **state)
{
	static const struct {
		const char *name, *text, *where;
	} cases[] = {
		{"c.t", "int0 = 1\n\xff" "\n", "c.t:2:1: "},
		{"c.t", "int0 = \xe2\x82" "\n", "c.t:1:8: "},
		{"c.t", "int0 = 1\navl0 = avl_new()\navl_insert(avl0, \xc0\xaf)\n", "c.t:3:18: "},
		{"c.t", "s0 = \"\xed\xa0\x80\"\n", "c.t:1:6: "},
		{"c.t", "s0 = \"\xf4\x90\x80\x80\"\n", "c.t:1:6: "},
		{"c\xff.t", "int0 = 99\n", "c\\xff.t:1:8: "},
	};
	const tnorm_harness *h = *state;
	char big[700];
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tnorm_test *t = NULL;
		const char *msg;
		assert_int_equal(tnorm_test_parse(&t, h, cases[i].name, cases[i].text, strlen(cases[i].text)),
		                 TNORM_EPARSE);
		msg = tnorm_error_last()->message;
		if (!is_utf8(msg) || strncmp(msg, cases[i].where, strlen(cases[i].where)))
			fail_msg("case %zu: not UTF-8 or not at %s: %s", i, cases[i].where, msg);
	}
	/* A message that the escapes make longer than the message buffer is cut at a whole escape. */
	memset(big, 0xff, sizeof(big));
	memcpy(big, "s0 = \"", 6);
	memcpy(big + sizeof(big) - 3, "\"\n", 3);
	{
		tnorm_test *t = NULL;
		assert_int_equal(tnorm_test_parse(&t, h, "c.t", big, strlen(big)), TNORM_EPARSE);
		assert_true(is_utf8(tnorm_error_last()->message));
		assert_non_null(strstr(tnorm_error_last()->message, "c.t:1:6: value \"\\xff\\xff"));
	}
}

static void test_test__oom_every_allocation(void **state)
{
	const tnorm_harness *h = *state;
	long n;
	int ok = 0;
	for (n = 0; n < 100000 && !ok; n++) {
		tnorm_test *t = NULL;
		char *out = NULL;
		int err;
		tnorm__alloc_fail_after(n);
		err = tnorm_test_parse(&t, h, "x.t", canonical, strlen(canonical));
		if (err == 0)
			err = tnorm_test_format(t, &out, NULL);
		tnorm__alloc_fail_after(-1);
		if (err == 0)
			ok = 1;
		else
			assert_int_equal(err, TNORM_ENOMEM);
		tnorm_free(out);
		tnorm_test_free(t);
	}
	assert_true(ok);
}

/* tnorm_string_quote: printable ASCII kept, the rest escaped (bytes over 0x7f too, unlike a
 * test's steps), and the literal reads back as the bytes. */
static void test_test__string_quote(void **state)
{
	static const char in[] = "a\"b\\c\n\t\r\0\x01\x1f\x7f\x80\xc3\xa9\xff ~";
	char all[256], *out = NULL, *back = NULL;
	const char *after = NULL, *bad = NULL;
	size_t i, len = 0;
	long n;
	int ok = 0;
	(void)state;
	assert_int_equal(tnorm_string_quote(in, sizeof(in) - 1, &out), 0);
	assert_string_equal(out, "\"a\\\"b\\\\c\\n\\t\\r\\0\\x01\\x1f\\x7f\\x80\\xc3\\xa9\\xff ~\"");
	tnorm_free(out);
	assert_int_equal(tnorm_string_quote(NULL, 0, &out), 0);
	assert_string_equal(out, "\"\"");
	tnorm_free(out);
	for (i = 0; i < sizeof(all); i++)
		all[i] = (char)i;
	assert_int_equal(tnorm_string_quote(all, sizeof(all), &out), 0);
	for (i = 0; out[i]; i++)
		assert_true((unsigned char)out[i] >= 0x20 && (unsigned char)out[i] < 0x7f);
	assert_int_equal(tnorm__lex_string(out, out + strlen(out), &back, &len, &after, &bad), 0);
	assert_int_equal(len, sizeof(all));
	assert_memory_equal(back, all, sizeof(all));
	assert_ptr_equal(after, out + strlen(out));
	tnorm_free(back);
	tnorm_free(out);
	out = (char *)1;
	assert_int_equal(tnorm_string_quote(NULL, 1, &out), TNORM_EINVALID);
	assert_null(out);
	assert_int_equal(tnorm_string_quote(in, 1, NULL), TNORM_EINVALID);
	for (n = 0; n < 1000 && !ok; n++) {
		int err;
		tnorm__alloc_fail_after(n);
		err = tnorm_string_quote(all, sizeof(all), &out);
		tnorm__alloc_fail_after(-1);
		if (err == 0) {
			ok = 1;
		} else {
			assert_int_equal(err, TNORM_ENOMEM);
			assert_null(out);
		}
		tnorm_free(out);
		out = NULL;
	}
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_test__malformed_messages),
		cmocka_unit_test(test_test__round_trip_is_byte_identical),
		cmocka_unit_test(test_test__comments_and_blanks),
		cmocka_unit_test(test_test__wellformedness),
		cmocka_unit_test(test_test__defuse),
		cmocka_unit_test(test_test__edit_and_compare),
		cmocka_unit_test(test_test__generator),
		cmocka_unit_test(test_test__guards),
		cmocka_unit_test(test_test__moves),
		cmocka_unit_test(test_test__limits_agree),
		cmocka_unit_test(test_test__messages_are_utf8),
		cmocka_unit_test(test_test__oom_every_allocation),
		cmocka_unit_test(test_test__string_quote),
	};
	return cmocka_run_group_tests_name("test", tests, setup, teardown);
}

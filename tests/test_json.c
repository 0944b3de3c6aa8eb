/* SPDX-License-Identifier: MIT */
/*
 * test_json.c - the engine's JSON (json.c): strings made valid UTF-8, and the generalization and
 * signature JSON read back by jansson's parser with string literals that JSON must escape
 * (issue 18: a quote in a literal made invalid JSON), and every allocation failing in turn.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "common.h"
#include "tnorm/tnorm.h"

static void test_json__utf8(void **state)
{
	static const char in[] = "a\"\\\x01\xc3\xa9\xff\xc3z\xed\xa0\x80\0end";
	static const char want[] = "a\"\\\x01\xc3\xa9\xef\xbf\xbd\xef\xbf\xbdz"
	                           "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\0end";
	char *out = NULL;
	size_t n = 0;
	(void)state;
	/* Valid UTF-8 (a quote, a backslash, a control byte, é, NUL) is kept; a stray 0xff, a cut
	 * sequence and a surrogate's three bytes become U+FFFD each. */
	assert_int_equal(tnorm_text_utf8(&out, &n, in, sizeof(in) - 1), 0);
	assert_int_equal(n, sizeof(want) - 1);
	assert_memory_equal(out, want, n);
	assert_int_equal(out[n], '\0');
	tnorm_free(out);
	assert_int_equal(tnorm_text_utf8(&out, NULL, "", 0), 0);
	assert_string_equal(out, "");
	tnorm_free(out);
	assert_int_equal(tnorm_text_utf8(&out, NULL, NULL, 1), TNORM_EINVALID);
	assert_null(out);
}

/* The one escaping of bytes for people (issue 40, item 7): printable ASCII as it is, a backslash
 * doubled, every other byte alone as \xNN, UTF-8 or not (the summary printed 0x80 and up raw and
 * control bytes escaped, and left backslashes as they were: `\x00\201` read as an octal escape). */
static void test_json__escape(void **state)
{
	static const char in[] = "a \"~\\\x00\\201\x01\x1b[2J\x7f\x80\xc3\xa9\xff\n\tz";
	char *out = NULL;
	size_t n = 0;
	long k;
	(void)state;
	assert_int_equal(tnorm_text_escape(&out, &n, in, sizeof(in) - 1, 0), 0);
	assert_string_equal(out, "a \"~\\\\\\x00\\\\201\\x01\\x1b[2J\\x7f\\x80\\xc3\\xa9\\xff"
	                         "\\x0a\\x09z");
	assert_int_equal(n, strlen(out));
	tnorm_free(out);
	/* `lines`: a newline and a tab kept, nothing else. */
	assert_int_equal(tnorm_text_escape(&out, NULL, in, sizeof(in) - 1, 1), 0);
	assert_non_null(strstr(out, "\\xff\n\tz"));
	assert_non_null(strstr(out, "\\x1b[2J"));
	tnorm_free(out);
	/* Every byte value: only 0x20..0x7e (the backslash aside) stay as they are. */
	{
		char all[256], want[16];
		for (k = 0; k < 256; k++)
			all[k] = (char)k;
		assert_int_equal(tnorm_text_escape(&out, &n, all, sizeof(all), 0), 0);
		assert_int_equal(n, 95 - 1 + 2 + (256 - 95) * 4);
		for (k = 0; k < (long)n; k++)
			assert_true(out[k] >= 0x20 && out[k] < 0x7f);
		snprintf(want, sizeof(want), "\\x1f !");
		assert_non_null(strstr(out, want));
		assert_non_null(strstr(out, "[\\\\]"));
		assert_non_null(strstr(out, "}~\\x7f\\x80"));
		tnorm_free(out);
	}
	assert_int_equal(tnorm_text_escape(&out, &n, "", 0, 0), 0);
	assert_string_equal(out, "");
	tnorm_free(out);
	assert_int_equal(tnorm_text_escape(&out, NULL, NULL, 1, 0), TNORM_EINVALID);
	assert_null(out);
	/* Out of memory: an error, never a half copy. */
	for (k = 0; k < 10; k++) {
		int err;
		tnorm__alloc_fail_after(k);
		err = tnorm_text_escape(&out, NULL, in, sizeof(in) - 1, 0);
		tnorm__alloc_fail_after(-1);
		assert_true((err == 0) == (out != NULL));
		if (err == 0)
			break;
		assert_int_equal(err, TNORM_ENOMEM);
	}
	assert_true(k < 10);
	tnorm_free(out);
}

static const char harness[] = "pool s 1 const\n"
                              "<s> := {\"a\", \"q\\\"x\", \"b\\\\s\", \"c\\x01\\t\", "
                              "\"\xc3\xa9\", \"\\xff\"}\n"
                              "use(<s>)\n";

/* Every candidate fails the same way: every value is an alternative. */
static int always(void *ctx, const tnorm_test *t, int *yes)
{
	(void)ctx;
	(void)t;
	*yes = 1;
	return 0;
}

static tnorm_generalization *generalized(tnorm_harness **h, tnorm_test **t)
{
	static const char text[] = "s0 = \"a\"\nuse(s0)\n";
	tnorm_generalization *g = NULL;
	assert_int_equal(tnorm_harness_parse(h, "q.tnh", harness, strlen(harness)), 0);
	assert_int_equal(tnorm_test_parse(t, *h, "q.t", text, strlen(text)), 0);
	assert_int_equal(tnorm_generalize(&g, *t, NULL, always, NULL), 0);
	return g;
}

static void test_json__generalization_strings(void **state)
{
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL;
	tnorm_generalization *g = generalized(&h, &t);
	json_t *root, *alt;
	json_error_t jerr;
	char *s = NULL;
	(void)state;
	assert_int_equal(tnorm_generalization_json(g, &s), 0);
	root = json_loads(s, 0, &jerr);
	if (!root)
		fail_msg("not JSON: %s: %s", jerr.text, s);
	alt = json_object_get(json_array_get(json_object_get(root, "steps"), 0), "alternatives");
	assert_int_equal(json_array_size(alt), 5);
	assert_string_equal(json_string_value(json_array_get(alt, 0)), "s0 = \"q\\\"x\"");
	assert_string_equal(json_string_value(json_array_get(alt, 1)), "s0 = \"b\\\\s\"");
	assert_string_equal(json_string_value(json_array_get(alt, 2)), "s0 = \"c\\x01\\t\"");
	assert_string_equal(json_string_value(json_array_get(alt, 3)), "s0 = \"\xc3\xa9\"");
	/* The harness prints the byte 0xff as it is; JSON carries U+FFFD for it. */
	assert_string_equal(json_string_value(json_array_get(alt, 4)), "s0 = \"\xef\xbf\xbd\"");
	/* The keys in their documented order, the text on one line. */
	assert_int_equal(strncmp(s, "{\"steps\": [{\"step\": 0, \"action\": \"s0 = \\\"a\\\"\", "
	                            "\"alternatives\": [", 60), 0);
	assert_null(strchr(s, '\n'));
	json_decref(root);
	tnorm_free(s);
	tnorm_generalization_free(g);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

static void test_json__generalization_oom(void **state)
{
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL;
	tnorm_generalization *g = generalized(&h, &t);
	char *s = NULL;
	long n;
	int err = TNORM_ENOMEM;
	(void)state;
	/* jansson's own allocations are not ours to fail; every one of ours is, in turn. */
	for (n = 0; n < 1000 && err == TNORM_ENOMEM; n++) {
		s = (char *)1;
		tnorm__alloc_fail_after(n);
		err = tnorm_generalization_json(g, &s);
		tnorm__alloc_fail_after(-1);
		if (err < 0) {
			assert_int_equal(err, TNORM_ENOMEM);
			assert_null(s);
			assert_int_equal(tnorm_error_last()->code, TNORM_ENOMEM);
		}
	}
	assert_int_equal(err, 0);
	assert_true(n > 1);
	tnorm_free(s);
	assert_int_equal(tnorm_generalization_json(NULL, &s), TNORM_EINVALID);
	tnorm_generalization_free(g);
	tnorm_test_free(t);
	tnorm_harness_free(h);
}

static void test_json__signature_strings(void **state)
{
	tnorm_frame f[2];
	tnorm_signature *s = NULL;
	json_t *root, *fr;
	char *j = NULL;
	(void)state;
	memset(f, 0, sizeof(f));
	f[0].pc = 0xffffffffffffff00ull;
	f[0].function = "op\"==\"";
	f[0].file = "dir\\a\x01.c";
	f[0].line = 7;
	f[0].module = "/tmp/caf\xc3\xa9/\xff";
	f[0].build_id = "";
	f[1] = f[0];
	f[1].function = "main";
	assert_int_equal(tnorm_signature_new(&s, "exit(3)", f, 2), 0);
	assert_int_equal(tnorm_signature_json(s, &j), 0);
	assert_non_null(root = json_loads(j, 0, NULL));
	fr = json_array_get(json_object_get(root, "frames"), 0);
	assert_string_equal(json_string_value(json_object_get(fr, "pc")), "0xffffffffffffff00");
	assert_string_equal(json_string_value(json_object_get(fr, "function")), "op\"==\"");
	assert_string_equal(json_string_value(json_object_get(fr, "file")), "dir\\a\x01.c");
	assert_string_equal(json_string_value(json_object_get(fr, "module")),
	                    "/tmp/caf\xc3\xa9/\xef\xbf\xbd");
	assert_true(json_is_false(json_object_get(fr, "runtime")));
	json_decref(root);
	tnorm_free(j);
	tnorm_signature_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json__utf8),
		cmocka_unit_test(test_json__escape),
		cmocka_unit_test(test_json__generalization_strings),
		cmocka_unit_test(test_json__generalization_oom),
		cmocka_unit_test(test_json__signature_strings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

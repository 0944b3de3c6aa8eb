/* SPDX-License-Identifier: MIT */
/*
 * test_signature.c - signatures built from frames: the throwing frame, the canonical text, JSON,
 * every match policy, and calibration over several runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

static tnorm_signature *make(const char *kind, const char *spec)
{
	/* spec: "fn:file:line fn:file:line ..." innermost first; module "libc.so.6" for "!fn". */
	tnorm_frame f[32];
	char buf[512], *tok, *save = NULL;
	size_t n = 0;
	tnorm_signature *s = NULL;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " ", &save); tok && n < 32; tok = strtok_r(NULL, " ", &save)) {
		char *c1 = strchr(tok, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		memset(&f[n], 0, sizeof(f[n]));
		if (c1)
			*c1 = '\0';
		if (c2)
			*c2 = '\0';
		f[n].module = tok[0] == '!' ? "/usr/lib/x86_64-linux-gnu/libc.so.6" : "/bin/prog";
		f[n].function = tok[0] == '!' ? tok + 1 : tok;
		f[n].file = c1 ? c1 + 1 : NULL;
		f[n].line = c2 ? (uint32_t)atoi(c2 + 1) : 0;
		f[n].pc = 0x1000 + n;
		n++;
	}
	assert_int_equal(tnorm_signature_new(&s, kind, f, n), 0);
	return s;
}

static void expect_text(const tnorm_signature *s, size_t depth, const char *want)
{
	char *t = NULL;
	assert_int_equal(tnorm_signature_format(s, depth, &t), 0);
	assert_string_equal(t, want);
	tnorm_free(t);
}

static void test_signature__throwing_frame_and_text(void **state)
{
	tnorm_signature *s = make("SIGABRT", "!raise !abort !__assert_fail check_node:/src/avl.c:191 "
	                                     "avl_check:/src/avl.c:197 tnorm__drv_call:driver.c:9 "
	                                     "main:driver.c:53 !__libc_start_call_main");
	(void)state;
	assert_int_equal(tnorm_signature_throwing(s), 3);
	assert_string_equal(tnorm_signature_frame(s, 3)->file, "avl.c");
	expect_text(s, 0, "SIGABRT at check_node (avl.c:191) <- avl_check (avl.c:197) <- main (driver.c:53)");
	expect_text(s, 1, "SIGABRT at check_node (avl.c:191)");
	tnorm_signature_free(s);
	s = make("SIGKILL", "");
	expect_text(s, 0, "SIGKILL");
	tnorm_signature_free(s);
	assert_true(tnorm_frame_is_runtime("__asan_report_load4", "/bin/prog"));
	assert_true(tnorm_frame_is_runtime("anything", "/usr/lib/x86_64-linux-gnu/libasan.so.8"));
	assert_false(tnorm_frame_is_runtime("my_function", "/bin/prog"));
}

static void test_signature__json(void **state)
{
	tnorm_signature *s = make("exit(3)", "!exit give_up:e.c:7 main:e.c:12");
	char *j = NULL;
	(void)state;
	assert_int_equal(tnorm_signature_json(s, &j), 0);
	assert_non_null(strstr(j, "\"kind\": \"exit(3)\""));
	assert_non_null(strstr(j, "\"text\": \"exit(3) at give_up (e.c:7) <- main (e.c:12)\""));
	assert_non_null(strstr(j, "\"throwing\": 1"));
	assert_non_null(strstr(j, "\"function\": \"give_up\", \"file\": \"e.c\", \"line\": 7, \"runtime\": false"));
	tnorm_free(j);
	tnorm_signature_free(s);
}

static int matches(const char *policy, const tnorm_signature *t, const tnorm_signature *c,
                   const char *out)
{
	tnorm_match *m = NULL;
	int r;
	assert_int_equal(tnorm_match_parse(&m, policy), 0);
	r = tnorm_match_test(m, t, c, out, "");
	tnorm_match_free(m);
	return r;
}

static void test_signature__policies(void **state)
{
	tnorm_signature *t = make("SIGABRT", "!abort f:a.c:10 g:a.c:20 main:a.c:30");
	tnorm_signature *same_line_other_caller = make("SIGABRT", "!abort f:a.c:10 h:a.c:25 main:a.c:30");
	tnorm_signature *other_line = make("SIGABRT", "!abort f:a.c:11 g:a.c:20 main:a.c:30");
	tnorm_signature *other_kind = make("SIGSEGV", "f:a.c:10 g:a.c:20 main:a.c:30");
	tnorm_match *m = NULL;
	(void)state;
	assert_true(matches("line", t, t, ""));
	assert_true(matches("line", t, same_line_other_caller, ""));
	assert_false(matches("line", t, other_line, ""));
	assert_false(matches("line", t, other_kind, ""));
	assert_false(matches("line", t, NULL, ""));
	assert_true(matches("stack:1", t, same_line_other_caller, ""));
	assert_false(matches("stack:2", t, same_line_other_caller, ""));
	assert_true(matches("stack:3", t, t, ""));
	assert_true(matches("kind", t, other_line, ""));
	assert_false(matches("kind", t, other_kind, ""));
	assert_true(matches("any", t, other_kind, ""));
	assert_true(matches("output:bal+anced", t, other_kind, "tree is unbalanced!"));
	assert_false(matches("output:^ok$", t, other_kind, "tree is unbalanced!"));
	assert_int_equal(tnorm_match_parse(&m, "stack:0"), TNORM_EINVALID);
	assert_string_equal(tnorm_error_last()->message,
	                    "bad match policy 'stack:0', expected stack:N with N from 1 to 1000");
	assert_int_equal(tnorm_match_parse(&m, "lines"), TNORM_EINVALID);
	assert_string_equal(tnorm_error_last()->message,
	                    "unknown match policy 'lines', expected line, stack:N, kind, any or output:REGEX");
	assert_int_equal(tnorm_match_parse(&m, "output:("), TNORM_EINVALID);
	tnorm_signature_free(t);
	tnorm_signature_free(same_line_other_caller);
	tnorm_signature_free(other_line);
	tnorm_signature_free(other_kind);
}

static void test_signature__calibrate(void **state)
{
	tnorm_signature *a = make("SIGABRT", "!abort f:a.c:10 g:a.c:20 main:a.c:30");
	tnorm_signature *b = make("SIGABRT", "!abort f:a.c:10 g:a.c:21 main:a.c:30");
	tnorm_signature *sigs[3], *out = NULL;
	int stable = -1;
	(void)state;
	sigs[0] = a;
	sigs[1] = a;
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 2), 0);
	assert_int_equal(stable, 1);
	expect_text(out, 0, "SIGABRT at f (a.c:10) <- g (a.c:20) <- main (a.c:30)");
	tnorm_signature_free(out);
	sigs[2] = b;
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 3), 0);
	assert_int_equal(stable, 0);
	expect_text(out, 0, "SIGABRT at f (a.c:10)");
	tnorm_signature_free(out);
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 0), TNORM_EINVALID);
	tnorm_signature_free(a);
	tnorm_signature_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signature__throwing_frame_and_text),
		cmocka_unit_test(test_signature__json),
		cmocka_unit_test(test_signature__policies),
		cmocka_unit_test(test_signature__calibrate),
	};
	return cmocka_run_group_tests_name("signature", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_sanitizer.c - the sanitizer knowledge in one place (sanitizer.c): the kinds it formats,
 * its lists, and that the signature's runtime frames and the mergetrap's report calls follow
 * those lists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sanitizer_internal.h"
#include "tnorm/errors.h"
#include "tnorm/runner.h"
#include "tnorm/signature.h"

static void expect_kind(const char *tool, const char *type, const char *access, const char *want)
{
	char *kind = NULL, buf[16];
	assert_int_equal(tnorm_sanitizer_kind(&kind, tool, type, access), 0);
	assert_string_equal(kind, want);
	tnorm_free(kind);
	tnorm__sanitizer_kind_buf(buf, sizeof(buf), tool, type, access);
	assert_int_equal(strncmp(buf, want, sizeof(buf) - 1), 0); /* (truncated to the buffer) */
}

static void test_sanitizer__kind(void **state)
{
	char *kind = NULL;
	(void)state;
	expect_kind("asan", "heap-use-after-free", "READ", "asan:heap-use-after-free:READ");
	expect_kind("asan", "heap-buffer-overflow", "WRITE", "asan:heap-buffer-overflow:WRITE");
	expect_kind("asan", "SEGV", "", "asan:SEGV");
	expect_kind("ubsan", "signed-integer-overflow", NULL, "ubsan:signed-integer-overflow");
	expect_kind("lsan", "leak", NULL, "lsan:leak");
	assert_int_equal(tnorm_sanitizer_kind(&kind, "asan", "", NULL), TNORM_EINVALID);
	assert_int_equal(tnorm_sanitizer_kind(&kind, NULL, "x", NULL), TNORM_EINVALID);
	tnorm_error_clear();
	/* The UBSan kind of a report message is the same form. */
	assert_int_equal(tnorm_signature_ubsan_kind(&kind, "Signed integer overflow: 1 + 2"), 0);
	assert_string_equal(kind, "ubsan:signed-integer-overflow");
	tnorm_free(kind);
}

static void test_sanitizer__lists(void **state)
{
	static const char *const vars[] = {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
	                                   "MSAN_OPTIONS", "TSAN_OPTIONS", "HWASAN_OPTIONS", NULL};
	size_t i, n;
	(void)state;
	for (i = 0; vars[i]; i++)
		assert_string_equal(tnorm_sanitizer_name(TNORM_SANITIZER_OPTION_VARS, i), vars[i]);
	assert_null(tnorm_sanitizer_name(TNORM_SANITIZER_OPTION_VARS, i));
	assert_string_equal(tnorm_sanitizer_name(TNORM_SANITIZER_UBSAN_HOOK, 0), "__ubsan_on_report");
	assert_string_equal(tnorm_sanitizer_name(TNORM_SANITIZER_QUERIES, 1), "__asan_report_present");
	/* Every list has a key and at least one name; the keys end the lists. */
	for (n = 0; tnorm_sanitizer_list_key((tnorm_sanitizer_list)n); n++)
		assert_non_null(tnorm_sanitizer_name((tnorm_sanitizer_list)n, 0));
	assert_int_equal(n, TNORM_SANITIZER_QUERIES + 1);
	assert_null(tnorm_sanitizer_name((tnorm_sanitizer_list)n, 0));
	assert_string_equal(tnorm_sanitizer_list_key(TNORM_SANITIZER_REPORT_ENTRIES), "report_entries");
	/* What a run gets (docs: tnorm/runner.h), and what a debugger's run gets. */
	assert_string_equal(tnorm__sanitizer_run_default(0), "ASAN_OPTIONS=abort_on_error=1:"
	                    "detect_leaks=0:symbolize=0:handle_abort=0");
	assert_string_equal(tnorm__sanitizer_run_default(1), "UBSAN_OPTIONS=halt_on_error=1:"
	                    "abort_on_error=1:print_stacktrace=0");
	assert_null(tnorm__sanitizer_run_default(2));
	assert_string_equal(tnorm_sanitizer_debug_var(1), "UBSAN_OPTIONS");
	assert_null(tnorm_sanitizer_debug_var(2));
}

static void test_sanitizer__runtime_frames(void **state)
{
	static const char *const user[] = {"main", "LLVMFuzzerTestOneInput", "asan_like", "_ZN4user3fooEv",
	                                   "__interceptorish", NULL};
	static const char *const runtime[] = {"__asan_report_load4", "__interceptor_strcmp",
	                                      "___interceptor_memcpy", "__ubsan_handle_add_overflow",
	                                      "_ZN6__asan9Allocator8AllocateEv", "_ZN11__sanitizer3DieEv",
	                                      "void handleIntegerOverflowImpl<__ubsan::Value>(int)",
	                                      "__tsan_read4", "__msan_warning", NULL};
	const char *name;
	char buf[64];
	size_t i;
	(void)state;
	for (i = 0; user[i]; i++) {
		assert_false(tnorm__sanitizer_runtime_function(user[i]));
		assert_false(tnorm_frame_is_runtime(user[i], "/usr/bin/prog"));
	}
	for (i = 0; runtime[i]; i++) {
		assert_true(tnorm__sanitizer_runtime_function(runtime[i]));
		assert_true(tnorm_frame_is_runtime(runtime[i], "/usr/bin/prog"));
	}
	/* The signature follows the module's lists, whatever they hold. */
	for (i = 0; (name = tnorm_sanitizer_name(TNORM_SANITIZER_FUNCTIONS, i)) != NULL; i++) {
		snprintf(buf, sizeof(buf), "%sfoo", name);
		assert_true(tnorm_frame_is_runtime(buf, "/usr/bin/prog"));
	}
	for (i = 0; (name = tnorm_sanitizer_name(TNORM_SANITIZER_NAMESPACES, i)) != NULL; i++) {
		snprintf(buf, sizeof(buf), "int %sfoo()", name);
		assert_true(tnorm_frame_is_runtime(buf, "/usr/bin/prog"));
	}
	for (i = 0; (name = tnorm_sanitizer_name(TNORM_SANITIZER_LIBRARIES, i)) != NULL; i++) {
		snprintf(buf, sizeof(buf), "/usr/lib/%sx.so.1", name);
		assert_true(tnorm_frame_is_runtime("anything", buf));
		assert_true(tnorm__sanitizer_runtime_library(buf + strlen("/usr/lib/")));
	}
	assert_false(tnorm_frame_is_runtime("anything", "/usr/lib/libfoo.so"));
	assert_true(tnorm__sanitizer_interceptor("__interceptor_strcmp"));
	assert_false(tnorm__sanitizer_interceptor("strcmp"));
}

static void test_sanitizer__report_calls(void **state)
{
	(void)state;
	assert_int_equal(tnorm__sanitizer_report_noreturn("__asan_report_load4"), 1);
	assert_int_equal(tnorm__sanitizer_report_noreturn("__asan_report_store8_noabort"), 0);
	assert_int_equal(tnorm__sanitizer_report_noreturn("__ubsan_handle_add_overflow"), 0);
	assert_int_equal(tnorm__sanitizer_report_noreturn("__ubsan_handle_add_overflow_abort"), 1);
	assert_int_equal(tnorm__sanitizer_report_noreturn("abort"), -1);
	assert_int_equal(tnorm__sanitizer_report_noreturn("__asan_init"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sanitizer__kind),
		cmocka_unit_test(test_sanitizer__lists),
		cmocka_unit_test(test_sanitizer__runtime_frames),
		cmocka_unit_test(test_sanitizer__report_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

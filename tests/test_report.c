/* SPDX-License-Identifier: MIT */
/*
 * test_report.c - reading sanitizer reports and the driver runtime's failure lines: the kind, the
 * free/alloc stacks (module+offset and symbolized forms), leaks, and text that is no report.
 * The samples are the shapes gcc 12's and clang 14's runtimes print.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report.h"
#include "tnorm/runner.h"

static const char asan_uaf[] =
	"=================================================================\n"
	"==27967==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000011 at pc "
	"0x564f75751f0d bp 0x7fff85465590 sp 0x7fff85465588\n"
	"READ of size 1 at 0x602000000011 thread T0\n"
	"    #0 0x564f75751f0c  (/tmp/as_c+0xddf0c) (BuildId: 89a587b37a38a3313ddf60d137ef1fd9d13bb1f2)\n"
	"    #1 0x7f93d0bba249  (/lib/x86_64-linux-gnu/libc.so.6+0x27249)\n"
	"\n"
	"0x602000000011 is located 1 bytes inside of 4-byte region [0x602000000010,0x602000000014)\n"
	"freed by thread T0 here:\n"
	"    #0 0x564f75716ea2  (/tmp/as_c+0xa2ea2) (BuildId: 89a587b37a38a3313ddf60d137ef1fd9d13bb1f2)\n"
	"    #1 0x564f75751ecc  (/tmp/as_c+0xddecc) (BuildId: 89a587b37a38a3313ddf60d137ef1fd9d13bb1f2)\n"
	"\n"
	"previously allocated by thread T0 here:\n"
	"    #0 0x564f7571714e in malloc /src/asan_malloc_linux.cpp:69:3\n"
	"    #1 0x564f75751ebf in make_entry /src/table.c:12:7\n"
	"\n"
	"SUMMARY: AddressSanitizer: heap-use-after-free (/tmp/as_c+0xddf0c)\n";

static void test_report__asan_use_after_free(void **state)
{
	tnorm__report rep;
	(void)state;
	assert_int_equal(tnorm__report_parse(asan_uaf, &rep), 0);
	assert_string_equal(rep.kind, "asan:heap-use-after-free:READ");
	assert_int_equal(rep.nstack[TNORM__REPORT_FREE], 2);
	assert_string_equal(rep.stack[TNORM__REPORT_FREE][1].module, "/tmp/as_c");
	assert_int_equal(rep.stack[TNORM__REPORT_FREE][1].offset, 0xddecc);
	assert_int_equal(rep.nstack[TNORM__REPORT_ALLOC], 2);
	assert_null(rep.stack[TNORM__REPORT_ALLOC][1].module);
	assert_string_equal(rep.stack[TNORM__REPORT_ALLOC][1].function, "make_entry");
	assert_string_equal(rep.stack[TNORM__REPORT_ALLOC][1].file, "/src/table.c");
	assert_int_equal(rep.stack[TNORM__REPORT_ALLOC][1].line, 12);
	assert_int_equal(rep.nstack[TNORM__REPORT_LEAK], 0);
	tnorm__report_dispose(&rep);
}

static void test_report__asan_other_kinds(void **state)
{
	tnorm__report rep;
	(void)state;
	assert_int_equal(tnorm__report_parse("==1==ERROR: AddressSanitizer: heap-buffer-overflow on "
	                                     "address 0x1 at pc 0x2\nWRITE of size 4 at 0x1 thread T1\n",
	                                     &rep), 0);
	assert_string_equal(rep.kind, "asan:heap-buffer-overflow:WRITE");
	tnorm__report_dispose(&rep);
	assert_int_equal(tnorm__report_parse("==1==ERROR: AddressSanitizer: attempting double-free on "
	                                     "0x602000000010 in thread T0:\n", &rep), 0);
	assert_string_equal(rep.kind, "asan:double-free");
	tnorm__report_dispose(&rep);
	assert_int_equal(tnorm__report_parse("==1==ERROR: AddressSanitizer: SEGV on unknown address "
	                                     "0x000000000000\n==1==The signal is caused by a WRITE "
	                                     "memory access.\n", &rep), 0);
	assert_string_equal(rep.kind, "asan:SEGV:WRITE");
	tnorm__report_dispose(&rep);
}

static void test_report__ubsan(void **state)
{
	tnorm__report rep;
	char k[64];
	(void)state;
	assert_int_equal(tnorm__report_parse("ub.c:3:24: runtime error: signed integer overflow: "
	                                     "2147483647 + 1 cannot be represented in type 'int'\n",
	                                     &rep), 0);
	assert_string_equal(rep.kind, "ubsan:signed-integer-overflow");
	tnorm__report_dispose(&rep);
	tnorm__report_ubsan_kind("load of null pointer of type 'int'", k, sizeof(k));
	assert_string_equal(k, "load-of-null-pointer-of-type");
	tnorm__report_ubsan_kind("shift exponent 40 is too large for 32-bit type 'int'", k, sizeof(k));
	assert_string_equal(k, "shift-exponent");
	tnorm__report_ubsan_kind("division by zero", k, sizeof(k));
	assert_string_equal(k, "division-by-zero");
}

static void test_report__leak_prefers_direct(void **state)
{
	static const char leak[] =
		"==9==ERROR: LeakSanitizer: detected memory leaks\n"
		"\n"
		"Indirect leak of 8 byte(s) in 1 object(s) allocated from:\n"
		"    #0 0x4a in malloc (/usr/lib/x86_64-linux-gnu/libasan.so.8+0xbd)\n"
		"    #0 0x4b  (/usr/lib/x86_64-linux-gnu/libasan.so.8+0xbd)\n"
		"    #1 0x4c  (/opt/prog+0x1111)\n"
		"\n"
		"Direct leak of 16 byte(s) in 1 object(s) allocated from:\n"
		"    #0 0x4d  (/usr/lib/x86_64-linux-gnu/libasan.so.8+0xbd)\n"
		"    #1 0x4e  (/opt/prog+0x2222)\n"
		"\n"
		"Direct leak of 4 byte(s) in 1 object(s) allocated from:\n"
		"    #0 0x4f  (/opt/prog+0x3333)\n";
	tnorm__report rep;
	(void)state;
	assert_int_equal(tnorm__report_parse(leak, &rep), 0);
	assert_string_equal(rep.kind, "lsan:leak");
	assert_int_equal(rep.nstack[TNORM__REPORT_LEAK], 2);
	assert_int_equal(rep.stack[TNORM__REPORT_LEAK][1].offset, 0x2222);
	tnorm__report_dispose(&rep);
}

static void test_report__driver_and_plain_text(void **state)
{
	tnorm__report rep;
	(void)state;
	assert_int_equal(tnorm__report_parse("tnorm driver: check avl_check(avl0) failed after step 7\n",
	                                     &rep), 0);
	assert_string_equal(rep.kind, "check-failed:avl_check");
	tnorm__report_dispose(&rep);
	assert_int_equal(tnorm__report_parse("tnorm driver: step 3: ht_put(ht0, #2) failed (handler "
	                                     "returned 1)\n", &rep), 0);
	assert_string_equal(rep.kind, "handler-failed:ht_put");
	tnorm__report_dispose(&rep);
	assert_int_equal(tnorm__report_parse("warning: something\nERROR: disk full\n", &rep), 0);
	assert_string_equal(rep.kind, "");
	tnorm__report_dispose(&rep);
	assert_int_equal(tnorm__report_parse(NULL, &rep), 0);
	assert_string_equal(rep.kind, "");
	tnorm__report_dispose(&rep);
}

/* A "tnorm driver: step" line whose only ':' after "step" is its last character (found by
 * fuzz_report, issue 14): the name was read from past the line's end, out of what an earlier,
 * longer line left in the parser's line buffer, or past the buffer when the line filled it. */
static void test_report__driver_line_ends_in_colon(void **state)
{
	char text[1200];
	tnorm__report rep;
	(void)state;
	snprintf(text, sizeof(text), "%s\n%s\n",
	         "some earlier output, longer than the next line: stale_name(obj0) and more text",
	         "tnorm driver: step 9 (handler returned 1) in T0:");
	assert_int_equal(tnorm__report_parse(text, &rep), 0);
	assert_string_equal(rep.kind, "");
	tnorm__report_dispose(&rep);
	/* 510 characters then ':' fill the 512-byte line buffer: the name would start past it. */
	snprintf(text, sizeof(text), "tnorm driver: step 9 (handler returned 1)%469s:%s\n", "",
	         "the rest of the long line");
	assert_int_equal(tnorm__report_parse(text, &rep), 0);
	assert_string_equal(rep.kind, "");
	tnorm__report_dispose(&rep);
}

/* tnorm_trace_last_step: the last "STEP K: " that starts a line (a driver run with --trace
 * prints one before each step), whatever else the run printed around and after it. */
static void test_report__trace_last_step(void **state)
{
	static const char err[] = "STEP 0: avl0 = avl_new()\nSTEP 1: avl_insert(avl0, 5)\n"
	                          "noise STEP 7: not at a line start\nSTEP 12: avl_delete(avl0, 5)\n"
	                          "STEP 13 no colon\nSTEP x: not a number\nSTEP : none\n"
	                          "tnorm driver: check avl_check(avl0) failed after step 12\n";
	static const char last[] = "STEP 3: a\nSTEP 4: ";
	static const char huge[] = "STEP 2: a\nSTEP 99999999999999999999: b\n";
	uint64_t step = 77;
	(void)state;
	assert_int_equal(tnorm_trace_last_step(err, sizeof(err) - 1, &step), 1);
	assert_int_equal(step, 12);
	assert_int_equal(tnorm_trace_last_step(last, sizeof(last) - 1, &step), 1);
	assert_int_equal(step, 4);
	/* The length bounds the text: "STEP 4: " cut to "STEP 4:" is no step line. */
	assert_int_equal(tnorm_trace_last_step(last, sizeof(last) - 2, &step), 1);
	assert_int_equal(step, 3);
	assert_int_equal(tnorm_trace_last_step(huge, sizeof(huge) - 1, &step), 1);
	assert_int_equal(step, 2);
	step = 77;
	assert_int_equal(tnorm_trace_last_step("no steps\nSTEP\n", 14, &step), 0);
	assert_int_equal(tnorm_trace_last_step(NULL, 0, &step), 0);
	assert_int_equal(step, 77);
	assert_int_equal(tnorm_trace_last_step(NULL, 3, &step), TNORM_EINVALID);
	assert_int_equal(tnorm_trace_last_step(err, 3, NULL), TNORM_EINVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report__asan_use_after_free),
		cmocka_unit_test(test_report__asan_other_kinds),
		cmocka_unit_test(test_report__ubsan),
		cmocka_unit_test(test_report__leak_prefers_direct),
		cmocka_unit_test(test_report__driver_and_plain_text),
		cmocka_unit_test(test_report__driver_line_ends_in_colon),
		cmocka_unit_test(test_report__trace_last_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

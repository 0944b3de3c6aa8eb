/* SPDX-License-Identifier: MIT */
/*
 * test_severity.c - the severity rules (severity.c: one case per row group of the table in
 * docs/signatures.md, "Severity") and the SARIF rendering of a triage's result (sarif.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "tnorm/errors.h"
#include "tnorm/severity.h"
#include "tnorm/triage_report.h"

/* The class of `kind` (no fault address), and its reason is not empty. */
static tnorm_severity_class cls(const char *kind)
{
	tnorm_severity s;
	assert_int_equal(tnorm_severity_of_kind(&s, kind, NULL), 0);
	assert_non_null(s.reason);
	assert_true(s.reason[0] != '\0');
	assert_string_equal(s.name, tnorm_severity_class_name(s.cls));
	return s.cls;
}

static void test_severity__memory_writes_are_exploitable(void **state)
{
	(void)state;
	assert_int_equal(cls("asan:heap-buffer-overflow:WRITE"), TNORM_SEVERITY_EXPLOITABLE);
	assert_int_equal(cls("asan:stack-buffer-overflow:WRITE"), TNORM_SEVERITY_EXPLOITABLE);
	assert_int_equal(cls("asan:global-buffer-overflow:WRITE"), TNORM_SEVERITY_EXPLOITABLE);
	assert_int_equal(cls("asan:stack-use-after-scope:WRITE"), TNORM_SEVERITY_EXPLOITABLE);
	assert_int_equal(cls("asan:heap-use-after-free:WRITE"), TNORM_SEVERITY_EXPLOITABLE);
	assert_int_equal(cls("asan:heap-use-after-free:READ"), TNORM_SEVERITY_EXPLOITABLE);
	assert_int_equal(cls("asan:double-free"), TNORM_SEVERITY_EXPLOITABLE);
	assert_int_equal(cls("asan:free"), TNORM_SEVERITY_EXPLOITABLE); /* attempting free on ... */
}

static void test_severity__reads_and_stops_are_not(void **state)
{
	(void)state;
	assert_int_equal(cls("asan:heap-buffer-overflow:READ"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("asan:stack-buffer-overflow:READ"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("asan:stack-overflow"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("asan:allocation-size-too-big"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("SIGABRT"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("SIGFPE"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("exit(3)"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("check-failed:avl_check"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("handler-failed:insert"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("uncaught std::invalid_argument"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("ubsan:signed-integer-overflow"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("ubsan:index"), TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("lsan:leak"), TNORM_SEVERITY_NOT_EXPLOITABLE);
}

/* A SIGSEGV: near NULL is not exploitable, a wild address probably is; without the address
 * the kind cannot tell. */
static void test_severity__segv_by_address(void **state)
{
	tnorm_severity s;
	uint64_t null_page = 0x18, edge = TNORM_SEVERITY_NEAR_NULL, wild = 0x4141414141414141ULL;
	(void)state;
	assert_int_equal(tnorm_severity_of_kind(&s, "SIGSEGV", &null_page), 0);
	assert_int_equal(s.cls, TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(tnorm_severity_of_kind(&s, "SIGSEGV", &edge), 0);
	assert_int_equal(s.cls, TNORM_SEVERITY_PROBABLY_EXPLOITABLE);
	assert_int_equal(tnorm_severity_of_kind(&s, "SIGSEGV", &wild), 0);
	assert_int_equal(s.cls, TNORM_SEVERITY_PROBABLY_EXPLOITABLE);
	assert_int_equal(cls("SIGSEGV"), TNORM_SEVERITY_UNKNOWN);
	assert_int_equal(cls("asan:SEGV:WRITE"), TNORM_SEVERITY_PROBABLY_EXPLOITABLE);
	assert_int_equal(cls("asan:SEGV:READ"), TNORM_SEVERITY_UNKNOWN);
	/* the address means nothing to other kinds */
	assert_int_equal(tnorm_severity_of_kind(&s, "SIGABRT", &wild), 0);
	assert_int_equal(s.cls, TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(cls("SIGKILL"), TNORM_SEVERITY_UNKNOWN);
	assert_int_equal(cls("asan:some-new-type:READ"), TNORM_SEVERITY_UNKNOWN);
	assert_int_equal(tnorm_severity_of_kind(NULL, "SIGSEGV", NULL), TNORM_EINVALID);
	assert_int_equal(tnorm_severity_of_kind(&s, NULL, NULL), TNORM_EINVALID);
}

/* From a signature's text, as a triage keeps it: the kind is what precedes " at ", and an
 * exception's what() text (which may say " at ") is not read as the kind's end. */
static void test_severity__from_text(void **state)
{
	tnorm_severity s;
	(void)state;
	assert_int_equal(tnorm_severity_of_text(&s, "asan:heap-buffer-overflow:WRITE at put (a.c:3) "
	                                            "<- main (a.c:9)"), 0);
	assert_int_equal(s.cls, TNORM_SEVERITY_EXPLOITABLE);
	assert_int_equal(tnorm_severity_of_text(&s, "uncaught std::runtime_error (\"SIGSEGV at x\") "
	                                            "at f (e.cc:2)"), 0);
	assert_int_equal(s.cls, TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(tnorm_severity_of_text(&s, "SIGABRT"), 0);
	assert_int_equal(s.cls, TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(tnorm_severity_of_text(&s, "exit(3) at main (hlp.c:3) [fail: a]"), 0);
	assert_int_equal(s.cls, TNORM_SEVERITY_NOT_EXPLOITABLE);
	assert_int_equal(tnorm_severity_of_text(&s, NULL), TNORM_EINVALID);
}

/* j's member at a path of keys, a number being an array's index; NULL ends the path. */
static json_t *at(json_t *j, ...)
{
	va_list ap;
	const char *k;
	va_start(ap, j);
	while (j && (k = va_arg(ap, const char *)) != NULL)
		j = k[0] >= '0' && k[0] <= '9' ? json_array_get(j, (size_t)atoi(k)) : json_object_get(j, k);
	va_end(ap);
	return j;
}

/* A result of two buckets, as SARIF: one result each, its rule, location, code flow (outermost
 * first), free stack as related locations, severity, and a fingerprint from the key alone. */
static void test_severity__sarif(void **state)
{
	tnorm_triage_test tests[2];
	tnorm_triage_bucket buckets[2];
	tnorm_triage_result r;
	char *text = NULL, *again = NULL;
	json_t *j, *k, *res;
	json_error_t e;
	(void)state;
	memset(tests, 0, sizeof(tests));
	memset(buckets, 0, sizeof(buckets));
	memset(&r, 0, sizeof(r));
	tests[0].name = "crash-1";
	tests[1].name = "crash-2";
	buckets[0].signature = "asan:heap-use-after-free:READ at lookup (table.c:88) <- main "
	                       "(main.c:40); freed at drop (table.c:61) <- main (main.c:39)";
	buckets[0].key = "key-a";
	buckets[0].count = 3;
	buckets[0].file = "out/buckets/1-crash-1";
	buckets[1].signature = "uncaught std::out_of_range (\"no \\\" at x\") at refuse (exc.cc:21) "
	                       "<- sub_11a0 (exc+0x11a9) <- main (exc.cc:43)";
	buckets[1].key = "key-b";
	buckets[1].count = 1;
	buckets[1].representative = 1;
	buckets[1].file = "out/buckets/2-crash-2";
	r.tests = tests;
	r.ntests = 2;
	r.buckets = buckets;
	r.nbuckets = 2;
	assert_int_equal(tnorm_triage_report_sarif(&r, &text), 0);
	j = json_loads(text, 0, &e);
	assert_non_null(j);
	assert_string_equal(json_string_value(at(j, "version", NULL)), "2.1.0");
	assert_int_equal(json_array_size(at(j, "runs", "0", "tool", "driver", "rules", NULL)), 2);
	res = at(j, "runs", "0", "results", NULL);
	assert_int_equal(json_array_size(res), 2);
	/* bucket 1 */
	assert_string_equal(json_string_value(at(res, "0", "ruleId", NULL)),
	                    "asan:heap-use-after-free:READ");
	assert_string_equal(json_string_value(at(res, "0", "locations", "0", "physicalLocation",
	                                         "artifactLocation", "uri", NULL)), "table.c");
	assert_int_equal(json_integer_value(at(res, "0", "locations", "0", "physicalLocation",
	                                       "region", "startLine", NULL)), 88);
	/* the flow as it ran: main first, the throwing frame last */
	assert_int_equal(json_integer_value(at(res, "0", "codeFlows", "0", "threadFlows", "0",
	                                       "locations", "0", "location", "physicalLocation",
	                                       "region", "startLine", NULL)), 40);
	assert_int_equal(json_integer_value(at(res, "0", "codeFlows", "0", "threadFlows", "0",
	                                       "locations", "1", "location", "physicalLocation",
	                                       "region", "startLine", NULL)), 88);
	assert_int_equal(json_array_size(at(res, "0", "relatedLocations", NULL)), 2);
	assert_int_equal(json_integer_value(at(res, "0", "relatedLocations", "0", "physicalLocation",
	                                       "region", "startLine", NULL)), 61);
	assert_string_equal(json_string_value(at(res, "0", "properties", "severity", "class", NULL)),
	                    "EXPLOITABLE");
	/* bucket 2: the kind without its what() text; a frame without a line has no physical
	 * location, and the flow still has all three frames */
	assert_string_equal(json_string_value(at(res, "1", "ruleId", NULL)),
	                    "uncaught std::out_of_range");
	assert_int_equal(json_array_size(at(res, "1", "codeFlows", "0", "threadFlows", "0",
	                                    "locations", NULL)), 3);
	assert_null(at(res, "1", "codeFlows", "0", "threadFlows", "0", "locations", "1", "location",
	               "physicalLocation", NULL));
	assert_int_equal(json_integer_value(at(res, "1", "locations", "0", "physicalLocation",
	                                       "region", "startLine", NULL)), 21);
	assert_string_equal(json_string_value(at(res, "1", "level", NULL)), "warning");
	/* the fingerprint is the key's: other counts and names, the same fingerprint */
	tests[0].name = "id:000007";
	buckets[0].count = 30;
	assert_int_equal(tnorm_triage_report_sarif(&r, &again), 0);
	k = json_loads(again, 0, &e);
	assert_non_null(k);
	assert_non_null(at(res, "0", "partialFingerprints", "tnormSignatureKey/v1", NULL));
	assert_true(json_equal(at(res, "0", "partialFingerprints", NULL),
	                       at(k, "runs", "0", "results", "0", "partialFingerprints", NULL)));
	assert_false(json_equal(at(res, "0", "partialFingerprints", NULL),
	                        at(res, "1", "partialFingerprints", NULL)));
	json_decref(k);
	json_decref(j);
	tnorm_free(text);
	tnorm_free(again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_severity__memory_writes_are_exploitable),
		cmocka_unit_test(test_severity__reads_and_stops_are_not),
		cmocka_unit_test(test_severity__segv_by_address),
		cmocka_unit_test(test_severity__from_text),
		cmocka_unit_test(test_severity__sarif),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

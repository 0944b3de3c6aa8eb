/* SPDX-License-Identifier: MIT */
/*
 * test_why_output.c - why's result as JSON and as text (why_output.c): the keys both front ends
 * show, bytes that are not text, and the table `tnorm why` prints (issue 42, item 1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tnorm/tnorm.h"

/* (U+FFFD as its UTF-8 bytes below: jansson writes non-ASCII as it is.) */
/* A result of two lines (the second where it failed) and two neighbours, one not text. */
static void fill(tnorm_why_result *w, tnorm_why_line *l, tnorm_why_neighbour *n)
{
	memset(w, 0, sizeof(*w));
	memset(l, 0, 2 * sizeof(*l));
	memset(n, 0, 2 * sizeof(*n));
	l[0].file = (char *)"/no/such/dir/a.c";
	l[0].line = 7;
	l[0].function = (char *)"f";
	l[0].score = l[0].ochiai = 0.12346;
	l[0].failing = 3;
	l[1].file = (char *)"b.c";
	l[1].line = 9;
	l[1].score = l[1].ochiai = 0.5;
	l[1].failing = 3;
	l[1].passing = 1;
	l[1].on_stack = 2;
	n[0].test = (char *)"ok";
	n[0].len = 2;
	n[0].outcome = TNORM_OUTCOME_PASS;
	n[1].test = (char *)"\xff";
	n[1].len = 1;
	n[1].outcome = TNORM_OUTCOME_FAIL;
	n[1].same = 1;
	w->signature = (char *)"SIGABRT at f (a.c:7)";
	w->lines = l;
	w->nlines = 2;
	w->neighbours = n;
	w->nneighbours = 2;
	w->failing = 3;
	w->passing = 1;
	w->runs = 3;
	w->seconds = 1.04951;
}

static void test_why_output__json(void **state)
{
	tnorm_why_result w;
	tnorm_why_line l[2];
	tnorm_why_neighbour n[2];
	char *json = NULL;
	(void)state;
	fill(&w, l, n);
	assert_int_equal(tnorm_why_result_json(&json, &w), 0);
	assert_string_equal(json,
	    "{\"signature\": \"SIGABRT at f (a.c:7)\", \"lines\": [{\"file\": \"/no/such/dir/a.c\", "
	    "\"line\": 7, \"function\": \"f\", \"score\": 0.1235, \"ochiai\": 0.1235, \"failing\": 3, "
	    "\"passing\": 0, \"on_stack\": 0}, {\"file\": \"b.c\", \"line\": 9, \"function\": null, "
	    "\"score\": 0.5, \"ochiai\": 0.5, \"failing\": 3, \"passing\": 1, \"on_stack\": 2}], "
	    "\"neighbours\": [{\"test\": \"ok\", \"outcome\": \"pass\", \"reused\": false}, "
	    "{\"test\": \"\xef\xbf\xbd\", \"test_hex\": \"ff\", \"outcome\": \"fail\", \"reused\": false}], "
	    "\"failing\": 3, \"passing\": 1, \"runs\": 3, \"reused\": 0, \"seconds\": 1.05}");
	tnorm_free(json);
	assert_int_equal(tnorm_why_result_json(NULL, &w), TNORM_EINVALID);
	assert_int_equal(tnorm_why_result_json(&json, NULL), TNORM_EINVALID);
	assert_null(json);
}

static void test_why_output__text(void **state)
{
	tnorm_why_result w;
	tnorm_why_line l[2];
	tnorm_why_neighbour n[2];
	char *all = NULL, *one = NULL;
	(void)state;
	fill(&w, l, n);
	w.reused = 2;
	w.disagreed = 1;
	assert_int_equal(tnorm_why_result_text(&all, &w, 0), 0);
	/* The score as printf's %5.3f of the score itself (0.123), not of the JSON's 0.1235. */
	assert_string_equal(all,
	    "signature: SIGABRT at f (a.c:7)\n"
	    "3 failing and 1 passing runs of the normal form and 2 neighbours (3 runs, 1.0 s)\n"
	    "2 of the neighbours were run by the minimization too (1 came to another outcome this "
	    "time)\n"
	    "\n"
	    "rank  score  fail pass  where\n"
	    "   1  0.123     3    0  a.c:7 f\n"
	    "                        \n"
	    "   2  0.500     3    1  b.c:9  (where it failed)\n"
	    "                        \n");
	assert_int_equal(tnorm_why_result_text(&one, &w, 1), 0);
	assert_true(strlen(one) < strlen(all) && !strncmp(all, one, strlen(one))); /* a prefix */
	tnorm_free(all);
	tnorm_free(one);
	assert_int_equal(tnorm_why_result_text(&one, NULL, 1), TNORM_EINVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_why_output__json),
		cmocka_unit_test(test_why_output__text),
	};
	return cmocka_run_group_tests_name("why_output", tests, NULL, NULL);
}

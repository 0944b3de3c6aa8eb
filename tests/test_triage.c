/* SPDX-License-Identifier: MIT */
/*
 * test_triage.c - the triage below the CLI (issue 18): the report rendered from a result made by
 * hand (report.json read back by jansson, report.html escaped), every allocation of the
 * rendering failing in turn, and the job's refusals (options, harness, folder) before any run.
 * Without a harness (issue 17): which files of a crash folder are tests, and normal forms of any
 * bytes, NUL included, read back exactly from the result files and bucketed by their bytes.
 * The job's runs themselves are tested through the CLI (triage.sh, triage-generic.sh), the
 * binding (binding.py) and the debuggers (gdb.sh, lldb.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "common.h"
#include "triage_sample.h"
#include "tnorm/tnorm.h"

static char sig[] = "SIGABRT at f (a<b>.c:1)";
static char key[] = "SIGABRT at f (a<b>.c:1)";
static char normal[] = "x0 = 1\nuse(x0) # \"<&>\"\n";
static char empty[] = "";
static char why[] = "the original test does not fail: it passes (exit 0)";
static char n1[] = "t&1.t", n2[] = "t2.t", n3[] = "\xff.t";

/* Three tests: two in one bucket, one that does not fail (its name not UTF-8). */
static void make_result(tnorm_triage_result *r, tnorm_triage_test *t, tnorm_triage_bucket *b)
{
	memset(r, 0, sizeof(*r));
	memset(t, 0, 3 * sizeof(*t));
	memset(b, 0, sizeof(*b));
	t[0].name = n1;
	t[1].name = n2;
	t[2].name = n3;
	t[0].status = t[1].status = TNORM_TRIAGE_OK;
	t[2].status = TNORM_TRIAGE_NOTFAIL;
	t[0].signature = t[1].signature = sig;
	t[0].key = t[1].key = key;
	t[0].normal = t[1].normal = normal;
	t[0].normal_len = t[1].normal_len = strlen(normal);
	t[2].signature = t[2].key = t[2].normal = empty;
	t[0].message = t[1].message = empty;
	t[2].message = why;
	t[0].original_steps = t[1].original_steps = t[2].original_steps = 100;
	t[0].reduced_steps = 7;
	t[1].reduced_steps = 9;
	t[0].normal_steps = t[1].normal_steps = 2;
	t[2].reduced_steps = t[2].normal_steps = -1;
	t[0].bucket = t[1].bucket = 1;
	b->signature = sig;
	b->key = key;
	b->normal = normal;
	b->normal_len = strlen(normal);
	b->count = 2;
	b->representative = 0;
	r->corpus = n1;
	r->out = NULL;
	r->tests = t;
	r->ntests = 3;
	r->buckets = b;
	r->nbuckets = 1;
	r->failing = 2;
	r->signatures = 1;
	r->distinct_reduced = 2;
	r->distinct_normalized = 1;
	r->complete = 1;
}

static void test_triage__report_json(void **state)
{
	tnorm_triage_result r;
	tnorm_triage_test t[3];
	tnorm_triage_bucket b;
	char *text = NULL;
	json_t *j, *bk, *res;
	(void)state;
	make_result(&r, t, &b);
	b.nforms = 1;
	t[1].minimized = 1; /* t[0] was assigned: it has no normal form of its own to count */
	assert_int_equal(tnorm_triage_report_json(&r, &text), 0);
	assert_non_null(strchr(text, '\n'));
	assert_int_equal(strchr(text, '\n')[1], '\0');
	assert_non_null(j = json_loads(text, 0, NULL));
	assert_int_equal(json_integer_value(json_object_get(j, "tests")), 3);
	assert_int_equal(json_integer_value(json_object_get(j, "distinct_normalized")), 1);
	bk = json_array_get(json_object_get(j, "buckets"), 0);
	assert_string_equal(json_string_value(json_object_get(bk, "normal_form")), normal);
	assert_true(json_is_null(json_object_get(bk, "annotated"))); /* not generalized */
	assert_string_equal(json_string_value(json_object_get(bk, "key")), t[0].key);
	assert_int_equal(json_array_size(json_object_get(bk, "tests")), 2);
	res = json_array_get(json_object_get(bk, "normal_forms"), 0);
	assert_int_equal(json_array_size(json_object_get(bk, "normal_forms")), 1);
	assert_int_equal(json_integer_value(json_object_get(res, "count")), 1);
	assert_string_equal(json_string_value(json_object_get(res, "first")), n2);
	res = json_array_get(json_object_get(j, "results"), 2);
	assert_string_equal(json_string_value(json_object_get(res, "test")), "\xef\xbf\xbd.t");
	assert_string_equal(json_string_value(json_object_get(res, "status")), "notfail");
	assert_int_equal(json_integer_value(json_object_get(res, "bucket")), 0);
	/* The keys in their documented order. */
	assert_true(strstr(text, "{\"corpus\": ") == text);
	assert_non_null(strstr(text, "\"buckets\": [{\"id\": 1, \"count\": 2, \"signature\": "));
	/* "results" is rendered a test at a time and put in its place between the other members,
	 * with the separators jansson puts between members and between array items. */
	assert_non_null(strstr(text, "}], \"results\": [{\"test\": \"t&1.t\", "));
	assert_non_null(strstr(text, "}, {\"test\": \"t2.t\", "));
	assert_non_null(strstr(text, "}], \"bucket_order\": [1], \"counts_explained\": \""));
	assert_true(strstr(text, "\"}\n") == text + strlen(text) - 3);
	json_decref(j);
	tnorm_free(text);
	/* With no test at all: an empty array, still in its place. */
	r.ntests = 0;
	r.nbuckets = 0;
	assert_int_equal(tnorm_triage_report_json(&r, &text), 0);
	assert_non_null(j = json_loads(text, 0, NULL));
	assert_int_equal(json_array_size(json_object_get(j, "results")), 0);
	assert_non_null(strstr(text, "\"buckets\": [], \"results\": [], \"bucket_order\": [], "));
	json_decref(j);
	tnorm_free(text);
}

/* A test's record, the summary, and what follows a job (issue 42, item 1): one renderer each,
 * which the CLI, the binding and the report share. */
static void test_triage__record_summary_finish(void **state)
{
	tnorm_triage_result r;
	tnorm_triage_test t[3];
	tnorm_triage_bucket b;
	tnorm_triage_options o = TNORM_TRIAGE_OPTIONS_INIT;
	char *text = NULL, dir[256] = "/tmp/tnorm-triage-finish-XXXXXX", path[300], sarif[300];
	const char *tmp = getenv("TMPDIR");
	json_t *j;
	(void)state;
	make_result(&r, t, &b);
	assert_int_equal(tnorm_triage_test_json(&t[0], &text), 0);
	assert_non_null(j = json_loads(text, 0, NULL));
	assert_string_equal(json_string_value(json_object_get(j, "normal")), normal);
	assert_string_equal(json_string_value(json_object_get(j, "method")), "assigned");
	assert_null(json_object_get(j, "normal_hex"));
	assert_null(json_object_get(j, "hash"));
	json_decref(j);
	tnorm_free(text);
	assert_int_equal(tnorm_triage_test_json(&t[2], &text), 0);
	assert_non_null(j = json_loads(text, 0, NULL));
	assert_null(json_object_get(j, "method")); /* it does not fail */
	assert_string_equal(json_string_value(json_object_get(j, "message")), why);
	json_decref(j);
	tnorm_free(text);
	assert_int_equal(tnorm_triage_test_json(NULL, &text), TNORM_EINVALID);

	r.out = n2;
	assert_int_equal(tnorm_triage_summary_text(&r, &text), 0);
	assert_true(strncmp(text, "t&1.t: 3 tests, 2 failing, 1 distinct signatures, ", 50) == 0);
	assert_non_null(strstr(text, "\n== bucket 1: 2 tests (0 minimized, 2 assigned); SIGABRT at f "));
	assert_non_null(strstr(text, "\nnot triaged: \\xff.t: notfail: the original test does not fail"));
	assert_non_null(strstr(text, "\nreport: t2.t/report.html, t2.t/report.json\n"));
	tnorm_free(text);

	/* The report: none after an error or for a shard, else report.json, .html and SARIF. */
	if (tmp && strlen(tmp) < 200)
		snprintf(dir, sizeof(dir), "%s/tnorm-triage-finish-XXXXXX", tmp);
	assert_non_null(mkdtemp(dir));
	r.out = dir;
	snprintf(path, sizeof(path), "%s/report.json", dir);
	assert_int_equal(tnorm_triage_report_finish(&o, &r, TNORM_EINTERRUPTED, NULL),
	                 TNORM_EINTERRUPTED);
	o.shards = 2;
	assert_int_equal(tnorm_triage_report_finish(&o, &r, 0, NULL), 0);
	assert_int_equal(access(path, F_OK), -1);
	o.shards = 0;
	snprintf(sarif, sizeof(sarif), "%s/s.sarif", dir);
	assert_int_equal(tnorm_triage_report_finish(&o, &r, 0, sarif), 0);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(access(sarif, F_OK), 0);
	unlink(sarif);
	unlink(path);
	snprintf(path, sizeof(path), "%s/report.html", dir);
	assert_int_equal(access(path, F_OK), 0);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

static void test_triage__report_html(void **state)
{
	tnorm_triage_result r;
	tnorm_triage_test t[3];
	tnorm_triage_bucket b;
	char *html = NULL;
	(void)state;
	make_result(&r, t, &b);
	assert_int_equal(tnorm_triage_report_html(&r, &html), 0);
	assert_true(strncmp(html, "<!DOCTYPE html>", 15) == 0);
	assert_null(strstr(html, "<script"));
	assert_non_null(strstr(html, "<table id=\"buckets\">"));
	assert_non_null(strstr(html, "<svg "));
	/* Names, signatures and tests are escaped wherever they appear. */
	assert_non_null(strstr(html, "a&lt;b&gt;.c:1"));
	assert_null(strstr(html, "a<b>.c"));
	assert_non_null(strstr(html, "# &quot;&lt;&amp;&gt;&quot;"));
	assert_non_null(strstr(html, "t&amp;1.t"));
	assert_non_null(strstr(html, "<h2>Not triaged</h2>"));
	/* The charts do not grow with the tests (issue 40, item 1): a bar per bucket, and a bar
	 * per range of lengths and series (both tests' originals are 100 steps, their normal
	 * forms 2). */
	{
		size_t rects = 0;
		const char *p = html;
		while ((p = strstr(p, "<rect ")))
			rects++, p++;
		assert_int_equal(rects, 3);
	}
	/* A section per bucket: its crash state, its normal form as text and as hex, its tests
	 * collapsed. */
	assert_non_null(strstr(html, "<section class=\"bucket sev-NOT_EXPLOITABLE\" id=\"bucket-1\""));
	assert_non_null(strstr(html, "<ol class=\"frames\">\n<li><code>f (a&lt;b&gt;.c:1)</code>"));
	assert_non_null(strstr(html, "<pre class=\"normal-hex\">00000000  78 30 20 3d"));
	assert_non_null(strstr(html, "<details class=\"tests\"><summary>2 tests</summary>"));
	/* The name that is not UTF-8, escaped the one way. */
	assert_non_null(strstr(html, "<li>\\xff.t: notfail "));
	tnorm_free(html);
}

/* A report of 10,000 tests in 60 buckets (issue 40, item 1): the charts keep their size (a bar
 * per bucket up to 40 and one for the rest, a bar per range of length), the buckets come most
 * severe first, then the most tests, and the wall of names is collapsed. */
static void test_triage__report_large(void **state)
{
	enum { NT = 10000, NB = 60 };
	static char sigs[NB][64], names[NT][16];
	static tnorm_triage_test t[NT];
	static tnorm_triage_bucket b[NB];
	tnorm_triage_result r;
	size_t i, rects = 0, order[NB];
	char *html = NULL;
	const char *p;
	(void)state;
	memset(&r, 0, sizeof(r));
	memset(t, 0, sizeof(t));
	memset(b, 0, sizeof(b));
	for (i = 0; i < NB; i++) {
		/* bucket 60 a write (EXPLOITABLE), the others aborts */
		snprintf(sigs[i], sizeof(sigs[i]), "%s at f%zu (a.c:%zu)",
		         i == NB - 1 ? "asan:heap-buffer-overflow:WRITE" : "SIGABRT", i, i + 1);
		b[i].signature = b[i].key = sigs[i];
		b[i].normal = normal;
		b[i].normal_len = strlen(normal);
		b[i].representative = i;
		b[i].nforms = 1;
		b[i].same_key = 1;
	}
	for (i = 0; i < NT; i++) {
		size_t k = i < NB ? i : (i % 7 == 0 ? 3 : i % NB); /* bucket 4 the largest */
		snprintf(names[i], sizeof(names[i]), "crash-%05zu", i);
		t[i].name = names[i];
		t[i].status = TNORM_TRIAGE_OK;
		t[i].signature = t[i].key = sigs[k];
		t[i].normal = normal;
		t[i].normal_len = strlen(normal);
		t[i].message = empty;
		t[i].original_steps = (long)(i % 5000);
		t[i].reduced_steps = t[i].normal_steps = i < NB ? 2 : -1;
		t[i].minimized = i < NB;
		t[i].bucket = k + 1;
		b[k].count++;
	}
	r.corpus = n1;
	r.tests = t;
	r.ntests = r.failing = NT;
	r.buckets = b;
	r.nbuckets = r.signatures = NB;
	r.distinct_reduced = r.distinct_normalized = 1;
	r.complete = 1;
	assert_int_equal(tnorm_triage_report_order(&r, order), 0);
	assert_int_equal(order[0], NB - 1); /* the write first, though it has few tests */
	assert_int_equal(order[1], 3);      /* then the most tests */
	assert_int_equal(tnorm_triage_report_html(&r, &html), 0);
	for (p = html; (p = strstr(p, "<rect ")); p++)
		rects++;
	assert_true(rects <= 41 + 2 * 14);
	assert_non_null(strstr(html, ">20 more</text>"));
	assert_int_equal(strstr(html, "id=\"bucket-60\"") < strstr(html, "id=\"bucket-4\""), 1);
	/* The names are in the page once each, under their bucket's collapsed list. */
	assert_non_null(strstr(html, "<details class=\"tests\"><summary>"));
	assert_true(strlen(html) < 2000000);
	tnorm_free(html);
}

static void test_triage__report_oom(void **state)
{
	tnorm_triage_result r;
	tnorm_triage_test t[3];
	tnorm_triage_bucket b;
	long k;
	(void)state;
	make_result(&r, t, &b);
	for (k = 0; k < 400; k++) {
		char *out = NULL;
		int err;
		tnorm__alloc_fail_after(k);
		err = tnorm_triage_report_html(&r, &out);
		tnorm__alloc_fail_after(-1);
		assert_true(err == 0 || err == TNORM_ENOMEM);
		assert_true((err == 0) == (out != NULL));
		tnorm_free(out);
		if (err == 0)
			break;
	}
	assert_true(k < 400);
}

static void test_triage__refusals(void **state)
{
	tnorm_triage_options o = TNORM_TRIAGE_OPTIONS_INIT;
	tnorm_triage_result r;
	static const char *const argv[] = {"/bin/true", "{}", NULL};
	char dir[] = "/tmp/tnorm-triage-XXXXXX", hp[64], sub[80];
	FILE *f;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(hp, sizeof(hp), "%s/h.tnh", dir);
	assert_non_null(f = fopen(hp, "w"));
	fputs("pool int 2\n<int> := 1..3\nuse(<int>)\n", f);
	fclose(f);

	o.dir = dir;
	o.argv = argv;
	/* No harness: generic mode, where the harness file is no test (only h.tnh is there). */
	o.harness = NULL;
	unlink(hp);
	snprintf(sub, sizeof(sub), "%s/README.txt", dir);
	assert_non_null(f = fopen(sub, "w"));
	fputs("Command line used to find this crash:\n", f);
	fclose(f);
	assert_int_equal(tnorm_triage_run(&o, &r), TNORM_ENOTFOUND);
	assert_non_null(strstr(tnorm_error_last()->message, "no files to triage"));
	tnorm_triage_result_dispose(&r);
	unlink(sub);
	assert_non_null(f = fopen(hp, "w"));
	fputs("pool int 2\n<int> := 1..3\nuse(<int>)\n", f);
	fclose(f);
	o.argv = NULL;
	assert_int_equal(tnorm_triage_run(&o, &r), TNORM_EINVALID); /* no command */
	o.argv = argv;
	o.harness = hp;
	o.version = 99;
	assert_int_equal(tnorm_triage_run(&o, &r), TNORM_EINVALID);
	o.version = TNORM_TRIAGE_OPTIONS_VERSION;
	/* A folder without tests: nothing is made in it. */
	assert_int_equal(tnorm_triage_run(&o, &r), TNORM_ENOTFOUND);
	assert_non_null(strstr(tnorm_error_last()->message, "no tests (*.t) to triage"));
	tnorm_triage_result_dispose(&r);
	snprintf(sub, sizeof(sub), "%s/triage", dir);
	assert_int_equal(access(sub, F_OK), -1);
	snprintf(sub, sizeof(sub), "%s/nosuch", dir);
	o.dir = sub;
	assert_int_equal(tnorm_triage_run(&o, &r), TNORM_EIO);
	assert_non_null(strstr(tnorm_error_last()->message, "cannot read the folder"));
	tnorm_triage_result_dispose(&r);
	tnorm_triage_result_dispose(&r); /* twice is fine */
	assert_int_equal(tnorm_triage_run(&o, NULL), TNORM_EINVALID);
	assert_string_equal(tnorm_triage_status_name(TNORM_TRIAGE_FLAKY), "flaky");
	assert_string_equal(tnorm_triage_status_name(TNORM_TRIAGE_PENDING), "pending");
	unlink(hp);
	rmdir(dir);
}

/* Every test already done (its result file there, for its content): the job runs nothing, with
 * many workers done before the caller waits for them (that race once left it waiting forever),
 * and reports from the files. */
static void test_triage__all_done(void **state)
{
	tnorm_triage_options o = TNORM_TRIAGE_OPTIONS_INIT;
	tnorm_triage_result r;
	static const char *const argv[] = {"/nonexistent/program", "{}", NULL};
	static const char test[] = "int0 = 1\nuse(int0)\n";
	char dir[] = "/tmp/tnorm-triage-XXXXXX", p[256], hex[17];
	FILE *f;
	int k, round;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/h.tnh", dir);
	assert_non_null(f = fopen(p, "w"));
	fputs("pool int 2\n<int> := 1..3\nuse(<int>)\n", f);
	fclose(f);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)tnorm__hash64(test, strlen(test), 0));
	snprintf(p, sizeof(p), "%s/out", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/out/results", dir);
	mkdir(p, 0755);
	for (k = 0; k < 5; k++) {
		snprintf(p, sizeof(p), "%s/t%d.t", dir, k);
		assert_non_null(f = fopen(p, "w"));
		fputs(test, f);
		fclose(f);
		snprintf(p, sizeof(p), "%s/out/results/t%d.t.json", dir, k);
		assert_non_null(f = fopen(p, "w"));
		fprintf(f, "{\"test\": \"t%d.t\", \"hash\": \"%s\", \"status\": \"ok\", \"complete\": true, "
		           "\"message\": \"\", \"signature\": \"SIGABRT at f (a.c:%d)\", \"key\": "
		           "\"SIGABRT at f (a.c:%d)\", \"original_steps\": 2, \"reduced_steps\": 2, "
		           "\"normal_steps\": 2, \"runs\": 0, \"seconds\": 0, \"reduced\": \"%s\", "
		           "\"normal\": \"int0 = 1\\nuse(int0)\\n\"}\n", k, hex, k % 2, k % 2, "r");
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/h.tnh", dir);
	o.dir = dir;
	o.harness = p;
	o.argv = argv;
	o.generalize = -1;
	o.jobs = 8;
	{
		char out[160];
		snprintf(out, sizeof(out), "%s/out", dir);
		o.out = out;
		for (round = 0; round < 20; round++) {
			assert_int_equal(tnorm_triage_run(&o, &r), 0);
			assert_true(r.complete);
			assert_int_equal(r.ntests, 5);
			assert_int_equal(r.done, 5);
			assert_int_equal(r.fresh, 0);
			assert_int_equal(r.failing, 5);
			assert_int_equal(r.signatures, 2);
			assert_int_equal(r.nbuckets, 2);
			assert_int_equal(r.buckets[0].count, 3);
			assert_int_equal(r.tests[1].bucket, 2);
			if (round == 19) { /* the report is the caller's: the job writes none */
				snprintf(p, sizeof(p), "%s/report.html", out);
				assert_int_equal(access(p, F_OK), -1);
				assert_int_equal(tnorm_triage_report_write(&r), 0);
			}
			tnorm_triage_result_dispose(&r);
		}
		snprintf(p, sizeof(p), "%s/report.html", out);
		assert_int_equal(access(p, F_OK), 0);
		/* Shards (with a database, here a file): each does its own tests, no report; the
		 * shards' tests together are the folder's. */
		snprintf(p, sizeof(p), "%s/report.html", out);
		unlink(p);
		snprintf(p, sizeof(p), "%s/h.tnh", dir);
		{
			char db[180], rep[200];
			size_t sum = 0;
			unsigned k2;
			snprintf(db, sizeof(db), "%s/shards.db", dir);
			o.db = db;
			o.shards = 3;
			for (k2 = 0; k2 < 3; k2++) {
				size_t i;
				o.shard = k2;
				assert_int_equal(tnorm_triage_run(&o, &r), 0);
				assert_true(r.complete);
				assert_int_equal(r.total, 5);
				assert_int_equal(r.done, r.ntests);
				for (i = 0; i < r.ntests; i++)
					assert_int_equal(tnorm_triage_shard_of(r.tests[i].name, 3), k2);
				sum += r.ntests;
				tnorm_triage_result_dispose(&r);
			}
			assert_int_equal(sum, 5);
			snprintf(rep, sizeof(rep), "%s/report.html", out);
			assert_int_equal(access(rep, F_OK), -1); /* a shard writes no report */
			/* A version 1 struct has no shard fields: it is the whole folder. */
			o.version = 1;
			assert_int_equal(tnorm_triage_run(&o, &r), 0);
			assert_int_equal(r.ntests, 5);
			assert_int_equal(tnorm_triage_report_write(&r), 0);
			assert_int_equal(access(rep, F_OK), 0);
			tnorm_triage_result_dispose(&r);
			o.version = TNORM_TRIAGE_OPTIONS_VERSION;
			o.shard = 3;
			assert_int_equal(tnorm_triage_run(&o, &r), TNORM_EINVALID);
			assert_string_equal(tnorm_error_last()->message,
			                    "shard index 3 of 3 shards: it must be 0..shards-1");
			tnorm_triage_result_dispose(&r);
			o.shard = 0;
			o.db = NULL;
			assert_int_equal(tnorm_triage_run(&o, &r), TNORM_EINVALID);
			assert_string_equal(tnorm_error_last()->message,
			                    "shard 1/3: shards need a database (--db URL) where their "
			                    "results meet");
			tnorm_triage_result_dispose(&r);
		}
	}
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* K/N: its parse, with the exact messages, and a partition of any names. */
static void test_triage__shard_parse(void **state)
{
	static const char *const bad[] = {"", "1", "1/", "/2", "a/2", "1/2x", "-1/2", "1 /2",
	                                  "1234567890/2", NULL};
	unsigned k = 9, n = 9, counts[4] = {0, 0, 0, 0};
	char name[32], msg[80];
	int i;
	(void)state;
	/* 1-based (issue 32, item 9): K/N is part K of 1..N, the index of the options K - 1. */
	assert_int_equal(tnorm_triage_shard_parse("1/1", &k, &n), 0);
	assert_true(k == 0 && n == 1);
	assert_int_equal(tnorm_triage_shard_parse("4/4", &k, &n), 0);
	assert_true(k == 3 && n == 4);
	for (i = 0; bad[i]; i++) {
		assert_int_equal(tnorm_triage_shard_parse(bad[i], &k, &n), TNORM_EINVALID);
		snprintf(msg, sizeof(msg), "shard '%s': expected K/N, two numbers such as 1/4", bad[i]);
		assert_string_equal(tnorm_error_last()->message, msg);
	}
	assert_int_equal(tnorm_triage_shard_parse("5/4", &k, &n), TNORM_EINVALID);
	assert_string_equal(tnorm_error_last()->message,
	                    "shard '5/4': K must be 1..N (shards count from 1: 1/4 .. 4/4)");
	assert_int_equal(tnorm_triage_shard_parse("0/4", &k, &n), TNORM_EINVALID);
	assert_string_equal(tnorm_error_last()->message,
	                    "shard '0/4': K must be 1..N (shards count from 1: 1/4 .. 4/4)");
	assert_int_equal(tnorm_triage_shard_parse("0/0", &k, &n), TNORM_EINVALID);
	assert_int_equal(tnorm_triage_shard_parse(NULL, &k, &n), TNORM_EINVALID);
	/* Every name is in exactly one shard, the same one every time, and the shards are even. */
	for (i = 0; i < 4000; i++) {
		unsigned s;
		snprintf(name, sizeof(name), "id:%06d,sig:06", i);
		s = tnorm_triage_shard_of(name, 4);
		assert_true(s < 4);
		assert_int_equal(s, tnorm_triage_shard_of(name, 4));
		counts[s]++;
	}
	for (i = 0; i < 4; i++)
		assert_true(counts[i] > 850 && counts[i] < 1150);
	assert_int_equal(tnorm_triage_shard_of("x", 1), 0);
	assert_int_equal(tnorm_triage_shard_of("x", 0), 0);
}

/* Write `text` to DIR/NAME. */
static void put_file(const char *dir, const char *name, const char *text, size_t len)
{
	char p[256];
	FILE *f;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	assert_non_null(f = fopen(p, "wb"));
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* A result file for crash file NAME (content `test`) whose normal form is `hex`. */
static void put_result(const char *out, const char *name, const char *test, const char *hex)
{
	char p[256], h[17], *line = NULL;
	size_t n;
	FILE *f;
	snprintf(h, sizeof(h), "%016llx", (unsigned long long)tnorm__hash64(test, strlen(test), 0));
	snprintf(p, sizeof(p), "%s/results/%s.json", out, name);
	assert_non_null(f = open_memstream(&line, &n));
	fprintf(f, "{\"test\": \"%s\", \"hash\": \"%s\", \"status\": \"ok\", \"complete\": true, "
	           "\"message\": \"\", \"signature\": \"SIGSEGV at f (a.c:1)\", \"key\": \"SIGSEGV at f "
	           "(a.c:1)\", \"original_steps\": 9, \"reduced_steps\": 3, \"normal_steps\": 3, "
	           "\"runs\": 0, \"seconds\": 0, \"reduced\": \"r\", \"normal\": \"x\\u0000\", "
	           "\"normal_hex\": \"%s\"}\n", name, h, hex);
	fclose(f);
	put_file(out, p + strlen(out) + 1, line, strlen(line));
	free(line);
}

/* Generic mode (no harness) on a crash folder whose tests are done: README.txt, libFuzzer's
 * timeout-* and slow-unit-*, hidden files and folders are no tests; normal forms with a NUL or
 * bytes that are not UTF-8 come back exactly from `normal_hex`, and normal forms are compared
 * byte for byte (x\0a and x\0b are two, though their readable text before the NUL is the same:
 * one bucket of one key, with two normal forms); each bucket's representative is written with
 * its exact bytes. */
static void test_triage__generic_folder(void **state)
{
	tnorm_triage_options o = TNORM_TRIAGE_OPTIONS_INIT;
	tnorm_triage_result r;
	static const char *const argv[] = {"/nonexistent/program", "@@", NULL};
	char dir[] = "/tmp/tnorm-triage-XXXXXX", out[128], p[256], *rep = NULL;
	size_t len = 0;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/triage", dir);
	mkdir(out, 0755);
	snprintf(p, sizeof(p), "%s/results", out);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/.tnorm", dir);
	mkdir(p, 0755);
	put_file(dir, "README.txt", "Command line used to find this crash:\n", 38);
	put_file(dir, "timeout-0123", "t", 1);
	put_file(dir, "slow-unit-0123", "s", 1);
	put_file(dir, ".cur_input", "c", 1);
	put_file(dir, "crash-01", "one", 3);
	put_file(dir, "id:000000,sig:11,src:000000,time:1,execs:2,op:havoc,rep:2", "two", 3);
	put_file(dir, "id:000001,sig:11,src:000000,time:3,execs:4,op:havoc,rep:8", "three", 5);
	put_result(out, "crash-01", "one", "7800ff61");
	put_result(out, "id:000000,sig:11,src:000000,time:1,execs:2,op:havoc,rep:2", "two", "7800ff61");
	put_result(out, "id:000001,sig:11,src:000000,time:3,execs:4,op:havoc,rep:8", "three",
	           "7800ff62");
	o.dir = dir;
	o.argv = argv;
	o.jobs = 2;
	o.thorough = 1; /* every test's own normal form (sampled, one would stand for all three) */
	assert_int_equal(tnorm_triage_run(&o, &r), 0);
	assert_int_equal(r.ntests, 3);
	assert_int_equal(r.fresh, 0);
	assert_string_equal(r.tests[0].name, "crash-01");
	assert_string_equal(r.unit, "bytes");
	/* One key, so one bucket (issue 27: buckets by fault); its two normal forms, told apart byte
	 * for byte, are counted, and the lowest is the representative's. */
	assert_int_equal(r.nbuckets, 1);
	assert_int_equal(r.distinct_normalized, 2);
	assert_int_equal(r.buckets[0].count, 3);
	assert_int_equal(r.buckets[0].nforms, 2);
	assert_int_equal(r.buckets[0].normal_len, 4);
	assert_memory_equal(r.buckets[0].normal, "x\0\xff" "a", 4);
	assert_null(r.buckets[0].annotated); /* no generalization without a harness */
	{
		char *json = NULL;
		assert_int_equal(tnorm_triage_report_json(&r, &json), 0);
		assert_non_null(strstr(json, "\"normal_form_hex\": \"7800ff61\", \"count\": 2, "
		                             "\"first\": \"crash-01\", \"normal_form_escaped\": "
		                             "\"x\\\\x00\\\\xffa\"}, {\"normal_form\": "));
		assert_non_null(strstr(json, "\"normal_form_hex\": \"7800ff62\", \"count\": 1, "
		                             "\"first\": \"id:000001,"));
		tnorm_free(json);
	}
	snprintf(p, sizeof(p), "%s/buckets/1-crash-01", out);
	assert_string_equal(r.buckets[0].file, p);
	assert_int_equal(tnorm_file_read(p, &rep, &len), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(rep, "x\0\xff" "a", 4);
	tnorm_free(rep);
	tnorm_triage_result_dispose(&r);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}


/* ---- the sampled triage's plan (triage_sample.c, issue 38) ---------------------------------- */

/* A failing test of the sampled triage: checked (minimized 0) or minimized into bucket b. */
static void sample_test(tnorm_triage_test *t, const char *name, const char *k, const char *stack,
                        long len, int minimized, size_t b)
{
	memset(t, 0, sizeof(*t));
	t->name = (char *)name;
	t->status = TNORM_TRIAGE_OK;
	t->key = (char *)k;
	t->signature = (char *)stack;
	t->original_steps = len;
	t->minimized = minimized;
	t->bucket = b;
}

static void test_triage__sample_plan(void **state)
{
	static const char A1[] = "SIGSEGV at f (a.c:1) <- g (a.c:5) <- main (a.c:9)",
	                  A2[] = "SIGSEGV at f (a.c:1) <- h (a.c:7) <- main (a.c:9)",
	                  B1[] = "SIGABRT at k (b.c:3) <- main (b.c:4)";
	tnorm_triage_test t[6];
	tnorm_triage_result r;
	unsigned char want[6];
	(void)state;
	memset(&r, 0, sizeof(r));
	r.tests = t;
	r.ntests = 6;
	/* Round 0: the smallest test of each key, whatever its stack. */
	sample_test(&t[0], "a", A1, A1, 30, 0, 0);
	sample_test(&t[1], "b", A1, A1, 10, 0, 0);
	sample_test(&t[2], "c", A1, A2, 20, 0, 0);
	sample_test(&t[3], "d", A1, A2, 25, 0, 0);
	sample_test(&t[4], "e", B1, B1, 5, 0, 0);
	sample_test(&t[5], "f", B1, B1, 50, 0, 0);
	memset(want, 0, sizeof(want));
	assert_int_equal(tnorm__sample_plan(&r, want), 2);
	assert_true(want[1] && want[4]);
	/* Round 1: key A agrees so far with one stack minimized: a second opinion from the other
	 * stack (its smallest); key B has one stack only: done. */
	t[1].minimized = 1;
	t[1].bucket = 1;
	t[4].minimized = 1;
	t[4].bucket = 2;
	memset(want, 0, sizeof(want));
	assert_int_equal(tnorm__sample_plan(&r, want), 1);
	assert_true(want[2]);
	/* Agreement on both stacks: the plan is complete. */
	t[2].minimized = 1;
	t[2].bucket = 1;
	memset(want, 0, sizeof(want));
	assert_int_equal(tnorm__sample_plan(&r, want), 0);
	/* Disagreement: every stack gets a second test (its longest), then a stack whose two
	 * disagree is minimized whole. */
	t[2].bucket = 3;
	memset(want, 0, sizeof(want));
	assert_int_equal(tnorm__sample_plan(&r, want), 2);
	assert_true(want[0] && want[3]);
	/* The plan does not depend on the order of the tests. */
	{
		tnorm_triage_test u[6];
		unsigned char w2[6];
		size_t i;
		for (i = 0; i < 6; i++)
			u[i] = t[5 - i];
		r.tests = u;
		memset(w2, 0, sizeof(w2));
		assert_int_equal(tnorm__sample_plan(&r, w2), 2);
		for (i = 0; i < 6; i++)
			assert_int_equal(w2[i], want[5 - i]);
		r.tests = t;
	}
}

static void test_triage__sample_assign(void **state)
{
	static const char A1[] = "SIGSEGV at f (a.c:1) <- g (a.c:5) <- main (a.c:9)",
	                  A2[] = "SIGSEGV at f (a.c:1) <- h (a.c:7) <- main (a.c:9)",
	                  A3[] = "SIGSEGV at f (a.c:1) <- g (a.c:5) <- x (a.c:2) <- main (a.c:9)",
	                  R1[] = "SIGSEGV at f (a.c:1) <- g (a.c:5) <- g (a.c:6) <- g (a.c:6) <- main (a.c:9)";
	tnorm_triage_test t[5];
	tnorm_triage_bucket b[2];
	tnorm_triage_result r;
	size_t i;
	(void)state;
	memset(&r, 0, sizeof(r));
	memset(b, 0, sizeof(b));
	r.tests = t;
	r.ntests = 5;
	r.buckets = b;
	r.nbuckets = 2;
	b[0].count = b[1].count = 1;
	sample_test(&t[0], "m1", A1, A1, 10, 1, 1);
	sample_test(&t[1], "m2", A1, A2, 12, 1, 2);
	sample_test(&t[2], "own", A1, A2, 40, 0, 0);  /* its stack's minimized test: m2 */
	sample_test(&t[3], "near", A1, A3, 40, 0, 0); /* no minimized test of its stack: nearest */
	sample_test(&t[4], "rec", A1, R1, 40, 0, 0);  /* a recursion deeper: m1's stack */
	assert_int_equal(tnorm__sample_assign(&r), 0);
	assert_int_equal(t[2].bucket, 2);
	assert_non_null(strstr(t[2].evidence, "stack as m2"));
	assert_int_equal(t[3].bucket, 1);
	assert_non_null(strstr(t[3].evidence, "nearest"));
	assert_int_equal(t[4].bucket, 1);
	assert_non_null(strstr(t[4].evidence, "stack as m1"));
	assert_int_equal(r.minimized, 2);
	assert_int_equal(r.assigned, 3);
	assert_int_equal(b[0].count, 3);
	assert_int_equal(b[1].count, 2);
	assert_int_equal(tnorm__sample_common_frames(A1, A3), 2);
	assert_int_equal(tnorm__sample_common_frames(A1, R1), 3);
	for (i = 2; i < 5; i++)
		tnorm_free(t[i].evidence);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_triage__report_json),
	        cmocka_unit_test(test_triage__report_html),
	        cmocka_unit_test(test_triage__record_summary_finish),
	        cmocka_unit_test(test_triage__report_large),
	        cmocka_unit_test(test_triage__report_oom),
	        cmocka_unit_test(test_triage__refusals),
	        cmocka_unit_test(test_triage__all_done),
	        cmocka_unit_test(test_triage__shard_parse),
	        cmocka_unit_test(test_triage__generic_folder),
	        cmocka_unit_test(test_triage__sample_plan),
	        cmocka_unit_test(test_triage__sample_assign),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

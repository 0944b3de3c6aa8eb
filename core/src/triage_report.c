/* SPDX-License-Identifier: MIT */
/*
 * triage_report.c - render a triage's result (triage.h) as report.json and report.html.
 *
 * The result is data; this module is the only place that knows what the report looks like, so
 * the CLI, the binding and the debugger plugins can hand a result to it and get the same bytes.
 * report.json is a jansson value rendered as every JSON of tnorm (core/src/json.h).  report.html
 * is one self-contained page, no scripts and nothing external, every string from a test or a
 * program escaped; its chart is an inline SVG with one group of three bars (original, reduced,
 * normalized length) per failing test.  (report.c is something else: sanitizer reports.)
 */
#include <string.h>

#include "tnorm/generic.h"
#include "tnorm/severity.h"
#include "tnorm/triage_report.h"

#include "common.h"
#include "json.h"

/* ---- report.json --------------------------------------------------------------------------- */

static int same_normal(const tnorm_triage_test *a, const tnorm_triage_test *b)
{
	return a->normal_len == b->normal_len &&
	       (a->normal_len == 0 || !memcmp(a->normal, b->normal, a->normal_len));
}

/* Bucket b's normal forms, lowest first (the representative's), each with its number of tests
 * and its first test: [{"normal_form", "count", "first"}, ...].  NULL when out of memory. */
static json_t *bucket_forms(const tnorm_triage_result *r, size_t b)
{
	json_t *forms = json_array();
	const tnorm_triage_test *last = NULL;
	size_t n;
	int bad = !forms;
	for (n = 0; n < r->buckets[b].nforms && !bad; n++) {
		/* the next form above `last` in shortlex, and its count */
		const tnorm_triage_test *next = NULL;
		size_t i, count = 0;
		json_t *o;
		for (i = 0; i < r->ntests; i++) {
			const tnorm_triage_test *t = &r->tests[i];
			if (t->bucket != b + 1 || (last && tnorm_shortlex_cmp(t->normal, t->normal_len,
			                                                      last->normal, last->normal_len) <= 0))
				continue;
			if (!next || tnorm_shortlex_cmp(t->normal, t->normal_len, next->normal,
			                                next->normal_len) < 0)
				next = t;
		}
		if (!next)
			break;
		for (i = 0; i < r->ntests; i++)
			count += r->tests[i].bucket == b + 1 && same_normal(&r->tests[i], next);
		if (!(o = json_object())) {
			bad = 1;
			break;
		}
		bad |= tnorm__json_set_bytes(o, "normal_form", "normal_form_hex", next->normal,
		                             next->normal_len);
		bad |= json_object_set_new(o, "count", json_integer((json_int_t)count));
		bad |= json_object_set_new(o, "first", tnorm__json_str(next->name));
		bad |= json_array_append_new(forms, o);
		last = next;
	}
	if (bad) {
		json_decref(forms);
		return NULL;
	}
	return forms;
}

static json_t *bucket_json(const tnorm_triage_result *r, size_t b)
{
	const tnorm_triage_bucket *bk = &r->buckets[b];
	json_t *o = json_object(), *tests = json_array();
	tnorm_severity sev;
	size_t i;
	int bad = 0;
	for (i = 0; i < r->ntests && tests && !bad; i++)
		if (r->tests[i].bucket == b + 1)
			bad |= json_array_append_new(tests, tnorm__json_str(r->tests[i].name));
	bad |= json_object_set_new(o, "id", json_integer((json_int_t)b + 1));
	bad |= json_object_set_new(o, "count", json_integer((json_int_t)bk->count));
	bad |= json_object_set_new(o, "signature", tnorm__json_str(bk->signature));
	tnorm_severity_of_text(&sev, bk->signature ? bk->signature : "");
	bad |= json_object_set_new(o, "severity", json_pack("{s:s,s:s}", "class", sev.name, "reason",
	                                                      sev.reason));
	bad |= json_object_set_new(o, "representative",
	                           tnorm__json_str(r->tests[bk->representative].name));
	bad |= tnorm__json_set_bytes(o, "normal_form", "normal_form_hex", bk->normal, bk->normal_len);
	bad |= json_object_set_new(o, "annotated", tnorm__json_str(bk->annotated));
	bad |= json_object_set_new(o, "file", tnorm__json_str(bk->file));
	bad |= json_object_set_new(o, "tests", tests);
	bad |= json_object_set_new(o, "normal_forms", bucket_forms(r, b));
	return tnorm__json_done(o, bad);
}

static json_t *test_json(const tnorm_triage_test *t)
{
	json_t *o = json_object();
	int bad = 0;
	bad |= json_object_set_new(o, "test", tnorm__json_str(t->name));
	bad |= json_object_set_new(o, "status", json_string(tnorm_triage_status_name(t->status)));
	bad |= json_object_set_new(o, "bucket", json_integer((json_int_t)t->bucket));
	bad |= json_object_set_new(o, "signature", tnorm__json_str(t->signature));
	bad |= json_object_set_new(o, "original_steps", json_integer(t->original_steps));
	bad |= json_object_set_new(o, "reduced_steps", json_integer(t->reduced_steps));
	bad |= json_object_set_new(o, "normal_steps", json_integer(t->normal_steps));
	bad |= json_object_set_new(o, "runs", json_integer((json_int_t)t->runs));
	bad |= json_object_set_new(o, "polished", json_boolean(t->polished));
	/* How it got its bucket: minimized, or assigned on evidence (from one run). */
	if (t->status == TNORM_TRIAGE_OK) {
		bad |= json_object_set_new(o, "method", json_string(t->minimized ? "minimized" : "assigned"));
		bad |= json_object_set_new(o, "evidence", tnorm__json_str(t->evidence));
	}
	return tnorm__json_done(o, bad);
}

int tnorm_triage_report_json(const tnorm_triage_result *r, char **out)
{
	json_t *o, *buckets, *results;
	char *text = NULL;
	size_t i;
	int bad = 0, err;
	if (!out || !r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_json: no result");
	*out = NULL;
	o = json_object();
	buckets = json_array();
	results = json_array();
	for (i = 0; i < r->nbuckets && buckets && !bad; i++)
		bad |= json_array_append_new(buckets, bucket_json(r, i));
	for (i = 0; i < r->ntests && results && !bad; i++)
		bad |= json_array_append_new(results, test_json(&r->tests[i]));
	bad |= json_object_set_new(o, "corpus", tnorm__json_str(r->corpus));
	bad |= json_object_set_new(o, "unit", json_string(r->unit ? r->unit : "steps"));
	bad |= json_object_set_new(o, "tests", json_integer((json_int_t)r->ntests));
	bad |= json_object_set_new(o, "failing", json_integer((json_int_t)r->failing));
	bad |= json_object_set_new(o, "distinct_signatures", json_integer((json_int_t)r->signatures));
	bad |= json_object_set_new(o, "distinct_reduced", json_integer((json_int_t)r->distinct_reduced));
	bad |= json_object_set_new(o, "distinct_normalized",
	                           json_integer((json_int_t)r->distinct_normalized));
	bad |= json_object_set_new(o, "minimized", json_integer((json_int_t)r->minimized));
	bad |= json_object_set_new(o, "assigned", json_integer((json_int_t)r->assigned));
	bad |= json_object_set_new(o, "polish",
	                           json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}", "forms",
	                                     (json_int_t)r->polish_forms, "worked_on",
	                                     (json_int_t)r->polished, "complete",
	                                     (json_int_t)r->polish_complete, "lowered",
	                                     (json_int_t)r->polish_lowered, "runs",
	                                     (json_int_t)r->polish_runs, "budget",
	                                     (json_int_t)r->polish_budget));
	bad |= json_object_set_new(o, "buckets", buckets);
	bad |= json_object_set_new(o, "results", results);
	if ((err = tnorm__json_dump(&text, o, bad)) < 0)
		return err;
	/* One line and its newline, as the CLI prints every JSON text. */
	{
		size_t n = strlen(text);
		char *line = tnorm__realloc(text, n + 2);
		if (!line) {
			tnorm_free(text);
			return TNORM_ENOMEM;
		}
		memcpy(line + n, "\n", 2);
		*out = line;
	}
	return 0;
}

/* ---- report.html ----------------------------------------------------------------------------- */

/* Any bytes as the page's text: &, <, > and " as entities; a byte that is not shown as it is (not
 * UTF-8, or a control character: with `lines` newline and tab are shown) as \xNN, so that the
 * page, declared UTF-8, is valid UTF-8 whatever a file name holds (issue 39, item 13). */
static int put_html_esc(tnorm__buf *b, const char *s, size_t len, int lines)
{
	size_t i = 0, n;
	int err = 0;
	while (i < len && err == 0) {
		if ((n = tnorm__text_shown(s + i, len - i, lines)) == 0) {
			err = tnorm__buf_printf(b, "\\x%02x", (unsigned char)s[i]);
			n = 1;
		} else if (s[i] == '<') {
			err = tnorm__buf_puts(b, "&lt;");
		} else if (s[i] == '>') {
			err = tnorm__buf_puts(b, "&gt;");
		} else if (s[i] == '&') {
			err = tnorm__buf_puts(b, "&amp;");
		} else if (s[i] == '"') {
			err = tnorm__buf_puts(b, "&quot;");
		} else {
			err = tnorm__buf_put(b, s + i, n);
		}
		i += n;
	}
	return err;
}

/* A text (a signature, a message, a test): lines kept. */
static int put_html(tnorm__buf *b, const char *s)
{
	return s ? put_html_esc(b, s, strlen(s), 1) : 0;
}

/* Any bytes (a normal form without a harness), escaped as put_html does. */
static int put_html_bytes(tnorm__buf *b, const char *s, size_t len)
{
	return put_html_esc(b, s, len, 1);
}

/* A file name: a newline or a tab in it shown as \xNN too. */
static int put_html_name(tnorm__buf *b, const char *s)
{
	return s ? put_html_esc(b, s, strlen(s), 0) : 0;
}

/* The chart: per failing test, bars of its original, reduced and normalized length. */
static int put_chart(tnorm__buf *h, const tnorm_triage_result *r)
{
	static const char *const col[3] = {"#bbb", "#6a9fd4", "#d4662a"};
	const int W = 860, H = 260, L = 40, B = 30;
	size_t i, k = 0, m = 0;
	long maxlen = 1;
	int err = 0;
	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].status == TNORM_TRIAGE_OK) {
			m++;
			if (r->tests[i].original_steps > maxlen)
				maxlen = r->tests[i].original_steps;
		}
	err |= tnorm__buf_printf(h, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	                            "role=\"img\" aria-label=\"test length: original, reduced, "
	                            "normalized\">\n", W, H);
	err |= tnorm__buf_printf(h, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n",
	                         L, H - B, W, H - B);
	err |= tnorm__buf_printf(h, "<text x=\"4\" y=\"14\" font-size=\"11\">%ld %s</text>\n", maxlen,
	                         r->unit ? r->unit : "steps");
	err |= tnorm__buf_printf(h, "<text x=\"4\" y=\"%d\" font-size=\"11\">0</text>\n", H - B);
	for (i = 0; i < r->ntests && m && err == 0; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		double slot = (double)(W - L) / (double)m, bw = slot / 3.5;
		double x = L + slot * (double)k;
		long v[3];
		int c;
		if (t->status != TNORM_TRIAGE_OK)
			continue;
		v[0] = t->original_steps;
		v[1] = t->reduced_steps;
		v[2] = t->normal_steps;
		for (c = 0; c < 3; c++) {
			double hh = (double)(H - B - 20) * (double)(v[c] < 0 ? 0 : v[c]) / (double)maxlen;
			err |= tnorm__buf_printf(h, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			                            "fill=\"%s\"><title>", x + bw * c, (double)(H - B) - hh,
			                         bw, hh, col[c]);
			err |= put_html_name(h, t->name);
			err |= tnorm__buf_printf(h, ": %ld</title></rect>\n", v[c]);
		}
		k++;
	}
	err |= tnorm__buf_printf(h, "<text x=\"%d\" y=\"%d\" font-size=\"11\"><tspan fill=\"#888\">"
	                            "&#9632; original</tspan>  <tspan fill=\"#6a9fd4\">&#9632; reduced"
	                            "</tspan>  <tspan fill=\"#d4662a\">&#9632; normalized</tspan>  "
	                            "(one group per failing test)</text>\n</svg>\n", L, H - 8);
	return err ? TNORM_ENOMEM : 0;
}

static int put_bucket_table(tnorm__buf *h, const tnorm_triage_result *r)
{
	size_t b;
	int err = 0;
	err |= tnorm__buf_printf(h, "<h2>Buckets</h2>\n<table id=\"buckets\">\n<thead><tr><th>bucket</th>"
	                            "<th>tests</th><th>signature</th><th>representative</th><th>%s</th>"
	                            "<th>severity</th></tr></thead>\n<tbody>\n", r->unit ? r->unit : "steps");
	for (b = 0; b < r->nbuckets && err == 0; b++) {
		const tnorm_triage_test *rep = &r->tests[r->buckets[b].representative];
		tnorm_severity sev;
		tnorm_severity_of_text(&sev, r->buckets[b].signature ? r->buckets[b].signature : "");
		err |= tnorm__buf_printf(h, "<tr><td><a href=\"#bucket-%zu\">%zu</a></td><td>%zu</td>"
		                            "<td><code>", b + 1, b + 1, r->buckets[b].count);
		err |= put_html(h, r->buckets[b].signature);
		err |= tnorm__buf_puts(h, "</code></td><td>");
		err |= put_html_name(h, rep->name);
		err |= tnorm__buf_printf(h, "</td><td>%ld</td><td title=\"%s\">%s</td></tr>\n",
		                         rep->normal_steps, sev.reason, sev.name);
	}
	err |= tnorm__buf_puts(h, "</tbody>\n</table>\n");
	return err ? TNORM_ENOMEM : 0;
}

/* A bucket's normal forms other than its representative's, with their counts (issue 27: one
 * bucket per fault, whatever forms its files ended in). */
static int put_other_forms(tnorm__buf *h, const tnorm_triage_result *r, size_t b)
{
	json_t *forms = bucket_forms(r, b);
	size_t k;
	int err = !forms;
	err |= tnorm__buf_printf(h, "<p>%zu normal forms; besides the one above:</p>\n<ul>\n",
	                         r->buckets[b].nforms);
	for (k = 1; forms && k < json_array_size(forms) && err == 0; k++) {
		json_t *f = json_array_get(forms, k);
		const char *hex = json_string_value(json_object_get(f, "normal_form_hex"));
		const char *text = json_string_value(json_object_get(f, "normal_form"));
		err |= tnorm__buf_printf(h, "<li>%lld tests (first: ",
		                         (long long)json_integer_value(json_object_get(f, "count")));
		err |= put_html_name(h, json_string_value(json_object_get(f, "first")));
		err |= tnorm__buf_puts(h, "): <code>");
		err |= hex ? tnorm__buf_printf(h, "hex %s", hex) : put_html(h, text ? text : "");
		err |= tnorm__buf_puts(h, "</code></li>\n");
	}
	err |= tnorm__buf_puts(h, "</ul>\n");
	json_decref(forms);
	return err ? TNORM_ENOMEM : 0;
}

/* Each bucket's annotated test and its tests; then the tests that are not in a bucket. */
static int put_buckets(tnorm__buf *h, const tnorm_triage_result *r)
{
	size_t b, i, shown;
	int err = 0;
	for (b = 0; b < r->nbuckets && err == 0; b++) {
		const tnorm_triage_bucket *bk = &r->buckets[b];
		tnorm_severity sev;
		tnorm_severity_of_text(&sev, bk->signature ? bk->signature : "");
		err |= tnorm__buf_printf(h, "<h2 id=\"bucket-%zu\">Bucket %zu: %zu tests</h2>\n<p><code>",
		                         b + 1, b + 1, bk->count);
		err |= put_html(h, bk->signature);
		err |= tnorm__buf_printf(h, "</code></p>\n<p class=\"severity\">Severity: <strong>%s"
		                            "</strong> (%s)</p>\n<pre>", sev.name, sev.reason);
		err |= bk->annotated ? put_html(h, bk->annotated)
		                     : put_html_bytes(h, bk->normal, bk->normal_len);
		err |= tnorm__buf_puts(h, "</pre>\n");
		if (bk->nforms > 1)
			err |= put_other_forms(h, r, b);
		err |= tnorm__buf_puts(h, "<p>Tests: ");
		for (i = 0, shown = 0; i < r->ntests; i++)
			if (r->tests[i].bucket == b + 1) {
				if (shown++)
					err |= tnorm__buf_puts(h, ", ");
				err |= put_html_name(h, r->tests[i].name);
			}
		err |= tnorm__buf_puts(h, "</p>\n");
	}
	for (i = 0, shown = 0; i < r->ntests && err == 0; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		if (t->status == TNORM_TRIAGE_OK)
			continue;
		if (!shown++)
			err |= tnorm__buf_puts(h, "<h2>Not triaged</h2>\n<ul>\n");
		err |= tnorm__buf_puts(h, "<li>");
		err |= put_html_name(h, t->name);
		err |= tnorm__buf_printf(h, ": %s ", tnorm_triage_status_name(t->status));
		err |= put_html(h, t->message ? t->message : "");
		err |= tnorm__buf_puts(h, "</li>\n");
	}
	if (shown)
		err |= tnorm__buf_puts(h, "</ul>\n");
	return err ? TNORM_ENOMEM : 0;
}

int tnorm_triage_report_html(const tnorm_triage_result *r, char **out)
{
	tnorm__buf h = TNORM__BUF_INIT;
	int err = 0;
	if (!out || !r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_html: no result");
	*out = NULL;
	err |= tnorm__buf_puts(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	                           "<title>tnorm triage report</title>\n<style>\n"
	                           "body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}\n"
	                           "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid "
	                           "#ccc;padding:.3em .6em;text-align:left;vertical-align:top}th{"
	                           "background:#f3f3f3}\npre{background:#f8f8f8;padding:.8em;border:1px "
	                           "solid #ddd;overflow:auto}\ncode{font-size:90%}\n</style>\n</head>\n"
	                           "<body>\n<h1>tnorm triage</h1>\n<p>Corpus <code>");
	err |= put_html_name(&h, r->corpus);
	err |= tnorm__buf_printf(&h, "</code>: %zu tests, %zu failing, %zu distinct signatures, %zu "
	                             "distinct reduced tests, <strong>%zu distinct normalized tests"
	                             "</strong> in %zu buckets.</p>\n", r->ntests, r->failing,
	                         r->signatures, r->distinct_reduced, r->distinct_normalized,
	                         r->nbuckets);
	if (err == 0)
		err = put_bucket_table(&h, r);
	err |= tnorm__buf_puts(&h, "<h2>Test length: original &rarr; reduced &rarr; normalized</h2>\n");
	if (err == 0)
		err = put_chart(&h, r);
	if (err == 0)
		err = put_buckets(&h, r);
	err |= tnorm__buf_puts(&h, "</body>\n</html>\n");
	if (err || !(*out = tnorm__buf_detach(&h))) {
		tnorm__buf_dispose(&h);
		return tnorm__error_set(TNORM_ENOMEM, "out of memory while writing the report");
	}
	return 0;
}

/* OUT/NAME := text, atomically. */
static int write_into(const char *dir, const char *name, const char *text)
{
	tnorm__buf p = TNORM__BUF_INIT;
	int err = tnorm__buf_printf(&p, "%s/%s", dir, name);
	if (err == 0)
		err = tnorm_file_write_atomic(p.ptr, text, strlen(text));
	tnorm__buf_dispose(&p);
	return err;
}

int tnorm_triage_report_write(const tnorm_triage_result *r)
{
	char *json = NULL, *html = NULL;
	int err;
	if (!r || !r->out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_write: no output folder");
	if ((err = tnorm_triage_report_json(r, &json)) == 0 &&
	    (err = tnorm_triage_report_html(r, &html)) == 0 &&
	    (err = write_into(r->out, "report.json", json)) == 0)
		err = write_into(r->out, "report.html", html);
	tnorm_free(json);
	tnorm_free(html);
	return err;
}

/* SPDX-License-Identifier: MIT */
/*
 * triage_report.c - render a triage's result (triage.h) as report.json and report.html.
 *
 * The result is data; this module is the only place that knows what the report looks like, so
 * the CLI, the binding and the debugger plugins can hand a result to it and get the same bytes.
 * report.json is a jansson value rendered as every JSON of tnorm (core/src/json.h).  report.html
 * is one self-contained page, no scripts and nothing external: a bug list (issue 40, item 1), one
 * section per bucket in the order tnorm_triage_report_order gives (the most severe, then the most
 * tests), each bucket's crash state cut from its representative's own signature by
 * tnorm_signature_text_shown (the engines' frames left out).  Its charts are inline SVG whose
 * bars do not grow with the tests (a bar per bucket, a bar per power-of-two range of length, on
 * log scales), so that a page of 10 tests and one of 10,000 both read.  Every byte from a test or
 * a program is escaped one way (tnorm__buf_put_escaped: printable ASCII, \\ and \xNN), then as
 * HTML, so the page is ASCII.  The counts in words and the order are this module's too, so that
 * the CLI's summary says what the page says.  (report.c is something else: sanitizer reports.)
 */
#include <math.h>
#include <string.h>

#include "tnorm/generic.h"
#include "tnorm/severity.h"
#include "tnorm/triage_report.h"

#include "common.h"
#include "json.h"
#include "triage_internal.h"
#include "signature_internal.h"

/* ---- what every front end shows of a bucket -------------------------------------------------- */

/* Most severe first: the class (EXPLOITABLE, PROBABLY_EXPLOITABLE, UNKNOWN, NOT_EXPLOITABLE: a
 * kind no rule knows may still be serious, one that a rule calls harmless is last). */
static int severity_rank(const tnorm_triage_bucket *bk)
{
	tnorm_severity sev;
	tnorm_severity_of_text(&sev, bk->signature ? bk->signature : "");
	switch (sev.cls) {
	case TNORM_SEVERITY_EXPLOITABLE: return 0;
	case TNORM_SEVERITY_PROBABLY_EXPLOITABLE: return 1;
	case TNORM_SEVERITY_UNKNOWN: return 2;
	default: return 3;
	}
}

/* a before b in the report: more severe, then more files, then the lower number. */
static int comes_before(const tnorm_triage_result *r, size_t a, size_t b)
{
	int ra = severity_rank(&r->buckets[a]), rb = severity_rank(&r->buckets[b]);
	if (ra != rb)
		return ra < rb;
	if (r->buckets[a].count != r->buckets[b].count)
		return r->buckets[a].count > r->buckets[b].count;
	return a < b;
}

int tnorm_triage_report_order(const tnorm_triage_result *r, size_t *order)
{
	size_t i, k;
	if (!r || (!order && r->nbuckets))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_order: NULL argument");
	for (i = 0; i < r->nbuckets; i++) { /* insertion: a report has few buckets */
		for (k = i; k > 0 && comes_before(r, i, order[k - 1]); k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	return 0;
}

const char *tnorm_triage_bucket_signature(const tnorm_triage_bucket *bk)
{
	if (!bk)
		return "";
	return bk->own_signature ? bk->own_signature : bk->signature ? bk->signature : "";
}

#define PLURAL(n) ((n) == 1 ? "" : "s")

int tnorm_triage_report_counts_text(const tnorm_triage_result *r, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	size_t i, k, keys = 0, forms = 0;
	int err = 0;
	if (out)
		*out = NULL;
	if (!r || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_counts_text: NULL argument");
	for (i = 0; i < r->nbuckets; i++) {
		for (k = 0; k < i && strcmp(r->buckets[k].key, r->buckets[i].key); k++)
			;
		keys += k == i;
		forms += r->buckets[i].nforms;
	}
	err |= tnorm__buf_printf(&b, "%zu failing test%s %s %zu distinct signature%s (the failure's "
	                             "kind and throwing frame, as --match compares them)",
	                         r->failing, PLURAL(r->failing), r->failing == 1 ? "has" : "have",
	                         r->signatures, PLURAL(r->signatures));
	err |= tnorm__buf_printf(&b, " and make%s %zu bucket%s, one per bug", r->failing == 1 ? "s" : "",
	                         r->nbuckets, PLURAL(r->nbuckets));
	if (r->nbuckets > keys)
		err |= tnorm__buf_printf(&b, ": %zu more than signatures, because the coverage split "
		                             "kept apart tests of one signature whose normal forms' runs "
		                             "share too few executed lines (two bugs behind one crash "
		                             "site; each such bucket says so)", r->nbuckets - keys);
	if (r->signatures > keys)
		err |= tnorm__buf_printf(&b, "%s %zu signature%s no bucket: none of %s tests could be "
		                             "minimized", r->nbuckets > keys ? ";" : ":",
		                         r->signatures - keys, r->signatures - keys == 1 ? " has" : "s have",
		                         r->signatures - keys == 1 ? "its" : "their");
	err |= tnorm__buf_printf(&b, ".  Reduced, they are %zu distinct test%s; normalized, %zu "
	                             "distinct normal form%s", r->distinct_reduced,
	                         PLURAL(r->distinct_reduced), r->distinct_normalized,
	                         PLURAL(r->distinct_normalized));
	if (r->distinct_normalized > r->nbuckets)
		err |= tnorm__buf_puts(&b, ": tests of one bug may end in different normal forms, which "
		                           "the bucket of their signature merges (each bucket lists its "
		                           "other normal forms)");
	if (forms > r->distinct_normalized)
		err |= tnorm__buf_printf(&b, "; %zu normal forms counted bucket by bucket, as a form "
		                             "that tests of two signatures reached counts in each",
		                         forms);
	err |= tnorm__buf_puts(&b, ".");
	if (err) {
		tnorm__buf_dispose(&b);
		return tnorm__error_set(TNORM_ENOMEM, "out of memory");
	}
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
}

/*
 * A bucket's crash state, cut from the text tnorm_signature_text_shown makes of its shown
 * signature: the kind (asan:TYPE:ACCESS split into its type and access), the frames of the stack
 * (the engines' frames left out, at most 3 of the program's) and those of the free's stack.
 */
typedef struct crash_state {
	char *text;               /* owned */
	size_t kind_len;
	const char *type, *access; /* in text; access NULL when the kind names none */
	size_t type_len, access_len;
	const char *stack, *freed; /* the frames joined by " <- "; freed NULL when none */
	size_t stack_len, freed_len;
} crash_state;

static int crash_state_of(crash_state *c, const tnorm_triage_bucket *bk)
{
	const char *t, *colon, *end;
	int err;
	memset(c, 0, sizeof(*c));
	if ((err = tnorm_signature_text_shown(tnorm_triage_bucket_signature(bk), &c->text)) < 0)
		return err;
	t = c->text;
	end = t + strlen(t);
	c->kind_len = tnorm__signature_kind_len(t);
	c->type = t;
	c->type_len = c->kind_len;
	/* asan:TYPE:READ, msan:..., the sanitizers' kinds that carry an access */
	colon = memchr(t, ':', c->kind_len);
	if (colon && colon + 1 < t + c->kind_len) {
		const char *second = memchr(colon + 1, ':', (size_t)(t + c->kind_len - colon - 1));
		if (second && (!strncmp(second + 1, "READ", 4) || !strncmp(second + 1, "WRITE", 5))) {
			c->type = colon + 1;
			c->type_len = (size_t)(second - colon - 1);
			c->access = second + 1;
			c->access_len = (size_t)(t + c->kind_len - second - 1);
		}
	}
	if (t + c->kind_len == end)
		return 0;
	c->stack = t + c->kind_len + 4;
	c->freed = strstr(c->stack, "; freed at ");
	c->stack_len = (size_t)((c->freed ? c->freed : end) - c->stack);
	if (c->freed) {
		c->freed += 11;
		c->freed_len = (size_t)(end - c->freed);
	}
	return 0;
}

/* Lines line-1 .. line+1 of the source file `path` (as a line table names it): *from receives
 * the first one's number; NULL when the file cannot be read (a build elsewhere, a moved tree). */
static char *source_around(const char *path, uint32_t line, uint32_t *from)
{
	char *text = NULL, *out = NULL;
	size_t len = 0, i, start = 0, end;
	uint32_t n = 1;
	*from = line > 1 ? line - 1 : 1;
	if (!path || !line || tnorm_file_read(path, &text, &len) < 0) {
		tnorm_error_clear();
		return NULL;
	}
	for (i = 0; i < len && n < *from; i++)
		if (text[i] == '\n')
			n++;
	start = i;
	for (end = start; end < len && n <= line + 1; end++)
		if (text[end] == '\n')
			n++;
	if (end > start && text[end - 1] == '\n')
		end--;
	if (n >= *from && end > start)
		out = tnorm__strndup(text + start, end - start);
	tnorm_free(text);
	return out;
}

/* ---- report.json --------------------------------------------------------------------------- */

static int same_normal(const tnorm_triage_test *a, const tnorm_triage_test *b)
{
	return a->normal_len == b->normal_len &&
	       (a->normal_len == 0 || !memcmp(a->normal, b->normal, a->normal_len));
}

/* The `len` bytes at p escaped (tnorm_text_escape), as a JSON string. */
static json_t *json_escaped(const char *p, size_t len, int lines)
{
	tnorm__buf e = TNORM__BUF_INIT;
	json_t *v = NULL;
	if (tnorm__buf_put_escaped(&e, p ? p : "", p ? len : 0, lines) == 0)
		v = json_stringn(e.ptr ? e.ptr : "", e.len);
	tnorm__buf_dispose(&e);
	return v;
}

/* Bucket b's normal forms, lowest first (the representative's), each with its number of tests
 * and its first test: [{"normal_form", "count", "first", "normal_form_escaped"}, ...].  Only
 * minimized tests have a normal form (an assigned test was run once: its normal form is empty),
 * so only they count, as in the bucket's `nforms`.  NULL when out of memory.  `lines`: the
 * forms are a harness's tests (lines of steps). */
static json_t *bucket_forms(const tnorm_triage_result *r, size_t b)
{
	json_t *forms = json_array();
	const tnorm_triage_test *last = NULL;
	size_t n;
	int bad = !forms, lines = r->unit && !strcmp(r->unit, "steps");
	for (n = 0; n < r->buckets[b].nforms && !bad; n++) {
		/* the next form above `last` in shortlex, and its count */
		const tnorm_triage_test *next = NULL;
		size_t i, count = 0;
		json_t *o;
		for (i = 0; i < r->ntests; i++) {
			const tnorm_triage_test *t = &r->tests[i];
			if (t->bucket != b + 1 || !t->minimized ||
			    (last && tnorm_shortlex_cmp(t->normal, t->normal_len, last->normal,
			                                last->normal_len) <= 0))
				continue;
			if (!next || tnorm_shortlex_cmp(t->normal, t->normal_len, next->normal,
			                                next->normal_len) < 0)
				next = t;
		}
		if (!next)
			break;
		for (i = 0; i < r->ntests; i++)
			count += r->tests[i].bucket == b + 1 && r->tests[i].minimized &&
			         same_normal(&r->tests[i], next);
		if (!(o = json_object())) {
			bad = 1;
			break;
		}
		bad |= tnorm__json_set_bytes(o, "normal_form", "normal_form_hex", next->normal,
		                             next->normal_len);
		bad |= json_object_set_new(o, "count", json_integer((json_int_t)count));
		bad |= json_object_set_new(o, "first", tnorm__json_str(next->name));
		bad |= json_object_set_new(o, "normal_form_escaped",
		                           json_escaped(next->normal, next->normal_len, lines));
		bad |= json_array_append_new(forms, o);
		last = next;
	}
	if (bad) {
		json_decref(forms);
		return NULL;
	}
	return forms;
}

/* The length of the first frame of a stack's text s[0..len) ("a <- b <- c"); *next: the bytes
 * up to the next frame. */
static size_t first_frame(const char *s, size_t len, size_t *next)
{
	size_t i;
	for (i = 0; i + 4 <= len; i++)
		if (!memcmp(s + i, " <- ", 4)) {
			*next = i + 4;
			return i;
		}
	*next = len;
	return len;
}

/* The frames of a crash state's stack, escaped. */
static json_t *frames_json(const char *s, size_t len)
{
	json_t *a = json_array();
	size_t n, next;
	int bad = !a;
	for (; s && len && !bad; s += next, len -= next) {
		n = first_frame(s, len, &next);
		bad |= json_array_append_new(a, json_escaped(s, n, 0));
	}
	return tnorm__json_done(a, bad);
}

/* --explain's lines, best first, each with its source around it; null without --explain. */
static json_t *why_json(const tnorm_triage_bucket *bk)
{
	json_t *a;
	size_t i;
	int bad = 0;
	if (!bk->why)
		return json_null();
	a = json_array();
	for (i = 0; a && i < bk->why->nlines && !bad; i++) {
		const tnorm_why_line *l = &bk->why->lines[i];
		uint32_t from = 0;
		char *src = source_around(l->file, l->line, &from);
		bad |= json_array_append_new(
		    a, json_pack("{s:o,s:I,s:o,s:f,s:I,s:I,s:b,s:I,s:o}", "file", tnorm__json_str(l->file),
		                 "line", (json_int_t)l->line, "function",
		                 l->function ? tnorm__json_str(l->function) : json_null(), "score",
		                 l->score, "failing", (json_int_t)l->failing, "passing",
		                 (json_int_t)l->passing, "on_stack", l->on_stack != 0, "source_from",
		                 (json_int_t)from, "source", src ? tnorm__json_str(src) : json_null()));
		tnorm_free(src);
	}
	return tnorm__json_done(a, bad || !a);
}

/* What report.html shows of bucket b beside the older keys (issue 40, item 1): its rank, the
 * crash state, the representative's own signature, the normal form escaped and in hex, the
 * buckets that share its key. */
static int bucket_json_more(json_t *o, const tnorm_triage_result *r, size_t b, size_t rank)
{
	const tnorm_triage_bucket *bk = &r->buckets[b];
	json_t *same = json_array(), *state = json_object();
	crash_state c;
	size_t i, assigned = 0;
	int bad = !same || !state, lines = r->unit && !strcmp(r->unit, "steps");
	if (crash_state_of(&c, bk) < 0)
		bad = 1;
	for (i = 0; i < r->ntests; i++)
		assigned += r->tests[i].bucket == b + 1 && !r->tests[i].minimized;
	for (i = 0; i < r->nbuckets && same && !bad; i++)
		if (i != b && !strcmp(r->buckets[i].key, bk->key))
			bad |= json_array_append_new(same, json_integer((json_int_t)i + 1));
	if (!bad && state) {
		bad |= json_object_set_new(state, "text", json_escaped(c.text, strlen(c.text), 0));
		bad |= json_object_set_new(state, "kind", json_escaped(c.text, c.kind_len, 0));
		bad |= json_object_set_new(state, "type", json_escaped(c.type, c.type_len, 0));
		bad |= json_object_set_new(state, "access", c.access ? json_escaped(c.access,
		                                                                   c.access_len, 0)
		                                                       : json_null());
		bad |= json_object_set_new(state, "frames", frames_json(c.stack, c.stack_len));
		bad |= json_object_set_new(state, "freed_frames", frames_json(c.freed, c.freed_len));
	}
	bad |= json_object_set_new(o, "rank", json_integer((json_int_t)rank));
	bad |= json_object_set_new(o, "crash_state", state);
	bad |= json_object_set_new(o, "representative_signature",
	                           bk->own_signature ? tnorm__json_str(bk->own_signature) : json_null());
	bad |= json_object_set_new(o, "minimized", json_integer((json_int_t)(bk->count - assigned)));
	bad |= json_object_set_new(o, "assigned", json_integer((json_int_t)assigned));
	bad |= json_object_set_new(o, "normal_form_escaped",
	                           json_escaped(bk->normal, bk->normal_len, lines));
	bad |= json_object_set_new(o, "normal_form_bytes", tnorm__json_hex(bk->normal ? bk->normal : "",
	                                                               bk->normal ? bk->normal_len : 0));
	bad |= json_object_set_new(o, "same_signature_buckets", same);
	bad |= json_object_set_new(o, "why", why_json(bk));
	tnorm_free(c.text);
	return bad;
}

static json_t *bucket_json(const tnorm_triage_result *r, size_t b, size_t rank)
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
	bad |= json_object_set_new(o, "key", tnorm__json_str(bk->key));
	tnorm_severity_of_text(&sev, bk->signature ? bk->signature : "");
	bad |= json_object_set_new(o, "severity", json_pack("{s:s,s:s}", "class", sev.name, "reason",
	                                                      sev.reason));
	bad |= json_object_set_new(o, "representative",
	                           tnorm__json_str(r->tests[bk->representative].name));
	bad |= tnorm__json_set_bytes(o, "normal_form", "normal_form_hex", bk->normal, bk->normal_len);
	bad |= json_object_set_new(o, "annotated",
	                           bk->annotated ? tnorm__json_str(bk->annotated) : json_null());
	bad |= json_object_set_new(o, "file", tnorm__json_str(bk->file));
	bad |= json_object_set_new(o, "tests", tests);
	bad |= json_object_set_new(o, "normal_forms", bucket_forms(r, b));
	bad |= !o || bucket_json_more(o, r, b, rank);
	return tnorm__json_done(o, bad);
}

/* A test's entry: its record, the shape of its result file and of the binding's dict. */
static json_t *test_json(const tnorm_triage_test *t)
{
	return tnorm__triage_record(t, NULL, NULL);
}

/* report.json's "results": the array text, one test's tree at a time.  A whole tree of every
 * test costs about ten times its text (jansson's objects), so the report of a large folder is
 * rendered piece by piece (bench/README.md, "100,000 duplicate crashes"). */
static int results_text(const tnorm_triage_result *r, tnorm__buf *b)
{
	size_t i;
	int err = tnorm__buf_putc(b, '[');
	for (i = 0; i < r->ntests && err == 0; i++)
		if ((err = i ? tnorm__buf_puts(b, ", ") : 0) == 0)
			err = tnorm__json_dump_buf(b, test_json(&r->tests[i]), 0);
	return err ? err : tnorm__buf_putc(b, ']');
}

/* The report's text: `head` (every member before "results"), the results, `tail` (the members
 * after them), as one object, the way jansson renders one (", " between members, ": " after a
 * key).  Releases head and tail. */
static int report_text(const tnorm_triage_result *r, json_t *head, json_t *tail, int bad,
                       char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	size_t at = 0;
	int err;
	*out = NULL;
	/* head is "{...}" and tail is "{...}", both with members: head without its "}", then ", ",
	 * the results, ", " and tail without its "{"; one line and its newline, as the CLI prints
	 * every JSON text. */
	if ((err = tnorm__json_dump_buf(&b, head, bad)) == 0 &&
	    (b.len < 3 || b.ptr[b.len - 1] != '}'))
		err = tnorm__error_set(TNORM_ERROR, "report.json: unexpected rendering");
	if (err == 0) {
		b.ptr[--b.len] = '\0';
		if ((err = tnorm__buf_puts(&b, ", \"results\": ")) == 0 &&
		    (err = results_text(r, &b)) == 0 && (err = tnorm__buf_puts(&b, ", ")) == 0)
			at = b.len;
	}
	if (err == 0)
		err = tnorm__json_dump_buf(&b, tail, bad);
	else
		json_decref(tail);
	if (err == 0 && (b.len - at < 3 || b.ptr[at] != '{'))
		err = tnorm__error_set(TNORM_ERROR, "report.json: unexpected rendering");
	if (err == 0) {
		memmove(b.ptr + at, b.ptr + at + 1, b.len - at); /* the NUL too */
		b.len--;
		err = tnorm__buf_putc(&b, '\n');
	}
	if (err < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	*out = b.ptr;
	return 0;
}

int tnorm_triage_report_json(const tnorm_triage_result *r, char **out)
{
	json_t *o, *tail, *buckets, *order;
	char *counts = NULL;
	size_t i, *ord = NULL, *rank = NULL;
	int bad = 0;
	if (!out || !r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_json: no result");
	*out = NULL;
	if (!(ord = tnorm__calloc(r->nbuckets + 1, sizeof(*ord))) ||
	    !(rank = tnorm__calloc(r->nbuckets + 1, sizeof(*rank))) ||
	    tnorm_triage_report_order(r, ord) < 0 || tnorm_triage_report_counts_text(r, &counts) < 0) {
		tnorm_free(ord);
		tnorm_free(rank);
		return tnorm__error_set(TNORM_ENOMEM, "out of memory while writing the report");
	}
	for (i = 0; i < r->nbuckets; i++)
		rank[ord[i]] = i + 1;
	o = json_object();
	tail = json_object();
	buckets = json_array();
	order = json_array();
	for (i = 0; i < r->nbuckets && buckets && !bad; i++)
		bad |= json_array_append_new(buckets, bucket_json(r, i, rank[i]));
	for (i = 0; i < r->nbuckets && order && !bad; i++)
		bad |= json_array_append_new(order, json_integer((json_int_t)ord[i] + 1));
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
	/* "results" goes here (report_text) */
	bad |= json_object_set_new(tail, "bucket_order", order);
	bad |= json_object_set_new(tail, "counts_explained", tnorm__json_str(counts));
	tnorm_free(ord);
	tnorm_free(rank);
	tnorm_free(counts);
	return report_text(r, o, tail, bad, out);
}

/* ---- report.html ----------------------------------------------------------------------------- */

/* Any bytes as the page's text: escaped the one way (tnorm_text_escape: printable ASCII as it
 * is, \\ and \xNN), then &, <, > and " as entities.  The page is ASCII whatever the bytes. */
static int put_html_esc(tnorm__buf *h, const char *s, size_t len, int lines)
{
	tnorm__buf e = TNORM__BUF_INIT;
	size_t i, from = 0;
	int err = tnorm__buf_put_escaped(&e, s, len, lines);
	for (i = 0; err == 0 && i < e.len; i++) {
		const char *ent = e.ptr[i] == '<'   ? "&lt;"
		                  : e.ptr[i] == '>' ? "&gt;"
		                  : e.ptr[i] == '&' ? "&amp;"
		                  : e.ptr[i] == '"' ? "&quot;"
		                                    : NULL;
		if (!ent)
			continue;
		if ((err = tnorm__buf_put(h, e.ptr + from, i - from)) == 0)
			err = tnorm__buf_puts(h, ent);
		from = i + 1;
	}
	if (err == 0 && e.len)
		err = tnorm__buf_put(h, e.ptr + from, e.len - from);
	tnorm__buf_dispose(&e);
	return err;
}

/* A text (a signature, a message, a harness's test): lines kept. */
static int put_html(tnorm__buf *b, const char *s)
{
	return s ? put_html_esc(b, s, strlen(s), 1) : 0;
}

/* A file name, a line's text: a newline or a tab in it shown as \xNN too. */
static int put_html_name(tnorm__buf *b, const char *s)
{
	return s ? put_html_esc(b, s, strlen(s), 0) : 0;
}

/* The bytes at p as a hex dump: 16 a line, each line led by its offset. */
static int put_hex_dump(tnorm__buf *h, const char *p, size_t len)
{
	size_t i;
	int err = 0;
	for (i = 0; i < len && err == 0; i++) {
		if (i % 16 == 0)
			err = tnorm__buf_printf(h, "%s%08zx ", i ? "\n" : "", i);
		if (err == 0)
			err = tnorm__buf_printf(h, " %02x", (unsigned char)p[i]);
	}
	return err;
}

/* The charts' scale: a bar for 1 test and one for 10,000 both visible, 1, 10, 100 equally apart. */
static double log_scale(double v)
{
	return log10(1 + v);
}

#define CHART_ROWS 40 /* buckets drawn one by one; the rest as one row */

/* Files per bucket, in the report's order: a horizontal bar each on a log scale, its count
 * written beside it; past CHART_ROWS buckets, one row for the rest. */
static int put_bucket_chart(tnorm__buf *h, const tnorm_triage_result *r, const size_t *ord)
{
	const int W = 860, L = 130, ROW = 18, BAR = 600;
	size_t i, rows = r->nbuckets > CHART_ROWS ? CHART_ROWS + 1 : r->nbuckets, most = 1, rest = 0;
	int err = 0;
	for (i = 0; i < r->nbuckets; i++) {
		if (r->buckets[i].count > most)
			most = r->buckets[i].count;
		if (i >= CHART_ROWS)
			rest += r->buckets[ord[i]].count;
	}
	if (rest > most)
		most = rest;
	err |= tnorm__buf_printf(h, "<svg id=\"files-per-bucket\" xmlns=\"http://www.w3.org/2000/svg\" "
	                            "width=\"%d\" height=\"%zu\" role=\"img\" aria-label=\"files per "
	                            "bucket, log scale\">\n", W, rows * ROW + 24);
	for (i = 0; i < rows && err == 0; i++) {
		int last = i == CHART_ROWS;
		size_t b = last ? 0 : ord[i], n = last ? rest : r->buckets[b].count;
		double w = (double)BAR * log_scale((double)n) / log_scale((double)most);
		tnorm_severity sev;
		tnorm_severity_of_text(&sev, last ? "" : r->buckets[b].signature ? r->buckets[b].signature
		                                                                 : "");
		if (last)
			err |= tnorm__buf_printf(h, "<text x=\"0\" y=\"%zu\" font-size=\"12\">%zu more</text>\n",
			                         i * ROW + 13, r->nbuckets - CHART_ROWS);
		else
			err |= tnorm__buf_printf(h, "<a href=\"#bucket-%zu\"><text x=\"0\" y=\"%zu\" "
			                            "font-size=\"12\">bucket %zu</text></a>\n",
			                         b + 1, i * ROW + 13, b + 1);
		err |= tnorm__buf_printf(h, "<rect class=\"bar sev-%s\" x=\"%d\" y=\"%zu\" width=\"%.1f\" "
		                            "height=\"%d\"><title>%zu files</title></rect>\n",
		                         last ? "rest" : sev.name, L, i * ROW + 2, w < 1 ? 1 : w, ROW - 4, n);
		err |= tnorm__buf_printf(h, "<text x=\"%.1f\" y=\"%zu\" font-size=\"12\">%zu</text>\n",
		                         L + (w < 1 ? 1 : w) + 6, i * ROW + 13, n);
	}
	err |= tnorm__buf_printf(h, "<text x=\"%d\" y=\"%zu\" font-size=\"11\" fill=\"#666\">files "
	                            "per bucket (bar length on a log scale: 1, 10, 100 ... files "
	                            "equally apart)</text>\n</svg>\n", L, rows * ROW + 18);
	return err ? TNORM_ENOMEM : 0;
}

#define LEN_BINS 34 /* 0, then [2^k, 2^(k+1)) for k = 0..32 */

static size_t len_bin(long v)
{
	size_t k = 1;
	unsigned long u = (unsigned long)v;
	if (v <= 0)
		return 0;
	while (u > 1 && k < LEN_BINS - 1) {
		u >>= 1;
		k++;
	}
	return k;
}

/* Test length, original and normal form: how many tests in each power-of-two range of length
 * (a bar per range and series, heights on a log scale, counts written on them). */
static int put_length_chart(tnorm__buf *h, const tnorm_triage_result *r)
{
	static const char *const col[2] = {"#9aa3ad", "#d4662a"};
	size_t n[2][LEN_BINS], i, k, lo = LEN_BINS, hi = 0, most = 1;
	const int H = 120, B = 34, T = 16, W = 860, L = 10;
	int err = 0, c;
	memset(n, 0, sizeof(n));
	for (i = 0; i < r->ntests; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		if (t->status != TNORM_TRIAGE_OK)
			continue;
		if (t->original_steps >= 0)
			n[0][len_bin(t->original_steps)]++;
		if (t->normal_steps >= 0) /* assigned tests have none */
			n[1][len_bin(t->normal_steps)]++;
	}
	for (c = 0; c < 2; c++)
		for (k = 0; k < LEN_BINS; k++)
			if (n[c][k]) {
				lo = k < lo ? k : lo;
				hi = k > hi ? k : hi;
				most = n[c][k] > most ? n[c][k] : most;
			}
	if (lo > hi)
		return tnorm__buf_puts(h, "<p>No failing test.</p>\n") ? TNORM_ENOMEM : 0;
	err |= tnorm__buf_printf(h, "<svg id=\"lengths\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	                            "height=\"%d\" role=\"img\" aria-label=\"tests by length, original "
	                            "and normal form\">\n", W, H + B + T);
	for (k = lo; k <= hi && err == 0; k++) {
		double slot = (double)(W - L) / (double)(hi - lo + 1), bw = slot * 0.4;
		double x = L + slot * (double)(k - lo);
		char range[64];
		if (k == 0)
			snprintf(range, sizeof(range), "0");
		else if (k == 1)
			snprintf(range, sizeof(range), "1");
		else
			snprintf(range, sizeof(range), "%lu-%lu", 1ul << (k - 1), (1ul << k) - 1);
		for (c = 0; c < 2; c++) {
			double hh = (double)(H - T) * log_scale((double)n[c][k]) / log_scale((double)most);
			if (!n[c][k])
				continue;
			err |= tnorm__buf_printf(h, "<rect class=\"len\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			                            "height=\"%.1f\" fill=\"%s\"><title>%s: %zu tests of %s "
			                            "%s</title></rect>\n<text x=\"%.1f\" y=\"%.1f\" "
			                            "font-size=\"10\">%zu</text>\n",
			                         x + bw * c, (double)(T + H) - hh, bw, hh, col[c],
			                         c ? "normal form" : "original", n[c][k], range,
			                         r->unit ? r->unit : "steps", x + bw * c, (double)(T + H) - hh - 3,
			                         n[c][k]);
		}
		err |= tnorm__buf_printf(h, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%s</text>\n", x,
		                         T + H + 14, range);
	}
	err |= tnorm__buf_printf(h, "<text x=\"%d\" y=\"%d\" font-size=\"11\"><tspan fill=\"#6b7480\">"
	                            "&#9632; original</tspan>  <tspan fill=\"#d4662a\">&#9632; normal "
	                            "form</tspan>  (tests by length in %s, ranges of powers of two; "
	                            "heights on a log scale)</text>\n</svg>\n", L, T + H + 30,
	                         r->unit ? r->unit : "steps");
	return err ? TNORM_ENOMEM : 0;
}

/* A bucket's normal form's length in the tests' unit (steps, or bytes). */
static size_t normal_length(const tnorm_triage_result *r, const tnorm_triage_bucket *bk)
{
	long n = r->tests[bk->representative].normal_steps;
	return n < 0 ? bk->normal_len : (size_t)n;
}

/* The overview table, one row per bucket in the report's order. */
static int put_bucket_table(tnorm__buf *h, const tnorm_triage_result *r, const size_t *ord)
{
	size_t i;
	int err = 0;
	err |= tnorm__buf_printf(h, "<table id=\"buckets\">\n<thead><tr><th>bucket</th><th>tests</th>"
	                            "<th>severity</th><th>crash state</th><th>normal form</th></tr>"
	                            "</thead>\n<tbody>\n");
	for (i = 0; i < r->nbuckets && err == 0; i++) {
		size_t b = ord[i];
		const tnorm_triage_bucket *bk = &r->buckets[b];
		tnorm_severity sev;
		crash_state c;
		tnorm_severity_of_text(&sev, bk->signature ? bk->signature : "");
		if (crash_state_of(&c, bk) < 0)
			return TNORM_ENOMEM;
		err |= tnorm__buf_printf(h, "<tr><td><a href=\"#bucket-%zu\">%zu</a></td><td>%zu</td>"
		                            "<td class=\"sev sev-%s\" title=\"%s\">%s</td><td><code>",
		                         b + 1, b + 1, bk->count, sev.name, sev.reason, sev.name);
		err |= put_html_esc(h, c.text, c.kind_len, 0);
		if (c.stack) {
			size_t next;
			err |= tnorm__buf_puts(h, " at ");
			err |= put_html_esc(h, c.stack, first_frame(c.stack, c.stack_len, &next), 0);
		}
		err |= tnorm__buf_printf(h, "</code></td><td>%zu %s</td></tr>\n", normal_length(r, bk),
		                         r->unit ? r->unit : "steps");
		tnorm_free(c.text);
	}
	err |= tnorm__buf_puts(h, "</tbody>\n</table>\n");
	return err ? TNORM_ENOMEM : 0;
}

/* A stack ("a <- b <- c") as an ordered list, innermost first. */
static int put_frames(tnorm__buf *h, const char *cls, const char *s, size_t len)
{
	int err = tnorm__buf_printf(h, "<ol class=\"%s\">\n", cls);
	size_t n, next;
	for (; s && len && err == 0; s += next, len -= next) {
		n = first_frame(s, len, &next);
		err |= tnorm__buf_puts(h, "<li><code>");
		err |= put_html_esc(h, s, n, 0);
		err |= tnorm__buf_puts(h, "</code></li>\n");
	}
	err |= tnorm__buf_puts(h, "</ol>\n");
	return err;
}

/* A normal form as escaped text and as hex. */
static int put_normal_form(tnorm__buf *h, const tnorm_triage_result *r, const char *p, size_t len)
{
	int err = 0, lines = r->unit && !strcmp(r->unit, "steps");
	err |= tnorm__buf_puts(h, "<pre class=\"normal-text\">");
	err |= put_html_esc(h, p ? p : "", p ? len : 0, lines);
	err |= tnorm__buf_printf(h, "</pre>\n<details class=\"hex\"%s><summary>hex (%zu bytes)"
	                            "</summary><pre class=\"normal-hex\">", lines ? "" : " open", len);
	err |= put_hex_dump(h, p ? p : "", p ? len : 0);
	err |= tnorm__buf_puts(h, "</pre></details>\n");
	return err;
}

/* A bucket's normal forms other than its representative's, with their counts (issue 27: one
 * bucket per fault, whatever forms its files ended in), collapsed. */
static int put_other_forms(tnorm__buf *h, const tnorm_triage_result *r, size_t b)
{
	json_t *forms = bucket_forms(r, b);
	size_t k;
	int err = !forms;
	err |= tnorm__buf_printf(h, "<details class=\"forms\"><summary>%zu other normal form%s of this "
	                            "bug</summary>\n<ul>\n", r->buckets[b].nforms - 1,
	                         r->buckets[b].nforms == 2 ? "" : "s");
	for (k = 1; forms && k < json_array_size(forms) && err == 0; k++) {
		json_t *f = json_array_get(forms, k);
		const tnorm_triage_test *first = NULL;
		const char *name = json_string_value(json_object_get(f, "first"));
		size_t i;
		for (i = 0; i < r->ntests && !first; i++) /* the form's bytes, from its first test */
			if (r->tests[i].bucket == b + 1 && r->tests[i].name &&
			    tnorm__json_is_text(r->tests[i].name, strlen(r->tests[i].name)) &&
			    !strcmp(r->tests[i].name, name ? name : ""))
				first = &r->tests[i];
		err |= tnorm__buf_printf(h, "<li>%lld tests (first: ",
		                         (long long)json_integer_value(json_object_get(f, "count")));
		err |= put_html_name(h, first ? first->name : name);
		err |= tnorm__buf_puts(h, ")\n");
		if (first)
			err |= put_normal_form(h, r, first->normal, first->normal_len);
		else
			err |= tnorm__buf_printf(h, "<pre class=\"normal-text\">%s</pre>\n",
			                         json_string_value(json_object_get(f, "normal_form_escaped")));
		err |= tnorm__buf_puts(h, "</li>\n");
	}
	err |= tnorm__buf_puts(h, "</ul>\n</details>\n");
	json_decref(forms);
	return err ? TNORM_ENOMEM : 0;
}

/* What a bucket's header says of the buckets that share its signature key. */
static int put_same_key(tnorm__buf *h, const tnorm_triage_result *r, size_t b)
{
	size_t i, shown = 0;
	int err = 0;
	if (r->buckets[b].same_key < 2)
		return 0;
	err |= tnorm__buf_puts(h, "<p class=\"same-signature\">Same signature as bucket");
	for (i = 0; i < r->nbuckets; i++)
		if (i != b && !strcmp(r->buckets[i].key, r->buckets[b].key))
			err |= tnorm__buf_printf(h, "%s <a href=\"#bucket-%zu\">%zu</a>",
			                         shown++ ? "," : "", i + 1, i + 1);
	err |= tnorm__buf_puts(h, ": the coverage split kept them apart, because the runs of their "
	                          "normal forms share too few executed lines to be one bug.</p>\n");
	return err;
}

/* --explain's lines: where the fault likely is, each with its source around it. */
static int put_why(tnorm__buf *h, const tnorm_triage_bucket *bk)
{
	size_t i;
	int err = 0;
	if (!bk->why)
		return 0;
	err |= tnorm__buf_printf(h, "<h3>Where the fault likely is</h3>\n<p>The lines that tell the "
	                            "representative's failing neighbours from its passing ones best "
	                            "(tnorm why: %u failing, %u passing runs):</p>\n<ol class=\"why\">\n",
	                         bk->why->failing, bk->why->passing);
	for (i = 0; i < bk->why->nlines && err == 0; i++) {
		const tnorm_why_line *l = &bk->why->lines[i];
		const char *base = l->file ? strrchr(l->file, '/') : NULL;
		uint32_t from = 0, n;
		char *src = source_around(l->file, l->line, &from), *p, *nl;
		err |= tnorm__buf_puts(h, "<li><code>");
		err |= put_html_name(h, base ? base + 1 : l->file);
		err |= tnorm__buf_printf(h, ":%u</code> ", l->line);
		if (l->function) {
			err |= tnorm__buf_puts(h, "in <code>");
			err |= put_html_name(h, l->function);
			err |= tnorm__buf_puts(h, "</code> ");
		}
		err |= tnorm__buf_printf(h, "(score %.3f, %u failing, %u passing%s)\n", l->score,
		                         l->failing, l->passing,
		                         l->on_stack == 2 ? ", where it failed"
		                         : l->on_stack   ? ", on its stack"
		                                         : "");
		if (src) {
			err |= tnorm__buf_puts(h, "<pre class=\"source\">");
			for (p = src, n = from; p && err == 0; n++) {
				nl = strchr(p, '\n');
				err |= tnorm__buf_printf(h, "%s%5u  ", n == l->line ? "<mark>" : "", n);
				err |= put_html_esc(h, p, nl ? (size_t)(nl - p) : strlen(p), 1); /* tabs */
				err |= tnorm__buf_puts(h, n == l->line ? "</mark>\n" : "\n");
				p = nl ? nl + 1 : NULL;
			}
			err |= tnorm__buf_puts(h, "</pre>");
		}
		err |= tnorm__buf_puts(h, "</li>\n");
		tnorm_free(src);
	}
	err |= tnorm__buf_puts(h, "</ol>\n");
	return err;
}

/* One bucket's section: what fails and where, how severe, the shortest input, its files. */
static int put_bucket(tnorm__buf *h, const tnorm_triage_result *r, size_t b)
{
	const tnorm_triage_bucket *bk = &r->buckets[b];
	const tnorm_triage_test *rep = &r->tests[bk->representative];
	tnorm_severity sev;
	crash_state c;
	size_t i, shown = 0, assigned = 0;
	int err = 0;
	tnorm_severity_of_text(&sev, bk->signature ? bk->signature : "");
	if (crash_state_of(&c, bk) < 0)
		return TNORM_ENOMEM;
	for (i = 0; i < r->ntests; i++)
		assigned += r->tests[i].bucket == b + 1 && !r->tests[i].minimized;
	err |= tnorm__buf_printf(h, "<section class=\"bucket sev-%s\" id=\"bucket-%zu\" "
	                            "data-bucket=\"%zu\" data-severity=\"%s\" data-tests=\"%zu\">\n"
	                            "<h2>Bucket %zu: <code>", sev.name, b + 1, b + 1, sev.name,
	                         bk->count, b + 1);
	err |= put_html_esc(h, c.text, c.kind_len, 0);
	err |= tnorm__buf_printf(h, "</code> &middot; %zu test%s</h2>\n<p class=\"severity\">Severity: "
	                            "<strong>%s</strong> (%s)</p>\n<dl class=\"state\">\n<dt>kind</dt>"
	                            "<dd><code>", bk->count, bk->count == 1 ? "" : "s", sev.name,
	                         sev.reason);
	err |= put_html_esc(h, c.type, c.type_len, 0);
	err |= tnorm__buf_puts(h, "</code></dd>\n<dt>access</dt><dd>");
	err |= c.access ? put_html_esc(h, c.access, c.access_len, 0) : tnorm__buf_puts(h, "&mdash;");
	err |= tnorm__buf_printf(h, "</dd>\n<dt>tests</dt><dd>%zu", bk->count);
	if (assigned)
		err |= tnorm__buf_printf(h, " (%zu minimized, %zu assigned on evidence)",
		                         bk->count - assigned, assigned);
	err |= tnorm__buf_puts(h, "</dd>\n<dt>representative</dt><dd>");
	err |= put_html_name(h, rep->name);
	if (bk->file) {
		err |= tnorm__buf_puts(h, " (<code>");
		err |= put_html_name(h, bk->file);
		err |= tnorm__buf_puts(h, "</code>)");
	}
	err |= tnorm__buf_puts(h, "</dd>\n</dl>\n");
	err |= put_same_key(h, r, b);
	/* The top frames of the program's own code: report.json keeps the whole signature. */
	err |= tnorm__buf_printf(h, "<h3>Crash state%s</h3>\n",
	                         bk->own_signature ? " (the representative's own run)" : "");
	if (c.stack)
		err |= put_frames(h, "frames", c.stack, c.stack_len);
	if (c.freed) {
		err |= tnorm__buf_puts(h, "<p>freed at:</p>\n");
		err |= put_frames(h, "freed-frames", c.freed, c.freed_len);
	}
	err |= put_why(h, bk);
	err |= tnorm__buf_printf(h, "<h3>Normal form (%zu %s)</h3>\n", normal_length(r, bk),
	                         r->unit ? r->unit : "steps");
	err |= put_normal_form(h, r, bk->normal, bk->normal_len);
	if (bk->annotated) {
		err |= tnorm__buf_puts(h, "<h3>Generalization</h3>\n<pre class=\"annotated\">");
		err |= put_html(h, bk->annotated);
		err |= tnorm__buf_puts(h, "</pre>\n");
	}
	if (bk->nforms > 1)
		err |= put_other_forms(h, r, b);
	err |= tnorm__buf_printf(h, "<details class=\"tests\"><summary>%zu test%s</summary>\n<p>",
	                         bk->count, bk->count == 1 ? "" : "s");
	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].bucket == b + 1) {
			if (shown++)
				err |= tnorm__buf_puts(h, ", ");
			err |= put_html_name(h, r->tests[i].name);
		}
	err |= tnorm__buf_puts(h, "</p>\n</details>\n</section>\n");
	tnorm_free(c.text);
	return err ? TNORM_ENOMEM : 0;
}

/* The tests that are not in a bucket. */
static int put_not_triaged(tnorm__buf *h, const tnorm_triage_result *r)
{
	size_t i, shown = 0;
	int err = 0;
	for (i = 0; i < r->ntests && err == 0; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		if (t->status == TNORM_TRIAGE_OK)
			continue;
		if (!shown++)
			err |= tnorm__buf_puts(h, "<h2>Not triaged</h2>\n<details class=\"not-triaged\" open>"
			                          "<summary>tests that are in no bucket</summary>\n<ul>\n");
		err |= tnorm__buf_puts(h, "<li>");
		err |= put_html_name(h, t->name);
		err |= tnorm__buf_printf(h, ": %s ", tnorm_triage_status_name(t->status));
		err |= put_html(h, t->message ? t->message : "");
		err |= tnorm__buf_puts(h, "</li>\n");
	}
	if (shown)
		err |= tnorm__buf_puts(h, "</ul>\n</details>\n");
	return err ? TNORM_ENOMEM : 0;
}

static const char style[] =
	"body{font-family:sans-serif;margin:2em;max-width:72em;color:#222}\n"
	"table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;"
	"text-align:left;vertical-align:top}th{background:#f3f3f3}\n"
	"pre{background:#f8f8f8;padding:.6em;border:1px solid #ddd;overflow:auto;max-height:24em;"
	"white-space:pre-wrap;word-break:break-all}\ncode{font-size:90%}\n"
	"section.bucket{border:1px solid #ccc;border-left:.5em solid #999;padding:.2em 1em;margin:1.5em 0}\n"
	"section.sev-EXPLOITABLE{border-left-color:#c0392b}section.sev-PROBABLY_EXPLOITABLE{"
	"border-left-color:#e67e22}section.sev-NOT_EXPLOITABLE{border-left-color:#7f8c8d}\n"
	"td.sev-EXPLOITABLE{color:#c0392b;font-weight:bold}td.sev-PROBABLY_EXPLOITABLE{color:#d35400}\n"
	".bar{fill:#7f8c8d}.sev-EXPLOITABLE.bar{fill:#c0392b}.sev-PROBABLY_EXPLOITABLE.bar{fill:"
	"#e67e22}.sev-UNKNOWN.bar{fill:#5d7fa3}.sev-rest.bar{fill:#bbb}\n"
	"dl.state{display:grid;grid-template-columns:9em auto;gap:.2em 1em}dl.state dt{color:#666}"
	"dl.state dd{margin:0}\nsummary{cursor:pointer;color:#245}p.same-signature{background:#fff6d5;"
	"padding:.4em}\npre.source{margin:.3em 0 .8em}pre.source mark{background:#fff0a8}\n";

int tnorm_triage_report_html(const tnorm_triage_result *r, char **out)
{
	tnorm__buf h = TNORM__BUF_INIT;
	size_t *ord = NULL, i;
	char *counts = NULL;
	int err = 0;
	if (!out || !r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_html: no result");
	*out = NULL;
	if (!(ord = tnorm__calloc(r->nbuckets + 1, sizeof(*ord))) ||
	    tnorm_triage_report_order(r, ord) < 0 || tnorm_triage_report_counts_text(r, &counts) < 0)
		err = 1;
	err |= tnorm__buf_printf(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	                             "<title>tnorm triage: %zu bug%s</title>\n<style>\n%s</style>\n</head>\n"
	                             "<body>\n<h1>tnorm triage: %zu bug%s</h1>\n<p>Corpus <code>",
	                         r->nbuckets, r->nbuckets == 1 ? "" : "s", style, r->nbuckets,
	                         r->nbuckets == 1 ? "" : "s");
	err |= put_html_name(&h, r->corpus);
	err |= tnorm__buf_printf(&h, "</code>: %zu tests, %zu failing, %zu distinct signatures, %zu "
	                             "distinct reduced tests, <strong>%zu distinct normalized tests"
	                             "</strong> in %zu buckets, the most severe first.</p>\n"
	                             "<p class=\"counts\">", r->ntests, r->failing,
	                         r->signatures, r->distinct_reduced, r->distinct_normalized,
	                         r->nbuckets);
	if (err == 0)
		err |= put_html(&h, counts);
	err |= tnorm__buf_puts(&h, "</p>\n");
	if (err == 0)
		err = put_bucket_table(&h, r, ord);
	err |= tnorm__buf_puts(&h, "<h2>Tests per bucket</h2>\n");
	if (err == 0 && r->nbuckets)
		err = put_bucket_chart(&h, r, ord);
	err |= tnorm__buf_puts(&h, "<h2>Test length: original and normal form</h2>\n");
	if (err == 0)
		err = put_length_chart(&h, r);
	for (i = 0; i < r->nbuckets && err == 0; i++)
		err = put_bucket(&h, r, ord[i]);
	if (err == 0)
		err = put_not_triaged(&h, r);
	err |= tnorm__buf_puts(&h, "</body>\n</html>\n");
	tnorm_free(ord);
	tnorm_free(counts);
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

/* ---- the summary (what tnorm triage prints) ------------------------------------------------- */

/* s (len bytes; -1: a string) escaped as every text tnorm shows (tnorm_text_escape). */
static int put_shown(tnorm__buf *b, const char *s, size_t len, int lines)
{
	char *e = NULL;
	size_t n = 0;
	int err;
	if (!s)
		return 0;
	if ((err = tnorm_text_escape(&e, &n, s, len == (size_t)-1 ? strlen(s) : len, lines)) < 0)
		return err;
	err = tnorm__buf_put(b, e, n);
	tnorm_free(e);
	return err;
}

/* A signature as the summary shows it: the engines' frames left out. */
static int put_signature_shown(tnorm__buf *b, const char *sig)
{
	char *text = NULL;
	int err;
	if (tnorm_signature_text_shown(sig, &text) < 0) {
		tnorm_error_clear();
		return put_shown(b, sig, (size_t)-1, 0);
	}
	err = put_shown(b, text, (size_t)-1, 0);
	tnorm_free(text);
	return err;
}

/* A normal form or an annotated test, escaped (`lines`: a harness's test keeps its lines), and
 * a last newline. */
static int put_form(tnorm__buf *b, const char *s, size_t len, int lines)
{
	size_t at = b->len;
	int err = put_shown(b, s ? s : "", s ? len : 0, lines);
	if (err == 0 && (b->len == at || b->ptr[b->len - 1] != '\n'))
		err = tnorm__buf_putc(b, '\n');
	return err;
}

/* The counts, the sampling and the polish: the summary's first lines. */
static int put_summary_counts(tnorm__buf *b, const tnorm_triage_result *r)
{
	char *counts = NULL;
	int err = put_shown(b, r->corpus, (size_t)-1, 0);
	if (err == 0)
		err = tnorm__buf_printf(b, ": %zu tests, %zu failing, %zu distinct signatures, %zu "
		                        "distinct reduced, %zu distinct normalized: %zu bucket%s\n",
		                        r->ntests, r->failing, r->signatures, r->distinct_reduced,
		                        r->distinct_normalized, r->nbuckets, r->nbuckets == 1 ? "" : "s");
	if (err == 0 && (err = tnorm_triage_report_counts_text(r, &counts)) == 0)
		err = tnorm__buf_printf(b, "%s\n", counts);
	tnorm_free(counts);
	if (err == 0 && r->assigned)
		err = tnorm__buf_printf(b, "sampled: %zu minimized, %zu assigned to the bucket of a "
		                        "minimized test with their signature (report.json says on what "
		                        "evidence; --thorough minimizes all)\n",
		                        r->minimized, r->assigned);
	if (err == 0 && r->polish_forms)
		err = tnorm__buf_printf(b, "polish: %zu of %zu normal form%s made canonical (%zu "
		                        "lowered), %llu runs of a budget of %llu%s\n",
		                        r->polish_complete, r->polish_forms,
		                        r->polish_forms == 1 ? "" : "s", r->polish_lowered,
		                        (unsigned long long)r->polish_runs,
		                        (unsigned long long)r->polish_budget,
		                        r->polish_complete < r->polish_forms ? "; --polish-runs N for more"
		                                                             : "");
	return err;
}

/* Bucket b's head line, and the buckets of its key the coverage split kept apart. */
static int put_summary_head(tnorm__buf *h, const tnorm_triage_result *r, size_t b)
{
	const tnorm_triage_bucket *bk = &r->buckets[b];
	size_t i, assigned = 0, others = 0;
	tnorm_severity sev;
	int err;
	for (i = 0; i < r->ntests; i++)
		assigned += r->tests[i].bucket == b + 1 && !r->tests[i].minimized;
	err = tnorm__buf_printf(h, "\n== bucket %zu: %zu tests", b + 1, bk->count);
	if (err == 0 && assigned)
		err = tnorm__buf_printf(h, " (%zu minimized, %zu assigned)", bk->count - assigned,
		                        assigned);
	if (err == 0 && bk->nforms > 1)
		err = tnorm__buf_printf(h, " in %zu normal forms (report.json lists them)", bk->nforms);
	if (err == 0 && (err = tnorm__buf_puts(h, "; ")) == 0)
		err = put_signature_shown(h, tnorm_triage_bucket_signature(bk));
	if (err == 0 && tnorm_severity_of_text(&sev, bk->signature ? bk->signature : "") == 0)
		err = tnorm__buf_printf(h, "; severity %s (%s)", sev.name, sev.reason);
	if (err == 0)
		err = tnorm__buf_putc(h, '\n');
	if (err == 0 && bk->same_key > 1) {
		err = tnorm__buf_puts(h, "   same signature as bucket");
		for (i = 0; i < r->nbuckets && err == 0; i++)
			if (i != b && !strcmp(r->buckets[i].key, bk->key))
				err = tnorm__buf_printf(h, "%s %zu", others++ ? "," : "", i + 1);
		if (err == 0)
			err = tnorm__buf_puts(h, ": the coverage split kept them apart (the runs of their "
			                         "normal forms share too few executed lines to be one bug)\n");
	}
	return err;
}

/* Bucket b: its head, its representative, --explain's lines, its normal form or annotated test. */
static int put_summary_bucket(tnorm__buf *h, const tnorm_triage_result *r, size_t b)
{
	const tnorm_triage_bucket *bk = &r->buckets[b];
	size_t i;
	int err = put_summary_head(h, r, b);
	if (err == 0 && (err = tnorm__buf_puts(h, "   representative ")) == 0 &&
	    (err = put_shown(h, r->tests[bk->representative].name, (size_t)-1, 0)) == 0 &&
	    (err = tnorm__buf_puts(h, " (")) == 0 && (err = put_shown(h, bk->file, (size_t)-1, 0)) == 0)
		err = tnorm__buf_puts(h, "):\n");
	for (i = 0; err == 0 && bk->why && i < bk->why->nlines; i++) {
		const tnorm_why_line *l = &bk->why->lines[i];
		const char *base = strrchr(l->file, '/');
		if ((err = tnorm__buf_printf(h, "   %s ", i ? "    " : "why:")) == 0 &&
		    (err = put_shown(h, base ? base + 1 : l->file, (size_t)-1, 0)) == 0 &&
		    (err = tnorm__buf_printf(h, ":%u ", l->line)) == 0 &&
		    (err = put_shown(h, l->function ? l->function : "", (size_t)-1, 0)) == 0)
			err = tnorm__buf_printf(h, " (score %.3f)\n", l->score);
	}
	if (err == 0)
		err = bk->annotated ? put_form(h, bk->annotated, strlen(bk->annotated), 1)
		                    : put_form(h, bk->normal, bk->normal_len,
		                               !strcmp(r->unit ? r->unit : "", "steps"));
	return err;
}

int tnorm_triage_summary_text(const tnorm_triage_result *r, char **out)
{
	tnorm__buf h = TNORM__BUF_INIT;
	size_t i, k, *order = NULL;
	int err;
	if (!out || !r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_summary_text: NULL argument");
	*out = NULL;
	if (!(order = tnorm__calloc(r->nbuckets + 1, sizeof(*order))))
		return TNORM_ENOMEM;
	if ((err = tnorm_triage_report_order(r, order)) == 0)
		err = put_summary_counts(&h, r);
	for (k = 0; k < r->nbuckets && err == 0; k++)
		err = put_summary_bucket(&h, r, order[k]);
	for (i = 0; i < r->ntests && err == 0; i++)
		if (r->tests[i].status != TNORM_TRIAGE_OK &&
		    (err = tnorm__buf_puts(&h, "not triaged: ")) == 0 &&
		    (err = put_shown(&h, r->tests[i].name, (size_t)-1, 0)) == 0 &&
		    (err = tnorm__buf_printf(&h, ": %s: ", tnorm_triage_status_name(r->tests[i].status))) == 0 &&
		    (err = put_shown(&h, r->tests[i].message, (size_t)-1, 0)) == 0)
			err = tnorm__buf_putc(&h, '\n');
	if (err == 0 && (err = tnorm__buf_puts(&h, "\nreport: ")) == 0 &&
	    (err = put_shown(&h, r->out, (size_t)-1, 0)) == 0 &&
	    (err = tnorm__buf_puts(&h, "/report.html, ")) == 0 &&
	    (err = put_shown(&h, r->out, (size_t)-1, 0)) == 0)
		err = tnorm__buf_puts(&h, "/report.json\n");
	tnorm_free(order);
	if (err == 0 && !(*out = tnorm__buf_detach(&h)))
		err = TNORM_ENOMEM;
	tnorm__buf_dispose(&h);
	return err;
}

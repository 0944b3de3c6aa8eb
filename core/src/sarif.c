/* SPDX-License-Identifier: MIT */
/*
 * sarif.c - a triage's result (triage.h) as SARIF 2.1.0, the format code-scanning tools read
 * (GitHub code scanning, DefectDojo, IDE viewers): one result per bucket.
 *
 * A result's rule is the bucket's kind (SIGABRT, asan:heap-buffer-overflow:WRITE, ...), its level
 * and security-severity come from its severity class (severity.h), its location is the throwing
 * frame's line, its code flow the stack from main in to the throwing frame, and a use-after-free's
 * free stack is its related locations.  Its partialFingerprints hold a hash of the bucket's
 * signature key (the text the match policy compares: kind, throwing frame, call site, free site),
 * never of a crash file's name or of a count, so that a code-scanning tool keeps one bug's history
 * across triages of growing folders.  The result keeps the signature as text only, so the frames
 * are read back from that text (tnorm_signature_format's form: "KIND at FN (FILE:LINE) <- ...;
 * freed at ..."); frames without a line (a stripped module) get a logical location only.  File
 * names are the base names DWARF gives, relative to the source root (%SRCROOT%).
 */
#include <stdlib.h>
#include <string.h>

#include "tnorm/severity.h"
#include "tnorm/triage_report.h"

#include "common.h"
#include "json.h"

#define SARIF_SCHEMA \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#define FINGERPRINT_NAME "tnormSignatureKey/v1"

/* One frame of a signature's text: pointers into the text. */
typedef struct sframe {
	const char *fn;
	size_t fnlen;
	const char *file;
	size_t filelen;
	unsigned long line; /* 0: none */
} sframe;

/* Where the frames of a signature's text start: after the kind (and an uncaught exception's
 * quoted what() text, which may hold anything) and " at "; NULL when it has none. */
static const char *frames_start(const char *text)
{
	const char *p = text;
	if (!strncmp(text, "uncaught ", 9) && (p = strstr(text, " (\"")) != NULL) {
		for (p += 3; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		if (*p != '"')
			return NULL;
		p++;
		if (!strncmp(p, "...", 3))
			p += 3;
		if (*p == ')')
			p++;
		return strncmp(p, " at ", 4) ? NULL : p + 4;
	}
	p = strstr(text, " at ");
	return p ? p + 4 : NULL;
}

/* Parse "FN (LOC)[ xN]" of [s, e) into *f. */
static void parse_frame(const char *s, const char *e, sframe *f)
{
	const char *open = NULL, *close, *p, *colon = NULL;
	memset(f, 0, sizeof(*f));
	for (p = s; p + 1 < e; p++)
		if (p[0] == ' ' && p[1] == '(')
			open = p;
	f->fn = s;
	f->fnlen = open ? (size_t)(open - s) : (size_t)(e - s);
	if (!open || !(close = memchr(open, ')', (size_t)(e - open))))
		return;
	for (p = open + 2; p < close; p++)
		if (*p == ':')
			colon = p;
	if (!colon || colon + 1 == close)
		return;
	for (p = colon + 1; p < close; p++)
		if (*p < '0' || *p > '9')
			return;
	f->file = open + 2;
	f->filelen = (size_t)(colon - f->file);
	f->line = strtoul(colon + 1, NULL, 10);
}

/* The frames of [s, e) (" <- " between them) appended to *fs: 0 or TNORM_ENOMEM. */
static int parse_stack(const char *s, const char *e, sframe **fs, size_t *n)
{
	while (s < e) {
		const char *next = NULL, *p;
		sframe *grown;
		for (p = s; p + 4 <= e; p++)
			if (!memcmp(p, " <- ", 4)) {
				next = p;
				break;
			}
		if (!(grown = tnorm__realloc(*fs, (*n + 1) * sizeof(**fs))))
			return TNORM_ENOMEM;
		*fs = grown;
		parse_frame(s, next ? next : e, &(*fs)[(*n)++]);
		s = next ? next + 4 : e;
	}
	return 0;
}

/* The stack and the free stack of a signature's text. */
static int parse_text(const char *text, sframe **stack, size_t *n, sframe **freed, size_t *nfreed)
{
	const char *s = frames_start(text), *end, *fr, *msg;
	int err;
	*stack = *freed = NULL;
	*n = *nfreed = 0;
	if (!s)
		return 0;
	end = s + strlen(s);
	if ((msg = strstr(s, " [")) != NULL && end[-1] == ']')
		end = msg;
	fr = strstr(s, "; freed at ");
	if ((err = parse_stack(s, fr && fr < end ? fr : end, stack, n)) < 0)
		return err;
	if (fr && fr < end)
		err = parse_stack(fr + 11, end, freed, nfreed);
	return err;
}

static json_t *text_obj(const char *s, size_t len)
{
	return json_pack("{s:o}", "text", tnorm__json_text(s, len));
}

/* A location: the frame's line (when it has one) and its function. */
static json_t *location(const sframe *f, const char *message)
{
	json_t *o = json_object();
	int bad = !o;
	if (f->line) {
		json_t *phys = json_pack("{s:{s:o,s:s},s:{s:I}}", "artifactLocation", "uri",
		                         tnorm__json_text(f->file, f->filelen), "uriBaseId", "%SRCROOT%",
		                         "region", "startLine", (json_int_t)f->line);
		bad |= json_object_set_new(o, "physicalLocation", phys);
	}
	bad |= json_object_set_new(o, "logicalLocations",
	                           json_pack("[{s:o,s:s}]", "name", tnorm__json_text(f->fn, f->fnlen),
	                                     "kind", "function"));
	if (message)
		bad |= json_object_set_new(o, "message", json_pack("{s:s}", "text", message));
	return tnorm__json_done(o, bad);
}

/* The stack as one thread flow, in the order it ran: from the outermost frame in. */
static json_t *code_flow(const sframe *fs, size_t n)
{
	json_t *locs = json_array();
	size_t i;
	int bad = !locs;
	for (i = n; i-- > 0 && !bad;)
		bad |= json_array_append_new(locs, json_pack("{s:o}", "location", location(&fs[i], NULL)));
	locs = tnorm__json_done(locs, bad);
	return json_pack("[{s:[{s:o}]}]", "threadFlows", "locations", locs);
}

/* The free stack as related locations. */
static json_t *related(const sframe *fs, size_t n)
{
	json_t *a = json_array();
	size_t i;
	int bad = !a;
	for (i = 0; i < n && !bad; i++) {
		json_t *l = location(&fs[i], i ? "called from here on the way to the free" : "freed here");
		bad |= !l || json_object_set_new(l, "id", json_integer((json_int_t)i + 1)) ||
		       json_array_append_new(a, l);
	}
	return tnorm__json_done(a, bad);
}

/* The kind of a signature's text, as its rule's id (an uncaught exception without its text). */
static char *kind_of(const char *text)
{
	const char *s = frames_start(text), *w;
	size_t len = s ? (size_t)(s - 4 - text) : strlen(text);
	if (!strncmp(text, "uncaught ", 9) && (w = strstr(text, " (\"")) != NULL && (size_t)(w - text) < len)
		len = (size_t)(w - text);
	return tnorm__strndup(text, len);
}

/* GitHub's security-severity (0.0 to 10.0) and SARIF's level of a class. */
static const char *security_severity(tnorm_severity_class c)
{
	return c == TNORM_SEVERITY_EXPLOITABLE ? "9.0"
	       : c == TNORM_SEVERITY_PROBABLY_EXPLOITABLE ? "7.0"
	       : c == TNORM_SEVERITY_UNKNOWN ? "5.0" : "3.0";
}

static const char *level(tnorm_severity_class c)
{
	return c == TNORM_SEVERITY_NOT_EXPLOITABLE ? "warning" : "error";
}

/* The rule of kind `kind`, its index in `rules` (added when new). */
static int rule_index(json_t *rules, const char *kind, const tnorm_severity *sev, size_t *index)
{
	size_t i;
	json_t *r;
	for (i = 0; i < json_array_size(rules); i++)
		if (!strcmp(json_string_value(json_object_get(json_array_get(rules, i), "id")), kind)) {
			*index = i;
			return 0;
		}
	r = json_pack("{s:o,s:o,s:{s:s},s:{s:s},s:{s:[s,s],s:s,s:s,s:s}}", "id", tnorm__json_str(kind),
	              "shortDescription", text_obj(kind, strlen(kind)), "fullDescription", "text",
	              sev->reason, "defaultConfiguration", "level", level(sev->cls), "properties",
	              "tags", "security", "reliability", "security-severity",
	              security_severity(sev->cls), "severity", sev->name, "severity_reason",
	              sev->reason);
	*index = json_array_size(rules);
	return json_array_append_new(rules, r) ? TNORM_ENOMEM : 0;
}

static json_t *fingerprints(const char *key)
{
	uint64_t h1, h2;
	char hex[33];
	tnorm__hash64_pair(key, strlen(key), TNORM__H1_SEED, TNORM__H2_SEED, &h1, &h2);
	snprintf(hex, sizeof(hex), "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
	return json_pack("{s:s}", FINGERPRINT_NAME, hex);
}

/* Bucket b as a result. */
static json_t *bucket_result(const tnorm_triage_result *r, size_t b, json_t *rules)
{
	const tnorm_triage_bucket *bk = &r->buckets[b];
	sframe *stack = NULL, *freed = NULL;
	size_t n = 0, nfreed = 0, index = 0;
	tnorm_severity sev;
	tnorm__buf msg = TNORM__BUF_INIT;
	/* (the representative's own run: the stack a user reproduces with its file, as the CLI's
	 * summary and report.html show it; the fingerprint stays the bucket's key) */
	const char *sig = tnorm_triage_bucket_signature(bk);
	char *kind = kind_of(sig);
	json_t *o = json_object();
	int bad = !o || !kind;
	tnorm_severity_of_text(&sev, sig);
	bad |= parse_text(sig, &stack, &n, &freed, &nfreed) < 0;
	bad |= !bad && rule_index(rules, kind, &sev, &index) < 0;
	bad |= tnorm__buf_printf(&msg, "%s (bucket %zu, %zu test%s, %s: %s)", sig, b + 1,
	                         bk->count, bk->count == 1 ? "" : "s", sev.name, sev.reason) < 0;
	if (!bad) {
		bad |= json_object_set_new(o, "ruleId", tnorm__json_str(kind));
		bad |= json_object_set_new(o, "ruleIndex", json_integer((json_int_t)index));
		bad |= json_object_set_new(o, "level", json_string(level(sev.cls)));
		bad |= json_object_set_new(o, "message", text_obj(msg.ptr, msg.len));
		if (n)
			bad |= json_object_set_new(o, "locations",
			                           json_pack("[o]", location(&stack[0], NULL)));
		if (n)
			bad |= json_object_set_new(o, "codeFlows", code_flow(stack, n));
		if (nfreed)
			bad |= json_object_set_new(o, "relatedLocations", related(freed, nfreed));
		bad |= json_object_set_new(o, "partialFingerprints", fingerprints(bk->key ? bk->key : ""));
		bad |= json_object_set_new(
		    o, "properties",
		    json_pack("{s:I,s:I,s:o,s:o,s:{s:s,s:s}}", "bucket", (json_int_t)b + 1, "count",
		              (json_int_t)bk->count, "representative",
		              tnorm__json_str(r->tests[bk->representative].name), "file",
		              tnorm__json_str(bk->file), "severity", "class", sev.name, "reason",
		              sev.reason));
	}
	tnorm__buf_dispose(&msg);
	tnorm_free(kind);
	tnorm_free(stack);
	tnorm_free(freed);
	return tnorm__json_done(o, bad);
}

int tnorm_triage_report_sarif(const tnorm_triage_result *r, char **out)
{
	json_t *o, *rules, *results;
	char *text = NULL;
	size_t b, n;
	int bad = 0, err;
	if (!out || !r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_sarif: no result");
	*out = NULL;
	rules = json_array();
	results = json_array();
	bad = !rules || !results;
	for (b = 0; b < r->nbuckets && !bad; b++)
		bad |= json_array_append_new(results, bucket_result(r, b, rules));
	o = json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:o}},s:{s:{s:{s:s}}},s:o}]}", "$schema",
	              SARIF_SCHEMA, "version", "2.1.0", "runs", "tool", "driver", "name", "tnorm",
	              "version", tnorm_version(), "rules", rules, "originalUriBaseIds",
	              "%SRCROOT%", "description", "text",
	              "the source root: file names are as the debugging information gives them",
	              "results", results);
	if ((err = tnorm__json_dump(&text, o, bad || !o)) < 0)
		return tnorm__error_set(err, "out of memory while writing the SARIF report");
	n = strlen(text);
	if (!(*out = tnorm__realloc(text, n + 2))) {
		tnorm_free(text);
		return tnorm__error_set(TNORM_ENOMEM, "out of memory while writing the SARIF report");
	}
	memcpy(*out + n, "\n", 2);
	return 0;
}

int tnorm_triage_report_sarif_write(const tnorm_triage_result *r, const char *path)
{
	char *text = NULL;
	int err;
	if (!r || !path)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_sarif_write: no path");
	if ((err = tnorm_triage_report_sarif(r, &text)) == 0)
		err = tnorm_file_write_atomic(path, text, strlen(text));
	tnorm_free(text);
	return err;
}

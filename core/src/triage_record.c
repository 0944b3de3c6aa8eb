/* SPDX-License-Identifier: MIT */
/*
 * triage_record.c - a test's record: its state's words, the result file (OUT/results/NAME.json) it
 * is written to and read back from, and the record's one JSON shape (triage_record.h).
 *
 * A record is written atomically when a worker has done its test, and read back by every later
 * pass and job: the files, not memory, are the truth, since they are what a resumed job sees.
 * A record carries the hash of the test's content and the job's key (job_key in triage.c), so
 * that a test changed since, or a job run with other options, does it again.  Normal forms (and
 * reduced tests) that are not UTF-8 text, or hold a NUL byte, are kept exactly: in hex as
 * `normal_hex` (`reduced_hex`) beside the readable text (json.c's tnorm__json_set_bytes).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tnorm/db.h"
#include "tnorm/generic.h"
#include "tnorm/harness.h"
#include "tnorm/triage.h"

#include "common.h"
#include "json.h"
#include "options.h"
#include "triage_internal.h"

const char *tnorm_triage_status_name(tnorm_triage_status s)
{
	switch (s) {
	case TNORM_TRIAGE_OK: return "ok";
	case TNORM_TRIAGE_NOTFAIL: return "notfail";
	case TNORM_TRIAGE_FLAKY: return "flaky";
	case TNORM_TRIAGE_ERROR: return "error";
	default: return "pending";
	}
}

static tnorm_triage_status status_from_name(const char *s)
{
	int k;
	for (k = TNORM_TRIAGE_OK; s && k <= TNORM_TRIAGE_ERROR; k++)
		if (!strcmp(s, tnorm_triage_status_name((tnorm_triage_status)k)))
			return (tnorm_triage_status)k;
	return TNORM_TRIAGE_PENDING;
}

void tnorm__triage_test_dispose(tnorm_triage_test *t)
{
	tnorm_free(t->name);
	tnorm_free(t->message);
	tnorm_free(t->signature);
	tnorm_free(t->key);
	tnorm_free(t->reduced);
	tnorm_free(t->normal);
	tnorm_free(t->evidence);
	memset(t, 0, sizeof(*t));
}

/* ---- result files -------------------------------------------------------------------------- */

void tnorm__triage_hash_hex(const char *text, size_t len, char hex[17])
{
	snprintf(hex, 17, "%016llx", (unsigned long long)tnorm__hash64(text, len, 0));
}

/* A string member as a tnorm_free'd copy; NULL when missing (or out of memory). */
static char *member_str(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? tnorm__strdup(v) : NULL;
}

/* The bytes tnorm__json_set_bytes() wrote in hex, as a tnorm_free'd copy (NUL-terminated, *len
 * its length); NULL when missing, not hex, or out of memory. */
static char *hex_bytes(const char *hex, size_t *len)
{
	size_t n = strlen(hex), i;
	char *b;
	if (n % 2 || !(b = tnorm__malloc(n / 2 + 1)))
		return NULL;
	for (i = 0; i < n / 2; i++) {
		unsigned v = 0;
		int k;
		for (k = 0; k < 2; k++) {
			char c = hex[2 * i + (size_t)k];
			v = v * 16 + (unsigned)(c >= '0' && c <= '9'   ? c - '0'
			                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
			                                               : 16 * 16);
		}
		if (v > 255) {
			tnorm_free(b);
			return NULL;
		}
		b[i] = (char)v;
	}
	b[n / 2] = '\0';
	*len = n / 2;
	return b;
}

/* Any bytes, as tnorm__json_set_bytes() wrote them: `hexkey` when there, else the string `key`. */
static char *member_bytes(json_t *o, const char *key, const char *hexkey, size_t *len)
{
	json_t *v = json_object_get(o, key);
	const char *hex = json_string_value(json_object_get(o, hexkey));
	char *b;
	if (hex)
		return hex_bytes(hex, len);
	if (!json_is_string(v))
		return NULL;
	*len = json_string_length(v);
	if (!(b = tnorm__malloc(*len + 1)))
		return NULL;
	memcpy(b, json_string_value(v), *len);
	b[*len] = '\0';
	return b;
}

static long member_long(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/*
 * The result file of a test into *t (its name kept), if the file exists, parses, and was made
 * from the test's current content (`hex`) by this job (`jobkey`): 1 when loaded, else 0 (a file
 * that does not parse is as good as missing: the test is done again; so is one that cannot be
 * read for lack of memory).
 */
static int result_from_json(json_t *j, tnorm_triage_test *t, const char *hex, const char *jobkey);

int tnorm__triage_load_result(const char *out, tnorm_triage_test *t, const char *hex,
                              const char *jobkey)
{
	tnorm__buf p = TNORM__BUF_INIT;
	const char *file = NULL;
	json_t *j = NULL;
	char key[FILE_KEY_MAX];
	const char *test;
	int loaded = 0;
	if (tnorm__buf_printf(&p, "%s/results/%s.json", out,
	                      tnorm__triage_file_key(t->name, key)) == 0)
		file = p.ptr;
	/* (a made name is another test's too, however unlikely: the record names its test, as
	 * JSON holds it: a name that is not UTF-8 with U+FFFD for its other bytes) */
	if (file && (j = json_load_file(file, JSON_ALLOW_NUL, NULL))) {
		json_t *mine = tnorm__json_str(t->name);
		test = json_string_value(json_object_get(j, "test"));
		if (!test || (mine && !strcmp(test, json_string_value(mine))))
			loaded = result_from_json(j, t, hex, jobkey);
		json_decref(mine);
	}
	json_decref(j);
	tnorm__buf_dispose(&p);
	tnorm_error_clear();
	return loaded;
}

/* The same from a result's text (as the database holds it). */
int tnorm__triage_parse_result(const char *text, tnorm_triage_test *t, const char *hex,
                               const char *jobkey)
{
	json_t *j = json_loads(text, JSON_ALLOW_NUL, NULL);
	int loaded = j ? result_from_json(j, t, hex, jobkey) : 0;
	json_decref(j);
	tnorm_error_clear();
	return loaded;
}

/* A result record into *t: 1 when it is one, made from content `hex` by the job `jobkey`.  A
 * result of another job (other --rules, harness, command or policy: job_key) is no result of
 * this one, so that a job run again with other options counts what a fresh job would (issue 32,
 * item 5); a record that names no job (an older tnorm's, or one written by hand) is taken. */
static int result_from_json(json_t *j, tnorm_triage_test *t, const char *hex, const char *jobkey)
{
	const char *h, *job, *stage;
	int loaded = 0;
	if (!json_is_object(j))
		goto done;
	h = json_string_value(json_object_get(j, "hash"));
	job = json_string_value(json_object_get(j, "job"));
	if (!h || strcmp(h, hex) || (job && strcmp(job, jobkey)))
		goto done;
	t->status = status_from_name(json_string_value(json_object_get(j, "status")));
	t->message = member_str(j, "message");
	t->signature = member_str(j, "signature");
	t->key = member_str(j, "key");
	t->reduced = member_bytes(j, "reduced", "reduced_hex", &t->reduced_len);
	t->normal = member_bytes(j, "normal", "normal_hex", &t->normal_len);
	t->original_steps = member_long(j, "original_steps");
	t->reduced_steps = member_long(j, "reduced_steps");
	t->normal_steps = member_long(j, "normal_steps");
	t->runs = (uint64_t)(member_long(j, "runs") < 0 ? 0 : member_long(j, "runs"));
	t->seconds = json_number_value(json_object_get(j, "seconds"));
	t->complete = json_is_true(json_object_get(j, "complete"));
	/* A result without a stage is a minimized test's (tnorm before issue 38). */
	stage = json_string_value(json_object_get(j, "stage"));
	t->minimized = !stage || strcmp(stage, "check") != 0;
	if (!t->message || !t->signature || !t->key || !t->reduced || !t->normal ||
	    t->status == TNORM_TRIAGE_PENDING) {
		/* Written by hand, or by another version: done again. */
		tnorm_triage_test keep = {0};
		keep.name = t->name;
		t->name = NULL;
		tnorm__triage_test_dispose(t);
		*t = keep;
		goto done;
	}
	loaded = 1;
done:
	return loaded;
}

/* The number of steps of a test text (its lines that are not comments), -1 for NULL. */
long tnorm__triage_count_steps(const char *t)
{
	long steps = 0;
	if (!t)
		return -1;
	while (*t) {
		const char *nl = strchr(t, '\n');
		if (*t != '#' && *t != '\n')
			steps++;
		if (!nl)
			break;
		t = nl + 1;
	}
	return steps;
}

/* A real rounded to milliseconds, as every "seconds" of tnorm's JSON. */
static json_t *json_seconds(double v)
{
	return json_real((double)(long long)(v * 1000 + (v < 0 ? -0.5 : 0.5)) / 1000);
}

/*
 * A test's record (tnorm_triage_test_json), with the content's hash and the job's key first when
 * `hex` is given (a result file's): NULL when out of memory.  One shape for the result files,
 * report.json's "results" and the binding's dicts (issue 42, item 1); docs/commands/triage.md,
 * "A test's record", lists its keys.  Nothing in it depends on which job read it back (no
 * `fresh`), so that a resumed job's report is the fresh job's byte for byte.
 */
json_t *tnorm__triage_record(const tnorm_triage_test *t, const char *hex, const char *jobkey)
{
	json_t *r = json_object();
	int bad = 0;
	bad |= json_object_set_new(r, "test", tnorm__json_str(t->name));
	if (hex) {
		bad |= json_object_set_new(r, "hash", json_string(hex));
		bad |= json_object_set_new(r, "job", json_string(jobkey));
	}
	bad |= json_object_set_new(r, "status", json_string(tnorm_triage_status_name(t->status)));
	bad |= json_object_set_new(r, "complete", json_boolean(t->complete));
	bad |= json_object_set_new(r, "stage", json_string(t->minimized ? "minimized" : "check"));
	bad |= json_object_set_new(r, "message", tnorm__json_str(t->message));
	bad |= json_object_set_new(r, "signature", tnorm__json_str(t->signature));
	bad |= json_object_set_new(r, "key", tnorm__json_str(t->key));
	bad |= json_object_set_new(r, "original_steps", json_integer(t->original_steps));
	bad |= json_object_set_new(r, "reduced_steps", json_integer(t->reduced_steps));
	bad |= json_object_set_new(r, "normal_steps", json_integer(t->normal_steps));
	bad |= json_object_set_new(r, "runs", json_integer((json_int_t)t->runs));
	bad |= json_object_set_new(r, "seconds", json_seconds(t->seconds));
	bad |= !r || tnorm__json_set_bytes(r, "reduced", "reduced_hex", t->reduced, t->reduced_len);
	bad |= !r || tnorm__json_set_bytes(r, "normal", "normal_hex", t->normal, t->normal_len);
	bad |= json_object_set_new(r, "bucket", json_integer((json_int_t)t->bucket));
	bad |= json_object_set_new(r, "polished", json_boolean(t->polished));
	/* How it got its bucket: minimized, or assigned on evidence (from one run). */
	if (t->status == TNORM_TRIAGE_OK) {
		bad |= json_object_set_new(r, "method", json_string(t->minimized ? "minimized" : "assigned"));
		bad |= json_object_set_new(r, "evidence", tnorm__json_str(t->evidence));
	}
	return tnorm__json_done(r, bad);
}

int tnorm_triage_test_json(const tnorm_triage_test *t, char **out)
{
	if (!out || !t)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_test_json: NULL argument");
	return tnorm__json_dump(out, tnorm__triage_record(t, NULL, NULL), 0);
}

/* The result record of t (just done, from `hex` content) as one line of JSON, in *text. */
int tnorm__triage_result_text(const tnorm_triage_test *t, const char *hex, const char *jobkey,
                              char **text)
{
	return tnorm__json_dump(text, tnorm__triage_record(t, hex, jobkey), 0);
}

/* Write a result record to OUT/results/NAME.json, atomically. */
int tnorm__triage_write_result_text(const char *out, const char *name, const char *text)
{
	tnorm__buf p = TNORM__BUF_INIT, line = TNORM__BUF_INIT;
	char key[FILE_KEY_MAX];
	int err;
	if ((err = tnorm__buf_printf(&p, "%s/results/%s.json", out,
	                             tnorm__triage_file_key(name, key))) == 0 &&
	    (err = tnorm__buf_puts(&line, text)) == 0 && (err = tnorm__buf_putc(&line, '\n')) == 0)
		err = tnorm_file_write_atomic(p.ptr, line.ptr, line.len);
	tnorm__buf_dispose(&line);
	tnorm__buf_dispose(&p);
	return err;
}

/* SPDX-License-Identifier: MIT */
/*
 * export.c - a regression test per bug (export.h, docs/commands/export.md).
 *
 * A harness test is written as a cmocka C file that links the driver's own code: the driver's
 * main, renamed by the build, is called in a child process with the harness and the test's
 * steps, both embedded in the file one line a string (a C99 compiler need not take a literal of
 * over 4095 bytes), so the test runs every step through the driver's handlers exactly as tnorm
 * ran it, and its outcome is the child's: a signal or an exit other than 0 fails the test.
 * A file is written as a libFuzzer corpus entry (corpus/SHA1) with a meson and a CTest entry
 * that run the program on it through `sh -c` (the one script, no semicolons: CTest splits its
 * arguments at them), passing when the program does not fail as tnorm counts failures.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "sanitizer_internal.h"
#include "sanopts.h"
#include "tnorm/export.h"
#include "tnorm/harness.h"
#include "tnorm/signature.h"
#include "tnorm/test.h"

typedef struct item {
	char *name;      /* letters, digits, '_' */
	char *origin;    /* where it came from, for comments and messages (any bytes) */
	char *data;      /* the normal form: the test's canonical text, or the file's bytes */
	size_t len;
	size_t steps;    /* harness tests: the number of steps */
	char *signature; /* after tnorm_export_confirm */
} item;

struct tnorm_export {
	tnorm_export_options o;
	tnorm_harness *h;   /* with a harness */
	char *htext;        /* its text */
	size_t hlen;
	item *items;
	size_t n;
	char **files;       /* what the last write wrote */
	size_t nfiles;
};

/* ---- SHA-1 (FIPS 180-4), for libFuzzer's names of corpus entries ----------------------------- */

static uint32_t rol(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const unsigned char *p)
{
	uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f, k, t;
	int i;
	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999u;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1u;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdcu;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6u;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void tnorm_export_sha1(const void *data, size_t len, char hex[41])
{
	uint32_t h[5] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u, 0xc3d2e1f0u};
	const unsigned char *p = data;
	unsigned char last[128];
	uint64_t bits = (uint64_t)len * 8;
	size_t rest, n, i;
	for (; len >= 64; p += 64, len -= 64)
		sha1_block(h, p);
	rest = len;
	memset(last, 0, sizeof(last));
	if (rest)
		memcpy(last, p, rest);
	last[rest] = 0x80;
	n = rest + 1 + 8 <= 64 ? 64 : 128;
	for (i = 0; i < 8; i++)
		last[n - 1 - i] = (unsigned char)(bits >> (8 * i));
	sha1_block(h, last);
	if (n == 128)
		sha1_block(h, last + 64);
	for (i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned)(h[i / 4] >> (24 - 8 * (i % 4))) & 0xffu);
}

/* ---- the export object ----------------------------------------------------------------------- */

int tnorm_export_new(tnorm_export **out, const tnorm_export_options *o)
{
	tnorm_export *x;
	int err;
	if (!out || !o)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_export_new: NULL argument");
	*out = NULL;
	if (o->version != TNORM_EXPORT_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_export_new: options version %u, not %u",
		                        o->version, TNORM_EXPORT_OPTIONS_VERSION);
	if (!o->argv || !o->argv[0] || !o->argv[0][0])
		return tnorm__error_set(TNORM_EINVALID, "no command to run the tests");
	if (!(x = tnorm__calloc(1, sizeof(*x))))
		return TNORM_ENOMEM;
	x->o = *o;
	if (o->harness && ((err = tnorm_file_read(o->harness, &x->htext, &x->hlen)) < 0 ||
	                   (err = tnorm_harness_parse(&x->h, o->harness, x->htext, x->hlen)) < 0)) {
		tnorm_export_free(x);
		return err;
	}
	*out = x;
	return 0;
}

static void files_clear(tnorm_export *x)
{
	size_t i;
	for (i = 0; i < x->nfiles; i++)
		tnorm_free(x->files[i]);
	tnorm_free(x->files);
	x->files = NULL;
	x->nfiles = 0;
}

void tnorm_export_free(tnorm_export *x)
{
	size_t i;
	if (!x)
		return;
	for (i = 0; i < x->n; i++) {
		tnorm_free(x->items[i].name);
		tnorm_free(x->items[i].origin);
		tnorm_free(x->items[i].data);
		tnorm_free(x->items[i].signature);
	}
	tnorm_free(x->items);
	files_clear(x);
	tnorm_harness_free(x->h);
	tnorm_free(x->htext);
	tnorm_free(x);
}

size_t tnorm_export_count(const tnorm_export *x)
{
	return x ? x->n : 0;
}

const char *tnorm_export_name(const tnorm_export *x, size_t i)
{
	return x && i < x->n ? x->items[i].name : NULL;
}

const char *tnorm_export_signature(const tnorm_export *x, size_t i)
{
	return x && i < x->n ? x->items[i].signature : NULL;
}

const char *const *tnorm_export_files(const tnorm_export *x, size_t *n)
{
	if (n)
		*n = x ? x->nfiles : 0;
	return x ? (const char *const *)x->files : NULL;
}

#define NAME_MAX_LEN 64

static int name_ok(const char *s)
{
	size_t i;
	if (!s[0] || strlen(s) > NAME_MAX_LEN || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* A name from a file's name: its base name without the last extension, each byte that is no
 * letter or digit as '_', "t_" before a leading digit, cut at NAME_MAX_LEN. */
static char *name_from_path(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	tnorm__buf b = TNORM__BUF_INIT;
	size_t n, i;
	int err = 0;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (n == 0 || (base[0] >= '0' && base[0] <= '9'))
		err = tnorm__buf_puts(&b, "t_");
	for (i = 0; i < n && b.len < NAME_MAX_LEN && err == 0; i++) {
		char c = base[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		err = tnorm__buf_putc(&b, ok ? c : '_');
	}
	if (err) {
		tnorm__buf_dispose(&b);
		return NULL;
	}
	return tnorm__buf_detach(&b);
}

/* Add a test of `len` bytes (taken: freed on failure too), checked against the harness. */
static int add(tnorm_export *x, char *name, char *origin, char *data, size_t len)
{
	item *it, *grown;
	size_t i, steps = 0;
	int err = 0;
	if (!name || !origin || !data) {
		err = TNORM_ENOMEM;
		goto fail;
	}
	for (i = 0; i < x->n; i++)
		if (!strcmp(x->items[i].name, name)) {
			err = tnorm__error_set(TNORM_EINVALID, "%s: the name %s is taken by %s (give another "
			                       "name)", origin, name, x->items[i].origin);
			goto fail;
		}
	if (x->h) {
		tnorm_test *t = NULL;
		char *text = NULL;
		size_t tlen = 0;
		if ((err = tnorm_test_parse(&t, x->h, origin, data, len)) < 0)
			goto fail;
		if ((err = tnorm_test_check(t, NULL)) < 0) {
			tnorm__error_prefix("%s", origin);
			tnorm_test_free(t);
			goto fail;
		}
		steps = tnorm_test_len(t);
		if (steps == 0) {
			tnorm_test_free(t);
			err = tnorm__error_set(TNORM_EINVALID, "%s: the test has no steps", origin);
			goto fail;
		}
		/* The canonical text, one step a line: what the C test embeds. */
		err = tnorm_test_format(t, &text, &tlen);
		tnorm_test_free(t);
		if (err < 0)
			goto fail;
		tnorm_free(data);
		data = text;
		len = tlen;
	}
	if (!(grown = tnorm__reallocarray(x->items, x->n + 1, sizeof(*grown)))) {
		err = TNORM_ENOMEM;
		goto fail;
	}
	x->items = grown;
	it = &x->items[x->n++];
	memset(it, 0, sizeof(*it));
	it->name = name;
	it->origin = origin;
	it->data = data;
	it->len = len;
	it->steps = steps;
	return 0;
fail:
	tnorm_free(name);
	tnorm_free(origin);
	tnorm_free(data);
	return err;
}

int tnorm_export_add_file(tnorm_export *x, const char *path, const char *name)
{
	char *data = NULL;
	size_t len = 0;
	int err;
	if (!x || !path)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_export_add_file: NULL argument");
	if (name && !name_ok(name))
		return tnorm__error_set(TNORM_EINVALID, "the name '%s' is not one: letters, digits and _, "
		                        "not starting with a digit, at most %d bytes", name,
		                        NAME_MAX_LEN);
	if ((err = tnorm_file_read(path, &data, &len)) < 0)
		return err;
	if (!x->h && len == 0) {
		tnorm_free(data);
		return tnorm__error_set(TNORM_EINVALID, "%s: the file is empty", path);
	}
	return add(x, name ? tnorm__strdup(name) : name_from_path(path), tnorm__strdup(path), data,
	           len);
}

/* A bucket's normal form from report.json: normal_form_hex when there is one (bytes that are
 * not UTF-8 text), else normal_form.  NULL when it has neither or the hex is bad. */
static char *bucket_form(json_t *b, size_t *len)
{
	const char *hex = json_string_value(json_object_get(b, "normal_form_hex"));
	json_t *text = json_object_get(b, "normal_form");
	char *out;
	size_t n, i;
	if (hex) {
		n = strlen(hex);
		if (n % 2 || !(out = tnorm__malloc(n / 2 + 1)))
			return NULL;
		for (i = 0; i < n / 2; i++) {
			unsigned v;
			if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
				tnorm_free(out);
				return NULL;
			}
			out[i] = (char)v;
		}
		out[n / 2] = '\0';
		*len = n / 2;
		return out;
	}
	if (!json_is_string(text))
		return NULL;
	*len = json_string_length(text);
	if (!(out = tnorm__malloc(*len + 1)))
		return NULL;
	memcpy(out, json_string_value(text), *len);
	out[*len] = '\0';
	return out;
}

int tnorm_export_add_triage(tnorm_export *x, const char *out, const char *prefix)
{
	tnorm__buf path = TNORM__BUF_INIT;
	json_error_t jerr;
	json_t *r = NULL, *buckets, *b;
	char *text = NULL;
	const char *unit;
	size_t len = 0, i;
	int err = 0;
	if (!x || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_export_add_triage: NULL argument");
	if (prefix && !name_ok(prefix))
		return tnorm__error_set(TNORM_EINVALID, "the name '%s' is not one: letters, digits and _, "
		                        "not starting with a digit, at most %d bytes", prefix,
		                        NAME_MAX_LEN);
	if ((err = tnorm__buf_printf(&path, "%s/report.json", out)) < 0 ||
	    (err = tnorm_file_read(path.ptr, &text, &len)) < 0)
		goto done;
	if (!(r = json_loadb(text, len, 0, &jerr))) {
		err = tnorm__error_set(TNORM_EINVALID, "%s:%d:%d: not a triage's report: %s", path.ptr,
		                       jerr.line, jerr.column, jerr.text);
		goto done;
	}
	unit = json_string_value(json_object_get(r, "unit"));
	buckets = json_object_get(r, "buckets");
	if (!json_is_object(r) || !unit || !json_is_array(buckets)) {
		err = tnorm__error_set(TNORM_EINVALID, "%s:1:1: not a triage's report (no \"unit\" or "
		                       "\"buckets\")", path.ptr);
		goto done;
	}
	if (!strcmp(unit, "steps") != !!x->h) {
		err = tnorm__error_set(TNORM_EINVALID, "%s: the triage's tests are %s, but %s", path.ptr,
		                       x->h ? "files (bytes)" : "harness tests (steps)",
		                       x->h ? "a harness is given (--no-harness)"
		                            : "no harness is given (--harness H)");
		goto done;
	}
	if (json_array_size(buckets) == 0) {
		err = tnorm__error_set(TNORM_EINVALID, "%s: the triage has no buckets: nothing to export",
		                       path.ptr);
		goto done;
	}
	json_array_foreach(buckets, i, b) {
		json_int_t id = json_integer_value(json_object_get(b, "id"));
		const char *rep = json_string_value(json_object_get(b, "representative"));
		tnorm__buf name = TNORM__BUF_INIT, origin = TNORM__BUF_INIT;
		char *form;
		size_t flen = 0;
		if (id < 1 || !rep || !(form = bucket_form(b, &flen))) {
			err = tnorm__error_set(TNORM_EINVALID, "%s: bucket %zu: no id, representative or "
			                       "normal form", path.ptr, i + 1);
			goto done;
		}
		if (tnorm__buf_printf(&name, "%s_%lld", prefix ? prefix : "bucket", (long long)id) < 0 ||
		    tnorm__buf_printf(&origin, "%s: bucket %lld (%s)", out, (long long)id, rep) < 0) {
			tnorm__buf_dispose(&name);
			tnorm__buf_dispose(&origin);
			tnorm_free(form);
			err = TNORM_ENOMEM;
			goto done;
		}
		if ((err = add(x, tnorm__buf_detach(&name), tnorm__buf_detach(&origin), form, flen)) < 0)
			goto done;
	}
done:
	json_decref(r);
	tnorm_free(text);
	tnorm__buf_dispose(&path);
	return err;
}

/* ---- confirm: every test fails on the command ------------------------------------------------ */

int tnorm_export_confirm(tnorm_export *x)
{
	tnorm_run_options ro = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	size_t i;
	int err = 0;
	if (!x)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_export_confirm: NULL argument");
	if (x->o.run)
		ro = *x->o.run;
	if (x->h && !ro.suffix)
		ro.suffix = ".t";
	if ((err = tnorm_runner_new(&r, x->o.argv, &ro)) < 0)
		return err;
	if (x->o.cancel)
		tnorm_runner_set_cancel(r, x->o.cancel);
	for (i = 0; i < x->n && err == 0; i++) {
		item *it = &x->items[i];
		tnorm_run_result res;
		char why[256];
		memset(&res, 0, sizeof(res));
		if ((err = tnorm_runner_set_test_name(r, it->origin)) < 0 ||
		    (err = tnorm_runner_run(r, it->data, it->len, &res)) < 0) {
			tnorm_run_result_dispose(&res);
			break;
		}
		if (res.outcome == TNORM_OUTCOME_ERROR) {
			err = tnorm__error_set(TNORM_EIO, "%s: %s", it->origin, res.message);
		} else if (res.outcome != TNORM_OUTCOME_FAIL || !res.sig) {
			err = tnorm__error_set(TNORM_ENOTFAIL, "%s does not fail on %s: %s%s%s; a regression "
			                       "test of it would pass on this build", it->origin,
			                       x->o.argv[0], tnorm__run_describe(&res, why, sizeof(why)),
			                       res.message[0] ? ": " : "", res.message);
		} else {
			tnorm_free(it->signature);
			it->signature = NULL;
			err = tnorm_signature_format(res.sig, 0, &it->signature);
		}
		tnorm_run_result_dispose(&res);
	}
	tnorm_runner_free(r);
	return err;
}

/* ---- writing the files ----------------------------------------------------------------------- */

/* A generated file's text: `b`'s, handed to *out, when building it went well (`err` 0). */
static int buf_result(tnorm__buf *b, int err, char **out, size_t *len)
{
	if (err == 0) {
		*len = b->len;
		if (!(*out = tnorm__buf_detach(b)))
			err = TNORM_ENOMEM;
	}
	tnorm__buf_dispose(b);
	return err ? TNORM_ENOMEM : 0;
}

/* `len` bytes as the inside of a C string literal: printable ASCII as it is but for ", \ and ?
 * (no trigraphs), anything else in octal. */
static int put_c(tnorm__buf *b, const char *s, size_t len)
{
	size_t i;
	int err = 0;
	for (i = 0; i < len && err == 0; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\' || c == '?')
			err = tnorm__buf_printf(b, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			err = tnorm__buf_putc(b, (char)c);
		else
			err = tnorm__buf_printf(b, "\\%03o", c);
	}
	return err;
}

/* A text inside a C comment: escaped as a terminal shows it, and no end of comment in it. */
static int put_comment(tnorm__buf *b, const char *s)
{
	char *e = NULL;
	size_t i;
	int err;
	if ((err = tnorm_text_escape(&e, NULL, s, strlen(s), 0)) < 0)
		return err;
	for (i = 0; e[i] && err == 0; i++) {
		err = tnorm__buf_putc(b, e[i]);
		if (err == 0 && e[i] == '*' && e[i + 1] == '/')
			err = tnorm__buf_putc(b, ' ');
	}
	tnorm_free(e);
	return err;
}

/* The lines of `text` as the rows of a C array of strings, ending in NULL. */
static int put_lines(tnorm__buf *b, const char *text, size_t len)
{
	size_t i = 0;
	int err = 0;
	while (i < len && err == 0) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		if ((err = tnorm__buf_puts(b, "\t\"")) == 0 && (err = put_c(b, text + i, n)) == 0)
			err = tnorm__buf_puts(b, "\",\n");
		i += n + (nl ? 1 : 0);
	}
	return err ? err : tnorm__buf_puts(b, "\tNULL};\n");
}

static const char c_runner[] =
	"/* A file holding `lines`, one a line, at offset 0 (an unlinked temporary file). */\n"
	"static FILE *lines_file(const char *const *lines)\n"
	"{\n"
	"\tFILE *f = tmpfile();\n"
	"\tsize_t i;\n"
	"\tassert_non_null(f);\n"
	"\tfor (i = 0; lines[i]; i++)\n"
	"\t\tassert_true(fputs(lines[i], f) >= 0 && fputc('\\n', f) == '\\n');\n"
	"\tassert_int_equal(fflush(f), 0);\n"
	"\trewind(f);\n"
	"\treturn f;\n"
	"}\n"
	"\n"
	"/* Run the driver's main on the steps `t_lines` with the harness `h_lines` in a child process\n"
	" * (a crash there is this test's failure, not the suite's): the child's wait status. */\n"
	"static int run_driver(const char *const *h_lines, const char *const *t_lines)\n"
	"{\n"
	"\tstatic const int sigs[] = {SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGSYS};\n"
	"\tFILE *h = lines_file(h_lines), *t = lines_file(t_lines);\n"
	"\tint status = 0;\n"
	"\tsize_t i;\n"
	"\tpid_t pid;\n"
	"\tfflush(NULL);\n"
	"\tpid = fork();\n"
	"\tassert_true(pid >= 0);\n"
	"\tif (pid == 0) {\n"
	"\t\tchar prog[] = \"driver\", opt[] = \"--harness\", hpath[64], in[] = \"-\";\n"
	"\t\tchar *argv[] = {prog, opt, hpath, in, NULL};\n"
	"\t\t/* the driver's failures are its own: cmocka's handlers of them stay in the parent */\n"
	"\t\tfor (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)\n"
	"\t\t\tsignal(sigs[i], SIG_DFL);\n"
	"\t\tsnprintf(hpath, sizeof(hpath), \"/proc/self/fd/%d\", fileno(h));\n"
	"\t\tif (dup2(fileno(t), 0) < 0)\n"
	"\t\t\t_exit(127);\n"
	"\t\tunsetenv(\"TNORM_FORK_SERVER\");\n"
	"\t\tstatus = tnorm_export_driver_main(4, argv);\n"
	"\t\tfflush(NULL);\n"
	"\t\t_exit(status);\n"
	"\t}\n"
	"\twhile (waitpid(pid, &status, 0) < 0)\n"
	"\t\tassert_int_equal(errno, EINTR);\n"
	"\tfclose(h);\n"
	"\tfclose(t);\n"
	"\treturn status;\n"
	"}\n"
	"\n"
	"/* The test passes when the driver runs every step and exits 0. */\n"
	"static void expect_pass(const char *const *h_lines, const char *const *t_lines)\n"
	"{\n"
	"\tint status = run_driver(h_lines, t_lines);\n"
	"\tif (WIFSIGNALED(status))\n"
	"\t\tfail_msg(\"the driver died of signal %d (%s) on the test: the bug is there\",\n"
	"\t\t         WTERMSIG(status), strsignal(WTERMSIG(status)));\n"
	"\tif (WIFEXITED(status) && WEXITSTATUS(status) == 125)\n"
	"\t\tfail_msg(\"the driver says the test is invalid (exit 125, its message is above): \"\n"
	"\t\t         \"its handlers no longer match the test's harness\");\n"
	"\tif (!WIFEXITED(status) || WEXITSTATUS(status) != 0)\n"
	"\t\tfail_msg(\"the driver exited %d on the test\", WEXITSTATUS(status));\n"
	"}\n";

static int c_test(const tnorm_export *x, const item *it, char **out, size_t *len)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err = 0;
	err |= tnorm__buf_printf(&b, "/*\n * %s.c - a regression test exported by `tnorm export` (tnorm %s) from\n *   ",
	                         it->name, tnorm_version());
	err |= put_comment(&b, it->origin);
	err |= tnorm__buf_printf(&b, "\n * On the build it was exported from, the driver (");
	err |= put_comment(&b, x->o.argv[0]);
	err |= tnorm__buf_printf(&b, ") fails on it:\n *   ");
	err |= put_comment(&b, it->signature ? it->signature : "(not run)");
	err |= tnorm__buf_printf(
		&b, "\n *\n"
		    " * It runs the test's %zu steps through the driver's handlers, in-process: the build links\n"
		    " * the driver's sources with their main renamed tnorm_export_driver_main (meson.build\n"
		    " * beside this file does it), and runs that main in a child process on the harness and\n"
		    " * the steps below.  It fails while the bug is there, and passes once the driver exits 0.\n"
		    " */\n"
		    "#define _POSIX_C_SOURCE 200809L\n"
		    "#include <errno.h>\n#include <setjmp.h>\n#include <signal.h>\n#include <stdarg.h>\n"
		    "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
		    "#include <string.h>\n#include <sys/types.h>\n#include <sys/wait.h>\n#include <unistd.h>\n"
		    "\n#include <cmocka.h>\n\n"
		    "/* The driver's main (its sources are built with -Dmain=tnorm_export_driver_main). */\n"
		    "int tnorm_export_driver_main(int argc, char **argv);\n\n"
		    "/* The harness the test was exported with, one line a string. */\n"
		    "static const char *const harness[] = {\n",
		it->steps);
	err |= put_lines(&b, x->htext, x->hlen);
	err |= tnorm__buf_puts(&b, "\n/* The test: its normal form, one step a line. */\n"
	                           "static const char *const steps[] = {\n");
	err |= put_lines(&b, it->data, it->len);
	err |= tnorm__buf_printf(&b, "\n%s\nstatic void test_%s(void **state)\n{\n\t(void)state;\n"
	                             "\texpect_pass(harness, steps);\n}\n\nint main(void)\n{\n"
	                             "\tconst struct CMUnitTest tests[] = {cmocka_unit_test(test_%s)};\n"
	                             "\treturn cmocka_run_group_tests(tests, NULL, NULL);\n}\n",
	                         c_runner, it->name, it->name);
	return buf_result(&b, err, out, len);
}

/* A string literal's inside, each byte of `special` after a backslash and a newline as \n:
 * meson's '...' ("\\'"), CMake's "..." ("\\\"$;": no variable reference and no list either). */
static int put_quoted(tnorm__buf *b, const char *s, const char *special)
{
	int err = 0;
	for (; *s && err == 0; s++) {
		if (strchr(special, *s))
			err = tnorm__buf_printf(b, "\\%c", *s);
		else if (*s == '\n')
			err = tnorm__buf_puts(b, "\\n");
		else
			err = tnorm__buf_putc(b, *s);
	}
	return err;
}
#define put_meson(b, s) put_quoted(b, s, "\\'")
#define put_cmake(b, s) put_quoted(b, s, "\\\"$;")

static int meson_harness(const tnorm_export *x, char **out, size_t *len)
{
	tnorm__buf b = TNORM__BUF_INIT;
	size_t i;
	int err = 0;
	err |= tnorm__buf_printf(
		&b,
		"# Regression tests exported by `tnorm export` (tnorm %s): one cmocka test a bug, each\n"
		"# running its failing test's steps through the driver's handlers.  Before subdir() of\n"
		"# this folder, set\n"
		"#   tnorm_export_driver       the driver's sources: its driver.c (with main), the system\n"
		"#                             under test and its compiled-in harness\n"
		"# and, when they are not these defaults,\n"
		"#   tnorm_export_driver_args  the c_args of those sources ([])\n"
		"#   tnorm_export_driver_deps  their dependencies ([dependency('tnorm-driver')])\n"
		"if is_variable('tnorm_export_driver_deps')\n"
		"  _tnorm_export_deps = tnorm_export_driver_deps\n"
		"else\n"
		"  _tnorm_export_deps = [dependency('tnorm-driver')]\n"
		"endif\n"
		"_tnorm_export_lib = static_library('tnorm_export_driver', tnorm_export_driver,\n"
		"  c_args : get_variable('tnorm_export_driver_args', []) + ['-Dmain=tnorm_export_driver_main'],\n"
		"  dependencies : _tnorm_export_deps)\n"
		"foreach _tnorm_export_test : [",
		tnorm_version());
	for (i = 0; i < x->n; i++)
		err |= tnorm__buf_printf(&b, "%s'%s'", i ? ", " : "", x->items[i].name);
	err |= tnorm__buf_puts(
		&b, "]\n"
		    "  test(_tnorm_export_test, executable('tnorm-export-' + _tnorm_export_test,\n"
		    "    _tnorm_export_test + '.c', link_with : _tnorm_export_lib,\n"
		    "    dependencies : [dependency('cmocka')] + _tnorm_export_deps))\n"
		    "endforeach\n");
	return buf_result(&b, err, out, len);
}

/* The script of a file's test: `sh -c SCRIPT sh [FILE] PROGRAM ARGS...` (FILE with --stdin),
 * which passes unless the program fails as tnorm counts failures.  No semicolons (CTest). */
static int script(const tnorm_export *x, tnorm__buf *b)
{
	const tnorm_run_options *ro = x->o.run;
	size_t i;
	int err = 0;
	if (ro && ro->use_stdin)
		err |= tnorm__buf_puts(b, "f=$1\nshift\n\"$@\" <\"$f\"\n");
	else
		err |= tnorm__buf_puts(b, "\"$@\"\n");
	err |= tnorm__buf_puts(b, "s=$?\ncase \" 0 125 ");
	for (i = 0; ro && i < ro->ninvalid_exits; i++)
		err |= tnorm__buf_printf(b, "%d ", ro->invalid_exits[i]);
	err |= tnorm__buf_puts(b, "\" in *\" $s \"*) exit 0\nesac\n"
	                          "echo \"tnorm export: the program fails on the bug's input (exit status "
	                          "$s, 128+N is signal N): the bug is there\" >&2\nexit 1");
	return err ? TNORM_ENOMEM : 0;
}

/* The environment of a file's test: tnorm's sanitizer defaults, so a report aborts, merged
 * with each --env of the same name, then the other --env entries. */
static int test_env(const tnorm_export *x, char ***out, size_t *n)
{
	const char *const *env = x->o.run ? x->o.run->env : NULL;
	char **v;
	size_t k = 0, i, j, cap = 0;
	int err = 0;
	while (tnorm__sanitizer_export_default(cap))
		cap++;
	for (i = 0; env && env[i]; i++)
		cap++;
	if (!(v = tnorm__calloc(cap + 1, sizeof(*v))))
		return TNORM_ENOMEM;
	for (i = 0; tnorm__sanitizer_export_default(i) && err == 0; i++)
		if (!(v[k++] = tnorm__strdup(tnorm__sanitizer_export_default(i))))
			err = TNORM_ENOMEM;
	for (i = 0; env && env[i] && err == 0; i++) {
		size_t nlen = strcspn(env[i], "=");
		for (j = 0; j < k; j++)
			if (!strncmp(v[j], env[i], nlen + 1))
				break;
		if (j < k && tnorm__sanopts_is_var(env[i], nlen)) {
			char *merged = NULL;
			tnorm__buf m = TNORM__BUF_INIT;
			if ((err = tnorm__sanopts_merge(v[j] + nlen + 1, env[i] + nlen + 1, &merged)) < 0 ||
			    (err = tnorm__buf_printf(&m, "%.*s=%s", (int)nlen, env[i], merged)) < 0) {
				free(merged);
				tnorm__buf_dispose(&m);
				break;
			}
			free(merged);
			tnorm_free(v[j]);
			v[j] = tnorm__buf_detach(&m);
		} else if (j < k) {
			tnorm_free(v[j]);
			v[j] = tnorm__strdup(env[i]);
		} else {
			v[k++] = tnorm__strdup(env[i]);
		}
		if (!v[j]) /* j is the new entry's index when it was appended */
			err = TNORM_ENOMEM;
	}
	if (err < 0) {
		for (i = 0; i < k; i++)
			tnorm_free(v[i]);
		tnorm_free(v);
		return err;
	}
	*out = v;
	*n = k;
	return 0;
}

/* The program as the exported tests name it by default: a path made absolute (where it was
 * exported from), a bare name as it is (looked up in PATH). */
static char *program_path(const char *p)
{
	char *abs;
	if (!strchr(p, '/'))
		return tnorm__strdup(p);
	if ((abs = realpath(p, NULL)) != NULL) {
		char *copy = tnorm__strdup(abs);
		free(abs);
		return copy;
	}
	return tnorm__strdup(p);
}

/* The `argv` words after the program, each {} and @@ in them standing for the entry's path
 * `entry` (an expression: meson's 'text' + (expr) + 'text', CMake's "text${expr}text"), as the
 * runner replaces them (with --stdin too). */
static int put_args(const tnorm_export *x, tnorm__buf *b, int meson, const char *entry)
{
	size_t i;
	int err = 0;
	for (i = 1; x->o.argv[i] && err == 0; i++) {
		const char *w = x->o.argv[i];
		tnorm__buf piece = TNORM__BUF_INIT;
		int first = 1;
		err |= tnorm__buf_puts(b, meson ? ", " : " ");
		if (!meson)
			err |= tnorm__buf_putc(b, '"');
		for (;;) {
			const char *p = strstr(w, "{}"), *q = strstr(w, "@@");
			if (!p || (q && q < p))
				p = q;
			tnorm__buf_dispose(&piece);
			if (tnorm__buf_put(&piece, w, p ? (size_t)(p - w) : strlen(w)) < 0) {
				err = TNORM_ENOMEM;
				break;
			}
			if (meson) {
				if (piece.len || (!p && first)) {
					err |= tnorm__buf_puts(b, first ? "'" : " + '");
					err |= put_meson(b, piece.ptr ? piece.ptr : "");
					err |= tnorm__buf_putc(b, '\'');
					first = 0;
				}
				if (p) {
					err |= tnorm__buf_printf(b, "%s(%s)", first ? "" : " + ", entry);
					first = 0;
				}
			} else {
				err |= put_cmake(b, piece.ptr ? piece.ptr : "");
				if (p)
					err |= tnorm__buf_puts(b, entry);
			}
			if (!p)
				break;
			w = p + 2;
		}
		tnorm__buf_dispose(&piece);
		if (!meson)
			err |= tnorm__buf_putc(b, '"');
	}
	return err ? TNORM_ENOMEM : 0;
}

/* What a file test's meson.build and CMakeLists.txt share: the program's default path, the
 * test's script and its environment. */
typedef struct files_ctx {
	char *prog;
	tnorm__buf sh;
	char **env;
	size_t nenv;
} files_ctx;

static void files_ctx_dispose(files_ctx *c)
{
	size_t i;
	for (i = 0; i < c->nenv; i++)
		tnorm_free(c->env[i]);
	tnorm_free(c->env);
	tnorm_free(c->prog);
	tnorm__buf_dispose(&c->sh);
	memset(c, 0, sizeof(*c));
}

static int files_ctx_init(const tnorm_export *x, files_ctx *c)
{
	int err;
	memset(c, 0, sizeof(*c));
	if (!(c->prog = program_path(x->o.argv[0])) || (err = script(x, &c->sh)) < 0 ||
	    (err = test_env(x, &c->env, &c->nenv)) < 0) {
		files_ctx_dispose(c);
		return TNORM_ENOMEM;
	}
	return 0;
}

static int meson_files(const tnorm_export *x, char **out, size_t *len)
{
	tnorm__buf b = TNORM__BUF_INIT;
	files_ctx c;
	char hex[41];
	size_t i;
	int stdin_ = x->o.run && x->o.run->use_stdin, err;
	if ((err = files_ctx_init(x, &c)) < 0)
		return err;
	err = 0;
	err |= tnorm__buf_printf(
		&b,
		"# Regression tests exported by `tnorm export` (tnorm %s): one a bug, each running the\n"
		"# program on the bug's input, corpus/SHA1 (a libFuzzer corpus entry: `FUZZER corpus/`\n"
		"# runs them all), and passing when the program does not fail on it (no signal, no\n"
		"# sanitizer report, exit status 0, 125 or one of the --invalid-exit codes).  Before\n"
		"# subdir() of this folder, set tnorm_export_program to the program (an executable() or\n"
		"# find_program()); without it, the tests run the one they were exported with.\n"
		"if is_variable('tnorm_export_program')\n"
		"  _tnorm_export_prog = tnorm_export_program.full_path()\n"
		"else\n"
		"  _tnorm_export_prog = find_program('",
		tnorm_version());
	err |= put_meson(&b, c.prog);
	err |= tnorm__buf_puts(&b, "').full_path()\nendif\n_tnorm_export_env = environment()\n");
	for (i = 0; i < c.nenv; i++) {
		char *e = c.env[i];
		size_t n = strcspn(e, "=");
		e[n] = '\0';
		err |= tnorm__buf_puts(&b, "_tnorm_export_env.set('");
		err |= put_meson(&b, e);
		err |= tnorm__buf_puts(&b, "', '");
		err |= put_meson(&b, e + n + 1);
		err |= tnorm__buf_puts(&b, "')\n");
		e[n] = '=';
	}
	err |= tnorm__buf_puts(&b, "_tnorm_export_run = '");
	err |= put_meson(&b, c.sh.ptr);
	err |= tnorm__buf_puts(&b, "'\n");
	for (i = 0; i < x->n; i++) {
		tnorm__buf entry = TNORM__BUF_INIT;
		tnorm_export_sha1(x->items[i].data, x->items[i].len, hex);
		err |= tnorm__buf_printf(&entry, "meson.current_source_dir() / 'corpus' / '%s'", hex);
		err |= tnorm__buf_printf(&b, "# ");
		err |= put_comment(&b, x->items[i].origin);
		err |= tnorm__buf_printf(&b, ": ");
		err |= put_comment(&b, x->items[i].signature ? x->items[i].signature : "(not run)");
		err |= tnorm__buf_printf(&b, "\ntest('%s', find_program('sh'), env : _tnorm_export_env,\n"
		                             "  args : ['-c', _tnorm_export_run, 'sh', ",
		                         x->items[i].name);
		if (stdin_)
			err |= tnorm__buf_printf(&b, "%s, ", entry.ptr ? entry.ptr : "");
		err |= tnorm__buf_puts(&b, "_tnorm_export_prog");
		err |= put_args(x, &b, 1, entry.ptr ? entry.ptr : "");
		err |= tnorm__buf_puts(&b, "])\n");
		tnorm__buf_dispose(&entry);
	}
	files_ctx_dispose(&c);
	return buf_result(&b, err, out, len);
}

static int cmake_files(const tnorm_export *x, char **out, size_t *len)
{
	tnorm__buf b = TNORM__BUF_INIT;
	files_ctx c;
	char hex[41];
	size_t i, k;
	int stdin_ = x->o.run && x->o.run->use_stdin, err;
	if ((err = files_ctx_init(x, &c)) < 0)
		return err;
	err = 0;
	err |= tnorm__buf_printf(
		&b,
		"# Regression tests exported by `tnorm export` (tnorm %s): one a bug, each running the\n"
		"# program on the bug's input, corpus/SHA1 (a libFuzzer corpus entry), and passing when\n"
		"# the program does not fail on it (no signal, no sanitizer report, exit status 0, 125\n"
		"# or one of the --invalid-exit codes).  Before add_subdirectory() of this folder, set\n"
		"# TNORM_EXPORT_PROGRAM to the program ($<TARGET_FILE:target> or a path); without it,\n"
		"# the tests run the one they were exported with.\n"
		"if(NOT DEFINED TNORM_EXPORT_PROGRAM)\n"
		"  set(TNORM_EXPORT_PROGRAM \"",
		tnorm_version());
	err |= put_cmake(&b, c.prog);
	err |= tnorm__buf_puts(&b, "\")\nendif()\n");
	for (i = 0; i < x->n; i++) {
		tnorm_export_sha1(x->items[i].data, x->items[i].len, hex);
		err |= tnorm__buf_printf(&b, "# ");
		err |= put_comment(&b, x->items[i].origin);
		err |= tnorm__buf_printf(&b, ": ");
		err |= put_comment(&b, x->items[i].signature ? x->items[i].signature : "(not run)");
		err |= tnorm__buf_printf(&b, "\nadd_test(NAME %s COMMAND sh -c \"", x->items[i].name);
		err |= put_cmake(&b, c.sh.ptr);
		err |= tnorm__buf_puts(&b, "\" sh");
		if (stdin_)
			err |= tnorm__buf_printf(&b, " \"${CMAKE_CURRENT_SOURCE_DIR}/corpus/%s\"", hex);
		err |= tnorm__buf_puts(&b, " \"${TNORM_EXPORT_PROGRAM}\"");
		{
			tnorm__buf entry = TNORM__BUF_INIT;
			err |= tnorm__buf_printf(&entry, "${CMAKE_CURRENT_SOURCE_DIR}/corpus/%s", hex);
			err |= put_args(x, &b, 0, entry.ptr ? entry.ptr : "");
			tnorm__buf_dispose(&entry);
		}
		err |= tnorm__buf_printf(&b, ")\nset_tests_properties(%s PROPERTIES ENVIRONMENT \"",
		                         x->items[i].name);
		for (k = 0; k < c.nenv; k++) {
			if (k)
				err |= tnorm__buf_putc(&b, ';');
			err |= put_cmake(&b, c.env[k]);
		}
		err |= tnorm__buf_puts(&b, "\")\n");
	}
	files_ctx_dispose(&c);
	return buf_result(&b, err, out, len);
}

/* One file to write: its path and content. */
typedef struct plan {
	char *path;
	char *data;
	size_t len;
	int owned; /* data is ours to free (else an item's) */
} plan;

static int plan_add(plan **p, size_t *n, const char *dir, const char *rel, char *data, size_t len,
                    int owned)
{
	tnorm__buf path = TNORM__BUF_INIT;
	plan *grown;
	size_t i;
	if (tnorm__buf_printf(&path, "%s/%s", dir, rel) < 0)
		goto oom;
	for (i = 0; i < *n; i++)
		if (!strcmp((*p)[i].path, path.ptr)) { /* the same bytes twice: one entry */
			tnorm__buf_dispose(&path);
			if (owned)
				tnorm_free(data);
			return 0;
		}
	if (!(grown = tnorm__reallocarray(*p, *n + 1, sizeof(*grown))))
		goto oom;
	*p = grown;
	grown[*n].path = tnorm__buf_detach(&path);
	grown[*n].data = data;
	grown[*n].len = len;
	grown[*n].owned = owned;
	(*n)++;
	return 0;
oom:
	tnorm__buf_dispose(&path);
	if (owned)
		tnorm_free(data);
	return TNORM_ENOMEM;
}

/* `path` may be written: it does not exist, or (with force) is a regular file. */
static int writable(const char *path, int force)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return tnorm__error_errno(TNORM_EIO, "%s", path);
	}
	if (!S_ISREG(st.st_mode))
		return tnorm__error_set(TNORM_EINVALID, "%s exists and is %s, not a file tnorm export "
		                        "may replace", path,
		                        S_ISLNK(st.st_mode) ? "a symbolic link" : tnorm__file_kind(st.st_mode));
	if (!force)
		return tnorm__error_set(TNORM_EINVALID, "%s exists: nothing written (--force replaces "
		                        "the export's files, or give another -o)", path);
	return 0;
}

/* `dir` is a folder, or does not exist and its parent does (*make set). */
static int folder_ok(const char *dir, int *make)
{
	struct stat st;
	*make = 0;
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return tnorm__error_set(TNORM_EINVALID, "%s is %s, not a folder", dir,
			                        S_ISREG(st.st_mode) ? "a file" : tnorm__file_kind(st.st_mode));
		return 0;
	}
	if (errno != ENOENT)
		return tnorm__error_errno(TNORM_EIO, "%s", dir);
	*make = 1;
	return 0;
}

int tnorm_export_write(tnorm_export *x, const char *dir)
{
	plan *p = NULL;
	size_t n = 0, i;
	char *text = NULL, hex[41];
	size_t tlen = 0;
	int err = 0, make_dir = 0, make_corpus = 0;
	tnorm__buf corpus = TNORM__BUF_INIT;
	if (!x || !dir || !dir[0])
		return tnorm__error_set(TNORM_EINVALID, "tnorm_export_write: no folder");
	if (x->n == 0)
		return tnorm__error_set(TNORM_EINVALID, "nothing to export");
	files_clear(x);
	if (x->h) {
		for (i = 0; i < x->n && err == 0; i++) {
			tnorm__buf rel = TNORM__BUF_INIT;
			if ((err = c_test(x, &x->items[i], &text, &tlen)) == 0 &&
			    (err = tnorm__buf_printf(&rel, "%s.c", x->items[i].name)) == 0)
				err = plan_add(&p, &n, dir, rel.ptr, text, tlen, 1);
			else
				tnorm_free(text);
			tnorm__buf_dispose(&rel);
		}
		if (err == 0 && (err = meson_harness(x, &text, &tlen)) == 0)
			err = plan_add(&p, &n, dir, "meson.build", text, tlen, 1);
	} else {
		for (i = 0; i < x->n && err == 0; i++) {
			tnorm__buf rel = TNORM__BUF_INIT;
			tnorm_export_sha1(x->items[i].data, x->items[i].len, hex);
			if ((err = tnorm__buf_printf(&rel, "corpus/%s", hex)) == 0)
				err = plan_add(&p, &n, dir, rel.ptr, x->items[i].data, x->items[i].len, 0);
			tnorm__buf_dispose(&rel);
		}
		if (err == 0 && (err = meson_files(x, &text, &tlen)) == 0)
			err = plan_add(&p, &n, dir, "meson.build", text, tlen, 1);
		if (err == 0 && (err = cmake_files(x, &text, &tlen)) == 0)
			err = plan_add(&p, &n, dir, "CMakeLists.txt", text, tlen, 1);
	}
	/* Every file is checked before any is written. */
	if (err == 0)
		err = folder_ok(dir, &make_dir);
	if (err == 0 && !x->h && (err = tnorm__buf_printf(&corpus, "%s/corpus", dir)) == 0 && !make_dir)
		err = folder_ok(corpus.ptr, &make_corpus);
	if (err == 0 && make_dir)
		make_corpus = !x->h;
	for (i = 0; i < n && err == 0 && !make_dir; i++)
		if (!(make_corpus && !strncmp(p[i].path, corpus.ptr, corpus.len)))
			err = writable(p[i].path, x->o.force);
	if (err == 0 && !make_dir) { /* what a killed export left there (NAME.tmp.PID.XXXXXX) */
		tnorm__sweep_dead_tmp(dir);
		if (!x->h && !make_corpus)
			tnorm__sweep_dead_tmp(corpus.ptr);
	}
	if (err == 0 && make_dir && mkdir(dir, 0777) < 0)
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot make the folder", dir);
	if (err == 0 && make_corpus && mkdir(corpus.ptr, 0777) < 0)
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot make the folder", corpus.ptr);
	if (err == 0 && !(x->files = tnorm__calloc(n + 1, sizeof(*x->files))))
		err = TNORM_ENOMEM;
	for (i = 0; i < n && err == 0; i++) {
		if ((err = tnorm__write_file_atomic(p[i].path, p[i].data, p[i].len)) < 0)
			break;
		x->files[x->nfiles++] = p[i].path;
		p[i].path = NULL;
	}
	for (i = 0; i < n; i++) {
		tnorm_free(p[i].path);
		if (p[i].owned)
			tnorm_free(p[i].data);
	}
	tnorm_free(p);
	tnorm__buf_dispose(&corpus);
	return err;
}

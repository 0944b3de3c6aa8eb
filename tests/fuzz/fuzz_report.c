/* SPDX-License-Identifier: MIT */
/*
 * fuzz_report.c - libFuzzer target: the sanitizer-report parser (core/src/report.c) on
 * arbitrary stderr text.
 *
 * The parser sees whatever a failing program wrote, so it must never read or write out of
 * bounds, leak or overflow on any bytes.  What it returns must also be well formed: a kind that
 * is "" or starts with one of the prefixes the signature code matches on, without newlines, and
 * frames that carry a module or a function.  The same input parsed twice gives the same result.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "report.h"

static const char *const kinds[] = {
	"asan:", "lsan:", "ubsan:", "check-failed:", "handler-failed:",
};

static void check_report(const tnorm__report *rep)
{
	size_t i, k, len = strnlen(rep->kind, sizeof(rep->kind));
	int known = len == 0;
	fuzz_require(len < sizeof(rep->kind), "kind is not NUL-terminated");
	fuzz_require(!strchr(rep->kind, '\n'), "kind '%s' has a newline", rep->kind);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		known |= !strncmp(rep->kind, kinds[i], strlen(kinds[i]));
	fuzz_require(known, "unknown kind '%s'", rep->kind);
	for (k = 0; k < TNORM__REPORT_STACKS; k++) {
		fuzz_require((rep->nstack[k] == 0) == (rep->stack[k] == NULL),
		             "stack %zu: %zu frames at %p", k, rep->nstack[k],
		             (void *)rep->stack[k]);
		for (i = 0; i < rep->nstack[k]; i++) {
			const tnorm__report_frame *f = &rep->stack[k][i];
			fuzz_require(f->module || f->function, "stack %zu frame %zu is empty", k,
			             i);
			fuzz_require(!f->file || f->function, "a file without a function");
		}
	}
}

static int same_frames(const tnorm__report *a, const tnorm__report *b, size_t k)
{
	size_t i;
	if (a->nstack[k] != b->nstack[k])
		return 0;
	for (i = 0; i < a->nstack[k]; i++) {
		const tnorm__report_frame *x = &a->stack[k][i], *y = &b->stack[k][i];
		if (x->offset != y->offset || x->line != y->line || !x->module != !y->module ||
		    !x->function != !y->function || !x->file != !y->file ||
		    (x->module && strcmp(x->module, y->module)) ||
		    (x->function && strcmp(x->function, y->function)) ||
		    (x->file && strcmp(x->file, y->file)))
			return 0;
	}
	return 1;
}

/* tnorm__report_ubsan_kind: no ':', quote, digit or newline, no trailing '-', fits `size`. */
static void check_ubsan_kind(const char *msg)
{
	static const size_t sizes[] = {1, 2, 8, 64};
	char out[64];
	size_t i;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n;
		memset(out, 'Z', sizeof(out));
		tnorm__report_ubsan_kind(msg, out, sizes[i]);
		n = strnlen(out, sizes[i]);
		fuzz_require(n < sizes[i], "ubsan kind overflows %zu bytes", sizes[i]);
		fuzz_require(strcspn(out, ":'\"\n0123456789") == n, "ubsan kind '%s'", out);
		fuzz_require(n == 0 || out[n - 1] != '-', "ubsan kind '%s' ends in '-'", out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tnorm__report a, b;
	char *text = malloc(size + 1);
	size_t k;
	fuzz_require(text != NULL, "out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	fuzz_require(tnorm__report_parse(text, &a) == 0, "report_parse failed");
	check_report(&a);
	fuzz_require(tnorm__report_parse(text, &b) == 0, "report_parse failed");
	fuzz_require(!strcmp(a.kind, b.kind), "kind '%s' then '%s'", a.kind, b.kind);
	for (k = 0; k < TNORM__REPORT_STACKS; k++)
		fuzz_require(same_frames(&a, &b, k), "stack %zu differs between two parses", k);
	tnorm__report_dispose(&a);
	tnorm__report_dispose(&b);
	check_ubsan_kind(text);
	free(text);
	return 0;
}

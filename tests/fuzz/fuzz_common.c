/* SPDX-License-Identifier: MIT */
/*
 * fuzz_common.c - the model invariants shared by fuzz_harness and fuzz_test (see
 * fuzz_common.h).  They use only the public API, so a failure here is a failure a user of the
 * library could meet; the reference well-formedness walk is written from the definition in
 * docs (an instance must be assigned by an earlier step before a step uses it), not from test.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

void fuzz_require(int ok, const char *fmt, ...)
{
	va_list ap;
	if (ok)
		return;
	fputs("fuzz: invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

const char *fuzz_last_error(void)
{
	const tnorm_error *e = tnorm_error_last();
	return e ? e->message : "";
}

uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
	uint64_t x = 14695981039346656037ull;
	size_t i;
	for (i = 0; i < size; i++)
		x = (x ^ data[i]) * 1099511628211ull;
	return x;
}

/* The action's text, NUL-terminated, in a buffer the caller frees with free(). */
static char *format_action(const tnorm_harness *h, const tnorm_action *a)
{
	char small[4];
	int n = tnorm_harness_format_action(h, a, small, sizeof(small)), m;
	char *buf;
	fuzz_require(n >= 0, "format_action failed: %s", fuzz_last_error());
	fuzz_require(tnorm_harness_format_action(h, a, NULL, 0) == n,
	             "format_action(NULL, 0) differs");
	fuzz_require(strlen(small) == ((size_t)n < sizeof(small) ? (size_t)n : sizeof(small) - 1),
	             "format_action did not truncate like snprintf");
	buf = malloc((size_t)n + 1);
	fuzz_require(buf != NULL, "out of memory");
	m = tnorm_harness_format_action(h, a, buf, (size_t)n + 1);
	fuzz_require(m == n && strlen(buf) == (size_t)n, "format_action length %d then %d", n, m);
	fuzz_require(!strchr(buf, '\n'), "action text '%s' spans lines", buf);
	return buf;
}

static void check_defuse(const tnorm_harness *h, const tnorm_action *a)
{
	uint32_t def[TNORM_MAX_SLOTS], use[TNORM_MAX_SLOTS], nvars = tnorm_harness_var_count(h);
	size_t ndef, nuse, i;
	int level;
	for (level = TNORM_DEFUSE_L0; level <= TNORM_DEFUSE_L1; level++) {
		fuzz_require(tnorm_harness_defuse(h, a, (tnorm_defuse_level)level, def, &ndef, use,
		                                  &nuse) == 0,
		             "defuse failed");
		fuzz_require(ndef <= TNORM_MAX_SLOTS && nuse <= TNORM_MAX_SLOTS, "defuse counts");
		for (i = 0; i < ndef; i++)
			fuzz_require(def[i] < nvars, "def id %u >= %u variables", def[i], nvars);
		for (i = 0; i < nuse; i++)
			fuzz_require(use[i] < nvars, "use id %u >= %u variables", use[i], nvars);
	}
}

void fuzz_check_action(const tnorm_harness *h, uint64_t idx, int exact)
{
	tnorm_action a, b;
	tnorm_template_info ti;
	uint64_t r;
	uint32_t s;
	char *text, *again;
	size_t col = 0;
	fuzz_require(tnorm_harness_unrank(h, idx, &a) == 0, "unrank(%llu) failed",
	             (unsigned long long)idx);
	fuzz_require(tnorm_harness_rank(h, &a, &r) == 0 && r == idx, "rank(unrank(%llu)) = %llu",
	             (unsigned long long)idx, (unsigned long long)r);
	fuzz_require(tnorm_harness_template(h, a.tmpl, &ti) == 0, "unrank gave template %u",
	             a.tmpl);
	fuzz_require(idx >= ti.first && idx - ti.first < ti.count,
	             "action %llu outside its template's range", (unsigned long long)idx);
	for (s = 0; s < ti.nslots; s++)
		fuzz_require(a.choice[s] < ti.slot[s].count, "slot %u choice %u >= %u", s,
		             a.choice[s], ti.slot[s].count);
	check_defuse(h, &a);

	text = format_action(h, &a);
	fuzz_require(tnorm_harness_parse_action(h, text, strlen(text), &b, &col) == 0,
	             "the text '%s' of action %llu does not parse: %s", text,
	             (unsigned long long)idx, fuzz_last_error());
	again = format_action(h, &b);
	fuzz_require(!strcmp(text, again), "'%s' parses to an action printed '%s'", text, again);
	if (exact)
		fuzz_require(tnorm_harness_rank(h, &b, &r) == 0 && r == idx,
		             "'%s' is action %llu but parses to action %llu", text,
		             (unsigned long long)idx, (unsigned long long)r);
	free(again);
	free(text);
}

/* The reference well-formedness walk: the first step that uses an unassigned instance, or len. */
static size_t first_unassigned_use(const tnorm_test *t)
{
	const tnorm_harness *h = tnorm_test_harness(t);
	unsigned char *assigned = calloc(tnorm_harness_var_count(h) + 1, 1);
	size_t i, n = tnorm_test_len(t);
	fuzz_require(assigned != NULL, "out of memory");
	for (i = 0; i < n; i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		tnorm_template_info ti;
		tnorm_pool_info pi;
		uint32_t s;
		fuzz_require(tnorm_harness_template(h, a->tmpl, &ti) == 0, "step %zu: bad template",
		             i);
		for (s = ti.has_lhs ? 1 : 0; s < ti.nslots; s++) {
			if (ti.slot[s].kind != TNORM_SLOT_POOL)
				continue;
			fuzz_require(tnorm_harness_pool(h, ti.slot[s].pool, &pi) == 0, "bad pool");
			if (!assigned[pi.first_var + a->choice[s]])
				goto done;
		}
		if (ti.has_lhs) {
			fuzz_require(tnorm_harness_pool(h, ti.slot[0].pool, &pi) == 0, "bad pool");
			assigned[pi.first_var + a->choice[0]] = 1;
		}
	}
done:
	free(assigned);
	return i;
}

static void check_wellformed(const tnorm_test *t)
{
	size_t bad = (size_t)-1, ref = first_unassigned_use(t), n = tnorm_test_len(t);
	int wf = tnorm_test_is_wellformed(t), err = tnorm_test_check(t, &bad);
	fuzz_require(wf == (err == 0), "is_wellformed says %d, check returns %d", wf, err);
	fuzz_require(wf == (ref == n),
	             "is_wellformed says %d, the reference walk stops at step %zu "
	             "of %zu",
	             wf, ref, n);
	if (!wf) {
		fuzz_require(err == TNORM_EINVALID, "check returned %d, not TNORM_EINVALID", err);
		fuzz_require(bad == ref, "check names step %zu, the reference walk step %zu", bad,
		             ref);
	}
}

void fuzz_check_test(const tnorm_test *t, int exact)
{
	const tnorm_harness *h = tnorm_test_harness(t);
	tnorm_test *t2 = NULL;
	char *s1 = NULL, *s2 = NULL, *line;
	size_t len1 = 0, len2 = 0, i, n = tnorm_test_len(t);
	fuzz_require(tnorm_test_format(t, &s1, &len1) == 0, "format failed");
	fuzz_require(strlen(s1) == len1, "format length");
	fuzz_require(tnorm_test_parse(&t2, h, "again.t", s1, len1) == 0,
	             "the formatted test does not parse: %s\n%s", fuzz_last_error(), s1);
	fuzz_require(tnorm_test_format(t2, &s2, &len2) == 0, "format failed");
	fuzz_require(len1 == len2 && !memcmp(s1, s2, len1),
	             "format -> parse -> format changed the "
	             "test:\n%s---\n%s",
	             s1, s2);
	fuzz_require(tnorm_test_len(t2) == n, "%zu steps reparse as %zu", n, tnorm_test_len(t2));
	if (exact) {
		fuzz_require(tnorm_test_compare(t, t2) == 0, "the reparsed test compares unequal");
		fuzz_require(tnorm_test_hash(t) == tnorm_test_hash(t2),
		             "the reparsed test hashes apart");
	}

	line = s1;
	for (i = 0; i < n; i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		tnorm_action b;
		tnorm_template_info ti;
		uint64_t r = 0;
		uint32_t s;
		char *nl = strchr(line, '\n'), *text;
		fuzz_require(tnorm_harness_rank(h, a, &r) == 0, "step %zu does not rank", i);
		fuzz_require(tnorm_harness_unrank(h, r, &b) == 0, "step %zu: unrank(%llu) failed",
		             i, (unsigned long long)r);
		fuzz_require(tnorm_harness_template(h, a->tmpl, &ti) == 0 && b.tmpl == a->tmpl,
		             "step %zu: unrank(rank) changes the template", i);
		for (s = 0; s < ti.nslots; s++)
			fuzz_require(b.choice[s] == a->choice[s],
			             "step %zu: unrank(rank) changes slot %u", i, s);
		fuzz_require(nl != NULL, "the text has fewer lines than steps");
		text = format_action(h, a);
		fuzz_require(strlen(text) == (size_t)(nl - line) &&
		                 !memcmp(text, line, strlen(text)),
		             "step %zu prints '%s' alone, '%.*s' in the test", i, text,
		             (int)(nl - line), line);
		free(text);
		line = nl + 1;
	}
	fuzz_require(*line == '\0', "the text has more lines than steps");

	check_wellformed(t);
	check_wellformed(t2);
	tnorm_free(s2);
	tnorm_free(s1);
	tnorm_test_free(t2);
}

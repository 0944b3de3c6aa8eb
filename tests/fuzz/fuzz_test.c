/* SPDX-License-Identifier: MIT */
/*
 * fuzz_test.c - libFuzzer target: the test parser over fixed, unambiguous harnesses.
 *
 * The first input byte picks the harness ('A'.. : the three examples', the driver runtime's
 * probe, the unit tests' model harness, which has strings, value lists and an assigning call, and
 * one whose strings need every escape); the rest is the test text.  A refused test must come back
 * with *out NULL and a "fuzz.t:..." message; an accepted one must pass fuzz_check_test exactly:
 * format -> parse -> format is the identity and gives an equal test, every step ranks and unranks
 * to itself, and tnorm_test_is_wellformed, tnorm_test_check and a reference walk agree.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "model_cases.h"

/* Embedded by tnorm-embed from examples/, tests/driver/ and corpus/fuzz_harness/escapes.tnh
 * (string values that need every escape), NUL-terminated. */
extern const char avl_harness[], htable_harness[], trie_harness[], probe_harness[],
	escapes_harness[];

static const char *const harness_text[] = {
	avl_harness, htable_harness, trie_harness, probe_harness, test_harness_text, escapes_harness,
};
#define NHARNESS (sizeof(harness_text) / sizeof(harness_text[0]))

static tnorm_harness *harness[NHARNESS];

static const tnorm_harness *pick(uint8_t byte)
{
	size_t i = (uint8_t)(byte - 'A') % NHARNESS; /* 'A' is the first: seeds stay readable */
	if (!harness[i])
		fuzz_require(tnorm_harness_parse(&harness[i], "fixed.tnh", harness_text[i],
		                                 strlen(harness_text[i])) == 0,
		             "fixed harness %zu does not parse: %s", i, fuzz_last_error());
	return harness[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const tnorm_harness *h;
	tnorm_test *t = (tnorm_test *)&t;
	int err;
	if (size < 1)
		return 0;
	h = pick(data[0]);
	err = tnorm_test_parse(&t, h, "fuzz.t", (const char *)data + 1, size - 1);
	if (err < 0) {
		const char *msg = fuzz_last_error();
		fuzz_require(t == NULL, "a refused test left *out set");
		fuzz_require(err == TNORM_EPARSE || err == TNORM_ENOMEM, "parse returned %d", err);
		fuzz_require(!strncmp(msg, "fuzz.t:", 7), "message '%s' does not name the file",
		             msg);
		return 0;
	}
	fuzz_require(err == 0 && t != NULL, "parse returned %d", err);
	fuzz_require(tnorm_test_harness(t) == h, "the test forgot its harness");
	fuzz_check_test(t, 1);
	tnorm_test_free(t);
	return 0;
}

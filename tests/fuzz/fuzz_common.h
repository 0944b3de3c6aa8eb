/* SPDX-License-Identifier: MIT */
/*
 * fuzz_common.h - the invariants the fuzz targets check on whatever the parsers accept.  Each
 * check aborts with a one-line reason on stderr, which libFuzzer reports as a crash and saves
 * the input for: a fuzz target has no other way to say "wrong".
 */
#ifndef TNORM_FUZZ_COMMON_H
#define TNORM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "common.h" /* core/src: TNORM__PRINTF */
#include "tnorm/tnorm.h"

/* libFuzzer's entry point, declared for -Wmissing-prototypes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort with "fuzz: invariant broken: MESSAGE" unless `ok`. */
void fuzz_require(int ok, const char *fmt, ...) TNORM__PRINTF(2, 3);

/* The last error's message, or "" when there is none (safe in a fuzz_require argument). */
const char *fuzz_last_error(void);

/* FNV-1a over the input: a seed for the indices and tests a target derives from it. */
uint64_t fuzz_hash(const uint8_t *data, size_t size);

/*
 * Action `idx` of `h`: unrank then rank gives idx back, the action lies inside its template's
 * range, its text (asked for with a short buffer first, as snprintf) parses to an action that
 * prints the same text, and its def/use sets name real variables.  With `exact`, the parsed
 * action is the same action (same index): true of every harness that is not ambiguous.
 */
void fuzz_check_action(const tnorm_harness *h, uint64_t idx, int exact);

/*
 * A parsed or generated test: format -> parse -> format is the identity; each step ranks and
 * unranks to itself and prints as its line of the text; tnorm_test_is_wellformed agrees with
 * tnorm_test_check and with a reference walk over the steps (no instance used before some
 * earlier step assigned it), at the same first bad step.  With `exact`, the reparsed test equals
 * the original (compare and hash).
 */
void fuzz_check_test(const tnorm_test *t, int exact);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * json.h (internal) - what the engine's JSON writers share: one dump with fixed flags, and
 * string values made from any bytes.  The values themselves are jansson's json_t.
 */
#ifndef TNORM__JSON_H
#define TNORM__JSON_H

#include <jansson.h>

#include "common.h"

/* The flags of every JSON text tnorm writes : keys in the order
 * they were added, ", " and ": " between items, reals with up to 10 significant digits.  The
 * same result therefore always prints the same bytes. */
#define TNORM__JSON_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

/* A JSON string holding the `len` bytes at `s` (NULL: ""), made valid UTF-8 as tnorm_text_utf8
 * does.  A new reference, or NULL when out of memory (no error recorded: json_object_set_new and
 * json_array_append_new refuse a NULL value, and tnorm__json_dump reports it). */
json_t *tnorm__json_text(const char *s, size_t len);
json_t *tnorm__json_str(const char *s); /* the same for a NUL-terminated string */

/* A JSON real holding `v` rounded to `decimals` decimal places (half away from zero): the figure
 * a person reads, and the same bytes for the same value on every machine (seconds to 3 places,
 * a run's wall time to 6, a why score to 4).  NULL when out of memory. */
json_t *tnorm__json_real(double v, int decimals);

/* 1 when the `len` bytes at `s` are text that a JSON string carries exactly: well-formed UTF-8
 * without a NUL byte.  Bytes that are not (a fuzzer's crash file) also need their exact copy
 * (triage.c writes it as hex; triage_report.c shows them escaped). */
int tnorm__json_is_text(const char *s, size_t len);

/* The `len` bytes at p (any bytes), each as two lowercase hex digits; NULL when out of memory. */
json_t *tnorm__json_hex(const char *p, size_t len);
/* Set o[key] to the `len` bytes at `p` as readable text (tnorm__json_text) and, when that is not
 * all of them (tnorm__json_is_text is 0), o[hexkey] to their exact copy in lowercase hex.
 * Nonzero when out of memory (as jansson's set functions). */
int tnorm__json_set_bytes(json_t *o, const char *key, const char *hexkey, const char *p, size_t len);

/* `v` when it was built whole (`bad` is 0), else NULL with `v` released: what a function that
 * builds a value returns, so that its caller's set or append fails in turn. */
json_t *tnorm__json_done(json_t *v, int bad);

/* Render `v` with TNORM__JSON_FLAGS into *out (freed with tnorm_free).  Always releases the
 * caller's reference to `v`.  `built` is nonzero when building `v` failed (a jansson call
 * returned -1): then, as when `v` is NULL, nothing is rendered.  0 or TNORM_ENOMEM. */
int tnorm__json_dump(char **out, json_t *v, int built);
/* The same, appended to `b` with no copy of the text (the buffer stays the caller's; on failure
 * it may hold part of the text). */
int tnorm__json_dump_buf(tnorm__buf *b, json_t *v, int built);

#endif

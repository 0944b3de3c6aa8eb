/* SPDX-License-Identifier: MIT */
/*
 * order.h - one action of a harness: its index in the total order, and its text.
 *
 * harness.h loads a harness and describes its pools and templates; this header walks the total
 * order it defines (harness.h's essay says how actions are ordered) and converts one action to
 * and from the canonical step text a test is written in.  Every function borrows the harness
 * and writes into memory the caller owns; none allocates.
 */
#ifndef TNORM_ORDER_H
#define TNORM_ORDER_H

#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Index of an action in the total order.  0, or TNORM_EINVALID for an out-of-range choice. */
TNORM_EXTERN int tnorm_harness_rank(const tnorm_harness *h, const tnorm_action *a, uint64_t *out);

/** The action with index `idx`.  0, or TNORM_EINVALID when idx >= action_count. */
TNORM_EXTERN int tnorm_harness_unrank(const tnorm_harness *h, uint64_t idx, tnorm_action *out);

/**
 * Render an action as its canonical step text ("avl_insert(avl0, int2)", "int0 = 13",
 * "avl0 = avl_new()", "s0 = \"a b\"").  Writes at most `size` bytes including the NUL and
 * returns the length the full text needs (like snprintf), or a negative code.
 */
TNORM_EXTERN int tnorm_harness_format_action(const tnorm_harness *h, const tnorm_action *a,
                                             char *buf, size_t size);

/**
 * Parse one step text (surrounding blanks and a trailing `# comment` allowed) into an action.
 * On error returns TNORM_EPARSE with message "<what>: expected ..." (no file:line prefix: the
 * test parser adds it) and `*col` (1-based, may be NULL) set to the offending column.
 */
TNORM_EXTERN int tnorm_harness_parse_action(const tnorm_harness *h, const char *text, size_t len,
                                            tnorm_action *out, size_t *col);

#ifdef __cplusplus
}
#endif
#endif

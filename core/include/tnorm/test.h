/* SPDX-License-Identifier: MIT */
/*
 * test.h - a test: a sequence of steps, each a concrete action of a harness.
 *
 * A test file has one step a line; blank lines and `#` comments are ignored, so an annotated test
 * is still a runnable test.  Canonical text is one rendered action a line, each ending in "\n":
 * parsing canonical text and formatting it back gives the same bytes.
 *
 * A test borrows its harness: the harness must outlive it.
 *
 * Defined in: test.c, gen.c (tnorm_test_generate), lex.c (tnorm_string_quote: the quoting
 *             the harness and test files use).
 */
#ifndef TNORM_TEST_H
#define TNORM_TEST_H

#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tnorm_test tnorm_test;

/**
 * Create an empty test over harness `h` (borrowed; must outlive the test).
 * Free with tnorm_test_free().  0 or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_test_new(tnorm_test **out, const tnorm_harness *h);

/**
 * Parse test text.  `name` is used in messages ("name:LINE:COL: ...").  Does not check
 * well-formedness (see tnorm_test_check).  0, TNORM_EPARSE (an unknown or malformed step: the
 * message names its line), TNORM_ENOMEM.  On error *out is NULL.
 */
TNORM_EXTERN int tnorm_test_parse(tnorm_test **out, const tnorm_harness *h, const char *name,
                                  const char *text, size_t len);

/** Read and parse a test file.  As tnorm_test_parse, plus TNORM_EIO. */
TNORM_EXTERN int tnorm_test_load(tnorm_test **out, const tnorm_harness *h, const char *path);

/** Deep copy.  Free with tnorm_test_free().  0 or TNORM_ENOMEM. */
TNORM_EXTERN int tnorm_test_dup(tnorm_test **out, const tnorm_test *t);

/** Free a test.  NULL is a no-op. */
TNORM_EXTERN void tnorm_test_free(tnorm_test *t);

/** The harness the test was made over (borrowed). */
TNORM_EXTERN const tnorm_harness *tnorm_test_harness(const tnorm_test *t);

/** Number of steps. */
TNORM_EXTERN size_t tnorm_test_len(const tnorm_test *t);

/** Step i (i < len); the pointer is borrowed and valid until the test is next modified. */
TNORM_EXTERN const tnorm_action *tnorm_test_step(const tnorm_test *t, size_t i);

/**
 * Line number (1-based) that step i came from when the test was parsed; 0 for steps added
 * later.  Used to point errors at the user's file.
 */
TNORM_EXTERN uint32_t tnorm_test_step_line(const tnorm_test *t, size_t i);

/** Append a step.  0, TNORM_EINVALID (choice out of range), TNORM_ENOMEM. */
TNORM_EXTERN int tnorm_test_append(tnorm_test *t, const tnorm_action *a);

/** Replace step i.  0 or TNORM_EINVALID. */
TNORM_EXTERN int tnorm_test_set(tnorm_test *t, size_t i, const tnorm_action *a);

/** Remove all steps. */
TNORM_EXTERN void tnorm_test_clear(tnorm_test *t);

/** Remove step i, shifting later steps down.  0 or TNORM_EINVALID. */
TNORM_EXTERN int tnorm_test_remove(tnorm_test *t, size_t i);

/** Insert an action before step i (i == len appends).  0, TNORM_EINVALID, TNORM_ENOMEM. */
TNORM_EXTERN int tnorm_test_insert(tnorm_test *t, size_t i, const tnorm_action *a);

/** A 64-bit content hash over the steps' action indices (equal tests hash equal). */
TNORM_EXTERN uint64_t tnorm_test_hash(const tnorm_test *t);

/** 1 when well-formed (see tnorm_test_check), else 0; sets no error.  Cheap: for filters. */
TNORM_EXTERN int tnorm_test_is_wellformed(const tnorm_test *t);

/**
 * A random well-formed test of `steps` steps: at each step a template is chosen uniformly among
 * those whose argument pools have an assigned instance, then each slot uniformly (an instance
 * that was assigned and not used since is not reassigned while another choice exists).  The same
 * harness and seed always give the same test.  Free with tnorm_test_free().
 * 0, TNORM_EINVALID (no template can start a test), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_test_generate(tnorm_test **out, const tnorm_harness *h, size_t steps,
                                     uint64_t seed);

/**
 * Canonical text: one rendered step a line, each ending in "\n" (empty test: "").
 * *out receives a NUL-terminated string the caller frees with tnorm_free(); *len (may be NULL)
 * its length.  0 or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_test_format(const tnorm_test *t, char **out, size_t *len);

/**
 * `len` bytes of `s` (any bytes) as a string literal of the test syntax, in double quotes:
 * printable ASCII as is, `"` and `\` escaped, newline, tab, carriage return and NUL as \n, \t,
 * \r, \0, every other byte (controls, DEL, bytes over 0x7f) as \xHH.  The text is ASCII and
 * reads back as `s` in a test.  (A test's own steps keep bytes over 0x7f as they are: this form
 * is for showing bytes that may be anything, as `tnorm pools` shows a string instance.)
 * *out receives a NUL-terminated string the caller frees with tnorm_free(); NULL on error.
 * 0, TNORM_EINVALID (NULL out, or NULL s with len > 0), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_string_quote(const char *s, size_t len, char **out);

/**
 * Compare two tests in the simplicity order: shorter first, then step by step by action index.
 * Returns <0, 0 or >0.  Both must be over the same harness.
 */
TNORM_EXTERN int tnorm_test_compare(const tnorm_test *a, const tnorm_test *b);

/**
 * Well-formedness: no step uses a pool instance before some earlier step assigned it, and every
 * step of a template with a guard (`requires NAME(...)`, issue 16) comes after a step the guard
 * matches, with the same values where it names a pool; such a step breaks its guard otherwise:
 * "step K (line L): del(t0, k0) breaks its guard 'requires put(<t>, <k>)' (h.tnh:7): no earlier
 * step put(t0, k0) with the values these instances hold now".
 * Returns 0 when well-formed; otherwise TNORM_EINVALID with a message
 * "step K (line L): avl1 is used before it is assigned" and, if `bad_step` is not NULL,
 * the 0-based index of the first offending step in *bad_step.
 */
TNORM_EXTERN int tnorm_test_check(const tnorm_test *t, size_t *bad_step);

/** How much a call is assumed to modify, for def/use (the slicing levels of design.md). */
typedef enum tnorm_defuse_level {
	/** ℓ0: `pure` calls and calls whose result is stored modify nothing. */
	TNORM_DEFUSE_L0 = 0,
	/** ℓ1 (the default model): every non-pure call modifies its non-const pool arguments. */
	TNORM_DEFUSE_L1 = 1
} tnorm_defuse_level;

/**
 * Def/use of one action, as variable ids (see tnorm_harness_var_count).  An assignment defines
 * its left-hand side and uses its pool arguments.  A call uses all its pool arguments and, under
 * L1, defines every non-const one unless `pure`; under L0, a pure call or a call whose result is
 * stored defines only its left-hand side.
 *
 * `def` and `use` are caller arrays of at least TNORM_MAX_SLOTS entries; *ndef and *nuse
 * receive the counts (each id at most once).  0 or TNORM_EINVALID.
 */
TNORM_EXTERN int tnorm_harness_defuse(const tnorm_harness *h, const tnorm_action *a,
                                      tnorm_defuse_level level, uint32_t *def, size_t *ndef,
                                      uint32_t *use, size_t *nuse);

#ifdef __cplusplus
}
#endif
#endif

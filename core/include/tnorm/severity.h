/* SPDX-License-Identifier: MIT */
/*
 * severity.h - how severe a failure is, as crash triage tools class it (CASR, GDB's
 * `exploitable`): EXPLOITABLE, PROBABLY_EXPLOITABLE, NOT_EXPLOITABLE or UNKNOWN, with a short
 * reason, from the failure's kind (signature.h) and, for a SIGSEGV, the faulting address when it
 * is known.  The rules are a small table (severity.c; docs/signatures.md, "Severity"): a write out
 * of bounds, a use-after-free, a double free is EXPLOITABLE; a read out of bounds, a near-NULL
 * dereference, an assertion, an abort or an exit is NOT_EXPLOITABLE; a wild SIGSEGV is
 * PROBABLY_EXPLOITABLE.  The class is a hint for ordering bugs, not a proof either way.
 *
 * Defined in: severity.c.
 */
#ifndef TNORM_SEVERITY_H
#define TNORM_SEVERITY_H

#include "common.h"
#include "signature.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The classes, least severe first (so that a larger value is more severe, UNKNOWN aside). */
typedef enum tnorm_severity_class {
	TNORM_SEVERITY_UNKNOWN = 0,              /**< no rule says: the kind alone cannot tell */
	TNORM_SEVERITY_NOT_EXPLOITABLE = 1,      /**< stops the program and gives no control */
	TNORM_SEVERITY_PROBABLY_EXPLOITABLE = 2, /**< memory is misused in a way that may be steered */
	TNORM_SEVERITY_EXPLOITABLE = 3           /**< memory is corrupted: writes where it must not */
} tnorm_severity_class;

/** A class and why.  Both strings are static: never freed, valid for the program's life. */
typedef struct tnorm_severity {
	tnorm_severity_class cls;
	const char *name;   /**< "EXPLOITABLE", "PROBABLY_EXPLOITABLE", "NOT_EXPLOITABLE", "UNKNOWN" */
	const char *reason; /**< one short phrase, e.g. "out-of-bounds write (heap)" */
} tnorm_severity;

/** A SIGSEGV whose faulting address is below this is a near-NULL dereference (64 KiB). */
#define TNORM_SEVERITY_NEAR_NULL 0x10000u

/** The class's name ("EXPLOITABLE", ...).  Static. */
TNORM_EXTERN const char *tnorm_severity_class_name(tnorm_severity_class cls);

/**
 * Class a failure from its kind as signature.h names it ("SIGSEGV", "exit(3)",
 * "asan:heap-buffer-overflow:WRITE", "ubsan:signed-integer-overflow", "check-failed:NAME",
 * "uncaught std::invalid_argument", ...).  `fault_addr` is the faulting address of a SIGSEGV or
 * SIGBUS (the signal's si_addr) or NULL when it is not known; other kinds ignore it.
 * @return 0; TNORM_EINVALID (NULL out or kind).
 */
TNORM_EXTERN int tnorm_severity_of_kind(tnorm_severity *out, const char *kind,
                                        const uint64_t *fault_addr);

/** tnorm_severity_of_kind with the signature's kind; a stack that ran out in an unbounded
 * recursion (docs/signatures.md, "Stack exhaustion") is rated as "asan:stack-overflow".
 * 0; TNORM_EINVALID (NULL argument). */
TNORM_EXTERN int tnorm_severity_of_signature(tnorm_severity *out, const tnorm_signature *s,
                                             const uint64_t *fault_addr);

/**
 * The same from a signature's canonical text (tnorm_signature_format: "KIND at FRAME <- ...",
 * or the kind alone), as a triage's result keeps it: the kind is the text up to " at " (an
 * uncaught exception's quoted what() text skipped).  No fault address.
 * @return 0; TNORM_EINVALID (NULL argument).
 */
TNORM_EXTERN int tnorm_severity_of_text(tnorm_severity *out, const char *signature_text);

#ifdef __cplusplus
}
#endif
#endif

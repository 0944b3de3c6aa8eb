/* SPDX-License-Identifier: MIT */
/*
 * errors.h - error codes and the per-thread "last error".
 *
 * Every fallible function returns an int: 0 (TNORM_OK) on success, one of the negative codes
 * below on failure.  The function that detects a problem records a one-line, user-facing message
 * (with file:line:col where there is one) in a thread-local slot that tnorm_error_last() reads.
 * Messages are written to be shown as-is: in a terminal, or as a Python exception inside gdb.
 *
 * Defined in: error.c.
 */
#ifndef TNORM_ERRORS_H
#define TNORM_ERRORS_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Return codes.  Only these are returned; callers may compare against them. */
typedef enum tnorm_error_code {
	TNORM_OK = 0,
	TNORM_ERROR = -1,        /**< generic failure (see message) */
	TNORM_EINVALID = -2,     /**< bad argument, bad option, or ill-formed input */
	TNORM_EPARSE = -3,       /**< syntax error in a harness or test file (message has file:line:col) */
	TNORM_ENOTFOUND = -4,    /**< a named thing (file, pool, template, command) does not exist */
	TNORM_ENOMEM = -5,       /**< out of memory */
	TNORM_EIO = -6,          /**< an I/O or system call failed (message has the errno text) */
	TNORM_ETIMEOUT = -7,     /**< a time budget ran out */
	TNORM_EINTERRUPTED = -8, /**< stopped on request (Ctrl-C); partial results are valid */
	TNORM_EOVERFLOW = -9,    /**< a count does not fit (e.g. an action universe over 2^64) */
	TNORM_ENOTFAIL = -10,    /**< the original test does not fail (nothing to reduce) */
	TNORM_EFLAKY = -11,      /**< the original failure does not reproduce reliably */
	TNORM_EDB = -12          /**< the result database could not be opened, read or written */
} tnorm_error_code;

/** The last error recorded on this thread. */
typedef struct tnorm_error {
	int code;            /**< one of tnorm_error_code */
	const char *message; /**< one line, no trailing newline; never NULL */
} tnorm_error;

/**
 * The last error recorded on the calling thread, or NULL if none since the last
 * tnorm_error_clear().  The pointer is borrowed: valid until the next tnorm call on this thread.
 */
TNORM_EXTERN const tnorm_error *tnorm_error_last(void);

/** Forget the calling thread's last error. */
TNORM_EXTERN void tnorm_error_clear(void);

/** A short static name for a code, e.g. "EPARSE".  Never NULL; never free it. */
TNORM_EXTERN const char *tnorm_error_name(int code);

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: MIT */
/*
 * report.h (internal) - read what a failing program said about its failure: sanitizer reports
 * (AddressSanitizer, UndefinedBehaviorSanitizer, LeakSanitizer) and the tnorm driver runtime's
 * own failure lines, from the program's captured standard error.
 */
#ifndef TNORM__REPORT_H
#define TNORM__REPORT_H

#include "common.h"

/* One frame of a report's stack: module path + module-relative address (symbolize=0), or, when
 * the report was symbolized by the sanitizer itself, function/file/line. */
typedef struct {
	char *module;
	uint64_t offset;
	char *function;
	char *file;
	uint32_t line;
} tnorm__report_frame;

enum { TNORM__REPORT_FREE = 0, TNORM__REPORT_ALLOC = 1, TNORM__REPORT_LEAK = 2,
       TNORM__REPORT_STACKS = 3 };

typedef struct {
	char kind[128]; /* "asan:heap-use-after-free:READ", "ubsan:signed-integer-overflow",
	                 * "lsan:leak", "check-failed:avl_check", ...; "" when nothing was found */
	tnorm__report_frame *stack[TNORM__REPORT_STACKS];
	size_t nstack[TNORM__REPORT_STACKS];
} tnorm__report;

/*
 * Parse `err` (NUL-terminated, may be NULL).  Fills *rep (dispose it with tnorm__report_dispose
 * whatever the return).  0, or TNORM_ENOMEM.  Text that is not a report leaves kind "".
 */
int tnorm__report_parse(const char *err, tnorm__report *rep);
void tnorm__report_dispose(tnorm__report *rep);

/* "signed integer overflow: 2147483647 + 1 cannot..." -> "signed-integer-overflow": the
 * message up to the first ':', digit or quote, spaces as dashes (values vary, the kind must not). */
void tnorm__report_ubsan_kind(const char *msg, char *out, size_t size);

#endif

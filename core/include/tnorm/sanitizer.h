/* SPDX-License-Identifier: MIT */
/*
 * sanitizer.h - what tnorm knows about the sanitizers (ASan, UBSan, LSan, MSan, TSan, HWASan),
 * in one place: the name prefixes of their runtimes' functions, the runtimes' libraries, the
 * functions a report starts in and the hook UBSan calls for a debugger, their options
 * variables, and the form of a failure kind they report ("asan:TYPE:READ", "ubsan:WORD").
 * The library (signature, report, runner, symbolizer) and the debugger plugins (through the
 * Python binding, _tnorm.sanitizers) read these; a new sanitizer is added here.
 *
 * Defined in: sanitizer.c.
 */
#ifndef TNORM_SANITIZER_H
#define TNORM_SANITIZER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The lists of names tnorm_sanitizer_name gives. */
typedef enum tnorm_sanitizer_list {
	/** Prefixes of the runtimes' C functions and interceptors ("__asan", "__interceptor_"). */
	TNORM_SANITIZER_FUNCTIONS = 0,
	/** The runtimes' C++ namespaces, with "::" ("__asan::"); a demangled name holding one
	 * anywhere (a template's return type comes first) is the runtime's. */
	TNORM_SANITIZER_NAMESPACES = 1,
	/** Prefixes of the runtimes' shared libraries' file names ("libasan", "libclang_rt."). */
	TNORM_SANITIZER_LIBRARIES = 2,
	/** Where a report starts: the prefixes of the functions instrumented code calls for a
	 * report ("__asan_report_", "__ubsan_handle_"), and the one ASan function every report of
	 * a bad access goes through ("__asan::ReportGenericError"). */
	TNORM_SANITIZER_REPORT_ENTRIES = 3,
	/** The options variables tnorm merges flag by flag ("ASAN_OPTIONS", ...). */
	TNORM_SANITIZER_OPTION_VARS = 4,
	/** UBSan's hook for debuggers, called with the report's data ("__ubsan_on_report"). */
	TNORM_SANITIZER_UBSAN_HOOK = 5,
	/** The functions of the runtimes a debugger calls to read a report, in this order: ASan's
	 * description, ASan's report-present, ASan's access type, UBSan's current report data. */
	TNORM_SANITIZER_QUERIES = 6
} tnorm_sanitizer_list;

/** The i-th name of `list` (a static string), NULL past the last or for an unknown list. */
TNORM_EXTERN const char *tnorm_sanitizer_name(tnorm_sanitizer_list list, size_t i);

/** A short lower-case key for `list` ("functions", "namespaces", "libraries",
 * "report_entries", "option_vars", "ubsan_hook", "queries"; static), NULL for an unknown list:
 * lists run from 0 up to the first that has no key. */
TNORM_EXTERN const char *tnorm_sanitizer_list_key(tnorm_sanitizer_list list);

/**
 * The failure kind of a sanitizer's report: "TOOL:TYPE", or "TOOL:TYPE:ACCESS" when `access`
 * is neither NULL nor "" ("asan", "heap-use-after-free", "READ" gives
 * "asan:heap-use-after-free:READ"; "ubsan", "signed-integer-overflow", NULL gives
 * "ubsan:signed-integer-overflow").  `tool` is the sanitizer's short name ("asan", "ubsan",
 * "lsan", ...).  *out is the caller's (tnorm_free).  0, TNORM_EINVALID for a NULL or empty tool
 * or type, or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_sanitizer_kind(char **out, const char *tool, const char *type,
                                      const char *access);

#ifdef __cplusplus
}
#endif

#endif

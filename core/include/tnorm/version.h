/* SPDX-License-Identifier: MIT */
/*
 * version.h - which versions of its libraries tnorm was built with, and which it runs with.
 *
 * A signature depends on libunwind and libdwarf (and capstone at a merged abort site), the cache on SQLite (or PostgreSQL, through
 * libpq), every JSON text on jansson and the debugger plugins on Python; a bug report that names
 * them saves a round trip.
 */
#ifndef TNORM_VERSION_H
#define TNORM_VERSION_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One library tnorm depends on. */
typedef struct tnorm_component_version {
	/** "libunwind", "libdwarf", "capstone", "SQLite", "jansson", "libpq" or "Python". */
	const char *name;
	/** The version of the headers tnorm was compiled with; NULL when they do not say. */
	const char *compiled;
	/** The version of the library loaded now; NULL when the library cannot tell (libunwind has
	 *  no such call; Python is not loaded by libtnorm: the debugger plugins' binding is). */
	const char *running;
	/** A short note for a person, e.g. "the gdb/lldb binding"; "" when there is none. */
	const char *note;
} tnorm_component_version;

/**
 * The libraries above, in that order.  *n (may be NULL) receives their count.  The array and its
 * strings are static storage, valid for the life of the process; never free them.
 */
TNORM_EXTERN const tnorm_component_version *tnorm_component_versions(size_t *n);

#ifdef __cplusplus
}
#endif
#endif

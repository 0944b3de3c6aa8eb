/* SPDX-License-Identifier: MIT */
/*
 * version.c - the versions of the libraries tnorm was compiled with and runs with.
 *
 * Compile-time versions come from each library's header where it has one (libunwind's
 * UNW_VERSION_*, capstone's CS_API_*, SQLITE_VERSION, JANSSON_VERSION, libpq's
 * PG_MAJORVERSION_NUM and PG_MINORVERSION_NUM, libdwarf 0.x's DW_LIBDWARF_VERSION); the
 * Python version is that of the interpreter the binding was built for, which meson passes in
 * buildinfo.h since libtnorm itself does not link Python.  Run-time versions come from the
 * libraries that can report one (cs_version, sqlite3_libversion, jansson_version_str, PQlibVersion,
 * dwarf_package_version).
 */
#include <capstone/capstone.h>
#include <libdwarf.h>
#include <libpq-fe.h>
#include <pg_config.h>
#include <libunwind.h>
#include <jansson.h>
#include <sqlite3.h>
#include <pthread.h>
#include <stdio.h>

#include "tnorm/version.h"
#include "buildinfo.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static tnorm_component_version versions[] = {
	{"libunwind", STR(UNW_VERSION_MAJOR) "." STR(UNW_VERSION_MINOR) "." STR(UNW_VERSION_EXTRA),
	 NULL, ""},
#ifdef DW_LIBDWARF_VERSION
	{"libdwarf", DW_LIBDWARF_VERSION, NULL, ""},
#else
	{"libdwarf", NULL, NULL, ""},
#endif
	{"capstone", STR(CS_API_MAJOR) "." STR(CS_API_MINOR) "." STR(CS_VERSION_EXTRA), NULL, ""},
	{"SQLite", SQLITE_VERSION, NULL, ""},
	{"jansson", JANSSON_VERSION, NULL, ""},
	{"libpq", STR(PG_MAJORVERSION_NUM) "." STR(PG_MINORVERSION_NUM), NULL, ""},
#if TNORM_BUILD_HAVE_PYTHON
	{"Python", TNORM_BUILD_PYTHON_VERSION, NULL, "the gdb/lldb binding"},
#else
	{"Python", NULL, NULL, "no gdb/lldb binding built"},
#endif
};
static pthread_once_t versions_once = PTHREAD_ONCE_INIT;
static char libpq_running[24], capstone_running[24];

/* The run-time versions: the libraries' own static strings, asked once. */
static void versions_fill(void)
{
	int pq = PQlibVersion(); /* 150020 for 15.20 (PostgreSQL 10 and later) */
	int cs_major = 0, cs_minor = 0;

	versions[1].running = dwarf_package_version();
	cs_version(&cs_major, &cs_minor); /* (no patch level) */
	snprintf(capstone_running, sizeof(capstone_running), "%d.%d", cs_major, cs_minor);
	versions[2].running = capstone_running;
	versions[3].running = sqlite3_libversion();
	versions[4].running = jansson_version_str();
	snprintf(libpq_running, sizeof(libpq_running), "%d.%d", pq / 10000, pq % 10000);
	versions[5].running = libpq_running;
}

const tnorm_component_version *tnorm_component_versions(size_t *n)
{
	pthread_once(&versions_once, versions_fill);
	if (n)
		*n = sizeof(versions) / sizeof(versions[0]);
	return versions;
}

/* SPDX-License-Identifier: MIT */
/*
 * sanitizer.c - the sanitizers' names, options and kinds (tnorm/sanitizer.h,
 * sanitizer_internal.h): the one place that knows them.  Adding a sanitizer means adding its
 * names to the lists below (and its report's first line to report.c's parser).
 */
#include <stdio.h>
#include <string.h>

#include "sanitizer_internal.h"

static const char *const functions[] = {"__asan",          "__ubsan",         "__lsan",
                                        "__sanitizer",     "__interceptor_", "___interceptor_",
                                        "__tsan_",         "__msan_",         NULL};
static const char *const namespaces[] = {"__sanitizer::", "__asan::", "__ubsan::",
                                         "__lsan::",      "__interception::", "__tsan::",
                                         "__msan::",      "__hwasan::",       "__scudo::", NULL};
static const char *const libraries[] = {"libasan", "libubsan",  "liblsan",      "libtsan",
                                        "libhwasan", "libclang_rt.", NULL};
static const char *const report_entries[] = {"__asan_report_", "__ubsan_handle_",
                                             "__asan::ReportGenericError", NULL};
static const char *const option_vars[] = {TNORM__SAN_ASAN_OPTIONS, TNORM__SAN_UBSAN_OPTIONS,
                                          "LSAN_OPTIONS", "MSAN_OPTIONS", "TSAN_OPTIONS",
                                          "HWASAN_OPTIONS", NULL};
static const char *const ubsan_hook[] = {"__ubsan_on_report", NULL};
static const char *const queries[] = {"__asan_get_report_description", "__asan_report_present",
                                      "__asan_get_report_access_type",
                                      "__ubsan_get_current_report_data", NULL};

static const struct {
	const char *key;
	const char *const *names;
} lists[] = {{"functions", functions},   {"namespaces", namespaces},
             {"libraries", libraries},   {"report_entries", report_entries},
             {"option_vars", option_vars}, {"ubsan_hook", ubsan_hook},
             {"queries", queries}};

/* The engine's own runs: a report ends in an abort (traced and unwound), unsymbolized (fast),
 * leaks unchecked (a test driver keeps its objects to the end). */
static const char *const run_defaults[] = {
	TNORM__SAN_ASAN_OPTIONS "=abort_on_error=1:detect_leaks=0:symbolize=0:handle_abort=0",
	TNORM__SAN_UBSAN_OPTIONS "=halt_on_error=1:abort_on_error=1:print_stacktrace=0", NULL};
/* An exported test: a report aborts, the report stays readable. */
static const char *const export_defaults[] = {
	TNORM__SAN_ASAN_OPTIONS "=abort_on_error=1:detect_leaks=0",
	TNORM__SAN_UBSAN_OPTIONS "=halt_on_error=1:abort_on_error=1", NULL};
static const struct {
	const char *name, *defaults;
} debug_vars[] = {{TNORM__SAN_ASAN_OPTIONS, ""}, {TNORM__SAN_UBSAN_OPTIONS, "halt_on_error=1"}};

const char *tnorm_sanitizer_list_key(tnorm_sanitizer_list list)
{
	return (size_t)list < sizeof(lists) / sizeof(lists[0]) ? lists[list].key : NULL;
}

const char *tnorm_sanitizer_name(tnorm_sanitizer_list list, size_t i)
{
	size_t k;
	if ((size_t)list >= sizeof(lists) / sizeof(lists[0]))
		return NULL;
	for (k = 0; k < i && lists[list].names[k]; k++)
		;
	return lists[list].names[k];
}

const char *tnorm__sanitizer_run_default(size_t i)
{
	return i < sizeof(run_defaults) / sizeof(run_defaults[0]) ? run_defaults[i] : NULL;
}

const char *tnorm__sanitizer_export_default(size_t i)
{
	return i < sizeof(export_defaults) / sizeof(export_defaults[0]) ? export_defaults[i] : NULL;
}

const char *tnorm__sanitizer_debug_var(size_t i, const char **defaults)
{
	if (i >= sizeof(debug_vars) / sizeof(debug_vars[0]))
		return NULL;
	if (defaults)
		*defaults = debug_vars[i].defaults;
	return debug_vars[i].name;
}

const char *tnorm__sanitizer_debug_forced(void)
{
	return "abort_on_error=1";
}

int tnorm__sanitizer_stack_overflow(const char *kind)
{
	return kind && !strcmp(kind, "asan:stack-overflow");
}

void tnorm__sanitizer_kind_buf(char *out, size_t size, const char *tool, const char *type,
                               const char *access)
{
	int with = access && access[0];
	snprintf(out, size, "%s:%s%s%s", tool, type, with ? ":" : "", with ? access : "");
}

int tnorm_sanitizer_kind(char **out, const char *tool, const char *type, const char *access)
{
	size_t size;
	if (!out || !tool || !type || !tool[0] || !type[0])
		return tnorm__error_set(TNORM_EINVALID, "tnorm_sanitizer_kind: NULL or empty argument");
	size = strlen(tool) + strlen(type) + (access ? strlen(access) : 0) + 3;
	if (!(*out = tnorm__malloc(size)))
		return TNORM_ENOMEM;
	tnorm__sanitizer_kind_buf(*out, size, tool, type, access);
	return 0;
}

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* "_ZN" LEN NAME: a namespace ("__asan::") as the Itanium ABI mangles it ("_ZN6__asan"). */
static int mangled_namespace(const char *fn, const char *ns)
{
	size_t len = strlen(ns) - 2;
	char pre[64];
	snprintf(pre, sizeof(pre), "_ZN%zu%.*s", len, (int)len, ns);
	return has_prefix(fn, pre);
}

int tnorm__sanitizer_runtime_function(const char *fn)
{
	size_t i;
	for (i = 0; functions[i]; i++)
		if (has_prefix(fn, functions[i]))
			return 1;
	for (i = 0; namespaces[i]; i++)
		if (strstr(fn, namespaces[i]) || mangled_namespace(fn, namespaces[i]))
			return 1;
	return 0;
}

int tnorm__sanitizer_interceptor(const char *name)
{
	return has_prefix(name, "__interceptor_") || has_prefix(name, "___interceptor_");
}

int tnorm__sanitizer_runtime_library(const char *base)
{
	size_t i;
	for (i = 0; libraries[i]; i++)
		if (has_prefix(base, libraries[i]))
			return 1;
	return 0;
}

int tnorm__sanitizer_report_noreturn(const char *fn)
{
	if (has_prefix(fn, report_entries[0])) /* (the _noabort ones return) */
		return strstr(fn, "noabort") == NULL;
	if (has_prefix(fn, report_entries[1])) /* (only the _abort ones do not) */
		return strstr(fn, "_abort") != NULL;
	return -1;
}

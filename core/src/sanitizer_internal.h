/* SPDX-License-Identifier: MIT */
/*
 * sanitizer_internal.h (internal) - the sanitizer knowledge of tnorm/sanitizer.h that only the
 * library uses: the options tnorm gives a program, and tests of a function's or library's name.
 * The names as plain strings are in sanitizer_names.h.
 */
#ifndef TNORM__SANITIZER_INTERNAL_H
#define TNORM__SANITIZER_INTERNAL_H

#include "common.h"
#include "sanitizer_names.h"
#include "tnorm/sanitizer.h"

/* The i-th "NAME=FLAGS" the runner gives every program (each merged over the user's own value
 * of NAME; then --env over it), NULL past the last. */
const char *tnorm__sanitizer_run_default(size_t i);

/* The i-th "NAME=FLAGS" of an exported test's environment (export.c), NULL past the last. */
const char *tnorm__sanitizer_export_default(size_t i);

/* The i-th options variable a debugger's program gets (ASAN_OPTIONS, UBSAN_OPTIONS), NULL past
 * the last; *defaults (when not NULL) its default flags, which the user's flags override. */
const char *tnorm__sanitizer_debug_var(size_t i, const char **defaults);

/* The flags a debugger's program always gets (abort_on_error=1). */
const char *tnorm__sanitizer_debug_forced(void);

/* 1 when `kind` is a sanitizer's report of a stack that ran out (ASan's stack-overflow). */
int tnorm__sanitizer_stack_overflow(const char *kind);

/* The kind "TOOL:TYPE[:ACCESS]" (tnorm_sanitizer_kind) into out[size], truncated. */
void tnorm__sanitizer_kind_buf(char *out, size_t size, const char *tool, const char *type,
                               const char *access);

/* 1 when `fn` is a function of a sanitizer runtime: a prefix of TNORM_SANITIZER_FUNCTIONS, a
 * namespace of TNORM_SANITIZER_NAMESPACES anywhere in it, or that namespace still mangled
 * ("_ZN6__asan..."). */
int tnorm__sanitizer_runtime_function(const char *fn);

/* 1 when `name` is an interceptor's ("__interceptor_strcmp"), which wins over its alias. */
int tnorm__sanitizer_interceptor(const char *name);

/* 1 when the file name `base` (no directory) is a sanitizer runtime's library. */
int tnorm__sanitizer_runtime_library(const char *base);

/* For a call to `fn`: 1 when it starts a sanitizer report that does not return (ASan's
 * __asan_report_* but the _noabort ones, UBSan's __ubsan_handle_*_abort), 0 when it starts one
 * that returns, -1 when it starts none. */
int tnorm__sanitizer_report_noreturn(const char *fn);

#endif

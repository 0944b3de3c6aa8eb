/* SPDX-License-Identifier: MIT */
/*
 * sanitizer_names.h (internal) - sanitizer names as plain string macros (no declarations), so
 * that code which does not link the library (the preload library) names them too.  The rest of
 * tnorm's sanitizer knowledge: sanitizer_internal.h, tnorm/sanitizer.h (sanitizer.c).
 */
#ifndef TNORM__SANITIZER_NAMES_H
#define TNORM__SANITIZER_NAMES_H

#define TNORM__SAN_ASAN_OPTIONS "ASAN_OPTIONS"
#define TNORM__SAN_UBSAN_OPTIONS "UBSAN_OPTIONS"
/* The flag that lets a shared ASan runtime start after a preloaded library (the fork server's) */
#define TNORM__SAN_ASAN_LINK_ORDER "verify_asan_link_order=0"
/* The flag that turns LeakSanitizer on in ASan, and the whole variable for the runner's leak
 * check of passing runs. */
#define TNORM__SAN_DETECT_LEAKS "detect_leaks=1"
#define TNORM__SAN_LEAK_ENV TNORM__SAN_ASAN_OPTIONS "=" TNORM__SAN_DETECT_LEAKS
/* Symbols whose presence in an ELF file says it has ASan's runtime, or LSan's (a prefix). */
#define TNORM__SAN_ASAN_INIT "__asan_init"
#define TNORM__SAN_LSAN_PREFIX "__lsan_"
/* The function name the symbolizer gives the unnamed code of a runtime linked into a stripped
 * executable (it is a runtime function name: tnorm__sanitizer_runtime_function). */
#define TNORM__SAN_RUNTIME_CODE "__sanitizer_runtime"

#endif

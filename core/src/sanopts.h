/* SPDX-License-Identifier: MIT */
/*
 * sanopts.h (internal) - sanitizer option strings (ASAN_OPTIONS and friends), merged key by key.
 */
#ifndef TNORM__SANOPTS_H
#define TNORM__SANOPTS_H

#include "common.h"

/* 1 when NAME (of length `len`, without the '=') is a sanitizer options variable whose values
 * tnorm merges rather than replaces: ASAN_OPTIONS, UBSAN_OPTIONS, LSAN_OPTIONS, MSAN_OPTIONS,
 * TSAN_OPTIONS, HWASAN_OPTIONS. */
int tnorm__sanopts_is_var(const char *name, size_t len);

/* The i-th of those names (static), NULL past the last. */
const char *tnorm__sanopts_var(size_t i);

/*
 * Merge two sanitizer option strings: the flags of `base` in their order, each one that `over`
 * also sets taking `over`'s value, then the flags only `over` sets, in its order; joined by ':'.
 * Flags are separated as the sanitizers separate them (':', ',', blanks) and a value may be
 * quoted ('...' or "...", kept as written).  *out is freed with free().  0 or TNORM_ENOMEM.
 */
int tnorm__sanopts_merge(const char *base, const char *over, char **out);

/*
 * 1 when `path` is a tnorm driver built with ASan or LSan that has a destroy hook for some pool
 * (issue 16): an ELF file naming tnorm_drv_main_pools and __asan_init or __lsan_*, which, run
 * as `path --print-hooks` (untraced, standard input and error on /dev/null, environment
 * `envp`, at most 10 s), prints a `destroy POOL` line.  Such a program frees what its test
 * made, so the runner checks its passing runs for leaks.  0 for anything else (a script,
 * another program, a build without a leak checker, a stripped static driver), and when the
 * program cannot be read or run: leaks then stay unchecked, as before.
 */
int tnorm__sanopts_program_frees(const char *path, char *const *envp);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * common.h (internal) - what every engine source file needs: the allocator path, the error
 * setters, and a growable byte buffer.  Internal names carry the tnorm__ prefix and are not
 * exported from the shared library.
 */
#ifndef TNORM__COMMON_H
#define TNORM__COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tnorm/common.h"
#include "tnorm/errors.h"

#if defined(__GNUC__) || defined(__clang__)
#define TNORM__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TNORM__PRINTF(a, b)
#endif

/* One allocator path so that tests can inject OOM (tnorm__alloc_fail_after). On failure these
 * record TNORM_ENOMEM as the last error and return NULL. */
void *tnorm__malloc(size_t n);
void *tnorm__calloc(size_t n, size_t size);
void *tnorm__realloc(void *p, size_t n);
/* realloc for arrays: checks n * size for overflow. */
void *tnorm__reallocarray(void *p, size_t n, size_t size);
char *tnorm__strdup(const char *s);
char *tnorm__strndup(const char *s, size_t n);
void tnorm__freep(void *p); /* same as free(): the matching deallocator */

/* Test hook: make the allocation after the next `n` ones fail (n < 0: never).  Per thread. */
void tnorm__alloc_fail_after(long n);

/* Record the calling thread's last error and return `code`. */
int tnorm__error_set(int code, const char *fmt, ...) TNORM__PRINTF(2, 3);
int tnorm__error_setv(int code, const char *fmt, va_list ap) TNORM__PRINTF(2, 0);
/* Like tnorm__error_set, with ": strerror(errno)" appended. */
int tnorm__error_errno(int code, const char *fmt, ...) TNORM__PRINTF(2, 3);
/* Prefix the current message with "prefix: " (keeps the code); returns the code. */
int tnorm__error_prefix(const char *fmt, ...) TNORM__PRINTF(1, 2);

/* Length of the well-formed UTF-8 character at s (n bytes available): 1 to 4, or 0 when the
 * byte at s does not start one.  Messages escape the bytes this refuses (error.c). */
size_t tnorm__utf8_len(const char *s, size_t n);
/* Length of the unit at s (n bytes available) that can be shown as it is: a well-formed UTF-8
 * character that is no control character (newline and tab are, with `lines`), or 0: the byte at
 * s is shown as \xNN (the library's messages: issue 39, item 13). */
size_t tnorm__text_shown(const char *s, size_t n, int lines);

/* A growable, always NUL-terminated byte buffer. Zero-initialize (TNORM__BUF_INIT) to use. */
typedef struct tnorm__buf {
	char *ptr;
	size_t len, cap;
} tnorm__buf;
#define TNORM__BUF_INIT {NULL, 0, 0}

int tnorm__buf_grow(tnorm__buf *b, size_t extra);
int tnorm__buf_put(tnorm__buf *b, const void *data, size_t n);
int tnorm__buf_puts(tnorm__buf *b, const char *s);
int tnorm__buf_putc(tnorm__buf *b, char c);
int tnorm__buf_printf(tnorm__buf *b, const char *fmt, ...) TNORM__PRINTF(2, 3);
/* Hand the buffer's string to the caller (freed with tnorm_free) and reset the buffer. Never
 * returns NULL: an empty buffer yields an allocated "". NULL only on OOM. */
char *tnorm__buf_detach(tnorm__buf *b);
void tnorm__buf_dispose(tnorm__buf *b);
/* Append the `len` bytes at s escaped as tnorm_text_escape escapes them (json.c): printable ASCII
 * as it is, a backslash as two, any other byte as \xNN (newline and tab kept with `lines`). */
int tnorm__buf_put_escaped(tnorm__buf *b, const char *s, size_t len, int lines);

/* Read a whole file into a NUL-terminated buffer (caller frees with tnorm_free). */
int tnorm__read_file(const char *path, char **out, size_t *len);
/* What a file that is not a regular one is, for messages: "a folder", "a FIFO", "a character
 * device", "a block device", "a socket" (alloc.c). */
const char *tnorm__file_kind(unsigned m);
/* tnorm's environment variables, parsed (env.c): each fills its out-parameter with the value or
 * the default (also when the value is bad) and returns 0, or TNORM_EINVALID naming the variable.
 * The largest input file tnorm reads: 256 MiB, or TNORM_MAX_INPUT. */
int tnorm__env_max_input(uint64_t *out);
/* The candidates a persistent child may run: 1000, or TNORM_PERSISTENT (off: 1). */
int tnorm__env_persistent(unsigned *out);
/* *on 0 when TNORM_FORK_SERVER says off, else 1. */
int tnorm__env_fork_server(int *on);
/* TNORM_PRELOAD is off, always or an absolute path (forkserver.c reads it). */
int tnorm__env_preload(void);

/* Write `data` to `path` atomically: a temp file in the same directory (PATH.tmp.PID.XXXXXX),
 * fsync, rename. */
int tnorm__write_file_atomic(const char *path, const void *data, size_t len);

/* Remove what a process killed while writing left in folder `dir` (alloc.c): files named
 * NAME.tmp.PID.XXXXXX, and folders of that name holding nothing but triage's marker, whose PID
 * is not a live process and that belong to this user.  Best effort: errors are ignored. */
void tnorm__sweep_dead_tmp(const char *dir);

/* Rename a signature's kind (a sanitizer report names the failure the signal only ended):
 * signature.c.  0 or TNORM_ENOMEM (the signature is unchanged then). */
struct tnorm_signature;
int tnorm__signature_set_kind(struct tnorm_signature *s, const char *kind);

/* 64-bit FNV-1a, for content hashes and caches. */
uint64_t tnorm__hash64(const void *data, size_t len, uint64_t seed);
/* Seconds on the monotonic clock (for durations and deadlines only). */
double tnorm__now(void);

/* Covered lines in their order: by file name, then by line (runner.c; the runner's coverage,
 * why.c's spectra and triage's comparison of executions walk lists sorted so). */
int tnorm__line_cmp(const char *file_a, uint32_t line_a, const char *file_b, uint32_t line_b);
/* tnorm__hash64 with two seeds in one pass over the data (the two chains run side by side). */
void tnorm__hash64_pair(const void *data, size_t len, uint64_t seed1, uint64_t seed2, uint64_t *h1,
                        uint64_t *h2);
/* The seeds of a test's content key (the session's cache, the database's rows). */
#define TNORM__H1_SEED 0x7a6e6f726d000001ULL
#define TNORM__H2_SEED 0x5eed5eed5eed5eedULL

/* tnorm_db_get_outcome and tnorm_db_put_outcome for a test of `len` bytes whose content hashes
 * (tnorm__hash64_pair with the seeds above) the caller has: the session hashes each candidate
 * once, and a candidate of 10^5 steps is megabytes. */
struct tnorm_db;
int tnorm__db_get_outcome_hashed(struct tnorm_db *d, uint64_t ctx, uint64_t h1, uint64_t h2,
                                 size_t len, int *found, int *interesting);
int tnorm__db_put_outcome_hashed(struct tnorm_db *d, uint64_t ctx, uint64_t h1, uint64_t h2,
                                 size_t len, int interesting);

/* What a run that is no failure did, in a few words for a message ("it passes (exit 0)", "it
 * times out (...)"), in buf or a static string (session.c: the confirm runs' words). */
struct tnorm_run_result;
const char *tnorm__run_describe(const struct tnorm_run_result *r, char *buf, size_t size);

#endif

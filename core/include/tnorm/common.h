/* SPDX-License-Identifier: MIT */
/*
 * common.h - export macro, version, and the one deallocator for memory the library hands out.
 *
 * Every public header includes this one.  Anything the library returns as a plain `char *` or
 * array (as opposed to an opaque handle with its own _free) is released with tnorm_free().
 *
 * Defined in: alloc.c (memory and files), json.c (tnorm_text_utf8), error.c (tnorm_version),
 * env.c (tnorm_size_parse, tnorm_env_check).
 */
#ifndef TNORM_COMMON_H
#define TNORM_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TNORM_EXTERN __attribute__((visibility("default")))
#else
#define TNORM_EXTERN
#endif

/**
 * The initializer of an options struct of type `type`: its version `v` set, every other field 0,
 * which in every tnorm options struct means that field's default (docs/architecture.md,
 * "Options structs").  C gets a designated initializer; C++, which has none before C++20 (and
 * warns about the fields it leaves out), a value-initialized copy with the version set.
 */
#ifdef __cplusplus
#define TNORM_OPTIONS_INIT_VERSION(type, v) \
	([]() { type o_ = type(); o_.version = (v); return o_; }())
#else
#define TNORM_OPTIONS_INIT_VERSION(type, v) {.version = (v)}
#endif

#define TNORM_VERSION "0.1.0"
#define TNORM_VERSION_MAJOR 0
#define TNORM_VERSION_MINOR 1

/**
 * Release memory that a tnorm function returned as a plain pointer (strings, arrays).
 * Freeing NULL is a no-op.  Never use it on opaque handles: they have their own _free.
 */
TNORM_EXTERN void tnorm_free(void *p);

/**
 * Write `len` bytes to `path` atomically: a temporary file in the same folder, fsync, rename.
 * Readers see the old content or the new, never a mix.  0 or TNORM_EIO (message names path).
 */
TNORM_EXTERN int tnorm_file_write_atomic(const char *path, const void *data, size_t len);

/**
 * Read a whole file.  *out receives a NUL-terminated copy (free with tnorm_free), *len (may be
 * NULL) its length.  Only a regular file is read (it is opened without blocking, so a FIFO or a
 * device is refused at once), and at most 256 MiB of it, or TNORM_MAX_INPUT from the
 * environment (bytes, or with a K, M or G suffix).  0, TNORM_EIO, TNORM_EINVALID (not a regular
 * file, or over the limit: the message says which and how to raise it) or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_file_read(const char *path, char **out, size_t *len);

/**
 * A copy of the `len` bytes at `s` that is valid UTF-8: each byte that does not start a
 * well-formed UTF-8 character (RFC 3629: no overlong forms, surrogates or code points above
 * U+10FFFF) becomes U+FFFD; everything else, NUL bytes included, is kept.  This is what every
 * string in tnorm's JSON goes through.  *out receives the copy, NUL-terminated (free with
 * tnorm_free), *outlen (may be NULL) its length; on error *out is NULL.  0, TNORM_EINVALID
 * (`out` NULL, or `s` NULL with `len` > 0) or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_text_utf8(char **out, size_t *outlen, const char *s, size_t len);

/**
 * Parse a size as tnorm's options and environment take it: a decimal number of bytes, or with a
 * K, M or G suffix (binary: 2G is 2^31 bytes; KB/KiB, MB/MiB, GB/GiB too), nothing else.  0, or
 * TNORM_EINVALID (not such a size, or over 2^64 - 1 bytes) with a message that quotes `text`.
 */
TNORM_EXTERN int tnorm_size_parse(const char *text, uint64_t *out);

/**
 * Check tnorm's own environment variables as options are checked: TNORM_MAX_INPUT (a size of
 * 1 byte or more), TNORM_PERSISTENT (off, no, 0, or 1 to 1000000), TNORM_FORK_SERVER (off, no,
 * 0, on, yes, 1) and TNORM_PRELOAD (off, always, or an absolute path); TNORM_DB takes any path.
 * An empty value is unset.  0, or TNORM_EINVALID with one line that names the variable and its
 * value.  The command-line tool calls it before any command; tnorm_runner_new and
 * tnorm_file_read refuse a bad value too, so the debugger plugins see the same error.
 */
TNORM_EXTERN int tnorm_env_check(void);

/**
 * A copy of the `len` bytes at `s` escaped the one way tnorm shows bytes to people (the CLI's
 * lines, report.html, report.json's escaped fields; issue 40, item 7): a printable ASCII
 * character (0x20 to 0x7e) as it is, a backslash as `\\`, every other byte (a control character,
 * DEL, each byte of 0x80 and up, UTF-8 or not) as the four characters `\xNN`; with `lines` 1,
 * newline and tab as they are.  The copy is ASCII, and every byte can be told back from it.
 * For file names, which may hold any byte but '/' and NUL, normal forms and any program's text
 * before they are printed.  *out receives the copy, NUL-terminated (free with tnorm_free),
 * *outlen (may be NULL) its length.  0, TNORM_EINVALID (`out` NULL, or `s` NULL with `len` > 0)
 * or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_text_escape(char **out, size_t *outlen, const char *s, size_t len,
                                   int lines);

/** The library's version string, e.g. "0.1.0".  Static storage; never free it. */
TNORM_EXTERN const char *tnorm_version(void);

#ifdef __cplusplus
}
#endif
#endif

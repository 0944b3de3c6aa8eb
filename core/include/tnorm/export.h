/* SPDX-License-Identifier: MIT */
/*
 * export.h - a regression test per bug (`tnorm export`, docs/commands/export.md): failing tests
 * (a normal form, or each bucket of a triage) written as tests a project keeps in its suite.
 *
 * A harness test becomes a cmocka C file, NAME.c, that runs the test's steps through the
 * driver's own handlers, in-process: it links the driver's sources (their `main` renamed
 * tnorm_export_driver_main by the build) and, in a child process per test, gives that main the
 * embedded harness and the steps on standard input; the test passes when the driver exits 0
 * and fails when it dies (the bug: a check's abort, a crash) or says the test is invalid.  Beside
 * it, DIR/meson.build builds and registers every NAME.c of the export.
 *
 * A file input (a fuzzer's crash, a triage's representative without a harness) becomes a
 * libFuzzer corpus entry, DIR/corpus/SHA1 (the SHA-1 of its bytes, as libFuzzer names its
 * corpus files), and a test entry that runs the program on it, in DIR/meson.build (`test()`)
 * and DIR/CMakeLists.txt (CTest's `add_test`): it passes when the program does not fail as
 * tnorm counts failures (a signal, an abort of a sanitizer's report, an exit other than 0, 125
 * and the --invalid-exit codes).
 *
 * Each test is run once on the command first and must fail: a test that passes on the build it
 * was exported from would not catch the bug.  Every file is written atomically; a file that
 * exists is never replaced unless the options say `force` (and then only a regular file).
 *
 * Ownership: tnorm_export_new copies nothing it is given but what it says; the strings of the
 * options (harness path, argv, run options) are borrowed and must outlive the export object.
 * Every string tnorm_export_* returns is owned by the object (valid until tnorm_export_free).
 */
#ifndef TNORM_EXPORT_H
#define TNORM_EXPORT_H

#include "common.h"
#include "runner.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TNORM_EXPORT_OPTIONS_VERSION 1

/** How to export.  Initialize with TNORM_EXPORT_OPTIONS_INIT. */
typedef struct tnorm_export_options {
	unsigned version;            /**< TNORM_EXPORT_OPTIONS_VERSION */
	/** The harness the tests are written against (a path), or NULL: the tests are files. */
	const char *harness;
	/** The command that runs a test (NULL-terminated, `{}` or `@@` for its path), as for a
	 *  runner; argv[0] is the driver (harness tests) or the program (files). */
	const char *const *argv;
	/** How to run it (timeout, memory, stdin, env, invalid exits); NULL: the defaults.  Its
	 *  `env` and `invalid_exits` also go into the exported file tests. */
	const tnorm_run_options *run;
	int force;                   /**< 1: replace existing files of the same names */
	const volatile int *cancel;  /**< a cancel flag for the runs (tnorm_runner_set_cancel) */
} tnorm_export_options;

#define TNORM_EXPORT_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_export_options, TNORM_EXPORT_OPTIONS_VERSION)

typedef struct tnorm_export tnorm_export;

/**
 * A new, empty export.  The options' strings are borrowed (they must outlive it).  Free with
 * tnorm_export_free.  0, TNORM_EINVALID (no command, another options version), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_export_new(tnorm_export **out, const tnorm_export_options *o);

/** Free an export.  NULL is a no-op. */
TNORM_EXTERN void tnorm_export_free(tnorm_export *x);

/**
 * Add the test at `path` (a harness test, or any file), named `name`: letters, digits and `_`,
 * not starting with a digit, at most 64 bytes; NULL: made from the file's name (`fail-1.t`:
 * `fail_1`).  A harness test is parsed and checked against the harness here (TNORM_EPARSE or
 * TNORM_EINVALID with file:line:col).  0, TNORM_EINVALID (a bad name, a name already added),
 * TNORM_EPARSE, TNORM_EIO, TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_export_add_file(tnorm_export *x, const char *path, const char *name);

/**
 * Add the representative of every bucket of the triage whose output folder is `out` (its
 * report.json: the normal form, byte for byte), named PREFIX_N for bucket N (`prefix` NULL:
 * `bucket`).  A triage with a harness has its buckets' forms in steps (report.json's "unit"), and
 * the export must have a harness then; a triage of files must not.  0, TNORM_EINVALID
 * (report.json does not parse or is not a triage's: the message names it with line:col; the
 * unit and the harness disagree), TNORM_EIO, TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_export_add_triage(tnorm_export *x, const char *out, const char *prefix);

/** How many tests the export holds. */
TNORM_EXTERN size_t tnorm_export_count(const tnorm_export *x);

/** The i-th test's name and, once confirmed, its failure signature (NULL before); borrowed. */
TNORM_EXTERN const char *tnorm_export_name(const tnorm_export *x, size_t i);
TNORM_EXTERN const char *tnorm_export_signature(const tnorm_export *x, size_t i);

/**
 * Run every test once on the command: each must fail.  Its signature goes into the files'
 * comments.  0, TNORM_ENOTFAIL (a test passes, times out, is invalid: the message names it and
 * its outcome), TNORM_EIO (the program cannot be started), TNORM_EINTERRUPTED, TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_export_confirm(tnorm_export *x);

/**
 * Write the export into folder `dir` (made when it does not exist; its parent must): for harness
 * tests NAME.c per test and meson.build; for files corpus/SHA1 per test, meson.build and
 * CMakeLists.txt.  Every file is checked first: when one exists (without `force`), or is not a
 * regular file, nothing is written (TNORM_EINVALID naming it).  Each file is then written
 * atomically.  0, TNORM_EINVALID, TNORM_EIO, TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_export_write(tnorm_export *x, const char *dir);

/** The files the last tnorm_export_write wrote, in order: *n of them (borrowed paths). */
TNORM_EXTERN const char *const *tnorm_export_files(const tnorm_export *x, size_t *n);

/** The SHA-1 of `len` bytes as 40 lowercase hex digits and a NUL, in `hex` (41 bytes). */
TNORM_EXTERN void tnorm_export_sha1(const void *data, size_t len, char hex[41]);

#ifdef __cplusplus
}
#endif
#endif

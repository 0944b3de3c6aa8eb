/* SPDX-License-Identifier: MIT */
/*
 * policy.h - the rules every front end (the CLI, the Python binding and so the debugger
 * plugins) applies to what a user typed, so that `tnorm minimize -- prog {}` and the plugins'
 * `tnorm minimize` read the same command the same way (issue 42, item 3).  Before, each front
 * end had its own: the default -j was the CPU count in one and capped at 64 in the other, only
 * the CLI took a `--harness H` among the program's own arguments as the harness, and the
 * plugins looked for `{}` as a whole argument where the runner replaces it anywhere in one.
 *
 * Defined in: policy.c.
 */
#ifndef TNORM_POLICY_H
#define TNORM_POLICY_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The cap of tnorm_default_jobs: more threads than this rarely pay on one machine. */
#define TNORM_DEFAULT_JOBS_MAX 64

/**
 * The default number of jobs (-j) of a job or a triage: the CPUs online, at least 1 and at most
 * TNORM_DEFAULT_JOBS_MAX (a larger -j, up to TNORM_MAX_JOBS, must be asked for).
 */
TNORM_EXTERN unsigned tnorm_default_jobs(void);

/**
 * The harness a command gives its program: the word after the first `--harness` among the
 * program's own arguments (argv[1] on; argv[0] is the program), as a tnorm driver reads it.  A
 * front end then uses that harness rather than the one compiled into the driver.
 * @param argv the command, NULL-terminated (may be NULL)
 * @return the harness's path (borrowed from argv), or NULL when the command names none.
 */
TNORM_EXTERN const char *tnorm_argv_harness(const char *const *argv);

/**
 * 1 when an argument of the command (argv[0] included) holds the test's placeholder, `{}` or
 * `@@` (AFL's spelling), which each run replaces, wherever it is in the argument, with the path of
 * its copy of the test; else 0.  A command without one does not see the test unless it is fed on
 * standard input: the CLI warns, and the plugins append `{}`.
 * @param argv the command, NULL-terminated (may be NULL: 0)
 */
TNORM_EXTERN int tnorm_argv_has_placeholder(const char *const *argv);

#ifdef __cplusplus
}
#endif
#endif

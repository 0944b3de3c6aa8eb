/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the `tnorm` subcommands share: exit codes, error printing, option helpers.
 * The CLI uses only the public API of libtnorm (plus this file).
 */
#ifndef TNORM_CLI_H
#define TNORM_CLI_H

#include <signal.h>
#include <stdio.h>

#include <jansson.h>

#include "tnorm/tnorm.h"

/* Exit codes, the same for every subcommand (docs/cli.md). */
enum {
	EXIT_OK = 0,          /* success */
	EXIT_BADINPUT = 1,    /* a harness, test or result is wrong (parse error, not well-formed) */
	EXIT_OUTCOME = 1,     /* run --expect: the outcome is not the one expected */
	EXIT_USAGE = 2,       /* bad command line */
	EXIT_SYSTEM = 3,      /* I/O error, cannot start the program, out of memory */
	EXIT_NOTFAIL = 4,     /* the test does not fail (or fails flakily): nothing to work on */
	EXIT_INTERRUPTED = 130 /* stopped by Ctrl-C/SIGTERM; the best result so far was written */
};

/* Signals while a command runs programs (cancel.c): Ctrl-C, SIGTERM and SIGHUP from the user set
 * cli_cancel_flag to the signal's number (the library's cancel flag); the same signals from a
 * program under test, and SIGUSR1, SIGUSR2, SIGALRM and SIGPIPE from anyone, are ignored.
 * cli_cancel_begin clears the flag and installs the handlers; cli_cancel_end puts back what was
 * there before. */
typedef struct cli_cancel {
	int sig[10];
	struct sigaction old[10];
	size_t n;
} cli_cancel;
extern volatile int cli_cancel_flag;
void cli_cancel_begin(cli_cancel *c);
void cli_cancel_end(cli_cancel *c);

/* Default number of parallel jobs: the online cores (1..64). */
unsigned cli_default_jobs(void);

/* Print "tnorm CMD: <last error message>" to stderr and return the exit code for `code`. */
int cli_fail(const char *cmd, int code);
/* Print "tnorm CMD: <formatted>" plus a hint to run --help, and return EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Map a library error code to an exit code. */
int cli_exit_code(int code);
/* Parse a non-negative integer option value; on error prints a usage error and returns -1. */
int cli_parse_u64(const char *cmd, const char *opt, const char *s, unsigned long long *out);
/* cli_parse_u64, and lo <= value <= hi (hi ULLONG_MAX: no upper bound), else "OPT takes LO to HI
 * UNIT" as a usage error; -1 when either is said. */
int cli_parse_u64_in(const char *cmd, const char *opt, const char *s, unsigned long long lo,
                     unsigned long long hi, const char *unit, unsigned long long *out);
/* Parse a duration like "10", "2.5", "500ms", "3s", "2m"; seconds out. -1 on error (printed). */
int cli_parse_seconds(const char *cmd, const char *opt, const char *s, double *out);
/* Parse a size like "512M", "2G", "1048576"; bytes out.  -1 on error (printed). */
int cli_parse_size(const char *cmd, const char *opt, const char *s, unsigned long long *out);

/* The options every command that runs a program shares: --timeout, --mem, --stdin, --env,
 * --invalid-exit, --no-fork-server; and --fixed for the commands that judge candidates (set fixed_ok first). */
typedef struct cli_run_args {
	double timeout;
	int timeout_set;
	unsigned long long mem;
	int use_stdin;
	int no_fork_server;
	char **env;
	size_t nenv;
	int *invalid_exits;
	size_t ninvalid;
	int fixed_ok;      /* set by the caller: --fixed is an option of this command */
	const char *fixed; /* --fixed's value, as given */
	char **fixed_argv; /* built by cli_run_args_fixed; freed by dispose */
} cli_run_args;

int cli_run_args_init(cli_run_args *ra);
/* The harness when no --harness is given (issue 32, item 1): the file after --harness in the
 * command's own arguments (a driver run with one), else the harness compiled into the program
 * when it is a tnorm driver (tnorm_driver_harness), written to a temporary file whose path goes
 * to *tmp (unlink it and free it).  *harness stays NULL when the program is no driver.  Says
 * which harness it took on stderr unless `quiet`.  -1 on a system error (printed), else 0. */
int cli_driver_harness(const char *cmd, char **rest, int quiet, const char **harness, char **tmp);
/* Warn when the harness file is not the one compiled into `program`, a tnorm driver (issue 32,
 * item 2): edited without rebuilding the driver, which runs every test with its own, so that
 * the tests of the edited file come out invalid.  Silent when the program is no driver, or when
 * `rest` (the command, or NULL) gives the driver a --harness of its own. */
void cli_warn_stale_harness(const char *cmd, const char *harness, const char *program,
                            char **rest);
/* The command after --, `rest` (`nrest` words; NULL without --): there and not empty, else a
 * usage error is printed (a missing command as "missing the command: `synopsis`") and -1
 * returned.  Without a place for the test ({} or @@ in an argument, or --stdin) it warns that
 * the program does not see the test (issue 32, item 3). */
int cli_check_command(const cli_run_args *ra, const char *cmd, char **rest, int nrest,
                      const char *synopsis);
/* 1 when the environment variable `name` is 0, off or no (a default the user turned off). */
int cli_env_off(const char *name);

/* If argv[i] is a runner option, consume it (and its value): returns how many arguments were
 * used (1 or 2), 0 if argv[i] is not a runner option, -1 after printing a usage error. */
int cli_run_args_parse(cli_run_args *ra, const char *cmd, int argc, char **argv, int i);
void cli_run_args_apply(const cli_run_args *ra, tnorm_run_options *opts);
/* The fixed program's command line from --fixed and the main command `cmdv` (NULL-terminated):
 * *out is NULL without --fixed, else owned by `ra`.  0, or -1 after printing a usage error. */
int cli_run_args_fixed(cli_run_args *ra, const char *cmd, char **cmdv, const char *const **out);
void cli_run_args_dispose(cli_run_args *ra);

/* JSON (json.c).  Every JSON text the CLI prints or writes is a jansson value rendered with
 * these flags, the library's own (core/src/json.h): keys in the order they were added, ", " and
 * ": " between items, reals with up to 10 significant digits. */
#define CLI_JSON_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
/* A JSON string of the `len` bytes at `s` (NULL: ""), made valid UTF-8 by tnorm_text_utf8.
 * NULL when out of memory: the jansson call it is passed to then fails. */
json_t *cli_json_text(const char *s, size_t len);
json_t *cli_json_str(const char *s);
/* A real rounded to `decimals` places (seconds: 3, the runner's times: 6). */
json_t *cli_json_real(double v, int decimals);
/* The value of a JSON text the library returned (NULL text: JSON null); NULL on failure. */
json_t *cli_json_parse(const char *text);
/* The rendered text of `v` plus a newline, freed with free(); NULL when `bad` (a jansson call
 * that built `v` failed), when `v` is NULL, or out of memory.  Releases `v` in every case. */
char *cli_json_dump(json_t *v, int bad);
/* Print cli_json_dump's text on stdout: 0, or a message on stderr and EXIT_SYSTEM. */
int cli_json_print(const char *cmd, json_t *v, int bad);

/* One subcommand: `run` gets argv with argv[0] = the subcommand's name. */
typedef struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
} cli_command;

int cmd_check(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_normalize(int argc, char **argv);
int cmd_minimize(int argc, char **argv);
int cmd_generalize(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_why(int argc, char **argv);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the `tnorm` subcommands share: exit codes, error printing, option helpers.
 * The CLI uses only the public API of libtnorm (plus this file).
 */
#ifndef TNORM_CLI_H
#define TNORM_CLI_H

#include <signal.h>
#include <stdio.h>

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
 * --invalid-exit, --no-fork-server; and --fixed for the commands that judge candidates.  Filled
 * by cli_parse (options.c) as part of cli_args. */
typedef struct cli_run_args {
	double timeout;
	unsigned long long mem;
	int use_stdin;
	int no_fork_server;
	char **env;        /* NULL-terminated; NULL without --env */
	size_t nenv;
	int *invalid_exits;
	size_t ninvalid;
	const char *fixed; /* --fixed's value, as given */
	char **fixed_argv; /* built by cli_run_args_fixed; freed by dispose */
} cli_run_args;

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
/* Write `s` (a file name, a message, a signature: any bytes) to f escaped the one way tnorm
 * shows bytes (tnorm_text_escape: printable ASCII as it is, a backslash as two, every other byte
 * as \xNN; issue 39, item 13 and issue 40, item 7).  NULL writes nothing. */
void cli_put(FILE *f, const char *s);

void cli_run_args_apply(const cli_run_args *ra, tnorm_run_options *opts);
/* The fixed program's command line from --fixed and the main command `cmdv` (NULL-terminated):
 * *out is NULL without --fixed, else owned by `ra`.  0, or -1 after printing a usage error. */
int cli_run_args_fixed(cli_run_args *ra, const char *cmd, char **cmdv, const char *const **out);
void cli_run_args_dispose(cli_run_args *ra);

/* The command line (options.c): one table of every option of every command, and one parser.
 * Each row names an option's spellings, the commands that take it (CLI_* bits), how its value
 * is read and the field of cli_args it goes to; a command sets the fields' defaults, calls
 * cli_parse and copies what it needs into the library's options.  The messages, spellings and
 * exit codes are the ones docs/cli.md and the integration tests name. */
enum {
	CLI_CHECK = 1u << 0,
	CLI_GEN = 1u << 1,
	CLI_RUN = 1u << 2,
	CLI_REDUCE = 1u << 3,
	CLI_NORMALIZE = 1u << 4,
	CLI_MINIMIZE = 1u << 5,
	CLI_GENERALIZE = 1u << 6,
	CLI_FUZZ = 1u << 7,
	CLI_TRIAGE = 1u << 8,
	CLI_WHY = 1u << 9,
	CLI_EXPORT = 1u << 10,
};

/* Every value an option of some command can give; each command reads its own.  Strings are
 * borrowed from argv. */
typedef struct cli_args {
	char **operands;  /* the arguments that are no options, in order (in argv) */
	int noperands;
	char **rest;      /* the command after --, NULL without -- */
	int nrest;
	cli_run_args run; /* --timeout, --mem, --stdin, --env, ... (cli_run_args_apply) */
	const char *harness, *out, *match, *db, *driver, *algo, *rules, *expect, *sarif;
	const char *from, *name; /* export's --from OUT and --name NAME */
	int force;
	int quiet, json, no_db, no_harness, verbose, wide, no_rewire, generalize, no_replay;
	int no_slice, no_chunks, allow_flaky, no_generalize, normal, thorough, explain;
	unsigned long long jobs, max_edit, confirm, max_runs, seed, steps, runs, max_failures;
	unsigned long long lease, polish_runs, top, neighbours;
	long polish;        /* --polish N, or -1 for --no-polish (the last one given counts) */
	unsigned shard, shards; /* --shard K/N: K - 1 and N */
	double max_time;    /* --max-time, --max-time-per-test */
} cli_args;

/* How an option's value is read. */
typedef enum cli_opt_kind {
	CLI_OPT_FLAG,    /* no value: the int field becomes 1 */
	CLI_OPT_STRING,  /* a const char * field: the value as given */
	CLI_OPT_U64,     /* unsigned long long: cli_parse_u64, or cli_parse_u64_in when hi != 0 */
	CLI_OPT_SECONDS, /* double: cli_parse_seconds */
	CLI_OPT_SIZE,    /* unsigned long long: cli_parse_size */
	CLI_OPT_CHOICE,  /* a const char * field: one of the words of `text` ("calls|paper") */
	CLI_OPT_CUSTOM,  /* `parse` (with a value when `takes_value`) */
} cli_opt_kind;

typedef struct cli_option {
	const char *names;  /* its spellings, '|' between: "-j|--jobs" */
	unsigned commands;  /* the CLI_* bits of the commands that take it */
	cli_opt_kind kind;
	size_t field;       /* offsetof(cli_args, ...): where the value goes */
	unsigned long long lo, hi; /* CLI_OPT_U64: the range (hi 0: any) */
	const char *text;   /* CLI_OPT_U64: the unit of the range; CLI_OPT_CHOICE: the words */
	const char *missing; /* the usage error without a value (NULL: "OPT needs a value") */
	const char *bad;     /* CLI_OPT_CHOICE: the usage error for another word ... */
	int bad_quotes;      /* ... followed by ", not 'VALUE'" */
	int takes_value;     /* it takes a value (all but CLI_OPT_FLAG and some CLI_OPT_CUSTOM) */
	/* CLI_OPT_CUSTOM: store `val` (NULL without a value) in `a`; 0, or -1 after printing a
	 * usage error (or out of memory). */
	int (*parse)(cli_args *a, const char *cmd, const char *opt, const char *val);
} cli_option;

/* A command's shape: its name in messages, its CLI_* bit, how many operands it takes (0: any
 * number), whether "--" starts the command to run, and its --help text. */
typedef struct cli_spec {
	const char *name;
	unsigned bit;
	int operands;
	int dashdash;
	void (*help)(FILE *f);
} cli_spec;

/* Zero `a` and give it the run options' defaults (--timeout 10); cli_args_dispose frees what
 * cli_parse allocated (the --env and --invalid-exit lists, --fixed's words). */
void cli_args_init(cli_args *a);
void cli_args_dispose(cli_args *a);
/* Parse argv[1..argc-1] for the command `s` into `a` (whose defaults the caller set), in order:
 * "--" (with s->dashdash) ends them, --help or -h prints the help on stdout and stops there.
 * Returns CLI_GO_ON when the command goes on, else its exit status: EXIT_OK after the help,
 * EXIT_USAGE after printing a usage error.  The operands are moved to argv[1..] (a->operands). */
#define CLI_GO_ON (-1)
int cli_parse(const cli_spec *s, cli_args *a, int argc, char **argv);

/* The harness of a command that takes --harness H and --no-harness (a, after cli_parse, with
 * the command after --): H, checked against the driver (cli_warn_stale_harness); else, without
 * --no-harness, cli_driver_harness's (*tmp as there); else NULL.  -1 on a system error
 * (printed), else 0. */
int cli_harness(const char *cmd, const cli_args *a, int quiet, const char **harness, char **tmp);

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
int cmd_export(int argc, char **argv);

#endif

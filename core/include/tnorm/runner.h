/* SPDX-License-Identifier: MIT */
/*
 * runner.h - run the user's program on a candidate test and classify what happened.
 *
 * Each run writes the candidate to a file in the runner's private temporary folder, which is also
 * the child's working directory, and starts `CMD ARGS` there with `{}` replaced by that file's path
 * (`@@` too, as AFL++ spells it; or the candidate on standard input).  The child gets its own process group, ASLR off, no core
 * files, an optional address-space limit and a fixed environment; it is traced with ptrace so
 * that a fatal signal, or a nonzero exit, is unwound (libunwind) and symbolized (libdwarf) into a
 * failure signature (signature.h) without any cooperation from the program.  A timeout kills the
 * whole group (SIGTERM, then SIGKILL); the group is always killed at the end of a run, and so is
 * every process the program started, traced like it (even one that left the group with
 * setsid(), or a daemon): when the program is reaped, the runner's thread kills and reaps them
 * (their crashes are not the run's outcome).  Not followed: processes with tracing off (unwind
 * -1), ones created with CLONE_UNTRACED or started by another service; docs/architecture.md has
 * the limits.  The folder ($TMPDIR or /tmp,
 * tnorm-run-PID-XXXXXX) is made at the runner's first run and emptied after every run, of the
 * candidate and whatever the program wrote there, so each run finds it as a fresh folder would
 * be; tnorm_runner_free() removes it.  Folders of engines that were killed (their PID gone) are
 * removed by the next tnorm_runner_new().  Each runner has a thread of its own (started at its
 * first run, ended by tnorm_runner_free) that starts and traces the programs; it blocks every
 * signal.  A program built with the tnorm driver runtime is started once as a fork server and
 * forks the process of each run (see fork_server below).
 *
 * Defined in: runner.c (the run and its classification), askdriver.c (what a driver says about
 *             itself), sanopts.c (sanitizer options), sender.c (tnorm_signal_from_below),
 *             report.c (tnorm_trace_last_step, beside the other readers of a run's stderr),
 *             run_output.c (a run's result as JSON).
 */
#ifndef TNORM_RUNNER_H
#define TNORM_RUNNER_H

#include "common.h"
#include "harness.h"
#include "signature.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tnorm_runner tnorm_runner;

/** What one run came to. */
typedef enum tnorm_outcome {
	TNORM_OUTCOME_PASS = 0,    /**< exited 0 */
	TNORM_OUTCOME_FAIL = 1,    /**< fatal signal, or a nonzero exit that is not an invalid one */
	TNORM_OUTCOME_TIMEOUT = 2, /**< still running when the timeout expired (group killed) */
	TNORM_OUTCOME_INVALID = 3, /**< exited 125, or with one of the options' invalid_exits: the
	                                program says the test is not a valid test */
	TNORM_OUTCOME_ERROR = 4    /**< could not be started (see the result's message) */
} tnorm_outcome;

/** Short lowercase name of an outcome ("pass", "fail", ...).  Static; never free it. */
TNORM_EXTERN const char *tnorm_outcome_name(tnorm_outcome o);

#define TNORM_RUN_OPTIONS_VERSION 5

/**
 * Options for a runner.  Initialize with TNORM_RUN_OPTIONS_INIT, then set what you need: as in
 * every tnorm options struct, 0 in a field means its default, and a negative number turns off
 * what is on by default (docs/architecture.md, "Options structs").  Version 2 added
 * invalid_exits, version 3 fork_server, version 4 persistent, version 5 made 0 the default in
 * every field (timeout, unwind, fork_server); a struct of another version is refused with
 * TNORM_EINVALID.  Held in another options struct (pipeline, why, fuzz), its version may be 0:
 * the current one.
 *
 * The program's environment is fixed: PATH, HOME, LANG=C, LC_ALL=C, the sanitizer options
 * below, then `env`.  ASAN_OPTIONS, UBSAN_OPTIONS, LSAN_OPTIONS, MSAN_OPTIONS, TSAN_OPTIONS and
 * HWASAN_OPTIONS are merged key by key rather than replaced: first the value in the caller's own
 * environment, then tnorm's defaults over it (ASAN_OPTIONS=abort_on_error=1:detect_leaks=0:
 * symbolize=0:handle_abort=0, UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:
 * print_stacktrace=0), then each `env` entry of that name over the result.  So a key only the
 * caller's environment sets reaches the program, a default can be changed only explicitly, and
 * `env` never loses a default it does not name.
 *
 * A tnorm driver built with ASan or LSan that declares destructors (`PROG --print-hooks` names
 * one; see tnorm/driver.h) frees what its tests make, so its leaks are bugs: each of its runs
 * that passes is run once more, untraced (LeakSanitizer cannot work under ptrace), with
 * detect_leaks=1 over the defaults and under `env`; a leak found there makes the result that
 * run's failure (kind lsan:leak).  `env` with ASAN_OPTIONS=detect_leaks=0 turns this off.
 */
typedef struct tnorm_run_options {
	unsigned version;        /**< TNORM_RUN_OPTIONS_VERSION */
	double timeout;          /**< seconds; 0: the default, 10 (a session's: derived from its
	                              confirm runs, see session.h); negative: no limit */
	uint64_t mem_limit;      /**< bytes of address space (RLIMIT_AS); 0 = none */
	size_t output_cap;       /**< bytes kept per stream (stdout, stderr); the rest is discarded
	                              (0: the default, 65536) */
	int use_stdin;           /**< 1: feed the candidate on standard input as well */
	int unwind;              /**< trace and unwind failures into signatures: 0 (default) or
	                              1: on; -1: off */
	const char *const *env;  /**< extra "NAME=VALUE" entries, NULL-terminated; may be NULL */
	const char *suffix;      /**< candidate file name suffix, e.g. ".t"; may be NULL */
	/** Exit codes (1..255) that, like 125, mean "this input is not a valid test": for programs
	 *  that are not tnorm drivers (many exit 2 on a bad command).  Copied by tnorm_runner_new;
	 *  may be NULL when ninvalid_exits is 0. */
	const int *invalid_exits;
	size_t ninvalid_exits;
	/** 0 (default) or 1: a program built with the tnorm driver runtime (tnorm_drv_main) runs as a
	 *  fork server: started once, it forks a child per run, which the runner traces as it
	 *  would the program (same signatures, timeouts, output); a server that dies is restarted,
	 *  and after three deaths in a row, or with a program that is not a driver, every run
	 *  starts the program afresh.  -1: every run starts the program afresh.  Needs unwind. */
	int fork_server;
	/** Persistent mode, for a tnorm driver's fork server: how many candidates one child of the
	 *  server may run, one after another while each passes (a child whose candidate does not
	 *  pass exits, and the next candidate gets a fresh one).  0: the default, 1000, or what
	 *  TNORM_PERSISTENT in the caller's environment says (`off`, `0` or `no`: 1; a number: that
	 *  many).  1: persistent mode off, a child per run.  A run that does not pass in a reused
	 *  child is made again in a fresh one, and that run is the result, so outcomes that are not
	 *  passes, and signatures, are those of fresh processes; a pass in a reused child is taken
	 *  as it is (see "Persistent mode" in docs/driver.md for what that can and cannot change).
	 *  Off for a runner whose passing runs get a leak check, and for runs with coverage or a
	 *  merged site's trail (they need a fresh child).  Needs fork_server. */
	unsigned persistent;
} tnorm_run_options;

#define TNORM_RUN_OPTIONS_INIT \
	TNORM_OPTIONS_INIT_VERSION(tnorm_run_options, TNORM_RUN_OPTIONS_VERSION)

/** The result of one run.  Dispose of it with tnorm_run_result_dispose(). */
typedef struct tnorm_run_result {
	tnorm_outcome outcome;
	int exit_code;          /**< when it exited: its status (0..255); else -1 */
	int signo;              /**< when killed by a signal: its number; else 0 */
	tnorm_signature *sig;   /**< for FAIL: the failure's signature (owned by the result); else NULL */
	char *out, *err;        /**< captured stdout/stderr (NUL-terminated, at most output_cap) */
	size_t out_len, err_len;
	size_t out_total, err_total; /**< bytes the program wrote, including the discarded ones */
	double wall;            /**< seconds from fork to reaping */
	double child_cpu;       /**< user + system CPU seconds of the child */
	char message[256];      /**< for ERROR: why it could not start; for INVALID: the program's
	                         *   reason, its last line on stderr (see tnorm_runner_set_test_name) */
} tnorm_run_result;

/**
 * Create a runner for `argv` (NULL-terminated: CMD ARGS...; `{}` or `@@` anywhere in an argument
 * is replaced by the candidate's path).  The strings and the invalid exit codes are copied.  Free
 * with tnorm_runner_free().  0, TNORM_EINVALID (empty argv, bad options: another options
 * version, a timeout that is not a number (NaN), an invalid exit code outside 1..255, an `env` entry that is not
 * NAME=VALUE), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_runner_new(tnorm_runner **out, const char *const *argv,
                                  const tnorm_run_options *opts);

/** Free a runner and its symbol caches.  NULL is a no-op. */
TNORM_EXTERN void tnorm_runner_free(tnorm_runner *r);

/**
 * Name the test in later runs' reasons: an invalid run's `message` is the program's last line on
 * standard error (a tnorm driver's reason, without its "tnorm driver: " prefix), where the
 * candidate's private path becomes `name` (say, the user's file: `in.t:3:1: unknown action
 * ...`); NULL, the default, writes "the test".  The name is copied.  0, TNORM_EINVALID (NULL
 * runner), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_runner_set_test_name(tnorm_runner *r, const char *name);

/** Change the timeout (seconds, 0 = none) for later runs. */
TNORM_EXTERN void tnorm_runner_set_timeout(tnorm_runner *r, double seconds);

/**
 * A cancel flag (say, set by a SIGINT handler): while a run waits for its program, the flag is
 * looked at every 50 ms at most, and once it is nonzero the program's process group is killed at
 * once and tnorm_runner_run returns TNORM_EINTERRUPTED (the result holds no outcome: the run did
 * not end by itself); a run started while the flag is set is killed as soon as its program
 * exists.  `flag` is borrowed and must outlive the
 * runner's runs; NULL (the default) turns this off.
 */
TNORM_EXTERN void tnorm_runner_set_cancel(tnorm_runner *r, const volatile int *flag);

/**
 * Run the program once on `data`.  Fills *res (dispose it afterwards, whatever the return).
 * Returns 0 when the run happened (whatever its outcome, ERROR included: an exec failure is an
 * outcome, with res->message saying why), or a negative code when the engine itself failed
 * (TNORM_EIO: cannot create the temporary folder, fork failed, cannot start the runner's
 * thread; TNORM_ENOMEM; TNORM_EINTERRUPTED: the cancel flag stopped the run).
 * Not thread-safe for one runner; use one runner per thread.
 */
TNORM_EXTERN int tnorm_runner_run(tnorm_runner *r, const void *data, size_t len,
                                  tnorm_run_result *res);

/** Free what a result owns and zero it.  Safe on a zeroed or already disposed result. */
TNORM_EXTERN void tnorm_run_result_dispose(tnorm_run_result *res);

/**
 * The result of a run as one JSON object on one line (no newline): what `tnorm run --json`
 * prints and the Python binding's run() returns (docs/commands/run.md lists the keys):
 * outcome, exit_code, signal, wall, child_cpu, signature (tnorm_signature_json's object, or
 * null), kind, top (tnorm_signature_format_top) and key (null without `match`, or without a
 * signature), message, stdout and stderr (readable text; stdout_hex / stderr_hex beside them,
 * the exact bytes in hex, when they are not all text).
 * @param out   receives the text; free it with tnorm_free()
 * @param match the policy of "key" (borrowed); NULL: "key" is null
 * @return 0; TNORM_EINVALID (NULL out or res); TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_run_result_json(char **out, const tnorm_run_result *res,
                                       const tnorm_match *match);

/** One source line that a run executed (line coverage). */
typedef struct tnorm_covered_line {
	const char *file;     /**< the source file as the line table names it */
	uint32_t line;
	const char *function; /**< the function whose code the line is (the innermost inlined
	                           one); NULL when unknown */
} tnorm_covered_line;

/**
 * Line coverage.  With `on` 1, every later run records which source lines of the program's
 * executable it ran: an int3 at each address of the executable's DWARF line table (not those
 * of a sanitizer runtime linked into it) is written into the run's process once it is
 * started, the fork server's child included, and taken back at its first hit, so a line costs
 * one ptrace stop the first time it runs and nothing after; the program is not rebuilt.  The
 * lines the program's fork and vfork children run (until they exec) count for the run too; a
 * program the run's processes exec is not covered, nor are shared libraries.  While coverage
 * is on, a failure at a merged abort site
 * keeps its merged signature (no second run; see docs/signatures.md).  `on` 0 turns it off.
 * @return 0; TNORM_EINVALID (NULL runner); TNORM_ENOTFOUND (the program is not an ELF file
 *         with a line table: built without -g, a script); TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_runner_set_coverage(tnorm_runner *r, int on);

/**
 * The lines the last run executed, with coverage on: *lines receives an array of *n lines,
 * sorted by file then line, each once (free the array with tnorm_free(); its strings are
 * borrowed from the runner and valid until tnorm_runner_free()).  An empty array (NULL, 0)
 * when coverage is off, or the run's process did not map the executable (a wrapper script
 * that ran another program).
 * @return 0; TNORM_EINVALID (NULL argument); TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_runner_coverage(tnorm_runner *r, tnorm_covered_line **lines, size_t *n);

/**
 * 1 when a signal was sent, with kill(), sigqueue() or tgkill(), by a process that descends from
 * the calling one (a program under test, or a process it started, that signals its parent:
 * `kill(getppid(), SIGUSR1)`), or by a process that is already gone (a program that signalled
 * and exited, reaped before the handler ran); 0 for a signal from the kernel (the terminal's
 * Ctrl-C), from this process, or from any other living process (a shell's kill, timeout, a
 * supervisor: they outlive their signal).  `code` and `pid` are the si_code and si_pid of a
 * SA_SIGINFO handler's siginfo_t.  Async-signal-safe: it reads /proc/PID/stat with open, read
 * and close only, so that a front end's signal handler may call it to ignore what the programs
 * send (see core/cli/cancel.c).  A program that has left the caller's line of processes (a
 * daemon that forked twice) and is still running is not known as one.
 */
TNORM_EXTERN int tnorm_signal_from_below(int code, long pid);

/**
 * Warnings about checks whose failures cannot be told apart (issue 16): checks of `h` that run
 * one function — one name declared twice, or, when `program` is given, two names that the
 * driver's table maps to one function (asked with `program --print-hooks`, untraced, at most
 * 10 s) — fail alike inside it, so their signatures are equal.  A check that returns nonzero is
 * told apart by its name (`check-failed:NAME`), one that asserts or calls a helper by its stack.
 * @param out  receives the warnings, one line each ("warning: checks ..."), free with
 *             tnorm_free(); NULL when there are none.
 * @return 0; TNORM_EINVALID (NULL argument; `program` lists no handlers: not a tnorm driver, or
 *         one built before `handler` lines); TNORM_ERROR (`program` cannot be run); TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_lint_checks(const tnorm_harness *h, const char *program, char **out);

/**
 * The sanitizer options variables a debugger sets for the program it runs (the gdb and lldb
 * plugins' inferior), so that a sanitizer's report ends in an abort the debugger stops on rather
 * than in exit(1): "ASAN_OPTIONS", then "UBSAN_OPTIONS".
 * @return the i-th name (static storage), NULL past the last.
 */
TNORM_EXTERN const char *tnorm_sanitizer_debug_var(size_t i);

/**
 * The value of `name` (one of tnorm_sanitizer_debug_var's) for a program a debugger runs: the
 * flags of `user` (the value the program would get otherwise; NULL or "" for none) as written
 * and in their order, then the defaults `user` does not set (UBSAN_OPTIONS: halt_on_error=1),
 * then abort_on_error=1, which replaces the user's.  Flags are read as the runner merges them
 * (separated by ':', ',' or blanks; a value may be quoted) and joined by ':'.  Unlike the
 * runner's options, nothing else is added: under a debugger the program symbolizes its reports
 * and prints its stacks as it would on its own.
 * @param out  receives the string; free with tnorm_free().
 * @return 0; TNORM_EINVALID (NULL `out` or `name`, or `name` is not such a variable);
 *         TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_sanitizer_debug_options(char **out, const char *name, const char *user);

/**
 * The step a tnorm driver run with --trace was in when it ended: the number of the last line of
 * `err` (its standard error, `len` bytes, any bytes) that reads "STEP K: " (the runtime prints
 * one before each step), into *step.  1 when there is such a line, 0 when there is none (*step
 * untouched), TNORM_EINVALID (NULL `step`, or NULL `err` with len > 0).
 */
TNORM_EXTERN int tnorm_trace_last_step(const char *err, size_t len, uint64_t *step);

/**
 * 1 when `program` links the tnorm driver runtime (an ELF file that names tnorm_drv_main: the
 * check tnorm_driver_harness makes before it runs anything), 0 otherwise, and when it cannot be
 * found or read.  `program` is a path, or a name looked up in PATH as execvp does.  Nothing is
 * run and no error is recorded.
 */
TNORM_EXTERN int tnorm_driver_links_runtime(const char *program);

/**
 * The harness compiled into a tnorm driver, as `program --print-harness` prints it (run
 * untraced, standard input and error on /dev/null, at most 10 s).  `program` is a path, or a
 * name looked up in PATH as execvp does.  Only a program that links the tnorm driver runtime
 * (its file names tnorm_drv_main) is run: any other could take the option for a file name.
 * @param out  receives the harness text, NUL-terminated; free with tnorm_free().
 * @return 0; TNORM_ENOTFOUND (no such program, or not a tnorm driver: nothing was run);
 *         TNORM_EINVALID (NULL argument; the driver printed no harness); TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_driver_harness(const char *program, char **out);

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: MIT */
/*
 * runner_internal.h (internal) - what the runner's files share: the runner itself and the entry
 * points each mechanism offers the others.
 *
 * The runner (tnorm/runner.h) is one object spread over files, one per mechanism:
 *
 *   runner.c      options, one attempt at a run (pipes, the tracer's job), classification, the
 *                 runs made again (a dying fork server, a new merged abort site, leak check),
 *                 coverage.
 *   runner_env.c  the program's environment (and the leak check's), made once per runner.
 *   runner_wait.c the wait loop of a run, in the caller's thread: output, the tracer's news,
 *                 the timeout, Ctrl-C, a persistent child's "TNPS".
 *   rundir.c      the run folder: made at the first run, the candidate written into it, emptied
 *                 after each run, removed by tnorm_runner_free; stale folders of dead engines.
 *   forkserver.c  the fork server, the engine's side: which way a run starts, what a server's
 *                 death means for the next run, persistent mode's request bytes, the preload
 *                 fork server and its confirmation.
 *   tracer.c      the tracer thread: starts each run's program (vfork, PTRACE_TRACEME), waits
 *                 for its ptrace stops, follows the processes it starts, unwinds fatal stops
 *                 (unwind.c), and tells the caller when the run's program is gone.
 *   forkserver_proto.c  the control socket's messages (hello, refusal, request, "TNPS").
 *   unwind.c      libunwind-ptrace over cached pages and the symbol cache's unwind tables; the
 *                 signature of a stopped thread; merged abort sites and their traps.
 *   runner_base.c what they all use: string vectors, a signal's name, invalid exit codes.
 *
 * Who calls what, top to bottom, so that no two of them call each other (issue 42, item 3;
 * tests/integration/circles.py checks it): runner.c calls the files below it; runner_wait.c
 * calls the tracer and the socket's messages; forkserver.c asks the tracer about the live
 * server (and stops it); tracer.c calls unwind.c at a fatal stop and the socket's messages
 * when a program says hello; forkserver_proto.c, unwind.c and runner_base.c call none of the
 * runner's files.  No other file of the engine includes this header but askdriver.c
 * (tnorm_lint_checks, tnorm_driver_harness), which asks a driver about itself with
 * tnorm__ask_program, and sanopts.c, which asks it the same way.
 *
 * Ownership: the runner owns everything its struct points to, and tnorm_runner_free frees it
 * (the tracer through tnorm__tracer_free, the folder through tnorm__rundir_drop).  During a run
 * the tracer thread reads the runner's options, symbol cache and address space, has the probe
 * (probe.h: the tracer owns it during a run), and writes only the run's result signature
 * (tnorm_run_result.sig) and the unwinder's `last_maps` and `unwinder`; the caller's thread
 * does not touch those until the tracer says the run's program is gone.  Nothing here sets a
 * last error except where a comment says so.
 */
#ifndef TNORM__RUNNER_INTERNAL_H
#define TNORM__RUNNER_INTERNAL_H

#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <libunwind.h>

#include "common.h"
#include "mergetrap.h"
#include "probe.h"
#include "shield.h"
#include "symbolize.h"
#include "tnorm/runner.h"

/* The runner's tracer thread (tracer.c); NULL in a runner until its first run. */
typedef struct tnorm__tracer tnorm__tracer;

struct tnorm_runner {
	char **argv;  /* as given, argv[0] resolved to an absolute path when it names a file */
	size_t argc;
	char **envp;  /* NULL-terminated */
	/* A driver with destructors (issue 16): the environment of its leak check, which turns
	 * LeakSanitizer on (NULL for other programs, or when the user's options turn it off). */
	char **leak_envp;
	tnorm_run_options opts;
	char *suffix;
	int *invalid_exits; /* the options' list, copied */
	tnorm__symcache *syms;
	unw_addr_space_t as;
	/* The run folder, kept from run to run (made at the first run; emptied after each): its
	 * path, a descriptor on it, the candidate's path in it, argv with {} replaced by that path. */
	char *dir, *file, **run_argv;
	int dirfd;
	/* The fork server (tnorm_run_options.fork_server): whether the program is one, our end of
	 * its control socket, the folder it was started in, its deaths in a row. */
	enum { FS_UNKNOWN, FS_ON, FS_NO } fs_state;
	int ctl;
	unsigned folder_gen, fs_gen, fs_crashes;
	/* The preload fork server, for a program that did not say hello (forkserver.c): not looked
	 * at yet, to be tried (the next plain run is made again with it), being tried (that run),
	 * in use, or not for this program; the library's path while tried or in use. */
	enum { FS_PL_UNKNOWN, FS_PL_TRY, FS_PL_CONFIRM, FS_PL_ON, FS_PL_NO } fs_pl;
	char fs_pl_path[4096];
	/* Persistent mode (forkserver.c): candidates one child may run (1: off), and whether the
	 * last run was made in a reused child (a result other than a pass is then made again). */
	unsigned persist_max;
	int fs_reused;
	/* The live server's runtime echoes each request's number in its "TNPS" (its hello was
	 * "TNFS2"): only then may its children persist.  The number of the last request. */
	int fs_nonced;
	uint64_t nonce;
	tnorm__tracer *tr; /* the thread that starts and traces the runs (NULL until the first) */
	char *last_maps; /* the memory map of the last unwound process: unwind caches stay valid
	                  * while it is the same (ASLR is off, so runs of one binary match) */
	struct tnorm__unwinder *unwinder; /* unwind.c's pages and cursors (NULL until the first
	                                   * unwind; one block: free() frees it) */
	char *test_name; /* what an invalid run's reason calls the candidate (set_test_name) */
	const volatile int *cancel; /* set_cancel: stops the run under way (borrowed; may be NULL) */
	tnorm__shield shield; /* the programs' filter: no signal to this process (shield.c) */
	tnorm__probe *probe;  /* breakpoints for the runs (coverage), or NULL */
	/* The merged abort sites met so far, each with a trap per check that jumps to it, armed in
	 * every run (mergetrap.h); NULL until the first failure at one. */
	tnorm__mtrap *mtrap;
};

/* ---- runner_base.c: what every file of the runner uses --------------------------------------- */

/* Free a NULL-terminated array of strings and the strings (NULL: nothing). */
void tnorm__strv_free(char **v);

/* 1 when exit code `code` marks an invalid run: 125, or one the options declare invalid. */
int tnorm__runner_invalid_exit(const tnorm_runner *r, int code);

/* A signal's name as a signature's kind ("SIGSEGV", or "signal(N)"), written into buf. */
const char *tnorm__signame(int sig, char *buf, size_t size);

/* ---- runner_env.c: the program's environment ------------------------------------------------- */

/* Make r->envp, the environment of every run (r->opts.env merged in), and r->leak_envp for a
 * driver with destructors (NULL when there is no leak check); r->argv must be set.  0,
 * TNORM_EINVALID (an entry of the options' env that is not NAME=VALUE) or TNORM_ENOMEM (last
 * error set); what was made stays in r for tnorm_runner_free. */
int tnorm__runner_env(tnorm_runner *r);

/* ---- rundir.c: the run folder ---------------------------------------------------------------- */

/* The first placeholder in `s`: `{}`, or `@@` (AFL's spelling, for fuzzers' command lines);
 * NULL when none.  Arguments that hold one name the candidate's file. */
const char *tnorm__rundir_placeholder(const char *s);

/* Remove the run folders of engines that are gone (tnorm-run-PID-*, PID dead) under `root`. */
void tnorm__rundir_sweep_stale(const char *root);

/* Write the candidate into the run folder, made first if need be (r->dir, r->file, r->run_argv
 * set then).  0, TNORM_EIO or TNORM_ENOMEM (last error set). */
int tnorm__rundir_write(tnorm_runner *r, const void *data, size_t len);

/* After a run: empty the folder for the next one, or give it up (tnorm__rundir_drop). */
void tnorm__rundir_clean(tnorm_runner *r);

/* Remove the folder with what is in it and forget it (r->dir, r->file, r->run_argv freed, set
 * to NULL): the next run makes a new one.  No folder: nothing. */
void tnorm__rundir_drop(tnorm_runner *r);

/* ---- tracer.c: the tracer thread ------------------------------------------------------------- */

/* What waiting for a run came to (runner.c fills it from the tracer's answer). */
typedef struct {
	pid_t pid;       /* the run's program (0 when none was started) */
	int status, lost, from_server, hello, timed_out, cancelled;
	int persisted;   /* a persistent child passed and waits for its next candidate: status 0,
	                  * ru the candidate's CPU time as the child measured it */
	struct rusage ru;
} tnorm__waited;

/*
 * The runner's tracer, started on first use (r->tr).  In a child of a fork() (a host that forks
 * after a run, such as Python's os.fork) the thread is not there: that process gets its own,
 * and forgets the parent's fork server.  *out is borrowed from the runner.  0, TNORM_EIO or
 * TNORM_ENOMEM (last error set).
 */
int tnorm__tracer_get(tnorm_runner *r, tnorm__tracer **out);

/* Stop and join the tracer thread (when this process started it), free its state.  NULL: no-op.
 * 1 when the tracer is stuck (tnorm__tracer_stop_server): then its thread, still waiting for a
 * process that outlived its SIGKILL, keeps the tracer and the runner it uses, and neither is
 * freed (the caller must not free the runner either); else 0. */
int tnorm__tracer_free(tnorm__tracer *t);

/* Get ready for a run: the tracer's answer cleared, `res` the run's result (the tracer sets
 * res->sig, nothing else, until tnorm__tracer_end).  For a run of the fork server (`served`), 0
 * when the server is gone already (then nothing is changed); else 1, with *reused (may be NULL)
 * the candidates the persistent child that takes this run has run before it (0: the run gets a
 * fresh child).  The run's program is that child from here on. */
int tnorm__tracer_begin(tnorm__tracer *t, tnorm_run_result *res, int served, unsigned *reused);

/* Persistent mode, in the caller's thread: the run's child said "TNPS" (its candidate passed,
 * `ru` its CPU time) on the control socket.  The run is over as an exit 0, the child kept for the
 * next run unless the tracer saw it end already; *pid and *w are the answer (as
 * tnorm__tracer_answer's, done). */
void tnorm__tracer_persisted(tnorm__tracer *t, const struct rusage *ru, pid_t *pid, tnorm__waited *w);

/* 1 when a persistent child of the fork server is alive, waiting for a candidate. */
int tnorm__tracer_persistent(tnorm__tracer *t);

/* The run is over: the tracer writes no more into its result. */
void tnorm__tracer_end(tnorm__tracer *t);

/* Hand a program to start to the (idle) tracer: `dir`, `argv` and `envp` are borrowed until the
 * program is reaped; fds (stdin, stdout, stderr, the exec-error pipe's write end), `ctl` (a
 * would-be fork server's end of the control socket, or -1) are the tracer's from here on;
 * `ctl_engine` (our end, or -1) stays the runner's. */
void tnorm__tracer_start(tnorm__tracer *t, const char *dir, char **argv, char **envp, int *fds,
                         int ctl, int ctl_engine);

/* The seconds the tracer spent on the current run's stops so far, while the program was stopped
 * for it (reading its stack at a crash, setting breakpoints at exec): not the program's time, so
 * not counted by the run's timeout.  Any thread. */
double tnorm__tracer_held(const tnorm__tracer *t);

/* The eventfd the tracer signals with news of the run (a fork failed, a server said hello, a
 * program ended): the caller polls it and reads it empty. */
int tnorm__tracer_fd(const tnorm__tracer *t);

/* The tracer's answer so far: *pid the run's program (0 not known yet, -1 the fork failed, with
 * errno set to the fork's error), w->hello, and when the run's program is gone w->lost, status,
 * ru and from_server.  1 when it is gone. */
int tnorm__tracer_answer(tnorm__tracer *t, pid_t *pid, tnorm__waited *w);

/* The live fork server, or 0. */
pid_t tnorm__tracer_server(tnorm__tracer *t);

/* Kill the fork server, if there is one, and its persistent child: the tracer reports it gone. */
void tnorm__tracer_kill_server(tnorm__tracer *t);

/* How long a process that was sent SIGKILL is waited for (seconds).  Past that it is one the
 * kernel holds (an uninterruptible wait): the run ends with an error instead of waiting for good,
 * and the tracer, whose thread still waits for it, is stuck (issue 39, item 4). */
#define TNORM__KILL_GRACE 10.0

/* Stop the fork server (and its persistent child), if there is one, and wait until the tracer is
 * idle (ready for a job, with nothing of the last one left to report), TNORM__KILL_GRACE seconds
 * at most.  0, or -1 when the tracer is stuck (it takes no more jobs). */
int tnorm__tracer_stop_server(tnorm__tracer *t);

/* The tracer is stuck: the caller gave up on a run's process that outlived its SIGKILL. */
void tnorm__tracer_abandon(tnorm__tracer *t);

/* 1 when the tracer is stuck (it takes no more jobs). */
int tnorm__tracer_stuck(tnorm__tracer *t);

/* ---- forkserver.c: which way a run starts, and the server's fate ----------------------------- */

/* How a run starts its program. */
typedef enum {
	TNORM__RUN_PLAIN,  /* a process of its own, exec'd */
	TNORM__RUN_SPAWN,  /* the same, offered to become a fork server (the run goes on either way) */
	TNORM__RUN_SERVED  /* a child of the live fork server */
} tnorm__run_mode;

/* Which way this run goes (stopping a server that may not serve it). */
tnorm__run_mode tnorm__forkserver_mode(tnorm_runner *r, tnorm__tracer *t);

/* The program's environment with TNORM_FORK_SERVER=FD added, and the preload library in
 * LD_PRELOAD while it is tried or in use (NULL-terminated; free with tnorm__strv_free).  NULL
 * when out of memory. */
char **tnorm__forkserver_env(tnorm_runner *r, int fd);

/* Persistent mode: the request byte for a run whose child has run `reused` candidates before
 * (0: a fresh child): 'R' a fresh child that exits after the run, 'P' one that may persist,
 * 'C' the live persistent child's next candidate, 'L' its last. */
char tnorm__forkserver_what(const tnorm_runner *r, unsigned reused);

/* 1 when this runner's runs may be made in persistent children now (not for a leak check,
 * coverage, the preload fork server, or with persistent mode off). */
int tnorm__forkserver_may_persist(const tnorm_runner *r);

/* Candidates per persistent child for these options (opts->persistent, TNORM_PERSISTENT). */
unsigned tnorm__forkserver_persist_max(const tnorm_run_options *opts);

/* The fork server's side of a finished run: 1 when the server died before it forked the run's
 * child (the run is made again, with a new server or, after three deaths in a row, without). */
int tnorm__forkserver_after(tnorm_runner *r, tnorm__run_mode mode, const tnorm__waited *w);

/* 1 when the run that gave `plain` is to be made again with the preload fork server (the
 * program said no hello, and the preload may serve it): runner.c then makes it and hands both
 * results to tnorm__forkserver_confirm. */
int tnorm__forkserver_confirm_due(tnorm_runner *r, const tnorm_run_result *plain);

/* The preload fork server's first run (`served`; NULL when it could not be made) against the
 * plain run of the same candidate: the server stays only when the two agree (outcome, exit
 * status, signal, signature); else it is stopped and the program runs afresh from then on.
 * Both results stay the caller's. */
void tnorm__forkserver_confirm(tnorm_runner *r, tnorm__tracer *t, const tnorm_run_result *plain,
                               const tnorm_run_result *served);

/* ---- runner_wait.c: the wait loop ------------------------------------------------------------ */

/* A run's standard output or error, read as it comes: `fd` the pipe's read end (-1 once it is
 * closed), `buf` what was kept (NUL-ended, at most the options' output_cap bytes), `total` all
 * the program wrote. */
typedef struct {
	int fd;
	char *buf;
	size_t len, total;
} tnorm__stream;

/* The mask the caller's thread waits with: its own, and SIGCHLD (see runner_wait.c). */
void tnorm__wait_mask(sigset_t *mask);

/* Wait up to `timeout` ms for output on the open streams and drain what came (at most `cap`
 * bytes kept in each). */
void tnorm__wait_output(tnorm__stream *so, tnorm__stream *se, int timeout, size_t cap,
                        const sigset_t *mask);

/*
 * Wait for the run the tracer `t` was handed (mode and request byte `what`: 0 for none) to end:
 * output read into `so` and `se`, the timeout and the cancel flag kept, a persistent child's
 * "TNPS" taken; `pending` the streams of a new server's first request (TNORM__RUN_SPAWN), sent
 * when it says hello and closed either way.  *w is what it came to.  0; TNORM_EIO (the fork
 * failed, or a process outlived its SIGKILL) or TNORM_EINTERRUPTED (last error set).
 */
int tnorm__wait_run(tnorm_runner *r, tnorm__tracer *t, tnorm__run_mode mode, char what,
                    tnorm__stream *so, tnorm__stream *se, int *pending, double start,
                    const sigset_t *mask, tnorm__waited *w);

/* ---- forkserver_proto.c: the control socket's messages --------------------------------------- */

/* A would-be fork server stopped itself: did it say hello on the control socket first?  0: no;
 * 1: "TNFS1", a runtime from before request numbers (its children do not persist); 2: "TNFS2". */
int tnorm__forkserver_hello(int ctl);

/* Tell a driver that offered to serve (one the program started or exec'd) that it is not ours. */
void tnorm__forkserver_refuse(int ctl);

/* Ask the fork server on `ctl` for a child with these standard streams (fds[0..3), duplicated
 * into the server; the caller's stay the caller's), with the request byte `what`
 * (tnorm__forkserver_what) and a new random request number, stored in *nonce: the child's
 * "TNPS" must echo it (issue 39, item 5).  -1 when the server is gone, or does not read its
 * socket (sent without waiting). */
int tnorm__forkserver_request(int ctl, const int *fds, char what, uint64_t *nonce);

/* Persistent mode: is a message waiting on the control socket (read without waiting) the run's
 * child saying "TNPS" (its candidate passed) with the run's request number `nonce`?  (A message
 * without it is not the runtime's: a candidate that found the socket and forged it.)  Then *ru
 * holds the candidate's CPU time (user, system) as the child measured it, and 1 is returned.
 * Other messages (a candidate that wrote to the socket) are read and dropped: 0 when nothing
 * else waits, -1 when the socket's other ends are closed.  (runner_wait.c reads it; the tracer
 * never reads the socket after the server's hello.) */
int tnorm__forkserver_persisted(int ctl, uint64_t nonce, struct rusage *ru);

/* ---- unwind.c: stacks of stopped threads ----------------------------------------------------- */

/* The runner's libunwind address space (made once per runner; unw_destroy_addr_space frees it).
 * 0, or TNORM_ENOMEM (last error set). */
int tnorm__unwind_space_new(unw_addr_space_t *out);

/* Unwind the stopped thread `tid` of process `pid` (in the tracer thread) and replace *out
 * with its signature, of kind `kind` (NULL when it cannot be made).  Free with
 * tnorm_signature_free. */
void tnorm__unwind(tnorm_runner *r, pid_t pid, pid_t tid, const char *kind,
                   tnorm_signature **out);

/* The throwing frame of `sig` when it is a merged abort site (borrowed from `sig`), else NULL. */
const tnorm_frame *tnorm__merged_site(tnorm_runner *r, const tnorm_signature *sig);

/* Whether the merged call `f` (a frame of tnorm__merged_site) is one of r->mtrap's sites. */
int tnorm__merged_known(tnorm_runner *r, const tnorm_frame *f);

/* Make the merged call `f` a site of r->mtrap (made at the first): its checks' traps are armed
 * in every run from now on.  0 or TNORM_ENOMEM. */
int tnorm__merged_learn(tnorm_runner *r, const tnorm_frame *f);

/* ---- askdriver.c ----------------------------------------------------------------------------- */

/* Run `path option` untraced (standard input and error on /dev/null, environment `envp`, at
 * most 10 s) and keep what it prints, up to size - 1 bytes, NUL-ended.  1 when it exited 0. */
int tnorm__ask_program(const char *path, const char *option, char *const *envp, char *out,
                       size_t size);

#endif

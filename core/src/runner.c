/* SPDX-License-Identifier: MIT */
/*
 * runner.c - run the user's program on one candidate, under ptrace, and classify the outcome.
 *
 * Every run is a fresh process in its own process group, in the runner's private folder (emptied
 * between runs: rundir.c).  The child asks to be traced (PTRACE_TRACEME) before exec, so the
 * engine sees every signal the program gets: on a fatal one it unwinds the stack with
 * libunwind-ptrace while the process is stopped (unwind.c), symbolizes it, then lets the signal
 * kill the program as it would have.  PTRACE_O_TRACEEXIT gives a last stop before a normal exit,
 * so a failing exit code gets a stack too, and PTRACE_O_EXITKILL makes sure a tracee never
 * outlives an engine that dies.  Nothing spins: a thread of the runner's own starts the program
 * and blocks in wait4 for its stops (tracer.c), while the caller blocks in poll on the output
 * pipes, with the timeout as poll's (runner_wait.c).  No signal handlers, which a library
 * running inside a debugger must not install.
 *
 * A tnorm driver runs as a fork server (see "The fork server" in docs/architecture.md, and
 * forkserver.c): the process per run is then a child forked by the driver, traced from its first
 * instruction (PTRACE_O_TRACEFORK on the server), and everything above holds for it unchanged.
 *
 * Every process the program starts is traced as well, only so that it dies with the run, even
 * when it left the process group (see "The run's processes" in tracer.c).
 *
 * This file keeps what a run is: the options, one attempt at a run (pipes, the tracer's job,
 * then the wait: runner_wait.c), the outcome and its signature (classify, then what the
 * program's standard error says), and the runs made again after it (a dying fork server, the
 * first failure at a merged abort site, a leak check).  The program's environment is made by
 * runner_env.c.  The mechanisms it drives have a file each, below it; runner_internal.h says
 * who calls what.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"
#include "options.h"
#include "cxxexc.h"
#include "runner_internal.h"
#include "signature_internal.h"

const char *tnorm_outcome_name(tnorm_outcome o)
{
	switch (o) {
	case TNORM_OUTCOME_PASS: return "pass";
	case TNORM_OUTCOME_FAIL: return "fail";
	case TNORM_OUTCOME_TIMEOUT: return "timeout";
	case TNORM_OUTCOME_INVALID: return "invalid";
	case TNORM_OUTCOME_ERROR: return "error";
	}
	return "?";
}

void tnorm_runner_free(tnorm_runner *r)
{
	if (!r)
		return;
	/* A stuck tracer's thread still uses the runner (its options, argv, symbols): both are
	 * left as they are, a leak that only a process the kernel would not kill can cause. */
	if (tnorm__tracer_free(r->tr))
		return;
	tnorm__strv_free(r->argv);
	tnorm__strv_free(r->envp);
	tnorm__strv_free(r->leak_envp);
	free(r->suffix);
	free(r->invalid_exits);
	tnorm__probe_free(r->probe);
	tnorm__mtrap_free(r->mtrap);
	if (r->ctl >= 0)
		close(r->ctl);
	tnorm__rundir_drop(r);
	tnorm__symcache_free(r->syms);
	free(r->last_maps);
	free(r->unwinder);
	free(r->test_name);
	if (r->as)
		unw_destroy_addr_space(r->as);
	free(r);
}

/* Relative paths that name existing files are made absolute: the child runs in another folder. */
static char *absolutize(const char *arg, int is_cmd)
{
	struct stat st;
	char *abs;
	if (tnorm__rundir_placeholder(arg) || arg[0] == '/' || arg[0] == '-' || stat(arg, &st) != 0)
		return tnorm__strdup(arg);
	if (is_cmd && !strchr(arg, '/'))
		return tnorm__strdup(arg); /* a bare name found through PATH */
	if (!(abs = realpath(arg, NULL)))
		return tnorm__strdup(arg);
	{
		char *copy = tnorm__strdup(abs);
		free(abs);
		return copy;
	}
}

void tnorm__run_options_resolve(tnorm_run_options *o)
{
	if (o->timeout == 0)
		o->timeout = 10;
	else if (o->timeout < 0)
		o->timeout = 0;
	if (o->output_cap == 0)
		o->output_cap = 65536;
	o->unwind = o->unwind >= 0;
	o->fork_server = o->fork_server >= 0;
}

int tnorm_runner_new(tnorm_runner **out, const char *const *argv, const tnorm_run_options *opts)
{
	tnorm_run_options defaults = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	size_t i, n = 0;
	int err = 0;

	if (!out || !argv || !argv[0] || !argv[0][0])
		return tnorm__error_set(TNORM_EINVALID, "no command to run, expected CMD ARGS after --");
	*out = NULL;
	if (opts && opts->version != TNORM_RUN_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_runner_new: options version %u, expected %u",
		                        opts->version, TNORM_RUN_OPTIONS_VERSION);
	if (opts && opts->timeout != opts->timeout)
		return tnorm__error_set(TNORM_EINVALID, "the timeout must be a number");
	if (tnorm_env_check() < 0) /* TNORM_PERSISTENT=abc and the like: named, not the default */
		return TNORM_EINVALID;
	if (!(r = tnorm__calloc(1, sizeof(*r))))
		return TNORM_ENOMEM;
	r->dirfd = -1;
	r->ctl = -1;
	r->opts = opts ? *opts : defaults;
	tnorm__run_options_resolve(&r->opts);
	tnorm__shield_init(&r->shield, getpid(), getpgrp(), 1);
	while (argv[n])
		n++;
	if (!(r->argv = tnorm__calloc(n + 1, sizeof(*r->argv)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = 0; i < n; i++)
		if (!(r->argv[i] = absolutize(argv[i], i == 0))) {
			err = TNORM_ENOMEM;
			goto done;
		}
	r->argc = n;
	if ((err = tnorm__runner_env(r)) < 0)
		goto done;
	r->persist_max = tnorm__forkserver_persist_max(&r->opts);
	if (!(r->suffix = tnorm__strdup(r->opts.suffix ? r->opts.suffix : ""))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if (r->opts.ninvalid_exits) {
		if (!r->opts.invalid_exits) {
			err = tnorm__error_set(TNORM_EINVALID, "invalid_exits is NULL with ninvalid_exits %zu",
			                       r->opts.ninvalid_exits);
			goto done;
		}
		if (!(r->invalid_exits = tnorm__calloc(r->opts.ninvalid_exits, sizeof(int)))) {
			err = TNORM_ENOMEM;
			goto done;
		}
		for (i = 0; i < r->opts.ninvalid_exits; i++) {
			int c = r->opts.invalid_exits[i];
			if (c < 1 || c > 255) {
				err = tnorm__error_set(TNORM_EINVALID, "invalid exit code %d: expected 1 to 255 "
				                       "(exit 0 is a pass)", c);
				goto done;
			}
			r->invalid_exits[i] = c;
		}
	}
	r->opts.env = NULL;
	r->opts.suffix = NULL;
	r->opts.invalid_exits = NULL;
	if ((err = tnorm__symcache_new(&r->syms)) < 0)
		goto done;
	{
		const char *tmproot = getenv("TMPDIR");
		tnorm__rundir_sweep_stale(tmproot && *tmproot ? tmproot : "/tmp");
	}
	if (r->opts.unwind && (err = tnorm__unwind_space_new(&r->as)) < 0)
		goto done;
done:
	if (err < 0) {
		tnorm_runner_free(r);
		return err;
	}
	*out = r;
	return 0;
}

void tnorm_runner_set_timeout(tnorm_runner *r, double seconds)
{
	if (r && seconds >= 0)
		r->opts.timeout = seconds;
}

void tnorm_runner_set_cancel(tnorm_runner *r, const volatile int *flag)
{
	if (r)
		r->cancel = flag;
}

int tnorm_runner_set_test_name(tnorm_runner *r, const char *name)
{
	char *copy = NULL;
	if (!r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_runner_set_test_name: NULL runner");
	if (name && !(copy = tnorm__strdup(name)))
		return TNORM_ENOMEM;
	free(r->test_name);
	r->test_name = copy;
	return 0;
}

void tnorm_run_result_dispose(tnorm_run_result *res)
{
	if (!res)
		return;
	tnorm_signature_free(res->sig);
	free(res->out);
	free(res->err);
	memset(res, 0, sizeof(*res));
}

/* A report's stack (module + offset, or already symbolized) as frames. */
static size_t report_frames(tnorm_runner *r, const tnorm__report_frame *rf, size_t nrf,
                            tnorm_frame *frames, size_t max)
{
	size_t i, n = 0;
	for (i = 0; i < nrf && n < max; i++) {
		if (rf[i].module) {
			n += tnorm__symbolize_module(r->syms, rf[i].module, rf[i].offset, i == 0, &frames[n],
			                             max - n);
		} else {
			memset(&frames[n], 0, sizeof(frames[n]));
			frames[n].function = rf[i].function;
			frames[n].file = rf[i].file;
			frames[n].line = rf[i].line;
			n++;
		}
	}
	return n;
}

/* The program's last non-empty line on stderr: what a failure helper (die, fail, panic) said. */
static void set_last_line(tnorm_signature *sig, const char *err)
{
	const char *end = err + strlen(err), *start;
	char line[512];
	while (end > err && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (start = end; start > err && start[-1] != '\n'; start--)
		;
	if (end == start)
		return;
	snprintf(line, sizeof(line), "%.*s", (int)(end - start < 511 ? end - start : 511), start);
	tnorm_signature_set_message(sig, line);
}

/* An uncaught exception whose what() text the memory could not give (a class that overrides
 * what()): the text libstdc++'s terminate handler printed, when it did. */
static void uncaught_what(tnorm_signature *sig, const char *err)
{
	const char *kind = tnorm_signature_kind(sig);
	char *what = NULL;
	size_t len = 0;
	if (strncmp(kind, "uncaught ", 9) || tnorm_signature_what(sig, NULL) ||
	    tnorm__cxx_what_from_stderr(err, kind + 9, &what, &len) <= 0)
		return;
	tnorm_signature_set_what(sig, what, len);
	free(what);
}

/*
 * What the program's standard error says about the failure: a sanitizer report gives the kind
 * (bug type and access) and the free/alloc stacks; a leak report's allocation stack becomes the
 * signature's stack (the process stack at exit says nothing about a leak); the driver runtime's
 * failed check names the check.
 */
static void apply_report(tnorm_runner *r, const char *err, tnorm_signature **sig)
{
	tnorm__report rep;
	tnorm_frame frames[TNORM__MAX_FRAMES];
	tnorm_signature *ns = NULL;
	size_t n, k;
	/* A sanitizer names the failure when it ended the program itself (its report's abort); a
	 * fatal signal the program got first keeps the signal's name (as a debugger sees it). */
	int ended_by_report = *sig && (!strcmp(tnorm_signature_kind(*sig), "SIGABRT") ||
	                               !strncmp(tnorm_signature_kind(*sig), "exit(", 5));
	if (!*sig)
		return;
	if (!ended_by_report || tnorm__report_parse(err, &rep) < 0 || !rep.kind[0]) {
		if (ended_by_report)
			tnorm__report_dispose(&rep);
		set_last_line(*sig, err);
		uncaught_what(*sig, err);
		return;
	}
	if (rep.nstack[TNORM__REPORT_LEAK]) {
		n = report_frames(r, rep.stack[TNORM__REPORT_LEAK], rep.nstack[TNORM__REPORT_LEAK], frames,
		                  TNORM__MAX_FRAMES);
		if (tnorm_signature_new(&ns, rep.kind, frames, n) < 0)
			ns = NULL;
	} else if (tnorm_signature_dup(&ns, *sig) < 0 || tnorm__signature_set_kind(ns, rep.kind) < 0) {
		tnorm_signature_free(ns);
		ns = NULL;
	}
	for (k = 0; ns && k < 2; k++) {
		int which = k == 0 ? TNORM__REPORT_FREE : TNORM__REPORT_ALLOC;
		if (!rep.nstack[which])
			continue;
		n = report_frames(r, rep.stack[which], rep.nstack[which], frames, TNORM__MAX_FRAMES);
		if (tnorm_signature_set_stack(ns, k == 0 ? TNORM_STACK_FREE : TNORM_STACK_ALLOC, frames,
		                              n) < 0) {
			tnorm_signature_free(ns);
			ns = NULL;
		}
	}
	if (ns) {
		tnorm_signature_free(*sig);
		*sig = ns;
	}
	tnorm__report_dispose(&rep);
}

/* The run's outcome from how its program ended. */
static void classify(const tnorm_runner *r, const tnorm__waited *w, int exec_errno,
                     tnorm_run_result *res)
{
	if (w->lost) {
		res->outcome = TNORM_OUTCOME_ERROR;
		snprintf(res->message, sizeof(res->message), "lost track of '%s' (pid %d): %s",
		         r->argv[0], (int)w->pid, "its status could not be collected");
		tnorm_signature_free(res->sig);
		res->sig = NULL;
	} else if (exec_errno) {
		res->outcome = TNORM_OUTCOME_ERROR;
		snprintf(res->message, sizeof(res->message), "cannot run '%s': %s", r->argv[0],
		         strerror(exec_errno));
		tnorm_signature_free(res->sig);
		res->sig = NULL;
	} else if (w->timed_out) {
		res->outcome = TNORM_OUTCOME_TIMEOUT;
		tnorm_signature_free(res->sig);
		res->sig = NULL;
		snprintf(res->message, sizeof(res->message), "timed out after %.3g s", r->opts.timeout);
	} else if (WIFSIGNALED(w->status)) {
		char kind[32];
		res->signo = WTERMSIG(w->status);
		res->outcome = TNORM_OUTCOME_FAIL;
		if (!res->sig && tnorm_signature_new(&res->sig, tnorm__signame(res->signo, kind, sizeof(kind)),
		                                     NULL, 0) < 0)
			res->sig = NULL;
	} else if (WIFEXITED(w->status)) {
		res->exit_code = WEXITSTATUS(w->status);
		if (res->exit_code == 0) {
			res->outcome = TNORM_OUTCOME_PASS;
		} else if (tnorm__runner_invalid_exit(r, res->exit_code)) {
			res->outcome = TNORM_OUTCOME_INVALID;
		} else {
			res->outcome = TNORM_OUTCOME_FAIL;
			if (!res->sig) {
				char kind[32];
				snprintf(kind, sizeof(kind), "exit(%d)", res->exit_code);
				if (tnorm_signature_new(&res->sig, kind, NULL, 0) < 0)
					res->sig = NULL;
			}
		}
		if (res->outcome != TNORM_OUTCOME_FAIL) {
			tnorm_signature_free(res->sig);
			res->sig = NULL;
		}
	}
}

/*
 * One attempt at a run.  *retry is set when a fork server died before it forked the run's
 * child: the run is made again (the result is not filled).
 */
/* What one attempt holds while it runs: the pipes (stdout, stderr, the exec-error pipe), the
 * control socket's other end for a new server, the child's standard input, the streams the
 * server's request takes once the program says hello (SPAWN), the streams read so far and the
 * environment of a new server.  -1 and NULL: not open; fds_close closes what is. */
typedef struct run_fds {
	int outp[2], errp[2], execp[2], sp[2];
	int infd, pending[3];
	tnorm__stream so, se;
	char **envp;
} run_fds;

static void fds_close(run_fds *a)
{
	size_t i;
	if (a->so.fd >= 0)
		close(a->so.fd);
	if (a->se.fd >= 0)
		close(a->se.fd);
	free(a->so.buf);
	free(a->se.buf);
	for (i = 0; i < 2; i++) {
		if (a->outp[i] >= 0)
			close(a->outp[i]);
		if (a->errp[i] >= 0)
			close(a->errp[i]);
		if (a->execp[i] >= 0)
			close(a->execp[i]);
		if (a->sp[i] >= 0)
			close(a->sp[i]);
	}
	for (i = 0; i < 3; i++)
		if (a->pending[i] >= 0)
			close(a->pending[i]);
	if (a->infd >= 0)
		close(a->infd);
	tnorm__strv_free(a->envp);
}

/* The attempt's descriptors and buffers: the output pipes (read ends non-blocking, as the
 * streams), the exec-error pipe (a new process only), standard input (the candidate with
 * use_stdin, else /dev/null); for a new server (SPAWN), its control socket (our end kept in
 * r->ctl), its environment and copies of the three streams for its first request. */
static int fds_open(tnorm_runner *r, tnorm__run_mode mode, run_fds *a)
{
	int fds[3];
	size_t i;
	if (!(a->so.buf = tnorm__malloc(r->opts.output_cap + 1)) ||
	    !(a->se.buf = tnorm__malloc(r->opts.output_cap + 1)))
		return TNORM_ENOMEM;
	a->so.buf[0] = a->se.buf[0] = '\0';
	if (pipe2(a->outp, O_CLOEXEC) < 0 || pipe2(a->errp, O_CLOEXEC) < 0 ||
	    (mode != TNORM__RUN_SERVED && pipe2(a->execp, O_CLOEXEC) < 0))
		return tnorm__error_errno(TNORM_EIO, "cannot create pipes");
	a->infd = open(r->opts.use_stdin ? r->file : "/dev/null", O_RDONLY | O_CLOEXEC);
	if (a->infd < 0)
		return tnorm__error_errno(TNORM_EIO, "cannot open the child's standard input");
	if (mode == TNORM__RUN_SPAWN) {
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, a->sp) < 0)
			return tnorm__error_errno(TNORM_EIO, "cannot create a socket pair");
		if (!(a->envp = tnorm__forkserver_env(r, a->execp[1] + 1)))
			return TNORM_ENOMEM;
		if (r->ctl >= 0)
			close(r->ctl);
		r->ctl = a->sp[0];
		a->sp[0] = -1;
		r->fs_gen = r->folder_gen;
	}
	fcntl(a->outp[0], F_SETFL, O_NONBLOCK);
	fcntl(a->errp[0], F_SETFL, O_NONBLOCK);
	a->so.fd = a->outp[0];
	a->se.fd = a->errp[0];
	a->outp[0] = a->errp[0] = -1;
	if (mode != TNORM__RUN_SPAWN)
		return 0;
	/* The request goes when (if) the program says hello. */
	fds[0] = a->infd;
	fds[1] = a->outp[1];
	fds[2] = a->errp[1];
	for (i = 0; i < 3; i++)
		if ((a->pending[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3)) < 0)
			return tnorm__error_errno(TNORM_EIO, "cannot duplicate a descriptor");
	return 0;
}

/* Start the run: ask the live server (SERVED) or have the tracer start the program; our copies
 * of the child's ends are closed either way. */
static void fds_launch(tnorm_runner *r, tnorm__tracer *t, tnorm__run_mode mode, run_fds *a,
                       char what)
{
	int fds[4];
	size_t i;
	fds[0] = a->infd;
	fds[1] = a->outp[1];
	fds[2] = a->errp[1];
	fds[3] = a->execp[1];
	if (mode == TNORM__RUN_SERVED &&
	    tnorm__forkserver_request(r->ctl, fds, what, &r->nonce) < 0) {
		/* The server is going away (it was there in tracer_begin): the tracer will report it
		 * gone, with no child. */
		tnorm__tracer_kill_server(t);
	}
	if (mode == TNORM__RUN_SERVED) {
		for (i = 0; i < 3; i++)
			close(fds[i]);
	} else {
		tnorm__tracer_start(t, r->dir, r->run_argv, a->envp ? a->envp : r->envp, fds, a->sp[1],
		                    r->ctl);
		a->sp[1] = -1;
	}
	a->infd = a->outp[1] = a->errp[1] = a->execp[1] = -1;
}

/* The run is over (w): its times, what is left in the pipes, its outcome and signature, and the
 * streams handed to res. */
static void fds_collect(tnorm_runner *r, run_fds *a, const tnorm__waited *w, double start,
                            sigset_t *mask, tnorm_run_result *res)
{
	int exec_errno = 0;
	double until;
	res->wall = tnorm__now() - start;
	res->child_cpu = (double)w->ru.ru_utime.tv_sec + (double)w->ru.ru_utime.tv_usec / 1e6 +
	                 (double)w->ru.ru_stime.tv_sec + (double)w->ru.ru_stime.tv_usec / 1e6;
	/* Children the program left behind die with their group (a persistent child that passed
	 * is alive, waiting for its next candidate: it persists only when its candidate left no
	 * process or thread running). */
	if (!w->persisted && w->pid > 0)
		kill(-w->pid, SIGKILL);
	/* Collect what is left in the pipes (writers in the group are dead now, or soon). */
	until = tnorm__now() + 0.5;
	while ((a->so.fd >= 0 || a->se.fd >= 0) && tnorm__now() < until)
		tnorm__wait_output(&a->so, &a->se, 20, r->opts.output_cap, mask);
	if (read(a->execp[0], &exec_errno, sizeof(exec_errno)) != (ssize_t)sizeof(exec_errno))
		exec_errno = 0;
	classify(r, w, exec_errno, res);
	if (res->outcome == TNORM_OUTCOME_FAIL && res->sig && a->se.buf)
		apply_report(r, a->se.buf, &res->sig);
	res->out = a->so.buf;
	res->err = a->se.buf;
	res->out_len = a->so.len;
	res->err_len = a->se.len;
	res->out_total = a->so.total;
	res->err_total = a->se.total;
	a->so.buf = a->se.buf = NULL;
}

static int run_attempt(tnorm_runner *r, tnorm__tracer *t, tnorm__run_mode mode,
                       tnorm_run_result *res, int *retry)
{
	run_fds a = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, -1, {-1, -1, -1},
	             {-1, NULL, 0, 0}, {-1, NULL, 0, 0}, NULL};
	double start;
	int err = 0;
	tnorm__waited w;
	sigset_t mask;
	unsigned reused = 0;
	char what;

	*retry = 0;
	if (tnorm__tracer_stuck(t))
		return tnorm__error_set(TNORM_EIO, "a process of an earlier run of '%s' outlived its "
		                        "SIGKILL: this runner runs no more", r->argv[0]);
	r->fs_reused = 0;
	tnorm__mtrap_reset(r->mtrap);
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	memset(&w, 0, sizeof(w));
	if ((err = fds_open(r, mode, &a)) < 0)
		goto done;
	if (!tnorm__tracer_begin(t, res, mode == TNORM__RUN_SERVED, &reused)) {
		*retry = 1; /* the server died since pick_mode: start another */
		goto done;
	}
	what = mode == TNORM__RUN_PLAIN ? 0 : tnorm__forkserver_what(r, reused);
	start = tnorm__now();
	fds_launch(r, t, mode, &a, what);
	tnorm__wait_mask(&mask);
	if ((err = tnorm__wait_run(r, t, mode, what, &a.so, &a.se, a.pending, start, &mask, &w)) < 0)
		goto done;
	tnorm__tracer_end(t);
	*retry = tnorm__forkserver_after(r, mode, &w);
	if (w.cancelled) {
		if (w.pid > 0) /* (0: none was started; kill(0) is our own group) */
			kill(-w.pid, SIGKILL);
		*retry = 0;
		err = tnorm__error_set(TNORM_EINTERRUPTED, "interrupted: the run under way was stopped");
		goto done;
	}
	if (*retry)
		goto done;
	r->fs_reused = reused > 0;
	fds_collect(r, &a, &w, start, &mask, res);
done:
	fds_close(&a);
	if (err < 0 || *retry)
		tnorm_run_result_dispose(res);
	return err;
}

/*
 * A passing run of a driver with destructors, again: untraced (LeakSanitizer cannot work
 * under ptrace) and with detect_leaks=1 (leak_env).  A leak ends that run in abort(), and its
 * report gives the signature (lsan:leak at the leak's allocation stack): that run's result
 * replaces the pass.  Any other outcome of the check keeps the pass.  The fork server is
 * stopped for it (the next run starts another).
 */
static int leak_check(tnorm_runner *r, tnorm__tracer *t, tnorm_run_result *res)
{
	tnorm_run_result again;
	char **envp = r->envp;
	int err, retry = 0;
	r->opts.unwind = 0;
	r->envp = r->leak_envp;
	err = run_attempt(r, t, tnorm__forkserver_mode(r, t), &again, &retry);
	r->envp = envp;
	r->opts.unwind = 1;
	if (err < 0 || retry)
		return err;
	if (again.outcome == TNORM_OUTCOME_FAIL && again.sig &&
	    !strncmp(tnorm_signature_kind(again.sig), "lsan:", 5)) {
		tnorm_run_result_dispose(res);
		*res = again;
		return 0;
	}
	tnorm_run_result_dispose(&again);
	return 0;
}


/* A program that is not a driver: the same candidate again, with the preload fork server
 * (forkserver.c), which stays only when that run agrees with the plain one (res, kept). */
static int preload_confirm(tnorm_runner *r, tnorm__tracer *t, const tnorm_run_result *res)
{
	tnorm_run_result again;
	int err, retry = 0;
	err = run_attempt(r, t, tnorm__forkserver_mode(r, t), &again, &retry);
	tnorm__forkserver_confirm(r, t, res, err == 0 && !retry ? &again : NULL);
	if (err == 0 && !retry)
		tnorm_run_result_dispose(&again);
	return err;
}

/* The run, made again (up to 4 attempts) while a fork server dies before it forks the run's
 * child; *retry stays set when every attempt met a dying server. */
static int run_retrying(tnorm_runner *r, tnorm__tracer *t, tnorm_run_result *res, int *retry)
{
	int err = 0, attempt;
	for (attempt = 0; attempt < 4; attempt++)
		if ((err = run_attempt(r, t, tnorm__forkserver_mode(r, t), res, retry)) < 0 || !*retry)
			break;
	return err;
}

/*
 * The first failure at a merged abort site this runner meets: the site's checks get their traps
 * (see "Merged abort sites" in unwind.c), armed in every run from now on, and the run is made
 * again with them.  Its result replaces the first when it fails too (whether or not a trap
 * fired); otherwise (a flaky test) the first stays.  A failure at a site already known was run
 * with its traps: nothing more to do.
 */
static int merged_again(tnorm_runner *r, tnorm__tracer *t, tnorm_run_result *res)
{
	const tnorm_frame *f = tnorm__merged_site(r, res->sig);
	tnorm_run_result again;
	int err = 0, retry = 0;
	if (!f || tnorm__merged_known(r, f))
		return 0;
	if ((err = tnorm__merged_learn(r, f)) < 0)
		return err;
	err = run_retrying(r, t, &again, &retry);
	if (err < 0 || retry)
		return err;
	if (again.outcome == TNORM_OUTCOME_FAIL && again.sig) {
		tnorm_run_result_dispose(res);
		*res = again;
	} else {
		tnorm_run_result_dispose(&again);
	}
	return 0;
}

/*
 * For an invalid run, why: the program's last line on standard error, without the driver
 * runtime's "tnorm driver: " prefix, and with the candidate's private path (gone once the run is
 * over) replaced by the test's name (tnorm_runner_set_test_name; "the test" without one).
 */
static void invalid_reason(const tnorm_runner *r, tnorm_run_result *res)
{
	static const char prefix[] = "tnorm driver: ";
	const char *name = r->test_name ? r->test_name : "the test", *line, *end, *p;
	size_t flen = strlen(r->file), n = 0;
	if (!res->err || !res->err_len)
		return;
	end = res->err + res->err_len;
	while (end > res->err && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	for (line = end; line > res->err && line[-1] != '\n'; line--)
		;
	if ((size_t)(end - line) >= sizeof(prefix) - 1 && !memcmp(line, prefix, sizeof(prefix) - 1))
		line += sizeof(prefix) - 1;
	for (p = line; p < end && n + 1 < sizeof(res->message);) {
		if ((size_t)(end - p) >= flen && !memcmp(p, r->file, flen)) {
			n += (size_t)snprintf(res->message + n, sizeof(res->message) - n, "%s", name);
			p += flen;
		} else {
			res->message[n++] = *p++;
		}
	}
	if (n >= sizeof(res->message))
		n = sizeof(res->message) - 1;
	res->message[n] = '\0';
}

int tnorm_runner_set_coverage(tnorm_runner *r, int on)
{
	char *exe;
	uint64_t *addrs = NULL;
	size_t n = 0;
	int err;
	if (!r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_runner_set_coverage: NULL runner");
	tnorm__probe_free(r->probe);
	r->probe = NULL;
	if (!on)
		return 0;
	if (!(exe = realpath(r->argv[0], NULL)))
		return tnorm__error_errno(TNORM_ENOTFOUND, "%s: cannot find the program", r->argv[0]);
	err = tnorm__symcache_module_rows(r->syms, exe, &addrs, &n);
	if (err == TNORM_ENOTFOUND)
		err = tnorm__error_set(TNORM_ENOTFOUND, "%s: no line table to cover (build it with -g; "
		                       "a script cannot be covered)", exe);
	else if (err == 0)
		err = tnorm__probe_new(&r->probe, exe, addrs, n);
	free(addrs);
	free(exe);
	return err;
}

int tnorm__line_cmp(const char *file_a, uint32_t line_a, const char *file_b, uint32_t line_b)
{
	int c = strcmp(file_a, file_b);
	return c ? c : (line_a > line_b) - (line_a < line_b);
}

static int cmp_covered(const void *a, const void *b)
{
	const tnorm_covered_line *x = a, *y = b;
	return tnorm__line_cmp(x->file, x->line, y->file, y->line);
}

int tnorm_runner_coverage(tnorm_runner *r, tnorm_covered_line **lines, size_t *n)
{
	tnorm_covered_line *v = NULL;
	size_t i, k = 0, total;
	if (!r || !lines || !n)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_runner_coverage: NULL argument");
	*lines = NULL;
	*n = 0;
	if (!r->probe)
		return 0;
	total = tnorm__probe_count(r->probe);
	for (i = 0; i < total; i++) {
		tnorm_frame f;
		if (!tnorm__probe_hit(r->probe, i))
			continue;
		if (!v && !(v = tnorm__calloc(total, sizeof(*v))))
			return TNORM_ENOMEM;
		tnorm__symbolize_module(r->syms, tnorm__probe_path(r->probe),
		                        tnorm__probe_vaddr(r->probe, i), 1, &f, 1);
		if (!f.file || !f.line)
			continue;
		v[k].file = f.file;
		v[k].line = f.line;
		v[k].function = f.function;
		k++;
	}
	if (!k) {
		free(v);
		return 0;
	}
	qsort(v, k, sizeof(*v), cmp_covered);
	for (i = 1, total = 1; i < k; i++)
		if (cmp_covered(&v[i], &v[total - 1]))
			v[total++] = v[i];
	*lines = v;
	*n = total;
	return 0;
}

int tnorm_runner_run(tnorm_runner *r, const void *data, size_t len, tnorm_run_result *res)
{
	tnorm__tracer *t = NULL;
	int err, retry = 0;
	if (!r || !res || (!data && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_runner_run: NULL argument");
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	/* The candidate, in the runner's folder. */
	if ((err = tnorm__rundir_write(r, data, len)) < 0 || (err = tnorm__tracer_get(r, &t)) < 0)
		goto done;
	err = run_retrying(r, t, res, &retry);
	if (err == 0 && !retry && r->fs_reused && res->outcome != TNORM_OUTCOME_PASS) {
		/* Persistent mode: what a reused child saw is confirmed in a fresh one, which the
		 * server forks now (the reused child ended), and the fresh run is the result. */
		tnorm_run_result_dispose(res);
		err = run_retrying(r, t, res, &retry);
	}
	if (err == 0 && retry) {
		res->outcome = TNORM_OUTCOME_ERROR;
		snprintf(res->message, sizeof(res->message), "the fork server of '%s' kept dying",
		         r->argv[0]);
	}
	if (err == 0 && !retry && tnorm__forkserver_confirm_due(r, res))
		err = preload_confirm(r, t, res);
	if (err == 0 && res->outcome == TNORM_OUTCOME_FAIL && res->sig)
		err = merged_again(r, t, res);
	if (err == 0 && res->outcome == TNORM_OUTCOME_PASS && r->leak_envp)
		err = leak_check(r, t, res);
	if (err == 0 && res->outcome == TNORM_OUTCOME_INVALID)
		invalid_reason(r, res);
done:
	if (r->probe)
		tnorm__probe_end(r->probe);
	tnorm__mtrap_end(r->mtrap);
	tnorm__rundir_clean(r);
	return err;
}

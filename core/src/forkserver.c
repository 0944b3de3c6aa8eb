/* SPDX-License-Identifier: MIT */
/*
 * forkserver.c - the fork-server protocol, the engine's side (core/driver/driver.c has the
 * server's).
 *
 * A run that may start a fork server gives the program one end of a SOCK_SEQPACKET pair, right
 * above its exec-error pipe, and names it in TNORM_FORK_SERVER=FD.  A program that is not a tnorm
 * driver ignores it, and the run is an ordinary one: the runner then starts that program afresh
 * for every run (FS_NO).  A driver says hello ("TNFS1") and stops itself with SIGSTOP; the tracer
 * (tracer.c) sees the stop, reads the hello, and follows the server's forks from then on.  Each
 * run then asks for a child with one message: the byte 'R' carrying the run's standard input,
 * output and error (SCM_RIGHTS).  A driver that says hello but is not the program the runner
 * started (the program exec'd it, or started it) is answered 'N' and runs its test as usual.
 *
 * What the runner keeps (in tnorm_runner): whether the program is a server (fs_state), our end of
 * the socket (ctl), the folder generation the server was started in (a server started in a
 * folder that has since been made again is replaced: its children would look for the candidate
 * there), and its deaths in a row (three, and that runner starts no more servers).  A run whose
 * server died before it forked the run's child is made again (runner.c, run_retrying).
 *
 * The control socket's messages (the hello, the refusal, each run's request, a persistent
 * child's "TNPS") are written and read in forkserver_proto.c, below this file and the tracer
 * alike: this file asks the tracer about the live server, and the tracer reads the hello.
 *
 * A program that is not a driver can still be served: the preload library
 * (core/preload/forkserver_preload.c, libtnorm_preload.so) runs the driver's server code from a
 * constructor, after the loader and the sanitizer runtime have started and before the program's
 * own constructors and `main`.  The first run starts the program as above; when it says no
 * hello and the program can take the library (a dynamically linked ELF executable, not
 * set-user-ID or set-group-ID, the library found), the same candidate is run again with the
 * library last in LD_PRELOAD (after the user's own entries, if --env gave some), and the server
 * stays only when that run agrees with the plain one: same outcome, exit status, signal and
 * signature (a program that does something before `main` that the server's children would
 * not repeat differs there, or says no hello: then every run starts it afresh).  The library
 * takes its entry out of LD_PRELOAD before `main` (and verify_asan_link_order=0 out of
 * ASAN_OPTIONS, which a shared ASan runtime needs to start with a library before it), and
 * TNORM_FORK_SERVER as the driver does.
 * TNORM_PRELOAD in tnorm's environment: `off` never tries it, `always` tries it from the first
 * run without the plain run and its confirmation (for tests that want every run served), a
 * path names the library (else it is looked for beside the running tnorm, then at the
 * installed path).
 */
#include <dlfcn.h>
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildinfo.h"
#include "runner_internal.h"
#include "sanitizer_names.h"

/*
 * Which way this run goes.  A fork server started in another folder (the program removed the
 * last one) is stopped: its children would look for the candidate there.
 */
tnorm__run_mode tnorm__forkserver_mode(tnorm_runner *r, tnorm__tracer *t)
{
	pid_t server;
	if (!r->opts.fork_server || !r->opts.unwind || r->fs_state == FS_NO) {
		tnorm__tracer_stop_server(t);
		return TNORM__RUN_PLAIN;
	}
	/* A persistent child cannot take a run that must have a fresh one (coverage):
	 * the server goes with it, and a new one serves. */
	if (!tnorm__forkserver_may_persist(r) && tnorm__tracer_persistent(t)) {
		tnorm__tracer_stop_server(t);
		return TNORM__RUN_SPAWN;
	}
	server = tnorm__tracer_server(t);
	if (server && r->ctl >= 0 && r->fs_gen == r->folder_gen)
		return TNORM__RUN_SERVED;
	tnorm__tracer_stop_server(t);
	return TNORM__RUN_SPAWN;
}

/* ---- persistent mode -------------------------------------------------------------------------
 *
 * A driver's child may run many candidates (docs/driver.md, "Persistent mode"): asked for with
 * 'P', it says "TNPS" after a candidate that passed and left nothing running
 * (core/preload/fs_server.c): runner_wait.c reads it on the socket as the run's exit 0
 * (tnorm__tracer_persisted keeps the tracer's count), and the child waits on the socket for 'C'
 * (the next candidate) or 'L' (the next, and its last).  Anything but a pass ends
 * the child; runner.c makes such a run of a reused child again, in a fresh one.  The tracer
 * knows which child is alive and how many candidates it ran (tnorm__tracer_begin), so the byte
 * of each request follows from that.
 */

unsigned tnorm__forkserver_persist_max(const tnorm_run_options *opts)
{
	unsigned n;
	if (opts->persistent)
		return opts->persistent;
	tnorm__env_persistent(&n); /* a bad value: tnorm_runner_new refused it (env.c) */
	return n;
}

int tnorm__forkserver_may_persist(const tnorm_runner *r)
{
	return r->persist_max > 1 && r->opts.fork_server && r->opts.unwind && !r->probe &&
	       !r->leak_envp && r->fs_pl != FS_PL_CONFIRM && r->fs_pl != FS_PL_ON;
}

char tnorm__forkserver_what(const tnorm_runner *r, unsigned reused)
{
	if (reused)
		return reused + 1 < r->persist_max ? 'C' : 'L';
	/* (A live server whose runtime cannot echo request numbers: its children never persist.) */
	return tnorm__forkserver_may_persist(r) && (r->fs_state != FS_ON || r->fs_nonced) ? 'P' : 'R';
}

/* ---- the preload fork server ---------------------------------------------------------------- */

/* 1 when `path` is a file (a readable one, at least as far as existing goes). */
static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* libtnorm_preload.so beside the object at `self` (the tnorm executable, or the library or
 * module the engine is linked into): a build tree's core/preload/, or an installed tree's
 * LIBDIR/tnorm/ (the object in PREFIX/bin or PREFIX/LIBDIR).  Written into out. */
static int preload_beside(const char *self, char *out, size_t size)
{
	static const char *const rel[] = {"../preload/libtnorm_preload.so", "../" TNORM_BUILD_PRELOAD_REL,
	                                  "../../" TNORM_BUILD_PRELOAD_REL};
	char dir[PATH_MAX], *slash;
	size_t i;
	if (!realpath(self, dir) || !(slash = strrchr(dir, '/')))
		return 0;
	*slash = '\0';
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
		if ((size_t)snprintf(out, size, "%s/%s", dir, rel[i]) < size && is_file(out))
			return 1;
	return 0;
}

/* Where the library is (TNORM_PRELOAD, beside the running engine, the installed path), as an
 * absolute path without a colon or a blank (LD_PRELOAD's separators).  0: none to be had. */
static int preload_find(char *out, size_t size)
{
	const char *env = getenv("TNORM_PRELOAD");
	char norm[PATH_MAX];
	Dl_info info;
	int found = 0;
	if (env && *env == '/')
		found = (size_t)snprintf(out, size, "%s", env) < size && is_file(out);
	else if ((found = preload_beside("/proc/self/exe", out, size)) == 0 &&
	         dladdr((void *)preload_find, &info) && info.dli_fname && strchr(info.dli_fname, '/'))
		found = preload_beside(info.dli_fname, out, size);
	if (!found && !(env && *env == '/'))
		found = (size_t)snprintf(out, size, "%s", TNORM_BUILD_PRELOAD_PATH) < size && is_file(out);
	if (!found || !realpath(out, norm) || strlen(norm) >= size)
		return 0;
	memcpy(out, norm, strlen(norm) + 1);
	return !strpbrk(out, ": \t\n");
}

/* The program's file: argv[0], or the first match on the PATH of its environment when it is
 * a bare name (the runner made every other name absolute).  Written into out; 0: not found. */
static int program_path(const tnorm_runner *r, char *out, size_t size)
{
	const char *cmd = r->argv[0], *path = "/usr/local/bin:/usr/bin:/bin", *p;
	size_t i;
	if (strchr(cmd, '/'))
		return (size_t)snprintf(out, size, "%s", cmd) < size && is_file(out);
	for (i = 0; r->envp[i]; i++)
		if (!strncmp(r->envp[i], "PATH=", 5))
			path = r->envp[i] + 5;
	for (p = path; *p; p += *p == ':') {
		size_t n = strcspn(p, ":");
		if ((size_t)snprintf(out, size, "%.*s/%s", (int)n, p, cmd) < size && is_file(out) &&
		    access(out, X_OK) == 0)
			return 1;
		p += n;
	}
	return 0;
}

/* 1 when the program at `path` can take the library: an ELF executable of this machine's
 * class with a program interpreter (dynamically linked: the loader reads LD_PRELOAD), and no
 * set-user-ID or set-group-ID bit (the loader ignores LD_PRELOAD paths for those; under ptrace
 * they run without their privileges anyway).  Scripts are started afresh: preloading their
 * interpreter would serve it, not the script's program. */
static int program_takes_preload(const char *path)
{
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph;
	struct stat st;
	int fd, ok = 0;
	unsigned i;
	if (stat(path, &st) < 0 || (st.st_mode & (S_ISUID | S_ISGID)) ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) &&
	    (eh.e_type == ET_EXEC || eh.e_type == ET_DYN) && eh.e_phentsize == sizeof(ph))
		for (i = 0; i < eh.e_phnum && !ok; i++)
			ok = pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (ElfW(Off))i * sizeof(ph))) ==
			         (ssize_t)sizeof(ph) && ph.p_type == PT_INTERP;
	close(fd);
	return ok;
}

/* Decide whether this runner's program may be served through the library: FS_PL_TRY (or
 * FS_PL_ON with TNORM_PRELOAD=always) with r->fs_pl_path set, or FS_PL_NO. */
static void preload_decide(tnorm_runner *r)
{
	const char *env = getenv("TNORM_PRELOAD");
	char prog[PATH_MAX];
	r->fs_pl = FS_PL_NO;
	if (!r->opts.fork_server || !r->opts.unwind || (env && !strcmp(env, "off")) ||
	    !program_path(r, prog, sizeof(prog)) || !program_takes_preload(prog) ||
	    !preload_find(r->fs_pl_path, sizeof(r->fs_pl_path)))
		return;
	r->fs_pl = env && !strcmp(env, "always") ? FS_PL_ON : FS_PL_TRY;
}

/* envp[i] replaced by NAME=VALUE (VALUE `extra`, or the old value, a separator, then `extra`). */
static int env_append(char **envp, size_t i, const char *name, const char *sep, const char *extra)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *old = envp[i] ? envp[i] + strlen(name) + 1 : "";
	int err = *old ? tnorm__buf_printf(&b, "%s=%s%s%s", name, old, sep, extra)
	               : tnorm__buf_printf(&b, "%s=%s", name, extra);
	char *s = err == 0 ? tnorm__buf_detach(&b) : NULL;
	tnorm__buf_dispose(&b);
	if (!s)
		return -1;
	free(envp[i]);
	envp[i] = s;
	return 0;
}

/* The index of NAME in envp (n entries), or n. */
static size_t env_find(char **envp, size_t n, const char *name)
{
	size_t i, len = strlen(name);
	for (i = 0; i < n; i++)
		if (!strncmp(envp[i], name, len) && envp[i][len] == '=')
			return i;
	return n;
}

/*
 * The program's environment with TNORM_FORK_SERVER=FD added and, when the preload server is
 * tried or in use, the library last in LD_PRELOAD (NULL-terminated; tnorm__strv_free).
 */
char **tnorm__forkserver_env(tnorm_runner *r, int fd)
{
	char **envp, buf[64];
	size_t n = 0, i, k;
	if (r->fs_pl == FS_PL_UNKNOWN && getenv("TNORM_PRELOAD") && !strcmp(getenv("TNORM_PRELOAD"), "always"))
		preload_decide(r);
	while (r->envp[n])
		n++;
	if (!(envp = tnorm__calloc(n + 4, sizeof(*envp))))
		return NULL;
	snprintf(buf, sizeof(buf), "TNORM_FORK_SERVER=%d", fd);
	for (i = 0; i < n; i++)
		if (!(envp[i] = tnorm__strdup(r->envp[i])))
			goto oom;
	if (!(envp[n++] = tnorm__strdup(buf)))
		goto oom;
	if (r->fs_pl == FS_PL_CONFIRM || r->fs_pl == FS_PL_ON) {
		/* Our entry last, after a colon: the library takes that last entry out again. */
		if ((k = env_find(envp, n, "LD_PRELOAD")) == n)
			n++;
		if (env_append(envp, k, "LD_PRELOAD", ":", r->fs_pl_path) < 0)
			goto oom;
		/* A shared ASan runtime dies when it is not the first library in the loader's list
		 * (ours is); the library takes this entry out again before `main`. */
		if ((k = env_find(envp, n, TNORM__SAN_ASAN_OPTIONS)) == n)
			n++;
		if (env_append(envp, k, TNORM__SAN_ASAN_OPTIONS, ":", TNORM__SAN_ASAN_LINK_ORDER) < 0)
			goto oom;
	}
	return envp;
oom:
	tnorm__strv_free(envp);
	return NULL;
}

int tnorm__forkserver_confirm_due(tnorm_runner *r, const tnorm_run_result *plain)
{
	if (r->fs_pl != FS_PL_TRY || r->fs_state != FS_UNKNOWN ||
	    (plain->outcome != TNORM_OUTCOME_PASS && plain->outcome != TNORM_OUTCOME_FAIL &&
	     plain->outcome != TNORM_OUTCOME_INVALID))
		return 0; /* (a timeout: the next run is plain again, and confirmed then) */
	r->fs_pl = FS_PL_CONFIRM;
	return 1;
}

/* Two strings that may be NULL, equal. */
static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Two frames, equal but for the address (the preloaded library moves the libraries after it). */
static int same_frame(const tnorm_frame *a, const tnorm_frame *b)
{
	return same_str(a->function, b->function) && same_str(a->file, b->file) && a->line == b->line &&
	       same_str(a->module, b->module) && a->offset == b->offset && a->inlined == b->inlined &&
	       a->is_runtime == b->is_runtime;
}

/* Two signatures, equal in everything but addresses: kind, message, every frame of every stack. */
static int same_signature(const tnorm_signature *a, const tnorm_signature *b)
{
	size_t i, n;
	int k;
	if (!a || !b)
		return a == b;
	n = tnorm_signature_frame_count(a);
	if (strcmp(tnorm_signature_kind(a), tnorm_signature_kind(b)) ||
	    !same_str(tnorm_signature_message(a), tnorm_signature_message(b)) ||
	    n != tnorm_signature_frame_count(b) || tnorm_signature_throwing(a) != tnorm_signature_throwing(b))
		return 0;
	for (i = 0; i < n; i++)
		if (!same_frame(tnorm_signature_frame(a, i), tnorm_signature_frame(b, i)))
			return 0;
	for (k = 0; k < TNORM_STACK_COUNT; k++) {
		n = tnorm_signature_stack_count(a, (tnorm_stack_kind)k);
		if (n != tnorm_signature_stack_count(b, (tnorm_stack_kind)k))
			return 0;
		for (i = 0; i < n; i++)
			if (!same_frame(tnorm_signature_stack_frame(a, (tnorm_stack_kind)k, i),
			                tnorm_signature_stack_frame(b, (tnorm_stack_kind)k, i)))
				return 0;
	}
	return 1;
}

/* 1 when two runs of one candidate came to the same: outcome, exit status, signal, signature. */
static int same_result(const tnorm_run_result *a, const tnorm_run_result *b)
{
	return a->outcome == b->outcome && a->exit_code == b->exit_code && a->signo == b->signo &&
	       same_signature(a->sig, b->sig);
}

void tnorm__forkserver_confirm(tnorm_runner *r, tnorm__tracer *t, const tnorm_run_result *plain,
                               const tnorm_run_result *served)
{
	if (r->fs_state == FS_ON && served && same_result(plain, served)) {
		r->fs_pl = FS_PL_ON;
		return;
	}
	/* No hello (the library could not load, or refused), a dying server, or another result:
	 * this program runs afresh from now on. */
	r->fs_pl = FS_PL_NO;
	r->fs_state = FS_NO;
	tnorm__tracer_stop_server(t);
	if (r->ctl >= 0)
		close(r->ctl);
	r->ctl = -1;
}

/*
 * The fork server's side of a finished run: 1 when the server died before it forked the run's
 * child (the run is made again, with a new server or, after three deaths in a row, without).
 */
int tnorm__forkserver_after(tnorm_runner *r, tnorm__run_mode mode, const tnorm__waited *w)
{
	if (mode == TNORM__RUN_PLAIN)
		return 0;
	if (w->from_server || (mode == TNORM__RUN_SERVED && !w->pid)) {
		if (++r->fs_crashes >= 3)
			r->fs_state = FS_NO;
		return 1;
	}
	if (mode == TNORM__RUN_SPAWN && !w->hello) {
		/* Not a fork server: the run was a plain one.  Unless the preload was tried already,
		 * the library may make the program one (runner.c confirms it on this candidate). */
		close(r->ctl);
		r->ctl = -1;
		if (r->fs_pl == FS_PL_UNKNOWN)
			preload_decide(r);
		else if (r->fs_pl != FS_PL_TRY)
			r->fs_pl = FS_PL_NO; /* the library was there and did not serve */
		if (r->fs_pl == FS_PL_NO)
			r->fs_state = FS_NO;
	} else {
		r->fs_state = FS_ON;
		r->fs_crashes = 0;
	}
	return 0;
}

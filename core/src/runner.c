/* SPDX-License-Identifier: MIT */
/*
 * runner.c - run the user's program on one candidate, under ptrace, and classify the outcome.
 *
 * Every run is a fresh process in its own process group, in the runner's private folder (emptied
 * between runs).  The child asks to be traced (PTRACE_TRACEME) before exec, so the engine sees
 * every signal the program
 * gets: on a fatal one it unwinds the stack with libunwind-ptrace while the process is stopped,
 * symbolizes it, then lets the signal kill the program as it would have.  PTRACE_O_TRACEEXIT
 * gives a last stop before a normal exit, so a failing exit code gets a stack too, and
 * PTRACE_O_EXITKILL makes sure a tracee never outlives an engine that dies.  Nothing spins: a
 * thread of the runner's own starts the program and blocks in wait4 for its stops (see "The
 * tracer" below), while the caller blocks in poll on the output pipes, with the timeout as
 * poll's.  No signal handlers, which a library running inside a debugger must not install.
 *
 * A tnorm driver runs as a fork server (see "The fork server" in docs/architecture.md): the
 * process per run is then a child forked by the driver, traced from its first instruction
 * (PTRACE_O_TRACEFORK on the server), and everything above holds for it unchanged.
 *
 * Every process the program starts is traced as well, only so that it dies with the run, even
 * when it left the process group (see "The run's processes" below).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libunwind-ptrace.h>

#include "common.h"
#include "probe.h"
#include "report.h"
#include "sanopts.h"
#include "shield.h"
#include "symbolize.h"
#include "tnorm/runner.h"

#define MAX_FRAMES 128

typedef struct tracer tracer;
static void tracer_free(tracer *t);
static void folder_drop(tnorm_runner *r);
static const char *placeholder(const char *s);
static int rm_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
                         void *arg);
static int rm_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
                             int need_unwind_info, void *arg);

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
	tracer *tr; /* the thread that starts and traces the runs (NULL until the first) */
	char *last_maps; /* the memory map of the last unwound process: unwind caches stay valid
	                  * while it is the same (ASLR is off, so runs of one binary match) */
	char *test_name; /* what an invalid run's reason calls the candidate (set_test_name) */
	const volatile int *cancel; /* set_cancel: stops the run under way (borrowed; may be NULL) */
	tnorm__shield shield; /* the programs' filter: no signal to this process (shield.c) */
	tnorm__probe *probe;  /* breakpoints for the runs (merged abort sites, coverage), or NULL */
	/* The last merged site's trail, kept for the next failure there (a reduction fails there
	 * again and again): its probe and the start of the function symbol that holds the call. */
	tnorm__probe *trail;
	uint64_t trail_key;
};

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

static void free_strv(char **v)
{
	size_t i;
	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

void tnorm_runner_free(tnorm_runner *r)
{
	if (!r)
		return;
	free_strv(r->argv);
	free_strv(r->envp);
	free_strv(r->leak_envp);
	free(r->suffix);
	free(r->invalid_exits);
	tracer_free(r->tr);
	tnorm__probe_free(r->probe);
	tnorm__probe_free(r->trail);
	if (r->ctl >= 0)
		close(r->ctl);
	folder_drop(r);
	tnorm__symcache_free(r->syms);
	free(r->last_maps);
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
	if (placeholder(arg) || arg[0] == '/' || arg[0] == '-' || stat(arg, &st) != 0)
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

/* Set NAME=VALUE in the program's environment; a sanitizer's options are merged into the value
 * already there, key by key (sanopts.h), every other variable replaced. */
static int env_add(char ***envp, size_t *n, const char *kv);

/*
 * Issue 16: a tnorm driver with destructors frees what its test made, so a leak is a bug.
 * LeakSanitizer cannot run under ptrace, and every run is traced, so a run of such a driver
 * that passes is checked again untraced with detect_leaks=1 (leak_check below).  Its
 * environment is the runs' own with detect_leaks=1 put over tnorm's default and under the
 * user's --env (which may say detect_leaks=0: then nothing is checked).
 */
static int leak_env(tnorm_runner *r)
{
	size_t n = 0, i;
	int err = 0;
	if (!r->opts.unwind || !tnorm__sanopts_program_frees(r->argv[0], r->envp))
		return 0;
	if (!(r->leak_envp = tnorm__calloc(1, sizeof(*r->leak_envp))))
		return TNORM_ENOMEM;
	for (i = 0; err == 0 && r->envp[i]; i++)
		err = env_add(&r->leak_envp, &n, r->envp[i]);
	if (err == 0)
		err = env_add(&r->leak_envp, &n, "ASAN_OPTIONS=detect_leaks=1");
	for (i = 0; err == 0 && r->opts.env && r->opts.env[i]; i++)
		err = env_add(&r->leak_envp, &n, r->opts.env[i]);
	for (i = 0; err == 0 && r->leak_envp[i]; i++)
		if (!strncmp(r->leak_envp[i], "ASAN_OPTIONS=", 13) &&
		    !strstr(r->leak_envp[i], "detect_leaks=1")) {
			free_strv(r->leak_envp); /* the user said no */
			r->leak_envp = NULL;
			break;
		}
	return err;
}

static int env_add(char ***envp, size_t *n, const char *kv)
{
	size_t i, klen;
	const char *eq = strchr(kv, '=');
	char *copy = NULL, **nv;
	if (!eq || eq == kv)
		return tnorm__error_set(TNORM_EINVALID, "environment entry '%s' is not NAME=VALUE", kv);
	klen = (size_t)(eq - kv) + 1;
	for (i = 0; i < *n; i++)
		if (!strncmp((*envp)[i], kv, klen)) {
			if (tnorm__sanopts_is_var(kv, klen - 1)) {
				char *merged = NULL;
				tnorm__buf b = TNORM__BUF_INIT;
				int err = tnorm__sanopts_merge((*envp)[i] + klen, eq + 1, &merged);
				if (err == 0)
					err = tnorm__buf_printf(&b, "%.*s%s", (int)klen, kv, merged);
				free(merged);
				if (err == 0 && !(copy = tnorm__buf_detach(&b)))
					err = TNORM_ENOMEM;
				tnorm__buf_dispose(&b);
				if (err < 0)
					return err;
			} else if (!(copy = tnorm__strdup(kv))) {
				return TNORM_ENOMEM;
			}
			free((*envp)[i]);
			(*envp)[i] = copy;
			return 0;
		}
	if (!(copy = tnorm__strdup(kv)))
		return TNORM_ENOMEM;
	if (!(nv = tnorm__reallocarray(*envp, *n + 2, sizeof(*nv)))) {
		free(copy);
		return TNORM_ENOMEM;
	}
	nv[*n] = copy;
	nv[*n + 1] = NULL;
	*envp = nv;
	(*n)++;
	return 0;
}

/* 125, or one of the codes the options declare invalid. */
static int is_invalid_exit(const tnorm_runner *r, int code)
{
	size_t i;
	if (code == 125)
		return 1;
	for (i = 0; i < r->opts.ninvalid_exits; i++)
		if (r->invalid_exits[i] == code)
			return 1;
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove a run's folder and whatever the program left in it (files, folders; links not
 * followed). */
static void remove_dir(const char *dir, const char *file)
{
	if (file)
		unlink(file);
	if (rmdir(dir) < 0)
		nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Folders of runs whose engine was killed (kill -9, a crash) are named tnorm-run-PID-XXXXXX:
 * when PID no longer exists, nobody will remove them but us.
 */
static void sweep_stale(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end = NULL, path[4096];
		long pid;
		if (strncmp(e->d_name, "tnorm-run-", 10))
			continue;
		pid = strtol(e->d_name + 10, &end, 10);
		if (pid <= 0 || !end || *end != '-' || (pid_t)pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, e->d_name) < sizeof(path))
			remove_dir(path, NULL);
	}
	closedir(d);
}

int tnorm_runner_new(tnorm_runner **out, const char *const *argv, const tnorm_run_options *opts)
{
	tnorm_run_options defaults = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	size_t i, n = 0, nenv = 0;
	char buf[4200];
	const char *path = getenv("PATH"), *home = getenv("HOME");
	int err = 0;

	if (!out || !argv || !argv[0] || !argv[0][0])
		return tnorm__error_set(TNORM_EINVALID, "no command to run, expected CMD ARGS after --");
	*out = NULL;
	if (opts && opts->version != TNORM_RUN_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_runner_new: options version %u, expected %u",
		                        opts->version, TNORM_RUN_OPTIONS_VERSION);
	if (opts && (opts->timeout < 0 || opts->timeout != opts->timeout))
		return tnorm__error_set(TNORM_EINVALID, "the timeout must be zero or positive");
	if (!(r = tnorm__calloc(1, sizeof(*r))))
		return TNORM_ENOMEM;
	r->dirfd = -1;
	r->ctl = -1;
	r->opts = opts ? *opts : defaults;
	tnorm__shield_init(&r->shield, getpid(), getpgrp());
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
	if (!(r->envp = tnorm__calloc(1, sizeof(*r->envp)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	snprintf(buf, sizeof(buf), "PATH=%s", path ? path : "/usr/local/bin:/usr/bin:/bin");
	if ((err = env_add(&r->envp, &nenv, buf)) < 0)
		goto done;
	snprintf(buf, sizeof(buf), "HOME=%s", home ? home : "/");
	if ((err = env_add(&r->envp, &nenv, buf)) < 0 || (err = env_add(&r->envp, &nenv, "LANG=C")) < 0 ||
	    (err = env_add(&r->envp, &nenv, "LC_ALL=C")) < 0)
		goto done;
	/* The sanitizer options of our own environment are kept (the program fails as it does in
	 * the user's shell); the defaults below override only the flags they name.  getenv, not
	 * environ: in a module loaded with RTLD_DEEPBIND (the Python binding) environ is not ours. */
	for (i = 0; tnorm__sanopts_var(i); i++) {
		const char *name = tnorm__sanopts_var(i), *val = getenv(name);
		tnorm__buf kv = TNORM__BUF_INIT;
		if (val && (err = tnorm__buf_printf(&kv, "%s=%s", name, val)) == 0)
			err = env_add(&r->envp, &nenv, kv.ptr);
		tnorm__buf_dispose(&kv);
		if (err < 0)
			goto done;
	}
	if ((err = env_add(&r->envp, &nenv, "ASAN_OPTIONS=abort_on_error=1:detect_leaks=0:"
	                                     "symbolize=0:handle_abort=0")) < 0 ||
	    (err = env_add(&r->envp, &nenv, "UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:"
	                                     "print_stacktrace=0")) < 0)
		goto done;
	for (i = 0; r->opts.env && r->opts.env[i]; i++)
		if ((err = env_add(&r->envp, &nenv, r->opts.env[i])) < 0)
			goto done;
	if ((err = leak_env(r)) < 0)
		goto done;
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
	if (r->opts.output_cap == 0)
		r->opts.output_cap = 65536;
	if ((err = tnorm__symcache_new(&r->syms)) < 0)
		goto done;
	{
		const char *tmproot = getenv("TMPDIR");
		sweep_stale(tmproot && *tmproot ? tmproot : "/tmp");
	}
	if (r->opts.unwind) {
		unw_accessors_t acc = _UPT_accessors; /* copied by libunwind */
		acc.access_mem = rm_access_mem;
		acc.find_proc_info = rm_find_proc_info;
		if (!(r->as = unw_create_addr_space(&acc, 0))) {
			err = tnorm__error_set(TNORM_ENOMEM, "libunwind: cannot create an address space");
			goto done;
		}
		unw_set_caching_policy(r->as, UNW_CACHE_GLOBAL);
	}
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

static const char *signame(int sig, char *buf, size_t size)
{
	const char *abbrev = sigabbrev_np(sig);
	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else
		snprintf(buf, size, "signal(%d)", sig);
	return buf;
}

/* Symbolize machine frames (pcs[0] exact, the others return addresses) of a process whose memory
 * map is `maps` into source frames, inlined calls expanded.  `starts` (may be NULL) holds each
 * machine frame's function start as the unwinder found it in .eh_frame: a frame with no symbol
 * (a stripped binary) is then named after it, "sub_1a2b" (its module-relative address), so that
 * frames of one function compare equal and recursion can be folded.  `names` is scratch space
 * for those names (max entries).  Returns the number of frames. */
static size_t frames_from_pcs(tnorm__symcache *syms, const char *maps, const uint64_t *pcs,
                              const uint64_t *starts, size_t npcs, tnorm_frame *frames,
                              char (*names)[32], size_t max)
{
	size_t i, k, n = 0;
	for (i = 0; i < npcs && n < max; i++) {
		size_t got = tnorm__symbolize(syms, maps ? maps : "", pcs[i], i == 0, &frames[n], max - n);
		uint64_t lookup = i == 0 ? pcs[i] : pcs[i] - 1;
		for (k = n; k < n + got; k++)
			if (!frames[k].function && starts && starts[i] && starts[i] <= lookup &&
			    frames[k].module && frames[k].offset >= lookup - starts[i]) {
				snprintf(names[k], sizeof(names[k]), "sub_%llx",
				         (unsigned long long)(frames[k].offset - (lookup - starts[i])));
				frames[k].function = names[k];
			}
		n += got;
	}
	return n;
}

/*
 * Reading the stopped thread's memory.  libunwind-ptrace reads it a word at a time with
 * PTRACE_PEEKDATA, one system call per word, and the stack walk and the .eh_frame_hdr searches
 * read hundreds of words per failure.  The runner's address space has libunwind-ptrace's
 * accessors but for reads, which take a whole page with process_vm_readv and keep a few pages
 * for the rest of the unwind (the thread is stopped; text and unwind tables do not change).  A
 * page that cannot be read so goes back to PEEKDATA.
 *
 * Finding a frame's unwind information.  libunwind-ptrace's find_proc_info reads
 * /proc/PID/maps, opens and maps the module's file each time a frame is in another module than
 * the last, and unmaps it at the next change (a TLB shootdown each, the caller having threads):
 * most of a failure's unwinding cost.  The runner's symbol cache has those files parsed already,
 * so the address space's find_proc_info asks it where the module's .eh_frame_hdr table lies and
 * has libunwind search it there (the table and the FDEs read through the pages below).  A module
 * the cache cannot place goes to libunwind-ptrace's own.
 *
 * libunwind hands its callbacks only libunwind-ptrace's handle (find_proc_info passes it on to
 * the reads it makes), so the pages of the unwind under way are reached through a thread-local
 * pointer, set by unwind() for the length of one walk in this thread and NULL otherwise.
 */
#define REMOTE_PAGES 16
#define REMOTE_PAGE 4096

typedef struct {
	void *upt; /* libunwind-ptrace's handle, the callbacks' argument */
	pid_t tid;
	tnorm__symcache *syms;
	const char *maps;            /* the thread's memory map (NULL if unread) */
	uint64_t base[REMOTE_PAGES]; /* page address + 1; 0: the slot is empty */
	unsigned char page[REMOTE_PAGES][REMOTE_PAGE];
} remote;

static __thread remote *unwinding;

static int rm_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
                         void *arg)
{
	remote *rm = unwinding;
	uint64_t page = (uint64_t)addr & ~(uint64_t)(REMOTE_PAGE - 1);
	size_t slot = (size_t)(page / REMOTE_PAGE) % REMOTE_PAGES;
	if (!rm || arg != rm->upt || write || addr - page > REMOTE_PAGE - sizeof(*val))
		return _UPT_access_mem(as, addr, val, write, arg);
	if (rm->base[slot] != page + 1) {
		struct iovec local = {rm->page[slot], REMOTE_PAGE};
		struct iovec far = {(void *)(uintptr_t)page, REMOTE_PAGE};
		rm->base[slot] = 0;
		if (process_vm_readv(rm->tid, &local, 1, &far, 1, 0) != REMOTE_PAGE)
			return _UPT_access_mem(as, addr, val, write, arg);
		rm->base[slot] = page + 1;
	}
	memcpy(val, rm->page[slot] + (addr - page), sizeof(*val));
	return 0;
}

/* libunwind's search of a remote .eh_frame_hdr table: exported by libunwind-x86_64 (it is what
 * libunwind-ptrace's _UPT_find_proc_info calls), though no header declares it. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
                                              unw_dyn_info_t *di, unw_proc_info_t *pi,
                                              int need_unwind_info, void *arg);

static int rm_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
                             int need_unwind_info, void *arg)
{
	remote *rm = unwinding;
	tnorm__unwind_table t;
	unw_dyn_info_t di;
	if (rm && arg == rm->upt && tnorm__symcache_unwind_table(rm->syms, rm->maps, ip, &t) == 0) {
		memset(&di, 0, sizeof(di));
		di.start_ip = t.start_ip;
		di.end_ip = t.end_ip;
		di.gp = t.gp;
		di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
		di.u.rti.segbase = t.hdr;
		di.u.rti.table_data = t.table;
		di.u.rti.table_len = t.count * 8 / sizeof(unw_word_t);
		if (UNW_OBJ(dwarf_search_unwind_table)(as, ip, &di, pi, need_unwind_info, arg) >= 0)
			return 0;
	}
	return _UPT_find_proc_info(as, ip, pi, need_unwind_info, arg);
}

/*
 * Merged abort sites.  clang merges the abort() calls of several inlined checks of a function
 * (asserts, a fail() helper) into one call, which its line table gives line 0: every check of the
 * function then fails at one address, and its failures have one signature, whichever check
 * failed.  When a run fails at such a call (merged_site), the runner runs the test again with a
 * trail probe on the function's line-table addresses (probe.h): the last address with a line
 * that ran before the failure is in the check that jumped to the merged call.  Its frames (with
 * the functions inlined there, innermost first, as a build without the merge would show them)
 * replace the merged call's frames in the second run's signature.  The same happens for the
 * target and for every candidate, so that their signatures compare check by check.
 */
#define TRAIL_MAX_STOPS 200000

/* The throwing frame of frames[0..n): the first one that is not the runtime's; n if none. */
static size_t first_user_frame(const tnorm_frame *frames, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (frames[i].function && !tnorm_frame_is_runtime(frames[i].function, frames[i].module))
			return i;
	return n;
}

/* Whether frames[i], a user frame that called frames[i-1] (the runtime), stopped at a merged
 * abort site: a call of line 0 (clang), or a call of abort() in the cold part of its function
 * (gcc moves the calls it merges there, and gives the merged call the line of one of them). */
static int merged_call(tnorm_runner *r, const tnorm_frame *frames, size_t n, size_t i)
{
	const tnorm_frame *f = &frames[i];
	int how;
	if (i == 0 || i >= n || !f->module || f->module[0] != '/' || !f->offset ||
	    !(how = tnorm__symcache_merged(r->syms, f->module, f->offset)))
		return 0;
	return how == 1 ? f->line == 0
	                : frames[i - 1].function && !strcmp(frames[i - 1].function, "abort");
}

/* In the trail's run: the merged call's frames (frames[i..j), one pc) become those of the last
 * line the trail saw.  Returns the new frame count. */
static size_t resolve_merged(tnorm_runner *r, const char *maps, tnorm_frame *frames, size_t n,
                             size_t max)
{
	tnorm_frame got[16];
	uint64_t last = r->probe ? tnorm__probe_last(r->probe) : 0, at;
	size_t i = first_user_frame(frames, n), j, k, ng;
	if (!last || !merged_call(r, frames, n, i) ||
	    tnorm__symcache_proc_addr(r->syms, maps, frames[i].module, last, &at) < 0)
		return n;
	for (j = i; j < n && frames[j].pc == frames[i].pc; j++)
		;
	ng = tnorm__symbolize(r->syms, maps, at, 1, got, sizeof(got) / sizeof(got[0]));
	if (!ng || !got[0].function || n - (j - i) + ng > max)
		return n;
	memmove(&frames[i + ng], &frames[j], (n - j) * sizeof(*frames));
	for (k = 0; k < ng; k++)
		frames[i + k] = got[k];
	return n - (j - i) + ng;
}

/* The module and module-relative address of a signature's throwing call when it lies in code
 * the compiler merged from several lines (a line-0 row); NULL otherwise. */
static const tnorm_frame *merged_site(tnorm_runner *r, const tnorm_signature *sig)
{
	size_t i = tnorm_signature_throwing(sig), n = tnorm_signature_frame_count(sig);
	const tnorm_frame *f = tnorm_signature_frame(sig, 0);
	return f && merged_call(r, f, n, i) ? &f[i] : NULL;
}

/* Unwind the stopped thread `tid` of process `pid` and build its signature. */
static void unwind(tnorm_runner *r, pid_t pid, pid_t tid, const char *kind, tnorm_signature **out)
{
	tnorm_frame frames[MAX_FRAMES];
	uint64_t pcs[MAX_FRAMES], starts[MAX_FRAMES];
	char names[MAX_FRAMES][32];
	char mpath[64], *maps = NULL;
	size_t n = 0, npcs = 0;
	remote *rm = NULL;
	unw_cursor_t cur;

	/* The thread's own view of the memory map: during an exit_group the leader may be gone
	 * while the thread that called exit() is still stopped. */
	snprintf(mpath, sizeof(mpath), "/proc/%d/task/%d/maps", (int)pid, (int)tid);
	if (tnorm__read_file(mpath, &maps, NULL) < 0)
		maps = NULL;
	if (r->as && (rm = tnorm__malloc(sizeof(*rm))) && (rm->upt = _UPT_create(tid)) != NULL) {
		rm->tid = tid;
		rm->syms = r->syms;
		rm->maps = maps;
		memset(rm->base, 0, sizeof(rm->base));
		if (!maps || !r->last_maps || strcmp(maps, r->last_maps)) {
			unw_flush_cache(r->as, 0, 0);
			free(r->last_maps);
			r->last_maps = maps ? tnorm__strdup(maps) : NULL;
		}
		unwinding = rm;
		if (unw_init_remote(&cur, r->as, rm->upt) == 0) {
			do {
				unw_word_t ip = 0;
				unw_proc_info_t pi;
				if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || ip == 0)
					break;
				pcs[npcs] = (uint64_t)ip;
				starts[npcs] = unw_get_proc_info(&cur, &pi) == 0 ? (uint64_t)pi.start_ip : 0;
				npcs++;
			} while (npcs < MAX_FRAMES && unw_step(&cur) > 0);
		}
		unwinding = NULL;
		_UPT_destroy(rm->upt);
	}
	free(rm);
	n = frames_from_pcs(r->syms, maps, pcs, starts, npcs, frames, names, MAX_FRAMES);
	if (r->probe && maps)
		n = resolve_merged(r, maps, frames, n, MAX_FRAMES);
	free(maps);
	tnorm_signature_free(*out);
	*out = NULL;
	if (tnorm_signature_new(out, kind, frames, n) < 0)
		*out = NULL;
}

int tnorm_signature_from_process(tnorm_signature **out, const char *kind, int pid,
                                 const uint64_t *pcs, size_t npcs, const char *message)
{
	tnorm__symcache *syms = NULL;
	tnorm_frame frames[MAX_FRAMES];
	char names[MAX_FRAMES][32];
	char mpath[64], *maps = NULL;
	size_t n;
	int err;
	if (!out || !kind || (npcs && !pcs))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_from_process: NULL argument");
	*out = NULL;
	snprintf(mpath, sizeof(mpath), "/proc/%d/maps", pid);
	if ((err = tnorm__read_file(mpath, &maps, NULL)) < 0)
		return tnorm__error_set(TNORM_EIO, "cannot read the memory map of process %d (%s): is it "
		                        "still alive?", pid, mpath);
	if ((err = tnorm__symcache_new(&syms)) < 0)
		goto done;
	n = frames_from_pcs(syms, maps, pcs, NULL, npcs, frames, names, MAX_FRAMES);
	if ((err = tnorm_signature_new(out, kind, frames, n)) < 0)
		goto done;
	if (message && (err = tnorm_signature_set_message(*out, message)) < 0) {
		tnorm_signature_free(*out);
		*out = NULL;
	}
done:
	tnorm__symcache_free(syms);
	free(maps);
	return err;
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

/*
 * What the program's standard error says about the failure: a sanitizer report gives the kind
 * (bug type and access) and the free/alloc stacks; a leak report's allocation stack becomes the
 * signature's stack (the process stack at exit says nothing about a leak); the driver runtime's
 * failed check names the check.
 */
static void apply_report(tnorm_runner *r, const char *err, tnorm_signature **sig)
{
	tnorm__report rep;
	tnorm_frame frames[MAX_FRAMES];
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
		return;
	}
	if (rep.nstack[TNORM__REPORT_LEAK]) {
		n = report_frames(r, rep.stack[TNORM__REPORT_LEAK], rep.nstack[TNORM__REPORT_LEAK], frames,
		                  MAX_FRAMES);
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
		n = report_frames(r, rep.stack[which], rep.nstack[which], frames, MAX_FRAMES);
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

/*
 * Of the threads stopping on their way out of an exit_group, the one that called it: its
 * stack shows who called exit().  The others were merely stopped wherever they were.
 */
static int called_exit(pid_t tid)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETREGS, tid, NULL, &regs) < 0)
		return 1;
	return regs.orig_rax == SYS_exit_group || regs.orig_rax == SYS_exit;
#else
	(void)tid;
	return 1;
#endif
}

/* 1 when thread `tid` neither ignores nor catches `sig` (its /proc status masks). */
static int default_disposition(pid_t pid, pid_t tid, int sig)
{
	char path[64], *text = NULL, *p;
	unsigned long long ign = 0, cgt = 0, bit = 1ULL << (sig - 1);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	if (tnorm__read_file(path, &text, NULL) < 0)
		return 0;
	if ((p = strstr(text, "\nSigIgn:")))
		ign = strtoull(p + 8, NULL, 16);
	if ((p = strstr(text, "\nSigCgt:")))
		cgt = strtoull(p + 8, NULL, 16);
	free(text);
	return !(ign & bit) && !(cgt & bit);
}

/*
 * Signals whose stop is unwound.  SIGPIPE too (a write to a closed pipe kills the program where
 * it wrote), but only when the program leaves it at its default: a program that ignores or
 * handles it goes on, and a later crash must be the one unwound.
 */
static int is_fatal(pid_t pid, pid_t tid, int sig)
{
	if (sig == SIGPIPE)
		return default_disposition(pid, tid, sig);
	return sig == SIGSEGV || sig == SIGABRT || sig == SIGFPE || sig == SIGBUS || sig == SIGILL ||
	       sig == SIGTRAP || sig == SIGSYS;
}

typedef struct {
	int fd;
	char *buf;
	size_t len, total;
} stream;

static void drain(stream *s, size_t cap)
{
	char chunk[65536];
	for (;;) {
		ssize_t n = read(s->fd, chunk, sizeof(chunk));
		if (n > 0) {
			size_t keep = s->len < cap ? cap - s->len : 0;
			if (keep > (size_t)n)
				keep = (size_t)n;
			if (keep) {
				memcpy(s->buf + s->len, chunk, keep);
				s->len += keep;
				s->buf[s->len] = '\0';
			}
			s->total += (size_t)n;
			continue;
		}
		if (n == 0) {
			close(s->fd);
			s->fd = -1;
		} else if (errno == EINTR) {
			continue;
		}
		return;
	}
}

/* Wait up to `timeout` ms (-1: no limit) for output on the open streams, or for `extra` to be
 * readable (-1: none); drain what came.  Returns 1 when `extra` is readable. */
static int poll_streams(stream *so, stream *se, int extra, int timeout, size_t cap)
{
	struct pollfd pfd[3];
	stream *of[3] = {NULL, NULL, NULL};
	nfds_t np = 0, k;
	if (so->fd >= 0) {
		of[np] = so;
		pfd[np].fd = so->fd;
		pfd[np++].events = POLLIN;
	}
	if (se->fd >= 0) {
		of[np] = se;
		pfd[np].fd = se->fd;
		pfd[np++].events = POLLIN;
	}
	if (extra >= 0) {
		pfd[np].fd = extra;
		pfd[np++].events = POLLIN;
	}
	if (np == 0 || poll(pfd, np, timeout) <= 0)
		return 0;
	for (k = 0; k < np; k++)
		if (pfd[k].revents && of[k])
			drain(of[k], cap);
	return extra >= 0 && pfd[np - 1].revents != 0;
}

/* The first placeholder in `s`: `{}`, or `@@` (AFL's spelling, for fuzzers' command lines);
 * NULL when none. */
static const char *placeholder(const char *s)
{
	const char *a = strstr(s, "{}"), *b = strstr(s, "@@");
	return !a ? b : !b ? a : a < b ? a : b;
}

static char *substitute(const char *arg, const char *path)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *p = arg, *q;
	while ((q = placeholder(p)) != NULL) {
		if (tnorm__buf_put(&b, p, (size_t)(q - p)) < 0 || tnorm__buf_puts(&b, path) < 0)
			goto oom;
		p = q + 2;
	}
	if (tnorm__buf_puts(&b, p) < 0)
		goto oom;
	return tnorm__buf_detach(&b);
oom:
	tnorm__buf_dispose(&b);
	return NULL;
}

/*
 * Start the program: vfork, then in the child only plain system calls up to exec (it borrows our
 * memory until then, so it stores nothing of ours).  vfork, not fork: copying the page tables of
 * a multithreaded engine for every run made parallel runs slower than serial ones.  Its own
 * function, so that no variable of the caller lives across the vfork.
 */
static pid_t __attribute__((noinline)) start_child(const tnorm_runner *r, const char *d, int infd,
                                                   int out, int errfd, int execw, int ctl,
                                                   char **argv, char **envp)
{
	sigset_t all, old;
	pid_t pid;
	/* No signal may reach the child before it has dropped the handlers it shares with us: a
	 * debugger's handler (lldb's SIGINT one) run in a vfork child hangs it, and the debugger with
	 * it.  Signals are blocked across the vfork, and the child resets every handler before it
	 * unblocks them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = vfork();
	if (pid == 0) {
		struct rlimit rl;
		int e, sig;
		/* Every handler back to its default; ignoring first also discards what was sent to our
		 * process group before the child left it (a Ctrl-C meant for the debugger). */
		for (sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP && signal(sig, SIG_IGN) != SIG_ERR)
				signal(sig, SIG_DFL);
		setpgid(0, 0);
		personality(ADDR_NO_RANDOMIZE);
		rl.rlim_cur = rl.rlim_max = 0;
		setrlimit(RLIMIT_CORE, &rl);
		if (r->opts.mem_limit) {
			rl.rlim_cur = rl.rlim_max = (rlim_t)r->opts.mem_limit;
			setrlimit(RLIMIT_AS, &rl);
		}
		if (chdir(d) < 0 || dup2(infd, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
			goto child_fail;
		/* A fork server's control socket goes right above execw (envp names it there). */
		if (ctl >= 0 && (ctl == execw + 1 ? fcntl(ctl, F_SETFD, 0) : dup2(ctl, execw + 1)) < 0)
			goto child_fail;
		/* Any other descriptor the engine holds must not leak into the program. */
		if (execw > 3)
			close_range(3, (unsigned)execw - 1, 0);
		close_range((unsigned)execw + (ctl >= 0 ? 2 : 1), ~0U, 0);
		{
			/* A debugger (the plugins run inside gdb or lldb) may block or ignore signals:
			 * the program starts with none blocked and every one at its default (above). */
			sigset_t none;
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
		}
		/* No signal from the program (or what it starts) reaches the engine (shield.c);
		 * where seccomp cannot be had, the program runs as before. */
		tnorm__shield_apply(&r->shield);
		if (r->opts.unwind && ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
			goto child_fail;
		execvpe(argv[0], argv, envp);
child_fail:
		e = errno;
		if (write(execw, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return pid;
}

#define TRACE_OPTS                                                                            \
	(PTRACE_O_EXITKILL | PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_TRACECLONE |     \
	 PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK)

/* One ptrace stop of thread `tid` of the program `pid`: record what it means, resume it. */
static void on_stop(tnorm_runner *r, pid_t pid, pid_t tid, int status, int *exec_seen,
                    int arm_at_exec, tnorm_run_result *res)
{
	int sig = WSTOPSIG(status), event = status >> 16, deliver = 0;
	char kind[32];
	if (event == PTRACE_EVENT_EXIT) {
		unsigned long msg = 0;
		ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg);
		if (WIFEXITED((int)msg) && WEXITSTATUS((int)msg) != 0 &&
		    !is_invalid_exit(r, WEXITSTATUS((int)msg)) &&
		    !res->sig && called_exit(tid)) {
			snprintf(kind, sizeof(kind), "exit(%d)", WEXITSTATUS((int)msg));
			unwind(r, pid, tid, kind, &res->sig);
		}
	} else if (sig == SIGTRAP && !event && !*exec_seen && tid == pid) {
		/* The stop right after exec: set the options, start the program. */
		ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)TRACE_OPTS);
		*exec_seen = 1;
		if (r->probe && arm_at_exec)
			tnorm__probe_arm(r->probe, r->syms, pid, 0);
	} else if (event == PTRACE_EVENT_EXEC && tid == pid && r->probe && arm_at_exec) {
		tnorm__probe_arm(r->probe, r->syms, pid, 0); /* a wrapper exec'd the program */
	} else if (sig == SIGTRAP && !event && r->probe && tnorm__probe_trap(r->probe, tid)) {
		deliver = 0; /* a breakpoint of the probe's, taken back */
	} else if (event) {
		deliver = 0; /* other ptrace events (clone, exec): nothing to do; a new thread is
		              * traced from its first instruction, and its events come to the tracer's
		              * wait like the leader's */
	} else if (sig == SIGSTOP && tid != pid) {
		deliver = 0; /* a new thread's first stop */
	} else {
		if (!res->sig && is_fatal(pid, tid, sig))
			unwind(r, pid, tid, signame(sig, kind, sizeof(kind)), &res->sig);
		deliver = sig;
	}
	ptrace(PTRACE_CONT, tid, NULL, (void *)(long)deliver);
}

/*
 * The run's processes.  Every process the program starts is traced as well (PTRACE_O_TRACEFORK,
 * TRACEVFORK and TRACECLONE are inherited, with EXITKILL, by every new tracee), so that a process
 * that left the program's process group (setsid(), a double-fork daemon) is still known: when
 * the run's program is reaped, every other process of the run is killed (SIGKILL) and reaped.
 * Only the run's program (or the fork server's child) defines the outcome: the stops of the other
 * processes are passed on as they come, never unwound.
 *
 * The set holds every traced task (thread) but the started program's leader, each with its
 * process (tgid) and, for a process, the parent it was forked by.  A task is recorded at the
 * first of its parent's fork/clone event and its own first stop (either may come first), and
 * forgotten when it is reaped, or when a thread that exec'd takes its leader's id.  Until we
 * reap it, a traced task's id cannot be reused, so killing a recorded id never hits a stranger.
 * A task is doomed (killed on sight) when its run is over, and so is any task whose parent is
 * doomed or gone: one that a process forked as it was being killed.
 */
typedef struct {
	pid_t tid, tgid, ppid;
	unsigned started : 1; /* its first stop (a new tracee's SIGSTOP) is behind it */
	unsigned doomed : 1;  /* killed: its run is over */
} task;

typedef struct {
	task *v;
	size_t n, cap;
} task_set;

/* Thread `tid`'s process and its parent process, from /proc.  -1 when it is gone. */
static int proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!(p = strstr(buf, "\nTgid:")))
		return -1;
	*tgid = (pid_t)strtol(p + 6, NULL, 10);
	if (!(p = strstr(buf, "\nPPid:")))
		return -1;
	*ppid = (pid_t)strtol(p + 6, NULL, 10);
	return 0;
}

static task *tasks_find(task_set *ts, pid_t tid)
{
	size_t i;
	for (i = 0; i < ts->n; i++)
		if (ts->v[i].tid == tid)
			return &ts->v[i];
	return NULL;
}

static void tasks_forget(task_set *ts, pid_t tid)
{
	task *k = tasks_find(ts, tid);
	if (k)
		*k = ts->v[--ts->n];
}

/*
 * Task `tid` of the run, recorded now if it is new.  `root`, `root2` (0: none): the program
 * and the fork server's child, whose tasks and children are never doomed on sight.  NULL when
 * it cannot be recorded (gone, or out of memory): its stops are then passed on, nothing more.
 */
static task *tasks_note(task_set *ts, pid_t tid, pid_t root, pid_t root2)
{
	task *k = tasks_find(ts, tid), *up;
	pid_t tgid, ppid, above;
	if (k || proc_ids(tid, &tgid, &ppid) < 0)
		return k;
	if (ts->n == ts->cap) {
		size_t cap = ts->cap ? 2 * ts->cap : 16;
		task *v = tnorm__reallocarray(ts->v, cap, sizeof(*v));
		if (!v)
			return NULL;
		ts->v = v;
		ts->cap = cap;
	}
	k = &ts->v[ts->n++];
	memset(k, 0, sizeof(*k));
	k->tid = tid;
	k->tgid = tgid;
	k->ppid = ppid;
	/* A thread goes with its process, a process with the one that forked it. */
	above = tgid != tid ? tgid : ppid;
	if (above != root && (!root2 || above != root2))
		k->doomed = (up = tasks_find(ts, above)) ? up->doomed : 1;
	if (k->doomed)
		kill(tid, SIGKILL);
	return k;
}

/* At a ptrace stop of `tid`: a new task it started is recorded; after an exec, the id the
 * exec'ing thread had is forgotten (it is the leader's now). */
static void tasks_follow(task_set *ts, pid_t tid, int status, pid_t root, pid_t root2)
{
	int event = status >> 16;
	unsigned long msg = 0;
	if (!WIFSTOPPED(status) || !event || ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) < 0)
		return;
	if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK || event == PTRACE_EVENT_CLONE)
		tasks_note(ts, (pid_t)msg, root, root2);
	else if (event == PTRACE_EVENT_EXEC && (pid_t)msg != tid)
		tasks_forget(ts, (pid_t)msg);
}

/* The run is over: kill every task but those of process `keep` (the fork server; 0: none). */
static void tasks_doom(task_set *ts, pid_t keep)
{
	size_t i;
	for (i = 0; i < ts->n; i++)
		if (ts->v[i].tgid != keep && !ts->v[i].doomed) {
			ts->v[i].doomed = 1;
			kill(ts->v[i].tid, SIGKILL);
		}
}

/* A stop of a process the program started (`k` may be NULL): pass it on.  A new tracee's first
 * SIGSTOP is ours, and a group stop (no siginfo) is resumed, as ptrace without SEIZE must. */
static void other_stop(task *k, pid_t tid, int status)
{
	int sig = WSTOPSIG(status), deliver = 0;
	siginfo_t si;
	if (k && k->doomed) {
		kill(tid, SIGKILL);
	} else if (status >> 16) {
		deliver = 0; /* a ptrace event */
	} else if (sig == SIGSTOP && (!k || !k->started)) {
		deliver = 0;
	} else if (ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) == 0) {
		deliver = sig;
	}
	if (k)
		k->started = 1;
	ptrace(PTRACE_CONT, tid, NULL, (void *)(long)deliver);
}

/*
 * The run folder.  One per runner, made at its first run, reused: a run writes the candidate
 * into it (a new file each time, O_EXCL: never through a link the last program left), and after
 * the run everything in it goes, the candidate and whatever the program wrote.  Between runs it
 * is empty, as a fresh folder would be, without a mkdir and an rmdir per run.  A folder the
 * program removed or renamed is made again; one that cannot be emptied is given up (removed as
 * well as can be) for a new one.
 */
static void folder_drop(tnorm_runner *r)
{
	if (r->dirfd >= 0)
		close(r->dirfd);
	r->dirfd = -1;
	if (r->dir)
		remove_dir(r->dir, r->file);
	free(r->dir);
	free(r->file);
	free_strv(r->run_argv);
	r->dir = r->file = NULL;
	r->run_argv = NULL;
}

static int folder_make(tnorm_runner *r)
{
	const char *tmproot = getenv("TMPDIR");
	tnorm__buf b = TNORM__BUF_INIT;
	size_t i;
	if (!tmproot || !*tmproot)
		tmproot = NULL;
	if (tnorm__buf_printf(&b, "%s/tnorm-run-%d-XXXXXX", tmproot ? tmproot : "/tmp",
	                      (int)getpid()) < 0)
		return TNORM_ENOMEM;
	if (!mkdtemp(b.ptr)) {
		tnorm__buf_dispose(&b);
		return tnorm__error_errno(TNORM_EIO, "cannot create a temporary folder in %s%s",
		                          tmproot ? tmproot : "/tmp", tmproot ? " ($TMPDIR)" : "");
	}
	r->dir = tnorm__buf_detach(&b);
	if (!r->dir)
		return TNORM_ENOMEM;
	if ((r->dirfd = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return tnorm__error_errno(TNORM_EIO, "%s: cannot open", r->dir);
	if (tnorm__buf_printf(&b, "%s/candidate%s", r->dir, r->suffix) < 0 ||
	    !(r->file = tnorm__buf_detach(&b)) ||
	    !(r->run_argv = tnorm__calloc(r->argc + 1, sizeof(*r->run_argv)))) {
		tnorm__buf_dispose(&b);
		return TNORM_ENOMEM;
	}
	for (i = 0; i < r->argc; i++)
		if (!(r->run_argv[i] = substitute(r->argv[i], r->file)))
			return TNORM_ENOMEM;
	r->folder_gen++;
	return 0;
}

/* The candidate's file name in the folder. */
static const char *candidate_name(const tnorm_runner *r)
{
	return strrchr(r->file, '/') + 1;
}

/* Write the candidate into the run folder (made first if need be). */
static int folder_write(tnorm_runner *r, const void *data, size_t len)
{
	const char *p = data;
	size_t left = len;
	int fd = -1, err, tries;
	for (tries = 0; fd < 0; tries++) {
		if (!r->dir && (err = folder_make(r)) < 0) {
			folder_drop(r);
			return err;
		}
		fd = openat(r->dirfd, candidate_name(r), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && tries == 0) {
			folder_drop(r); /* removed, renamed, or not emptied: start afresh */
		} else if (fd < 0) {
			return tnorm__error_errno(TNORM_EIO, "%s: cannot create", r->file);
		}
	}
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			err = tnorm__error_errno(TNORM_EIO, "%s: cannot write", r->file);
			close(fd);
			return err;
		}
		p += w;
		left -= (size_t)w;
	}
	close(fd);
	return 0;
}

/* Remove everything in the run folder; 0 when it is empty, -1 when something stays. */
static int folder_sweep(tnorm_runner *r)
{
	char buf[4096];
	int pass;
	for (pass = 0; pass < 4; pass++) {
		int found = 0;
		ssize_t n;
		if (lseek(r->dirfd, 0, SEEK_SET) < 0)
			return -1;
		while ((n = getdents64(r->dirfd, buf, sizeof(buf))) > 0) {
			ssize_t off = 0;
			while (off < n) {
				struct dirent64 *e = (struct dirent64 *)(buf + off);
				off += e->d_reclen;
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				found = 1;
				if (unlinkat(r->dirfd, e->d_name, 0) < 0 && (errno == EISDIR || errno == EPERM)) {
					char path[4096];
					if ((size_t)snprintf(path, sizeof(path), "%s/%s", r->dir, e->d_name) <
					    sizeof(path))
						nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
				}
			}
		}
		if (n < 0)
			return -1;
		if (!found)
			return 0;
	}
	return -1;
}

/* After a run: empty the folder for the next one, or give it up. */
static void folder_clean(tnorm_runner *r)
{
	if (!r->dir)
		return;
	/* The usual case, only the candidate there: its unlink, then one look at the folder. */
	unlinkat(r->dirfd, candidate_name(r), 0);
	if (folder_sweep(r) < 0)
		folder_drop(r);
}

/*
 * The tracer: a thread of the runner's own that starts each run's program and waits for it.
 *
 * ptrace requests come from the tracing thread only, and a blocking wait that sees every traced
 * thread of the program (its threads come and go: PTRACE_O_TRACECLONE) must be a wait for any
 * child.  In the caller's thread that would take the children of whoever else lives there (a
 * debugger's inferior, a Python subprocess), and the output pipes and the timeout need it at the
 * same time.  So a private thread, which has no children but the runs', vforks the program and
 * blocks in wait4(-1, __WALL | __WNOTHREAD), handling each ptrace stop as it comes; the caller
 * blocks in poll on the output pipes and an eventfd the tracer signals when the program is
 * gone, with the timeout as poll's.  Neither spins.  The thread blocks every signal, starts at
 * the first run and ends in tnorm_runner_free (PTRACE_O_EXITKILL: a tracee dies with it).
 */
typedef enum { JOB_NONE, JOB_RUN, JOB_QUIT } job_kind;

struct tracer {
	pthread_t thread;
	pid_t owner;          /* getpid() of the process that started the thread; 0: no thread */
	pthread_mutex_t mu;   /* guards what follows */
	pthread_cond_t cv;    /* the caller's signal: a job */
	pthread_cond_t idle_cv; /* the tracer's signal: back to waiting for a job */
	int evfd;             /* the tracer's signal: news of the run (see below) */
	job_kind job;
	int busy;             /* a program (or a fork server) of ours is alive */
	/* The job (set by the caller; the descriptors belong to the tracer from then on). */
	const char *dir;
	char **argv, **envp;
	int fds[4];           /* the child's stdin, stdout, stderr, and the exec-error pipe */
	int ctl;              /* a would-be fork server's end of the control socket, or -1 */
	int ctl_engine;       /* our end of it (the tracer reads the hello there) */
	tnorm_run_result *res; /* the run's result: the tracer sets res->sig, nothing else */
	/* The tracer's answer, for the current run. */
	pid_t pid;            /* the run's program: 0 not known yet, -1 the fork failed */
	int fork_errno;
	int done, lost;       /* the run's program was reaped (status, ru); lost: wait failed */
	int from_server;      /* done because the fork server died, with no child for this run */
	int hello;            /* the program said it is a fork server */
	pid_t server;         /* the live fork server, or 0 */
	int status;
	struct rusage ru;
};

/* The tracer's news for the caller's poll: a fork failed, a server said hello, a program ended. */
static void tracer_notify(tracer *t)
{
	uint64_t one = 1;
	while (write(t->evfd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

/* A would-be fork server stopped itself: did it say hello on the control socket first? */
static int said_hello(int ctl)
{
	char buf[8];
	return ctl >= 0 && recv(ctl, buf, sizeof(buf), MSG_DONTWAIT) == 5 && !memcmp(buf, "TNFS1", 5);
}

/*
 * The run's program is reaped (or the server went with no child for the run: from_server).
 * `last`: nothing of ours is left, the tracer is done with this job (busy is cleared here, in
 * the same breath, so that the caller's next run seldom has to wait for the thread).
 */
static void tracer_done(tracer *t, int status, const struct rusage *ru, int from_server, int lost,
                        int last)
{
	pthread_mutex_lock(&t->mu);
	t->done = 1;
	t->lost = lost;
	t->status = status;
	if (ru)
		t->ru = *ru;
	t->from_server = from_server;
	if (last)
		t->busy = 0;
	pthread_mutex_unlock(&t->mu);
	tracer_notify(t);
}

/* The current run's result, or `scratch` between runs (a fork server's own stops). */
static tnorm_run_result *current_res(tracer *t, tnorm_run_result *scratch)
{
	tnorm_run_result *res;
	pthread_mutex_lock(&t->mu);
	res = t->res;
	pthread_mutex_unlock(&t->mu);
	return res ? res : scratch;
}

/* The run's program (or the fork server's child of this run) is `child` from now on. */
static void set_run_pid(tracer *t, pid_t child)
{
	pthread_mutex_lock(&t->mu);
	t->pid = child;
	pthread_mutex_unlock(&t->mu);
}

/*
 * One program, in the tracer thread: start it, follow its stops until it is reaped.  With a
 * control socket (`ctl`), the program may say it is a fork server: then the tracer follows its
 * forks, each child being one run's program (see core/driver/driver.c), until the server is gone
 * and its last child reaped.  Every process either of them starts is followed too (see "The
 * run's processes" above), and killed when its run is over; the last of them reaped, the tracer
 * returns (wait4 says there is nothing left: ECHILD).
 */
static void trace_one(tnorm_runner *r, tracer *t, const char *dir, char **argv, char **envp,
                      int *fds, int ctl)
{
	tnorm_run_result scratch;
	struct rusage wru;
	task_set ts = {NULL, 0, 0};
	task *k;
	pid_t pid, w, child = 0;
	int i, st = 0, e, exec_seen = 0, child_exec_seen = 1, is_server = 0, child_started = 0;
	int p_gone = 0, execs = 0, over = 0;
	memset(&scratch, 0, sizeof(scratch));
	pid = start_child(r, dir, fds[0], fds[1], fds[2], fds[3], ctl, argv, envp);
	e = errno;
	for (i = 0; i < 4; i++)
		close(fds[i]);
	if (ctl >= 0)
		close(ctl);
	if (pid < 0) {
		pthread_mutex_lock(&t->mu);
		t->pid = -1;
		t->fork_errno = e;
		pthread_mutex_unlock(&t->mu);
		tracer_notify(t);
		return;
	}
	setpgid(pid, pid); /* also in the parent, so the group exists before the caller kills it */
	set_run_pid(t, pid);
	for (;;) {
		w = wait4(-1, &st, __WALL | __WNOTHREAD, &wru);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (!over) /* ECHILD before the program was reaped: it is lost to us */
				tracer_done(t, 0, NULL, 0, 1, 1);
			break;
		}
		if (WIFSTOPPED(st))
			tasks_follow(&ts, w, st, pid, child);
		if (w == pid && WIFSTOPPED(st)) {
			int event = st >> 16, sig = WSTOPSIG(st);
			if (is_server) {
				/* The server's own stops: its forks (a run's child), and signals. */
				unsigned long msg = 0;
				if (event == PTRACE_EVENT_FORK && !child &&
				    ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg) == 0) {
					child = (pid_t)msg;
					set_run_pid(t, child);
				}
				ptrace(PTRACE_CONT, pid, NULL,
				       (void *)(long)(event || sig == SIGSTOP || sig == SIGTRAP ? 0 : sig));
			} else if (ctl >= 0 && exec_seen && !event && sig == SIGSTOP && execs > 0 &&
			           said_hello(t->ctl_engine)) {
				/* A driver that a program we started exec'd: the runs are the program's, it
				 * is no server of ours.  It runs the test as usual. */
				send(t->ctl_engine, "N", 1, MSG_NOSIGNAL);
				ptrace(PTRACE_CONT, pid, NULL, NULL);
			} else if (ctl >= 0 && exec_seen && !event && sig == SIGSTOP && execs == 0 &&
			           said_hello(t->ctl_engine)) {
				is_server = 1;
				/* The probe is for the server's children (armed at their first stop): the
				 * server's own copy of the code goes back as it was. */
				if (r->probe)
					tnorm__probe_disarm(r->probe);
				pthread_mutex_lock(&t->mu);
				t->hello = 1;
				t->server = pid;
				t->pid = 0; /* the run's program is the server's next child */
				pthread_mutex_unlock(&t->mu);
				tracer_notify(t); /* the caller sends the run's request */
				ptrace(PTRACE_CONT, pid, NULL, NULL);
			} else {
				execs += event == PTRACE_EVENT_EXEC;
				on_stop(r, pid, pid, st, &exec_seen, 1, current_res(t, &scratch));
			}
			continue;
		}
		if (w == pid) {
			/* The program, or the server, is gone (with its child of this run, if any, still
			 * to be waited for). */
			p_gone = 1;
			pthread_mutex_lock(&t->mu);
			t->server = 0;
			pthread_mutex_unlock(&t->mu);
			if (!child) {
				/* The run is over: what the program started goes, then the tracer. */
				over = 1;
				tasks_doom(&ts, 0);
				tracer_done(t, st, &wru, is_server, 0, 0);
			}
			continue;
		}
		if (!WIFSTOPPED(st)) {
			/* A task ended.  The fork server's child of this run ends the run. */
			tasks_forget(&ts, w);
			if (is_server && w == child) {
				over = p_gone;
				tasks_doom(&ts, p_gone ? 0 : pid);
				tracer_done(t, st, &wru, 0, 0, 0);
				child = 0;
				child_started = 0;
			} /* else: a thread, or a process the program started */
			continue;
		}
		k = tasks_note(&ts, w, pid, child);
		if (over || (k && k->doomed) ||
		    (k && k->tgid != pid && k->tgid != child &&
		     !(is_server && !child && k->tgid == w && k->ppid == pid))) {
			/* A process the program started (killed when its run is over).  A driver among
			 * them that offers a fork server is told no, as one the program exec'd is. */
			if (ctl >= 0 && !is_server && !over && !(st >> 16) && WSTOPSIG(st) == SIGSTOP &&
			    k && k->started && said_hello(t->ctl_engine)) {
				send(t->ctl_engine, "N", 1, MSG_NOSIGNAL);
				ptrace(PTRACE_CONT, w, NULL, NULL);
			} else if (r->probe && !(st >> 16) && WSTOPSIG(st) == SIGTRAP &&
			           tnorm__probe_foreign(r->probe, w)) {
				ptrace(PTRACE_CONT, w, NULL, NULL); /* a breakpoint it inherited, undone */
			} else {
				other_stop(k, w, st);
			}
		} else if (!is_server) {
			/* One of the program's threads: its stops are the program's; its end, nothing. */
			on_stop(r, pid, w, st, &exec_seen, 1, current_res(t, &scratch));
		} else if (k && k->tgid == pid) {
			ptrace(PTRACE_CONT, w, NULL, NULL); /* a thread of the server's */
		} else {
			/* The server's child of this run, or one of its threads. */
			if (!child) { /* its first stop came before the server's fork event */
				child = w;
				set_run_pid(t, child);
			}
			if (w == child && !child_started) {
				/* The child's first stop: trace it as a program run afresh. */
				child_started = 1;
				ptrace(PTRACE_SETOPTIONS, w, NULL, (void *)(long)TRACE_OPTS);
				if (r->probe)
					tnorm__probe_arm(r->probe, r->syms, w, 1);
				ptrace(PTRACE_CONT, w, NULL, NULL);
			} else {
				on_stop(r, child, w, st, &child_exec_seen, 0, current_res(t, &scratch));
			}
		}
	}
	free(ts.v);
	tnorm_signature_free(scratch.sig);
}

static void *tracer_main(void *arg)
{
	tnorm_runner *r = arg;
	tracer *t = r->tr;
	for (;;) {
		const char *dir;
		char **argv, **envp;
		int fds[4], ctl;
		pthread_mutex_lock(&t->mu);
		t->busy = 0;
		pthread_cond_broadcast(&t->idle_cv);
		while (t->job == JOB_NONE)
			pthread_cond_wait(&t->cv, &t->mu);
		if (t->job == JOB_QUIT) {
			pthread_mutex_unlock(&t->mu);
			return NULL;
		}
		t->job = JOB_NONE;
		t->busy = 1;
		dir = t->dir;
		argv = t->argv;
		envp = t->envp;
		memcpy(fds, t->fds, sizeof(fds));
		ctl = t->ctl;
		pthread_mutex_unlock(&t->mu);
		trace_one(r, t, dir, argv, envp, fds, ctl);
	}
}

/* Kill the fork server, if there is one: the tracer reports it gone. */
static void tracer_kill_server(tracer *t)
{
	pthread_mutex_lock(&t->mu);
	if (t->server > 0)
		kill(t->server, SIGKILL);
	pthread_mutex_unlock(&t->mu);
}

/* Stop the fork server, if there is one, and wait until the tracer is idle (ready for a job,
 * with nothing of the last one left to report). */
static void tracer_stop_server(tracer *t)
{
	pthread_mutex_lock(&t->mu);
	if (t->server > 0)
		kill(t->server, SIGKILL);
	while (t->busy || t->job != JOB_NONE)
		pthread_cond_wait(&t->idle_cv, &t->mu);
	pthread_mutex_unlock(&t->mu);
}

/* Stop and join the tracer thread (when this process started it), free its state. */
static void tracer_free(tracer *t)
{
	if (!t)
		return;
	if (t->owner && t->owner == getpid()) {
		tracer_stop_server(t);
		pthread_mutex_lock(&t->mu);
		t->job = JOB_QUIT;
		pthread_cond_signal(&t->cv);
		pthread_mutex_unlock(&t->mu);
		pthread_join(t->thread, NULL);
	}
	if (t->evfd >= 0)
		close(t->evfd);
	pthread_cond_destroy(&t->cv);
	pthread_cond_destroy(&t->idle_cv);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

/*
 * The runner's tracer, started on first use.  In a child of a fork() (a host that forks after
 * a run, such as Python's os.fork) the thread is not there: that process gets its own.
 */
static int tracer_get(tnorm_runner *r, tracer **out)
{
	tracer *t = r->tr;
	sigset_t all, old;
	int rc;
	if (t && t->owner == getpid()) {
		*out = t;
		return 0;
	}
	if (t) {
		t->owner = 0; /* the thread belongs to the parent process: leave it alone */
		tracer_free(t);
		r->tr = NULL;
		r->fs_state = FS_UNKNOWN; /* and so does the fork server */
		if (r->ctl >= 0)
			close(r->ctl);
		r->ctl = -1;
	}
	if (!(t = tnorm__calloc(1, sizeof(*t))))
		return TNORM_ENOMEM;
	t->evfd = -1;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	pthread_cond_init(&t->idle_cv, NULL);
	r->tr = t;
	if ((t->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		return tnorm__error_errno(TNORM_EIO, "cannot create an eventfd for the runner");
	/* The thread blocks every signal: the host's signals are the host's threads' business. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	t->busy = 1; /* until the thread waits for its first job */
	rc = pthread_create(&t->thread, NULL, tracer_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		t->busy = 0;
		errno = rc;
		return tnorm__error_errno(TNORM_EIO, "cannot start the runner's tracer thread");
	}
	t->owner = getpid();
	*out = t;
	return 0;
}

/* Get ready for a run: the tracer's answer cleared, `res` the run's result.  For a run of the
 * fork server, 0 when the server is gone already (then nothing is changed). */
static int tracer_begin(tracer *t, tnorm_run_result *res, int served)
{
	pthread_mutex_lock(&t->mu);
	if (served && !t->server) {
		pthread_mutex_unlock(&t->mu);
		return 0;
	}
	t->res = res;
	t->pid = 0;
	t->fork_errno = 0;
	t->done = t->lost = t->status = t->from_server = t->hello = 0;
	memset(&t->ru, 0, sizeof(t->ru));
	pthread_mutex_unlock(&t->mu);
	return 1;
}

/* The run is over: the tracer writes no more into its result. */
static void tracer_end(tracer *t)
{
	pthread_mutex_lock(&t->mu);
	t->res = NULL;
	pthread_mutex_unlock(&t->mu);
}

/* Hand a program to start to the (idle) tracer; from here on the descriptors are the tracer's. */
static void tracer_start(tracer *t, const char *dir, char **argv, char **envp, int *fds, int ctl,
                         int ctl_engine)
{
	pthread_mutex_lock(&t->mu);
	t->dir = dir;
	t->argv = argv;
	t->envp = envp;
	memcpy(t->fds, fds, sizeof(t->fds));
	t->ctl = ctl;
	t->ctl_engine = ctl_engine;
	t->job = JOB_RUN;
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
}

/* The poll timeout until `when` (monotonic seconds), rounded up to whole milliseconds; 0 when it
 * is past. */
static int ms_until(double when)
{
	double left = when - tnorm__now();
	return left <= 0 ? 0 : (int)(left * 1000.0) + 1;
}

/* How a run starts its program. */
typedef enum {
	MODE_PLAIN,  /* a process of its own, exec'd */
	MODE_SPAWN,  /* the same, offered to become a fork server (the run goes on either way) */
	MODE_SERVED  /* a child of the live fork server */
} run_mode;

/*
 * Which way this run goes.  A fork server started in another folder (the program removed the
 * last one) is stopped: its children would look for the candidate there.
 */
static run_mode pick_mode(tnorm_runner *r, tracer *t)
{
	pid_t server;
	if (!r->opts.fork_server || !r->opts.unwind || r->fs_state == FS_NO) {
		tracer_stop_server(t);
		return MODE_PLAIN;
	}
	pthread_mutex_lock(&t->mu);
	server = t->server;
	pthread_mutex_unlock(&t->mu);
	if (server && r->ctl >= 0 && r->fs_gen == r->folder_gen)
		return MODE_SERVED;
	tracer_stop_server(t);
	return MODE_SPAWN;
}

/* Ask the fork server for a child with these standard streams.  -1 when the server is gone. */
static int send_request(int ctl, const int *fds)
{
	char byte = 'R', cbuf[CMSG_SPACE(3 * sizeof(int))];
	struct iovec iov = {&byte, 1};
	struct msghdr msg;
	struct cmsghdr *c;
	memset(&msg, 0, sizeof(msg));
	memset(cbuf, 0, sizeof(cbuf));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(3 * sizeof(int));
	memcpy(CMSG_DATA(c), fds, 3 * sizeof(int));
	return sendmsg(ctl, &msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* The program's environment with TNORM_FORK_SERVER=FD added (NULL-terminated; free_strv). */
static char **server_env(const tnorm_runner *r, int fd)
{
	char **envp, buf[64];
	size_t n = 0, i;
	while (r->envp[n])
		n++;
	if (!(envp = tnorm__calloc(n + 2, sizeof(*envp))))
		return NULL;
	snprintf(buf, sizeof(buf), "TNORM_FORK_SERVER=%d", fd);
	for (i = 0; i < n; i++)
		if (!(envp[i] = tnorm__strdup(r->envp[i])))
			goto oom;
	if (!(envp[n] = tnorm__strdup(buf)))
		goto oom;
	return envp;
oom:
	free_strv(envp);
	return NULL;
}

/* What waiting for a run came to. */
typedef struct {
	pid_t pid;       /* the run's program (0 when none was started) */
	int status, lost, from_server, hello, timed_out, cancelled;
	struct rusage ru;
} waited;

/* How often a run that waits looks at the cancel flag (ms): a signal that sets it may be taken
 * by another thread, so poll's EINTR alone cannot be relied on. */
#define CANCEL_POLL_MS 50

/*
 * Block until output comes, the tracer says the run's program is gone, or the timeout (then
 * SIGTERM to its group, SIGKILL 0.2 s later).  When the cancel flag is set, the program's group
 * is killed at once (w->cancelled).  In MODE_SPAWN, `pending` holds the run's streams for the
 * server's request, sent when the program says hello.  0, or TNORM_EIO (fork failed).
 */
static int wait_run(tnorm_runner *r, tracer *t, run_mode mode, stream *so, stream *se,
                    int *pending, double start, waited *w)
{
	double deadline = r->opts.timeout > 0 ? start + r->opts.timeout : 0, term_at = 0;
	int term_sent = 0, kill_sent = 0, done_seen = 0;
	size_t i;
	pid_t pid = 0;
	while (!done_seen) {
		int timeout = -1;
		double tnow;
		if (deadline && !term_sent)
			timeout = pid ? ms_until(deadline) : 1 + ms_until(deadline);
		else if (term_sent && !kill_sent)
			timeout = ms_until(term_at + 0.2);
		if (r->cancel && !kill_sent && (timeout < 0 || timeout > CANCEL_POLL_MS))
			timeout = CANCEL_POLL_MS;
		if (poll_streams(so, se, t->evfd, timeout, r->opts.output_cap)) {
			uint64_t v;
			while (read(t->evfd, &v, sizeof(v)) > 0)
				;
		}
		pthread_mutex_lock(&t->mu);
		pid = t->pid;
		errno = t->fork_errno;
		if (t->done) {
			done_seen = 1;
			w->lost = t->lost;
			w->status = t->status;
			w->ru = t->ru;
			w->from_server = t->from_server;
		}
		w->hello = t->hello;
		pthread_mutex_unlock(&t->mu);
		if (pending[0] >= 0 && (w->hello || done_seen)) {
			if (w->hello && !done_seen && send_request(r->ctl, pending) < 0)
				tracer_kill_server(t);
			for (i = 0; i < 3; i++) {
				close(pending[i]);
				pending[i] = -1;
			}
		}
		if (pid < 0) {
			/* The fork failed (errno is its error): nothing to wait for. */
			w->pid = 0;
			return tnorm__error_errno(TNORM_EIO, "fork failed");
		}
		tnow = tnorm__now();
		if (!done_seen && !pid && deadline && tnow > deadline + 1.0 && mode != MODE_PLAIN) {
			/* A fork server that does not fork: gone with it (then a run afresh). */
			tracer_kill_server(t);
		}
		if (done_seen || pid == 0)
			continue; /* pid 0: started a moment ago, the timeout waits for the fork */
		if (r->cancel && *r->cancel && !kill_sent) {
			/* Ctrl-C: the run ends now, not at its timeout (issue 28, item 6). */
			w->cancelled = term_sent = kill_sent = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		} else if (deadline && tnow >= deadline && !term_sent) {
			w->timed_out = 1;
			term_sent = 1;
			term_at = tnow;
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
		} else if (term_sent && !kill_sent && tnow >= term_at + 0.2) {
			kill_sent = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
	w->pid = pid;
	return 0;
}

/*
 * The fork server's side of a finished run: 1 when the server died before it forked the run's
 * child (the run is made again, with a new server or, after three deaths in a row, without).
 */
static int fork_server_after(tnorm_runner *r, run_mode mode, const waited *w)
{
	if (mode == MODE_PLAIN)
		return 0;
	if (w->from_server || (mode == MODE_SERVED && !w->pid)) {
		if (++r->fs_crashes >= 3)
			r->fs_state = FS_NO;
		return 1;
	}
	if (mode == MODE_SPAWN && !w->hello) {
		/* Not a fork server: the run was a plain one. */
		r->fs_state = FS_NO;
		close(r->ctl);
		r->ctl = -1;
	} else {
		r->fs_state = FS_ON;
		r->fs_crashes = 0;
	}
	return 0;
}

/* The run's outcome from how its program ended. */
static void classify(const tnorm_runner *r, const waited *w, int exec_errno, tnorm_run_result *res)
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
		if (!res->sig && tnorm_signature_new(&res->sig, signame(res->signo, kind, sizeof(kind)),
		                                     NULL, 0) < 0)
			res->sig = NULL;
	} else if (WIFEXITED(w->status)) {
		res->exit_code = WEXITSTATUS(w->status);
		if (res->exit_code == 0) {
			res->outcome = TNORM_OUTCOME_PASS;
		} else if (is_invalid_exit(r, res->exit_code)) {
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
static int run_attempt(tnorm_runner *r, tracer *t, run_mode mode, tnorm_run_result *res,
                       int *retry)
{
	int outp[2] = {-1, -1}, errp[2] = {-1, -1}, execp[2] = {-1, -1}, sp[2] = {-1, -1};
	int infd = -1, pending[3] = {-1, -1, -1}; /* SPAWN: the streams, for the server's request */
	stream so = {-1, NULL, 0, 0}, se = {-1, NULL, 0, 0};
	double start;
	int err = 0, exec_errno = 0;
	char **envp = NULL;
	waited w;
	size_t i;

	*retry = 0;
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	memset(&w, 0, sizeof(w));
	if (!(so.buf = tnorm__malloc(r->opts.output_cap + 1)) ||
	    !(se.buf = tnorm__malloc(r->opts.output_cap + 1))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	so.buf[0] = se.buf[0] = '\0';
	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 ||
	    (mode != MODE_SERVED && pipe2(execp, O_CLOEXEC) < 0)) {
		err = tnorm__error_errno(TNORM_EIO, "cannot create pipes");
		goto done;
	}
	infd = open(r->opts.use_stdin ? r->file : "/dev/null", O_RDONLY | O_CLOEXEC);
	if (infd < 0) {
		err = tnorm__error_errno(TNORM_EIO, "cannot open the child's standard input");
		goto done;
	}
	if (mode == MODE_SPAWN) {
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) {
			err = tnorm__error_errno(TNORM_EIO, "cannot create a socket pair");
			goto done;
		}
		if (!(envp = server_env(r, execp[1] + 1))) {
			err = TNORM_ENOMEM;
			goto done;
		}
		if (r->ctl >= 0)
			close(r->ctl);
		r->ctl = sp[0];
		sp[0] = -1;
		r->fs_gen = r->folder_gen;
	}
	fcntl(outp[0], F_SETFL, O_NONBLOCK);
	fcntl(errp[0], F_SETFL, O_NONBLOCK);
	so.fd = outp[0];
	se.fd = errp[0];
	outp[0] = errp[0] = -1;
	if (mode == MODE_SPAWN) { /* the request goes when (if) the program says hello */
		int fds[3];
		fds[0] = infd;
		fds[1] = outp[1];
		fds[2] = errp[1];
		for (i = 0; i < 3; i++)
			if ((pending[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3)) < 0) {
				err = tnorm__error_errno(TNORM_EIO, "cannot duplicate a descriptor");
				goto done;
			}
	}
	if (!tracer_begin(t, res, mode == MODE_SERVED)) {
		*retry = 1; /* the server died since pick_mode: start another */
		goto done;
	}
	start = tnorm__now();
	{
		int fds[4];
		fds[0] = infd;
		fds[1] = outp[1];
		fds[2] = errp[1];
		fds[3] = execp[1];
		if (mode == MODE_SERVED && send_request(r->ctl, fds) < 0) {
			/* The server is going away (it was there in tracer_begin): the tracer will
			 * report it gone, with no child. */
			tracer_kill_server(t);
		}
		if (mode == MODE_SERVED) {
			for (i = 0; i < 3; i++)
				close(fds[i]);
		} else {
			tracer_start(t, r->dir, r->run_argv, envp ? envp : r->envp, fds, sp[1], r->ctl);
			sp[1] = -1;
		}
		infd = outp[1] = errp[1] = execp[1] = -1;
	}
	if ((err = wait_run(r, t, mode, &so, &se, pending, start, &w)) < 0)
		goto done;
	tracer_end(t);
	*retry = fork_server_after(r, mode, &w);
	if (w.cancelled) {
		kill(-w.pid, SIGKILL);
		*retry = 0;
		err = tnorm__error_set(TNORM_EINTERRUPTED, "interrupted: the run under way was stopped");
		goto done;
	}
	if (*retry)
		goto done;
	res->wall = tnorm__now() - start;
	res->child_cpu = (double)w.ru.ru_utime.tv_sec + (double)w.ru.ru_utime.tv_usec / 1e6 +
	                 (double)w.ru.ru_stime.tv_sec + (double)w.ru.ru_stime.tv_usec / 1e6;
	/* Children the program left behind die with their group. */
	kill(-w.pid, SIGKILL);
	/* Collect what is left in the pipes (writers in the group are dead now, or soon). */
	{
		double until = tnorm__now() + 0.5;
		while ((so.fd >= 0 || se.fd >= 0) && tnorm__now() < until)
			poll_streams(&so, &se, -1, 20, r->opts.output_cap);
	}
	if (read(execp[0], &exec_errno, sizeof(exec_errno)) != (ssize_t)sizeof(exec_errno))
		exec_errno = 0;
	classify(r, &w, exec_errno, res);
	if (res->outcome == TNORM_OUTCOME_FAIL && res->sig && se.buf)
		apply_report(r, se.buf, &res->sig);
	res->out = so.buf;
	res->err = se.buf;
	res->out_len = so.len;
	res->err_len = se.len;
	res->out_total = so.total;
	res->err_total = se.total;
	so.buf = se.buf = NULL;
done:
	if (so.fd >= 0)
		close(so.fd);
	if (se.fd >= 0)
		close(se.fd);
	free(so.buf);
	free(se.buf);
	for (i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		if (execp[i] >= 0)
			close(execp[i]);
		if (sp[i] >= 0)
			close(sp[i]);
	}
	for (i = 0; i < 3; i++)
		if (pending[i] >= 0)
			close(pending[i]);
	if (infd >= 0)
		close(infd);
	free_strv(envp);
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
static int leak_check(tnorm_runner *r, tracer *t, tnorm_run_result *res)
{
	tnorm_run_result again;
	char **envp = r->envp;
	int err, retry = 0;
	r->opts.unwind = 0;
	r->envp = r->leak_envp;
	err = run_attempt(r, t, pick_mode(r, t), &again, &retry);
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

/*
 * A failure at a merged abort site: the run again with a trail on the function (see "Merged
 * abort sites" above).  Its result replaces the first when it fails too (whether or not the
 * trail found the check); otherwise (a flaky test) the first stays.
 */
/* The run, made again (up to 4 attempts) while a fork server dies before it forks the run's
 * child; *retry stays set when every attempt met a dying server. */
static int run_retrying(tnorm_runner *r, tracer *t, tnorm_run_result *res, int *retry)
{
	int err = 0, attempt;
	for (attempt = 0; attempt < 4; attempt++)
		if ((err = run_attempt(r, t, pick_mode(r, t), res, retry)) < 0 || !*retry)
			break;
	return err;
}

/* The trail probe of the function that holds the merged call f, made once per function: the
 * cached one when the last merged site was in the same function symbol.  NULL when the
 * function has no line rows (with TNORM_ENOMEM in *err on a failed allocation). */
static tnorm__probe *trail_probe(tnorm_runner *r, const tnorm_frame *f, int *err)
{
	uint64_t *addrs = NULL, lo, hi, cold_lo = 0, cold_hi = 0;
	unsigned char *lined = NULL;
	size_t n = 0, i;
	*err = 0;
	if (tnorm__symcache_symbol_extent(r->syms, f->module, f->offset, &lo, &hi) < 0)
		lo = hi = 0;
	if (r->trail && lo && r->trail_key == lo && !strcmp(tnorm__probe_path(r->trail), f->module))
		return r->trail;
	if (tnorm__symcache_func_rows(r->syms, f->module, f->offset, &addrs, &n) < 0)
		return NULL;
	if (!(lined = tnorm__malloc(n))) {
		free(addrs);
		*err = TNORM_ENOMEM;
		return NULL;
	}
	/* Where the trail looks from: not the merged code itself (line 0; or gcc's cold part,
	 * whose rows have the line of one of the calls merged). */
	if (tnorm__symcache_merged(r->syms, f->module, f->offset) == 2) {
		cold_lo = lo;
		cold_hi = hi;
	}
	for (i = 0; i < n; i++)
		lined[i] = !tnorm__symcache_noline(r->syms, f->module, addrs[i]) &&
		           !(addrs[i] >= cold_lo && addrs[i] < cold_hi);
	tnorm__probe_free(r->trail);
	r->trail = NULL;
	*err = tnorm__probe_new(&r->trail, TNORM__PROBE_TRAIL, f->module, addrs, lined, n,
	                        TRAIL_MAX_STOPS);
	r->trail_key = lo;
	free(addrs);
	free(lined);
	return r->trail;
}

/*
 * A failure at a merged abort site: the run again with a trail on the function (see "Merged
 * abort sites" above).  Its result replaces the first when it fails too (whether or not the
 * trail found the check); otherwise (a flaky test) the first stays.
 */
static int trail_again(tnorm_runner *r, tracer *t, tnorm_run_result *res)
{
	const tnorm_frame *f = merged_site(r, res->sig);
	tnorm_run_result again;
	int err = 0, retry = 0;
	if (!f || !(r->probe = trail_probe(r, f, &err)))
		return err;
	err = run_retrying(r, t, &again, &retry);
	tnorm__probe_end(r->probe);
	r->probe = NULL;
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
		err = tnorm__probe_new(&r->probe, TNORM__PROBE_COVER, exe, addrs, NULL, n, 0);
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
	if (!r->probe || tnorm__probe_mode_of(r->probe) != TNORM__PROBE_COVER)
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
	tracer *t = NULL;
	int err, retry = 0;
	if (!r || !res || (!data && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_runner_run: NULL argument");
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	/* The candidate, in the runner's folder. */
	if ((err = folder_write(r, data, len)) < 0 || (err = tracer_get(r, &t)) < 0)
		goto done;
	err = run_retrying(r, t, res, &retry);
	if (err == 0 && retry) {
		res->outcome = TNORM_OUTCOME_ERROR;
		snprintf(res->message, sizeof(res->message), "the fork server of '%s' kept dying",
		         r->argv[0]);
	}
	if (err == 0 && res->outcome == TNORM_OUTCOME_FAIL && res->sig && !r->probe)
		err = trail_again(r, t, res);
	if (err == 0 && res->outcome == TNORM_OUTCOME_PASS && r->leak_envp)
		err = leak_check(r, t, res);
	if (err == 0 && res->outcome == TNORM_OUTCOME_INVALID)
		invalid_reason(r, res);
done:
	if (r->probe)
		tnorm__probe_end(r->probe);
	folder_clean(r);
	return err;
}

/* SPDX-License-Identifier: MIT */
/*
 * askdriver.c - ask a tnorm driver about itself: which function each check runs, and the harness
 * it was built with (tnorm/runner.h: tnorm_lint_checks, tnorm_driver_harness).
 *
 * A driver answers options of its own (core/driver/driver.c): `--print-hooks` lists its pools'
 * destroy hooks and the function behind each check, `--print-harness` prints its compiled-in
 * harness.  The engine runs it for that untraced and briefly (tnorm__ask_program: standard input
 * and error on /dev/null, at most 10 s), never inside a run and never through the runner, and
 * only when the file says it links the driver runtime, or when the user named it as a driver:
 * any other program could take the option for a file name.  sanopts.c asks the same way whether
 * a driver frees what its tests make (tnorm__sanopts_program_frees).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner_internal.h"
#include "tnorm/harness.h"
#include "tnorm/runner.h"

/* Run `path option` untraced (standard input and error on /dev/null, environment `envp`, at
 * most 10 s) and keep what it prints, up to size - 1 bytes, NUL-ended.  1 when it exited 0. */
int tnorm__ask_program(const char *path, const char *option, char *const *envp, char *out,
                       size_t size)
{
	posix_spawn_file_actions_t fa;
	char *argv[3];
	size_t n = 0;
	int pfd[2], st = 0, k;
	pid_t pid, w;
	struct timespec start, now;
	out[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return 0;
	argv[0] = (char *)path;
	argv[1] = (char *)option;
	argv[2] = NULL;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		close(pfd[0]);
		close(pfd[1]);
		return 0;
	}
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, path, &fa, NULL, argv, envp) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = {pfd[0], POLLIN, 0};
		ssize_t r;
		long left;
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = 10000 - ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0 || poll(&p, 1, (int)left) == 0) {
			kill(pid, SIGKILL);
			n = 0;
			break;
		}
		r = read(pfd[0], out + n, size - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (n += (size_t)r) == size - 1)
			break;
	}
	close(pfd[0]);
	out[n] = '\0';
	/* Its end, for 10 s more at most (killed then): a process the kernel holds past its
	 * SIGKILL is left as it is, not waited for (issue 39, item 4). */
	for (k = 0; (w = waitpid(pid, &st, WNOHANG)) == 0 || (w < 0 && errno == EINTR); k++) {
		struct timespec ts = {0, 10000000L};
		if (k == 500)
			kill(pid, SIGKILL);
		if (k >= 1500)
			return 0;
		nanosleep(&ts, NULL);
	}
	return w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* ---- checks whose failures look alike (issue 16 item 6) --------------------------------------
 *
 * A check's failure is told apart from another's by its signature: the kind names the check
 * when it returns nonzero (`check-failed:NAME`), and the stack runs through its own function
 * when it asserts or calls a helper.  Two checks that run one function (declared twice under one
 * name, or two names with one function in the driver's table) fail alike inside it, so a
 * reduction cannot keep one apart from the other.  The driver says which function each name
 * runs (`--print-hooks`: `handler NAME K`, K the table row of the first name with that
 * function). */

/* The row of `name` in the driver's `handler NAME K` lines, or -1. */
static long handler_row(const char *hooks, const char *name)
{
	const char *p = hooks;
	size_t n = strlen(name);
	while ((p = strstr(p, "handler ")) != NULL) {
		if ((p == hooks || p[-1] == '\n') && !strncmp(p + 8, name, n) && p[8 + n] == ' ')
			return strtol(p + 9 + n, NULL, 10);
		p += 8;
	}
	return -1;
}

int tnorm_lint_checks(const tnorm_harness *h, const char *program, char **out)
{
	enum { HOOKS_SIZE = 65536 };
	char *hooks = NULL;
	tnorm__buf b = TNORM__BUF_INIT;
	uint32_t nc, i, j, *group = NULL;
	int err = 0;
	if (!h || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_lint_checks: NULL argument");
	*out = NULL;
	nc = tnorm_harness_check_count(h);
	if (!(group = tnorm__calloc((size_t)nc + 1, sizeof(*group))) ||
	    (program && !(hooks = tnorm__malloc(HOOKS_SIZE)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if (program && access(program, X_OK) < 0) {
		err = tnorm__error_errno(TNORM_ERROR, "cannot run '%s'", program);
		goto done;
	}
	if (program && (!tnorm__ask_program(program, "--print-hooks", NULL, hooks, HOOKS_SIZE) ||
	                !strstr(hooks, "handler "))) {
		err = tnorm__error_set(TNORM_EINVALID,
		                       "'%s --print-hooks' listed no handlers, expected a driver built "
		                       "with this version of the tnorm driver runtime", program);
		goto done;
	}
	/* group[i]: the first check that runs the same function as check i. */
	for (i = 0; i < nc; i++) {
		tnorm_template_info ci;
		long ri;
		tnorm_harness_check(h, i, &ci);
		ri = program ? handler_row(hooks, ci.name) : -1;
		group[i] = i;
		for (j = 0; j < i && group[i] == i; j++) {
			tnorm_template_info cj;
			tnorm_harness_check(h, j, &cj);
			if (!strcmp(ci.name, cj.name) || (ri >= 0 && handler_row(hooks, cj.name) == ri))
				group[i] = group[j];
		}
	}
	for (i = 0; i < nc && err == 0; i++) {
		uint32_t n = 0;
		for (j = 0; j < nc; j++)
			n += group[j] == i;
		if (n < 2)
			continue;
		err = tnorm__buf_printf(&b, "warning: checks");
		for (j = 0, n = 0; j < nc && err == 0; j++) {
			tnorm_template_info cj;
			if (group[j] != i)
				continue;
			tnorm_harness_check(h, j, &cj);
			err = tnorm__buf_printf(&b, "%s %s (%s:%u)", n++ ? "," : "", cj.name,
			                        tnorm_harness_name(h), cj.line);
		}
		if (err == 0)
			err = tnorm__buf_printf(&b, " run one function in the driver: a failure inside it "
			                            "(an assert, a fail() helper) has the same signature for "
			                            "each, so they cannot be told apart; give each check a "
			                            "name and a function of its own\n");
	}
	if (err == 0 && b.len && !(*out = tnorm__buf_detach(&b)))
		err = TNORM_ENOMEM;
done:
	tnorm__buf_dispose(&b);
	free(group);
	free(hooks);
	return err;
}

/* ---- the harness compiled into a driver (issue 32, item 1) -----------------------------------
 *
 * A tnorm driver prints the harness it was built with (`--print-harness`): the CLI asks it when
 * no --harness is given, as the debugger plugins do, so that a driver's tests are minimized as
 * steps rather than as bytes.  Only a file that names tnorm_drv_main is asked: any other program
 * could take the option for a file name. */

/* `program` as execvp finds it: itself when it holds a '/', else the first executable file of
 * that name in a folder of PATH.  NULL when there is none, or out of memory. */
static char *find_program(const char *program)
{
	const char *path = getenv("PATH"), *p, *end;
	tnorm__buf b = TNORM__BUF_INIT;
	if (strchr(program, '/'))
		return tnorm__strdup(program);
	for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		b.len = 0;
		if (tnorm__buf_printf(&b, "%.*s/%s", end == p ? 1 : (int)(end - p), end == p ? "." : p,
		                      program) < 0)
			break;
		if (access(b.ptr, X_OK) == 0)
			return tnorm__buf_detach(&b);
	}
	tnorm__buf_dispose(&b);
	return NULL;
}

/* 1 when the file's bytes are an ELF file that names tnorm_drv_main. */
static int names_driver_main(const char *text, size_t len)
{
	static const char drv[] = "tnorm_drv_main";
	return len > 4 && !memcmp(text, "\x7f" "ELF", 4) && memmem(text, len, drv, sizeof(drv) - 1);
}

int tnorm_driver_links_runtime(const char *program)
{
	char *path = NULL, *text = NULL;
	size_t len = 0;
	int driver = 0;
	if (!program || !(path = find_program(program)))
		return 0;
	if (tnorm__read_file(path, &text, &len) < 0)
		tnorm_error_clear();
	else
		driver = names_driver_main(text, len);
	free(text);
	free(path);
	return driver;
}

int tnorm_driver_harness(const char *program, char **out)
{
	enum { HARNESS_SIZE = 1 << 20 };
	extern char **environ;
	char *path = NULL, *text = NULL, *buf = NULL;
	size_t len = 0;
	int err = 0, driver;
	if (!program || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_driver_harness: NULL argument");
	*out = NULL;
	if (!(path = find_program(program)))
		return tnorm__error_set(TNORM_ENOTFOUND, "%s: no such program", program);
	if (tnorm__read_file(path, &text, &len) < 0) {
		err = tnorm__error_set(TNORM_ENOTFOUND, "%s: cannot read the program", program);
		goto done;
	}
	driver = names_driver_main(text, len);
	free(text);
	if (!driver) {
		err = tnorm__error_set(TNORM_ENOTFOUND, "%s is not a tnorm driver (it does not link "
		                       "the tnorm driver runtime)", program);
		goto done;
	}
	if (!(buf = tnorm__malloc(HARNESS_SIZE))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if (!tnorm__ask_program(path, "--print-harness", environ, buf, HARNESS_SIZE) || !buf[0] ||
	    strlen(buf) == HARNESS_SIZE - 1) {
		err = tnorm__error_set(TNORM_EINVALID, "'%s --print-harness' printed no harness (a "
		                       "driver built without one?)", program);
		goto done;
	}
	*out = buf;
	buf = NULL;
done:
	free(buf);
	free(path);
	return err;
}

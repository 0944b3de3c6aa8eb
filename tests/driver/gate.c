/* SPDX-License-Identifier: MIT */
/*
 * gate.c - a gate for the tests that interrupt or kill a running job (issue 28, item 13).
 *
 * Such a test must act while the job is still running, however fast or slow the machine is; a
 * sleep of a guessed length cannot promise that.  A driver linked with this file and with
 * `-Wl,--wrap=tnorm_test_load` passes through a gate before each run reads its test, and the
 * gate holds every run after the N-th: the run blocks until it is killed or the gate is opened,
 * so the job cannot end, and the test knows when that point is reached (a file appears).
 * Nothing here depends on time.
 *
 * The gate's state lives in the folder that holds the engine's run folders (the engine's
 * $TMPDIR; a run's working folder is $TMPDIR/tnorm-run-PID-XXXXXX):
 *   tnorm-gate        N, written by the test: the gate is closed after N runs (no file: open)
 *   tnorm-gate.count  one byte appended per run through the gate
 *   tnorm-gate.held   made by the first held run, so that the test can wait for it
 *   tnorm-gate.signal a signal number: each run sends it to its parent first (a hostile program,
 *                     issue 28 item 5: without the fork server the parent is the engine)
 *   tnorm-gate.sockets  "line" or "4": a hostile handler (issue 39, items 4 and 5) that writes
 *                     to every socket it finds among its descriptors: "line" writes a line
 *                     there at the first run and a line to standard error at the others, "4"
 *                     writes 4 bytes there at every run (tnorm-gate.scount counts the runs);
 *                     "forge" writes there, at every run, the message a persistent child sends
 *                     when its candidate passed ("TNPS", then CPU times: 32 bytes, and 40 with
 *                     a guessed request number), then runs the test on (issue 39, item 5)
 * Runs outside a run folder (the debugger's own `run`, a driver started by hand) never stop.
 * Removing tnorm-gate opens the gate: the held runs go on, and so do the runs after them.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tnorm/test.h"

int __real_tnorm_test_load(tnorm_test **out, const tnorm_harness *h, const char *path);
int __wrap_tnorm_test_load(tnorm_test **out, const tnorm_harness *h, const char *path);

static int in_run_folder(void)
{
	char cwd[PATH_MAX];
	const char *base;
	if (!getcwd(cwd, sizeof(cwd)) || !(base = strrchr(cwd, '/')))
		return 0;
	return strncmp(base + 1, "tnorm-run-", 10) == 0;
}

/* Write `what` to every socket among this process's descriptors. */
static void to_sockets(const char *what)
{
	struct stat st;
	int fd;
	for (fd = 3; fd < 1024; fd++)
		if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) && write(fd, what, strlen(what)) < 0)
			continue;
}

/* The persistent child's "my candidate passed" (core/preload/fs_server.c), forged: without the
 * request's number, and with guesses of it. */
static void forge_pass(void)
{
	int64_t msg[5] = {0, 1000, 1000, 1, 0};
	struct stat st;
	int fd;
	memcpy(msg, "TNPS\0\0\0\0", 8);
	for (fd = 3; fd < 1024; fd++) {
		if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
			continue;
		if (send(fd, msg, 4 * sizeof(int64_t), MSG_NOSIGNAL | MSG_DONTWAIT) < 0 ||
		    send(fd, msg, sizeof(msg), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
			continue;
		msg[4] = 1;
		if (send(fd, msg, sizeof(msg), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
			continue;
	}
}

/* What the other hostile modes do to every socket among the descriptors (issue 39, item 4):
 * "close" closes them, "dupnull" puts /dev/null in their place, "ownsock" one end of a socket
 * pair of the candidate's own (what the runtime says there goes nowhere, and it waits for an
 * answer that never comes), "garbage" sends a thousand messages of every length, "recv" reads
 * what comes there (it steals the engine's requests) from a child in a session of its own,
 * "forksleep" leaves such a child that holds them and sleeps, "vfork" leaves a vfork child that
 * sleeps (the candidate waits in vfork), "stopchild" a child that stops itself. */
static void hostile_other(const char *mode)
{
	static char big[4096];
	struct stat st;
	int fd, i, sp[2] = {-1, -1}, null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (!strcmp(mode, "ownsock") && socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp) < 0)
		return;
	if (!strcmp(mode, "vfork")) {
		if (vfork() == 0) {
			for (;;)
				pause();
		}
		return;
	}
	if (!strcmp(mode, "forksleep") || !strcmp(mode, "recv") || !strcmp(mode, "stopchild")) {
		pid_t p = fork();
		if (p != 0)
			return;
		setsid();
		for (;;) {
			if (!strcmp(mode, "stopchild"))
				raise(SIGSTOP);
			else if (!strcmp(mode, "recv")) {
				for (fd = 3; fd < 1024; fd++)
					if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) &&
					    recv(fd, big, sizeof(big), MSG_DONTWAIT) < 0)
						continue;
			} else
				pause();
			usleep(1000);
		}
	}
	for (fd = 3; fd < 1024; fd++) {
		if (fd == null || fd == sp[0] || fd == sp[1] || fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
			continue;
		if (!strcmp(mode, "close"))
			close(fd);
		else if (!strcmp(mode, "dupnull") && null >= 0)
			dup2(null, fd);
		else if (!strcmp(mode, "ownsock"))
			dup2(sp[0], fd);
		else if (!strcmp(mode, "garbage"))
			for (i = 0; i < 1000; i++)
				if (send(fd, big, (size_t)(i * 7) % sizeof(big), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
					break;
	}
	if (null >= 0)
		close(null);
}

static void hostile_sockets(void)
{
	char mode[16] = "";
	struct stat st;
	FILE *f;
	int fd;
	if (!(f = fopen("../tnorm-gate.sockets", "r")))
		return;
	if (!fgets(mode, sizeof(mode), f))
		mode[0] = '\0';
	fclose(f);
	mode[strcspn(mode, "\n")] = '\0';
	fd = open("../tnorm-gate.scount", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "r", 1) != 1 || fstat(fd, &st) < 0)
		st.st_size = 0;
	if (fd >= 0)
		close(fd);
	if (!strcmp(mode, "4"))
		to_sockets("abcd");
	else if (!strcmp(mode, "forge"))
		forge_pass();
	else if (!strcmp(mode, "line") && st.st_size == 1)
		to_sockets("a line\n");
	else if (!strcmp(mode, "line"))
		fprintf(stderr, "a line\n");
	else
		hostile_other(mode);
}

static void gate(void)
{
	FILE *f;
	struct stat st;
	long limit = -1;
	int fd;

	if (!in_run_folder())
		return;
	hostile_sockets();
	if ((f = fopen("../tnorm-gate.signal", "r"))) {
		int sig = 0;
		if (fscanf(f, "%d", &sig) == 1 && sig > 0)
			kill(getppid(), sig);
		fclose(f);
	}
	if (!(f = fopen("../tnorm-gate", "r")))
		return;
	if (fscanf(f, "%ld", &limit) != 1)
		limit = -1;
	fclose(f);
	if (limit < 0)
		return;
	fd = open("../tnorm-gate.count", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, "r", 1) != 1 || fstat(fd, &st) < 0) {
		close(fd);
		return;
	}
	close(fd);
	if (st.st_size <= limit)
		return;
	fd = open("../tnorm-gate.held", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	/* until the engine kills this run, or the test opens the gate (it looks every 20 ms) */
	while (access("../tnorm-gate", F_OK) == 0) {
		struct timespec ts = {0, 20000000L};
		nanosleep(&ts, NULL);
	}
}

/* TNORM_GATE_ASK=linger: asked about itself (--print-hooks, --print-harness), the driver closes
 * its standard output and sleeps instead of exiting (issue 39, item 4: tnorm waited for its end
 * for good). */
__attribute__((constructor)) static void gate_ask(void)
{
	char args[4096];
	const char *env = getenv("TNORM_GATE_ASK");
	ssize_t n, i;
	int fd;
	if (!env || strcmp(env, "linger") || (fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)) < 0)
		return;
	n = read(fd, args, sizeof(args) - 1);
	close(fd);
	for (i = 0; i < n; i += (ssize_t)strlen(args + i) + 1) {
		args[n] = '\0';
		if (!strncmp(args + i, "--print-", 8)) {
			close(1);
			for (;;)
				pause();
		}
	}
}

int __wrap_tnorm_test_load(tnorm_test **out, const tnorm_harness *h, const char *path)
{
	gate();
	return __real_tnorm_test_load(out, h, path);
}

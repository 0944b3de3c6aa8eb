/* SPDX-License-Identifier: MIT */
/*
 * staller.c - a program under test that tries to make tnorm wait for good (issue 39, item 4;
 * tests/integration/hostile.sh).  Each line of its input names a way; "boom" aborts.
 *
 *   HELLO  a child of the program, in a session of its own (out of reach of the kill of the
 *          program's group), says the fork server's hello ("TNFS1") on the control socket it
 *          inherited (TNORM_FORK_SERVER), stops itself, and again, a thousand times, never
 *          reading tnorm's answers ('N', "you are not my server"): they fill the socket, and a
 *          tnorm that answers with a blocking send waits there for good, with the run's program
 *          stopped, its timeout and Ctrl-C unheard.
 *   SERVER the program itself says the fork server's hello ("TNFS2") and stops itself, as a
 *          driver does, then never forks a child for tnorm's request: sleeps.  tnorm waited for
 *          that child without looking at Ctrl-C (and for good without a timeout).
 *   HANG   sleeps.
 * Each run first writes its process ID to ../tnorm-staller.pid, then appends a byte to
 * ../tnorm-staller.started (beside its run folder): the test waits for that file, the condition
 * "the program is running", before it sends Ctrl-C (or freezes the program: hostile.sh).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void started(void)
{
	char pid[32];
	int fd = open("../tnorm-staller.pid", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), n;
	/* (its process ID first: a test that freezes the program reads it once "started" is there) */
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (fd >= 0) {
		if (write(fd, pid, (size_t)n) < 0)
			perror("staller");
		close(fd);
	}
	fd = open("../tnorm-staller.started", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, "s", 1) < 0)
			perror("staller");
		close(fd);
	}
}

static void stall(const char *how, int ctl)
{
	pid_t p = fork();
	int i;
	if (p != 0) {
		if (p > 0)
			pause(); /* the program waits too: the run ends at its timeout */
		return;
	}
	setsid();
	for (i = 0; i < 1000; i++) {
		if (!strcmp(how, "HELLO")) {
			if (ctl < 0 || send(ctl, "TNFS1", 5, MSG_NOSIGNAL) != 5)
				break;
			raise(SIGSTOP);
		}
	}
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	char line[256];
	const char *env = getenv("TNORM_FORK_SERVER");
	int ctl = env ? atoi(env) : -1;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 2;
	started();
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "boom"))
			abort();
		if (!strcmp(line, "SERVER") && ctl >= 0 && send(ctl, "TNFS2", 5, MSG_NOSIGNAL) == 5) {
			raise(SIGSTOP);
			for (;;)
				pause();
		}
		if (!strcmp(line, "HELLO") || !strcmp(line, "HANG"))
			stall(line, ctl);
	}
	fclose(f);
	return 0;
}

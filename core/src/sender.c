/* SPDX-License-Identifier: MIT */
/*
 * sender.c - who sent a signal: the user, or a program under test (issue 28, item 5).
 *
 * A program under test may signal its parent (a daemon's "ready" SIGUSR1, kill(getppid(),
 * SIGTERM)); without the fork server that parent is tnorm, or the debugger that hosts the
 * plugins.  The front ends that take signals ask tnorm_signal_from_below() whether the sender
 * descends from them, and ignore it if so.  Its line of parents is read from /proc/PID/stat with
 * open, read and close only, so that a signal handler may call it; nothing here allocates, locks
 * or formats with stdio.
 */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "tnorm/runner.h"

/* The parent of `pid` read from /proc/PID/stat ("PID (COMM) STATE PPID ..."), or -1 when there
 * is no such process (or its line cannot be read). */
static long parent_of(long pid)
{
	char path[64], buf[512];
	char *p, *end;
	long n = 0, ppid = 0;
	int fd, i;
	ssize_t got;

	/* "/proc/" + digits + "/stat", by hand: snprintf is not async-signal-safe. */
	{
		char digits[24];
		long v = pid;
		do {
			digits[n++] = (char)('0' + v % 10);
			v /= 10;
		} while (v && n < (long)sizeof(digits));
		memcpy(path, "/proc/", 6);
		for (i = 0; i < n; i++)
			path[6 + i] = digits[n - 1 - i];
		memcpy(path + 6 + n, "/stat", 6);
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	/* The command name may hold spaces and parentheses: the state follows the last ')'. */
	if (!(p = strrchr(buf, ')')) || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	for (end = p + 4; *end >= '0' && *end <= '9'; end++)
		ppid = ppid * 10 + (*end - '0');
	return end == p + 4 ? -1 : ppid;
}

int tnorm_signal_from_below(int code, long pid)
{
	long self = (long)getpid(), up;
	int depth;
	if ((code != SI_USER && code != SI_QUEUE && code != SI_TKILL) || pid <= 0 || pid == self)
		return 0;
	/* A sender already reaped: a run's program that signalled and exited before the handler ran
	 * (the runner reaps it on another thread).  The user's senders (a shell's kill, timeout, a
	 * supervisor) outlive their signal. */
	if ((up = parent_of(pid)) < 0)
		return 1;
	for (depth = 0; up > 1 && depth < 64; depth++) {
		if (up == self)
			return 1;
		up = parent_of(up);
	}
	return 0;
}

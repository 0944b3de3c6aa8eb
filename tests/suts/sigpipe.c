/* SPDX-License-Identifier: MIT */
/*
 * sigpipe: writes to a pipe nobody reads.  With no argument SIGPIPE is left at its default and
 * kills the program in write_all; with "ignore" it is ignored, write fails with EPIPE, and the
 * program exits 0.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int __attribute__((noinline)) write_all(int fd)
{
	return (int)write(fd, "x", 1); /* PIPE_LINE */
}

int main(int argc, char **argv)
{
	int p[2];
	if (argc > 1 && !strcmp(argv[1], "ignore"))
		signal(SIGPIPE, SIG_IGN);
	if (pipe(p) < 0)
		return 2;
	close(p[0]);
	write_all(p[1]);
	return 0;
}

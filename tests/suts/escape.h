/* SPDX-License-Identifier: MIT */
/*
 * escape.h - for the escaper SUTs (escaper.c, escaper_driver.c): start a process that leaves the
 * program's process group and would outlive the run, the way daemons do.  Its pid is appended to
 * the file $ESCAPER_PIDS (one a line) before escape() returns, so a test can look for survivors.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* daemon 0: a child that calls setsid() (keeping the run's standard streams); 1: the double-fork
 * daemon (setsid, fork again, the middle process exits, standard streams on /dev/null).  Either
 * sleeps 60 s.  Returns once the escaped process has written its pid. */
static void escape(int daemon)
{
	const char *path = getenv("ESCAPER_PIDS");
	int sync[2];
	char c;
	if (pipe(sync) < 0)
		_exit(120);
	if (fork() == 0) {
		close(sync[0]);
		setsid();
		if (daemon) {
			int fd = open("/dev/null", O_RDWR);
			if (fork() != 0)
				_exit(0);
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (path) {
			char line[32];
			int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644), n;
			n = snprintf(line, sizeof(line), "%d\n", (int)getpid());
			if (fd < 0 || write(fd, line, (size_t)n) != n)
				_exit(121);
			close(fd);
		}
		close(sync[1]); /* the parent goes on */
		sleep(60);
		_exit(0);
	}
	close(sync[1]);
	while (read(sync[0], &c, 1) > 0)
		;
	close(sync[0]);
}

/* SPDX-License-Identifier: MIT */
/*
 * fs_server.c - the fork server's loop, compiled into the driver runtime and into the preload
 * library (fs_server.h), so that both serve the engine exactly alike.
 *
 * The protocol (core/src/forkserver.c has the engine's side): the engine starts the program with
 * one end of a SOCK_SEQPACKET pair named in TNORM_FORK_SERVER=FD.  The server says hello
 * ("TNFS1") and stops itself with SIGSTOP, so that the engine, which traces it, follows its forks
 * from then on.  Then for each request ('R' with three descriptors, SCM_RIGHTS) it forks a child,
 * which puts the descriptors in place as its standard streams, takes its own process group and
 * returns to the caller to carry on as the program started afresh would; the server waits for
 * the child and takes the next request, and exits when the engine closes the socket.  'N' says
 * the engine does not want this process as a server (a program it started exec'd or started
 * it): the caller goes on as a plain run.
 *
 * Persistent mode (driver runtime only: tnorm__fs_serve_persistent(1)).  A request 'P' is an 'R' whose child
 * may run more candidates: it keeps the control socket, and when its candidate passed the driver
 * calls tnorm__fs_persist(), which checks that the candidate left no process or thread running
 * (else the child exits as one that may not persist: candidate_alone), puts /dev/null in place of
 * the run's streams (so the engine reads them to their end) and says "TNPS" with the candidate's
 * CPU time on the socket: the engine reads that as the run's exit 0.  The child then waits on the
 * socket for its next candidate: 'C' (run it, and persist again after a pass) or 'L' (run it,
 * then exit: its last).  A request is the letter and '+'; without the '+' (an engine from before,
 * which took the report at a stop) the child stops itself (SIGSTOP) after "TNPS".  The server
 * sleeps in waitpid meanwhile, so the child is the socket's only reader; a 'C' or 'L' that
 * reaches the server instead (the child died before it read it) makes the server exit without a
 * child, and the engine starts a new one (the path of any server that dies before it forks).  A server started with tnorm__fs_serve() (the
 * preload library) or by a driver that opted out takes 'P' for 'R'.
 *
 * A child's parent is the server, where a program started afresh has tnorm: so each child
 * installs the engine's own seccomp filter (core/src/shield.c) for the server's process and
 * group, on top of the engine's, and a signal it sends its parent is refused as it would be in
 * a run afresh, instead of killing or stopping the server.
 *
 * Nothing here allocates (no stdio, no malloc): the preload library runs this before `main`, and
 * a child must find the heap as a fresh process would (an ASan build's quarantine included).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fs_server.h"
#include "shield.h"

/* 1 when a debugger or the engine traces this process (TracerPid in /proc/self/status). */
static int traced(void)
{
	char buf[4096], *p;
	ssize_t n;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (!(p = strstr(buf, "\nTracerPid:")))
		return 0;
	return strtol(p + 11, NULL, 10) != 0;
}

/* In a child that may persist: the control socket (else -1), whether it may persist after its
 * candidate, and its CPU time (user, system; microseconds) when that candidate started. */
static int fs_ctl = -1, fs_may_persist;
static pid_t fs_pid; /* that child (a process its candidate forked is not it) */
/* The engine's last request came with '+': it reads "TNPS" itself, and the child does not stop
 * after it (an engine before that took the report at a SIGSTOP, and sends one byte). */
static int fs_nostop;
static int64_t fs_cpu0[2];
/* The number that came with the last request: the child's "TNPS" echoes it, so that a message a
 * candidate writes to the socket (it can find the descriptor) is not taken for the runtime's
 * (issue 39, item 5).  The candidate is never told it. */
static uint64_t fs_nonce;

/* The engine's next message: 'R', 'P', 'C' or 'L' with three descriptors (a run's standard
 * streams), 'N' (no server: run as usual), or 0 when the socket is closed. */
static char next_request(int ctl, int *fds)
{
	char req[10] = {0, 0}, byte, cbuf[CMSG_SPACE(3 * sizeof(int))];
	struct iovec iov = {req, sizeof(req)};
	ssize_t n;
	struct msghdr msg;
	struct cmsghdr *c;
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	if ((n = recvmsg(ctl, &msg, MSG_CMSG_CLOEXEC)) <= 0)
		return 0;
	byte = req[0];
	fs_nostop = n >= 2 && req[1] == '+';
	fs_nonce = 0;
	if (n == (ssize_t)sizeof(req))
		memcpy(&fs_nonce, req + 2, sizeof(fs_nonce));
	if (byte != 'R' && byte != 'P' && byte != 'C' && byte != 'L')
		return byte;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(3 * sizeof(int)))
		_exit(125);
	memcpy(fds, CMSG_DATA(c), 3 * sizeof(int));
	return byte;
}

/* This process's CPU time, and its reaped children's, in microseconds: user, system. */
static void cpu_now(int64_t *out)
{
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	out[0] = ((int64_t)self.ru_utime.tv_sec + kids.ru_utime.tv_sec) * 1000000 +
	         self.ru_utime.tv_usec + kids.ru_utime.tv_usec;
	out[1] = ((int64_t)self.ru_stime.tv_sec + kids.ru_stime.tv_sec) * 1000000 +
	         self.ru_stime.tv_usec + kids.ru_stime.tv_usec;
}

/* In a child: the request's descriptors become its standard streams. */
static void take_streams(int *fds)
{
	int i;
	for (i = 0; i < 3; i++) {
		dup2(fds[i], i);
		close(fds[i]);
	}
}

/* The decimal digits of `v` (> 0) at `out`, NUL-terminated: no stdio here. */
static size_t put_uint(char *out, unsigned long v)
{
	char tmp[24];
	size_t n = 0, i;
	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < sizeof(tmp));
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
	return n;
}

/* 1 when thread `name` (a /proc/self/task entry) has ended: a zombie (or dead) waiting for the
 * tracer to reap it, or already gone.  Its stops are behind it: the tracer resumed its exit
 * stop before it could become a zombie, and its reap changes no run's result. */
static int thread_ended(const char *name)
{
	char path[64] = "/proc/self/task/", buf[512], *p;
	size_t n = strlen(path), k = strlen(name);
	ssize_t got;
	int fd;
	if (k > 24)
		return 0;
	memcpy(path + n, name, k);
	memcpy(path + n + k, "/stat", 6);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	if (!(p = strrchr(buf, ')')) || p[1] != ' ')
		return 0;
	return p[2] == 'Z' || p[2] == 'X' || p[2] == 'x';
}

/*
 * 1 when the candidate left nothing running that could outlive it: no child process (those that
 * ended are reaped here; the child is its descendants' subreaper, so an orphan of theirs is a
 * child of ours) and no thread but this one.  Otherwise the child does not persist: it exits as
 * a child that may not persist does, and the tracer kills what is left, as after any exit.
 */
static int candidate_alone(void)
{
	char buf[2048], self[24];
	int st, fd, alone = 1;
	long got;
	pid_t p;
	while ((p = waitpid(-1, &st, WNOHANG | __WALL)) > 0)
		;
	if (p == 0 || errno != ECHILD)
		return 0; /* a child process still running (or one the tracer has not reaped yet) */
	put_uint(self, (unsigned long)getpid()); /* the candidate runs in the child's only thread */
	if ((fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return 0;
	while (alone && (got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;
		while (off < got) {
			struct linux_dirent64 {
				uint64_t d_ino;
				int64_t d_off;
				unsigned short d_reclen;
				unsigned char d_type;
				char d_name[];
			} *e = (struct linux_dirent64 *)(void *)(buf + off);
			if (e->d_name[0] != '.' && strcmp(e->d_name, self) && !thread_ended(e->d_name)) {
				alone = 0;
				break;
			}
			off += e->d_reclen;
		}
	}
	if (got < 0)
		alone = 0;
	close(fd);
	return alone;
}

int tnorm__fs_persist(void)
{
	int64_t msg[5], now[2];
	int fds[3] = {-1, -1, -1}, null;
	char what;
	if (fs_ctl < 0 || !fs_may_persist || getpid() != fs_pid)
		return 0;
	fflush(stdout);
	fflush(stderr);
	if (!candidate_alone())
		return 0; /* it ends as a run afresh would: the tracer kills what the candidate left */
	cpu_now(now);
	memcpy(msg, "TNPS\0\0\0\0", 8);
	msg[1] = now[0] - fs_cpu0[0];
	msg[2] = now[1] - fs_cpu0[1];
	msg[3] = fs_nostop; /* (1: no SIGSTOP follows) */
	msg[4] = (int64_t)fs_nonce;
	/* The run's streams go first: the engine reads its pipes to their end. */
	if ((null = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		return 0;
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	close(null);
	if (send(fs_ctl, msg, sizeof(msg), MSG_NOSIGNAL) != (ssize_t)sizeof(msg))
		_exit(0); /* the engine is gone; the candidate's pass was not heard: it runs again */
	/* The engine reads the message as the run's exit 0; we wait for the next candidate.  An
	 * engine that did not say '+' reads it at a stop of ours, and resumes us. */
	if (!fs_nostop)
		raise(SIGSTOP);
	what = next_request(fs_ctl, fds);
	if (what != 'C' && what != 'L')
		_exit(0); /* the engine is done with us */
	fs_may_persist = what == 'C';
	take_streams(fds);
	clearerr(stdin);
	cpu_now(fs_cpu0);
	return 1;
}

int tnorm__fs_serve(void)
{
	return tnorm__fs_serve_persistent(0);
}

int tnorm__fs_serve_persistent(int persistent)
{
	const char *env = getenv("TNORM_FORK_SERVER");
	char *end = NULL;
	long ctl = env ? strtol(env, &end, 10) : -1;
	tnorm__shield shield;
	int devnull, quiet = 0;
	unsetenv("TNORM_FORK_SERVER"); /* not for the programs the run may start */
	if (!env || !end || *end || ctl < 3 || fcntl((int)ctl, F_GETFD) < 0 || !traced())
		return 0;
	fflush(stdout);
	fflush(stderr);
	/* "TNFS2": this runtime echoes each request's number in its "TNPS" ("TNFS1" did not) */
	if (send((int)ctl, "TNFS2", 5, 0) != 5)
		_exit(125);
	raise(SIGSTOP); /* the engine follows our forks from here on, or says no */
	if ((devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		_exit(125);
	tnorm__shield_init(&shield, getpid(), getpgrp(), 0);
	for (;;) {
		int fds[3] = {-1, -1, -1}, i, st;
		char what = next_request((int)ctl, fds);
		pid_t pid;
		if (what == 'N' && !quiet) {
			close((int)ctl);
			close(devnull);
			return 0;
		}
		if (what == 'C' || what == 'L')
			_exit(125); /* for a persistent child that died before it read it: restart us */
		if (what != 'R' && what != 'P')
			_exit(0); /* the engine is done with us */
		pid = fork();
		if (pid == 0) {
			setpgid(0, 0);
			tnorm__shield_apply(&shield); /* (without seccomp: as the engine, no shield) */
			close(devnull);
			if (persistent && what == 'P') {
				/* Orphans of what a candidate starts become ours: candidate_alone sees them. */
				prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
				fs_ctl = (int)ctl;
				fs_may_persist = 1;
				fs_pid = getpid();
				fcntl(fs_ctl, F_SETFD, FD_CLOEXEC); /* not for what the candidate execs */
			} else {
				close((int)ctl);
			}
			take_streams(fds);
			return 1;
		}
		if (pid < 0)
			_exit(125); /* the engine sees the server gone without a child, and restarts it */
		for (i = 0; i < 3; i++) {
			if (!quiet)
				dup2(devnull, i); /* the first run's streams are the child's alone */
			close(fds[i]);
		}
		quiet = 1;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
}

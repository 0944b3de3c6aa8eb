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
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runner_internal.h"

/* A would-be fork server stopped itself: did it say hello on the control socket first? */
int tnorm__forkserver_hello(int ctl)
{
	char buf[8];
	return ctl >= 0 && recv(ctl, buf, sizeof(buf), MSG_DONTWAIT) == 5 && !memcmp(buf, "TNFS1", 5);
}

/* Tell a driver that offered to serve (the program started or exec'd it) that it is not ours. */
void tnorm__forkserver_refuse(int ctl)
{
	send(ctl, "N", 1, MSG_NOSIGNAL);
}

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
	server = tnorm__tracer_server(t);
	if (server && r->ctl >= 0 && r->fs_gen == r->folder_gen)
		return TNORM__RUN_SERVED;
	tnorm__tracer_stop_server(t);
	return TNORM__RUN_SPAWN;
}

/* Ask the fork server for a child with these standard streams.  -1 when the server is gone. */
int tnorm__forkserver_request(int ctl, const int *fds)
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

/* The program's environment with TNORM_FORK_SERVER=FD added (NULL-terminated; tnorm__strv_free). */
char **tnorm__forkserver_env(const tnorm_runner *r, int fd)
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
	tnorm__strv_free(envp);
	return NULL;
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

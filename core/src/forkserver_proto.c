/* SPDX-License-Identifier: MIT */
/*
 * forkserver_proto.c - the fork server's control socket, the engine's side: the messages, and
 * nothing of the runner's state (core/preload/fs_server.c has the server's side).
 *
 * The socket is a SOCK_SEQPACKET pair: one datagram per message.  A driver says hello ("TNFS1",
 * or "TNFS2" from a runtime that echoes request numbers) before it stops itself; a driver that
 * is not the program the runner started is refused ('N').  Each run asks for a child with one
 * request: its byte ('R' a fresh child, 'P' one that may persist, 'C' and 'L' the persistent
 * child's next and last candidates), '+', and a random request number, carrying the run's
 * standard streams (SCM_RIGHTS).  A persistent child says "TNPS" with its candidate's CPU time
 * and the request's number after a candidate that passed.  Every send and receive here is
 * without waiting: a server or a candidate that does not read, or writes without end, must not
 * hold the engine past a run's timeout (issue 39, item 4).
 *
 * Below forkserver.c (which way a run starts, what a server's death means) and the tracer
 * (tracer.c reads the hello and refuses strangers; runner_wait.c sends the first request and
 * reads "TNPS"), so that those call down to it and not each other (issue 42, item 3).
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runner_internal.h"

/* A would-be fork server stopped itself: did it say hello on the control socket first? */
int tnorm__forkserver_hello(int ctl)
{
	char buf[8];
	if (ctl < 0 || recv(ctl, buf, sizeof(buf), MSG_DONTWAIT) != 5 || memcmp(buf, "TNFS", 4))
		return 0;
	return buf[4] == '1' ? 1 : buf[4] == '2' ? 2 : 0;
}

/* Tell a driver that offered to serve (the program started or exec'd it) that it is not ours.
 * Without waiting: a program that says hello again and again and never reads the answers fills
 * the socket, and a blocking send would hold the tracer thread there for good, with the run's
 * timeout and Ctrl-C unheard (issue 39, item 4).  An answer that does not fit is dropped: such a
 * driver waits for it until its run is killed. */
void tnorm__forkserver_refuse(int ctl)
{
	send(ctl, "N", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

int tnorm__forkserver_persisted(int ctl, uint64_t nonce, struct rusage *ru)
{
	int64_t msg[5];
	ssize_t n;
	unsigned dropped = 0;
	if (ctl < 0)
		return -1;
	/* Anything else on the socket is not the runtime's (a candidate that wrote to the
	 * descriptors it found, issue 39 items 4 and 5; a "TNPS" without the run's request number
	 * is forged): dropped, and the socket kept.  At most 256 at a time: a candidate that
	 * writes without end does not hold the caller here past the run's timeout. */
	while ((n = recv(ctl, msg, sizeof(msg), MSG_DONTWAIT | MSG_TRUNC)) != (ssize_t)sizeof(msg) ||
	       memcmp(msg, "TNPS", 4) || (uint64_t)msg[4] != nonce) {
		struct pollfd p = {ctl, POLLIN, 0};
		if (n < 0 && errno != EINTR)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
		/* 0: the other ends are closed, or an empty message (dropped as the others are) */
		if (n == 0 && poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR)))
			return -1;
		if (++dropped >= 256)
			return 0;
	}
	memset(ru, 0, sizeof(*ru));
	ru->ru_utime.tv_sec = (time_t)(msg[1] / 1000000);
	ru->ru_utime.tv_usec = (suseconds_t)(msg[1] % 1000000);
	ru->ru_stime.tv_sec = (time_t)(msg[2] / 1000000);
	ru->ru_stime.tv_usec = (suseconds_t)(msg[2] % 1000000);
	return 1;
}

/* A request number no other process can know: the kernel's random bytes (the clock and the
 * previous number mixed, should those be unavailable). */
static uint64_t new_nonce(uint64_t prev)
{
	uint64_t v = 0;
	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v)) {
		v = prev ^ ((uint64_t)(tnorm__now() * 1e9) * 0x9E3779B97F4A7C15ull);
		v ^= v >> 29;
	}
	return v;
}

/* Ask the fork server for a child with these standard streams.  -1 when the server is gone. */
int tnorm__forkserver_request(int ctl, const int *fds, char what, uint64_t *nonce)
{
	/* '+': the child reads this as "the engine takes your TNPS from the socket, do not stop"
	 * (a runtime before that reads the first byte only, and stops).  Then the request's number,
	 * which the child's "TNPS" echoes (a runtime before that ignores it: a longer datagram's
	 * excess is dropped). */
	char req[10] = {what, '+'}, cbuf[CMSG_SPACE(3 * sizeof(int))];
	struct iovec iov = {req, sizeof(req)};
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
	/* Without waiting (issue 39, item 4): the server reads each request before the next is
	 * sent, so a full socket means a server (or a candidate that kept the socket) that does
	 * not read: the caller kills the server, as when it is gone. */
	*nonce = new_nonce(*nonce);
	memcpy(req + 2, nonce, sizeof(*nonce));
	return sendmsg(ctl, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)sizeof(req) ? 0 : -1;
}

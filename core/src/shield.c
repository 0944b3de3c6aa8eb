/* SPDX-License-Identifier: MIT */
/*
 * shield.c - the programs under test cannot signal, stop or trace the engine (issue 28, item 5;
 * issue 39, item 3).
 *
 * Without the fork server a program under test is the engine's child (or the debugger's, for
 * the plugins), and some signal their parent: a daemon's "ready" SIGUSR1, kill(getppid(),
 * SIGTERM), or SIGSTOP, which no handler can catch and which would stop the engine for good.
 * A hostile one has more ways in: any thread's ID of the engine (TracerPid in its
 * /proc/self/status) names the whole engine to kill(), SIGIO goes to the owner a descriptor
 * names (fcntl F_SETOWN), a pidfd or a /proc/PID folder takes pidfd_send_signal, a process that
 * joins the engine's process group is hit by kill(0, ...), and ptrace, process_vm_writev and
 * /proc/PID/mem reach its memory.  Three layers close them:
 *
 * - A seccomp filter, installed once on the tracer thread (tracer.c) and so inherited by every
 *   program it starts and everything those start.  It refuses with EPERM, without asking
 *   anyone: the kill family (kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo) and
 *   pidfd_open aimed at the engine's process, its process group or every process (-1);
 *   F_SETOWN to the engine or its group; F_SETOWN_EX, FIOSETOWN and SIOCSPGRP (owners given
 *   through memory, which the filter cannot read and which another thread could change after
 *   a check: F_SETOWN does the same with a value); setpgid into the engine's process group;
 *   and seccomp's own user notification (SECCOMP_FILTER_FLAG_NEW_LISTENER), with which a
 *   program could answer for the calls below before the engine does.
 * - The calls whose target the filter cannot judge alone (a positive process or thread ID for
 *   the kill family, pidfd_open and F_SETOWN, any pidfd_send_signal) go to the engine as a
 *   seccomp user notification: a thread of the tracer's (tnorm__shield_serve) looks the target
 *   up (a thread of the engine: /proc/ENGINE/task/ID) and lets the call go on or refuses it.
 *   pidfd_send_signal is made by that thread itself on a copy of the program's descriptor
 *   (pidfd_getfd), so that the descriptor it checked is the one used.  The cost is one round
 *   trip to that thread per such call, none per run.
 * - The engine's memory: the tracer thread makes the process not dumpable (PR_SET_DUMPABLE 0)
 *   and drops CAP_SYS_PTRACE from its own bounding, inheritable and ambient sets (not from its
 *   effective set: it still reads the tracees), so the programs it starts cannot ptrace the
 *   engine, write or read its memory (/proc/PID/mem, process_vm_writev) or open its
 *   descriptors (/proc/PID/fd), even as root.
 *
 * Installing a filter needs CAP_SYS_ADMIN or no_new_privs; without the first the child sets the
 * second (a setuid program under test then runs without its privileges).  A kernel without user
 * notification (before Linux 5.5) gets the filter without the second layer; one without seccomp
 * runs the programs unshielded, and the front ends' handlers (tnorm_signal_from_below) still
 * ignore what can be caught.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shield.h"

#if defined(__x86_64__)
#define SHIELD_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SHIELD_ARCH AUDIT_ARCH_AARCH64
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LOW(i) offsetof(struct seccomp_data, args[(i)])
#else
#define ARG_LOW(i) (offsetof(struct seccomp_data, args[(i)]) + 4)
#endif

#ifndef F_SETOWN_EX
#define F_SETOWN_EX 15
#endif

#define STMT(code, k) ((struct sock_filter)BPF_STMT((code), (k)))
#define JUMP(code, k, t, f) ((struct sock_filter)BPF_JUMP((code), (k), (t), (f)))

/* The filter's verdicts, as the last instructions of the program (jumps count back from its
 * end): refuse, let go, ask the engine. */
enum { V_ERRNO, V_ALLOW, V_ASK, NVERDICTS };

typedef struct {
	struct sock_filter *f;
	unsigned n, verdicts; /* verdicts: where the verdict block starts (set when it is known) */
} builder;

/* Instruction `n` jumps to verdict `v` if the comparison holds, else falls through. */
static void jeq(builder *b, unsigned k, int v)
{
	b->f[b->n] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, (unsigned char)v, 0); /* patched below */
	b->f[b->n].code |= 0x8000;                                             /* "to verdict" mark */
	b->n++;
}

static void ld(builder *b, unsigned off)
{
	b->f[b->n++] = STMT(BPF_LD | BPF_W | BPF_ABS, off);
}

static void ret(builder *b, int v)
{
	b->f[b->n] = JUMP(BPF_JMP | BPF_JA, (unsigned)v, 0, 0);
	b->f[b->n].code |= 0x8000;
	b->n++;
}

/* The target in argument `arg`: the engine, its group or everyone refused; 0 and other groups
 * let go (no process may join the engine's group: setpgid below); other IDs `positive`. */
static void target(builder *b, unsigned arg, pid_t engine, pid_t group, int positive)
{
	ld(b, ARG_LOW(arg));
	jeq(b, (unsigned)engine, V_ERRNO);
	jeq(b, (unsigned)-group, V_ERRNO);
	jeq(b, (unsigned)-1, V_ERRNO);
	jeq(b, 0, V_ALLOW);
	/* negative: another process group */
	b->f[b->n++] = JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x80000000U, 1, 0);
	ret(b, positive);
	ret(b, V_ALLOW);
}

void tnorm__shield_init(tnorm__shield *s, pid_t engine, pid_t group, int ask)
{
#ifdef SHIELD_ARCH
	/* The calls, each with the block that judges it (built in order below). */
	enum { C_KILL, C_TKILL, C_TGKILL, C_SIGQ, C_TGSIGQ, C_PIDFD_OPEN, C_PIDFD_SEND, C_FCNTL,
	       C_IOCTL, C_SETPGID, C_SECCOMP, NCALLS };
	static const long nrs[NCALLS] = {
		SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo,
#ifdef SYS_pidfd_open
		SYS_pidfd_open,
#else
		-1,
#endif
#ifdef SYS_pidfd_send_signal
		SYS_pidfd_send_signal,
#else
		-1,
#endif
		SYS_fcntl, SYS_ioctl, SYS_setpgid, SYS_seccomp,
	};
	unsigned start[NCALLS], i, j, dispatch;
	int pos = ask ? V_ASK : V_ALLOW; /* a target only the engine can judge */
	builder b;

	memset(s, 0, sizeof(*s));
	b.f = s->prog;
	b.n = 0;
	ld(&b, offsetof(struct seccomp_data, arch));
	b.f[b.n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SHIELD_ARCH, 1, 0);
	ret(&b, V_ALLOW); /* another ABI: not shielded */
	ld(&b, offsetof(struct seccomp_data, nr));
	dispatch = b.n;
	b.n += NCALLS; /* one test a call, filled in once the blocks' places are known */
	ret(&b, V_ALLOW);

	start[C_KILL] = b.n;
	target(&b, 0, engine, group, pos);
	start[C_TKILL] = b.n;
	ld(&b, ARG_LOW(0));
	jeq(&b, (unsigned)engine, V_ERRNO);
	ret(&b, pos);
	/* tgkill and rt_tgsigqueueinfo name the thread's process first: the engine, or not it */
	start[C_TGKILL] = start[C_TGSIGQ] = b.n;
	ld(&b, ARG_LOW(0));
	jeq(&b, (unsigned)engine, V_ERRNO);
	ret(&b, V_ALLOW);
	start[C_SIGQ] = start[C_KILL];
	start[C_PIDFD_OPEN] = start[C_TKILL];
	start[C_PIDFD_SEND] = b.n;
	ret(&b, pos);
	start[C_FCNTL] = b.n;
	ld(&b, ARG_LOW(1));
	jeq(&b, F_SETOWN_EX, V_ERRNO);
	b.f[b.n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETOWN, 1, 0);
	ret(&b, V_ALLOW);
	target(&b, 2, engine, group, pos);
	start[C_IOCTL] = b.n;
	ld(&b, ARG_LOW(1));
	jeq(&b, FIOSETOWN, V_ERRNO);
	jeq(&b, SIOCSPGRP, V_ERRNO);
	ret(&b, V_ALLOW);
	start[C_SETPGID] = b.n;
	ld(&b, ARG_LOW(1));
	jeq(&b, (unsigned)group, V_ERRNO);
	ret(&b, V_ALLOW);
	start[C_SECCOMP] = b.n;
	ld(&b, ARG_LOW(1));
	b.f[b.n++] = JUMP(BPF_JMP | BPF_JSET | BPF_K, SECCOMP_FILTER_FLAG_NEW_LISTENER, 0, 1);
	ret(&b, V_ERRNO);
	ret(&b, V_ALLOW);

	b.verdicts = b.n;
	b.f[b.n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
	b.f[b.n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	b.f[b.n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);

	for (i = 0; i < NCALLS; i++)
		b.f[dispatch + i] = nrs[i] < 0 ? JUMP(BPF_JMP | BPF_JA, 0, 0, 0)
		                               : JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nrs[i],
		                                      (unsigned char)(start[i] - (dispatch + i) - 1), 0);
	/* The marked jumps go to their verdict. */
	for (j = 0; j < b.verdicts; j++)
		if (b.f[j].code & 0x8000) {
			b.f[j].code &= 0x7fff;
			if (BPF_OP(b.f[j].code) == BPF_JA)
				b.f[j].k = b.verdicts + b.f[j].k - j - 1;
			else
				b.f[j].jt = (unsigned char)(b.verdicts + b.f[j].jt - j - 1);
		}
	s->len = (unsigned short)b.n;
	s->engine = engine;
	s->group = group;
	s->ask = ask;
#else
	(void)ask;
	memset(s, 0, sizeof(*s));
	s->engine = engine;
	s->group = group;
#endif
}

int tnorm__shield_apply(const tnorm__shield *s)
{
	struct sock_fprog prog;
	if (!s->len)
		return -1;
	prog.len = s->len;
	prog.filter = (struct sock_filter *)s->prog;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0)
		return 0;
	if (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* The engine's memory out of the programs' reach (see the essay): once, on the tracer thread. */
static void guard_memory(void)
{
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER, CAP_SYS_PTRACE, 0, 0);
	if (syscall(SYS_capget, &hdr, data) == 0 && (data[0].inheritable & (1U << CAP_SYS_PTRACE))) {
		data[0].inheritable &= ~(1U << CAP_SYS_PTRACE);
		syscall(SYS_capset, &hdr, data);
	}
}

int tnorm__shield_apply_asking(tnorm__shield *s)
{
	struct sock_fprog prog;
	long fd;
	guard_memory();
	if (!s->len)
		return -1;
	if (!s->ask)
		return tnorm__shield_apply(s);
	prog.len = s->len;
	prog.filter = s->prog;
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0 && errno == EACCES && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
		fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
		             &prog);
	if (fd >= 0)
		return (int)fd;
	/* No user notification here: the filter without its questions. */
	tnorm__shield_init(s, s->engine, s->group, 0);
	return tnorm__shield_apply(s) == 0 ? -2 : -1;
}

/* 1 when `id` is the engine's process or one of its threads. */
static int engine_task(const tnorm__shield *s, long id)
{
	char path[64];
	struct stat st;
	if (id == s->engine)
		return 1;
	if (id <= 0 || id > 0x7fffffff)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%ld", (int)s->engine, id);
	return stat(path, &st) == 0;
}

/* The number after "\nNAME" in file `path` (under folder descriptor `dir`); 0 when none. */
static long proc_field(int dir, const char *path, const char *name)
{
	char buf[4096], *p;
	ssize_t n;
	int f = openat(dir, path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return 0;
	n = read(f, buf, sizeof(buf) - 2);
	close(f);
	if (n <= 0)
		return 0;
	/* (a newline first, so that the first line is found as the others are) */
	memmove(buf + 1, buf, (size_t)n);
	buf[0] = '\n';
	buf[n + 1] = '\0';
	return (p = strstr(buf, name)) ? strtol(p + strlen(name), NULL, 10) : 0;
}

/* The process a pidfd or a /proc/PID folder (descriptor `fd`, ours) names; 0 when neither. */
static long fd_target(int fd)
{
	char path[64];
	long pid;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if ((pid = proc_field(AT_FDCWD, path, "\nPid:")) != 0)
		return pid;
	return proc_field(fd, "status", "\nPid:");
}

#if defined(SYS_pidfd_send_signal) && defined(SYS_pidfd_getfd)
/* A pidfd on the process of thread `tid` (whose descriptors are its process's), or -1. */
static int caller_pidfd(pid_t tid)
{
	char path[64];
	int fd = (int)syscall(SYS_pidfd_open, tid, 0);
	if (fd >= 0)
		return fd;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	return (int)syscall(SYS_pidfd_open, (pid_t)proc_field(AT_FDCWD, path, "\nTgid:"), 0);
}
#endif

/* Answer one question: let the call go on, refuse it, or (pidfd_send_signal) make it. */
static void judge(const tnorm__shield *s, const struct seccomp_notif *q, struct seccomp_notif_resp *a)
{
	long nr = q->data.nr, target = 0;
	int refuse = 0;
	a->id = q->id;
	a->val = 0;
	a->error = 0;
	a->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	if (nr == SYS_kill || nr == SYS_rt_sigqueueinfo || nr == SYS_tkill)
		refuse = engine_task(s, (int)q->data.args[0]);
#ifdef SYS_pidfd_open
	else if (nr == SYS_pidfd_open)
		refuse = engine_task(s, (int)q->data.args[0]);
#endif
	else if (nr == SYS_fcntl)
		refuse = engine_task(s, (int)q->data.args[2]);
#if defined(SYS_pidfd_send_signal) && defined(SYS_pidfd_getfd)
	else if (nr == SYS_pidfd_send_signal) {
		/* The descriptor is copied before it is judged, and the signal sent on the copy: the
		 * program cannot put another file under that number meanwhile. */
		int caller = caller_pidfd(q->pid), fd = -1;
		a->flags = 0;
		if (caller >= 0)
			fd = (int)syscall(SYS_pidfd_getfd, caller, (int)q->data.args[0], 0);
		if (fd < 0) {
			a->error = -EBADF;
		} else if ((target = fd_target(fd)) != 0 && engine_task(s, target)) {
			a->error = -EPERM;
		} else if (q->data.args[2]) {
			a->error = -EPERM; /* a siginfo of the program's: not sent on its behalf */
		} else if (syscall(SYS_pidfd_send_signal, fd, (int)q->data.args[1], NULL,
		                   (unsigned)q->data.args[3]) < 0) {
			a->error = -errno;
		}
		if (fd >= 0)
			close(fd);
		if (caller >= 0)
			close(caller);
		return;
	}
#endif
	if (refuse) {
		a->flags = 0;
		a->error = -EPERM;
	}
}

void tnorm__shield_serve(const tnorm__shield *s, int listener, int quit)
{
	/* The kernel's structs may be larger than ours (newer fields, zero for us). */
	union {
		struct seccomp_notif q;
		char pad[512];
	} qbuf;
	union {
		struct seccomp_notif_resp a;
		char pad[512];
	} abuf;
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *q = &qbuf.q;
	struct seccomp_notif_resp *a = &abuf.a;
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0 ||
	    sizes.seccomp_notif > sizeof(qbuf) || sizes.seccomp_notif_resp > sizeof(abuf))
		return;
	for (;;) {
		struct pollfd p[2] = {{listener, POLLIN, 0}, {quit, POLLIN, 0}};
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			break; /* no task has the filter any more */
		if (!(p[0].revents & POLLIN))
			continue;
		memset(&qbuf, 0, sizeof(qbuf));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, q) < 0)
			continue; /* (the caller is gone, or a signal interrupted its call) */
		memset(&abuf, 0, sizeof(abuf));
		judge(s, q, a);
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, a); /* (ENOENT: the caller is gone) */
	}
}

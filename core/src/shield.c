/* SPDX-License-Identifier: MIT */
/*
 * shield.c - the programs under test cannot signal the engine (issue 28, item 5).
 *
 * Without the fork server a program under test is the engine's child (or the debugger's, for
 * the plugins), and some signal their parent: a daemon's "ready" SIGUSR1, kill(getppid(),
 * SIGTERM), or SIGSTOP, which no handler can catch and which would stop the engine for good.
 * Before it execs the program, the child installs a seccomp filter that makes every system call
 * that sends a signal to the engine's process (kill, tkill, tgkill, rt_sigqueueinfo,
 * rt_tgsigqueueinfo with the engine's pid, or its process group, or -1: everyone) and
 * pidfd_open of the engine fail with EPERM.  The filter is inherited by everything the program
 * starts and by a fork server's children, so it holds on every path: reduce, triage's workers,
 * fuzz and the plugins.  The program's other system calls are untouched; a signal the program
 * sends anywhere else is delivered as before.
 *
 * Installing a filter needs CAP_SYS_ADMIN or no_new_privs; without the first the child sets the
 * second (a setuid program under test then runs without its privileges).  Where seccomp is not
 * there at all, the program runs unshielded; the front ends' handlers (tnorm_signal_from_below)
 * still ignore what can be caught.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shield.h"

#if defined(__x86_64__)
#define SHIELD_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SHIELD_ARCH AUDIT_ARCH_AARCH64
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG0_LOW offsetof(struct seccomp_data, args[0])
#else
#define ARG0_LOW (offsetof(struct seccomp_data, args[0]) + 4)
#endif

#define STMT(code, k) ((struct sock_filter)BPF_STMT((code), (k)))
#define JUMP(code, k, t, f) ((struct sock_filter)BPF_JUMP((code), (k), (t), (f)))

void tnorm__shield_init(tnorm__shield *s, pid_t engine, pid_t group)
{
#ifdef SHIELD_ARCH
	static const long calls[] = {
		SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo,
#ifdef SYS_pidfd_open
		SYS_pidfd_open,
#endif
	};
	const unsigned ncalls = (unsigned)(sizeof(calls) / sizeof(calls[0]));
	struct sock_filter *f = s->prog;
	unsigned n = 0, i;

	memset(s, 0, sizeof(*s));
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SHIELD_ARCH, 1, 0);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW); /* another ABI: not shielded */
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/* One test per call: on a match jump to the argument check right after the list's end. */
	for (i = 0; i < ncalls; i++)
		f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)calls[i], (unsigned char)(ncalls - i), 0);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/* The target: the engine, its process group, or everyone. */
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)engine, 3, 0);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)-group, 2, 0);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)-1, 1, 0);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
	s->len = (unsigned short)n;
#else
	(void)engine;
	(void)group;
	memset(s, 0, sizeof(*s));
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

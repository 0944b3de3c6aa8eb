/* SPDX-License-Identifier: MIT */
/*
 * intruder: a program under test that goes after the engine that traces it by every route around
 * the signal shield a second adversarial run found (issue 39, item 3).  The engine is the process
 * of the thread named by TracerPid in /proc/self/status.  Each line of the input names a route:
 *
 *   TID       kill(SIGKILL) of the tracer thread's ID (not the process ID)
 *   TKILL     tkill(SIGKILL) of that thread
 *   SIGQUEUE  rt_sigqueueinfo(SIGKILL) of that thread
 *   SIGIO     fcntl(F_SETOWN, engine) + F_SETSIG(SIGKILL) + O_ASYNC on a pipe, then a write
 *   SIGIOTID  the same with F_SETOWN_EX(F_OWNER_TID, tracer thread)
 *   SIGIOCTL  the same with ioctl(FIOSETOWN, engine) on a socket
 *   PROCFD    pidfd_send_signal(SIGKILL) on open("/proc/ENGINE")
 *   PIDFD     pidfd_send_signal(SIGKILL) on pidfd_open(tracer thread, PIDFD_THREAD)
 *   PGRP      setpgid into the engine's process group, then kill(0, SIGKILL)
 *   SEIZE     PTRACE_SEIZE + PTRACE_INTERRUPT of the engine, then its thread sent to address 0
 *   ATTACH    PTRACE_ATTACH of the engine, then PTRACE_CONT with SIGKILL
 *   MEM       int3 over the engine's libc code through /proc/ENGINE/mem
 *   VMWRITE   zeros over the engine's main stack through process_vm_writev
 *   NOTIFY    its own seccomp filter that sends kill() to a listener of its own (which lets every
 *             call go on), then kill(SIGKILL) of the tracer thread
 *
 * then, when the file has a line "boom", it aborts in boom().  tnorm must neither die nor stop.
 * Each route that fails says so on standard error ("ROUTE: refused (ERRNO)").
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sockios.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

static pid_t tracer, engine;

static void __attribute__((noinline)) boom(void)
{
	abort(); /* BOOM_LINE */
}

/* The numeric field `name` of /proc/PID/status (PID 0: self). */
static long status_field(pid_t pid, const char *name)
{
	char path[64], buf[4096], *p;
	size_t n;
	FILE *f;
	snprintf(path, sizeof(path), pid ? "/proc/%d/status" : "/proc/self/status", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (p = strstr(buf, name)) ? strtol(p + strlen(name), NULL, 10) : -1;
}

static int report(const char *route, long rc)
{
	if (rc < 0)
		fprintf(stderr, "%s: refused (%s)\n", route, strerror(errno));
	return rc < 0;
}

/* Arm a pipe's read end for SIGKILL to its owner, then make it readable. */
static void sigio(int how)
{
	int p[2];
	struct f_owner_ex ex = {F_OWNER_TID, tracer};
	long rc;
	if ((how == 2 ? socketpair(AF_UNIX, SOCK_STREAM, 0, p) : pipe(p)) < 0)
		return;
	rc = how == 0 ? fcntl(p[0], F_SETOWN, engine)
	     : how == 1 ? fcntl(p[0], F_SETOWN_EX, &ex)
	                : ioctl(p[0], FIOSETOWN, &engine);
	if (report(how == 0 ? "SIGIO" : how == 1 ? "SIGIOTID" : "SIGIOCTL", rc))
		return;
	fcntl(p[0], F_SETSIG, SIGKILL);
	fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK);
	if (write(p[1], "x", 1) < 0)
		return;
}

static void trace_kill(int seize)
{
	int st;
	const char *route = seize ? "SEIZE" : "ATTACH";
	if (report(route, seize ? ptrace(PTRACE_SEIZE, engine, 0, 0) : ptrace(PTRACE_ATTACH, engine, 0, 0)))
		return;
	if (seize)
		ptrace(PTRACE_INTERRUPT, engine, 0, 0);
	waitpid(engine, &st, __WALL);
#if defined(__x86_64__)
	if (seize) {
		/* (an event stop takes no signal: the thread goes to address 0 instead) */
		struct user_regs_struct regs;
		ptrace(PTRACE_GETREGS, engine, 0, &regs);
		regs.rip = 0;
		ptrace(PTRACE_SETREGS, engine, 0, &regs);
	}
#endif
	ptrace(PTRACE_CONT, engine, 0, SIGKILL);
}

/* Overwrite the first mapping of the engine whose line in its maps holds `what` and `perm`. */
static void overwrite(int mem, const char *what, const char *perm)
{
	char path[64], line[512];
	unsigned long lo, hi;
	FILE *maps;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)engine);
	if (!(maps = fopen(path, "r"))) {
		report(mem ? "MEM" : "VMWRITE", -1);
		return;
	}
	while (fgets(line, sizeof(line), maps))
		if (strstr(line, what) && strstr(line, perm) && sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			size_t n = hi - lo;
			char *junk = malloc(n);
			if (!junk)
				break;
			memset(junk, mem ? 0xcc : 0, n);
			if (mem) {
				snprintf(path, sizeof(path), "/proc/%d/mem", (int)engine);
				int fd = open(path, O_RDWR);
				if (!report("MEM", fd) && !report("MEM", pwrite(fd, junk, n, (off_t)lo)))
					close(fd);
			} else {
				struct iovec l = {junk, n}, r = {(void *)lo, n};
				report("VMWRITE", process_vm_writev(engine, &l, 1, &r, 1, 0));
			}
			free(junk);
			break;
		}
	fclose(maps);
}

/* A listener of our own for kill(): every call goes on. */
static void *answer(void *arg)
{
	int fd = *(int *)arg;
	for (;;) {
		struct seccomp_notif q;
		struct seccomp_notif_resp a;
		memset(&q, 0, sizeof(q));
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &q) < 0)
			continue;
		memset(&a, 0, sizeof(a));
		a.id = q.id;
		a.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &a);
	}
	return NULL;
}

static void notify(void)
{
	static int fd;
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
	pthread_t th;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (report("NOTIFY", fd))
		return;
	pthread_create(&th, NULL, answer, &fd);
	report("NOTIFY", kill(tracer, SIGKILL));
}

int main(int argc, char **argv)
{
	char line[64];
	int fail = 0, fd;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 2;
	tracer = (pid_t)status_field(0, "\nTracerPid:");
	engine = (pid_t)status_field(tracer, "\nTgid:");
	if (tracer <= 0 || engine <= 0)
		return 3; /* not traced: nothing to go after */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "boom"))
			fail = 1;
		else if (!strcmp(line, "TID"))
			report(line, kill(tracer, SIGKILL));
		else if (!strcmp(line, "TKILL"))
			report(line, syscall(SYS_tkill, tracer, SIGKILL));
		else if (!strcmp(line, "SIGQUEUE")) {
			siginfo_t si;
			memset(&si, 0, sizeof(si));
			si.si_code = SI_QUEUE;
			si.si_pid = getpid();
			si.si_uid = getuid();
			report(line, syscall(SYS_rt_sigqueueinfo, tracer, SIGKILL, &si));
		} else if (!strcmp(line, "SIGIO"))
			sigio(0);
		else if (!strcmp(line, "SIGIOTID"))
			sigio(1);
		else if (!strcmp(line, "SIGIOCTL"))
			sigio(2);
		else if (!strcmp(line, "PROCFD")) {
			char path[64];
			snprintf(path, sizeof(path), "/proc/%d", (int)engine);
			if (!report(line, fd = open(path, O_RDONLY | O_DIRECTORY)))
				report(line, syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0));
		} else if (!strcmp(line, "PIDFD")) {
			if (!report(line, fd = (int)syscall(SYS_pidfd_open, tracer, PIDFD_THREAD)))
				report(line, syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0));
		} else if (!strcmp(line, "PGRP")) {
			if (!report(line, setpgid(0, getpgid(engine))))
				report(line, kill(0, SIGKILL));
		} else if (!strcmp(line, "SEIZE"))
			trace_kill(1);
		else if (!strcmp(line, "ATTACH"))
			trace_kill(0);
		else if (!strcmp(line, "MEM"))
			overwrite(1, "libc", "r-xp");
		else if (!strcmp(line, "VMWRITE"))
			overwrite(0, "[stack]", "rw-p");
		else if (!strcmp(line, "NOTIFY"))
			notify();
	}
	fclose(f);
	if (fail)
		boom();
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * probe.c - breakpoints at line-table addresses of a traced program (see probe.h).
 *
 * The int3s are written through /proc/PID/mem, which a tracer may write even where the mapping
 * is read-only (the kernel copies the page for the process, as it does for a debugger's
 * breakpoint); the addresses lie in one module's text, so arming reads the span they cover once,
 * patches it and writes it back once.  A hit is an int3 the kernel reports as SIGTRAP with
 * si_code SI_KERNEL and the instruction pointer one byte past it: the original byte goes back
 * for good and the instruction pointer back one byte, so that the thread runs the original
 * instruction when it is continued.  A hit in another process of the run (a fork or vfork child
 * of the program, not yet exec'd) is undone in that process's memory and counts for the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <unistd.h>

#include "probe.h"

#define INT3 0xcc

struct tnorm__probe {
	char *path;
	uint64_t *vaddr;      /* module-relative, sorted */
	unsigned char *hit;   /* hit in the last run */
	unsigned char *base;  /* hit by the fork server before it said hello (its start) */
	unsigned char *orig;  /* the original bytes, read at arming */
	uint64_t *addr;       /* the addresses in the armed process */
	size_t n;
	uint64_t bias;        /* process address - module-relative address */
	int memfd;            /* /proc/PID/mem of the armed process, or -1 */
	pid_t pid;
	int armed;
};

int tnorm__probe_new(tnorm__probe **out, const char *path, const uint64_t *addrs, size_t n)
{
	tnorm__probe *p;
	*out = NULL;
	if (!(p = tnorm__calloc(1, sizeof(*p))))
		return TNORM_ENOMEM;
	p->n = n;
	p->memfd = -1;
	if (!(p->path = tnorm__strdup(path)) || !(p->vaddr = tnorm__calloc(n + 1, sizeof(*p->vaddr))) ||
	    !(p->addr = tnorm__calloc(n + 1, sizeof(*p->addr))) ||
	    !(p->hit = tnorm__calloc(n + 1, 1)) || !(p->base = tnorm__calloc(n + 1, 1)) ||
	    !(p->orig = tnorm__calloc(n + 1, 1))) {
		tnorm__probe_free(p);
		return TNORM_ENOMEM;
	}
	if (n)
		memcpy(p->vaddr, addrs, n * sizeof(*addrs));
	*out = p;
	return 0;
}

void tnorm__probe_free(tnorm__probe *p)
{
	if (!p)
		return;
	tnorm__probe_end(p);
	free(p->path);
	free(p->vaddr);
	free(p->addr);
	free(p->hit);
	free(p->base);
	free(p->orig);
	free(p);
}

void tnorm__probe_end(tnorm__probe *p)
{
	if (p->memfd >= 0)
		close(p->memfd);
	p->memfd = -1;
	p->pid = 0;
}

const char *tnorm__probe_path(const tnorm__probe *p)
{
	return p->path;
}

size_t tnorm__probe_count(const tnorm__probe *p)
{
	return p->n;
}

uint64_t tnorm__probe_vaddr(const tnorm__probe *p, size_t i)
{
	return i < p->n ? p->vaddr[i] : 0;
}

int tnorm__probe_armed(const tnorm__probe *p)
{
	return p->armed;
}

int tnorm__probe_hit(const tnorm__probe *p, size_t i)
{
	return i < p->n && p->armed && p->hit[i];
}

static int put_byte(int fd, uint64_t addr, unsigned char b)
{
	return pwrite(fd, &b, 1, (off_t)addr) == 1 ? 0 : -1;
}

int tnorm__probe_arm(tnorm__probe *p, tnorm__symcache *syms, pid_t pid, int child)
{
#if defined(__x86_64__)
	char path[64], *maps = NULL;
	unsigned char *span = NULL;
	uint64_t lo, hi;
	size_t i;
	int fd = -1, ok = 0;
	tnorm__probe_end(p);
	p->armed = 0;
	/* A server's child starts with what the server's start ran; a program started afresh, and
	 * so a server to be, with nothing. */
	if (child) {
		memcpy(p->hit, p->base, p->n);
	} else {
		memset(p->hit, 0, p->n);
		memset(p->base, 0, p->n);
	}
	if (!p->n)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (tnorm__read_file(path, &maps, NULL) < 0)
		return -1;
	/* One bias for the module's text: its addresses are in one segment. */
	if (tnorm__symcache_proc_addr(syms, maps, p->path, p->vaddr[0], &lo) < 0) {
		free(maps);
		return -1;
	}
	free(maps);
	p->bias = lo - p->vaddr[0];
	for (i = 0; i < p->n; i++)
		p->addr[i] = p->vaddr[i] + p->bias;
	lo = p->addr[0];
	hi = p->addr[p->n - 1] + 1;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return -1;
	if (hi - lo <= (64u << 20) && (span = tnorm__malloc((size_t)(hi - lo))) &&
	    pread(fd, span, (size_t)(hi - lo), (off_t)lo) == (ssize_t)(hi - lo)) {
		for (i = 0; i < p->n; i++) {
			p->orig[i] = span[p->addr[i] - lo];
			span[p->addr[i] - lo] = INT3;
		}
		ok = pwrite(fd, span, (size_t)(hi - lo), (off_t)lo) == (ssize_t)(hi - lo);
	}
	free(span);
	if (!ok) {
		close(fd);
		return -1;
	}
	p->memfd = fd;
	p->pid = pid;
	p->armed = 1;
	return 0;
#else
	(void)syms;
	(void)pid;
	p->armed = 0;
	return -1;
#endif
}

/* The index of process address `a` among the probe's, or n. */
static size_t slot_of(const tnorm__probe *p, uint64_t a)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->addr[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->n && p->addr[lo] == a ? lo : p->n;
}

#if defined(__x86_64__)
/* The slot of the int3 that stopped `tid`, its registers in *regs; n when it is not ours. */
static size_t our_trap(const tnorm__probe *p, pid_t tid, struct user_regs_struct *regs)
{
	siginfo_t si;
	if (!p->armed || ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) < 0 || si.si_code != SI_KERNEL ||
	    ptrace(PTRACE_GETREGS, tid, NULL, regs) < 0 || regs->rip == 0)
		return p->n;
	return slot_of(p, (uint64_t)regs->rip - 1);
}
#endif

void tnorm__probe_disarm(tnorm__probe *p)
{
	size_t i;
	if (p->memfd >= 0) {
		for (i = 0; i < p->n; i++)
			put_byte(p->memfd, p->addr[i], p->orig[i]);
		memcpy(p->base, p->hit, p->n);
	}
	tnorm__probe_end(p);
	p->armed = 0;
}

int tnorm__probe_trap(tnorm__probe *p, pid_t tid)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	size_t i;
	if (p->memfd < 0 || (i = our_trap(p, tid, &regs)) == p->n)
		return 0;
	regs.rip = p->addr[i];
	if (ptrace(PTRACE_SETREGS, tid, NULL, &regs) < 0)
		return 0;
	/* Hit once: the int3 goes (this thread's trap was the first at it, or another thread's
	 * arrived before the byte went back: writing it again does no harm). */
	put_byte(p->memfd, p->addr[i], p->orig[i]);
	p->hit[i] = 1;
	return 1;
#else
	(void)p;
	(void)tid;
	return 0;
#endif
}

int tnorm__probe_foreign(tnorm__probe *p, pid_t tid, int record)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	char path[64];
	unsigned char b = 0;
	size_t i;
	int fd, ok;
	if ((i = our_trap(p, tid, &regs)) == p->n)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return 0;
	/* Ours only if the byte there is still an int3 (the process may have exec'd another image).
	 * A fork child's copy of the code loses the int3 there; a vfork child's memory is the
	 * program's, which loses it too: the line is covered all the same, so the hit counts for
	 * the run either way. */
	ok = pread(fd, &b, 1, (off_t)p->addr[i]) == 1 && b == INT3 &&
	     put_byte(fd, p->addr[i], p->orig[i]) == 0;
	close(fd);
	if (!ok)
		return 0;
	regs.rip = p->addr[i];
	if (ptrace(PTRACE_SETREGS, tid, NULL, &regs) < 0)
		return 0;
	if (record)
		p->hit[i] = 1;
	return 1;
#else
	(void)p;
	(void)tid;
	(void)record;
	return 0;
#endif
}

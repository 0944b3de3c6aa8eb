/* SPDX-License-Identifier: MIT */
/*
 * vforker: a program whose children run code of its own before it fails (issue 39, item 8).
 * A vfork child (sharing the parent's memory) and a fork child (with a copy of it) each check
 * the input, an `if` guarding an abort included, and _exit; unless a second argument follows
 * the input file's name, a second vfork child execs this program again (a new image of the same
 * code, with an int3 of its own).  The parent aborts when the input starts with '!', but only if
 * every child exited 0: a child killed by a breakpoint it inherited (or whose own int3 is taken
 * for one) makes the run pass.  The lines marked VF_ are run by a child only, or by a child
 * first (tests/integration/why.sh); VF_EXEC by the child that execs.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int vfork_check(const unsigned char *b, size_t n)
{
	size_t i, high = 0;                /* VF_VFORK */
	for (i = 0; i < n; i++)            /* VF_VFORK */
		high += b[i] > 0x7e;           /* VF_VFORK */
	if (high > 1000)                   /* VF_VFORK_IF: guards the abort */
		abort();
	return (int)high;                  /* VF_VFORK */
}

static int fork_check(const unsigned char *b, size_t n)
{
	size_t i, zeros = 0;               /* VF_FORK */
	for (i = 0; i < n; i++)            /* VF_FORK */
		zeros += b[i] == 0;            /* VF_FORK */
	if (zeros > 1000)                  /* VF_FORK_IF: guards the abort */
		abort();
	return (int)zeros;                 /* VF_FORK */
}

static volatile sig_atomic_t trapped;

static void on_trap(int sig)
{
	(void)sig;
	trapped = 1;
}

/* Run in a process that exec'd this program: the code has no breakpoints there, and an int3 of
 * its own (at a line's first byte, where the program that exec'd it had a breakpoint) is its
 * own to handle. */
static int exec_child(void)
{
	signal(SIGTRAP, on_trap);
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("int3");
#else
	raise(SIGTRAP);
#endif
	return trapped ? 0 : 1;
}

static int ok(pid_t pid)
{
	int st = 0;
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(int argc, char **argv)
{
	unsigned char buf[4096];
	size_t n = 0;
	FILE *f;
	pid_t pid;
	int all = 1;
	if (argc > 1 && argv[1][0] == '-' && argv[1][1] == 'x')
		return exec_child();
	if (argc < 2 || !(f = fopen(argv[1], "rb")))
		return 2;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	pid = vfork();
	if (pid == 0)                                /* VF_MAIN: the vfork child runs it first */
		_exit(vfork_check(buf, n) > 1000);   /* VF_VFORK_CALL */
	all &= ok(pid);
	pid = fork();
	if (pid == 0)
		_exit(fork_check(buf, n) > 1000);    /* VF_FORK_CALL */
	all &= ok(pid);
	if (argc < 3) { /* (no second argument) */
		pid = vfork();
		if (pid == 0) {                              /* VF_EXEC: the vfork child runs it first */
			char *args[] = {argv[0], (char *)"-x", NULL}; /* VF_EXEC */
			execv(argv[0], args);                /* VF_EXEC */
			_exit(127);
		}
		all &= ok(pid);
	}
	if (all && n > 0 && buf[0] == '!')
		abort();
	return 0;
}

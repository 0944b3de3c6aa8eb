/* SPDX-License-Identifier: MIT */
/*
 * shield.h - what keeps a program under test from signalling, stopping or tracing the engine:
 * a seccomp filter, the engine's answers to the questions it asks, the engine's memory out of
 * reach (shield.c says why and how).  Internal.
 */
#ifndef TNORM_SHIELD_H
#define TNORM_SHIELD_H

#include <linux/filter.h>
#include <sys/types.h>

/* The filter, made once per runner (before any vfork: the child only installs it). */
typedef struct tnorm__shield {
	struct sock_filter prog[80];
	unsigned short len; /* 0: no filter on this architecture */
	pid_t engine, group; /* the process and process group it keeps the programs away from */
	int ask;             /* the filter asks the engine about targets it cannot judge */
} tnorm__shield;

/*
 * Fill `s` for the engine's process `engine` and its process group `group`.  `ask`: calls
 * whose target only the engine can judge (a thread's ID) go to it as seccomp user
 * notifications (installed with tnorm__shield_apply_asking and answered by
 * tnorm__shield_serve); 0: they are let go (a fork server's filter for its own process, under
 * the engine's).
 */
void tnorm__shield_init(tnorm__shield *s, pid_t engine, pid_t group, int ask);

/*
 * Install the filter in the calling process: two or three prctl calls, nothing else, so a vfork
 * child may call it before exec.  0, or -1 (errno set) when it cannot be installed (no seccomp,
 * no filter for this architecture).
 */
int tnorm__shield_apply(const tnorm__shield *s);

/*
 * On the tracer thread, once: make the process not dumpable and take CAP_SYS_PTRACE from what
 * the thread's programs inherit, then install the filter with a listener for its questions.
 * Returns the listener (a close-on-exec descriptor, the caller's to close, to hand to
 * tnorm__shield_serve); -2 when the filter is installed without questions (no user
 * notification in this kernel: `s` is made again without them); -1 when no filter could be
 * installed.
 */
int tnorm__shield_apply_asking(tnorm__shield *s);

/*
 * Answer the filter's questions on `listener` until `quit` (an eventfd or pipe) is readable or
 * no task has the filter any more.  Run it on a thread that does not have the filter.
 */
void tnorm__shield_serve(const tnorm__shield *s, int listener, int quit);

#endif

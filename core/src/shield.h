/* SPDX-License-Identifier: MIT */
/*
 * shield.h - the seccomp filter that keeps a program under test from signalling the engine
 * (shield.c says why and how).  Internal.
 */
#ifndef TNORM_SHIELD_H
#define TNORM_SHIELD_H

#include <linux/filter.h>
#include <sys/types.h>

/* The filter, made once per runner (before any vfork: the child only installs it). */
typedef struct tnorm__shield {
	struct sock_filter prog[24];
	unsigned short len; /* 0: no filter on this architecture */
} tnorm__shield;

/* Fill `s` for the engine's process `engine` and its process group `group`. */
void tnorm__shield_init(tnorm__shield *s, pid_t engine, pid_t group);

/*
 * Install the filter in the calling process: two or three prctl calls, nothing else, so a vfork
 * child may call it before exec.  0, or -1 (errno set) when it cannot be installed (no seccomp,
 * no filter for this architecture).
 */
int tnorm__shield_apply(const tnorm__shield *s);

#endif

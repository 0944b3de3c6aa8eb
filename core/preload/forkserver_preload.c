/* SPDX-License-Identifier: MIT */
/*
 * forkserver_preload.c - libtnorm_preload.so: a fork server for a program that is not a tnorm
 * driver (a fuzzer's target, any parser), injected by the engine with LD_PRELOAD.
 *
 * A program's start-up (exec, the dynamic loader's relocations, a sanitizer runtime's shadow
 * memory and interceptors) can cost more than the run itself.  The engine therefore starts such
 * a program once with this library preloaded and TNORM_FORK_SERVER=FD (core/src/forkserver.c),
 * and the constructor below serves it exactly as the driver runtime does (fs_server.c, the same
 * code): hello, SIGSTOP, then a child per run, which returns from the constructor and goes on
 * into the program's own constructors and `main` with that run's standard streams, as AFL++'s
 * fork server does for programs it did not build.
 *
 * Why a constructor, and when it runs: a preloaded library comes right after the executable in
 * the loader's list, and the loader runs the initialisers of shared libraries deepest first, so
 * this one runs after every library the program links (libc, libstdc++, gcc's shared libasan)
 * has been initialised, and before the executable's own initialisers and `main`.  clang's static
 * sanitizer runtimes start even earlier, from the executable's .preinit_array.  So the server
 * forks from a process whose libraries and sanitizer are set up, and each child runs everything
 * of the program itself (its constructors, the sanitizer's registration of its globals, `main`)
 * as a fresh process would: a program that opens its input in a constructor of its own still
 * reads each run's candidate.  A constructor priority would not help: it orders the
 * constructors of one object only (the link sorts .init_array); across objects the loader's
 * order is what counts, and it is the one above.
 *
 * The child must be the program as a fresh run would start it.  The engine puts this library
 * last in LD_PRELOAD, after a colon (the user's own entries come first, as the engine kept them), so the constructor drops
 * that last entry in place (or the variable, when it was the only one) and TNORM_FORK_SERVER
 * goes in fs_server.c: the environment `main` and the program's children see is the run's own.
 * Nothing here allocates, so the heap a child finds is the heap a fresh process has at this
 * point.  What differs from a fresh process, and why it does not matter: the process id (every
 * run's differs anyway), the parent (the server), and /proc/self/environ, which the kernel keeps
 * as exec passed it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs_server.h"
#include "sanitizer_names.h"

/* Take out of variable `name` the last `:`-separated entry the engine appended (any entry, or
 * only one equal to `entry`), in place: the strings live in the initial environment block,
 * which is writable.  The variable goes when that entry was all it held. */
static void drop_last_entry(const char *name, const char *entry)
{
	size_t i, len = strlen(name);
	for (i = 0; environ && environ[i]; i++) {
		char *v = environ[i], *last;
		if (strncmp(v, name, len) || v[len] != '=')
			continue;
		last = strrchr(v + len + 1, ':');
		if (entry && strcmp(last ? last + 1 : v + len + 1, entry))
			return;
		if (last)
			*last = '\0';
		else
			unsetenv(name);
		return;
	}
}

__attribute__((constructor)) static void tnorm__preload_start(void)
{
	drop_last_entry("LD_PRELOAD", NULL);
	drop_last_entry(TNORM__SAN_ASAN_OPTIONS, TNORM__SAN_ASAN_LINK_ORDER);
	tnorm__fs_serve(); /* returns in each child, or at once when there is no server to be */
}

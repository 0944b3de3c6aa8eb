/* SPDX-License-Identifier: MIT */
/*
 * fs_server.h (internal) - the fork server's side of the protocol (core/src/forkserver.c has the
 * engine's), shared by the two programs that serve: the driver runtime (core/driver/driver.c,
 * after its harness is parsed) and the preload library (forkserver_preload.c, in a constructor,
 * for a program that is not a driver).
 */
#ifndef TNORM__FS_SERVER_H
#define TNORM__FS_SERVER_H

/*
 * Be the engine's fork server when TNORM_FORK_SERVER names a control socket and the engine
 * traces this process: say hello, stop, then fork a child per request.  Returns 1 in each
 * child (its standard streams those of the request, its own process group), 0 in the calling
 * process when there is no server to be (no or a bad variable, not traced, or the engine said
 * no); the server itself never returns (it exits when the engine closes the socket).  The
 * variable is removed from the environment either way.  Allocates nothing: the preload library
 * calls it before `main`, and a child must find the heap as a fresh process would.
 */
int tnorm__fs_serve(void);

#endif

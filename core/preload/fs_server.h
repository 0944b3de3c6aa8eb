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

/* tnorm__fs_serve, and with `persistent` 1 a child asked for with 'P' may run more candidates
 * (tnorm__fs_persist); with 0 (what tnorm__fs_serve does) every child runs one. */
int tnorm__fs_serve_persistent(int persistent);

/*
 * In a child of the server whose candidate passed: when the engine asked this child to persist,
 * unless the candidate left a process or a thread running (then 0), report the pass ("TNPS" and
 * the candidate's CPU time on the control socket; the run's streams replaced by /dev/null first;
 * the engine reads it), then wait for the next candidate.  Returns 1 with that candidate's streams in place (the caller runs it as a fresh
 * child would, from reading the test on); 0 when this child may not persist (the caller exits
 * as usual).  When the engine closes the socket instead, the child exits 0.  Allocates nothing.
 */
int tnorm__fs_persist(void);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * probe.h (internal) - breakpoints (int3) at line-table addresses of a traced program.
 *
 * A probe is a set of addresses of one module (module-relative, from its line table), written
 * as int3 into a run's process while it is stopped by ptrace, before it runs them, and handled
 * at each SIGTRAP they raise, so that the program runs as it would without them.  Two uses:
 *
 *   trail: every address stays a breakpoint for the whole run (the one last hit is put back
 *          when the next one is hit, so no single-step is needed); the probe remembers the last
 *          address hit that has a line.  The runner uses it to find which check led into code
 *          the compiler merged from several checks (one abort() call for every inlined
 *          assert of a function: see runner.c, merged abort sites).
 *   cover: each address is a breakpoint until it is first hit (one stop per address at most);
 *          the probe remembers which were hit: the run's line coverage.
 *
 * Processes the program forks inherit the int3s; a trap in one of them is undone there (the
 * original byte put back for good), never recorded.  x86-64 only: elsewhere arming fails and
 * the run goes on without the probe.  The tracer thread that runs the program owns the probe
 * during a run; the caller reads it between runs.
 */
#ifndef TNORM__PROBE_H
#define TNORM__PROBE_H

#include <sys/types.h>

#include "common.h"
#include "symbolize.h"

typedef struct tnorm__probe tnorm__probe;

typedef enum { TNORM__PROBE_TRAIL, TNORM__PROBE_COVER } tnorm__probe_mode;

/*
 * A probe on `n` module-relative addresses (sorted, each once) of the module at `path` (copied).
 * `lined`, when not NULL, says for each address whether its row has a line (the trail's last
 * address is the last lined one hit); NULL: all have.  `max_stops` bounds a trail's stops per
 * run (0: no bound): past it every int3 is put back and the run records nothing.  0 or
 * TNORM_ENOMEM.
 */
int tnorm__probe_new(tnorm__probe **out, tnorm__probe_mode mode, const char *path,
                     const uint64_t *addrs, const unsigned char *lined, size_t n,
                     size_t max_stops);
void tnorm__probe_free(tnorm__probe *p);

/*
 * Write the int3s into stopped, traced process `pid`, if it maps the probe's module (found
 * through /proc/PID/maps and `syms`): a new run's records start empty, or for a fork server's
 * `child` (1) with the coverage of the server's start (tnorm__probe_disarm).  0, or -1 (the module is
 * not mapped, the memory cannot be written, not x86-64): the run goes on without the probe.
 */
int tnorm__probe_arm(tnorm__probe *p, tnorm__symcache *syms, pid_t pid, int child);

/* A SIGTRAP stop of thread `tid` of the armed process: 1 when an int3 of the probe raised it
 * (handled: the thread resumes at the original instruction when continued with no signal), 0
 * when it is the program's own. */
int tnorm__probe_trap(tnorm__probe *p, pid_t tid);

/* The same for thread `tid` of another process (one the program forked, with the int3s in
 * its copy of the memory): the int3 hit is undone there for good.  1 or 0 as above. */
int tnorm__probe_foreign(tnorm__probe *p, pid_t tid);

/* Take the int3s out of the armed process (every original byte back) and forget it: a
 * program armed at its start that turned out to be a fork server.  What it covered so far is
 * kept as the start of its children's coverage. */
void tnorm__probe_disarm(tnorm__probe *p);

/* The run is over: forget its process (the records stay until the next arm). */
void tnorm__probe_end(tnorm__probe *p);

/* Trail: the module-relative address of the last lined address hit in the last run; 0 when
 * none was, or the run went past max_stops. */
uint64_t tnorm__probe_last(const tnorm__probe *p);

/* Cover: whether address i (in the order given to tnorm__probe_new) was hit in the last run. */
int tnorm__probe_hit(const tnorm__probe *p, size_t i);

/* What the probe was made with: its mode, its module's path (borrowed), its number of
 * addresses, and address i (module-relative). */
tnorm__probe_mode tnorm__probe_mode_of(const tnorm__probe *p);
const char *tnorm__probe_path(const tnorm__probe *p);
size_t tnorm__probe_count(const tnorm__probe *p);
uint64_t tnorm__probe_vaddr(const tnorm__probe *p, size_t i);

/* Whether the last run was armed (its process mapped the module and the int3s were written). */
int tnorm__probe_armed(const tnorm__probe *p);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * probe.h (internal) - breakpoints (int3) at line-table addresses of a traced program.
 *
 * A probe is a set of addresses of one module (module-relative, from its line table), written
 * as int3 into a run's process while it is stopped by ptrace, before it runs them, and handled
 * at each SIGTRAP they raise, so that the program runs as it would without them.  Each address
 * is a breakpoint until it is first hit (one stop per address at most); the probe remembers
 * which were hit: the run's line coverage.  (Merged abort sites have traps of their own, one
 * per check, in mergetrap.h.)
 *
 * Processes the program forks inherit the int3s (a fork child in its copy of the memory, a
 * vfork child in the memory it shares with the program until it execs); a trap in one of them
 * is undone there (the original byte put back for good) and recorded like the program's own: a
 * line any process of the run executed is covered.  x86-64 only: elsewhere arming fails and
 * the run goes on without the probe.  The tracer thread that runs the program owns the probe
 * during a run; the caller reads it between runs.
 */
#ifndef TNORM__PROBE_H
#define TNORM__PROBE_H

#include <sys/types.h>

#include "common.h"
#include "symbolize.h"

typedef struct tnorm__probe tnorm__probe;

/*
 * A probe on `n` module-relative addresses (sorted, each once) of the module at `path` (copied).
 * 0 or TNORM_ENOMEM.
 */
int tnorm__probe_new(tnorm__probe **out, const char *path, const uint64_t *addrs, size_t n);
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
 * its copy of the memory, or vforked, sharing the program's): the int3 hit is undone there for
 * good, and recorded as the run's when `record` (0: a process of a run that is over).  Never for
 * a process that exec'd: its image has no int3 of ours.  1 or 0 as above. */
int tnorm__probe_foreign(tnorm__probe *p, pid_t tid, int record);

/* Take the int3s out of the armed process (every original byte back) and forget it: a
 * program armed at its start that turned out to be a fork server.  What it covered so far is
 * kept as the start of its children's coverage. */
void tnorm__probe_disarm(tnorm__probe *p);

/* The run is over: forget its process (the records stay until the next arm). */
void tnorm__probe_end(tnorm__probe *p);

/* Whether address i (in the order given to tnorm__probe_new) was hit in the last run. */
int tnorm__probe_hit(const tnorm__probe *p, size_t i);

/* What the probe was made with: its module's path (borrowed), its number of addresses, and
 * address i (module-relative). */
const char *tnorm__probe_path(const tnorm__probe *p);
size_t tnorm__probe_count(const tnorm__probe *p);
uint64_t tnorm__probe_vaddr(const tnorm__probe *p, size_t i);

/* Whether the last run was armed (its process mapped the module and the int3s were written). */
int tnorm__probe_armed(const tnorm__probe *p);

#endif

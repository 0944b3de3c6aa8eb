/* SPDX-License-Identifier: MIT */
/*
 * mergetrap.h (internal) - which check jumped to a merged abort call: one trap per jump.
 *
 * An optimizing compiler keeps one abort() call for several checks of a function (clang: a call
 * of line 0; gcc: a call in the function's cold part): every check then fails at one address.
 * For such a call (a "site"), the function's code is decoded once (capstone): the straight-line
 * code that ends in the call (its region), and every jump into it plus the instruction that falls
 * through into it (its entries: the checks).  Each entry gets a trap of its own that fires only
 * when that entry is taken: an int3 on an unconditional jump itself; a conditional jump
 * retargeted (its displacement rewritten) to an int3 pad of its own, in the region (which runs
 * only on the way to the abort) or in the filler after the function; an int3 on the region's
 * first byte for the fall-through.  The patches are written into each run's process through
 * /proc/PID/mem before it runs; a trap that fires records its entry, puts the site's original
 * bytes back in that process and sends the thread on to where the jump went, so the run goes on
 * to its real failure, having stopped once.  The unwinder then names the entry's frames in the
 * merged call's place (unwind.c).
 *
 * An entry that cannot get a trap of its own (no pad within a conditional jump's reach, or a
 * byte another site patches) has none: a failure through it keeps the merged call's frames,
 * which is the same at any run length.  x86-64 only.  The tracer thread owns the traps during a
 * run; the caller adds sites and reads what fired between runs.
 */
#ifndef TNORM__MERGETRAP_H
#define TNORM__MERGETRAP_H

#include <sys/types.h>

#include "common.h"
#include "symbolize.h"

typedef struct tnorm__mtrap tnorm__mtrap;

/* An empty set of sites: 0 or TNORM_ENOMEM.  Freeing NULL is a no-op. */
int tnorm__mtrap_new(tnorm__mtrap **out);
void tnorm__mtrap_free(tnorm__mtrap *t);

/* Whether the merged call that a caller frame's looked-up address `pc` (module-relative, in the
 * module at `path`) lies in is a site already. */
int tnorm__mtrap_known(const tnorm__mtrap *t, const char *path, uint64_t pc);

/*
 * Make the call at `pc` (as above) a site: decode its function, find its region and entries and
 * their traps.  A call that cannot be decoded becomes a site with no entries (so that it is not
 * tried again).  0, or TNORM_ENOMEM.
 */
int tnorm__mtrap_add(tnorm__mtrap *t, tnorm__symcache *syms, const char *path, uint64_t pc);

/* The number of sites, and of their entries with and without a trap of their own. */
void tnorm__mtrap_counts(const tnorm__mtrap *t, size_t *sites, size_t *trapped, size_t *shared);

/* Keep the sites, drop their traps: every run then goes as it would at a site where no check
 * has a trap of its own (bench/mergedcost.c measures a failing run with and without them). */
void tnorm__mtrap_untrap(tnorm__mtrap *t);

/* Write the traps into stopped, traced process `pid` (a new run's program, or a fork server's
 * child: the bytes are checked against the file's first).  What fired is forgotten. */
void tnorm__mtrap_arm(tnorm__mtrap *t, tnorm__symcache *syms, pid_t pid);

/* A new run in an armed process (a persistent child's next candidate): forget what fired. */
void tnorm__mtrap_reset(tnorm__mtrap *t);

/* A SIGTRAP stop of thread `tid` of the armed process: 1 when a trap of a site raised it
 * (recorded, the site's bytes put back, the thread sent on: continue it with no signal), 0 when
 * it is the program's own. */
int tnorm__mtrap_trap(tnorm__mtrap *t, pid_t tid);

/* The same for thread `tid` of another process (one the program forked, with the traps in its
 * copy of the memory): undone there, not recorded.  1 or 0 as above. */
int tnorm__mtrap_foreign(tnorm__mtrap *t, pid_t tid);

/* Take the traps out of the armed process (a program that turned out to be a fork server: its
 * children are armed at their first stop) and forget it. */
void tnorm__mtrap_disarm(tnorm__mtrap *t);

/* The run is over: forget its process (what fired stays until the next arm or reset). */
void tnorm__mtrap_end(tnorm__mtrap *t);

/* The check that led to the merged call at `pc` (as above) in the last run: 0 and *at, the
 * module-relative address whose frames (with the functions inlined there) are the check's; -1
 * when no trap of that site fired. */
int tnorm__mtrap_fired(const tnorm__mtrap *t, const char *path, uint64_t pc, uint64_t *at);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * symbolize.h (internal) - addresses in a traced process to function/file/line, with caches.
 */
#ifndef TNORM__SYMBOLIZE_H
#define TNORM__SYMBOLIZE_H

#include "common.h"
#include "tnorm/signature.h"

typedef struct tnorm__symcache tnorm__symcache;

int tnorm__symcache_new(tnorm__symcache **out);
void tnorm__symcache_free(tnorm__symcache *c);

/*
 * Symbolize `pc` of a process whose /proc/PID/maps text is `maps`.  `innermost` is 1 for the
 * frame that faulted (its pc is exact); for callers pc-1 is looked up (the call instruction).
 * Fills `out`; its strings are borrowed from the cache (valid until it is freed).  Unknown parts
 * are NULL/0.  Never fails: what cannot be found stays unknown.
 */
void tnorm__symbolize(tnorm__symcache *c, const char *maps, uint64_t pc, int innermost,
                      tnorm_frame *out);

#endif

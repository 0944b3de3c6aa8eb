/* SPDX-License-Identifier: MIT */
/*
 * triage_sample.h - the sampled triage's plan (internal; triage_sample.c).
 *
 * A sampled triage runs every test once for its signature, then minimizes only the tests the
 * plan asks for, in rounds, and puts the others in the bucket of a minimized test on evidence.
 * Both functions read the result as triage.c fills it: each test's status, key, signature (its
 * stack), original length and `minimized` flag, and for the minimized ones their bucket.
 */
#ifndef TNORM_TRIAGE_SAMPLE_H
#define TNORM_TRIAGE_SAMPLE_H

#include <stddef.h>

#include "tnorm/triage.h"

/*
 * The tests to minimize next: want[i] set to 1 for each (want holds r->ntests bytes, zeroed by
 * the caller); returns how many were asked for, 0 when the plan is complete.  The buckets of the
 * minimized tests (tests[].bucket) must be made before every call but the first.  Per signature
 * key: the smallest test first; then, while the key's minimized tests agree (one bucket), one
 * test of a second stack; where they disagree, one test of every stack, then a second of every
 * stack, then every test of a stack whose two disagree.  Deterministic: the same result gives
 * the same plan, whatever order the tests were done in.
 */
size_t tnorm__sample_plan(const tnorm_triage_result *r, unsigned char *want);

/*
 * Put every failing test that was not minimized in the bucket of a minimized test of its key
 * (the buckets made), with its evidence (tests[].evidence, owned by the result): the minimized
 * test of its own stack, else of its key when the key's minimized tests agree, else the one
 * with the nearest stack.  Counts the buckets' tests and r->minimized, r->assigned.  0 or
 * TNORM_ENOMEM.
 */
int tnorm__sample_assign(tnorm_triage_result *r);

/* The number of frames two signatures' stacks share from the top (recursion collapsed). */
size_t tnorm__sample_common_frames(const char *a, const char *b);

#endif

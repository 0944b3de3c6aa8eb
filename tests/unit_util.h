/* SPDX-License-Identifier: MIT */
/*
 * unit_util.h - what the unit tests that run real programs share (test_session.c,
 * test_pipeline.c): a fresh folder per case under $TMPDIR, and the end of one step of an
 * allocation-failure sweep.  Include after <cmocka.h> and the internal "common.h".
 */
#ifndef TNORM_TEST_UNIT_UTIL_H
#define TNORM_TEST_UNIT_UTIL_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

/* Make a fresh folder $TMPDIR/tnorm-NAME-XXXXXX (or under /tmp) into `dir`; 0 or -1. */
static inline int unit_mkdtemp(char *dir, size_t size, const char *name)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, size, "%.1000s/tnorm-%.40s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
	return mkdtemp(dir) ? 0 : -1;
}

static inline int unit_remove_one(const char *path, const struct stat *sb, int flag,
                                  struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

/* Remove `dir` and everything in it. */
static inline void unit_rmtree(const char *dir)
{
	nftw(dir, unit_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * End a call made under tnorm__alloc_fail_after(k): its error (code 0 and "" when none is set)
 * into *code and `message`, then whether the injected failure was reached, and injection off.
 * Reached means one more allocation fails now (once the counter runs out every later allocation
 * fails); it also holds when the call made exactly k allocations, which the caller tells apart.
 */
static inline int unit_oom_end(int *code, char *message, size_t size)
{
	const tnorm_error *e = tnorm_error_last();
	void *probe;
	int reached;
	*code = e ? e->code : 0;
	snprintf(message, size, "%s", e ? e->message : "");
	probe = tnorm__malloc(1);
	reached = probe == NULL;
	tnorm__alloc_fail_after(-1);
	free(probe);
	return reached;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * runner_base.c - what every file of the runner uses, below them all: it calls none of them.
 *
 * runner.c, rundir.c, runner_env.c, runner_wait.c, tracer.c and forkserver.c share a few small
 * pieces: freeing a string vector (argv, an environment), a signal's name as a signature's kind,
 * and whether an exit code marks an invalid run.  They lived in runner.c, which the files below
 * it then called back (issue 42, item 3); here each file of the runner can use them and the
 * calls still go one way (runner_internal.h, "Who calls what"; tests/integration/circles.py).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner_internal.h"

void tnorm__strv_free(char **v)
{
	size_t i;
	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

/* 125, or one of the codes the options declare invalid. */
int tnorm__runner_invalid_exit(const tnorm_runner *r, int code)
{
	size_t i;
	if (code == 125)
		return 1;
	for (i = 0; i < r->opts.ninvalid_exits; i++)
		if (r->invalid_exits[i] == code)
			return 1;
	return 0;
}

const char *tnorm__signame(int sig, char *buf, size_t size)
{
	const char *abbrev = sigabbrev_np(sig);
	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else
		snprintf(buf, size, "signal(%d)", sig);
	return buf;
}

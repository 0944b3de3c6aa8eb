/* SPDX-License-Identifier: MIT */
/*
 * policy.c - the front ends' shared rules (policy.h): the default -j, the harness a command
 * names, and whether a command holds the test's placeholder.  Each was written in the CLI and
 * again in the plugins' Python, differently (issue 42, item 3); the placeholder is the runner's
 * own (rundir.c), so what the front ends check is what a run replaces.
 */
#include <string.h>
#include <unistd.h>

#include "runner_internal.h"
#include "tnorm/policy.h"

unsigned tnorm_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > TNORM_DEFAULT_JOBS_MAX ? TNORM_DEFAULT_JOBS_MAX : (unsigned)n;
}

const char *tnorm_argv_harness(const char *const *argv)
{
	size_t i;
	if (!argv || !argv[0])
		return NULL;
	for (i = 1; argv[i]; i++)
		if (!strcmp(argv[i], "--harness") && argv[i + 1])
			return argv[i + 1];
	return NULL;
}

int tnorm_argv_has_placeholder(const char *const *argv)
{
	size_t i;
	for (i = 0; argv && argv[i]; i++)
		if (tnorm__rundir_placeholder(argv[i]))
			return 1;
	return 0;
}

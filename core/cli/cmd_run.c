/* SPDX-License-Identifier: MIT */
/* cmd_run.c - placeholder; its owner replaces this file. */
#include "cli.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "tnorm %s: not implemented yet\n", argv[0]);
	return EXIT_SYSTEM;
}

/* SPDX-License-Identifier: MIT */
/* cmd_reduce.c - placeholder; its owner replaces this file. */
#include "cli.h"

int cmd_reduce(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "tnorm %s: not implemented yet\n", argv[0]);
	return EXIT_SYSTEM;
}

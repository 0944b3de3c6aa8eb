/* SPDX-License-Identifier: MIT */
/* cmd_gen.c - placeholder; its owner replaces this file. */
#include "cli.h"

int cmd_gen(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "tnorm %s: not implemented yet\n", argv[0]);
	return EXIT_SYSTEM;
}

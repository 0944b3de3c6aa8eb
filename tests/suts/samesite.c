/* SPDX-License-Identifier: MIT */
/*
 * samesite: two bugs that crash at the same place, for the differential oracle (--fixed).  It
 * reads the file named by argv[1].  Bug A: a line "A" together with a line "a".  Bug B: a line
 * "B" without a line "b".  Either one makes the same call crash at the same line, so every
 * signature policy takes one for the other.  Built with -DSAMESITE_FIXED_A=1 it is the program
 * with bug A fixed (sut_samesite_fixed): a test "A a B b" fails here and passes there, and its
 * part "B" fails on both, which is how --fixed tells the two bugs apart.
 */
#include <stdio.h>
#include <string.h>

#ifndef SAMESITE_FIXED_A
#define SAMESITE_FIXED_A 0
#endif

static volatile int *volatile nowhere;

static void __attribute__((noinline)) store(volatile int *p)
{
	*p = 1; /* CRASH_LINE */
}

int main(int argc, char **argv)
{
	char line[256];
	int has_A = 0, has_a = 0, has_B = 0, has_b = 0;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		has_A |= !strcmp(line, "A");
		has_a |= !strcmp(line, "a");
		has_B |= !strcmp(line, "B");
		has_b |= !strcmp(line, "b");
	}
	fclose(f);
	if ((!SAMESITE_FIXED_A && has_A && has_a) || (has_B && !has_b))
		store(nowhere);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * twobug: a system under test with two different bugs, for the slippage tests.  It reads the
 * file named by argv[1] (any bytes).  Bug A: a line "A" together with a line "a" makes it crash
 * (SIGSEGV in bug_a).  Bug B: a line "B" alone is enough to make it abort in bug_b.  A test that
 * contains A, a and B fails with bug A (A is checked first); reducing it under --match any can
 * slip to the smaller bug B test, the default policy cannot.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int *volatile nowhere;

static void __attribute__((noinline)) bug_a(void)
{
	*nowhere = 1; /* BUG_A_LINE */
}

static void __attribute__((noinline)) bug_b(int n)
{
	assert(n == 0); /* BUG_B_LINE */
}

int main(int argc, char **argv)
{
	char line[256];
	int has_A = 0, has_a = 0, has_B = 0;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		has_A |= !strcmp(line, "A");
		has_a |= !strcmp(line, "a");
		has_B |= !strcmp(line, "B");
	}
	fclose(f);
	if (has_A && has_a)
		bug_a();
	if (has_B)
		bug_b(has_B);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * twofail: two faults that fail through one helper, fail(), which prints a message and aborts
 * (a model-checking driver's way).  Built with clang -O1 (tests/integration/reduce.sh), fail()
 * is inlined into main and the two abort calls are merged: both failures stop at one call, of
 * line 0.  The runner's trail finds which call of fail() led there (fault A's or B's); the
 * message is what tells them apart where it cannot.  "xy" in the input is fault A, "zz" fault B.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *msg)
{
	fprintf(stderr, "model check failed: %s\n", msg);
	abort();
}

int main(int argc, char **argv)
{
	char buf[4096];
	size_t n;
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	if (!f)
		return 2;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (strstr(buf, "xy"))
		fail("key stored twice");
	if (strstr(buf, "zz"))
		fail("size mismatch");
	return 0;
}

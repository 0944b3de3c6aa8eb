/* SPDX-License-Identifier: MIT */
/* flaky: aborts in about one run in three (randomness from /dev/urandom). */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	unsigned char b = 0;
	FILE *f = fopen("/dev/urandom", "rb");
	if (!f || fread(&b, 1, 1, f) != 1)
		return 2;
	fclose(f);
	if (b % 3 == 0)
		abort();
	return 0;
}

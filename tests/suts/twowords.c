/* SPDX-License-Identifier: MIT */
/* twowords: aborts when its input file contains both the words "alpha" and "omega" (anywhere). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	size_t n;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "rb")))
		return 125;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (strstr(buf, "alpha") && strstr(buf, "omega"))
		abort();
	return 0;
}

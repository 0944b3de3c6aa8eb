/* SPDX-License-Identifier: MIT */
/* catfile: copies the file named by argv[1] (or stdin with "-") to stdout; exits 0. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	char buf[4096];
	size_t n;
	FILE *f = argc > 1 && strcmp(argv[1], "-") ? fopen(argv[1], "rb") : stdin;
	if (!f)
		return 2;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * embed.c - build-time tool: turn a file into a C source defining `const char NAME[]` with its
 * bytes, so that a test driver carries its harness and cannot drift from it.
 * usage: embed INPUT OUTPUT.c NAME
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	FILE *in, *out;
	int c, n = 0;
	if (argc != 4) {
		fprintf(stderr, "usage: embed INPUT OUTPUT.c NAME\n");
		return 2;
	}
	if (!(in = fopen(argv[1], "rb")) || !(out = fopen(argv[2], "w"))) {
		perror("embed");
		return 1;
	}
	fprintf(out, "/* generated from %s by embed.c; do not edit */\nconst char %s[] = {\n", argv[1],
	        argv[3]);
	while ((c = fgetc(in)) != EOF)
		fprintf(out, "%d,%s", c, ++n % 16 ? "" : "\n");
	fprintf(out, "0};\n");
	fclose(in);
	return fclose(out) ? 1 : 0;
}

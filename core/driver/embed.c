/* SPDX-License-Identifier: MIT */
/*
 * embed.c - `tnorm-embed`, a build-time tool: turn a file into a C source defining
 * `const char NAME[]` with its bytes (NUL-ended), so that a test driver carries its harness and
 * cannot drift from it.  usage: tnorm-embed INPUT OUTPUT.c NAME
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	FILE *in, *out;
	int c, n = 0;
	if (argc != 4) {
		fprintf(stderr,
		        "usage: tnorm-embed INPUT OUTPUT.c NAME\n\n"
		        "Write OUTPUT.c, a C source defining 'const char NAME[]' with the bytes of INPUT\n"
		        "(a harness file) and a final NUL.  NAME must match the driver's declaration\n"
		        "'extern const char NAME[];', the harness it passes to tnorm_drv_main.\n");
		return 2;
	}
	for (c = 0; argv[3][c]; c++)
		if (!(isalpha((unsigned char)argv[3][c]) || argv[3][c] == '_' ||
		      (c > 0 && isdigit((unsigned char)argv[3][c]))))
			break;
	if (c == 0 || argv[3][c]) {
		fprintf(stderr, "tnorm-embed: NAME '%s' is not a C identifier, expected the name in the "
		                "driver's 'extern const char NAME[];'\n", argv[3]);
		return 2;
	}
	if (!(in = fopen(argv[1], "rb"))) {
		fprintf(stderr, "tnorm-embed: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (!(out = fopen(argv[2], "w"))) {
		fprintf(stderr, "tnorm-embed: %s: %s\n", argv[2], strerror(errno));
		fclose(in);
		return 1;
	}
	fprintf(out, "/* generated from %s by tnorm-embed; do not edit */\nconst char %s[] = {\n",
	        argv[1], argv[3]);
	while ((c = fgetc(in)) != EOF)
		fprintf(out, "%d,%s", c, ++n % 16 ? "" : "\n");
	fprintf(out, "0};\n");
	fclose(in);
	return fclose(out) ? 1 : 0;
}

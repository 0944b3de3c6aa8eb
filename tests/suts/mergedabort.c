/* SPDX-License-Identifier: MIT */
/*
 * mergedabort: three checks in one function that fail by abort() with no message, two through a
 * macro and one through an always_inline helper.  clang -O2 merges the three abort() calls into
 * one (line 0 in the line table), gcc -O2 into one in process.cold (under the first check's
 * line): without help, every failure has one signature.  '(' nested 5 deep is fault A, ')' 3
 * more than '(' fault B (in check()), a 'q' at offset 7 fault C.
 */
#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                                           \
	do {                                                                               \
		if (!(c))                                                                  \
			abort();                                                           \
	} while (0)

static inline __attribute__((always_inline)) void check(int c)
{
	if (!c)
		abort();
}

static int process(const char *buf, size_t n)
{
	int depth = 0, i;
	for (i = 0; i < (int)n; i++) {
		if (buf[i] == '(')
			depth++;
		if (buf[i] == ')')
			depth--;
		CHECK(depth < 5);     /* fault A */
		check(depth >= -2);   /* fault B */
		if (buf[i] == 'q')
			CHECK(i != 7); /* fault C */
	}
	return depth;
}

int main(int argc, char **argv)
{
	static char text[4096];
	size_t len = 0;
	int c;
	FILE *in = argc == 2 ? fopen(argv[1], "rb") : NULL;
	if (in == NULL)
		return 2;
	while (len < sizeof(text) && (c = getc(in)) != EOF)
		text[len++] = (char)c;
	fclose(in);
	return process(text, len) > 100;
}

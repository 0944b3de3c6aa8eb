/* SPDX-License-Identifier: MIT */
/*
 * recurse.c - two bugs for the stack-exhaustion rule (docs/signatures.md, "Stack exhaustion";
 * tests/integration/recursion.sh).  Reads a file (argv[1]): each '(' nests once more and each
 * ')' closes one; a '(' with no ')' anywhere after it nests without end (bug A: the stack runs out
 * in `nest`, at whichever line its frame happened to cross the guard page).  A '!' reads through
 * a NULL pointer in `bang` (bug B).
 */
#include <stdio.h>
#include <string.h>

static const char *text;
static size_t len;

static int bang(size_t at)
{
	const volatile int *none = NULL;
	return at > len ? 0 : *none; /* bug B */
}

/* Depth of the parenthesis at `at`; a frame of 512 bytes, each written, so that the stack runs
 * out at one of several lines. */
static int nest(size_t at, int depth)
{
	volatile char frame[512];
	size_t i;
	for (i = 0; i < sizeof(frame); i++)
		frame[i] = (char)(depth + (int)i);
	if (!memchr(text + at, ')', len - at))
		return nest(at, depth + 1) + frame[depth % 512]; /* bug A: never closes */
	return frame[0];
}

int main(int argc, char **argv)
{
	static char buf[4096];
	size_t i;
	int sum = 0;
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	if (!f)
		return 2;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	text = buf;
	for (i = 0; i < len; i++) {
		if (buf[i] == '(')
			sum += nest(i + 1, 1);
		else if (buf[i] == '!')
			sum += bang(i);
	}
	printf("%d\n", sum);
	return 0;
}

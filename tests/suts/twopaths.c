/* SPDX-License-Identifier: MIT */
/*
 * twopaths: one bug reached by two paths, built with AddressSanitizer, for the triage report
 * (tests/integration/report-html.sh, issue 40, item 7).  peek() reads past a table of 4 when the
 * input starts with '!'; an input of more than 8 bytes reaches it through from_long(), a shorter
 * one through from_short().  The signature key (the kind and the throwing frame) is the same, the
 * stack is not: a crash file of 12 bytes fails through from_long, its normal form "!" through
 * from_short, and the report must show the stack of the representative's own file.
 * It reads the file named by its argument, or standard input without one.
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned __attribute__((noinline)) peek(const unsigned char *s, size_t n)
{
	unsigned *table = calloc(4, sizeof(*table)), r;
	if (!table)
		return 0;
	r = table[n && s[0] == '!' ? 8 : 0]; /* BUG_LINE: no bound */
	free(table);
	return r;
}

static unsigned __attribute__((noinline)) from_long(const unsigned char *s, size_t n)
{
	return peek(s, n) + 1;
}

static unsigned __attribute__((noinline)) from_short(const unsigned char *s, size_t n)
{
	return peek(s, n) + 2;
}

int main(int argc, char **argv)
{
	static unsigned char buf[64];
	FILE *in = argc > 1 ? fopen(argv[1], "rb") : stdin;
	size_t len;
	if (in == NULL)
		return 125;
	len = fread(buf, 1, sizeof(buf), in); /* more than 8 bytes is all it tells apart */
	printf("%u\n", len > 8 ? from_long(buf, len) : from_short(buf, len));
	return 0;
}

// SPDX-License-Identifier: MIT
// bench/bulk/bulk.c: a cheap program with three bugs for bench/triagebulk.sh (issue 38, item 3).
// Reads FILE; its second byte picks the bug: 'A' an assert-like abort, 'B' a NULL read, 'C' a
// division by zero; any other byte passes.  No sanitizer, so that a run costs what a process
// costs and the triage's own bookkeeping per file is what the benchmark shows.
#include <stdio.h>
#include <stdlib.h>

static void check_header(const unsigned char *b, size_t n)
{
	if (n > 3 && b[1] == 'A')
		abort();
}

static const int *lookup(const unsigned char *b, size_t n)
{
	static const int table[4] = {1, 2, 3, 4};
	return n > 4 && b[1] == 'B' ? NULL : &table[b[0] & 3];
}

int main(int argc, char **argv)
{
	unsigned char buf[256];
	volatile int zero = 0;
	const int *volatile p;
	FILE *f;
	size_t n;
	if (argc < 2 || !(f = fopen(argv[1], "rb")))
		return 2;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n < 2)
		return 0;
	check_header(buf, n);
	p = lookup(buf, n);
	if (n > 5 && buf[1] == 'C')
		return 10 / zero;
	return *p == 12345678;
}

/* SPDX-License-Identifier: MIT */
/* asan_overflow: a heap buffer overflow (built with -fsanitize=address) at a known line. */
#include <stdlib.h>

static int __attribute__((noinline)) overflow(int *p, int n)
{
	return p[n]; /* OVERFLOW_LINE */
}

int main(int argc, char **argv)
{
	int *p = malloc(4 * sizeof(*p)), r;
	(void)argv;
	r = overflow(p, 3 + argc);
	free(p);
	return r;
}

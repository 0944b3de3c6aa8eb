/* SPDX-License-Identifier: MIT */
/* crash_line: SIGSEGV at the marked line, two calls below main. */
#include <stdio.h>

static volatile int *volatile nowhere;

static int __attribute__((noinline)) deref(void)
{
	return *nowhere; /* CRASH_LINE */
}

static int __attribute__((noinline)) middle(void)
{
	return deref() + 1;
}

int main(void)
{
	printf("about to crash\n");
	fflush(stdout);
	return middle();
}

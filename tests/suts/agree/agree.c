/* SPDX-License-Identifier: MIT */
/*
 * agree.c - one crash per scenario, for checking that the gdb and lldb plugins give the CLI's
 * signature (tests/integration/agree.sh builds it with gcc and clang, at -O0 and -O2, plain and
 * with sanitizers).  The test file's first word picks the scenario:
 *   hbo      a heap buffer overflow (WRITE) in a noinline function (an ASan report)
 *   inline   a NULL read inside a `static inline` helper called from a noinline function, so that
 *            at -O2 the faulting instruction is inlined code
 *   thread   a NULL write in a second pthread
 *   overflow a signed integer overflow (a UBSan report)
 * Each scenario's crash is in its own function with its own code, and every pointer and value
 * comes from the input, so that no compiler can fold a crash site into another or into a trap.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static volatile long zero; /* 0, but not a constant the compiler can see through */

static NOINLINE void hbo_fill(char *buf, size_t n)
{
	size_t i;
	for (i = 0; i <= n; i++)
		buf[i] = (char)('a' + i % 26); /* AGREE_HBO */
}

static inline int helper_read(const int *p, int k)
{
	return p[k] * 3 + 1; /* AGREE_INLINE */
}

static NOINLINE int inline_caller(const int *p, int k)
{
	int r = helper_read(p, k);
	printf("read %d\n", r);
	return r;
}

static void *thread_main(void *arg)
{
	long *target = arg;
	*target = 42; /* AGREE_THREAD */
	return NULL;
}

static NOINLINE int run_thread(long *target)
{
	pthread_t t;
	if (pthread_create(&t, NULL, thread_main, target) != 0)
		return 1;
	pthread_join(t, NULL);
	return 0;
}

static NOINLINE int overflow_add(int a, int b)
{
	return a + b; /* AGREE_OVERFLOW */
}

int main(int argc, char **argv)
{
	char word[32] = "";
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: %s TEST\n", argv[0]);
		return 2;
	}
	if (fscanf(f, "%31s", word) != 1)
		word[0] = '\0';
	fclose(f);
	if (!strcmp(word, "hbo")) {
		size_t n = strlen(word) + 13 + (size_t)zero;
		char *buf = malloc(n);
		hbo_fill(buf, n);
		printf("%c\n", buf[0]);
		free(buf);
	} else if (!strcmp(word, "inline")) {
		return inline_caller((const int *)zero, (int)strlen(word) + (int)zero) & 1;
	} else if (!strcmp(word, "thread")) {
		return run_thread((long *)zero);
	} else if (!strcmp(word, "overflow")) {
		return overflow_add(0x7fffffff - (int)zero, (int)strlen(word)) & 1;
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * cmdloop: a model-checking driver (issue 38).  A sorted set of small ints is driven by a
 * command file, one command a line ("i N" insert, "d N" delete, anything else ignored), and
 * after every command main's loop checks the set against a model (a bitmap) with fail(), a
 * helper that prints a message and aborts.  fail() is inlined at each check of the loop, and the
 * compiler merges their abort calls into one (clang -O1: one call with line 0; gcc -O2: one in
 * main.cold).
 *
 * Three bugs, one per check:
 *   A: deleting the smallest of three or more elements drops the count but not the element: the
 *      membership check fails ("i1 i2 i3 d1", a line each, is the smallest failing test);
 *   B: the sixth element is appended, not put in order: the order check fails ("i2 i3 i4 i5 i6
 *      i1");
 *   C: deleting 63, not a member, drops the count: the size check fails ("d63").
 * A long command file before a failure runs the checks thousands of times.
 */
#include <stdio.h>
#include <stdlib.h>

#define MAXV 64

struct set {
	int n;
	int v[MAXV];
};

static inline __attribute__((always_inline)) void fail(const char *what, long cmd)
{
	fprintf(stderr, "cmdloop: %s after command %ld\n", what, cmd);
	abort();
}

static int find(const struct set *s, int x)
{
	int i;
	for (i = 0; i < s->n; i++)
		if (s->v[i] == x)
			return i;
	return -1;
}

static void insert(struct set *s, int x)
{
	int i;
	if (find(s, x) >= 0 || s->n == MAXV)
		return;
	if (s->n == 5) { /* bug B */
		s->v[s->n++] = x;
		return;
	}
	for (i = s->n; i > 0 && s->v[i - 1] > x; i--)
		s->v[i] = s->v[i - 1];
	s->v[i] = x;
	s->n++;
}

static void erase(struct set *s, int x)
{
	int i = find(s, x);
	if (i < 0) {
		if (x == 63) /* bug C */
			s->n--;
		return;
	}
	if (i == 0 && s->n >= 3) { /* bug A: the element stays */
		s->n--;
		return;
	}
	for (; i + 1 < s->n; i++)
		s->v[i] = s->v[i + 1];
	s->n--;
}

int main(int argc, char **argv)
{
	static struct set s;
	static unsigned char model[MAXV];
	char line[64];
	long cmd = 0;
	int k, count, x;
	FILE *in = argc == 2 ? fopen(argv[1], "r") : NULL;
	if (!in)
		return 2;
	while (fgets(line, sizeof(line), in)) {
		cmd++;
		if (sscanf(line + 1, "%d", &x) != 1 || x < 0 || x >= MAXV)
			continue;
		if (line[0] == 'i') {
			insert(&s, x);
			model[x] = 1;
		} else if (line[0] == 'd') {
			erase(&s, x);
			model[x] = 0;
		}
		for (k = count = 0; k < MAXV; k++)
			count += model[k];
		if (count != s.n)
			fail("size differs from the model", cmd);
		for (k = 0; k < MAXV; k++)
			if ((find(&s, k) >= 0) != model[k])
				fail("membership differs from the model", cmd);
		for (k = 1; k < s.n; k++)
			if (s.v[k - 1] >= s.v[k])
				fail("not in order", cmd);
	}
	fclose(in);
	return 0;
}

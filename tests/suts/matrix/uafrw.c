/* SPDX-License-Identifier: MIT */
/*
 * uafrw: named counters, one command a line:  inc NAME | drop NAME | copy DST SRC | show NAME
 * The first name of every command is interned (created on first use) at one line, the second
 * (SRC) must exist.  `drop` frees a counter and marks its slot dropped, but the slot keeps the
 * pointer and intern() does not look at the mark.  Both bugs fault at the same line of
 * copy_value, with the same stack, the same allocation stack and the same free stack: they differ
 * only in the access (READ vs WRITE).  ASan only.
 * Bug A (READ):  the source was dropped:      "drop x", "copy total x"   (2 lines)
 * Bug B (WRITE): the destination was dropped: "drop z", "copy z total"   (2 lines)
 * The input has A's lines first, so the whole test fails with A.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct counter {
	long value;
	long updates;
};

struct slot {
	char name[32];
	int dropped;
	struct counter *c;
};

static struct slot slots[32];
static int nslots;

static void mark(const char *bug) { fprintf(stderr, "%s\n", bug); } /* test marker */

static struct slot *lookup(const char *name)
{
	for (int i = 0; i < nslots; i++)
		if (!strcmp(slots[i].name, name))
			return &slots[i];
	return NULL;
}

static struct slot *intern(const char *name)
{
	struct slot *s = lookup(name);
	if (s || nslots == 32)
		return s;
	s = &slots[nslots++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->c = calloc(1, sizeof(*s->c));
	return s;
}

static void copy_value(struct slot *dst, const struct slot *src)
{
	if (src->dropped)
		mark("BUG-A");
	else if (dst->dropped)
		mark("BUG-B");
	dst->c->value = src->c->value; /* A: READ of freed src, B: WRITE to freed dst */
	dst->c->updates++;
}

static void run(const char *cmd, const char *a, const char *b)
{
	struct slot *x = intern(a), *y = b[0] ? lookup(b) : NULL;
	if (!x)
		return;
	if (!strcmp(cmd, "inc") && !x->dropped)
		x->c->value++;
	else if (!strcmp(cmd, "drop") && !x->dropped) {
		x->dropped = 1;
		free(x->c); /* the bug: x->c is left dangling */
	} else if (!strcmp(cmd, "copy") && y)
		copy_value(x, y);
	else if (!strcmp(cmd, "show") && !x->dropped)
		printf("%s = %ld\n", x->name, x->c->value);
}

int main(int argc, char **argv)
{
	char line[256], cmd[16], a[32], b[32];
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	intern("total");
	while (fgets(line, sizeof(line), f)) {
		b[0] = '\0';
		if (sscanf(line, "%15s %31s %31s", cmd, a, b) >= 2)
			run(cmd, a, b);
	}
	fclose(f);
	for (int i = 0; i < nslots; i++)
		if (!slots[i].dropped)
			free(slots[i].c);
	return 0;
}

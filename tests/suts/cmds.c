/* SPDX-License-Identifier: MIT */
/*
 * cmds: a small command interpreter over a table of devices, one command a line, built with
 * AddressSanitizer:
 *   attach NAME     add a device (its index is the number of devices before it)
 *   detach I        remove device I
 *   rename I NAME   rename device I
 *   list            print every device
 *   count           print how many there are
 *   # ...           a comment; blank lines are ignored
 * Planted bug: detaching the last device pops it, but detaching any other frees it and leaves
 * its slot in the table, so a later `list` reads freed memory (heap-use-after-free READ in
 * list_devices).  The failure needs `detach I` with I below the last index: deleting the
 * devices before I turns the index out of range, so only rewriting I lets them go.
 * An unknown command, a bad index or a missing name prints a message and exits 1.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	char *name;
	unsigned id;
} device;

static device *table[64];
static size_t ndev;

static void bad(unsigned line, const char *what)
{
	fprintf(stderr, "cmds: line %u: %s\n", line, what);
	exit(1);
}

static size_t parse_index(unsigned line, const char *s)
{
	char *end;
	long v;
	if (!isdigit((unsigned char)*s))
		bad(line, "expected an index");
	v = strtol(s, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end && *end != ' ')
		bad(line, "trailing characters after the index");
	if (v < 0 || (size_t)v >= ndev)
		bad(line, "no such device");
	return (size_t)v;
}

static char *word(char **p)
{
	char *s = *p, *e;
	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s; *e && *e != ' ' && *e != '\t'; e++)
		;
	*p = *e ? e + 1 : e;
	*e = '\0';
	return s;
}

static void __attribute__((noinline)) list_devices(void)
{
	size_t i;
	for (i = 0; i < ndev; i++)
		printf("%zu: %s (#%u)\n", i, table[i]->name, table[i]->id); /* UAF_LINE */
}

static void detach(size_t i)
{
	free(table[i]->name);
	free(table[i]);
	if (i == ndev - 1)
		ndev--; /* BUG: any other slot keeps its dangling pointer */
}

int main(int argc, char **argv)
{
	char line[512];
	unsigned lineno = 0, next_id = 100;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *cmd;
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		cmd = word(&p);
		if (!*cmd || *cmd == '#')
			continue;
		if (!strcmp(cmd, "attach")) {
			char *name = word(&p);
			if (!*name)
				bad(lineno, "attach needs a name");
			if (ndev == 64)
				bad(lineno, "too many devices");
			table[ndev] = malloc(sizeof(device));
			table[ndev]->name = strdup(name);
			table[ndev]->id = next_id++;
			ndev++;
		} else if (!strcmp(cmd, "detach")) {
			detach(parse_index(lineno, word(&p)));
		} else if (!strcmp(cmd, "rename")) {
			size_t i = parse_index(lineno, word(&p));
			char *name = word(&p);
			if (!*name)
				bad(lineno, "rename needs a name");
			free(table[i]->name);
			table[i]->name = strdup(name);
		} else if (!strcmp(cmd, "list")) {
			list_devices();
		} else if (!strcmp(cmd, "count")) {
			printf("%zu devices\n", ndev);
		} else {
			bad(lineno, "unknown command");
		}
	}
	fclose(f);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * strict: a small stack machine that is not a tnorm driver.  It reads the file named by argv[1],
 * one command a line: "push N", "pop", or a blank line.  Anything else is a bad command: it says
 * so and exits 2, as many programs do on input they do not accept.  The bug: "pop" on an empty
 * stack aborts (in pop).  Reducing a test for it cuts commands apart on the way ("po", "psh 1"):
 * without --invalid-exit 2 those exit(2) runs count as other failures.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int stack[64];
static int depth;

static void __attribute__((noinline)) pop(void)
{
	assert(depth > 0); /* POP_LINE */
	depth--;
}

static void __attribute__((noinline)) bad_command(int lineno, const char *line)
{
	fprintf(stderr, "strict: line %d: bad command '%s'\n", lineno, line);
	exit(2);
}

int main(int argc, char **argv)
{
	char line[256], *end;
	int lineno = 0;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: strict FILE\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		if (!strcmp(line, "pop")) {
			pop();
		} else if (!strncmp(line, "push ", 5) && line[5] && depth < 64) {
			stack[depth++] = (int)strtol(line + 5, &end, 10);
			if (*end)
				bad_command(lineno, line);
		} else {
			bad_command(lineno, line);
		}
	}
	fclose(f);
	return 0;
}

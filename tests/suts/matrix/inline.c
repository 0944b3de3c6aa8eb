/* SPDX-License-Identifier: MIT */
/*
 * inline: a table layout read one command a line:
 *   col NAME WIDTH | hide NAME | header | width NAME
 * col_width() is a small `static inline` accessor that faults on a NULL column; at -O2 it is
 * inlined into both callers (at -O0 it is a real function called from both).
 * Bug A (call site 1, print_header): `hide` leaves a hole in the column array and `header` walks
 *        over it.  Lines: "col id 4", "hide id", "header"       (3 lines)
 * Bug B (call site 2, show_width): `width` of an unknown column.  Lines: "width size"  (1 line)
 * The input has A's lines first, so the whole test fails with A.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct column {
	char name[24];
	int width;
};

struct layout {
	struct column *cols[16];
	int ncols, hidden;
};

static void mark(const char *bug) { fprintf(stderr, "%s\n", bug); } /* test marker */

static inline int col_width(const struct column *c)
{
	return c->width; /* A and B: NULL dereference */
}

static __attribute__((noinline)) struct column *find_column(struct layout *l, const char *name)
{
	for (int i = 0; i < l->ncols; i++)
		if (l->cols[i] && !strcmp(l->cols[i]->name, name))
			return l->cols[i];
	return NULL;
}

static void print_header(const struct layout *l)
{
	int total = 0;
	if (l->hidden)
		mark("BUG-A");
	for (int i = 0; i < l->ncols; i++)
		total += col_width(l->cols[i]) + 1; /* call site 1 */
	printf("header: %d columns, %d chars\n", l->ncols, total);
}

static void show_width(struct layout *l, const char *name)
{
	struct column *c = find_column(l, name);
	if (l->ncols >= 0 && !find_column(l, name))
		mark("BUG-B");
	printf("%s: %d\n", name, col_width(c)); /* call site 2 */
}

static void add_column(struct layout *l, const char *name, int width)
{
	struct column *c;
	if (l->ncols == 16)
		return;
	c = calloc(1, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->width = width;
	l->cols[l->ncols++] = c;
}

static void hide_column(struct layout *l, const char *name)
{
	for (int i = 0; i < l->ncols; i++) {
		if (l->cols[i] && !strcmp(l->cols[i]->name, name)) {
			free(l->cols[i]);
			l->cols[i] = NULL; /* the bug: the array is not compacted */
			l->hidden++;
		}
	}
}

int main(int argc, char **argv)
{
	struct layout l = {{NULL}, 0, 0};
	char line[256], cmd[16], name[24];
	int width;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%15s %23s %d", cmd, name, &width);
		if (n == 3 && !strcmp(cmd, "col"))
			add_column(&l, name, width);
		else if (n == 2 && !strcmp(cmd, "hide"))
			hide_column(&l, name);
		else if (n == 1 && !strcmp(cmd, "header"))
			print_header(&l);
		else if (n == 2 && !strcmp(cmd, "width"))
			show_width(&l, name);
	}
	fclose(f);
	for (int i = 0; i < l.ncols; i++)
		free(l.cols[i]);
	return 0;
}

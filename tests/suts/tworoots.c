/* SPDX-License-Identifier: MIT */
/*
 * tworoots: two bugs with one crash site.  A line that starts with 'n' is a name record, one that
 * starts with 'v' a value record; each parser computes a slot in a table of 8 and store() writes
 * there, so both bugs write out of the table at one line with one stack (ASan: one signature).
 * The name parser counts letters and forgets that only 8 fit (bug A: a name of 8 or more
 * letters); the value parser reads a decimal number and forgets negatives (bug B: "v-N").
 * Their fixes are in different functions: two root causes, which only the path to the crash
 * tells apart (triage's comparison of executions, docs/commands/triage.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int *table;

static void store(int slot, int value)
{
	table[slot] = value; /* CRASH_SITE */
}

static int name_slot(const char *s)
{
	int letters = 0, vowels = 0;
	while (*s >= 'a' && *s <= 'z') {
		if (strchr("aeiou", *s))
			vowels++;
		letters++;
		s++;
	}
	if (vowels > letters / 2)
		letters--;
	return letters; /* bug A: 8 letters or more is past the table */
}

static int value_slot(const char *s)
{
	int sign = 1, n = 0;
	if (*s == '-') {
		sign = -1;
		s++;
	}
	while (*s >= '0' && *s <= '9') {
		n = n * 10 + (*s - '0');
		if (n > 7)
			n = 7;
		s++;
	}
	return sign * n; /* bug B: a negative number is before the table */
}

int main(int argc, char **argv)
{
	char line[256];
	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
	if (!f || !(table = calloc(8, sizeof(*table))))
		return 2;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == 'n')
			store(name_slot(line + 1), 1);
		else if (line[0] == 'v')
			store(value_slot(line + 1), 2);
	}
	fclose(f);
	free(table);
	return 0;
}

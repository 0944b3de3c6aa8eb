/* SPDX-License-Identifier: MIT */
/*
 * ubsan: quota settings read one command a line:  set NAME VALUE | scale NAME FACTOR | bits N
 * Two different undefined behaviours, for UBSan builds (without UBSan neither faults).
 * Bug A (signed-integer-overflow, scale_quota): scaling a large quota overflows int.
 *        Lines: "set disk 2000000000", "scale disk 3"       (2 lines)
 * Bug B (shift-exponent too large, mask_for): "bits 40"     (1 line)
 * The input has A's lines first, so the whole test fails with A.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct quota {
	char name[24];
	int value;
};

static struct quota quotas[16];
static int nquotas;

static void mark(const char *bug) { fprintf(stderr, "%s\n", bug); } /* test marker */

static struct quota *quota(const char *name)
{
	for (int i = 0; i < nquotas; i++)
		if (!strcmp(quotas[i].name, name))
			return &quotas[i];
	if (nquotas == 16)
		return NULL;
	snprintf(quotas[nquotas].name, sizeof(quotas[nquotas].name), "%s", name);
	return &quotas[nquotas++];
}

static int scale_quota(struct quota *q, int factor)
{
	int r;
	if (__builtin_mul_overflow(q->value, factor, &r))
		mark("BUG-A");
	q->value = q->value * factor; /* BUG A: signed overflow */
	return q->value;
}

static unsigned mask_for(int bits)
{
	if (bits >= 32)
		mark("BUG-B");
	return (1 << bits) - 1; /* BUG B: shift exponent too large */
}

int main(int argc, char **argv)
{
	char line[256], cmd[16], name[24];
	int v;
	struct quota *q;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "set %23s %d", name, &v) == 2 && (q = quota(name)))
			q->value = v;
		else if (sscanf(line, "scale %23s %d", name, &v) == 2 && (q = quota(name)))
			printf("%s = %d\n", name, scale_quota(q, v));
		else if (sscanf(line, "bits %d", &v) == 1 && v >= 0)
			printf("mask %08x\n", mask_for(v));
		else if (sscanf(line, "%15s", cmd) == 1 && cmd[0] != '#')
			fprintf(stderr, "unknown: %s", line);
	}
	fclose(f);
	return 0;
}

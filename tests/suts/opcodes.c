/* SPDX-License-Identifier: MIT */
/*
 * opcodes: a binary command reader, built with AddressSanitizer: the binary counterpart of
 * jsonish for the generic triage tests (tests/integration/triage-generic.sh), whose crash files
 * and normal forms hold NUL bytes and bytes that are not UTF-8.  Each byte is an opcode: 0x07
 * starts a label (the bytes up to a NUL or the end), 0xff a lookup (the next byte indexes a table,
 * and a NUL ends it); 0x01 to 0x06 count; any other byte is skipped.  Two planted bugs:
 *   A  stack-buffer-overflow WRITE in read_label: a label longer than 16 bytes;
 *   B  heap-buffer-overflow READ in lookup: an index of 4 or more into a table of 4.
 * It reads the file named by its argument, or standard input without one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned __attribute__((noinline)) read_label(const unsigned char *v, size_t n)
{
	char label[16];
	memcpy(label, v, n); /* BUG_A_LINE: no bound */
	return (unsigned char)label[0];
}

static unsigned __attribute__((noinline)) lookup(unsigned index)
{
	unsigned *table = calloc(4, sizeof(*table)), r;
	if (!table)
		return 0;
	r = table[index]; /* BUG_B_LINE: no bound */
	free(table);
	return r;
}

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	unsigned long counts = 0, labels = 0, found = 0;
	size_t n, i = 0;
	FILE *f;
	if (!(f = argc < 2 ? stdin : fopen(argv[1], "rb")))
		return 125;
	n = fread(buf, 1, sizeof(buf), f);
	if (f != stdin)
		fclose(f);
	while (i < n) {
		unsigned char op = buf[i++];
		if (op >= 0x01 && op <= 0x06) {
			counts++;
		} else if (op == 0x07) {
			size_t b = i;
			while (i < n && buf[i])
				i++;
			labels += read_label(buf + b, i - b);
		} else if (op == 0xff && i + 2 <= n && buf[i + 1] == 0) {
			found += lookup(buf[i]);
			i += 2;
		}
	}
	printf("%lu counts, %lu labels, %lu found\n", counts, labels, found);
	return 0;
}

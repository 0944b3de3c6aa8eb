/* SPDX-License-Identifier: MIT */
/*
 * balance: a fuzz target (LLVMFuzzerTestOneInput) with a plain main that reads the file named by
 * its argument and calls it once, as a fuzzer's crash files are replayed: no tnorm driver.  It
 * counts the nesting of '(' and ')' in its input and checks, at the end, that the count is not
 * negative.  Planted bug: '!' undoes two opens at once (BUG_LINE), so "(!)" ends below zero and
 * the check aborts in check().  `tnorm goto fail --record` records the whole run of the input
 * (from LLVMFuzzerTestOneInput on) and `tnorm changed s->depth` in check() finds the writes
 * (tests/integration/gdb.sh, issue 41).  Built with AddressSanitizer too (sut_balance_asan), for
 * a second bug: an input that starts with '#' is copied whole into an 8-byte tag (TAG_LINE), a
 * stack-buffer-overflow that ASan finds inside its memcpy interceptor.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct state {
	int depth;
	int opened;
};

static void __attribute__((noinline)) take(struct state *s, uint8_t c)
{
	if (c == '(') {
		s->depth++; /* OPEN_LINE */
		s->opened++;
	} else if (c == ')') {
		s->depth--; /* CLOSE_LINE */
	} else if (c == '!') {
		s->depth -= 2; /* BUG_LINE */
	}
}

static void __attribute__((noinline)) check(const struct state *s)
{
	if (s->depth < 0)
		abort(); /* CHECK_LINE */
}

static int __attribute__((noinline)) tagged(const uint8_t *data, size_t size)
{
	char tag[8];
	memcpy(tag, data, size); /* TAG_LINE: no bound */
	return tag[1] == '(';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state s = { 0, 0 };
	if (size > 0 && data[0] == '#' && tagged(data, size))
		s.opened = 1;
	for (size_t i = 0; i < size; i++)
		take(&s, data[i]);
	check(&s);
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t buf[4096];
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	if (!f)
		return 2;
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return LLVMFuzzerTestOneInput(buf, n);
}

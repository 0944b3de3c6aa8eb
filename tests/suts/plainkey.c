/* SPDX-License-Identifier: MIT */
/*
 * plainkey: a bug whose failing bytes are no interval and whose lowest is none of the cheap
 * values, as libyaml's ` - "\n"0` (which also fails as ` - "\n"$`).  The input is `ab: []`
 * and one more byte; the reader takes that byte as the start of a plain scalar when it is not
 * a space, a control byte or one of YAML's indicators, and then reads one byte past the end of
 * its buffer (bug: the scalar reader assumes a line end follows).  The failing last bytes are
 * `$`, `(`, `)`, `+`, `.`, `/`, digits, letters ...: `0` is the lowest cheap value that fails,
 * `$` the lowest of all.  tests/integration/triage-generic.sh: the polish of tnorm triage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int plain_start(unsigned char c)
{
	return c > ' ' && c < 0x7f && !strchr("!\"#%&'*,-:>?@[]`{|}", c);
}

/* The scalar's length: up to the line end that the bug assumes is there. */
static size_t scalar(const char *s)
{
	size_t n = 1;
	while (s[n] != '\n') /* BUG: no bound; the buffer holds no '\n' */
		n++;
	return n;
}

int main(int argc, char **argv)
{
	char buf[64], *copy;
	size_t len;
	FILE *f;
	if (argc != 2 || !(f = fopen(argv[1], "rb")))
		return 2;
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (len != 7 || memcmp(buf, "ab: []", 6) || !plain_start((unsigned char)buf[6]))
		return 0;
	if (!(copy = malloc(len)))
		return 2;
	memcpy(copy, buf, len);
	printf("scalar of %zu bytes\n", scalar(copy + 6));
	free(copy);
	return 0;
}

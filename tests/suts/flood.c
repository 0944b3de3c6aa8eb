/* SPDX-License-Identifier: MIT */
/* flood: writes 100 MB to stdout and 10 MB to stderr, then crashes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	static char buf[1 << 20];
	int i;
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < 100; i++)
		if (write(1, buf, sizeof(buf)) < 0)
			return 1;
	for (i = 0; i < 10; i++)
		if (write(2, buf, sizeof(buf)) < 0)
			return 1;
	abort();
}

/* SPDX-License-Identifier: MIT */
/* exit3: exits with status 3 from a helper function (an exit-code failure). */
#include <stdlib.h>

static void __attribute__((noinline)) give_up(void)
{
	exit(3); /* EXIT_LINE */
}

int main(void)
{
	give_up();
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* abort_assert: an assert() fails at a known line in check(); the throwing frame is check. */
#include <assert.h>

static void __attribute__((noinline)) check(int x)
{
	assert(x > 0); /* ASSERT_LINE */
}

int main(int argc, char **argv)
{
	(void)argv;
	check(argc - 1);
	return 0;
}

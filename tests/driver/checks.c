/* SPDX-License-Identifier: MIT */
/*
 * checks.c - a test driver whose checks fail in the ways item 6 of issue 16 is about: one check
 * returns nonzero (the runtime aborts for it: `check-failed:not_seven`), two call a shared
 * fail() helper (told apart by the helper's call site), and one name runs the same function as
 * another (`also_three`), so its failures cannot be told apart from that one's: `tnorm check
 * --driver` says so.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tnorm/driver.h"

extern const char checks_harness[];

static void fail(const char *what)
{
	fprintf(stderr, "check failed: %s\n", what);
	abort();
}

static int not_seven(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	return a[0]->i == 7;
}

static int not_three(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	if (a[0]->i == 3)
		fail("three");
	return 0;
}

static int not_five(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	if (a[0]->i == 5)
		fail("five");
	return 0;
}

static const tnorm_drv_handler handlers[] = {
	{"not_seven", not_seven}, {"not_three", not_three}, {"not_five", not_five},
	{"also_three", not_three}, {NULL, NULL},
};

int main(int argc, char **argv)
{
	return tnorm_drv_main(argc, argv, checks_harness, handlers);
}

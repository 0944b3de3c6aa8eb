/* SPDX-License-Identifier: MIT */
/*
 * escaper_driver: the escaper SUT (escaper.c) as a tnorm driver, so that its runs go through
 * the fork server: each run's child starts processes that leave its process group.
 */
#include <stdlib.h>

#include "escape.h"
#include "tnorm/driver.h"

extern const char escaper_harness[];

static int do_escape(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d;
	(void)res;
	escape(a[0]->i != 0);
	return 0;
}

static int noop(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d;
	(void)a;
	(void)res;
	return 0;
}

static int crash(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)d;
	(void)a;
	(void)res;
	abort(); /* CRASH_LINE */
}

static const tnorm_drv_handler handlers[] = {
	{"escape", do_escape}, {"noop", noop}, {"crash", crash}, {NULL, NULL},
};

int main(int argc, char **argv)
{
	return tnorm_drv_main(argc, argv, escaper_harness, handlers);
}

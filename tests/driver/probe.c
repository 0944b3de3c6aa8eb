/* SPDX-License-Identifier: MIT */
/*
 * probe.c - a test driver for test_driver.c: each handler prints what it received, so the test
 * can check argument passing, stored results, checks on live instances only, and the step hook.
 * Objects are ints on the heap; `positive` fails (returns 1) when an object's value is negative.
 * Objects have a destructor (issue 16), which prints what it frees; `renew` prints the value it
 * overwrites; `kinds` prints the kind of a literal from a list that mixes kinds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tnorm/driver.h"

extern const char probe_harness[];

static int make(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	long *o = malloc(sizeof(*o));
	if (!o)
		return TNORM_DRV_INVALID;
	*o = (long)a[0]->i;
	res->p = o;
	printf("make(%lld)\n", (long long)a[0]->i);
	return 0;
}

static int size(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	res->i = *(long *)a[0]->p * 10;
	printf("size -> %lld\n", (long long)res->i);
	return 0;
}

static int put(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	*(long *)a[0]->p += (long)a[2]->i;
	printf("put(%ld, \"%.*s\"/%zu, %lld)\n", *(long *)a[0]->p, (int)a[1]->len, a[1]->s, a[1]->len,
	       (long long)a[2]->i);
	return 0;
}

static int show(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	printf("show %ld at step %lu\n", *(long *)a[0]->p, tnorm_drv_step(d));
	return 0;
}

static int fail_if(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	return *(long *)a[0]->p == a[1]->i ? TNORM_DRV_INVALID : 0;
}

static int positive(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	printf("check %ld\n", *(long *)a[0]->p);
	return *(long *)a[0]->p < 0;
}

static int renew(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	const tnorm_value *old = tnorm_drv_old(d);
	long *o = malloc(sizeof(*o));
	if (!o)
		return TNORM_DRV_INVALID;
	*o = 100;
	res->p = o;
	if (old)
		printf("renew over %ld\n", *(long *)old->p);
	else
		printf("renew\n");
	return 0;
}

static int kinds(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	static const char *const names[] = {"object", "int", "string", "null"};
	printf("kind %s i=%lld s=%s len=%zu\n", names[a[0]->kind], (long long)a[0]->i,
	       a[0]->s ? a[0]->s : "(null)", a[0]->len);
	return 0;
}

/* PROBE_LEAK=1 in the environment makes it forget to free: the leak test's seeded leak. */
static void destroy_obj(tnorm_drv *d, tnorm_value *v)
{
	const char *leak = getenv("PROBE_LEAK");
	printf("destroy %ld\n", *(long *)v->p);
	if (!leak || strcmp(leak, "1"))
		free(v->p);
}

static const tnorm_drv_handler handlers[] = {
	{"make", make}, {"size", size}, {"put", put}, {"show", show}, {"fail_if", fail_if},
	{"positive", positive}, {"renew", renew}, {"kinds", kinds}, {NULL, NULL},
};

static const tnorm_drv_pool pools[] = {{"obj", destroy_obj, NULL}, {NULL, NULL, NULL}};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	return tnorm_drv_main_pools(argc, argv, probe_harness, handlers, pools);
}

/* SPDX-License-Identifier: MIT */
/* driver.c - the hash table example's test driver: one handler per template of htable.tnh. */
#include "tnorm/driver.h"

#include "htable.h"

extern const char htable_harness[];

static int h_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	res->p = ht_new();
	return 0;
}

static int h_put(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	ht_put(a[0]->p, (int)a[1]->i, (int)a[2]->i);
	return 0;
}

static int h_delete(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	ht_delete(a[0]->p, (int)a[1]->i);
	return 0;
}

static int h_get(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	int v;
	(void)ht_get(a[0]->p, (int)a[1]->i, &v);
	return 0;
}

static int h_check(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	ht_check(a[0]->p);
	return 0;
}

static const tnorm_drv_handler handlers[] = {
	{"ht_new", h_new}, {"ht_put", h_put},     {"ht_delete", h_delete},
	{"ht_get", h_get}, {"ht_check", h_check}, {NULL, NULL},
};
static const tnorm_drv_pool *pools(void); /* the destructor, below (main keeps its line) */
int main(int argc, char **argv)
{
	return tnorm_drv_main_pools(argc, argv, htable_harness, handlers, pools());
}

/* The destructor: the runtime frees each ht at exit (and one that a step overwrites), so a
 * passing test leaks nothing and runs with leak detection on (docs/driver.md). */
static void destroy_ht(tnorm_drv *d, tnorm_value *v)
{
	ht_free(v->p);
}

static const tnorm_drv_pool *pools(void)
{
	static const tnorm_drv_pool table[] = {{"ht", destroy_ht, NULL}, {NULL, NULL, NULL}};
	return table;
}

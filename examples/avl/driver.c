/* SPDX-License-Identifier: MIT */
/* driver.c - the AVL example's test driver: one handler per template of avl.tnh. */
#include "tnorm/driver.h"

#include "avl.h"

extern const char avl_harness[];

static int h_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	res->p = avl_new();
	return 0;
}

static int h_insert(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	avl_insert(a[0]->p, (int)a[1]->i);
	return 0;
}

static int h_delete(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	avl_delete(a[0]->p, (int)a[1]->i);
	return 0;
}

static int h_find(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)avl_find(a[0]->p, (int)a[1]->i);
	return 0;
}

static int h_inorder(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)avl_inorder(a[0]->p, NULL, NULL);
	return 0;
}

static int h_check(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	avl_check(a[0]->p);
	return 0;
}

static const tnorm_drv_handler handlers[] = {
	{"avl_new", h_new},   {"avl_insert", h_insert},   {"avl_delete", h_delete},
	{"avl_find", h_find}, {"avl_inorder", h_inorder}, {"avl_check", h_check},
	{NULL, NULL},
};
static const tnorm_drv_pool *pools(void); /* the destructor, below (main keeps its line) */
int main(int argc, char **argv)
{
	return tnorm_drv_main_pools(argc, argv, avl_harness, handlers, pools());
}

/* The destructor: the runtime frees each avl at exit (and one that a step overwrites), so a
 * passing test leaks nothing and runs with leak detection on (docs/driver.md). */
static void destroy_avl(tnorm_drv *d, tnorm_value *v)
{
	avl_free(v->p);
}

static const tnorm_drv_pool *pools(void)
{
	static const tnorm_drv_pool table[] = {{"avl", destroy_avl, NULL}, {NULL, NULL, NULL}};
	return table;
}

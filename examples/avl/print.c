/* SPDX-License-Identifier: MIT */
/*
 * print.c - the AVL example's pool hooks: its destructor, and a tree's printed form for
 * `tnorm pools`, its keys in order ("{1, 2, 3}").  In a file of its own so that driver.c's lines,
 * which failure signatures name, stay where the examples and the docs show them.
 */
#include <stdio.h>

#include "tnorm/driver.h"

#include "avl.h"

struct out {
	char *buf;
	size_t size, n;
};

static void put_key(int key, void *ctx)
{
	struct out *o = ctx;
	if (o->n < o->size)
		o->n += (size_t)snprintf(o->buf + o->n, o->size - o->n, "%s%d", o->n > 1 ? ", " : "", key);
}

static int print_avl(const tnorm_value *v, char *buf, size_t size)
{
	struct out o = {buf, size, 0};
	if (size < 3)
		return -1;
	o.n = (size_t)snprintf(buf, size, "{");
	(void)avl_inorder(v->p, put_key, &o);
	if (o.n + 2 > size)
		return 0; /* cut: the runtime keeps it NUL-terminated */
	snprintf(buf + o.n, size - o.n, "}");
	return 0;
}

/* The destructor: the runtime frees each avl at exit (and one that a step overwrites), so a
 * passing test leaks nothing and runs with leak detection on (docs/driver.md). */
static void destroy_avl(tnorm_drv *d, tnorm_value *v)
{
	(void)d;
	avl_free(v->p);
}

const tnorm_drv_pool avl_pools[] = {
	{"avl", destroy_avl, print_avl},
	{NULL, NULL, NULL},
};

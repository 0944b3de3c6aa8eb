/* SPDX-License-Identifier: MIT */
/*
 * ring.c - a driver whose failing step ends in a sanitizer's report (issue 41: gdb's process
 * record in the failing step of an ASan or UBSan build).  ring_put stores into slot n % 5 of a
 * 4-slot array (the fifth put writes past it: heap-buffer-overflow under ASan); ring_scale
 * multiplies the running total by 65536 (the second call overflows: signed-integer-overflow
 * under UBSan).  Built plain, neither fault stops the test.
 */
#include <stdlib.h>

#include "tnorm/driver.h"

extern const char ring_harness[];

typedef struct {
	int *slot; /* 4 of them */
	int n, total;
} ring;

static int h_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	ring *r = calloc(1, sizeof(*r));
	if (!r || !(r->slot = calloc(4, sizeof(int)))) {
		free(r);
		return TNORM_DRV_INVALID;
	}
	res->p = r;
	return 0;
}

static int h_put(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	ring *r = a[0]->p;
	int at = r->n % 5; /* the fault: the ring has 4 slots */
	r->slot[at] = (int)a[1]->i;
	r->n++;
	return 0;
}

static int h_scale(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	ring *r = a[0]->p;
	r->total = (r->total + (int)a[1]->i) * 65536; /* overflows on the second call */
	return 0;
}

static int h_check(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	ring *r = a[0]->p;
	return r->n >= 0 ? 0 : 1;
}

static void destroy_ring(tnorm_drv *d, tnorm_value *v)
{
	ring *r = v->p;
	free(r->slot);
	free(r);
}

static const tnorm_drv_handler handlers[] = {
	{"ring_new", h_new},     {"ring_put", h_put},     {"ring_scale", h_scale},
	{"ring_check", h_check}, {NULL, NULL},
};

static const tnorm_drv_pool pools[] = {{"ring", destroy_ring, NULL}, {NULL, NULL, NULL}};

int main(int argc, char **argv)
{
	return tnorm_drv_main_pools(argc, argv, ring_harness, handlers, pools);
}

/* SPDX-License-Identifier: MIT */
/*
 * bag.c - a test driver for ownership transfer (issue 16, item 5): a bag owns the items added
 * to it and frees them with itself.  The harness writes `bag_add(<bag>, move <item>)`: the call
 * takes the item, so the runtime no longer holds it (no destructor runs on it), and no test uses
 * it after.  Without `move`, a test that adds one item to two bags, or frees the bag and then the
 * item, frees it twice: a false failure of the harness, not of the bag.
 */
#include <stdlib.h>

#include "tnorm/driver.h"

extern const char bag_harness[];

typedef struct item {
	struct item *next;
	long value;
} item;

typedef struct {
	item *head;
	long n;
} bag;

static int h_item_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	item *it = calloc(1, sizeof(*it));
	if (!it)
		return tnorm_drv_invalid(d, "out of memory");
	it->value = (long)a[0]->i;
	res->p = it;
	return 0;
}

static int h_bag_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	return (res->p = calloc(1, sizeof(bag))) ? 0 : tnorm_drv_invalid(d, "out of memory");
}

static int h_bag_add(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	bag *b = a[0]->p;
	item *it = a[1]->p; /* the bag owns it from now on */
	it->next = b->head;
	b->head = it;
	b->n++;
	return 0;
}

static int h_bag_take(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	bag *b = a[0]->p;
	item *it = b->head;
	if (!it)
		return tnorm_drv_invalid(d, "the bag is empty");
	b->head = it->next;
	b->n--;
	it->next = NULL;
	res->p = it; /* the test owns it again */
	return 0;
}

static int h_item_get(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	return ((item *)a[0]->p)->value > 0 ? 0 : 1;
}

static int h_bag_sum(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	item *it;
	long sum = 0;
	for (it = ((bag *)a[0]->p)->head; it; it = it->next)
		sum += it->value;
	return sum >= 0 ? 0 : 1;
}

static int h_bag_check(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	bag *b = a[0]->p;
	item *it;
	long n = 0;
	for (it = b->head; it; it = it->next)
		n++;
	return n == b->n ? 0 : 1;
}

static void destroy_item(tnorm_drv *d, tnorm_value *v)
{
	free(v->p);
}

static void destroy_bag(tnorm_drv *d, tnorm_value *v)
{
	bag *b = v->p;
	while (b->head) {
		item *it = b->head;
		b->head = it->next;
		free(it);
	}
	free(b);
}

static const tnorm_drv_handler handlers[] = {
	{"item_new", h_item_new}, {"bag_new", h_bag_new},   {"bag_add", h_bag_add},
	{"bag_take", h_bag_take}, {"item_get", h_item_get}, {"bag_sum", h_bag_sum},
	{"bag_check", h_bag_check}, {NULL, NULL},
};

static const tnorm_drv_pool pools[] = {
	{"item", destroy_item, NULL}, {"bag", destroy_bag, NULL}, {NULL, NULL, NULL},
};

int main(int argc, char **argv)
{
	return tnorm_drv_main_pools(argc, argv, bag_harness, handlers, pools);
}

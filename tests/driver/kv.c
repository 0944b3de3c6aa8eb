/* SPDX-License-Identifier: MIT */
/*
 * kv.c - a test driver for issue 16's harness features, around a tiny string map (a list): keys
 * from a generated domain, NULL values (`null`), a destructor for the map, and a step that makes
 * no sense in a state (deleting a key that is not there) reported as TNORM_DRV_INVALID.  Its
 * seeded fault: deleting a key of two letters or more whose value is NULL frees the entry twice
 * (an assertion stands for the crash).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "tnorm/driver.h"

extern const char kv_harness[];

typedef struct entry {
	struct entry *next;
	char *key;
	int has_value;
	long value;
} entry;

typedef struct {
	entry *head;
} kv;

static entry **find(kv *m, const char *key)
{
	entry **e;
	for (e = &m->head; *e; e = &(*e)->next)
		if (!strcmp((*e)->key, key))
			return e;
	return e;
}

static int h_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	return (res->p = calloc(1, sizeof(kv))) ? 0 : TNORM_DRV_INVALID;
}

static int h_put(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	entry **e = find(a[0]->p, a[1]->s);
	if (!*e) {
		if (!(*e = calloc(1, sizeof(**e))) || !((*e)->key = strdup(a[1]->s)))
			return TNORM_DRV_INVALID;
	}
	(*e)->has_value = a[2]->kind != TNORM_VALUE_NULL;
	(*e)->value = (long)a[2]->i;
	return 0;
}

static int h_del(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	entry **e = find(a[0]->p, a[1]->s), *gone;
	if (!*e) /* nothing to delete: this test says nothing about the map */
		return tnorm_drv_invalid(d, "no key \"%s\" to delete", a[1]->s);
	gone = *e;
	assert(gone->has_value || strlen(gone->key) < 2); /* the seeded fault */
	*e = gone->next;
	free(gone->key);
	free(gone);
	return 0;
}

static int h_get(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)find(a[0]->p, a[1]->s);
	return 0;
}

static int h_check(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	entry *e;
	for (e = ((kv *)a[0]->p)->head; e; e = e->next)
		if (!e->key)
			return 1;
	return 0;
}

static void destroy_kv(tnorm_drv *d, tnorm_value *v)
{
	kv *m = v->p;
	while (m->head) {
		entry *e = m->head;
		m->head = e->next;
		free(e->key);
		free(e);
	}
	free(m);
}

static const tnorm_drv_handler handlers[] = {
	{"kv_new", h_new}, {"kv_put", h_put},     {"kv_del", h_del},
	{"kv_get", h_get}, {"kv_check", h_check}, {NULL, NULL},
};

static const tnorm_drv_pool pools[] = {{"kv", destroy_kv, NULL}, {NULL, NULL, NULL}};

int main(int argc, char **argv)
{
	return tnorm_drv_main_pools(argc, argv, kv_harness, handlers, pools);
}

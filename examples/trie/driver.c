/* SPDX-License-Identifier: MIT */
/*
 * driver.c - the radix tree example's test driver: one handler per template of trie.tnh.  Keys
 * are the harness's strings; a value is an integer (passed as its decimal text), `null`
 * (passed as NULL), or a string (passed as is).
 */
#include <stdio.h>
#include <string.h>

#include "tnorm/driver.h"

#include "trie.h"

extern const char trie_harness[];

/* The C string a val instance stands for: NULL, buf (an integer's text) or the harness string. */
static const char *value_of(const tnorm_value *v, char *buf, size_t size)
{
	/* `null` arrives with every member zero: s is NULL. */
	if (v->kind == TNORM_VALUE_NULL || v->s)
		return v->s;
	snprintf(buf, size, "%lld", (long long)v->i);
	return buf;
}

static int h_new(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	return (res->p = trie_new()) ? 0 : 1;
}

static int h_insert(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	char buf[32];
	return trie_insert(a[0]->p, a[1]->s, value_of(a[2], buf, sizeof(buf))) < 0;
}

static int h_remove(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)trie_remove(a[0]->p, a[1]->s);
	return 0;
}

static int h_find(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	int found;
	(void)trie_find(a[0]->p, a[1]->s, &found);
	return 0;
}

static int h_seek(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)trie_seek(a[0]->p, a[1]->s);
	return 0;
}

static int h_size(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	(void)trie_size(a[0]->p);
	return 0;
}

static int h_check(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
{
	return trie_check(a[0]->p) != 0;
}

static const tnorm_drv_handler handlers[] = {
	{"trie_new", h_new},   {"trie_insert", h_insert}, {"trie_remove", h_remove},
	{"trie_find", h_find}, {"trie_seek", h_seek},     {"trie_size", h_size},
	{"trie_check", h_check}, {NULL, NULL},
};
extern const tnorm_drv_pool trie_pools[]; /* print.c */
int main(int argc, char **argv)
{
	return tnorm_drv_main_pools(argc, argv, trie_harness, handlers, trie_pools);
}

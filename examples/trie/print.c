/* SPDX-License-Identifier: MIT */
/*
 * print.c - the radix tree example's pool hooks: its destructor, and a tree's printed form for
 * `tnorm pools`, its keys in strcmp order with their values ({"a": "17", "ab": null}).  In a
 * file of its own so that driver.c's lines, which failure signatures name, stay where the README
 * shows them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tnorm/driver.h"

#include "trie.h"

static int print_trie(const tnorm_value *v, char *buf, size_t size)
{
	const trie *t = v->p;
	char *key = NULL, *next;
	const char *k, *val;
	size_t n = 0, len;
	int found;
	n += (size_t)snprintf(buf, size, "{");
	/* trie_seek(K "\x01") is the least key after K: no key holds a byte below 1. */
	for (k = trie_seek(t, ""); k && n < size; k = trie_seek(t, key)) {
		len = strlen(k);
		if (!(next = realloc(key, len + 2))) {
			free(key);
			return -1;
		}
		key = next;
		memcpy(key, k, len);
		key[len] = '\0';
		val = trie_find(t, key, &found);
		n += (size_t)snprintf(buf + n, size - n, val ? "%s\"%s\": \"%s\"" : "%s\"%s\": null",
		                      n > 1 ? ", " : "", key, val);
		key[len] = '\x01';
		key[len + 1] = '\0';
	}
	free(key);
	if (n < size)
		snprintf(buf + n, size - n, "}");
	return 0;
}

/* The destructor: the runtime frees each trie at exit (and one that a step overwrites), so a
 * passing test leaks nothing and runs with leak detection on (docs/driver.md). */
static void destroy_trie(tnorm_drv *d, tnorm_value *v)
{
	(void)d;
	trie_free(v->p);
}

const tnorm_drv_pool trie_pools[] = {
	{"trie", destroy_trie, print_trie},
	{NULL, NULL, NULL},
};

/* SPDX-License-Identifier: MIT */
/*
 * htable.c - a chained hash table with the bucket fault of the ddmin-on-unit-tests study:
 * deleting or updating an element also loses the elements before it in its bucket (build with
 * -DHTABLE_FIXED for the correct table).  New entries go to the end of their bucket's chain.
 */
#include <assert.h>
#include <stdlib.h>

#include "htable.h"

#define NBUCKETS 4

typedef struct entry {
	int key, value;
	struct entry *next;
} entry;

struct htable {
	entry *bucket[NBUCKETS];
	int count;
};

static unsigned hash(int key)
{
	return (unsigned)key % NBUCKETS;
}

htable *ht_new(void)
{
	htable *t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	return t;
}

void ht_free(htable *t)
{
	int b;
	if (!t)
		return;
	for (b = 0; b < NBUCKETS; b++) {
		entry *e = t->bucket[b], *n;
		for (; e; e = n) {
			n = e->next;
			free(e);
		}
	}
	free(t);
}

/* Unlink entry `e` (whose predecessor is `prev`, NULL at the head) from bucket b. */
static void unlink_entry(htable *t, unsigned b, entry *prev, entry *e)
{
#ifdef HTABLE_FIXED
	if (prev)
		prev->next = e->next;
	else
		t->bucket[b] = e->next;
#else
	(void)prev;
	t->bucket[b] = e->next; /* the fault: the entries before e are lost with it */
#endif
}

void ht_put(htable *t, int key, int value)
{
	unsigned b = hash(key);
	entry *e, *prev = NULL, *n;
	for (e = t->bucket[b]; e; prev = e, e = e->next) {
		if (e->key == key) {
			/* Updates re-insert the entry at the end of the chain. */
			unlink_entry(t, b, prev, e);
			t->count--;
			free(e);
			break;
		}
	}
	if (!(n = calloc(1, sizeof(*n))))
		abort();
	n->key = key;
	n->value = value;
	if (!t->bucket[b]) {
		t->bucket[b] = n;
	} else {
		for (e = t->bucket[b]; e->next; e = e->next)
			;
		e->next = n;
	}
	t->count++;
}

void ht_delete(htable *t, int key)
{
	unsigned b = hash(key);
	entry *e, *prev = NULL;
	for (e = t->bucket[b]; e; prev = e, e = e->next) {
		if (e->key == key) {
			unlink_entry(t, b, prev, e);
			t->count--;
			free(e);
			return;
		}
	}
}

int ht_get(const htable *t, int key, int *value)
{
	const entry *e;
	for (e = t->bucket[hash(key)]; e; e = e->next)
		if (e->key == key) {
			*value = e->value;
			return 1;
		}
	return 0;
}

void ht_check(const htable *t)
{
	int b, n = 0;
	for (b = 0; b < NBUCKETS; b++) {
		const entry *e;
		for (e = t->bucket[b]; e; e = e->next)
			n++;
	}
	assert(n == t->count); /* no entry lost */
}

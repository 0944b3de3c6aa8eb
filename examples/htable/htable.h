/* SPDX-License-Identifier: MIT */
/* htable.h - a small chained hash table from int keys to int values, with a seeded fault. */
#ifndef HTABLE_H
#define HTABLE_H

typedef struct htable htable;

htable *ht_new(void);
void ht_free(htable *t);
/* Insert key -> value, or update the value if the key is present. */
void ht_put(htable *t, int key, int value);
void ht_delete(htable *t, int key);
/* Returns 1 and sets *value if present, else 0. */
int ht_get(const htable *t, int key, int *value);
/* Asserts that the number of reachable entries equals the table's count. */
void ht_check(const htable *t);

#endif

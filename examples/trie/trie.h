/* SPDX-License-Identifier: MIT */
/*
 * trie.h - a radix tree (prefix-compressed trie) from NUL-terminated string keys to string
 * values, with a seeded fault (see trie.c).
 *
 * Keys and values are copied: the caller keeps ownership of what it passes in.  A value may be
 * NULL, meaning "the key is present and has no value"; trie_find() tells that apart from an
 * absent key with its `found` out-parameter.
 */
#ifndef TRIE_H
#define TRIE_H

#include <stddef.h>

typedef struct trie trie;

/* Returns a new, empty tree, or NULL when out of memory.  Free it with trie_free(). */
trie *trie_new(void);

/* Frees the tree, its keys and its values.  Freeing NULL is a no-op. */
void trie_free(trie *t);

/*
 * Sets key's value to a copy of `value` (which may be NULL).  Returns 1 when the key was added,
 * 0 when it was present and its value replaced, -1 when out of memory (the tree is unchanged).
 */
int trie_insert(trie *t, const char *key, const char *value);

/* Removes key and frees its value.  Returns 1 when it was present, 0 when it was not. */
int trie_remove(trie *t, const char *key);

/*
 * Looks key up.  Sets *found (if `found` is not NULL) to 1 when the key is present, 0 when not,
 * and returns its value: NULL when the key is absent or present with no value.  The pointer is
 * borrowed: valid until the key is next inserted or removed, or the tree freed.
 */
const char *trie_find(const trie *t, const char *key, int *found);

/*
 * Returns the first key, in byte-wise (strcmp) order, that is >= `prefix`, or NULL when there is
 * none.  So when any key starts with `prefix`, the result is the least such key.  The string is
 * borrowed: it lives in the tree's scratch buffer, valid until the next trie_seek() or change.
 */
const char *trie_seek(const trie *t, const char *prefix);

/* Returns the number of keys. */
size_t trie_size(const trie *t);

/*
 * Checks the invariants: children sorted by first byte and distinct, no empty edge below the
 * root, every keyless node other than the root has two or more children, no value without a
 * key, and as many keys as trie_size() says.  A broken invariant fails an assert (so the failure
 * points at the line of the invariant); with NDEBUG only the key count is checked and a wrong one
 * returns -1.  Returns 0 when all hold.
 */
int trie_check(const trie *t);

#endif

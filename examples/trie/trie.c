/* SPDX-License-Identifier: MIT */
/*
 * trie.c - a radix tree of string keys with the seeded fault "a NULL value taken for an absent
 * key": after a removal, each node on the key's path that holds no key is unlinked (no children
 * left) or merged into its only child, and the faulty build asks "holds no key?" with
 * `value == NULL` instead of `!has_key`.  A key inserted with a NULL value that is a proper
 * prefix of a removed key, and is left with at most one child, is then unlinked or merged away
 * and silently lost; trie_check() catches it because the tree holds fewer keys than its size
 * says.  Build with -DTRIE_FIXED for the correct tree.
 *
 * Each node holds the label of the edge that leads to it (the root's is empty), whether a key
 * ends there, that key's value, and its children as a list sorted by their labels' first byte.
 * Keys are not stored whole: trie_seek() rebuilds the key it returns in a scratch buffer.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "trie.h"

typedef struct node {
	char *label; /* the edge's bytes, not NUL-terminated; NULL when len is 0 */
	size_t len;
	int has_key;
	char *value;        /* NULL when the key has no value (or there is no key) */
	struct node *child; /* first child; siblings sorted by label[0] */
	struct node *next;
} node;

typedef struct scratch {
	char *s;
	size_t cap;
} scratch;

struct trie {
	node root;
	size_t size;
	scratch *buf; /* trie_seek() writes here through a const tree */
};

static char *dup_bytes(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static node *node_new(const char *label, size_t len)
{
	node *n = calloc(1, sizeof(*n));
	if (n && len && !(n->label = dup_bytes(label, len))) {
		free(n);
		return NULL;
	}
	if (n)
		n->len = len;
	return n;
}

static void node_free(node *n)
{
	while (n) {
		node *next = n->next;
		node_free(n->child);
		free(n->label);
		free(n->value);
		free(n);
		n = next;
	}
}

/* The link (in n's child list) that points at the child starting with byte c, or at the place
 * where such a child would go. */
static node **child_link(node *n, unsigned char c)
{
	node **l = &n->child;
	while (*l && (unsigned char)(*l)->label[0] < c)
		l = &(*l)->next;
	return l;
}

static size_t common(const char *a, size_t na, const char *b)
{
	size_t i = 0;
	while (i < na && b[i] && a[i] == b[i])
		i++;
	return i;
}

trie *trie_new(void)
{
	trie *t = calloc(1, sizeof(*t));
	if (t && !(t->buf = calloc(1, sizeof(*t->buf)))) {
		free(t);
		return NULL;
	}
	return t;
}

void trie_free(trie *t)
{
	if (!t)
		return;
	node_free(t->root.child);
	free(t->root.value);
	free(t->buf->s);
	free(t->buf);
	free(t);
}

/* Splits the edge into *link after its first m bytes: a new keyless node takes the first m
 * bytes and the old node, keeping the rest, becomes its only child.  Returns the new node. */
static node *split(node **link, size_t m)
{
	node *c = *link, *mid = node_new(c->label, m);
	char *rest;
	if (!mid || !(rest = dup_bytes(c->label + m, c->len - m))) {
		free(mid ? mid->label : NULL);
		free(mid);
		return NULL;
	}
	free(c->label);
	c->label = rest;
	c->len -= m;
	mid->child = c;
	mid->next = c->next;
	c->next = NULL;
	*link = mid;
	return mid;
}

int trie_insert(trie *t, const char *key, const char *value)
{
	node *n = &t->root;
	char *v = NULL;
	int added;
	if (value && !(v = dup_bytes(value, strlen(value))))
		return -1;
	while (*key) {
		node **link = child_link(n, (unsigned char)*key), *c = *link;
		size_t m;
		if (!c || c->label[0] != *key) {
			node *leaf = node_new(key, strlen(key));
			if (!leaf)
				goto oom;
			leaf->next = c;
			*link = leaf;
			n = leaf;
			break;
		}
		m = common(c->label, c->len, key);
		if (m < c->len && !(c = split(link, m)))
			goto oom;
		n = c;
		key += m;
	}
	added = !n->has_key;
	n->has_key = 1;
	free(n->value);
	n->value = v;
	t->size += (size_t)added;
	return added;
oom:
	/* A split that succeeded leaves a keyless node with one child; harmless but not compact,
	 * so the tree's shape invariants are only promised when insert succeeds. */
	free(v);
	return -1;
}

/* Appends n's only child to n: n takes the child's bytes, key, value and children. */
static void merge(node *n)
{
	node *c = n->child;
	char *label = malloc(n->len + c->len);
	if (!label)
		return; /* stays correct, only less compact */
	if (n->len)
		memcpy(label, n->label, n->len);
	memcpy(label + n->len, c->label, c->len);
	free(n->label);
	free(n->value);
	n->label = label;
	n->len += c->len;
	n->has_key = c->has_key;
	n->value = c->value;
	n->child = c->child;
	free(c->label);
	free(c);
}

/* True when n holds a key, so that removing a key below it must leave it in place. */
static int holds_key(const node *n)
{
#ifdef TRIE_FIXED
	return n->has_key;
#else
	return n->value != NULL; /* the fault: a key with a NULL value is taken for no key */
#endif
}

/*
 * Removes `key`, the rest of a key below n's edge.  Returns 1 when it was present.  On the way
 * back up each level tidies the child it went through: a child left with no key is unlinked when
 * it has no children and merged into its child when it has one, which keeps the tree compact.
 */
static int remove_below(trie *t, node *n, const char *key)
{
	node **link, *c;
	if (!*key) {
		if (!n->has_key)
			return 0;
		n->has_key = 0;
		free(n->value);
		n->value = NULL;
		t->size--;
		return 1;
	}
	link = child_link(n, (unsigned char)*key);
	c = *link;
	if (!c || c->len > strlen(key) || memcmp(c->label, key, c->len))
		return 0;
	if (!remove_below(t, c, key + c->len))
		return 0;
	if (holds_key(c))
		return 1;
	if (!c->child) {
		*link = c->next;
		free(c->label);
		free(c->value);
		free(c);
	} else if (!c->child->next) {
		merge(c);
	}
	return 1;
}

int trie_remove(trie *t, const char *key)
{
	return remove_below(t, &t->root, key);
}

const char *trie_find(const trie *t, const char *key, int *found)
{
	const node *n = &t->root;
	while (*key) {
		const node *c = n->child;
		while (c && (unsigned char)c->label[0] < (unsigned char)*key)
			c = c->next;
		if (!c || c->len > strlen(key) || memcmp(c->label, key, c->len)) {
			n = NULL;
			break;
		}
		n = c;
		key += c->len;
	}
	if (found)
		*found = n && n->has_key;
	return n && n->has_key ? n->value : NULL;
}

/* Writes bytes at depth `at` of the scratch buffer, growing it; returns 0, or -1 (OOM). */
static int put(scratch *b, size_t at, const char *s, size_t n)
{
	if (at + n + 1 > b->cap) {
		size_t cap = (at + n + 1) * 2;
		char *p = realloc(b->s, cap);
		if (!p)
			return -1;
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + at, s, n);
	b->s[at + n] = '\0';
	return 0;
}

/* The least key at or below n, whose path is in b up to `depth`. */
static const char *least(scratch *b, const node *n, size_t depth)
{
	while (n && !n->has_key) {
		n = n->child;
		if (n && put(b, depth, n->label, n->len) < 0)
			return NULL;
		depth += n ? n->len : 0;
	}
	return n ? b->s : NULL;
}

/* The least key below n (path in b up to depth) that is >= the rest of the target, `rest`. */
static const char *seek(scratch *b, const node *n, size_t depth, const char *rest)
{
	size_t rlen = strlen(rest);
	const node *c;
	if (!rlen)
		return least(b, n, depth);
	for (c = n->child; c; c = c->next) {
		size_t m = c->len < rlen ? c->len : rlen;
		int cmp = memcmp(c->label, rest, m);
		const char *r;
		if (cmp < 0)
			continue;
		if (put(b, depth, c->label, c->len) < 0)
			return NULL;
		if (cmp > 0 || c->len > rlen)
			return least(b, c, depth + c->len); /* every key there is > the target */
		if ((r = seek(b, c, depth + c->len, rest + c->len)))
			return r;
	}
	return NULL;
}

const char *trie_seek(const trie *t, const char *prefix)
{
	if (put(t->buf, 0, "", 0) < 0)
		return NULL;
	return seek(t->buf, &t->root, 0, prefix);
}

size_t trie_size(const trie *t)
{
	return t->size;
}

/* Asserts the shape invariants below n; returns the number of keys there. */
static size_t check_node(const node *n, int is_root)
{
	size_t keys = n->has_key ? 1 : 0;
	const node *c;
	assert(is_root ? n->len == 0 : n->len > 0); /* only the root has an empty edge */
	assert(n->has_key || n->value == NULL);     /* no value without a key */
	assert(is_root || n->has_key || (n->child && n->child->next)); /* compact */
	for (c = n->child; c; c = c->next) {
		assert(c->len > 0);
		assert(!c->next || (unsigned char)c->label[0] < (unsigned char)c->next->label[0]);
		keys += check_node(c, 0);
	}
	return keys;
}

int trie_check(const trie *t)
{
	size_t keys = check_node(&t->root, 1);
	assert(keys == t->size); /* every key counted is reachable */
	return keys == t->size ? 0 : -1;
}

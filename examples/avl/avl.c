/* SPDX-License-Identifier: MIT */
/*
 * avl.c - an AVL tree of ints with the classic seeded fault: when a key is deleted from a node's
 * left subtree, delete forgets to rebalance that node (build with -DAVL_FIXED for the correct
 * tree).  The tree then ends up unbalanced, which avl_check() catches with an assert.
 */
#include <assert.h>
#include <stdlib.h>

#include "avl.h"

typedef struct node {
	int key, height;
	struct node *left, *right;
} node;

struct avl {
	node *root;
};

static int height(const node *n)
{
	return n ? n->height : 0;
}

static void update(node *n)
{
	int l = height(n->left), r = height(n->right);
	n->height = 1 + (l > r ? l : r);
}

static node *rotate_right(node *n)
{
	node *l = n->left;
	n->left = l->right;
	l->right = n;
	update(n);
	update(l);
	return l;
}

static node *rotate_left(node *n)
{
	node *r = n->right;
	n->right = r->left;
	r->left = n;
	update(n);
	update(r);
	return r;
}

static node *rebalance(node *n)
{
	int bal;
	update(n);
	bal = height(n->left) - height(n->right);
	if (bal > 1) {
		if (height(n->left->left) < height(n->left->right))
			n->left = rotate_left(n->left);
		return rotate_right(n);
	}
	if (bal < -1) {
		if (height(n->right->right) < height(n->right->left))
			n->right = rotate_right(n->right);
		return rotate_left(n);
	}
	return n;
}

static node *insert(node *n, int key)
{
	if (!n) {
		n = calloc(1, sizeof(*n));
		if (!n)
			abort();
		n->key = key;
		n->height = 1;
		return n;
	}
	if (key < n->key)
		n->left = insert(n->left, key);
	else if (key > n->key)
		n->right = insert(n->right, key);
	else
		return n;
	return rebalance(n);
}

static node *remove_min(node *n, node **min)
{
	if (!n->left) {
		*min = n;
		return n->right;
	}
	n->left = remove_min(n->left, min);
	return rebalance(n);
}

static node *delete(node *n, int key)
{
	if (!n)
		return NULL;
	if (key < n->key) {
		n->left = delete(n->left, key);
#ifndef AVL_FIXED
		update(n); /* the fault: the height is updated but the node is not rebalanced */
		return n;
#endif
	} else if (key > n->key) {
		n->right = delete(n->right, key);
	} else {
		node *l = n->left, *r = n->right, *min = NULL;
		free(n);
		if (!r)
			return l;
		r = remove_min(r, &min);
		min->left = l;
		min->right = r;
		n = min;
	}
	return rebalance(n);
}

avl *avl_new(void)
{
	avl *t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	return t;
}

static void free_nodes(node *n)
{
	if (!n)
		return;
	free_nodes(n->left);
	free_nodes(n->right);
	free(n);
}

void avl_free(avl *t)
{
	if (t)
		free_nodes(t->root);
	free(t);
}

void avl_insert(avl *t, int key)
{
	t->root = insert(t->root, key);
}

void avl_delete(avl *t, int key)
{
	t->root = delete(t->root, key);
}

int avl_find(const avl *t, int key)
{
	const node *n = t->root;
	while (n && n->key != key)
		n = key < n->key ? n->left : n->right;
	return n != NULL;
}

static int walk(const node *n, void (*f)(int, void *), void *ctx)
{
	int c;
	if (!n)
		return 0;
	c = walk(n->left, f, ctx);
	if (f)
		f(n->key, ctx);
	return c + 1 + walk(n->right, f, ctx);
}

int avl_inorder(const avl *t, void (*f)(int key, void *ctx), void *ctx)
{
	return walk(t->root, f, ctx);
}

/* Returns the subtree's height; asserts order, stored heights and balance. */
static int check_node(const node *n, long lo, long hi)
{
	int l, r;
	if (!n)
		return 0;
	assert(n->key > lo && n->key < hi);
	l = check_node(n->left, lo, n->key);
	r = check_node(n->right, n->key, hi);
	assert(l - r <= 1 && r - l <= 1); /* balanced */
	return 1 + (l > r ? l : r);
}

void avl_check(const avl *t)
{
	check_node(t->root, -2147483649L, 2147483648L);
}

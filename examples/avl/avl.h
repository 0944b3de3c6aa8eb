/* SPDX-License-Identifier: MIT */
/* avl.h - a small AVL tree of ints, with a seeded fault (see avl.c). */
#ifndef AVL_H
#define AVL_H

typedef struct avl avl;

avl *avl_new(void);
void avl_free(avl *t);
void avl_insert(avl *t, int key);
void avl_delete(avl *t, int key);
int avl_find(const avl *t, int key);
/* Calls f(key, ctx) for each key in order; returns the number of keys. */
int avl_inorder(const avl *t, void (*f)(int key, void *ctx), void *ctx);
/* Asserts the AVL invariants: keys in order, heights right, every balance factor in -1..1. */
void avl_check(const avl *t);

#endif

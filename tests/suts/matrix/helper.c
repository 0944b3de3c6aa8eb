/* SPDX-License-Identifier: MIT */
/*
 * helper: an index of names kept in a binary search tree, one command a line:
 *   add KEY | del KEY | check | count
 * Every consistency check reports through one fail() helper (prints, then abort()).
 * Bug A (check site 1, check_node): add() walks the tree with strcasecmp() while the validator
 *        orders keys with strcmp(), so a key whose case puts it on the wrong side of a node is
 *        caught by the recursive check_node, at whatever depth that node sits.
 *        Lines: "add b", "add C", "check"    (3 lines; the input has the bad node deeper,
 *        a reduction brings it up: one fault at two depths must stay one bug)
 * Bug B (check site 2, tree_remove): `del` of a key that is not in the tree.
 *        Lines: "del zeta"                   (1 line)
 * The input has A's lines first, so the whole test fails with A.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct node {
	char key[24];
	struct node *left, *right;
};

static void mark(const char *bug) { fprintf(stderr, "%s\n", bug); } /* test marker */

static void fail(const char *msg) __attribute__((noreturn));
static void fail(const char *msg)
{
	fprintf(stderr, "index: fatal: %s\n", msg);
	abort();
}

static void add(struct node **link, const char *key)
{
	while (*link) {
		int c = strcasecmp(key, (*link)->key);
		if (c == 0)
			return;
		link = c < 0 ? &(*link)->left : &(*link)->right;
	}
	*link = calloc(1, sizeof(**link));
	snprintf((*link)->key, sizeof((*link)->key), "%s", key);
}

static void check_node(const struct node *n, const char *lo, const char *hi)
{
	if (!n)
		return;
	if ((lo && strcmp(n->key, lo) <= 0) || (hi && strcmp(n->key, hi) >= 0)) {
		mark("BUG-A");
		fail("key out of order"); /* check site 1 */
	}
	check_node(n->left, lo, n->key);
	check_node(n->right, n->key, hi);
}

static void tree_remove(struct node **link, const char *key)
{
	struct node *n, **m;
	while (*link && strcmp(key, (*link)->key) != 0)
		link = strcmp(key, (*link)->key) < 0 ? &(*link)->left : &(*link)->right;
	if (!*link) {
		mark("BUG-B");
		fail("tree_remove: key not in tree"); /* check site 2 */
	}
	n = *link;
	if (!n->left || !n->right) {
		*link = n->left ? n->left : n->right;
	} else {
		for (m = &n->right; (*m)->left; m = &(*m)->left)
			;
		memcpy(n->key, (*m)->key, sizeof(n->key));
		n = *m;
		*m = n->right;
	}
	free(n);
}

static int count(const struct node *n) { return n ? 1 + count(n->left) + count(n->right) : 0; }

static void destroy(struct node *n)
{
	if (n) {
		destroy(n->left);
		destroy(n->right);
		free(n);
	}
}

int main(int argc, char **argv)
{
	struct node *root = NULL;
	char line[256], cmd[16], key[24];
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%15s %23s", cmd, key);
		if (n == 2 && !strcmp(cmd, "add"))
			add(&root, key);
		else if (n == 2 && !strcmp(cmd, "del"))
			tree_remove(&root, key);
		else if (n == 1 && !strcmp(cmd, "check"))
			check_node(root, NULL, NULL);
		else if (n == 1 && !strcmp(cmd, "count"))
			printf("%d\n", count(root));
	}
	fclose(f);
	destroy(root);
	return 0;
}

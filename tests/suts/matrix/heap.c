/* SPDX-License-Identifier: MIT */
/*
 * heap: a key/value table loaded from a settings file, one command a line:
 *   set KEY VALUE | append KEY MORE | get KEY | dump
 * Two heap-buffer-overflows in different functions.  ASan only: without ASan neither faults.
 * Bug A (WRITE, render_pair): `append` grows a value but leaves its cached length stale, and
 *        `dump` sizes the "key=value" buffer from that length.
 *        Lines: "set mode fast", "append mode -extra", "dump"          (3 lines)
 * Bug B (READ, find_value): `get` of a missing key scans one entry past the table.
 *        Lines: any "set", "get timeout"                                (2 lines)
 * A test with both fails with A: the input runs `dump` before the `get` of a missing key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	char *key;
	char *val;
	size_t vlen; /* strlen(val) when set; `append` forgets it */
};

struct table {
	struct entry *e; /* exactly n entries */
	size_t n;
};

static void mark(const char *bug) { fprintf(stderr, "%s\n", bug); } /* test marker */

static struct entry *find_entry(struct table *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->e[i].key, key))
			return &t->e[i];
	return NULL;
}

static const char *find_value(const struct table *t, const char *key)
{
	size_t i;
	if (t->n && !find_entry((struct table *)t, key))
		mark("BUG-B");
	for (i = 0; i <= t->n; i++)
		if (!strcmp(t->e[i].key, key)) /* BUG B: i == n reads past the table */
			return t->e[i].val;
	return NULL;
}

static char *render_pair(const struct entry *e)
{
	size_t kl = strlen(e->key), vl = strlen(e->val);
	char *buf = malloc(kl + e->vlen + 2);
	if (vl != e->vlen)
		mark("BUG-A");
	memcpy(buf, e->key, kl);
	buf[kl] = '=';
	memcpy(buf + kl + 1, e->val, vl + 1); /* BUG A: vl > vlen overflows buf */
	return buf;
}

static void set(struct table *t, const char *key, const char *val)
{
	struct entry *e = find_entry(t, key);
	if (!e) {
		t->e = realloc(t->e, (t->n + 1) * sizeof(*t->e));
		e = &t->e[t->n++];
		e->key = strdup(key);
	} else {
		free(e->val);
	}
	e->val = strdup(val);
	e->vlen = strlen(val);
}

static void append(struct table *t, const char *key, const char *more)
{
	struct entry *e = find_entry(t, key);
	if (!e)
		return;
	e->val = realloc(e->val, strlen(e->val) + strlen(more) + 1);
	strcat(e->val, more);
}

int main(int argc, char **argv)
{
	struct table t = {NULL, 0};
	char line[256], cmd[16], a[64], b[64];
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%15s %63s %63s", cmd, a, b);
		if (n == 3 && !strcmp(cmd, "set"))
			set(&t, a, b);
		else if (n == 3 && !strcmp(cmd, "append"))
			append(&t, a, b);
		else if (n == 2 && !strcmp(cmd, "get")) {
			const char *v = find_value(&t, a);
			printf("%s\n", v ? v : "(unset)");
		} else if (n == 1 && !strcmp(cmd, "dump")) {
			for (size_t i = 0; i < t.n; i++) {
				char *s = render_pair(&t.e[i]);
				puts(s);
				free(s);
			}
		}
	}
	fclose(f);
	for (size_t i = 0; i < t.n; i++) {
		free(t.e[i].key);
		free(t.e[i].val);
	}
	free(t.e);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * uaf: a session table with a one-entry "last used" cache, one command a line:
 *   open NAME | get NAME | release NAME | close NAME | expire | stats
 * Both bugs leave the cache pointing at a freed session; both are caught at the same line (the
 * cache check in find), with the same stack: they differ only in the free stack.  ASan only (a
 * plain build reads the freed memory silently).
 * Bug A: expire_idle() frees released sessions and forgets the cache:
 *        "open x", "release x", "expire", "get x"     (4 lines)
 * Bug B: session_close() frees a session and forgets the cache:
 *        "open y", "close y", "get y"                  (3 lines)
 * The input has A's lines first, so the whole test fails with A.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session {
	char name[32];
	int hits, released;
	struct session *next;
};

static struct session *head;
static struct session *last;        /* the session find() or open() returned last */
static const char *last_freed_by;   /* test marker: which bug left `last` dangling */

static void mark(const char *bug) { fprintf(stderr, "%s\n", bug); }

static struct session *find(const char *name)
{
	struct session *s;
	if (last && last_freed_by)
		mark(last_freed_by);
	if (last && strcmp(last->name, name) == 0) /* A and B: heap-use-after-free READ */
		return last;
	for (s = head; s; s = s->next)
		if (strcmp(s->name, name) == 0)
			return last = s;
	return NULL;
}

static void session_open(const char *name)
{
	struct session *s = calloc(1, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->next = head;
	head = last = s;
	last_freed_by = NULL;
}

static void session_close(const char *name)
{
	struct session **p, *s;
	for (p = &head; (s = *p); p = &s->next) {
		if (strcmp(s->name, name) == 0) {
			*p = s->next;
			if (s == last)
				last_freed_by = "BUG-B";
			free(s); /* BUG B: `last` may still point here */
			return;
		}
	}
}

static void expire_idle(void)
{
	struct session **p = &head, *s;
	while ((s = *p)) {
		if (s->released) {
			*p = s->next;
			if (s == last)
				last_freed_by = "BUG-A";
			free(s); /* BUG A: `last` may still point here */
		} else {
			p = &s->next;
		}
	}
}

int main(int argc, char **argv)
{
	char line[256], cmd[16], arg[32];
	struct session *s;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%15s %31s", cmd, arg);
		if (n == 2 && !strcmp(cmd, "open"))
			session_open(arg);
		else if (n == 2 && !strcmp(cmd, "get") && (s = find(arg)))
			s->hits++;
		else if (n == 2 && !strcmp(cmd, "release") && (s = find(arg)))
			s->released = 1;
		else if (n == 2 && !strcmp(cmd, "close"))
			session_close(arg);
		else if (n == 1 && !strcmp(cmd, "expire"))
			expire_idle();
		else if (n == 1 && !strcmp(cmd, "stats"))
			printf("%s\n", head ? head->name : "(none)");
	}
	fclose(f);
	while ((s = head)) {
		head = s->next;
		free(s);
	}
	return 0;
}

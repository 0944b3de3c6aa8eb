/* SPDX-License-Identifier: MIT */
/*
 * db.c - the cross-test cache and the shared work items, in front of a storage backend.
 *
 * Outcomes (was this candidate interesting?) and normal forms (what does this test normalize
 * to?) are keyed by (context, content key); the path each test's minimization took is keyed by
 * the content alone, for replay under a new context.  The content key is two independent 64-bit
 * hashes and the length, so distinct tests practically never collide.  This file checks
 * arguments, makes the keys, counts hits and misses and encodes paths; the backend (an SQLite
 * file or a PostgreSQL server, db_backend.h) stores rows, each write atomic on its own.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "db_backend.h"
#include "tnorm/db.h"

struct tnorm_db {
	void *be;
	const tnorm__db_ops *ops;
	uint64_t hits, misses;
};

int tnorm_db_is_url(const char *path)
{
	return path && (!strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11));
}

int tnorm_db_open(tnorm_db **out, const char *path)
{
	tnorm_db *d;
	int err;
	if (!out || !path)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_open: NULL argument");
	*out = NULL;
	if (!(d = tnorm__calloc(1, sizeof(*d))))
		return TNORM_ENOMEM;
	err = tnorm_db_is_url(path) ? tnorm__db_pg_open(path, &d->be, &d->ops)
	                            : tnorm__db_sqlite_open(path, &d->be, &d->ops);
	if (err < 0) {
		free(d);
		return err;
	}
	*out = d;
	return 0;
}

void tnorm_db_close(tnorm_db *d)
{
	if (!d)
		return;
	d->ops->close(d->be);
	free(d);
}

uint64_t tnorm_db_context(const char *const *parts)
{
	uint64_t h = 0x74636f6e74657874ULL;
	size_t i;
	for (i = 0; parts && parts[i]; i++)
		h = tnorm__hash64(parts[i], strlen(parts[i]) + 1, h);
	return h;
}

static tnorm__db_key key_of(uint64_t ctx, const void *test, size_t len)
{
	tnorm__db_key k;
	uint64_t h1, h2;
	tnorm__hash64_pair(test, len, TNORM__H1_SEED, TNORM__H2_SEED, &h1, &h2);
	k.ctx = (int64_t)ctx;
	k.h1 = (int64_t)h1;
	k.h2 = (int64_t)h2;
	k.len = (int64_t)len;
	return k;
}

static void count(tnorm_db *d, int found)
{
	if (found)
		d->hits++;
	else
		d->misses++;
}

int tnorm_db_get_outcome(tnorm_db *d, uint64_t ctx, const void *test, size_t len, int *found,
                         int *interesting)
{
	tnorm__db_key k;
	if (!d || !found || !interesting || (!test && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_get_outcome: NULL argument");
	k = key_of(ctx, test, len);
	return tnorm__db_get_outcome_hashed(d, ctx, (uint64_t)k.h1, (uint64_t)k.h2, len, found,
	                                    interesting);
}

/* The session's way in: it has hashed the candidate already (common.h). */
int tnorm__db_get_outcome_hashed(tnorm_db *d, uint64_t ctx, uint64_t h1, uint64_t h2, size_t len,
                                 int *found, int *interesting)
{
	tnorm__db_key k = {(int64_t)ctx, (int64_t)h1, (int64_t)h2, (int64_t)len};
	int err;
	*found = *interesting = 0;
	if ((err = d->ops->get_outcome(d->be, &k, found, interesting)) < 0)
		return err;
	count(d, *found);
	return 0;
}

int tnorm_db_put_outcome(tnorm_db *d, uint64_t ctx, const void *test, size_t len, int interesting)
{
	tnorm__db_key k;
	if (!d || (!test && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_put_outcome: NULL argument");
	k = key_of(ctx, test, len);
	return d->ops->put_outcome(d->be, &k, interesting ? 1 : 0);
}

int tnorm__db_put_outcome_hashed(tnorm_db *d, uint64_t ctx, uint64_t h1, uint64_t h2, size_t len,
                                 int interesting)
{
	tnorm__db_key k = {(int64_t)ctx, (int64_t)h1, (int64_t)h2, (int64_t)len};
	return d->ops->put_outcome(d->be, &k, interesting ? 1 : 0);
}

int tnorm_db_get_normal(tnorm_db *d, uint64_t ctx, const void *test, size_t len, char **normal)
{
	tnorm__db_key k;
	int err;
	if (!d || !normal || (!test && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_get_normal: NULL argument");
	*normal = NULL;
	k = key_of(ctx, test, len);
	if ((err = d->ops->get_normal(d->be, &k, normal)) < 0)
		return err;
	count(d, *normal != NULL);
	return 0;
}

int tnorm_db_put_normal(tnorm_db *d, uint64_t ctx, const void *test, size_t len, const char *normal)
{
	tnorm__db_key k;
	if (!d || !normal || (!test && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_put_normal: NULL argument");
	k = key_of(ctx, test, len);
	return d->ops->put_normal(d->be, &k, normal);
}

/* A path is stored as one blob: for each form, its length in decimal, ':', its bytes. */
int tnorm_db_put_path(tnorm_db *d, const void *test, size_t len, const char *const *forms,
                      size_t n)
{
	tnorm__buf b = TNORM__BUF_INIT;
	tnorm__db_key k;
	size_t i;
	int err = 0;
	if (!d || (!forms && n) || (!test && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_put_path: NULL argument");
	for (i = 0; i < n && err == 0; i++)
		if ((err = tnorm__buf_printf(&b, "%zu:", strlen(forms[i]))) == 0)
			err = tnorm__buf_puts(&b, forms[i]);
	if (err == 0) {
		k = key_of(0, test, len);
		err = d->ops->put_path(d->be, &k, b.ptr ? b.ptr : "", b.len);
	}
	tnorm__buf_dispose(&b);
	return err;
}

int tnorm_db_get_path(tnorm_db *d, const void *test, size_t len, char ***forms, size_t *n)
{
	const char *p, *end;
	char **arr = NULL;
	void *blob = NULL;
	size_t cnt = 0, blen = 0;
	tnorm__db_key k;
	int found = 0, err;
	if (!d || !forms || !n || (!test && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_get_path: NULL argument");
	*forms = NULL;
	*n = 0;
	k = key_of(0, test, len);
	if ((err = d->ops->get_path(d->be, &k, &blob, &blen, &found)) < 0)
		return err;
	count(d, found);
	p = blob;
	end = p ? p + blen : p;
	while (p && p < end && err == 0) {
		char *colon = memchr(p, ':', (size_t)(end - p)), **na;
		size_t l = (size_t)strtoull(p, NULL, 10);
		if (!colon || l > (size_t)(end - colon - 1))
			break; /* a damaged record: keep what parsed */
		if (!(na = tnorm__reallocarray(arr, cnt + 1, sizeof(*na))) ||
		    !((na[cnt] = tnorm__malloc(l + 1)))) {
			if (na)
				arr = na;
			err = TNORM_ENOMEM;
			break;
		}
		arr = na;
		memcpy(arr[cnt], colon + 1, l);
		arr[cnt][l] = '\0';
		cnt++;
		p = colon + 1 + l;
	}
	free(blob);
	if (err < 0) {
		while (cnt)
			free(arr[--cnt]);
		free(arr);
		return err;
	}
	*forms = arr;
	*n = cnt;
	return 0;
}

int tnorm_db_claim(tnorm_db *d, const char *job, const char *name, const char *worker,
                   int lease_s, int *got)
{
	if (!d || !job || !name || !worker || !got)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_claim: NULL argument");
	if (lease_s <= 0)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_claim: the lease must be positive (%d s)",
		                        lease_s);
	*got = 0;
	return d->ops->claim(d->be, job, name, worker, lease_s, got);
}

int tnorm_db_finish(tnorm_db *d, const char *job, const char *name, const char *worker,
                    const char *result, int *ok)
{
	if (!d || !job || !name || !worker || !result || !ok)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_finish: NULL argument");
	*ok = 0;
	return d->ops->finish(d->be, job, name, worker, result, ok);
}

/* The array tnorm_db_results fills, row by row from the backend. */
typedef struct item_array {
	tnorm_db_item **items;
	size_t *n;
} item_array;

static int item_push(void *ctx, const char *name, const char *result)
{
	item_array *a = ctx;
	tnorm_db_item *na = tnorm__reallocarray(*a->items, *a->n + 1, sizeof(*na));
	if (!na)
		return TNORM_ENOMEM;
	*a->items = na;
	na[*a->n].name = tnorm__strdup(name ? name : "");
	na[*a->n].result = tnorm__strdup(result ? result : "");
	(*a->n)++;
	return na[*a->n - 1].name && na[*a->n - 1].result ? 0 : TNORM_ENOMEM;
}

int tnorm_db_results(tnorm_db *d, const char *job, tnorm_db_item **items, size_t *n)
{
	int err;
	if (!d || !job || !items || !n)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_results: NULL argument");
	*items = NULL;
	*n = 0;
	{
		item_array a;
		a.items = items;
		a.n = n;
		err = d->ops->results(d->be, job, item_push, &a);
	}
	if (err < 0) {
		tnorm_db_items_free(*items, *n);
		*items = NULL;
		*n = 0;
	}
	return err;
}

int tnorm_db_result(tnorm_db *d, const char *job, const char *name, char **result)
{
	if (!d || !job || !name || !result)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_db_result: NULL argument");
	*result = NULL;
	return d->ops->result(d->be, job, name, result);
}


void tnorm_db_items_free(tnorm_db_item *items, size_t n)
{
	size_t i;
	for (i = 0; items && i < n; i++) {
		free(items[i].name);
		free(items[i].result);
	}
	free(items);
}

void tnorm_db_stats(const tnorm_db *d, uint64_t *hits, uint64_t *misses)
{
	if (hits)
		*hits = d ? d->hits : 0;
	if (misses)
		*misses = d ? d->misses : 0;
}

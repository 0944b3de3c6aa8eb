/* kvmap.c: a command-file reader over a small open-addressing hash map,
 * checked against a shadow model (an array of key/value pairs) after every
 * command.  A disagreement calls fail(msg): prints the message and aborts.
 *
 * Input: text lines "put KEY VAL", "del KEY", "get KEY" (also "p", "d", "g"),
 * or, when the first byte is 0x01, a compact binary form: records of
 * [op % 3: 0 put, 1 del, 2 get] [key length] [key bytes] [value byte, put only].
 *
 * The hash is the sum of the key's bytes ("ab" and "ba" collide); collisions
 * are resolved by linear probing, deletions leave tombstones.
 *
 * Bugs, each removed by defining FIX_k (fixes are applied cumulatively):
 *  1. put() stops probing at the first tombstone and inserts there, so after
 *     "put A; put B" (B colliding with A, stored after it), "del A; put B"
 *     stores B a second time: the model check finds the count too high.
 *  2. the key buffer is allocated with KEYMAX bytes but a key may have KEYMAX
 *     characters plus its NUL: a key of exactly KEYMAX bytes writes one byte
 *     past the buffer (ASan heap-buffer-overflow WRITE).
 *  3. resize() moves all slots but the last one: the entry there is lost and
 *     the model check finds a key missing from the map.
 *
 * Build: the plain runner (reads argv[1], calls the entry point once) by
 * default; -DFUZZER_BUILD leaves main out for -fsanitize=fuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEYMAX 16
#define MODELMAX 64

enum { EMPTY, USED, TOMB };

struct slot {
    char *key;
    int val;
    int state;
};

struct map {
    struct slot *s;
    size_t cap, count, used; /* used: USED and TOMB slots */
};

struct model {
    char key[MODELMAX][KEYMAX + 1];
    int val[MODELMAX];
    size_t n;
};

__attribute__((noinline)) static void fail(const char *msg)
{
    fprintf(stderr, "kvmap: %s\n", msg);
    abort();
}

static unsigned hash(const char *k)
{
    unsigned h = 0;
    while (*k)
        h += (unsigned char)*k++;
    return h;
}

static void map_init(struct map *m)
{
    m->cap = 8;
    m->s = calloc(m->cap, sizeof *m->s);
    m->count = m->used = 0;
}

static void map_free(struct map *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->s[i].key);
    free(m->s);
}

static struct slot *map_find(struct map *m, const char *k)
{
    size_t i = hash(k) & (m->cap - 1);
    for (size_t n = 0; n < m->cap; n++, i = (i + 1) & (m->cap - 1)) {
        struct slot *s = &m->s[i];
        if (s->state == EMPTY)
            return NULL;
        if (s->state == USED && strcmp(s->key, k) == 0)
            return s;
    }
    return NULL;
}

static void map_resize(struct map *m)
{
    struct slot *old = m->s;
    size_t oldcap = m->cap;
    m->cap *= 2;
    m->s = calloc(m->cap, sizeof *m->s);
    m->used = 0;
#ifdef FIX_3
    for (size_t i = 0; i < oldcap; i++) {
#else
    for (size_t i = 0; i + 1 < oldcap; i++) { /* BUG 3: the last slot is not moved */
#endif
        if (old[i].state != USED) {
            free(old[i].key);
            continue;
        }
        size_t j = hash(old[i].key) & (m->cap - 1);
        while (m->s[j].state != EMPTY)
            j = (j + 1) & (m->cap - 1);
        m->s[j] = old[i];
        m->used++;
    }
#ifndef FIX_3
    free(old[oldcap - 1].key); /* (no leak report: the model check aborts first) */
#endif
    free(old);
}

static void map_put(struct map *m, const char *k, int v)
{
    size_t i = hash(k) & (m->cap - 1);
    struct slot *tomb = NULL;
    for (;;) {
        struct slot *s = &m->s[i];
        if (s->state == EMPTY)
            break;
        if (s->state == TOMB) {
#ifdef FIX_1
            if (!tomb)
                tomb = s; /* remember it, but look on for k */
#else
            tomb = s; /* BUG 1: a copy of k further on is never seen */
            break;
#endif
        } else if (strcmp(s->key, k) == 0) {
            s->val = v;
            return;
        }
        i = (i + 1) & (m->cap - 1);
    }
    struct slot *s = tomb ? tomb : &m->s[i];
    if (s->state == EMPTY)
        m->used++;
    s->key = strdup(k);
    s->val = v;
    s->state = USED;
    m->count++;
    if (m->used * 4 > m->cap * 3)
        map_resize(m);
}

static int map_del(struct map *m, const char *k)
{
    struct slot *s = map_find(m, k);
    if (!s)
        return 0;
    free(s->key);
    s->key = NULL;
    s->state = TOMB;
    m->count--;
    return 1;
}

static int model_find(struct model *d, const char *k)
{
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->key[i], k) == 0)
            return (int)i;
    return -1;
}

static void check_model(struct map *m, struct model *d)
{
    if (m->count != d->n)
        fail("map count differs from the model");
    for (size_t i = 0; i < d->n; i++) {
        struct slot *s = map_find(m, d->key[i]);
        if (!s)
            fail("key missing from the map");
        if (s->val != d->val[i])
            fail("value differs from the model");
    }
}

/* one command: op 0 put, 1 del, 2 get; key is NUL-terminated */
static void command(struct map *m, struct model *d, int op, const char *key, int val)
{
    int mi = model_find(d, key);
    if (op == 0) {
        if (mi < 0 && d->n == MODELMAX)
            return; /* the model is full: ignore new keys */
        map_put(m, key, val);
        if (mi < 0) {
            mi = (int)d->n++;
            strcpy(d->key[mi], key);
        }
        d->val[mi] = val;
    } else if (op == 1) {
        int found = map_del(m, key);
        if (found != (mi >= 0))
            fail("del: map and model disagree");
        if (mi >= 0) {
            d->n--;
            memmove(d->key[mi], d->key[d->n], sizeof d->key[0]);
            d->val[mi] = d->val[d->n];
        }
    } else {
        struct slot *s = map_find(m, key);
        if ((s != NULL) != (mi >= 0) || (s && s->val != d->val[mi]))
            fail("get: map and model disagree");
    }
    check_model(m, d);
}

/* copy a key of n bytes into buf (a heap buffer): -1 if it is not a key */
static int read_key(char *buf, const uint8_t *w, size_t n)
{
    if (n == 0 || n > KEYMAX)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (w[i] == 0)
            return -1;
    memcpy(buf, w, n);
    buf[n] = 0; /* with BUG 2, one past the buffer when n == KEYMAX */
    return 0;
}

static size_t skip_blanks(const uint8_t *p, size_t i, size_t end)
{
    while (i < end && p[i] == ' ')
        i++;
    return i;
}

static size_t word_end(const uint8_t *p, size_t i, size_t end)
{
    while (i < end && p[i] != ' ' && p[i] != '\n')
        i++;
    return i;
}

static void run_text(struct map *m, struct model *d, char *key, const uint8_t *p, size_t size)
{
    size_t i = 0;
    while (i < size) {
        size_t eol = i;
        while (eol < size && p[eol] != '\n')
            eol++;
        size_t a = skip_blanks(p, i, eol), b = word_end(p, a, eol);
        int op = -1;
        if ((b - a == 3 && !memcmp(p + a, "put", 3)) || (b - a == 1 && p[a] == 'p'))
            op = 0;
        else if ((b - a == 3 && !memcmp(p + a, "del", 3)) || (b - a == 1 && p[a] == 'd'))
            op = 1;
        else if ((b - a == 3 && !memcmp(p + a, "get", 3)) || (b - a == 1 && p[a] == 'g'))
            op = 2;
        if (op >= 0) {
            size_t ka = skip_blanks(p, b, eol), kb = word_end(p, ka, eol);
            if (read_key(key, p + ka, kb - ka) == 0) {
                int val = 0;
                size_t v = skip_blanks(p, kb, eol);
                while (v < eol && p[v] >= '0' && p[v] <= '9' && val < 100000)
                    val = val * 10 + (p[v++] - '0');
                command(m, d, op, key, val);
            }
        }
        i = eol + 1;
    }
}

static void run_binary(struct map *m, struct model *d, char *key, const uint8_t *p, size_t size)
{
    size_t i = 1;
    while (i + 2 <= size) {
        int op = p[i] % 3;
        size_t n = p[i + 1];
        i += 2;
        if (i + n + (op == 0) > size)
            break;
        int ok = read_key(key, p + i, n) == 0;
        i += n;
        int val = op == 0 ? p[i++] : 0;
        if (ok)
            command(m, d, op, key, val);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct model d;
    struct map m;
#ifdef FIX_2
    char *key = malloc(KEYMAX + 1);
#else
    char *key = malloc(KEYMAX); /* BUG 2: no room for the NUL of a KEYMAX-byte key */
#endif
    d.n = 0;
    map_init(&m);
    if (size > 0 && data[0] == 1)
        run_binary(&m, &d, key, data, size);
    else
        run_text(&m, &d, key, data, size);
    map_free(&m);
    free(key);
    return 0;
}

#ifndef FUZZER_BUILD
#include "standalone.h" /* main(): the file in argv[1], once */
#endif

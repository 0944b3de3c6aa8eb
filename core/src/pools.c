/* SPDX-License-Identifier: MIT */
/*
 * pools.c - read the driver runtime's table for debuggers (drv_debug.h) out of a stopped
 * driver's memory, through the debugger's memory reader (tnorm/pools.h): what `tnorm pools`
 * shows and where `tnorm step` knows the program is.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_debug.h"
#include "model.h"
#include "tnorm/pools.h"

#define STRING_SHOWN 200  /* bytes of a string instance shown, then "..." */
#define NAME_LIMIT 512    /* bytes of an instance's name read at most */
#define PRINTED_LIMIT 4096 /* bytes of a print hook's text read at most */
#define CHUNK 64          /* read a chunk at a time: the end of a mapping is not crossed needlessly */

/* The NUL-terminated string at `addr`, at most `limit` bytes (a multiple of CHUNK), into *out
 * (NULL when not even its first chunk can be read; what was read before a chunk that cannot
 * be, else).  0 or TNORM_ENOMEM. */
static int read_cstring(tnorm_memory_reader reader, void *ctx, uint64_t addr, size_t limit,
                        char **out)
{
	char *buf = tnorm__malloc(limit + 1);
	size_t n = 0;
	*out = NULL;
	if (!buf)
		return TNORM_ENOMEM;
	while (n < limit) {
		char *end;
		if (reader(ctx, addr + n, buf + n, CHUNK) != 0) {
			if (!n) {
				free(buf);
				return 0;
			}
			break;
		}
		if ((end = memchr(buf + n, '\0', CHUNK)) != NULL) {
			*out = buf;
			return 0;
		}
		n += CHUNK;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

/* The text `tnorm pools` shows for instance value `v` of debug kind `kind`, into *out. */
static int value_text(tnorm_memory_reader reader, void *ctx, const tnorm_value *v, uint32_t kind,
                      char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	uint64_t slen = v->len;
	int err = 0;
	if (v->kind == TNORM_VALUE_NULL) {
		err = tnorm__buf_puts(&b, "null");
	} else if (kind == TNORM__DRV_DBG_INT) {
		err = tnorm__buf_printf(&b, "%" PRId64, v->i);
	} else if (kind == TNORM__DRV_DBG_STRING) {
		size_t n = slen > STRING_SHOWN ? STRING_SHOWN : (size_t)slen;
		char data[STRING_SHOWN];
		char *quoted = NULL;
		if (n && reader(ctx, (uint64_t)(uintptr_t)v->s, data, n) != 0)
			err = tnorm__buf_puts(&b, "<unreadable>");
		else if ((err = tnorm_string_quote(data, n, &quoted)) == 0)
			err = tnorm__buf_printf(&b, "%s%s", quoted, slen > STRING_SHOWN ? "..." : "");
		free(quoted);
	} else if (v->p) {
		err = tnorm__buf_printf(&b, "0x%" PRIx64, (uint64_t)(uintptr_t)v->p);
	} else {
		err = tnorm__buf_puts(&b, "NULL");
	}
	if (err < 0 || !(*out = tnorm__buf_detach(&b))) {
		tnorm__buf_dispose(&b);
		return err < 0 ? err : TNORM_ENOMEM;
	}
	return 0;
}

static const char *kind_name(uint32_t kind)
{
	return kind == TNORM__DRV_DBG_INT ? "int" : kind == TNORM__DRV_DBG_STRING ? "string" : "object";
}

/* One live instance into *o (its strings owned by it). */
static int read_var(tnorm_memory_reader reader, void *ctx, const struct tnorm_drv_debug_var *x,
                    const tnorm_value *v, tnorm_pool_var *o)
{
	int err;
	o->kind = kind_name(x->kind);
	o->assigned = x->assigned;
	o->changed = x->changed;
	o->printed_before = x->printed_before;
	if ((err = read_cstring(reader, ctx, (uint64_t)(uintptr_t)x->name, NAME_LIMIT, &o->name)) < 0)
		return err;
	if (!o->name || !o->name[0]) {
		free(o->name);
		if (!(o->name = tnorm__strdup("?")))
			return TNORM_ENOMEM;
	}
	if ((err = value_text(reader, ctx, v, x->kind, &o->value)) < 0)
		return err;
	if (x->printed && x->printed_before >= 0)
		return read_cstring(reader, ctx, (uint64_t)(uintptr_t)x->printed, PRINTED_LIMIT,
		                    &o->printed);
	return 0;
}

int tnorm_pools_read(tnorm_pools *out, tnorm_memory_reader reader, void *ctx, uint64_t addr)
{
	struct tnorm_drv_debug g;
	struct tnorm_drv_debug_var *vars = NULL;
	tnorm_value *values = NULL;
	uint64_t v;
	int err = 0;
	if (out)
		memset(out, 0, sizeof(*out));
	if (!out || !reader)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pools_read: NULL argument");
	if (!addr || reader(ctx, addr, &g, sizeof(g)) != 0)
		return tnorm__error_set(TNORM_ENOTFOUND,
		                        "the program has no tnorm driver runtime (no %s to read)",
		                        TNORM_POOLS_SYMBOL);
	if (memcmp(g.magic, TNORM__DRV_DEBUG_MAGIC, sizeof(g.magic)))
		return tnorm__error_set(TNORM_ERROR, "the test is not running yet (or has ended): no "
		                                     "pool has a value");
	if (g.version != TNORM__DRV_DEBUG_VERSION || g.ptr_size != sizeof(void *) ||
	    g.value_size != sizeof(tnorm_value) || g.var_size != sizeof(struct tnorm_drv_debug_var))
		return tnorm__error_set(TNORM_EINVALID, "the driver runtime's table has a layout this "
		                                        "plugin does not know (version %d)",
		                        (int)g.version);
	if (g.nvars > UINT32_MAX)
		return tnorm__error_set(TNORM_EIO, "cannot read the driver runtime's table");
	if (g.nvars) {
		if (!(values = tnorm__calloc((size_t)g.nvars, sizeof(*values))) ||
		    !(vars = tnorm__calloc((size_t)g.nvars, sizeof(*vars))) ||
		    !(out->vars = tnorm__calloc((size_t)g.nvars, sizeof(*out->vars)))) {
			err = TNORM_ENOMEM;
			goto done;
		}
		if (reader(ctx, (uint64_t)(uintptr_t)g.values, values, (size_t)g.nvars * sizeof(*values)) ||
		    reader(ctx, (uint64_t)(uintptr_t)g.vars, vars, (size_t)g.nvars * sizeof(*vars))) {
			err = tnorm__error_set(TNORM_EIO, "cannot read the driver runtime's table");
			goto done;
		}
	}
	out->step = g.step;
	out->nsteps = g.nsteps;
	out->handler = (uint64_t)(uintptr_t)g.handler;
	for (v = 0; v < g.nvars && err == 0; v++)
		if (vars[v].assigned >= 0)
			err = read_var(reader, ctx, &vars[v], &values[v], &out->vars[out->nvars++]);
done:
	free(values);
	free(vars);
	if (err < 0)
		tnorm_pools_dispose(out);
	return err;
}

void tnorm_pools_dispose(tnorm_pools *p)
{
	size_t i;
	if (!p)
		return;
	for (i = 0; i < p->nvars; i++) {
		free(p->vars[i].name);
		free(p->vars[i].value);
		free(p->vars[i].printed);
	}
	free(p->vars);
	memset(p, 0, sizeof(*p));
}

/* SPDX-License-Identifier: MIT */
/*
 * test_pools.c - tnorm_pools_read over a fake memory: a table built as the driver runtime builds
 * it (drv_debug.h's structs), read through a reader that sees only the regions registered with
 * it; each value kind's text, what cannot be read, a table that is not valid or not known, a
 * reader that fails, and every allocation failing in turn.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common.h"
#include "drv_debug.h"
#include "tnorm/tnorm.h"

/* The memory the reader can see: a few regions of this process. */
typedef struct {
	struct {
		const void *p;
		size_t n;
	} r[16];
	size_t nr;
	unsigned calls;
	int fail_all;
} fake_mem;

static void see(fake_mem *m, const void *p, size_t n)
{
	assert_true(m->nr < 16);
	m->r[m->nr].p = p;
	m->r[m->nr++].n = n;
}

static int fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	fake_mem *m = ctx;
	size_t i;
	m->calls++;
	if (m->fail_all)
		return -1;
	for (i = 0; i < m->nr; i++) {
		uintptr_t lo = (uintptr_t)m->r[i].p;
		if (addr >= lo && addr - lo <= m->r[i].n && len <= m->r[i].n - (addr - lo)) {
			memcpy(buf, (const void *)(uintptr_t)addr, len);
			return 0;
		}
	}
	return -1;
}

/* A table of 9 instances, as the runtime fills it at the hook before step 4. */
typedef struct {
	struct tnorm_drv_debug g;
	struct tnorm_drv_debug_var vars[9];
	tnorm_value values[9];
	char names[9][64]; /* a name is read 64 bytes at a time */
	char printed[TNORM__DRV_PRINT_SIZE];
	char longstr[300];
	char unmapped[1];
	char edge[70]; /* a name with no NUL that ends 6 bytes into its second chunk */
	fake_mem m;
} table;

static void build(table *t)
{
	static const char *const names[9] = {"avl0", "int0", "str0", "nul0", "int1",
	                                     "str1", "obj1", "str2", "obj2"};
	size_t v;
	memset(t, 0, sizeof(*t));
	for (v = 0; v < 9; v++) {
		snprintf(t->names[v], sizeof(t->names[v]), "%s", names[v]);
		t->vars[v].name = t->names[v];
		t->vars[v].assigned = (int64_t)v;
		t->vars[v].changed = t->vars[v].printed_before = -1;
	}
	/* avl0: an object with its printed form, changed by step 3. */
	t->vars[0].kind = TNORM__DRV_DBG_OBJECT;
	t->vars[0].changed = 3;
	t->vars[0].has_print = 1;
	t->vars[0].printed = t->printed;
	t->vars[0].printed_before = 4;
	snprintf(t->printed, sizeof(t->printed), "{1, 2, 3}");
	t->values[0].p = (void *)(uintptr_t)0x5555aaaa1230u;
	/* int0 = -42 */
	t->vars[1].kind = TNORM__DRV_DBG_INT;
	t->values[1].i = -42;
	t->values[1].kind = TNORM_VALUE_INT;
	/* str0: every kind of byte, quoted */
	t->vars[2].kind = TNORM__DRV_DBG_STRING;
	t->values[2].s = "a\"b\\\n\xff";
	t->values[2].len = 6;
	t->values[2].kind = TNORM_VALUE_STRING;
	/* nul0 = null (a string pool's null) */
	t->vars[3].kind = TNORM__DRV_DBG_STRING;
	t->values[3].kind = TNORM_VALUE_NULL;
	/* int1: no value yet: left out */
	t->vars[4].assigned = -1;
	t->vars[4].kind = TNORM__DRV_DBG_INT;
	/* str1: 300 bytes, 200 shown */
	memset(t->longstr, 'x', sizeof(t->longstr));
	t->vars[5].kind = TNORM__DRV_DBG_STRING;
	t->values[5].s = t->longstr;
	t->values[5].len = sizeof(t->longstr);
	/* obj1: a NULL object whose name cannot be read and whose printed form cannot either */
	t->vars[6].kind = TNORM__DRV_DBG_OBJECT;
	t->vars[6].name = t->unmapped;
	t->vars[6].printed = t->unmapped;
	t->vars[6].printed_before = 6;
	/* str2: its bytes cannot be read */
	t->vars[7].kind = TNORM__DRV_DBG_STRING;
	t->values[7].s = t->unmapped;
	t->values[7].len = 1;
	/* obj2: kind none (shown as an object), a name cut where its memory ends, a printed form
	 * that is not current (printed_before -1): none */
	memset(t->edge, 'e', sizeof(t->edge));
	t->vars[8].name = t->edge;
	t->vars[8].printed = t->printed;
	t->g.version = TNORM__DRV_DEBUG_VERSION;
	t->g.ptr_size = (uint32_t)sizeof(void *);
	t->g.value_size = (uint32_t)sizeof(tnorm_value);
	t->g.var_size = (uint32_t)sizeof(struct tnorm_drv_debug_var);
	t->g.nvars = 9;
	t->g.nsteps = 10;
	t->g.step = 4;
	t->g.values = t->values;
	t->g.vars = t->vars;
	t->g.handler = (tnorm_drv_fn)(uintptr_t)0x401000;
	memcpy(t->g.magic, TNORM__DRV_DEBUG_MAGIC, sizeof(t->g.magic));
	see(&t->m, &t->g, sizeof(t->g));
	see(&t->m, t->vars, sizeof(t->vars));
	see(&t->m, t->values, sizeof(t->values));
	see(&t->m, t->names, sizeof(t->names));
	see(&t->m, t->printed, sizeof(t->printed));
	see(&t->m, t->longstr, sizeof(t->longstr));
	see(&t->m, t->values[2].s, 7);
	see(&t->m, t->edge, sizeof(t->edge));
}

static uint64_t addr_of(const table *t)
{
	return (uint64_t)(uintptr_t)&t->g;
}

static void expect_var(const tnorm_pool_var *v, const char *name, const char *kind,
                       const char *value, int64_t assigned, int64_t changed, const char *printed,
                       int64_t printed_before)
{
	assert_string_equal(v->name, name);
	assert_string_equal(v->kind, kind);
	assert_string_equal(v->value, value);
	assert_int_equal(v->assigned, assigned);
	assert_int_equal(v->changed, changed);
	if (printed)
		assert_string_equal(v->printed, printed);
	else
		assert_null(v->printed);
	assert_int_equal(v->printed_before, printed_before);
}

static void test_pools__read(void **state)
{
	table *t = malloc(sizeof(*t));
	tnorm_pools p;
	char shown[256], edge[71];
	(void)state;
	assert_non_null(t);
	build(t);
	assert_int_equal(tnorm_pools_read(&p, fake_read, &t->m, addr_of(t)), 0);
	assert_int_equal(p.step, 4);
	assert_int_equal(p.nsteps, 10);
	assert_int_equal(p.handler, 0x401000);
	assert_int_equal(p.nvars, 8);
	expect_var(&p.vars[0], "avl0", "object", "0x5555aaaa1230", 0, 3, "{1, 2, 3}", 4);
	expect_var(&p.vars[1], "int0", "int", "-42", 1, -1, NULL, -1);
	expect_var(&p.vars[2], "str0", "string", "\"a\\\"b\\\\\\n\\xff\"", 2, -1, NULL, -1);
	expect_var(&p.vars[3], "nul0", "string", "null", 3, -1, NULL, -1);
	snprintf(shown, sizeof(shown), "\"%.200s\"...", t->longstr);
	expect_var(&p.vars[4], "str1", "string", shown, 5, -1, NULL, -1);
	expect_var(&p.vars[5], "?", "object", "NULL", 6, -1, NULL, 6);
	expect_var(&p.vars[6], "str2", "string", "<unreadable>", 7, -1, NULL, -1);
	/* Read 64 bytes at a time: the second chunk crosses the end of its memory, so the name is
	 * the first 64 bytes. */
	memset(edge, 'e', 64);
	edge[64] = '\0';
	expect_var(&p.vars[7], edge, "object", "NULL", 8, -1, NULL, -1);
	tnorm_pools_dispose(&p);
	assert_int_equal(p.nvars, 0);
	assert_null(p.vars);
	tnorm_pools_dispose(&p);
	tnorm_pools_dispose(NULL);

	/* An empty table: no instance, nothing else read. */
	t->g.nvars = 0;
	t->g.handler = NULL;
	t->g.step = -1;
	t->m.calls = 0;
	assert_int_equal(tnorm_pools_read(&p, fake_read, &t->m, addr_of(t)), 0);
	assert_int_equal(p.nvars, 0);
	assert_int_equal(p.handler, 0);
	assert_int_equal(p.step, -1);
	assert_int_equal(t->m.calls, 1);
	tnorm_pools_dispose(&p);
	free(t);
}

static void expect_error(table *t, uint64_t addr, int code, const char *message)
{
	tnorm_pools p;
	memset(&p, 0xa5, sizeof(p));
	assert_int_equal(tnorm_pools_read(&p, fake_read, &t->m, addr), code);
	assert_int_equal(tnorm_error_last()->code, code);
	assert_string_equal(tnorm_error_last()->message, message);
	assert_int_equal(p.nvars, 0);
	assert_null(p.vars);
	tnorm_pools_dispose(&p);
}

static void test_pools__errors(void **state)
{
	table *t = malloc(sizeof(*t));
	static const char no_runtime[] =
		"the program has no tnorm driver runtime (no tnorm_drv_debug to read)";
	(void)state;
	assert_non_null(t);
	build(t);
	expect_error(t, 0, TNORM_ENOTFOUND, no_runtime);
	expect_error(t, (uint64_t)(uintptr_t)t->unmapped, TNORM_ENOTFOUND, no_runtime);
	t->m.fail_all = 1;
	expect_error(t, addr_of(t), TNORM_ENOTFOUND, no_runtime);
	t->m.fail_all = 0;
	/* The magic is cleared before the table is freed, and not yet set before it is filled. */
	memset(t->g.magic, 0, sizeof(t->g.magic));
	expect_error(t, addr_of(t), TNORM_ERROR,
	             "the test is not running yet (or has ended): no pool has a value");
	memcpy(t->g.magic, "tnormdX", 8);
	expect_error(t, addr_of(t), TNORM_ERROR,
	             "the test is not running yet (or has ended): no pool has a value");
	memcpy(t->g.magic, TNORM__DRV_DEBUG_MAGIC, 8);
	t->g.version = 3;
	expect_error(t, addr_of(t), TNORM_EINVALID,
	             "the driver runtime's table has a layout this plugin does not know (version 3)");
	t->g.version = TNORM__DRV_DEBUG_VERSION;
	t->g.var_size = 40;
	expect_error(t, addr_of(t), TNORM_EINVALID,
	             "the driver runtime's table has a layout this plugin does not know (version 2)");
	t->g.var_size = (uint32_t)sizeof(struct tnorm_drv_debug_var);
	t->g.ptr_size = 4;
	expect_error(t, addr_of(t), TNORM_EINVALID,
	             "the driver runtime's table has a layout this plugin does not know (version 2)");
	t->g.ptr_size = (uint32_t)sizeof(void *);
	/* The instances' values or their facts out of reach, or more of them than there are. */
	t->g.values = (const tnorm_value *)(uintptr_t)t->unmapped;
	expect_error(t, addr_of(t), TNORM_EIO, "cannot read the driver runtime's table");
	t->g.values = t->values;
	t->g.vars = (struct tnorm_drv_debug_var *)(uintptr_t)t->unmapped;
	expect_error(t, addr_of(t), TNORM_EIO, "cannot read the driver runtime's table");
	t->g.vars = t->vars;
	t->g.nvars = 10;
	expect_error(t, addr_of(t), TNORM_EIO, "cannot read the driver runtime's table");
	t->g.nvars = UINT64_MAX;
	expect_error(t, addr_of(t), TNORM_EIO, "cannot read the driver runtime's table");
	t->g.nvars = 9;
	assert_int_equal(tnorm_pools_read(NULL, fake_read, &t->m, addr_of(t)), TNORM_EINVALID);
	{
		tnorm_pools p;
		assert_int_equal(tnorm_pools_read(&p, NULL, &t->m, addr_of(t)), TNORM_EINVALID);
		tnorm_pools_dispose(&p);
	}
	free(t);
}

/* Every allocation failing in turn: TNORM_ENOMEM, and nothing leaked (ASan checks). */
static void test_pools__oom_every_allocation(void **state)
{
	table *t = malloc(sizeof(*t));
	long n;
	int ok = 0;
	(void)state;
	assert_non_null(t);
	build(t);
	for (n = 0; n < 10000 && !ok; n++) {
		tnorm_pools p;
		int err;
		tnorm__alloc_fail_after(n);
		err = tnorm_pools_read(&p, fake_read, &t->m, addr_of(t));
		tnorm__alloc_fail_after(-1);
		if (err == 0) {
			ok = 1;
			assert_int_equal(p.nvars, 8);
			assert_string_equal(p.vars[4].value + 201, "\"...");
		} else {
			assert_int_equal(err, TNORM_ENOMEM);
		}
		tnorm_pools_dispose(&p);
	}
	assert_true(ok);
	assert_true(n > 20);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pools__read),
		cmocka_unit_test(test_pools__errors),
		cmocka_unit_test(test_pools__oom_every_allocation),
	};
	return cmocka_run_group_tests_name("pools", tests, NULL, NULL);
}

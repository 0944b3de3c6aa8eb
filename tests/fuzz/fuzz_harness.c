/* SPDX-License-Identifier: MIT */
/*
 * fuzz_harness.c - libFuzzer target: the harness parser on arbitrary bytes.
 *
 * A refused harness must come back as an error with *out NULL and a "fuzz.tnh:..." message.  An
 * accepted one must describe itself consistently (pools, variables, templates, their ranges
 * adding up to the action count, values inside their slots), rank/unrank/format/parse must agree
 * on its first and last actions, each template's ends and a few actions drawn from the input,
 * and a test generated over it must survive format -> parse -> format (fuzz_common.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static void check_pools(const tnorm_harness *h)
{
	uint32_t i, idx, vars = 0, n = tnorm_harness_pool_count(h);
	tnorm_pool_info pi;
	for (i = 0; i < n; i++) {
		fuzz_require(tnorm_harness_pool(h, i, &pi) == 0, "pool %u not described", i);
		fuzz_require(pi.instances >= 1 && pi.instances <= 1000, "pool %s has %u instances",
		             pi.name, pi.instances);
		fuzz_require(pi.first_var == vars, "pool %s starts at variable %u, not %u", pi.name,
		             pi.first_var, vars);
		fuzz_require(tnorm_harness_pool_find(h, pi.name, &idx) == 0 && idx == i,
		             "pool %s is not found under its own name", pi.name);
		vars += pi.instances;
	}
	fuzz_require(tnorm_harness_pool(h, n, &pi) == TNORM_EINVALID, "pool %u past the end", n);
	fuzz_require(vars == tnorm_harness_var_count(h), "%u variables, pools hold %u",
	             tnorm_harness_var_count(h), vars);
}

/* Each slot's description matches its pool or value set; `count` is the product of the slots. */
static void check_slots(const tnorm_harness *h, uint32_t t, const tnorm_template_info *ti)
{
	tnorm_pool_info pi;
	tnorm_literal lit;
	uint64_t product = 1;
	uint32_t s;
	fuzz_require(ti->nslots <= TNORM_MAX_SLOTS, "template %u has %u slots", t, ti->nslots);
	for (s = 0; s < ti->nslots; s++) {
		const tnorm_slot_info *sl = &ti->slot[s];
		fuzz_require(sl->count >= 1, "template %u slot %u is empty", t, s);
		if (sl->kind == TNORM_SLOT_POOL) {
			fuzz_require(tnorm_harness_pool(h, sl->pool, &pi) == 0,
			             "slot names pool %u", sl->pool);
			fuzz_require(sl->count == pi.instances,
			             "slot over pool %s counts %u, not %u", pi.name, sl->count,
			             pi.instances);
		} else {
			fuzz_require(s > 0 || !ti->has_lhs, "a left-hand side holds values");
			fuzz_require(tnorm_harness_value(h, t, s, 0, &lit) == 0, "no first value");
			fuzz_require(tnorm_harness_value(h, t, s, sl->count - 1, &lit) == 0,
			             "no last value");
			fuzz_require(lit.kind != TNORM_LIT_STRING || lit.s != NULL,
			             "string value is NULL");
			fuzz_require(tnorm_harness_value(h, t, s, sl->count, &lit) ==
			                 TNORM_EINVALID,
			             "a value past the end of template %u slot %u", t, s);
		}
		fuzz_require(product <= UINT64_MAX / sl->count, "template %u overflows", t);
		product *= sl->count;
	}
	fuzz_require(product == ti->count, "template %u counts %llu actions, its slots %llu", t,
	             (unsigned long long)ti->count, (unsigned long long)product);
}

/* Templates tile 0..action_count-1 in file order; checks are calls over at least one pool. */
static void check_templates(const tnorm_harness *h)
{
	uint32_t i, n = tnorm_harness_template_count(h), line = 0;
	uint64_t next = 0;
	tnorm_template_info ti;
	fuzz_require(n >= 1, "a harness without templates was accepted");
	for (i = 0; i < n; i++) {
		fuzz_require(tnorm_harness_template(h, i, &ti) == 0, "template %u not described",
		             i);
		fuzz_require(ti.first == next, "template %u starts at %llu, not %llu", i,
		             (unsigned long long)ti.first, (unsigned long long)next);
		fuzz_require(ti.line > line, "template %u is on line %u, after line %u", i, ti.line,
		             line);
		fuzz_require(
		    ti.kind == TNORM_TMPL_CALL ? ti.name[0] != '\0' : ti.has_lhs && !ti.is_pure,
		    "template %u: kind %d, name '%s', lhs %d", i, ti.kind, ti.name, ti.has_lhs);
		fuzz_require(!ti.has_lhs || ti.slot[0].kind == TNORM_SLOT_POOL,
		             "lhs is not a pool");
		check_slots(h, i, &ti);
		line = ti.line;
		next += ti.count;
	}
	fuzz_require(next == tnorm_harness_action_count(h), "templates hold %llu actions of %llu",
	             (unsigned long long)next, (unsigned long long)tnorm_harness_action_count(h));
	fuzz_require(tnorm_harness_template(h, n, &ti) == TNORM_EINVALID, "template past the end");
	n = tnorm_harness_check_count(h);
	for (i = 0; i < n; i++) {
		uint32_t s, pools = 0;
		fuzz_require(tnorm_harness_check(h, i, &ti) == 0, "check %u not described", i);
		fuzz_require(ti.kind == TNORM_TMPL_CALL && !ti.has_lhs && ti.name[0],
		             "check %u shape", i);
		for (s = 0; s < ti.nslots; s++)
			pools += ti.slot[s].kind == TNORM_SLOT_POOL;
		fuzz_require(pools >= 1, "check %u has no pool argument", i);
	}
}

static void check_actions(const tnorm_harness *h, uint64_t seed)
{
	uint64_t total = tnorm_harness_action_count(h), x = seed | 1;
	uint32_t i, n = tnorm_harness_template_count(h);
	tnorm_template_info ti;
	tnorm_action a;
	/* Ambiguous harnesses are refused at load (issue 14 item 2): every accepted one reads each
	 * step back as the same action. */
	int exact = 1;
	fuzz_check_action(h, 0, exact);
	fuzz_check_action(h, total - 1, exact);
	if (total < UINT64_MAX)
		fuzz_require(tnorm_harness_unrank(h, total, &a) == TNORM_EINVALID,
		             "unrank(count) works");
	for (i = 0; i < n && i < 64; i++) {
		fuzz_require(tnorm_harness_template(h, i, &ti) == 0, "template %u", i);
		fuzz_check_action(h, ti.first, exact);
		fuzz_check_action(h, ti.first + ti.count - 1, exact);
	}
	for (i = 0; i < 8; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		fuzz_check_action(h, x % total, exact);
	}
}

/* A generated test is well-formed and survives the round trip. */
static void check_generated(const tnorm_harness *h, uint64_t seed)
{
	tnorm_test *t = NULL;
	int err = tnorm_test_generate(&t, h, 12, seed);
	if (err == TNORM_EINVALID)
		return; /* no template can start a test: every one uses an unassigned pool */
	fuzz_require(err == 0, "generate failed: %s", fuzz_last_error());
	fuzz_require(tnorm_test_is_wellformed(t), "a generated test is not well-formed");
	fuzz_check_test(t, 1);
	tnorm_test_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tnorm_harness *h = (tnorm_harness *)&h;
	uint64_t seed = fuzz_hash(data, size);
	int err = tnorm_harness_parse(&h, "fuzz.tnh", (const char *)data, size);
	if (err < 0) {
		const char *msg = fuzz_last_error();
		fuzz_require(h == NULL, "a refused harness left *out set");
		fuzz_require(err == TNORM_EPARSE || err == TNORM_EOVERFLOW || err == TNORM_ENOMEM,
		             "parse returned %d", err);
		fuzz_require(!strncmp(msg, "fuzz.tnh:", 9), "message '%s' does not name the file",
		             msg);
		return 0;
	}
	fuzz_require(err == 0 && h != NULL, "parse returned %d", err);
	fuzz_require(!strcmp(tnorm_harness_name(h), "fuzz.tnh"), "the harness forgot its name");
	check_pools(h);
	check_templates(h);
	check_actions(h, seed);
	check_generated(h, seed);
	tnorm_harness_free(h);
	return 0;
}

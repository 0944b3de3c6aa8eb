/* SPDX-License-Identifier: MIT */
/*
 * driver.c - the runtime that test drivers link: read a test, run it step by step.
 *
 * The runtime parses the test with the engine's own harness and test code, so a test the engine
 * prints is exactly the test the driver runs.  Before each step it calls tnorm_step_hook() (the
 * debuggers' breakpoint), then runs the step: value templates directly, call templates through
 * the driver's handler.  After each step it runs every `check` on every combination of live
 * instances of the check's pools.  Exit codes follow the engine's convention: 0 pass, a crash or
 * abort() fail, 125 invalid test.
 *
 * Started by the engine as a fork server (TNORM_FORK_SERVER=FD in its environment), the driver
 * parses its options and harness once, then forks one child per request that comes on the
 * control socket FD, the way AFL's fork server does: the child takes the request's standard
 * input, output and error, and goes on to read and run the test as a driver started afresh
 * would (the test file's path is the same for every run: the engine rewrites the file).  The
 * engine traces the server (it says hello on the socket, then stops itself with SIGSTOP so that
 * the engine can follow its forks), so every child is traced from its first instruction.  The
 * server's loop is core/preload/fs_server.c, shared with the preload library that makes any
 * program a fork server.
 *
 * Persistent mode (issue 30): a child the engine lets persist runs the next candidate after one
 * that passed, in the same process (tnorm__drv_run_test frees everything a test made, the pools' values
 * through their destructors), until a candidate does not pass or the engine says it is the
 * child's last; the engine confirms in a fresh child whatever a reused one saw fail.  A driver
 * opts out with TNORM_DRV_NOT_PERSISTENT (driver.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_debug.h"
#include "fs_server.h"
#include "tnorm/driver.h"
#include "tnorm/errors.h"
#include "tnorm/harness.h"
#include "tnorm/order.h"
#include "tnorm/test.h"

struct tnorm_drv {
	const tnorm_harness *h;
	tnorm_value *vars;
	unsigned char *live;
	tnorm_drv_fn *fn; /* per template and per check (template_count + check index) */
	const tnorm_drv_pool *pools; /* the driver's per-pool hooks, or NULL */
	unsigned long step;
	int trace;
	/* Destructors (issue 16): per pool its destroy hook or NULL; per variable whether a call
	 * stored its value (only those are destroyed) and when (exit destroys the latest first);
	 * during a stored call, the left-hand side's value before the call (tnorm_drv_old). */
	void (**destroy)(tnorm_drv *d, tnorm_value *v);
	unsigned char *made;
	unsigned long *made_seq, nmade;
	const tnorm_value *old;
	char why[201]; /* tnorm_drv_invalid's reason for the step being run, or "" */
	char *gtext; /* per variable, TNORM_MAX_GEN_LEN + 1 bytes: its generated string's text */
};

__attribute__((noinline, used)) void tnorm_step_hook(unsigned long step, const char *text)
{
	/* An empty asm with the arguments as inputs keeps the call and the arguments alive at -O2. */
	__asm__ volatile("" : : "r"(step), "r"(text) : "memory");
}

/*
 * Why the runtime itself aborted, in the engine's kind format ("check-failed:NAME",
 * "handler-failed:NAME"), for a debugger stopped in that abort: the engine reads the same from
 * the line printed to stderr.  The one mutable global of the runtime: it is the program's own
 * state, written once, right before abort().
 */
__attribute__((used)) char tnorm_drv_failure[128];

static void __attribute__((noreturn)) tnorm__drv_abort(const char *what, const char *call)
{
	size_t n = strcspn(call, "(");
	snprintf(tnorm_drv_failure, sizeof(tnorm_drv_failure), "%s:%.*s", what, (int)(n < 100 ? n : 100),
	         call);
	fflush(stderr);
	abort();
}

int tnorm_drv_invalid(tnorm_drv *d, const char *fmt, ...)
{
	va_list ap;
	if (d && fmt) {
		va_start(ap, fmt);
		vsnprintf(d->why, sizeof(d->why), fmt, ap);
		va_end(ap);
	}
	return TNORM_DRV_INVALID;
}

unsigned long tnorm_drv_step(const tnorm_drv *d)
{
	return d ? d->step : 0;
}

/* ---- destructors (issue 16) ------------------------------------------------------------------
 *
 * A pool's destroy hook frees a value that a call stored (never a literal of a value template):
 * when a step assigns an instance that holds such a value, after the step's handler has run (it
 * may read the old value: tnorm_drv_old, or an argument naming the same instance), and at exit,
 * for every instance still holding one, the latest assigned first.  A value whose members are
 * all zero (a handler freed it and cleared it) is not destroyed, nor an old value that the
 * step stored again (`t0 = grow(t0)` returning the same object). */

const tnorm_value *tnorm_drv_old(const tnorm_drv *d)
{
	return d ? d->old : NULL;
}

static int value_is_zero(const tnorm_value *v)
{
	return v->i == 0 && v->s == NULL && v->len == 0 && v->p == NULL;
}

static int value_same(const tnorm_value *a, const tnorm_value *b)
{
	return a->i == b->i && a->s == b->s && a->len == b->len && a->p == b->p;
}

/* The destroy hook of each pool, from the driver's table.  0, or -1 out of memory. */
static int destroy_setup(tnorm_drv *d)
{
	uint32_t np = tnorm_harness_pool_count(d->h), nv = tnorm_harness_var_count(d->h), pi;
	size_t i;
	d->destroy = calloc((size_t)np + 1, sizeof(*d->destroy));
	d->made = calloc((size_t)nv + 1, 1);
	d->made_seq = calloc((size_t)nv + 1, sizeof(*d->made_seq));
	if (!d->destroy || !d->made || !d->made_seq)
		return -1;
	for (i = 0; d->pools && d->pools[i].name; i++)
		if (tnorm_harness_pool_find(d->h, d->pools[i].name, &pi) == 0)
			d->destroy[pi] = d->pools[i].destroy;
	return 0;
}

/* Variable v of pool `pool` gets `nv` (made: a call stored it); its old value is destroyed. */
static void destroy_assign(tnorm_drv *d, uint32_t pool, uint32_t v, const tnorm_value *nv,
                           int made)
{
	tnorm_value old = d->vars[v];
	int had = d->live[v] && d->made[v];
	d->vars[v] = *nv;
	d->live[v] = 1;
	d->made[v] = (unsigned char)made;
	d->made_seq[v] = ++d->nmade;
	if (had && d->destroy && d->destroy[pool] && !value_is_zero(&old) && !value_same(&old, nv))
		d->destroy[pool](d, &old);
}

/* At exit: every value a call stored and nothing destroyed yet, the latest assigned first. */
static void destroy_all(tnorm_drv *d)
{
	uint32_t np = tnorm_harness_pool_count(d->h), pi, k;
	if (!d->destroy || !d->made)
		return;
	for (;;) {
		uint32_t best = UINT32_MAX, bpool = 0;
		for (pi = 0; pi < np; pi++) {
			tnorm_pool_info p;
			if (!d->destroy[pi])
				continue;
			tnorm_harness_pool(d->h, pi, &p);
			for (k = 0; k < p.instances; k++) {
				uint32_t v = p.first_var + k;
				if (d->live[v] && d->made[v] &&
				    (best == UINT32_MAX || d->made_seq[v] > d->made_seq[best])) {
					best = v;
					bpool = pi;
				}
			}
		}
		if (best == UINT32_MAX)
			return;
		d->made[best] = 0;
		if (!value_is_zero(&d->vars[best]))
			d->destroy[bpool](d, &d->vars[best]);
		memset(&d->vars[best], 0, sizeof(d->vars[best]));
	}
}

static int invalid(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int invalid(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "tnorm driver: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return 125;
}

static tnorm_drv_fn lookup(const tnorm_drv_handler *handlers, const char *name)
{
	size_t i;
	for (i = 0; handlers && handlers[i].name; i++)
		if (!strcmp(handlers[i].name, name))
			return handlers[i].fn;
	return NULL;
}

/* Value `choice` of a value slot.  A string of a generated domain (strings(...), bytes(...))
 * is copied into `store` (TNORM_MAX_GEN_LEN + 1 bytes), which must live as long as the value. */
static void literal(const tnorm_harness *h, uint32_t tmpl, uint32_t slot, uint32_t choice,
                    tnorm_value *out, char *store)
{
	tnorm_literal lit;
	memset(out, 0, sizeof(*out));
	if (tnorm_harness_value(h, tmpl, slot, choice, &lit) < 0)
		return;
	if (lit.kind == TNORM_LIT_INT) {
		out->kind = TNORM_VALUE_INT;
		out->i = lit.i;
	} else if (lit.kind == TNORM_LIT_NULL) {
		out->kind = TNORM_VALUE_NULL;
	} else {
		out->kind = TNORM_VALUE_STRING;
		out->s = lit.s;
		out->len = lit.len;
		if (lit.s == lit.text) {
			memcpy(store, lit.text, lit.len + 1);
			out->s = store;
		}
	}
}

static uint32_t var_of(const tnorm_harness *h, const tnorm_template_info *t, uint32_t s,
                       uint32_t choice)
{
	tnorm_pool_info p;
	tnorm_harness_pool(h, t->slot[s].pool, &p);
	return p.first_var + choice;
}

/* Run one call (template or check index `ti`) with slot choices `choice`; returns the handler's
 * result. */
static int tnorm__drv_call(tnorm_drv *d, uint32_t ti, const tnorm_template_info *t, const uint32_t *choice)
{
	tnorm_value tmp[TNORM_MAX_SLOTS], *args[TNORM_MAX_SLOTS], res;
	char text[TNORM_MAX_SLOTS][TNORM_MAX_GEN_LEN + 1];
	uint32_t s, k = 0;
	int rc;
	memset(&res, 0, sizeof(res));
	for (s = t->has_lhs ? 1 : 0; s < t->nslots; s++, k++) {
		if (t->slot[s].kind == TNORM_SLOT_POOL) {
			args[k] = &d->vars[var_of(d->h, t, s, choice[s])];
		} else {
			literal(d->h, ti, s, choice[s], &tmp[k], text[k]);
			args[k] = &tmp[k];
		}
	}
	if (t->has_lhs) {
		uint32_t v = var_of(d->h, t, 0, choice[0]);
		d->old = d->live[v] ? &d->vars[v] : NULL;
	}
	rc = d->fn[ti](d, args, &res);
	d->old = NULL;
	/* An argument written `move <pool>`: the call took its value (the SUT owns it now), so the
	 * instance holds none and its destructor is not called on it. */
	for (s = t->has_lhs ? 1 : 0; rc == 0 && s < t->nslots; s++)
		if (t->slot[s].moves) {
			uint32_t v = var_of(d->h, t, s, choice[s]);
			d->live[v] = 0;
			d->made[v] = 0;
			memset(&d->vars[v], 0, sizeof(d->vars[v]));
		}
	if (rc == 0 && t->has_lhs)
		destroy_assign(d, t->slot[0].pool, var_of(d->h, t, 0, choice[0]), &res, 1);
	return rc;
}

static void tnorm__drv_run_checks(tnorm_drv *d, char *text, size_t textsize)
{
	uint32_t c, nt = tnorm_harness_template_count(d->h);
	for (c = 0; c < tnorm_harness_check_count(d->h); c++) {
		tnorm_template_info t;
		uint32_t choice[TNORM_MAX_SLOTS] = {0}, s;
		int done = 0;
		tnorm_harness_check(d->h, c, &t);
		/* Odometer over every slot; pool slots skip instances that hold no value. */
		while (!done) {
			int all_live = 1;
			for (s = 0; s < t.nslots; s++)
				if (t.slot[s].kind == TNORM_SLOT_POOL && !d->live[var_of(d->h, &t, s, choice[s])])
					all_live = 0;
			if (all_live && tnorm__drv_call(d, nt + c, &t, choice) != 0) {
				size_t n = (size_t)snprintf(text, textsize, "%s(", t.name);
				for (s = 0; s < t.nslots && n < textsize; s++) {
					tnorm_pool_info p;
					if (t.slot[s].kind == TNORM_SLOT_POOL) {
						tnorm_harness_pool(d->h, t.slot[s].pool, &p);
						n += (size_t)snprintf(text + n, textsize - n, "%s%s%u", s ? ", " : "",
						                      p.name, choice[s]);
					} else {
						n += (size_t)snprintf(text + n, textsize - n, "%s#%u", s ? ", " : "",
						                      choice[s]);
					}
				}
				fprintf(stderr, "tnorm driver: check %s) failed after step %lu\n", text, d->step);
				tnorm__drv_abort("check-failed", text);
			}
			for (s = t.nslots; s-- > 0;) {
				if (++choice[s] < t.slot[s].count)
					break;
				choice[s] = 0;
				if (s == 0)
					done = 1;
			}
			if (t.nslots == 0)
				done = 1;
		}
	}
}

/*
 * ---- What debuggers read: the pool instances and the step being run (issue 20) ----------------
 *
 * The table's layout, and how debuggers read it, is drv_debug.h's (shared with the engine's
 * reader, tnorm_pools_read).
 *
 * A pool's print hook runs only when a debugger asks for it (TNORM_DRV_PRINT=1 in the
 * environment; the plugins set it): before each step, on every live instance of the pool, into
 * the instance's own buffer.  A test run by the engine never pays for it.
 */
__attribute__((used)) struct tnorm_drv_debug tnorm_drv_debug;

/* Fill the table for a test of `nsteps` steps; returns -1 when out of memory. */
static int tnorm__drv_debug_init(const tnorm_drv *d, size_t nsteps)
{
	struct tnorm_drv_debug *g = &tnorm_drv_debug;
	const char *print = getenv("TNORM_DRV_PRINT");
	uint32_t nv = tnorm_harness_var_count(d->h), pi, k;
	const tnorm_drv_pool **hooks;
	memset(g, 0, sizeof(*g));
	g->vars = calloc((size_t)nv + 1, sizeof(*g->vars));
	hooks = calloc((size_t)nv + 1, sizeof(*hooks));
	g->hooks = hooks;
	if (!g->vars || !hooks)
		return -1;
	for (pi = 0; pi < tnorm_harness_pool_count(d->h); pi++) {
		tnorm_pool_info p;
		const tnorm_drv_pool *hook = NULL;
		size_t j;
		tnorm_harness_pool(d->h, pi, &p);
		for (j = 0; d->pools && d->pools[j].name; j++)
			if (!strcmp(d->pools[j].name, p.name))
				hook = &d->pools[j];
		for (k = 0; k < p.instances; k++) {
			struct tnorm_drv_debug_var *v = &g->vars[p.first_var + k];
			size_t n = strlen(p.name) + 12;
			char *name = malloc(n);
			if (!name)
				return -1;
			snprintf(name, n, "%s%u", p.name, k);
			v->name = name;
			v->assigned = v->changed = v->printed_before = -1;
			hooks[p.first_var + k] = hook;
			if (hook && hook->print) {
				v->has_print = 1;
				if (print && !strcmp(print, "1") && !(v->printed = malloc(TNORM__DRV_PRINT_SIZE)))
					return -1;
			}
		}
	}
	g->version = TNORM__DRV_DEBUG_VERSION;
	g->ptr_size = (uint32_t)sizeof(void *);
	g->value_size = (uint32_t)sizeof(tnorm_value);
	g->var_size = (uint32_t)sizeof(struct tnorm_drv_debug_var);
	g->nvars = nv;
	g->nsteps = nsteps;
	g->step = -1;
	g->values = d->vars;
	memcpy(g->magic, TNORM__DRV_DEBUG_MAGIC, sizeof(g->magic));
	return 0;
}

/* The printed form of every live instance whose pool prints, marked as printed before step
 * `before` (after step k is before step k + 1). */
static void tnorm__drv_debug_print(const tnorm_drv *d, size_t before)
{
	struct tnorm_drv_debug *g = &tnorm_drv_debug;
	uint64_t v;
	for (v = 0; g->vars && v < g->nvars; v++) {
		struct tnorm_drv_debug_var *x = &g->vars[v];
		if (!x->printed || !d->live[v])
			continue;
		x->printed[0] = '\0';
		if (g->hooks[v]->print(&d->vars[v], x->printed, TNORM__DRV_PRINT_SIZE) != 0)
			snprintf(x->printed, TNORM__DRV_PRINT_SIZE, "<print failed>");
		x->printed[TNORM__DRV_PRINT_SIZE - 1] = '\0';
		x->printed_before = (int64_t)before;
	}
}

/* Before step `step` (at the hook): what it will call, and the printed form of every instance
 * whose pool prints, as the steps before it left them. */
static void tnorm__drv_debug_before(const tnorm_drv *d, size_t step, const tnorm_action *a,
                                    const tnorm_template_info *info)
{
	struct tnorm_drv_debug *g = &tnorm_drv_debug;
	g->step = (int64_t)step;
	g->handler = info->kind == TNORM_TMPL_CALL ? d->fn[a->tmpl] : NULL;
	tnorm__drv_debug_print(d, step);
}

/* After step `step` ran: which instances it assigned, and which it may have modified. */
static void tnorm__drv_debug_after(const tnorm_drv *d, size_t step, const tnorm_action *a,
                                   const tnorm_template_info *info)
{
	struct tnorm_drv_debug_var *vars = tnorm_drv_debug.vars;
	uint32_t s;
	if (!vars)
		return;
	for (s = 0; s < info->nslots; s++) {
		struct tnorm_drv_debug_var *x;
		tnorm_pool_info p;
		if (info->slot[s].kind != TNORM_SLOT_POOL)
			continue;
		x = &vars[var_of(d->h, info, s, a->choice[s])];
		tnorm_harness_pool(d->h, info->slot[s].pool, &p);
		if (s == 0 && info->has_lhs) {
			x->assigned = (int64_t)step;
			x->changed = -1;
			if (info->kind == TNORM_TMPL_VALUE) {
				tnorm_literal lit;
				x->kind = tnorm_harness_value(d->h, a->tmpl, 1, a->choice[1], &lit) == 0 &&
				                  lit.kind == TNORM_LIT_INT
				              ? TNORM__DRV_DBG_INT
				              : TNORM__DRV_DBG_STRING;
			} else {
				x->kind = TNORM__DRV_DBG_OBJECT;
			}
		} else if (!info->is_pure && !p.is_const && x->assigned >= 0) {
			x->changed = (int64_t)step;
		}
	}
	/* Printed again after the step, before its checks run: a debugger stopped at a failing
	 * check shows the state the failing step left (issue 29). */
	tnorm__drv_debug_print(d, step + 1);
}

static void tnorm__drv_debug_free(void)
{
	struct tnorm_drv_debug *g = &tnorm_drv_debug;
	uint64_t v;
	memset(g->magic, 0, sizeof(g->magic));
	for (v = 0; g->vars && v < g->nvars + 1; v++) {
		free((char *)g->vars[v].name);
		free(g->vars[v].printed);
	}
	free(g->vars);
	free((void *)g->hooks);
	memset(g, 0, sizeof(*g));
}

static int read_all(FILE *f, char **out, size_t *len)
{
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap), *nb;
	if (!buf)
		return -1;
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			if (!(nb = realloc(buf, cap * 2))) {
				free(buf);
				return -1;
			}
			buf = nb;
			cap *= 2;
		}
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return ferror(f) ? -1 : 0;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [--harness PATH] [--trace] (TEST | - | --stdin)\n"
	                "       %s --print-harness | --print-hooks\n", prog, prog);
}

/* --print-hooks: `destroy POOL` for each pool with a destructor.  The engine asks this to turn
 * leak detection on for programs that free what they make (issue 16).  Then `handler NAME K`
 * for each handler, K the first row of the table with the same function: `tnorm check
 * --driver` warns about checks that share one function, whose failures look alike. */
static int print_hooks(const tnorm_drv_handler *handlers, const tnorm_drv_pool *pools)
{
	size_t i, k;
	for (i = 0; pools && pools[i].name; i++)
		if (pools[i].destroy)
			printf("destroy %s\n", pools[i].name);
	for (i = 0; handlers && handlers[i].name; i++) {
		for (k = 0; handlers[k].fn != handlers[i].fn; k++)
			;
		printf("handler %s %zu\n", handlers[i].name, k);
	}
	return fflush(stdout) == 0 ? 0 : 125;
}

int tnorm_drv_main(int argc, char **argv, const char *harness_text,
                   const tnorm_drv_handler *handlers)
{
	return tnorm_drv_main_pools(argc, argv, harness_text, handlers, NULL);
}

/* d->fn[ti]: the handler of each call template and check (checks after the templates), and the
 * pools the driver has hooks for, all found in the harness `h`.  0, or the driver's exit code for
 * an invalid run, said on stderr. */
static int bind_handlers(tnorm_drv *d, const tnorm_harness *h, const tnorm_drv_handler *handlers,
                         const tnorm_drv_pool *pools)
{
	uint32_t ti, nt = tnorm_harness_template_count(h), nc = tnorm_harness_check_count(h);
	size_t i;
	for (ti = 0; ti < nt + nc; ti++) {
		tnorm_template_info info;
		if (ti < nt)
			tnorm_harness_template(h, ti, &info);
		else
			tnorm_harness_check(h, ti - nt, &info);
		if (info.kind != TNORM_TMPL_CALL)
			continue;
		if (!(d->fn[ti] = lookup(handlers, info.name)))
			return invalid("the driver has no handler for '%s' (harness line %u)", info.name,
			               info.line);
	}
	for (i = 0; pools && pools[i].name; i++) {
		uint32_t pi;
		if (tnorm_harness_pool_find(h, pools[i].name, &pi) < 0)
			return invalid("the driver has hooks for pool '%s', which the harness does not declare",
			               pools[i].name);
	}
	return 0;
}

/*
 * ---- One test (issue 30: a persistent child runs this once per candidate) --------------------
 *
 * Everything a test makes is made here and freed here: the test, the instances' values (the
 * destructors run on those a call stored), the debuggers' table.  What stays from one candidate
 * to the next in a persistent child is the harness, the handler table and whatever the system
 * under test keeps outside the pools (its globals, static caches, the heap's layout), which is
 * why a failure seen there is confirmed in a fresh child by the engine.
 */
static int tnorm__drv_run_test(const tnorm_harness *h, const char *tpath, const tnorm_drv_handler *handlers,
                    const tnorm_drv_pool *pools, int trace)
{
	tnorm_test *t = NULL;
	tnorm_drv d;
	char *ttext = NULL, text[4096];
	size_t tlen = 0, i;
	uint32_t nt, nc;
	int rc = 0;

	memset(&d, 0, sizeof(d));
	d.pools = pools;
	d.trace = trace;
	if (!strcmp(tpath, "-")) {
		if (read_all(stdin, &ttext, &tlen) < 0) {
			rc = invalid("cannot read the test from standard input");
			goto done;
		}
		tpath = "<stdin>";
		if (tnorm_test_parse(&t, h, tpath, ttext, tlen) < 0) {
			rc = invalid("%s", tnorm_error_last()->message);
			goto done;
		}
	} else if (tnorm_test_load(&t, h, tpath) < 0) {
		rc = invalid("%s", tnorm_error_last()->message);
		goto done;
	}
	if (tnorm_test_check(t, NULL) < 0) {
		rc = invalid("%s: %s", tpath, tnorm_error_last()->message);
		goto done;
	}
	nt = tnorm_harness_template_count(h);
	nc = tnorm_harness_check_count(h);
	d.h = h;
	d.vars = calloc(tnorm_harness_var_count(h) + 1, sizeof(*d.vars));
	d.live = calloc(tnorm_harness_var_count(h) + 1, 1);
	d.gtext = calloc(tnorm_harness_var_count(h) + 1, TNORM_MAX_GEN_LEN + 1);
	d.fn = calloc((size_t)nt + nc + 1, sizeof(*d.fn));
	if (!d.vars || !d.live || !d.fn || !d.gtext) {
		rc = invalid("out of memory");
		goto done;
	}
	if ((rc = bind_handlers(&d, h, handlers, pools)) != 0)
		goto done;
	if (destroy_setup(&d) < 0 || tnorm__drv_debug_init(&d, tnorm_test_len(t)) < 0) {
		rc = invalid("out of memory");
		goto done;
	}
	for (i = 0; i < tnorm_test_len(t); i++) {
		const tnorm_action *a = tnorm_test_step(t, i);
		tnorm_template_info info;
		d.step = i;
		tnorm_harness_template(h, a->tmpl, &info);
		tnorm_harness_format_action(h, a, text, sizeof(text));
		if (d.trace)
			fprintf(stderr, "STEP %zu: %s\n", i, text);
		tnorm__drv_debug_before(&d, i, a, &info);
		tnorm_step_hook(i, text);
		if (info.kind == TNORM_TMPL_VALUE) {
			tnorm_value lit;
			uint32_t v = var_of(h, &info, 0, a->choice[0]);
			literal(h, a->tmpl, 1, a->choice[1], &lit, d.gtext + (size_t)v * (TNORM_MAX_GEN_LEN + 1));
			destroy_assign(&d, info.slot[0].pool, var_of(h, &info, 0, a->choice[0]), &lit, 0);
		} else {
			int r;
			d.why[0] = '\0';
			r = tnorm__drv_call(&d, a->tmpl, &info, a->choice);
			if (r == TNORM_DRV_INVALID) {
				rc = invalid("%s:%u: step %zu: %s is invalid for this system%s%s", tpath,
				             tnorm_test_step_line(t, i), i, text, d.why[0] ? ": " : "",
				             d.why[0] ? d.why : " (handler returned 125)");
				goto done;
			}
			if (r != 0) {
				fprintf(stderr, "tnorm driver: step %zu: %s failed (handler returned %d)\n", i, text, r);
				tnorm__drv_abort("handler-failed", text);
			}
		}
		tnorm__drv_debug_after(&d, i, a, &info);
		tnorm__drv_run_checks(&d, text, sizeof(text));
	}
done:
	if (d.vars && d.live)
		destroy_all(&d); /* a passing or invalid run frees what it made */
	tnorm__drv_debug_free();
	free(d.destroy);
	free(d.made);
	free(d.made_seq);
	free(d.vars);
	free(d.gtext);
	free(d.live);
	free(d.fn);
	free(ttext);
	tnorm_test_free(t);
	return rc;
}

/* 1 unless the driver opted out of persistent mode (TNORM_DRV_NOT_PERSISTENT defines this as
 * 0, and the linker takes the driver's definition over this weak one).  Read through a
 * volatile pointer: a weak definition's value is not the compiler's to fold. */
__attribute__((weak)) int tnorm_drv_persistent = 1;

int tnorm_drv_main_pools(int argc, char **argv, const char *harness_text,
                         const tnorm_drv_handler *handlers, const tnorm_drv_pool *pools)
{
	const char *hpath = NULL, *tpath = NULL;
	tnorm_harness *h = NULL;
	int k, rc = 0, trace = 0;

	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--harness") && k + 1 < argc) {
			hpath = argv[++k];
		} else if (!strcmp(argv[k], "--trace")) {
			trace = 1;
		} else if (!strcmp(argv[k], "--stdin") || !strcmp(argv[k], "-")) {
			tpath = "-";
		} else if (!strcmp(argv[k], "--print-harness")) {
			/* The debugger plugins ask the program which harness it was built with. */
			if (!harness_text)
				return invalid("no harness is compiled into this driver");
			fputs(harness_text, stdout);
			return fflush(stdout) == 0 ? 0 : 125;
		} else if (!strcmp(argv[k], "--print-hooks")) {
			return print_hooks(handlers, pools);
		} else if (!strcmp(argv[k], "--help")) {
			usage(argv[0]);
			return 0;
		} else if (argv[k][0] == '-' || tpath) {
			usage(argv[0]);
			return 125;
		} else {
			tpath = argv[k];
		}
	}
	if (!tpath) {
		usage(argv[0]);
		return 125;
	}
	if (hpath) {
		if (tnorm_harness_load(&h, hpath) < 0) {
			rc = invalid("%s", tnorm_error_last()->message);
			goto done;
		}
	} else if (!harness_text ||
	           tnorm_harness_parse(&h, "embedded harness", harness_text, strlen(harness_text)) < 0) {
		rc = invalid("%s", harness_text ? tnorm_error_last()->message : "no harness");
		goto done;
	}
	/* The fork server (fs_server.c): returns in each child.  A child the engine lets persist
	 * runs candidates until one does not pass (it exits: 125, or it crashed) or it is told its
	 * last; tnorm__fs_persist returns 0 at once in every other process. */
	tnorm__fs_serve_persistent(*(volatile int *)&tnorm_drv_persistent != 0);
	do
		rc = tnorm__drv_run_test(h, tpath, handlers, pools, trace);
	while (rc == 0 && tnorm__fs_persist());
done:
	tnorm_harness_free(h);
	return rc;
}

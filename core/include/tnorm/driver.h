/* SPDX-License-Identifier: MIT */
/*
 * driver.h - the runtime that a test driver links (libtnorm_driver).
 *
 * A driver is a small C program that maps each call template of a harness to a C function of the
 * system under test.  The runtime does everything else: it reads the test file, parses it with the
 * same harness code as the engine, holds the pool instances' values, runs the value templates
 * itself, calls one handler per step, runs the `check` handlers after every step on every live
 * instance, and calls tnorm_step_hook() before each step so that a debugger can stop there.
 *
 *     static int h_insert(tnorm_drv *d, tnorm_value **a, tnorm_value *res)
 *     {
 *             avl_insert(a[0]->p, (int)a[1]->i);
 *             return 0;
 *     }
 *     static const tnorm_drv_handler handlers[] = {
 *             {"avl_new", h_new}, {"avl_insert", h_insert}, ..., {NULL, NULL}};
 *     int main(int argc, char **argv)
 *     {
 *             return tnorm_drv_main(argc, argv, avl_harness, handlers);
 *     }
 *
 * Exit convention (what the engine reads): 0 the test passed; a crash or abort is a failure
 * (a check handler returning nonzero makes the runtime print which check failed and abort());
 * 125 the test is invalid (it does not parse, is not well-formed, or a handler returned
 * TNORM_DRV_INVALID) or the driver does not match its harness.  Messages go to stderr.
 *
 * Unlike libtnorm, this runtime is the driver program's main loop: it prints and exits.
 */
#ifndef TNORM_DRIVER_H
#define TNORM_DRIVER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Return this from a handler when the step makes no sense for the SUT: the run exits 125. */
#define TNORM_DRV_INVALID 125

/** What a tnorm_value holds, as far as the runtime knows. */
typedef enum tnorm_value_kind {
	TNORM_VALUE_OBJECT = 0, /**< whatever a handler stored (the runtime never sets it) */
	TNORM_VALUE_INT = 1,    /**< an integer literal: `i` */
	TNORM_VALUE_STRING = 2, /**< a string literal: `s` and `len` (`s` is never NULL) */
	TNORM_VALUE_NULL = 3    /**< the literal `null`: every member is zero, `s` and `p` NULL */
} tnorm_value_kind;

/**
 * A pool instance's value, or a literal argument.  For literals (value templates and inline
 * values) the runtime sets `kind` and the matching members and zeroes the rest, so a handler of a
 * slot whose set mixes kinds (`{1, "x", null}`) tells them apart by `kind`; what a handler
 * stores in `*res` is up to the driver (`kind` starts as TNORM_VALUE_OBJECT).
 */
typedef struct tnorm_value {
	int64_t i;     /**< integers (value templates set this for integer literals) */
	const char *s; /**< strings (value templates set this; borrowed from the harness) */
	size_t len;    /**< length of `s` */
	void *p;       /**< anything else: objects the driver's constructors return */
	int kind;      /**< a tnorm_value_kind */
} tnorm_value;

typedef struct tnorm_drv tnorm_drv;

/**
 * A handler for one call template.  `arg[k]` points at the k-th argument (left-hand side
 * excluded): pool arguments point at the instance's own storage (a handler may update it);
 * literal arguments at a temporary.  For `<p> := f(...)`, the handler stores the result in
 * *res, which then becomes p's value.  For checks, return nonzero when the property is violated.
 * Return 0 on success, TNORM_DRV_INVALID for an invalid step, other nonzero for a failure.
 */
typedef int (*tnorm_drv_fn)(tnorm_drv *d, tnorm_value **arg, tnorm_value *res);

/** One row of a driver's handler table; the table ends with {NULL, NULL}. */
typedef struct tnorm_drv_handler {
	const char *name; /**< the function name used in the harness */
	tnorm_drv_fn fn;
} tnorm_drv_handler;

/**
 * Optional hooks for one pool, by the pool's name in the harness (without the angle brackets).
 * A table of them ends with a row whose name is NULL; pools without a row have no hooks.
 */
typedef struct tnorm_drv_pool {
	const char *name;
	/**
	 * Frees a value that a call stored in an instance of this pool (never a literal that a
	 * value template assigned).  Called when a step assigns an instance holding such a value,
	 * right after the step's handler returned 0 (the handler can still read the old value:
	 * tnorm_drv_old(), or an argument naming the same instance), and when the test ends (it
	 * passed, or is invalid) for every instance still holding one, the latest assigned first.
	 * Not called on a value whose members are all zero (a handler that frees an argument's
	 * object clears it: `a[0]->p = NULL`), nor on an old value that the step stored again,
	 * nor on an argument the harness writes `move <pool>` (the call took it: after the step
	 * the instance holds no value).  A driver with a destroy hook is run with LeakSanitizer on (see --print-hooks).
	 */
	void (*destroy)(tnorm_drv *d, tnorm_value *v);
	/**
	 * Writes a short printed form of a live instance's value into buf (at most `size` bytes,
	 * NUL-terminated; a longer text is cut), for debuggers (`tnorm pools`).  Called only when a
	 * debugger asks (TNORM_DRV_PRINT=1 in the environment, which the plugins set): before each
	 * step, on every live instance of the pool.  Must not change the value.  Returns 0, or
	 * nonzero when it cannot print (the debugger then shows "<print failed>").
	 */
	int (*print)(const tnorm_value *v, char *buf, size_t size);
} tnorm_drv_pool;

/**
 * The driver's main: `DRIVER [--harness PATH] [--trace] (TEST | - | --stdin)`, or
 * `DRIVER --print-harness` (the compiled-in harness) or `DRIVER --print-hooks` (a line
 * `destroy POOL` per pool with a destroy hook: the engine runs such drivers with leak detection;
 * then a line `handler NAME K` per handler, K the first row of `handlers` with the same function).
 * `harness_text` is the harness compiled into the driver (see core/driver/embed.c); --harness
 * overrides it.  Returns the process exit status (0 or 125); failures abort.
 */
TNORM_EXTERN int tnorm_drv_main(int argc, char **argv, const char *harness_text,
                                const tnorm_drv_handler *handlers);

/** tnorm_drv_main with per-pool hooks (`pools` may be NULL: none). */
TNORM_EXTERN int tnorm_drv_main_pools(int argc, char **argv, const char *harness_text,
                                      const tnorm_drv_handler *handlers,
                                      const tnorm_drv_pool *pools);

/**
 * Persistent mode (docs/driver.md, "Persistent mode"): under the engine's fork server, one child
 * of the driver may run many candidates, one after another, as long as each passes; the runtime
 * frees what each test made (the pools' values, through their destroy hooks) before the next.
 * What the pools do not own stays from one candidate to the next: the system under test's
 * global or static state, caches, signal handlers, the heap's layout.  A driver whose system
 * keeps such state opts out by writing, once, at file scope:
 *
 *     TNORM_DRV_NOT_PERSISTENT;
 *
 * Each child then runs one candidate, as before.  (This defines tnorm_drv_persistent as 0; the
 * runtime's own definition, 1, is a weak one.)
 */
TNORM_EXTERN extern int tnorm_drv_persistent;
#define TNORM_DRV_NOT_PERSISTENT int tnorm_drv_persistent = 0

/**
 * In the handler of a stored call `<p> := f(...)`: the value p's instance holds before the call
 * (borrowed; valid until the handler returns), or NULL when it holds none.  NULL elsewhere.
 * With a destroy hook for p's pool, the runtime destroys that old value after the handler.
 */
TNORM_EXTERN const tnorm_value *tnorm_drv_old(const tnorm_drv *d);

/**
 * In a handler: say why the step is invalid and return TNORM_DRV_INVALID, as in
 * `return tnorm_drv_invalid(d, "no key \"%s\" to delete", a[1]->s);`.  The runtime then prints
 * `tnorm driver: TEST:LINE: step K: TEXT is invalid for this system: REASON` (REASON, printf
 * style, cut at 200 bytes) and exits 125; `tnorm run` shows it as the test's reason.
 */
TNORM_EXTERN int tnorm_drv_invalid(tnorm_drv *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** Index of the step being run (0-based), for handlers that want to report it. */
TNORM_EXTERN unsigned long tnorm_drv_step(const tnorm_drv *d);

/**
 * Called before each step with its 0-based index and its canonical text.  It does nothing; it
 * exists so that debuggers can break on it (`tnorm step`).  Never inlined or removed.
 */
TNORM_EXTERN void tnorm_step_hook(unsigned long step, const char *text);

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: MIT */
/*
 * pools.h - what the pool instances of a stopped tnorm driver hold, read out of its memory.
 *
 * The driver runtime keeps a table for debuggers in the global `tnorm_drv_debug` (layout version
 * 2, docs/driver.md): the step being run and, per pool instance, its value and the steps that
 * assigned and changed it.  A debugger finds the table by its symbol and reads it without
 * running code in the program, through a callback that reads the stopped program's memory;
 * `tnorm pools` and the source view of `tnorm step` show what this gives.
 */
#ifndef TNORM_POOLS_H
#define TNORM_POOLS_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The symbol of the driver runtime's table, for the debugger to look up. */
#define TNORM_POOLS_SYMBOL "tnorm_drv_debug"

/**
 * Read `len` bytes at `addr` of the stopped program into `buf`: 0 when all of them were read,
 * nonzero when they cannot be (unmapped memory, a process that is gone).
 */
typedef int (*tnorm_memory_reader)(void *ctx, uint64_t addr, void *buf, size_t len);

/** One pool instance that has a value.  Strings are owned by the tnorm_pools that holds it. */
typedef struct tnorm_pool_var {
	char *name;             /**< "avl0"; "?" when it cannot be read */
	const char *kind;       /**< "int", "string" or "object" (static) */
	char *value;            /**< the value as text: "null", an integer, a quoted string (at
	                         *   most 200 bytes, then "..."; "<unreadable>"), an object's
	                         *   address "0x..." or "NULL" */
	int64_t assigned;       /**< the step that gave it its value */
	int64_t changed;        /**< the last step that passed it to a call that may modify it; -1 */
	char *printed;          /**< its pool's print hook's text, or NULL (no hook, not printed,
	                         *   or unreadable) */
	int64_t printed_before; /**< the step before which `printed` was written; -1: not printed */
} tnorm_pool_var;

/** The table of a stopped driver.  Dispose with tnorm_pools_dispose(). */
typedef struct tnorm_pools {
	int64_t step;          /**< the step being run (or about to be, at the step hook); -1 before */
	uint64_t nsteps;       /**< steps in the test */
	uint64_t handler;      /**< the address of the handler step `step` calls; 0: a value step */
	tnorm_pool_var *vars;  /**< the instances that have a value, in harness order */
	size_t nvars;
} tnorm_pools;

/**
 * Read the driver runtime's table at `addr` (the address of TNORM_POOLS_SYMBOL in the program)
 * through `reader` (called with `ctx`) into *out, which the caller disposes with
 * tnorm_pools_dispose() (on error *out is left empty: zeroed, nothing to free).  A string the reader cannot
 * read is shown as the fields above say, not an error.  The program's pointers must be as wide
 * as this library's.
 * @return 0;
 *         TNORM_ENOTFOUND: no table can be read at `addr` (0 included): not a tnorm driver;
 *         TNORM_ERROR: the table is not valid: the test is not running yet, or has ended;
 *         TNORM_EINVALID: the table has a layout this library does not know (or NULL `out`
 *         or `reader`);
 *         TNORM_EIO: the instances' values cannot be read;
 *         TNORM_ENOMEM.
 *         Each error's message (tnorm_error_last) says so to the user.
 */
TNORM_EXTERN int tnorm_pools_read(tnorm_pools *out, tnorm_memory_reader reader, void *ctx,
                                  uint64_t addr);

/** Free what *p holds and zero it.  NULL is a no-op. */
TNORM_EXTERN void tnorm_pools_dispose(tnorm_pools *p);

#ifdef __cplusplus
}
#endif
#endif

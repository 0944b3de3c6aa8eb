/* SPDX-License-Identifier: MIT */
/*
 * drv_debug.h (internal) - the table the driver runtime keeps for debuggers (issue 20): the pool
 * instances and the step being run.  The runtime writes it (core/driver/driver.c); the engine's
 * tnorm_pools_read (pools.c) reads it out of a stopped driver's memory, so both share this one
 * definition.
 *
 * `tnorm pools` and the source view of `tnorm step` read the table from the stopped program's
 * memory, without running code in it: the plugins find `tnorm_drv_debug` by its symbol and read
 * it with the layout below (fixed by `version`; the sizes let a reader check it).  The table is
 * the program's own state, like tnorm_drv_failure: written by the main loop only.  `magic` is
 * set last, once everything it points to is in place, and cleared before that is freed.
 */
#ifndef TNORM__DRV_DEBUG_H
#define TNORM__DRV_DEBUG_H

#include <stdint.h>

#include "tnorm/driver.h"

#define TNORM__DRV_DEBUG_SYMBOL "tnorm_drv_debug"
#define TNORM__DRV_DEBUG_MAGIC "tnormdb" /* with its NUL: the 8 bytes of `magic` */
#define TNORM__DRV_DEBUG_VERSION 2       /* 2: tnorm_value gained `kind` (issue 16) */
#define TNORM__DRV_PRINT_SIZE 512

enum { TNORM__DRV_DBG_NONE, TNORM__DRV_DBG_INT, TNORM__DRV_DBG_STRING, TNORM__DRV_DBG_OBJECT };

struct tnorm_drv_debug_var {
	const char *name;       /* "avl0" */
	int64_t assigned;       /* the step that gave the instance its value; -1 while it has none */
	int64_t changed;        /* the last step that passed it to a call that may modify it; -1 */
	uint32_t kind;          /* TNORM__DRV_DBG_*: which member of its tnorm_value to show */
	uint32_t has_print;     /* 1 when its pool has a print hook */
	char *printed;          /* the print hook's text (TNORM__DRV_PRINT_SIZE bytes), or NULL */
	int64_t printed_before; /* the step before which `printed` was written (after step k:
	                         * k + 1, before that step's checks); -1: not printed */
};

struct tnorm_drv_debug {
	char magic[8];                      /* "tnormdb" while the table is valid, else zeros */
	uint32_t version;                   /* TNORM__DRV_DEBUG_VERSION */
	uint32_t ptr_size;                  /* sizeof(void *) */
	uint32_t value_size;                /* sizeof(tnorm_value): the stride of `values` */
	uint32_t var_size;                  /* sizeof(struct tnorm_drv_debug_var) */
	uint64_t nvars;                     /* pool instances, in harness order */
	uint64_t nsteps;                    /* steps in the test */
	int64_t step;                       /* the step being run (or about to be, at the hook) */
	const tnorm_value *values;          /* the instances' values (the runtime's own storage) */
	struct tnorm_drv_debug_var *vars;   /* what else there is to say about each */
	tnorm_drv_fn handler;               /* the handler step `step` calls; NULL: a value step */
	const tnorm_drv_pool *const *hooks; /* per instance: its pool's hooks, or NULL */
};

#endif

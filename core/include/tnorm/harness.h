/* SPDX-License-Identifier: MIT */
/*
 * harness.h - load a harness (*.tnh) and walk the total order of its actions.
 *
 * A harness declares pools of values and action templates (docs/harness.md has the grammar).
 * Every concrete action is a template plus one choice per slot, and has an index in one total
 * order: templates in file order; within a template, pool-instance choices lexicographically
 * (earlier slot first, the left-hand side counting as the first slot), then value choices in
 * their natural order (ranges ascending, literal lists as written).  Lower index = simpler.
 *
 * Universes can be huge, so actions are ranked and unranked arithmetically (mixed radix over the
 * slots); nothing ever materializes the whole set.  That arithmetic, and rendering and parsing
 * one action, are in order.h.
 */
#ifndef TNORM_HARNESS_H
#define TNORM_HARNESS_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most slots (left-hand side + arguments) one template may have. */
#define TNORM_MAX_SLOTS 8

/**
 * Most values one value slot's set may hold (a range LO..HI or a list): a choice is 32-bit, so
 * harnesses with larger sets are refused at load (TNORM_EPARSE naming the set).
 */
#define TNORM_MAX_VALUES 4294967295u

typedef struct tnorm_harness tnorm_harness;

/** A concrete action: a template and one choice per slot.  Plain value; copy freely. */
typedef struct tnorm_action {
	uint32_t tmpl;                    /**< template index, 0-based, in file order (checks excluded) */
	uint32_t choice[TNORM_MAX_SLOTS]; /**< per slot: pool instance number, or value index */
} tnorm_action;

typedef enum tnorm_slot_kind {
	TNORM_SLOT_POOL = 0, /**< a pool instance: `<avl>` */
	TNORM_SLOT_VALUE = 1 /**< a value from a set: `1..20`, `{0, 7, "x", null}`, `strings("ab", 0..4)` */
} tnorm_slot_kind;

typedef enum tnorm_template_kind {
	TNORM_TMPL_VALUE = 0, /**< `<int> := 1..20`: store a value in an instance */
	TNORM_TMPL_CALL = 1   /**< `f(<a>, <b>)` or `<a> := f(<b>)`: call a function */
} tnorm_template_kind;

typedef enum tnorm_literal_kind {
	TNORM_LIT_INT = 0,
	TNORM_LIT_STRING = 1,
	TNORM_LIT_NULL = 2 /**< `null`: no value (drivers pass a tnorm_value with s == p == NULL) */
} tnorm_literal_kind;

/** Longest string of a generated domain (`strings(...)`, `bytes(...)`). */
#define TNORM_MAX_GEN_LEN 32

/**
 * One value of a value set.  `s` is borrowed from the harness (valid while it lives), except
 * for a value of a generated domain (`strings("ab", 0..3)`), which tnorm_harness_value writes
 * into `text`: then `s` points at this struct's own `text` (valid while the struct is neither
 * freed nor overwritten; a copy of the struct still points at the original's).
 */
typedef struct tnorm_literal {
	tnorm_literal_kind kind;
	int64_t i;     /**< TNORM_LIT_INT */
	const char *s; /**< TNORM_LIT_STRING: the decoded string (no quotes, escapes resolved) */
	size_t len;    /**< TNORM_LIT_STRING: its length in bytes */
	char text[TNORM_MAX_GEN_LEN + 1]; /**< a generated string's bytes (NUL-terminated) */
} tnorm_literal;

/** Description of a pool.  Strings are borrowed from the harness. */
typedef struct tnorm_pool_info {
	const char *name;   /**< e.g. "int"; instances render as name0, name1, ... */
	uint32_t instances; /**< how many instances */
	int is_const;       /**< 1 when declared `const`: calls never modify its instances */
	uint32_t first_var; /**< this pool's first variable id (see tnorm_harness_var_count) */
	uint32_t line;      /**< declaring line in the harness file */
} tnorm_pool_info;

/** Description of one slot of a template.  Strings are borrowed from the harness. */
typedef struct tnorm_slot_info {
	tnorm_slot_kind kind;
	uint32_t pool;  /**< TNORM_SLOT_POOL: pool index */
	uint32_t count; /**< choices: pool instances, or values in the set (<= TNORM_MAX_VALUES) */
	int moves;      /**< 1 for an argument written `move <pool>`: the call takes the instance's
	                 *   value, which it then no longer holds (issue 16) */
} tnorm_slot_info;

/** Description of a template (an action template or a check).  Strings borrowed. */
typedef struct tnorm_template_info {
	tnorm_template_kind kind;
	const char *name;   /**< the called function's name; "" for value templates */
	int has_lhs;        /**< 1 when slot 0 is a left-hand side that the action assigns */
	int is_pure;        /**< 1 when declared `pure`: modifies none of its arguments */
	uint32_t nslots;    /**< slots, the left-hand side (if any) first, then the arguments */
	tnorm_slot_info slot[TNORM_MAX_SLOTS];
	uint64_t first;     /**< index of this template's first action (actions only) */
	uint64_t count;     /**< number of actions it defines */
	uint32_t line;      /**< line in the harness file */
	const char *guard;  /**< its guard as written after `requires` (issue 16), e.g.
	                     *   "kv_put(<kv>, <key>, _)"; NULL when it has none */
} tnorm_template_info;

/**
 * Load a harness from a file.
 * @param out   receives a new harness; free it with tnorm_harness_free().  NULL on error.
 * @param path  file to read
 * @return 0, TNORM_EIO (cannot read), TNORM_EPARSE (message: "path:line:col: ..."),
 *         TNORM_EOVERFLOW (more than 2^64-1 actions), TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_harness_load(tnorm_harness **out, const char *path);

/**
 * Parse a harness from memory.  `name` is used in messages in place of a path.
 * The text is copied; the caller keeps ownership of `text`.  Same returns as tnorm_harness_load.
 */
TNORM_EXTERN int tnorm_harness_parse(tnorm_harness **out, const char *name, const char *text,
                                     size_t len);

/** Free a harness.  NULL is a no-op.  Invalidates every string and test borrowed from it. */
TNORM_EXTERN void tnorm_harness_free(tnorm_harness *h);

/** The name given at load/parse time (borrowed). */
TNORM_EXTERN const char *tnorm_harness_name(const tnorm_harness *h);

/** Number of pools; pool indices are 0..n-1 in declaration order. */
TNORM_EXTERN uint32_t tnorm_harness_pool_count(const tnorm_harness *h);

/** Fill `out` for pool `i`.  Returns 0, or TNORM_EINVALID for a bad index. */
TNORM_EXTERN int tnorm_harness_pool(const tnorm_harness *h, uint32_t i, tnorm_pool_info *out);

/** Find a pool by name.  Returns 0 and its index in *out, or TNORM_ENOTFOUND. */
TNORM_EXTERN int tnorm_harness_pool_find(const tnorm_harness *h, const char *name, uint32_t *out);

/**
 * Total number of pool instances over all pools.  Variable ids 0..n-1 number them pool by pool
 * (pool_info.first_var + instance): def/use sets are expressed in these ids.
 */
TNORM_EXTERN uint32_t tnorm_harness_var_count(const tnorm_harness *h);

/** Number of action templates (checks are not counted; see tnorm_harness_check_count). */
TNORM_EXTERN uint32_t tnorm_harness_template_count(const tnorm_harness *h);

/** Fill `out` for action template `i`.  Returns 0 or TNORM_EINVALID. */
TNORM_EXTERN int tnorm_harness_template(const tnorm_harness *h, uint32_t i,
                                        tnorm_template_info *out);

/** Number of `check` properties. */
TNORM_EXTERN uint32_t tnorm_harness_check_count(const tnorm_harness *h);

/** Fill `out` for check `i` (kind CALL, no lhs, first = count = 0).  0 or TNORM_EINVALID. */
TNORM_EXTERN int tnorm_harness_check(const tnorm_harness *h, uint32_t i, tnorm_template_info *out);

/**
 * Value `v` of slot `slot` of template `tmpl` (a TNORM_SLOT_VALUE slot).  For checks pass
 * `tmpl = template_count + check index`.  0, or TNORM_EINVALID for bad indices / a pool slot.
 */
TNORM_EXTERN int tnorm_harness_value(const tnorm_harness *h, uint32_t tmpl, uint32_t slot,
                                     uint64_t v, tnorm_literal *out);

/** Total number of actions (the size of the universe). */
TNORM_EXTERN uint64_t tnorm_harness_action_count(const tnorm_harness *h);

#ifdef __cplusplus
}
#endif
#endif

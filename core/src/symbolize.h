/* SPDX-License-Identifier: MIT */
/*
 * symbolize.h (internal) - addresses in a traced process to function/file/line, with caches.
 */
#ifndef TNORM__SYMBOLIZE_H
#define TNORM__SYMBOLIZE_H

#include "common.h"
#include "tnorm/signature.h"

typedef struct tnorm__symcache tnorm__symcache;

int tnorm__symcache_new(tnorm__symcache **out);
void tnorm__symcache_free(tnorm__symcache *c);

/*
 * Symbolize `pc` of a process whose /proc/PID/maps text is `maps`.  `innermost` is 1 for the
 * frame that faulted (its pc is exact); for callers pc-1 is looked up (the call instruction).
 * Fills out[0..n) and returns n (1 <= n <= max, for max >= 1): more than one frame when the code
 * at pc was inlined, innermost function first, each enclosing one at the line of the inlined
 * call (as addr2line -i), all with the same pc.  Strings are borrowed from the cache (valid until
 * it is freed).  Unknown parts are NULL/0.  Never fails: what cannot be found stays unknown.
 */
size_t tnorm__symbolize(tnorm__symcache *c, const char *maps, uint64_t pc, int innermost,
                        tnorm_frame *out, size_t max);

/* The same for an address given as module path + module-relative address (as sanitizer reports
 * print them with symbolize=0). */
size_t tnorm__symbolize_module(tnorm__symcache *c, const char *path, uint64_t vaddr, int innermost,
                               tnorm_frame *out, size_t max);

/*
 * Where the unwind table of the module holding `ip` lies in the process whose map is `maps`: the
 * search table of its .eh_frame_hdr, in the process's addresses.  The runner's unwinder hands it
 * to libunwind instead of letting libunwind map the module's file at each change of module.
 * 0 and *out filled, or -1: no such module, or its table is not one libunwind can search.
 */
typedef struct {
	uint64_t start_ip, end_ip; /* the module's loaded extent */
	uint64_t hdr;          /* .eh_frame_hdr: the base of the table's data-relative entries */
	uint64_t table, count; /* the table (8 bytes an entry) and its entries */
	uint64_t gp;           /* DT_PLTGOT as the file has it, 0 if none (as libunwind does) */
} tnorm__unwind_table;

int tnorm__symcache_unwind_table(tnorm__symcache *c, const char *maps, uint64_t ip,
                                 tnorm__unwind_table *out);

/*
 * Code the compiler merged from several lines: 1 when module-relative `vaddr` of the module at
 * `path` lies in a row of line 0 of its line table (clang gives line 0 to a call it merged from
 * several calls: the one abort() of several inlined checks), else 0.
 */
int tnorm__symcache_noline(tnorm__symcache *c, const char *path, uint64_t vaddr);

/*
 * Where a compiler may have merged several calls into the call at `vaddr` (a caller frame's
 * looked-up address): 1 in a line-0 row (clang), 2 in a function's cold part (an ELF symbol
 * NAME.cold: gcc moves there the calls to abort() it merges, under the line of one of them),
 * else 0.
 */
int tnorm__symcache_merged(tnorm__symcache *c, const char *path, uint64_t vaddr);

/* The extent [*lo, *hi) of the ELF function symbol that holds `vaddr` in the module at `path`:
 * 0, or -1 when there is none. */
int tnorm__symcache_symbol_extent(tnorm__symcache *c, const char *path, uint64_t vaddr,
                                  uint64_t *lo, uint64_t *hi);

/*
 * The line-table addresses (module-relative, sorted, each once) of the function that holds
 * `vaddr` in the module at `path`: the rows inside every range of its DWARF subprogram, the code
 * of the functions inlined into it included.  *addrs is allocated (free it), *n its length.
 * 0, TNORM_ENOTFOUND (no module, no subprogram, no rows), TNORM_ENOMEM.
 */
int tnorm__symcache_func_rows(tnorm__symcache *c, const char *path, uint64_t vaddr,
                              uint64_t **addrs, size_t *n);

/*
 * The machine code of the function that holds `vaddr` in the module at `path`, for a decoder:
 * one entry per range of its DWARF subprogram (a gcc function's cold part is one of them),
 * module-relative, with the bytes the module's file has there.  [hi, pad_hi) is the filler after
 * the range up to the next ELF function symbol (at most 64 bytes; empty when the module has no
 * symbols): alignment bytes no code runs.  *out is allocated (tnorm__code_ranges_free), *n its
 * length.  0, TNORM_ENOTFOUND (no module, no subprogram, bytes not in the file), TNORM_ENOMEM.
 */
typedef struct {
	uint64_t lo, hi, pad_hi;
	unsigned char *bytes; /* [lo, pad_hi) */
} tnorm__code_range;

int tnorm__symcache_func_code(tnorm__symcache *c, const char *path, uint64_t vaddr,
                              tnorm__code_range **out, size_t *n);
void tnorm__code_ranges_free(tnorm__code_range *r, size_t n);

/* The address in the process whose map is `maps` of module-relative `vaddr` of the module at
 * `path`: 0 and *out set, or -1 (the module is not mapped there, or not that part of it). */
int tnorm__symcache_proc_addr(tnorm__symcache *c, const char *maps, const char *path,
                              uint64_t vaddr, uint64_t *out);

/* Every line-table address with a line of the module at `path` (module-relative, sorted, each
 * once), but those in a sanitizer runtime's sources (compiler-rt): the breakpoints of line coverage.
 * *addrs is allocated (free it).  0, TNORM_ENOTFOUND (no module or no line table), TNORM_ENOMEM. */
int tnorm__symcache_module_rows(tnorm__symcache *c, const char *path, uint64_t **addrs,
                                size_t *n);

/* A type's mangled name as type_info::name() gives it ("St16invalid_argument", "i") demangled
 * ("std::invalid_argument", "int") with the same demangler as function names; the name itself
 * when it does not demangle.  Allocated (free it), or NULL when out of memory. */
char *tnorm__demangle_type(const char *mangled);

#endif

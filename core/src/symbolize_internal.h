/* SPDX-License-Identifier: MIT */
/*
 * symbolize_internal.h (internal) - the symbolizer's rooms and the tables they share.
 *
 * symbolize.h's functions are answered from tables built once per module (a loaded ELF file):
 *
 *   symbolize.c        the answers: an address to frames (inlined calls included), a
 *                      function's line rows and code, where a module lies in a process.
 *   symbolize_cache.c  the cache: modules by path, loaded at first use and kept for the
 *                      runner's lifetime; the last /proc/PID/maps text, kept parsed.
 *   symbolize_elf.c    what the ELF file says (libelf): PT_LOAD segments, the ELF symbols (the
 *                      fallback for code without debug information, such as libc), the build
 *                      id, the .eh_frame_hdr search table; and demangling.
 *   symbolize_dwarf.c  what its DWARF says (libdwarf): subprograms and inlined calls with their
 *                      address ranges, and the line table.
 *
 * symbolize.c calls symbolize_cache.c; symbolize_cache.c calls symbolize_elf.c and
 * symbolize_dwarf.c; symbolize_dwarf.c calls symbolize_elf.c (demangling); symbolize_elf.c calls
 * none of them.
 */
#ifndef TNORM__SYMBOLIZE_INTERNAL_H
#define TNORM__SYMBOLIZE_INTERNAL_H

#include "symbolize.h"

typedef struct {
	uint64_t lo, hi;
	char *name;
	int rank; /* among aliases of one address, the higher wins (alias_rank) */
} func;

/* A function in the DWARF tree: a subprogram (parent -1) or an inlined instance of one inside
 * its parent, called from call_file:call_line. */
typedef struct {
	char *name;
	char *call_file;
	uint32_t call_line;
	int32_t parent;
} node;

/* One address range of a node.  Ranges are sorted by lo; maxhi[k] is the largest hi of
 * ranges[0..k], so a lookup can stop scanning backwards once no earlier range reaches addr. */
typedef struct {
	uint64_t lo, hi;
	uint32_t node;
	uint32_t depth;
} range;

typedef struct {
	uint64_t addr;
	uint32_t line; /* 0: the end of a sequence, or (noline) code of no one line */
	uint32_t file;
	uint8_t noline; /* line 0 in the table: code the compiler merged from several lines */
} row;

/* The row that ends a sequence (no code of its own). */
static inline int row_end(const row *r)
{
	return r->line == 0 && !r->noline;
}

typedef struct {
	uint64_t offset, vaddr, size;
} seg;

typedef struct module {
	char *path;
	char build_id[41]; /* hex, "" when the module has none */
	seg *segs;
	size_t nsegs;
	node *nodes;
	size_t nnodes, nodecap;
	range *ranges;
	uint64_t *maxhi;
	size_t nranges, rangecap;
	func *sfuncs; /* ELF symbols */
	size_t nsfuncs;
	uint64_t rt_lo, rt_hi; /* the extent of a sanitizer runtime linked into this module */
	size_t rt_count;
	row *rows;
	size_t nrows;
	char **files;
	size_t nfiles;
	/* Unwinding: the extent of the PT_LOAD segments; the .eh_frame_hdr segment's address, where
	 * its search table starts in it, its entries; DT_PLTGOT (eh_table 0: no usable table). */
	uint64_t load_lo, load_hi, eh_vaddr, eh_table, eh_count, gp;
	struct module *next;
} module;

/* One line of /proc/PID/maps with a file path: its addresses, file offset and the module (looked
 * up at the first address found in it; NULL for a path that is not absolute). */
typedef struct {
	uint64_t start, end, off;
	const char *path; /* in the cache's copy of the map text, path_len bytes */
	size_t path_len;
	module *mod;
	int resolved;
} mapping;

struct tnorm__symcache {
	module *mods;
	char *maps;     /* a copy of the last map text parsed */
	mapping *lines; /* its lines, sorted by start as the kernel lists them */
	size_t nlines;
};

/* ---- symbolize_cache.c ---- */

/* The module at `path`, loaded (ELF, then DWARF) at its first use; one whose file cannot be
 * opened is kept empty.  NULL when out of memory. */
module *tnorm__symcache_module(tnorm__symcache *c, const char *path);

/* Parse `maps` into c->lines unless it is the text parsed last.  0, or -1 (out of memory: the
 * cache is left empty). */
int tnorm__symcache_parse_maps(tnorm__symcache *c, const char *maps);

/* The line of `maps` that holds `addr`, its module looked up; NULL when there is none or it is
 * not a file's. */
mapping *tnorm__symcache_mapping(tnorm__symcache *c, const char *maps, uint64_t addr);

/* The module-relative address of `addr` in mapping l (through its PT_LOAD segments). */
uint64_t tnorm__symcache_module_vaddr(const mapping *l, uint64_t addr);

/* ---- symbolize_elf.c ---- */

/* Fill m's segments, ELF symbols, build id and unwind table from the ELF file open as fd;
 * what cannot be read stays empty. */
void tnorm__symbolize_load_elf(module *m, int fd);

/* A symbol's name demangled (C++), or a copy of it as it is.  Allocated; NULL when out of
 * memory. */
char *tnorm__symbolize_demangle(const char *name);

/* ---- symbolize_dwarf.c ---- */

/* Fill m's nodes, ranges and line rows from the DWARF of the file open as fd (under a lock:
 * libdwarf is not safe from two threads at once); what cannot be read stays empty. */
void tnorm__symbolize_load_dwarf(module *m, int fd);

#endif

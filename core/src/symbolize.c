/* SPDX-License-Identifier: MIT */
/*
 * symbolize.c - map addresses in a traced process to function, file and line.
 *
 * An address is first mapped to its module through the process's /proc/PID/maps, then to the
 * module's own virtual address through its ELF program headers (this handles PIE executables and
 * shared libraries alike), then looked up in tables built once per module: DWARF subprograms and
 * line rows (libdwarf), with the ELF symbol table (libelf) as the fallback for code without
 * debug information such as libc.  Modules are cached by path for the runner's lifetime, since a
 * reduction symbolizes thousands of crashes of the same binaries.
 *
 * The cache also serves the runner's unwinder: where a module's .eh_frame_hdr search table lies
 * in the traced process (tnorm__symcache_unwind_table), so that libunwind need not map the file
 * again for every frame that crosses into another module.  The last memory map is kept parsed:
 * runs of one binary have the same map (ASLR is off), and a lookup is then a binary search.
 *
 * This file holds the lookups and the answers; the tables are built and kept in rooms of their
 * own (symbolize_internal.h says who calls whom): symbolize_cache.c (modules by path, the
 * memory map), symbolize_elf.c (segments, ELF symbols, build id, unwind table, demangling) and
 * symbolize_dwarf.c (subprograms, inlined calls, line tables).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sanitizer_internal.h"
#include "symbolize_internal.h"

static const func *find_func(const func *f, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n, k;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* f[0..lo) start at or before addr: the innermost containing range is the latest start. */
	for (k = lo; k-- > 0 && lo - k <= 64;)
		if (addr < f[k].hi)
			return &f[k];
	return NULL;
}

/* The deepest node (inlined instance, else subprogram) whose ranges contain addr, or -1. */
static int32_t find_node(const module *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nranges, k;
	int32_t best = -1;
	uint32_t best_depth = 0;
	if (!m->maxhi)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k-- > 0 && m->maxhi[k] > addr;)
		if (addr < m->ranges[k].hi && (best < 0 || m->ranges[k].depth > best_depth)) {
			best = (int32_t)m->ranges[k].node;
			best_depth = m->ranges[k].depth;
		}
	return best;
}

static const row *find_row(const module *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nrows;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || row_end(&m->rows[lo - 1]))
		return NULL;
	return &m->rows[lo - 1];
}

/* Frames for module-relative address `vaddr` (the looked-up address, already pc-1 for callers). */
static size_t symbolize_in(module *m, uint64_t pc, uint64_t vaddr, int innermost,
                           tnorm_frame *out, size_t max)
{
	int32_t nd = find_node(m, vaddr);
	const row *r = find_row(m, vaddr);
	size_t n = 0;
	if (max == 0)
		return 0;
	memset(&out[0], 0, sizeof(out[0]));
	out[0].pc = pc;
	out[0].module = m->path;
	out[0].offset = vaddr;
	out[0].build_id = m->build_id;
	/* A line-0 row is code of several lines (clang gives a call it merged from several calls
	 * line 0): a call there has no line of its own.  An innermost address in one (a loop's
	 * increment, say) keeps the line before it, as it always had. */
	while (r && r->noline && innermost && r > m->rows && !row_end(r - 1))
		r--;
	if (r && !(r->noline && innermost)) {
		out[0].file = m->files[r->file];
		out[0].line = r->line;
	}
	if (nd < 0) {
		const func *f = find_func(m->sfuncs, m->nsfuncs, vaddr);
		out[0].function = f ? f->name : NULL;
		/* A stripped executable with a sanitizer runtime linked in keeps only the runtime's
		 * exported entry points; the unnamed code between them is the runtime too (it is
		 * linked as one block), and must not be taken for the user's throwing frame. */
		if (!f && m->rt_count >= 16 && vaddr >= m->rt_lo && vaddr < m->rt_hi)
			out[0].function = TNORM__SAN_RUNTIME_CODE;
		return 1;
	}
	/* Innermost inlined function first; each enclosing function at the inlined call's line. */
	out[0].function = m->nodes[nd].name;
	n = 1;
	while (m->nodes[nd].parent >= 0 && n < max) {
		const node *inl = &m->nodes[nd];
		tnorm_frame *f = &out[n];
		out[n - 1].inlined = 1;
		memset(f, 0, sizeof(*f));
		f->pc = pc;
		f->module = m->path;
		f->offset = vaddr;
		f->build_id = m->build_id;
		f->function = m->nodes[inl->parent].name;
		f->file = inl->call_file;
		f->line = inl->call_line;
		nd = inl->parent;
		n++;
	}
	return n;
}

size_t tnorm__symbolize(tnorm__symcache *c, const char *maps, uint64_t pc, int innermost,
                        tnorm_frame *out, size_t max)
{
	uint64_t addr = innermost || pc == 0 ? pc : pc - 1;
	mapping *l;
	if (max == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	out->pc = pc;
	if (!maps || !(l = tnorm__symcache_mapping(c, maps, addr)))
		return 1;
	return symbolize_in(l->mod, pc, tnorm__symcache_module_vaddr(l, addr), innermost, out, max);
}

int tnorm__symcache_unwind_table(tnorm__symcache *c, const char *maps, uint64_t ip,
                                 tnorm__unwind_table *out)
{
	mapping *l;
	const module *m;
	uint64_t bias;
	if (!maps || !(l = tnorm__symcache_mapping(c, maps, ip)) || !(m = l->mod)->eh_table)
		return -1;
	bias = ip - tnorm__symcache_module_vaddr(l, ip);
	out->start_ip = bias + m->load_lo;
	out->end_ip = bias + m->load_hi;
	out->hdr = bias + m->eh_vaddr;
	out->table = out->hdr + m->eh_table;
	out->count = m->eh_count;
	out->gp = m->gp;
	return ip >= out->start_ip && ip < out->end_ip ? 0 : -1;
}

size_t tnorm__symbolize_module(tnorm__symcache *c, const char *path, uint64_t vaddr, int innermost,
                               tnorm_frame *out, size_t max)
{
	module *m;
	uint64_t addr = innermost || vaddr == 0 ? vaddr : vaddr - 1;
	if (max == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	out->pc = vaddr;
	if (!path || path[0] != '/' || !(m = tnorm__symcache_module(c, path)))
		return 1;
	return symbolize_in(m, vaddr, addr, innermost, out, max);
}

int tnorm__symcache_noline(tnorm__symcache *c, const char *path, uint64_t vaddr)
{
	module *m;
	const row *r;
	if (!path || path[0] != '/' || !(m = tnorm__symcache_module(c, path)))
		return 0;
	r = find_row(m, vaddr);
	return r && r->noline;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int tnorm__symcache_func_rows(tnorm__symcache *c, const char *path, uint64_t vaddr,
                              uint64_t **addrs, size_t *n)
{
	module *m;
	int32_t nd;
	size_t i, k, cnt = 0, cap = 0;
	uint64_t *v = NULL;
	*addrs = NULL;
	*n = 0;
	if (!path || path[0] != '/' || !(m = tnorm__symcache_module(c, path)) || (nd = find_node(m, vaddr)) < 0)
		return TNORM_ENOTFOUND;
	while (m->nodes[nd].parent >= 0)
		nd = m->nodes[nd].parent;
	for (i = 0; i < m->nranges; i++) {
		size_t lo = 0, hi = m->nrows;
		if (m->ranges[i].node != (uint32_t)nd)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->rows[mid].addr < m->ranges[i].lo)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k < m->nrows && m->rows[k].addr < m->ranges[i].hi; k++) {
			if (row_end(&m->rows[k]) || (cnt && v[cnt - 1] == m->rows[k].addr))
				continue;
			if (cnt == cap) {
				size_t nc = cap ? cap * 2 : 64;
				uint64_t *nv = tnorm__reallocarray(v, nc, sizeof(*nv));
				if (!nv) {
					free(v);
					return TNORM_ENOMEM;
				}
				v = nv;
				cap = nc;
			}
			v[cnt++] = m->rows[k].addr;
		}
	}
	if (!cnt)
		return TNORM_ENOTFOUND;
	qsort(v, cnt, sizeof(*v), cmp_u64);
	for (i = k = 0; i < cnt; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	*addrs = v;
	*n = k;
	return 0;
}

void tnorm__code_ranges_free(tnorm__code_range *r, size_t n)
{
	size_t i;
	for (i = 0; r && i < n; i++)
		free(r[i].bytes);
	free(r);
}

/* Bytes [lo, hi) of module m as its file has them (one PT_LOAD segment's file part): 0 or -1. */
static int read_code(int fd, const module *m, uint64_t lo, uint64_t hi, unsigned char *buf)
{
	size_t i;
	for (i = 0; i < m->nsegs; i++) {
		const seg *s = &m->segs[i];
		if (lo >= s->vaddr && hi <= s->vaddr + s->size)
			return pread(fd, buf, (size_t)(hi - lo), (off_t)(lo - s->vaddr + s->offset)) ==
			               (ssize_t)(hi - lo)
			           ? 0
			           : -1;
	}
	return -1;
}

/* The end of the filler after hi: the next function symbol's start, at most 64 bytes on, and
 * within hi's segment. */
static uint64_t filler_end(const module *m, uint64_t hi)
{
	uint64_t end = hi + 64;
	size_t lo = 0, top = m->nsfuncs, i;
	if (!m->nsfuncs)
		return hi;
	while (lo < top) {
		size_t mid = lo + (top - lo) / 2;
		if (m->sfuncs[mid].lo < hi)
			lo = mid + 1;
		else
			top = mid;
	}
	if (lo < m->nsfuncs && m->sfuncs[lo].lo < end)
		end = m->sfuncs[lo].lo;
	if (lo > 0 && m->sfuncs[lo - 1].hi > hi)
		return hi; /* a symbol covers hi: no filler */
	for (i = 0; i < m->nsegs; i++)
		if (hi >= m->segs[i].vaddr && hi <= m->segs[i].vaddr + m->segs[i].size)
			return end < m->segs[i].vaddr + m->segs[i].size ? end
			                                                : m->segs[i].vaddr + m->segs[i].size;
	return hi;
}

int tnorm__symcache_func_code(tnorm__symcache *c, const char *path, uint64_t vaddr,
                              tnorm__code_range **out, size_t *n)
{
	module *m;
	int32_t nd;
	size_t i, k = 0, cnt = 0;
	tnorm__code_range *v = NULL;
	int fd = -1, err = TNORM_ENOTFOUND;
	*out = NULL;
	*n = 0;
	if (!path || path[0] != '/' || !(m = tnorm__symcache_module(c, path)) || (nd = find_node(m, vaddr)) < 0)
		return TNORM_ENOTFOUND;
	while (m->nodes[nd].parent >= 0)
		nd = m->nodes[nd].parent;
	for (i = 0; i < m->nranges; i++)
		cnt += m->ranges[i].node == (uint32_t)nd;
	if (!cnt || (fd = open(m->path, O_RDONLY | O_CLOEXEC)) < 0)
		return TNORM_ENOTFOUND;
	if (!(v = tnorm__calloc(cnt, sizeof(*v)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = 0; i < m->nranges; i++) {
		tnorm__code_range *r = &v[k];
		if (m->ranges[i].node != (uint32_t)nd || m->ranges[i].hi <= m->ranges[i].lo ||
		    m->ranges[i].hi - m->ranges[i].lo > (16u << 20))
			continue;
		r->lo = m->ranges[i].lo;
		r->hi = m->ranges[i].hi;
		r->pad_hi = filler_end(m, r->hi);
		if (!(r->bytes = tnorm__malloc((size_t)(r->pad_hi - r->lo)))) {
			err = TNORM_ENOMEM;
			goto done;
		}
		if (read_code(fd, m, r->lo, r->pad_hi, r->bytes) < 0 &&
		    (r->pad_hi = r->hi, read_code(fd, m, r->lo, r->hi, r->bytes) < 0)) {
			free(r->bytes);
			r->bytes = NULL;
			continue;
		}
		k++;
	}
	if (k) {
		*out = v;
		*n = k;
		v = NULL;
		err = 0;
	}
done:
	tnorm__code_ranges_free(v, k);
	close(fd);
	return err;
}

int tnorm__symcache_proc_addr(tnorm__symcache *c, const char *maps, const char *path,
                              uint64_t vaddr, uint64_t *out)
{
	size_t i, k;
	if (!maps || !path || tnorm__symcache_parse_maps(c, maps) < 0)
		return -1;
	for (i = 0; i < c->nlines; i++) {
		mapping *l = &c->lines[i];
		if (l->path_len != strlen(path) || memcmp(l->path, path, l->path_len) ||
		    !tnorm__symcache_mapping(c, maps, l->start) || !l->mod)
			continue;
		for (k = 0; k < l->mod->nsegs; k++) {
			const seg *s = &l->mod->segs[k];
			uint64_t foff;
			if (vaddr < s->vaddr || vaddr >= s->vaddr + s->size)
				continue;
			foff = vaddr - s->vaddr + s->offset;
			if (foff >= l->off && foff - l->off < l->end - l->start) {
				*out = l->start + (foff - l->off);
				return 0;
			}
		}
	}
	return -1;
}

int tnorm__symcache_merged(tnorm__symcache *c, const char *path, uint64_t vaddr)
{
	module *m;
	const row *r;
	const func *f;
	if (!path || path[0] != '/' || !(m = tnorm__symcache_module(c, path)))
		return 0;
	if ((r = find_row(m, vaddr)) && r->noline)
		return 1;
	f = find_func(m->sfuncs, m->nsfuncs, vaddr);
	return f && f->name && (strstr(f->name, ".cold") != NULL) ? 2 : 0;
}

int tnorm__symcache_symbol_extent(tnorm__symcache *c, const char *path, uint64_t vaddr,
                                  uint64_t *lo, uint64_t *hi)
{
	module *m;
	const func *f;
	if (!path || path[0] != '/' || !(m = tnorm__symcache_module(c, path)) ||
	    !(f = find_func(m->sfuncs, m->nsfuncs, vaddr)))
		return -1;
	*lo = f->lo;
	*hi = f->hi;
	return 0;
}

/* A sanitizer runtime's source file (compiler-rt's tree).  Its extent by symbols is no guide:
 * a program that defines __asan_default_options has a runtime entry point among its own code. */
static int runtime_source(const char *file)
{
	static const char *const dirs[] = {"/compiler-rt/", "/sanitizer_common/", "/asan/", "/ubsan/",
	                                   "/lsan/", "/interception/", "/tsan/", "/msan/", NULL};
	size_t i;
	for (i = 0; dirs[i]; i++)
		if (strstr(file, dirs[i]))
			return 1;
	return 0;
}

int tnorm__symcache_module_rows(tnorm__symcache *c, const char *path, uint64_t **addrs,
                                size_t *n)
{
	module *m;
	size_t k, cnt = 0;
	uint64_t *v;
	*addrs = NULL;
	*n = 0;
	if (!path || path[0] != '/' || !(m = tnorm__symcache_module(c, path)) || !m->nrows)
		return TNORM_ENOTFOUND;
	if (!(v = tnorm__calloc(m->nrows, sizeof(*v))))
		return TNORM_ENOMEM;
	for (k = 0; k < m->nrows; k++) {
		const row *r = &m->rows[k];
		if (r->line == 0 || (cnt && v[cnt - 1] == r->addr))
			continue;
		if (runtime_source(m->files[r->file]))
			continue; /* a sanitizer runtime linked in, built with line tables */
		v[cnt++] = r->addr;
	}
	if (!cnt) {
		free(v);
		return TNORM_ENOTFOUND;
	}
	*addrs = v;
	*n = cnt;
	return 0;
}


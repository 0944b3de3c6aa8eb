/* SPDX-License-Identifier: MIT */
/*
 * symbolize_dwarf.c - what a module's DWARF says (symbolize_internal.h lists the rooms).
 *
 * Every subprogram and inlined call (a tree of nodes, each with its address ranges, sorted so
 * that a lookup is a binary search) and the line table's rows, read with libdwarf under one lock
 * (see tnorm__symbolize_load_dwarf).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "symbolize_internal.h"

static int cmp_range(const void *a, const void *b)
{
	const range *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static int cmp_row(const void *a, const void *b)
{
	const row *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* At one address, an end-of-sequence row sorts before the start of the next sequence. */
	return !row_end(x) - !row_end(y);
}

static uint32_t intern_file(module *m, const char *name, size_t *cap)
{
	size_t i;
	/* Rows come in runs from the same few files: look at the most recent ones first. */
	for (i = m->nfiles; i-- > 0;)
		if (!strcmp(m->files[i], name))
			return (uint32_t)i;
	if (m->nfiles == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		char **f = tnorm__reallocarray(m->files, nc, sizeof(*f));
		if (!f)
			return UINT32_MAX;
		m->files = f;
		*cap = nc;
	}
	if (!(m->files[m->nfiles] = tnorm__strdup(name)))
		return UINT32_MAX;
	return (uint32_t)m->nfiles++;
}

/* A string attribute of a DIE, or NULL. */
static char *die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute attr = NULL;
	char *s = NULL, *copy = NULL;
	if (dwarf_attr(die, at, &attr, &err) != DW_DLV_OK)
		return NULL;
	if (dwarf_formstring(attr, &s, &err) == DW_DLV_OK && s)
		copy = tnorm__symbolize_demangle(s);
	dwarf_dealloc(dbg, attr, DW_DLA_ATTR);
	return copy;
}

/* The function's name: its linkage name demangled (qualified, for C++), else its plain name,
 * following abstract_origin and specification links for inlined and out-of-line instances. */
static char *die_name(Dwarf_Debug dbg, Dwarf_Die die, int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute attr = NULL;
	char *copy = NULL;
	static const Dwarf_Half refs[] = {DW_AT_abstract_origin, DW_AT_specification};
	size_t i;
	if ((copy = die_string(dbg, die, DW_AT_linkage_name)) ||
	    (copy = die_string(dbg, die, DW_AT_MIPS_linkage_name)) ||
	    (copy = die_string(dbg, die, DW_AT_name)))
		return copy;
	if (depth > 4)
		return NULL;
	for (i = 0; i < 2 && !copy; i++) {
		Dwarf_Off off;
		Dwarf_Die other = NULL;
		if (dwarf_attr(die, refs[i], &attr, &err) != DW_DLV_OK)
			continue;
		if (dwarf_global_formref(attr, &off, &err) == DW_DLV_OK &&
		    dwarf_offdie_b(dbg, off, 1, &other, &err) == DW_DLV_OK) {
			copy = die_name(dbg, other, depth + 1);
			dwarf_dealloc(dbg, other, DW_DLA_DIE);
		}
		dwarf_dealloc(dbg, attr, DW_DLA_ATTR);
	}
	return copy;
}

/* What the walk over one compilation unit needs. */
typedef struct {
	Dwarf_Debug dbg;
	module *m;
	Dwarf_Half version;
	Dwarf_Addr base; /* the CU's low_pc: DWARF 4 range lists are relative to it */
	char **srcfiles;
	Dwarf_Signed nsrcfiles;
	uint64_t *lo, *hi; /* scratch: the ranges of the DIE at hand */
	size_t nr, rcap;
} cu_walk;

static void add_scratch(cu_walk *w, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	if (w->nr == w->rcap) {
		size_t nc = w->rcap ? w->rcap * 2 : 16;
		uint64_t *l = tnorm__reallocarray(w->lo, nc, sizeof(*l)), *h;
		if (!l)
			return;
		w->lo = l;
		if (!(h = tnorm__reallocarray(w->hi, nc, sizeof(*h))))
			return;
		w->hi = h;
		w->rcap = nc;
	}
	w->lo[w->nr] = lo;
	w->hi[w->nr] = hi;
	w->nr++;
}

/* DW_AT_ranges: .debug_ranges (DWARF 2-4) or .debug_rnglists (DWARF 5). */
static void die_ranges_attr(cu_walk *w, Dwarf_Die die)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute attr = NULL;
	Dwarf_Half form = 0;
	Dwarf_Unsigned val = 0;
	Dwarf_Off off = 0;
	if (dwarf_attr(die, DW_AT_ranges, &attr, &err) != DW_DLV_OK)
		return;
	if (dwarf_whatform(attr, &form, &err) != DW_DLV_OK)
		goto done;
	if (form == DW_FORM_rnglistx) {
		if (dwarf_formudata(attr, &val, &err) != DW_DLV_OK)
			goto done;
	} else if (dwarf_global_formref(attr, &off, &err) == DW_DLV_OK) {
		val = off;
	} else if (dwarf_formudata(attr, &val, &err) != DW_DLV_OK) {
		goto done;
	}
	if (w->version >= 5) {
		Dwarf_Rnglists_Head head = NULL;
		Dwarf_Unsigned count = 0, goff = 0, i;
		if (dwarf_rnglists_get_rle_head(attr, form, val, &head, &count, &goff, &err) != DW_DLV_OK)
			goto done;
		for (i = 0; i < count; i++) {
			unsigned len = 0, code = 0;
			Dwarf_Unsigned r1 = 0, r2 = 0, c1 = 0, c2 = 0;
			Dwarf_Bool unavailable = 0;
			if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &r1, &r2, &unavailable, &c1,
			                                      &c2, &err) != DW_DLV_OK)
				break;
			if (!unavailable && (code == DW_RLE_startx_endx || code == DW_RLE_startx_length ||
			                     code == DW_RLE_offset_pair || code == DW_RLE_start_end ||
			                     code == DW_RLE_start_length))
				add_scratch(w, c1, c2);
		}
		dwarf_dealloc_rnglists_head(head);
	} else {
		Dwarf_Ranges *rs = NULL;
		Dwarf_Signed n = 0, i;
		Dwarf_Unsigned bytes = 0;
		Dwarf_Off real = 0;
		Dwarf_Addr base = w->base;
		if (dwarf_get_ranges_b(w->dbg, (Dwarf_Off)val, die, &real, &rs, &n, &bytes, &err) !=
		    DW_DLV_OK)
			goto done;
		for (i = 0; i < n; i++) {
			if (rs[i].dwr_type == DW_RANGES_END)
				break;
			if (rs[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
				base = rs[i].dwr_addr2;
			else
				add_scratch(w, base + rs[i].dwr_addr1, base + rs[i].dwr_addr2);
		}
		dwarf_ranges_dealloc(w->dbg, rs, n);
	}
done:
	dwarf_dealloc(w->dbg, attr, DW_DLA_ATTR);
}

/* The code ranges of a DIE into w's scratch arrays (w->nr of them). */
static void die_ranges(cu_walk *w, Dwarf_Die die)
{
	Dwarf_Error err = NULL;
	Dwarf_Addr lo = 0, hi = 0;
	Dwarf_Half form = 0;
	enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
	w->nr = 0;
	if (dwarf_lowpc(die, &lo, &err) == DW_DLV_OK &&
	    dwarf_highpc_b(die, &hi, &form, &cls, &err) == DW_DLV_OK) {
		if (cls == DW_FORM_CLASS_CONSTANT)
			hi += lo;
		add_scratch(w, lo, hi);
		return;
	}
	die_ranges_attr(w, die);
}

static Dwarf_Unsigned die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute attr = NULL;
	Dwarf_Unsigned v = 0;
	if (dwarf_attr(die, at, &attr, &err) != DW_DLV_OK)
		return 0;
	if (dwarf_formudata(attr, &v, &err) != DW_DLV_OK) {
		/* DWARF 5's DW_FORM_implicit_const (gcc's choice for call_file/call_line) is a signed
		 * constant: formudata refuses it, formsdata reads it. */
		Dwarf_Signed sv = 0;
		if (err) {
			dwarf_dealloc(dbg, err, DW_DLA_ERROR);
			err = NULL;
		}
		v = dwarf_formsdata(attr, &sv, &err) == DW_DLV_OK && sv > 0 ? (Dwarf_Unsigned)sv : 0;
	}
	dwarf_dealloc(dbg, attr, DW_DLA_ATTR);
	return v;
}

/* Record a subprogram or an inlined instance with its ranges; returns its node index or -1. */
static int32_t add_node(cu_walk *w, Dwarf_Die die, Dwarf_Half tag, int32_t parent, uint32_t depth)
{
	module *m = w->m;
	node *nd;
	size_t i;
	if (w->nr == 0)
		return -1;
	if (m->nnodes == m->nodecap) {
		size_t nc = m->nodecap ? m->nodecap * 2 : 256;
		node *nn = tnorm__reallocarray(m->nodes, nc, sizeof(*nn));
		if (!nn)
			return -1;
		m->nodes = nn;
		m->nodecap = nc;
	}
	nd = &m->nodes[m->nnodes];
	memset(nd, 0, sizeof(*nd));
	nd->parent = parent;
	if (!(nd->name = die_name(w->dbg, die, 0)))
		return -1;
	if (tag == DW_TAG_inlined_subroutine) {
		Dwarf_Unsigned f = die_udata(w->dbg, die, DW_AT_call_file);
		/* DWARF 5 numbers files from 0, earlier versions from 1 (0 meaning none). */
		Dwarf_Signed idx = w->version >= 5 ? (Dwarf_Signed)f : (Dwarf_Signed)f - 1;
		nd->call_line = (uint32_t)die_udata(w->dbg, die, DW_AT_call_line);
		if (idx >= 0 && idx < w->nsrcfiles && w->srcfiles[idx])
			nd->call_file = tnorm__strdup(w->srcfiles[idx]);
	}
	for (i = 0; i < w->nr; i++) {
		if (m->nranges == m->rangecap) {
			size_t nc = m->rangecap ? m->rangecap * 2 : 512;
			range *nr = tnorm__reallocarray(m->ranges, nc, sizeof(*nr));
			if (!nr)
				break;
			m->ranges = nr;
			m->rangecap = nc;
		}
		m->ranges[m->nranges].lo = w->lo[i];
		m->ranges[m->nranges].hi = w->hi[i];
		m->ranges[m->nranges].node = (uint32_t)m->nnodes;
		m->ranges[m->nranges].depth = depth;
		m->nranges++;
	}
	return (int32_t)m->nnodes++;
}

/*
 * Walk a DIE and its siblings: subprograms and inlined subroutines with code become nodes, each
 * the parent of what it contains (lexical blocks are looked through), as addr2line -i reads them.
 */
static void walk_dies(cu_walk *w, Dwarf_Die die, int32_t parent, uint32_t depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Die cur = die, next = NULL;
	while (cur) {
		Dwarf_Half tag = 0;
		Dwarf_Die child = NULL;
		int32_t inner = parent;
		if (dwarf_tag(cur, &tag, &err) == DW_DLV_OK &&
		    (tag == DW_TAG_subprogram || (tag == DW_TAG_inlined_subroutine && parent >= 0))) {
			die_ranges(w, cur);
			inner = add_node(w, cur, tag, tag == DW_TAG_subprogram ? -1 : parent,
			                 tag == DW_TAG_subprogram ? 0 : depth);
			if (inner < 0)
				inner = parent;
		}
		if (depth < 64 && dwarf_child(cur, &child, &err) == DW_DLV_OK)
			walk_dies(w, child, inner, inner == parent ? depth : depth + 1);
		next = NULL;
		if (dwarf_siblingof_b(w->dbg, cur, 1, &next, &err) != DW_DLV_OK)
			next = NULL;
		if (cur != die)
			dwarf_dealloc(w->dbg, cur, DW_DLA_DIE);
		cur = next;
	}
	dwarf_dealloc(w->dbg, die, DW_DLA_DIE);
}

static void load_lines(module *m, Dwarf_Debug dbg, Dwarf_Die cu, size_t *rcap, size_t *filecap)
{
	Dwarf_Error err = NULL;
	Dwarf_Unsigned lver = 0;
	Dwarf_Small tcount = 0;
	Dwarf_Line_Context ctx = NULL;
	Dwarf_Line *lines = NULL;
	Dwarf_Signed nlines = 0, i;
	if (dwarf_srclines_b(cu, &lver, &tcount, &ctx, &err) != DW_DLV_OK)
		return;
	if (dwarf_srclines_from_linecontext(ctx, &lines, &nlines, &err) == DW_DLV_OK) {
		for (i = 0; i < nlines; i++) {
			Dwarf_Addr addr = 0;
			Dwarf_Unsigned ln = 0;
			Dwarf_Bool end = 0;
			char *src = NULL;
			uint32_t fidx = 0;
			if (dwarf_lineaddr(lines[i], &addr, &err) != DW_DLV_OK)
				continue;
			dwarf_lineendsequence(lines[i], &end, &err);
			if (!end) {
				if (dwarf_lineno(lines[i], &ln, &err) != DW_DLV_OK)
					continue;
				if (dwarf_linesrc(lines[i], &src, &err) != DW_DLV_OK)
					continue;
				fidx = intern_file(m, src, filecap);
				dwarf_dealloc(dbg, src, DW_DLA_STRING);
				if (fidx == UINT32_MAX)
					continue;
			}
			if (m->nrows == *rcap) {
				size_t nc = *rcap ? *rcap * 2 : 1024;
				row *r = tnorm__reallocarray(m->rows, nc, sizeof(*r));
				if (!r)
					break;
				m->rows = r;
				*rcap = nc;
			}
			m->rows[m->nrows].addr = addr;
			m->rows[m->nrows].line = end ? 0 : (uint32_t)ln;
			m->rows[m->nrows].file = fidx;
			m->rows[m->nrows].noline = !end && ln == 0;
			m->nrows++;
		}
	}
	dwarf_srclines_dealloc_b(ctx);
}

/*
 * libdwarf 20210528 (Debian 12) is not safe to use from two threads at once, even on two
 * Dwarf_Debug handles: two runners' tracers loading line tables together overflowed a heap
 * buffer inside dwarf_srclines_b (ASan, triage's worker threads).  Every use of libdwarf is in
 * load_dwarf, from dwarf_init_b to dwarf_finish, so one lock around it serializes them; a module
 * is loaded once per runner, so the lock is rarely contended.  It is the engine's only global
 * state, and holds nothing between calls.
 */
static pthread_mutex_t dwarf_lock = PTHREAD_MUTEX_INITIALIZER;

static void load_dwarf_locked(module *m, int fd);

void tnorm__symbolize_load_dwarf(module *m, int fd)
{
	pthread_mutex_lock(&dwarf_lock);
	load_dwarf_locked(m, fd);
	pthread_mutex_unlock(&dwarf_lock);
}

static void load_dwarf_locked(module *m, int fd)
{
	Dwarf_Debug dbg = NULL;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned next_cu = 0;
	size_t rcap = 0, filecap = 0, k;
	cu_walk w;
	memset(&w, 0, sizeof(w));
	if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, &err) != DW_DLV_OK)
		return;
	w.dbg = dbg;
	w.m = m;
	for (;;) {
		Dwarf_Unsigned hlen = 0, abbrev_off = 0, typeoff = 0;
		Dwarf_Half ver = 0, asize = 0, lsize = 0, xsize = 0, cutype = 0, offsize = 0;
		Dwarf_Sig8 sig;
		Dwarf_Die cu = NULL;
		Dwarf_Signed i;
		if (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbrev_off, &asize, &lsize, &xsize, &sig,
		                           &typeoff, &next_cu, &cutype, &err) != DW_DLV_OK)
			break;
		if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &err) != DW_DLV_OK)
			continue;
		load_lines(m, dbg, cu, &rcap, &filecap);
		w.version = ver;
		if (dwarf_get_version_of_die(cu, &w.version, &offsize) != DW_DLV_OK)
			w.version = ver;
		if (dwarf_lowpc(cu, &w.base, &err) != DW_DLV_OK)
			w.base = 0;
		w.srcfiles = NULL;
		w.nsrcfiles = 0;
		if (dwarf_srcfiles(cu, &w.srcfiles, &w.nsrcfiles, &err) != DW_DLV_OK) {
			w.srcfiles = NULL;
			w.nsrcfiles = 0;
		}
		walk_dies(&w, cu, -1, 0);
		if (w.srcfiles) {
			for (i = 0; i < w.nsrcfiles; i++)
				dwarf_dealloc(dbg, w.srcfiles[i], DW_DLA_STRING);
			dwarf_dealloc(dbg, w.srcfiles, DW_DLA_LIST);
		}
	}
	free(w.lo);
	free(w.hi);
	dwarf_finish(dbg, &err);
	if (m->nranges) {
		qsort(m->ranges, m->nranges, sizeof(*m->ranges), cmp_range);
		if ((m->maxhi = tnorm__calloc(m->nranges, sizeof(*m->maxhi))))
			for (k = 0; k < m->nranges; k++)
				m->maxhi[k] = k && m->maxhi[k - 1] > m->ranges[k].hi ? m->maxhi[k - 1]
				                                                     : m->ranges[k].hi;
	}
	if (m->nrows)
		qsort(m->rows, m->nrows, sizeof(*m->rows), cmp_row);
}

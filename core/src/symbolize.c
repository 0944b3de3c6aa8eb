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
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "symbolize.h"

typedef struct {
	uint64_t lo, hi;
	char *name;
} func;

typedef struct {
	uint64_t addr;
	uint32_t line; /* 0 marks the end of a sequence */
	uint32_t file;
} row;

typedef struct {
	uint64_t offset, vaddr, size;
} seg;

typedef struct module {
	char *path;
	seg *segs;
	size_t nsegs;
	func *dfuncs, *sfuncs; /* DWARF subprograms; ELF symbols */
	size_t ndfuncs, nsfuncs;
	row *rows;
	size_t nrows;
	char **files;
	size_t nfiles;
	struct module *next;
} module;

struct tnorm__symcache {
	module *mods;
};

int tnorm__symcache_new(tnorm__symcache **out)
{
	static int elf_ready;
	if (!elf_ready) {
		/* elf_version only records the API version; calling it from two threads is harmless. */
		elf_version(EV_CURRENT);
		elf_ready = 1;
	}
	*out = tnorm__calloc(1, sizeof(**out));
	return *out ? 0 : TNORM_ENOMEM;
}

static void free_funcs(func *f, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(f[i].name);
	free(f);
}

void tnorm__symcache_free(tnorm__symcache *c)
{
	module *m, *n;
	size_t i;
	if (!c)
		return;
	for (m = c->mods; m; m = n) {
		n = m->next;
		free(m->path);
		free(m->segs);
		free_funcs(m->dfuncs, m->ndfuncs);
		free_funcs(m->sfuncs, m->nsfuncs);
		free(m->rows);
		for (i = 0; i < m->nfiles; i++)
			free(m->files[i]);
		free(m->files);
		free(m);
	}
	free(c);
}

static int push_func(func **arr, size_t *n, size_t *cap, uint64_t lo, uint64_t hi, const char *name)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		func *f = tnorm__reallocarray(*arr, nc, sizeof(*f));
		if (!f)
			return TNORM_ENOMEM;
		*arr = f;
		*cap = nc;
	}
	if (!((*arr)[*n].name = tnorm__strdup(name)))
		return TNORM_ENOMEM;
	(*arr)[*n].lo = lo;
	(*arr)[*n].hi = hi;
	(*n)++;
	return 0;
}

static int cmp_func(const void *a, const void *b)
{
	const func *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

static int cmp_row(const void *a, const void *b)
{
	const row *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* At one address, an end-of-sequence row sorts before the start of the next sequence. */
	return (x->line != 0) - (y->line != 0);
}

static void load_elf(module *m, int fd)
{
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	size_t i, nph = 0, cap = 0, symcap = 0;
	int have_symtab = 0;
	if (!e)
		return;
	if (elf_getphdrnum(e, &nph) == 0 && nph > 0 &&
	    (m->segs = tnorm__calloc(nph, sizeof(*m->segs)))) {
		for (i = 0; i < nph; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
				m->segs[m->nsegs].offset = ph.p_offset;
				m->segs[m->nsegs].vaddr = ph.p_vaddr;
				m->segs[m->nsegs].size = ph.p_filesz;
				m->nsegs++;
			}
		}
	}
	(void)cap;
	/* Prefer .symtab; fall back to .dynsym. */
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			have_symtab = 1;
	}
	scn = NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t k, count;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != (have_symtab ? SHT_SYMTAB : SHT_DYNSYM))
			continue;
		if (!(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		count = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < count; k++) {
			GElf_Sym sym;
			const char *name;
			if (!gelf_getsym(d, (int)k, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !sym.st_value)
				continue;
			if (!(name = elf_strptr(e, sh.sh_link, sym.st_name)) || !*name)
				continue;
			if (push_func(&m->sfuncs, &m->nsfuncs, &symcap, sym.st_value,
			              sym.st_value + (sym.st_size ? sym.st_size : 1), name) < 0)
				break;
		}
	}
	if (m->nsfuncs)
		qsort(m->sfuncs, m->nsfuncs, sizeof(*m->sfuncs), cmp_func);
	elf_end(e);
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

static char *die_name(Dwarf_Debug dbg, Dwarf_Die die, int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute attr = NULL;
	char *name = NULL, *copy = NULL;
	static const Dwarf_Half refs[] = {DW_AT_abstract_origin, DW_AT_specification};
	size_t i;
	if (dwarf_diename(die, &name, &err) == DW_DLV_OK) {
		copy = tnorm__strdup(name);
		dwarf_dealloc(dbg, name, DW_DLA_STRING);
		return copy;
	}
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

static void walk_dies(Dwarf_Debug dbg, Dwarf_Die die, module *m, size_t *cap, int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Die cur = die, next = NULL;
	while (cur) {
		Dwarf_Half tag = 0;
		Dwarf_Die child = NULL;
		if (dwarf_tag(cur, &tag, &err) == DW_DLV_OK && tag == DW_TAG_subprogram) {
			Dwarf_Addr lo = 0, hi = 0;
			Dwarf_Half form = 0;
			enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
			if (dwarf_lowpc(cur, &lo, &err) == DW_DLV_OK &&
			    dwarf_highpc_b(cur, &hi, &form, &cls, &err) == DW_DLV_OK) {
				char *name = die_name(dbg, cur, 0);
				if (cls == DW_FORM_CLASS_CONSTANT)
					hi += lo;
				if (name && hi > lo)
					push_func(&m->dfuncs, &m->ndfuncs, cap, lo, hi, name);
				free(name);
			}
		}
		if (depth < 8 && dwarf_child(cur, &child, &err) == DW_DLV_OK)
			walk_dies(dbg, child, m, cap, depth + 1);
		next = NULL;
		if (dwarf_siblingof_b(dbg, cur, 1, &next, &err) != DW_DLV_OK)
			next = NULL;
		if (cur != die)
			dwarf_dealloc(dbg, cur, DW_DLA_DIE);
		cur = next;
	}
	dwarf_dealloc(dbg, die, DW_DLA_DIE);
}

static void load_dwarf(module *m, int fd)
{
	Dwarf_Debug dbg = NULL;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned next_cu = 0;
	size_t fcap = 0, rcap = 0, filecap = 0;
	if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, &err) != DW_DLV_OK)
		return;
	for (;;) {
		Dwarf_Unsigned hlen = 0, abbrev_off = 0, typeoff = 0;
		Dwarf_Half ver = 0, asize = 0, lsize = 0, xsize = 0, cutype = 0;
		Dwarf_Sig8 sig;
		Dwarf_Die cu = NULL;
		Dwarf_Unsigned lver = 0;
		Dwarf_Small tcount = 0;
		Dwarf_Line_Context ctx = NULL;
		Dwarf_Line *lines = NULL;
		Dwarf_Signed nlines = 0, i;
		if (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbrev_off, &asize, &lsize, &xsize, &sig,
		                           &typeoff, &next_cu, &cutype, &err) != DW_DLV_OK)
			break;
		if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &err) != DW_DLV_OK)
			continue;
		if (dwarf_srclines_b(cu, &lver, &tcount, &ctx, &err) == DW_DLV_OK) {
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
						if (dwarf_lineno(lines[i], &ln, &err) != DW_DLV_OK || ln == 0)
							continue;
						if (dwarf_linesrc(lines[i], &src, &err) != DW_DLV_OK)
							continue;
						fidx = intern_file(m, src, &filecap);
						dwarf_dealloc(dbg, src, DW_DLA_STRING);
						if (fidx == UINT32_MAX)
							continue;
					}
					if (m->nrows == rcap) {
						size_t nc = rcap ? rcap * 2 : 1024;
						row *r = tnorm__reallocarray(m->rows, nc, sizeof(*r));
						if (!r)
							break;
						m->rows = r;
						rcap = nc;
					}
					m->rows[m->nrows].addr = addr;
					m->rows[m->nrows].line = end ? 0 : (uint32_t)ln;
					m->rows[m->nrows].file = fidx;
					m->nrows++;
				}
			}
			dwarf_srclines_dealloc_b(ctx);
		}
		walk_dies(dbg, cu, m, &fcap, 0);
	}
	dwarf_finish(dbg, &err);
	if (m->ndfuncs)
		qsort(m->dfuncs, m->ndfuncs, sizeof(*m->dfuncs), cmp_func);
	if (m->nrows)
		qsort(m->rows, m->nrows, sizeof(*m->rows), cmp_row);
}

static module *get_module(tnorm__symcache *c, const char *path)
{
	module *m;
	int fd;
	for (m = c->mods; m; m = m->next)
		if (!strcmp(m->path, path))
			return m;
	if (!(m = tnorm__calloc(1, sizeof(*m))))
		return NULL;
	if (!(m->path = tnorm__strdup(path))) {
		free(m);
		return NULL;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		load_elf(m, fd);
		load_dwarf(m, fd);
		close(fd);
	}
	m->next = c->mods;
	c->mods = m;
	return m;
}

static const func *find_func(const func *f, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n, k;
	const func *best = NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* f[0..lo) start at or before addr: the innermost containing range is the latest start. */
	for (k = lo; k-- > 0 && lo - k <= 64;)
		if (addr < f[k].hi) {
			best = &f[k];
			break;
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
	if (lo == 0 || m->rows[lo - 1].line == 0)
		return NULL;
	return &m->rows[lo - 1];
}

void tnorm__symbolize(tnorm__symcache *c, const char *maps, uint64_t pc, int innermost,
                      tnorm_frame *out)
{
	const char *p = maps;
	uint64_t addr = innermost || pc == 0 ? pc : pc - 1;
	memset(out, 0, sizeof(*out));
	out->pc = pc;
	while (p && *p) {
		unsigned long long start, end, off;
		char perms[8], path[4096];
		const char *nl = strchr(p, '\n');
		int n = 0;
		path[0] = '\0';
		if (sscanf(p, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off, &n) >= 4 &&
		    addr >= start && addr < end) {
			const char *q = p + n;
			size_t len = nl ? (size_t)(nl - q) : strlen(q);
			module *m;
			uint64_t foff, vaddr;
			size_t i;
			const func *f;
			const row *r;
			if (len == 0 || len >= sizeof(path) || q[0] != '/')
				return;
			memcpy(path, q, len);
			path[len] = '\0';
			if (!(m = get_module(c, path)))
				return;
			out->module = m->path;
			foff = addr - start + off;
			vaddr = foff;
			for (i = 0; i < m->nsegs; i++)
				if (foff >= m->segs[i].offset && foff < m->segs[i].offset + m->segs[i].size) {
					vaddr = foff - m->segs[i].offset + m->segs[i].vaddr;
					break;
				}
			if ((f = find_func(m->dfuncs, m->ndfuncs, vaddr)) ||
			    (f = find_func(m->sfuncs, m->nsfuncs, vaddr)))
				out->function = f->name;
			if ((r = find_row(m, vaddr))) {
				out->file = m->files[r->file];
				out->line = r->line;
			}
			return;
		}
		p = nl ? nl + 1 : NULL;
	}
}

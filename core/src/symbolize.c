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
 */
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
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

static int row_end(const row *r)
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
		for (i = 0; i < m->nnodes; i++) {
			free(m->nodes[i].name);
			free(m->nodes[i].call_file);
		}
		free(m->nodes);
		free(m->ranges);
		free(m->maxhi);
		free_funcs(m->sfuncs, m->nsfuncs);
		free(m->rows);
		for (i = 0; i < m->nfiles; i++)
			free(m->files[i]);
		free(m->files);
		free(m);
	}
	free(c->maps);
	free(c->lines);
	free(c);
}

/* C++ and the sanitizer runtimes' names arrive mangled; people read them demangled.  libstdc++'s
 * demangler is the one gcc's own tools use (an extern "C" symbol, so C can call it). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static char *demangled_dup(const char *name)
{
	if (name[0] == '_' && name[1] == 'Z') {
		int status = -1;
		char *d = __cxa_demangle(name, NULL, NULL, &status);
		if (d && status == 0) {
			char *copy = tnorm__strdup(d);
			free(d);
			return copy;
		}
		free(d);
	}
	return tnorm__strdup(name);
}

char *tnorm__demangle_type(const char *mangled)
{
	int status = -1;
	char *d = __cxa_demangle(mangled, NULL, NULL, &status), *copy;
	copy = tnorm__strdup(d && status == 0 ? d : mangled);
	free(d);
	return copy;
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
	if (!((*arr)[*n].name = demangled_dup(name)))
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

/*
 * Several ELF symbols often name one address: a sanitizer runtime linked statically defines
 * `__interceptor_strcmp` and its weak alias `strcmp`, glibc has `__GI_abort` and `abort`.  The
 * name that says what the code is wins: an interceptor's, then a global one, then the first.
 */
static int alias_rank(const char *name, int bind)
{
	if (!strncmp(name, "__interceptor_", 14) || !strncmp(name, "___interceptor_", 15))
		return 3;
	return bind == STB_GLOBAL ? 2 : bind == STB_WEAK ? 1 : 0;
}

static void read_build_id(module *m, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, noff, doff;
	GElf_Nhdr nh;
	if (!d || sh->sh_type != SHT_NOTE)
		return;
	while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)d->d_buf + noff, "GNU", 4)) {
			const unsigned char *id = (const unsigned char *)d->d_buf + doff;
			size_t k, n = nh.n_descsz < 20 ? nh.n_descsz : 20;
			for (k = 0; k < n; k++)
				snprintf(m->build_id + 2 * k, 3, "%02x", id[k]);
			return;
		}
	}
	(void)e;
}

/* Entry points that a sanitizer runtime exports even from a stripped executable. */
static int sanitizer_entry(const char *name)
{
	static const char *const pre[] = {"__asan_", "__sanitizer_", "__interceptor_",
	                                  "___interceptor_", "__ubsan_", "__lsan_", "__tsan_", NULL};
	size_t i;
	for (i = 0; pre[i]; i++)
		if (!strncmp(name, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

static void load_symbols(module *m, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t k, count, symcap = 0, i, j, w = 0;
	if (!d || !sh->sh_entsize)
		return;
	count = sh->sh_size / sh->sh_entsize;
	for (k = 0; k < count; k++) {
		GElf_Sym sym;
		const char *name;
		if (!gelf_getsym(d, (int)k, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value)
			continue;
		if (!(name = elf_strptr(e, sh->sh_link, sym.st_name)) || !*name)
			continue;
		if (push_func(&m->sfuncs, &m->nsfuncs, &symcap, sym.st_value,
		              sym.st_value + (sym.st_size ? sym.st_size : 1), name) < 0)
			break;
		m->sfuncs[m->nsfuncs - 1].rank = alias_rank(name, GELF_ST_BIND(sym.st_info));
		if (sanitizer_entry(name)) {
			if (!m->rt_count || sym.st_value < m->rt_lo)
				m->rt_lo = sym.st_value;
			if (!m->rt_count || m->sfuncs[m->nsfuncs - 1].hi > m->rt_hi)
				m->rt_hi = m->sfuncs[m->nsfuncs - 1].hi;
			m->rt_count++;
		}
	}
	if (!m->nsfuncs)
		return;
	qsort(m->sfuncs, m->nsfuncs, sizeof(*m->sfuncs), cmp_func);
	/* Keep one name per address: the best alias, with the widest extent of the set. */
	for (i = 0; i < m->nsfuncs; i = j) {
		size_t best = i, q;
		uint64_t hi = m->sfuncs[i].hi;
		for (j = i + 1; j < m->nsfuncs && m->sfuncs[j].lo == m->sfuncs[i].lo; j++)
			if (m->sfuncs[j].rank > m->sfuncs[best].rank)
				best = j;
		for (q = i; q < j; q++) {
			if (m->sfuncs[q].hi > hi)
				hi = m->sfuncs[q].hi;
			if (q != best)
				free(m->sfuncs[q].name);
		}
		m->sfuncs[w] = m->sfuncs[best];
		m->sfuncs[w].hi = hi;
		w++;
	}
	m->nsfuncs = w;
}

/* DWARF pointer encodings (LSB, .eh_frame_hdr) that the header reading below needs. */
#define EH_PE_OMIT 0xff
#define EH_PE_UDATA4 0x03
#define EH_PE_DATAREL_SDATA4 0x3b

/* The size of a value encoded as `enc` in .eh_frame_hdr, 0 if omitted, -1 if unknown. */
static int eh_size(unsigned enc)
{
	if (enc == EH_PE_OMIT)
		return 0;
	switch (enc & 0x0f) {
	case 0x00:
	case 0x04:
	case 0x0c: return 8; /* absptr, udata8, sdata8 */
	case 0x02:
	case 0x0a: return 2; /* udata2, sdata2 */
	case 0x03:
	case 0x0b: return 4; /* udata4, sdata4 */
	}
	return -1;
}

/* Where the .eh_frame_hdr segment `eh` keeps its binary-search table.  libunwind searches only
 * tables of 4-byte data-relative entries (what every linker writes); anything else is left to
 * libunwind's own lookup (m->eh_table stays 0). */
static void load_eh_frame_hdr(module *m, int fd, const GElf_Phdr *eh, const GElf_Phdr *dyn)
{
	unsigned char h[4 + 8 + 4];
	int ptr_size;
	uint32_t count;
	if (eh->p_filesz < sizeof(h) || pread(fd, h, sizeof(h), (off_t)eh->p_offset) != sizeof(h))
		return;
	ptr_size = eh_size(h[1]);
	if (h[0] != 1 || ptr_size < 0 || h[2] != EH_PE_UDATA4 || h[3] != EH_PE_DATAREL_SDATA4)
		return;
	memcpy(&count, h + 4 + ptr_size, sizeof(count));
	m->eh_vaddr = eh->p_vaddr;
	m->eh_table = 4 + (uint64_t)ptr_size + 4;
	m->eh_count = count;
	/* libunwind takes DT_PLTGOT as the base of data-relative pointers (none: 0). */
	if (dyn) {
		GElf_Dyn d[64];
		size_t i, n = dyn->p_filesz / sizeof(*d);
		ssize_t got = pread(fd, d, (n < 64 ? n : 64) * sizeof(*d), (off_t)dyn->p_offset);
		for (i = 0; got > 0 && i < (size_t)got / sizeof(*d) && d[i].d_tag != DT_NULL; i++)
			if (d[i].d_tag == DT_PLTGOT) {
				m->gp = d[i].d_un.d_ptr;
				break;
			}
	}
}

static void load_elf(module *m, int fd)
{
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr symsh, dynsh;
	GElf_Phdr eh = {0}, dyn = {0};
	int has_eh = 0, has_dyn = 0;
	size_t i, nph = 0;
	if (!e)
		return;
	if (elf_getphdrnum(e, &nph) == 0 && nph > 0 &&
	    (m->segs = tnorm__calloc(nph, sizeof(*m->segs)))) {
		m->load_lo = UINT64_MAX;
		for (i = 0; i < nph; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(e, (int)i, &ph))
				continue;
			if (ph.p_type == PT_LOAD) {
				m->segs[m->nsegs].offset = ph.p_offset;
				m->segs[m->nsegs].vaddr = ph.p_vaddr;
				m->segs[m->nsegs].size = ph.p_filesz;
				m->nsegs++;
				if (ph.p_vaddr < m->load_lo)
					m->load_lo = ph.p_vaddr;
				if (ph.p_vaddr + ph.p_memsz > m->load_hi)
					m->load_hi = ph.p_vaddr + ph.p_memsz;
			} else if (ph.p_type == PT_GNU_EH_FRAME) {
				eh = ph;
				has_eh = 1;
			} else if (ph.p_type == PT_DYNAMIC) {
				dyn = ph;
				has_dyn = 1;
			}
		}
		/* The dynamic section is read as Elf64_Dyn: unwinding is for 64-bit processes. */
		if (has_eh && m->nsegs && gelf_getclass(e) == ELFCLASS64)
			load_eh_frame_hdr(m, fd, &eh, has_dyn ? &dyn : NULL);
	}
	/* Prefer .symtab; fall back to .dynsym (a stripped binary keeps only its exports). */
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && !symtab) {
			symtab = scn;
			symsh = sh;
		} else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
			dynsym = scn;
			dynsh = sh;
		} else if (sh.sh_type == SHT_NOTE && !m->build_id[0]) {
			read_build_id(m, e, scn, &sh);
		}
	}
	if (symtab)
		load_symbols(m, e, symtab, &symsh);
	else if (dynsym)
		load_symbols(m, e, dynsym, &dynsh);
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

/* A string attribute of a DIE, or NULL. */
static char *die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute attr = NULL;
	char *s = NULL, *copy = NULL;
	if (dwarf_attr(die, at, &attr, &err) != DW_DLV_OK)
		return NULL;
	if (dwarf_formstring(attr, &s, &err) == DW_DLV_OK && s)
		copy = demangled_dup(s);
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

static void load_dwarf(module *m, int fd)
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
			out[0].function = "__sanitizer_runtime";
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

static module *get_module(tnorm__symcache *c, const char *path);

/* Parse `maps` into c->lines unless it is the text parsed last.  0, or -1 (out of memory: the
 * cache is left empty). */
static int parse_maps(tnorm__symcache *c, const char *maps)
{
	size_t cap = 0;
	const char *p;
	if (c->maps && !strcmp(c->maps, maps))
		return 0;
	free(c->maps);
	free(c->lines);
	c->lines = NULL;
	c->nlines = 0;
	if (!(c->maps = tnorm__strdup(maps)))
		return -1;
	for (p = c->maps; *p;) {
		unsigned long long start, end, off;
		const char *nl = strchr(p, '\n');
		int k = 0;
		if (sscanf(p, "%llx-%llx %*s %llx %*s %*s %n", &start, &end, &off, &k) >= 3 &&
		    k > 0 && (!nl || p + k <= nl)) {
			mapping *l;
			if (c->nlines == cap) {
				mapping *grown = tnorm__reallocarray(c->lines, cap ? 2 * cap : 64,
				                                     sizeof(*c->lines));
				if (!grown) {
					free(c->maps);
					c->maps = NULL;
					return -1;
				}
				c->lines = grown;
				cap = cap ? 2 * cap : 64;
			}
			l = &c->lines[c->nlines++];
			memset(l, 0, sizeof(*l));
			l->start = start;
			l->end = end;
			l->off = off;
			l->path = p + k;
			l->path_len = nl ? (size_t)(nl - l->path) : strlen(l->path);
		}
		p = nl ? nl + 1 : p + strlen(p);
	}
	return 0;
}

/* The line of `maps` that holds `addr`, its module looked up; NULL when there is none or it is
 * not a file's. */
static mapping *find_mapping(tnorm__symcache *c, const char *maps, uint64_t addr)
{
	size_t lo = 0, hi;
	mapping *l;
	if (parse_maps(c, maps) < 0)
		return NULL;
	hi = c->nlines;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->lines[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= (l = &c->lines[lo - 1])->end)
		return NULL;
	if (!l->resolved) {
		char path[4096];
		l->resolved = 1;
		if (l->path_len > 0 && l->path_len < sizeof(path) && l->path[0] == '/') {
			memcpy(path, l->path, l->path_len);
			path[l->path_len] = '\0';
			l->mod = get_module(c, path);
		}
	}
	return l->mod ? l : NULL;
}

/* The module-relative address of `addr` in mapping l (through its PT_LOAD segments). */
static uint64_t module_vaddr(const mapping *l, uint64_t addr)
{
	const module *m = l->mod;
	uint64_t foff = addr - l->start + l->off;
	size_t i;
	for (i = 0; i < m->nsegs; i++)
		if (foff >= m->segs[i].offset && foff < m->segs[i].offset + m->segs[i].size)
			return foff - m->segs[i].offset + m->segs[i].vaddr;
	return foff;
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
	if (!maps || !(l = find_mapping(c, maps, addr)))
		return 1;
	return symbolize_in(l->mod, pc, module_vaddr(l, addr), innermost, out, max);
}

int tnorm__symcache_unwind_table(tnorm__symcache *c, const char *maps, uint64_t ip,
                                 tnorm__unwind_table *out)
{
	mapping *l;
	const module *m;
	uint64_t bias;
	if (!maps || !(l = find_mapping(c, maps, ip)) || !(m = l->mod)->eh_table)
		return -1;
	bias = ip - module_vaddr(l, ip);
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
	if (!path || path[0] != '/' || !(m = get_module(c, path)))
		return 1;
	return symbolize_in(m, vaddr, addr, innermost, out, max);
}

int tnorm__symcache_noline(tnorm__symcache *c, const char *path, uint64_t vaddr)
{
	module *m;
	const row *r;
	if (!path || path[0] != '/' || !(m = get_module(c, path)))
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
	if (!path || path[0] != '/' || !(m = get_module(c, path)) || (nd = find_node(m, vaddr)) < 0)
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
	if (!path || path[0] != '/' || !(m = get_module(c, path)) || (nd = find_node(m, vaddr)) < 0)
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
	if (!maps || !path || parse_maps(c, maps) < 0)
		return -1;
	for (i = 0; i < c->nlines; i++) {
		mapping *l = &c->lines[i];
		if (l->path_len != strlen(path) || memcmp(l->path, path, l->path_len) ||
		    !find_mapping(c, maps, l->start) || !l->mod)
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
	if (!path || path[0] != '/' || !(m = get_module(c, path)))
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
	if (!path || path[0] != '/' || !(m = get_module(c, path)) ||
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
	if (!path || path[0] != '/' || !(m = get_module(c, path)) || !m->nrows)
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

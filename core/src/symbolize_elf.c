/* SPDX-License-Identifier: MIT */
/*
 * symbolize_elf.c - what a module's ELF file says (symbolize_internal.h lists the rooms).
 *
 * Its PT_LOAD segments (file offsets to module addresses), its function symbols (.symtab, else
 * .dynsym: the fallback for code without debug information, such as libc; one name per address,
 * the alias that says most), the extent of a sanitizer runtime linked into it, its build id, and
 * where its .eh_frame_hdr search table lies, for the runner's unwinder.  Names are demangled
 * here, for the DWARF room too.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sanitizer_internal.h"
#include "symbolize_internal.h"

/* C++ and the sanitizer runtimes' names arrive mangled; people read them demangled.  libstdc++'s
 * demangler is the one gcc's own tools use (an extern "C" symbol, so C can call it). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *tnorm__symbolize_demangle(const char *name)
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
	if (!((*arr)[*n].name = tnorm__symbolize_demangle(name)))
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

/*
 * Several ELF symbols often name one address: a sanitizer runtime linked statically defines
 * `__interceptor_strcmp` and its weak alias `strcmp`, glibc has `__GI_abort` and `abort`.  The
 * name that says what the code is wins: an interceptor's, then a global one, then the first.
 */
static int alias_rank(const char *name, int bind)
{
	if (tnorm__sanitizer_interceptor(name))
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
	size_t i;
	const char *pre;
	for (i = 0; (pre = tnorm_sanitizer_name(TNORM_SANITIZER_FUNCTIONS, i)) != NULL; i++)
		if (!strncmp(name, pre, strlen(pre)))
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

void tnorm__symbolize_load_elf(module *m, int fd)
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

/* SPDX-License-Identifier: MIT */
/*
 * symbolize_cache.c - the symbolizer's cache: modules by path, and the last memory map
 * (symbolize_internal.h lists the rooms).
 *
 * A module is loaded (ELF, then DWARF) the first time an address falls in it and kept for the
 * runner's lifetime, since a reduction symbolizes thousands of crashes of the same binaries.
 * The last /proc/PID/maps text is kept parsed: runs of one binary have the same map (ASLR is
 * off), and a lookup is then a binary search.
 */
#include <fcntl.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize_internal.h"

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

module *tnorm__symcache_module(tnorm__symcache *c, const char *path)
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
		tnorm__symbolize_load_elf(m, fd);
		tnorm__symbolize_load_dwarf(m, fd);
		close(fd);
	}
	m->next = c->mods;
	c->mods = m;
	return m;
}

/* Parse `maps` into c->lines unless it is the text parsed last.  0, or -1 (out of memory: the
 * cache is left empty). */
int tnorm__symcache_parse_maps(tnorm__symcache *c, const char *maps)
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
mapping *tnorm__symcache_mapping(tnorm__symcache *c, const char *maps, uint64_t addr)
{
	size_t lo = 0, hi;
	mapping *l;
	if (tnorm__symcache_parse_maps(c, maps) < 0)
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
			l->mod = tnorm__symcache_module(c, path);
		}
	}
	return l->mod ? l : NULL;
}

/* The module-relative address of `addr` in mapping l (through its PT_LOAD segments). */
uint64_t tnorm__symcache_module_vaddr(const mapping *l, uint64_t addr)
{
	const module *m = l->mod;
	uint64_t foff = addr - l->start + l->off;
	size_t i;
	for (i = 0; i < m->nsegs; i++)
		if (foff >= m->segs[i].offset && foff < m->segs[i].offset + m->segs[i].size)
			return foff - m->segs[i].offset + m->segs[i].vaddr;
	return foff;
}

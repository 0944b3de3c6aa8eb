/* SPDX-License-Identifier: MIT */
/*
 * mergetrap.c - one trap per jump into a merged abort call (see mergetrap.h).
 *
 * Finding the entries.  The function's code (every range of its DWARF subprogram, read from the
 * module's file) is decoded linearly with capstone.  The region of the merged call is the
 * straight-line code that ends in it: from the call back to the first instruction after a jump,
 * a return, a trap or another call of the same function (the next check's abort).  Every direct
 * jump of the function whose target lies in the region is an entry, and so is a conditional jump
 * just before the region (not taken, it falls into it).  A jump's own address is where the check
 * is: the frames of that address, with the functions inlined there, are what a build without the
 * merge would show (for an address in a row of no line, the nearest instruction before it that
 * has one).  This is done once per site and kept by the runner.
 *
 * The traps.  An unconditional jump into the region only leads to the abort: an int3 on the jump
 * itself; when it fires the jump's byte goes back and the thread runs the jump.  A conditional
 * jump is taken on the failure only: its displacement is rewritten to an int3 pad of its own,
 * a byte of the region (the region runs only once an entry was taken, and every entry is trapped
 * before it runs) or of the filler after one of the function's ranges, within the jump's reach
 * (rel8 or rel32); when it fires the site's bytes go back and the thread goes to the jump's
 * original target.  The fall-through gets an int3 on the region's first byte.  A run that does
 * not fail there never meets a trap, so passing runs run as they would; a failing run stops once.
 *
 * The bytes are written through /proc/PID/mem (a tracer may write read-only text: the kernel
 * copies the page for that process), in clusters of nearby patches, each read back first and
 * checked against the file's bytes, so that a module mapped elsewhere than the last run's (its
 * load bias is kept from run to run: the runner turns ASLR off) is found again through
 * /proc/PID/maps, and a module that is not the one decoded is left alone.  A fork server's
 * children are armed each at its first stop (the server's own copy stays as the file has it):
 * sites are learned between runs while a server lives, and a child's arming is one open, a read
 * and a write per cluster, which does not show in a run's CPU (bench/README.md); a persistent
 * child keeps its traps for its next candidates (a failure ends it).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <unistd.h>

#include <capstone/capstone.h>

#include "mergetrap.h"
#include "sanitizer_internal.h"

#define INT3 0xcc
#define CLUSTER_GAP 512 /* patches this close are read and written as one span */

enum { K_OTHER, K_JMP, K_JCC, K_RET, K_CALL, K_STOP, K_INDIRECT };

typedef struct {
	uint64_t addr, target; /* target: a direct branch's or call's (a call through a pointer:
	                        * the pointer's address with bit 63 set), else 0 */
	uint8_t size, kind;
	uint8_t rel_off, rel_size; /* a direct jump's displacement field, 0: unknown */
} insn;

typedef struct {
	uint64_t at;     /* module-relative: the check (its frames name the failure) */
	uint64_t trap;   /* the int3 */
	uint64_t resume; /* where the thread goes on */
} entry;

typedef struct {
	uint64_t vaddr;
	uint8_t len;
	unsigned char orig[4], patch[4];
} patch;

typedef struct {
	char *path;
	uint64_t call, call_end; /* the merged call instruction */
	entry *e;
	size_t ne, shared;
	patch *p; /* sorted by vaddr */
	size_t np;
	uint64_t bias;
	int have_bias;
	int armed; /* its patches are in the armed process */
	long fired; /* entry index, -1: none */
} site;

struct tnorm__mtrap {
	site *s;
	size_t ns;
	int memfd;
	pid_t pid;
};

int tnorm__mtrap_new(tnorm__mtrap **out)
{
	if (!(*out = tnorm__calloc(1, sizeof(**out))))
		return TNORM_ENOMEM;
	(*out)->memfd = -1;
	return 0;
}

void tnorm__mtrap_free(tnorm__mtrap *t)
{
	size_t i;
	if (!t)
		return;
	tnorm__mtrap_end(t);
	for (i = 0; i < t->ns; i++) {
		free(t->s[i].path);
		free(t->s[i].e);
		free(t->s[i].p);
	}
	free(t->s);
	free(t);
}

static const site *site_of(const tnorm__mtrap *t, const char *path, uint64_t pc)
{
	size_t i;
	for (i = 0; i < t->ns; i++)
		if (pc >= t->s[i].call && pc < t->s[i].call_end && !strcmp(t->s[i].path, path))
			return &t->s[i];
	return NULL;
}

int tnorm__mtrap_known(const tnorm__mtrap *t, const char *path, uint64_t pc)
{
	return t && path && site_of(t, path, pc) != NULL;
}

void tnorm__mtrap_counts(const tnorm__mtrap *t, size_t *sites, size_t *trapped, size_t *shared)
{
	size_t i;
	*sites = *trapped = *shared = 0;
	for (i = 0; t && i < t->ns; i++) {
		*sites += 1;
		*trapped += t->s[i].ne;
		*shared += t->s[i].shared;
	}
}

/* ---- decoding ---- */

/* A branch's or call's target and displacement field into x (ci decoded with details). */
static void branch_of(const cs_insn *ci, int call, insn *x)
{
	const cs_x86 *d = &ci->detail->x86;
	const cs_x86_op *op = &d->operands[0];
	size_t off = d->encoding.imm_offset, len = d->encoding.imm_size, i;
	uint32_t raw = 0;
	int64_t rel;
	if (d->op_count == 1 && op->type == X86_OP_IMM) {
		x->target = (uint64_t)op->imm;
		/* The displacement field, where capstone says it is, if it holds what the target says. */
		if (!off || (len != 1 && len != 4) || off + len != ci->size)
			return;
		for (i = 0; i < len; i++)
			raw |= (uint32_t)ci->bytes[off + i] << (8 * i);
		rel = len == 1 ? (int8_t)raw : (int32_t)raw;
		if (x->addr + x->size + (uint64_t)rel == x->target) {
			x->rel_off = (uint8_t)off;
			x->rel_size = (uint8_t)len;
		}
	} else if (call && d->op_count == 1 && op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
	           op->mem.index == X86_REG_INVALID) {
		/* through a pointer of the module's (-fno-plt): the pointer's address, marked */
		x->target = (x->addr + x->size + (uint64_t)op->mem.disp) | (1ull << 63);
	} else if (!call) {
		x->kind = K_INDIRECT;
	}
}

/* The instructions of r, decoded linearly (a byte that does not decode is skipped). */
static int decode(csh cs, const tnorm__code_range *r, insn **out, size_t *n)
{
	const uint8_t *code = r->bytes;
	size_t size = (size_t)(r->hi - r->lo), cap = 0, k = 0;
	uint64_t addr = r->lo;
	insn *v = NULL;
	cs_insn *ci = cs_malloc(cs);
	if (!ci)
		return TNORM_ENOMEM;
	while (size > 0) {
		insn x;
		const uint8_t *at = code;
		uint64_t a0 = addr;
		size_t s0 = size;
		memset(&x, 0, sizeof(x));
		if (!cs_disasm_iter(cs, &code, &size, &addr, ci)) {
			code = at + 1;
			size = s0 - 1;
			addr = a0 + 1;
			continue;
		}
		x.addr = ci->address;
		x.size = (uint8_t)ci->size;
		if (ci->id == X86_INS_INT3 || ci->id == X86_INS_UD2 || ci->id == X86_INS_HLT) {
			x.kind = K_STOP;
		} else if (cs_insn_group(cs, ci, CS_GRP_RET)) {
			x.kind = K_RET;
		} else if (cs_insn_group(cs, ci, CS_GRP_CALL)) {
			x.kind = K_CALL;
			branch_of(ci, 1, &x);
		} else if (cs_insn_group(cs, ci, CS_GRP_JUMP)) {
			x.kind = ci->id == X86_INS_JMP ? K_JMP : K_JCC;
			branch_of(ci, 0, &x);
		}
		if (k == cap) {
			size_t nc = cap ? cap * 2 : 256;
			insn *nv = tnorm__reallocarray(v, nc, sizeof(*nv));
			if (!nv) {
				free(v);
				cs_free(ci, 1);
				return TNORM_ENOMEM;
			}
			v = nv;
			cap = nc;
		}
		v[k++] = x;
	}
	cs_free(ci, 1);
	*out = v;
	*n = k;
	return 0;
}

/* Whether [a, a+len) overlaps a patch of any site, or of the patches p[0..np) being built. */
static int taken(const tnorm__mtrap *t, const char *path, const patch *p, size_t np, uint64_t a,
                 size_t len)
{
	size_t i, k;
	for (k = 0; k < np; k++)
		if (a < p[k].vaddr + p[k].len && p[k].vaddr < a + len)
			return 1;
	for (i = 0; i < t->ns; i++) {
		if (strcmp(t->s[i].path, path))
			continue;
		for (k = 0; k < t->s[i].np; k++)
			if (a < t->s[i].p[k].vaddr + t->s[i].p[k].len && t->s[i].p[k].vaddr < a + len)
				return 1;
	}
	return 0;
}

/* The file's byte at module-relative a, from the decoded ranges (with their filler). */
static int code_byte(const tnorm__code_range *cr, size_t ncr, uint64_t a, unsigned char *b)
{
	size_t i;
	for (i = 0; i < ncr; i++)
		if (a >= cr[i].lo && a < cr[i].pad_hi) {
			*b = cr[i].bytes[a - cr[i].lo];
			return 0;
		}
	return -1;
}

static int add_patch(patch *p, size_t *np, const tnorm__code_range *cr, size_t ncr, uint64_t a,
                     const unsigned char *bytes, size_t len)
{
	size_t k;
	p[*np].vaddr = a;
	p[*np].len = (uint8_t)len;
	for (k = 0; k < len; k++)
		if (code_byte(cr, ncr, a + k, &p[*np].orig[k]) < 0)
			return -1;
	memcpy(p[*np].patch, bytes, len);
	(*np)++;
	return 0;
}

/* A pad for the conditional jump j: a free byte of [lo, hi) within its displacement's reach. */
static int find_pad(const tnorm__mtrap *t, const char *path, const patch *p, size_t np,
                    const insn *j, uint64_t lo, uint64_t hi, uint64_t *pad)
{
	uint64_t a, next = j->addr + j->size;
	int64_t min = j->rel_size == 1 ? -128 : INT32_MIN, max = j->rel_size == 1 ? 127 : INT32_MAX;
	for (a = lo; a < hi; a++) {
		int64_t d = (int64_t)(a - next);
		if (d >= min && d <= max && !taken(t, path, p, np, a, 1)) {
			*pad = a;
			return 0;
		}
	}
	return -1;
}

/* The check's address for an entry at instruction index i of v: the instruction itself, or when
 * its row has no line, the nearest one before it (in its range) that has. */
static uint64_t lined_at(tnorm__symcache *syms, const char *path, const insn *v, size_t i)
{
	size_t k;
	for (k = 0; k < 64 && k <= i; k++)
		if (!tnorm__symcache_noline(syms, path, v[i - k].addr))
			return v[i - k].addr;
	return v[i].addr;
}

/* The check's address for an entry into the region v[j..ci] at `target` from instruction qv[qk]:
 * the last instruction with a line that runs before the merged code (the region's first one in a
 * row of no line), or the entry's own when that is the first (or the region is in a cold part,
 * whose rows have the line of one of the calls merged). */
static uint64_t check_at(tnorm__symcache *syms, const char *path, const insn *v, size_t j,
                         size_t ci, uint64_t target, int cold, const insn *qv, size_t qk)
{
	size_t k, last = ci + 1;
	for (k = j; !cold && k <= ci; k++) {
		if (v[k].addr < target)
			continue;
		if (tnorm__symcache_noline(syms, path, v[k].addr))
			break;
		last = k;
	}
	return last <= ci ? v[last].addr : lined_at(syms, path, qv, qk);
}

/* Whether the function called at q (a direct call, or one through a pointer of the module's, as
 * -fno-plt builds call) is one that does not return: the same as the merged call's, or one of
 * the usual names (the check before it is another block, whatever the layout). */
static int ends_block(tnorm__symcache *syms, const char *path, const insn *q, const insn *c)
{
	static const char *const names[] = {"abort", "exit", "_exit", "_Exit", "__assert_fail",
	                                    "__assert_perror_fail", "__stack_chk_fail", "__cxa_throw",
	                                    "longjmp", "siglongjmp", "__longjmp_chk", NULL};
	tnorm_frame f;
	size_t i;
	int rc;
	if (q->kind != K_CALL || !q->target)
		return 0;
	if (q->target == c->target)
		return 1;
	if ((q->target >> 63) || !tnorm__symbolize_module(syms, path, q->target, 1, &f, 1) || !f.function)
		return 0;
	if ((rc = tnorm__sanitizer_report_noreturn(f.function)) >= 0)
		return rc;
	for (i = 0; names[i]; i++)
		if (!strcmp(f.function, names[i]))
			return 1;
	return 0;
}

/* The first instruction of the region of the call v[ci]: back to the first one after a jump, a
 * return, a trap or a call that does not return. */
static size_t region_start(tnorm__symcache *syms, const char *path, const insn *v, size_t ci)
{
	size_t j;
	for (j = ci; j > 0; j--) {
		const insn *q = &v[j - 1];
		if (q->kind == K_JMP || q->kind == K_JCC || q->kind == K_RET || q->kind == K_STOP ||
		    q->kind == K_INDIRECT || ends_block(syms, path, q, &v[ci]))
			break;
	}
	return j;
}

/* A trap for entry q, a jump into [region, end) (`fall`: the region's first byte is the
 * fall-through's): e->trap and e->resume set and its patches added to s, or -1 (none free). */
static int trap_jump(const tnorm__mtrap *t, site *s, const tnorm__code_range *cr, size_t ncr,
                     const insn *q, uint64_t region, uint64_t end, int fall, entry *e)
{
	static const unsigned char int3 = INT3;
	uint64_t pad = 0;
	size_t r, np0 = s->np;
	int64_t d;
	unsigned char rel[4];
	if (q->kind == K_JMP && !taken(t, s->path, s->p, s->np, q->addr, 1) &&
	    add_patch(s->p, &s->np, cr, ncr, q->addr, &int3, 1) == 0) {
		e->trap = e->resume = q->addr;
		return 0;
	}
	if (q->kind != K_JCC || !q->rel_size ||
	    taken(t, s->path, s->p, s->np, q->addr + q->rel_off, q->rel_size))
		return -1;
	/* A pad: the region first (past the fall-through's byte), then any filler. */
	if (find_pad(t, s->path, s->p, s->np, q, region + (uint64_t)fall, end, &pad) < 0) {
		for (r = 0; r < ncr; r++)
			if (find_pad(t, s->path, s->p, s->np, q, cr[r].hi, cr[r].pad_hi, &pad) == 0)
				break;
		if (r == ncr)
			return -1;
	}
	d = (int64_t)(pad - (q->addr + q->size));
	for (r = 0; r < 4; r++)
		rel[r] = (unsigned char)((uint64_t)d >> (8 * r));
	if (add_patch(s->p, &s->np, cr, ncr, pad, &int3, 1) < 0 ||
	    add_patch(s->p, &s->np, cr, ncr, q->addr + q->rel_off, rel, q->rel_size) < 0) {
		s->np = np0;
		return -1;
	}
	e->trap = pad;
	e->resume = q->target;
	return 0;
}

/* The region and entries of the call at pc in the decoded ranges; fills s. */
static int analyze(tnorm__mtrap *t, tnorm__symcache *syms, site *s, const tnorm__code_range *cr,
                   size_t ncr, insn **dv, const size_t *dn, uint64_t pc)
{
	static const unsigned char int3 = INT3;
	size_t ri = ncr, ci = 0, j, i, k, cap = 1;
	const insn *v, *c;
	uint64_t region, end;
	int fall, cold;
	for (i = 0; i < ncr && ri == ncr; i++)
		for (k = 0; k < dn[i]; k++)
			if (pc >= dv[i][k].addr && pc < dv[i][k].addr + dv[i][k].size) {
				ri = i;
				ci = k;
				break;
			}
	if (ri == ncr || dv[ri][ci].kind != K_CALL)
		return 0; /* not a call we can see: a site with no entries */
	v = dv[ri];
	c = &v[ci];
	s->call = c->addr;
	s->call_end = end = c->addr + c->size;
	j = region_start(syms, s->path, v, ci);
	region = v[j].addr;
	cold = tnorm__symcache_merged(syms, s->path, c->addr) == 2;
	fall = j > 0 && v[j - 1].kind == K_JCC && !(v[j - 1].target >= region && v[j - 1].target < end);
	for (i = 0; i < ncr; i++)
		for (k = 0; k < dn[i]; k++)
			cap += (dv[i][k].kind == K_JMP || dv[i][k].kind == K_JCC) &&
			       dv[i][k].target >= region && dv[i][k].target < end;
	if (!(s->e = tnorm__calloc(cap, sizeof(*s->e))) || !(s->p = tnorm__calloc(2 * cap, sizeof(*s->p))))
		return TNORM_ENOMEM;
	if (fall && !taken(t, s->path, s->p, s->np, region, 1) &&
	    add_patch(s->p, &s->np, cr, ncr, region, &int3, 1) == 0) {
		s->e[s->ne].at = check_at(syms, s->path, v, j, ci, region, cold, v, j - 1);
		s->e[s->ne].trap = s->e[s->ne].resume = region;
		s->ne++;
	} else if (fall) {
		s->shared++;
	}
	for (i = 0; i < ncr; i++)
		for (k = 0; k < dn[i]; k++) {
			const insn *q = &dv[i][k];
			if ((q->kind != K_JMP && q->kind != K_JCC) || q->target < region || q->target >= end)
				continue;
			if (trap_jump(t, s, cr, ncr, q, region, end, fall, &s->e[s->ne]) < 0) {
				s->shared++;
				continue;
			}
			s->e[s->ne++].at = check_at(syms, s->path, v, j, ci, q->target, cold, dv[i], k);
		}
	return 0;
}

static int cmp_patch(const void *a, const void *b)
{
	const patch *x = a, *y = b;
	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

int tnorm__mtrap_add(tnorm__mtrap *t, tnorm__symcache *syms, const char *path, uint64_t pc)
{
	tnorm__code_range *cr = NULL;
	insn **dv = NULL;
	size_t ncr = 0, *dn = NULL, i;
	site *ns, *s;
	csh cs = 0;
	int err = 0;
	if (!(ns = tnorm__reallocarray(t->s, t->ns + 1, sizeof(*ns))))
		return TNORM_ENOMEM;
	t->s = ns;
	s = &t->s[t->ns];
	memset(s, 0, sizeof(*s));
	s->fired = -1;
	s->call = pc;
	s->call_end = pc + 1;
	if (!(s->path = tnorm__strdup(path)))
		return TNORM_ENOMEM;
	t->ns++;
	if (tnorm__symcache_func_code(syms, path, pc, &cr, &ncr) < 0)
		return 0; /* (TNORM_ENOMEM there too: the site stays without entries) */
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		tnorm__code_ranges_free(cr, ncr);
		return 0;
	}
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (!(dv = tnorm__calloc(ncr, sizeof(*dv))) || !(dn = tnorm__calloc(ncr, sizeof(*dn)))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	for (i = 0; i < ncr; i++)
		if ((err = decode(cs, &cr[i], &dv[i], &dn[i])) < 0)
			goto done;
	err = analyze(t, syms, s, cr, ncr, dv, dn, pc);
	qsort(s->p, s->np, sizeof(*s->p), cmp_patch);
done:
	if (err < 0) {
		s->ne = s->np = 0;
		err = 0;
	}
	for (i = 0; dv && i < ncr; i++)
		free(dv[i]);
	free(dv);
	free(dn);
	cs_close(&cs);
	tnorm__code_ranges_free(cr, ncr);
	return err;
}

void tnorm__mtrap_untrap(tnorm__mtrap *t)
{
	size_t i;
	for (i = 0; t && i < t->ns; i++) {
		t->s[i].shared += t->s[i].ne;
		t->s[i].ne = t->s[i].np = 0;
	}
}

/* ---- the runs ---- */

/* Write site s's patches (their new bytes, or with `orig` the original ones) into the process
 * of memfd at bias, cluster by cluster; with `check`, each cluster is first read and must hold
 * the bytes the other state has (0 or -1: nothing of a failed cluster written).  Without it,
 * putting the original bytes back leaves a byte that is no longer the patch's alone (another
 * breakpoint's: a coverage probe armed after the traps). */
static int put_site(int fd, const site *s, uint64_t bias, int orig, int check)
{
	unsigned char buf[CLUSTER_GAP * 2 + 8];
	size_t a = 0, b, k, j;
	int ok = 0;
	while (a < s->np) {
		uint64_t lo = s->p[a].vaddr, hi = lo + s->p[a].len;
		for (b = a + 1; b < s->np && s->p[b].vaddr < lo + CLUSTER_GAP; b++)
			if (s->p[b].vaddr + s->p[b].len > hi)
				hi = s->p[b].vaddr + s->p[b].len;
		if (hi - lo > sizeof(buf) ||
		    pread(fd, buf, (size_t)(hi - lo), (off_t)(lo + bias)) != (ssize_t)(hi - lo))
			return -1;
		for (k = a; k < b; k++)
			for (j = 0; j < s->p[k].len; j++) {
				unsigned char *at = &buf[s->p[k].vaddr - lo + j];
				if (check && *at != (orig ? s->p[k].patch[j] : s->p[k].orig[j]))
					ok = -1;
				if (!orig)
					*at = s->p[k].patch[j];
				else if (check || *at == s->p[k].patch[j])
					*at = s->p[k].orig[j];
			}
		if (ok < 0)
			return -1;
		if (pwrite(fd, buf, (size_t)(hi - lo), (off_t)(lo + bias)) != (ssize_t)(hi - lo))
			return -1;
		a = b;
	}
	return 0;
}

void tnorm__mtrap_arm(tnorm__mtrap *t, tnorm__symcache *syms, pid_t pid)
{
#if defined(__x86_64__)
	char path[64], *maps = NULL;
	size_t i;
	tnorm__mtrap_end(t);
	for (i = 0; i < t->ns; i++) {
		t->s[i].armed = 0;
		t->s[i].fired = -1;
	}
	if (!t->ns)
		return;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	if ((t->memfd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return;
	t->pid = pid;
	for (i = 0; i < t->ns; i++) {
		site *s = &t->s[i];
		uint64_t at;
		if (!s->np)
			continue;
		if (s->have_bias && put_site(t->memfd, s, s->bias, 0, 1) == 0) {
			s->armed = 1;
			continue;
		}
		/* Where the module is in this process (first arm, or it moved). */
		if (!maps) {
			snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
			if (tnorm__read_file(path, &maps, NULL) < 0)
				break;
		}
		if (tnorm__symcache_proc_addr(syms, maps, s->path, s->call, &at) < 0)
			continue;
		s->bias = at - s->call;
		s->have_bias = 1;
		s->armed = put_site(t->memfd, s, s->bias, 0, 1) == 0;
	}
	free(maps);
#else
	(void)t;
	(void)syms;
	(void)pid;
#endif
}

void tnorm__mtrap_reset(tnorm__mtrap *t)
{
	size_t i;
	for (i = 0; t && i < t->ns; i++)
		t->s[i].fired = -1;
}

#if defined(__x86_64__)
/* The armed site and entry whose int3 stopped `tid` (registers in *regs): 0, or -1. */
static int our_trap(const tnorm__mtrap *t, pid_t tid, struct user_regs_struct *regs, size_t *si,
                    size_t *ei)
{
	siginfo_t info;
	size_t i, k;
	if (ptrace(PTRACE_GETSIGINFO, tid, NULL, &info) < 0 || info.si_code != SI_KERNEL ||
	    ptrace(PTRACE_GETREGS, tid, NULL, regs) < 0 || regs->rip == 0)
		return -1;
	for (i = 0; i < t->ns; i++) {
		const site *s = &t->s[i];
		if (!s->armed)
			continue;
		for (k = 0; k < s->ne; k++)
			if (s->e[k].trap + s->bias == (uint64_t)regs->rip - 1) {
				*si = i;
				*ei = k;
				return 0;
			}
	}
	return -1;
}
#endif

/* A trap's stop of thread `tid`, of the armed process or (`foreign`) of another: the site's
 * bytes back there, the thread on to where the entry went; recorded in the armed process only. */
static int take_trap(tnorm__mtrap *t, pid_t tid, int foreign)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	char path[64];
	unsigned char b = 0;
	size_t i, k;
	int fd, ok;
	if (!t || our_trap(t, tid, &regs, &i, &k) < 0)
		return 0;
	if ((fd = foreign ? -1 : t->memfd) < 0) {
		/* (the armed process of a persistent child's later candidate: its run is over) */
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
		if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
			return 0;
		if (!foreign)
			t->memfd = fd;
	}
	/* In another process, ours only if the byte is still an int3 (it may have exec'd another
	 * image).  In the armed one, another thread may have put the bytes back already: writing
	 * them again does no harm. */
	ok = (!foreign || (pread(fd, &b, 1, (off_t)(regs.rip - 1)) == 1 && b == INT3)) &&
	     put_site(fd, &t->s[i], t->s[i].bias, 1, 0) == 0;
	if (foreign)
		close(fd);
	if (!ok)
		return 0;
	if (!foreign && t->s[i].fired < 0)
		t->s[i].fired = (long)k;
	regs.rip = t->s[i].e[k].resume + t->s[i].bias;
	return ptrace(PTRACE_SETREGS, tid, NULL, &regs) == 0;
#else
	(void)t;
	(void)tid;
	(void)foreign;
	return 0;
#endif
}

int tnorm__mtrap_trap(tnorm__mtrap *t, pid_t tid)
{
	return take_trap(t, tid, 0);
}

int tnorm__mtrap_foreign(tnorm__mtrap *t, pid_t tid)
{
	return take_trap(t, tid, 1);
}

void tnorm__mtrap_disarm(tnorm__mtrap *t)
{
	size_t i;
	if (!t)
		return;
	for (i = 0; t->memfd >= 0 && i < t->ns; i++)
		if (t->s[i].armed)
			put_site(t->memfd, &t->s[i], t->s[i].bias, 1, 0);
	for (i = 0; i < t->ns; i++)
		t->s[i].armed = 0;
	tnorm__mtrap_end(t);
}

void tnorm__mtrap_end(tnorm__mtrap *t)
{
	if (!t)
		return;
	if (t->memfd >= 0)
		close(t->memfd);
	t->memfd = -1;
	t->pid = 0;
}

int tnorm__mtrap_fired(const tnorm__mtrap *t, const char *path, uint64_t pc, uint64_t *at)
{
	const site *s = t && path ? site_of(t, path, pc) : NULL;
	if (!s || s->fired < 0)
		return -1;
	*at = s->e[s->fired].at;
	return 0;
}

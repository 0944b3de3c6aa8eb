/* SPDX-License-Identifier: MIT */
/*
 * unwind.c - the stack of a stopped thread of a run's program, as the run's signature.
 *
 * The tracer thread (tracer.c) calls tnorm__unwind at a fatal stop, and at the exit stop of a
 * program that exits nonzero, while the thread is stopped under ptrace: libunwind-ptrace walks
 * the stack, signature.c makes the pcs into frames (tnorm__frames_from_pcs: symbolized, inlined
 * calls expanded), and they become the run's signature.  Unwinding is most of what a failure
 * costs, so the runner's address space reads memory and finds unwind tables its own way, over
 * pages it keeps for the walk and the symbol cache's parsed modules (below).
 *
 * Merged abort sites are resolved here too, because the resolution is a rewrite of the unwound
 * frames: a failure at a call the compiler merged from several checks went through one of the
 * traps mergetrap.c put on the jumps to it (the runner arms them in every run once it met the
 * site), and the frames of the jump whose trap fired go in the merged call's place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <libunwind-ptrace.h>

#include "cxxexc.h"
#include "runner_internal.h"
#include "signature_internal.h"

/*
 * Reading the stopped thread's memory.  libunwind-ptrace reads it a word at a time with
 * PTRACE_PEEKDATA, one system call per word, and the stack walk and the .eh_frame_hdr searches
 * read hundreds of words per failure.  The runner's address space has libunwind-ptrace's
 * accessors but for reads, which take a whole page with process_vm_readv and keep it for the rest
 * of the unwind (the thread is stopped).  A page that cannot be read so goes back to PEEKDATA.
 *
 * Most pages a walk reads are the modules' unwind tables and FDEs (.eh_frame_hdr, .eh_frame: a
 * dozen pages of libc and the program for an AVL failure, the stack two or three), and they are
 * the same in the next failure's walk: those of a read-only file mapping (r--p) are kept from
 * one unwind to the next while the memory map is the same (ASLR is off: runs of one binary map
 * it alike), as libunwind's own cache of what it parsed there is (`last_maps`).  Writable pages
 * (the stack) and code (a probe's breakpoints come and go) are read again in every walk.
 *
 * Finding a frame's unwind information.  libunwind-ptrace's find_proc_info reads
 * /proc/PID/maps, opens and maps the module's file each time a frame is in another module than
 * the last, and unmaps it at the next change (a TLB shootdown each, the caller having threads):
 * most of a failure's unwinding cost.  The runner's symbol cache has those files parsed already,
 * so the address space's find_proc_info asks it where the module's .eh_frame_hdr table lies and
 * has libunwind search it there (the table and the FDEs read through the pages below).  A module
 * the cache cannot place goes to libunwind-ptrace's own.
 *
 * libunwind hands its callbacks only libunwind-ptrace's handle (find_proc_info passes it on to
 * the reads it makes), so the pages of the unwind under way are reached through a thread-local
 * pointer, set by tnorm__unwind for the length of one walk in this thread and NULL otherwise.
 * All of it lives in one block the runner keeps (r->unwinder, made at its first unwind, freed
 * with it): a walk allocates nothing.
 */
#define REMOTE_PAGES 16 /* this walk's pages (slot: page number modulo) */
#define KEPT_PAGES 64   /* pages of read-only file mappings, kept while the map is the same */
#define KEPT_RANGES 256 /* read-only file mappings of the map (more are read as others are) */
#define REMOTE_PAGE 4096

struct tnorm__unwinder {
	void *upt; /* libunwind-ptrace's handle, the callbacks' argument */
	pid_t tid;
	tnorm__symcache *syms;
	const char *maps;            /* the thread's memory map (NULL if unread) */
	uint64_t base[REMOTE_PAGES]; /* page address + 1; 0: the slot is empty */
	uint64_t kept[KEPT_PAGES];   /* the same for the kept pages */
	size_t nro;                  /* the map's read-only file mappings, in address order */
	uint64_t ro_lo[KEPT_RANGES], ro_hi[KEPT_RANGES];
	unsigned char page[REMOTE_PAGES][REMOTE_PAGE];
	unsigned char kpage[KEPT_PAGES][REMOTE_PAGE];
	unw_cursor_t at[TNORM__MAX_FRAMES]; /* the cursor at each frame of the walk */
};
typedef struct tnorm__unwinder remote;

static __thread remote *unwinding;

/* A new memory map: no page is kept, and its read-only file mappings are those of `maps`. */
static void kept_reset(remote *rm, const char *maps)
{
	const char *p;
	memset(rm->kept, 0, sizeof(rm->kept));
	rm->nro = 0;
	for (p = maps; p && *p && rm->nro < KEPT_RANGES;) {
		unsigned long long lo, hi;
		char perms[8];
		int k = 0;
		const char *nl = strchr(p, '\n');
		if (sscanf(p, "%llx-%llx %7s %*s %*s %*s %n", &lo, &hi, perms, &k) == 3 && k > 0 &&
		    (!nl || p + k < nl) && p[k] == '/' && !strcmp(perms, "r--p")) {
			rm->ro_lo[rm->nro] = lo;
			rm->ro_hi[rm->nro++] = hi;
		}
		p = nl ? nl + 1 : NULL;
	}
}

/* 1 when page address `page` lies in a read-only file mapping. */
static int kept_range(const remote *rm, uint64_t page)
{
	size_t lo = 0, hi = rm->nro;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rm->ro_lo[mid] <= page)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && page < rm->ro_hi[lo - 1];
}

static int rm_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
                         void *arg)
{
	remote *rm = unwinding;
	uint64_t page = (uint64_t)addr & ~(uint64_t)(REMOTE_PAGE - 1), *base;
	size_t pn = (size_t)(page / REMOTE_PAGE);
	unsigned char *buf;
	if (!rm || arg != rm->upt || write || addr - page > REMOTE_PAGE - sizeof(*val))
		return _UPT_access_mem(as, addr, val, write, arg);
	base = &rm->base[pn % REMOTE_PAGES];
	buf = rm->page[pn % REMOTE_PAGES];
	if (*base != page + 1 && rm->kept[pn % KEPT_PAGES] == page + 1) {
		base = &rm->kept[pn % KEPT_PAGES];
		buf = rm->kpage[pn % KEPT_PAGES];
	} else if (*base != page + 1) {
		struct iovec local, far = {(void *)(uintptr_t)page, REMOTE_PAGE};
		if (kept_range(rm, page)) {
			base = &rm->kept[pn % KEPT_PAGES];
			buf = rm->kpage[pn % KEPT_PAGES];
		}
		local.iov_base = buf;
		local.iov_len = REMOTE_PAGE;
		*base = 0;
		if (process_vm_readv(rm->tid, &local, 1, &far, 1, 0) != REMOTE_PAGE)
			return _UPT_access_mem(as, addr, val, write, arg);
		*base = page + 1;
	}
	memcpy(val, buf + (addr - page), sizeof(*val));
	return 0;
}

/* libunwind's search of a remote .eh_frame_hdr table: exported by libunwind-x86_64 (it is what
 * libunwind-ptrace's _UPT_find_proc_info calls), though no header declares it. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
                                              unw_dyn_info_t *di, unw_proc_info_t *pi,
                                              int need_unwind_info, void *arg);

static int rm_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
                             int need_unwind_info, void *arg)
{
	remote *rm = unwinding;
	tnorm__unwind_table t;
	unw_dyn_info_t di;
	if (rm && arg == rm->upt && tnorm__symcache_unwind_table(rm->syms, rm->maps, ip, &t) == 0) {
		memset(&di, 0, sizeof(di));
		di.start_ip = t.start_ip;
		di.end_ip = t.end_ip;
		di.gp = t.gp;
		di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
		di.u.rti.segbase = t.hdr;
		di.u.rti.table_data = t.table;
		di.u.rti.table_len = t.count * 8 / sizeof(unw_word_t);
		if (UNW_OBJ(dwarf_search_unwind_table)(as, ip, &di, pi, need_unwind_info, arg) >= 0)
			return 0;
	}
	return _UPT_find_proc_info(as, ip, pi, need_unwind_info, arg);
}


int tnorm__unwind_space_new(unw_addr_space_t *out)
{
	unw_accessors_t acc = _UPT_accessors; /* copied by libunwind */
	acc.access_mem = rm_access_mem;
	acc.find_proc_info = rm_find_proc_info;
	if (!(*out = unw_create_addr_space(&acc, 0)))
		return tnorm__error_set(TNORM_ENOMEM, "libunwind: cannot create an address space");
	unw_set_caching_policy(*out, UNW_CACHE_GLOBAL);
	return 0;
}

/*
 * Merged abort sites.  clang merges the abort() calls of several inlined checks of a function
 * (asserts, a fail() helper) into one call, which its line table gives line 0; gcc moves them
 * into the function's cold part: every check of the function then fails at one address, and its
 * failures have one signature, whichever check failed.  The first time a run fails at such a
 * call (merged_call), the runner makes it a site (mergetrap.h): every jump into the code that
 * ends in the call gets a trap of its own, armed in every run from then on, and the run is made
 * again.  In a run with the traps, the one that fired names the check: the frames of its jump
 * (with the functions inlined there, innermost first, as a build without the merge would show
 * them) replace the merged call's frames in the signature.  The traps cost one stop per failing
 * run, whatever the run's length, and the target and every candidate are run with them, so that
 * their signatures compare check by check.
 */

/* The throwing frame of frames[0..n): the first one that is not the runtime's; n if none. */
static size_t first_user_frame(const tnorm_frame *frames, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (frames[i].function && !tnorm_frame_is_runtime(frames[i].function, frames[i].module))
			return i;
	return n;
}

/* Whether frames[i], a user frame that called frames[i-1] (the runtime), stopped at a merged
 * abort site: a call of line 0 (clang), or a call of abort() in the cold part of its function
 * (gcc moves the calls it merges there, and gives the merged call the line of one of them). */
static int merged_call(tnorm_runner *r, const tnorm_frame *frames, size_t n, size_t i)
{
	const tnorm_frame *f = &frames[i];
	int how;
	if (i == 0 || i >= n || !f->module || f->module[0] != '/' || !f->offset ||
	    !(how = tnorm__symcache_merged(r->syms, f->module, f->offset)))
		return 0;
	return how == 1 ? f->line == 0
	                : frames[i - 1].function && !strcmp(frames[i - 1].function, "abort");
}

/* In a run with the traps: the merged call's frames (frames[i..j), one pc) become those of the
 * check whose trap fired.  Returns the new frame count. */
static size_t resolve_merged(tnorm_runner *r, tnorm_frame *frames, size_t n, size_t max)
{
	tnorm_frame got[16];
	uint64_t at;
	size_t i = first_user_frame(frames, n), j, k, ng;
	if (!merged_call(r, frames, n, i) ||
	    tnorm__mtrap_fired(r->mtrap, frames[i].module, frames[i].offset, &at) < 0)
		return n;
	for (j = i; j < n && frames[j].pc == frames[i].pc; j++)
		;
	ng = tnorm__symbolize_module(r->syms, frames[i].module, at, 1, got,
	                             sizeof(got) / sizeof(got[0]));
	if (!ng || !got[0].function || n - (j - i) + ng > max)
		return n;
	memmove(&frames[i + ng], &frames[j], (n - j) * sizeof(*frames));
	for (k = 0; k < ng; k++)
		frames[i + k] = got[k];
	return n - (j - i) + ng;
}

/* The module and module-relative address of a signature's throwing call when it lies in code
 * the compiler merged from several lines (a line-0 row); NULL otherwise. */
const tnorm_frame *tnorm__merged_site(tnorm_runner *r, const tnorm_signature *sig)
{
	size_t i = tnorm_signature_throwing(sig), n = tnorm_signature_frame_count(sig);
	const tnorm_frame *f = tnorm_signature_frame(sig, 0);
	return f && merged_call(r, f, n, i) ? &f[i] : NULL;
}

int tnorm__merged_known(tnorm_runner *r, const tnorm_frame *f)
{
	return tnorm__mtrap_known(r->mtrap, f->module, f->offset);
}

int tnorm__merged_learn(tnorm_runner *r, const tnorm_frame *f)
{
	int err;
	if (!r->mtrap && (err = tnorm__mtrap_new(&r->mtrap)) < 0)
		return err;
	return tnorm__mtrap_add(r->mtrap, r->syms, f->module, f->offset);
}

/*
 * A frame's function start, for a frame the symbol cache cannot name (a stripped module):
 * unw_get_proc_info on the cursor kept at that frame.  libunwind has no cached answer to that:
 * it finds and parses the frame's FDE and runs its CFI program again, taking its mempool's lock
 * (two rt_sigprocmask) twice, which per frame was most of a failure's unwinding.  So it is asked
 * only for the frames that need it, after the walk (the thread is still stopped, the cursors
 * are copies: asking changes nothing unw_step reads).
 */
static uint64_t frame_start(void *arg, size_t i)
{
	remote *rm = arg;
	unw_proc_info_t pi;
	return unw_get_proc_info(&rm->at[i], &pi) == 0 ? (uint64_t)pi.start_ip : 0;
}

/*
 * An abort in the C++ runtime's throw or terminate code: the exception it aborts with
 * (cxxexc.c), found among the callee-saved registers of the machine frames up to the throwing
 * one, as the unwinder restores them for each, and the words of their stack.  On 1, *kind is
 * "uncaught TYPE" and *what the exception's text or NULL (both allocated).  Called during the
 * walk (the cursors read the stack through it).
 */
static int uncaught_exception(tnorm_runner *r, remote *rm, const tnorm_frame *frames, size_t n,
                              const uint64_t *pcs, size_t npcs, char **kind, char **what,
                              size_t *what_len)
{
	static const int saved[] = {UNW_X86_64_RBX, UNW_X86_64_RBP, UNW_X86_64_R12,
	                            UNW_X86_64_R13, UNW_X86_64_R14, UNW_X86_64_R15};
	uint64_t regs[TNORM__MAX_FRAMES * 6];
	unw_word_t v, lo = 0, hi = 0;
	size_t t = first_user_frame(frames, n), j, i, k, nregs = 0;
	if (t >= n || !tnorm__cxx_throw_frames(frames, n))
		return 0;
	for (j = 0; j < npcs && pcs[j] != frames[t].pc; j++)
		;
	if (j == npcs)
		return 0;
	for (i = 0; i <= j; i++)
		for (k = 0; k < sizeof(saved) / sizeof(saved[0]); k++)
			if (unw_get_reg(&rm->at[i], saved[k], &v) == 0)
				regs[nregs++] = (uint64_t)v;
	if (unw_get_reg(&rm->at[0], UNW_REG_SP, &lo) < 0 || unw_get_reg(&rm->at[j], UNW_REG_SP, &hi) < 0)
		lo = hi = 0;
	return tnorm__cxx_exception(rm->tid, r->syms, rm->maps, regs, nregs, (uint64_t)lo,
	                            (uint64_t)hi, kind, what, what_len);
}

/* Unwind the stopped thread `tid` of process `pid` and build its signature. */
void tnorm__unwind(tnorm_runner *r, pid_t pid, pid_t tid, const char *kind, tnorm_signature **out)
{
	tnorm_frame frames[TNORM__MAX_FRAMES];
	uint64_t pcs[TNORM__MAX_FRAMES];
	char names[TNORM__MAX_FRAMES][32];
	char mpath[64], *maps = NULL, *xkind = NULL, *what = NULL;
	size_t n = 0, npcs = 0, what_len = 0;
	remote *rm = r->unwinder;
	int walked = 0;

	/* The thread's own view of the memory map: during an exit_group the leader may be gone
	 * while the thread that called exit() is still stopped. */
	snprintf(mpath, sizeof(mpath), "/proc/%d/task/%d/maps", (int)pid, (int)tid);
	if (tnorm__read_file(mpath, &maps, NULL) < 0)
		maps = NULL;
	if (r->as && !rm && (rm = r->unwinder = tnorm__malloc(sizeof(*rm))) != NULL)
		kept_reset(rm, NULL);
	if (r->as && rm && (rm->upt = _UPT_create(tid)) != NULL) {
		unw_cursor_t *cur = &rm->at[0];
		rm->tid = tid;
		rm->syms = r->syms;
		rm->maps = maps;
		memset(rm->base, 0, sizeof(rm->base));
		if (!maps || !r->last_maps || strcmp(maps, r->last_maps)) {
			unw_flush_cache(r->as, 0, 0);
			free(r->last_maps);
			r->last_maps = maps ? tnorm__strdup(maps) : NULL;
			kept_reset(rm, r->last_maps);
		}
		unwinding = rm;
		if (unw_init_remote(cur, r->as, rm->upt) == 0) {
			for (;;) {
				unw_word_t ip = 0;
				if (unw_get_reg(cur, UNW_REG_IP, &ip) < 0 || ip == 0)
					break;
				pcs[npcs++] = (uint64_t)ip;
				if (npcs == TNORM__MAX_FRAMES)
					break;
				rm->at[npcs] = *cur;
				cur = &rm->at[npcs];
				if (unw_step(cur) <= 0)
					break;
			}
		}
		n = tnorm__frames_from_pcs(r->syms, maps, pcs, frame_start, rm, npcs, frames, names,
		                           TNORM__MAX_FRAMES);
		if (!strcmp(kind, "SIGABRT"))
			uncaught_exception(r, rm, frames, n, pcs, npcs, &xkind, &what, &what_len);
		walked = 1;
		unwinding = NULL;
		_UPT_destroy(rm->upt);
	}
	if (!walked)
		n = tnorm__frames_from_pcs(r->syms, maps, pcs, NULL, NULL, 0, frames, names,
		                           TNORM__MAX_FRAMES);
	if (r->mtrap)
		n = resolve_merged(r, frames, n, TNORM__MAX_FRAMES);
	free(maps);
	tnorm_signature_free(*out);
	*out = NULL;
	if (tnorm_signature_new(out, xkind ? xkind : kind, frames, n) < 0)
		*out = NULL;
	else if (what && tnorm_signature_set_what(*out, what, what_len) < 0) {
		tnorm_signature_free(*out);
		*out = NULL;
	}
	free(xkind);
	free(what);
}

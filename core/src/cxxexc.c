/* SPDX-License-Identifier: MIT */
/*
 * cxxexc.c - an uncaught C++ exception as the failure's kind: the thrown object's type and its
 * what() text, read out of the stopped process at the abort.
 *
 * A C++ program that throws and never catches dies of SIGABRT in std::terminate, called from
 * __cxa_throw (or __cxa_rethrow, or a noexcept function's terminate call) with the throwing
 * frame still on the stack: tnorm always stopped it at the throw site.  What was thrown is not
 * in the stack but in the exception itself, which libstdc++ allocates with a header in front of
 * the thrown object: the type_info pointer first, the unwinder's header (_Unwind_Exception) last,
 * its first word the exception class "GNUCC++\0".  At the abort the throw code still holds the
 * pointer to it (it passed it to __cxa_begin_catch before calling std::terminate) in a
 * callee-saved register or a stack slot of its frames, so the unwinder's view of those (the
 * caller hands them over) is enough to find it: each word is tried, and the 64-bit exception
 * class tells a live exception from any other value.  Nothing runs in the program and nothing is
 * armed, so a program that throws and catches a million times costs what it did.
 *
 * Alternatives we did not take: a breakpoint on __cxa_throw records every throw's arguments (its
 * object and type_info) but costs a ptrace stop per throw, caught ones included; libstdc++'s
 * thread-local list of caught exceptions (__cxa_get_globals) sits in the library's TLS block,
 * whose address only glibc's private link map knows.
 *
 * The type is type_info::name() demangled (libstdc++'s demangler, as for function names).  The
 * what() text is read where it sits at a known place: for the std::logic_error and
 * std::runtime_error families (their what() is the base class's, which returns the message
 * string the object holds: a pointer right after the vtable pointer), recognized by the symbol of
 * the object's what() in its vtable.  Other types' what() would have to run; for those the text
 * libstdc++'s default terminate handler printed on stderr is used when it is there
 * (tnorm__cxx_what_from_stderr).  libc++abi's exceptions ("CLNGC++\0") have another layout and
 * are not read: such a failure stays SIGABRT.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "cxxexc.h"

#define CLASS_PRIMARY 0x474e5543432b2b00ULL   /* "GNUCC++\0", little-endian */
#define CLASS_DEPENDENT 0x474e5543432b2b01ULL /* "GNUCC++\1": std::rethrow_exception's */
#define UNWIND_HEADER_SIZE 32 /* _Unwind_Exception; the thrown object follows it */
#define HEADER_TO_UNWIND 80   /* __cxa_exception: exceptionType ... adjustedPtr, then unwindHeader */
#define NAME_LIMIT 512        /* bytes of a type's mangled name read at most */
#define WHAT_LIMIT 4096       /* bytes of a what() text read at most */
#define STACK_LIMIT 65536     /* bytes of the throw code's stack searched at most */

static int read_mem(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = {buf, len}, far = {(void *)(uintptr_t)addr, len};
	return addr && process_vm_readv(tid, &local, 1, &far, 1, 0) == (ssize_t)len ? 0 : -1;
}

static int read_word(pid_t tid, uint64_t addr, uint64_t *v)
{
	return read_mem(tid, addr, v, sizeof(*v));
}

/* The NUL-terminated string at addr, at most `limit` bytes, a byte at a time across pages only
 * where a whole chunk cannot be read (the end of a mapping).  Allocated, or NULL. */
static char *read_string(pid_t tid, uint64_t addr, size_t limit, size_t *len)
{
	char *buf = tnorm__malloc(limit + 1);
	size_t n = 0;
	if (!buf)
		return NULL;
	while (n < limit) {
		size_t chunk = 4096 - (size_t)((addr + n) & 4095);
		char *end;
		if (chunk > limit - n)
			chunk = limit - n;
		if (read_mem(tid, addr + n, buf + n, chunk) < 0)
			break;
		if ((end = memchr(buf + n, '\0', chunk)) != NULL) {
			n = (size_t)(end - buf);
			break;
		}
		n += chunk;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

int tnorm__cxx_throw_frames(const tnorm_frame *frames, size_t n)
{
	static const char *const prefixes[] = {"__cxa_throw", "__cxa_rethrow", "__cxa_call_terminate",
	                                       "__clang_call_terminate", "std::terminate",
	                                       "__gxx_personality_v0", "std::rethrow_exception", NULL};
	size_t i, k;
	for (i = 0; i < n && tnorm_frame_is_runtime(frames[i].function, frames[i].module); i++)
		for (k = 0; frames[i].function && prefixes[k]; k++)
			if (!strncmp(frames[i].function, prefixes[k], strlen(prefixes[k])))
				return 1;
	return 0;
}

/* The unwind header of the live libstdc++ exception that word `w` points to (as the unwind
 * header itself or as the thrown object), following a dependent exception to its primary one:
 * the thrown object's address into *obj and its type_info's into *tinfo.  0, or -1. */
static int exception_at(pid_t tid, uint64_t w, uint64_t *obj, uint64_t *tinfo)
{
	static const uint64_t offsets[] = {0, UNWIND_HEADER_SIZE};
	uint64_t cls, u, primary;
	size_t i;
	for (i = 0; i < 2; i++) {
		if (w < 4096 + offsets[i] || (w & 7))
			return -1;
		u = w - offsets[i];
		if (read_word(tid, u, &cls) < 0)
			continue;
		if (cls == CLASS_DEPENDENT) {
			/* __cxa_dependent_exception keeps __cxa_exception's layout, its first word the
			 * primary exception's thrown object. */
			if (read_word(tid, u - HEADER_TO_UNWIND, &primary) < 0 || primary < 4096 ||
			    read_word(tid, primary - UNWIND_HEADER_SIZE, &cls) < 0)
				continue;
			u = primary - UNWIND_HEADER_SIZE;
		}
		if (cls != CLASS_PRIMARY || read_word(tid, u - HEADER_TO_UNWIND, tinfo) < 0 || *tinfo < 4096)
			continue;
		*obj = u + UNWIND_HEADER_SIZE;
		return 0;
	}
	return -1;
}

/* A type_info's name as it is mangled: letters, digits, '_' and '$' ('*' first marks a type of
 * internal linkage in gcc's names, left out). */
static int mangled_type(const char *s)
{
	const char *p;
	if (!*s)
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' || *p == '$'))
			return 0;
	return 1;
}

/* The what() text of the object at `obj` when its what() is libstdc++'s std::logic_error's or
 * std::runtime_error's (the third entry of its vtable, after the two destructors): the string its
 * message member (right after the vtable pointer) points to.  NULL otherwise. */
static char *what_text(pid_t tid, tnorm__symcache *syms, const char *maps, uint64_t obj,
                       size_t *len)
{
	tnorm_frame f[4];
	uint64_t vptr, fn, msg;
	size_t n;
	if (read_word(tid, obj, &vptr) < 0 || read_word(tid, vptr + 16, &fn) < 0)
		return NULL;
	memset(f, 0, sizeof(f));
	n = tnorm__symbolize(syms, maps, fn, 1, f, 4);
	if (!n || !f[n - 1].function || (strcmp(f[n - 1].function, "std::logic_error::what() const") &&
	                                 strcmp(f[n - 1].function, "std::runtime_error::what() const")))
		return NULL;
	if (read_word(tid, obj + 8, &msg) < 0)
		return NULL;
	return read_string(tid, msg, WHAT_LIMIT, len);
}

/* The first of the words that points to a live exception: 0 with *obj and *tinfo, or -1. */
static int find_exception(pid_t tid, const uint64_t *w, size_t n, uint64_t *obj, uint64_t *tinfo)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (exception_at(tid, w[i], obj, tinfo) == 0)
			return 0;
	return -1;
}

int tnorm__cxx_exception(pid_t tid, tnorm__symcache *syms, const char *maps, const uint64_t *cands,
                         size_t ncands, uint64_t stack_lo, uint64_t stack_hi, char **kind,
                         char **what, size_t *what_len)
{
	uint64_t obj = 0, tinfo = 0, name_at, *stack = NULL;
	char *name = NULL, *type;
	size_t len, nwords = 0;
	int found;
	*kind = *what = NULL;
	*what_len = 0;
	if (stack_hi > stack_lo && stack_hi - stack_lo <= STACK_LIMIT) {
		nwords = (size_t)(stack_hi - stack_lo) / 8;
		if (!(stack = tnorm__malloc(nwords * 8 + 8)))
			return TNORM_ENOMEM;
		if (read_mem(tid, stack_lo, stack, nwords * 8) < 0)
			nwords = 0;
	}
	found = find_exception(tid, cands, ncands, &obj, &tinfo) == 0 ||
	        find_exception(tid, stack, nwords, &obj, &tinfo) == 0;
	free(stack);
	if (!found || read_word(tid, tinfo + 8, &name_at) < 0)
		return 0;
	if (!(name = read_string(tid, name_at, NAME_LIMIT, &len)))
		return TNORM_ENOMEM;
	if (!mangled_type(name + (name[0] == '*'))) {
		free(name);
		return 0;
	}
	type = tnorm__demangle_type(name + (name[0] == '*'));
	free(name);
	if (!type || !(*kind = tnorm__malloc(strlen(type) + sizeof("uncaught ")))) {
		free(type);
		return TNORM_ENOMEM;
	}
	snprintf(*kind, strlen(type) + sizeof("uncaught "), "uncaught %s", type);
	free(type);
	*what = what_text(tid, syms, maps, obj, what_len);
	return 1;
}

/* The end of the mapping of `maps` that holds `addr`, or 0. */
static uint64_t mapping_end(const char *maps, uint64_t addr)
{
	const char *p;
	for (p = maps; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long lo, hi;
		if (sscanf(p, "%llx-%llx", &lo, &hi) == 2 && lo <= addr && addr < hi)
			return hi;
	}
	return 0;
}

/* The thread of process `pid` stopped at `pc`, and its stack pointer: the last two fields of
 * /proc/PID/task/TID/syscall ("NR ARGS... SP PC", or "-1 SP PC" outside a system call), which
 * the kernel fills for a stopped thread.  The thread's id, or 0. */
static pid_t thread_at(pid_t pid, uint64_t pc, uint64_t *sp)
{
	char path[64], *text = NULL, *last, *prev;
	DIR *d;
	struct dirent *e;
	pid_t tid = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return 0;
	while (!tid && (e = readdir(d)) != NULL) {
		unsigned long long at = 0, s = 0;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/syscall", (int)pid, e->d_name);
		if (tnorm__read_file(path, &text, NULL) < 0)
			continue;
		last = strrchr(text, ' ');
		for (prev = last; prev && prev > text && prev[-1] != ' '; prev--)
			;
		if (last && prev && prev > text && sscanf(prev, "%llx %llx", &s, &at) == 2 && at == pc) {
			tid = (pid_t)atoi(e->d_name);
			*sp = s;
		}
		free(text);
		text = NULL;
	}
	closedir(d);
	return tid;
}

int tnorm__cxx_exception_stopped(pid_t pid, uint64_t pc, tnorm__symcache *syms, const char *maps,
                                 char **kind, char **what, size_t *what_len)
{
	uint64_t sp = 0, end;
	pid_t tid = thread_at(pid, pc, &sp);
	*kind = *what = NULL;
	*what_len = 0;
	if (!tid || !(end = mapping_end(maps, sp)))
		return 0;
	if (end - sp > STACK_LIMIT)
		end = sp + STACK_LIMIT;
	return tnorm__cxx_exception(tid, syms, maps, NULL, 0, sp, end, kind, what, what_len);
}

int tnorm__cxx_what_from_stderr(const char *err, const char *type, char **what, size_t *len)
{
	static const char head[] = "terminate called after throwing an instance of '";
	static const char tag[] = "  what():  ";
	const char *p = err, *last = NULL, *t, *end;
	size_t tl = strlen(type);
	/* The last such report: an earlier one may be a child's or another thread's. */
	while (p && (p = strstr(p, head)) != NULL) {
		last = p;
		p += sizeof(head) - 1;
	}
	if (!last)
		return 0;
	t = last + sizeof(head) - 1;
	if (strncmp(t, type, tl) || strncmp(t + tl, "'\n", 2) || strncmp(t + tl + 2, tag, sizeof(tag) - 1))
		return 0;
	t += tl + 2 + sizeof(tag) - 1;
	end = strchr(t, '\n');
	*len = end ? (size_t)(end - t) : strlen(t);
	if (!(*what = tnorm__malloc(*len + 1)))
		return TNORM_ENOMEM;
	memcpy(*what, t, *len);
	(*what)[*len] = '\0';
	return 1;
}

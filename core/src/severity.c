/* SPDX-License-Identifier: MIT */
/*
 * severity.c - class a failure by how exploitable it looks, from its kind (severity.h).
 *
 * The rules are the table below, read top to bottom, the first that fits giving the class; they
 * follow what crash triage tools (CASR, GDB's `exploitable`) say of each kind of failure, in our
 * own words: memory written where it must not be (out of bounds, freed, freed twice) is
 * EXPLOITABLE; a read out of bounds, a NULL dereference, an abort, an assertion, an exit, an
 * uncaught exception, arithmetic and every UndefinedBehaviorSanitizer report (it stops the program
 * before the undefined operation does harm) are NOT_EXPLOITABLE; a SIGSEGV at a wild address is
 * PROBABLY_EXPLOITABLE; what the kind alone cannot tell is UNKNOWN.  docs/signatures.md
 * ("Severity") lists the same table; test_severity.c checks each row.
 */
#include <string.h>

#include "tnorm/severity.h"

#include "common.h"
#include "signature_internal.h"

typedef struct rule {
	const char *kind; /* the kind, or its start when it ends in '*' */
	const char *access; /* for asan: "READ", "WRITE", "" (none), or NULL (any) */
	tnorm_severity_class cls;
	const char *reason;
} rule;

#define EXP TNORM_SEVERITY_EXPLOITABLE
#define PROB TNORM_SEVERITY_PROBABLY_EXPLOITABLE
#define NOT TNORM_SEVERITY_NOT_EXPLOITABLE
#define UNK TNORM_SEVERITY_UNKNOWN

/* AddressSanitizer's bug types (the TYPE of asan:TYPE:ACCESS).  The out-of-bounds family: a
 * write corrupts the neighbouring object, a read only discloses it. */
static const char *const out_of_bounds[] = {
	"heap-buffer-overflow", "stack-buffer-overflow", "global-buffer-overflow",
	"stack-buffer-underflow", "dynamic-stack-buffer-overflow", "container-overflow",
	"stack-use-after-return", "stack-use-after-scope", "use-after-poison",
	"intra-object-overflow", "unknown-crash", NULL,
};

static const rule rules[] = {
	/* AddressSanitizer, after the out-of-bounds family (oob_rule) */
	{"asan:heap-use-after-free", NULL, EXP, "use of freed heap memory: the block may hold other data by then"},
	{"asan:double-free", NULL, EXP, "double free: corrupts the allocator's lists"},
	{"asan:free", NULL, EXP, "free of an address that was not allocated: corrupts the allocator"},
	{"asan:bad-free", NULL, EXP, "free of an address that was not allocated: corrupts the allocator"},
	{"asan:alloc-dealloc-mismatch", NULL, PROB, "memory freed by another allocator family than the one that allocated it"},
	{"asan:new-delete-type-mismatch", NULL, PROB, "object deleted with a size other than its own"},
	{"asan:negative-size-param", NULL, PROB, "a negative size passed to a memory function (a huge copy)"},
	{"asan:SEGV", "WRITE", PROB, "write to an unmapped address"},
	{"asan:SEGV", NULL, UNK, "access to an unmapped address that the kind does not give (near NULL: not exploitable; wild: probably)"},
	{"asan:stack-overflow", NULL, NOT, "stack exhausted (unbounded recursion)"},
	{"asan:allocation-size-too-big", NULL, NOT, "an allocation refused for its size"},
	{"asan:calloc-overflow", NULL, NOT, "an allocation refused: its size overflows"},
	{"asan:requested", NULL, NOT, "an allocation refused for its size"},
	{"asan:out-of-memory", NULL, NOT, "out of memory"},
	{"asan:allocator", NULL, NOT, "out of memory"},
	{"asan:memcpy-param-overlap", NULL, NOT, "overlapping copy: wrong bytes, nothing outside the objects"},
	{"asan:strcpy-param-overlap", NULL, NOT, "overlapping copy: wrong bytes, nothing outside the objects"},
	{"asan:strncpy-param-overlap", NULL, NOT, "overlapping copy: wrong bytes, nothing outside the objects"},
	{"asan:strcat-param-overlap", NULL, NOT, "overlapping copy: wrong bytes, nothing outside the objects"},
	{"asan:FPE", NULL, NOT, "arithmetic error (division by zero)"},
	{"asan:*", NULL, UNK, "an AddressSanitizer report with no rule"},
	/* the other sanitizers and the driver runtime */
	{"lsan:*", NULL, NOT, "memory leak"},
	{"ubsan:*", NULL, NOT, "undefined behaviour stopped by UBSan before it did harm"},
	{"check-failed:*", NULL, NOT, "a check of the harness failed"},
	{"handler-failed:*", NULL, NOT, "a handler of the harness failed"},
	{"uncaught *", NULL, NOT, "uncaught C++ exception: std::terminate aborts"},
	{"exit(*", NULL, NOT, "the program exited with an error status"},
	/* signals (SIGSEGV and SIGBUS with a fault address: fault_rule) */
	{"SIGABRT", NULL, NOT, "abort: an assertion or a failed check"},
	{"SIGFPE", NULL, NOT, "arithmetic error (division by zero)"},
	{"SIGTRAP", NULL, NOT, "trap instruction or breakpoint"},
	{"SIGSYS", NULL, NOT, "a system call the program may not make"},
	{"SIGSEGV", NULL, UNK, "segmentation fault at an address not recorded (near NULL: not exploitable; wild: probably)"},
	{"SIGBUS", NULL, UNK, "bus error at an address not recorded"},
	{"SIGILL", NULL, UNK, "illegal instruction: a deliberate trap (ud2) or execution of data"},
};

/* Does `kind` fit the rule's pattern (exact, or a prefix when it ends in '*')? */
static int fits(const char *pattern, const char *kind, size_t klen)
{
	size_t n = strlen(pattern);
	if (n && pattern[n - 1] == '*')
		return klen >= n - 1 && !memcmp(kind, pattern, n - 1);
	return klen == n && !memcmp(kind, pattern, n);
}

static void set(tnorm_severity *out, tnorm_severity_class cls, const char *reason)
{
	out->cls = cls;
	out->name = tnorm_severity_class_name(cls);
	out->reason = reason;
}

/* asan:TYPE[:ACCESS]: TYPE's length, and ACCESS copied into `access` ("" when there is none,
 * or when it is longer than any access ASan names). */
static size_t asan_parts(const char *kind, size_t klen, char *access, size_t size)
{
	const char *colon = memchr(kind + 5, ':', klen - 5);
	size_t n = colon ? klen - (size_t)(colon + 1 - kind) : 0;
	access[0] = '\0';
	if (colon && n < size) {
		memcpy(access, colon + 1, n);
		access[n] = '\0';
	}
	return colon ? (size_t)(colon - kind) : klen;
}

/* The out-of-bounds family: 1 when it is one of them (and *out is set). */
static int oob_rule(tnorm_severity *out, const char *type, size_t tlen, const char *access)
{
	size_t i;
	for (i = 0; out_of_bounds[i]; i++)
		if (strlen(out_of_bounds[i]) == tlen && !memcmp(type, out_of_bounds[i], tlen))
			break;
	if (!out_of_bounds[i])
		return 0;
	if (!strcmp(access, "WRITE"))
		set(out, EXP, "out-of-bounds write: corrupts the memory next to the object");
	else if (!strcmp(access, "READ"))
		set(out, NOT, "out-of-bounds read: may disclose memory, writes nothing");
	else
		set(out, PROB, "out-of-bounds access of unknown direction");
	return 1;
}

/* A SIGSEGV or SIGBUS at a known address. */
static void fault_rule(tnorm_severity *out, uint64_t addr)
{
	if (addr < TNORM_SEVERITY_NEAR_NULL)
		set(out, NOT, "near-NULL dereference");
	else
		set(out, PROB, "access to a wild address");
}

static void classify(tnorm_severity *out, const char *kind, size_t klen, const uint64_t *fault_addr)
{
	char buf[16];
	const char *access = NULL;
	size_t i, tlen = klen;
	if (klen > 5 && !memcmp(kind, "asan:", 5)) {
		tlen = asan_parts(kind, klen, buf, sizeof(buf));
		access = buf;
		if (oob_rule(out, kind + 5, tlen - 5, access))
			return;
	}
	if (fault_addr && (fits("SIGSEGV", kind, klen) || fits("SIGBUS", kind, klen))) {
		fault_rule(out, *fault_addr);
		return;
	}
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const rule *r = &rules[i];
		if (!fits(r->kind, kind, access ? tlen : klen))
			continue;
		if (r->access && (!access || strcmp(r->access, access)))
			continue;
		set(out, r->cls, r->reason);
		return;
	}
	set(out, UNK, "no rule for this kind");
}

const char *tnorm_severity_class_name(tnorm_severity_class cls)
{
	switch (cls) {
	case TNORM_SEVERITY_EXPLOITABLE:
		return "EXPLOITABLE";
	case TNORM_SEVERITY_PROBABLY_EXPLOITABLE:
		return "PROBABLY_EXPLOITABLE";
	case TNORM_SEVERITY_NOT_EXPLOITABLE:
		return "NOT_EXPLOITABLE";
	case TNORM_SEVERITY_UNKNOWN:
		break;
	}
	return "UNKNOWN";
}

int tnorm_severity_of_kind(tnorm_severity *out, const char *kind, const uint64_t *fault_addr)
{
	if (!out || !kind)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_severity_of_kind: NULL argument");
	classify(out, kind, strlen(kind), fault_addr);
	return 0;
}

int tnorm_severity_of_signature(tnorm_severity *out, const tnorm_signature *s,
                                const uint64_t *fault_addr)
{
	if (!out || !s)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_severity_of_signature: NULL argument");
	/* A SIGSEGV where the stack ran out is the stack overflow ASan names so. */
	return tnorm_severity_of_kind(out, tnorm__signature_exhausted(s) ? "asan:stack-overflow"
	                                                                 : tnorm_signature_kind(s),
	                              fault_addr);
}

int tnorm_severity_of_text(tnorm_severity *out, const char *text)
{
	const char *at;
	if (!out || !text)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_severity_of_text: NULL argument");
	/* An uncaught exception's kind is followed by its quoted what() text, which may hold " at ":
	 * its rule needs only the start. */
	if (!strncmp(text, "uncaught ", 9)) {
		classify(out, "uncaught ", 9, NULL);
		return 0;
	}
	at = strstr(text, " at ");
	classify(out, text, at ? (size_t)(at - text) : strlen(text), NULL);
	return 0;
}

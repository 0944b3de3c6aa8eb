/* SPDX-License-Identifier: MIT */
/*
 * signature.c - failure signatures: build, print (text and JSON), compare under a policy,
 * and calibrate against several runs of the same test.
 *
 * A signature owns copies of all its strings so it can outlive the runner and its symbol caches
 * (reducers keep the target and every "slipped" signature for the whole session).  Which frames
 * belong to a runtime is decided here, once, by function name and module path, so that the
 * engine and the debugger plugins (which build signatures from the debugger's frames through
 * tnorm_signature_new) agree on the throwing frame.  For the same reason the program counters of
 * a stopped process become frames here, once (tnorm__frames_from_pcs): the runner's unwinder
 * hands over the pcs it walked, tnorm_signature_from_process (signature_process.c) those a
 * debugger walked.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "json.h"
#include "model.h"
#include "sanitizer_internal.h"
#include "signature_internal.h"
#include "symbolize.h"
#include "tnorm/signature.h"

struct tnorm_signature {
	char *kind;
	tnorm_frame *frames;
	size_t n;
	size_t throwing;
	tnorm_frame *aux[TNORM_STACK_COUNT]; /* the sanitizer report's free and alloc stacks */
	size_t naux[TNORM_STACK_COUNT];
	char *message; /* the program's last line on stderr, values masked; NULL when none */
	char *what;    /* an uncaught exception's what() text (what_len bytes, any); NULL if none */
	size_t what_len;
	int exhausted; /* the stack ran out in an unbounded recursion: fold_exhaustion */
};

struct tnorm_match {
	tnorm_match_kind kind;
	unsigned depth;
	regex_t re;
	int has_re;
};

static int has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int tnorm_frame_is_runtime(const char *fn, const char *module)
{
	static const char *const libc_fns[] = {
		"abort", "raise", "__assert_fail", "__assert_fail_base", "__assert", "__GI_abort",
		"__GI_raise", "__pthread_kill_implementation", "__pthread_kill_internal", "pthread_kill",
		"exit", "_exit", "__run_exit_handlers", "__libc_start_call_main", "__libc_start_main",
		"__libc_start_main_impl", "_start", "__libc_message", "__fortify_fail", "__chk_fail",
		"__stack_chk_fail", "killpg", "kill", "__restore_rt", "_Exit",
		NULL};
	const char *base = module ? strrchr(module, '/') : NULL;
	size_t i;
	base = base ? base + 1 : module;
	if (base && (has_prefix(base, "libc.so") || has_prefix(base, "libc-") ||
	             has_prefix(base, "libstdc++") || has_prefix(base, "libgcc_s") ||
	             has_prefix(base, "ld-linux") || tnorm__sanitizer_runtime_library(base)))
		return 1;
	if (!fn)
		return 0;
	for (i = 0; libc_fns[i]; i++)
		if (!strcmp(fn, libc_fns[i]))
			return 1;
	/* The sanitizer runtimes, linked statically (clang's default) or not: C entry points,
	 * interceptors, and the C++ namespaces of their internals (demangled, or still mangled). */
	if (tnorm__sanitizer_runtime_function(fn))
		return 1;
	return has_prefix(fn, "tnorm_") || has_prefix(fn, "tnorm__") || has_prefix(fn, "__cxa_throw") ||
	       has_prefix(fn, "__cxa_rethrow") || has_prefix(fn, "_Unwind_") ||
	       has_prefix(fn, "_ZSt9terminate") || has_prefix(fn, "_ZN10__cxxabiv1") ||
	       has_prefix(fn, "std::terminate") || has_prefix(fn, "__gnu_cxx::") ||
	       has_prefix(fn, "__cxxabiv1::") || !strcmp(fn, "__cxa_call_terminate") ||
	       !strcmp(fn, "__clang_call_terminate");
}

static void free_frame_strings(tnorm_frame *f)
{
	free((char *)f->function);
	free((char *)f->file);
	free((char *)f->module);
	free((char *)f->build_id);
}

static void free_frames(tnorm_frame *f, size_t n)
{
	size_t i;
	for (i = 0; f && i < n; i++)
		free_frame_strings(&f[i]);
	free(f);
}

void tnorm_signature_free(tnorm_signature *s)
{
	size_t i, k;
	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		free_frame_strings(&s->frames[i]);
	free(s->frames);
	for (k = 0; k < TNORM_STACK_COUNT; k++)
		free_frames(s->aux[k], s->naux[k]);
	free(s->kind);
	free(s->message);
	free(s->what);
	free(s);
}

/* A deep copy of one frame, the file cut to its basename, is_runtime recomputed. */
static int copy_frame(tnorm_frame *d, const tnorm_frame *f)
{
	const char *file = f->file && *f->file ? f->file : "??";
	const char *slash = strrchr(file, '/');
	memset(d, 0, sizeof(*d));
	d->pc = f->pc;
	d->line = f->line;
	d->offset = f->offset;
	d->inlined = f->inlined;
	if (!(d->function = tnorm__strdup(f->function && *f->function ? f->function : "??")) ||
	    !(d->file = tnorm__strdup(slash ? slash + 1 : file)) ||
	    !(d->module = tnorm__strdup(f->module ? f->module : "")) ||
	    !(d->build_id = tnorm__strdup(f->build_id ? f->build_id : "")))
		return TNORM_ENOMEM;
	d->is_runtime = tnorm_frame_is_runtime(d->function, d->module);
	return 0;
}

static int copy_frames(tnorm_frame **out, const tnorm_frame *frames, size_t n)
{
	tnorm_frame *f;
	size_t i;
	*out = NULL;
	if (!n)
		return 0;
	if (!(f = tnorm__calloc(n, sizeof(*f))))
		return TNORM_ENOMEM;
	for (i = 0; i < n; i++)
		if (copy_frame(&f[i], &frames[i]) < 0) {
			free_frames(f, i + 1);
			return TNORM_ENOMEM;
		}
	*out = f;
	return 0;
}

int tnorm_signature_set_stack(tnorm_signature *s, tnorm_stack_kind which, const tnorm_frame *frames,
                              size_t n)
{
	tnorm_frame *copy = NULL;
	int err;
	if (!s || (unsigned)which >= TNORM_STACK_COUNT || (n && !frames))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_set_stack: bad argument");
	if ((err = copy_frames(&copy, frames, n)) < 0)
		return err;
	free_frames(s->aux[which], s->naux[which]);
	s->aux[which] = copy;
	s->naux[which] = n;
	return 0;
}

size_t tnorm_signature_stack_count(const tnorm_signature *s, tnorm_stack_kind which)
{
	return s && (unsigned)which < TNORM_STACK_COUNT ? s->naux[which] : 0;
}

const tnorm_frame *tnorm_signature_stack_frame(const tnorm_signature *s, tnorm_stack_kind which,
                                               size_t i)
{
	return s && (unsigned)which < TNORM_STACK_COUNT && i < s->naux[which] ? &s->aux[which][i]
	                                                                       : NULL;
}

/* Keep a message with the values masked: numbers become N, quoted text '...', so that one
 * fault reached with other values keeps one message. */
static char *mask_message(const char *msg)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *p = msg;
	size_t len = strcspn(msg, "\n");
	int err = 0;
	while ((size_t)(p - msg) < len && err == 0) {
		char c = *p;
		if (c >= '0' && c <= '9') {
			if (c == '0' && (p[1] == 'x' || p[1] == 'X'))
				p += 2;
			while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))
				p++;
			err = tnorm__buf_putc(&b, 'N');
		} else if (c == '\'' || c == '"') {
			const char *q = strchr(p + 1, c);
			if (!q || (size_t)(q - msg) >= len)
				q = msg + len - 1;
			err = tnorm__buf_printf(&b, "%c...%c", c, c);
			p = q + 1;
		} else {
			err = tnorm__buf_putc(&b, c);
			p++;
		}
		if (b.len > 160)
			break;
	}
	if (err < 0) {
		tnorm__buf_dispose(&b);
		return NULL;
	}
	return tnorm__buf_detach(&b);
}

int tnorm__signature_set_kind(tnorm_signature *s, const char *kind)
{
	char *k = tnorm__strdup(kind);
	if (!k)
		return TNORM_ENOMEM;
	free(s->kind);
	s->kind = k;
	return 0;
}

int tnorm_signature_set_message(tnorm_signature *s, const char *message)
{
	char *m = NULL;
	if (!s)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_set_message: NULL signature");
	if (message && *message && !(m = mask_message(message)))
		return TNORM_ENOMEM;
	free(s->message);
	s->message = m && *m ? m : NULL;
	if (m && !*m)
		free(m);
	return 0;
}

const char *tnorm_signature_message(const tnorm_signature *s)
{
	return s ? s->message : NULL;
}

int tnorm_signature_set_what(tnorm_signature *s, const char *what, size_t len)
{
	char *w = NULL;
	if (!s || (!what && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_set_what: bad argument");
	if (what) {
		if (!(w = tnorm__malloc(len + 1)))
			return TNORM_ENOMEM;
		memcpy(w, what, len);
		w[len] = '\0';
	}
	free(s->what);
	s->what = w;
	s->what_len = what ? len : 0;
	return 0;
}

const char *tnorm_signature_what(const tnorm_signature *s, size_t *len)
{
	if (len)
		*len = s ? s->what_len : 0;
	return s ? s->what : NULL;
}

/* The extras a copy keeps: the message, the exception's text, and the throwing frame of a stack
 * that ran out (a copy with fewer frames, calibrate's, may no longer show the whole cycle). */
static int copy_extras(tnorm_signature *d, const tnorm_signature *s)
{
	if (s->exhausted && s->throwing < d->n) {
		d->throwing = s->throwing;
		d->exhausted = 1;
	}
	if (s->message && !(d->message = tnorm__strdup(s->message)))
		return TNORM_ENOMEM;
	return s->what ? tnorm_signature_set_what(d, s->what, s->what_len) : 0;
}

static int same_frame(const tnorm_frame *a, const tnorm_frame *b);

/* Frames in one fixed order (function, file, line, module offset): which frame of a recursion's
 * cycle is its throwing frame, whichever frame the stack ran out in. */
static int frame_order(const tnorm_frame *a, const tnorm_frame *b)
{
	int c = strcmp(a->function, b->function);
	if (c == 0)
		c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
	if (c == 0)
		c = (a->line > b->line) - (a->line < b->line);
	if (c == 0)
		c = (a->offset > b->offset) - (a->offset < b->offset);
	return c;
}

/* Do the frames f[from..n) repeat with period p to the end? */
static int cycles_to_end(const tnorm_frame *f, size_t from, size_t n, size_t p)
{
	size_t i;
	for (i = from + p; i < n; i++)
		if (f[i].is_runtime || !same_frame(&f[i], &f[i - p]))
			return 0;
	return 1;
}

/*
 * A stack that ran out in an unbounded recursion (docs/signatures.md, "Stack exhaustion"): the
 * fault is a SIGSEGV (or SIGBUS) wherever the stack happened to end, a prologue's push or a
 * local's store, at one line or another from run to run as the stack's start moves.  The
 * recursion is the fault: when the frames below the throwing one become a cycle of one to
 * RECURSION_PERIOD frames within RECURSION_HEAD frames and repeat it to the end of the walk,
 * over at least RECURSION_FRAMES frames (the walk stops at TNORM__MAX_FRAMES; a recursion that
 * ends before main is a finite one, and a crash at its top keeps its line), the throwing frame
 * becomes the cycle's first frame in frame_order.  The frames above it stay in the stack.
 */
#define RECURSION_PERIOD 4
#define RECURSION_HEAD 4
#define RECURSION_FRAMES 32

static void fold_exhaustion(tnorm_signature *s)
{
	size_t p, h, i, best;
	if ((strcmp(s->kind, "SIGSEGV") && strcmp(s->kind, "SIGBUS") &&
	     !tnorm__sanitizer_stack_overflow(s->kind)) ||
	    s->throwing >= s->n)
		return;
	for (p = 1; p <= RECURSION_PERIOD; p++)
		for (h = s->throwing; h <= s->throwing + RECURSION_HEAD && h + RECURSION_FRAMES <= s->n;
		     h++) {
			if (s->frames[h].is_runtime || !cycles_to_end(s->frames, h, s->n, p))
				continue;
			for (best = h, i = h + 1; i < h + p; i++)
				if (frame_order(&s->frames[i], &s->frames[best]) < 0)
					best = i;
			s->throwing = best;
			s->exhausted = 1;
			return;
		}
}

int tnorm__signature_exhausted(const tnorm_signature *s)
{
	return s && s->exhausted;
}

int tnorm_signature_new(tnorm_signature **out, const char *kind, const tnorm_frame *frames,
                        size_t nframes)
{
	tnorm_signature *s;
	size_t i;
	if (!out || !kind || (nframes && !frames))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_new: NULL argument");
	*out = NULL;
	if (!(s = tnorm__calloc(1, sizeof(*s))))
		return TNORM_ENOMEM;
	if (!(s->kind = tnorm__strdup(kind)) ||
	    !(s->frames = tnorm__calloc(nframes ? nframes : 1, sizeof(*s->frames)))) {
		tnorm_signature_free(s);
		return TNORM_ENOMEM;
	}
	s->throwing = nframes;
	for (i = 0; i < nframes; i++) {
		tnorm_frame *d = &s->frames[i];
		s->n = i + 1;
		if (copy_frame(d, &frames[i]) < 0) {
			tnorm_signature_free(s);
			return TNORM_ENOMEM;
		}
		if (!d->is_runtime && s->throwing == nframes)
			s->throwing = i;
	}
	fold_exhaustion(s);
	*out = s;
	return 0;
}

int tnorm_signature_dup(tnorm_signature **out, const tnorm_signature *s)
{
	int err;
	size_t k;
	if (!s)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_dup: NULL signature");
	if ((err = tnorm_signature_new(out, s->kind, s->frames, s->n)) < 0)
		return err;
	for (k = 0; k < TNORM_STACK_COUNT; k++)
		if ((err = tnorm_signature_set_stack(*out, (tnorm_stack_kind)k, s->aux[k], s->naux[k])) < 0) {
			tnorm_signature_free(*out);
			*out = NULL;
			return err;
		}
	if ((err = copy_extras(*out, s)) < 0) {
		tnorm_signature_free(*out);
		*out = NULL;
		return err;
	}
	return 0;
}

/* Machine frames to a signature's frames (signature_internal.h): the runner's unwinder and
 * tnorm_signature_from_process share this, so that a debugger's stop and a run agree. */
size_t tnorm__frames_from_pcs(tnorm__symcache *syms, const char *maps, const uint64_t *pcs,
                              tnorm__frame_start_fn start, void *start_arg, size_t npcs,
                              tnorm_frame *frames, char (*names)[32], size_t max)
{
	size_t i, k, n = 0;
	for (i = 0; i < npcs && n < max; i++) {
		size_t got = tnorm__symbolize(syms, maps ? maps : "", pcs[i], i == 0, &frames[n], max - n);
		uint64_t lookup = i == 0 ? pcs[i] : pcs[i] - 1, at = 0;
		int asked = 0;
		for (k = n; k < n + got; k++) {
			if (frames[k].function || !frames[k].module || !start)
				continue;
			if (!asked) {
				at = start(start_arg, i);
				asked = 1;
			}
			if (at && at <= lookup && frames[k].offset >= lookup - at) {
				snprintf(names[k], sizeof(names[k]), "sub_%llx",
				         (unsigned long long)(frames[k].offset - (lookup - at)));
				frames[k].function = names[k];
			}
		}
		n += got;
	}
	return n;
}

const char *tnorm_signature_kind(const tnorm_signature *s)
{
	return s ? s->kind : "";
}

size_t tnorm_signature_frame_count(const tnorm_signature *s)
{
	return s ? s->n : 0;
}

const tnorm_frame *tnorm_signature_frame(const tnorm_signature *s, size_t i)
{
	return s && i < s->n ? &s->frames[i] : NULL;
}

size_t tnorm_signature_throwing(const tnorm_signature *s)
{
	return s ? s->throwing : 0;
}

/* Frames after `main` (libc's start code) say nothing about the failure. */
static size_t useful_end(const tnorm_signature *s)
{
	size_t i;
	for (i = s->throwing; i < s->n; i++)
		if (!strcmp(s->frames[i].function, "main"))
			return i + 1;
	return s->n;
}

static const char *module_label(const tnorm_frame *f)
{
	const char *slash = f->module ? strrchr(f->module, '/') : NULL;
	return slash ? slash + 1 : f->module && *f->module ? f->module : "??";
}

/* " (file:line)", or, without line information, " (module+0xOFFSET)". */
static int put_location(tnorm__buf *b, const tnorm_frame *f)
{
	if (f->line)
		return tnorm__buf_printf(b, " (%s:%u)", f->file, f->line);
	if (f->offset || (f->module && *f->module))
		return tnorm__buf_printf(b, " (%s+0x%llx)", module_label(f),
		                         (unsigned long long)f->offset);
	if (strcmp(f->file, "??"))
		return tnorm__buf_printf(b, " (%s)", f->file);
	return 0;
}

static size_t first_user(const tnorm_frame *f, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!f[i].is_runtime)
			return i;
	return n;
}

/* Up to `depth` user frames of f[from..n) as "fn (loc) <- fn (loc)", a run of one repeated frame
 * as "fn (loc) xN". */
static int put_frames(tnorm__buf *b, const tnorm_frame *f, size_t from, size_t n, size_t depth,
                      const char *first_sep)
{
	size_t i, k = 0;
	int err = 0;
	for (i = from; i < n && (!depth || k < depth) && err == 0; i++) {
		size_t same = 0;
		if (f[i].is_runtime)
			continue;
		if ((err = tnorm__buf_printf(b, "%s%s", k ? " <- " : first_sep, f[i].function)) < 0)
			break;
		err = put_location(b, &f[i]);
		/* A recursion repeats one frame many times: say how many, once. */
		while (i + same + 1 < n && same_frame(&f[i], &f[i + same + 1]))
			same++;
		if (same && err == 0)
			err = tnorm__buf_printf(b, " x%zu", same + 1);
		i += same;
		k++;
		if (!strcmp(f[i].function, "main"))
			break;
	}
	return err;
}

/*
 * A failure helper: the throwing frame called abort() or exit() itself (die(), fail(), panic(),
 * xmalloc()...), rather than failing through assert, a sanitizer or a fault.  Its line is the
 * helper's, the same for every check that calls it, so the call site counts too.
 */
static int helper_failure(const tnorm_signature *s)
{
	static const char *const enders[] = {"abort", "__GI_abort", "exit", "__GI_exit", "_exit",
	                                     "_Exit", "quick_exit", NULL};
	size_t i;
	if (s->throwing == 0 || s->throwing >= s->n)
		return 0;
	for (i = 0; enders[i]; i++)
		if (!strcmp(s->frames[s->throwing - 1].function, enders[i]))
			return 1;
	return 0;
}

/*
 * A failed assertion: the throwing frame called the C library's assert failure function
 * (glibc's __assert_fail, musl's too, the BSDs' __assert and __assert2, macOS's __assert_rtn).
 */
static int assert_failure(const tnorm_signature *s)
{
	static const char *const names[] = {"__assert_fail", "__GI___assert_fail",
	                                    "__assert_fail_base", "__assert_perror_fail",
	                                    "__assert", "__assert2", "__assert_rtn", NULL};
	size_t i, k;
	if (s->throwing >= s->n)
		return 0;
	for (k = 0; k < s->throwing; k++)
		for (i = 0; names[i]; i++)
			if (!strcmp(s->frames[k].function, names[i]))
				return 1;
	return 0;
}

/*
 * When the call that reached the throwing frame is part of the crash state: a failure helper,
 * and a function inlined into its caller (its code there is the caller's own: a function
 * inlined into two callers is two sites, as two copies of its code are), unless what failed
 * there is an assertion: the assertion's line names the check whoever reached it, as it does
 * at -O0 where nothing is inlined (libyaml's assert in yaml_parser_save_simple_key, inlined
 * into three token fetchers, is one fault that one commit removed).
 */
static int site_counts(const tnorm_signature *s)
{
	if (s->throwing >= s->n)
		return 0;
	return helper_failure(s) || (s->frames[s->throwing].inlined && !assert_failure(s));
}

/* The first frame out from the throwing one that is not the same function again (recursion of
 * any depth is one fault), or n. */
static size_t caller_of_throwing(const tnorm_signature *s)
{
	size_t i;
	if (s->throwing >= s->n)
		return s->n;
	for (i = s->throwing + 1; i < s->n; i++)
		if (!s->frames[i].is_runtime && strcmp(s->frames[i].function, s->frames[s->throwing].function))
			return i;
	return s->n;
}

/* The call site that reached a helper is unknown when no frame shows it, or when the caller's
 * frame has no line in a binary that has lines (code the compiler merged from several calls). */
static int site_unknown(const tnorm_signature *s, size_t caller)
{
	return caller >= s->n || (s->frames[caller].line == 0 && s->frames[s->throwing].line != 0);
}

/* The kind as the text shows it: an uncaught exception's what() text follows it, quoted and
 * escaped as tnorm quotes strings everywhere, cut after WHAT_SHOWN bytes. */
#define WHAT_SHOWN 160
static int put_kind(tnorm__buf *b, const tnorm_signature *s)
{
	size_t n = s->what_len < WHAT_SHOWN ? s->what_len : WHAT_SHOWN;
	int err;
	if ((err = tnorm__buf_puts(b, s->kind)) < 0 || !s->what)
		return err;
	if ((err = tnorm__buf_puts(b, " (")) < 0 || (err = tnorm__buf_put_quoted(b, s->what, n)) < 0)
		return err;
	return tnorm__buf_puts(b, n < s->what_len ? "...)" : ")");
}

int tnorm_signature_format(const tnorm_signature *s, size_t depth, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err;
	if (!s || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_format: NULL argument");
	*out = NULL;
	if ((err = put_kind(&b, s)) < 0 ||
	    (err = put_frames(&b, s->frames, s->throwing, useful_end(s), depth, " at ")) < 0)
		goto fail;
	if (s->naux[TNORM_STACK_FREE] &&
	    (err = put_frames(&b, s->aux[TNORM_STACK_FREE], 0, s->naux[TNORM_STACK_FREE],
	                      depth ? depth : 3, "; freed at ")) < 0)
		goto fail;
	if (s->message && helper_failure(s) && site_unknown(s, caller_of_throwing(s)) &&
	    (err = tnorm__buf_printf(&b, " [%s]", s->message)) < 0)
		goto fail;
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
fail:
	tnorm__buf_dispose(&b);
	return err;
}

int tnorm_signature_format_top(const tnorm_signature *s, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err;
	if (out)
		*out = NULL;
	if (!s || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_format_top: NULL argument");
	if ((err = put_kind(&b, s)) < 0 ||
	    (err = put_frames(&b, s->frames, s->throwing, useful_end(s), 1, " at ")) < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
}

/* The first "needle" (nlen bytes) in h[0..n), or NULL. */
static const char *find_in(const char *h, size_t n, const char *needle, size_t nlen)
{
	size_t i;
	for (i = 0; i + nlen <= n; i++)
		if (!memcmp(h + i, needle, nlen))
			return h + i;
	return NULL;
}

/* A frame of a fuzzing engine's in a signature's text ("fn (loc)"): libFuzzer's, or the AFL++
 * driver's. */
static int engine_frame(const char *f, size_t n)
{
	static const char *const names[] = {"fuzzer::", "LLVMFuzzerRunDriver", "ExecuteFilesOnyByOne",
	                                    "__afl_", NULL};
	size_t i;
	for (i = 0; names[i]; i++)
		if (n >= strlen(names[i]) && !memcmp(f, names[i], strlen(names[i])))
			return 1;
	return find_in(f, n, "(aflpp_driver.c:", 16) != NULL;
}

/* One stack of a signature's text, frames f[0..n) joined by " <- ", appended to b without a
 * fuzzing engine's frames and LLVMFuzzerTestOneInput's callers (*engine set when there were
 * any), and at most 3 frames. */
static int put_stack_shown(tnorm__buf *b, const char *f, size_t n, int *engine)
{
	static const char target[] = "LLVMFuzzerTestOneInput";
	size_t kept = 0;
	int err = 0, past = 0;
	while (n && err == 0) {
		const char *sep = find_in(f, n, " <- ", 4);
		size_t len = sep ? (size_t)(sep - f) : n;
		if (past || engine_frame(f, len)) {
			*engine = 1;
		} else if (kept < 3) {
			err = kept ? tnorm__buf_puts(b, " <- ") : 0;
			if (err == 0)
				err = tnorm__buf_put(b, f, len);
			kept++;
		}
		if (len >= sizeof(target) - 1 && !memcmp(f, target, sizeof(target) - 1) &&
		    (len == sizeof(target) - 1 || f[sizeof(target) - 1] == ' '))
			past = 1; /* its callers are the engine's */
		n -= sep ? len + 4 : len;
		f = sep ? sep + 4 : f + len;
	}
	return err;
}

size_t tnorm__signature_kind_len(const char *text)
{
	const char *p;
	int quoted = 0;
	/* The kind ends at the first " at " outside an exception's quoted what() text. */
	for (p = text; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '\\' && quoted && p[1])
			p++;
		else if (!quoted && !strncmp(p, " at ", 4))
			break;
	}
	return (size_t)(p - text);
}

int tnorm_signature_text_shown(const char *text, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *p, *end, *freed, *msg;
	int err, engine = 0;
	if (out)
		*out = NULL;
	if (!text || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_text_shown: NULL argument");
	p = text + tnorm__signature_kind_len(text);
	end = text + strlen(text);
	if (!*p) {
		*out = tnorm__strdup(text);
		return *out ? 0 : TNORM_ENOMEM;
	}
	p += 4;
	/* After the frames: the free's stack, then a helper's message " [...]". */
	msg = end[-1] == ']' ? strrchr(p, '[') : NULL;
	if (msg && (msg == p || msg[-1] != ' '))
		msg = NULL;
	msg = msg ? msg - 1 : end;
	freed = strstr(p, "; freed at ");
	if (!freed || freed > msg)
		freed = NULL;
	err = tnorm__buf_put(&b, text, (size_t)(p - text));
	if (err == 0)
		err = put_stack_shown(&b, p, (size_t)((freed ? freed : msg) - p), &engine);
	if (err == 0 && freed) {
		err = tnorm__buf_puts(&b, "; freed at ");
		if (err == 0)
			err = put_stack_shown(&b, freed + 11, (size_t)(msg - freed - 11), &engine);
	}
	if (err == 0)
		err = tnorm__buf_put(&b, msg, (size_t)(end - msg));
	if (err < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	if (!engine) { /* nothing of an engine's: the text as it is, byte for byte */
		tnorm__buf_dispose(&b);
		*out = tnorm__strdup(text);
		return *out ? 0 : TNORM_ENOMEM;
	}
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
}

/* "0x..." as the JSON shows addresses (a string: JSON numbers lose 64-bit precision). */
static json_t *json_hex(uint64_t v)
{
	char hex[24];
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)v);
	return json_string(hex);
}

/* A frame as JSON; `full` adds pc, inlined and build_id (the crash stack has them). */
static json_t *json_frame(const tnorm_frame *f, int full)
{
	json_t *o = json_object();
	int bad = 0;
	if (full)
		bad |= json_object_set_new(o, "pc", json_hex(f->pc));
	bad |= json_object_set_new(o, "function", tnorm__json_str(f->function));
	bad |= json_object_set_new(o, "file", tnorm__json_str(f->file));
	bad |= json_object_set_new(o, "line", json_integer(f->line));
	bad |= json_object_set_new(o, "runtime", json_boolean(f->is_runtime));
	bad |= json_object_set_new(o, "module", tnorm__json_str(f->module));
	bad |= json_object_set_new(o, "offset", json_hex(f->offset));
	if (full) {
		bad |= json_object_set_new(o, "inlined", json_boolean(f->inlined));
		bad |= json_object_set_new(o, "build_id", tnorm__json_str(f->build_id));
	}
	return tnorm__json_done(o, bad);
}

static json_t *json_frames(const tnorm_frame *f, size_t n, int full)
{
	json_t *a = json_array();
	size_t i;
	int bad = !a;
	for (i = 0; i < n && !bad; i++)
		bad |= json_array_append_new(a, json_frame(&f[i], full));
	return tnorm__json_done(a, bad);
}

int tnorm_signature_json(const tnorm_signature *s, char **out)
{
	json_t *root;
	char *text = NULL;
	size_t k;
	int err, bad = 0;
	if (!s || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_json: NULL argument");
	*out = NULL;
	if ((err = tnorm_signature_format(s, 0, &text)) < 0)
		return err;
	root = json_object();
	bad |= json_object_set_new(root, "kind", tnorm__json_str(s->kind));
	bad |= json_object_set_new(root, "text", tnorm__json_str(text));
	if (s->what)
		bad |= json_object_set_new(root, "what", tnorm__json_text(s->what, s->what_len));
	bad |= json_object_set_new(root, "throwing", json_integer((json_int_t)s->throwing));
	bad |= json_object_set_new(root, "frames", json_frames(s->frames, s->n, 1));
	for (k = 0; k < TNORM_STACK_COUNT; k++)
		if (s->naux[k])
			bad |= json_object_set_new(root, k == TNORM_STACK_FREE ? "free" : "alloc",
			                           json_frames(s->aux[k], s->naux[k], 0));
	tnorm_free(text);
	return tnorm__json_dump(out, root, bad);
}

/* ---- policies ------------------------------------------------------------------------------ */

int tnorm_match_parse(tnorm_match **out, const char *policy)
{
	tnorm_match *m;
	if (!out || !policy)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_match_parse: NULL argument");
	*out = NULL;
	if (!(m = tnorm__calloc(1, sizeof(*m))))
		return TNORM_ENOMEM;
	if (!strcmp(policy, "line")) {
		m->kind = TNORM_MATCH_LINE;
	} else if (!strcmp(policy, "kind")) {
		m->kind = TNORM_MATCH_KIND;
	} else if (!strcmp(policy, "any")) {
		m->kind = TNORM_MATCH_ANY;
	} else if (has_prefix(policy, "stack:")) {
		char *end;
		long n = strtol(policy + 6, &end, 10);
		if (*end || end == policy + 6 || n < 1 || n > 1000) {
			free(m);
			return tnorm__error_set(TNORM_EINVALID, "bad match policy '%s', expected stack:N with "
			                        "N from 1 to 1000", policy);
		}
		m->kind = TNORM_MATCH_STACK;
		m->depth = (unsigned)n;
	} else if (has_prefix(policy, "output:")) {
		int rc = regcomp(&m->re, policy + 7, REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			char msg[128];
			regerror(rc, &m->re, msg, sizeof(msg));
			free(m);
			return tnorm__error_set(TNORM_EINVALID, "bad regular expression in '%s': %s", policy,
			                        msg);
		}
		m->has_re = 1;
		m->kind = TNORM_MATCH_OUTPUT;
	} else {
		free(m);
		return tnorm__error_set(TNORM_EINVALID, "unknown match policy '%s', expected line, "
		                        "stack:N, kind, any or output:REGEX", policy);
	}
	*out = m;
	return 0;
}

void tnorm_match_free(tnorm_match *m)
{
	if (!m)
		return;
	if (m->has_re)
		regfree(&m->re);
	free(m);
}

tnorm_match_kind tnorm_match_get_kind(const tnorm_match *m)
{
	return m ? m->kind : TNORM_MATCH_LINE;
}

static int same_module(const tnorm_frame *a, const tnorm_frame *b)
{
	if (a->build_id && b->build_id && *a->build_id && *b->build_id)
		return !strcmp(a->build_id, b->build_id);
	return !strcmp(module_label(a), module_label(b));
}

/* Function, file and line; where there is no line (no debug information, a stripped binary),
 * the function (named by its symbol, or by its start address as sub_1a2b), the module and the
 * module-relative address, so that distinct sites stay distinct: a finer identity splits one
 * fault at worst, a coarser one could take another bug for it. */
static int same_frame(const tnorm_frame *a, const tnorm_frame *b)
{
	if (strcmp(a->function, b->function))
		return 0;
	if (a->line || b->line)
		return !strcmp(a->file, b->file) && a->line == b->line;
	return a->offset == b->offset && same_module(a, b);
}

static int same_free_site(const tnorm_signature *t, const tnorm_signature *c)
{
	size_t it, ic;
	if (!t->naux[TNORM_STACK_FREE])
		return 1;
	it = first_user(t->aux[TNORM_STACK_FREE], t->naux[TNORM_STACK_FREE]);
	ic = first_user(c->aux[TNORM_STACK_FREE], c->naux[TNORM_STACK_FREE]);
	if (it >= t->naux[TNORM_STACK_FREE] || ic >= c->naux[TNORM_STACK_FREE])
		return it >= t->naux[TNORM_STACK_FREE] && ic >= c->naux[TNORM_STACK_FREE];
	return same_frame(&t->aux[TNORM_STACK_FREE][it], &c->aux[TNORM_STACK_FREE][ic]);
}

/*
 * An optimizer moves part of an inlined function's code into its caller and gives it the line of
 * the call: the same fault then stops either inside the inlined frame (col_width at its line,
 * inlined into print_header at the call's line) or at the call's line itself (print_header at
 * that line).  `a`'s inlined throwing frame and `b`'s are one site when b's throwing frame is
 * the line a's was inlined at.
 */
static int hoisted(const tnorm_signature *a, const tnorm_signature *b)
{
	const tnorm_frame *fa = &a->frames[a->throwing], *fb = &b->frames[b->throwing];
	return fa->inlined && a->throwing + 1 < a->n && same_frame(&a->frames[a->throwing + 1], fb);
}

/*
 * The function a frame's code belongs to, without the line: where an inlined function's call
 * site counts (rule 5 of docs/signatures.md), the caller is compared by function and file.  Its
 * calls at several lines of one function are one site, as they are at -O0 where nothing is
 * inlined: stb_image's `stbi__shiftsigned`, inlined at the four colour channels of one BMP
 * reader, is one fault that one check fixes, and at four lines it was four buckets.  A helper's
 * call site keeps its line (rule 4): its line is the same for every check.  (A failed assertion
 * keeps no call site: site_counts.)
 */
static int same_function(const tnorm_frame *a, const tnorm_frame *b)
{
	if (strcmp(a->function, b->function))
		return 0;
	if (a->line && b->line)
		return !strcmp(a->file, b->file);
	return same_frame(a, b);
}

static int match_line(const tnorm_signature *t, const tnorm_signature *c)
{
	size_t jt, jc;
	if (strcmp(t->kind, c->kind))
		return 0;
	if (t->throwing >= t->n || c->throwing >= c->n)
		return t->throwing >= t->n && c->throwing >= c->n;
	if (!same_free_site(t, c))
		return 0;
	if (!same_frame(&t->frames[t->throwing], &c->frames[c->throwing]))
		return hoisted(t, c) || hoisted(c, t);
	if (!site_counts(t))
		return 1;
	jt = caller_of_throwing(t);
	jc = caller_of_throwing(c);
	if (jt >= t->n || jc >= c->n) {
		if (!(jt >= t->n && jc >= c->n))
			return 0;
	} else if (helper_failure(t) ? !same_frame(&t->frames[jt], &c->frames[jc])
	                             : !same_function(&t->frames[jt], &c->frames[jc])) {
		return 0;
	}
	/* Where the stack cannot say which call reached the helper (the compiler merged the calls
	 * into one), the helper's message stands in for the call site, as ClusterFuzz uses an
	 * assertion's message. */
	if (helper_failure(t) && site_unknown(t, jt))
		return !strcmp(t->message ? t->message : "", c->message ? c->message : "");
	return 1;
}

int tnorm_match_test(const tnorm_match *m, const tnorm_signature *t, const tnorm_signature *c,
                     const char *out, const char *err)
{
	size_t i, k;
	if (!m || !c)
		return 0;
	switch (m->kind) {
	case TNORM_MATCH_ANY:
		return 1;
	case TNORM_MATCH_OUTPUT:
		return (out && regexec(&m->re, out, 0, NULL, 0) == 0) ||
		       (err && regexec(&m->re, err, 0, NULL, 0) == 0);
	case TNORM_MATCH_KIND:
		return t && !strcmp(t->kind, c->kind);
	case TNORM_MATCH_LINE:
		return t && match_line(t, c);
	case TNORM_MATCH_STACK:
		if (!t || strcmp(t->kind, c->kind))
			return 0;
		for (i = t->throwing, k = c->throwing; i < t->n && k < c->n &&
		     i - t->throwing < m->depth; i++, k++)
			if (!same_frame(&t->frames[i], &c->frames[k]))
				return 0;
		/* Both must have at least as many frames as compared (or run out together). */
		return (i - t->throwing == m->depth) || (i == t->n && k == c->n);
	}
	return 0;
}

static int put_key_frame(tnorm__buf *b, const char *sep, const tnorm_frame *f)
{
	/* What same_frame compares: file and line; else function and module; else the address. */
	int err = tnorm__buf_printf(b, "%s%s", sep, f->function);
	const char *mod = f->build_id && *f->build_id ? f->build_id : module_label(f);
	if (err < 0 || f->line)
		return err ? err : put_location(b, f);
	if (strcmp(f->function, "??"))
		return tnorm__buf_printf(b, " (%s)", mod);
	return tnorm__buf_printf(b, " (%s+0x%llx)", mod, (unsigned long long)f->offset);
}

/* An inlined function's caller as same_function compares it: function and file, no line. */
static int put_key_function(tnorm__buf *b, const tnorm_frame *f)
{
	if (!f->line)
		return put_key_frame(b, " <- ", f);
	return tnorm__buf_printf(b, " <- %s (%s)", f->function, f->file);
}

int tnorm_match_key(const tnorm_match *m, const tnorm_signature *s, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err = 0;
	size_t i, k;
	if (!m || !s || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_match_key: NULL argument");
	*out = NULL;
	switch (m->kind) {
	case TNORM_MATCH_ANY:
	case TNORM_MATCH_OUTPUT:
		break;
	case TNORM_MATCH_KIND:
		err = tnorm__buf_puts(&b, s->kind);
		break;
	case TNORM_MATCH_LINE:
		if ((err = tnorm__buf_puts(&b, s->kind)) < 0 || s->throwing >= s->n)
			break;
		if ((err = put_key_frame(&b, " at ", &s->frames[s->throwing])) < 0)
			break;
		if (site_counts(s)) {
			i = caller_of_throwing(s);
			if (i < s->n && (err = helper_failure(s) ? put_key_frame(&b, " <- ", &s->frames[i])
			                                         : put_key_function(&b, &s->frames[i])) < 0)
				break;
			if (helper_failure(s) && site_unknown(s, i) && s->message &&
			    (err = tnorm__buf_printf(&b, " [%s]", s->message)) < 0)
				break;
		}
		if (s->naux[TNORM_STACK_FREE] &&
		    (i = first_user(s->aux[TNORM_STACK_FREE], s->naux[TNORM_STACK_FREE])) <
		        s->naux[TNORM_STACK_FREE])
			err = put_key_frame(&b, "; freed at ", &s->aux[TNORM_STACK_FREE][i]);
		break;
	case TNORM_MATCH_STACK:
		if ((err = tnorm__buf_puts(&b, s->kind)) < 0)
			break;
		for (i = s->throwing, k = 0; i < s->n && k < m->depth && err == 0; i++, k++)
			err = put_key_frame(&b, k ? " <- " : " at ", &s->frames[i]);
		break;
	}
	if (err < 0 || !(*out = tnorm__buf_detach(&b))) {
		tnorm__buf_dispose(&b);
		return err < 0 ? err : TNORM_ENOMEM;
	}
	return 0;
}

int tnorm_signature_calibrate(tnorm_signature **out, int *stable, tnorm_signature *const *sigs,
                              size_t n)
{
	const tnorm_signature *s0;
	size_t keep, j;
	int all = 1, cut, err;
	if (!out || !stable || !sigs || n == 0)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_calibrate: nothing to calibrate");
	for (j = 0; j < n; j++)
		if (!sigs[j])
			return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_calibrate: NULL signature");
	s0 = sigs[0];
	keep = s0->n - s0->throwing;
	for (j = 1; j < n; j++) {
		const tnorm_signature *s = sigs[j];
		size_t k = 0;
		if (strcmp(s->kind, s0->kind) ||
		    strcmp(s->message ? s->message : "", s0->message ? s0->message : ""))
			all = 0;
		while (k < keep && s->throwing + k < s->n &&
		       same_frame(&s0->frames[s0->throwing + k], &s->frames[s->throwing + k]))
			k++;
		/* Two walks that a recursion cut at TNORM__MAX_FRAMES differ in length by where the
		 * stack ran out: that is no difference. */
		cut = s->exhausted && s0->exhausted;
		if ((k < keep && !(cut && s->throwing + k == s->n)) ||
		    (s->n - s->throwing != s0->n - s0->throwing && !cut))
			all = 0;
		if (k < keep)
			keep = k;
	}
	if ((err = tnorm_signature_new(out, s0->kind, s0->frames, s0->throwing + keep)) < 0)
		return err;
	for (j = 0; j < TNORM_STACK_COUNT; j++)
		if ((err = tnorm_signature_set_stack(*out, (tnorm_stack_kind)j, s0->aux[j], s0->naux[j])) < 0) {
			tnorm_signature_free(*out);
			*out = NULL;
			return err;
		}
	/* The message too (already masked: copied as it is): where a failure helper's call site
	 * cannot be told, it is what tells failures apart, and a target without it took every
	 * candidate for a slip (issue 27: `SIGABRT at main (driver.c:25)` against the same with
	 * `[message]`, not one byte removed in 6,134 runs). */
	if ((err = copy_extras(*out, s0)) < 0) {
		tnorm_signature_free(*out);
		*out = NULL;
		return err;
	}
	*stable = all;
	return 0;
}

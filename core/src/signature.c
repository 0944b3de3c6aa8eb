/* SPDX-License-Identifier: MIT */
/*
 * signature.c - failure signatures: build, print (text and JSON), compare under a policy,
 * and calibrate against several runs of the same test.
 *
 * A signature owns copies of all its strings so it can outlive the runner and its symbol caches
 * (reducers keep the target and every "slipped" signature for the whole session).  Which frames
 * belong to a runtime is decided here, once, by function name and module path, so that the
 * engine and the debugger plugins (which build signatures from the debugger's frames through
 * tnorm_signature_new) agree on the throwing frame.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "tnorm/signature.h"

struct tnorm_signature {
	char *kind;
	tnorm_frame *frames;
	size_t n;
	size_t throwing;
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
	             has_prefix(base, "libstdc++") || has_prefix(base, "libasan") ||
	             has_prefix(base, "libubsan") || has_prefix(base, "libtsan") ||
	             has_prefix(base, "liblsan") || has_prefix(base, "libgcc_s") ||
	             has_prefix(base, "ld-linux")))
		return 1;
	if (!fn)
		return 0;
	for (i = 0; libc_fns[i]; i++)
		if (!strcmp(fn, libc_fns[i]))
			return 1;
	return has_prefix(fn, "tnorm_") || has_prefix(fn, "tnorm__") || has_prefix(fn, "__asan") ||
	       has_prefix(fn, "__ubsan") || has_prefix(fn, "__sanitizer") || has_prefix(fn, "__lsan") ||
	       has_prefix(fn, "__interceptor_") || has_prefix(fn, "__cxa_throw") ||
	       has_prefix(fn, "__cxa_rethrow") || has_prefix(fn, "_Unwind_") ||
	       has_prefix(fn, "_ZSt9terminate") || has_prefix(fn, "_ZN10__cxxabiv1") ||
	       has_prefix(fn, "std::terminate") || has_prefix(fn, "__gnu_cxx::") ||
	       has_prefix(fn, "__cxxabiv1::") || !strcmp(fn, "__cxa_call_terminate");
}

void tnorm_signature_free(tnorm_signature *s)
{
	size_t i;
	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free((char *)s->frames[i].function);
		free((char *)s->frames[i].file);
		free((char *)s->frames[i].module);
	}
	free(s->frames);
	free(s->kind);
	free(s);
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
		const tnorm_frame *f = &frames[i];
		const char *file = f->file && *f->file ? f->file : "??";
		const char *slash = strrchr(file, '/');
		tnorm_frame *d = &s->frames[i];
		s->n = i + 1;
		d->pc = f->pc;
		d->line = f->line;
		if (!(d->function = tnorm__strdup(f->function && *f->function ? f->function : "??")) ||
		    !(d->file = tnorm__strdup(slash ? slash + 1 : file)) ||
		    !(d->module = tnorm__strdup(f->module ? f->module : ""))) {
			tnorm_signature_free(s);
			return TNORM_ENOMEM;
		}
		d->is_runtime = tnorm_frame_is_runtime(d->function, d->module);
		if (!d->is_runtime && s->throwing == nframes)
			s->throwing = i;
	}
	*out = s;
	return 0;
}

int tnorm_signature_dup(tnorm_signature **out, const tnorm_signature *s)
{
	if (!s)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_dup: NULL signature");
	return tnorm_signature_new(out, s->kind, s->frames, s->n);
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

int tnorm_signature_format(const tnorm_signature *s, size_t depth, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	size_t i, end, k = 0;
	int err;
	if (!s || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_format: NULL argument");
	*out = NULL;
	end = useful_end(s);
	if ((err = tnorm__buf_puts(&b, s->kind)) < 0)
		goto fail;
	for (i = s->throwing; i < end && (!depth || k < depth); i++, k++) {
		const tnorm_frame *f = &s->frames[i];
		if (f->is_runtime)
			continue;
		if ((err = tnorm__buf_printf(&b, k ? " <- %s" : " at %s", f->function)) < 0)
			goto fail;
		if (f->line)
			err = tnorm__buf_printf(&b, " (%s:%u)", f->file, f->line);
		else if (strcmp(f->file, "??"))
			err = tnorm__buf_printf(&b, " (%s)", f->file);
		if (err < 0)
			goto fail;
	}
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
fail:
	tnorm__buf_dispose(&b);
	return err;
}

static int json_str(tnorm__buf *b, const char *s)
{
	int err = tnorm__buf_putc(b, '"');
	for (; err == 0 && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			err = tnorm__buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			err = tnorm__buf_printf(b, "\\u%04x", c);
		else
			err = tnorm__buf_putc(b, (char)c);
	}
	return err ? err : tnorm__buf_putc(b, '"');
}

int tnorm_signature_json(const tnorm_signature *s, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	char *text = NULL;
	size_t i;
	int err;
	if (!s || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_json: NULL argument");
	*out = NULL;
	if ((err = tnorm_signature_format(s, 0, &text)) < 0)
		return err;
	if ((err = tnorm__buf_puts(&b, "{\"kind\": ")) < 0 || (err = json_str(&b, s->kind)) < 0 ||
	    (err = tnorm__buf_puts(&b, ", \"text\": ")) < 0 || (err = json_str(&b, text)) < 0 ||
	    (err = tnorm__buf_printf(&b, ", \"throwing\": %zu, \"frames\": [", s->throwing)) < 0)
		goto done;
	for (i = 0; i < s->n; i++) {
		const tnorm_frame *f = &s->frames[i];
		if ((err = tnorm__buf_printf(&b, "%s{\"pc\": \"0x%llx\", \"function\": ", i ? ", " : "",
		                             (unsigned long long)f->pc)) < 0 ||
		    (err = json_str(&b, f->function)) < 0 || (err = tnorm__buf_puts(&b, ", \"file\": ")) < 0 ||
		    (err = json_str(&b, f->file)) < 0 ||
		    (err = tnorm__buf_printf(&b, ", \"line\": %u, \"runtime\": %s, \"module\": ", f->line,
		                             f->is_runtime ? "true" : "false")) < 0 ||
		    (err = json_str(&b, f->module)) < 0 || (err = tnorm__buf_putc(&b, '}')) < 0)
			goto done;
	}
	if ((err = tnorm__buf_puts(&b, "]}")) < 0)
		goto done;
	if (!(*out = tnorm__buf_detach(&b)))
		err = TNORM_ENOMEM;
done:
	tnorm_free(text);
	tnorm__buf_dispose(&b);
	return err;
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

static int same_frame(const tnorm_frame *a, const tnorm_frame *b)
{
	return !strcmp(a->function, b->function) && !strcmp(a->file, b->file) && a->line == b->line;
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
		if (!t || strcmp(t->kind, c->kind))
			return 0;
		if (t->throwing >= t->n || c->throwing >= c->n)
			return t->throwing >= t->n && c->throwing >= c->n;
		return same_frame(&t->frames[t->throwing], &c->frames[c->throwing]);
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

int tnorm_signature_calibrate(tnorm_signature **out, int *stable, tnorm_signature *const *sigs,
                              size_t n)
{
	const tnorm_signature *s0;
	size_t keep, j;
	int all = 1, err;
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
		if (strcmp(s->kind, s0->kind))
			all = 0;
		while (k < keep && s->throwing + k < s->n &&
		       same_frame(&s0->frames[s0->throwing + k], &s->frames[s->throwing + k]))
			k++;
		if (k < keep || s->n - s->throwing != s0->n - s0->throwing)
			all = 0;
		if (k < keep)
			keep = k;
	}
	if ((err = tnorm_signature_new(out, s0->kind, s0->frames, s0->throwing + keep)) < 0)
		return err;
	*stable = all;
	return 0;
}
